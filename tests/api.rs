//! Every entry point of the JS surface validates its input: bad input gives a clear error
//! and changes nothing. (These call the plain Rust side of `Sim`, which the
//! `#[wasm_bindgen]` methods wrap one-to-one; `tests/web.rs` checks the JS side in Chromium.)

use glam::Vec3;
use ropelab::{ParticleDef, Sim, SimError};

fn rope_sim() -> Sim {
    let mut sim = Sim::new();
    sim.load_scene_json(include_str!("../www/scenes/rope.json")).unwrap();
    for _ in 0..10 {
        sim.world_mut().step(1.0 / 60.0).unwrap();
    }
    sim.world_mut().grab(1, 5).unwrap();
    sim
}

/// Everything observable about the world.
fn snapshot(sim: &Sim) -> String {
    let w = sim.world();
    format!("{}|{:?}|{}|{}", sim.export_scene_json(), w.holds, w.time, w.steps)
}

#[track_caller]
fn rejects<T: std::fmt::Debug>(
    sim: &mut Sim,
    expect_in_message: &str,
    op: impl FnOnce(&mut Sim) -> Result<T, SimError>,
) {
    let before = snapshot(sim);
    let err = op(sim).expect_err("bad input must be rejected");
    let msg = err.to_string();
    assert!(msg.contains(expect_in_message), "message {msg:?} should mention {expect_in_message:?}");
    assert_eq!(snapshot(sim), before, "a rejected call must leave the world unchanged ({msg})");
}

#[test]
fn step_rejects_bad_dt() {
    let mut sim = rope_sim();
    for dt in [0.0, -1.0 / 60.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 5.0] {
        rejects(&mut sim, "dt", |s| s.world_mut().step(dt));
    }
    rejects(&mut sim, "dt", |s| s.set_fixed_step_checked(f32::NAN, 5.0));
    rejects(&mut sim, "max steps", |s| s.set_fixed_step_checked(1.0 / 60.0, 0.0));
}

#[test]
fn coordinates_must_be_finite() {
    let mut sim = rope_sim();
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        rejects(&mut sim, "x", |s| s.world().pick(bad, 0.0, 0.1));
        rejects(&mut sim, "y", |s| s.world().pick(0.0, bad, 0.1));
        rejects(&mut sim, "radius", |s| s.world().pick(0.0, 0.0, bad));
        rejects(&mut sim, "x", |s| s.world_mut().drag_to(1, bad, 0.0));
        rejects(&mut sim, "y", |s| s.world_mut().add_point(0.0, bad, false));
        rejects(&mut sim, "x", |s| s.world_mut().cut(bad, 0.0, 1.0, 1.0));
        rejects(&mut sim, "y", |s| s.world_mut().cut(0.0, 0.0, 1.0, bad));
        rejects(&mut sim, "gravity", |s| s.set_gravity_checked(0.0, bad, 0.0));
        rejects(&mut sim, "walls", |s| s.set_walls_checked(bad, 0.0, 1.0, 1.0));
        rejects(&mut sim, "give", |s| s.set_give_checked(bad));
        rejects(&mut sim, "friction", |s| s.set_friction_checked(bad));
        rejects(&mut sim, "position", |s| {
            s.world_mut().add_particle(&ParticleDef { pos: Vec3::new(bad, 0.0, 0.0), ..Default::default() })
        });
    }
}

#[test]
fn indices_must_exist() {
    let mut sim = rope_sim();
    let n = sim.world().particles.len() as i64;
    let m = sim.world().links.len() as i64;
    for bad in [-1, n, n + 100, i64::MAX] {
        rejects(&mut sim, "out of range", |s| s.world_mut().grab(2, bad));
        rejects(&mut sim, "out of range", |s| s.world_mut().set_locked(bad, true));
        rejects(&mut sim, "out of range", |s| s.world_mut().remove_point(bad));
        rejects(&mut sim, "out of range", |s| s.world_mut().connect(0, bad));
        rejects(&mut sim, "out of range", |s| s.world_mut().connect(bad, 0));
        rejects(&mut sim, "out of range", |s| s.world_mut().disconnect(bad, 1));
    }
    for bad in [-1, m, m + 1] {
        rejects(&mut sim, "link", |s| s.world_mut().subdivide(bad, 2));
    }
    rejects(&mut sim, "itself", |s| s.world_mut().connect(3, 3));
    rejects(&mut sim, "count", |s| s.world_mut().subdivide(0, 0));
    rejects(&mut sim, "count", |s| s.world_mut().subdivide(0, 1_000_000));
    rejects(&mut sim, "holds no point", |s| s.world_mut().drag_to(99, 0.0, 0.0));
    rejects(&mut sim, "already held", |s| s.world_mut().grab(2, 5));
}

