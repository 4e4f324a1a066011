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
