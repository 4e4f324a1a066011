//! Editing: picking, pointer holds (drag, fling), locks, adding and removing points and
//! links, subdividing, cutting, obstacles and pins.

use super::*;

/// The plain Rust surface (natively testable).
impl Sim {
    /// Adds an obstacle given as JSON (the scene format's `obstacles[i]`); returns its index.
    pub fn add_obstacle_json(&mut self, json: &str) -> Result<usize> {
        #[cfg(feature = "full")]
        let o: crate::collide::Obstacle =
            serde_json::from_str(json).map_err(|e| SimError::Invalid(format!("obstacle: {e}")))?;
        // The lite build's reader (`crate::json`) names the path instead of a line and column.
        #[cfg(not(feature = "full"))]
        let o: crate::collide::Obstacle = crate::json::from_str(json).map_err(|e| {
            let path = e.path();
            SimError::Invalid(format!("obstacle{}{path}: {e}", if path.is_empty() { "" } else { "." }))
        })?;
        self.world.add_obstacle(&o)
    }

    /// The obstacles as JSON (an array in the scene format).
    pub fn obstacles_json(&self) -> String {
        #[cfg(feature = "full")]
        let text = serde_json::to_string(&self.world.obstacles);
        #[cfg(not(feature = "full"))]
        let text = crate::json::to_string(&self.world.obstacles);
        text.unwrap_or_else(|e| panic!("obstacles always serialise: {e}"))
    }

    /// Pins point `index` at `(x, y)` in the view plane (keeping its out-of-view coordinate).
    pub fn pin_checked(&mut self, index: i64, x: f32, y: f32, compliance: f32) -> Result<()> {
        error::finite("x", x)?;
        error::finite("y", y)?;
        let i = error::index("point", index, self.world.particles.len())?;
        let target = self.world.settings.view.unproject(glam::Vec2::new(x, y), self.world.particles.pos[i]);
        self.world.pin(index, target, compliance)
    }

    /// `subdivide(link, count)`: inserts `count` points evenly along link `link` (a JS
    /// number each); returns the first new point's index.
    pub fn subdivide_checked(&mut self, link: f64, count: f64) -> Result<usize> {
        let count = error::count("subdivide count", count, 1, 1000, "a whole number in 1..=1000")?;
        self.world.subdivide(idx(link), count)
    }
}

#[wasm_bindgen]
impl Sim {
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
        self.subdivide_checked(link, count).map(|i| i as u32).map_err(js)
    }

    /// Removes every link crossed by the swipe (x0, y0)–(x1, y1); returns how many.
    pub fn cut(&mut self, x0: f32, y0: f32, x1: f32, y1: f32) -> Result<u32, JsError> {
        self.world.cut(x0, y0, x1, y1).map(|n| n as u32).map_err(js)
    }

    /// Adds an obstacle from JSON, e.g. `{"shape": {"type": "circle", "center": [0, 1, 0],
    /// "radius": 0.5}, "friction": 0.6}`; returns its index.
    #[wasm_bindgen(js_name = addObstacle)]
    pub fn add_obstacle(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] json: JsValue,
    ) -> Result<u32, JsError> {
        self.add_obstacle_json(&js_text("addObstacle: the obstacle JSON", &json)?).map(|i| i as u32).map_err(js)
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
}
