//! The native runner: the same scenes and workloads as the page, headless.
//!
//! ```text
//! ropelab run SCENE --steps N [--solver S] [--dt DT] [--out FILE [--every K]]
//! ropelab bench W1|W2|W3|W4|W5|W6|pyramid20|W7|large_pyramid|leash [--solver S] [--runs N] [--rows R]
//! ropelab solvers
//! ropelab settings
//! ropelab hash [CASE…]
//! ropelab replay REC.json [--hash]
//! ropelab soak [--steps N] [--hold-steps M] [--scenes a,b,…] [--hold-scene S] [--solver S] [--warmup N] [--trace N]
//! ```
//! `soak` (issue 13 §3, `make soak`) steps each scene (default net, leash, capstan) N times
//! (default 10⁶) draining nothing, then holds a point of the net still for M steps (default
//! 216,000: an hour at 60 Hz), printing energy, NaN, queue and memory figures; it fails if an
//! undriven scene's energy rises above `soak::ENERGY_RISE_TOL`, a position goes NaN, a queue
//! passes its cap or the resident memory grows after warm-up.
//! `hash` prints the determinism table (`ropelab::determinism`: every preset under every
//! solver that runs it, 600 steps, and the scripted drags) as `name hash` lines, or only the
//! named cases: two processes must print what `tests/determinism_hashes.txt` holds.
//! `replay` plays a recording (`ropelab::recording`: a scene and the inputs against their
//! steps, made on the page) and prints what came of it: exact, or at which step this build
//! parts from the recorded run (exit status 1), and the state hash after the last step; with
//! `--hash` only that hash. A recording that names a preset reads `www/scenes/<name>.json`.
//! `settings` prints the settings table (name, unit, range, default, doc) as Markdown.
//! `bench` prints each workload's line on stdout and, on stderr, the state hash the world
//! ended on (`# <engine> <workload> state_hash=…`), to tell a speed change that moves no
//! trajectory from one that does.
//! `bench W6` (or `pyramid20`) runs the box pyramid under `impulse` and prints `drift=`
//! and `peak_drift=` (box centre displacement, m) in place of the stretch figures.
//! `bench W7` (or `large_pyramid`) runs Box2D v3's own benchmark scene (5,050 boxes) in
//! Box2D's loop (one untimed step, 499 timed) and prints the Box2D peer's line; `--rows R`
//! builds it with R rows (R(R+1)/2 boxes, at most 109 rows) for the cost curve.
//! `bench leash` runs the leash scene preset (three 20-point leashes, dogs, rope–rope
//! contacts, tangles and the braid every step) under the same protocol, with the scene's
//! solver unless `--solver` says otherwise. For `bench`, `S` may also be `xpbd+tethers`
//! (any solver with tethers); without `--solver` every solver runs, then `xpbd+tethers`.
//! `SCENE` is a scene file path or a preset name from `www/scenes/` (e.g. `rope`).
//! `run` prints max stretch, energy (`World::energy`: particles and bodies) and time per
//! step, and with `--out` writes the final state as JSON (SI units, y up):
//!
//! ```text
//! {"time": s, "steps": n, "energy": J,
//!  "positions":  [[x, y, z], …],          every particle, by index
//!  "velocities": [[vx, vy, vz], …],       every particle (m/s)
//!  "bodies": [{"id", "kind": "dynamic" | "kinematic" | "static",
//!              "pos": [x, y, z],           centre of mass
//!              "rot": [qx, qy, qz, qw],    orientation (unit quaternion, body → world)
//!              "vel": [vx, vy, vz],        linear velocity (m/s)
//!              "angVel": [wx, wy, wz]}],   angular velocity (rad/s, world frame)
//!  "frames": [{the same fields but frames}, …]}   only with --every K
//! ```
//! `positions` is what the file has always held; the other fields were added beside it, so
//! readers of the old format keep working. `--every K` adds `frames`: the state before the
//! first step and after every K-th step, a trajectory to check outside the browser.
//! `--solver` goes through the same check as the page's `setSolver` (a solver that cannot
//! run the scene, like `classic` on bodies, is an error naming why). `bench` prints the docs/benchmarks.md line (median of `--runs` fresh runs).
//! Same scene and inputs give the same trajectory on every run.

