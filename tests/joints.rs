//! Joints checked against physics (issue 10 §6), under the impulse solver. Each tolerance
//! is stated where it is asserted.

use std::f32::consts::PI;

use glam::{Quat, Vec3};
use ropelab::bodies::{BodyDef, BodyKind, Shape};
use ropelab::ids::Id;
use ropelab::joints::{JointDef, JointKind, Motor, SoftDef};
use ropelab::world::Event;
use ropelab::{Settings, SolverKind, World};

const DT: f32 = 1.0 / 60.0;

fn world(substeps: u32, iterations: u32) -> World {
    World::new(Settings { solver: SolverKind::Impulse, substeps, iterations, friction: 1.0, ..Settings::default() })
}

fn body(w: &mut World, shape: Shape, mass: f32, pos: Vec3, planar: bool) -> Id {
    w.add_body(&BodyDef { shape, mass, pos, planar, ..Default::default() }).unwrap()
}

/// Angle of body `i` about z (rad).
fn angle_z(w: &World, i: usize) -> f32 {
    let (axis, a) = w.bodies.rot[i].to_axis_angle();
    if axis.z < 0.0 {
        -a
    } else {
        a
    }
}

/// A box pendulum on a frictionless hinge about z, pivot `d` from its centre: its small-
/// swing period is 2π√(I_pivot/(m g d)), I_pivot = I_cm + m d².
#[test]
fn a_physical_pendulum_swings_at_its_period_within_1_percent() {
    let (m, d, g) = (2.0f32, 0.3f32, 9.81f32);
    let half = Vec3::new(0.4, 0.05, 0.05);
    let mut w = world(8, 2);
    // Hanging down from the pivot at the origin, then given a 5° swing.
    let b = body(&mut w, Shape::Box { half }, m, Vec3::new(0.0, -d, 0.0), true);
    w.add_joint(&JointDef {
        kind: JointKind::Hinge { limit: None, motor: None },
        a: None,
        b: Some(b),
        anchor: Vec3::ZERO,
        axis: Vec3::Z,
        ..Default::default()
    })
    .unwrap();
    let i_cm = m * (half.x * half.x + half.y * half.y) / 3.0;
    let omega0 = 5f32.to_radians() * (m * g * d / (i_cm + m * d * d)).sqrt();
    w.bodies.ang_vel[0] = Vec3::new(0.0, 0.0, omega0);
    w.bodies.vel[0] = Vec3::new(omega0 * d, 0.0, 0.0);
    let expected = 2.0 * PI * ((i_cm + m * d * d) / (m * g * d)).sqrt();
    let mut crossings = Vec::new();
    let mut last = angle_z(&w, 0);
    for s in 1..=1200 {
        w.step(DT).unwrap();
        let a = angle_z(&w, 0);
        if last < 0.0 && a >= 0.0 {
            crossings.push(s as f32 * DT - DT * a / (a - last));
        }
        last = a;
    }
    let periods: Vec<f32> = crossings.windows(2).map(|c| c[1] - c[0]).collect();
    let mean = periods.iter().sum::<f32>() / periods.len() as f32;
    println!("pendulum: period {mean:.4} s, expected {expected:.4} s ({} periods)", periods.len());
    assert!(periods.len() >= 5);
    assert!((mean - expected).abs() < 0.01 * expected, "period {mean} vs {expected}");
}

