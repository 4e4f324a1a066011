//! The whole JS surface: one `Sim` class.
//!
//! A plain `impl Sim` holds the validated Rust-typed operations (unit-tested natively); the
//! `#[wasm_bindgen] impl Sim` below it only renames to camelCase and turns [`SimError`] into
//! a JS `Error`. Every entry point validates its input and leaves the world unchanged when
//! it returns an error. Render data crosses without copying: `positions()`, `links()`,
//! `pointFlags()` and `linkStrain()` are typed-array *views* of wasm memory, valid until the
//! next call into the sim (memory may grow and detach them): rebuild them every frame.

use wasm_bindgen::prelude::*;

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
}

impl Default for Sim {
    fn default() -> Self {
        Self::new()
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

    /// Replaces the world with the scene in `json`; on error the current world is kept.
    pub fn load_scene_json(&mut self, json: &str) -> Result<()> {
        let scene = Scene::from_json(json)?;
        let world = scene.build()?;
        self.world = world;
        self.name = scene.name;
        self.camera = scene.camera;
        Ok(())
    }

    pub fn export_scene_json(&self) -> String {
        Scene::from_world(&self.world, &self.name, self.camera).to_json()
    }

    /// Sets one setting through the settings table ([`crate::settings::table`]): the
    /// same checks as a scene file's `settings`, all or nothing.
    pub fn set(&mut self, name: &str, value: SettingValue) -> Result<()> {
        self.world.set_setting(name, value)
    }

    /// Sets several settings at once from a JSON object `{name: value}` (scene keys or JS
    /// names), all or nothing.
    pub fn set_settings_json(&mut self, json: &str) -> Result<()> {
        let v: serde_json::Value =
            serde_json::from_str(json).map_err(|e| SimError::Invalid(format!("settings patch: {e}")))?;
        let obj = v.as_object().ok_or_else(|| SimError::Invalid("settings patch: expected an object".into()))?;
        let mut patch = Vec::with_capacity(obj.len());
        for (k, v) in obj {
            let value = SettingValue::from_json(v).map_err(|reason| SimError::Setting { key: k.clone(), reason })?;
            patch.push((k.as_str(), value));
        }
        self.world.set_settings(patch)
    }

    /// Every setting's value as JSON `{jsName: value}`.
    pub fn settings_json(&self) -> String {
        table::values_json(&self.world.settings).to_string()
    }

    /// The settings table as JSON `[{key, js, label, unit, doc, kind, range, default, …}]`.
    pub fn settings_schema_json() -> String {
        table::schema_json().to_string()
    }

    pub fn set_iterations_checked(&mut self, n: f64) -> Result<()> {
        self.set("iterations", SettingValue::Num(n))
    }

    pub fn set_substeps_checked(&mut self, n: f64) -> Result<()> {
        self.set("substeps", SettingValue::Num(n))
    }

    /// Sets the give of every link and of links created later.
    pub fn set_give_checked(&mut self, give: f32) -> Result<()> {
        self.set("give", SettingValue::Num(give as f64))
    }

    pub fn set_gravity_checked(&mut self, x: f32, y: f32, z: f32) -> Result<()> {
        self.set("gravity", SettingValue::Vec3([x as f64, y as f64, z as f64]))
    }

    pub fn set_friction_checked(&mut self, f: f32) -> Result<()> {
        self.set("friction", SettingValue::Num(f as f64))
    }

    pub fn set_walls_checked(&mut self, min_x: f32, min_y: f32, max_x: f32, max_y: f32) -> Result<()> {
        self.set("walls", SettingValue::Rect([min_x, min_y, max_x, max_y].map(|x| x as f64)))
    }

    pub fn set_solver_checked(&mut self, name: &str) -> Result<()> {
        self.set("solver", SettingValue::Text(name.into()))
    }

    /// Classic solver: inverse-mass-weighted projection instead of the seed's centre split.
    pub fn set_mass_weighted_checked(&mut self, on: bool) -> Result<()> {
        self.set("mass_weighted", SettingValue::Bool(on))
    }

    pub fn set_rope_collisions_checked(&mut self, on: bool) -> Result<()> {
        self.set("rope_collisions", SettingValue::Bool(on))
    }

    /// Every solver with its label and one-paragraph description, as JSON
    /// `[{name, label, about}]`.
    pub fn solver_info_json() -> String {
        let v: Vec<_> = SolverKind::ALL
            .iter()
            .map(|k| serde_json::json!({"name": k.name(), "label": k.label(), "about": k.about()}))
            .collect();
        serde_json::Value::from(v).to_string()
    }

    /// Which solvers can run the current world, as JSON `[{name, ok, reason}]`.
    pub fn solver_support_json(&self) -> String {
        let v: Vec<_> = SolverKind::ALL
            .iter()
            .map(|k| match k.supports(&self.world) {
                Ok(()) => serde_json::json!({"name": k.name(), "ok": true, "reason": null}),
                Err(why) => serde_json::json!({"name": k.name(), "ok": false, "reason": why}),
            })
            .collect();
        serde_json::Value::from(v).to_string()
    }

    /// The rope over an obstacle (the capstan on screen) as JSON, or `null`.
    pub fn capstan_report_json(&self) -> String {
        crate::report::wrap_json(crate::wrap::wrap_report(&self.world).as_ref()).to_string()
    }

    /// PBD-family velocity damping rate (1/s, ≥ 0).
    pub fn set_damping_checked(&mut self, rate: f32) -> Result<()> {
        self.set("damping", SettingValue::Num(rate as f64))
    }

    /// Jacobi over-relaxation ω, 0 < ω < 2.
    pub fn set_omega_checked(&mut self, omega: f32) -> Result<()> {
        self.set("omega", SettingValue::Num(omega as f64))
    }

    /// Bending compliance (rad/(N·m), ≥ 0).
    pub fn set_bending_compliance_checked(&mut self, c: f32) -> Result<()> {
        self.set("bending_compliance", SettingValue::Num(c as f64))
    }

    /// Coulomb friction coefficient of the walls (≥ 0).
    pub fn set_wall_friction_checked(&mut self, mu: f32) -> Result<()> {
        self.set("wall_friction", SettingValue::Num(mu as f64))
    }

    /// Restitution of walls (0 ≤ e ≤ 1).
    pub fn set_restitution_checked(&mut self, e: f32) -> Result<()> {
        self.set("restitution", SettingValue::Num(e as f64))
    }

    /// Mouse constraint compliance (m/N, ≥ 0; 0 = the held point follows exactly).
    pub fn set_drag_compliance_checked(&mut self, c: f32) -> Result<()> {
        self.set("drag_compliance", SettingValue::Num(c as f64))
    }

    /// Adds an obstacle given as JSON (the scene format's `obstacles[i]`); returns its index.
    pub fn add_obstacle_json(&mut self, json: &str) -> Result<usize> {
        let o: crate::collide::Obstacle =
            serde_json::from_str(json).map_err(|e| SimError::Invalid(format!("obstacle: {e}")))?;
        self.world.add_obstacle(&o)
    }

    /// The obstacles as JSON (an array in the scene format).
    pub fn obstacles_json(&self) -> String {
        serde_json::to_string(&self.world.obstacles).expect("obstacles always serialise")
    }

    /// Pins point `index` at `(x, y)` in the view plane (keeping its out-of-view coordinate).
    pub fn pin_checked(&mut self, index: i64, x: f32, y: f32, compliance: f32) -> Result<()> {
        error::finite("x", x)?;
        error::finite("y", y)?;
        let i = error::index("point", index, self.world.particles.len())?;
        let target = self.world.settings.view.unproject(glam::Vec2::new(x, y), self.world.particles.pos[i]);
        self.world.pin(index, target, compliance)
    }

    /// Runs the fixed steps due after `elapsed` seconds of real time (see [`FixedClock`]).
    pub fn advance_checked(&mut self, elapsed: f64) -> Result<u32> {
        let n = self.clock.advance(elapsed);
        for _ in 0..n {
            self.world.step(self.clock.h)?;
        }
        Ok(n)
    }

    pub fn set_fixed_step_checked(&mut self, h: f32, max_steps: f64) -> Result<()> {
        error::time_step(h)?;
        let max_steps = error::count("max steps", max_steps, 1, 1000, "a whole number in 1..=1000")?;
        self.clock = FixedClock::new(h, max_steps);
        Ok(())
    }

    pub fn refill_render(&mut self) {
        self.render.refill(&self.world);
    }

    pub fn render_buffers(&self) -> &RenderBuffers {
        &self.render
    }

    /// Rope `i`'s point indices in order.
    pub fn rope_points_checked(&self, i: i64) -> Result<Vec<u32>> {
        let k = error::index("rope", i, self.world.ropes.len())?;
        Ok(self.world.ropes.points(k).to_vec())
    }

    /// Sets the rope–rope friction coefficients (static μs, dynamic μk; both ≥ 0). Also the
    /// μ of the tangles' capstan lock test (μs).
    pub fn set_rope_friction_checked(&mut self, mu_s: f32, mu_k: f32) -> Result<()> {
        self.world.set_settings([
            ("rope_friction", SettingValue::Num(mu_s as f64)),
            ("rope_dynamic_friction", SettingValue::Num(mu_k as f64)),
        ])
    }

    /// Caps the tangles' holding ratio e^{μΘ} (the seed's gameplay clamp, e.g. 3); `None`
    /// removes the cap.
    pub fn set_tangle_cap_checked(&mut self, cap: Option<f32>) -> Result<()> {
        self.set("tangle_cap", cap.map_or(SettingValue::Absent, |c| SettingValue::Num(c as f64)))
    }

    /// Dogs wander (true) or stand (false). Errors when the world has no leash.
    pub fn set_wander_checked(&mut self, on: bool) -> Result<()> {
        if self.world.leash.is_none() {
            return Err(SimError::Invalid("this world has no dogs (load the leash scene)".into()));
        }
        self.world.wander.spec.enabled = on;
        Ok(())
    }

    /// Wander strength: random acceleration (m/s², ≥ 0) and damping rate (1/s, ≥ 0).
    pub fn set_wander_params_checked(&mut self, accel: f32, damping: f32) -> Result<()> {
        error::in_range("wander accel", accel, 0.0, f32::INFINITY, "≥ 0 m/s²")?;
        error::in_range("wander damping", damping, 0.0, f32::INFINITY, "≥ 0 1/s")?;
        self.world.wander.spec.accel = accel;
        self.world.wander.spec.damping = damping;
        Ok(())
    }
}

fn js(e: SimError) -> JsError {
    JsError::new(&e.to_string())
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

/// The JS surface.
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
        }
    }

    /// Replaces the world with a JSON scene. Throws (naming the JSON path) and keeps the
    /// current world if the scene is invalid.
    #[wasm_bindgen(js_name = loadScene)]
    pub fn load_scene(&mut self, json: &str) -> Result<(), JsError> {
        self.load_scene_json(json).map_err(js)
    }

    /// The current world as a scene file (JSON text).
    #[wasm_bindgen(js_name = exportScene)]
    pub fn export_scene(&self) -> String {
        self.export_scene_json()
    }

    /// The scene's camera as `[centerX, centerY, height]`, or an empty array.
    #[wasm_bindgen(js_name = camera)]
    pub fn camera_js(&self) -> Vec<f32> {
        self.camera.map(|c| vec![c.center.x, c.center.y, c.height]).unwrap_or_default()
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

    /// The fixed step `h` (s) used by `advance`.
    #[wasm_bindgen(getter, js_name = fixedStep)]
    pub fn fixed_step(&self) -> f32 {
        self.clock.h
    }

    /// Advances exactly `dt` seconds (0 < dt ≤ 1).
    pub fn step(&mut self, dt: f32) -> Result<(), JsError> {
        self.world.step(dt).map_err(js)
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
        // SAFETY: the view is handed to JS, which is told (docs, README) to use it before
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

    /// Index of the point nearest `(x, y)` within `radius` (view plane, metres), or -1.
    pub fn pick(&self, x: f32, y: f32, radius: f32) -> Result<i32, JsError> {
        Ok(self.world.pick(x, y, radius).map_err(js)?.map_or(-1, |i| i as i32))
    }

    /// Pointer `pointerId` grabs point `index`; it follows `dragTo` until `release`.
    pub fn grab(&mut self, pointer_id: u32, index: f64) -> Result<(), JsError> {
        self.world.grab(pointer_id, idx(index)).map_err(js)
    }

    #[wasm_bindgen(js_name = dragTo)]
    pub fn drag_to(&mut self, pointer_id: u32, x: f32, y: f32) -> Result<(), JsError> {
        self.world.drag_to(pointer_id, x, y).map_err(js)
    }

    /// Lets go; the point keeps the pointer's recent velocity. Returns whether it held one.
    pub fn release(&mut self, pointer_id: u32) -> bool {
        self.world.release(pointer_id)
    }

    /// Index of the point `pointerId` holds, or -1.
    #[wasm_bindgen(js_name = heldBy)]
    pub fn held_by(&self, pointer_id: u32) -> i32 {
        self.world.holds.iter().find(|h| h.pointer == pointer_id).map_or(-1, |h| h.particle as i32)
    }

    #[wasm_bindgen(js_name = setLocked)]
    pub fn set_locked(&mut self, index: f64, locked: bool) -> Result<(), JsError> {
        self.world.set_locked(idx(index), locked).map_err(js)
    }

    #[wasm_bindgen(js_name = isLocked)]
    pub fn is_locked(&self, index: f64) -> Result<bool, JsError> {
        let i = error::index("point", idx(index), self.world.particles.len()).map_err(js)?;
        Ok(self.world.particles.locked[i])
    }

    /// Flips the lock of point `index`; returns the new state.
    #[wasm_bindgen(js_name = toggleLock)]
    pub fn toggle_lock(&mut self, index: f64) -> Result<bool, JsError> {
        let locked = !self.is_locked(index)?;
        self.set_locked(index, locked)?;
        Ok(locked)
    }

    /// Adds a point at `(x, y)`; returns its index.
    #[wasm_bindgen(js_name = addPoint)]
    pub fn add_point(&mut self, x: f32, y: f32, locked: bool) -> Result<u32, JsError> {
        self.world.add_point(x, y, locked).map(|i| i as u32).map_err(js)
    }

    /// Removes point `index` and its links; higher indices shift down by one.
    #[wasm_bindgen(js_name = removePoint)]
    pub fn remove_point(&mut self, index: f64) -> Result<(), JsError> {
        self.world.remove_point(idx(index)).map_err(js)
    }

    /// Links points `a` and `b` at their current distance; returns the link index.
    pub fn connect(&mut self, a: f64, b: f64) -> Result<u32, JsError> {
        self.world.connect(idx(a), idx(b)).map(|k| k as u32).map_err(js)
    }

    /// Removes the link between `a` and `b`; returns whether there was one.
    pub fn disconnect(&mut self, a: f64, b: f64) -> Result<bool, JsError> {
        self.world.disconnect(idx(a), idx(b)).map_err(js)
    }

    /// Inserts `count` points evenly along link `link`; returns the first new point's index.
    pub fn subdivide(&mut self, link: f64, count: f64) -> Result<u32, JsError> {
        let count = error::count("subdivide count", count, 1, 1000, "a whole number in 1..=1000").map_err(js)?;
        self.world.subdivide(idx(link), count).map(|i| i as u32).map_err(js)
    }

    /// Removes every link crossed by the swipe (x0, y0)–(x1, y1); returns how many.
    pub fn cut(&mut self, x0: f32, y0: f32, x1: f32, y1: f32) -> Result<u32, JsError> {
        self.world.cut(x0, y0, x1, y1).map(|n| n as u32).map_err(js)
    }

    #[wasm_bindgen(js_name = setIterations)]
    pub fn set_iterations(&mut self, n: f64) -> Result<(), JsError> {
        self.set_iterations_checked(n).map_err(js)
    }

    #[wasm_bindgen(getter)]
    pub fn iterations(&self) -> u32 {
        self.world.settings.iterations
    }

    #[wasm_bindgen(js_name = setSubsteps)]
    pub fn set_substeps(&mut self, n: f64) -> Result<(), JsError> {
        self.set_substeps_checked(n).map_err(js)
    }

    #[wasm_bindgen(getter)]
    pub fn substeps(&self) -> u32 {
        self.world.settings.substeps
    }

    #[wasm_bindgen(js_name = setGive)]
    pub fn set_give(&mut self, give: f32) -> Result<(), JsError> {
        self.set_give_checked(give).map_err(js)
    }

    #[wasm_bindgen(getter)]
    pub fn give(&self) -> f32 {
        self.world.settings.give
    }

    #[wasm_bindgen(js_name = setGravity)]
    pub fn set_gravity(&mut self, x: f32, y: f32, z: f32) -> Result<(), JsError> {
        self.set_gravity_checked(x, y, z).map_err(js)
    }

    /// Gravity as `[x, y, z]` (m/s²).
    pub fn gravity(&self) -> Vec<f32> {
        self.world.settings.gravity.to_array().to_vec()
    }

    /// The seed's friction: fraction of velocity kept per classic step (1 = none lost).
    #[wasm_bindgen(js_name = setFriction)]
    pub fn set_friction(&mut self, f: f32) -> Result<(), JsError> {
        self.set_friction_checked(f).map_err(js)
    }

    #[wasm_bindgen(getter)]
    pub fn friction(&self) -> f32 {
        self.world.settings.friction
    }

    #[wasm_bindgen(js_name = setWalls)]
    pub fn set_walls(&mut self, min_x: f32, min_y: f32, max_x: f32, max_y: f32) -> Result<(), JsError> {
        self.set_walls_checked(min_x, min_y, max_x, max_y).map_err(js)
    }

    #[wasm_bindgen(js_name = clearWalls)]
    pub fn clear_walls(&mut self) {
        // Always accepted: no walls is a valid value whatever the solver.
        let _ = self.set("walls", SettingValue::Absent);
    }

    /// Walls as `[minX, minY, maxX, maxY]`, or an empty array when there are none.
    pub fn walls(&self) -> Vec<f32> {
        self.world.settings.walls.map(|w| vec![w.min.x, w.min.y, w.max.x, w.max.y]).unwrap_or_default()
    }

    /// Classic solver: inverse-mass-weighted projection instead of the seed's centre split.
    /// Throws (and changes nothing) when the classic solver could not then run the scene.
    #[wasm_bindgen(js_name = setMassWeighted)]
    pub fn set_mass_weighted(&mut self, on: bool) -> Result<(), JsError> {
        self.set_mass_weighted_checked(on).map_err(js)
    }

    #[wasm_bindgen(getter, js_name = massWeighted)]
    pub fn mass_weighted(&self) -> bool {
        self.world.settings.mass_weighted
    }

    #[wasm_bindgen(js_name = setSolver)]
    pub fn set_solver(&mut self, name: &str) -> Result<(), JsError> {
        self.set_solver_checked(name).map_err(js)
    }

    #[wasm_bindgen(getter)]
    pub fn solver(&self) -> String {
        self.world.settings.solver.name().to_string()
    }

    /// The bits of `pointFlags()`: `{locked, held}` as JSON (www/flags.js holds the same
    /// values for the page, checked against this by the browser tests).
    #[wasm_bindgen(js_name = pointFlagBits)]
    pub fn point_flag_bits() -> String {
        serde_json::json!({"locked": FLAG_LOCKED, "held": FLAG_HELD}).to_string()
    }

    /// Names of every available solver.
    pub fn solvers() -> Vec<String> {
        SolverKind::ALL.iter().map(|k| k.name().to_string()).collect()
    }

    /// Every solver's name, menu label and description: JSON `[{name, label, about}]`.
    #[wasm_bindgen(js_name = solverInfo)]
    pub fn solver_info() -> String {
        Sim::solver_info_json()
    }

    /// Which solvers can run the current scene: JSON `[{name, ok, reason}]` (`reason` says
    /// what the scene needs that the solver lacks; `setSolver` throws it too).
    #[wasm_bindgen(js_name = solverSupport)]
    pub fn solver_support(&self) -> String {
        self.solver_support_json()
    }

    /// The rope lying over an obstacle with the capstan relation: JSON `{obstacle, mu, wrap,
    /// limit, tensionLoad, tensionHold, fromSolver, ratio, slipSpeed, holds, load: {point,
    /// mass}, hold: {point, mass}, contactFrom: [x, y, z], contactTo: [x, y, z]}` or `null`.
    /// Allocates: call it a few times a second, not per frame of a hot loop.
    #[wasm_bindgen(js_name = capstanReport)]
    pub fn capstan_report(&self) -> String {
        self.capstan_report_json()
    }

    /// `"side"` (x–y) or `"top"` (x–z): the plane the page draws and edits.
    #[wasm_bindgen(getter)]
    pub fn view(&self) -> String {
        match self.world.settings.view {
            crate::settings::View::Side => "side".into(),
            crate::settings::View::Top => "top".into(),
        }
    }

    /// PBD-family solvers: velocity damping rate in 1/s (0 = none).
    #[wasm_bindgen(js_name = setDamping)]
    pub fn set_damping(&mut self, rate: f32) -> Result<(), JsError> {
        self.set_damping_checked(rate).map_err(js)
    }

    #[wasm_bindgen(getter)]
    pub fn damping(&self) -> f32 {
        self.world.settings.damping
    }

    /// Jacobi solver: over-relaxation factor ω (0 < ω < 2).
    #[wasm_bindgen(js_name = setOmega)]
    pub fn set_omega(&mut self, omega: f32) -> Result<(), JsError> {
        self.set_omega_checked(omega).map_err(js)
    }

    #[wasm_bindgen(getter)]
    pub fn omega(&self) -> f32 {
        self.world.settings.omega
    }

    /// Iterative solvers: long-range attachments (tethers) to anchored points.
    #[wasm_bindgen(js_name = setTethers)]
    pub fn set_tethers(&mut self, on: bool) -> Result<(), JsError> {
        self.set("tethers", SettingValue::Bool(on)).map_err(js)
    }

    #[wasm_bindgen(getter)]
    pub fn tethers(&self) -> bool {
        self.world.settings.tethers
    }

    /// PBD-family solvers: bending stiffness along ropes on/off.
    #[wasm_bindgen(js_name = setBending)]
    pub fn set_bending(&mut self, on: bool) -> Result<(), JsError> {
        self.set("bending", SettingValue::Bool(on)).map_err(js)
    }

    #[wasm_bindgen(getter)]
    pub fn bending(&self) -> bool {
        self.world.settings.bending
    }

    /// Bending compliance in rad/(N·m) (0 = rigid).
    #[wasm_bindgen(js_name = setBendingCompliance)]
    pub fn set_bending_compliance(&mut self, c: f32) -> Result<(), JsError> {
        self.set_bending_compliance_checked(c).map_err(js)
    }

    #[wasm_bindgen(getter, js_name = bendingCompliance)]
    pub fn bending_compliance(&self) -> f32 {
        self.world.settings.bending_compliance
    }

    /// Coulomb friction of the walls (PBD-family solvers).
    #[wasm_bindgen(js_name = setWallFriction)]
    pub fn set_wall_friction(&mut self, mu: f32) -> Result<(), JsError> {
        self.set_wall_friction_checked(mu).map_err(js)
    }

    #[wasm_bindgen(getter, js_name = wallFriction)]
    pub fn wall_friction(&self) -> f32 {
        self.world.settings.wall_friction
    }

    /// Fraction of normal speed kept in a bounce off the walls.
    #[wasm_bindgen(js_name = setRestitution)]
    pub fn set_restitution(&mut self, e: f32) -> Result<(), JsError> {
        self.set_restitution_checked(e).map_err(js)
    }

    #[wasm_bindgen(getter)]
    pub fn restitution(&self) -> f32 {
        self.world.settings.restitution
    }

    /// Mouse constraint: 0 = held points follow the pointer exactly; > 0 (m/N) = a soft
    /// pin pulls them (PBD-family solvers), so dragging feels the rope's weight.
    #[wasm_bindgen(js_name = setDragCompliance)]
    pub fn set_drag_compliance(&mut self, c: f32) -> Result<(), JsError> {
        self.set_drag_compliance_checked(c).map_err(js)
    }

    #[wasm_bindgen(getter, js_name = dragCompliance)]
    pub fn drag_compliance(&self) -> f32 {
        self.world.settings.drag_compliance
    }

    /// Adds an obstacle from JSON, e.g. `{"shape": {"type": "circle", "center": [0, 1, 0],
    /// "radius": 0.5}, "friction": 0.6}`; returns its index.
    #[wasm_bindgen(js_name = addObstacle)]
    pub fn add_obstacle(&mut self, json: &str) -> Result<u32, JsError> {
        self.add_obstacle_json(json).map(|i| i as u32).map_err(js)
    }

    #[wasm_bindgen(js_name = clearObstacles)]
    pub fn clear_obstacles(&mut self) {
        self.world.obstacles.clear();
    }

    /// The obstacles as a JSON array (scene format), for drawing.
    pub fn obstacles(&self) -> String {
        self.obstacles_json()
    }

    /// Pins point `index` to `(x, y)` (view plane) with `compliance` m/N (0 = rigid).
    pub fn pin(&mut self, index: f64, x: f32, y: f32, compliance: f32) -> Result<(), JsError> {
        self.pin_checked(idx(index), x, y, compliance).map_err(js)
    }

    /// Removes point `index`'s pin; returns whether it had one.
    pub fn unpin(&mut self, index: f64) -> Result<bool, JsError> {
        self.world.unpin(idx(index)).map_err(js)
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

    /// Number of ropes (ordered point lists; the leashes of the leash scene are ropes).
    #[wasm_bindgen(getter, js_name = ropeCount)]
    pub fn rope_count(&self) -> u32 {
        self.world.ropes.len() as u32
    }

    /// Rope `i`'s point indices in order (a copy). Leash k runs from the hand to dog k.
    #[wasm_bindgen(js_name = ropePoints)]
    pub fn rope_points(&self, i: f64) -> Result<Vec<u32>, JsError> {
        self.rope_points_checked(idx(i)).map_err(js)
    }

    /// Per link: the rope it belongs to, or -1 (an `Int32Array` copy, one entry per link).
    #[wasm_bindgen(js_name = ropeOfLink)]
    pub fn rope_of_link(&self) -> Vec<i32> {
        self.world.ropes.rope_of_links(self.world.links.len())
    }

    /// The leash scene as JSON, or `"null"`: `{"hand": point, "valid": bool, "front": [fx, fz],
    /// "handRadius": m, "wander": bool, "seed": n, "dogs": [{"point", "rope", "height",
    /// "bodyRadius"}]}` (see `report::leash_json`).
    pub fn leash(&self) -> String {
        crate::report::leash_json(&self.world)
    }

    /// Takes the queued events as a JSON array, oldest first: `{"type": "tangleFormed", "id",
    /// "over", "under", "point"}`, `{"type": "tangleStateChanged", "id", "state": "locked" |
    /// "tight"}`, `{"type": "tangleBroken", "id", "over", "under"}`, `{"type": "dogsSwapped",
    /// "gen", "dogs"}`, `{"type": "braidResync"}`, `{"type": "linkTorn", "a", "b", "stretch"}`.
    /// Formed and broken fire exactly once per tangle.
    #[wasm_bindgen(js_name = drainEvents)]
    pub fn drain_events(&mut self) -> String {
        crate::report::drain_events(&mut self.world)
    }

    /// The live tangles as a JSON array: `{"id", "over", "under", "point": [x, y, z], "top":
    /// [x, z], "along": [m, m], "tension": [overIn, overOut, underIn, underOut] (N), "wrap"
    /// (rad), "wraps": [over, under], "holdingRatio" (e^{μΘ}), "slipRatio" (the tension
    /// ratio over the static limit e^{μ_s Θ}: a locked tangle slips past 1; null = one side
    /// slack), "normalForce" (N), "state": "tight" | "locked", "age" (steps)}`.
    pub fn tangles(&self) -> String {
        crate::report::tangles_json(&self.world)
    }

    /// The leash braid as JSON, or `"null"`: `{"strands", "word", "letters", "reduced",
    /// "reducedLetters", "normalForm", "crossings", "trivial", "fullTwists" (null | k),
    /// "handOrder", "dogOrder", "hint": {"moves", "twistsLeft", "optimal", "steps": [{"dogs",
    /// "halfTurns", "text"}]}}`. Letters: +i = σᵢ, -i = σᵢ⁻¹. `swivel`: a swivel coupler at
    /// the hand sheds full twists (the hint may leave them).
    pub fn braid(&self, swivel: bool) -> String {
        crate::report::braid_json(&self.world, swivel)
    }

    /// The braid reading's crossings, hand outwards: `[{"kind": "leash" | "dogRay" | "seam",
    /// "point", "top", "radius", "over", "under" (-1 for the seam), "letters"}]`.
    #[wasm_bindgen(js_name = braidCrossings)]
    pub fn braid_crossings(&self) -> String {
        crate::report::braid_crossings_json(&self.world)
    }

    /// Every top-view crossing of two rope segments, for the knot diagram: `[{"top": [x, z],
    /// "over": {"rope", "segment", "link", "t", "y"}, "under": {…}}]` — break the `under`
    /// segment around `top`.
    pub fn crossings(&self) -> String {
        crate::report::top_crossings_json(&self.world)
    }

    /// Rope–rope contacts pressing in the last substep: `[{"ropes": [a, b], "segments": [i,
    /// j], "point": [x, y, z], "force": N}]`.
    #[wasm_bindgen(js_name = ropeContacts)]
    pub fn rope_contacts(&self) -> String {
        crate::report::contacts_json(&self.world)
    }

    /// Rope–rope collisions on/off (PBD-family solvers).
    #[wasm_bindgen(js_name = setRopeCollisions)]
    pub fn set_rope_collisions(&mut self, on: bool) -> Result<(), JsError> {
        self.set_rope_collisions_checked(on).map_err(js)
    }

    #[wasm_bindgen(getter, js_name = ropeCollisions)]
    pub fn rope_collisions(&self) -> bool {
        self.world.settings.rope_collisions
    }

    /// Rope–rope Coulomb friction: static `muS`, dynamic `muK` (both ≥ 0).
    #[wasm_bindgen(js_name = setRopeFriction)]
    pub fn set_rope_friction(&mut self, mu_s: f32, mu_k: f32) -> Result<(), JsError> {
        self.set_rope_friction_checked(mu_s, mu_k).map_err(js)
    }

    /// `[muS, muK]`.
    #[wasm_bindgen(js_name = ropeFriction)]
    pub fn rope_friction(&self) -> Vec<f32> {
        vec![self.world.settings.rope_friction, self.world.settings.rope_mu_k()]
    }

    /// Optional cap (≥ 1) on the tangles' holding ratio e^{μΘ} (the seed's 3); `undefined`
    /// removes it (the default: the physics).
    #[wasm_bindgen(js_name = setTangleCap)]
    pub fn set_tangle_cap(&mut self, cap: Option<f32>) -> Result<(), JsError> {
        self.set_tangle_cap_checked(cap).map_err(js)
    }

    /// Dogs wander (true) or stand still (false). Throws without a leash scene.
    #[wasm_bindgen(js_name = setWander)]
    pub fn set_wander(&mut self, on: bool) -> Result<(), JsError> {
        self.set_wander_checked(on).map_err(js)
    }

    #[wasm_bindgen(getter)]
    pub fn wander(&self) -> bool {
        self.world.leash.is_some() && self.world.wander.spec.enabled
    }

    /// Wander strength: random acceleration (m/s²) and damping rate (1/s).
    #[wasm_bindgen(js_name = setWanderParams)]
    pub fn set_wander_params(&mut self, accel: f32, damping: f32) -> Result<(), JsError> {
        self.set_wander_params_checked(accel, damping).map_err(js)
    }

    /// Largest relative link stretch |d − L| / L.
    #[wasm_bindgen(js_name = maxStretch)]
    pub fn max_stretch(&self) -> f32 {
        self.world.max_stretch()
    }

    /// Kinetic plus gravitational potential energy (J).
    pub fn energy(&self) -> f64 {
        self.world.energy()
    }
}

/// `&[Vec3]` as a flat `&[f32]` (glam's `Vec3` is `repr(C)` with three `f32`s, no padding).
fn bytemuck_vec3(v: &[glam::Vec3]) -> &[f32] {
    const _: () = assert!(std::mem::size_of::<glam::Vec3>() == 12);
    // SAFETY: Vec3 is #[repr(C)] { x: f32, y: f32, z: f32 } with size 12 and align 4,
    // so a slice of n Vec3 is exactly 3n contiguous f32.
    unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<f32>(), v.len() * 3) }
}

