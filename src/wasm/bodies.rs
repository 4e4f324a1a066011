//! Rigid bodies and joints from JS: adding and removing them (scene-format JSON), their
//! static description and live joint readouts as JSON, a reused pose buffer for drawing
//! (interpolated between the last two fixed steps with dual quaternions), and dragging a
//! body with the pointer through a soft joint.

use glam::{Vec2, Vec3};

use super::*;
use crate::bodies::BodyKind;
use crate::dualquat::DualQuat;
use crate::ids::Id;
use crate::joints::{JointDef, JointKind, SoftDef};
use crate::recording::Input;
use crate::scene::bodies::{AttachSpec, BodySpec, JointSpec};
use crate::settings::View;

/// The mouse joint's spring (Box2D's mouse joint defaults).
const MOUSE_HERTZ: f32 = 5.0;
const MOUSE_DAMPING_RATIO: f32 = 0.7;

fn id_of(x: f64) -> Result<Id> {
    if x.is_finite() && x.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(&x) {
        Ok(Id(x as u32))
    } else {
        Err(SimError::Invalid(format!("{x} is not a body or joint id")))
    }
}

/// A pointer id from JS (`PointerEvent.pointerId`): a whole number, -1 allowed (synthetic
/// events), kept as the `u32` the particle API's `grab(pointerId, …)` receives for it.
fn pointer_of(x: f64) -> Result<u32> {
    if x.is_finite() && x.fract() == 0.0 && (-(2f64.powi(31))..=u32::MAX as f64).contains(&x) {
        Ok(x as i64 as u32)
    } else {
        Err(SimError::Invalid(format!("{x} is not a pointer id")))
    }
}

fn parse<T: serde::de::DeserializeOwned>(what: &str, json: &str) -> Result<T> {
    serde_json::from_str(json).map_err(|e| {
        let path = crate::scene::json_path::error_path(json, &e);
        SimError::Invalid(format!("{what}{}: {e}", if path.is_empty() { String::new() } else { format!(".{path}") }))
    })
}

/// A scene-format error from JSON given to the API, named like a parse error
/// (`joint.motor.max_force: …`).
fn api_err(what: &str, e: SimError) -> SimError {
    match e {
        SimError::Scene { path, reason } => SimError::Invalid(format!("{what}.{path}: {reason}")),
        other => SimError::Invalid(format!("{what}: {other}")),
    }
}

/// The plain Rust surface (natively testable).
impl Sim {
    pub fn add_body_json(&mut self, json: &str) -> Result<Id> {
        self.input(Input::AddBody { json: json.to_string() }).map(|o| Id(o.count() as u32))
    }

    #[cfg_attr(not(feature = "full"), allow(dead_code))]
    pub(super) fn add_body_now(&mut self, json: &str) -> Result<Id> {
        let spec: BodySpec = parse("body", json)?;
        let def = spec.def().map_err(|e| api_err("body", e))?;
        if self.world.settings.solver == crate::solver::SolverKind::Classic {
            return Err(SimError::Invalid(
                "the classic solver cannot run rigid bodies: choose another solver first (setSolver)".into(),
            ));
        }
        self.world.add_body(&def)
    }

    pub fn add_joint_json(&mut self, json: &str) -> Result<Id> {
        self.input(Input::AddJoint { json: json.to_string() }).map(|o| Id(o.count() as u32))
    }

    #[cfg_attr(not(feature = "full"), allow(dead_code))]
    pub(super) fn add_joint_now(&mut self, json: &str) -> Result<Id> {
        let spec: JointSpec = parse("joint", json)?;
        spec.add(&mut self.world, &[]).map_err(|e| api_err("joint", e))
    }

    /// Attaches as a scene file's `attachments[i]` does (`{point, body}` or `{rope, end,
    /// body}`, bodies by id).
    pub fn attach_json(&mut self, json: &str) -> Result<()> {
        let spec: AttachSpec = parse("attachment", json)?;
        let p = spec.point(&self.world).map_err(|e| api_err("attachment", e))?;
        let body = crate::scene::bodies::resolve(&self.world, &[], &spec.body)?;
        self.input(Input::Attach { point: p as u32, body: body.0 }).map(|_| ())
    }

    /// `removeBody(id)`: the body, its joints (a drag on it too) and its attachments.
    pub fn remove_body_checked(&mut self, id: f64) -> Result<()> {
        let body = id_of(id)?;
        self.world.bodies.index(body)?;
        self.input(Input::RemoveBody { body: body.0 }).map(|_| ())
    }

