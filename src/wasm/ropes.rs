//! Ropes and tangles: rope lists and stable rope ids, the leash, events, tangles, the braid
//! and its crossings, rope contacts, the dogs' wander, the capstan report.

use super::*;

/// The plain Rust surface (natively testable).
impl Sim {
    /// The rope over an obstacle (the capstan on screen) as JSON, or `null`.
    pub fn capstan_report_json(&self) -> String {
        crate::report::wrap_json(crate::obstacle_wrap::wrap_report(&self.world).as_ref()).to_string()
    }

    /// Rope `i`'s point indices in order.
    pub fn rope_points_checked(&self, i: i64) -> Result<Vec<u32>> {
        let k = error::index("rope", i, self.world.ropes.len())?;
        Ok(self.world.ropes.points(k).to_vec())
    }

    /// Dogs wander (true) or stand (false). Errors when the world has no leash.
    pub fn set_wander_checked(&mut self, on: bool) -> Result<()> {
        self.input(crate::recording::Input::Wander { on }).map(|_| ())
    }

    pub(super) fn set_wander_now(&mut self, on: bool) -> Result<()> {
        if self.world.leash.is_none() {
            return Err(SimError::Invalid("this world has no dogs (load the leash scene)".into()));
        }
        self.world.wander.spec.enabled = on;
        Ok(())
    }

    /// Wander strength: random acceleration (m/s², ≥ 0) and damping rate (1/s, ≥ 0).
    pub fn set_wander_params_checked(&mut self, accel: f32, damping: f32) -> Result<()> {
        self.input(crate::recording::Input::WanderParams { accel, damping }).map(|_| ())
    }

    pub(super) fn set_wander_params_now(&mut self, accel: f32, damping: f32) -> Result<()> {
        error::in_range("wander accel", accel, 0.0, f32::INFINITY, "≥ 0 m/s²")?;
        error::in_range("wander damping", damping, 0.0, f32::INFINITY, "≥ 0 1/s")?;
        self.world.wander.spec.accel = accel;
        self.world.wander.spec.damping = damping;
        Ok(())
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
    /// The rope lying over an obstacle with the capstan relation: JSON `{obstacle, mu, wrap,
    /// limit, tensionLoad, tensionHold, fromSolver, ratio, slipSpeed, holds, load: {point,
    /// mass}, hold: {point, mass}, contactFrom: [x, y, z], contactTo: [x, y, z]}` or `null`.
    /// Allocates: call it a few times a second, not per frame of a hot loop.
    #[cfg(feature = "full")]
    #[wasm_bindgen(js_name = capstanReport)]
    pub fn capstan_report(&self) -> String {
        self.capstan_report_json()
    }

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
    /// "bodyRadius"}]}` (see `report::leash_json`). In the lite build too: `<rope-lab>` draws
    /// the hand and the dogs from it.
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
    #[cfg(feature = "full")]
    pub fn braid(&self, swivel: bool) -> String {
        crate::report::braid_json(&self.world, swivel)
    }

    /// The braid reading's crossings, hand outwards: `[{"kind": "leash" | "dogRay" | "seam",
    /// "point", "top", "radius", "over", "under" (-1 for the seam), "letters"}]`.
    #[cfg(feature = "full")]
    #[wasm_bindgen(js_name = braidCrossings)]
    pub fn braid_crossings(&self) -> String {
        crate::report::braid_crossings_json(&self.world)
    }

    /// Every top-view crossing of two rope segments, for the knot diagram: `[{"top": [x, z],
    /// "over": {"rope", "segment", "link", "t", "y"}, "under": {…}}]` — break the `under`
    /// segment around `top`.
    #[cfg(feature = "full")]
    pub fn crossings(&self) -> String {
        crate::report::top_crossings_json(&self.world)
    }

    /// Rope–rope contacts pressing in the last substep: `[{"ropes": [a, b], "segments": [i,
    /// j], "point": [x, y, z], "force": N}]`.
    #[cfg(feature = "full")]
    #[wasm_bindgen(js_name = ropeContacts)]
    pub fn rope_contacts(&self) -> String {
        crate::report::contacts_json(&self.world)
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
    #[cfg(feature = "full")]
    #[wasm_bindgen(js_name = setWanderParams)]
    pub fn set_wander_params(&mut self, accel: f32, damping: f32) -> Result<(), JsError> {
        self.set_wander_params_checked(accel, damping).map_err(js)
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