/// Runs a BENCHMARKS.md workload (`"W1"`, `"W2"`, `"W3"`, or `"leash"`: the leash scene
/// preset with collisions, tangles and the braid) with `solver` (a solver name, or
/// `"xpbd+tethers"`: see `workloads::BenchConfig`) under the shared
/// measurement protocol and returns its line (`ropelab-<solver> W1 us_per_step=… …`).
/// `now` is a monotonic clock in milliseconds (pass `() => performance.now()`). For the
/// browser harness; warm the page up first so the timed steps run optimised code.
#[wasm_bindgen(js_name = benchmarkLine)]
pub fn benchmark_line(workload: &str, solver: &str, now: &js_sys::Function) -> Result<String, JsError> {
    use crate::workloads::Workload;
    let config = crate::workloads::BenchConfig::from_name(solver)
        .ok_or_else(|| JsError::new(&format!("unknown solver {solver:?} (a solver name, optionally with +tethers)")))?;
    let (mut world, name) = if workload.eq_ignore_ascii_case("leash") {
        (config.leash(), "leash")
    } else {
        let wl = Workload::from_name(workload)
            .ok_or_else(|| JsError::new(&format!("unknown workload {workload:?} (W1, W2, W3, leash)")))?;
        (config.build(wl), wl.name())
    };
    let this = JsValue::NULL;
    let mut failed = false;
    let result = crate::benchmark::run_protocol(&mut world, || match now.call0(&this).ok().and_then(|v| v.as_f64()) {
        Some(ms) => ms / 1000.0,
        None => {
            failed = true;
            0.0
        }
    });
    if failed {
        return Err(JsError::new("benchmarkLine: `now` must return a number of milliseconds"));
    }
    Ok(crate::benchmark::format_line(&format!("ropelab-{}", config.name()), name, &result))
}

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

