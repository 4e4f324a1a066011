//! The solvers checked against physics and against each other: convergence with
//! iterations and substeps, a common static equilibrium (and the catenary), XPBD's
//! physical compliance, the large-amplitude pendulum period, the exact solver's stretch,
//! seamless switching and determinism. Every tolerance is stated next to its assertion.

use glam::Vec3;
use ropelab::{LinkDef, ParticleDef, Settings, SolverKind, World};

const DT: f32 = 1.0 / 60.0;
const G: f32 = 9.81;

fn world(solver: SolverKind, f: impl FnOnce(&mut Settings)) -> World {
    let mut s = Settings { solver, friction: 1.0, mass_weighted: true, ..Settings::default() };
    f(&mut s);
    World::new(s)
}

/// A chain of `n` points from `origin` along `dir`, `seg` apart, of `mass` each, the
/// first locked.
fn chain(w: &mut World, origin: Vec3, dir: Vec3, n: usize, seg: f32, mass: f32) {
    let first = w.particles.len();
    for i in 0..n {
        let pos = origin + dir * (seg * i as f32);
        w.add_particle(&ParticleDef { pos, mass, locked: i == 0, ..Default::default() }).unwrap();
    }
    for i in 0..n - 1 {
        let (a, b) = ((first + i) as u32, (first + i + 1) as u32);
        w.add_link(&LinkDef { a, b, rest: Some(seg), ..Default::default() }).unwrap();
    }
}

/// Peak stretch over `steps` steps.
fn peak_stretch(w: &mut World, steps: usize) -> f32 {
    let mut peak = 0.0f32;
    for _ in 0..steps {
        w.step(DT).unwrap();
        peak = peak.max(w.max_stretch());
    }
    peak
}

/// A 30-point chain released horizontally: the peak stretch over one second falls as the
/// iterations (Gauss–Seidel, Jacobi, classic), the substeps (XPBD) or the Newton passes
/// (exact) grow.
#[test]
fn stretch_falls_as_iterations_or_substeps_grow() {
    let cases: [(SolverKind, bool, &[u32]); 5] = [
        (SolverKind::Classic, false, &[1, 2, 4, 8, 16]),
        (SolverKind::Pbd, false, &[1, 2, 4, 8, 16]),
        (SolverKind::Jacobi, false, &[1, 2, 4, 8, 16]),
        (SolverKind::Xpbd, true, &[1, 2, 4, 8, 16]),
        (SolverKind::Exact, false, &[1, 2, 3, 4, 6]),
    ];
    for (solver, by_substeps, counts) in cases {
        let mut peaks = Vec::new();
        for &k in counts {
            let mut w = world(solver, |s| {
                if by_substeps {
                    (s.substeps, s.iterations) = (k, 1);
                } else {
                    s.iterations = k;
                }
            });
            chain(&mut w, Vec3::ZERO, Vec3::X, 30, 0.1, 1.0);
            peaks.push(peak_stretch(&mut w, 60));
        }
        println!("{solver:?} ({}): peak stretch {peaks:.3?}", if by_substeps { "substeps" } else { "iterations" });
        // Non-increasing (5% slack for the chaotic whip of a free end), and the last is
        // at least 5 times below the first.
        for p in peaks.windows(2) {
            assert!(p[1] <= p[0] * 1.05, "{solver:?}: {peaks:?}");
        }
        assert!(peaks[peaks.len() - 1] * 5.0 < peaks[0], "{solver:?}: {peaks:?}");
    }
}

