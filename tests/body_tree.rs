//! The exact solver's direct solve of ball-socket body trees (`solver::exact::body_tree`)
//! checked against physics: inextensible chains (also with a 1000:1 mass ratio), a
//! physical pendulum's period, a branching tree, and a loop that falls back to the rows.
//! Every tolerance is stated where it is asserted, with the figure measured when it was set
//! (run with `--nocapture` to see them).

use std::f32::consts::PI;

use glam::{Quat, Vec3};
use ropelab::bodies::{BodyDef, BodyKind, Shape};
use ropelab::ids::Id;
use ropelab::joints::{JointDef, JointKind};
use ropelab::workloads::Workload;
use ropelab::{Settings, SolverKind, World};

const DT: f32 = 1.0 / 60.0;
const G: f32 = 9.81;

fn world(substeps: u32, iterations: u32) -> World {
    World::new(Settings {
        solver: SolverKind::Exact,
        substeps,
        iterations,
        friction: 1.0,
        gravity: Vec3::new(0.0, -G, 0.0),
        ..Settings::default()
    })
}

fn sphere(w: &mut World, kind: BodyKind, mass: f32, radius: f32, pos: Vec3) -> Id {
    w.add_body(&BodyDef { kind, shape: Shape::Sphere { radius }, mass, pos, ..Default::default() }).unwrap()
}

fn ball(w: &mut World, a: Option<Id>, b: Option<Id>, anchor: Vec3) -> Id {
    w.add_joint(&JointDef { kind: JointKind::BallSocket, a, b, anchor, ..Default::default() }).unwrap()
}

/// World anchors of joint `k` on A and on B.
fn anchors(w: &World, k: usize) -> (Vec3, Vec3) {
    let f = &w.joints.frames[k];
    let pose = |id: Option<Id>| match id {
        Some(id) => {
            let i = w.bodies.index(id).unwrap();
            (w.bodies.pos[i], w.bodies.rot[i])
        }
        None => (Vec3::ZERO, Quat::IDENTITY),
    };
    let ((xa, qa), (xb, qb)) = (pose(w.joints.a[k]), pose(w.joints.b[k]));
    (xa + qa * f.local_a, xb + qb * f.local_b)
}

/// The largest anchor separation over every joint (m).
fn max_gap(w: &World) -> f32 {
    (0..w.joints.len()).map(|k| anchors(w, k)).map(|(a, b)| a.distance(b)).fold(0.0, f32::max)
}

/// A vertical chain of `n` spheres 0.1 m apart hanging from a static body at the origin,
/// the last one `last_mass` kg (the others 1 kg), each joined to the next at its own centre
/// (as W4).
fn hanging_chain(n: usize, last_mass: f32, substeps: u32, iterations: u32) -> World {
    let mut w = world(substeps, iterations);
    let mut prev = sphere(&mut w, BodyKind::Static, 1.0, 0.04, Vec3::ZERO);
    for i in 1..=n {
        let m = if i == n { last_mass } else { 1.0 };
        let b = sphere(&mut w, BodyKind::Dynamic, m, 0.04, Vec3::new(0.0, -0.1 * i as f32, 0.0));
        ball(&mut w, Some(prev), Some(b), Vec3::new(0.0, -0.1 * (i - 1) as f32, 0.0));
        prev = b;
    }
    w
}

/// Centre-to-centre stretch of a chain of bodies 0.1 m apart (as W4's).
fn centre_stretch(w: &World) -> f32 {
    w.bodies.pos.windows(2).map(|q| ((q[1] - q[0]).length() - 0.1).abs() / 0.1).fold(0.0, f32::max)
}

