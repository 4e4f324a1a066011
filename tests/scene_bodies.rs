//! Bodies, joints and attachments in scene files: the presets load and play, the format
//! round-trips, and bad input names its JSON path and builds nothing.

use ropelab::scene::Scene;
use ropelab::SolverKind;

const PRESETS: [&str; 5] = ["wrecking-ball", "hinge-chain", "door", "ragdoll", "crane"];

fn load(name: &str) -> Scene {
    let text = std::fs::read_to_string(format!("www/scenes/{name}.json")).unwrap();
    Scene::from_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn the_body_presets_load_and_play_600_steps() {
    for name in PRESETS {
        let mut w = load(name).build().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!w.bodies.is_empty(), "{name}");
        for _ in 0..600 {
            w.step(1.0 / 60.0).unwrap();
        }
        assert!(w.bodies.pos.iter().all(|p| p.is_finite()), "{name}: non-finite body");
        assert!(w.particles.pos.iter().all(|p| p.is_finite()), "{name}: non-finite particle");
        // Joints hold: every joint's anchors within 2 cm of each other (not for distance
        // or rope joints, which keep a length).
        for k in 0..w.joints.len() {
            if matches!(w.joints.kind[k], ropelab::joints::JointKind::Prismatic { .. }) {
                continue; // its anchors part along the slide
            }
            let f = &w.joints.frames[k];
            let pose = |id: Option<ropelab::ids::Id>| {
                id.map_or((glam::Vec3::ZERO, glam::Quat::IDENTITY), |id| {
                    let i = w.bodies.index(id).unwrap();
                    (w.bodies.pos[i], w.bodies.rot[i])
                })
            };
            let (xa, qa) = pose(w.joints.a[k]);
            let (xb, qb) = pose(w.joints.b[k]);
            let gap = (xa + qa * f.local_a).distance(xb + qb * f.local_b);
            assert!(gap < 0.02, "{name}: joint {k} opened {gap:.3} m");
        }
        println!("{name}: {} bodies, {} joints, max stretch {:.3}", w.bodies.len(), w.joints.len(), w.max_stretch());
    }
}

#[test]
fn the_door_motor_lifts_the_flap_to_its_limit() {
    let mut w = load("door").build().unwrap();
    for _ in 0..300 {
        w.step(1.0 / 60.0).unwrap();
    }
    let flap = w.bodies.index(w.bodies.id[1]).unwrap();
    let angle = w.bodies.rot[flap].to_axis_angle();
    let a = angle.0.z.signum() * angle.1;
    assert!((a - 1.4).abs() < 0.05, "the flap stops at the 1.4 rad limit: {a}");
}

#[test]
fn bodies_joints_and_attachments_round_trip_through_export() {
    for name in PRESETS {
        let w = load(name).build().unwrap();
        let again = Scene::from_world(&w, name, None).build().unwrap();
        assert_eq!(w.bodies.pos, again.bodies.pos, "{name}");
        assert_eq!(w.bodies.rot, again.bodies.rot, "{name}");
        assert_eq!(w.bodies.mass, again.bodies.mass, "{name}");
        assert_eq!(w.joints.kind, again.joints.kind, "{name}");
        assert_eq!(w.attachments, again.attachments, "{name}");
        assert_eq!(w.particles.pos, again.particles.pos, "{name}");
    }
}

#[test]
fn bad_bodies_and_joints_name_their_path_and_build_nothing() {
    let base = std::fs::read_to_string("www/scenes/hinge-chain.json").unwrap();
    let cases = [
        (r#""mass": 1, "pos": [-1.35"#, r#""mass": 0, "pos": [-1.35"#, "bodies[0]"),
        (
            r#""half": [0.15, 0.03, 0.03]}, "mass": 1, "pos": [-1.05"#,
            r#""half": [0.15, 0, 0.03]}, "mass": 1, "pos": [-1.05"#,
            "bodies[1]",
        ),
        (r#""a": "l0", "b": "l1""#, r#""a": "l0", "b": "nobody""#, "joints[1].b"),
        (r#""a": "l1", "b": "l2""#, r#""a": "l2", "b": "l2""#, "joints[2]"),
        (r#""type": "hinge", "a": "l2""#, r#""type": "hinje", "a": "l2""#, "joints[3].type"),
        (r#""anchor": [-0.3, 4, 0]"#, r#""anchor": [-0.3, 4, 0], "limit": [1, -1]"#, "joints[4].limit"),
    ];
    for (from, to, path) in cases {
        assert!(base.contains(from), "{from}");
        let text = base.replacen(from, to, 1);
        let err = Scene::from_json(&text).and_then(|s| s.build()).err().unwrap_or_else(|| panic!("{to} accepted"));
        assert!(err.to_string().contains(path), "{to}: {err}");
    }
    // A NaN cannot be written in JSON; an unknown field is named.
    let text = base.replacen(r#""planar": true"#, r#""planar": true, "colour": 3"#, 1);
    let err = Scene::from_json(&text).err().unwrap().to_string();
    assert!(err.contains("bodies[0]") && err.contains("colour"), "{err}");
}

#[test]
fn the_classic_solver_refuses_the_body_presets_by_name() {
    let mut s = load("wrecking-ball");
    s.settings.solver = SolverKind::Classic;
    let err = s.build().err().unwrap().to_string();
    assert!(err.contains("settings.solver") && err.contains("rigid bodies"), "{err}");
}
