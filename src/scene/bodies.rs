//! Bodies, joints and attachments in scene files (and in `Sim.addBody` / `addJoint`):
//!
//! ```text
//! "bodies": [{"name": "ball", "kind": "dynamic", "shape": {"type": "sphere", "radius": 0.2},
//!             "mass": 100, "pos": [x, y, z], "angle": 0.3 | "rot": [x, y, z, w],
//!             "vel": [..], "angular_velocity": [..], "linear_damping": 0, "angular_damping": 0,
//!             "gravity_scale": 1, "planar": true}],
//! "joints": [{"type": "hinge", "a": "frame" | 3 | null (the world), "b": "door",
//!             "anchor": [x, y, z], "anchor_b": [..], "axis": [0, 0, 1],
//!             "limit": [lo, hi], "motor": {"speed": 1, "max_force": 50},
//!             "soft": {"hertz": 5, "damping_ratio": 0.7}, "break_force": 500,
//!             "length": .., "min": .., "max": .., "max_length": .., "max_swing": .., "twist": [lo, hi]}],
//! "attachments": [{"point": 12, "body": "ball"} | {"rope": 0, "end": "end", "body": "ball"}]
//! ```
//!
//! Joint types: `ballSocket`, `hinge`, `prismatic`, `fixed`, `distance`, `rope`,
//! `angularMotor`, `swingTwist`. Anchors and axes are world coordinates in the pose the
//! bodies are given in. Errors name the JSON path (`joints[2].limit`, `bodies[0].mass`).

use glam::{Quat, Vec3};
use serde::{Deserialize, Serialize};

use crate::bodies::{BodyDef, BodyKind, Shape};
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
}

/// A body named by scene name or by id (the API).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum BodyRef {
    Id(u32),
    Name(String),
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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_length: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_swing: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub twist: Option<[f32; 2]>,
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
        };
        def.validate().map_err(|e| scene_err(field_of(&e), e.to_string()))?;
        Ok(def)
    }
}

/// The scene field a body error is about (best effort, for the JSON path).
fn field_of(e: &SimError) -> &'static str {
    let s = e.to_string();
    for (needle, field) in [
        ("mass", "mass"),
        ("position", "pos"),
        ("angular velocity", "angular_velocity"),
        ("velocity", "vel"),
        ("rotation", "rot"),
        ("linear damping", "linear_damping"),
        ("angular damping", "angular_damping"),
        ("gravity", "gravity_scale"),
        ("planar", "planar"),
        ("radius", "shape"),
        ("half", "shape"),
    ] {
        if s.contains(needle) {
            return field;
        }
    }
    "shape"
}

/// Resolves a body reference against the scene's names (or ids).
pub fn resolve(world: &World, names: &[(String, Id)], r: &BodyRef) -> Result<Id> {
    match r {
        BodyRef::Name(n) => names
            .iter()
            .find(|(m, _)| m == n)
            .map(|&(_, id)| id)
            .ok_or_else(|| SimError::Invalid(format!("no body named {n:?}"))),
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
                    format!(
                    "unknown joint type {other:?} (ballSocket, hinge, prismatic, fixed, distance, rope, angularMotor, \
                         swingTwist)"
                ),
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
        };
        def.validate(&world.bodies).map_err(|e| scene_err(joint_field(&e), e.to_string()))?;
        Ok(def)
    }
}

fn joint_field(e: &SimError) -> &'static str {
    let s = e.to_string();
    for (needle, field) in [
        ("anchor b", "anchor_b"),
        ("anchor", "anchor"),
        ("axis", "axis"),
        ("limit", "limit"),
        ("motor", "motor"),
        ("hertz", "soft"),
        ("damping", "soft"),
        ("break", "break_force"),
        ("swing", "max_swing"),
        ("twist", "twist"),
        ("rope max", "max_length"),
        ("distance", "length"),
        ("itself", "b"),
        ("body", "b"),
    ] {
        if s.contains(needle) {
            return field;
        }
    }
    "type"
}

impl AttachSpec {
    /// The particle this attachment names.
    pub fn point(&self, world: &World) -> Result<usize> {
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
                    Some(other) => Err(scene_err("end", format!("{other:?}: expected \"start\" or \"end\""))),
                }
            }
            _ => Err(scene_err("point", "give point, or rope (with end)")),
        }
    }
}

/// Adds the scene's bodies, joints and attachments to `w` (errors name the path).
pub fn build(w: &mut World, bodies: &[BodySpec], joints: &[JointSpec], attach: &[AttachSpec]) -> Result<()> {
    let at = |p: String| super::at(p);
    let mut names: Vec<(String, Id)> = Vec::new();
    for (i, b) in bodies.iter().enumerate() {
        let def = b.def().map_err(at(format!("bodies[{i}]")))?;
        if !b.name.is_empty() && names.iter().any(|(n, _)| *n == b.name) {
            return Err(scene_err(format!("bodies[{i}].name"), format!("{:?} is used twice", b.name)));
        }
        let id = w.add_body(&def).map_err(at(format!("bodies[{i}]")))?;
        names.push((if b.name.is_empty() { format!("#{i}") } else { b.name.clone() }, id));
    }
    for (i, j) in joints.iter().enumerate() {
        let def = j.def(w, &names).map_err(at(format!("joints[{i}]")))?;
        w.add_joint(&def).map_err(at(format!("joints[{i}]")))?;
    }
    for (i, a) in attach.iter().enumerate() {
        let p = a.point(w).map_err(at(format!("attachments[{i}]")))?;
        let body =
            resolve(w, &names, &a.body).map_err(|e| scene_err(format!("attachments[{i}].body"), e.to_string()))?;
        w.attach(p, body).map_err(at(format!("attachments[{i}]")))?;
    }
    Ok(())
}

/// The world's bodies, joints and attachments as scene specs (bodies named `b<slot>`;
/// joints re-anchored at their current world anchors, so a hinge's angle and a slider's
/// travel are measured from the exported pose).
pub fn export(w: &World) -> (Vec<BodySpec>, Vec<JointSpec>, Vec<AttachSpec>) {
    let b = &w.bodies;
    let name = |id: Id| format!("b{}", id.0);
    let bodies = (0..b.len())
        .map(|i| BodySpec {
            name: name(b.id[i]),
            kind: b.kind[i],
            shape: b.shape[i],
            mass: if b.kind[i] == BodyKind::Dynamic { b.mass[i] } else { 1.0 },
            pos: b.pos[i],
            rot: Some(b.rot[i]),
            angle: None,
            vel: b.vel[i],
            angular_velocity: b.ang_vel[i],
            linear_damping: b.linear_damping[i],
            angular_damping: b.angular_damping[i],
            gravity_scale: b.gravity_scale[i],
            planar: b.planar[i],
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
            };
            let m = |m: Option<Motor>| m.map(|m| MotorSpec { speed: m.speed, max_force: m.max_force });
            match j.kind[k] {
                JointKind::Hinge { limit, motor } | JointKind::Prismatic { limit, motor } => {
                    s.limit = limit;
                    s.motor = m(motor);
                }
                JointKind::Distance { length, min, max } => {
                    (s.length, s.min, s.max) = (Some(length), Some(min), Some(max));
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
