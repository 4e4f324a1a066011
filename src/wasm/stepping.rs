//! Stepping and drawing: construction, `step`/`advance` and the fixed clock, the zero-copy
//! render views (positions, links, flags, strain, tensions), energy and stretch, the
//! per-stage timers, and the browser benchmark harness.

use super::*;

/// `performance.now()` (ms): the per-stage timers' clock in the browser and in node.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// The clock the per-stage timers use on this target (ms).
fn stage_clock() -> fn() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        performance_now
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        crate::step::native_clock
    }
}

/// The plain Rust surface (natively testable).
impl Sim {
    pub fn world(&self) -> &World {
        &self.world
    }

    pub fn world_mut(&mut self) -> &mut World {
        &mut self.world
    }

    /// Runs the fixed steps due after `elapsed` seconds of real time (see [`FixedClock`]).
    pub fn advance_checked(&mut self, elapsed: f64) -> Result<u32> {
        let n = self.clock.advance(elapsed);
        for _ in 0..n {
            self.step_checked(self.clock.h)?;
        }
        Ok(n)
    }

    /// One step of `dt` (s); during a replay, of the recorded length, after the inputs due.
    pub fn step_checked(&mut self, dt: f32) -> Result<()> {
        let h = self.replay_before_step().unwrap_or(dt);
        self.world.step(h)?;
        self.after_step(h);
        Ok(())
    }

    /// What follows every step the page runs: the scene's meter reads the world, a recording
    /// counts the step, a replay checks it.
    fn after_step(&mut self, h: f32) {
        #[cfg(feature = "full")]
        self.watch.after_step(&self.world, !self.mouse_joints.is_empty());
        self.record_step(h);
        self.replay_after_step();
    }

    pub fn set_fixed_step_checked(&mut self, h: f32, max_steps: f64) -> Result<()> {
        error::time_step(h)?;
        let max_steps =
            error::count("max steps", max_steps, 1, crate::limits::MAX_CATCH_UP, "a whole number in 1..=10")?;
        self.clock = FixedClock::new(h, max_steps);
        Ok(())
    }

    pub fn refill_render(&mut self) {
        self.render.refill(&self.world);
    }

    pub fn render_buffers(&self) -> &RenderBuffers {
        &self.render
    }

    /// Mean time per step of every stage (µs) since profiling was turned on or reset, as
    /// JSON `{steps, stages: [{name, perSubstep, us}]}`; `null` when profiling is off.
    pub fn stage_times_json(&self) -> String {
        match self.world.stage_times() {
            None => "null".into(),
            Some(t) => {
                let stages: Vec<crate::json_macro::Value> = t
                    .mean_us()
                    .map(
                        |(s, us)| crate::json_macro::json!({"name": s.name(), "perSubstep": s.per_substep(), "us": us}),
                    )
                    .collect();
                crate::json_macro::json!({"steps": t.steps, "stages": stages}).to_string()
            }
        }
    }

    /// Turns the per-stage timers on (from zero) or off.
    pub fn set_profiling_checked(&mut self, on: bool) {
        self.world.set_profiler(on.then(stage_clock));
    }
}

#[wasm_bindgen]
impl Sim {
    /// An empty world with default settings (classic solver, SI units, y up).
    #[wasm_bindgen(constructor)]
    pub fn new() -> Sim {
        #[cfg(target_arch = "wasm32")]
        console_error_panic_hook::set_once();
        Sim {
            world: World::default(),
            render: RenderBuffers::default(),
            name: String::new(),
            camera: None,
            clock: FixedClock::new(1.0 / 60.0, 5),
            body_poses: Vec::new(),
            mouse_joints: Vec::new(),
            #[cfg(feature = "full")]
            watch: Default::default(),
            recorder: None,
            player: None,
            finished: None,
        }
    }

    /// Adds a frame's real elapsed time (s) to the fixed-step accumulator and runs the
    /// steps that are due (at most `maxSteps`, the backlog beyond that is dropped).
    /// Returns the number of steps run. Negative or non-finite elapsed time counts as 0.
    pub fn advance(&mut self, elapsed: f64) -> Result<u32, JsError> {
        self.advance_checked(elapsed).map_err(js)
    }

    /// Sets the fixed step `h` (s) and the catch-up cap used by `advance`.
    #[wasm_bindgen(js_name = setFixedStep)]
    pub fn set_fixed_step(&mut self, h: f32, max_steps: f64) -> Result<(), JsError> {
        self.set_fixed_step_checked(h, max_steps).map_err(js)
    }

