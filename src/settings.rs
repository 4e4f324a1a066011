//! User-facing world settings (apart from solver scratch, which lives in `solver::Scratch`).

use glam::{Vec2, Vec3};
use serde::{Deserialize, Serialize};

use crate::solver::SolverKind;

/// Which plane the page draws and the pointer edits: the drag demo and solver comparisons
/// are side-on (x–y, y up); the leash scene is seen from above (x–z, y is height).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum View {
    #[default]
    Side,
    Top,
}

impl View {
    /// World point → 2D view coordinates.
    #[inline]
    pub fn project(self, p: Vec3) -> Vec2 {
        match self {
            View::Side => Vec2::new(p.x, p.y),
            View::Top => Vec2::new(p.x, p.z),
        }
    }

    /// 2D view coordinates → world point, keeping `keep`'s out-of-view coordinate.
    #[inline]
    pub fn unproject(self, q: Vec2, keep: Vec3) -> Vec3 {
        match self {
            View::Side => Vec3::new(q.x, q.y, keep.z),
            View::Top => Vec3::new(q.x, keep.y, q.y),
        }
    }
}

/// An axis-aligned box the particles bounce inside (the seed's canvas edges), in the x–y
/// plane. The bottom wall doubles as the ground.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Walls {
    pub min: Vec2,
    pub max: Vec2,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// Gravity (m/s²).
    pub gravity: Vec3,
    /// Which solver advances the world.
    pub solver: SolverKind,
    /// Relaxation passes per (sub)step.
    pub iterations: u32,
    /// Substeps per `step(dt)` (XPBD uses them; the classic solver ignores them).
    pub substeps: u32,
    /// The seed's `applyFriction` weight: each classic step keeps this fraction of the
    /// velocity (`prev = mix(pos, prev, friction)`), so 1 = no air friction.
    pub friction: f32,
    /// Give assigned to links created by editing (the seed's `GIVE`).
    pub give: f32,
    /// Classic solver: project with inverse-mass weights instead of the seed's centre split
    /// (the seed ignores mass, so a pinned end only closes half the error per pass).
    pub mass_weighted: bool,
    /// Optional bounding box; `None` = unbounded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub walls: Option<Walls>,
    /// Fraction of normal speed kept when bouncing off a wall (the seed reflects fully: 1).
    pub restitution: f32,
    /// Plane the page draws and edits in.
    pub view: View,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            gravity: Vec3::new(0.0, -9.81, 0.0),
            solver: SolverKind::Classic,
            iterations: 3,
            substeps: 1,
            friction: 0.999,
            give: 0.0,
            mass_weighted: false,
            walls: None,
            restitution: 1.0,
            view: View::Side,
        }
    }
}
