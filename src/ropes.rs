//! Ropes as first-class metadata: which particles form each rope, in order.
//!
//! A rope is an ordered list of particles in which every consecutive pair is joined by a
//! link. Ropes are what rope–rope contacts, tangles and braids talk about: the contact stage
//! needs every rope's segments consecutive (`segs`, `seg_rope`), a tangle names the two
//! ropes it joins and where along them it sits (arc length of rest lengths), and the leash
//! scene's braid reads each leash from the hand to its dog.
//!
//! Ropes may share particles (the three leashes share the hand). The scene builders register
//! ropes ([`Ropes::push`]); edits keep them valid or cleanly cut them:
//!
//! - removing a particle cuts every rope through it in two (pieces shorter than two
//!   particles vanish) and shifts later indices down ([`Ropes::remove_particle`]);
//! - subdividing a link inserts the new particles into the rope that runs along it
//!   ([`Ropes::insert_between`]);
//! - any other change of the links (cut, disconnect, tearing) is noticed at the next
//!   [`Ropes::sync`] (by `Links::version`): a rope whose consecutive particles are no longer
//!   linked is cut there.
//!
//! `version` is bumped whenever the list of ropes or their particles changes, so consumers
//! that hold rope ids (the leash, the braid tracker, tangles) know to revalidate.
//! The derived segment arrays are rebuilt only on such changes: a step with unchanged ropes
//! does not allocate.

use std::collections::HashMap;

use crate::ids::{Id, IdPool};
use crate::links::Links;
use crate::particles::Particles;

#[derive(Clone, Debug, Default)]
pub struct Ropes {
    /// All ropes' particles: rope k is `points[start[k]..start[k + 1]]`.
    points: Vec<u32>,
    start: Vec<u32>,
    /// Stable id of each rope (see [`crate::ids`]): a rope cut in two keeps its id on its
    /// first piece (from its start), the other piece gets a new one; a rope that vanishes
    /// takes its id with it.
    ids: Vec<Id>,
    pool: IdPool,
    /// Bumped on every change of the rope list or of a rope's particles.
    pub version: u64,
    /// Segment arrays (valid after [`Ropes::sync`]): segment j joins `segs[j]`, belongs to
    /// rope `seg_rope[j]`, is link `seg_link[j]`, and starts at arc length `seg_along[j]`
    /// (sum of the rest lengths before it along its rope, m). Rope k's segments are
    /// `seg_start[k]..seg_start[k + 1]`, in order.
    pub(crate) segs: Vec<[u32; 2]>,
    pub(crate) seg_rope: Vec<u32>,
    pub(crate) seg_link: Vec<u32>,
    pub(crate) seg_along: Vec<f32>,
    /// Contact radius of each segment: the smaller of its two particles' radii (an end weight
    /// or a dog with a large radius does not fatten its rope's last segment).
    pub(crate) seg_radius: Vec<f32>,
    pub(crate) seg_start: Vec<u32>,
    /// Largest segment radius.
    pub(crate) max_radius: f32,
    synced_links: u64,
    synced_particles: usize,
    synced_version: u64,
    synced: bool,
}

impl Ropes {
    pub fn new() -> Self {
        Self { start: vec![0], ..Default::default() }
    }