#[test]
fn ranges_are_checked() {
    let mut sim = rope_sim();
    rejects(&mut sim, "radius", |s| s.world().pick(0.0, 0.0, -1.0));
    rejects(&mut sim, "iterations", |s| s.set_iterations_checked(0.0));
    rejects(&mut sim, "iterations", |s| s.set_iterations_checked(100_000.0));
    rejects(&mut sim, "substeps", |s| s.set_substeps_checked(0.0));
    rejects(&mut sim, "give", |s| s.set_give_checked(1.0));
    rejects(&mut sim, "give", |s| s.set_give_checked(-0.1));
    rejects(&mut sim, "friction", |s| s.set_friction_checked(1.5));
    rejects(&mut sim, "walls", |s| s.set_walls_checked(1.0, 0.0, -1.0, 1.0));
    rejects(&mut sim, "unknown solver", |s| s.set_solver_checked("nope"));
    rejects(&mut sim, "mass", |s| s.world_mut().add_particle(&ParticleDef { mass: 0.0, ..Default::default() }));
    rejects(&mut sim, "radius", |s| s.world_mut().add_particle(&ParticleDef { radius: -1.0, ..Default::default() }));
    // Two points at the same place cannot be linked at "their distance".
    let a = sim.world_mut().add_point(9.0, 9.0, false).unwrap() as i64;
    let b = sim.world_mut().add_point(9.0, 9.0, false).unwrap() as i64;
    rejects(&mut sim, "coincide", |s| s.world_mut().connect(a, b));
}

