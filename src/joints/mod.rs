//! Joints between rigid bodies (or a body and the world), built from the 001 seed's
//! primitives: one file per primitive (`plane`, `distance`, `orientation`, `hinge_axis`,
//! `swing_twist`) with its derivation on top, one file per joint composed from them, and the
//! generic [`row::Row`] every one of them fills. The bodies' step (`solver::body_step`)
//! sizes a flat row array, lets each joint fill its slice in `setup`, and sweeps the array
//! with the one `row::solve`: the inner loop never dispatches on the joint type.
//!
//! | joint          | rows                                                         |
//! |----------------|--------------------------------------------------------------|
//! | ball-socket    | 3 plane rows (anchor coincidence)                            |
//! | hinge          | 3 plane + 2 hinge-axis (+ 2 angle limit) (+ 1 motor)         |
//! | prismatic      | 2 plane + 3 orientation (+ 2 slide limit) (+ 1 motor)        |
//! | fixed / weld   | 3 plane + 3 orientation                                      |
//! | distance       | 1 rigid row, or spring + min + max                           |
//! | rope           | 1 (max length, pulls only)                                   |
//! | angular motor  | 1                                                            |
//! | swing-twist    | 3 plane + 1 swing cone + 2 twist limit                       |
//! | (2D lock)      | 1 plane + 2 hinge-axis, per planar body, against the ground  |
//!
//! Every joint can be made soft (a frequency in Hz and a damping ratio: its equality rows
//! become implicit springs, see `row.rs`), motors carry a force or torque cap, and every
//! joint reports its reaction force and torque on B over the last step; a joint with a
//! `break_force` is removed when that force exceeds it (a `JointBroken` event), as links
//! tear.
//!
//! Joints keep their rows' accumulated impulses between steps (warm starting by joint id:
//! the rows of a joint are its own, so matching is trivial, as the seed says).

pub mod angular_motor;
pub mod ball_socket;
pub mod distance_joint;
pub mod distance_row;
pub mod fixed;
pub mod hinge;
pub mod hinge_axis;
pub mod lock_2d;
pub mod orientation;
pub mod plane;
pub mod prismatic;
pub mod ragdoll;
pub mod rope_joint;
pub mod row;
pub mod setup;
pub mod swing_twist;

use glam::{Quat, Vec3};
use serde::{Deserialize, Serialize};

use crate::bodies::Bodies;
use crate::error::{self, Result, SimError};
use crate::ids::{Id, IdPool};
use setup::Setup;

/// Most rows one joint uses (hinge or prismatic with limit and motor).
pub const MAX_ROWS: usize = 8;
/// Most joints a world can store (native use; the page and scene files are held to
/// `limits::MAX_JOINTS`, which the step's time budget sets).
pub const MAX_STORED_JOINTS: usize = 20_000;

/// A motor: target speed (rad/s or m/s) and the largest torque (N·m) or force (N) it may
/// use to reach it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Motor {
    pub speed: f32,
    pub max_force: f32,
}

/// What kind of joint, with its own parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase", deny_unknown_fields)]
pub enum JointKind {
    BallSocket,
    /// Rotation about the axis only; `limit` = [min, max] angle (rad) relative to the
    /// creation pose.
    #[serde(rename_all = "camelCase")]
    Hinge {
        #[serde(default)]
        limit: Option<[f32; 2]>,
        #[serde(default)]
        motor: Option<Motor>,
    },
    /// Translation along the axis only; `limit` = [min, max] slide (m) from the creation pose.
    #[serde(rename_all = "camelCase")]
    Prismatic {
        #[serde(default)]
        limit: Option<[f32; 2]>,
        #[serde(default)]
        motor: Option<Motor>,
    },
    Fixed,
    /// Anchors within the rigid limits [min, max]; a soft joint adds a two-sided spring
    /// toward `length` (Box2D's `b2DistanceJoint` with its spring on). min = max = `length`
    /// is one row: a rod (a spring rod if soft). Lengths in m; in a def, `length` ≤ 0 means
    /// "the creation distance" and `max` ≤ 0 means "none given": a rigid joint's max is
    /// then `length`, a soft joint's +∞ (no upper limit); `min` is lowered to at most
    /// `length` and `max` raised to at least it.
    #[serde(rename_all = "camelCase")]
    Distance {
        length: f32,
        min: f32,
        max: f32,
    },
    /// Anchors at most `max_length` apart.
    #[serde(rename_all = "camelCase")]
    Rope {
        max_length: f32,
    },
    /// Drives the relative spin about the axis.
    AngularMotor {
        motor: Motor,
    },
    /// Ball-socket with a cone (`max_swing`, rad) and a twist range ([min, max] rad) about
    /// the axis.
    #[serde(rename_all = "camelCase")]
    SwingTwist {
        max_swing: f32,
        twist: [f32; 2],
    },
}