/// A patch entry from JS as a setting value, numbers kept as they are (NaN stays NaN, so the
/// table rejects it instead of `JSON.stringify` turning it into `null`).
fn js_setting_value(v: &JsValue) -> std::result::Result<SettingValue, String> {
    if v.is_null() || v.is_undefined() {
        return Ok(SettingValue::Absent);
    }
    if let Some(x) = v.as_f64() {
        return Ok(SettingValue::Num(x));
    }
    if let Some(b) = v.as_bool() {
        return Ok(SettingValue::Bool(b));
    }
    if let Some(s) = v.as_string() {
        return Ok(SettingValue::Text(s));
    }
    let nums = |a: &js_sys::Array| -> std::result::Result<Vec<f64>, String> {
        a.iter().map(|x| x.as_f64().ok_or_else(|| "expected numbers".to_string())).collect()
    };
    if js_sys::Array::is_array(v) {
        let a = js_sys::Array::from(v);
        let n = nums(&a)?;
        return match n.len() {
            3 => Ok(SettingValue::Vec3([n[0], n[1], n[2]])),
            4 => Ok(SettingValue::Rect([n[0], n[1], n[2], n[3]])),
            k => Err(format!("expected 3 or 4 numbers, got {k}")),
        };
    }
    if v.is_object() {
        let get = |k: &str| js_sys::Reflect::get(v, &JsValue::from_str(k)).ok().filter(|x| js_sys::Array::is_array(x));
        if let (Some(lo), Some(hi)) = (get("min"), get("max")) {
            let (lo, hi) = (nums(&js_sys::Array::from(&lo))?, nums(&js_sys::Array::from(&hi))?);
            if lo.len() == 2 && hi.len() == 2 {
                return Ok(SettingValue::Rect([lo[0], lo[1], hi[0], hi[1]]));
            }
        }
    }
    Err("expected a number, boolean, string, array or null".into())
}

