//! Constraints and collisions checked against physics: bending against the discrete
//! cantilever, friction against Coulomb's slope criterion, restitution against bounce
//! heights, pins and the mouse against Hooke's law, tearing by force, tethers, obstacles.
//! Every tolerance is stated next to its assertion.

use glam::Vec3;
use ropelab::collide::{Obstacle, Shape};
use ropelab::{Event, LinkDef, LinkKind, ParticleDef, Settings, SolverKind, World};

const DT: f32 = 1.0 / 60.0;
const G: f32 = 9.81;
const PBD_FAMILY: [SolverKind; 4] = [SolverKind::Pbd, SolverKind::Jacobi, SolverKind::Xpbd, SolverKind::Exact];

fn world(solver: SolverKind, f: impl FnOnce(&mut Settings)) -> World {
    let mut s = Settings { solver, friction: 1.0, ..Settings::default() };
    f(&mut s);
    World::new(s)
}

fn particle(w: &mut World, pos: Vec3, mass: f32, locked: bool) -> usize {
    w.add_particle(&ParticleDef { pos, mass, locked, radius: 0.02, ..Default::default() }).unwrap()
}

fn link(w: &mut World, a: usize, b: usize) -> usize {
    w.add_link(&LinkDef { a: a as u32, b: b as u32, ..Default::default() }).unwrap()
}

fn run(w: &mut World, steps: usize) {
    for _ in 0..steps {
        w.step(DT).unwrap();
    }
}

/// A cantilever: two locked points clamp one end, n free points stick out horizontally,
/// each joint resists bending with compliance α (angular stiffness 1/α). In static
/// equilibrium with small angles, the joint at point j turns by θ_j = α·τ_j, τ_j the
/// weight torque of the points beyond j about it, and the tip drops by Σ_j θ_j·(x_tip - x_j).
#[test]
fn bending_holds_a_short_cantilever_as_the_discrete_beam_predicts() {
    let (seg, mass, alpha, free) = (0.1f32, 0.01f32, 0.05f32, 5usize);
    // Expected tip deflection (small-angle discrete beam).
    let n = free + 2;
    let mut expected = 0.0;
    for j in 1..n - 1 {
        let torque: f32 = (j + 1..n).map(|k| mass * G * (k - j) as f32 * seg).sum();
        expected += alpha * torque * (n - 1 - j) as f32 * seg;
    }
    assert!(expected > 0.005 && expected < 0.05, "a small deflection, where the linear theory holds: {expected}");
    for solver in [SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Exact] {
        let mut w = world(solver, |s| {
            s.bending = true;
            s.bending_compliance = alpha;
            s.iterations = 50;
            s.substeps = 4;
            s.damping = 5.0;
        });
        for i in 0..n {
            particle(&mut w, Vec3::new(seg * i as f32, 1.0, 0.0), mass, i < 2);
        }
        for i in 0..n - 1 {
            link(&mut w, i, i + 1);
        }
        run(&mut w, 240);
        let drop = 1.0 - w.particles.pos[n - 1].y;
        let err = (drop - expected).abs() / expected;
        println!("{solver:?}: tip drop {drop:.5} m, beam theory {expected:.5} m, error {:.2}%", err * 100.0);
        // 2% (measured ≤ 0.12%): the theory is linear in θ (here θ ≤ 0.1 rad) and the
        // solvers' bending is XPBD, converged by 50 iterations × 4 substeps.
        assert!(err < 0.02, "{solver:?}: tip drop {drop} vs {expected}");
        assert!(w.particles.pos.iter().all(|p| p.z == 0.0), "bending must stay in the plane");
        // Without bending the same cantilever just hangs down.
        w.settings.bending = false;
        run(&mut w, 120);
        assert!(1.0 - w.particles.pos[n - 1].y > 0.2, "{solver:?}: without bending it must droop");
    }
}

/// A planar rope with strong bending swinging under gravity never leaves its plane (the
/// 000 seed's nudge pushed along t₁ × t₂, out of the plane).
#[test]
fn bending_stays_in_the_plane_of_the_rope() {
    for solver in PBD_FAMILY {
        let mut w = world(solver, |s| {
            s.bending = true;
            s.bending_compliance = 1e-3;
            s.iterations = 4;
        });
        for i in 0..12 {
            particle(&mut w, Vec3::new(0.1 * i as f32, 0.02 * (i as f32).sin(), 0.0), 0.1, i == 0);
        }
        for i in 0..11 {
            link(&mut w, i, i + 1);
        }
        run(&mut w, 120);
        let max_z = w.particles.pos.iter().map(|p| p.z.abs()).fold(0.0, f32::max);
        assert_eq!(max_z, 0.0, "{solver:?}");
    }
}