impl JointKind {
    pub fn name(&self) -> &'static str {
        match self {
            JointKind::BallSocket => "ballSocket",
            JointKind::Hinge { .. } => "hinge",
            JointKind::Prismatic { .. } => "prismatic",
            JointKind::Fixed => "fixed",
            JointKind::Distance { .. } => "distance",
            JointKind::Rope { .. } => "rope",
            JointKind::AngularMotor { .. } => "angularMotor",
            JointKind::SwingTwist { .. } => "swingTwist",
        }
    }

    /// Rows this joint fills each substep (fixed for the joint's life).
    pub fn rows(&self, soft: bool) -> usize {
        match *self {
            JointKind::BallSocket => ball_socket::ROWS,
            JointKind::Hinge { limit, motor } => hinge::rows(limit, motor),
            JointKind::Prismatic { limit, motor } => prismatic::rows(limit, motor),
            JointKind::Fixed => fixed::ROWS,
            JointKind::Distance { min, max, .. } => distance_joint::rows(min, max, soft),
            JointKind::Rope { .. } => rope_joint::ROWS,
            JointKind::AngularMotor { .. } => angular_motor::ROWS,
            JointKind::SwingTwist { .. } => ragdoll::ROWS,
        }
    }
}

/// A joint's spring: frequency (Hz) and damping ratio (1 = critical).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SoftDef {
    pub hertz: f32,
    pub damping_ratio: f32,
}

/// Everything needed to make a joint. Anchors and the axis are given in world coordinates
/// at creation (the pose the bodies are in then) and stored in each body's frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointDef {
    pub kind: JointKind,
    /// First body (`None` = the world).
    pub a: Option<Id>,
    /// Second body (`None` = the world).
    pub b: Option<Id>,
    /// World anchor (on A; also on B unless `anchor_b` is given).
    pub anchor: Vec3,
    /// World anchor on B for distance and rope joints (default: `anchor`).
    pub anchor_b: Option<Vec3>,
    /// World axis (hinge, slide, motor, bone); normalised on creation.
    pub axis: Vec3,
    pub soft: Option<SoftDef>,
    /// Reaction force (N) above which the joint breaks; `None` = never.
    pub break_force: Option<f32>,
    /// The two bodies still collide with each other (default: a joint turns their contact
    /// off, as in Box2D).
    pub collide_connected: bool,
}

impl Default for JointDef {
    fn default() -> Self {
        JointDef {
            kind: JointKind::BallSocket,
            a: None,
            b: None,
            anchor: Vec3::ZERO,
            anchor_b: None,
            axis: Vec3::Z,
            soft: None,
            break_force: None,
            collide_connected: false,
        }
    }
}

/// A joint's anchors and axes in its bodies' frames (the world's frame for the ground).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frames {
    pub local_a: Vec3,
    pub local_b: Vec3,
    /// Unit axis in A's frame, and the same axis in B's frame at creation.
    pub axis_a: Vec3,
    pub axis_b: Vec3,
    /// Two unit vectors ⊥ `axis_a` and each other, in A's frame.
    pub perp_a: [Vec3; 2],
    /// Relative rotation q_A⁻¹ q_B at creation.
    pub q_ref: Quat,
}

impl Frames {
    #[inline]
    pub fn anchor_a(&self, s: &Setup) -> Vec3 {
        s.xa + s.qa * self.local_a
    }
    #[inline]
    pub fn anchor_b(&self, s: &Setup) -> Vec3 {
        s.xb + s.qb * self.local_b
    }
}