/// A rope bridge (21 points, 1.2 × the span) settles to the same shape under
/// Gauss–Seidel PBD, averaged Jacobi PBD and the exact solver, and that shape is the
/// catenary: y = a cosh(x/a) with 2a sinh(s/2a) = length, whose sag it matches.
#[test]
fn gauss_seidel_and_jacobi_reach_the_same_static_equilibrium_the_catenary() {
    let (n, span, slack) = (21usize, 2.0f32, 1.2f32);
    let seg = span * slack / (n - 1) as f32;
    let mut shapes = Vec::new();
    for solver in [SolverKind::Pbd, SolverKind::Jacobi, SolverKind::Exact] {
        let mut w = world(solver, |s| {
            (s.substeps, s.iterations) = (4, 60);
            s.damping = 3.0;
        });
        // Start as a V so the links start at their rest length.
        let drop = ((seg * seg - (span / (n - 1) as f32).powi(2)).max(0.0)).sqrt();
        for i in 0..n {
            let x = -span / 2.0 + span * i as f32 / (n - 1) as f32;
            let y = -drop * (i.min(n - 1 - i)) as f32;
            w.add_particle(&ParticleDef {
                pos: Vec3::new(x, y, 0.0),
                mass: 0.1,
                locked: i == 0 || i == n - 1,
                ..Default::default()
            })
            .unwrap();
        }
        for i in 0..n - 1 {
            w.add_link(&LinkDef { a: i as u32, b: i as u32 + 1, rest: Some(seg), ..Default::default() }).unwrap();
        }
        for _ in 0..900 {
            w.step(DT).unwrap();
        }
        let speed = w.particles.vel.iter().map(|v| v.length()).fold(0.0, f32::max);
        assert!(speed < 1e-3, "{solver:?} has not settled: {speed} m/s");
        shapes.push(w.particles.pos.clone());
    }
    for (k, name) in [(1, "Jacobi"), (2, "exact")] {
        let diff = shapes[0].iter().zip(&shapes[k]).map(|(a, b)| a.distance(*b)).fold(0.0, f32::max);
        println!("Gauss–Seidel vs {name}: largest position difference {diff:.2e} m");
        // 1 mm on a 2.4 m rope.
        assert!(diff < 1e-3, "GS vs {name}: {diff} m");
    }
    // The continuous catenary through the ends: 2a sinh(span/2a) = length.
    let length = span * slack;
    let (mut lo, mut hi) = (0.05f64, 100.0f64);
    for _ in 0..100 {
        let a = 0.5 * (lo + hi);
        if 2.0 * a * (span as f64 / (2.0 * a)).sinh() > length as f64 {
            lo = a;
        } else {
            hi = a;
        }
    }
    let a = 0.5 * (lo + hi);
    let sag = (a * ((span as f64 / (2.0 * a)).cosh() - 1.0)) as f32;
    let measured = -shapes[0][n / 2].y;
    let err = (measured - sag).abs() / sag;
    println!("catenary sag {sag:.4} m, simulated {measured:.4} m, error {:.2}%", err * 100.0);
    // 1.5%: 20 point masses against the continuous chain.
    assert!(err < 0.015);
}

/// XPBD: a 4-link chain of 1 m links with compliance α (m/N) hangs from a pin with a 1 kg
/// point below each link; link k carries (4 - k) weights, so the chain lengthens by
/// α·m·g·(4 + 3 + 2 + 1). The sag must not depend on the substep count nor on the
/// iteration count.
#[test]
fn xpbd_compliance_gives_the_same_sag_at_any_substep_or_iteration_count() {
    let alpha = 1e-3f32;
    let expected = alpha * G * 10.0;
    let mut results = Vec::new();
    for (substeps, iterations) in [(1, 1), (4, 1), (16, 1), (1, 4), (1, 16), (4, 4)] {
        let mut w = world(SolverKind::Xpbd, |s| {
            (s.substeps, s.iterations) = (substeps, iterations);
            s.damping = 3.0;
        });
        for i in 0..5 {
            w.add_particle(&ParticleDef {
                pos: Vec3::new(0.0, -(i as f32), 0.0),
                locked: i == 0,
                ..Default::default()
            })
            .unwrap();
        }
        for i in 0..4 {
            w.add_link(&LinkDef { a: i, b: i + 1, compliance: alpha, ..Default::default() }).unwrap();
        }
        for _ in 0..600 {
            w.step(DT).unwrap();
        }
        let extension = -w.particles.pos[4].y - 4.0;
        let err = (extension - expected) / expected;
        println!("xpbd {substeps} substeps × {iterations} iterations: extension {extension:.5} m (expected {expected:.5}), error {:+.2}%", err * 100.0);
        results.push(((substeps, iterations), extension, err));
    }
    for &((s, i), ext, err) in &results {
        // Against Hooke: 2% once the substep resolves the link's oscillation or the
        // iterations converge (h²/(mα) ≤ 0.02, or ≥ 4 iterations). With 1 substep × 1
        // iteration a sweep ends before its neighbours' corrections are balanced, a bias
        // of order h²/(mα) = 0.28 (measured +19%): allowed 25%.
        let tol = if s == 1 && i == 1 { 0.25 } else { 0.02 };
        assert!(err.abs() < tol, "{s}×{i}: extension {ext} vs {expected}");
    }
    let spread = results.iter().skip(1).map(|r| r.1).fold(f32::MIN, f32::max)
        - results.iter().skip(1).map(|r| r.1).fold(f32::MAX, f32::min);
    println!("spread of the extension over substeps/iterations (excluding 1×1): {spread:.2e} m");
    assert!(spread < 0.025 * expected);
}

