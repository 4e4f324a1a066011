//! Every preset that states a number shows it measured: its `measure` read off the running
//! scene (`ropelab::measure`) lies within the stated tolerance of the closed form's value.
//! The meter itself is checked against motions with exact answers (a free fall, a small
//! pendulum), and against a scene that is touched during its window.

mod common;
use common::presets;
use glam::Vec3;
use ropelab::links::LinkDef;
use ropelab::measure::{Kind, MeasureSpec, Meter, Status};
use ropelab::particles::ParticleDef;
use ropelab::scene::Scene;
use ropelab::wasm::Sim;
use ropelab::{Settings, SolverKind, World};

const DT: f32 = 1.0 / 60.0;

/// Steps `w` until the meter's window is over.
fn run(w: &mut World, m: &mut Meter) {
    let mut n = 0;
    while m.status() != Status::Done {
        w.step(DT).unwrap();
        m.sample(w);
        n += 1;
        assert!(n < 100_000, "{}: the window never ends", m.spec.label);
    }
}

#[test]
fn every_stated_number_is_measured_within_its_tolerance() {
    let mut table = Vec::new();
    let mut failed = Vec::new();
    let mut measured = 0;
    for (name, text) in presets() {
        let scene = Scene::from_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut w = scene.build().unwrap();
        let Some(mut m) = scene.meter(&w).unwrap() else { continue };
        measured += 1;
        run(&mut w, &mut m);
        let v = m.value().unwrap_or_else(|| panic!("{name}: no value at the window's end"));
        let p = m.spec.predicted;
        let line = format!(
            "{name:14} {:40} measured {v:9.4} predicted {p:9.4} {:5} error {:+.2} % (tolerance {:.0} %)",
            m.spec.label,
            m.spec.unit,
            100.0 * (v - p) / p,
            100.0 * m.spec.tolerance
        );
        if m.within_tolerance() != Some(true) {
            failed.push(line.clone());
        }
        table.push(line);
    }
    println!("{}", table.join("\n"));
    assert!(measured >= 7, "the presets that state a number carry a `measure` ({measured} found)");
    assert!(failed.is_empty(), "outside the tolerance:\n{}", failed.join("\n"));
}

/// A point's motion read over `from..to`.
fn spec(kind: Kind, point: u32, from: f32, to: f32, predicted: f32) -> MeasureSpec {
    MeasureSpec {
        label: "test".into(),
        predicted,
        tolerance: 0.01,
        from,
        to,
        kind,
        point: Some(point),
        ..Default::default()
    }
}

#[test]
fn a_free_fall_reads_g() {
    let mut w = World::new(Settings { solver: SolverKind::Pbd, ..Settings::default() });
    w.add_particle(&ParticleDef { pos: Vec3::new(0.0, 100.0, 0.0), mass: 1.0, ..Default::default() }).unwrap();
    let mut m = Meter::new(&spec(Kind::Fall, 0, 0.2, 1.0, 9.81), &w, &[]).unwrap();
    run(&mut w, &mut m);
    let a = m.value().unwrap();
    assert!((a - 9.81).abs() < 1e-3 * 9.81, "free fall read {a} m/s², not g = 9.81");
}

#[test]
fn a_small_pendulum_reads_its_period() {
    // A point on a 1 m link swinging 3°: T = 2π √(L/g) (1 + θ₀²/16) = 2.00700 s.
    let mut w = World::new(Settings { solver: SolverKind::Xpbd, substeps: 20, iterations: 1, ..Settings::default() });
    let th = 3f32.to_radians();
    w.add_particle(&ParticleDef { pos: Vec3::new(0.0, 2.0, 0.0), mass: 1.0, locked: true, ..Default::default() })
        .unwrap();
    let bob = Vec3::new(th.sin(), 2.0 - th.cos(), 0.0);
    w.add_particle(&ParticleDef { pos: bob, mass: 1.0, ..Default::default() }).unwrap();
    w.add_link(&LinkDef { a: 0, b: 1, ..Default::default() }).unwrap();
    let t = 2.0 * std::f32::consts::PI * (1.0 / 9.81f32).sqrt() * (1.0 + th * th / 16.0);
    let mut m = Meter::new(&spec(Kind::Period, 1, 0.1, 8.5, t), &w, &[]).unwrap();
    run(&mut w, &mut m);
    let got = m.value().unwrap();
    assert!((got - t).abs() < 0.005 * t, "pendulum period {got} s, expected {t} s (0.5 %)");
}

