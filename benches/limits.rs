//! `cargo bench --bench limits` (`make bench`, `make fuzz`): the step-time budgets, which a
//! test cannot check on a shared 2-core machine (the limits' errors and refusals themselves are
//! `tests/limits.rs`).
//!
//! Prints the table of docs/benchmarks.md, "Steps at the caps": the worst cases at the caps (the
//! most points, links, bodies, joints or obstacles, with as many substeps × iterations as the
//! work budget then allows), each solver, the fastest of five steps after five warm-up steps
//! (the fastest, because the machine is shared and a step's cost is what the code needs, not
//! what the neighbours take). Then the calls that once froze the page (tests/regressions.rs
//! names them), every preset's step, and the refusal of a 50 MB scene file. Exits non-zero
//! when a line is over its budget: `limits::MAX_STEP_MS` for a step, 100 ms for the refusal.

use std::time::Instant;

use ropelab::limits::{self, Load, MAX_STEP_MS, MAX_WORK};
use ropelab::Sim;
use serde_json::json;

#[path = "../tests/common/limit_scenes.rs"]
mod limit_scenes;
use limit_scenes::{max_iterations, pile_scene};

/// The fastest of `n` runs of `f`, in ms.
fn fastest(n: usize, mut f: impl FnMut()) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..n {
        let t = Instant::now();
        f();
        best = best.min(t.elapsed().as_secs_f64() * 1e3);
    }
    best
}

/// Times steps of `sim` after five warm-up steps: (fastest ms of 5, work units).
fn time_sim(sim: &mut Sim) -> (f64, u64) {
    let work = limits::work(&sim.world().load());
    assert!(work <= MAX_WORK);
    for _ in 0..5 {
        sim.world_mut().step(1.0 / 60.0).unwrap();
    }
    (fastest(5, || sim.world_mut().step(1.0 / 60.0).unwrap()), work)
}

/// Loads `scene`, then times steps: (fastest ms, work units).
fn time_steps(scene: &serde_json::Value) -> (f64, u64) {
    let mut sim = Sim::new();
    sim.load_scene_json(&scene.to_string()).unwrap_or_else(|e| panic!("{e}"));
    time_sim(&mut sim)
}

fn rope_scene(
    solver: &str,
    points: u32,
    ropes: u32,
    substeps: u32,
    iterations: u32,
    collisions: bool,
) -> serde_json::Value {
    let per = points / ropes;
    let r: Vec<_> = (0..ropes)
        .map(|k| {
            let z = k as f32 * 0.05;
            json!({"from": [0, 10, z], "to": [per as f32 * 0.01, 10, z], "points": per, "lock_start": true})
        })
        .collect();
    json!({"version": 1, "settings": {"solver": solver, "substeps": substeps, "iterations": iterations,
        "rope_collisions": collisions, "mass_weighted": solver == "classic"}, "ropes": r})
}

