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
use crate::scene::bodies::{AttachSpec, BodySpec, JointSpec};

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

fn parse<T: serde::de::DeserializeOwned>(what: &str, json: &str) -> Result<T> {
    let de = &mut serde_json::Deserializer::from_str(json);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        SimError::Invalid(format!(
            "{what}{}: {}",
            if path == "." { String::new() } else { format!(".{path}") },
            e.inner()
        ))
    })
}

/// The plain Rust surface (natively testable).
impl Sim {
    pub fn add_body_json(&mut self, json: &str) -> Result<Id> {
        let spec: BodySpec = parse("body", json)?;
        let def = spec.def().map_err(|e| SimError::Invalid(format!("body: {e}")))?;
        self.world.add_body(&def)
    }

    pub fn add_joint_json(&mut self, json: &str) -> Result<Id> {
        let spec: JointSpec = parse("joint", json)?;
        let def = spec.def(&self.world, &[]).map_err(|e| SimError::Invalid(format!("joint: {e}")))?;
        self.world.add_joint(&def)
    }

    pub fn attach_json(&mut self, json: &str) -> Result<()> {
        let spec: AttachSpec = parse("attachment", json)?;
        let p = spec.point(&self.world)?;
        let body = crate::scene::bodies::resolve(&self.world, &[], &spec.body)?;
        self.world.attach(p, body)
    }

    /// Fills the pose buffer: per body px, py, pz, qx, qy, qz, qw, blended `alpha` of the
    /// way from the pose at the start of the last step to the current one (dual-quaternion
    /// blend, so a turning body turns on its screw instead of cutting the corner).
    pub fn refill_body_poses(&mut self, alpha: f32) {
        let b = &self.world.bodies;
        let t = if alpha.is_finite() { alpha.clamp(0.0, 1.0) } else { 1.0 };
        self.body_poses.clear();
        for i in 0..b.len() {
            let from = DualQuat::from_rotation_translation(b.prev_rot[i], b.prev_pos[i]);
            let to = DualQuat::from_rotation_translation(b.rot[i], b.pos[i]);
            let d = DualQuat::lerp(from, to, t);
            let (p, q) = (d.translation(), d.rotation());
            self.body_poses.extend_from_slice(&[p.x, p.y, p.z, q.x, q.y, q.z, q.w]);
        }
    }

    /// Id of the body under `(x, y)` (view plane, m) within `margin`, nearest centre first.
    pub fn pick_body_at(&self, x: f32, y: f32, margin: f32) -> Result<Option<Id>> {
        error::finite("x", x)?;
        error::finite("y", y)?;
        error::in_range("margin", margin, 0.0, 10.0, "0 ≤ margin ≤ 10 m")?;
        let view = self.world.settings.view;
        let b = &self.world.bodies;
        let mut best: Option<(Id, f32)> = None;
        for i in 0..b.len() {
            if b.kind[i] == BodyKind::Static {
                continue;
            }
            let q = view.unproject(Vec2::new(x, y), b.pos[i]);
            let local = b.rot[i].inverse() * (q - b.pos[i]);
            let inside =
                local.distance(b.shape[i].nearest_surface_point(local)) <= margin || contains(&b.shape[i], local);
            let d = view.project(b.pos[i]).distance(Vec2::new(x, y));
            if inside && best.is_none_or(|(_, bd)| d < bd) {
                best = Some((b.id[i], d));
            }
        }
        Ok(best.map(|(id, _)| id))
    }

