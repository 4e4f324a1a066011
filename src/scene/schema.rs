//! The scene file format: its serde types with their defaults, parsing (errors name the
//! JSON path) and printing.

use glam::{Vec2, Vec3};
use serde::{Deserialize, Serialize};

use crate::collide::Obstacle;
use crate::error::Result;
use crate::leash::WanderSpec;
use crate::links::LinkKind;
use crate::settings::Settings;

use super::scene_err;

/// The scene format version this build reads and writes.
pub const SCENE_VERSION: u32 = 1;

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scene {
    pub version: u32,
    #[serde(default)]
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// What the page should show first: centre and height (m) of the view rectangle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub camera: Option<Camera>,
    #[serde(default)]
    pub settings: Settings,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub particles: Vec<ParticleSpec>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<LinkSpec>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ropes: Vec<RopeSpec>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub grids: Vec<GridSpec>,
    /// Static obstacles: ground planes, slopes, circles, capsules, boxes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub obstacles: Vec<Obstacle>,
    /// Pins of particles (by index, after `particles`, `ropes` and `grids` are built) to
    /// world points.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pins: Vec<PinSpec>,
    /// The three-dog leash scene (built after `grids`): a hand, leashes, dogs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leash: Option<LeashSpec>,
    /// Ropes over existing particles, as index lists in order (consecutive ones must be
    /// linked). `ropes` entries register their ropes themselves; exported worlds use this.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rope_points: Vec<Vec<u32>>,
    /// A leash over existing particles and `rope_points` (what an exported leash world holds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leash_points: Option<LeashPoints>,
    /// Rigid bodies, their joints and particles attached to them (`scene::bodies`). The lite
    /// build (no `full` feature) refuses a non-empty list by name (`super::bodies::refuse`),
    /// so it carries none of their parsing or printing code.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(not(feature = "full"), serde(deserialize_with = "super::bodies::refuse", skip_serializing))]
    pub bodies: Vec<super::bodies::BodySpec>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(not(feature = "full"), serde(deserialize_with = "super::bodies::refuse", skip_serializing))]
    pub joints: Vec<super::bodies::JointSpec>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(not(feature = "full"), serde(deserialize_with = "super::bodies::refuse", skip_serializing))]
    pub attachments: Vec<super::bodies::AttachSpec>,
    /// Winches paying ropes out or reeling them in (`scene::winches`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub winches: Vec<super::winches::WinchSpec>,
    /// The number the scene demonstrates, its prediction and how to read it off the running
    /// world (`crate::measure`). Read by the page; the lite build reads past it.
    #[serde(default, skip_serializing)]
    #[cfg_attr(not(feature = "full"), serde(deserialize_with = "super::ignore"))]
    pub measure: Option<crate::measure::MeasureSpec>,
    /// Seconds after which the page starts the scene again when nobody has touched it: the
    /// story of an experiment that ends (a weight landing) is shown again and again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart_after: Option<f32>,
    /// What the step carries from one step to the next (`scene::state`): written by an
    /// export, so that the export continues exactly; absent in a scene's start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<super::state::StateSpec>,
}

/// The leash scene builder: a hand (a locked particle, draggable) holding one leash per dog;
/// leash k runs from the hand to dog k's collar. Leash links are rope links (they go slack).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeashSpec {
    /// The hand (m; y is its height).
    pub hand: Vec3,
    /// Horizontal direction the handler faces (the braid's reference; the seam is behind).
    #[serde(default = "front_z")]
    pub front: Vec3,
    /// Horizontal radius (m) of the hand region whose crossings the braid remembers.
    #[serde(default = "default_hand_radius")]
    pub hand_radius: f32,
    pub dogs: Vec<DogSpec>,
    /// Particles per leash, the hand and the dog included (≥ 3).
    #[serde(default = "default_leash_points")]
    pub points: u32,
    /// Leash length (m).
    #[serde(default = "default_leash_length")]
    pub length: f32,
    #[serde(default = "default_leash_mass")]
    pub mass_per_meter: f32,
    /// Leash radius (m): half its thickness, the rope–rope contact radius.
    #[serde(default = "default_leash_radius")]
    pub radius: f32,
    /// Link compliance (m/N).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub compliance: f32,
    #[serde(default)]
    pub wander: WanderSpec,
}

