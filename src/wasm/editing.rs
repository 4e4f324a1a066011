//! Editing: picking, pointer holds (drag, fling), locks, adding and removing points and
//! links, subdividing, cutting, obstacles and pins.

use super::*;
use crate::recording::Input;

/// The plain Rust surface (natively testable).
impl Sim {
    /// Adds an obstacle given as JSON (the scene format's `obstacles[i]`); returns its index.
    pub fn add_obstacle_json(&mut self, json: &str) -> Result<usize> {
        self.input(Input::AddObstacle { json: json.to_string() }).map(|o| o.count())
    }

    /// [`Sim::add_obstacle_json`] without the recording.
    pub(super) fn add_obstacle_now(&mut self, json: &str) -> Result<usize> {
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
        let _ = i;
        self.input(Input::Pin { point: index as u32, at: [x, y], compliance }).map(|_| ())
    }

    /// [`Sim::pin_checked`] without the recording.
    pub(super) fn pin_now(&mut self, index: u32, x: f32, y: f32, compliance: f32) -> Result<()> {
        let i = error::index("point", index as i64, self.world.particles.len())?;
        let target = self.world.settings.view.unproject(glam::Vec2::new(x, y), self.world.particles.pos[i]);
        self.world.pin(index as i64, target, compliance)
    }

    /// `subdivide(link, count)`: inserts `count` points evenly along link `link` (a JS
    /// number each); returns the first new point's index.
    pub fn subdivide_checked(&mut self, link: f64, count: f64) -> Result<usize> {
        let count = error::count("subdivide count", count, 1, 1000, "a whole number in 1..=1000")?;
        let link = error::index("link", idx(link), self.world.links.len())?;
        self.input(Input::Subdivide { link: link as u32, count: count as u32 }).map(|o| o.count())
    }

    /// A point index from JS, checked (so it fits the recording's `u32`).
    pub(super) fn point_index(&self, index: f64) -> Result<u32> {
        error::index("point", idx(index), self.world.particles.len()).map(|i| i as u32)
    }

    pub fn grab_checked(&mut self, pointer: u32, index: f64) -> Result<()> {
        let point = self.point_index(index)?;
        self.input(Input::Grab { pointer, point }).map(|_| ())
    }

    /// `dragTo(pointer, x, y)` (while recording, to the recording's grid).
    pub fn drag_to_checked(&mut self, pointer: u32, x: f32, y: f32) -> Result<()> {
        self.drag_input(pointer, x, y, false)
    }

    pub fn release_checked(&mut self, pointer: u32) -> bool {
        if !self.world.holds.iter().any(|h| h.pointer == pointer) {
            return false;
        }
        self.input(Input::Release { pointer }).is_ok_and(|o| o.flag())
    }

    pub fn set_locked_checked(&mut self, index: f64, locked: bool) -> Result<()> {
        let point = self.point_index(index)?;
        self.input(Input::Lock { point, locked }).map(|_| ())
    }

    pub fn cut_checked(&mut self, x0: f32, y0: f32, x1: f32, y1: f32) -> Result<usize> {
        for (name, v) in [("x0", x0), ("y0", y0), ("x1", x1), ("y1", y1)] {
            error::finite(name, v)?;
        }
        self.input(Input::Cut { from: [x0, y0], to: [x1, y1] }).map(|o| o.count())
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
        self.grab_checked(pointer_id, index).map_err(js)
    }

    #[wasm_bindgen(js_name = dragTo)]
    pub fn drag_to(&mut self, pointer_id: u32, x: f32, y: f32) -> Result<(), JsError> {
        self.drag_input(pointer_id, x, y, false).map_err(js)
    }

    /// Lets go; the point keeps the pointer's recent velocity. Returns whether it held one.
    pub fn release(&mut self, pointer_id: u32) -> bool {
        self.release_checked(pointer_id)
    }

    /// Index of the point `pointerId` holds, or -1.
    #[wasm_bindgen(js_name = heldBy)]
    pub fn held_by(&self, pointer_id: u32) -> i32 {
        self.world.holds.iter().find(|h| h.pointer == pointer_id).map_or(-1, |h| h.particle as i32)
    }

    #[wasm_bindgen(js_name = setLocked)]
    pub fn set_locked(&mut self, index: f64, locked: bool) -> Result<(), JsError> {
        self.set_locked_checked(index, locked).map_err(js)
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
        error::finite("x", x).map_err(js)?;
        error::finite("y", y).map_err(js)?;
        self.input(Input::AddPoint { at: [x, y], locked }).map(|o| o.count() as u32).map_err(js)
    }

    /// Removes point `index` and its links; higher indices shift down by one.
    #[wasm_bindgen(js_name = removePoint)]
    pub fn remove_point(&mut self, index: f64) -> Result<(), JsError> {
        let point = self.point_index(index).map_err(js)?;
        self.input(Input::RemovePoint { point }).map(|_| ()).map_err(js)
    }

    /// Links points `a` and `b` at their current distance; returns the link index.
    pub fn connect(&mut self, a: f64, b: f64) -> Result<u32, JsError> {
        let (a, b) = (self.point_index(a).map_err(js)?, self.point_index(b).map_err(js)?);
        self.input(Input::Connect { a, b }).map(|o| o.count() as u32).map_err(js)
    }

    /// Removes the link between `a` and `b`; returns whether there was one.
    pub fn disconnect(&mut self, a: f64, b: f64) -> Result<bool, JsError> {
        let (a, b) = (self.point_index(a).map_err(js)?, self.point_index(b).map_err(js)?);
        self.input(Input::Disconnect { a, b }).map(|o| o.flag()).map_err(js)
    }

    /// Inserts `count` points evenly along link `link`; returns the first new point's index.
    pub fn subdivide(&mut self, link: f64, count: f64) -> Result<u32, JsError> {
        self.subdivide_checked(link, count).map(|i| i as u32).map_err(js)
    }

    /// Removes every link crossed by the swipe (x0, y0)–(x1, y1); returns how many.
    pub fn cut(&mut self, x0: f32, y0: f32, x1: f32, y1: f32) -> Result<u32, JsError> {
        self.cut_checked(x0, y0, x1, y1).map(|n| n as u32).map_err(js)
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
        let _ = self.input(Input::ClearObstacles);
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
        let point = self.point_index(index).map_err(js)?;
        self.input(Input::Unpin { point }).map(|o| o.flag()).map_err(js)
    }
}
