//! Scenes: load and export scene files (the format is `crate::scene`).

use super::*;

/// The plain Rust surface (natively testable).
impl Sim {
    /// Replaces the world with the scene in `json`; on error the current world is kept.
    /// Recorded as an input (an undo, a scene opened mid-recording).
    pub fn load_scene_json(&mut self, json: &str) -> Result<()> {
        self.input(crate::recording::Input::Load { text: json.to_string() }).map(|_| ())
    }

    /// [`Sim::load_scene_json`] without the recording.
    pub(super) fn load_world(&mut self, json: &str) -> Result<()> {
        let scene = Scene::from_json(json)?;
        let world = scene.build()?;
        #[cfg(feature = "full")]
        {
            self.watch = reading::Watch::new(&scene, &world)?;
        }
        self.world = world;
        self.mouse_joints.clear();
        self.name = scene.name;
        self.camera = scene.camera;
        Ok(())
    }

    pub fn export_scene_json(&self) -> String {
        Scene::from_world(&self.world, &self.name, self.camera).to_json()
    }
}

#[wasm_bindgen]
impl Sim {
    /// Replaces the world with a JSON scene. Throws (naming the JSON path) and keeps the
    /// current world if the scene is invalid.
    #[wasm_bindgen(js_name = loadScene)]
    pub fn load_scene(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] json: JsValue,
    ) -> Result<(), JsError> {
        self.load_scene_json(&js_text("loadScene: the scene (JSON text)", &json)?).map_err(js)
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
}
