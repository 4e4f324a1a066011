//! The bodies' step's shortcuts against the full computation, bit for bit (rigid bodies:
//! the full build).
#![cfg(test)]

use crate::bodies::{BodyDef, BodyKind, Shape};
use crate::joints::{JointDef, JointKind};
use crate::workloads::Workload;
use crate::world::World;
use glam::{Quat, Vec3};

fn bits(w: &World) -> Vec<u32> {
    let b = &w.bodies;
    let v3 = |v: &Vec3| v.to_array();
    b.pos
        .iter()
        .map(v3)
        .chain(b.vel.iter().map(v3))
        .chain(b.ang_vel.iter().map(v3))
        .flatten()
        .chain(b.rot.iter().flat_map(|q: &Quat| q.to_array()))
        .map(f32::to_bits)
        .collect()
}

/// The separations `refresh_relax` measured at a substep's end, taken by the next
/// substep's `prepare` instead of measuring them again, change nothing: W6's pyramid
/// under the impulse solver; the same pyramid with a rope hanging from its top box
/// under PBD (whose bodies move between its substeps — the rope's pull through its
/// attached point — so each of its body solves measures afresh: `poses_moved`); and
/// under the exact solver, one substep a step, with two boxes joined by a ball-socket from
/// step 20 (a body tree, which its projection moves after each of the four body
/// substeps it takes: a review found those separations stale). Run beside the same worlds measuring in every prepare, they
/// agree bit for bit at every step.
#[test]
fn separations_kept_from_relax_change_no_bit() {
    use crate::links::LinkDef;
    use crate::particles::ParticleDef;
    use crate::solver::SolverKind;
    for solver in [SolverKind::Impulse, SolverKind::Pbd, SolverKind::Exact] {
        let make = |always: bool| {
            let mut w = Workload::W6.build(solver);
            if solver == SolverKind::Pbd {
                let top = *w.bodies.id.last().unwrap();
                let at = *w.bodies.pos.last().unwrap() + Vec3::new(0.5, 0.0, 0.0);
                let first = w.particles.len();
                for i in 0..10 {
                    let pos = at + Vec3::new(0.2 * i as f32, 0.0, 0.0);
                    w.add_particle(&ParticleDef { pos, mass: 0.5, ..Default::default() }).unwrap();
                }
                for i in 0..9 {
                    let (a, b) = ((first + i) as u32, (first + i + 1) as u32);
                    w.add_link(&LinkDef { a, b, rest: Some(0.2), ..Default::default() }).unwrap();
                }
                w.attach(first, top).unwrap();
            }
            if solver == SolverKind::Exact {
                // One step of 1/60 s, which the bodies take in four substeps, each
                // followed by the tree's projection.
                w.settings.substeps = 1;
            }
            w.scratch.contacts.measure_always = always;
            w
        };
        let (mut kept, mut measured) = (make(false), make(true));
        for step in 0..300 {
            if step == 20 && solver == SolverKind::Exact {
                for w in [&mut kept, &mut measured] {
                    let (a, b) = (w.bodies.id[5], w.bodies.id[60]);
                    let anchor = w.bodies.pos[5] + Vec3::new(0.3, 0.2, 0.0);
                    let kind = JointKind::BallSocket;
                    w.add_joint(&JointDef { kind, a: Some(a), b: Some(b), anchor, ..Default::default() }).unwrap();
                    w.bodies.vel[60] += Vec3::new(1.0, 0.5, 0.0);
                }
            }
            kept.step(1.0 / 60.0).unwrap();
            measured.step(1.0 / 60.0).unwrap();
            if step >= 20 && solver == SolverKind::Exact {
                assert!(kept.scratch.body_tree.active(), "the ball-socket is the exact solver's tree");
            }
            assert!(bits(&kept) == bits(&measured), "{solver:?}: step {step} differs");
        }
        let top = kept.bodies.pos.last().unwrap();
        if solver == SolverKind::Pbd {
            // The rope pulled the top box along (so the bodies did move between substeps).
            assert!(top.distance(Vec3::new(0.0, 19.5, 0.0)) > 0.05, "{top}");
        }
    }
}

