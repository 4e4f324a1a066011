//! Bodies, joints and attachments in scene files (and in `Sim.addBody` / `addJoint`):
//!
//! ```text
//! "bodies": [{"name": "ball", "kind": "dynamic" | "kinematic" | "static",
//!             "shape": {"type": "sphere", "radius": 0.2}
//!                    | {"type": "capsule", "radius": 0.05, "half_length": 0.2}  (along local x)
//!                    | {"type": "box", "half": [hx, hy, hz]},
//!             "mass": 100, "pos": [x, y, z], "angle": 0.3 (about z) | "rot": [x, y, z, w],
//!             "vel": [..], "angular_velocity": [..], "linear_damping": 0, "angular_damping": 0,
//!             "gravity_scale": 1, "planar": true}],
//! "joints": [{"type": "hinge", "a": "frame" | 3 | null (the world), "b": "door",
//!             "anchor": [x, y, z], "anchor_b": [..], "axis": [0, 0, 1],
//!             "limit": [lo, hi], "motor": {"speed": 1, "max_force": 50},
//!             "soft": {"hertz": 5, "damping_ratio": 0.7}, "break_force": 500,
//!             "length": .., "min": .., "max": .., "max_length": .., "max_swing": .., "twist": [lo, hi],
//!             "ref_rotation": [x, y, z, w]}],
//! "attachments": [{"point": 12, "body": "ball"} | {"rope": 0, "end": "start" | "end", "body": "ball"}]
//! ```
//!
//! Every field but `shape` and `pos` (bodies), `type` and `anchor` (joints) and `body`
//! (attachments) is optional. Joint types: `ballSocket`, `hinge` and `prismatic` (`limit`,
//! `motor`), `fixed`, `distance` (`length`, `min`, `max`), `rope` (`max_length`),
//! `angularMotor` (`motor`), `swingTwist` (`max_swing`, `twist`); a per-kind field on another
//! type is an error.
//!
//! A `distance` joint's `length` defaults to the anchors' distance; `min` defaults to 0.
//! Without `soft` it is free inside [min, max] and rigid at both ends, `max` defaulting to
//! `length` (so `min` = `max` = `length` is a rod, and no `min` a rope of that length).
//! With `soft` it is a spring at `length` pulling and pushing alike (as Box2D's
//! `b2DistanceJoint` with its spring on), with optional rigid limits `min` and `max`
//! (default none); `min` = `max` = `length` makes a spring rod (the same spring, one row). So a body hung on `{"type": "distance", "length": 1, "soft": {"hertz": 2, ..}}`
//! bounces at 2 Hz about its static stretch, and `"max": 1` would make the spring act only
//! below 1 m. Anchors and axes are world coordinates in the pose the bodies are given
//! in. An attached particle becomes the point of the body where it lies. Errors name the
//! JSON path (`joints[2].limit`, `bodies[0].shape.radius`) and build nothing.

use glam::{Quat, Vec3};
use serde::{Deserialize, Serialize};

use crate::bodies::{BodyDef, BodyKind, Filter, Material, Shape};
use crate::error::{Result, SimError};
use crate::ids::Id;
use crate::joints::{JointDef, JointKind, Motor, SoftDef};
use crate::world::World;

use super::scene_err;

fn one() -> f32 {
    1.0
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodySpec {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    #[serde(default)]
    pub kind: BodyKind,
    pub shape: Shape,
    #[serde(default = "one")]
    pub mass: f32,
    pub pos: Vec3,
    /// Orientation as a quaternion [x, y, z, w] (or `angle` about z).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rot: Option<Quat>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub angle: Option<f32>,
    #[serde(default)]
    pub vel: Vec3,
    #[serde(default)]
    pub angular_velocity: Vec3,
    #[serde(default)]
    pub linear_damping: f32,
    #[serde(default)]
    pub angular_damping: f32,
    #[serde(default = "one")]
    pub gravity_scale: f32,
    #[serde(default)]
    pub planar: bool,
    /// Surface (defaults: friction 0.6, restitution 0, rolling friction 0).
    #[serde(default = "default_friction")]
    pub friction: f32,
    #[serde(default)]
    pub restitution: f32,
    #[serde(default)]
    pub rolling_friction: f32,
    /// Collision filter bits (defaults: group 1, mask all).
    #[serde(default = "default_group")]
    pub group: u32,
    #[serde(default = "default_mask")]
    pub mask: u32,
}

fn default_friction() -> f32 {
    0.6
}
fn default_group() -> u32 {
    1
}
fn default_mask() -> u32 {
    u32::MAX
}

/// A body named by scene name or by id (the API).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum BodyRef {
    Id(u32),
    Name(String),
}