#[test]
fn bad_scene_names_the_json_path_and_keeps_the_world() {
    let mut sim = rope_sim();
    let cases = [
        ("{", "(root)"),
        (r#"{"version": 1, "ropes": [{"from": [0,0,0], "to": [1,0,0], "points": "many"}]}"#, "ropes[0].points"),
        (r#"{"version": 1, "ropes": [{"from": [0,0], "to": [1,0,0], "points": 3}]}"#, "ropes[0].from"),
        (r#"{"version": 1, "ropes": [{"from": [0,0,0], "to": [1,0,0], "points": 1}]}"#, "ropes[0]"),
        (r#"{"version": 1, "settings": {"iterations": 0}}"#, "settings.iterations"),
        (r#"{"version": 1, "settings": {"gravitee": [0,0,0]}}"#, "settings.gravitee"),
        (r#"{"version": 2}"#, "version"),
        (r#"{"version": 1, "particles": [{"pos": [0,0,0]}], "links": [{"a": 0, "b": 4}]}"#, "links[0]"),
        (r#"{"version": 1, "particles": [{"pos": [0,0,0], "mass": -1}]}"#, "particles[0]"),
        (r#"{"version": 1, "grids": [{"origin": [0,0,0], "cols": 3, "rows": 3, "spacing": 0}]}"#, "grids[0]"),
    ];
    for (json, path) in cases {
        let before = snapshot(&sim);
        let err = sim.load_scene_json(json).expect_err(json);
        let msg = err.to_string();
        assert!(msg.contains(path), "{json}: message {msg:?} should name {path:?}");
        assert_eq!(snapshot(&sim), before, "a bad scene must change nothing ({msg})");
    }
}

#[test]
fn scenes_round_trip_through_export() {
    let mut sim = rope_sim();
    // Holds are pointer state, not scene state: let go first.
    sim.world_mut().release(1);
    let json = sim.export_scene_json();
    let mut other = Sim::new();
    other.load_scene_json(&json).unwrap();
    assert_eq!(other.world().particles.pos, sim.world().particles.pos);
    assert_eq!(other.world().links.ends, sim.world().links.ends);
    assert_eq!(other.world().links.rest, sim.world().links.rest);
    assert_eq!(other.world().settings, sim.world().settings);
    // And the copy moves on exactly like the original.
    for _ in 0..30 {
        sim.world_mut().step(1.0 / 60.0).unwrap();
        other.world_mut().step(1.0 / 60.0).unwrap();
    }
    let d = sim
        .world()
        .particles
        .pos
        .iter()
        .zip(&other.world().particles.pos)
        .map(|(a, b)| a.distance(*b))
        .fold(0.0, f32::max);
    assert_eq!(d, 0.0, "exported scene diverged by {d} m");
}

#[test]
fn advance_runs_fixed_steps() {
    let mut sim = rope_sim();
    let steps = sim.world().steps;
    assert_eq!(sim.advance_checked(1.0 / 60.0 * 3.0 + 1e-4).unwrap(), 3);
    assert_eq!(sim.world().steps, steps + 3);
    assert_eq!(sim.advance_checked(60.0).unwrap(), 5, "catch-up capped");
    assert_eq!(sim.advance_checked(f64::NAN).unwrap(), 0);
}

#[test]
fn render_buffers_are_refilled_in_place() {
    let mut sim = rope_sim();
    sim.world_mut().set_locked(3, true).unwrap();
    sim.refill_render();
    let n = sim.world().particles.len();
    let flags = &sim.render_buffers().flags;
    assert_eq!(flags.len(), n);
    assert_eq!(flags[0] & 1, 1, "rope's first point is locked");
    assert_eq!(flags[3] & 1, 1);
    assert_eq!(flags[5] & 2, 2, "point 5 is held");
    assert_eq!(flags[7], 0);
    let ptr = sim.render_buffers().strain.as_ptr();
    sim.world_mut().step(1.0 / 60.0).unwrap();
    sim.refill_render();
    assert_eq!(sim.render_buffers().strain.as_ptr(), ptr, "no reallocation between frames");
    assert_eq!(sim.render_buffers().strain.len(), sim.world().links.len());
}

/// Counts come from JS as doubles: `-5` used to wrap to 4294967291 on its way to a `u32`.
#[test]
fn counts_from_js_are_whole_numbers_in_range() {
    let mut sim = rope_sim();
    for bad in [-5.0, 2.5, f64::NAN, f64::INFINITY, 4294967291.0] {
        rejects(&mut sim, "iterations", |s| s.set_iterations_checked(bad));
        rejects(&mut sim, "substeps", |s| s.set_substeps_checked(bad));
        rejects(&mut sim, "max steps", |s| s.set_fixed_step_checked(1.0 / 60.0, bad));
    }
    sim.set_iterations_checked(7.0).unwrap();
    assert_eq!(sim.world().settings.iterations, 7);
}

/// A solver that cannot run the scene is refused with the reason, and so is any change
/// that would leave the current solver unable to run it (issue 8, point 2).
#[test]
fn unsupported_solvers_are_refused_with_the_reason() {
    let mut sim = Sim::new();
    sim.load_scene_json(include_str!("../www/scenes/leash.json")).unwrap();
    rejects(&mut sim, "classic cannot run this scene", |s| s.set_solver_checked("classic"));
    let support: serde_json::Value = serde_json::from_str(&sim.solver_support_json()).unwrap();
    let classic = support.as_array().unwrap().iter().find(|v| v["name"] == "classic").unwrap();
    assert_eq!(classic["ok"], false);
    assert!(classic["reason"].as_str().unwrap().contains("dogs"));
    assert!(support.as_array().unwrap().iter().filter(|v| v["name"] != "classic").all(|v| v["ok"] == true));

    let mut sim = Sim::new();
    sim.load_scene_json(include_str!("../www/scenes/capstan.json")).unwrap();
    rejects(&mut sim, "mass", |s| s.set_solver_checked("classic"));
    sim.set_mass_weighted_checked(true).unwrap();
    sim.set_solver_checked("classic").unwrap();
    // Turning mass weighting off again would leave classic unable to run the capstan.
    rejects(&mut sim, "mass", |s| s.set_mass_weighted_checked(false));
    // Pins: classic has none.
    let mut sim = rope_sim();
    sim.set_solver_checked("classic").unwrap();
    rejects(&mut sim, "no pins", |s| s.pin_checked(3, 0.0, 1.0, 0.0));
    sim.set_solver_checked("xpbd").unwrap();
    sim.pin_checked(3, 0.0, 1.0, 0.0).unwrap();
    rejects(&mut sim, "classic cannot run this scene", |s| s.set_solver_checked("classic"));
}

#[test]
fn the_capstan_report_reads_the_preset() {
    let mut sim = Sim::new();
    sim.load_scene_json(include_str!("../www/scenes/capstan.json")).unwrap();
    for _ in 0..120 {
        sim.world_mut().step(1.0 / 60.0).unwrap();
    }
    let r: serde_json::Value = serde_json::from_str(&sim.capstan_report_json()).unwrap();
    assert_eq!(r["holds"], true, "{r}");
    assert!((r["wrap"].as_f64().unwrap() - std::f64::consts::PI).abs() < 0.15, "{r}");
    assert!((r["limit"].as_f64().unwrap() - (0.5 * std::f64::consts::PI).exp()).abs() < 0.4, "{r}");
    assert_eq!(r["load"]["point"], 0);
    assert_eq!(r["hold"]["point"], 97);
    assert!(r["tensionLoad"].as_f64().unwrap() > r["tensionHold"].as_f64().unwrap());
    let mut sim = rope_sim();
    sim.world_mut().release(1);
    assert_eq!(sim.capstan_report_json(), "null");
}

/// Body contact events reach JS like the tangle events: a box dropped on the ground gives
/// one `begin` (ground id, box id, the impulse that stopped it), kept across the steps of
/// one `advance` until drained; lifted off, one `end`.
#[test]
fn contact_events_begin_and_end_with_the_impulse() {
    let mut sim = Sim::new();
    let scene = r#"{"version": 1, "settings": {"solver": "impulse", "substeps": 4, "iterations": 1},
      "bodies": [
        {"name": "ground", "kind": "static", "shape": {"type": "box", "half": [5, 0.5, 1]}, "pos": [0, -0.5, 0]},
        {"name": "box", "shape": {"type": "box", "half": [0.25, 0.25, 0.25]}, "mass": 2, "pos": [0, 0.75, 0], "planar": true}
      ]}"#;
    sim.load_scene_json(scene).unwrap();
    let (ground, bx) = (sim.world().bodies.id[0].0, sim.world().bodies.id[1].0);
    assert_eq!(sim.drain_contact_events_json(), "[]");
    // Falls 0.5 m: hits at √(2 g · 0.5) = 3.13 m/s, about 0.32 s in; a 0.5 s frame (the
    // advance cap is 5 steps: run two frames) holds the landing.
    let mut landed = None;
    let mut speed = 0.0f32;
    for _ in 0..60 {
        speed = sim.world().bodies.vel[1].y.abs().max(speed);
        sim.advance_checked(1.0 / 60.0).unwrap();
        if !sim.world().contact_log.is_empty() {
            landed = Some(sim.world().contact_log.get(0));
            break;
        }
    }
    let (began, a, b, impulse) = landed.expect("no begin event");
    let events: serde_json::Value = serde_json::from_str(&sim.drain_contact_events_json()).unwrap();
    let after = sim.world().bodies.vel[1].y;
    println!("landing at {speed:.3} m/s, {after:.3} m/s after the step: {events}");
    assert!(began && a.0 == ground && b.0 == bx);
    assert_eq!(events.as_array().unwrap().len(), 1, "{events}");
    assert_eq!(events[0]["type"], "begin");
    assert_eq!((events[0]["a"].as_u64(), events[0]["b"].as_u64()), (Some(ground as u64), Some(bx as u64)));
    // Momentum over the landing step: the ground's impulse is m·Δv + m·g·dt (the soft
    // contact stops the box over two steps: measured 2.943 → 0.495 m/s down, 5.223 N·s).
    let want = 2.0 * (speed - after.abs()) + 2.0 * 9.81 / 60.0;
    assert!((impulse - want).abs() < 0.02 * want, "impulse {impulse} vs m·Δv + m·g·dt = {want}");
    assert_eq!(sim.drain_contact_events_json(), "[]", "drained");
    // Resting: no new events.
    for _ in 0..30 {
        sim.world_mut().step(1.0 / 60.0).unwrap();
    }
    assert!(sim.world().contact_log.is_empty());
    // Thrown up: the contact ends.
    sim.world_mut().bodies.vel[1] = Vec3::new(0.0, 5.0, 0.0);
    for _ in 0..5 {
        sim.world_mut().step(1.0 / 60.0).unwrap();
    }
    let events: serde_json::Value = serde_json::from_str(&sim.drain_contact_events_json()).unwrap();
    assert_eq!(events, serde_json::json!([{"type": "end", "a": ground, "b": bx, "impulse": 0.0}]));
    // Several steps in one advance keep every step's events (a frame of 5 steps).
    sim.world_mut().bodies.vel[1] = Vec3::ZERO;
    sim.world_mut().bodies.pos[1] = Vec3::new(0.0, 0.26, 0.0);
    let n = sim.advance_checked(1.0).unwrap();
    assert_eq!((n, sim.world().contact_log.len()), (5, 1), "landed within the frame's 5 steps");
    sim.world_mut().bodies.vel[1] = Vec3::new(0.0, 5.0, 0.0);
    assert_eq!(sim.advance_checked(3.0 / 60.0).unwrap(), 3);
    let kinds: Vec<String> = serde_json::from_str::<serde_json::Value>(&sim.drain_contact_events_json())
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(kinds, ["begin", "end"]);
}