/// A hinge motor reaches its speed and, spinning up a heavy wheel, never uses more than its
/// torque cap (it saturates at it); against a load that needs more torque it stalls.
#[test]
fn a_hinge_motor_reaches_its_speed_and_respects_its_torque_cap() {
    let cap = 5.0f32;
    // A 100 kg wheel (I = 1.6 kg·m²) on a hinge at its centre, no gravity: the motor's torque
    // is the only torque about z on it.
    let mut w = world(4, 4);
    w.settings.gravity = Vec3::ZERO;
    let wheel = body(&mut w, Shape::Sphere { radius: 0.2 }, 100.0, Vec3::ZERO, true);
    let motor = Some(Motor { speed: 3.0, max_force: cap });
    w.add_joint(&JointDef {
        kind: JointKind::Hinge { limit: None, motor },
        a: None,
        b: Some(wheel),
        anchor: Vec3::ZERO,
        axis: Vec3::Z,
        ..Default::default()
    })
    .unwrap();
    let mut peak = 0.0f32;
    for _ in 0..240 {
        w.step(DT).unwrap();
        peak = peak.max(w.joints.torque[0].z.abs());
    }
    let wz = w.bodies.ang_vel[0].z;
    // Spin-up at the cap takes 3 rad/s · 1.6 kg·m² / 5 N·m ≈ 0.96 s.
    println!("motor: speed {wz:.4} rad/s (target 3), peak torque {peak:.4} N·m (cap {cap})");
    assert!((wz - 3.0).abs() < 0.01 * 3.0, "speed {wz} (1 %)");
    assert!(peak <= cap * 1.001, "torque {peak} over the cap");
    assert!(peak >= cap * 0.99, "the spin-up saturates the motor: {peak}");
    // An arm whose weight needs 9.8 N·m at horizontal: a 5 N·m motor cannot lift it.
    let mut w = world(4, 4);
    let arm = body(&mut w, Shape::Box { half: Vec3::new(0.5, 0.03, 0.03) }, 2.0, Vec3::new(0.5, 0.0, 0.0), true);
    w.add_joint(&JointDef {
        kind: JointKind::Hinge { limit: None, motor },
        a: None,
        b: Some(arm),
        anchor: Vec3::ZERO,
        axis: Vec3::Z,
        ..Default::default()
    })
    .unwrap();
    for _ in 0..60 {
        w.step(DT).unwrap();
    }
    let a = angle_z(&w, 0);
    println!("motor against 9.8 N·m: arm at {a:.3} rad after 1 s (it sags)");
    assert!(a < 0.0, "the arm rose against a load over the cap: {a}");
}

/// A 10 kg arm on a hinge with limits, held by gravity against its lower stop: it rests
/// within 0.01 rad of the limit.
#[test]
fn a_hinge_limit_holds_a_heavy_arm_at_its_stop() {
    let mut w = world(8, 4);
    let arm = body(&mut w, Shape::Box { half: Vec3::new(0.5, 0.05, 0.05) }, 10.0, Vec3::new(0.5, 0.0, 0.0), true);
    w.add_joint(&JointDef {
        kind: JointKind::Hinge { limit: Some([-0.3, 0.3]), motor: None },
        a: None,
        b: Some(arm),
        anchor: Vec3::ZERO,
        axis: Vec3::Z,
        ..Default::default()
    })
    .unwrap();
    let mut worst = 0.0f32;
    for s in 0..300 {
        w.step(DT).unwrap();
        let a = angle_z(&w, 0);
        if s > 120 {
            worst = worst.max((a + 0.3).abs());
        }
        assert!(a > -0.3 - 0.03, "past the stop: {a}");
    }
    println!("hinge limit: rests within {worst:.4} rad of −0.3");
    assert!(worst < 0.01, "{worst}");
}

/// A prismatic slider pushed by its motor into its stop: it stops within 1 mm of it and
/// never leaves its axis by more than 1 mm.
#[test]
fn a_prismatic_motor_drives_to_its_stop_and_stays_on_its_axis() {
    let mut w = world(8, 4);
    let slider = body(&mut w, Shape::Box { half: Vec3::splat(0.1) }, 5.0, Vec3::ZERO, false);
    w.add_joint(&JointDef {
        kind: JointKind::Prismatic { limit: Some([-0.5, 0.8]), motor: Some(Motor { speed: 1.0, max_force: 200.0 }) },
        a: None,
        b: Some(slider),
        anchor: Vec3::ZERO,
        axis: Vec3::new(1.0, 1.0, 0.0),
        ..Default::default()
    })
    .unwrap();
    let axis = Vec3::new(1.0, 1.0, 0.0).normalize();
    let mut off_axis = 0.0f32;
    for _ in 0..180 {
        w.step(DT).unwrap();
        let p = w.bodies.pos[0];
        off_axis = off_axis.max((p - axis * p.dot(axis)).length());
    }
    let travel = w.bodies.pos[0].dot(axis);
    println!(
        "prismatic: travel {travel:.4} m (stop 0.8), off axis {off_axis:.2e} m, rotation {:.2e} rad",
        w.bodies.rot[0].angle_between(Quat::IDENTITY)
    );
    assert!((travel - 0.8).abs() < 1e-3, "{travel}");
    assert!(off_axis < 1e-3, "{off_axis}");
    assert!(w.bodies.rot[0].angle_between(Quat::IDENTITY) < 1e-3);
}

