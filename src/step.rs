//! The step as a value: the ordered list of its stages ([`STAGES`]), which `World::step`
//! runs, which names the per-stage timers and which the docs describe; and the step's
//! outputs that later stages and the reports read ([`StepOutputs`]).
//!
//! A step of length `dt` with `substeps` substeps of length `h = dt / substeps` runs:
//!
//! | stage        | per      | what                                                          |
//! |--------------|----------|---------------------------------------------------------------|
//! | `ropes`      | step     | rope metadata in sync with the links (cut ropes split)        |
//! | `wander`     | step     | the leash dogs' random walk                                   |
//! | `holdMasses` | step     | held particles become kinematic (or keep mass: soft mouse)    |
//! | `prepare`    | step     | solver: scratch sized, topology refreshed, links packed       |
//! | `collide`    | step     | bodies' contacts: the broad phase's body pass (body–body and  |
//! |              |          | rope–body pairs), narrow phase, patches (`contacts`); then   |
//! |              |          | the contacts that strike, as impacts (`contacts::impact`)     |
//! | `winches`    | substep  | winches pay ropes out or reel them in (rest lengths, repack)  |
//! | `holds`      | substep  | held particles move toward their pointers                     |
//! | `integrate`  | substep  | solver: gravity and damping into a predicted position         |
//! | `broadPhase` | substep  | the same broad phase's rope pass: rope–rope pairs (swept)     |
//! | `solve`      | substep  | solver: `iterations` passes over constraints and contacts     |
//! | `velocities` | substep  | v = (x − x_prev)/h, restitution for particles that hit        |
//! | `forces`     | step     | each link's tension from its multiplier (a step output)       |
//! | `tearing`    | step     | links past their tear stretch or force are removed            |
//! | `tangles`    | step     | tangles from the rope contacts and link forces (events)       |
//! | `braid`      | step     | the leash braid re-read from the positions (events)           |
//!
//! One fusion is kept, and it is visible here rather than hidden: without contacts, the
//! `velocities` stage of every substep but the last only marks its work pending, and the
//! next `integrate` computes the velocity on its way (one pass over the particles instead of
//! two; the same arithmetic, so the same bits). Its time is then counted under `integrate`.

use crate::collide::RopeContacts;

/// One stage of the step (see the module docs for the order and what each does).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    Ropes,
    Wander,
    HoldMasses,
    Prepare,
    Collide,
    Winches,
    Holds,
    Integrate,
    BroadPhase,
    Solve,
    Velocities,
    Forces,
    Tearing,
    Tangles,
    Braid,
}

/// Every stage in the order a step runs them; the `per_substep` ones form one contiguous
/// block that runs once per substep.
pub const STAGES: [Stage; 15] = [
    Stage::Ropes,
    Stage::Wander,
    Stage::HoldMasses,
    Stage::Prepare,
    Stage::Collide,
    Stage::Winches,
    Stage::Holds,
    Stage::Integrate,
    Stage::BroadPhase,
    Stage::Solve,
    Stage::Velocities,
    Stage::Forces,
    Stage::Tearing,
    Stage::Tangles,
    Stage::Braid,
];

impl Stage {
    /// The stage's name (as the page's breakdown and `Sim.stageTimes()` show it).
    pub const fn name(self) -> &'static str {
        match self {
            Stage::Ropes => "ropes",
            Stage::Wander => "wander",
            Stage::Winches => "winches",
            Stage::HoldMasses => "holdMasses",
            Stage::Prepare => "prepare",
            Stage::Collide => "collide",
            Stage::Holds => "holds",
            Stage::Integrate => "integrate",
            Stage::BroadPhase => "broadPhase",
            Stage::Solve => "solve",
            Stage::Velocities => "velocities",
            Stage::Forces => "forces",
            Stage::Tearing => "tearing",
            Stage::Tangles => "tangles",
            Stage::Braid => "braid",
        }
    }

    /// Whether the stage runs once per substep (else once per step).
    pub const fn per_substep(self) -> bool {
        matches!(
            self,
            Stage::Winches | Stage::Holds | Stage::Integrate | Stage::BroadPhase | Stage::Solve | Stage::Velocities
        )
    }

    /// Position of the stage in [`STAGES`].
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// What the solver leaves for the stages after it and for reports: the tension of every
/// link and the rope–rope contacts, both of the step's last substep.
#[derive(Clone, Debug, Default)]
pub struct StepOutputs {
    /// Tension of every link over the last substep of the last step (N; 0 for the classic
    /// solver, which has no multipliers).
    pub link_force: Vec<f32>,
    /// Rope–rope contacts of the current (after a step: the last) substep.
    pub rope: RopeContacts,
}

/// Per-stage wall-clock time, accumulated while profiling is on (`World::set_profiler`).
#[derive(Clone, Debug)]
pub struct StageTimes {
    /// The clock (milliseconds from any origin): `performance.now` in the browser,
    /// `std::time::Instant` natively.
    pub(crate) now: fn() -> f64,
    /// Total milliseconds per stage (indexed by [`Stage::index`]) since the last reset.
    pub total_ms: [f64; STAGES.len()],
    /// Steps timed since the last reset.
    pub steps: u64,
}

impl StageTimes {
    pub fn new(now: fn() -> f64) -> StageTimes {
        StageTimes { now, total_ms: [0.0; STAGES.len()], steps: 0 }
    }

    /// Starts counting again from zero.
    pub fn reset(&mut self) {
        self.total_ms = [0.0; STAGES.len()];
        self.steps = 0;
    }

    /// Mean time per step of each stage (µs), in stage order.
    pub fn mean_us(&self) -> impl Iterator<Item = (Stage, f64)> + '_ {
        let n = self.steps.max(1) as f64;
        STAGES.iter().map(move |&s| (s, self.total_ms[s.index()] * 1e3 / n))
    }
}

/// A clock for [`StageTimes`] on native targets (milliseconds since its first call).
#[cfg(not(target_arch = "wasm32"))]
pub fn native_clock() -> f64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    EPOCH.get_or_init(Instant::now).elapsed().as_secs_f64() * 1e3
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stages_are_listed_in_index_order_with_one_substep_block() {
        for (k, s) in STAGES.iter().enumerate() {
            assert_eq!(s.index(), k);
        }
        let flags: Vec<bool> = STAGES.iter().map(|s| s.per_substep()).collect();
        let first = flags.iter().position(|&f| f).unwrap();
        let last = flags.iter().rposition(|&f| f).unwrap();
        assert!(flags[first..=last].iter().all(|&f| f), "per-substep stages must be contiguous");
        let names: std::collections::HashSet<_> = STAGES.iter().map(|s| s.name()).collect();
        assert_eq!(names.len(), STAGES.len());
    }
}
