//! Scene files with obstacles, pins, tear forces and the new solver settings: they load,
//! round-trip through `Scene::from_world`, and a bad one is rejected with the JSON path of
//! the fault while the current world stays exactly as it was.

use ropelab::scene::Scene;
use ropelab::{Sim, SimError, SolverKind};

const GOOD: &str = r#"{
  "version": 1,
  "name": "obstacle course",
  "settings": { "solver": "xpbd", "substeps": 4, "iterations": 2, "damping": 0.5, "omega": 1.4,
                "tethers": true, "bending": true, "bending_compliance": 0.02, "wall_friction": 0.4,
                "drag_compliance": 0.001 },
  "ropes": [ { "from": [-1, 2, 0], "to": [1, 2, 0], "points": 11, "lock_start": true, "tear_force": 500 } ],
  "links": [],
  "obstacles": [
    { "shape": { "type": "plane", "point": [0, 0, 0], "normal": [0, 2, 0] }, "friction": 0.8 },
    { "shape": { "type": "circle", "center": [0, 1, 0], "radius": 0.3 }, "restitution": 0.5 },
    { "shape": { "type": "capsule", "a": [-1, 0.5, 0], "b": [1, 0.5, 0], "radius": 0.1 }, "dynamic_friction": 0.2 },
    { "shape": { "type": "box", "center": [2, 1, 0], "half": [0.5, 0.2, 1], "angle": 0.3 } }
  ],
  "pins": [ { "point": 10, "target": [1.2, 2.1, 0], "compliance": 0.001 }, { "point": 5 } ]
}"#;

#[test]
fn obstacles_and_pins_load_and_round_trip() {
    let scene = Scene::from_json(GOOD).unwrap();
    let mut w = scene.build().unwrap();
    assert_eq!(w.settings.solver, SolverKind::Xpbd);
    assert_eq!(w.obstacles.len(), 4);
    assert!(w.particles.is_pinned(10) && w.particles.is_pinned(5) && !w.particles.is_pinned(4));
    assert_eq!(w.links.tear_force[3], 500.0);
    for _ in 0..30 {
        w.step(1.0 / 60.0).unwrap();
    }
    // Export, re-import, export again: the same scene.
    let once = Scene::from_world(&w, "obstacle course", None).to_json();
    let rebuilt = Scene::from_json(&once).unwrap().build().unwrap();
    let twice = Scene::from_world(&rebuilt, "obstacle course", None).to_json();
    assert_eq!(once, twice);
    assert_eq!(rebuilt.obstacles, w.obstacles);
    assert_eq!(rebuilt.particles.pin_compliance, w.particles.pin_compliance);
    for i in [5, 10] {
        assert_eq!(rebuilt.particles.pin_target[i], w.particles.pin_target[i]);
    }
    // The plane's normal was normalised on load.
    assert!(once.contains("\"normal\": [\n"), "{once}");
}

/// Each bad scene names the path of its fault; loading it through `Sim` keeps the world.
#[test]
fn bad_scenes_name_the_path_and_change_nothing() {
    let cases = [
        (
            r#"{"version": 1, "obstacles": [{"shape": {"type": "circle", "center": [0, 0, 0], "radius": -1}}]}"#,
            "obstacles[0].shape.radius",
        ),
        (
            r#"{"version": 1, "obstacles": [{"shape": {"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 0]}}]}"#,
            "obstacles[0].shape.normal",
        ),
        (
            r#"{"version": 1, "obstacles": [{"shape": {"type": "box", "center": [0, 0, 0], "half": [1, 1, 1]}, "friction": -0.1}]}"#,
            "obstacles[0].friction",
        ),
        (
            r#"{"version": 1, "obstacles": [{"shape": {"type": "circle", "center": [0, 0, 0], "radius": 1}, "restitution": 2}]}"#,
            "obstacles[0].restitution",
        ),
        (
            r#"{"version": 1, "obstacles": [{"shape": {"type": "circle", "center": [0, 0, 0], "radius": 1}, "stickiness": 2}]}"#,
            "obstacles[0].stickiness",
        ),
        (r#"{"version": 1, "obstacles": [{"shape": {"type": "triangle"}}]}"#, "obstacles[0].shape.type"),
        (r#"{"version": 1, "particles": [{"pos": [0, 0, 0]}], "pins": [{"point": 3}]}"#, "pins[0].point"),
        (
            r#"{"version": 1, "particles": [{"pos": [0, 0, 0]}], "pins": [{"point": 0, "compliance": -1}]}"#,
            "pins[0].compliance",
        ),
        (r#"{"version": 1, "settings": {"omega": 2.5}}"#, "settings.omega"),
        (r#"{"version": 1, "settings": {"damping": -1}}"#, "settings.damping"),
        (r#"{"version": 1, "settings": {"solver": "verlet"}}"#, "settings.solver"),
        (
            r#"{"version": 1, "ropes": [{"from": [0, 0, 0], "to": [1, 0, 0], "points": 3, "tear_force": 0}]}"#,
            "ropes[0].tear_force",
        ),
        (
            r#"{"version": 1, "particles": [{"pos": [0, 0, 0]}, {"pos": [1, 0, 0]}], "links": [{"a": 0, "b": 1, "tear_force": -5}]}"#,
            "links[0].tear_force",
        ),
    ];
    let mut sim = Sim::default();
    sim.load_scene_json(GOOD).unwrap();
    sim.world_mut().step(1.0 / 60.0).unwrap();
    let before = sim.export_scene_json();
    for (json, path) in cases {
        let err = sim.load_scene_json(json).unwrap_err();
        match &err {
            SimError::Scene { path: p, .. } => assert_eq!(p, path, "{json}: {err}"),
            other => panic!("{json}: not a scene error: {other}"),
        }
        assert_eq!(sim.export_scene_json(), before, "a rejected scene changed the world");
    }
}

/// The JS-facing setters validate: NaN, infinities and out-of-range values are refused
/// and leave the settings unchanged.
#[test]
fn solver_setting_setters_validate() {
    let mut sim = Sim::default();
    let s0 = sim.world().settings.clone();
    assert!(sim.set_damping_checked(f32::NAN).is_err());
    assert!(sim.set_damping_checked(-1.0).is_err());
    assert!(sim.set_omega_checked(2.0).is_err());
    assert!(sim.set_omega_checked(0.0).is_err());
    assert!(sim.set_omega_checked(f32::INFINITY).is_err());
    assert!(sim.set_bending_compliance_checked(-1e-3).is_err());
    assert!(sim.set_wall_friction_checked(f32::NAN).is_err());
    assert!(sim.set_restitution_checked(1.5).is_err());
    assert!(sim.set_drag_compliance_checked(-1.0).is_err());
    assert!(sim.add_obstacle_json(r#"{"shape": {"type": "circle", "center": [0, 0, 0], "radius": 0}}"#).is_err());
    assert!(sim.add_obstacle_json("not json").is_err());
    assert!(sim.pin_checked(0, 0.0, 0.0, 0.0).is_err(), "no point 0 yet");
    assert_eq!(sim.world().settings, s0);
    assert!(sim.world().obstacles.is_empty());
    sim.set_omega_checked(1.2).unwrap();
    sim.set_damping_checked(0.5).unwrap();
    sim.add_obstacle_json(r#"{"shape": {"type": "box", "center": [0, 0, 0], "half": [1, 1, 1]}}"#).unwrap();
    assert_eq!(sim.world().settings.omega, 1.2);
    assert_eq!(sim.world().obstacles.len(), 1);
    assert!(sim.obstacles_json().contains("\"box\""));
}
