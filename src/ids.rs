//! Stable ids for things referred to across steps (ropes, tangles; bodies and joints next):
//! a slot index plus a generation, as Box2D's `b2BodyId` or Rapier's handles. An id stays
//! valid, and names the same thing, while other things are added or removed; once its
//! thing is gone the id is stale (its slot's generation moved on) and every lookup says
//! so. Inside the engine things stay in dense arrays; the pool maps ids to dense indices.
//!
//! An id is one `u32`: the slot in the low 16 bits, the generation in the high 16 (Box2D
//! also keeps a 16-bit generation). So the first thing made in a fresh pool has id 0, the
//! next 1, … — the same numbers as their dense indices until something is removed.
//! `u32::MAX` is never a valid id (slot `0xFFFF` is never handed out).

/// A stable id (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Id(pub u32);

impl Id {
    /// Not an id (`u32::MAX`).
    pub const NONE: Id = Id(u32::MAX);

    pub const fn new(slot: u32, generation: u16) -> Id {
        Id(slot | (generation as u32) << 16)
    }
    pub const fn slot(self) -> usize {
        (self.0 & 0xFFFF) as usize
    }
    pub const fn generation(self) -> u16 {
        (self.0 >> 16) as u16
    }
}

/// Most things of one kind alive at once.
pub const MAX_LIVE: usize = 0xFFFF;

const NO_DENSE: u32 = u32::MAX;

/// Hands out ids and maps them to dense indices.
/// [`IdPool`] as plain lists (see [`IdPool::to_state`]).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IdState {
    pub generation: Vec<u16>,
    pub dense: Vec<u32>,
    pub free: Vec<u32>,
}

#[derive(Clone, Debug, Default)]
pub struct IdPool {
    generation: Vec<u16>,
    /// Dense index of each slot's thing (`NO_DENSE` when the slot is free).
    dense: Vec<u32>,
    free: Vec<u32>,
}

impl IdPool {
    /// A new id for a thing at dense index `dense`; `None` when [`MAX_LIVE`] are alive.
    pub fn alloc(&mut self, dense: usize) -> Option<Id> {
        let slot = match self.free.pop() {
            Some(s) => s,
            None => {
                if self.generation.len() >= MAX_LIVE {
                    return None;
                }
                self.generation.push(0);
                self.dense.push(NO_DENSE);
                (self.generation.len() - 1) as u32
            }
        };
        self.dense[slot as usize] = dense as u32;
        Some(Id::new(slot, self.generation[slot as usize]))
    }

    /// The thing named by `id` is gone: its id becomes stale, its slot reusable. Freeing a
    /// stale id does nothing.
    pub fn free(&mut self, id: Id) {
        if self.get(id).is_some() {
            let s = id.slot();
            self.dense[s] = NO_DENSE;
            self.generation[s] = self.generation[s].wrapping_add(1);
            self.free.push(s as u32);
        }
    }

    /// Dense index of the live thing named by `id`.
    pub fn get(&self, id: Id) -> Option<usize> {
        let s = id.slot();
        match (self.generation.get(s), self.dense.get(s)) {
            (Some(&g), Some(&d)) if g == id.generation() && d != NO_DENSE => Some(d as usize),
            _ => None,
        }
    }

    /// The live thing named by `id` moved to dense index `dense`.
    pub fn moved(&mut self, id: Id, dense: usize) {
        if self.get(id).is_some() {
            self.dense[id.slot()] = dense as u32;
        }
    }

    /// The pool as plain lists (per slot its generation and dense index, `u32::MAX` for a
    /// free slot; the free slots in reuse order): what an export carries (`scene::state`),
    /// so that ids, and the ids handed out next, stay the same after a reload.
    pub fn to_state(&self) -> IdState {
        IdState { generation: self.generation.clone(), dense: self.dense.clone(), free: self.free.clone() }
    }

    /// A pool from [`IdPool::to_state`]'s lists, for `n` live things; `None` when they do not
    /// describe one (each dense index 0..n once, the free slots exactly the others).
    pub fn from_state(s: &IdState, n: usize) -> Option<(IdPool, Vec<Id>)> {
        if s.generation.len() != s.dense.len() || s.generation.len() > MAX_LIVE {
            return None;
        }
        let mut ids = vec![None; n];
        for (slot, (&g, &d)) in s.generation.iter().zip(&s.dense).enumerate() {
            if d != NO_DENSE {
                let e = ids.get_mut(d as usize)?;
                if e.is_some() {
                    return None;
                }
                *e = Some(Id::new(slot as u32, g));
            }
        }
        let ids: Vec<Id> = ids.into_iter().collect::<Option<_>>()?;
        let mut free = s.free.clone();
        free.sort_unstable();
        free.dedup();
        let expected = s.dense.iter().filter(|&&d| d == NO_DENSE).count();
        if free.len() != s.free.len()
            || free.len() != expected
            || free.iter().any(|&f| s.dense.get(f as usize) != Some(&NO_DENSE))
        {
            return None;
        }
        Some((IdPool { generation: s.generation.clone(), dense: s.dense.clone(), free: s.free.clone() }, ids))
    }

    /// Replaces `pool` and the things' ids `id` (dense order) with [`IdPool::to_state`]'s
    /// lists; `false` (nothing changed) when they do not fit `id.len()` things.
    pub fn restore(pool: &mut IdPool, id: &mut Vec<Id>, s: &IdState) -> bool {
        match IdPool::from_state(s, id.len()) {
            Some((p, ids)) => {
                (*pool, *id) = (p, ids);
                true
            }
            None => false,
        }
    }

    /// Every id becomes stale.
    pub fn clear(&mut self) {
        for s in 0..self.generation.len() {
            if self.dense[s] != NO_DENSE {
                self.dense[s] = NO_DENSE;
                self.generation[s] = self.generation[s].wrapping_add(1);
                self.free.push(s as u32);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_stay_valid_when_others_go_and_go_stale_when_their_thing_goes() {
        let mut p = IdPool::default();
        let a = p.alloc(0).unwrap();
        let b = p.alloc(1).unwrap();
        let c = p.alloc(2).unwrap();
        assert_eq!((a, b, c), (Id(0), Id(1), Id(2)));
        p.free(a);
        p.moved(b, 0);
        p.moved(c, 1);
        assert_eq!((p.get(a), p.get(b), p.get(c)), (None, Some(0), Some(1)));
        let d = p.alloc(2).unwrap();
        assert_eq!(d.slot(), a.slot());
        assert_ne!(d, a, "a reused slot has a new generation");
        assert_eq!(p.get(a), None);
        assert_eq!(p.get(d), Some(2));
        p.free(a); // stale: nothing happens
        assert_eq!(p.get(d), Some(2));
        p.clear();
        assert!([a, b, c, d].iter().all(|&x| p.get(x).is_none()));
        assert_eq!(p.get(Id::NONE), None);
    }
}