use std::process::ExitCode;
use std::time::Instant;

use ropelab::benchmark::{format_line, median, run_protocol};
use ropelab::scene::Scene;
use ropelab::workloads::{BenchConfig, Workload};
use ropelab::SolverKind;

const USAGE: &str = "usage:
  ropelab run SCENE --steps N [--solver S] [--dt DT] [--out FILE [--every K]]
  ropelab bench W1|W2|W3|W4|W5|W6|pyramid20|W7|large_pyramid|leash [--solver S] [--runs N] [--rows R]
  ropelab solvers
  ropelab settings
  ropelab hash [CASE...]
  ropelab replay REC.json [--hash]
  ropelab soak [--steps N] [--hold-steps M] [--scenes a,b,...] [--hold-scene S] [--solver S] [--warmup N] [--trace N]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match dispatch(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ropelab: {e}\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// Command-line flags after the positional argument.
struct Flags<'a> {
    pairs: Vec<(&'a str, &'a str)>,
}

impl<'a> Flags<'a> {
    fn parse(args: &'a [String], known: &[&str]) -> Result<Self, String> {
        let mut pairs = Vec::new();
        let mut it = args.iter();
        while let Some(flag) = it.next() {
            if !known.contains(&flag.as_str()) {
                return Err(format!("unknown argument {flag:?}"));
            }
            let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
            pairs.push((flag.as_str(), value.as_str()));
        }
        Ok(Flags { pairs })
    }

    fn get(&self, flag: &str) -> Option<&'a str> {
        self.pairs.iter().rev().find(|(f, _)| *f == flag).map(|(_, v)| *v)
    }

    fn number<T: std::str::FromStr>(&self, flag: &str, default: T) -> Result<T, String> {
        match self.get(flag) {
            None => Ok(default),
            Some(v) => v.parse().map_err(|_| format!("{flag}: {v:?} is not a valid number")),
        }
    }

    fn solver(&self) -> Result<Option<SolverKind>, String> {
        self.get("--solver")
            .map(|name| {
                SolverKind::from_name(name).ok_or_else(|| {
                    let known: Vec<_> = SolverKind::ALL.iter().map(|k| k.name()).collect();
                    format!("unknown solver {name:?} (known: {})", known.join(", "))
                })
            })
            .transpose()
    }
}

fn dispatch(args: &[String]) -> Result<(), String> {
    match args.first().map(String::as_str) {
        Some("run") => {
            let scene = args.get(1).ok_or("run needs a SCENE")?;
            run(scene, &Flags::parse(&args[2..], &["--steps", "--solver", "--dt", "--out", "--every"])?)
        }
        Some("bench") => {
            let wl = args.get(1).ok_or("bench needs a workload")?;
            bench(wl, &Flags::parse(&args[2..], &["--solver", "--runs", "--rows"])?)
        }
        Some("settings") => {
            print!("{}", ropelab::settings::table::markdown());
            Ok(())
        }
        Some("hash") => hash(&args[1..]),
        Some("replay") => {
            let file = args.get(1).ok_or("replay needs a recording file")?;
            let only_hash = match args.get(2).map(String::as_str) {
                None => false,
                Some("--hash") if args.len() == 3 => true,
                Some(other) => return Err(format!("replay: unknown argument {other:?} (only --hash)")),
            };
            replay(file, only_hash)
        }
        Some("soak") => soak(&Flags::parse(
            &args[1..],
            &["--steps", "--hold-steps", "--scenes", "--warmup", "--trace", "--solver", "--hold-scene"],
        )?),
        Some("solvers") => {
            for k in SolverKind::ALL {
                println!("{}", k.name());
            }
            Ok(())
        }
        Some(other) => Err(format!("unknown command {other:?}")),
        None => Err("no command".into()),
    }
}