fn preset(name: &str) -> Sim {
    let path = format!("{}/www/scenes/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let mut sim = Sim::new();
    sim.load_scene_json(&std::fs::read_to_string(path).unwrap()).unwrap();
    sim
}

struct Table {
    over: Vec<String>,
}

impl Table {
    fn row(&mut self, what: String, ms: f64, work: Option<u64>, budget: f64) {
        let work = work.map_or("–".to_string(), |w| w.to_string());
        println!("| {what} | {work} | {ms:.1} | {budget} |");
        if ms >= budget {
            self.over.push(format!("{what}: {ms:.1} ms (budget {budget} ms)"));
        }
    }
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --all-targets` (`make test`) runs this binary
    // without it, unoptimised, where the times mean nothing: it only checks that it builds.
    if !std::env::args().any(|a| a == "--bench") {
        println!("benches/limits.rs: timings only under `cargo bench --bench limits`");
        return;
    }
    let mut t = Table { over: Vec::new() };
    println!("| case | work units | ms / step (fastest of 5) | budget ms |\n|---|---|---|---|");
    let n = limits::MAX_POINTS as u32;
    for solver in ["classic", "pbd", "jacobi", "xpbd", "exact", "impulse"] {
        let load = Load { points: n as usize, links: n as usize - 1, substeps: 1, ..Default::default() };
        let it = max_iterations(load, 1);
        let (ms, work) = time_steps(&rope_scene(solver, n, 1, 1, it, false));
        t.row(format!("{solver}: 1 rope of {n} points, 1 substep × {it} iterations"), ms, Some(work), MAX_STEP_MS);
        if solver != "classic" {
            let mut s = 1;
            while limits::work(&Load { substeps: s + 1, iterations: 1, ..load }) <= MAX_WORK {
                s += 1;
            }
            let (ms, work) = time_steps(&rope_scene(solver, n, 1, s, 1, false));
            t.row(format!("{solver}: 1 rope of {n} points, {s} substeps × 1 iteration"), ms, Some(work), MAX_STEP_MS);
        }
    }
    for solver in ["xpbd", "exact"] {
        let load = Load {
            points: n as usize,
            links: n as usize - 200,
            substeps: 1,
            rope_collisions: true,
            ..Default::default()
        };
        let it = max_iterations(load, 1);
        let (ms, work) = time_steps(&rope_scene(solver, n, 200, 1, it, true));
        t.row(
            format!("{solver}: 200 ropes of {} points, rope collisions, 1 × {it}", n / 200),
            ms,
            Some(work),
            MAX_STEP_MS,
        );
    }
    // Obstacles: every point tests every obstacle each substep.
    {
        let o = limits::MAX_OBSTACLES;
        let load = Load { points: n as usize, links: n as usize - 1, obstacles: o, substeps: 1, ..Default::default() };
        let it = max_iterations(load, 1);
        let mut scene = rope_scene("xpbd", n, 1, 1, it, false);
        scene["obstacles"] = (0..o)
            .map(|k| json!({"shape": {"type": "circle", "center": [k as f32 * 0.8, 9.0, 0], "radius": 0.3}}))
            .collect();
        let (ms, work) = time_steps(&scene);
        t.row(format!("xpbd: 1 rope of {n} points over {o} circles, 1 × {it}"), ms, Some(work), MAX_STEP_MS);
    }
    // Bodies: a pile of boxes (contacts), and a ball-socket chain through them (joints).
    let b = limits::MAX_3D_BODIES;
    for (joints, label) in [(false, "pile"), (true, "pile on a ball-socket chain")] {
        let load = Load { bodies: b, joints: if joints { b - 2 } else { 0 }, substeps: 4, ..Default::default() };
        let it = max_iterations(load, 4);
        let (ms, work) = time_steps(&pile_scene(b, 4, it, joints));
        t.row(format!("impulse: {b} boxes, {label}, 4 substeps × {it}"), ms, Some(work), MAX_STEP_MS);
    }
    // A 1/30 s step of half the pile with the iterations that afford two frames' substeps (a
    // quarter of the budget each); the whole pile's 1 s step is refused (tests/limits.rs).
    {
        let load = Load { bodies: b / 2, substeps: 4, ..Default::default() };
        let it = (1..=max_iterations(Load { bodies: b, ..load }, 4))
            .rev()
            .find(|&k| 2 * limits::work(&Load { iterations: k, ..load }) <= limits::MAX_WORK / 2)
            .expect("half the pile affords two frames");
        let mut sim = Sim::new();
        sim.load_scene_json(&pile_scene(b / 2, 4, it, false).to_string()).unwrap();
        let ms = fastest(3, || sim.world_mut().step(1.0 / 30.0).unwrap());
        let work = 2 * limits::work(&sim.world().load());
        t.row(format!("impulse: {} boxes, pile, 4 substeps × {it}, step(1/30 s)", b / 2), ms, Some(work), MAX_STEP_MS);
    }
    // The calls that once froze the page (tests/regressions.rs).
    {
        // A leash link subdivided into 1,001 pieces, rope collisions at 11 substeps: the
        // broad phase stops at `limits::MAX_ROPE_PAIRS` (it once took 1 s in release).
        let mut sim = preset("leash");
        sim.subdivide_checked(24.0, 1000.0).unwrap();
        sim.set_solver_checked("xpbd").unwrap();
        sim.set_rope_collisions_checked(true).unwrap();
        sim.set_substeps_checked(11.0).unwrap();
        let (ms, work) = time_sim(&mut sim);
        t.row("leash, a link subdivided 1,000×, rope collisions, 11 substeps".into(), ms, Some(work), MAX_STEP_MS);
        // `step(1)` on the pyramid: refused, or as many 60 Hz frames as half the budget allows.
        let mut sim = preset("pyramid");
        sim.world_mut().step(1.0 / 60.0).unwrap();
        let ms = fastest(1, || drop(sim.world_mut().step(1.0)));
        t.row("pyramid: step(1 s)".into(), ms, None, MAX_STEP_MS);
    }
    // Every preset (the scene fuzzer steps them 600 times: tests/fuzz.rs).
    for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/www/scenes")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let (ms, work) = time_sim(&mut preset(&name));
        t.row(format!("preset {name}"), ms, Some(work), MAX_STEP_MS);
    }
    // A 50 MB file is refused by its size, before parsing.
    {
        let mut sim = preset("rope");
        let big = format!("{{\"version\": 1, \"name\": \"{}\"}}", "x".repeat(50 << 20));
        let ms = fastest(3, || assert!(sim.load_scene_json(&big).is_err()));
        t.row("a 50 MB scene file refused".into(), ms, None, 100.0);
    }
    if !t.over.is_empty() {
        eprintln!("over budget:\n  {}", t.over.join("\n  "));
        std::process::exit(1);
    }
    println!("every line within its budget");
}