/// A soft distance joint with damping ratio 0 oscillates at its set frequency (within 2 %),
/// and with damping ratio ζ its amplitude decays by e^{−ζωT} per period (within 10 %).
#[test]
fn a_soft_distance_joint_oscillates_at_its_frequency_and_decays_by_its_damping() {
    for zeta in [0.0f32, 0.1] {
        let hz = 2.0f32;
        let mut w = world(16, 1);
        w.settings.gravity = Vec3::ZERO;
        let b = body(&mut w, Shape::Sphere { radius: 0.05 }, 1.0, Vec3::new(1.0, 0.0, 0.0), false);
        w.add_joint(&JointDef {
            kind: JointKind::Distance { length: 1.0, min: 1.0, max: 1.0 },
            a: None,
            b: Some(b),
            anchor: Vec3::ZERO,
            anchor_b: Some(Vec3::new(1.0, 0.0, 0.0)),
            soft: Some(SoftDef { hertz: hz, damping_ratio: zeta }),
            ..Default::default()
        })
        .unwrap();
        w.bodies.pos[0].x = 1.1; // 10 cm stretched
        let mut xs = Vec::new();
        for _ in 0..600 {
            w.step(DT).unwrap();
            xs.push(w.bodies.pos[0].x - 1.0);
        }
        // Upward zero crossings and the peaks between them.
        let mut ups = Vec::new();
        for k in 1..xs.len() {
            if xs[k - 1] < 0.0 && xs[k] >= 0.0 {
                ups.push((k as f32 - xs[k] / (xs[k] - xs[k - 1])) * DT);
            }
        }
        let period = (ups[ups.len() - 1] - ups[0]) / (ups.len() - 1) as f32;
        let f = 1.0 / period;
        let fd = hz * (1.0 - zeta * zeta).sqrt();
        println!("soft distance ζ {zeta}: {f:.4} Hz (set {hz}, damped {fd:.4})");
        assert!((f - fd).abs() < 0.02 * fd, "frequency {f} vs {fd}");
        if zeta > 0.0 {
            let peak = |k: usize| xs[k * 30..(k + 1) * 30].iter().fold(0.0f32, |m, x| m.max(*x));
            let ratio = peak(2) / peak(1); // one period (30 steps = 0.5 s at 2 Hz) apart
            let expected = (-zeta * 2.0 * PI * hz * (1.0 / fd)).exp();
            println!("  decay per period {ratio:.4}, expected {expected:.4}");
            assert!((ratio - expected).abs() < 0.1 * expected, "decay {ratio} vs {expected}");
        }
    }
}

/// A frictionless hinge pendulum swinging 60° keeps its energy within a band over 60 s: it
/// never gains (the relax pass takes the position-correcting velocity back out; measured
/// +0.01 % of m g d) and loses at most 4 % of m g d (measured 2.6 %: the soft step's damping
/// and the symplectic-Euler integrator's).
#[test]
fn a_frictionless_hinge_pendulum_keeps_its_energy_over_60_s() {
    let mut w = world(8, 2);
    let (m, d) = (1.0f32, 0.5f32);
    let start = Quat::from_rotation_z(-PI / 3.0);
    let pos = start * Vec3::new(d, 0.0, 0.0);
    let b = w
        .add_body(&BodyDef { shape: Shape::Sphere { radius: 0.1 }, mass: m, pos, planar: true, ..Default::default() })
        .unwrap();
    w.add_joint(&JointDef {
        kind: JointKind::Hinge { limit: None, motor: None },
        a: None,
        b: Some(b),
        anchor: Vec3::ZERO,
        axis: Vec3::Z,
        ..Default::default()
    })
    .unwrap();
    let g = 9.81;
    let energy = |w: &World| w.bodies.kinetic_energy(0) + m * g * w.bodies.pos[0].y;
    let e0 = energy(&w);
    let (mut lo, mut hi) = (e0, e0);
    for _ in 0..3600 {
        w.step(DT).unwrap();
        let e = energy(&w);
        lo = lo.min(e);
        hi = hi.max(e);
    }
    let scale = m * g * d; // the swing's energy scale
    println!(
        "hinge pendulum 60 s: energy in [{:.4}, {:.4}] J around {e0:.4} ({:.2} % of m g d)",
        lo,
        hi,
        100.0 * (hi - lo) / scale
    );
    assert!(hi - e0 < 0.002 * scale, "energy grew by {}", hi - e0);
    assert!(e0 - lo < 0.04 * scale, "energy fell by {}", e0 - lo);
}