    /// Pointer `pointer` grabs body `id` at the view point `(x, y)`: a soft ball-socket from
    /// the pointer to that point of the body (Box2D's mouse joint: 5 Hz, ζ = 0.7).
    pub fn grab_body_at(&mut self, pointer: u32, id: Id, x: f32, y: f32) -> Result<()> {
        error::finite("x", x)?;
        error::finite("y", y)?;
        let i = self.world.bodies.index(id)?;
        let q = self.world.settings.view.unproject(Vec2::new(x, y), self.world.bodies.pos[i]);
        let def = JointDef {
            kind: JointKind::BallSocket,
            a: None,
            b: Some(id),
            anchor: q,
            soft: Some(SoftDef { hertz: MOUSE_HERTZ, damping_ratio: MOUSE_DAMPING_RATIO }),
            ..Default::default()
        };
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

    /// Static description of every body: `[{id, kind, shape, mass, planar}]`.
    pub fn bodies_json_string(&self) -> String {
        let b = &self.world.bodies;
        let v: Vec<serde_json::Value> = (0..b.len())
            .map(|i| {
                serde_json::json!({"id": b.id[i].0, "kind": b.kind[i].name(), "shape": b.shape[i],
                    "mass": b.mass[i], "planar": b.planar[i]})
            })
            .collect();
        serde_json::Value::Array(v).to_string()
    }

    /// Every joint now: `[{id, type, a, b, anchorA, anchorB, axis, limit, motor, soft,
    /// force, torque, breakForce, mouse}]` (world anchors and axis; force in N and torque in
    /// N·m on body b over the last step; a, b = body id or null for the world).
    pub fn joints_json_string(&self) -> String {
        let (b, j) = (&self.world.bodies, &self.world.joints);
        let pose = |id: Option<Id>| {
            id.and_then(|id| b.index(id).ok()).map_or((Vec3::ZERO, glam::Quat::IDENTITY), |k| (b.pos[k], b.rot[k]))
        };
        let v3 = |v: Vec3| [v.x, v.y, v.z];
        let v: Vec<serde_json::Value> = (0..j.len())
            .map(|k| {
                let f = &j.frames[k];
                let (xa, qa) = pose(j.a[k]);
                let (xb, qb) = pose(j.b[k]);
                let (limit, motor) = match j.kind[k] {
                    JointKind::Hinge { limit, motor } | JointKind::Prismatic { limit, motor } => (limit, motor),
                    JointKind::AngularMotor { motor } => (None, Some(motor)),
                    _ => (None, None),
                };
                serde_json::json!({
                    "id": j.id[k].0, "type": j.kind[k].name(),
                    "a": j.a[k].map(|id| id.0), "b": j.b[k].map(|id| id.0),
                    "anchorA": v3(xa + qa * f.local_a), "anchorB": v3(xb + qb * f.local_b),
                    "axis": v3(qa * f.axis_a),
                    "limit": limit, "motor": motor, "soft": j.soft[k],
                    "force": v3(j.force[k]), "torque": v3(j.torque[k]),
                    "breakForce": j.break_force[k].is_finite().then_some(j.break_force[k]),
                    "mouse": j.transient[k],
                    // Hinge: B's angle about the axis from the creation pose (rad).
                    "angle": matches!(j.kind[k], JointKind::Hinge { .. })
                        .then(|| crate::joints::hinge_axis::angle(qa, qb, f.q_ref, f.axis_a)),
                })
            })
            .collect();
        serde_json::Value::Array(v).to_string()
    }
}

/// Whether the body-frame point `p` is inside `shape`.
fn contains(shape: &crate::bodies::Shape, p: Vec3) -> bool {
    use crate::bodies::Shape;
    match *shape {
        Shape::Sphere { radius } => p.length() <= radius,
        Shape::Capsule { radius, half_length } => {
            (p - Vec3::new(p.x.clamp(-half_length, half_length), 0.0, 0.0)).length() <= radius
        }
        Shape::Box { half } => p.abs().cmple(half).all(),
    }
}

#[wasm_bindgen]
impl Sim {
    /// Number of rigid bodies.
    #[wasm_bindgen(getter, js_name = bodyCount)]
    pub fn body_count(&self) -> u32 {
        self.world.bodies.len() as u32
    }

    /// Adds a body (scene-format JSON: `{shape, mass, pos, angle | rot, kind, planar, …}`);
    /// returns its id.
    #[wasm_bindgen(js_name = addBody)]
    pub fn add_body(&mut self, json: &str) -> Result<u32, JsError> {
        self.add_body_json(json).map(|id| id.0).map_err(js)
    }

    /// Removes a body, its joints and its attachments.
    #[wasm_bindgen(js_name = removeBody)]
    pub fn remove_body(&mut self, id: f64) -> Result<(), JsError> {
        let id = id_of(id).map_err(js)?;
        self.world.remove_body(id).map_err(js)
    }

    /// Adds a joint (scene-format JSON with bodies as ids or null for the world: `{type:
    /// "hinge", a: 0, b: 1, anchor: [x, y, z], axis, limit, motor, soft, …}`); returns its id.
    #[wasm_bindgen(js_name = addJoint)]
    pub fn add_joint(&mut self, json: &str) -> Result<u32, JsError> {
        self.add_joint_json(json).map(|id| id.0).map_err(js)
    }

    #[wasm_bindgen(js_name = removeJoint)]
    pub fn remove_joint(&mut self, id: f64) -> Result<(), JsError> {
        let id = id_of(id).map_err(js)?;
        self.world.remove_joint(id).map_err(js)
    }

    /// Makes point `point` the point of body `body` where it lies (`{point, body}` or
    /// `{rope, end, body}` as JSON).
    #[wasm_bindgen(js_name = attach)]
    pub fn attach(&mut self, json: &str) -> Result<(), JsError> {
        self.attach_json(json).map_err(js)
    }

