//! Checks of scene values that serde's types cannot express (ranges, geometry); the
//! settings go through the one settings table.

use glam::Vec3;

use crate::error::Result;
use crate::leash::WanderSpec;
use crate::settings::Settings;
use crate::world::World;

use super::*;

/// Every setting checked against the one table ([`crate::settings::table`]), as the JS
/// setters check them: an error names `settings.<key>`.
pub(super) fn validate_settings(s: &Settings) -> Result<()> {
    crate::settings::table::validate(s).map_err(|(key, reason)| scene_err(format!("settings.{key}"), reason))
}

pub(super) fn check_rope_points(w: &World, r: &[u32]) -> std::result::Result<(), String> {
    if r.len() < 2 {
        return Err("a rope needs at least 2 points".into());
    }
    let n = w.particles.len();
    for (k, &p) in r.iter().enumerate() {
        if p as usize >= n {
            return Err(format!("point {p} (entry {k}) does not exist (there are {n})"));
        }
        if k > 0 && w.links.find(r[k - 1], p).is_none() {
            return Err(format!("points {} and {p} (entries {} and {k}) are not linked", r[k - 1], k - 1));
        }
    }
    Ok(())
}

pub(super) fn check_horizontal(front: Vec3) -> Result<Vec3> {
    let f = Vec3::new(front.x, 0.0, front.z);
    if !f.is_finite() || f.length() < 1e-6 {
        return Err(scene_err("front", "must be a finite direction with a horizontal part"));
    }
    Ok(f.normalize())
}

pub(super) fn check_wander(wd: &WanderSpec) -> Result<()> {
    if !(wd.accel.is_finite() && wd.accel >= 0.0) {
        return Err(scene_err("wander.accel", format!("{} is out of range (≥ 0 m/s²)", crate::num::Num32(wd.accel))));
    }
    if !(wd.damping.is_finite() && wd.damping >= 0.0) {
        return Err(scene_err(
            "wander.damping",
            format!("{} is out of range (≥ 0 1/s)", crate::num::Num32(wd.damping)),
        ));
    }
    if !(wd.home_pull.is_finite() && wd.home_pull >= 0.0) {
        return Err(scene_err(
            "wander.home_pull",
            format!("{} is out of range (≥ 0 1/s²)", crate::num::Num32(wd.home_pull)),
        ));
    }
    Ok(())
}

/// Why `r` is not a point's radius (a rope's thickness, a dog's body): 0..=10 m
/// (`limits::MAX_POINT_RADIUS`).
pub(super) fn point_radius_error(r: f32) -> Option<String> {
    let ok = r.is_finite() && (0.0..=crate::limits::MAX_POINT_RADIUS).contains(&r);
    (!ok).then(|| format!("{} is out of range (0..=10 m)", crate::num::Num32(r)))
}

pub(super) fn check_hand_radius(r: f32) -> Result<()> {
    if !(r.is_finite() && (0.0..=1.0).contains(&r)) {
        return Err(scene_err("hand_radius", format!("{} is out of range (0..=1 m)", crate::num::Num32(r))));
    }
    Ok(())
}

pub(super) fn check_tear_force(f: f32) -> std::result::Result<(), String> {
    if f.is_finite() && f > 0.0 {
        Ok(())
    } else {
        Err(format!("{} is out of range (a tension > 0 N)", crate::num::Num32(f)))
    }
}