/// The 2D locks left out of a step (`idle_locks`) change nothing: W6's pyramid, then a
/// ball-socket holding one of its boxes by a point off the plane, a sphere (not planar)
/// dropped on it, free-falling boxes spinning at −0, and one box kicked out of the plane, run with the skip and with every lock built and swept, agree bit
/// for bit at every step; and the skip was taken (most locks, most steps) until the
/// pyramid was disturbed, and no longer for the kicked box.
#[test]
fn idle_locks_left_out_change_no_bit() {
    let make = |keep: bool| {
        let mut w = Workload::W6.build(crate::solver::SolverKind::Impulse);
        w.scratch.rows.keep_locks = keep;
        w
    };
    let (mut with, mut without) = (make(false), make(true));
    let mut idle_steps = 0;
    for step in 0..400 {
        match step {
            100 => {
                // A ball-socket to the world 0.3 m off the plane, beside a box's centre:
                // its pull turns the box about in-plane axes, which the lock undoes.
                for w in [&mut with, &mut without] {
                    let b = w.bodies.id[5];
                    let anchor = w.bodies.pos[5] + Vec3::new(0.1, 0.05, 0.3);
                    let kind = JointKind::BallSocket;
                    w.add_joint(&JointDef { kind, a: None, b: Some(b), anchor, ..Default::default() }).unwrap();
                }
            }
            200 => {
                for w in [&mut with, &mut without] {
                    let top = w.bodies.pos.iter().map(|p| p.y).fold(0.0, f32::max);
                    w.add_body(&BodyDef {
                        kind: BodyKind::Dynamic,
                        shape: Shape::Sphere { radius: 0.4 },
                        mass: 3.0,
                        pos: Vec3::new(0.2, top + 2.0, 0.3),
                        ..Default::default()
                    })
                    .unwrap();
                }
            }
            250 => {
                // Falling boxes that nothing touches, turned about ẑ, with spins of −0
                // (from input: the updates never make one): their locks are built, as
                // the full update may turn the −0 into +0.
                for w in [&mut with, &mut without] {
                    for k in 0..10 {
                        w.add_body(&BodyDef {
                            shape: Shape::Box { half: Vec3::splat(0.3) },
                            mass: 1.0,
                            pos: Vec3::new(25.0 + 2.0 * k as f32, 30.0, 0.0),
                            rot: Quat::from_rotation_z(0.3 * k as f32 + 0.1),
                            ang_vel: Vec3::new(0.0, 0.0, -0.0),
                            planar: true,
                            ..Default::default()
                        })
                        .unwrap();
                    }
                }
            }
            300 => {
                for w in [&mut with, &mut without] {
                    w.bodies.vel[40] += Vec3::new(0.0, 0.0, 0.5);
                    w.bodies.ang_vel[40] += Vec3::new(0.3, -0.2, 0.0);
                }
            }
            _ => {}
        }
        with.step(1.0 / 60.0).unwrap();
        without.step(1.0 / 60.0).unwrap();
        assert_eq!(bits(&with), bits(&without), "step {step}");
        let rows = &with.scratch.rows.rows[with.scratch.rows.planar_start..];
        let idle = rows.chunks(3).filter(|r| r[0].block == crate::joints::row::IDLE_LOCK).count();
        if step < 100 && idle > rows.len() / 3 / 2 {
            idle_steps += 1;
        }
        if step == 300 {
            // The kicked box (planar index 39: body 40, the ground is not planar).
            assert_ne!(rows[3 * 39].block, crate::joints::row::IDLE_LOCK, "the kicked box's lock is swept");
        }
    }
    assert!(idle_steps > 80, "the locks were left out in {idle_steps} of the first 100 steps");
    assert!(without.scratch.rows.rows.iter().all(|r| r.block != crate::joints::row::IDLE_LOCK));
}