/// Plain Rust: profiling and stable ids.
impl Sim {
    /// Mean time per step of every stage (µs) since profiling was turned on or reset, as
    /// JSON `{steps, stages: [{name, perSubstep, us}]}`; `null` when profiling is off.
    pub fn stage_times_json(&self) -> String {
        match self.world.stage_times() {
            None => "null".into(),
            Some(t) => {
                let stages: Vec<serde_json::Value> = t
                    .mean_us()
                    .map(|(s, us)| serde_json::json!({"name": s.name(), "perSubstep": s.per_substep(), "us": us}))
                    .collect();
                serde_json::json!({"steps": t.steps, "stages": stages}).to_string()
            }
        }
    }

    /// Turns the per-stage timers on (from zero) or off.
    pub fn set_profiling_checked(&mut self, on: bool) {
        self.world.set_profiler(on.then(stage_clock));
    }

    /// Stable id of rope `index`.
    pub fn rope_id_checked(&self, index: i64) -> Result<u32> {
        let k = error::index("rope", index, self.world.ropes.len())?;
        Ok(self.world.ropes.id(k).0)
    }

    /// Current index of the rope with id `id`, or `None` when it is gone.
    pub fn rope_index_of(&self, id: f64) -> Option<usize> {
        if !(id.is_finite() && id.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(&id)) {
            return None;
        }
        self.world.ropes.index_of(crate::ids::Id(id as u32))
    }
}