/// The point: an inextensible chain holds a heavy body exactly. W4 (100 spheres from
/// horizontal, at its budget of `Workload::settings`: 1 substep × ≤ 5 passes) for 10 s, and
/// a 30-sphere chain swung sideways with a 100 kg body at its end, at the same budget.
/// Tolerances (docs/physics.md): W4's stretch at the end < 1e-4 (measured 1.4e-5) and at
/// every step < 1e-4 (the passes stop at 8e-5 of the span, and the free end whips a little
/// past it: measured peak 8.4e-5); the heavy chain < 5e-5 at every step (measured 2.6e-5).
#[test]
fn an_inextensible_chain_of_bodies_holds_exactly() {
    let mut w = Workload::W4.build(SolverKind::Exact);
    let mut peak = 0.0f32;
    for _ in 0..600 {
        w.step(DT).unwrap();
        peak = peak.max(Workload::W4.stretch(&w));
    }
    let end = Workload::W4.stretch(&w);
    println!("W4 under exact, 600 steps: stretch {end:.3e}, peak {peak:.3e}");
    assert!(end < 1e-4, "W4 stretch {end}");
    assert!(peak < 1e-4, "W4 peak stretch {peak}");
    assert!(w.bodies.pos.iter().all(|p| p.is_finite() && p.z == 0.0), "stays in its plane");

    let mut w = hanging_chain(30, 100.0, 1, 5);
    let k = w.bodies.len() - 1;
    w.bodies.vel[k] = Vec3::new(3.0, 0.0, 0.0);
    let mut peak = 0.0f32;
    for _ in 0..600 {
        w.step(DT).unwrap();
        peak = peak.max(centre_stretch(&w));
    }
    println!("30 spheres + 100 kg swinging, 600 steps: peak stretch {peak:.3e}");
    assert!(peak < 5e-5, "heavy chain peak stretch {peak}");
}

/// A chain whose last body is 1000 times heavier than the others (1 kg links, 1000 kg end):
/// impulse rows and iterative projections stretch it by the mass ratio; the direct solve
/// does not care. Released 30° from the vertical, at W4's budget (1 substep × ≤ 5 passes;
/// it takes 2 per step). Before the geometric stiffness was in the pass this chain came
/// apart at one pass per substep (the first step's Gauss–Newton pass overshot, see
/// `solver::exact::body_tree`). Tolerance (docs/physics.md): stretch < 1e-4 at every step (the
/// passes stop at 8e-5 of the span; measured 8.2e-5), the joints' anchors within 2e-5 m.
#[test]
fn a_mass_ratio_of_1000_stays_within_tolerance() {
    let mut w = world(1, 5);
    let mut prev = sphere(&mut w, BodyKind::Static, 1.0, 0.04, Vec3::ZERO);
    let dir = Vec3::new(30f32.to_radians().sin(), -30f32.to_radians().cos(), 0.0);
    let n = 20;
    for i in 1..=n {
        let m = if i == n { 1000.0 } else { 1.0 };
        let b = sphere(&mut w, BodyKind::Dynamic, m, 0.04, dir * (0.1 * i as f32));
        ball(&mut w, Some(prev), Some(b), dir * (0.1 * (i - 1) as f32));
        prev = b;
    }
    let (mut peak, mut gap) = (0.0f32, 0.0f32);
    for _ in 0..600 {
        w.step(DT).unwrap();
        peak = peak.max(centre_stretch(&w));
        gap = gap.max(max_gap(&w));
    }
    println!("1000:1 chain, 600 steps: peak stretch {peak:.3e}, largest anchor gap {gap:.3e} m");
    assert!(peak < 1e-4, "peak stretch {peak}");
    assert!(gap < 2e-5, "anchor gap {gap}");
}

