//! `cargo bench --bench narrow_phase` (`make bench`): the rigid-body narrow phase's time per
//! pair, 200,000 calls each (a figure for docs/benchmarks.md; no budget). Its geometry is
//! `tests/narrow_phase.rs`.

use std::time::Instant;

use glam::{Quat, Vec3};
use ropelab::bodies::Shape;
use ropelab::collide::narrow::{collide, Pose};

fn sphere(r: f32) -> Shape {
    Shape::Sphere { radius: r }
}
fn capsule(r: f32, l: f32) -> Shape {
    Shape::Capsule { radius: r, half_length: l }
}
fn cuboid(x: f32, y: f32, z: f32) -> Shape {
    Shape::Box { half: Vec3::new(x, y, z) }
}
fn at(x: f32, y: f32, z: f32) -> Pose {
    Pose::from_pos(Vec3::new(x, y, z))
}
fn posed(p: Vec3, q: Quat) -> Pose {
    Pose::new(p, q)
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --all-targets` (`make test`) runs this binary
    // without it, unoptimised, where the times mean nothing: it only checks that it builds.
    if !std::env::args().any(|a| a == "--bench") {
        println!("benches/narrow_phase.rs: timings only under `cargo bench --bench narrow_phase`");
        return;
    }
    let cases = [
        (
            "box on box (4 points)",
            cuboid(0.5, 0.5, 0.5),
            at(0.0, 0.0, 0.0),
            cuboid(0.5, 0.5, 0.5),
            posed(Vec3::new(0.1, 0.99, 0.0), Quat::from_rotation_y(0.2)),
        ),
        (
            "box corner 3.5 cm from a box corner (apart: closest pair)",
            cuboid(0.5, 0.5, 0.5),
            at(0.0, 0.0, 0.0),
            cuboid(0.5, 0.5, 0.5),
            {
                // B's (½, ½, ½) corner turned straight down, at (0.52, 0.52, 0.52).
                let q = Quat::from_rotation_arc(Vec3::ONE.normalize(), -Vec3::Y);
                posed(Vec3::splat(0.52) + Vec3::Y * 0.75f32.sqrt(), q)
            },
        ),
        ("capsule on box", cuboid(0.5, 0.5, 0.5), at(0.0, 0.0, 0.0), capsule(0.1, 0.4), at(0.0, 0.59, 0.0)),
        ("sphere on sphere", sphere(0.5), at(0.0, 0.0, 0.0), sphere(0.5), at(0.0, 0.99, 0.0)),
    ];
    for (name, a, pa, b, pb) in cases {
        let n = 200_000;
        let t0 = Instant::now();
        let mut k = 0;
        for i in 0..n {
            let mut pb = pb;
            pb.pos.x += (i % 7) as f32 * 1e-6;
            k += std::hint::black_box(collide(&a, &pa, &b, &pb, 0.05)).count;
        }
        let ns = t0.elapsed().as_nanos() as f64 / n as f64;
        // Every case is a pair in contact (or within the margin): a call that found nothing
        // would time the early exit.
        assert!(k > 0, "{name}: no contact points");
        println!("{name}: {ns:.0} ns per call ({} points)", k / n);
    }
}