impl<'de> Deserialize<'de> for BodyRef {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = BodyRef;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a body name (string) or a body id (whole number ≥ 0)")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> std::result::Result<BodyRef, E> {
                Ok(BodyRef::Name(v.to_string()))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> std::result::Result<BodyRef, E> {
                u32::try_from(v).map(BodyRef::Id).map_err(|_| E::custom(format!("{v} is not a body id")))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> std::result::Result<BodyRef, E> {
                u32::try_from(v).map(BodyRef::Id).map_err(|_| E::custom(format!("{v} is not a body id")))
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JointSpec {
    #[serde(rename = "type")]
    pub ty: String,
    #[serde(default)]
    pub a: Option<BodyRef>,
    #[serde(default)]
    pub b: Option<BodyRef>,
    pub anchor: Vec3,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub anchor_b: Option<Vec3>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub axis: Option<Vec3>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<[f32; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub motor: Option<MotorSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub soft: Option<SoftSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub break_force: Option<f32>,
    /// Distance joint: the rod's length or the spring's rest length (m); default the
    /// anchors' distance.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length: Option<f32>,
    /// Distance joint: rigid lower limit (m); default 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<f32>,
    /// Distance joint: rigid upper limit (m); default `length` if rigid, none if soft (the
    /// spring then acts on both sides of `length`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_length: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_swing: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub twist: Option<[f32; 2]>,
    /// B's rotation relative to A (A⁻¹·B, a quaternion [x, y, z, w]) at which the joint's
    /// angles are zero: a hinge's angle and limits, the swing cone's centre and the twist, the
    /// orientation a weld or a slider holds. Default: the rotations the bodies are given in.
    /// Exports carry it, so a joint saved mid-swing keeps its limits where they were.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ref_rotation: Option<Quat>,
    /// The joined bodies still collide with each other (default: they do not).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub collide_connected: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MotorSpec {
    pub speed: f32,
    pub max_force: f32,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SoftSpec {
    pub hertz: f32,
    pub damping_ratio: f32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttachSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub point: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rope: Option<u32>,
    /// `"start"` or `"end"` of `rope`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<String>,
    pub body: BodyRef,
}

impl BodySpec {
    pub fn def(&self) -> Result<BodyDef> {
        let rot = match (self.rot, self.angle) {
            (Some(_), Some(_)) => return Err(scene_err("angle", "give rot or angle, not both")),
            (Some(q), None) => q,
            (None, Some(a)) => {
                if !a.is_finite() {
                    return Err(scene_err("angle", "must be finite"));
                }
                Quat::from_rotation_z(a)
            }
            (None, None) => Quat::IDENTITY,
        };
        let def = BodyDef {
            kind: self.kind,
            shape: self.shape,
            mass: self.mass,
            pos: self.pos,
            rot,
            vel: self.vel,
            ang_vel: self.angular_velocity,
            linear_damping: self.linear_damping,
            angular_damping: self.angular_damping,
            gravity_scale: self.gravity_scale,
            planar: self.planar,
            material: Material {
                friction: self.friction,
                restitution: self.restitution,
                rolling_friction: self.rolling_friction,
            },
            filter: Filter { group: self.group, mask: self.mask },
        };
        def.validate().map_err(|e| scene_err(field_of(&e), e.to_string()))?;
        Ok(def)
    }
}

/// The scene field a body error is about (for the JSON path: `bodies[2].shape.radius`).
fn field_of(e: &SimError) -> &'static str {
    let what = match e {
        SimError::NotFinite { what } | SimError::OutOfRange { what, .. } => *what,
        SimError::Invalid(s) if s.contains("rotation") => return "rot",
        SimError::Invalid(s) if s.contains("planar") => return "planar",
        _ => return "shape",
    };
    match what {
        "sphere radius" | "capsule radius" => "shape.radius",
        "capsule half length" => "shape.half_length",
        "box half extent x" => "shape.half[0]",
        "box half extent y" => "shape.half[1]",
        "box half extent z" => "shape.half[2]",
        "body mass" => "mass",
        "body position" => "pos",
        "body velocity" => "vel",
        "body angular velocity" => "angular_velocity",
        "linear damping" => "linear_damping",
        "angular damping" => "angular_damping",
        "gravity scale" => "gravity_scale",
        "friction" => "friction",
        "restitution" => "restitution",
        "rolling friction" => "rolling_friction",
        _ => "shape",
    }
}

/// Resolves a body reference against the scene's names (or ids).
pub fn resolve(world: &World, names: &[(String, Id)], r: &BodyRef) -> Result<Id> {
    match r {
        BodyRef::Name(n) => names
            .iter()
            .find(|(m, _)| m == n)
            .map(|&(_, id)| id)
            .ok_or_else(|| SimError::Invalid(format!("no body named {}", crate::error::quoted(n)))),
        BodyRef::Id(i) => {
            let id = Id(*i);
            world.bodies.index(id)?;
            Ok(id)
        }
    }
}

impl JointSpec {
    /// The joint this spec describes, its bodies resolved (errors name the field).
    pub fn def(&self, world: &World, names: &[(String, Id)]) -> Result<JointDef> {
        let body = |field: &'static str, r: &Option<BodyRef>| -> Result<Option<Id>> {
            r.as_ref().map(|r| resolve(world, names, r).map_err(|e| scene_err(field, e.to_string()))).transpose()
        };
        let (a, b) = (body("a", &self.a)?, body("b", &self.b)?);
        self.check_fields()?;
        let motor = self.motor.map(|m| Motor { speed: m.speed, max_force: m.max_force });
        let need =
            |field: &'static str, v: Option<f32>| v.ok_or_else(|| scene_err(field, "required for this joint type"));
        let kind = match self.ty.as_str() {
            "ballSocket" => JointKind::BallSocket,
            "hinge" => JointKind::Hinge { limit: self.limit, motor },
            "prismatic" => JointKind::Prismatic { limit: self.limit, motor },
            "fixed" => JointKind::Fixed,
            "distance" => {
                let length = self.length.unwrap_or(0.0);
                JointKind::Distance { length, min: self.min.unwrap_or(0.0), max: self.max.unwrap_or(0.0) }
            }
            "rope" => JointKind::Rope { max_length: need("max_length", self.max_length)? },
            "angularMotor" => JointKind::AngularMotor { motor: motor.ok_or_else(|| scene_err("motor", "required"))? },
            "swingTwist" => JointKind::SwingTwist {
                max_swing: need("max_swing", self.max_swing)?,
                twist: self.twist.unwrap_or([-0.5, 0.5]),
            },
            other => {
                return Err(scene_err(
                    "type",
                    format!("unknown joint type {} ({})", crate::error::quoted(other), KINDS.join(", ")),
                ))
            }
        };
        let def = JointDef {
            kind,
            a,
            b,
            anchor: self.anchor,
            anchor_b: self.anchor_b,
            axis: self.axis.unwrap_or(Vec3::Z),
            soft: self.soft.map(|s| SoftDef { hertz: s.hertz, damping_ratio: s.damping_ratio }),
            break_force: self.break_force,
            collide_connected: self.collide_connected,
        };
        def.validate(&world.bodies).map_err(|e| scene_err(joint_field(&e), e.to_string()))?;
        if let Some(q) = self.ref_rotation {
            // (A finite quaternion whose squared length overflows, [0, 0, 1e38, 1], normalised
            // to NaN.)
            if !(q.is_finite() && q.length_squared().is_finite() && q.length_squared() >= 1e-12) {
                return Err(scene_err("ref_rotation", "must be a finite, non-zero quaternion (|q|² finite)"));
            }
        }
        Ok(def)
    }

    /// Adds the joint to `world` (errors name the field; nothing changes on error).
    pub fn add(&self, world: &mut World, names: &[(String, Id)]) -> Result<Id> {
        let def = self.def(world, names)?;
        let id = world.add_joint(&def)?;
        if let Some(q) = self.ref_rotation {
            // The frames as `Joints::add` would have made them had B been at rotation
            // q_A·ref when the joint was made.
            let k = world.joints.index(id)?;
            let f = &mut world.joints.frames[k];
            f.q_ref = q.normalize();
            f.axis_b = f.q_ref.inverse() * f.axis_a;
        }
        Ok(id)
    }
}

/// The scene field a joint error is about (for the JSON path: `joints[3].motor.max_force`).
impl JointSpec {
    /// A per-kind field given to a joint type that does not use it is an error (a
    /// `max_length` on a hinge is a typo or a wrong type, not something to ignore).
    fn check_fields(&self) -> Result<()> {
        let uses: &[&str] = match self.ty.as_str() {
            "hinge" | "prismatic" => &["limit", "motor"],
            "distance" => &["length", "min", "max"],
            "rope" => &["max_length"],
            "angularMotor" => &["motor"],
            "swingTwist" => &["max_swing", "twist"],
            _ => &[],
        };
        let given = [
            ("limit", self.limit.is_some()),
            ("motor", self.motor.is_some()),
            ("length", self.length.is_some()),
            ("min", self.min.is_some()),
            ("max", self.max.is_some()),
            ("max_length", self.max_length.is_some()),
            ("max_swing", self.max_swing.is_some()),
            ("twist", self.twist.is_some()),
        ];
        match given.into_iter().find(|&(field, on)| on && !uses.contains(&field)) {
            Some((field, _)) if KINDS.contains(&self.ty.as_str()) => {
                Err(scene_err(field, format!("a {} joint does not take {field}", self.ty)))
            }
            _ => Ok(()),
        }
    }
}

/// The joint types of the format.
const KINDS: [&str; 8] =
    ["ballSocket", "hinge", "prismatic", "fixed", "distance", "rope", "angularMotor", "swingTwist"];

fn joint_field(e: &SimError) -> &'static str {
    let what = match e {
        SimError::NotFinite { what } | SimError::OutOfRange { what, .. } => *what,
        SimError::Invalid(s) => {
            return [
                ("twist limit", "twist"),
                ("anchor b", "anchor_b"),
                ("anchor", "anchor"),
                ("axis", "axis"),
                ("limit", "limit"),
                ("distance min", "min"),
                ("itself", "b"),
                ("at least one body", "b"),
            ]
            .into_iter()
            .find(|(needle, _)| s.contains(needle))
            .map_or("type", |(_, field)| field)
        }
        SimError::BadIndex { .. } => return "b",
        _ => return "type",
    };
    match what {
        "joint hertz" => "soft.hertz",
        "joint damping ratio" => "soft.damping_ratio",
        "break force" => "break_force",
        "hinge limit" | "slide limit" => "limit",
        "motor speed" => "motor.speed",
        "motor max force" => "motor.max_force",
        "distance length" => "length",
        "distance min" => "min",
        "distance max" => "max",
        "rope max length" => "max_length",
        "max swing" => "max_swing",
        "twist limit" => "twist",
        _ => "type",
    }
}

impl AttachSpec {
    /// The particle this attachment names.
    pub fn point(&self, world: &World) -> Result<usize> {
        if self.end.is_some() && self.rope.is_none() {
            return Err(scene_err("end", "only with rope (a point is named by point alone)"));
        }
        match (self.point, self.rope) {
            (Some(p), None) => {
                if (p as usize) < world.particles.len() {
                    Ok(p as usize)
                } else {
                    Err(scene_err("point", format!("point {p} does not exist (there are {})", world.particles.len())))
                }
            }
            (None, Some(r)) => {
                if r as usize >= world.ropes.len() {
                    return Err(scene_err(
                        "rope",
                        format!("rope {r} does not exist (there are {})", world.ropes.len()),
                    ));
                }
                let pts = world.ropes.points(r as usize);
                match self.end.as_deref() {
                    Some("start") => Ok(pts[0] as usize),
                    Some("end") | None => Ok(*pts.last().expect("a rope has points") as usize),
                    Some(other) => {
                        Err(scene_err("end", format!("{}: expected \"start\" or \"end\"", crate::error::quoted(other))))
                    }
                }
            }
            _ => Err(scene_err("point", "give point, or rope (with end)")),
        }
    }
}

/// The lite build's reading of `bodies`, `joints` and `attachments`: an empty list (or none)
/// is fine, an entry is refused with an error naming what the build lacks (the JSON path is
/// the field's, e.g. "scene error at `bodies`: …").
#[cfg(not(feature = "full"))]
pub(super) fn refuse<'de, D: serde::Deserializer<'de>, T>(d: D) -> std::result::Result<Vec<T>, D::Error> {
    struct Empty;
    impl<'de> serde::de::Visitor<'de> for Empty {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an empty list")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<(), A::Error> {
            // The whole list is read first, so that the error is raised at its end and
            // `json_path` names the list (`bodies`), not its first entry.
            let mut any = false;
            while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {
                any = true;
            }
            if any {
                Err(serde::de::Error::custom(crate::not_in_lite("rigid bodies, joints and attachments")))
            } else {
                Ok(())
            }
        }
    }
    d.deserialize_seq(Empty).map(|()| Vec::new())
}

/// Adds the scene's bodies, joints and attachments to `w` (errors name the path).
///
/// `continuing`: the scene carries a state (an export). A planar body is held in z = 0 by
/// soft rows, and a violent step can leave it more than [`PLANAR_SLACK`] off; a world that
/// continues takes it where it was, since the next step starts from there. A scene without a
/// state must start its planar bodies on the plane.
///
/// [`PLANAR_SLACK`]: crate::bodies::PLANAR_SLACK
pub fn build(
    w: &mut World,
    bodies: &[BodySpec],
    joints: &[JointSpec],
    attach: &[AttachSpec],
    continuing: bool,
) -> Result<()> {
    if !crate::FULL {
        // (The lite build's parser refuses every entry: see `refuse`.)
        return Ok(());
    }
    let at = |p: String| super::at(p);
    let mut names: Vec<(String, Id)> = Vec::new();
    for (i, b) in bodies.iter().enumerate() {
        let off_plane = continuing && b.planar && b.pos.z.is_finite();
        let spec = if off_plane { &BodySpec { pos: Vec3::new(b.pos.x, b.pos.y, 0.0), ..b.clone() } } else { b };
        let def = spec.def().map_err(at(format!("bodies[{i}]")))?;
        if !b.name.is_empty() && names.iter().any(|(n, _)| *n == b.name) {
            return Err(scene_err(
                format!("bodies[{i}].name"),
                format!("{} is used twice", crate::error::quoted(&b.name)),
            ));
        }
        let id = w.add_body(&def).map_err(at(format!("bodies[{i}]")))?;
        if off_plane {
            let k = w.bodies.len() - 1;
            (w.bodies.pos[k].z, w.bodies.prev_pos[k].z) = (b.pos.z, b.pos.z);
        }
        names.push((if b.name.is_empty() { format!("#{i}") } else { b.name.clone() }, id));
    }
    for (i, j) in joints.iter().enumerate() {
        j.add(w, &names).map_err(at(format!("joints[{i}]")))?;
    }
    for (i, a) in attach.iter().enumerate() {
        let p = a.point(w).map_err(at(format!("attachments[{i}]")))?;
        let body =
            resolve(w, &names, &a.body).map_err(|e| scene_err(format!("attachments[{i}].body"), e.to_string()))?;
        w.attach(p, body).map_err(at(format!("attachments[{i}]")))?;
    }
    Ok(())
}

/// The world's bodies, joints and attachments as scene specs (bodies named `b<id>`; joints
/// at their current world anchors on A and on B, with the reference rotation they measure
/// their angles from, so a joint exported mid-swing comes back with its limits, cone and
/// slide travel where they were).
pub fn export(w: &World) -> (Vec<BodySpec>, Vec<JointSpec>, Vec<AttachSpec>) {
    if !crate::FULL {
        return (Vec::new(), Vec::new(), Vec::new());
    }
    let b = &w.bodies;
    let name = |id: Id| format!("b{}", id.0);
    let bodies = (0..b.len())
        .map(|i| BodySpec {
            name: name(b.id[i]),
            kind: b.kind[i],
            shape: b.shape[i],
            mass: if b.kind[i] == BodyKind::Dynamic { b.mass[i] } else { 1.0 },
            // As it is, even a planar body a violent step left off z = 0: an export carries
            // a state, and `build` takes a continuing world's planar bodies where they are.
            pos: b.pos[i],
            rot: Some(b.rot[i]),
            angle: None,
            vel: b.vel[i],
            angular_velocity: b.ang_vel[i],
            linear_damping: b.linear_damping[i],
            angular_damping: b.angular_damping[i],
            gravity_scale: b.gravity_scale[i],
            planar: b.planar[i],
            friction: b.material[i].friction,
            restitution: b.material[i].restitution,
            rolling_friction: b.material[i].rolling_friction,
            group: b.filter[i].group,
            mask: b.filter[i].mask,
        })
        .collect();
    let pose = |id: Option<Id>| {
        id.and_then(|id| b.index(id).ok()).map_or((Vec3::ZERO, Quat::IDENTITY), |k| (b.pos[k], b.rot[k]))
    };
    let j = &w.joints;
    let joints = (0..j.len())
        .filter(|&k| !j.transient[k])
        .map(|k| {
            let f = &j.frames[k];
            let (xa, qa) = pose(j.a[k]);
            let (xb, qb) = pose(j.b[k]);
            let mut s = JointSpec {
                ty: j.kind[k].name().to_string(),
                a: j.a[k].map(|id| BodyRef::Name(name(id))),
                b: j.b[k].map(|id| BodyRef::Name(name(id))),
                anchor: xa + qa * f.local_a,
                anchor_b: Some(xb + qb * f.local_b),
                axis: Some(qa * f.axis_a),
                limit: None,
                motor: None,
                soft: j.soft[k].map(|s| SoftSpec { hertz: s.hertz, damping_ratio: s.damping_ratio }),
                break_force: j.break_force[k].is_finite().then_some(j.break_force[k]),
                length: None,
                min: None,
                max: None,
                max_length: None,
                max_swing: None,
                twist: None,
                ref_rotation: Some(f.q_ref),
                collide_connected: j.collide_connected[k],
            };
            let m = |m: Option<Motor>| m.map(|m| MotorSpec { speed: m.speed, max_force: m.max_force });
            match j.kind[k] {
                JointKind::Hinge { limit, motor } | JointKind::Prismatic { limit, motor } => {
                    s.limit = limit;
                    s.motor = m(motor);
                }
                JointKind::Distance { length, min, max } => {
                    // A soft joint's "no upper limit" (+∞) is written as no `max`, which
                    // reads back as the same.
                    (s.length, s.min, s.max) = (Some(length), Some(min), max.is_finite().then_some(max));
                }
                JointKind::Rope { max_length } => s.max_length = Some(max_length),
                JointKind::AngularMotor { motor } => s.motor = m(Some(motor)),
                JointKind::SwingTwist { max_swing, twist } => {
                    s.max_swing = Some(max_swing);
                    s.twist = Some(twist);
                }
                JointKind::BallSocket | JointKind::Fixed => {}
            }
            s
        })
        .collect();
    let attach = w
        .attachments
        .iter()
        .map(|a| AttachSpec { point: Some(a.particle), rope: None, end: None, body: BodyRef::Name(name(a.body)) })
        .collect();
    (bodies, joints, attach)
}