/// A physical pendulum: one capsule hanging on a ball-socket (the world) at its top, pivot
/// `d` from its centre, swinging 5°: period 2π√(I_pivot/(m g d)) (the 5° amplitude lengthens
/// it by 1.0005). Under exact at 4 substeps (the tree projection at h = 1/240 s). Tolerance
/// 1 %; measured 0.01 % (16 periods).
///
/// The projection is position-based, so the pendulum is damped as by implicit Euler: the
/// amplitude decays as e^(−½ h ω² t) (the joint force is taken where the step ends), 0.30
/// after 20 s at h = 1/240 s (measured 0.33; 0.75 at 16 substeps). The impulse solver's
/// relax pass keeps the energy instead; the exact solver trades that for exactness, as it
/// does for ropes. Asserted: between 0.25 and 0.45 of the start after 20 s, i.e. the
/// damping within about ±15 % of the implicit-Euler rate, and never a gain.
#[test]
fn a_physical_pendulum_on_a_ball_joint_keeps_its_period() {
    let (m, r, l, d) = (1.5f32, 0.05f32, 0.25f32, 0.2f32);
    let (vc, vs) = (PI * r * r * 2.0 * l, 4.0 / 3.0 * PI * r * r * r);
    let (mc, ms) = (m * vc / (vc + vs), m * vs / (vc + vs));
    let hemi = 0.4 * (ms / 2.0) * r * r - (ms / 2.0) * (0.375 * r).powi(2) + (ms / 2.0) * (l + 0.375 * r).powi(2);
    let i_cm = mc * ((2.0 * l).powi(2) / 12.0 + r * r / 4.0) + 2.0 * hemi;
    let i_pivot = i_cm + m * d * d;
    let mut w = world(4, 5);
    let b = w
        .add_body(&BodyDef {
            shape: Shape::Capsule { radius: r, half_length: l },
            mass: m,
            pos: Vec3::new(0.0, -d, 0.0),
            rot: Quat::from_rotation_z(PI / 2.0),
            ..Default::default()
        })
        .unwrap();
    ball(&mut w, None, Some(b), Vec3::ZERO);
    let amplitude = 5f32.to_radians();
    let omega0 = amplitude * (m * G * d / i_pivot).sqrt();
    w.bodies.ang_vel[0] = Vec3::new(0.0, 0.0, omega0);
    w.bodies.vel[0] = Vec3::new(omega0 * d, 0.0, 0.0);
    let expected = 2.0 * PI * (i_pivot / (m * G * d)).sqrt();
    let mut xs = Vec::new();
    let mut gap = 0.0f32;
    for _ in 0..1200 {
        w.step(DT).unwrap();
        let x = w.bodies.pos[0];
        xs.push(x.x.atan2(-x.y));
        gap = gap.max(max_gap(&w));
    }
    let up: Vec<f32> = (1..xs.len())
        .filter(|&k| xs[k - 1] < 0.0 && xs[k] >= 0.0)
        .map(|k| (k as f32 - xs[k] / (xs[k] - xs[k - 1])) * DT)
        .collect();
    let n = up.len() - 1;
    let period = (up[n] - up[0]) / n as f32;
    let late = xs[xs.len() - 120..].iter().fold(0.0f32, |a, &x| a.max(x.abs()));
    println!(
        "capsule on a ball joint under exact: period {period:.4} s, expected {expected:.4} s ({n} periods), \
         amplitude {:.2}° after 20 s ({:.3} of the start), anchor gap {gap:.2e} m",
        late.to_degrees(),
        late / amplitude
    );
    assert!(n >= 10);
    assert!((period - expected).abs() < 0.01 * expected, "period {period} vs {expected} (1 %)");
    let ratio = late / amplitude;
    assert!((0.25..0.45).contains(&ratio), "amplitude ratio after 20 s {ratio} (e^(−½hω²t) = 0.30)");
    assert!(gap < 1e-5, "anchor gap {gap}");
}