fn hash(names: &[String]) -> Result<(), String> {
    use ropelab::determinism;
    let cases = if names.is_empty() {
        determinism::cases()
    } else {
        names
            .iter()
            .map(|n| determinism::case(n).ok_or_else(|| format!("no determinism case {n:?}")))
            .collect::<Result<_, _>>()?
    };
    for c in &cases {
        println!("{} {:016x}", c.name(), determinism::hash(&determinism::run(c)));
    }
    Ok(())
}

/// Resident memory of this process (kB), from /proc (Linux), or 0.
fn rss_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmRSS:")).map(|l| l.to_string()))
        .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        .unwrap_or(0)
}

/// Steps after which the soak's memory is taken as warmed up.
const SOAK_WARMUP: u64 = 1000;

fn soak(flags: &Flags) -> Result<(), String> {
    use ropelab::soak::{self, ENERGY_RISE_TOL};
    use ropelab::world::EVENT_QUEUE_CAP;
    let steps: u64 = flags.number("--steps", 1_000_000)?;
    let hold_steps: u64 = flags.number("--hold-steps", 216_000)?;
    let warmup: u64 = flags.number("--warmup", 3600)?;
    let trace: u64 = flags.number("--trace", 0)?;
    let scenes = flags.get("--scenes").unwrap_or("net,leash,capstan");
    let dt = 1.0 / 60.0;
    let mut failures = Vec::new();
    let report = |failures: &mut Vec<String>,
                  name: &str,
                  undriven: bool,
                  r: &soak::SoakReport,
                  wall: f64,
                  rss: (u64, u64)| {
        println!(
            "soak {name}: steps={} wall_s={wall:.1} us_per_step={:.2} energy_start={:.4} energy_end={:.4} \
             energy_min={:.4} energy_max={:.4} rise={:.3e} J rise_rel={:.3e} (scale m g h = {:.3} J, tol {ENERGY_RISE_TOL:e}{}) \
             nan={} events_max={} (cap {EVENT_QUEUE_CAP}, capacity {}) contact_events_max={} (capacity {}) tangles_max={} \
             rss_kb warm={} end={}",
            r.steps,
            wall * 1e6 / r.steps.max(1) as f64,
            r.energy_start,
            r.energy_end,
            r.energy_min,
            r.energy_max,
            r.energy_rise,
            r.rise_rel(),
            r.energy_scale,
            if undriven { "" } else { ", driven: not checked" },
            r.nan_at.map_or("none".to_string(), |t| format!("at step {t}")),
            r.max_events,
            r.events_capacity,
            r.max_contact_events,
            r.contact_log_capacity,
            r.max_tangles,
            rss.0,
            rss.1,
        );
        if let Some(t) = r.nan_at {
            failures.push(format!("{name}: NaN at step {t}"));
        }
        if undriven && r.rise_rel() > ENERGY_RISE_TOL {
            failures.push(format!("{name}: energy rose {:.3e} of m g h", r.rise_rel()));
        }
        if r.max_events > EVENT_QUEUE_CAP || r.events_capacity > EVENT_QUEUE_CAP {
            failures.push(format!("{name}: event queue {} (capacity {})", r.max_events, r.events_capacity));
        }
        if r.max_contact_events > ropelab::contacts::ContactLog::CAP {
            failures.push(format!("{name}: contact log {}", r.max_contact_events));
        }
        // The allocator may keep a few pages of its own; more than 1 MB is growth.
        if rss.1 > rss.0 + 1024 {
            failures.push(format!("{name}: resident memory grew from {} kB to {} kB", rss.0, rss.1));
        }
    };
    for name in scenes.split(',').filter(|s| !s.is_empty()) {
        let mut w = Scene::from_json(&read_scene(name)?).and_then(|s| s.build()).map_err(|e| e.to_string())?;
        set_solver(&mut w, flags)?;
        let undriven = w.leash.is_none() && w.winches.is_empty();
        let mut warm = 0;
        let t0 = Instant::now();
        let r = soak::soak(&mut w, steps, warmup, dt, |w, t| {
            if t + 1 == SOAK_WARMUP.min(steps) {
                warm = rss_kb();
            }
            if trace > 0 && (t + 1) % trace == 0 {
                println!(
                    "trace {name} step={} wall_s={:.1} energy={:.4} kinetic={:.4} max_stretch={:.3e} braid_len={}",
                    t + 1,
                    t0.elapsed().as_secs_f64(),
                    w.energy(),
                    w.kinetic_energy(),
                    w.max_stretch(),
                    w.leash.as_ref().map_or(0, |l| l.tracker.word().len())
                );
            }
        });
        report(&mut failures, name, undriven, &r, t0.elapsed().as_secs_f64(), (warm, rss_kb()));
    }
    if hold_steps > 0 {
        let hold_scene = flags.get("--hold-scene").unwrap_or("net");
        let mut w = Scene::from_json(&read_scene(hold_scene)?).and_then(|s| s.build()).map_err(|e| e.to_string())?;
        set_solver(&mut w, flags)?;
        let last = w.particles.len() - 1;
        let t0 = Instant::now();
        // Settle, then the hold: the net's last point pulled 0.5 m right and 0.3 m up in 2 s.
        for _ in 0..600 {
            w.step(dt).map_err(|e| e.to_string())?;
        }
        let warm = rss_kb();
        let r = soak::held_drag(&mut w, last, [0.5, 0.3], 120, hold_steps, dt);
        println!("hold {hold_scene} point {last} ({}): max_offset_m={:.3e}", w.settings.solver.name(), r.max_offset);
        if r.max_offset > 1e-6 {
            failures.push(format!("hold: the held point drifted {:.3e} m", r.max_offset));
        }
        report(
            &mut failures,
            &format!("hold({hold_scene})"),
            true,
            &r.soak,
            t0.elapsed().as_secs_f64(),
            (warm, rss_kb()),
        );
    }
    if failures.is_empty() {
        println!("soak: ok");
        Ok(())
    } else {
        Err(format!("soak failed:\n{}", failures.join("\n")))
    }
}

