//! The three-dog leash scene at run time: dogs that wander (the 000 seed's random walk,
//! seeded), stand at collar height, are pulled back by their leashes; and the braid of the
//! leashes, tracked every step.
//!
//! # Dogs
//!
//! A dog is its collar: a heavy particle at the end of its leash. Its legs hold the collar
//! at `height` (a vertical support the PBD-family solvers enforce every iteration, so a
//! leash cannot lift a dog and gravity cannot drop it), and walk it: the random walk drives
//! the dog's *intended* velocity `walk`,
//!
//! ```text
//! per step dt:  walk.xz += a·dt,  a = accel·(U(-1, 1), 0, U(-1, 1))  (the seed's random_accel)
//!               walk.xz *= exp(-damping·dt)                           (the seed's v *= 0.95)
//! ```
//!
//! and the feet's Coulomb friction on the ground (coefficient `grip`, normal force m·g) moves
//! the collar at that velocity as long as the leash pulls with less than μ·m·g; beyond that
//! the dog is dragged (position-level friction with the budget accumulated over each
//! substep's iterations, as in `collide::contact`).
//!
//! (plus an optional pull back to where the dog started, `home_pull`, so a demo's dogs stay
//! roughly in front of the handler) with U drawn from the world's own PRNG ([`Rng`], SplitMix64, seeded from the scene), so
//! the same seed and the same inputs replay the same walk bit for bit. The seed's 0.95 per
//! 60 Hz frame is a damping rate of 3.1/s; the scene's default (1.5/s with accel 12 m/s²)
//! gives a brisker walk of about 1 m/s. Leash tension acts on the collar through the links
//! like on any particle (the dog's mass decides how much it gives). Paused wandering
//! (`enabled = false`) keeps the damping, so the dogs come to a stop. A held (dragged) dog is
//! kinematic and skips both.
//!
//! # Braid
//!
//! Strand k is leash k from the hand to dog k ([`Leash::dogs`]). After every step the
//! [`BraidTracker`] re-reads the braid from the positions (see `tangle::crossings` for the
//! conventions: the handler faces `front`; strands are ordered by angle around the hand,
//! counter-clockwise seen from above; σᵢ = the left strand passes over). The page's top view
//! must draw +z downward on screen (x right) so that "counter-clockwise seen from above" is
//! counter-clockwise on screen.

use glam::Vec3;
use serde::{Deserialize, Serialize};

use crate::ropes::Ropes;
use crate::tangle::braid::MAX_STRANDS;
use crate::tangle::crossings::{BraidFrame, BraidSummary, BraidTracker};

/// SplitMix64 (Steele, Lea and Flood 2014): a tiny, fast, well-mixed 64-bit generator.
/// Deterministic across platforms (integer arithmetic only).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rng(pub u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1) with 24 bits (exact in f32).
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 * (1.0 / (1u64 << 24) as f32)
    }

    /// Uniform in [-1, 1).
    pub fn signed(&mut self) -> f32 {
        2.0 * self.unit() - 1.0
    }

    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }
}

/// The dogs' random walk.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WanderSpec {
    /// Dogs wander (false: they stand still, slowing down with `damping`).
    pub enabled: bool,
    /// Largest random acceleration per horizontal axis (m/s²; the seed: 1).
    pub accel: f32,
    /// Velocity damping rate (1/s; the seed's 0.95 per 60 Hz frame is 3.1).
    pub damping: f32,
    /// Seed of the world's PRNG: the same seed replays the same walk.
    pub seed: u64,
    /// Pull of each dog back toward where it started (1/s²: a spring acceleration
    /// -home_pull·(x - home) horizontally); 0 = the seed's free walk.
    pub home_pull: f32,
}

impl Default for WanderSpec {
    fn default() -> Self {
        WanderSpec { enabled: true, accel: 12.0, damping: 1.5, seed: 1, home_pull: 0.0 }
    }
}

/// Wandering state: settings and the PRNG.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Wander {
    pub spec: WanderSpec,
    pub rng: Rng,
}

impl Wander {
    pub fn new(spec: WanderSpec) -> Wander {
        Wander { spec, rng: Rng::new(spec.seed) }
    }
}

pub use crate::dog::Dog;

/// The leash scene's structure and braid.
#[derive(Clone, Debug)]
pub struct Leash {
    /// The hand: the shared first particle of every leash.
    pub hand: u32,
    /// Dog k at the end of leash k (strand k of the braid).
    pub dogs: Vec<Dog>,
    /// Every dog's leash runs from the hand to the dog; false after an edit broke one (the
    /// braid is then frozen; dogs still stand and wander).
    pub valid: bool,
    pub tracker: BraidTracker,
    /// `Ropes::version` the leash was checked against.
    ropes_version: u64,
    strand_buf: Vec<Vec3>,
    strand_end: Vec<usize>,
}

