//! Bodies, joints and attachments in scene files and through the JS surface: the presets load
//! and play, the format round-trips (also mid-swing), bad input names its JSON path and
//! builds nothing (a loaded world stays as it was), and the body API refuses bad ids and
//! numbers without changing anything.

use glam::{Quat, Vec3};
use ropelab::ids::Id;
use ropelab::joints::JointKind;
use ropelab::scene::Scene;
use ropelab::{Sim, SimError, SolverKind, World};
use serde_json::{json, Value};

const PRESETS: [&str; 5] = ["wrecking-ball", "hinge-chain", "door", "ragdoll", "crane"];
/// The presets of the page's "contacts" group (tests/contact_scenes.rs checks their physics).
const CONTACT_PRESETS: [&str; 4] = ["pyramid", "wall", "plank-bridge", "cradle"];
const H: f32 = 1.0 / 60.0;

fn load(name: &str) -> Scene {
    let text = std::fs::read_to_string(format!("www/scenes/{name}.json")).unwrap();
    Scene::from_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn pose(w: &World, id: Option<Id>) -> (Vec3, Quat) {
    id.map_or((Vec3::ZERO, Quat::IDENTITY), |id| {
        let i = w.bodies.index(id).unwrap();
        (w.bodies.pos[i], w.bodies.rot[i])
    })
}

/// Largest distance between a joint's anchors on A and on B (prismatic joints slide apart
/// along their axis by design; distance and rope joints keep a length: left out).
fn worst_gap(w: &World) -> f32 {
    (0..w.joints.len())
        .filter(|&k| {
            !matches!(
                w.joints.kind[k],
                JointKind::Prismatic { .. } | JointKind::Distance { .. } | JointKind::Rope { .. }
            )
        })
        .map(|k| {
            let f = &w.joints.frames[k];
            let (xa, qa) = pose(w, w.joints.a[k]);
            let (xb, qb) = pose(w, w.joints.b[k]);
            (xa + qa * f.local_a).distance(xb + qb * f.local_b)
        })
        .fold(0.0, f32::max)
}

/// Runs `w` for `steps` steps; returns the peak rope stretch and joint gap.
fn play(name: &str, w: &mut World, steps: usize) -> (f32, f32) {
    let (mut stretch, mut gap) = (0.0f32, 0.0f32);
    for _ in 0..steps {
        w.step(H).unwrap();
        stretch = stretch.max(w.max_stretch());
        gap = gap.max(worst_gap(w));
    }
    let finite = w.bodies.pos.iter().chain(&w.bodies.vel).chain(&w.particles.pos).all(|v| v.is_finite())
        && w.bodies.rot.iter().all(|q| q.is_finite());
    assert!(finite, "{name}: non-finite state");
    (stretch, gap)
}

#[test]
fn the_body_presets_load_and_play_600_steps_under_their_solver_and_impulse() {
    for name in PRESETS {
        let scene = load(name);
        assert_eq!(scene.name, name);
        let mut w = scene.build().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!w.bodies.is_empty() && !w.joints.is_empty() || name == "wrecking-ball", "{name}");
        let (stretch, gap) = play(name, &mut w, 600);
        println!("{name} ({}): peak stretch {stretch:.4}, peak joint gap {gap:.4} m", w.settings.solver.name());
        // Their own solver holds their ropes and joints.
        assert!(stretch < 0.01, "{name}: a rope stretched {stretch:.3}");
        assert!(gap < 0.02, "{name}: a joint opened {gap:.3} m");
        // The impulse solver (8 substeps, 2 iterations) runs every one of them too. (It cannot
        // hold the heavy bodies on the light ropes of wrecking-ball, ragdoll and crane: its
        // mass-ratio limit, docs/solvers.md; so those presets pick the exact solver.)
        let mut scene = load(name);
        (scene.settings.solver, scene.settings.substeps, scene.settings.iterations) = (SolverKind::Impulse, 8, 2);
        let mut w = scene.build().unwrap();
        let (stretch, gap) = play(name, &mut w, 600);
        println!("{name} (impulse 8×2): peak stretch {stretch:.4}, peak joint gap {gap:.4} m");
        assert!(gap < 0.02, "{name} under impulse: a joint opened {gap:.3} m");
    }
}

#[test]
fn the_contact_presets_load_and_play_600_steps_under_their_solver() {
    for name in CONTACT_PRESETS {
        let scene = load(name);
        assert_eq!(scene.name, name);
        let mut w = scene.build().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(w.bodies.len() >= 5, "{name}");
        let (stretch, gap) = play(name, &mut w, 600);
        println!("{name} ({}): peak stretch {stretch:.4}, peak joint gap {gap:.4} m", w.settings.solver.name());
        // The wall's cable is exact; the plank bridge's light ropes stretch under the impulse
        // solver (measured 4.4 % at the peak, while the ball crosses).
        assert!(stretch < 0.05, "{name}: a rope stretched {stretch:.3}");
        assert!(gap < 0.02, "{name}: a joint opened {gap:.3} m");
    }
}