fn replay(file: &str, only_hash: bool) -> Result<(), String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read recording {file:?}: {e}"))?;
    let rec = ropelab::recording::Recording::from_json(&text).map_err(|e| e.to_string())?;
    let scene = match &rec.scene {
        ropelab::recording::SceneRef::Preset(name) => {
            let path = format!("{}/www/scenes/{name}.json", env!("CARGO_MANIFEST_DIR"));
            std::fs::read_to_string(&path)
                .map_err(|e| format!("the recording plays on preset {name:?}: cannot read {path}: {e}"))?
        }
        ropelab::recording::SceneRef::Inline(_) => String::new(),
    };
    let report = ropelab::Sim::replay(&text, &scene).map_err(|e| e.to_string())?;
    if only_hash {
        println!("{}", ropelab::recording::Hex(report.hash));
    } else {
        println!("{}", report.message());
        println!("hash {}", ropelab::recording::Hex(report.hash));
    }
    if report.matches() {
        Ok(())
    } else if only_hash {
        Err(report.message())
    } else {
        Err("the replay differs from the recording".into())
    }
}

fn read_scene(name: &str) -> Result<String, String> {
    let preset = format!("{}/www/scenes/{name}.json", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(name)
        .or_else(|_| std::fs::read_to_string(&preset))
        .map_err(|e| format!("cannot read scene {name:?} (nor preset {preset}): {e}"))
}

fn run(scene_name: &str, flags: &Flags) -> Result<(), String> {
    let steps: u64 = flags.number("--steps", 600)?;
    let dt: f32 = flags.number("--dt", 1.0 / 60.0)?;
    let every: u64 = flags.number("--every", 0)?;
    let scene = Scene::from_json(&read_scene(scene_name)?).map_err(|e| e.to_string())?;
    let mut world = scene.build().map_err(|e| e.to_string())?;
    set_solver(&mut world, flags)?;
    let e0 = world.energy();
    let mut peak = 0.0f32;
    let mut frames = Vec::new();
    if every > 0 {
        frames.push(state_json(&world));
    }
    let t0 = Instant::now();
    for t in 0..steps {
        world.step(dt).map_err(|e| e.to_string())?;
        peak = peak.max(world.max_stretch());
        if every > 0 && (t + 1) % every == 0 {
            frames.push(state_json(&world));
        }
    }
    let elapsed = t0.elapsed().as_secs_f64();
    println!(
        "scene={} solver={} steps={steps} dt={dt} points={} links={} bodies={}",
        if scene.name.is_empty() { scene_name } else { &scene.name },
        world.settings.solver.name(),
        world.particles.len(),
        world.links.len(),
        world.bodies.len()
    );
    println!(
        "max_stretch={:.3e} peak_stretch={:.3e} energy_start={e0:.6} energy_end={:.6} us_per_step={:.3}",
        world.max_stretch(),
        peak,
        world.energy(),
        elapsed * 1e6 / steps.max(1) as f64
    );
    if let Some(path) = flags.get("--out") {
        let mut json = state_json(&world);
        if every > 0 {
            json["frames"] = serde_json::Value::Array(frames);
        }
        std::fs::write(path, serde_json::to_string(&json).expect("serialisable"))
            .map_err(|e| format!("cannot write {path}: {e}"))?;
    } else if every > 0 {
        return Err("--every needs --out".into());
    }
    Ok(())
}

/// `--solver S` through the same check as the page's `setSolver` (`World::set_settings`:
/// `SolverKind::supports`), so the runner refuses what the wasm API refuses.
fn set_solver(world: &mut ropelab::world::World, flags: &Flags) -> Result<(), String> {
    if let Some(kind) = flags.solver()? {
        world
            .set_setting("solver", ropelab::settings::table::SettingValue::Text(kind.name().into()))
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// The state `run --out` writes (see the module docs for the format).
fn state_json(w: &ropelab::world::World) -> serde_json::Value {
    let v3 = |v: glam::Vec3| v.to_array();
    let positions: Vec<[f32; 3]> = w.particles.pos.iter().map(|p| p.to_array()).collect();
    let velocities: Vec<[f32; 3]> = w.particles.vel.iter().map(|p| p.to_array()).collect();
    let b = &w.bodies;
    let bodies: Vec<serde_json::Value> = (0..b.len())
        .map(|i| {
            serde_json::json!({
                "id": b.id[i].0, "kind": b.kind[i].name(),
                "pos": v3(b.pos[i]), "rot": b.rot[i].to_array(),
                "vel": v3(b.vel[i]), "angVel": v3(b.ang_vel[i]),
            })
        })
        .collect();
    serde_json::json!({
        "time": w.time, "steps": w.steps, "energy": w.energy(),
        "positions": positions, "velocities": velocities, "bodies": bodies,
    })
}

/// The engine's name in the bench lines: a build for AVX2 (`-C target-feature=+avx2`, as
/// Box2D's `box2d-avx2` is built with `-mavx2`) names itself apart, so that a race can set
/// both builds beside both of Box2D's.
const BENCH_ENGINE: &str = if cfg!(target_feature = "avx2") { "ropelab-avx2" } else { "ropelab" };

fn bench(workload: &str, flags: &Flags) -> Result<(), String> {
    let runs: usize = flags.number("--runs", 5)?;
    let config = flags
        .get("--solver")
        .map(|name| {
            BenchConfig::from_name(name).ok_or_else(|| {
                let known: Vec<_> = BenchConfig::all().iter().map(|c| c.name()).collect();
                format!("unknown solver {name:?} (known: {})", known.join(", "))
            })
        })
        .transpose()?;
    if workload.eq_ignore_ascii_case("leash") {
        let build = || config.map_or_else(ropelab::workloads::leash_world, BenchConfig::leash);
        let clock = Instant::now();
        let results: Vec<_> =
            (0..runs.max(1)).map(|_| run_protocol(&mut build(), || clock.elapsed().as_secs_f64())).collect();
        let name = config.map_or_else(|| build().settings.solver.name().to_string(), |c| c.name());
        println!("{}", format_line(&format!("{BENCH_ENGINE}-{name}"), "leash", &median(&results)));
        return Ok(());
    }
    let wl = Workload::from_name(workload).ok_or_else(|| {
        format!("unknown workload {workload:?} (W1, W2, W3, W4, W5, W6 = pyramid20, W7 = large_pyramid, leash)")
    })?;
    let configs: Vec<BenchConfig> = match config {
        Some(c) => vec![c],
        None => BenchConfig::all().into_iter().filter(|c| wl.runs_under(c.solver)).collect(),
    };
    if let Some(c) = configs.iter().find(|c| !wl.runs_under(c.solver)) {
        return Err(format!("the {} solver does not run {}", c.name(), wl.name()));
    }
    if let Some(rows) = flags.get("--rows") {
        // W7's cost curve: its scene and loop with fewer (or more) rows.
        let rows: usize = rows.parse().ok().filter(|r| (1..=109).contains(r)).ok_or("--rows: expected 1 to 109")?;
        if wl != Workload::W7 {
            return Err("--rows is for W7 (large_pyramid)".into());
        }
        let clock = Instant::now();
        for config in configs {
            let results: Vec<_> = (0..runs.max(1))
                .map(|_| {
                    let mut w = ropelab::workloads::large_pyramid_world(rows, config.solver);
                    let drift = |w: &ropelab::World| ropelab::workloads::pyramid_drift(w, rows);
                    let r = ropelab::benchmark::run_box2d_protocol(&mut w, || clock.elapsed().as_secs_f64(), drift);
                    (r, w.state_hash())
                })
                .collect();
            let engine = format!("{BENCH_ENGINE}-{}", config.name());
            let (results, hash) = split_hashes(results);
            println!("{}", ropelab::workloads::large_pyramid_line(&engine, &median(&results), rows));
            print_hash(&engine, &format!("large_pyramid --rows {rows}"), hash);
        }
        return Ok(());
    }
    let clock = Instant::now();
    for config in configs {
        let results: Vec<_> = (0..runs.max(1))
            .map(|_| {
                let mut w = config.build(wl);
                let r = wl.run(&mut w, || clock.elapsed().as_secs_f64());
                (r, w.state_hash())
            })
            .collect();
        let engine = format!("{BENCH_ENGINE}-{}", config.name());
        let (results, hash) = split_hashes(results);
        let r = median(&results);
        println!("{}", wl.line(&engine, &r));
        print_hash(&engine, wl.name(), hash);
        // (W7 runs Box2D's loop, which measures once, at the end.)
        if wl != Workload::W7 {
            let (label, _) = wl.quality_names();
            let (mean, median) = (ropelab::benchmark::sci(r.mean_stretch), ropelab::benchmark::sci(r.median_stretch));
            eprintln!("# {engine} {} the 100 samples' mean_{label}={mean} median_{label}={median}", wl.name());
        }
    }
    Ok(())
}

/// The runs' results, and the state hash their worlds ended on (the same in every run).
fn split_hashes<R>(runs: Vec<(R, u64)>) -> (Vec<R>, u64) {
    let hash = runs.first().map_or(0, |r| r.1);
    (runs.into_iter().map(|r| r.0).collect(), hash)
}

/// The world's state hash at the workload's end, on stderr (stdout is the one line that
/// tools/race.sh reads): a speed change that moves no trajectory leaves it as it was.
fn print_hash(engine: &str, workload: &str, hash: u64) {
    eprintln!("# {engine} {workload} state_hash={hash:016x}");
}