/// The period of a pendulum (a point on one link from a pin) against the exact
/// large-amplitude period T = 2π√(L/g) / AGM(1, cos(θ₀/2)), for every solver.
#[test]
fn pendulum_period_matches_the_large_amplitude_formula() {
    let l = 1.0f32;
    let mut failures = Vec::new();
    for solver in SolverKind::ALL.iter().copied() {
        for amp_deg in [10.0f32, 45.0, 90.0, 135.0, 170.0] {
            let theta0 = amp_deg.to_radians();
            let mut w = world(solver, |s| {
                s.substeps = 10;
                s.iterations = if solver == SolverKind::Classic { 10 } else { 2 };
            });
            w.add_particle(&ParticleDef { pos: Vec3::ZERO, locked: true, ..Default::default() }).unwrap();
            w.add_particle(&ParticleDef {
                pos: Vec3::new(l * theta0.sin(), -l * theta0.cos(), 0.0),
                ..Default::default()
            })
            .unwrap();
            w.add_link(&LinkDef { a: 0, b: 1, ..Default::default() }).unwrap();
            // Released from rest, the bob first passes the bottom after a quarter period.
            // (Later swings would mix in the small energy the position projection loses
            // each substep, of order (v h / L)², to which the period near θ₀ = 180° is
            // very sensitive.) The crossing time is interpolated within the step.
            let mut t = 0.0f64;
            let mut x_prev = w.particles.pos[1].x;
            let quarter = loop {
                w.step(DT).unwrap();
                t += DT as f64;
                let x = w.particles.pos[1].x;
                if x <= 0.0 {
                    break t - DT as f64 * (x as f64 / (x as f64 - x_prev as f64));
                }
                x_prev = x;
                assert!(t < 30.0, "{solver:?} {amp_deg}°: no swing");
            };
            let period = 4.0 * quarter;
            let (mut a, mut b) = (1.0f64, (theta0 as f64 / 2.0).cos());
            for _ in 0..30 {
                (a, b) = (0.5 * (a + b), (a * b).sqrt());
            }
            let exact = 2.0 * std::f64::consts::PI * (l as f64 / G as f64).sqrt() / a;
            let err = (period - exact) / exact;
            println!(
                "{solver:?} θ₀ = {amp_deg}°: period {period:.4} s, exact {exact:.4} s, error {:+.3}%",
                err * 100.0
            );
            // 0.25% at every amplitude (measured ≤ 0.15%, with 10 substeps of 1/600 s).
            let tol = 0.0025;
            failures.extend((err.abs() >= tol).then(|| format!("{solver:?} {amp_deg}°: {period} vs {exact}")));
        }
    }
    assert!(failures.is_empty(), "{failures:?}");
}