/// Every joint kind (and a soft one, kinematic/static/ground/planar ends, a
/// degenerate distance row, a rope on a body), stepped with the rows and inertias kept
/// from relax and with them always rebuilt: bit for bit.
fn joint_zoo(solver: crate::solver::SolverKind, rebuild_rows: bool) -> World {
    use crate::joints::{Motor, SoftDef};
    use crate::links::LinkDef;
    use crate::particles::ParticleDef;
    let mut w = World::new(crate::settings::Settings { solver, substeps: 4, iterations: 4, ..Default::default() });
    w.scratch.rows.rebuild_rows = rebuild_rows;
    let mut n = 0;
    let mut body = |w: &mut World, kind: BodyKind, planar: bool| {
        n += 1;
        let x = Vec3::new(3.0 * n as f32, 10.0, if planar { 0.0 } else { 0.1 * n as f32 });
        let rot = if planar {
            Quat::from_rotation_z(0.1 * n as f32)
        } else {
            Quat::from_rotation_z(0.2) * Quat::from_rotation_x(0.1 * n as f32)
        };
        let id = w
            .add_body(&BodyDef {
                kind,
                shape: Shape::Box { half: Vec3::new(0.3, 0.1, 0.15) },
                mass: 1.0,
                pos: x,
                rot,
                vel: if kind == BodyKind::Kinematic && n % 2 == 0 { Vec3::new(0.4, 0.1, 0.0) } else { Vec3::ZERO },
                ang_vel: if planar {
                    Vec3::new(0.0, 0.0, 0.7)
                } else if kind == BodyKind::Static {
                    Vec3::ZERO
                } else {
                    Vec3::new(0.3, -0.5, 0.9)
                },
                planar,
                ..Default::default()
            })
            .unwrap();
        (id, x)
    };
    let d = BodyKind::Dynamic;
    let j = |w: &mut World,
             kind: JointKind,
             a: Option<crate::ids::Id>,
             b: Option<crate::ids::Id>,
             anchor: Vec3,
             anchor_b: Option<Vec3>,
             axis: Vec3,
             soft: Option<SoftDef>| {
        w.add_joint(&JointDef { kind, a, b, anchor, anchor_b, axis, soft, ..Default::default() }).unwrap();
    };
    let off = Vec3::new(0.35, 0.12, 0.05);
    // Ball-socket chain from the world.
    let (b0, x0) = body(&mut w, d, false);
    let (b1, x1) = body(&mut w, d, false);
    j(&mut w, JointKind::BallSocket, None, Some(b0), x0 + off, None, Vec3::Z, None);
    j(&mut w, JointKind::BallSocket, Some(b0), Some(b1), x1 + off, None, Vec3::Z, None);
    // Hinge with limit and motor to the world.
    let (b2, x2) = body(&mut w, d, false);
    let hm = Some(Motor { speed: 3.0, max_force: 2.0 });
    j(
        &mut w,
        JointKind::Hinge { limit: Some([-0.4, 0.4]), motor: hm },
        None,
        Some(b2),
        x2 + off,
        None,
        Vec3::new(0.2, 0.1, 1.0),
        None,
    );
    // Prismatic with limit and motor, then fixed, distance rod, distance range, rope.
    let (b3, _) = body(&mut w, d, false);
    let (b4, x4) = body(&mut w, d, false);
    j(&mut w, JointKind::BallSocket, None, Some(b3), x4 - Vec3::X * 2.0, None, Vec3::Z, None);
    j(
        &mut w,
        JointKind::Prismatic { limit: Some([-0.2, 0.3]), motor: Some(Motor { speed: 1.0, max_force: 3.0 }) },
        Some(b3),
        Some(b4),
        x4,
        None,
        Vec3::X,
        None,
    );
    let (b5, x5) = body(&mut w, d, false);
    j(&mut w, JointKind::Fixed, Some(b4), Some(b5), x5 - off, None, Vec3::Z, None);
    let (b6, x6) = body(&mut w, d, false);
    j(
        &mut w,
        JointKind::Distance { length: 0.0, min: 0.0, max: 0.0 },
        Some(b5),
        Some(b6),
        x5,
        Some(x6 + off),
        Vec3::Z,
        None,
    );
    let (b7, x7) = body(&mut w, d, false);
    j(&mut w, JointKind::Distance { length: 2.5, min: 2.0, max: 3.2 }, Some(b6), Some(b7), x6, Some(x7), Vec3::Z, None);
    let (b8, x8) = body(&mut w, d, false);
    j(&mut w, JointKind::Rope { max_length: 3.05 }, Some(b7), Some(b8), x7 + off, Some(x8 - off), Vec3::Z, None);
    // Angular motor beside a ball-socket.
    let (b9, x9) = body(&mut w, d, false);
    j(&mut w, JointKind::BallSocket, Some(b8), Some(b9), x9 - off, None, Vec3::Z, None);
    j(
        &mut w,
        JointKind::AngularMotor { motor: Motor { speed: 5.0, max_force: 1.0 } },
        Some(b8),
        Some(b9),
        x9,
        None,
        Vec3::Y,
        None,
    );
    // Swing-twist to the world, then a soft ball-socket (user spring).
    let (b10, x10) = body(&mut w, d, false);
    j(
        &mut w,
        JointKind::SwingTwist { max_swing: 0.5, twist: [-0.3, 0.3] },
        None,
        Some(b10),
        x10 + off,
        None,
        Vec3::Y,
        None,
    );
    let (b11, x11) = body(&mut w, d, false);
    j(
        &mut w,
        JointKind::BallSocket,
        Some(b10),
        Some(b11),
        x11 + off,
        None,
        Vec3::Z,
        Some(SoftDef { hertz: 4.0, damping_ratio: 0.5 }),
    );
    // Soft distance with limits.
    let (b12, x12) = body(&mut w, d, false);
    j(
        &mut w,
        JointKind::Distance { length: 2.8, min: 2.0, max: 3.5 },
        Some(b11),
        Some(b12),
        x11,
        Some(x12),
        Vec3::Z,
        Some(SoftDef { hertz: 2.0, damping_ratio: 0.2 }),
    );
    // Kinematic ends: one moving (n even), one still; a static end.
    let (k1, _) = body(&mut w, BodyKind::Kinematic, false);
    let (b13, x13) = body(&mut w, d, false);
    j(
        &mut w,
        JointKind::Hinge { limit: Some([-1.0, 0.2]), motor: None },
        Some(k1),
        Some(b13),
        x13 - off,
        None,
        Vec3::Z,
        None,
    );
    let (k2, _) = body(&mut w, BodyKind::Kinematic, false);
    let (b14, x14) = body(&mut w, d, false);
    j(&mut w, JointKind::BallSocket, Some(k2), Some(b14), x14 - off, None, Vec3::Z, None);
    let (s1, _) = body(&mut w, BodyKind::Static, false);
    let (b15, x15) = body(&mut w, d, false);
    j(&mut w, JointKind::Fixed, Some(s1), Some(b15), x15 - off * 3.0, None, Vec3::Z, None);
    // Degenerate distance (coincident anchors: length 0).
    let (b16, x16) = body(&mut w, d, false);
    let (b17, _) = body(&mut w, d, false);
    j(
        &mut w,
        JointKind::Distance { length: 0.0, min: 0.0, max: 0.0 },
        Some(b16),
        Some(b17),
        x16 + off,
        Some(x16 + off),
        Vec3::Z,
        None,
    );
    j(&mut w, JointKind::BallSocket, None, Some(b16), x16 - off, None, Vec3::Z, None);
    // Planar pair on a hinge about z, one held to the world.
    let (p1, xp1) = body(&mut w, d, true);
    let (p2, xp2) = body(&mut w, d, true);
    j(&mut w, JointKind::BallSocket, None, Some(p1), xp1 + Vec3::new(0.3, 0.1, 0.0), None, Vec3::Z, None);
    j(
        &mut w,
        JointKind::Hinge { limit: Some([-0.5, 0.5]), motor: None },
        Some(p1),
        Some(p2),
        xp2 - Vec3::new(0.3, 0.1, 0.0),
        None,
        Vec3::Z,
        None,
    );
    // A rope hanging from b0 (particles: np > 0).
    let first = w.particles.len();
    for i in 0..6 {
        let pos = x0 + Vec3::new(0.3, -0.2 * i as f32, 0.0);
        w.add_particle(&ParticleDef { pos, mass: 0.2, ..Default::default() }).unwrap();
    }
    for i in 0..5 {
        let (a, b) = ((first + i) as u32, (first + i + 1) as u32);
        w.add_link(&LinkDef { a, b, rest: Some(0.2), ..Default::default() }).unwrap();
    }
    w.attach(first, b0).unwrap();
    let _ = (b1, b2, b12, b13, b14, b15, b17, p2);
    w
}