/// One dog of a [`LeashSpec`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DogSpec {
    /// The collar (m; y is the collar height, held by the dog's legs).
    pub at: Vec3,
    /// kg.
    #[serde(default = "default_dog_mass")]
    pub mass: f32,
    /// Radius (m) of the dog's body (a vertical cylinder up to the collar the other leashes
    /// go around; 0 = none).
    #[serde(default = "default_body_radius")]
    pub body_radius: f32,
    /// Friction coefficient of the dog's feet on the ground: it stands against a leash
    /// pulling with up to grip·m·g.
    #[serde(default = "default_grip")]
    pub grip: f32,
}

/// A leash over existing particles (see [`Scene::leash_points`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeashPoints {
    pub hand: u32,
    pub dogs: Vec<DogPoint>,
    #[serde(default = "front_z")]
    pub front: Vec3,
    #[serde(default = "default_hand_radius")]
    pub hand_radius: f32,
    #[serde(default)]
    pub wander: WanderSpec,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DogPoint {
    pub particle: u32,
    pub height: f32,
    #[serde(default)]
    pub body_radius: f32,
    #[serde(default = "default_grip")]
    pub grip: f32,
}

fn front_z() -> Vec3 {
    Vec3::Z
}
fn default_hand_radius() -> f32 {
    0.05
}
fn default_leash_points() -> u32 {
    20
}
fn default_leash_length() -> f32 {
    1.8
}
fn default_leash_mass() -> f32 {
    0.15
}
fn default_leash_radius() -> f32 {
    0.01
}
fn default_dog_mass() -> f32 {
    8.0
}
fn default_body_radius() -> f32 {
    0.12
}
fn default_grip() -> f32 {
    0.8
}

/// A particle pinned to a world point, optionally compliant (a zero-length spring).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PinSpec {
    /// Particle index.
    pub point: u32,
    /// World point; omitted = where the particle is when the scene loads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<Vec3>,
    /// Compliance in m/N (0 = rigid).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub compliance: f32,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Camera {
    pub center: Vec2,
    pub height: f32,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParticleSpec {
    pub pos: Vec3,
    #[serde(default, skip_serializing_if = "is_zero_vec")]
    pub vel: Vec3,
    #[serde(default = "one")]
    pub mass: f32,
    #[serde(default = "default_radius")]
    pub radius: f32,
    #[serde(default, skip_serializing_if = "is_false")]
    pub locked: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkSpec {
    pub a: u32,
    pub b: u32,
    /// Rest length (m, at least `limits::MIN_REST` = 1e-6); omitted = the distance at load
    /// time (the points must then be more than 1e-6 m apart).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rest: Option<f32>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub give: f32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub compliance: f32,
    #[serde(default, skip_serializing_if = "is_distance")]
    pub kind: LinkKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tear_stretch: Option<f32>,
    /// Tension (N) past which the link tears (PBD-family solvers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tear_force: Option<f32>,
}

/// A straight rope from `from` to `to` with `points` particles (≥ 2).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RopeSpec {
    pub from: Vec3,
    pub to: Vec3,
    pub points: u32,
    /// Mass per metre (kg/m), spread evenly over the points.
    #[serde(default = "one")]
    pub mass_per_meter: f32,
    /// Rest length as a multiple of the straight length (> 1 = hangs with slack).
    #[serde(default = "one")]
    pub slack: f32,
    #[serde(default, skip_serializing_if = "is_false")]
    pub lock_start: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub lock_end: bool,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub give: f32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub compliance: f32,
    #[serde(default, skip_serializing_if = "is_distance")]
    pub kind: LinkKind,
    #[serde(default = "default_radius")]
    pub radius: f32,
    /// Relative stretch past which each link tears.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tear_stretch: Option<f32>,
    /// Tension (N) past which each link tears (PBD-family solvers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tear_force: Option<f32>,
    /// Mass (kg) of the first point instead of its share of the rope (a weight at the end).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_mass: Option<f32>,
    /// Mass (kg) of the last point instead of its share of the rope.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_mass: Option<f32>,
}

