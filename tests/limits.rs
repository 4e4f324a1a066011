//! Limits that protect the page (issue 13 §4): every count has a cap and beyond it a clear
//! error, and a step the world cannot afford is refused. That one step at the caps stays under
//! `limits::MAX_STEP_MS` is a time, so `benches/limits.rs` measures it (`make bench`, `make
//! fuzz`; the table of docs/benchmarks.md, "Steps at the caps").

use ropelab::limits::{self, Load, MAX_WORK};
use ropelab::Sim;
use serde_json::json;

#[path = "common/limit_scenes.rs"]
mod limit_scenes;
use limit_scenes::{max_iterations, pile_scene};
#[test]
fn counts_past_their_caps_are_clear_errors() {
    let mut sim = Sim::new();
    sim.load_scene_json(include_str!("../www/scenes/rope.json")).unwrap();
    let before = sim.export_scene_json();
    let cases = [
        (
            json!({"version": 1, "ropes": [{"from": [0, 0, 0], "to": [1, 0, 0], "points": 1_000_000}]}),
            "ropes[0].points",
        ),
        (
            json!({"version": 1, "grids": [{"origin": [0, 0, 0], "cols": 1000, "rows": 1000, "spacing": 0.01}]}),
            "grids[0].cols",
        ),
        (
            json!({"version": 1, "ropes": [{"from": [0, 0, 0], "to": [1, 0, 0], "points": 15000},
                                           {"from": [0, 1, 0], "to": [1, 1, 0], "points": 15000}]}),
            "particles",
        ),
        (
            json!({"version": 1, "settings": {"iterations": 1000, "substeps": 1000},
                   "ropes": [{"from": [0, 0, 0], "to": [1, 0, 0], "points": 100}]}),
            "settings",
        ),
    ];
    for (scene, path) in cases {
        let err = sim.load_scene_json(&scene.to_string()).unwrap_err().to_string();
        assert!(err.starts_with(&format!("scene error at `{path}`")), "{err}");
        assert_eq!(sim.export_scene_json(), before, "{err}");
    }
    // A 50 MB file: refused before parsing, by its size.
    let big = format!("{{\"version\": 1, \"name\": \"{}\"}}", "x".repeat(50 << 20));
    let err = sim.load_scene_json(&big).unwrap_err().to_string();
    assert!(err.contains("MB") && err.contains("(root)"), "{err}");
    // Deep nesting (100,000 levels): the typed parse stops at the first level that is not
    // what the field takes, with its path; where JSON is parsed untyped (a settings patch),
    // serde_json's recursion limit (128) stops it. No stack overflow either way.
    let deep = |inner: &str| format!("{}{inner}{}", "[".repeat(100_000), "]".repeat(100_000));
    let err = sim.load_scene_json(&format!("{{\"version\": 1, \"name\": {}}}", deep("1"))).unwrap_err().to_string();
    assert!(err.starts_with("scene error at `name`"), "{err}");
    let err = sim
        .load_scene_json(&format!("{{\"version\": 1, \"obstacles\": [{{\"shape\": {}}}]}}", deep("1")))
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("scene error at `obstacles[0].shape"), "{err}");
    let err = sim.set_settings_json(&format!("{{\"gravity\": {}}}", deep("1"))).unwrap_err().to_string();
    assert!(err.contains("recursion limit"), "{err}");
    assert_eq!(sim.export_scene_json(), before);
    // The settings: iterations × substeps past the budget for this world.
    let err =
        sim.set_substeps_checked(1000.0).and_then(|_| sim.set_iterations_checked(1000.0)).unwrap_err().to_string();
    assert!(err.contains("too much work per step"), "{err}");
    // Edits past the caps.
    let mut sim = Sim::new();
    let rope = json!({"version": 1, "ropes": [{"from": [0, 0, 0], "to": [100, 0, 0], "points": limits::MAX_POINTS}]});
    sim.load_scene_json(&rope.to_string()).unwrap();
    let before = sim.export_scene_json();
    assert!(sim.world_mut().add_point(0.0, 1.0, false).unwrap_err().to_string().contains("too many points"));
    assert!(sim.subdivide_checked(0.0, 1.0).unwrap_err().to_string().contains("too many points"));
    assert_eq!(sim.export_scene_json(), before);
    // Catch-up steps per `advance`.
    assert!(sim.set_fixed_step_checked(1.0 / 60.0, 11.0).is_err());
    // A huge dt is refused, not run.
    for dt in [1.5, 1e9, f32::MAX] {
        assert!(sim.world_mut().step(dt).unwrap_err().to_string().contains("dt"));
    }
}