/// The angle (rad) of `q` about the unit `axis`, for a rotation about that axis.
fn angle_about(q: Quat, axis: Vec3) -> f32 {
    let (ax, a) = q.to_axis_angle();
    a * ax.dot(axis).signum()
}

#[test]
fn the_door_swings_open_on_its_motor_to_the_limit_and_hangs_on_its_hinge() {
    let mut w = load("door").build().unwrap();
    let door = w.bodies.index(w.bodies.id[2]).unwrap();
    let mut prev = 0.0;
    for step in 1..=360 {
        w.step(H).unwrap();
        let a = angle_about(w.bodies.rot[door], Vec3::Y);
        if step == 60 {
            // 1 s in, it turns at the motor's 0.8 rad/s (reached in a fraction of a second).
            let speed = w.bodies.ang_vel[door].y;
            assert!((speed - 0.8).abs() < 0.03, "motor speed {speed}");
        }
        assert!(a >= prev - 1e-3, "the door only opens: {prev} → {a}");
        prev = a;
    }
    let a = angle_about(w.bodies.rot[door], Vec3::Y);
    assert!((a - 1.75).abs() < 0.02, "the upper limit (100°) stops it: {a}");
    // Gravity pulls along the hinge: the door stays at its height, its edge on the hinge.
    assert!((w.bodies.pos[door].y - 1.0).abs() < 0.005, "{}", w.bodies.pos[door]);
    assert!(worst_gap(&w) < 0.005);
}

#[test]
fn the_crane_trolley_drives_along_the_beam_and_the_hook_follows() {
    let mut w = load("crane").build().unwrap();
    let (trolley, hook) = (w.bodies.index(w.bodies.id[1]).unwrap(), w.bodies.index(w.bodies.id[2]).unwrap());
    let x0 = w.bodies.pos[trolley].x;
    for _ in 0..120 {
        w.step(H).unwrap();
    }
    let moved = w.bodies.pos[trolley].x - x0;
    assert!((1.0..1.3).contains(&moved), "2 s at 0.6 m/s, less the start: {moved}");
    assert!((w.bodies.pos[trolley].y - 3.9).abs() < 0.01, "on the beam");
    for _ in 0..480 {
        w.step(H).unwrap();
    }
    let x = w.bodies.pos[trolley].x;
    assert!((x - (x0 + 4.0)).abs() < 0.02, "stopped by the travel limit at +4 m: {x}");
    // The hook hangs below the trolley at the rope's length (2 m + the hook's half height).
    let below = w.bodies.pos[trolley] - w.bodies.pos[hook];
    assert!(below.y > 1.9 && below.x.abs() < 1.0, "{below}");
}

/// A scene with every body kind, shape and optional field, every joint type and both kinds
/// of attachment.
fn kitchen_sink() -> Value {
    json!({
        "version": 1,
        "name": "sink",
        "settings": {"solver": "impulse", "substeps": 8, "iterations": 2},
        "ropes": [{"from": [0, 2, 0], "to": [1, 2, 0], "points": 5, "lock_start": true}],
        "particles": [{"pos": [3, 3, 0]}],
        "bodies": [
            {"name": "box", "shape": {"type": "box", "half": [0.2, 0.1, 0.1]}, "mass": 2, "pos": [1.2, 2, 0],
             "planar": true, "angle": 0.1},
            {"name": "cap", "shape": {"type": "capsule", "radius": 0.05, "half_length": 0.2}, "mass": 1,
             "pos": [1.6, 2, 0.3], "rot": [0, 0.2, 0, 0.98], "vel": [0.1, 0, 0], "angular_velocity": [0, 0, 1],
             "linear_damping": 0.1, "angular_damping": 0.2, "gravity_scale": 0.5},
            {"name": "post", "kind": "static", "shape": {"type": "sphere", "radius": 0.1}, "pos": [0, 3, 0]},
            {"name": "lift", "kind": "kinematic", "shape": {"type": "sphere", "radius": 0.1}, "pos": [2, 3, 0],
             "vel": [0, 0.1, 0]},
            {"name": "ball", "shape": {"type": "sphere", "radius": 0.1}, "mass": 3, "pos": [3, 3, 0]},
            {"name": "arm", "shape": {"type": "box", "half": [0.3, 0.05, 0.05]}, "mass": 1, "pos": [2.4, 3, 0]}
        ],
        "joints": [
            {"type": "hinge", "a": "box", "b": "cap", "anchor": [1.4, 2, 0], "axis": [0, 0, 1], "limit": [-1, 1],
             "motor": {"speed": 1, "max_force": 5}, "break_force": 500},
            {"type": "distance", "a": "post", "b": "box", "anchor": [0, 3, 0], "anchor_b": [1.2, 2, 0],
             "soft": {"hertz": 2, "damping_ratio": 0.5}, "min": 0.5, "max": 2},
            {"type": "rope", "a": "lift", "b": "ball", "anchor": [2, 3, 0], "anchor_b": [3, 3, 0], "max_length": 1.2},
            {"type": "prismatic", "a": null, "b": "arm", "anchor": [2.4, 3, 0], "axis": [1, 0, 0], "limit": [-0.5, 0.5],
             "motor": {"speed": -0.2, "max_force": 50}},
            {"type": "swingTwist", "a": "arm", "b": "ball", "anchor": [2.7, 3, 0], "axis": [1, 0, 0],
             "max_swing": 0.8, "twist": [-0.3, 0.4]},
            {"type": "ballSocket", "a": "ball", "b": null, "anchor": [3, 3.1, 0]},
            {"type": "fixed", "a": "lift", "b": "arm", "anchor": [2.2, 3, 0], "soft": {"hertz": 8, "damping_ratio": 1}},
            {"type": "angularMotor", "a": "post", "b": "cap", "anchor": [1.6, 2, 0.3], "axis": [0, 1, 0],
             "motor": {"speed": 0.5, "max_force": 1}}
        ],
        "attachments": [{"rope": 0, "end": "end", "body": "box"}, {"point": 0, "body": "ball"}]
    })
}

