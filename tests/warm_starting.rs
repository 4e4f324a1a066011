//! Warm starting (issue 10 §2): the impulse solver carries each row's impulse to the next
//! substep and step. Measured here: the error at equal iterations, and how many iterations a
//! cold start needs to reach the warm start's error.

use glam::Vec3;
use ropelab::bodies::{BodyDef, BodyKind, Shape};
use ropelab::joints::{JointDef, JointKind};
use ropelab::{Settings, SolverKind, World};

/// A hanging chain of 20 boxes (0.2 m, 1 kg) on ball-sockets from a static anchor, settled
/// for 2 s, then the mean anchor gap (m) over 1 s.
fn chain_error(iterations: u32, warm: bool) -> f32 {
    let s = Settings {
        solver: SolverKind::Impulse,
        substeps: 2,
        iterations,
        warm_starting: warm,
        friction: 1.0,
        ..Settings::default()
    };
    let mut w = World::new(s);
    let mut prev = w
        .add_body(&BodyDef {
            kind: BodyKind::Static,
            pos: Vec3::ZERO,
            shape: Shape::Sphere { radius: 0.05 },
            ..Default::default()
        })
        .unwrap();
    for i in 1..=20 {
        let id = w
            .add_body(&BodyDef {
                shape: Shape::Box { half: Vec3::new(0.1, 0.02, 0.02) },
                mass: 1.0,
                pos: Vec3::new(0.2 * i as f32 - 0.1, 0.0, 0.0),
                linear_damping: 1.0,
                angular_damping: 1.0,
                planar: true,
                ..Default::default()
            })
            .unwrap();
        let anchor = Vec3::new(0.2 * (i - 1) as f32, 0.0, 0.0);
        w.add_joint(&JointDef {
            kind: JointKind::BallSocket,
            a: Some(prev),
            b: Some(id),
            anchor,
            ..Default::default()
        })
        .unwrap();
        prev = id;
    }
    for _ in 0..120 {
        w.step(1.0 / 60.0).unwrap();
    }
    let mut sum = 0.0;
    let mut n = 0;
    for _ in 0..60 {
        w.step(1.0 / 60.0).unwrap();
        for k in 0..w.joints.len() {
            let f = &w.joints.frames[k];
            let pose = |id: Option<ropelab::ids::Id>| {
                let i = w.bodies.index(id.unwrap()).unwrap();
                (w.bodies.pos[i], w.bodies.rot[i])
            };
            let (xa, qa) = pose(w.joints.a[k]);
            let (xb, qb) = pose(w.joints.b[k]);
            sum += (xa + qa * f.local_a).distance(xb + qb * f.local_b);
            n += 1;
        }
    }
    sum / n as f32
}

#[test]
fn warm_starting_lowers_the_error_at_equal_iterations_and_saves_iterations() {
    let mut table = Vec::new();
    for it in [1u32, 2, 4, 8, 16, 32] {
        table.push((it, chain_error(it, true), chain_error(it, false)));
    }
    println!("iterations | warm mean gap (m) | cold mean gap (m)");
    for (it, w, c) in &table {
        println!("{it:>10} | {w:>17.3e} | {c:>17.3e}");
    }
    for &(it, w, c) in &table[..3] {
        assert!(w < 0.7 * c, "{it} iterations: warm {w} is not clearly below cold {c}");
    }
    // How many cold iterations match 2 warm ones.
    let target = table[1].1;
    let cold = table.iter().find(|(_, _, c)| *c <= target).map(|t| t.0);
    println!("2 warm-started iterations reach {target:.3e} m; cold starting needs {cold:?}");
    assert!(cold.is_none_or(|k| k >= 4), "cold starting matched warm at {cold:?} iterations");
}