fn zoo_bits(w: &World) -> Vec<u32> {
    let mut v = bits(w);
    v.extend(w.particles.pos.iter().flat_map(|p| p.to_array()).map(f32::to_bits));
    v.extend(w.joints.force.iter().chain(&w.joints.torque).flat_map(|p| p.to_array()).map(f32::to_bits));
    v
}

#[test]
fn rows_kept_from_relax_change_no_bit() {
    use crate::solver::SolverKind;
    for solver in [SolverKind::Impulse, SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Exact] {
        let (mut kept, mut fresh) = (joint_zoo(solver, false), joint_zoo(solver, true));
        for step in 0..300 {
            for w in [&mut kept, &mut fresh] {
                match step {
                    100 => {
                        let id = w.bodies.id[9];
                        w.remove_body(id).unwrap();
                    }
                    150 => {
                        let (a, b) = (w.bodies.id[2], w.bodies.id[4]);
                        let anchor = w.bodies.pos[2];
                        w.add_joint(&JointDef {
                            kind: JointKind::BallSocket,
                            a: Some(a),
                            b: Some(b),
                            anchor,
                            ..Default::default()
                        })
                        .unwrap();
                    }
                    200 if solver == SolverKind::Impulse => w.settings.solver = SolverKind::Pbd,
                    230 if solver == SolverKind::Impulse => w.settings.solver = SolverKind::Impulse,
                    _ => {}
                }
            }
            kept.step(1.0 / 60.0).unwrap();
            fresh.step(1.0 / 60.0).unwrap();
            let (a, b) = (zoo_bits(&kept), zoo_bits(&fresh));
            if a != b {
                let i = a.iter().zip(&b).position(|(x, y)| x != y).unwrap();
                panic!("{solver:?}: step {step} differs at word {i} of {}", a.len());
            }
        }
        assert!(kept.bodies.pos.iter().all(|p| p.is_finite()), "{solver:?}");
    }
}

