//! The scene's number (`crate::measure`): the meter sampled after every step, a reading
//! voided when the scene is touched during its window, and the scene's restart time.

use super::*;
use crate::measure::{Meter, Status};
use crate::settings::Settings;

/// The scene's meter and what the world looked like at load: the reading is disturbed
/// when a pointer holds something, the settings change, or points, links, bodies, joints
/// or locks are added or removed.
#[derive(Clone, Debug, Default)]
pub(super) struct Watch {
    meter: Option<Meter>,
    settings: Settings,
    counts: [usize; 5],
    restart_after: Option<f32>,
    /// World time at load.
    t0: f64,
    /// Touched since load (see above).
    touched: bool,
}

fn counts(w: &World) -> [usize; 5] {
    let locked = w.particles.locked.iter().filter(|&&l| l).count();
    [w.particles.len(), w.links.len(), w.bodies.len(), w.joints.len(), locked]
}

impl Watch {
    pub(super) fn new(scene: &Scene, w: &World) -> Result<Watch> {
        Ok(Watch {
            meter: scene.meter(w)?,
            settings: w.settings.clone(),
            counts: counts(w),
            restart_after: scene.restart_after,
            t0: w.time,
            touched: false,
        })
    }

    /// The world as it is now counts as loaded (settings applied before the first step).
    pub(super) fn rebase(&mut self, w: &World) {
        self.settings = w.settings.clone();
        self.counts = counts(w);
    }

    /// After a step: `holding` is true while a pointer drags a body.
    pub(super) fn after_step(&mut self, w: &World, holding: bool) {
        // Nothing left to watch: no restart time, and no reading still open (or none at all).
        let open = self.meter.as_ref().is_some_and(|m| matches!(m.status(), Status::Waiting | Status::Measuring));
        if !open && (self.restart_after.is_none() || self.touched) {
            return;
        }
        self.touched = self.touched
            || holding
            || w.particles.held.iter().any(|&h| h)
            || w.settings != self.settings
            || counts(w) != self.counts;
        let Some(m) = &mut self.meter else { return };
        if self.touched {
            m.disturb();
        }
        m.sample(w);
    }
}

/// The plain Rust surface (natively testable).
impl Sim {
    /// The scene's reading as JSON (`crate::measure::Meter::json`), or `null`.
    pub fn measure_json(&self) -> String {
        self.watch.meter.as_ref().map_or_else(|| "null".to_string(), |m| m.json())
    }

    /// The scene has run its `restart_after` seconds untouched: the page loads it again.
    pub fn restart_due_now(&self) -> bool {
        let w = &self.watch;
        w.restart_after.is_some_and(|t| !w.touched && self.world.time - w.t0 >= t as f64)
    }
}

#[wasm_bindgen]
impl Sim {
    /// The number the scene demonstrates, measured: JSON `{label, unit, predicted,
    /// tolerance, formula, from, to, status ("waiting" | "measuring" | "done" |
    /// "disturbed"), value (null until read), within (null, or whether the value is within
    /// the tolerance of the prediction)}`, or `null` for a scene without one. Allocates:
    /// call it a few times a second.
    #[wasm_bindgen(js_name = measure)]
    pub fn measure(&self) -> String {
        self.measure_json()
    }

    /// The scene states a `restart_after` time and has run that long since it was loaded
    /// with nobody touching it (no grab, edit or settings change): the page loads it again,
    /// so that an experiment that ends is shown again and again.
    #[wasm_bindgen(getter, js_name = restartDue)]
    pub fn restart_due(&self) -> bool {
        self.restart_due_now()
    }
}