/// All joints (dense; ids stable).
#[derive(Clone, Debug, Default)]
pub struct Joints {
    pub kind: Vec<JointKind>,
    pub a: Vec<Option<Id>>,
    pub b: Vec<Option<Id>>,
    pub frames: Vec<Frames>,
    pub soft: Vec<Option<SoftDef>>,
    pub break_force: Vec<f32>,
    pub collide_connected: Vec<bool>,
    /// Accumulated row impulses from the last step (warm starting).
    pub accum: Vec<[f32; MAX_ROWS]>,
    /// Reaction force (N) and torque (N·m, about B's centre) on B over the last step.
    pub force: Vec<Vec3>,
    pub torque: Vec<Vec3>,
    pub id: Vec<Id>,
    /// A pointer's drag (not part of the scene: not exported).
    pub transient: Vec<bool>,
    ids: IdPool,
    /// Bumped when joints are added or removed.
    pub version: u64,
}

/// The pose of body `id` (the world's identity for `None`).
fn pose(bodies: &Bodies, id: Option<Id>) -> Result<(Vec3, Quat)> {
    match id {
        None => Ok((Vec3::ZERO, Quat::IDENTITY)),
        Some(id) => {
            let i = bodies.index(id)?;
            Ok((bodies.pos[i], bodies.rot[i]))
        }
    }
}

fn check_limit(what: &'static str, l: Option<[f32; 2]>, bound: f32) -> Result<()> {
    if let Some([lo, hi]) = l {
        error::in_range(what, lo, -bound, bound, "within ±π (angles) or ±1e4 m (slides)")?;
        error::in_range(what, hi, -bound, bound, "within ±π (angles) or ±1e4 m (slides)")?;
        if lo > hi {
            return Err(SimError::Invalid(format!("{what}: min {lo} is above max {hi}")));
        }
    }
    Ok(())
}

fn check_motor(m: Option<Motor>) -> Result<()> {
    if let Some(m) = m {
        error::in_range("motor speed", m.speed, -1e4, 1e4, "|speed| ≤ 1e4")?;
        error::in_range("motor max force", m.max_force, 0.0, 1e9, "0 ≤ max force ≤ 1e9")?;
    }
    Ok(())
}