/// A tree: a 2 kg body hanging from the world with three 1 kg children hanging from it at
/// three anchors, each child with a 0.5 kg grandchild (a body with 3 children, and joints
/// whose both levers are non-zero), knocked sideways. Tolerance: every anchor gap under
/// 1e-5 m at every step (measured 5.6e-7 m), and every joint solved directly.
#[test]
fn a_tree_of_bodies_with_a_three_way_branch_is_solved_directly() {
    let mut w = world(5, 1);
    let hub = sphere(&mut w, BodyKind::Dynamic, 2.0, 0.1, Vec3::new(0.0, -0.3, 0.0));
    ball(&mut w, None, Some(hub), Vec3::new(0.0, -0.2, 0.0));
    for (k, dir) in
        [Vec3::new(-1.0, -1.0, 0.0), Vec3::new(0.0, -1.0, 0.3), Vec3::new(1.0, -1.0, -0.2)].iter().enumerate()
    {
        let dir = dir.normalize();
        let anchor = Vec3::new(0.0, -0.3, 0.0) + dir * 0.1;
        let child = sphere(&mut w, BodyKind::Dynamic, 1.0, 0.05, anchor + dir * 0.15);
        ball(&mut w, Some(hub), Some(child), anchor);
        let grand = sphere(&mut w, BodyKind::Dynamic, 0.5, 0.05, anchor + dir * 0.4);
        ball(&mut w, Some(child), Some(grand), anchor + dir * 0.27);
        w.bodies.vel[2 * k + 2] = Vec3::new(1.0, 0.0, 0.5);
    }
    w.bodies.ang_vel[0] = Vec3::new(0.0, 2.0, 1.0);
    let mut gap = 0.0f32;
    for _ in 0..600 {
        w.step(DT).unwrap();
        gap = gap.max(max_gap(&w));
        assert!(w.bodies.pos.iter().all(|p| p.is_finite()));
    }
    println!("three-way tree, 600 steps: largest anchor gap {gap:.3e} m");
    assert_eq!(w.joints.len(), 7);
    assert!(gap < 1e-5, "anchor gap {gap}");
    assert_eq!(w.direct_body_joints(), 7, "every joint of the tree is solved directly");
}

/// A loop: four bodies in a square joined corner to corner by ball-sockets (four joints,
/// one of which closes the loop), one of them hung from the world. Three of the square's
/// joints and the hanger are the tree; the fourth stays an impulse row, and the whole must
/// neither blow up nor come apart over 10 s of swinging (5 substeps, up to 5 passes).
/// Tolerances: the tree joints' anchor gap under 5e-5 m (the convergence tolerance is
/// 8e-5 × their 0.3 m span = 2.4e-5 m; measured 1.1e-5 m); the loop joint's under 5e-2 m
/// (measured 3.2e-2 m: the row acts first and the tree's projection then moves its bodies,
/// so the loop joint takes the whole error, where under the impulse solver all five rows
/// share it, 8e-3 m at most — solving loop joints inside the passes would close that gap).
#[test]
fn a_loop_falls_back_to_rows_without_blowing_up() {
    let mut w = world(5, 5);
    let c =
        [Vec3::new(0.0, -0.2, 0.0), Vec3::new(0.3, -0.2, 0.0), Vec3::new(0.3, -0.5, 0.0), Vec3::new(0.0, -0.5, 0.0)];
    let ids: Vec<Id> = c.iter().map(|&p| sphere(&mut w, BodyKind::Dynamic, 1.0, 0.05, p)).collect();
    ball(&mut w, None, Some(ids[0]), Vec3::new(0.0, 0.0, 0.0));
    for k in 0..4 {
        let (a, b) = (ids[k], ids[(k + 1) % 4]);
        ball(&mut w, Some(a), Some(b), (c[k] + c[(k + 1) % 4]) * 0.5);
    }
    w.bodies.vel[2] = Vec3::new(2.0, 0.0, 1.0);
    let (mut tree_gap, mut loop_gap) = (0.0f32, 0.0f32);
    for _ in 0..600 {
        w.step(DT).unwrap();
        assert!(w.bodies.pos.iter().all(|p| p.is_finite()));
        let direct = w.direct_body_joint_flags();
        for (k, &direct) in direct.iter().enumerate() {
            let (a, b) = anchors(&w, k);
            let g = a.distance(b);
            if direct {
                tree_gap = tree_gap.max(g);
            } else {
                loop_gap = loop_gap.max(g);
            }
        }
    }
    println!("square loop, 600 steps: tree joints' gap {tree_gap:.3e} m, loop joint's {loop_gap:.3e} m");
    assert_eq!(w.direct_body_joints(), 4, "the hanger and three sides");
    assert!(tree_gap < 5e-5, "tree gap {tree_gap}");
    assert!(loop_gap < 5e-2, "loop gap {loop_gap}");
}