    /// Fraction of a fixed step the clock has accumulated (for interpolated drawing).
    #[wasm_bindgen(getter)]
    pub fn alpha(&self) -> f32 {
        self.clock.alpha()
    }

    /// The fixed step `h` (s) used by `advance`.
    #[wasm_bindgen(getter, js_name = fixedStep)]
    pub fn fixed_step(&self) -> f32 {
        self.clock.h
    }

    /// Advances exactly `dt` seconds (1e-6 ≤ dt ≤ 1); during a replay, one recorded step.
    pub fn step(&mut self, dt: f32) -> Result<(), JsError> {
        self.step_checked(dt).map_err(js)
    }

    #[wasm_bindgen(getter, js_name = pointCount)]
    pub fn point_count(&self) -> u32 {
        self.world.particles.len() as u32
    }

    #[wasm_bindgen(getter, js_name = linkCount)]
    pub fn link_count(&self) -> u32 {
        self.world.links.len() as u32
    }

    #[wasm_bindgen(getter)]
    pub fn time(&self) -> f64 {
        self.world.time
    }

    /// x, y, z per point: a view of wasm memory, valid until the next call into the sim.
    pub fn positions(&self) -> js_sys::Float32Array {
        let flat: &[f32] = bytemuck_vec3(&self.world.particles.pos);
        // SAFETY: the view is handed to JS, which is told (docs/js-api.md) to use it before
        // calling into the sim again; no Rust code runs while JS reads it.
        unsafe { js_sys::Float32Array::view(flat) }
    }

    /// Link end indices as pairs (a0, b0, a1, b1, …): a view of wasm memory.
    pub fn links(&self) -> js_sys::Uint32Array {
        let flat: &[u32] = self.world.links.ends.as_flattened();
        // SAFETY: as for `positions`.
        unsafe { js_sys::Uint32Array::view(flat) }
    }

    /// Rest length (m) per link: a view of wasm memory, like `links()`.
    #[wasm_bindgen(js_name = linkRest)]
    pub fn link_rest(&self) -> js_sys::Float32Array {
        // SAFETY: as for `positions`.
        unsafe { js_sys::Float32Array::view(&self.world.links.rest) }
    }

    /// Per point: bit 0 locked, bit 1 held. Refilled by `refreshRender()`.
    #[wasm_bindgen(js_name = pointFlags)]
    pub fn point_flags(&self) -> js_sys::Uint8Array {
        // SAFETY: as for `positions`.
        unsafe { js_sys::Uint8Array::view(&self.render.flags) }
    }

    /// Per link: relative stretch (d - L) / L. Refilled by `refreshRender()`.
    #[wasm_bindgen(js_name = linkStrain)]
    pub fn link_strain(&self) -> js_sys::Float32Array {
        // SAFETY: as for `positions`.
        unsafe { js_sys::Float32Array::view(&self.render.strain) }
    }

    /// Refills the per-frame render buffers (`pointFlags`, `linkStrain`) in place.
    #[wasm_bindgen(js_name = refreshRender)]
    pub fn refresh_render(&mut self) {
        self.refill_render();
    }

    /// The bits of `pointFlags()`: `{locked, held}` as JSON (www/flags.js holds the same
    /// values for the page, checked against this by the browser tests).
    #[cfg(feature = "full")]
    #[wasm_bindgen(js_name = pointFlagBits)]
    pub fn point_flag_bits() -> String {
        crate::json_macro::json!({"locked": FLAG_LOCKED, "held": FLAG_HELD}).to_string()
    }

    /// Per link: tension in newtons over the last substep. Refilled by `refreshRender()`.
    #[wasm_bindgen(js_name = linkTension)]
    pub fn link_tension(&self) -> js_sys::Float32Array {
        // SAFETY: as for `positions`.
        unsafe { js_sys::Float32Array::view(&self.render.tension) }
    }

    // ---- Ropes, tangles, braids (the leash scene) -------------------------------------
    //
    // The leash view: `view === "top"`; draw the view plane's (x, y) = world (x, z) with +z
    // DOWNWARD on screen (x right), so "counter-clockwise seen from above" is
    // counter-clockwise on screen (the braid's convention); `pick`/`grab`/`dragTo` take
    // the same (x, z). `leash()` names the hand and dog points; `ropePoints(k)` gives
    // leash k; `crossings()` gives every top-view crossing with the rope on top (break the
    // lower one there); `positions()` y is each point's height (for a side inset).
    // Per frame: `refreshRender()`, `drainEvents()`, then `tangles()` / `braid()` as
    // needed (`braid()` runs a small search: once per frame at most, or on change).