fn build(v: &Value) -> Result<World, SimError> {
    Scene::from_json(&v.to_string()).and_then(|s| s.build())
}

/// Asserts two worlds have the same bodies, joints and attachments (frames to rounding:
/// exports give world anchors, which the build turns back into body-frame ones).
fn assert_same(label: &str, w: &World, v: &World) {
    let (a, b) = (&w.bodies, &v.bodies);
    assert_eq!(a.pos, b.pos, "{label}: pos");
    assert_eq!(a.rot, b.rot, "{label}: rot");
    assert_eq!(a.vel, b.vel, "{label}: vel");
    assert_eq!(a.ang_vel, b.ang_vel, "{label}: angular velocity");
    assert_eq!(a.kind, b.kind, "{label}: kind");
    assert_eq!(a.shape, b.shape, "{label}: shape");
    assert_eq!(a.mass, b.mass, "{label}: mass");
    assert_eq!(a.inertia, b.inertia, "{label}: inertia");
    assert_eq!(a.linear_damping, b.linear_damping, "{label}: linear damping");
    assert_eq!(a.angular_damping, b.angular_damping, "{label}: angular damping");
    assert_eq!(a.gravity_scale, b.gravity_scale, "{label}: gravity scale");
    assert_eq!(a.planar, b.planar, "{label}: planar");
    let (j, k) = (&w.joints, &v.joints);
    assert_eq!(j.kind, k.kind, "{label}: joint kinds and parameters");
    assert_eq!(j.a, k.a, "{label}: joint a");
    assert_eq!(j.b, k.b, "{label}: joint b");
    assert_eq!(j.soft, k.soft, "{label}: soft");
    assert_eq!(j.break_force, k.break_force, "{label}: break force");
    for (n, (f, g)) in j.frames.iter().zip(&k.frames).enumerate() {
        let close = |x: Vec3, y: Vec3| x.abs_diff_eq(y, 2e-6);
        assert!(
            close(f.local_a, g.local_a) && close(f.local_b, g.local_b) && close(f.axis_a, g.axis_a),
            "{label}: joint {n} anchors or axis: {f:?} vs {g:?}"
        );
        assert!(close(f.axis_b, g.axis_b) && f.q_ref.abs_diff_eq(g.q_ref, 1e-6), "{label}: joint {n} reference");
    }
    assert_eq!(w.attachments.len(), v.attachments.len(), "{label}: attachments");
    for (x, y) in w.attachments.iter().zip(&v.attachments) {
        assert_eq!(x.particle, y.particle, "{label}: attached point");
        assert_eq!(pose(w, Some(x.body)), pose(v, Some(y.body)), "{label}: attached to the same body");
        assert!(x.local.abs_diff_eq(y.local, 2e-6), "{label}: attached at the same point");
    }
    assert_eq!(w.particles.pos, v.particles.pos, "{label}: particles");
}