/// Under every other solver nothing is solved directly (their body joints stay rows).
#[test]
fn only_the_exact_solver_solves_body_trees_directly() {
    for &solver in SolverKind::ALL.iter().filter(|&&s| Workload::W4.runs_under(s)) {
        let mut w = Workload::W4.build(solver);
        w.step(DT).unwrap();
        let expected = if solver == SolverKind::Exact { 99 } else { 0 };
        assert_eq!(w.direct_body_joints(), expected, "{solver:?}");
    }
}

/// One Newton pass solves the linearised system exactly: on a branching tree of boxes
/// (anisotropic inertia, mixed masses, levers on both sides of every joint, one end on the
/// world), with every body knocked off its joints by ε (position and rotation), one pass
/// leaves only the second-order remainder: halving ε quarters the largest gap. Without
/// gravity and at rest, so the pass is all that moves anything. Tolerance: the ratio of the
/// gaps at ε = 0.02 and 0.01 within 4 ± 0.8 (measured 3.89), and the largest gap after
/// one pass below a tenth of the largest before it (measured 2.0e-2 m → 1.2e-3 m at ε = 0.01).
#[test]
fn one_pass_solves_the_linearised_tree_exactly() {
    let gap_after_one_pass = |eps: f32| -> (f32, f32) {
        let mut w = world(1, 1);
        w.settings.gravity = Vec3::ZERO;
        let boxy = |w: &mut World, m: f32, pos: Vec3, half: Vec3| {
            w.add_body(&BodyDef { shape: Shape::Box { half }, mass: m, pos, ..Default::default() }).unwrap()
        };
        let hub = boxy(&mut w, 2.0, Vec3::new(0.0, -0.3, 0.0), Vec3::new(0.1, 0.05, 0.08));
        ball(&mut w, None, Some(hub), Vec3::new(0.02, -0.22, 0.01));
        for (k, dir) in
            [Vec3::new(-1.0, -1.0, 0.2), Vec3::new(0.1, -1.0, 0.3), Vec3::new(1.0, -0.7, -0.2)].iter().enumerate()
        {
            let dir = dir.normalize();
            let anchor = Vec3::new(0.0, -0.3, 0.0) + dir * 0.12;
            let child = boxy(&mut w, 0.5 + k as f32, anchor + dir * 0.15, Vec3::new(0.03, 0.12, 0.05));
            ball(&mut w, Some(hub), Some(child), anchor);
            let grand = boxy(&mut w, 3.0, anchor + dir * 0.4, Vec3::new(0.06, 0.04, 0.09));
            ball(&mut w, Some(grand), Some(child), anchor + dir * 0.27);
        }
        for k in 0..w.bodies.len() {
            let t = k as f32 + 1.0;
            w.bodies.pos[k] += Vec3::new((t * 1.3).sin(), (t * 2.1).cos(), (t * 0.7).sin()) * eps;
            let turn =
                Quat::from_scaled_axis(Vec3::new((t * 0.9).cos(), (t * 1.7).sin(), (t * 2.3).cos()) * (2.0 * eps));
            w.bodies.rot[k] = (turn * w.bodies.rot[k]).normalize();
        }
        let before = max_gap(&w);
        w.step(DT).unwrap();
        assert_eq!(w.direct_body_joints(), 7);
        assert!(before > eps, "the knock opens the joints: {before}");
        (before, max_gap(&w))
    };
    let ((b1, g1), (b2, g2)) = (gap_after_one_pass(0.01), gap_after_one_pass(0.02));
    println!(
        "one pass: gap {b1:.3e} → {g1:.3e} m at ε = 0.01, {b2:.3e} → {g2:.3e} m at ε = 0.02 (ratio {:.2})",
        g2 / g1
    );
    assert!(g1 < 0.1 * b1, "gap after one pass {g1} (before: {b1})");
    assert!((g2 / g1 - 4.0).abs() < 0.8, "second order: ratio {}", g2 / g1);
}