/// A short rope lies along a slope of angle θ with Coulomb friction μ (static = dynamic).
/// Below tan θ = μ it must stay put; above it must slide with a = g (sin θ - μ cos θ).
#[test]
fn friction_holds_a_rope_on_a_slope_below_tan_theta_mu_and_lets_it_slide_above() {
    let mu = 0.5f32;
    for solver in PBD_FAMILY {
        for (tan, slides) in [(0.8 * mu, false), (1.25 * mu, true)] {
            let theta = tan.atan();
            let normal = Vec3::new(-theta.sin(), theta.cos(), 0.0);
            let down = Vec3::new(-theta.cos(), -theta.sin(), 0.0); // along the slope, downhill
            let mut w = world(solver, |s| s.iterations = 4);
            let mut o = Obstacle::new(Shape::Plane { point: Vec3::ZERO, normal });
            o.friction = mu;
            w.add_obstacle(&o).unwrap();
            let r = 0.02;
            for i in 0..5 {
                particle(&mut w, normal * r - down * (0.1 * i as f32), 0.1, false);
            }
            for i in 0..4 {
                link(&mut w, i, i + 1);
            }
            let start = w.particles.pos[0];
            let t = 1.0;
            run(&mut w, 60);
            let moved = (w.particles.pos[0] - start).dot(down);
            if slides {
                let a = G * (theta.sin() - mu * theta.cos());
                let expected = 0.5 * a * t * t;
                let err = (moved - expected).abs() / expected;
                println!(
                    "{solver:?} tanθ = {tan:.3}: slid {moved:.4} m, Coulomb {expected:.4} m, error {:.1}%",
                    err * 100.0
                );
                // 6%: position-level friction over 60 steps of 1/60 s.
                assert!(err < 0.06, "{solver:?}: slid {moved} vs {expected}");
            } else {
                println!("{solver:?} tanθ = {tan:.3}: moved {moved:.2e} m (must stick)");
                // Static friction: less than 0.1 mm in one second.
                assert!(moved.abs() < 1e-4, "{solver:?}: crept {moved} m below tan θ = μ");
            }
            // On the surface, not in it (within 1 mm).
            let depth = w.particles.pos.iter().map(|p| p.dot(normal) - r).fold(f32::MAX, f32::min);
            assert!(depth > -1e-3, "{solver:?}: penetrated {depth}");
        }
    }
}

/// A ball dropped from height H onto ground with restitution e rebounds to e²·H.
#[test]
fn restitution_gives_the_bounce_height_e_squared() {
    for solver in PBD_FAMILY {
        for e in [0.0f32, 0.5, 0.9] {
            let mut w = world(solver, |s| s.substeps = 8);
            let mut o = Obstacle::new(Shape::Plane { point: Vec3::ZERO, normal: Vec3::Y });
            o.restitution = e;
            w.add_obstacle(&o).unwrap();
            let h0 = 1.0f32;
            let i = particle(&mut w, Vec3::new(0.0, h0 + 0.02, 0.0), 1.0, false);
            let mut bounced = false;
            let mut apex = 0.0f32;
            for _ in 0..120 {
                w.step(DT).unwrap();
                let (y, vy) = (w.particles.pos[i].y - 0.02, w.particles.vel[i].y);
                if vy > 0.0 {
                    bounced = true;
                }
                if bounced {
                    apex = apex.max(y);
                }
            }
            let expected = e * e * h0;
            println!("{solver:?} e = {e}: rebound {apex:.4} m, e²H = {expected:.4} m");
            // 3% of the drop height: the contact is detected within a substep of 1/480 s.
            assert!((apex - expected).abs() < 0.03 * h0, "{solver:?} e = {e}: rebound {apex} vs {expected}");
        }
    }
}