#[wasm_bindgen]
impl Sim {
    /// Sets several settings at once, all or nothing: `patch` is an object (or its JSON)
    /// `{name: value}` with scene keys or JS names (`settingsSchema()` lists them), e.g.
    /// `sim.setSettings({iterations: 8, damping: 0.5})`. Each value is checked exactly as a
    /// scene file's `settings` are; on any error nothing changes.
    #[wasm_bindgen(js_name = setSettings)]
    pub fn set_settings(&mut self, patch: JsValue) -> Result<(), JsError> {
        if let Some(json) = patch.as_string() {
            return self.set_settings_json(&json).map_err(js);
        }
        if !patch.is_object() || js_sys::Array::is_array(&patch) {
            return Err(JsError::new("setSettings: expected an object {name: value} or its JSON"));
        }
        let entries = js_sys::Object::entries(&js_sys::Object::from(patch));
        let mut keys = Vec::with_capacity(entries.length() as usize);
        let mut values = Vec::with_capacity(entries.length() as usize);
        for e in entries.iter() {
            let e = js_sys::Array::from(&e);
            let key = e.get(0).as_string().unwrap_or_default();
            let value = js_setting_value(&e.get(1))
                .map_err(|reason| JsError::new(&SimError::Setting { key: key.clone(), reason }.to_string()))?;
            keys.push(key);
            values.push(value);
        }
        self.world.set_settings(keys.iter().map(String::as_str).zip(values)).map_err(js)
    }