    /// `removeJoint(id)`.
    pub fn remove_joint_checked(&mut self, id: f64) -> Result<()> {
        let joint = id_of(id)?;
        self.world.joints.index(joint)?;
        self.input(Input::RemoveJoint { joint: joint.0 }).map(|_| ())
    }

    /// `attach(point, bodyId)`: the point becomes the point of the body where it lies.
    pub fn attach_checked(&mut self, point: f64, body_id: f64) -> Result<()> {
        let point = self.point_index(point)?;
        self.input(Input::Attach { point, body: id_of(body_id)?.0 }).map(|_| ())
    }

    /// `setWinchSpeed(i, speed)`: winch `i` (its index in `winchesJson()`) pays out at
    /// `speed` m/s (negative reels in).
    pub fn set_winch_speed_checked(&mut self, i: f64, speed: f64) -> Result<()> {
        let i = error::index("winch", idx(i), self.world.winches.len())?;
        let speed = error::finite("winch speed", speed as f32)?;
        self.input(Input::WinchSpeed { winch: i as u32, speed }).map(|_| ())
    }

    /// `[{rope, speed, maxForce, length}]` per winch (rope: its index in the rope order;
    /// length: the rope's rest length now, m).
    pub fn winches_json_string(&self) -> String {
        let w = &self.world;
        let v: Vec<crate::json_macro::Value> = w
            .winches
            .iter()
            .map(|x| {
                crate::json_macro::json!({
                    "rope": w.ropes.index_of(x.rope).map_or(-1, |k| k as i64),
                    "speed": x.speed,
                    "maxForce": x.max_force,
                    "length": x.length(&w.ropes, &w.links),
                })
            })
            .collect();
        crate::json_macro::Value::Array(v).to_string()
    }

    /// `detach(point)`.
    pub fn detach_checked(&mut self, point: f64) -> Result<()> {
        let point = self.point_index(point)?;
        self.input(Input::Detach { point }).map(|_| ())
    }

    /// `pickBody(x, y, margin?)`: a body id, or -1.
    pub fn pick_body_checked(&self, x: f32, y: f32, margin: Option<f32>) -> Result<f64> {
        Ok(self.pick_body_at(x, y, margin.unwrap_or(0.0))?.map_or(-1.0, |id| id.0 as f64))
    }

    /// `grabBody(pointer, id, x, y)`.
    pub fn grab_body_checked(&mut self, pointer: f64, id: f64, x: f32, y: f32) -> Result<()> {
        let pointer = pointer_of(pointer)?;
        self.grab_body_input(pointer, id_of(id)?, x, y)
    }

    /// `dragBody(pointer, x, y)`.
    pub fn drag_body_checked(&mut self, pointer: f64, x: f32, y: f32) -> Result<()> {
        self.drag_input(pointer_of(pointer)?, x, y, true)
    }

    /// `releaseBody(pointer)`: whether it held a body.
    pub fn release_body_checked(&mut self, pointer: f64) -> Result<bool> {
        let pointer = pointer_of(pointer)?;
        self.prune_mouse_joints();
        if !self.mouse_joints.iter().any(|(p, _)| *p == pointer) {
            return Ok(false);
        }
        self.input(Input::ReleaseBody { pointer }).map(|o| o.flag())
    }

    /// The pose buffer (7 floats per body) as `refillBodyPoses` left it.
    pub fn body_poses(&self) -> &[f32] {
        &self.body_poses
    }

    /// Drops the pointer → mouse joint entries whose joint is gone (its body was removed,
    /// or JS removed the joint).
    pub(super) fn prune_mouse_joints(&mut self) {
        let joints = &self.world.joints;
        self.mouse_joints.retain(|&(_, j)| joints.index(j).is_ok());
    }

    /// Fills the pose buffer: per body px, py, pz, qx, qy, qz, qw, blended `alpha` of the
    /// way from the pose at the start of the last step to the current one (dual-quaternion
    /// blend, so a turning body turns on its screw instead of cutting the corner).
    pub fn refill_body_poses(&mut self, alpha: f32) -> Result<()> {
        let t = error::in_range("alpha", alpha, 0.0, 1.0, "0 ≤ alpha ≤ 1")?;
        let b = &self.world.bodies;
        self.body_poses.clear();
        for i in 0..b.len() {
            let from = DualQuat::from_rotation_translation(b.prev_rot[i], b.prev_pos[i]);
            let to = DualQuat::from_rotation_translation(b.rot[i], b.pos[i]);
            let d = DualQuat::lerp(from, to, t);
            let (p, q) = (d.translation(), d.rotation());
            self.body_poses.extend_from_slice(&[p.x, p.y, p.z, q.x, q.y, q.z, q.w]);
        }
        Ok(())
    }