/// A particle rests on top of each obstacle shape at its radius plus the particle's.
#[test]
fn obstacles_hold_particles_at_their_surface() {
    let shapes = [
        Shape::Circle { center: Vec3::new(0.0, 0.5, 0.0), radius: 0.5 },
        Shape::Capsule { a: Vec3::new(-1.0, 0.5, 0.0), b: Vec3::new(1.0, 0.5, 0.0), radius: 0.5 },
        Shape::Box { center: Vec3::new(0.0, 0.5, 0.0), half: Vec3::new(1.0, 0.5, 1.0), angle: 0.0 },
        Shape::Box { center: Vec3::new(0.0, 0.0, 0.0), half: Vec3::new(1.0, 1.0, 1.0), angle: 0.3 },
    ];
    for solver in PBD_FAMILY {
        for shape in shapes {
            let mut w = world(solver, |s| s.damping = 1.0);
            let mut o = Obstacle::new(shape);
            o.friction = 1.0;
            w.add_obstacle(&o).unwrap();
            let i = particle(&mut w, Vec3::new(0.05, 2.0, 0.0), 1.0, false);
            run(&mut w, 120);
            let (d, _) = shape.distance(w.particles.pos[i]);
            // Resting within 1 mm of the surface (radius 0.02 m).
            assert!((d - 0.02).abs() < 1e-3, "{solver:?} {shape:?}: rests at {d}");
        }
    }
}

/// Walls keep particles inside, with the walls' friction.
#[test]
fn walls_keep_particles_inside() {
    for solver in PBD_FAMILY {
        let mut w = world(solver, |s| {
            s.walls = Some(ropelab::Walls { min: glam::Vec2::new(-1.0, 0.0), max: glam::Vec2::new(1.0, 2.0) });
            s.restitution = 0.5;
        });
        let i = w.add_particle(&ParticleDef {
            pos: Vec3::new(0.0, 1.0, 0.0),
            vel: Vec3::new(20.0, -10.0, 0.0),
            ..Default::default()
        });
        let i = i.unwrap();
        for _ in 0..120 {
            w.step(DT).unwrap();
            let p = w.particles.pos[i];
            let r = w.particles.radius[i];
            assert!(p.x <= 1.0 - r + 1e-4 && p.x >= -1.0 + r - 1e-4 && p.y >= r - 1e-4, "{solver:?}: escaped to {p}");
        }
    }
}

/// A pin of compliance α holding a mass m sags by m·g·α (Hooke); a rigid pin holds exactly.
#[test]
fn compliant_pins_sag_by_m_g_alpha_and_rigid_pins_hold() {
    for solver in PBD_FAMILY {
        for (alpha, mass) in [(0.0f32, 1.0f32), (1e-3, 2.0), (1e-2, 0.5)] {
            let mut w = world(solver, |s| {
                s.damping = 4.0;
                s.substeps = 4;
            });
            let target = Vec3::new(0.3, 1.0, 0.0);
            let i = particle(&mut w, target + Vec3::X * 0.1, mass, false);
            w.pin(i as i64, target, alpha).unwrap();
            run(&mut w, 300);
            let sag = target.y - w.particles.pos[i].y;
            let expected = mass * G * alpha;
            // 1% of the expected sag, or 1e-5 m for a rigid pin.
            assert!(
                (sag - expected).abs() <= 0.01 * expected + 1e-5,
                "{solver:?} α = {alpha}: sag {sag} vs {expected}"
            );
            assert!((w.particles.pos[i].x - target.x).abs() < 1e-4);
        }
    }
}

/// The mouse constraint: with a drag compliance c the held point trails the pointer by
/// m·g·c when still, and follows it when moved; c = 0 holds it exactly (kinematic).
#[test]
fn soft_mouse_drag_is_a_compliant_pin_to_the_pointer() {
    for solver in PBD_FAMILY {
        let mut w = world(solver, |s| {
            s.damping = 4.0;
            s.substeps = 4;
            s.drag_compliance = 1e-3;
        });
        let i = particle(&mut w, Vec3::new(0.0, 1.0, 0.0), 2.0, false);
        w.grab(7, i as i64).unwrap();
        w.drag_to(7, 0.5, 1.5).unwrap();
        run(&mut w, 300);
        let p = w.particles.pos[i];
        let expected = Vec3::new(0.5, 1.5 - 2.0 * G * 1e-3, 0.0);
        // 1 mm.
        assert!((p - expected).length() < 1e-3, "{solver:?}: held at {p}, expected {expected}");
        assert!(w.particles.inv_mass[i] > 0.0, "a soft hold keeps the mass");
        w.release(7);
        assert_eq!(w.particles.inv_mass[i], 0.5);
        // Kinematic (c = 0): exactly at the pointer.
        w.settings.drag_compliance = 0.0;
        w.grab(7, i as i64).unwrap();
        w.drag_to(7, -0.5, 2.0).unwrap();
        run(&mut w, 2);
        assert_eq!(w.particles.pos[i], Vec3::new(-0.5, 2.0, 0.0));
    }
}