#[test]
fn bodies_joints_and_attachments_round_trip_through_export() {
    let mut worlds: Vec<(String, World)> =
        PRESETS.iter().chain(&CONTACT_PRESETS).map(|&name| (name.to_string(), load(name).build().unwrap())).collect();
    worlds.push(("kitchen sink".into(), build(&kitchen_sink()).unwrap()));
    for (label, mut w) in worlds {
        for when in ["as built", "after 90 steps"] {
            let again = Scene::from_world(&w, &label, None).build().unwrap_or_else(|e| panic!("{label}: {e}"));
            assert_same(&format!("{label} {when}"), &w, &again);
            // A third pass changes nothing more: export → build is a fixed point.
            let third = Scene::from_world(&again, &label, None).build().unwrap();
            assert_same(&format!("{label} {when}, twice"), &again, &third);
            for _ in 0..90 {
                w.step(H).unwrap();
            }
        }
    }
}

#[test]
fn a_joint_exported_mid_swing_keeps_its_limits() {
    // The door opened to its 100° limit, saved and loaded: it stays there (re-anchored at
    // the open pose without the reference, it could open another 100°), and the motor still
    // pushes it against the same stop.
    let mut w = load("door").build().unwrap();
    for _ in 0..360 {
        w.step(H).unwrap();
    }
    let mut again = Scene::from_world(&w, "door", None).build().unwrap();
    for _ in 0..240 {
        again.step(H).unwrap();
    }
    let a = angle_about(again.bodies.rot[2], Vec3::Y);
    assert!((a - 1.75).abs() < 0.02, "{a}");
    // The ragdoll mid-swing: its cones are still centred where they were made.
    let mut w = load("ragdoll").build().unwrap();
    for _ in 0..45 {
        w.step(H).unwrap();
    }
    let mut v = Scene::from_world(&w, "ragdoll", None).build().unwrap();
    for _ in 0..120 {
        w.step(H).unwrap();
        v.step(H).unwrap();
    }
    let drift = w.bodies.pos.iter().zip(&v.bodies.pos).map(|(p, q)| p.distance(*q)).fold(0.0, f32::max);
    assert!(drift < 0.05, "the reloaded ragdoll moves as the original: {drift} m apart after 2 s");
}

#[test]
fn bad_bodies_joints_and_attachments_name_their_path_and_change_nothing() {
    let base = kitchen_sink();
    build(&base).unwrap();
    let mut sim = Sim::new();
    sim.load_scene_json(&base.to_string()).unwrap();
    let before = sim.export_scene_json();
    // (JSON pointer of the field to set, its value, the path the error must name.)
    let cases: Vec<(&str, Value, &str)> = vec![
        ("/bodies/1/shape/radius", json!(-0.1), "bodies[1].shape.radius"),
        ("/bodies/0/shape/half", json!([0.2, 0, 0.1]), "bodies[0].shape.half[1]"),
        // 1e39 is infinite as an f32.
        ("/bodies/1/shape/half_length", json!(1e39), "bodies[1].shape.half_length"),
        ("/bodies/1/shape/type", json!("cone"), "bodies[1].shape"),
        ("/bodies/0/mass", json!(0), "bodies[0].mass"),
        ("/bodies/0/mass", json!(-3), "bodies[0].mass"),
        // NaN from JS arrives as null (JSON.stringify).
        ("/bodies/0/pos", json!([1, null, 0]), "bodies[0].pos"),
        ("/bodies/0/vel", json!([1e39, 0, 0]), "bodies[0].vel"),
        ("/bodies/1/rot", json!([0, 0, 0, 0]), "bodies[1].rot"),
        ("/bodies/0/rot", json!([0, 0, 0, 1]), "bodies[0].angle"),
        ("/bodies/0/kind", json!("floating"), "bodies[0].kind"),
        ("/bodies/0/linear_damping", json!(-1), "bodies[0].linear_damping"),
        ("/bodies/0/gravity_scale", json!(1e6), "bodies[0].gravity_scale"),
        ("/bodies/1/planar", json!(true), "bodies[1].planar"),
        ("/bodies/2/name", json!("box"), "bodies[2].name"),
        ("/bodies/0/colour", json!("red"), "bodies[0]"),
        ("/joints/0/b", json!("nobody"), "joints[0].b"),
        ("/joints/0/b", json!("box"), "joints[0].b"),
        ("/joints/0/a", json!(-1), "joints[0].a"),
        ("/joints/5/a", Value::Null, "joints[5].b"),
        ("/joints/0/type", json!("hinje"), "joints[0].type"),
        ("/joints/0/limit", json!([1, -1]), "joints[0].limit"),
        ("/joints/0/motor/max_force", json!(-5), "joints[0].motor.max_force"),
        ("/joints/0/motor/torque", json!(5), "joints[0].motor"),
        ("/joints/0/max_length", json!(2), "joints[0].max_length"),
        ("/joints/0/axis", json!([0, 0, 0]), "joints[0].axis"),
        ("/joints/0/anchor", json!([1e6, 0, 0]), "joints[0].anchor"),
        ("/joints/0/break_force", json!(0), "joints[0].break_force"),
        ("/joints/0/ref_rotation", json!([0, 0, 0, 0]), "joints[0].ref_rotation"),
        ("/joints/1/soft/hertz", json!(0), "joints[1].soft.hertz"),
        ("/joints/1/min", json!(3), "joints[1].min"),
        ("/joints/2/max_length", Value::Null, "joints[2].max_length"),
        ("/joints/4/max_swing", json!(4), "joints[4].max_swing"),
        ("/joints/4/twist", json!([0.5, -0.5]), "joints[4].twist"),
        ("/joints/7/motor", Value::Null, "joints[7].motor"),
        ("/attachments/0/rope", json!(7), "attachments[0].rope"),
        ("/attachments/0/end", json!("middle"), "attachments[0].end"),
        ("/attachments/0/body", json!("ghost"), "attachments[0].body"),
        ("/attachments/1/point", json!(99), "attachments[1].point"),
        ("/attachments/1/end", json!("end"), "attachments[1].end"),
        // Point 1 (the rope's first) is locked; point 5 (its last) is on the box already.
        ("/attachments/1/point", json!(1), "attachments[1]"),
        ("/attachments/1/point", json!(5), "attachments[1]"),
    ];
    for (pointer, value, path) in cases {
        let mut v = base.clone();
        let (parent, key) = pointer.rsplit_once('/').unwrap();
        let slot = v.pointer_mut(parent).unwrap_or_else(|| panic!("{pointer}"));
        if value.is_null() && !matches!(key, "pos" | "a") {
            slot.as_object_mut().unwrap().remove(key);
        } else {
            slot[key] = value.clone();
        }
        let err = build(&v).err().unwrap_or_else(|| panic!("{pointer} = {value} accepted"));
        let msg = err.to_string();
        assert!(msg.contains(&format!("`{path}")), "{pointer} = {value}: {msg}");
        println!("{pointer} = {value}: {msg}");
        assert!(sim.load_scene_json(&v.to_string()).is_err());
        assert_eq!(sim.export_scene_json(), before, "{pointer}: the loaded world is untouched");
    }
}