impl Leash {
    pub fn new(hand: u32, dogs: Vec<Dog>, frame: BraidFrame) -> Leash {
        Leash {
            hand,
            dogs,
            valid: true,
            tracker: BraidTracker::new(frame),
            ropes_version: u64::MAX,
            strand_buf: Vec::new(),
            strand_end: Vec::new(),
        }
    }

    /// Particle `i` was removed: indices above it shift down; a removed hand or dog
    /// invalidates the leash (a removed dog is dropped).
    pub fn remove_particle(&mut self, i: u32) {
        if self.hand == i {
            self.valid = false;
            self.hand = u32::MAX;
        } else if self.hand != u32::MAX && self.hand > i {
            self.hand -= 1;
        }
        let before = self.dogs.len();
        self.dogs.retain(|d| d.particle != i);
        if self.dogs.len() != before {
            self.valid = false;
        }
        for d in &mut self.dogs {
            if d.particle > i {
                d.particle -= 1;
            }
        }
    }

    /// Re-finds each dog's leash after the ropes changed: the rope from the hand to the dog.
    pub fn revalidate(&mut self, ropes: &Ropes) {
        if self.ropes_version == ropes.version {
            return;
        }
        self.ropes_version = ropes.version;
        let mut ok = self.valid && self.hand != u32::MAX && !self.dogs.is_empty() && self.dogs.len() <= MAX_STRANDS;
        for d in &mut self.dogs {
            let found = (0..ropes.len()).find(|&k| {
                let p = ropes.points(k);
                p.first() == Some(&self.hand) && p.last() == Some(&d.particle)
            });
            match found {
                Some(k) => d.rope = k as u32,
                None => {
                    d.rope = u32::MAX;
                    ok = false;
                }
            }
        }
        if self.valid && !ok {
            self.tracker.reset();
        }
        self.valid = ok;
    }

    /// Reads this step's braid (no allocation once the buffers have grown). Returns the
    /// tracker's events.
    pub fn update_braid(&mut self, pos: &[Vec3], ropes: &Ropes) -> &[crate::tangle::crossings::BraidEvent] {
        if !self.valid {
            return &[];
        }
        self.strand_buf.clear();
        self.strand_end.clear();
        for d in &self.dogs {
            for &p in ropes.points(d.rope as usize) {
                self.strand_buf.push(pos[p as usize]);
            }
            self.strand_end.push(self.strand_buf.len());
        }
        // Hand position may move (dragged): the frame follows it.
        self.tracker.frame.hub = pos[self.hand as usize];
        let mut refs: [&[Vec3]; MAX_STRANDS] = [&[]; MAX_STRANDS];
        let mut start = 0;
        for (k, &end) in self.strand_end.iter().enumerate() {
            refs[k] = &self.strand_buf[start..end];
            start = end;
        }
        self.tracker.update(&refs[..self.strand_end.len()])
    }

    /// The braid as the page shows it (computes the reduced form and the hint: call per
    /// frame at most, not per step). `swivel`: full twists count as untangled.
    pub fn summary(&self, swivel: bool) -> BraidSummary {
        self.tracker.summary(swivel)
    }
}

/// The wander stage: the random walk of every free dog's intended velocity (see module docs).
pub fn wander(dogs: &mut [Dog], w: &mut Wander, pos: &[Vec3], inv_mass: &[f32], dt: f32) {
    let damp = libm::expf(-w.spec.damping.max(0.0) * dt);
    for d in dogs {
        let i = d.particle as usize;
        // Draw for every dog so the stream does not depend on which dogs are held.
        let (ax, az) = (w.rng.signed(), w.rng.signed());
        if i >= pos.len() || inv_mass[i] == 0.0 {
            d.walk = Vec3::ZERO;
            continue;
        }
        let mut v = d.walk;
        if w.spec.enabled {
            let off = pos[i] - d.home;
            v.x += (ax * w.spec.accel - w.spec.home_pull * off.x) * dt;
            v.z += (az * w.spec.accel - w.spec.home_pull * off.z) * dt;
        }
        v.x *= damp;
        v.z *= damp;
        v.y = 0.0;
        d.walk = v;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rng_is_uniform_and_replayable() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        let xs: Vec<f32> = (0..10_000).map(|_| a.unit()).collect();
        assert!(xs.iter().all(|&x| (0.0..1.0).contains(&x)));
        let mean = xs.iter().sum::<f32>() / xs.len() as f32;
        assert!((mean - 0.5).abs() < 0.01, "{mean}");
        assert!(xs.iter().all(|&x| x == b.unit()));
        assert_ne!(Rng::new(8).unit(), Rng::new(7).unit());
    }
}