    /// Id of the dynamic body whose outline, projected on the view plane, is under `(x, y)`
    /// (view coordinates, m) or within `margin` of it; of several, the one the point is
    /// deepest inside, then the nearest centre.
    pub fn pick_body_at(&self, x: f32, y: f32, margin: f32) -> Result<Option<Id>> {
        error::finite("x", x)?;
        error::finite("y", y)?;
        error::in_range("margin", margin, 0.0, 10.0, "0 ≤ margin ≤ 10 m")?;
        let view = self.world.settings.view;
        let b = &self.world.bodies;
        let at = Vec2::new(x, y);
        let mut best: Option<(Id, f32, f32)> = None;
        for i in 0..b.len() {
            if b.kind[i] != BodyKind::Dynamic {
                continue;
            }
            let outside = outline_distance(&b.shape[i], b.pos[i], b.rot[i], view, at);
            if outside > margin {
                continue;
            }
            let (depth, centre) = (outside.max(0.0), view.project(b.pos[i]).distance(at));
            if best.is_none_or(|(_, d, c)| (depth, centre) < (d, c)) {
                best = Some((b.id[i], depth, centre));
            }
        }
        Ok(best.map(|(id, _, _)| id))
    }

    /// Pointer `pointer` grabs body `id` at the view point `(x, y)`: a soft ball-socket from
    /// the pointer to that point of the body (Box2D's mouse joint: 5 Hz, ζ = 0.7).
    pub fn grab_body_at(&mut self, pointer: u32, id: Id, x: f32, y: f32) -> Result<()> {
        error::finite("x", x)?;
        error::finite("y", y)?;
        let i = self.world.bodies.index(id)?;
        if self.world.bodies.kind[i] != BodyKind::Dynamic {
            return Err(SimError::Invalid(format!(
                "body {} is {}: only a dynamic body can be dragged",
                id.0,
                self.world.bodies.kind[i].name()
            )));
        }
        let q = self.world.settings.view.unproject(Vec2::new(x, y), self.world.bodies.pos[i]);
        let def = JointDef {
            kind: JointKind::BallSocket,
            a: None,
            b: Some(id),
            anchor: q,
            soft: Some(SoftDef { hertz: MOUSE_HERTZ, damping_ratio: MOUSE_DAMPING_RATIO }),
            ..Default::default()
        };
        def.validate(&self.world.bodies)?;
        self.release_body_from(pointer);
        let j = self.world.add_joint(&def)?;
        let k = self.world.joints.index(j)?;
        self.world.joints.transient[k] = true;
        self.mouse_joints.push((pointer, j));
        Ok(())
    }

    pub fn drag_body_to(&mut self, pointer: u32, x: f32, y: f32) -> Result<()> {
        error::finite("x", x)?;
        error::finite("y", y)?;
        self.prune_mouse_joints();
        let Some(&(_, j)) = self.mouse_joints.iter().find(|(p, _)| *p == pointer) else {
            return Err(SimError::Invalid(format!("pointer {pointer} holds no body")));
        };
        let k = self.world.joints.index(j)?;
        let body = self.world.joints.b[k].and_then(|id| self.world.bodies.index(id).ok());
        let keep = body.map_or(Vec3::ZERO, |i| self.world.bodies.pos[i]);
        let q = self.world.settings.view.unproject(Vec2::new(x, y), keep);
        self.world.joints.set_world_anchor(j, q)
    }

    pub fn release_body_from(&mut self, pointer: u32) -> bool {
        self.prune_mouse_joints();
        let before = self.mouse_joints.len();
        let world = &mut self.world;
        self.mouse_joints.retain(|&(p, j)| {
            if p == pointer {
                let _ = world.remove_joint(j);
            }
            p != pointer
        });
        self.mouse_joints.len() != before
    }

    /// Static description of every body, in pose-buffer order: `[{id, kind, shape, mass,
    /// planar}]`, shape `{type: "sphere", radius}`, `{type: "capsule", radius, halfLength}`
    /// (along local x) or `{type: "box", half: [x, y, z]}` (m); mass in kg (0 for static and
    /// kinematic bodies).
    pub fn bodies_json_string(&self) -> String {
        use crate::bodies::Shape;
        let b = &self.world.bodies;
        let v: Vec<crate::json_macro::Value> = (0..b.len())
            .map(|i| {
                let shape = match b.shape[i] {
                    Shape::Sphere { radius } => crate::json_macro::json!({"type": "sphere", "radius": radius}),
                    Shape::Capsule { radius, half_length } => {
                        crate::json_macro::json!({"type": "capsule", "radius": radius, "halfLength": half_length})
                    }
                    Shape::Box { half } => crate::json_macro::json!({"type": "box", "half": [half.x, half.y, half.z]}),
                };
                let mass = if b.kind[i] == BodyKind::Dynamic { b.mass[i] } else { 0.0 };
                crate::json_macro::json!({"id": b.id[i].0, "kind": b.kind[i].name(), "shape": shape,
                    "mass": mass, "planar": b.planar[i]})
            })
            .collect();
        crate::json_macro::Value::Array(v).to_string()
    }