#[test]
fn scenes_without_bodies_load_and_export_as_before() {
    for name in ["rope", "bridge", "net", "leash", "capstan"] {
        let text = std::fs::read_to_string(format!("www/scenes/{name}.json")).unwrap();
        let w = Scene::from_json(&text).unwrap().build().unwrap();
        assert!(w.bodies.is_empty() && w.joints.is_empty());
        let out = Scene::from_world(&w, name, None).to_json();
        for key in ["\"bodies\"", "\"joints\"", "\"attachments\""] {
            assert!(!out.contains(key), "{name}: export has {key}");
        }
    }
    // The first spelling of the capsule's half length is still read.
    let old = r#"{"version": 1, "settings": {"solver": "xpbd"}, "bodies": [{"shape": {"type": "capsule",
        "radius": 0.1, "halfLength": 0.3}, "pos": [0, 0, 0]}]}"#;
    let w = Scene::from_json(old).unwrap().build().unwrap();
    assert_eq!(w.bodies.shape[0], ropelab::bodies::Shape::Capsule { radius: 0.1, half_length: 0.3 });
}

#[test]
fn the_classic_solver_refuses_the_body_presets_by_name() {
    for name in PRESETS.into_iter().chain(CONTACT_PRESETS) {
        let mut s = load(name);
        s.settings.solver = SolverKind::Classic;
        let err = s.build().err().unwrap().to_string();
        assert!(err.contains("settings.solver") && err.contains("rigid bodies"), "{name}: {err}");
    }
}

/// Everything observable about a sim's world.
fn snapshot(sim: &Sim) -> String {
    format!("{}|{}|{}", sim.export_scene_json(), sim.joints_json_string(), sim.world().steps)
}

#[track_caller]
fn rejects<T: std::fmt::Debug>(sim: &mut Sim, expect: &str, op: impl FnOnce(&mut Sim) -> Result<T, SimError>) {
    let before = snapshot(sim);
    let msg = op(sim).expect_err("bad input must be rejected").to_string();
    assert!(msg.contains(expect), "{msg:?} should mention {expect:?}");
    assert_eq!(snapshot(sim), before, "a rejected call changes nothing ({msg})");
}