/// The exact solver keeps every link within 1e-4 of its rest length on a swinging chain
/// with a 100:1 heavy end, on a branching tree of ropes, and the iterative loop relaxation
/// keeps a net close.
#[test]
fn exact_solver_keeps_stretch_below_1e_4() {
    // Heavy-end chain, released horizontally.
    let mut w = world(SolverKind::Exact, |s| s.iterations = 20);
    chain(&mut w, Vec3::ZERO, Vec3::X, 40, 0.1, 1.0);
    w.particles.mass[39] = 100.0;
    w.particles.refresh_inv_mass(39);
    let peak = peak_stretch(&mut w, 300);
    println!("exact, heavy-end chain: peak stretch {peak:.2e}");
    assert!(peak <= 1e-4, "{peak}");

    // A tree: three ropes hanging from one hub point, which hangs from a pinned rope.
    let mut w = world(SolverKind::Exact, |s| s.iterations = 20);
    chain(&mut w, Vec3::ZERO, Vec3::new(1.0, -1.0, 0.0).normalize(), 10, 0.1, 0.5);
    let hub = 9u32;
    for dir in [Vec3::X, Vec3::new(1.0, 1.0, 0.3).normalize(), Vec3::new(0.2, -1.0, 0.5).normalize()] {
        let first = w.particles.len() as u32;
        let hub_pos = w.particles.pos[hub as usize];
        for i in 1..=8 {
            w.add_particle(&ParticleDef { pos: hub_pos + dir * (0.1 * i as f32), mass: 0.5, ..Default::default() })
                .unwrap();
        }
        w.add_link(&LinkDef { a: hub, b: first, rest: Some(0.1), ..Default::default() }).unwrap();
        for i in 0..7 {
            w.add_link(&LinkDef { a: first + i, b: first + i + 1, rest: Some(0.1), ..Default::default() }).unwrap();
        }
    }
    let peak = peak_stretch(&mut w, 300);
    println!("exact, branching tree: peak stretch {peak:.2e}");
    assert!(peak <= 1e-4, "{peak}");
}

/// The same solver gives the same trajectory every run (no hidden state, no randomness).
#[test]
fn same_scene_same_trajectory() {
    for &solver in SolverKind::ALL {
        let run = || {
            let mut w = world(solver, |s| {
                s.tethers = true;
                s.bending = true;
            });
            chain(&mut w, Vec3::ZERO, Vec3::X, 20, 0.1, 1.0);
            for _ in 0..60 {
                w.step(DT).unwrap();
            }
            w.particles.pos
        };
        assert_eq!(run(), run(), "{solver:?}");
    }
}

/// Switching solvers between two steps is seamless: every solver leaves
/// vel = (pos - prev)/h, and the step after a switch continues the motion — its
/// velocities differ from those of continuing with the old solver by no more than two
/// converged solvers differ anyway (2% of the largest speed).
#[test]
fn switching_solvers_mid_run_is_seamless() {
    let build = |solver| {
        let mut w = world(solver, |s| s.iterations = 400);
        chain(&mut w, Vec3::ZERO, Vec3::X, 8, 0.1, 0.2);
        w
    };
    let (mut worst, mut worst_impulse) = (0.0f32, 0.0f32);
    for &a in SolverKind::ALL {
        let mut w = build(a);
        for _ in 0..30 {
            w.step(DT).unwrap();
            for i in 0..w.particles.len() {
                let v = (w.particles.pos[i] - w.particles.prev[i]) / DT;
                assert!((v - w.particles.vel[i]).length() < 1e-3, "{a:?}: vel invariant broken at {i}");
            }
        }
        let mut same = w.clone();
        same.step(DT).unwrap();
        let vmax = same.particles.vel.iter().map(|v| v.length()).fold(0.0, f32::max);
        for &b in SolverKind::ALL {
            let mut switched = w.clone();
            switched.settings.solver = b;
            switched.step(DT).unwrap();
            let dv = (0..w.particles.len())
                .map(|i| (switched.particles.vel[i] - same.particles.vel[i]).length())
                .fold(0.0, f32::max);
            // 2%: what separates converged solvers (Jacobi, averaged, converges slowest). The
            // impulse solver is not a converged rigid solver at one substep of 1/60 s: its
            // rigid rows are Box2D's soft step (a 15 Hz spring there, the quarter-rate cap)
            // and linear position integration of this fast swing stretches its links 33 %
            // (with 4 substeps 1.7 %), so a switch to or from it changes the velocities by
            // that much; for it only the invariant below is checked (and the jump printed).
            if a == SolverKind::Impulse || b == SolverKind::Impulse {
                worst_impulse = worst_impulse.max(dv / vmax);
                let v = (switched.particles.pos[7] - switched.particles.prev[7]) / DT;
                assert!((v - switched.particles.vel[7]).length() < 1e-3);
                continue;
            }
            worst = worst.max(dv / vmax);
            assert!(dv < 0.02 * vmax, "{a:?} → {b:?}: velocity jump {dv} m/s (speeds up to {vmax} m/s)");
            let v = (switched.particles.pos[7] - switched.particles.prev[7]) / DT;
            assert!((v - switched.particles.vel[7]).length() < 1e-3);
        }
    }
    println!("largest velocity change on a switch: {:.2}% of the largest speed", worst * 100.0);
    println!("largest with the impulse solver: {:.2}%", worst_impulse * 100.0);
}