/// A world of spheres on rigid ball-sockets (the point lane's joints: a pendulum from the
/// world, a body–body pair swinging from it in 3D, a kinematic sphere leading a third on
/// its own) and, beside them, what stays rows: a ball-socket to a box (not isotropic) and
/// a soft one; first, a short rope hanging from a locked point (particles, so the solver
/// bodies start after them, and under `impulse` link rows before the joints'). `no_lane`:
/// every joint as rows; `warm`: warm starting.
fn sphere_world(solver: crate::solver::SolverKind, no_lane: bool, warm: bool) -> World {
    use crate::joints::SoftDef;
    use crate::links::LinkDef;
    use crate::particles::ParticleDef;
    let settings =
        crate::settings::Settings { solver, substeps: 4, iterations: 2, warm_starting: warm, ..Default::default() };
    let mut w = World::new(settings);
    w.scratch.rows.no_lane = no_lane;
    for i in 0..5 {
        let pos = Vec3::new(-3.0 + 0.2 * i as f32, 0.0, 0.0);
        w.add_particle(&ParticleDef { pos, mass: 0.2, locked: i == 0, ..Default::default() }).unwrap();
    }
    for i in 0..4u32 {
        w.add_link(&LinkDef { a: i, b: i + 1, rest: Some(0.2), ..Default::default() }).unwrap();
    }
    let sphere = |w: &mut World, kind: BodyKind, pos: Vec3, vel: Vec3| {
        let shape = Shape::Sphere { radius: 0.1 };
        w.add_body(&BodyDef { kind, shape, mass: 1.0, pos, vel, ..Default::default() }).unwrap()
    };
    let joint = |w: &mut World, a: Option<crate::ids::Id>, b, anchor, soft: Option<SoftDef>| {
        w.add_joint(&JointDef { kind: JointKind::BallSocket, a, b: Some(b), anchor, soft, ..Default::default() })
            .unwrap()
    };
    let s0 = sphere(&mut w, BodyKind::Dynamic, Vec3::new(0.4, -0.3, 0.1), Vec3::new(0.0, 0.0, 0.5));
    joint(&mut w, None, s0, Vec3::ZERO, None);
    let s1 = sphere(&mut w, BodyKind::Dynamic, Vec3::new(0.7, -0.6, 0.0), Vec3::ZERO);
    joint(&mut w, Some(s0), s1, Vec3::new(0.55, -0.45, 0.05), None);
    let k = sphere(&mut w, BodyKind::Kinematic, Vec3::new(3.0, 0.0, 0.0), Vec3::new(0.3, 0.0, 0.0));
    let s2 = sphere(&mut w, BodyKind::Dynamic, Vec3::new(3.0, -0.5, 0.2), Vec3::ZERO);
    joint(&mut w, Some(k), s2, Vec3::new(3.0, 0.0, 0.0), None);
    let bx = w
        .add_body(&BodyDef {
            shape: Shape::Box { half: Vec3::new(0.3, 0.1, 0.15) },
            mass: 1.0,
            pos: Vec3::new(6.0, -0.5, 0.0),
            ..Default::default()
        })
        .unwrap();
    joint(&mut w, None, bx, Vec3::new(6.2, 0.0, 0.0), None);
    let s3 = sphere(&mut w, BodyKind::Dynamic, Vec3::new(9.0, -0.5, 0.0), Vec3::new(1.0, 0.0, 0.0));
    joint(&mut w, None, s3, Vec3::new(9.0, 0.0, 0.0), Some(SoftDef { hertz: 5.0, damping_ratio: 0.5 }));
    w
}

