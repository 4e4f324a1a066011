//! The whole JS surface: one `Sim` class.
//!
//! A plain `impl Sim` holds the validated Rust-typed operations (unit-tested natively); the
//! `#[wasm_bindgen] impl Sim` below it only renames to camelCase and turns [`SimError`] into
//! a JS `Error`. Every entry point validates its input and leaves the world unchanged when
//! it returns an error. Render data crosses without copying: `positions()`, `links()`,
//! `pointFlags()` and `linkStrain()` are typed-array *views* of wasm memory, valid until the
//! next call into the sim (memory may grow and detach them): rebuild them every frame.
//!
//! By concern: [`stepping`] (step, clock, render views, timers), [`settings`] (the settings
//! table's setters, the solver menu), [`editing`] (pointer and edit operations), [`ropes`]
//! (ropes, tangles, braid, events), [`scenes`] (load and export), [`reading`] (the scene's
//! measured number), [`recording`] (record and replay).

use wasm_bindgen::prelude::*;

mod bodies;
mod editing;
#[cfg(feature = "full")]
mod reading;
mod recording;
mod ropes;
mod scenes;
mod settings;
mod stepping;

pub use recording::{replay_recording, Outcome, ReplayReport};
#[cfg(feature = "full")]
pub use stepping::benchmark_line;

use crate::clock::FixedClock;
use crate::error::{self, Result, SimError};
use crate::scene::{Camera, Scene};
use crate::settings::table::{self, SettingValue};
use crate::solver::SolverKind;
use crate::world::World;

/// Bit set in `pointFlags()` for a locked point.
pub const FLAG_LOCKED: u8 = 1;
/// Bit set in `pointFlags()` for a point held by a pointer.
pub const FLAG_HELD: u8 = 2;

/// Per-frame render data Rust refills in place (no allocation once grown).
#[derive(Clone, Debug, Default)]
pub struct RenderBuffers {
    pub flags: Vec<u8>,
    pub strain: Vec<f32>,
    /// Per link: tension over the last substep (N); 0 for the classic solver.
    pub tension: Vec<f32>,
}

impl RenderBuffers {
    pub fn refill(&mut self, world: &World) {
        let p = &world.particles;
        self.flags.clear();
        self.flags.extend(
            (0..p.len()).map(|i| (if p.locked[i] { FLAG_LOCKED } else { 0 }) | (if p.held[i] { FLAG_HELD } else { 0 })),
        );
        let l = &world.links;
        self.strain.clear();
        self.strain.extend((0..l.len()).map(|k| {
            let [a, b] = l.ends[k];
            (p.pos[a as usize].distance(p.pos[b as usize]) - l.rest[k]) / l.rest[k]
        }));
        self.tension.clear();
        let forces = world.link_forces();
        self.tension.extend((0..l.len()).map(|k| forces.get(k).copied().unwrap_or(0.0)));
    }
}

#[wasm_bindgen]
pub struct Sim {
    world: World,
    render: RenderBuffers,
    name: String,
    camera: Option<Camera>,
    clock: FixedClock,
    /// Body poses for drawing, interpolated (7 floats per body), reused every frame.
    body_poses: Vec<f32>,
    /// Pointer → the soft joint dragging a body.
    mouse_joints: Vec<(u32, crate::ids::Id)>,
    /// The scene's measured number and restart time.
    #[cfg(feature = "full")]
    watch: reading::Watch,
    /// The open recording.
    recorder: Option<Box<recording::Recorder>>,
    /// The recording being played.
    player: Option<Box<recording::Player>>,
    /// A recording that reached `recording::MAX_STEPS` and ended there, until `stopRecording`.
    finished: Option<String>,
}

impl Default for Sim {
    fn default() -> Self {
        Self::new()
    }
}

fn js(e: SimError) -> JsError {
    JsError::new(&e.to_string())
}

/// A string argument from JS. The parameters that take text are `JsValue`s declared `string`
/// (`unchecked_param_type`), not `&str`: wasm-bindgen's glue for `&str` (0.2.106) traps —
/// `RuntimeError: memory access out of bounds`, poisoning the instance — when JS passes a
/// number or an object there (`loadScene(JSON.parse(text))`), because it reads `arg.length`
/// as the byte count. Found by `tests/fuzz/wasm-fuzz.mjs`.
fn js_text(what: &str, v: &JsValue) -> Result<String, JsError> {
    v.as_string().ok_or_else(|| {
        let got = if v.is_undefined() {
            "undefined".to_string()
        } else if v.is_null() {
            "null".to_string()
        } else {
            v.js_typeof().as_string().unwrap_or_default()
        };
        JsError::new(&format!("{what} must be a string (got {got})"))
    })
}

/// Converts a JS number used as an index into an `i64` the validators understand
/// (NaN, infinities and fractions become an out-of-range marker).
fn idx(x: f64) -> i64 {
    if x.is_finite() && x.fract() == 0.0 && x.abs() < 9.0e15 {
        x as i64
    } else {
        -1
    }
}

/// `&[Vec3]` as a flat `&[f32]` (glam's `Vec3` is `repr(C)` with three `f32`s, no padding).
fn bytemuck_vec3(v: &[glam::Vec3]) -> &[f32] {
    const _: () = assert!(std::mem::size_of::<glam::Vec3>() == 12);
    // SAFETY: Vec3 is #[repr(C)] { x: f32, y: f32, z: f32 } with size 12 and align 4,
    // so a slice of n Vec3 is exactly 3n contiguous f32.
    unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<f32>(), v.len() * 3) }
}