/// A 1 s step of the pile at the caps: a step longer than 1/60 s runs its substeps at the
/// 60 Hz length, which this pile cannot afford, so it is refused, changing nothing; a 1/30 s
/// step of half the pile with the iterations that afford two frames' substeps runs them. (The
/// time those steps take is `benches/limits.rs`'s.)
#[test]
fn a_step_the_pile_at_the_caps_cannot_afford_is_refused() {
    let b = limits::MAX_3D_BODIES;
    let load = Load { bodies: b, substeps: 4, ..Default::default() };
    let it = max_iterations(load, 4);
    let mut sim = Sim::new();
    sim.load_scene_json(&pile_scene(b, 4, it, false).to_string()).unwrap();
    assert!(limits::work(&sim.world().load()) <= MAX_WORK);
    let before = sim.world().particles.pos.clone();
    let err = sim.world_mut().step(1.0).unwrap_err().to_string();
    assert!(err.contains("too long for this scene") && err.contains("advance()"), "{err}");
    assert_eq!(sim.world().particles.pos, before);
    assert_eq!(sim.world().time, 0.0, "a refused step changed nothing");
    // Half the pile, at the most iterations that afford two frames (a quarter of the budget
    // each).
    let load = Load { bodies: b / 2, ..load };
    let it = (1..=it)
        .rev()
        .find(|&k| 2 * limits::work(&Load { iterations: k, ..load }) <= limits::MAX_WORK / 2)
        .expect("half the pile affords two frames");
    let mut sim = Sim::new();
    sim.load_scene_json(&pile_scene(b / 2, 4, it, false).to_string()).unwrap();
    assert_eq!(sim.world().frames_in(1.0 / 30.0), Ok(2));
    assert!(2 * limits::work(&sim.world().load()) <= limits::MAX_WORK / 2);
}

/// Box2D's large pyramid (W7: 5,050 planar boxes and the ground) is a scene the page can
/// load, under the impulse solver at 4 substeps; 3D bodies stay capped at
/// `limits::MAX_3D_BODIES` (their contacts cost several times a planar body's), by a scene file
/// and by an edit, with an error that says which.
#[test]
fn large_planar_piles_load_and_3d_bodies_keep_their_cap() {
    let boxes = |n: usize, planar: bool| -> Vec<serde_json::Value> {
        (0..n)
            .map(|k| {
                // (past the pyramid's 5,050: rows above it)
                let c = match k {
                    0..5050 => ropelab::workloads::pyramid_box_centre(100, k),
                    _ => glam::Vec3::new((k % 100) as f32 * 1.5 - 75.0, 150.0 + (k / 100) as f32 * 1.5, 0.0),
                };
                json!({"shape": {"type": "box", "half": [0.5, 0.5, 0.5]}, "pos": [c.x, c.y, 0], "planar": planar})
            })
            .collect()
    };
    let scene = |bodies: Vec<serde_json::Value>| {
        let mut all =
            vec![json!({"kind": "static", "shape": {"type": "box", "half": [100, 1, 40]}, "pos": [0, -1, 0]})];
        all.extend(bodies);
        json!({"version": 1, "settings": {"solver": "impulse", "substeps": 4, "iterations": 1}, "bodies": all})
            .to_string()
    };
    let mut sim = Sim::new();
    sim.load_scene_json(&scene(boxes(5050, true))).unwrap();
    assert_eq!(sim.world().bodies.len(), 5051);
    assert!(limits::work(&sim.world().load()) <= MAX_WORK);
    sim.world_mut().step(1.0 / 60.0).unwrap();
    // The same count of 3D boxes: refused by the 3D cap, naming it.
    let before = sim.export_scene_json();
    let err = sim.load_scene_json(&scene(boxes(1001, false))).unwrap_err().to_string();
    assert!(err.starts_with("scene error at `bodies`") && err.contains("free in 3D"), "{err}");
    assert_eq!(sim.export_scene_json(), before);
    // Past the planar cap.
    let err = sim.load_scene_json(&scene(boxes(limits::MAX_BODIES, true))).unwrap_err().to_string();
    assert!(err.starts_with("scene error at `bodies`"), "{err}");
    // Edits: a 1,000th 3D body is refused where a planar one is not.
    let mut sim = Sim::new();
    sim.load_scene_json(&scene(boxes(limits::MAX_3D_BODIES - 1, false))).unwrap();
    let def = |planar: bool| ropelab::bodies::BodyDef {
        shape: ropelab::bodies::Shape::Box { half: glam::Vec3::splat(0.5) },
        pos: glam::Vec3::new(0.0, 200.0, 0.0),
        planar,
        ..Default::default()
    };
    let err = sim.world_mut().add_body(&def(false)).unwrap_err().to_string();
    assert!(err.contains("too many 3D bodies"), "{err}");
    sim.world_mut().add_body(&def(true)).unwrap();
}
