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