    /// The body contact events of every step since the last drain, oldest first, as JSON
    /// `[{type: "begin" | "end", a, b, impulse}]` (body ids, a < b; impulse: the normal
    /// impulse in N·s the pair took in the step it began, 0 for an end), and forgets them.
    pub fn drain_contact_events_json(&mut self) -> String {
        let log = &self.world.contact_log;
        let v: Vec<crate::json_macro::Value> = (0..log.len())
            .map(|k| {
                let (began, a, b, impulse) = log.get(k);
                crate::json_macro::json!({"type": if began { "begin" } else { "end" }, "a": a.0, "b": b.0, "impulse": impulse})
            })
            .collect();
        self.world.contact_log.clear();
        crate::json_macro::Value::Array(v).to_string()
    }

    /// Every joint now: `[{id, type, a, b, anchorA, anchorB, axis, limit, motor, soft,
    /// force, torque, breakForce, mouse, angle}]` plus `length, min, max` (distance; max
    /// null: no upper limit, a soft joint's default), `maxLength` (rope), `maxSwing, twist`
    /// (swingTwist): world anchors and axis (A's); force
    /// in N and torque in N·m on body b over the last step; a, b = body id or null for the
    /// world; limit `[lo, hi]` or null, motor `{speed, maxForce}` or null, soft `{hertz,
    /// dampingRatio}` or null, breakForce in N or null; mouse = a pointer's drag joint (not
    /// part of the scene); angle = a hinge's angle from its creation pose (rad), else null.
    pub fn joints_json_string(&self) -> String {
        let (b, j) = (&self.world.bodies, &self.world.joints);
        let pose = |id: Option<Id>| {
            id.and_then(|id| b.index(id).ok()).map_or((Vec3::ZERO, glam::Quat::IDENTITY), |k| (b.pos[k], b.rot[k]))
        };
        let v3 = |v: Vec3| [v.x, v.y, v.z];
        let v: Vec<crate::json_macro::Value> = (0..j.len())
            .map(|k| {
                let f = &j.frames[k];
                let (xa, qa) = pose(j.a[k]);
                let (xb, qb) = pose(j.b[k]);
                let (limit, motor) = match j.kind[k] {
                    JointKind::Hinge { limit, motor } | JointKind::Prismatic { limit, motor } => (limit, motor),
                    JointKind::AngularMotor { motor } => (None, Some(motor)),
                    _ => (None, None),
                };
                let mut out = crate::json_macro::json!({
                    "id": j.id[k].0, "type": j.kind[k].name(),
                    "a": j.a[k].map(|id| id.0), "b": j.b[k].map(|id| id.0),
                    "anchorA": v3(xa + qa * f.local_a), "anchorB": v3(xb + qb * f.local_b),
                    "axis": v3(qa * f.axis_a),
                    "limit": limit.map(crate::json_macro::to_json), "motor": motor.map(crate::json_macro::to_json),
                    "soft": crate::json_macro::to_json(j.soft[k]),
                    "force": v3(j.force[k]), "torque": v3(j.torque[k]),
                    "breakForce": j.break_force[k].is_finite().then_some(j.break_force[k]),
                    "mouse": j.transient[k],
                    // Hinge: B's angle about the axis from the creation pose (rad).
                    "angle": matches!(j.kind[k], JointKind::Hinge { .. })
                        .then(|| crate::joints::hinge_axis::angle(qa, qb, f.q_ref, f.axis_a)),
                });
                // The per-kind parameters, only on their kinds.
                let extra = match j.kind[k] {
                    JointKind::Distance { length, min, max } => {
                        crate::json_macro::json!({"length": length, "min": min, "max": max})
                    }
                    JointKind::Rope { max_length } => crate::json_macro::json!({"maxLength": max_length}),
                    JointKind::SwingTwist { max_swing, twist } => {
                        crate::json_macro::json!({"maxSwing": max_swing, "twist": twist})
                    }
                    _ => crate::json_macro::json!({}),
                };
                if let (Some(o), crate::json_macro::Value::Object(e)) = (out.as_object_mut(), extra) {
                    o.extend(e);
                }
                out
            })
            .collect();
        crate::json_macro::Value::Array(v).to_string()
    }
}