#[test]
fn the_body_api_refuses_bad_ids_and_numbers_and_changes_nothing() {
    let mut sim = Sim::new();
    sim.load_scene_json(&std::fs::read_to_string("www/scenes/wrecking-ball.json").unwrap()).unwrap();
    let ball = sim.world().bodies.id[0].0 as f64;
    for bad in [f64::NAN, f64::INFINITY, -1.0, 0.5, 1e10, 12345.0] {
        rejects(&mut sim, "", |s| s.remove_body_checked(bad));
        rejects(&mut sim, "", |s| s.remove_joint_checked(bad));
        rejects(&mut sim, "", |s| s.attach_checked(3.0, bad));
        rejects(&mut sim, "point", |s| s.attach_checked(bad, ball));
        rejects(&mut sim, "point", |s| s.detach_checked(bad));
        rejects(&mut sim, "", |s| s.grab_body_checked(1.0, bad, 3.0, 4.5));
    }
    for bad in [f64::NAN, f64::INFINITY, 0.5, 2e10, -3e9] {
        rejects(&mut sim, "pointer", |s| s.grab_body_checked(bad, ball, 3.0, 4.5));
        rejects(&mut sim, "pointer", |s| s.drag_body_checked(bad, 3.0, 4.5));
        rejects(&mut sim, "pointer", |s| s.release_body_checked(bad));
    }
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        rejects(&mut sim, "x", |s| s.pick_body_checked(bad, 0.0, None));
        rejects(&mut sim, "y", |s| s.grab_body_checked(1.0, ball, 3.0, bad));
        rejects(&mut sim, "alpha", |s| s.refill_body_poses(bad));
        rejects(&mut sim, "margin", |s| s.pick_body_checked(0.0, 0.0, Some(bad)));
    }
    rejects(&mut sim, "alpha", |s| s.refill_body_poses(1.5));
    rejects(&mut sim, "margin", |s| s.pick_body_checked(0.0, 0.0, Some(-1.0)));
    rejects(&mut sim, "holds no body", |s| s.drag_body_checked(9.0, 1.0, 1.0));
    rejects(&mut sim, "not attached", |s| s.detach_checked(2.0));
    rejects(&mut sim, "already attached", |s| s.attach_checked(19.0, ball));
    rejects(&mut sim, "locked", |s| s.attach_checked(0.0, ball));
    // Bodies and joints as JSON: errors name the field.
    for (json, expect) in [
        (r#"{"shape": {"type": "sphere", "radius": 0.1}, "mass": 0, "pos": [0, 0, 0]}"#, "body.mass"),
        (
            r#"{"shape": {"type": "capsule", "radius": 0.1, "half_length": -1}, "pos": [0, 0, 0]}"#,
            "body.shape.half_length",
        ),
        (r#"{"shape": {"type": "sphere", "radius": 0.1}, "pos": [0, null, 0]}"#, "body.pos"),
        (r#"{"shape": {"type": "sphere", "radius": 0.1}, "pos": [0, 0, 0], "colour": 1}"#, "colour"),
        ("[]", "body"),
    ] {
        rejects(&mut sim, expect, |s| s.add_body_json(json));
    }
    for (json, expect) in [
        (format!(r#"{{"type": "hinge", "a": {ball}, "b": {ball}, "anchor": [0, 0, 0]}}"#), "joint.b"),
        (r#"{"type": "hinge", "a": null, "b": 99999, "anchor": [0, 0, 0]}"#.to_string(), "joint.b"),
        (format!(r#"{{"type": "hinge", "b": {ball}, "anchor": [0, 0, 0], "limit": [2, 1]}}"#), "joint.limit"),
        (format!(r#"{{"type": "rope", "b": {ball}, "anchor": [0, 0, 0]}}"#), "joint.max_length"),
        (format!(r#"{{"type": "hinge", "b": {ball}, "anchor": [0, 0, 0], "axis": [0, 0, 0]}}"#), "joint.axis"),
        (r#"{"type": "hinge", "b": "ball", "anchor": [0, 0, 0]}"#.to_string(), "no body named"),
    ] {
        rejects(&mut sim, expect, |s| s.add_joint_json(&json));
    }
    // A drag on a static body is refused; the classic solver refuses bodies.
    let post = sim.add_body_json(r#"{"kind": "static", "shape": {"type": "sphere", "radius": 0.1}, "pos": [0, 6, 0]}"#);
    let post = post.unwrap().0 as f64;
    rejects(&mut sim, "only a dynamic body", |s| s.grab_body_checked(1.0, post, 0.0, 6.0));
    let mut classic = Sim::new();
    assert_eq!(classic.world().settings.solver, SolverKind::Classic);
    rejects(&mut classic, "classic", |s| {
        s.add_body_json(r#"{"shape": {"type": "sphere", "radius": 0.1}, "pos": [0, 0, 0]}"#)
    });
}

#[test]
fn the_body_api_adds_attaches_drags_and_removes() {
    let mut sim = Sim::new();
    sim.load_scene_json(&std::fs::read_to_string("www/scenes/wrecking-ball.json").unwrap()).unwrap();
    let n = sim.world().particles.len() as f64;
    let crate_id = sim.add_body_json(
        r#"{"shape": {"type": "box", "half": [0.2, 0.2, 0.2]}, "mass": 20, "pos": [0, 1, 0], "planar": true}"#,
    );
    let crate_id = crate_id.unwrap().0 as f64;
    let hinge = sim
        .add_joint_json(&format!(r#"{{"type": "hinge", "a": null, "b": {crate_id}, "anchor": [0, 1.2, 0], "limit": [-0.5, 0.5],
            "motor": {{"speed": 0, "max_force": 10}}, "soft": {{"hertz": 30, "damping_ratio": 1}}, "break_force": 1e4}}"#))
        .unwrap()
        .0 as f64;
    // The info the page draws.
    let bodies: Value = serde_json::from_str(&sim.bodies_json_string()).unwrap();
    let c = &bodies[1];
    assert_eq!(
        (c["id"].as_f64(), &c["kind"], &c["mass"], &c["planar"]),
        (Some(crate_id), &json!("dynamic"), &json!(20.0), &json!(true))
    );
    assert_eq!((&c["shape"]["type"], c["shape"]["half"].as_array().map(Vec::len)), (&json!("box"), Some(3)));
    assert_eq!(bodies[0]["shape"], json!({"type": "sphere", "radius": 0.25}));
    assert_eq!(c.as_object().unwrap().len(), 5, "{c}");
    let joints: Value = serde_json::from_str(&sim.joints_json_string()).unwrap();
    let j = &joints[0];
    assert_eq!(
        (j["id"].as_f64(), j["type"].as_str(), &j["a"], j["b"].as_f64()),
        (Some(hinge), Some("hinge"), &Value::Null, Some(crate_id))
    );
    let v3 = |v: &Value| {
        Vec3::from_slice(&v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect::<Vec<_>>())
    };
    assert_eq!(
        (v3(&j["anchorA"]), v3(&j["anchorB"]), v3(&j["axis"])),
        (Vec3::new(0.0, 1.2, 0.0), Vec3::new(0.0, 1.2, 0.0), Vec3::Z)
    );
    assert_eq!(
        (&j["limit"], &j["motor"], &j["soft"]),
        (&json!([-0.5, 0.5]), &json!({"speed": 0.0, "maxForce": 10.0}), &json!({"hertz": 30.0, "dampingRatio": 1.0}))
    );
    assert_eq!((&j["breakForce"], &j["mouse"], &j["angle"]), (&json!(10000.0), &json!(false), &json!(0.0)));
    // A new point attached to the crate where it lies, then freed.
    sim.world_mut()
        .add_particle(&ropelab::ParticleDef { pos: Vec3::new(0.2, 1.2, 0.0), ..Default::default() })
        .unwrap();
    sim.attach_checked(n, crate_id).unwrap();
    for _ in 0..30 {
        sim.world_mut().step(H).unwrap();
    }
    let joints: Value = serde_json::from_str(&sim.joints_json_string()).unwrap();
    let f = v3(&joints[0]["force"]);
    assert!((f.length() - 20.0 * 9.81).abs() < 2.0, "the hinge holds the crate up: {f}");
    sim.detach_checked(n).unwrap();
    // Drag the crate by a pointer; a second grab by the same pointer replaces the first.
    assert_eq!(sim.pick_body_checked(0.1, 0.9, None).unwrap(), crate_id);
    assert_eq!(sim.pick_body_checked(0.1, 0.5, None).unwrap(), -1.0);
    sim.grab_body_checked(-1.0, crate_id, 0.1, 0.9).unwrap();
    sim.grab_body_checked(-1.0, crate_id, 0.1, 0.9).unwrap();
    sim.drag_body_checked(-1.0, 0.3, 0.9).unwrap();
    assert_eq!(sim.world().joints.len(), 2, "one hinge, one mouse joint");
    // Removing the crate removes its joints, the drag too; the pointer then holds nothing.
    sim.remove_body_checked(crate_id).unwrap();
    assert_eq!(sim.world().joints.len(), 0);
    assert!(sim.drag_body_checked(-1.0, 0.3, 0.9).is_err());
    assert!(!sim.release_body_checked(-1.0).unwrap());
    assert!(sim.remove_joint_checked(hinge).is_err(), "gone with its body");
    // The pose buffer: 7 floats per body, interpolated between the step's ends.
    sim.world_mut().step(H).unwrap();
    sim.refill_body_poses(0.0).unwrap();
    let start = sim.body_poses().to_vec();
    sim.refill_body_poses(1.0).unwrap();
    let end = sim.body_poses().to_vec();
    assert_eq!(start.len(), 7);
    let b = sim.world().bodies.clone();
    assert!(Vec3::from_slice(&start[..3]).abs_diff_eq(b.prev_pos[0], 1e-5));
    assert!(Vec3::from_slice(&end[..3]).abs_diff_eq(b.pos[0], 1e-5));
    let q = Quat::from_slice(&end[3..]);
    assert!(q.dot(b.rot[0]).abs() > 1.0 - 1e-6);
    sim.refill_body_poses(0.5).unwrap();
    let mid = Vec3::from_slice(&sim.body_poses()[..3]);
    assert!(mid.abs_diff_eq((b.prev_pos[0] + b.pos[0]) / 2.0, 1e-3), "halfway");
}

/// The crane's winch (a scene file's `winches`): it reels the hook in at its speed, pays it
/// out, survives export → load with its range, bad winch fields name their path, and
/// `setWinchSpeed` refuses bad numbers and indices without changing anything.
#[test]
fn the_crane_winch_reels_the_hook_in_and_out_and_round_trips() {
    let mut sim = Sim::new();
    sim.load_scene_json(&std::fs::read_to_string("www/scenes/crane.json").unwrap()).unwrap();
    let winches: Value = serde_json::from_str(&sim.winches_json_string()).unwrap();
    assert_eq!(winches.as_array().unwrap().len(), 1);
    let len0 = winches[0]["length"].as_f64().unwrap();
    assert!((len0 - 2.0).abs() < 1e-4, "the crane's rope is 2 m: {len0}");
    let hook_y = |sim: &Sim| sim.world().bodies.pos[2].y;
    for _ in 0..60 {
        sim.world_mut().step(H).unwrap();
    }
    let y0 = hook_y(&sim);
    // Reel in at 0.3 m/s for 2 s: the rope shortens by 0.6 m and the hook rises by about as
    // much (it swings, so its height is compared after the swing's own motion settles less
    // than the lift: ±0.1 m).
    sim.set_winch_speed_checked(0.0, -0.3).unwrap();
    for _ in 0..120 {
        sim.world_mut().step(H).unwrap();
    }
    let len1: f64 = serde_json::from_str::<Value>(&sim.winches_json_string()).unwrap()[0]["length"].as_f64().unwrap();
    assert!((len0 - len1 - 0.6).abs() < 0.6 * 0.02, "reeled in 0.6 m within 2 %: {}", len0 - len1);
    let lift = hook_y(&sim) - y0;
    assert!((lift - 0.6).abs() < 0.1, "the hook rose {lift} m");
    // Saved mid-reel, the winch comes back with its speed and the range it measures from.
    let text = sim.export_scene_json();
    let back = Scene::from_json(&text).unwrap().build().unwrap();
    assert_eq!(back.winches.len(), 1);
    assert_eq!(back.winches[0].speed, -0.3);
    assert_eq!(back.winches[0].seg0, sim.world().winches[0].seg0);
    assert_eq!(back.winches[0].max_force, 1500.0);
    // Pay out again.
    sim.set_winch_speed_checked(0.0, 0.5).unwrap();
    for _ in 0..60 {
        sim.world_mut().step(H).unwrap();
    }
    let len2: f64 = serde_json::from_str::<Value>(&sim.winches_json_string()).unwrap()[0]["length"].as_f64().unwrap();
    assert!((len2 - len1 - 0.5).abs() < 0.5 * 0.02, "paid out 0.5 m within 2 %: {}", len2 - len1);

    // Bad winch fields in a scene name their path and build nothing.
    let base: Value = serde_json::from_str(&std::fs::read_to_string("www/scenes/crane.json").unwrap()).unwrap();
    for (ptr, v, path) in [
        ("/winches/0/rope", json!(3), "winches[0].rope"),
        ("/winches/0/speed", json!(1e3), "winches[0].speed"),
        ("/winches/0/speed", Value::Null, "winches[0].speed"),
        ("/winches/0/max_force", json!(-1), "winches[0].max_force"),
        ("/winches/0/link_rest", json!(0), "winches[0].link_rest"),
        ("/winches/0/drum", json!(1), "winches[0]"),
    ] {
        let mut bad = base.clone();
        let (parent, key) = ptr.rsplit_once('/').unwrap();
        bad.pointer_mut(parent).unwrap().as_object_mut().unwrap().insert(key.to_string(), v);
        let before = snapshot(&sim);
        let msg = sim.load_scene_json(&bad.to_string()).expect_err(ptr).to_string();
        assert!(msg.contains(path), "{ptr}: {msg:?} should name {path}");
        assert_eq!(snapshot(&sim), before, "{ptr}: a refused scene changes nothing");
    }
    for bad in [f64::NAN, f64::INFINITY, 1e3, -101.0] {
        rejects(&mut sim, "winch speed", |s| s.set_winch_speed_checked(0.0, bad));
    }
    for bad in [f64::NAN, -1.0, 1.0, 0.5] {
        rejects(&mut sim, "winch", |s| s.set_winch_speed_checked(bad, 0.1));
    }
}