/// The point lane takes the rigid ball-sockets between isotropic bodies (and only those)
/// and moves them as their rows do: over 2 s of a 3D swing, under the impulse solver and
/// the position-based family's body substeps, with and without warm starting, every body
/// within 0.01 mm and 0.1 mrad of the rows' world (measured 8e-7 m: the same equations in
/// the same order, rounded differently), every particle within 0.01 mm, and every joint
/// force within 0.1 % of its size (or 1 mN).
#[test]
fn the_point_lane_moves_the_bodies_as_the_rows_do() {
    use crate::solver::SolverKind;
    let runs = [SolverKind::Impulse, SolverKind::Pbd, SolverKind::Xpbd].map(|s| (s, true));
    for (solver, warm) in runs.into_iter().chain([(SolverKind::Impulse, false)]) {
        let (mut lane, mut rows) = (sphere_world(solver, false, warm), sphere_world(solver, true, warm));
        let (mut dx, mut dq) = (0.0f32, 0.0f32);
        for _ in 0..120 {
            lane.step(1.0 / 60.0).unwrap();
            rows.step(1.0 / 60.0).unwrap();
            for i in 0..lane.bodies.len() {
                dx = dx.max(lane.bodies.pos[i].distance(rows.bodies.pos[i]));
                // (Twice the relative rotation's vector part: `angle_between`'s acos of a
                // dot product a rounding away from 1 reads 1e-3 rad for equal rotations.)
                dq = dq.max(2.0 * (lane.bodies.rot[i].inverse() * rows.bodies.rot[i]).xyz().length());
            }
            for (p, q) in lane.particles.pos.iter().zip(&rows.particles.pos) {
                dx = dx.max(p.distance(*q));
            }
            for k in 0..lane.joints.len() {
                let (f, g) = (lane.joints.force[k], rows.joints.force[k]);
                assert!((f - g).length() <= 1e-3 * g.length().max(1.0), "{solver:?} joint {k}: {f:?} vs {g:?}");
            }
        }
        let in_lane = &lane.scratch.rows.in_lane;
        println!(
            "{solver:?}, warm {warm}: lane against rows over 2 s: {dx:.2e} m, {dq:.2e} rad; in the lane {in_lane:?}"
        );
        assert_eq!(in_lane, &[true, true, true, false, false], "{solver:?}");
        assert!(rows.scratch.rows.in_lane.iter().all(|&x| !x));
        assert!(dx < 1e-5 && dq < 1e-4, "{solver:?}: {dx} m, {dq} rad");
    }
}