    /// Largest relative link stretch |d − L| / L.
    #[wasm_bindgen(js_name = maxStretch)]
    pub fn max_stretch(&self) -> f32 {
        self.world.max_stretch()
    }

    /// Kinetic plus gravitational potential energy (J) of the free particles and the dynamic
    /// bodies (translation and rotation); an attached particle counts as part of its body
    /// (see `World::energy`).
    pub fn energy(&self) -> f64 {
        self.world.energy()
    }

    /// Per-stage timers on or off (off costs nothing; on, two `performance.now()` reads per
    /// stage, whose resolution the browser may coarsen: read means over many steps).
    #[cfg(feature = "full")]
    #[wasm_bindgen(js_name = setProfiling)]
    pub fn set_profiling(&mut self, on: bool) {
        self.set_profiling_checked(on);
    }

    /// Mean µs per step of every stage since profiling began or was reset, as JSON
    /// `{steps, stages: [{name, perSubstep, us}]}` in step order; `null` when off.
    #[cfg(feature = "full")]
    #[wasm_bindgen(js_name = stageTimes)]
    pub fn stage_times(&self) -> String {
        self.stage_times_json()
    }

    /// Restarts the per-stage means from zero.
    #[cfg(feature = "full")]
    #[wasm_bindgen(js_name = resetStageTimes)]
    pub fn reset_stage_times(&mut self) {
        self.world.reset_stage_times();
    }
}

/// Runs a docs/benchmarks.md workload (`"W1"` … `"W7"` (W6 = `"pyramid20"` and W7 =
/// `"large_pyramid"`, impulse only, their lines read `drift=…`; W7 runs in Box2D's loop), or `"leash"`: the leash scene preset
/// with collisions, tangles and the braid) with `solver` (a solver name, or
/// `"xpbd+tethers"`: see `workloads::BenchConfig`) under the shared measurement protocol,
/// with the workload's own stretch measure (W4: body centres; W5: the rope's links up to
/// the ball), and returns its line (`ropelab-<solver> W1 us_per_step=… …`). The classic
/// solver has no rigid bodies and is refused for W4 and W5. `now` is a monotonic clock in
/// milliseconds (pass `() => performance.now()`). For the browser harness; warm the page up
/// first so the timed steps run optimised code.
#[cfg(feature = "full")]
#[wasm_bindgen(js_name = benchmarkLine)]
pub fn benchmark_line(
    #[wasm_bindgen(unchecked_param_type = "string")] workload: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] solver: JsValue,
    now: &js_sys::Function,
) -> Result<String, JsError> {
    use crate::workloads::Workload;
    let (workload, solver) =
        (js_text("benchmarkLine: workload", &workload)?, js_text("benchmarkLine: solver", &solver)?);
    let (workload, solver) = (workload.as_str(), solver.as_str());
    let config = crate::workloads::BenchConfig::from_name(solver).ok_or_else(|| {
        JsError::new(&format!(
            "unknown solver {} (a solver name, optionally with +tethers)",
            crate::error::quoted(solver)
        ))
    })?;
    let (mut world, name, wl) = if workload.eq_ignore_ascii_case("leash") {
        (config.leash(), "leash", None)
    } else {
        let wl = Workload::from_name(workload).ok_or_else(|| {
            JsError::new(&format!(
                "unknown workload {} (W1, W2, W3, W4, W5, W6 = pyramid20, W7 = large_pyramid, leash)",
                crate::error::quoted(workload)
            ))
        })?;
        if !wl.runs_under(config.solver) {
            return Err(JsError::new(&format!("the {} solver does not run {}", config.name(), wl.name())));
        }
        (config.build(wl), wl.name(), Some(wl))
    };
    let this = JsValue::NULL;
    let mut failed = false;
    let clock = || match now.call0(&this).ok().and_then(|v| v.as_f64()) {
        Some(ms) => ms / 1000.0,
        None => {
            failed = true;
            0.0
        }
    };
    // (One instantiation of each protocol, with the workload's quality measure.)
    let quality = |w: &crate::world::World| match wl {
        Some(wl) => wl.stretch(w),
        None => w.max_stretch(),
    };
    let result = if wl == Some(Workload::W7) {
        crate::benchmark::run_box2d_protocol(&mut world, clock, quality)
    } else {
        crate::benchmark::run_protocol_with(&mut world, clock, quality)
    };
    if failed {
        return Err(JsError::new("benchmarkLine: `now` must return a number of milliseconds"));
    }
    let engine = format!("ropelab-{}", config.name());
    Ok(match wl {
        Some(wl) => wl.line(&engine, &result),
        None => crate::benchmark::format_line(&engine, name, &result),
    })
}