/// Every preset scene the page ships runs under every solver: finite, inside its walls,
/// and stretched no more than docs/solvers.md ("Stretch on the presets") says of its solver,
/// after 4 s at the preset's own substeps and iterations. The bounds (measured figures: the
/// largest over the presets, the end of 240 steps):
/// - `exact`: 1e-4 (measured 7.5e-5, the ragdoll), but where position contacts act after its
///   solve: the leash's rope–rope contacts and dogs 5e-4 (3.5e-4), the capstan's wrap 2e-3
///   (1.2e-3);
/// - `pbd` and `xpbd` (the same projections at zero compliance): 0.2 (0.19, the rope at its
///   3 iterations);
/// - `jacobi`: 0.35 (0.31, the ragdoll);
/// - `impulse`: 0.6 (0.53, the leash, whose dogs pull), and 0.9 (0.87) where a heavy load
///   hangs on light rope points, which its rows cannot hold: the capstan's 150:1, the
///   ragdoll's 1,000:1, the wrecking ball's 330:1.
/// `classic` (the post's algorithm, stretch and all) is checked for finiteness and walls only.
fn preset_stretch_bound(preset: &str, solver: SolverKind) -> f32 {
    match solver {
        SolverKind::Exact => match preset {
            "leash" | "atwood" => 5e-4,
            "capstan" => 2e-3,
            _ => 1e-4,
        },
        SolverKind::Pbd | SolverKind::Xpbd => 0.2,
        SolverKind::Jacobi => 0.35,
        SolverKind::Impulse => match preset {
            "capstan" | "ragdoll" | "wrecking-ball" => 0.9,
            _ => 0.6,
        },
        SolverKind::Classic => f32::INFINITY,
    }
}

#[test]
fn presets_run_under_every_solver() {
    let mut checked = 0;
    for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/www/scenes")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let scene = ropelab::scene::Scene::from_json(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        for &solver in SolverKind::ALL {
            let mut w = scene.build().unwrap();
            w.settings.solver = solver;
            if solver.supports(&w).is_err() {
                continue; // the classic solver and bodies
            }
            for _ in 0..240 {
                w.step(DT).unwrap();
            }
            assert!(w.particles.pos.iter().all(|p| p.is_finite()), "{name} {solver:?}: non-finite");
            if let Some(walls) = w.settings.walls {
                assert!(
                    w.particles.pos.iter().all(|p| p.y >= walls.min.y - 1e-3 && p.x >= walls.min.x - 1e-3),
                    "{name} {solver:?}: left the walls"
                );
            }
            let s = w.max_stretch();
            let bound = preset_stretch_bound(&name, solver);
            println!("{name} {solver:?}: stretch {s:.2e} (bound {bound:e})");
            assert!(s < bound, "{name} {solver:?}: stretch {s} (bound {bound})");
            checked += (solver != SolverKind::Classic) as usize;
        }
    }
    assert!(checked >= 60, "only {checked} preset × solver pairs had their stretch checked");
}