/// Distance (m) from the view point `at` to the outline of `shape` (at `pos`, turned by
/// `rot`) projected on the view plane: ≤ 0 inside it (0 on the outline). Spheres project to
/// discs, capsules to stadiums round their projected segment, boxes to the convex hull of
/// their eight projected corners.
fn outline_distance(shape: &crate::bodies::Shape, pos: Vec3, rot: glam::Quat, view: View, at: Vec2) -> f32 {
    use crate::bodies::Shape;
    let p = |local: Vec3| view.project(pos + rot * local);
    match *shape {
        Shape::Sphere { radius } => at.distance(p(Vec3::ZERO)) - radius,
        Shape::Capsule { radius, half_length } => {
            let (a, b) = (p(Vec3::new(-half_length, 0.0, 0.0)), p(Vec3::new(half_length, 0.0, 0.0)));
            segment_distance(at, a, b) - radius
        }
        Shape::Box { half } => {
            let mut corners = [Vec2::ZERO; 8];
            for (k, c) in corners.iter_mut().enumerate() {
                let s = |bit: usize| if k & bit == 0 { -1.0 } else { 1.0 };
                *c = p(half * Vec3::new(s(1), s(2), s(4)));
            }
            let (hull, n) = convex_hull(corners);
            let hull = &hull[..n];
            let edge = |k: usize| (hull[k], hull[(k + 1) % n]);
            let d = (0..n).map(|k| segment_distance(at, edge(k).0, edge(k).1)).fold(f32::INFINITY, f32::min);
            // Counter-clockwise hull: inside = left of every edge.
            let inside = n >= 3 && (0..n).all(|k| (edge(k).1 - edge(k).0).perp_dot(at - edge(k).0) >= 0.0);
            if inside {
                -d
            } else {
                d
            }
        }
    }
}

fn segment_distance(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let ab = b - a;
    let t = if ab.length_squared() > 0.0 { ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0) } else { 0.0 };
    p.distance(a + t * ab)
}

/// Andrew's monotone chain: the convex hull of 8 points, counter-clockwise (no repeated or
/// collinear points), and its size.
fn convex_hull(mut pts: [Vec2; 8]) -> ([Vec2; 16], usize) {
    crate::sort::insertion_sort_by(&mut pts, |a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)).is_lt());
    let mut h = [Vec2::ZERO; 16];
    let mut n = 0;
    let turns_left = |o: Vec2, a: Vec2, b: Vec2| (a - o).perp_dot(b - o) > 0.0;
    for &q in &pts {
        while n >= 2 && !turns_left(h[n - 2], h[n - 1], q) {
            n -= 1;
        }
        h[n] = q;
        n += 1;
    }
    let lower = n + 1;
    for &q in pts[..7].iter().rev() {
        while n >= lower && !turns_left(h[n - 2], h[n - 1], q) {
            n -= 1;
        }
        h[n] = q;
        n += 1;
    }
    (h, n - 1) // the last point is the first again
}

/// Bodies, joints, attachments, winches and body contacts in JS: the full build's (the lite
/// build's `Sim` has none of these; `<rope-lab>` treats a missing `bodyCount` as none).
#[cfg(feature = "full")]
#[wasm_bindgen]
impl Sim {
    /// Number of rigid bodies.
    #[wasm_bindgen(getter, js_name = bodyCount)]
    pub fn body_count(&self) -> u32 {
        self.world.bodies.len() as u32
    }

    /// Adds a body (a scene file's `bodies[i]` as JSON: `{shape, mass, pos, angle | rot,
    /// kind, vel, angular_velocity, linear_damping, angular_damping, gravity_scale,
    /// planar}`); returns its id. Throws under the classic solver (it cannot run bodies).
    #[wasm_bindgen(js_name = addBody)]
    pub fn add_body(&mut self, #[wasm_bindgen(unchecked_param_type = "string")] json: JsValue) -> Result<u32, JsError> {
        self.add_body_json(&js_text("addBody: the body JSON", &json)?).map(|id| id.0).map_err(js)
    }

    /// Removes a body, its joints (a drag on it too) and its attachments.
    #[wasm_bindgen(js_name = removeBody)]
    pub fn remove_body(&mut self, id: f64) -> Result<(), JsError> {
        self.remove_body_checked(id).map_err(js)
    }

