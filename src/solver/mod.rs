//! Solvers: one file per algorithm, chosen at run time on the same world.
//!
//! Each `step(dt)` of the world is split into `substeps` substeps of length `h = dt / substeps`.
//! Every solver runs the same named stages per substep:
//!
//! 1. **integrate**  — external forces into velocity/position (Verlet or explicit Euler
//!    prediction);
//! 2. **solve**      — `iterations` passes over the constraints (links, …);
//! 3. **collide**    — walls / ground;
//! 4. **velocities** — `vel = (pos - prev) / h`, the invariant every solver keeps.
//!
//! Solver-owned scratch memory lives in [`Scratch`] and is reused from step to step: the
//! hot path never allocates once the scratch has grown to the world's size.

pub mod classic;

use serde::{Deserialize, Serialize};

use crate::world::World;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SolverKind {
    /// The 002 seed's Verlet + centre-split relaxation with give, faithfully.
    #[default]
    Classic,
}

impl SolverKind {
    pub const ALL: &'static [SolverKind] = &[SolverKind::Classic];

    pub fn name(self) -> &'static str {
        match self {
            SolverKind::Classic => "classic",
        }
    }

    pub fn from_name(s: &str) -> Option<SolverKind> {
        Self::ALL.iter().copied().find(|k| k.name() == s)
    }
}

/// Per-solver scratch, kept apart from user-facing definitions.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    /// Particle count the scratch was sized for.
    particles: usize,
    /// Link count the scratch was sized for.
    links: usize,
}

impl Scratch {
    /// Grows every buffer to `particles` / `links` entries. Allocates only when the world
    /// has grown since the last step.
    pub fn ensure(&mut self, particles: usize, links: usize) {
        self.particles = particles;
        self.links = links;
    }
}

/// Advances `world` by one substep of length `h` with its chosen solver.
pub fn substep(world: &mut World, h: f32) {
    match world.settings.solver {
        SolverKind::Classic => classic::substep(world, h),
    }
}
