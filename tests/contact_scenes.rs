//! The contact presets (`www/scenes/pyramid.json`, `wall.json`, `plank-bridge.json`,
//! `cradle.json`) checked as physics, loaded from the same files the page and the runner use,
//! and W6 `pyramid20` (issue 11 §3–§5). Every figure is printed (`--nocapture`); each
//! tolerance says what was measured when it was set.

use glam::Vec3;
use ropelab::scene::Scene;
use ropelab::workloads::{pyramid_drift, Workload, PYRAMID_ROWS};
use ropelab::{SolverKind, World};

const H: f32 = 1.0 / 60.0;

/// The preset's world and its scene (for body names: a fresh world's body k is the
/// scene's `bodies[k]`).
fn preset(name: &str) -> (World, Scene) {
    let text = std::fs::read_to_string(format!("www/scenes/{name}.json")).unwrap();
    let scene = Scene::from_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    (scene.build().unwrap_or_else(|e| panic!("{name}: {e}")), scene)
}

fn body(scene: &Scene, name: &str) -> usize {
    scene.bodies.iter().position(|b| b.name == name).unwrap_or_else(|| panic!("no body {name:?}"))
}

fn steps(w: &mut World, n: usize) {
    for _ in 0..n {
        w.step(H).unwrap();
    }
}

/// Largest distance of bodies `range` from their positions in `start`.
fn max_moved(w: &World, start: &[Vec3], range: std::ops::Range<usize>) -> f32 {
    range.map(|k| w.bodies.pos[k].distance(start[k])).fold(0.0, f32::max)
}

/// `pyramid.json`: 10 rows of 1 m boxes (55 bodies) stand 10 s.
#[test]
fn the_pyramid_preset_stands_ten_seconds() {
    let (mut w, _) = preset("pyramid");
    assert_eq!(w.bodies.len(), 56);
    let start = w.bodies.pos.clone();
    steps(&mut w, 600);
    let drift = max_moved(&w, &start, 1..w.bodies.len());
    println!("pyramid (10 rows) after 10 s: largest drift {drift:.3e} m");
    // Issue 11 asks < 1 cm of a pyramid: measured 8.6 mm (4 substeps × 1; 8.2 mm at 4 × 2);
    // 6.8 mm since relax sweeps the patches in reverse (2026-11-27); 2.9 mm with 50 Hz
    // contacts and alternating sweeps (`rule::Tuning::BODIES`); 2.7 mm with 54 Hz and a
    // 3D patch's normal rows swept twice (`patch::NORMAL_PASSES`).
    assert!(drift < 0.005, "drift {drift}");
}

/// W6 `pyramid20` (210 boxes) under its benchmark budget for the benchmark's 1,100 steps
/// (100 warm-up and 1,000 timed; the drift the benchmark line prints): it stands, and its
/// drift is under issue 11's 1 cm. The drift is the soft contacts' compression under the
/// stack above (the top box sinks; the same cause as the 10-box tower's 8.4 mm in
/// tests/contacts.rs). Measured 3.2 cm at first, 2.9 cm with Box2D's 30 Hz contacts, 1.17 cm
/// with 50 Hz and alternating sweeps, 1.07 cm with `planar::point_spring`, now 9.55 mm with
/// 54 Hz (`rule::Tuning::BODIES`).
#[test]
fn the_twenty_row_pyramid_stands_under_a_centimetre() {
    let mut w = Workload::W6.build(SolverKind::Impulse);
    assert_eq!((w.bodies.len(), w.settings.substeps, w.settings.iterations), (211, 4, 1));
    assert_eq!(pyramid_drift(&w, PYRAMID_ROWS), 0.0);
    steps(&mut w, 1100);
    let drift = pyramid_drift(&w, PYRAMID_ROWS);
    let top = w.bodies.pos[w.bodies.len() - 1];
    println!(
        "pyramid20 after 1,100 steps: largest drift {drift:.3e} m (issue 11's target: < 1e-2); top box x {:.1e} m",
        top.x
    );
    // (Before: 3.0e-2, 2.88e-2 once relax swept in reverse — the one-way sweep also leaned
    // it sideways, its top box 1.1–1.6 cm off centre —, 1.171e-2, 1.071e-2.)
    assert!(drift < 0.01, "drift {drift}");
    // The settling pushes the top box sideways: measured 1.6 mm (0.09 mm at 50 Hz).
    assert!(top.x.abs() < 3e-3, "top box {} m off centre", top.x);
}