/// The 2D lock keeps planar bodies in z = 0 within 1e-6 m while they swing in the plane,
/// and takes an out-of-plane spin out of them (3 rad/s about x: z stays within 1e-5 m).
#[test]
fn the_2d_lock_keeps_bodies_in_the_plane() {
    for (kick, z_tol) in [(Vec3::ZERO, 1e-6f32), (Vec3::new(3.0, -2.0, 0.5), 1e-5)] {
        let mut w = world(4, 2);
        let mut prev = None;
        for i in 0..6 {
            let id = body(
                &mut w,
                Shape::Box { half: Vec3::new(0.1, 0.03, 0.03) },
                1.0,
                Vec3::new(0.2 * i as f32 + 0.1, 0.0, 0.0),
                true,
            );
            w.bodies.ang_vel[i] = kick;
            let anchor = Vec3::new(0.2 * i as f32, 0.0, 0.0);
            w.add_joint(&JointDef { kind: JointKind::BallSocket, a: prev, b: Some(id), anchor, ..Default::default() })
                .unwrap();
            prev = Some(id);
        }
        let (mut z, mut tilt) = (0.0f32, 0.0f32);
        for _ in 0..600 {
            w.step(DT).unwrap();
            for i in 0..w.bodies.len() {
                z = z.max(w.bodies.pos[i].z.abs());
                tilt = tilt.max((w.bodies.rot[i] * Vec3::Z).truncate().length());
            }
        }
        println!("2D lock (kick {kick}): |z| ≤ {z:.2e} m, local z tilted ≤ {tilt:.2e}");
        assert!(z <= z_tol, "{z}");
        assert!(tilt < 1e-3, "{tilt}");
    }
}

/// A ragdoll shoulder (swing-twist) shaken hard keeps its cone and twist range.
#[test]
fn a_swing_twist_joint_holds_its_cone_and_twist_when_shaken() {
    let mut w = world(8, 4);
    let torso = w
        .add_body(&BodyDef {
            kind: BodyKind::Kinematic,
            shape: Shape::Box { half: Vec3::splat(0.2) },
            pos: Vec3::ZERO,
            ..Default::default()
        })
        .unwrap();
    let arm = body(&mut w, Shape::Capsule { radius: 0.05, half_length: 0.2 }, 2.0, Vec3::new(0.45, 0.0, 0.0), false);
    let (max_swing, twist) = (0.7f32, [-0.4f32, 0.4]);
    w.add_joint(&JointDef {
        kind: JointKind::SwingTwist { max_swing, twist },
        a: Some(torso),
        b: Some(arm),
        anchor: Vec3::new(0.2, 0.0, 0.0),
        axis: Vec3::X,
        ..Default::default()
    })
    .unwrap();
    let (mut swing, mut tw) = (0.0f32, 0.0f32);
    let mut rng = 12345u32;
    let mut rnd = || {
        rng = rng.wrapping_mul(1664525).wrapping_add(1013904223);
        (rng >> 8) as f32 / (1u32 << 24) as f32 * 2.0 - 1.0
    };
    for s in 0..600 {
        // Shake the torso (kinematic: its velocities move it) and kick the arm.
        w.bodies.vel[0] = Vec3::new(rnd(), rnd(), rnd()) * 1.0;
        w.bodies.ang_vel[0] = Vec3::new(rnd(), rnd(), rnd()) * 2.0;
        if s % 20 == 0 {
            w.bodies.ang_vel[1] += Vec3::new(rnd(), rnd(), rnd()) * 6.0;
        }
        w.step(DT).unwrap();
        let (qa, qb) = (w.bodies.rot[0], w.bodies.rot[1]);
        let f = &w.joints.frames[0];
        let (a_w, r_w) = (qb * f.axis_b, qa * f.axis_a);
        if s > 30 {
            swing = swing.max(ropelab::joints::swing_twist::swing_angle(a_w, r_w));
            tw = tw.max(ropelab::joints::swing_twist::twist_angle(qa, qb, f.q_ref, f.axis_b).abs());
        }
    }
    println!("swing-twist shaken: swing ≤ {swing:.3} rad (cone {max_swing}), |twist| ≤ {tw:.3} rad (range ±0.4)");
    assert!(swing < max_swing + 0.05, "swing {swing}");
    assert!(tw < 0.4 + 0.05, "twist {tw}");
}