impl JointDef {
    /// Checks the def against `bodies` without changing anything.
    pub fn validate(&self, bodies: &Bodies) -> Result<()> {
        if self.a.is_none() && self.b.is_none() {
            return Err(SimError::Invalid("a joint needs at least one body".into()));
        }
        if self.a.is_some() && self.a == self.b {
            return Err(SimError::Invalid("cannot join a body to itself".into()));
        }
        pose(bodies, self.a)?;
        pose(bodies, self.b)?;
        // (±5e5 m, not the bodies' ±1e5: an anchor 1,000 m from a body at the world's edge
        // lies past ±1e5, and the exported scene must load again.)
        let finite3 = |what: &'static str, v: Vec3| -> Result<()> {
            if v.is_finite() && v.abs().max_element() <= 5e5 {
                Ok(())
            } else {
                Err(SimError::Invalid(format!("{what} must be finite and within ±5e5 m")))
            }
        };
        finite3("joint anchor", self.anchor)?;
        if let Some(b) = self.anchor_b {
            finite3("joint anchor b", b)?;
        }
        // The lever from each body's centre to its anchor (see `limits::MAX_JOINT_LEVER`).
        let cap = crate::limits::MAX_JOINT_LEVER;
        for (what, body, anchor) in
            [("joint anchor", self.a, self.anchor), ("joint anchor b", self.b, self.anchor_b.unwrap_or(self.anchor))]
        {
            if let Some(id) = body {
                let lever = anchor.distance(pose(bodies, Some(id))?.0);
                if lever.is_nan() || lever > cap {
                    let side = if what == "joint anchor" { "A" } else { "B" };
                    return Err(SimError::Invalid(format!(
                        "{what} is {lever} m from body {side}'s centre: at most {cap} m \
                         (limits::MAX_JOINT_LEVER; a longer lever is more than the f32 solver can hold)"
                    )));
                }
            }
        }
        // (|axis|² must be finite too: [1.2e29, 0, 0] squares to infinity and normalised to
        // [0, 0, 0], a joint whose export did not load.)
        let len2 = self.axis.length_squared();
        if !(self.axis.is_finite() && len2.is_finite() && len2 >= 1e-12) {
            return Err(SimError::Invalid("joint axis must be a finite, non-zero vector (|axis|² finite)".into()));
        }
        if let Some(s) = self.soft {
            error::in_range("joint hertz", s.hertz, 1e-3, 1e4, "0.001 ≤ hertz ≤ 10000")?;
            error::in_range("joint damping ratio", s.damping_ratio, 0.0, 1e3, "0 ≤ damping ratio ≤ 1000")?;
        }
        if let Some(f) = self.break_force {
            error::finite("break force", f)?;
            if f <= 0.0 {
                return Err(SimError::OutOfRange { what: "break force", value: f as f64, range: "> 0 N" });
            }
        }
        use std::f32::consts::PI;
        match self.kind {
            JointKind::Hinge { limit, motor } => {
                check_limit("hinge limit", limit, PI)?;
                check_motor(motor)?;
            }
            JointKind::Prismatic { limit, motor } => {
                check_limit("slide limit", limit, 1e4)?;
                check_motor(motor)?;
            }
            JointKind::Distance { length, min, max } => {
                error::in_range("distance length", length, -1.0, 1e4, "≤ 1e4 m (≤ 0: the creation distance)")?;
                error::in_range("distance min", min, 0.0, 1e4, "0 ≤ min ≤ 1e4 m")?;
                error::in_range("distance max", max, 0.0, 1e4, "0 ≤ max ≤ 1e4 m")?;
                if min > max {
                    return Err(SimError::Invalid(format!("distance min {min} is above max {max}")));
                }
            }
            JointKind::Rope { max_length } => {
                error::in_range("rope max length", max_length, 0.0, 1e4, "0 ≤ max length ≤ 1e4 m")?;
            }
            JointKind::AngularMotor { motor } => check_motor(Some(motor))?,
            JointKind::SwingTwist { max_swing, twist } => {
                error::in_range("max swing", max_swing, 0.0, PI, "0 ≤ max swing ≤ π")?;
                check_limit("twist limit", Some(twist), PI)?;
            }
            JointKind::BallSocket | JointKind::Fixed => {}
        }
        Ok(())
    }
}

impl Joints {
    /// The ids' pool as plain lists (`scene::state`).
    pub fn ids_state(&self) -> crate::ids::IdState {
        self.ids.to_state()
    }

    /// Puts back [`Self::ids_state`]'s pool, naming every live thing by the id it had;
    /// `false` (nothing changed) when the lists do not fit this many.
    pub fn set_ids_state(&mut self, s: &crate::ids::IdState) -> bool {
        crate::ids::IdPool::restore(&mut self.ids, &mut self.id, s)
    }

    pub fn len(&self) -> usize {
        self.kind.len()
    }
    pub fn is_empty(&self) -> bool {
        self.kind.is_empty()
    }

    /// Adds a joint after validating it against `bodies`.
    pub fn add(&mut self, def: &JointDef, bodies: &Bodies) -> Result<Id> {
        def.validate(bodies)?;
        if self.len() >= MAX_STORED_JOINTS {
            return Err(SimError::Invalid(format!("a world holds at most {MAX_STORED_JOINTS} joints")));
        }
        let (xa, qa) = pose(bodies, def.a)?;
        let (xb, qb) = pose(bodies, def.b)?;
        let anchor_b = def.anchor_b.unwrap_or(def.anchor);
        let axis = def.axis.normalize();
        let axis_a = qa.inverse() * axis;
        let (t0, t1) = axis_a.any_orthonormal_pair();
        let frames = Frames {
            local_a: qa.inverse() * (def.anchor - xa),
            local_b: qb.inverse() * (anchor_b - xb),
            axis_a,
            axis_b: qb.inverse() * axis,
            perp_a: [t0, t1],
            q_ref: qa.inverse() * qb,
        };
        let mut kind = def.kind;
        if let JointKind::Distance { length, min, max } = &mut kind {
            if *length <= 0.0 {
                *length = def.anchor.distance(anchor_b);
            }
            if *max <= 0.0 {
                // No `max`: a rigid joint is a rod at `length`; a soft one is a spring there
                // with no upper limit (Box2D's `b2DistanceJoint`: spring on, limits off).
                *max = if def.soft.is_some() { f32::INFINITY } else { *length };
            }
            *min = min.min(*length);
            *max = max.max(*length);
        }
        let i = self.len();
        let id = self.ids.alloc(i).ok_or_else(|| SimError::Invalid("too many joints".into()))?;
        self.kind.push(kind);
        self.a.push(def.a);
        self.b.push(def.b);
        self.frames.push(frames);
        self.soft.push(def.soft);
        self.break_force.push(def.break_force.unwrap_or(f32::INFINITY));
        self.collide_connected.push(def.collide_connected);
        self.accum.push([0.0; MAX_ROWS]);
        self.force.push(Vec3::ZERO);
        self.torque.push(Vec3::ZERO);
        self.id.push(id);
        self.transient.push(false);
        self.version += 1;
        Ok(id)
    }

