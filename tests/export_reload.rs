//! Export → reload continues the same trajectory (issue 29 §2): every case of the
//! determinism table (every preset under every solver that runs it, and the scripted drags)
//! is run with its world exported and loaded again after steps 1, 150 and 300 (the drags:
//! before the grab and after the release), and must hash to the table's line for the
//! uninterrupted run, bit for bit. An export carries the whole state (`scene::state`).
use ropelab::determinism::{self, compare, parse_table};

const TABLE: &str = include_str!("determinism_hashes.txt");

/// The cases split four ways, so the test harness runs them on every core.
const SHARDS: usize = 4;

fn shard(k: usize) {
    let got: Vec<(String, u64)> = determinism::cases()
        .iter()
        .skip(k)
        .step_by(SHARDS)
        .map(|c| (c.name(), determinism::hash(&determinism::run_reloading(c))))
        .collect();
    let want: Vec<(String, u64)> =
        parse_table(TABLE).into_iter().filter(|(n, _)| got.iter().any(|(g, _)| g == n)).collect();
    assert_eq!(got.len(), want.len(), "a case is missing from the table");
    if let Err(e) = compare(&got, &want) {
        panic!("export → reload changed the trajectory:\n{e}");
    }
}

#[test]
fn cases_0_continue_after_export_and_reload() {
    shard(0);
}

#[test]
fn cases_1_continue_after_export_and_reload() {
    shard(1);
}

#[test]
fn cases_2_continue_after_export_and_reload() {
    shard(2);
}

#[test]
fn cases_3_continue_after_export_and_reload() {
    shard(3);
}

/// An export of a loaded export is the same text: nothing is lost or changed on the way
/// (the leash, bodies and joints, contacts mid-stack, a winch), after 200 steps.
#[test]
fn an_export_reloads_to_the_same_export() {
    for name in ["leash", "pyramid", "ragdoll", "drum", "atwood", "capstan"] {
        let mut w = determinism::preset(name);
        for _ in 0..200 {
            w.step(determinism::DT).unwrap();
        }
        let text = |w: &ropelab::World| {
            let mut sim = ropelab::Sim::new();
            *sim.world_mut() = w.clone();
            sim.export_scene_json()
        };
        let (once, twice) = (text(&w), text(&determinism::reload(&w)));
        if let Some((k, (a, b))) = once.lines().zip(twice.lines()).enumerate().find(|(_, (a, b))| a != b) {
            panic!("{name}: line {k} of the export is {a:?}, of the reloaded world's {b:?}");
        }
        assert_eq!(once.len(), twice.len(), "{name}");
        assert!(once.contains("\"state\""), "{name}: the export carries no state");
    }
}

/// A world's clock reloads to the same bits. The clock is an f64 that the export writes in its
/// shortest digits, up to 17 of them; a reader that is not correctly rounded reads some of those
/// one ulp off (0.23333334550261497, the page's clock after 14 steps of 1/60 s in f32, read
/// back as 0.23333334550261495), and the world then continues from another time.
#[test]
fn the_clock_reloads_to_the_same_bits() {
    let mut w = determinism::preset("rope");
    w.step(determinism::DT).unwrap();
    let dt = f64::from(1.0f32 / 60.0);
    let mut times: Vec<f64> = vec![0.23333334550261497, 1e-7, 123456.789];
    let mut t = 0.0f64;
    for _ in 0..400 {
        t += dt;
        times.push(t);
    }
    let mut seventeen = 0;
    for time in times {
        w.time = time;
        let back = determinism::reload(&w);
        assert_eq!(back.time.to_bits(), time.to_bits(), "{time} reloads as {}", back.time);
        let digits = format!("{time:e}").split('e').next().unwrap().replace(['.', '-'], "").len();
        seventeen += usize::from(digits == 17);
    }
    // The texts a naive reader misreads are there (17 significant digits).
    assert!(seventeen > 50, "{seventeen}");
}

/// Spheres on rigid ball-sockets, the joints the bodies' point lane solves from the poses
/// (`solver/body_step/points.rs`; no preset has them): a chain of eight hanging from the
/// world, let go sideways, and a kinematic sphere dragging a ninth. Exported and loaded again
/// after steps 1 and 150, under the impulse solver and the position-based family's body
/// substeps, the world ends on the uninterrupted run's bits: the lane keeps its impulses in
/// the rows an export carries, and chooses and orders its joints again from them.
#[test]
fn ball_sockets_between_spheres_continue_after_export_and_reload() {
    use glam::Vec3;
    use ropelab::bodies::{BodyDef, BodyKind, Shape};
    use ropelab::joints::{JointDef, JointKind};
    use ropelab::{Settings, SolverKind, World};
    for solver in [SolverKind::Impulse, SolverKind::Pbd] {
        let make = || {
            let mut w = World::new(Settings { solver, ..Settings::default() });
            let sphere = |w: &mut World, kind: BodyKind, pos: Vec3, vel: Vec3| {
                let shape = Shape::Sphere { radius: 0.05 };
                w.add_body(&BodyDef { kind, shape, mass: 1.0, pos, vel, ..Default::default() }).unwrap()
            };
            let mut prev = None;
            for i in 0..8 {
                let pos = Vec3::new(0.15 * (i + 1) as f32, 2.0, 0.02 * i as f32);
                let id = sphere(&mut w, BodyKind::Dynamic, pos, Vec3::ZERO);
                let anchor = Vec3::new(0.15 * i as f32, 2.0, 0.02 * i as f32);
                let def = JointDef { kind: JointKind::BallSocket, a: prev, b: Some(id), anchor, ..Default::default() };
                w.add_joint(&def).unwrap();
                prev = Some(id);
            }
            let k = sphere(&mut w, BodyKind::Kinematic, Vec3::new(-2.0, 2.0, 0.0), Vec3::new(0.5, 0.0, 0.0));
            let s = sphere(&mut w, BodyKind::Dynamic, Vec3::new(-2.0, 1.5, 0.3), Vec3::ZERO);
            let def = JointDef {
                kind: JointKind::BallSocket,
                a: Some(k),
                b: Some(s),
                anchor: Vec3::new(-2.0, 2.0, 0.0),
                ..Default::default()
            };
            w.add_joint(&def).unwrap();
            w
        };
        let (mut straight, mut reloaded) = (make(), make());
        for t in 0..300 {
            straight.step(determinism::DT).unwrap();
            reloaded.step(determinism::DT).unwrap();
            if t + 1 == 1 || t + 1 == 150 {
                reloaded = determinism::reload(&reloaded);
            }
        }
        assert!(straight.bodies.pos.iter().all(|p| p.is_finite()), "{solver:?}");
        assert_eq!(determinism::hash(&reloaded), determinism::hash(&straight), "{solver:?}");
    }
}