/// Which points of a grid start locked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum GridLock {
    #[default]
    None,
    TopCorners,
    TopRow,
}

crate::json_macro::deserialize_by_name!(GridLock,
    "none" => GridLock::None,
    "top-corners" => GridLock::TopCorners,
    "top-row" => GridLock::TopRow,
);

/// A net: `cols × rows` points `spacing` apart in the view plane, linked to their right
/// and lower neighbours. `origin` is the top-left point. `spacing` is at least
/// `limits::MIN_REST` (1e-6 m), and large enough that neighbours stay apart in f32 at
/// `origin`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GridSpec {
    pub origin: Vec3,
    pub cols: u32,
    pub rows: u32,
    pub spacing: f32,
    #[serde(default = "one")]
    pub point_mass: f32,
    #[serde(default)]
    pub lock: GridLock,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub give: f32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub compliance: f32,
    #[serde(default = "default_radius")]
    pub radius: f32,
}

fn one() -> f32 {
    1.0
}
fn default_radius() -> f32 {
    0.02
}
fn is_zero(x: &f32) -> bool {
    *x == 0.0
}
fn is_false(b: &bool) -> bool {
    !*b
}
fn is_zero_vec(v: &Vec3) -> bool {
    *v == Vec3::ZERO
}
fn is_distance(k: &LinkKind) -> bool {
    *k == LinkKind::Distance
}

impl Scene {
    /// Parses a scene from JSON text; errors carry the JSON path.
    pub fn from_json(text: &str) -> Result<Scene> {
        use crate::limits::MAX_SCENE_BYTES;
        if text.len() > MAX_SCENE_BYTES {
            return Err(scene_err(
                "(root)",
                format!(
                    "the file is {} MB, over the {} MB a scene file may be",
                    crate::num::rounded(text.len() as f64 / (1 << 20) as f64, 1),
                    MAX_SCENE_BYTES >> 20
                ),
            ));
        }
        // serde reads a struct from a JSON array too (its fields in order): `[1]` was a
        // version-1 scene with nothing in it. A scene file is an object.
        if text.bytes().find(|b| !b.is_ascii_whitespace()) == Some(b'[') {
            return Err(scene_err("(root)", "a scene is a JSON object ({\"version\": 1, …}), not an array"));
        }
        let scene: Scene = parse(text)?;
        if scene.version != SCENE_VERSION {
            return Err(scene_err(
                "version",
                format!("unsupported scene version {} (this build reads {SCENE_VERSION})", scene.version),
            ));
        }
        Ok(scene)
    }

    pub fn to_json(&self) -> String {
        // Not `expect`: that would format the error with `Debug` (and str's `Debug`, with std's
        // Unicode tables) in the wasm.
        #[cfg(feature = "full")]
        let text = serde_json::to_string_pretty(self);
        #[cfg(not(feature = "full"))]
        let text = crate::json::to_string_pretty(self);
        text.unwrap_or_else(|e| panic!("a scene always serialises: {e}"))
    }
}

/// Reads a `T` of the scene format from JSON text; an error is a `SimError::Scene` naming the
/// JSON path (`(root)` for the top level). The full build reads with serde_json and finds the
/// path after the fact (`json_path`); the lite build reads with `crate::json`, which tracks it
/// (issue 12 §5: a fraction of the wasm; tests/json_text.rs holds the two to the same values
/// and paths).
pub fn parse<T: serde::de::DeserializeOwned>(text: &str) -> Result<T> {
    #[cfg(feature = "full")]
    let read = serde_json::from_str(text).map_err(|e| (super::json_path::error_path(text, &e), e.to_string()));
    #[cfg(not(feature = "full"))]
    let read = crate::json::from_str(text).map_err(|e| (e.path(), e.to_string()));
    read.map_err(|(path, reason)| scene_err(if path.is_empty() { "(root)".to_string() } else { path }, reason))
}
