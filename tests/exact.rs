//! The exact solver on the benchmark workloads of `docs/benchmarks.md`, run by the
//! protocol (100 warm-up steps, 1,000 steps sampled every 10): the stretch targets hold
//! (≤ 1e-4 at the end and at every sample on W1 and on the 100:1 heavy end W3), and a
//! forest of many ropes converges rope by rope to the same figures.

use glam::Vec3;
use ropelab::benchmark::{run_protocol, BenchResult};
use ropelab::workloads::Workload;
use ropelab::{LinkDef, ParticleDef, SolverKind, World};

fn protocol(w: &mut World) -> BenchResult {
    run_protocol(w, || 0.0)
}

#[test]
fn w1_and_w3_stay_within_1e_4_of_their_rest_lengths() {
    for wl in [Workload::W1, Workload::W3] {
        let mut w = wl.build(SolverKind::Exact);
        let r = protocol(&mut w);
        println!("exact {}: stretch {:.2e}, peak {:.2e}", wl.name(), r.stretch, r.peak_stretch);
        assert!(r.stretch <= 1e-4 && r.peak_stretch <= 1e-4, "{}: {r:?}", wl.name());
    }
}

/// Ropes that are solved together (one world) move exactly as each does alone: trees are
/// independent, and a rope that has converged is left alone while others iterate.
#[test]
fn ropes_in_one_world_move_as_each_alone() {
    let rope = |w: &mut World, x: f32, last_mass: f32| {
        let first = w.particles.len() as u32;
        for i in 0..30 {
            let mass = if i == 29 { last_mass } else { 1.0 };
            let pos = Vec3::new(x + 0.1 * i as f32, 0.0, 0.0);
            w.add_particle(&ParticleDef { pos, mass, locked: i == 0, ..Default::default() }).unwrap();
        }
        for i in 0..29 {
            w.add_link(&LinkDef { a: first + i, b: first + i + 1, ..Default::default() }).unwrap();
        }
    };
    let settings = ropelab::workloads::settings_for(SolverKind::Exact);
    let mut both = World::new(settings.clone());
    rope(&mut both, 0.0, 1.0);
    rope(&mut both, 0.0, 20.0);
    let mut alone = [World::new(settings.clone()), World::new(settings)];
    rope(&mut alone[0], 0.0, 1.0);
    rope(&mut alone[1], 0.0, 20.0);
    for _ in 0..120 {
        both.step(1.0 / 60.0).unwrap();
        for w in &mut alone {
            w.step(1.0 / 60.0).unwrap();
        }
    }
    assert_eq!(&both.particles.pos[..30], &alone[0].particles.pos[..]);
    assert_eq!(&both.particles.pos[30..], &alone[1].particles.pos[..]);
    assert!(both.max_stretch() <= 1e-4, "{}", both.max_stretch());
}

/// The warm start (a bounded share of the last substep's multipliers) keeps the solve
/// dissipative where tensions are high: a rope with a 100:1 mass in its middle, released
/// horizontally, never gains energy over a 10 s window after the first 10 s, and stays
/// within 1e-4 of its rest lengths.
#[test]
fn heavy_middle_mass_stays_dissipative() {
    let mut w = World::new(ropelab::workloads::settings_for(SolverKind::Exact));
    for i in 0..100 {
        let mass = if i == 50 { 100.0 } else { 1.0 };
        let pos = Vec3::new(0.1 * i as f32, 0.0, 0.0);
        w.add_particle(&ParticleDef { pos, mass, locked: i == 0, ..Default::default() }).unwrap();
    }
    for i in 0..99 {
        w.add_link(&LinkDef { a: i, b: i + 1, rest: Some(0.1), ..Default::default() }).unwrap();
    }
    let mut energy = Vec::new();
    let mut peak = 0.0f32;
    for step in 0..1800 {
        w.step(1.0 / 60.0).unwrap();
        if step >= 600 {
            peak = peak.max(w.max_stretch());
            energy.push(w.energy());
        }
    }
    // Energy at the start of each second from 10 s on: non-increasing (0.5% of the swing
    // energy for the exchange between kinetic and potential within a second).
    let per_second: Vec<f64> = energy.iter().step_by(60).copied().collect();
    let scale = per_second[0].abs();
    for pair in per_second.windows(2) {
        assert!(pair[1] <= pair[0] + 0.005 * scale, "energy rose: {per_second:?}");
    }
    assert!(peak <= 1e-4, "{peak}");
}