    /// Every setting's current value, as JSON `{jsName: value}`.
    #[wasm_bindgen(js_name = settings)]
    pub fn settings_values(&self) -> String {
        self.settings_json()
    }

    /// The settings table as JSON: `[{key, js, label, unit, doc, kind, range, min, max,
    /// default, slider?}]` — the page builds its sliders from it.
    #[wasm_bindgen(js_name = settingsSchema)]
    pub fn settings_schema() -> String {
        Self::settings_schema_json()
    }

    /// Per-stage timers on or off (off costs nothing; on, two `performance.now()` reads per
    /// stage, whose resolution the browser may coarsen: read means over many steps).
    #[wasm_bindgen(js_name = setProfiling)]
    pub fn set_profiling(&mut self, on: bool) {
        self.set_profiling_checked(on);
    }

    /// Mean µs per step of every stage since profiling began or was reset, as JSON
    /// `{steps, stages: [{name, perSubstep, us}]}` in step order; `null` when off.
    #[wasm_bindgen(js_name = stageTimes)]
    pub fn stage_times(&self) -> String {
        self.stage_times_json()
    }

    /// Restarts the per-stage means from zero.
    #[wasm_bindgen(js_name = resetStageTimes)]
    pub fn reset_stage_times(&mut self) {
        self.world.reset_stage_times();
    }

    /// Stable id of rope `index` (stays valid while other ropes are cut or removed).
    #[wasm_bindgen(js_name = ropeId)]
    pub fn rope_id(&self, index: f64) -> Result<u32, JsError> {
        self.rope_id_checked(idx(index)).map_err(js)
    }

    /// Current index of the rope with stable id `id` (tangles and events name ropes by id),
    /// or -1 when that rope is gone.
    #[wasm_bindgen(js_name = ropeIndex)]
    pub fn rope_index(&self, id: f64) -> i32 {
        self.rope_index_of(id).map_or(-1, |k| k as i32)
    }
}