/// W6 on half its budget, 2 substeps × 1 iteration (the contact springs capped at a quarter
/// of the 120 Hz substep rate, 30 Hz, the ground's too), 10 s: it stands. Measured
/// (2026-11-27): 3.9e-2 m with the biased sweeps alternating direction; with every one
/// forward it collapsed (1.6 m; 0.95 m with Box2D v3's 30 Hz and ζ = 10, before 2026-11-27).
#[test]
fn the_twenty_row_pyramid_stands_on_two_substeps() {
    let drift = w6_drift_on(2);
    assert!(drift < 0.1, "drift {drift}");
}

/// W6 on `substeps` × 1 iteration: its drift after 10 s (printed).
fn w6_drift_on(substeps: u32) -> f32 {
    let mut w = Workload::W6.build(SolverKind::Impulse);
    w.settings.substeps = substeps;
    steps(&mut w, 600);
    let drift = pyramid_drift(&w, PYRAMID_ROWS);
    println!("pyramid20 on {substeps} substeps after 10 s: largest drift {drift:.3e} m");
    drift
}

/// W6 on 3 substeps × 1 iteration, 10 s: an odd number of biased sweeps a step, so the
/// sweep direction must carry over from one step to the next to keep alternating
/// (`Contacts::sweep`). Measured (2026-11-27): 1.6 cm; with each step's first sweep forward
/// (two forward, one backward every step) 4.5 cm; Box2D's 30 Hz with every sweep forward
/// 3.1 cm.
#[test]
fn the_twenty_row_pyramid_stands_on_three_substeps() {
    let drift = w6_drift_on(3);
    assert!(drift < 0.025, "drift {drift}");
}

/// `wall.json`: the wall stands until the ball arrives, then the ball knocks it down.
#[test]
fn the_wrecking_ball_knocks_the_wall_down() {
    let (mut w, sc) = preset("wall");
    let ball = body(&sc, "ball");
    let boxes = 1..ball;
    assert_eq!(boxes.len(), 18);
    let start = w.bodies.pos.clone();
    // The ball reaches the wall's face (x ≈ 0.2) at about 1.1 s.
    steps(&mut w, 50);
    let before = max_moved(&w, &start, boxes.clone());
    println!("wall after 0.83 s (ball at x = {:.2}): boxes moved ≤ {before:.2e} m", w.bodies.pos[ball].x);
    // Measured 9.9 mm: the stack of six settles as the 10-box tower of tests/contacts.rs does.
    assert!(w.bodies.pos[ball].x < -0.5 && before < 0.02, "the wall stands before the hit: {before}");
    let mut lowest = f32::MAX;
    for _ in 0..190 {
        w.step(H).unwrap();
        lowest = lowest.min(w.bodies.pos[ball].y);
    }
    let log = &w.contact_log;
    let ball_id = w.bodies.id[ball];
    let hits: Vec<f32> =
        (0..log.len()).map(|k| log.get(k)).filter(|e| e.0 && (e.1 == ball_id || e.2 == ball_id)).map(|e| e.3).collect();
    println!(
        "wall: {} contact events queued ({} dropped); the ball's begins, impulses (N·s): {hits:.1?}",
        log.len(),
        log.dropped
    );
    // The ball's first hit on the wall: 80 kg at about 7 m/s; the event carries the impulse.
    assert!(hits.iter().any(|&j| j > 10.0), "no hard ball hit among the events: {hits:?}");
    let moved: Vec<f32> = boxes.clone().map(|k| w.bodies.pos[k].distance(start[k])).collect();
    let knocked = moved.iter().filter(|&&d| d > 0.5).count();
    println!(
        "wall after 4 s: {knocked} of 18 boxes moved > 0.5 m, moved {moved:.2?}; ball's lowest centre {lowest:.3} m"
    );
    // Measured: 17 of 18 (a bottom-row box on the far side stays). The cable
    // (exact solver) does not stretch: the lowest centre is 5.8 − 4.35 = 1.45 m.
    assert!(knocked >= 12, "only {knocked} boxes knocked");
    assert!((lowest - 1.45).abs() < 0.01, "cable stretched: lowest {lowest}");
}

