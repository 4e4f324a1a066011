//! Struct-of-arrays particle storage.
//!
//! Every array has one entry per particle. `pos` is laid out as `[x, y, z]` `f32` triples
//! (`glam::Vec3` is `repr(C)`, not SIMD-padded), so the page reads it as a `Float32Array`
//! view of wasm memory without a copy.
//!
//! Invariant kept by every solver at the end of a step of length `h`:
//! `vel == (pos - prev) / h`, so solvers can be switched between steps without a jolt.

use glam::Vec3;

/// User-facing description of one particle (creation goes through `*Def` types).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParticleDef {
    /// Position in metres.
    pub pos: Vec3,
    /// Initial velocity in m/s.
    pub vel: Vec3,
    /// Mass in kg (> 0). Kept while the particle is locked, so unlocking restores it.
    pub mass: f32,
    /// Collision radius in metres (≥ 0).
    pub radius: f32,
    /// Locked (pinned) particles never move; the solver sees an inverse mass of 0.
    pub locked: bool,
}

impl Default for ParticleDef {
    fn default() -> Self {
        Self { pos: Vec3::ZERO, vel: Vec3::ZERO, mass: 1.0, radius: 0.02, locked: false }
    }
}

/// Particle state, struct of arrays. Hot arrays first.
#[derive(Clone, Debug, Default)]
pub struct Particles {
    /// Current position (m).
    pub pos: Vec<Vec3>,
    /// Position at the start of the last step (Verlet's previous position).
    pub prev: Vec<Vec3>,
    /// Velocity (m/s).
    pub vel: Vec<Vec3>,
    /// Inverse mass the solver uses: 0 when locked or held by a pointer.
    pub inv_mass: Vec<f32>,
    /// User mass in kg.
    pub mass: Vec<f32>,
    /// Collision radius (m).
    pub radius: Vec<f32>,
    /// Locked by the user.
    pub locked: Vec<bool>,
    /// Held by a pointer (kinematic while held).
    pub held: Vec<bool>,
    /// Target of the particle's pin to a world point (meaningful where `pin_compliance` is
    /// finite). See `World::pin`.
    pub pin_target: Vec<Vec3>,
    /// Compliance of the pin (m/N); `f32::INFINITY` (an infinitely soft pin) = not pinned.
    pub pin_compliance: Vec<f32>,
    /// Bumped whenever particles are added or removed, which particles are free changes
    /// (lock, hold, release) or a pin changes, so solvers can rebuild cached structure
    /// (tethers to anchors, the list of pins). Write `inv_mass` only through
    /// [`Particles::refresh_inv_mass`] so the version follows.
    pub version: u64,
}

impl Particles {
    pub fn len(&self) -> usize {
        self.pos.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pos.is_empty()
    }

    /// Appends a particle and returns its index. The caller validates the def.
    pub fn push(&mut self, def: &ParticleDef, h_hint: f32) -> usize {
        self.pos.push(def.pos);
        self.prev.push(def.pos - def.vel * h_hint);
        self.vel.push(def.vel);
        self.mass.push(def.mass);
        self.radius.push(def.radius);
        self.locked.push(def.locked);
        self.held.push(false);
        self.pin_target.push(def.pos);
        self.pin_compliance.push(f32::INFINITY);
        self.inv_mass.push(0.0);
        let i = self.len() - 1;
        self.version += 1;
        self.refresh_inv_mass(i);
        i
    }

    /// Removes particle `i`; later particles shift down by one (indices stay dense).
    pub fn remove(&mut self, i: usize) {
        self.pos.remove(i);
        self.prev.remove(i);
        self.vel.remove(i);
        self.inv_mass.remove(i);
        self.mass.remove(i);
        self.radius.remove(i);
        self.locked.remove(i);
        self.held.remove(i);
        self.pin_target.remove(i);
        self.pin_compliance.remove(i);
        self.version += 1;
    }

    /// Recomputes the solver's inverse mass from mass, lock and hold state.
    pub fn refresh_inv_mass(&mut self, i: usize) {
        self.set_inv_mass(
            i,
            if self.locked[i] || self.held[i] || self.mass[i] <= 0.0 { 0.0 } else { 1.0 / self.mass[i] },
        );
    }

    /// Sets the solver's inverse mass of particle `i`, bumping `version` when it changes.
    #[inline]
    pub(crate) fn set_inv_mass(&mut self, i: usize, w: f32) {
        if self.inv_mass[i] != w {
            self.inv_mass[i] = w;
            self.version += 1;
        }
    }

    /// Whether particle `i` has a pin to a world point.
    #[inline]
    pub fn is_pinned(&self, i: usize) -> bool {
        self.pin_compliance[i].is_finite()
    }

    /// Total kinetic plus gravitational potential energy (J) for a gravity vector `g`.
    /// Locked particles count with their mass but do not move.
    /// (Every particle at its own mass: `World::energy` leaves out the attached ones.)
    pub fn energy(&self, g: Vec3) -> f64 {
        let mut e = 0.0f64;
        for i in 0..self.len() {
            if self.locked[i] {
                continue;
            }
            e += self.energy_of(i, g);
        }
        e
    }

    /// Kinetic plus potential energy (J) of particle `i` at its own mass.
    #[inline]
    pub fn energy_of(&self, i: usize, g: Vec3) -> f64 {
        let m = self.mass[i] as f64;
        0.5 * m * self.vel[i].length_squared() as f64 - m * g.dot(self.pos[i]) as f64
    }
}
