//! The native runner: the same scenes and workloads as the page, headless.
//!
//! ```text
//! ropelab run SCENE --steps N [--solver S] [--dt DT] [--out FILE]
//! ropelab bench W1|W2|W3|W4|W5|W6|pyramid20|leash [--solver S] [--runs N]
//! ropelab solvers
//! ropelab settings
//! ropelab hash [CASE…]
//! ```
//! `hash` prints the determinism table (`ropelab::determinism`: every preset under every
//! solver that runs it, 600 steps, and the scripted drags) as `name hash` lines, or only the
//! named cases: two processes must print what `tests/determinism_hashes.txt` holds.
//! `settings` prints the settings table (name, unit, range, default, doc) as Markdown.
//! `bench W6` (or `pyramid20`) runs the box pyramid under `impulse` and prints `drift=`
//! and `peak_drift=` (box centre displacement, m) in place of the stretch figures.
//! `bench leash` runs the leash scene preset (three 20-point leashes, dogs, rope–rope
//! contacts, tangles and the braid every step) under the same protocol, with the scene's
//! solver unless `--solver` says otherwise. For `bench`, `S` may also be `xpbd+tethers`
//! (any solver with tethers); without `--solver` every solver runs, then `xpbd+tethers`.
//! `SCENE` is a scene file path or a preset name from `www/scenes/` (e.g. `rope`).
//! `run` prints max stretch, energy and time per step, and writes the final positions as
//! JSON with `--out`. `bench` prints the BENCHMARKS.md line (median of `--runs` fresh runs).
//! Same scene and inputs give the same trajectory on every run.

use std::process::ExitCode;
use std::time::Instant;

use ropelab::benchmark::{format_line, median, run_protocol, run_protocol_with};
use ropelab::scene::Scene;
use ropelab::workloads::{BenchConfig, Workload};
use ropelab::SolverKind;

const USAGE: &str = "usage:
  ropelab run SCENE --steps N [--solver S] [--dt DT] [--out FILE]
  ropelab bench W1|W2|W3|W4|W5|W6|pyramid20|leash [--solver S] [--runs N]
  ropelab solvers
  ropelab settings
  ropelab hash [CASE...]";

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
            run(scene, &Flags::parse(&args[2..], &["--steps", "--solver", "--dt", "--out"])?)
        }
        Some("bench") => {
            let wl = args.get(1).ok_or("bench needs a workload")?;
            bench(wl, &Flags::parse(&args[2..], &["--solver", "--runs"])?)
        }
        Some("settings") => {
            print!("{}", ropelab::settings::table::markdown());
            Ok(())
        }
        Some("hash") => hash(&args[1..]),
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

fn read_scene(name: &str) -> Result<String, String> {
    let preset = format!("{}/www/scenes/{name}.json", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(name)
        .or_else(|_| std::fs::read_to_string(&preset))
        .map_err(|e| format!("cannot read scene {name:?} (nor preset {preset}): {e}"))
}

fn run(scene_name: &str, flags: &Flags) -> Result<(), String> {
    let steps: u64 = flags.number("--steps", 600)?;
    let dt: f32 = flags.number("--dt", 1.0 / 60.0)?;
    let scene = Scene::from_json(&read_scene(scene_name)?).map_err(|e| e.to_string())?;
    let mut world = scene.build().map_err(|e| e.to_string())?;
    if let Some(kind) = flags.solver()? {
        world.settings.solver = kind;
    }
    let e0 = world.energy();
    let mut peak = 0.0f32;
    let t0 = Instant::now();
    for _ in 0..steps {
        world.step(dt).map_err(|e| e.to_string())?;
        peak = peak.max(world.max_stretch());
    }
    let elapsed = t0.elapsed().as_secs_f64();
    println!(
        "scene={} solver={} steps={steps} dt={dt} points={} links={}",
        if scene.name.is_empty() { scene_name } else { &scene.name },
        world.settings.solver.name(),
        world.particles.len(),
        world.links.len()
    );
    println!(
        "max_stretch={:.3e} peak_stretch={:.3e} energy_start={e0:.6} energy_end={:.6} us_per_step={:.3}",
        world.max_stretch(),
        peak,
        world.energy(),
        elapsed * 1e6 / steps.max(1) as f64
    );
    if let Some(path) = flags.get("--out") {
        let positions: Vec<[f32; 3]> = world.particles.pos.iter().map(|p| p.to_array()).collect();
        let json = serde_json::json!({ "time": world.time, "steps": world.steps, "positions": positions });
        std::fs::write(path, serde_json::to_string(&json).expect("serialisable"))
            .map_err(|e| format!("cannot write {path}: {e}"))?;
    }
    Ok(())
}

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
        println!("{}", format_line(&format!("ropelab-{name}"), "leash", &median(&results)));
        return Ok(());
    }
    let wl = Workload::from_name(workload)
        .ok_or_else(|| format!("unknown workload {workload:?} (W1, W2, W3, W4, W5, W6 = pyramid20, leash)"))?;
    let configs: Vec<BenchConfig> = match config {
        Some(c) => vec![c],
        None => BenchConfig::all().into_iter().filter(|c| wl.runs_under(c.solver)).collect(),
    };
    if let Some(c) = configs.iter().find(|c| !wl.runs_under(c.solver)) {
        return Err(format!("the {} solver does not run {}", c.name(), wl.name()));
    }
    let clock = Instant::now();
    for config in configs {
        let results: Vec<_> = (0..runs.max(1))
            .map(|_| run_protocol_with(&mut config.build(wl), || clock.elapsed().as_secs_f64(), |w| wl.stretch(w)))
            .collect();
        println!("{}", wl.line(&format!("ropelab-{}", config.name()), &median(&results)));
    }
    Ok(())
}