#[test]
fn touching_the_scene_in_its_window_voids_the_reading() {
    let text = std::fs::read_to_string("www/scenes/atwood.json").unwrap();
    let json = |sim: &Sim| -> serde_json::Value { serde_json::from_str(&sim.measure_json()).unwrap() };
    // Untouched: measured, within tolerance (`advance` is the page's path).
    let mut sim = Sim::new();
    sim.load_scene_json(&text).unwrap();
    assert_eq!(json(&sim)["status"], "waiting");
    for _ in 0..40 {
        sim.advance_checked(DT as f64).unwrap();
    }
    let r = json(&sim);
    assert_eq!(r["status"], "done", "{r}");
    assert_eq!(r["within"], true, "{r}");
    // A rope point grabbed at 0.2 s: no value, and it says why.
    let mut sim = Sim::new();
    sim.load_scene_json(&text).unwrap();
    for k in 0..40 {
        if k == 12 {
            sim.world_mut().grab(0, 20).unwrap();
        }
        sim.advance_checked(DT as f64).unwrap();
    }
    let r = json(&sim);
    assert_eq!(r["status"], "disturbed", "{r}");
    assert!(r["value"].is_null(), "{r}");
    // Gravity changed before the window: the prediction no longer applies.
    let mut sim = Sim::new();
    sim.load_scene_json(&text).unwrap();
    sim.set_gravity_checked(0.0, -5.0, 0.0).unwrap();
    sim.advance_checked(DT as f64).unwrap();
    assert_eq!(json(&sim)["status"], "disturbed");
    // Restarts: atwood states 1.6 s; due untouched, never once touched.
    let mut sim = Sim::new();
    sim.load_scene_json(&text).unwrap();
    while sim.world().time < 1.55 {
        sim.advance_checked(DT as f64).unwrap();
        assert!(!sim.restart_due_now(), "due early, at {} s", sim.world().time);
    }
    for _ in 0..5 {
        sim.advance_checked(DT as f64).unwrap();
    }
    assert!(sim.restart_due_now(), "due at {} s", sim.world().time);
    sim.load_scene_json(&text).unwrap();
    sim.world_mut().grab(0, 20).unwrap();
    sim.advance_checked(DT as f64).unwrap();
    sim.world_mut().release(0);
    for _ in 0..120 {
        sim.advance_checked(DT as f64).unwrap();
    }
    assert!(!sim.restart_due_now(), "a touched scene does not restart");
    // A scene without a number has none.
    sim.load_scene_json(&std::fs::read_to_string("www/scenes/rope.json").unwrap()).unwrap();
    assert_eq!(sim.measure_json(), "null");
}

#[test]
fn a_bad_measure_names_its_path_and_loads_nothing() {
    let text = std::fs::read_to_string("www/scenes/cradle.json").unwrap();
    for (from, to, path) in [
        ("\"body\": \"b4\"", "\"body\": \"b9\"", "measure.body"),
        ("\"from\": 0.3", "\"from\": 3.0", "measure.from"),
        ("\"tolerance\": 0.02", "\"tolerance\": 0", "measure.tolerance"),
        ("\"kind\": \"peak_speed\"", "\"kind\": \"top_speed\"", "measure.kind"),
        ("\"kind\": \"peak_speed\"", "\"kind\": \"sag\"", "measure.body"),
    ] {
        assert!(text.contains(from), "cradle.json has {from}");
        let bad = text.replace(from, to);
        let mut sim = Sim::new();
        sim.load_scene_json(&std::fs::read_to_string("www/scenes/rope.json").unwrap()).unwrap();
        let before = sim.world().particles.len();
        let err = sim.load_scene_json(&bad).unwrap_err().to_string();
        assert!(err.contains(path), "{to}: the error names {path}: {err}");
        assert_eq!(sim.world().particles.len(), before, "{to}: the world is unchanged");
    }
}
