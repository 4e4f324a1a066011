//! # ropelab
//!
//! Rope and cable physics: a native core (no wasm types: `cargo test` runs it) and a thin
//! wasm skin (`wasm/`) that a canvas page drives every animation frame.
//!
//! SI units throughout (m, s, kg), y up. Positions are `glam::Vec3`; planar scenes live at
//! z = 0 and are drawn side-on, the leash scene is seen from above.
//!
//! ```
//! use ropelab::{scene::Scene, World};
//! let json = r#"{ "version": 1, "ropes": [ { "from": [0, 2, 0], "to": [1, 2, 0],
//!                 "points": 11, "lock_start": true } ] }"#;
//! let mut world: World = Scene::from_json(json).unwrap().build().unwrap();
//! for _ in 0..60 { world.step(1.0 / 60.0).unwrap(); }
//! assert!(world.particles.pos[10].y < 2.0); // the free end fell
//! ```

pub mod benchmark;
pub mod bodies;
pub mod clock;
pub mod collide;
pub mod constraints;
pub mod contacts;
pub mod determinism;
pub mod dog;
pub mod dualquat;
pub mod edit;
pub mod error;
pub mod hold;
pub mod ids;
pub mod joints;
pub mod json;
mod json_macro;
pub mod leash;
pub mod limits;
pub mod links;
pub mod measure;
pub mod num;
pub mod obstacle_wrap;
pub mod particles;
pub mod recording;
pub mod report;
pub mod ropes;
pub mod scene;
pub mod settings;
pub mod soak;
pub mod solver;
mod sort;
pub mod step;
pub mod tangle;
pub mod wasm;
pub mod winch;
pub mod workloads;
pub mod world;

/// Whether this is the full build (the `full` feature: rigid bodies, joints, body contacts,
/// the impulse solver and the playground's reports) rather than the lite embed build.
///
/// The lite build keeps every type and compiles every function, but the step and the
/// solvers skip the body stages behind `if FULL` (so the compiler drops their code), the
/// world refuses bodies, joints and attachments, the scene format refuses `bodies`,
/// `joints` and `attachments`, `impulse` cannot run a scene, and the wasm `Sim` lacks the
/// body methods and the playground's reports (`src/wasm/`). A rope scene steps through the
/// same arithmetic in both builds, so the same bits (`tests/web.rs`, `tests/e2e/lite.test.mjs`).
pub const FULL: bool = cfg!(feature = "full");

/// The error of a lite build asked for something only the full build has.
pub(crate) fn not_in_lite(what: &str) -> String {
    format!(
        "{what}: this is ropelab's lite build (the <rope-lab> embed's small wasm), which has no rigid bodies, \
         joints or impulse solver; the full build (ropelab_bg.wasm) runs it"
    )
}

pub use error::{Result, SimError};
pub use links::{LinkDef, LinkKind, Links};
pub use particles::{ParticleDef, Particles};
pub use settings::{Settings, View, Walls};
pub use solver::SolverKind;
pub use wasm::Sim;
pub use world::{Event, World};

/// The lite wasm's allocator: talc, 4.9 KB raw and 1.9 KB gzipped smaller than std's
/// dlmalloc (issue 12 §5; measured 2026-11-27: loading, exporting and stepping the rope
/// presets took the same time in node with either). The full build keeps dlmalloc.
// SAFETY: `new_global` requires single-threaded wasm, which this module is (no atomics or
// shared memory: wasm32-unknown-unknown without the `atomics` target feature).
#[cfg(all(target_arch = "wasm32", not(feature = "full")))]
#[global_allocator]
static ALLOCATOR: talc::TalckWasm = unsafe { talc::TalckWasm::new_global() };
