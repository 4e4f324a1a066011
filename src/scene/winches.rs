//! Winches in scene files: `"winches": [{"rope": 0, "speed": 0.0, "max_force": 2000}]`.
//!
//! `rope` is the rope's index in the file's rope order (as `attachments` name ropes);
//! `speed` (m/s, negative reels in, |speed| ≤ 100) and `max_force` (N, the tension it reels
//! in against, default unlimited up to 1e9) are the winch's own (`crate::winch`).
//! `link_rest` (m) is the rest length of one link the winch measures its range from
//! ([¼, 4]× it); it defaults to the rope's mean link length when the scene is built, and
//! exports carry it, so a scene saved after reeling keeps the winch's range.

use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::winch::Winch;
use crate::world::World;

use super::scene_err;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WinchSpec {
    pub rope: u32,
    #[serde(default)]
    pub speed: f32,
    #[serde(default = "no_cap")]
    pub max_force: f32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link_rest: Option<f32>,
}

fn no_cap() -> f32 {
    1e9
}

/// Adds the scene's winches to `w` (errors name the path).
pub fn build(w: &mut World, winches: &[WinchSpec]) -> Result<()> {
    for (i, s) in winches.iter().enumerate() {
        let path = |f: &str| format!("winches[{i}].{f}");
        w.sync_ropes();
        if s.rope as usize >= w.ropes.len() {
            return Err(scene_err(
                path("rope"),
                format!("rope {} does not exist (there are {})", s.rope, w.ropes.len()),
            ));
        }
        let id = w.ropes.id(s.rope as usize);
        if let Some(r) = s.link_rest {
            if !(r.is_finite() && r > 0.0 && r <= 1000.0) {
                return Err(scene_err(
                    path("link_rest"),
                    format!("{} is out of range (0 < link_rest ≤ 1000 m)", crate::num::Num32(r)),
                ));
            }
        }
        Winch::check(s.speed, 0.0).map_err(|e| scene_err(path("speed"), e.to_string()))?;
        Winch::check(0.0, s.max_force).map_err(|e| scene_err(path("max_force"), e.to_string()))?;
        let k = w.add_winch(id, s.speed, s.max_force).map_err(|e| scene_err(path("rope"), e.to_string()))?;
        if let Some(r) = s.link_rest {
            w.winches[k].seg0 = r;
        }
    }
    Ok(())
}

/// The world's winches as scene specs (ropes by their index in the world's rope order).
pub fn export(w: &World) -> Vec<WinchSpec> {
    w.winches
        .iter()
        .filter_map(|x| {
            let k = w.ropes.index_of(x.rope)?;
            Some(WinchSpec { rope: k as u32, speed: x.speed, max_force: x.max_force, link_rest: Some(x.seg0) })
        })
        .collect()
}