    /// Number of ropes.
    pub fn len(&self) -> usize {
        self.start.len().saturating_sub(1)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Rope `k`'s particles in order.
    pub fn points(&self, k: usize) -> &[u32] {
        &self.points[self.start[k] as usize..self.start[k + 1] as usize]
    }

    /// Registers a rope through `points` (≥ 2 particles, consecutive ones linked); returns
    /// its index. The caller (scene builder) guarantees the links exist; [`Ropes::sync`]
    /// cuts the rope where they do not.
    pub fn push(&mut self, points: &[u32]) -> usize {
        if self.start.is_empty() {
            self.start.push(0);
        }
        self.points.extend_from_slice(points);
        self.start.push(self.points.len() as u32);
        let k = self.len() - 1;
        self.ids.push(self.pool.alloc(k).unwrap_or(Id::NONE));
        self.version += 1;
        k
    }

    /// Removes every rope (their ids go stale).
    pub fn clear(&mut self) {
        self.points.clear();
        self.start.clear();
        self.start.push(0);
        self.ids.clear();
        self.pool.clear();
        self.version += 1;
    }

    /// Stable id of rope `k` ([`Id::NONE`] past [`crate::ids::MAX_LIVE`] ropes).
    pub fn id(&self, k: usize) -> Id {
        self.ids.get(k).copied().unwrap_or(Id::NONE)
    }

    /// Index of the rope with id `id`, if it still exists.
    pub fn index_of(&self, id: Id) -> Option<usize> {
        self.pool.get(id)
    }

    /// Replaces the rope list by `points`/`start`, rope j being a piece of old rope
    /// `origin[j]`: the first piece of each old rope keeps its id, later pieces get new
    /// ones, and old ropes with no piece left free theirs.
    fn replace(&mut self, points: Vec<u32>, start: Vec<u32>, origin: &[u32]) {
        let old = std::mem::take(&mut self.ids);
        let mut kept = vec![false; old.len()];
        let mut ids = Vec::with_capacity(origin.len());
        for (j, &o) in origin.iter().enumerate() {
            let o = o as usize;
            if o < old.len() && !kept[o] && old[o] != Id::NONE {
                kept[o] = true;
                self.pool.moved(old[o], j);
                ids.push(old[o]);
            } else {
                ids.push(self.pool.alloc(j).unwrap_or(Id::NONE));
            }
        }
        for (o, id) in old.into_iter().enumerate() {
            if !kept[o] {
                self.pool.free(id);
            }
        }
        self.ids = ids;
        self.points = points;
        self.start = start;
        self.version += 1;
    }

    /// Segments of rope `k` as indices into the segment arrays (valid after `sync`).
    pub fn segments(&self, k: usize) -> std::ops::Range<usize> {
        self.seg_start[k] as usize..self.seg_start[k + 1] as usize
    }

    /// All segments (particle pairs), rope by rope (valid after `sync`).
    pub fn segs(&self) -> &[[u32; 2]] {
        &self.segs
    }

    /// Rope of each segment (valid after `sync`).
    pub fn seg_rope(&self) -> &[u32] {
        &self.seg_rope
    }

    /// Link index of each segment (valid after `sync`).
    pub fn seg_link(&self) -> &[u32] {
        &self.seg_link
    }

    /// Rope index of every link (`-1` for links in no rope); a fresh vector.
    pub fn rope_of_links(&self, links: usize) -> Vec<i32> {
        let mut out = vec![-1; links];
        for (j, &l) in self.seg_link.iter().enumerate() {
            if let Some(o) = out.get_mut(l as usize) {
                *o = self.seg_rope[j] as i32;
            }
        }
        out
    }

    /// Particle `i` was removed: ropes through it are cut there, later indices shift down.
    pub fn remove_particle(&mut self, i: u32) {
        if !self.points.contains(&i) && !self.points.iter().any(|&p| p > i) {
            return;
        }
        let (mut points, mut start, mut origin) = (Vec::new(), vec![0u32], Vec::new());
        for k in 0..self.len() {
            for piece in self.points(k).split(|&p| p == i) {
                if piece.len() >= 2 {
                    points.extend(piece.iter().map(|&p| if p > i { p - 1 } else { p }));
                    start.push(points.len() as u32);
                    origin.push(k as u32);
                }
            }
        }
        self.replace(points, start, &origin);
    }

    /// The link between `a` and `b` was split by new particles `new` (in order from `a` to
    /// `b`): ropes running along it get them inserted.
    pub fn insert_between(&mut self, a: u32, b: u32, new: &[u32]) {
        let mut changed = false;
        let mut points = Vec::with_capacity(self.points.len() + new.len());
        let mut start = vec![0u32];
        for k in 0..self.len() {
            let r = self.points(k);
            for (j, &p) in r.iter().enumerate() {
                points.push(p);
                if let Some(&q) = r.get(j + 1) {
                    if p == a && q == b {
                        points.extend_from_slice(new);
                        changed = true;
                    } else if p == b && q == a {
                        points.extend(new.iter().rev());
                        changed = true;
                    }
                }
            }
            start.push(points.len() as u32);
        }
        if changed {
            self.points = points;
            self.start = start;
            self.version += 1;
        }
    }

    /// Brings the segment arrays up to date with the links; cuts ropes whose consecutive
    /// particles are no longer linked (or out of range). Allocates only when something
    /// changed. Returns whether the rope list changed.
    pub fn sync(&mut self, particles: &Particles, links: &Links) -> bool {
        if self.start.is_empty() {
            self.start.push(0);
        }
        let n = particles.len();
        if self.synced
            && self.synced_links == links.version
            && self.synced_particles == n
            && self.synced_version == self.version
        {
            // Radii may have changed (no version for them): cheap to refresh.
            self.refresh_radii(particles);
            return false;
        }
        let mut by_ends: HashMap<(u32, u32), u32> = HashMap::with_capacity(links.len());
        for (k, &[a, b]) in links.ends.iter().enumerate() {
            by_ends.entry((a.min(b), a.max(b))).or_insert(k as u32);
        }
        let link_of = |a: u32, b: u32| by_ends.get(&(a.min(b), a.max(b))).copied();
        // Cut ropes at missing links.
        let mut cut = false;
        let mut points = Vec::with_capacity(self.points.len());
        let mut start = vec![0u32];
        let mut origin = Vec::with_capacity(self.len());
        for k in 0..self.len() {
            let r = self.points(k);
            let mut piece_start = points.len();
            for (j, &p) in r.iter().enumerate() {
                let ok = (p as usize) < n && (j == 0 || link_of(r[j - 1], p).is_some());
                if !ok {
                    cut = true;
                    // Close the current piece before p.
                    if points.len() - piece_start >= 2 {
                        start.push(points.len() as u32);
                        origin.push(k as u32);
                    } else {
                        points.truncate(piece_start);
                    }
                    piece_start = points.len();
                    if (p as usize) >= n {
                        continue;
                    }
                }
                points.push(p);
            }
            if points.len() - piece_start >= 2 {
                start.push(points.len() as u32);
                origin.push(k as u32);
            } else {
                points.truncate(piece_start);
            }
        }
        if cut {
            self.replace(points, start, &origin);
        }
        // Segment arrays.
        self.segs.clear();
        self.seg_rope.clear();
        self.seg_link.clear();
        self.seg_along.clear();
        self.seg_start.clear();
        self.seg_start.push(0);
        for k in 0..self.len() {
            let mut along = 0.0;
            let r = &self.points[self.start[k] as usize..self.start[k + 1] as usize];
            for w in r.windows(2) {
                let l = link_of(w[0], w[1]).expect("cut above");
                self.segs.push([w[0], w[1]]);
                self.seg_rope.push(k as u32);
                self.seg_link.push(l);
                self.seg_along.push(along);
                along += links.rest[l as usize];
            }
            self.seg_start.push(self.segs.len() as u32);
        }
        self.seg_radius.resize(self.segs.len(), 0.0);
        self.refresh_radii(particles);
        self.synced = true;
        self.synced_links = links.version;
        self.synced_particles = n;
        self.synced_version = self.version;
        cut
    }

    fn refresh_radii(&mut self, particles: &Particles) {
        let r = &particles.radius;
        let mut m = 0.0f32;
        for (j, &[a, b]) in self.segs.iter().enumerate() {
            let x = r[a as usize].min(r[b as usize]);
            self.seg_radius[j] = x;
            m = m.max(x);
        }
        self.max_radius = m;
    }

    /// Arc length (rest lengths, m) along rope `seg_rope[j]` at parameter `s` ∈ [0, 1] of
    /// segment `j`, given the segment's rest length.
    #[inline]
    pub(crate) fn along(&self, j: usize, s: f32, rest: f32) -> f32 {
        self.seg_along[j] + s * rest
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::links::LinkDef;
    use crate::particles::ParticleDef;

    fn chain(n: usize) -> (Particles, Links) {
        let mut p = Particles::default();
        let mut l = Links::default();
        for i in 0..n {
            p.push(&ParticleDef { pos: glam::Vec3::X * i as f32, ..Default::default() }, 1.0 / 60.0);
        }
        for i in 0..n - 1 {
            l.push(&LinkDef { a: i as u32, b: i as u32 + 1, ..Default::default() }, 1.0);
        }
        (p, l)
    }

    #[test]
    fn rope_ids_survive_cuts_and_removals_of_other_ropes() {
        let (p, mut l) = chain(9);
        let mut r = Ropes::new();
        r.push(&[0, 1, 2]);
        r.push(&[3, 4, 5]);
        r.push(&[6, 7, 8]);
        r.sync(&p, &l);
        let ids: Vec<Id> = (0..3).map(|k| r.id(k)).collect();
        assert_eq!(ids, [Id(0), Id(1), Id(2)]);
        // Cut the first rope's second link: it becomes [0, 1] (the piece [2] is too short).
        l.remove(l.find(1, 2).unwrap());
        r.sync(&p, &l);
        assert_eq!(r.len(), 3);
        assert_eq!((r.index_of(ids[0]), r.index_of(ids[1]), r.index_of(ids[2])), (Some(0), Some(1), Some(2)));
        // Cut rope 1 in the middle of nothing: remove particle 4 (rope [3,4,5] has no piece
        // of ≥ 2 left), later indices shift, rope 2 moves to index 1 and keeps its id.
        r.remove_particle(4);
        assert_eq!(r.len(), 2);
        assert_eq!(r.index_of(ids[1]), None, "the vanished rope's id is stale");
        assert_eq!(r.index_of(ids[2]), Some(1));
        assert_eq!(r.points(1), &[5, 6, 7]);
        assert_eq!(r.id(1), ids[2]);
        // A rope cut in two: the first piece keeps the id, the second gets a fresh one.
        let (p2, mut l2) = chain(6);
        let mut r2 = Ropes::new();
        r2.push(&[0, 1, 2, 3, 4, 5]);
        r2.sync(&p2, &l2);
        let id = r2.id(0);
        l2.remove(l2.find(2, 3).unwrap());
        r2.sync(&p2, &l2);
        assert_eq!(r2.id(0), id);
        assert_ne!(r2.id(1), id);
        assert_eq!(r2.index_of(r2.id(1)), Some(1));
    }

    #[test]
    fn segments_follow_links_and_cuts_split() {
        let (p, mut l) = chain(6);
        let mut r = Ropes::new();
        r.push(&[0, 1, 2, 3, 4, 5]);
        r.sync(&p, &l);
        assert_eq!(r.segs().len(), 5);
        assert_eq!(r.seg_along[3], 3.0);
        // Cut link 2–3: two ropes.
        let k = l.find(2, 3).unwrap();
        l.remove(k);
        assert!(r.sync(&p, &l));
        assert_eq!(r.len(), 2);
        assert_eq!(r.points(0), &[0, 1, 2]);
        assert_eq!(r.points(1), &[3, 4, 5]);
        assert_eq!(r.segs().len(), 4);
        // Removing particle 4 cuts rope 1 and shifts 5 → 4; [3] alone vanishes.
        r.remove_particle(4);
        assert_eq!(r.len(), 1);
        assert_eq!(r.points(0), &[0, 1, 2]);
        // Subdividing 0–1 inserts new points.
        r.insert_between(1, 0, &[10, 11]);
        assert_eq!(r.points(0), &[0, 11, 10, 1, 2]);
    }
}
