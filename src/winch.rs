//! Winches: a rope's length paid out or reeled in at a set speed, as a motor on the rope.
//!
//! A winch acts on a whole rope (named by its stable id): every step of length dt it adds
//! speed·dt (m; negative reels in) to the rope's length, spread evenly over its links' rest
//! lengths, so the rope keeps its resolution and every solver sees only a change of rest
//! lengths. Each link stays within [¼, 4]× the rest length it had when the winch was made
//! (the winch stops there: the drum is full or empty). Like a motor with a force cap it
//! stalls while reeling in against more than `max_force` of tension at its links (the
//! tensions of the last step), and holds the load there.

use crate::error::{self, Result, SimError};
use crate::ids::Id;
use crate::links::Links;
use crate::ropes::Ropes;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Winch {
    /// The rope it winds (stable rope id).
    pub rope: Id,
    /// Pay-out speed (m/s; negative reels in).
    pub speed: f32,
    /// Largest tension (N) it reels in against.
    pub max_force: f32,
    /// Rest length of one link when the winch was made (m).
    pub seg0: f32,
}

impl Winch {
    pub fn check(speed: f32, max_force: f32) -> Result<()> {
        error::in_range("winch speed", speed, -100.0, 100.0, "|speed| ≤ 100 m/s")?;
        error::in_range("winch max force", max_force, 0.0, 1e9, "0 ≤ max force ≤ 1e9 N")?;
        Ok(())
    }

    /// A winch on rope `rope` (its current mean link length is the reference).
    pub fn new(ropes: &Ropes, links: &Links, rope: Id, speed: f32, max_force: f32) -> Result<Winch> {
        Self::check(speed, max_force)?;
        let k = ropes.index_of(rope).ok_or_else(|| SimError::Invalid(format!("no rope with id {}", rope.0)))?;
        let segs = ropes.segments(k);
        if segs.is_empty() {
            return Err(SimError::Invalid("a winch needs a rope with links".into()));
        }
        let seg_link = ropes.seg_link();
        let total: f32 = segs.clone().map(|s| links.rest[seg_link[s] as usize]).sum();
        Ok(Winch { rope, speed, max_force, seg0: total / segs.len() as f32 })
    }

    /// One step of length `dt`: changes the rope's rest lengths (returns whether it did).
    pub fn step(&self, ropes: &Ropes, links: &mut Links, link_force: &[f32], dt: f32) -> bool {
        let Some(k) = ropes.index_of(self.rope) else { return false };
        let segs = ropes.segments(k);
        let seg_link = ropes.seg_link();
        let n = segs.len();
        if n == 0 || self.speed == 0.0 {
            return false;
        }
        if self.speed < 0.0 {
            let pull = segs.clone().filter_map(|s| link_force.get(seg_link[s] as usize)).fold(0.0f32, |m, &f| m.max(f));
            if pull > self.max_force {
                return false; // stalled
            }
        }
        let d = self.speed * dt / n as f32;
        // (Never under the shortest rest length a link may have, which every link starts at
        // or above: lo < hi still.)
        let (lo, hi) = ((0.25 * self.seg0).max(crate::limits::MIN_REST), 4.0 * self.seg0);
        let mut changed = false;
        for s in segs {
            let l = seg_link[s] as usize;
            if l < links.rest.len() {
                // `f32::clamp` as core writes it, without its `lo <= hi` assertion (its panic
                // message formats floats with `Debug`, ~30 KB of lite wasm; lo < hi here).
                let v = links.rest[l] + d;
                let r = if v < lo {
                    lo
                } else if v > hi {
                    hi
                } else {
                    v
                };
                if r != links.rest[l] {
                    links.rest[l] = r;
                    changed = true;
                }
            }
        }
        if changed {
            links.version += 1;
        }
        changed
    }

    /// The rope's current rest length (m).
    pub fn length(&self, ropes: &Ropes, links: &Links) -> f32 {
        let Some(k) = ropes.index_of(self.rope) else { return 0.0 };
        let seg_link = ropes.seg_link();
        ropes.segments(k).map(|s| links.rest[seg_link[s] as usize]).sum()
    }
}