/// `cradle.json`: the first ball's momentum passes along the row; the last one leaves with
/// most of its speed and the middle ones stay nearly still.
#[test]
fn newtons_cradle_passes_momentum_along_the_row() {
    let (mut w, sc) = preset("cradle");
    let b: Vec<usize> = (0..5).map(|i| body(&sc, &format!("b{i}"))).collect();
    // Falls from 40° on 2 m: v = √(2 g L (1 − cos 40°)) = 3.03 m/s at the bottom.
    let mut v0 = 0.0f32;
    // (The balls hang 1 mm apart: the momentum crosses the row within the step it arrives,
    // so the first ball's speed is read in the step before the last ball moves.)
    while w.bodies.vel[b[4]].length() < 0.1 {
        v0 = w.bodies.vel[b[0]].x;
        w.step(H).unwrap();
        assert!(w.time < 2.0, "the first ball never reached the row");
    }
    steps(&mut w, 6);
    let v: Vec<f32> = b.iter().map(|&k| w.bodies.vel[k].x).collect();
    println!("cradle: first ball hits at {v0:.3} m/s; 0.1 s later vx = {v:.3?}");
    assert!((v0 - 3.03).abs() < 0.1, "impact speed {v0}");
    // Measured: the last ball 2.92 (96 %: 0.1 s up its swing), the others ≤ 0.004 m/s.
    assert!(v[4] > 0.9 * v0, "last ball {v:?}");
    assert!(v[..4].iter().all(|x| x.abs() < 0.1 * v0), "the rest should be nearly still: {v:?}");
}

/// `plank-bridge.json`: the ball rolls from the left platform across the planks (ball–plank
/// contacts; the ropes only carry the planks) onto the right platform.
#[test]
fn the_ball_rolls_across_the_plank_bridge() {
    let (mut w, sc) = preset("plank-bridge");
    let ball = body(&sc, "ball");
    let right = body(&sc, "right");
    let far = w.bodies.pos[right].x - 1.0 + 0.25; // past the bridge's end by a quarter metre
    let mut lowest = f32::MAX;
    let mut crossed = None;
    for s in 0..300 {
        w.step(H).unwrap();
        let p = w.bodies.pos[ball];
        lowest = lowest.min(p.y);
        if p.x > far {
            crossed = Some((s, p));
            break;
        }
    }
    println!("plank bridge: crossed {crossed:?}, lowest ball centre {lowest:.3} m (deck at 3.03 m unloaded)");
    let (_, p) = crossed.expect("the ball never reached the far platform");
    // On the platform (top 3.03, radius 0.2), and it rode on the planks all the way: the
    // lowest centre measured 2.73 m (the deck sags under the 3 kg ball and the light ropes
    // stretch 2–3 % under the impulse solver); it crossed in 2.2 s. (The ball starts
    // rolling: launched sliding, friction took 2/7 of its energy to spin it up, the 5/7 v₀
    // of a solid ball, and it stopped short of the far platform.)
    assert!((p.y - 3.23).abs() < 0.02, "not on the platform: {p}");
    assert!(lowest > 2.5, "fell through the bridge: lowest {lowest}");
    assert!(w.bodies.pos.iter().all(|q| q.is_finite()) && w.max_stretch() < 0.1);
}
