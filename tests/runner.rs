//! The native runner (`ropelab run`): its `--out` file holds body poses and velocities
//! beside the particle positions, and it refuses the solvers the page's API refuses
//! (issue 29 §3).

use std::process::Command;

use ropelab::determinism::preset;
use ropelab::Sim;

fn ropelab(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ropelab")).args(args).output().unwrap()
}

fn out_file(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    dir.join(format!("runner-{name}-{}.json", std::process::id()))
}

#[test]
fn the_runner_refuses_what_the_api_refuses() {
    let mut sim = Sim::new();
    sim.load_scene_json(include_str!("../www/scenes/door.json")).unwrap();
    let api = sim.set_solver_checked("classic").unwrap_err().to_string();
    let out = ropelab(&["run", "door", "--solver", "classic", "--steps", "1"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "the runner ran classic on the door: {}", String::from_utf8_lossy(&out.stdout));
    assert!(err.contains(&api), "runner: {err:?}, API: {api:?}");
    // What the API accepts, the runner runs.
    let out = ropelab(&["run", "door", "--solver", "xpbd", "--steps", "1"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn run_out_writes_body_poses_and_velocities() {
    let path = out_file("pyramid");
    let out = ropelab(&["run", "pyramid", "--steps", "30", "--out", path.to_str().unwrap(), "--every", "10"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    std::fs::remove_file(&path).ok();
    // The same 30 steps in this process: the file holds their final state exactly.
    let mut w = preset("pyramid");
    for _ in 0..30 {
        w.step(1.0 / 60.0).unwrap();
    }
    let f = |v: &serde_json::Value| v.as_f64().unwrap() as f32;
    let v3 = |v: &serde_json::Value| glam::Vec3::new(f(&v[0]), f(&v[1]), f(&v[2]));
    assert_eq!(json["steps"], 30);
    assert_eq!(json["positions"].as_array().unwrap().len(), w.particles.len());
    let bodies = json["bodies"].as_array().unwrap();
    assert_eq!(bodies.len(), w.bodies.len());
    assert!(!bodies.is_empty());
    let b = &w.bodies;
    for (i, j) in bodies.iter().enumerate() {
        assert_eq!(j["id"], b.id[i].0);
        assert_eq!(v3(&j["pos"]), b.pos[i], "body {i} position");
        let q = &j["rot"];
        assert_eq!([f(&q[0]), f(&q[1]), f(&q[2]), f(&q[3])], b.rot[i].to_array(), "body {i} orientation");
        assert_eq!(v3(&j["vel"]), b.vel[i], "body {i} velocity");
        assert_eq!(v3(&j["angVel"]), b.ang_vel[i], "body {i} angular velocity");
    }
    assert!((json["energy"].as_f64().unwrap() - w.energy()).abs() <= 1e-9 * w.energy().abs());
    // --every 10: the start and steps 10, 20, 30.
    let frames = json["frames"].as_array().unwrap();
    assert_eq!(frames.iter().map(|fr| fr["steps"].as_u64().unwrap()).collect::<Vec<_>>(), [0, 10, 20, 30]);
    assert_eq!(frames[3]["bodies"], json["bodies"]);
}