    /// Adds a joint (a scene file's `joints[i]` as JSON, bodies as ids or null for the world:
    /// `{type: "hinge", a: 0, b: 1, anchor: [x, y, z], axis, limit, motor: {speed,
    /// max_force}, soft: {hertz, damping_ratio}, break_force, …}`); returns its id.
    #[wasm_bindgen(js_name = addJoint)]
    pub fn add_joint(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] json: JsValue,
    ) -> Result<u32, JsError> {
        self.add_joint_json(&js_text("addJoint: the joint JSON", &json)?).map(|id| id.0).map_err(js)
    }

    #[wasm_bindgen(js_name = removeJoint)]
    pub fn remove_joint(&mut self, id: f64) -> Result<(), JsError> {
        self.remove_joint_checked(id).map_err(js)
    }

    /// Makes point `point` the point of body `bodyId` where it lies now (it moves with the
    /// body; its mass is the body's until `detach`).
    #[wasm_bindgen(js_name = attach)]
    pub fn attach(&mut self, point: f64, body_id: f64) -> Result<(), JsError> {
        self.attach_checked(point, body_id).map_err(js)
    }

    /// Frees an attached point (it keeps its place and gets its own mass back).
    #[wasm_bindgen(js_name = detach)]
    pub fn detach(&mut self, point: f64) -> Result<(), JsError> {
        self.detach_checked(point).map_err(js)
    }

    /// Winch `i` (its index in `winchesJson()`) pays its rope out at `speed` m/s
    /// (negative reels in, |speed| ≤ 100).
    #[wasm_bindgen(js_name = setWinchSpeed)]
    pub fn set_winch_speed(&mut self, i: f64, speed: f64) -> Result<(), JsError> {
        self.set_winch_speed_checked(i, speed).map_err(js)
    }

    /// `[{rope, speed, maxForce, length}]` per winch (JSON text).
    #[wasm_bindgen(js_name = winchesJson)]
    pub fn winches_json(&self) -> String {
        self.winches_json_string()
    }

    /// `[{id, kind, shape, mass, planar}]` per body, in pose-buffer order (JSON text).
    #[wasm_bindgen(js_name = bodiesJson)]
    pub fn bodies_json(&self) -> String {
        self.bodies_json_string()
    }

    /// Every joint's world anchors, axis, limits, motor, softness and reaction force and
    /// torque over the last step (JSON text; the fields are listed on `joints_json_string`).
    #[wasm_bindgen(js_name = jointsJson)]
    pub fn joints_json(&self) -> String {
        self.joints_json_string()
    }

    /// Refills the pose buffer (7 floats per body: px, py, pz, qx, qy, qz, qw), each pose
    /// `alpha` of the way from the start of the last step to its end (dual-quaternion
    /// blend; pass `sim.alpha` from the fixed-step clock, 0 ≤ alpha ≤ 1). Returns the
    /// buffer's length in floats. No allocation once the buffer has grown to the bodies.
    #[wasm_bindgen(js_name = refillBodyPoses)]
    pub fn refill_body_poses_js(&mut self, alpha: f32) -> Result<u32, JsError> {
        self.refill_body_poses(alpha).map_err(js)?;
        Ok(self.body_poses.len() as u32)
    }

    /// Pointer to the pose buffer in wasm memory (f32s; `bodyPosesLen()` of them).
    #[wasm_bindgen(js_name = bodyPosesPtr)]
    pub fn body_poses_ptr(&self) -> *const f32 {
        self.body_poses.as_ptr()
    }

    /// Length of the pose buffer in floats (7 per body after `refillBodyPoses`).
    #[wasm_bindgen(js_name = bodyPosesLen)]
    pub fn body_poses_len(&self) -> u32 {
        self.body_poses.len() as u32
    }

    /// Body contact events of every step since the last drain or clear (like the tangle
    /// events of `drainEvents`), oldest first, as JSON: `[{type: "begin" | "end", a, b,
    /// impulse}]` — body ids (a < b) and, for a begin, the normal impulse (N·s) the pair took
    /// in its first step (0 for an end). Drains the queue (at most 1,024 events wait; the
    /// oldest are dropped first).
    #[wasm_bindgen(js_name = drainContactEvents)]
    pub fn drain_contact_events(&mut self) -> String {
        self.drain_contact_events_json()
    }

    /// Number of queued contact events (the zero-copy views below have 3 ids and 1 impulse
    /// per event).
    #[wasm_bindgen(getter, js_name = contactEventCount)]
    pub fn contact_event_count(&self) -> u32 {
        self.world.contact_log.len() as u32
    }

    /// The queued contact events' ids as a view of wasm memory, 3 per event: kind (1 begin,
    /// 0 end), body id a, body id b. Valid until the next call into the sim; read it, then
    /// `clearContactEvents()`.
    #[wasm_bindgen(js_name = contactEventIds)]
    pub fn contact_event_ids(&self) -> js_sys::Uint32Array {
        // SAFETY: as `positions()`: JS reads the view before calling into the sim again.
        unsafe { js_sys::Uint32Array::view(&self.world.contact_log.ids) }
    }

    /// The queued contact events' impulses (N·s, one per event, 0 for an end) as a view of
    /// wasm memory, like `contactEventIds()`.
    #[wasm_bindgen(js_name = contactEventImpulses)]
    pub fn contact_event_impulses(&self) -> js_sys::Float32Array {
        // SAFETY: as `positions()`.
        unsafe { js_sys::Float32Array::view(&self.world.contact_log.impulses) }
    }

    /// Forgets the queued contact events (after reading the views).
    #[wasm_bindgen(js_name = clearContactEvents)]
    pub fn clear_contact_events(&mut self) {
        self.world.contact_log.clear();
    }

    /// The pose buffer as a view of wasm memory (7 floats per body), valid until the next
    /// call into the sim: refill it, view it, draw, every frame.
    #[wasm_bindgen(js_name = bodyPoses)]
    pub fn body_poses_view(&self) -> js_sys::Float32Array {
        // SAFETY: as `positions()`: JS reads the view before calling into the sim again.
        unsafe { js_sys::Float32Array::view(&self.body_poses) }
    }

    /// Id of the dynamic body whose projected outline is under `(x, y)` (view coordinates,
    /// m, as `pick`), or within `margin` m of it (default 0); -1 for none.
    #[wasm_bindgen(js_name = pickBody)]
    pub fn pick_body(&self, x: f32, y: f32, margin: Option<f32>) -> Result<f64, JsError> {
        self.pick_body_checked(x, y, margin).map_err(js)
    }

    /// Pointer `pointer` grabs body `id` at the view point `(x, y)`: a soft ball-socket (5 Hz,
    /// damping ratio 0.7) from the pointer to that point of the body, until `releaseBody`.
    /// A pointer holding a body already lets go of it first.
    #[wasm_bindgen(js_name = grabBody)]
    pub fn grab_body(&mut self, pointer: f64, id: f64, x: f32, y: f32) -> Result<(), JsError> {
        self.grab_body_checked(pointer, id, x, y).map_err(js)
    }

    /// Moves the pointer's end of its drag joint to the view point `(x, y)`.
    #[wasm_bindgen(js_name = dragBody)]
    pub fn drag_body(&mut self, pointer: f64, x: f32, y: f32) -> Result<(), JsError> {
        self.drag_body_checked(pointer, x, y).map_err(js)
    }

    /// Lets go of the body the pointer holds (its joint is removed); false if it held none.
    #[wasm_bindgen(js_name = releaseBody)]
    pub fn release_body(&mut self, pointer: f64) -> Result<bool, JsError> {
        self.release_body_checked(pointer).map_err(js)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "full")] // (rigid bodies: the full build)
    #[test]
    fn bad_body_and_joint_input_is_an_error_and_changes_nothing() {
        let mut s = Sim::new();
        s.load_scene_json(include_str!("../../www/scenes/hinge-chain.json")).unwrap();
        let before = s.export_scene_json();
        for json in [
            r#"{"shape": {"type": "sphere", "radius": 0.1}, "mass": 0, "pos": [0, 0, 0]}"#,
            r#"{"shape": {"type": "box", "half": [0, 1, 1]}, "pos": [0, 0, 0]}"#,
            r#"{"shape": {"type": "sphere", "radius": 0.1}, "pos": [0, 0]}"#,
            r#"{"shape": {"type": "sphere", "radius": 0.1}, "pos": [0, 0, 0], "colour": 1}"#,
            "not json",
        ] {
            assert!(s.add_body_json(json).is_err(), "{json}");
        }
        for json in [
            r#"{"type": "hinge", "a": 0, "b": 0, "anchor": [0, 0, 0]}"#,
            r#"{"type": "hinge", "a": 0, "b": 99999, "anchor": [0, 0, 0]}"#,
            r#"{"type": "hinge", "a": null, "b": 1, "anchor": [0, 0, 0], "limit": [2, 1]}"#,
            r#"{"type": "rope", "a": null, "b": 1, "anchor": [0, 0, 0]}"#,
            r#"{"type": "hinge", "a": null, "b": 1, "anchor": [0, 0, 0], "axis": [0, 0, 0]}"#,
        ] {
            assert!(s.add_joint_json(json).is_err(), "{json}");
        }
        assert!(s.grab_body_at(1, Id(4242), 0.0, 0.0).is_err());
        assert!(s.grab_body_at(1, Id(0), f32::NAN, 0.0).is_err());
        assert!(s.drag_body_to(7, 0.0, 0.0).is_err());
        assert!(id_of(-1.0).is_err() && id_of(0.5).is_err() && id_of(f64::NAN).is_err());
        assert_eq!(s.export_scene_json(), before, "nothing changed");
    }

    #[cfg(feature = "full")] // (rigid bodies: the full build)
    #[test]
    fn a_body_is_picked_grabbed_and_dragged() {
        let mut s = Sim::new();
        s.load_scene_json(include_str!("../../www/scenes/wrecking-ball.json")).unwrap();
        let id = s.pick_body_at(3.25, 4.5, 0.0).unwrap().expect("the ball is under the pointer");
        s.grab_body_at(1, id, 3.25, 4.5).unwrap();
        for _ in 0..60 {
            s.drag_body_to(1, 3.25, 4.5).unwrap();
            s.world.step(1.0 / 60.0).unwrap();
        }
        // Held up by the mouse, it has not fallen far (free, it would swing down 3 m).
        let b = s.world.bodies.pos[0];
        assert!((b - Vec3::new(3.25, 4.5, 0.0)).length() < 0.5, "{b}");
        assert!(s.joints_json_string().contains("\"mouse\":true"));
        assert!(!s.export_scene_json().contains("ballSocket"), "the mouse joint is not part of the scene");
        assert!(s.release_body_from(1));
        assert_eq!(s.world.joints.len(), 0);
        s.refill_body_poses(0.5).unwrap();
        assert_eq!(s.body_poses.len(), 7);
        assert!(s.refill_body_poses(f32::NAN).is_err() && s.refill_body_poses(1.5).is_err());
    }

    #[test]
    fn the_hull_of_a_projected_box_is_its_outline() {
        // A unit cube turned 45° about z, seen from the side: a diamond of half-diagonal √2/2.
        let rot = glam::Quat::from_rotation_z(std::f32::consts::FRAC_PI_4);
        let cube = crate::bodies::Shape::Box { half: Vec3::splat(0.5) };
        let d = |x: f32, y: f32| outline_distance(&cube, Vec3::ZERO, rot, View::Side, Vec2::new(x, y));
        let r = std::f32::consts::FRAC_1_SQRT_2;
        assert!((d(0.0, 0.0) + 0.5).abs() < 1e-5, "{}", d(0.0, 0.0)); // centre: 0.5 m from each edge
        assert!(d(r - 0.01, 0.0) < 0.0 && d(r + 0.01, 0.0) > 0.0, "the tip of the diamond");
        assert!(d(0.45, 0.45) > 0.0, "outside the diamond, inside the unturned square");
        assert!((d(r + 1.0, 0.0) - 1.0).abs() < 1e-5);
        // The same cube seen from above (x–z): turned about z it is a rectangle √2 wide, 1 deep.
        let t = |x: f32, z: f32| outline_distance(&cube, Vec3::ZERO, rot, View::Top, Vec2::new(x, z));
        assert!(t(0.69, 0.49) < 0.0 && t(0.72, 0.0) > 0.0 && t(0.0, 0.51) > 0.0);
        // A capsule along x, turned to point at the viewer: a disc of its radius.
        let cap = crate::bodies::Shape::Capsule { radius: 0.1, half_length: 1.0 };
        let towards = glam::Quat::from_rotation_y(std::f32::consts::FRAC_PI_2);
        let c = |x: f32, y: f32| outline_distance(&cap, Vec3::ONE, towards, View::Side, Vec2::new(x, y));
        assert!(c(1.05, 1.0) < 0.0 && c(1.15, 1.0) > 0.0);
    }

    #[cfg(feature = "full")] // (rigid bodies: the full build)
    #[test]
    fn picking_finds_the_body_under_the_pointer_in_either_view() {
        let mut s = Sim::new();
        s.load_scene_json(include_str!("../../www/scenes/hinge-chain.json")).unwrap();
        // Link l3 spans x in [-0.6, -0.3], y in [3.97, 4.03] at rest.
        let l3 = s.world.bodies.id[3];
        assert_eq!(s.pick_body_at(-0.45, 4.02, 0.0).unwrap(), Some(l3));
        assert_eq!(s.pick_body_at(-0.45, 4.06, 0.0).unwrap(), None);
        assert_eq!(s.pick_body_at(-0.45, 4.06, 0.05).unwrap(), Some(l3));
        // Only dynamic bodies: the door's frame is static.
        s.load_scene_json(include_str!("../../www/scenes/door.json")).unwrap();
        let b = &s.world.bodies;
        for i in 0..b.len() {
            let at = s.world.settings.view.project(b.pos[i]);
            let want = (b.kind[i] == BodyKind::Dynamic).then_some(b.id[i]);
            assert_eq!(s.pick_body_at(at.x, at.y, 0.0).unwrap(), want, "body {i}");
        }
    }
}
