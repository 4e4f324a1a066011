//! Settings: every setter and getter goes through the one settings table
//! (`crate::settings::table`), plus `setSettings(patch)`, `settings()`, `settingsSchema()`
//! and the solver menu (`solvers`, `solverInfo`, `solverSupport`).

use super::*;

/// A patch entry from JS as a setting value, numbers kept as they are (NaN stays NaN, so the
/// table rejects it instead of `JSON.stringify` turning it into `null`).
#[cfg(feature = "full")]
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
        let get = |k: &str| js_sys::Reflect::get(v, &JsValue::from_str(k)).ok().filter(js_sys::Array::is_array);
        if let (Some(lo), Some(hi)) = (get("min"), get("max")) {
            let (lo, hi) = (nums(&js_sys::Array::from(&lo))?, nums(&js_sys::Array::from(&hi))?);
            if lo.len() == 2 && hi.len() == 2 {
                return Ok(SettingValue::Rect([lo[0], lo[1], hi[0], hi[1]]));
            }
        }
    }
    Err("expected a number, boolean, string, array or null".into())
}

/// The plain Rust surface (natively testable).
impl Sim {
    /// Sets one setting through the settings table ([`crate::settings::table`]): the
    /// same checks as a scene file's `settings`, all or nothing.
    pub fn set(&mut self, name: &str, value: SettingValue) -> Result<()> {
        self.set_many(vec![(name.to_string(), value)])
    }

    /// Settings, all or nothing, through the recording.
    pub fn set_many(&mut self, patch: Vec<(String, SettingValue)>) -> Result<()> {
        self.input(crate::recording::Input::Settings { patch }).map(|_| ())
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
            patch.push((k.clone(), value));
        }
        self.set_many(patch)
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
            .map(|k| crate::json_macro::json!({"name": k.name(), "label": k.label(), "about": k.about()}))
            .collect();
        crate::json_macro::Value::from(v).to_string()
    }

    /// Which solvers can run the current world, as JSON `[{name, ok, reason}]`.
    pub fn solver_support_json(&self) -> String {
        let v: Vec<_> = SolverKind::ALL
            .iter()
            .map(|k| match k.supports(&self.world) {
                Ok(()) => {
                    crate::json_macro::json!({"name": k.name(), "ok": true, "reason": crate::json_macro::Value::Null})
                }
                Err(why) => crate::json_macro::json!({"name": k.name(), "ok": false, "reason": why}),
            })
            .collect();
        crate::json_macro::Value::from(v).to_string()
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

    /// Sets the rope–rope friction coefficients (static μs, dynamic μk; both ≥ 0). Also the
    /// μ of the tangles' capstan lock test (μs).
    pub fn set_rope_friction_checked(&mut self, mu_s: f32, mu_k: f32) -> Result<()> {
        self.set_many(vec![
            ("rope_friction".into(), SettingValue::Num(mu_s as f64)),
            ("rope_dynamic_friction".into(), SettingValue::Num(mu_k as f64)),
        ])
    }

    /// Caps the tangles' holding ratio e^{μΘ} (the seed's gameplay clamp, e.g. 3); `None`
    /// removes the cap.
    pub fn set_tangle_cap_checked(&mut self, cap: Option<f32>) -> Result<()> {
        self.set("tangle_cap", cap.map_or(SettingValue::Absent, |c| SettingValue::Num(c as f64)))
    }
}

#[wasm_bindgen]
impl Sim {
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
    pub fn set_solver(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
    ) -> Result<(), JsError> {
        self.set_solver_checked(&js_text("setSolver: the solver name", &name)?).map_err(js)
    }

    #[wasm_bindgen(getter)]
    pub fn solver(&self) -> String {
        self.world.settings.solver.name().to_string()
    }

    /// Names of every available solver.
    pub fn solvers() -> Vec<String> {
        SolverKind::ALL.iter().map(|k| k.name().to_string()).collect()
    }

    /// Every solver's name, menu label and description: JSON `[{name, label, about}]`.
    #[cfg(feature = "full")]
    #[wasm_bindgen(js_name = solverInfo)]
    pub fn solver_info() -> String {
        Sim::solver_info_json()
    }

    /// Which solvers can run the current scene: JSON `[{name, ok, reason}]` (`reason` says
    /// what the scene needs that the solver lacks; `setSolver` throws it too).
    #[cfg(feature = "full")]
    #[wasm_bindgen(js_name = solverSupport)]
    pub fn solver_support(&self) -> String {
        self.solver_support_json()
    }

    /// `"side"` (x–y) or `"top"` (x–z): the plane the page draws and edits.
    #[wasm_bindgen(getter)]
    pub fn view(&self) -> String {
        self.world.settings.view.name().into()
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

    /// Sets several settings at once, all or nothing: `patch` is an object (or its JSON)
    /// `{name: value}` with scene keys or JS names (`settingsSchema()` lists them), e.g.
    /// `sim.setSettings({iterations: 8, damping: 0.5})`. Each value is checked exactly as a
    /// scene file's `settings` are; on any error nothing changes.
    #[cfg(feature = "full")]
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
        self.set_many(keys.into_iter().zip(values).collect()).map_err(js)
    }

    /// Every setting's current value, as JSON `{jsName: value}`.
    #[wasm_bindgen(js_name = settings)]
    pub fn settings_values(&self) -> String {
        self.settings_json()
    }

    /// The settings table as JSON: `[{key, js, label, unit, doc, kind, range, min, max,
    /// default, slider?}]` — the page builds its sliders from it.
    #[cfg(feature = "full")]
    #[wasm_bindgen(js_name = settingsSchema)]
    pub fn settings_schema() -> String {
        Self::settings_schema_json()
    }
}