    pub fn index(&self, id: Id) -> Result<usize> {
        self.ids.get(id).ok_or_else(|| SimError::Invalid(format!("no joint with id {}", id.0)))
    }

    /// Removes joint `id` (the last joint takes its dense slot).
    pub fn remove(&mut self, id: Id) -> Result<()> {
        let i = self.index(id)?;
        let last = self.len() - 1;
        macro_rules! swap_remove {
            ($($f:ident),*) => { $( self.$f.swap_remove(i); )* };
        }
        swap_remove!(kind, a, b, frames, soft, break_force, collide_connected, accum, force, torque, id, transient);
        self.ids.free(id);
        if i != last {
            self.ids.moved(self.id[i], i);
        }
        self.version += 1;
        Ok(())
    }

    /// Moves the world anchor of joint `id` (its first body must be the world): how a
    /// pointer drags a body — a soft ball-socket between the pointer and the grabbed point
    /// (Box2D's mouse joint), whose world end follows the pointer.
    pub fn set_world_anchor(&mut self, id: Id, p: Vec3) -> Result<()> {
        let k = self.index(id)?;
        if self.a[k].is_some() {
            return Err(SimError::Invalid(format!("joint {} is not anchored to the world", id.0)));
        }
        if !p.is_finite() || p.abs().max_element() > 1e5 {
            return Err(SimError::Invalid("anchor must be finite and within ±1e5 m".into()));
        }
        self.frames[k].local_a = p;
        Ok(())
    }

    /// Removes every joint that names body `body`.
    pub fn remove_body(&mut self, body: Id) {
        let gone: Vec<Id> = (0..self.len())
            .filter(|&k| self.a[k] == Some(body) || self.b[k] == Some(body))
            .map(|k| self.id[k])
            .collect();
        for id in gone {
            let _ = self.remove(id);
        }
    }

    pub fn clear(&mut self) {
        *self = Joints { version: self.version + 1, ..Default::default() };
    }

    /// Rows joint `k` fills.
    #[inline]
    pub fn rows(&self, k: usize) -> usize {
        self.kind[k].rows(self.soft[k].is_some())
    }

    /// Fills joint `k`'s rows for this substep (the seed's `<joint>_setup`).
    pub fn setup(&self, k: usize, s: &Setup, rows: &mut [Row]) {
        let f = &self.frames[k];
        match self.kind[k] {
            JointKind::BallSocket => ball_socket::point(s, rows, f.anchor_a(s), f.anchor_b(s)),
            JointKind::Hinge { limit, motor } => hinge::setup(s, f, rows, limit, motor),
            JointKind::Prismatic { limit, motor } => prismatic::setup(s, f, rows, limit, motor),
            JointKind::Fixed => fixed::setup(s, f, rows),
            JointKind::Distance { length, min, max } => distance_joint::setup(s, f, rows, length, min, max),
            JointKind::Rope { max_length } => rope_joint::setup(s, f, rows, max_length),
            JointKind::AngularMotor { motor } => angular_motor::setup(s, f, rows, motor),
            JointKind::SwingTwist { max_swing, twist } => ragdoll::setup(s, f, rows, max_swing, twist),
        }
    }
}

use row::Row;