/// A pass budget too small to converge (`iterations` 1–3 at 60 Hz, no substeps) gives a
/// stretchy, damped rope, never an explosion: without the closing projection one pass per
/// step took W1 from rest to +24 kJ. Energy (relative to rest) never rises above its
/// start over 3,000 steps (50 s), on W1 and on the heavy end W3, and the stretch stays
/// bounded.
///
/// Both of the solver's paths: alone (chains solved to convergence in turn) and with other
/// constraints present (walls 100 m away, never touched, switch to the path where every
/// pass runs after their projections; there one pass per step once reached +150 kJ).
#[test]
fn a_low_pass_budget_stays_bounded_and_dissipative() {
    let far_walls = ropelab::Walls { min: glam::Vec2::splat(-100.0), max: glam::Vec2::splat(100.0) };
    for (wl, walls) in
        [(Workload::W1, None), (Workload::W3, None), (Workload::W1, Some(far_walls)), (Workload::W3, Some(far_walls))]
    {
        for passes in 1..=3 {
            let mut w = wl.build(SolverKind::Exact);
            w.settings.iterations = passes;
            w.settings.walls = walls;
            let e0 = w.energy();
            let mut worst_gain = f64::MIN;
            let mut worst_stretch = 0.0f32;
            for _ in 0..3000 {
                w.step(1.0 / 60.0).unwrap();
                worst_gain = worst_gain.max(w.energy() - e0);
                worst_stretch = worst_stretch.max(w.max_stretch());
            }
            let walls = walls.is_some();
            assert!(w.particles.pos.iter().all(|p| p.is_finite()), "{wl:?} {passes} walls {walls}: non-finite");
            assert!(worst_gain <= 1.0, "{wl:?} {passes} passes, walls {walls}: energy rose {worst_gain:.1} J");
            // Worst measured: 4.3 (W3, one pass per step, for a moment); without the closing
            // projection W1 reached 13 within 1,100 steps and kept growing.
            assert!(worst_stretch < 8.0, "{wl:?} {passes} passes, walls {walls}: stretch {worst_stretch}");
        }
    }
}

/// The rope preset (walls around it, never touched by the swinging rope) goes through the
/// path where contacts are projected before every pass: with a cap of 20 passes it stays
/// within the tolerance at every step (the passes stop early once the trees are converged
/// after the contacts, which must not cut the solve short).
#[test]
fn the_rope_preset_with_walls_stays_within_tolerance() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/www/scenes/rope.json")).unwrap();
    let mut w = ropelab::scene::Scene::from_json(&text).unwrap().build().unwrap();
    assert!(w.settings.walls.is_some());
    w.settings.solver = SolverKind::Exact;
    w.settings.iterations = 20;
    let mut peak = 0.0f32;
    for _ in 0..600 {
        w.step(1.0 / 60.0).unwrap();
        peak = peak.max(w.max_stretch());
    }
    assert!(peak <= 1e-4, "peak stretch {peak}");
}

/// The net preset with an interior point (row 6, column 4) held 0.8 m to the side: the
/// loop links' Gauss–Seidel and the tree's Newton passes disagreed, single passes took the
/// tree's largest stretch to 500 %, and the net never came to rest (27 J of kinetic energy
/// after 50 s; xpbd 3e-8 J). A pass that makes the forest's violation worse is now undone
/// (`solver/exact/guard.rs`): the held net comes to rest, below 1e-6 J (its 38.4 kg then
/// move at most ~0.2 mm/s), at the preset's 6 passes.
#[test]
fn a_net_held_to_the_side_comes_to_rest() {
    let mut w = ropelab::determinism::preset("net");
    assert_eq!(w.settings.solver, SolverKind::Exact);
    let r = ropelab::soak::held_drag(&mut w, 100, [0.8, 0.0], 120, 3000, 1.0 / 60.0);
    assert_eq!(r.soak.nan_at, None);
    let p = &w.particles;
    let ke: f64 = (0..p.len()).map(|i| 0.5 * p.mass[i] as f64 * p.vel[i].length_squared() as f64).sum();
    assert!(ke < 1e-6, "kinetic energy {ke:.3e} J after 52 s");
}