    #[wasm_bindgen(js_name = detach)]
    pub fn detach(&mut self, point: f64) -> Result<(), JsError> {
        let i = error::index("point", idx(point), self.world.particles.len()).map_err(js)?;
        self.world.detach(i).map_err(js)
    }

    /// `[{id, kind, shape, mass, planar}]` per body, in pose-buffer order.
    #[wasm_bindgen(js_name = bodiesJson)]
    pub fn bodies_json(&self) -> String {
        self.bodies_json_string()
    }

    /// Every joint's world anchors, axis, limits, motor and reaction force and torque.
    #[wasm_bindgen(js_name = jointsJson)]
    pub fn joints_json(&self) -> String {
        self.joints_json_string()
    }

    /// Refills the pose buffer (7 floats per body) for drawing, interpolated by `alpha`
    /// (0 = the start of the last step, 1 = now; pass `sim.alpha` from the fixed-step
    /// clock). Returns the buffer's length in floats; view it with `bodyPosesPtr()`.
    #[wasm_bindgen(js_name = refillBodyPoses)]
    pub fn refill_body_poses_js(&mut self, alpha: f32) -> u32 {
        self.refill_body_poses(alpha);
        self.body_poses.len() as u32
    }

    /// Pointer to the pose buffer in wasm memory.
    #[wasm_bindgen(js_name = bodyPosesPtr)]
    pub fn body_poses_ptr(&self) -> *const f32 {
        self.body_poses.as_ptr()
    }

    /// The pose buffer as a view of wasm memory (7 floats per body), valid until the next
    /// call into the sim: refill it, view it, draw, every frame.
    #[wasm_bindgen(js_name = bodyPoses)]
    pub fn body_poses_view(&self) -> js_sys::Float32Array {
        // SAFETY: as `positions()`: JS reads the view before calling into the sim again.
        unsafe { js_sys::Float32Array::view(&self.body_poses) }
    }

    /// Id of the movable body under `(x, y)` (view plane, m), or -1.
    #[wasm_bindgen(js_name = pickBody)]
    pub fn pick_body(&self, x: f32, y: f32, margin: f32) -> Result<f64, JsError> {
        Ok(self.pick_body_at(x, y, margin).map_err(js)?.map_or(-1.0, |id| id.0 as f64))
    }

    /// Pointer grabs body `id` at `(x, y)` (a soft mouse joint to that point of the body).
    #[wasm_bindgen(js_name = grabBody)]
    pub fn grab_body(&mut self, pointer: u32, id: f64, x: f32, y: f32) -> Result<(), JsError> {
        let id = id_of(id).map_err(js)?;
        self.grab_body_at(pointer, id, x, y).map_err(js)
    }

    #[wasm_bindgen(js_name = dragBody)]
    pub fn drag_body(&mut self, pointer: u32, x: f32, y: f32) -> Result<(), JsError> {
        self.drag_body_to(pointer, x, y).map_err(js)
    }

    /// Lets go of the body the pointer holds; false if it held none.
    #[wasm_bindgen(js_name = releaseBody)]
    pub fn release_body(&mut self, pointer: u32) -> bool {
        self.release_body_from(pointer)
    }

    /// Fraction of a fixed step the clock has accumulated (for interpolated drawing).
    #[wasm_bindgen(getter)]
    pub fn alpha(&self) -> f32 {
        self.clock.alpha()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn a_body_is_picked_grabbed_and_dragged() {
        let mut s = Sim::new();
        s.load_scene_json(include_str!("../../www/scenes/wrecking-ball.json")).unwrap();
        let id = s.pick_body_at(3.3, 4.5, 0.05).unwrap().expect("the ball is under the pointer");
        s.grab_body_at(1, id, 3.3, 4.5).unwrap();
        for _ in 0..60 {
            s.drag_body_to(1, 3.3, 4.5).unwrap();
            s.world.step(1.0 / 60.0).unwrap();
        }
        // Held up by the mouse, it has not fallen far (free, it would swing down 3 m).
        let b = s.world.bodies.pos[0];
        assert!((b - Vec3::new(3.3, 4.5, 0.0)).length() < 0.5, "{b}");
        assert!(s.joints_json_string().contains("\"mouse\":true"));
        assert!(!s.export_scene_json().contains("ballSocket"), "the mouse joint is not part of the scene");
        assert!(s.release_body_from(1));
        assert_eq!(s.world.joints.len(), 0);
        s.refill_body_poses(0.5);
        assert_eq!(s.body_poses.len(), 7);
    }
}