/// A link tears when its tension (the solver's multiplier over h²) exceeds `tear_force`:
/// a 2 kg weight (19.6 N) breaks a 15 N link and not a 25 N one.
#[test]
fn links_tear_by_force() {
    for solver in PBD_FAMILY {
        for (limit, tears) in [(15.0f32, true), (25.0, false)] {
            let mut w = world(solver, |s| {
                s.damping = 2.0;
                s.iterations = 10;
            });
            let a = particle(&mut w, Vec3::new(0.0, 1.0, 0.0), 1.0, true);
            let b = particle(&mut w, Vec3::new(0.0, 0.5, 0.0), 2.0, false);
            let k = link(&mut w, a, b);
            w.links.tear_force[k] = limit;
            run(&mut w, 60);
            let torn = w.events.iter().any(|e| matches!(e, Event::LinkTorn { .. }));
            assert_eq!(torn, tears, "{solver:?}: limit {limit} N, tension {}", w.link_force(0));
            if !tears {
                // The tension is the weight (static), within 1%.
                assert!((w.link_force(k) - 2.0 * G).abs() < 0.01 * 2.0 * G, "{solver:?}: tension {}", w.link_force(k));
            }
        }
    }
}

/// Tethers (long-range attachments) bound the stretch of a long hanging chain that one
/// Gauss–Seidel sweep per step leaves stretchy.
#[test]
fn tethers_bound_the_stretch_of_a_long_hanging_chain() {
    for solver in [SolverKind::Pbd, SolverKind::Jacobi, SolverKind::Xpbd] {
        let mut stretch = [0.0f32; 2];
        for (t, tethers) in [false, true].into_iter().enumerate() {
            let mut w = world(solver, |s| {
                s.iterations = 2;
                s.tethers = tethers;
                s.damping = 1.0;
            });
            for i in 0..40 {
                particle(&mut w, Vec3::new(0.0, -0.1 * i as f32, 0.0), 1.0, i == 0);
            }
            for i in 0..39 {
                link(&mut w, i, i + 1);
            }
            run(&mut w, 120);
            stretch[t] = w.max_stretch();
        }
        println!("{solver:?}: hanging chain stretch {:.3e} without tethers, {:.3e} with", stretch[0], stretch[1]);
        // A straight hanging chain satisfies every tether exactly: stretch at the f32 floor.
        assert!(stretch[1] < 1e-4 && stretch[0] > 100.0 * stretch[1], "{solver:?}: {stretch:?}");
    }
}

/// Rope links pull when taut and go slack when compressed; distance links push back.
#[test]
fn rope_links_allow_slack_and_distance_links_do_not() {
    for solver in PBD_FAMILY {
        for kind in [LinkKind::Rope, LinkKind::Distance] {
            let mut w = world(solver, |s| {
                s.gravity = Vec3::ZERO;
                s.iterations = 10;
            });
            let a = particle(&mut w, Vec3::ZERO, 1.0, true);
            let b = particle(&mut w, Vec3::new(0.5, 0.0, 0.0), 1.0, false);
            w.add_link(&LinkDef { a: a as u32, b: b as u32, rest: Some(1.0), kind, ..Default::default() }).unwrap();
            run(&mut w, 10);
            let d = w.particles.pos[b].length();
            match kind {
                LinkKind::Rope => assert!((d - 0.5).abs() < 1e-6, "{solver:?}: a slack rope moved to {d}"),
                LinkKind::Distance => assert!((d - 1.0).abs() < 1e-3, "{solver:?}: distance link at {d}"),
            }
            // Pulled beyond its length, the rope pulls back.
            w.particles.pos[b] = Vec3::new(1.2, 0.0, 0.0);
            w.particles.prev[b] = w.particles.pos[b];
            w.particles.vel[b] = Vec3::ZERO;
            run(&mut w, 1);
            let d = w.particles.pos[b].length();
            match kind {
                // Taut again (Jacobi's over-relaxation may overshoot into slack: ω = 1.5
                // on a point with one constraint moves it 1.5 times the correction).
                LinkKind::Rope => assert!(d <= 1.0 + 1e-3 && d > 0.85, "{solver:?}: rope at {d}"),
                LinkKind::Distance => assert!((d - 1.0).abs() < 1e-3, "{solver:?}: distance link at {d}"),
            }
        }
    }
}