/// A joint breaks above its break force (an event) and holds below it.
#[test]
fn a_joint_breaks_above_its_break_force() {
    for (limit, breaks) in [(50.0f32, true), (500.0, false)] {
        let mut w = world(4, 4);
        let b = body(&mut w, Shape::Sphere { radius: 0.1 }, 10.0, Vec3::new(0.0, -0.5, 0.0), false);
        w.add_joint(&JointDef {
            kind: JointKind::BallSocket,
            a: None,
            b: Some(b),
            anchor: Vec3::ZERO,
            break_force: Some(limit),
            ..Default::default()
        })
        .unwrap();
        for _ in 0..60 {
            w.step(DT).unwrap();
        }
        let broke = w.drain_events().iter().any(|e| matches!(e, Event::JointBroken { .. }));
        assert_eq!(broke, breaks, "break force {limit} N under a 98 N load");
        assert_eq!(w.joints.is_empty(), breaks);
    }
}

/// Bad body and joint input is an error and changes nothing.
#[test]
fn bad_body_and_joint_input_changes_nothing() {
    let mut w = world(1, 1);
    let a = body(&mut w, Shape::Sphere { radius: 0.1 }, 1.0, Vec3::ZERO, false);
    let stale = body(&mut w, Shape::Sphere { radius: 0.1 }, 1.0, Vec3::X, false);
    w.remove_body(stale).unwrap();
    let (nb, nj, pos) = (w.bodies.len(), w.joints.len(), w.bodies.pos.clone());
    let bad_bodies = [
        BodyDef { mass: 0.0, ..Default::default() },
        BodyDef { pos: Vec3::new(f32::NAN, 0.0, 0.0), ..Default::default() },
        BodyDef { shape: Shape::Sphere { radius: -1.0 }, ..Default::default() },
    ];
    for d in bad_bodies {
        assert!(w.add_body(&d).is_err());
    }
    let ball = JointKind::BallSocket;
    let bad_joints = [
        JointDef { kind: ball, a: Some(a), b: Some(a), ..Default::default() },
        JointDef { kind: ball, a: None, b: Some(stale), ..Default::default() },
        JointDef { kind: ball, a: None, b: Some(Id(999)), ..Default::default() },
        JointDef { kind: ball, a: None, b: None, ..Default::default() },
        JointDef { kind: ball, a: None, b: Some(a), anchor: Vec3::splat(f32::NAN), ..Default::default() },
        JointDef {
            kind: JointKind::Hinge { limit: Some([1.0, -1.0]), motor: None },
            a: None,
            b: Some(a),
            ..Default::default()
        },
        JointDef {
            kind: JointKind::Hinge { limit: None, motor: Some(Motor { speed: 1.0, max_force: -1.0 }) },
            a: None,
            b: Some(a),
            ..Default::default()
        },
        JointDef { kind: ball, a: None, b: Some(a), axis: Vec3::ZERO, ..Default::default() },
        JointDef {
            kind: ball,
            a: None,
            b: Some(a),
            soft: Some(SoftDef { hertz: f32::INFINITY, damping_ratio: 1.0 }),
            ..Default::default()
        },
    ];
    for d in bad_joints {
        assert!(w.add_joint(&d).is_err(), "{d:?}");
    }
    assert!(w.remove_body(stale).is_err());
    assert_eq!((w.bodies.len(), w.joints.len(), &w.bodies.pos), (nb, nj, &pos));
}
