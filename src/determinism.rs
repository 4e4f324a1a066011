//! Determinism across platforms (issue 13 §2): the same cases, compiled natively and for
//! wasm, hashed bit for bit and compared against one committed table
//! (`tests/determinism_hashes.txt`), so native ≡ wasm with no tolerance.
//!
//! A case is a preset from `www/scenes/` (embedded here, so the wasm build needs no file
//! system) under one solver that can run it (`SolverKind::supports`; classic refuses bodies,
//! dogs, pins, rope–rope contacts and unequal masses, and only impulse holds the plank
//! bridge), stepped 600 times at 1/60 s; plus scripted drags: a rope's end grabbed, moved
//! along a fixed path of waypoints and let go (under every solver), and the wrecking ball
//! dragged by the page's soft mouse joint. The hash is FNV-1a over the `f32` bit patterns of
//! every particle position and every body's position and rotation: the same function as
//! `tests/golden.rs`, so a preset's hash here equals its golden one.
//!
//! `tests/determinism.rs` compares the native build against the table (and two runs in one
//! process, and two processes: `ropelab hash`); `tests/web.rs` compares the wasm build in
//! headless Chromium against the same table. `make goldens` re-records it (only when a
//! trajectory is meant to change; `examples/goldens.rs`); no test writes it.
//!
//! What keeps the two platforms equal (see docs/architecture.md, "Floating point and determinism"): Rust never contracts
//! `a * b + c` into an FMA or reassociates floating-point sums unless asked (`mul_add`; none in
//! `src/`); `sqrt` and the four operations are exactly rounded everywhere; float-to-int `as`
//! saturates the same way on both; and every transcendental function goes through the `libm`
//! crate (glam's `libm` feature, and `libm::` calls in our own code) rather than the
//! platform's C library (glibc natively, compiler-builtins' port of musl in wasm).

use glam::Vec2;

use crate::scene::Scene;
use crate::solver::SolverKind;
use crate::wasm::Sim;
use crate::world::World;

/// Steps per case (10 s at 60 Hz).
pub const STEPS: usize = 600;
/// The fixed step (s): the benchmarks' and the page's.
pub use crate::benchmark::DT;

/// Every preset of the page, by name (`www/scenes/<name>.json`).
pub const PRESETS: &[(&str, &str)] = &[
    ("rope", include_str!("../www/scenes/rope.json")),
    ("bridge", include_str!("../www/scenes/bridge.json")),
    ("net", include_str!("../www/scenes/net.json")),
    ("leash", include_str!("../www/scenes/leash.json")),
    ("capstan", include_str!("../www/scenes/capstan.json")),
    ("wrecking-ball", include_str!("../www/scenes/wrecking-ball.json")),
    ("hinge-chain", include_str!("../www/scenes/hinge-chain.json")),
    ("door", include_str!("../www/scenes/door.json")),
    ("ragdoll", include_str!("../www/scenes/ragdoll.json")),
    ("crane", include_str!("../www/scenes/crane.json")),
    ("atwood", include_str!("../www/scenes/atwood.json")),
    ("drum", include_str!("../www/scenes/drum.json")),
    ("pyramid", include_str!("../www/scenes/pyramid.json")),
    ("wall", include_str!("../www/scenes/wall.json")),
    ("plank-bridge", include_str!("../www/scenes/plank-bridge.json")),
    ("cradle", include_str!("../www/scenes/cradle.json")),
];

/// The scene text of preset `name`.
pub fn preset_text(name: &str) -> Option<&'static str> {
    PRESETS.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// Preset `name` built as a world (with the preset's own solver).
pub fn preset(name: &str) -> World {
    let text = preset_text(name).unwrap_or_else(|| panic!("no preset {name:?}"));
    Scene::from_json(text).and_then(|s| s.build()).unwrap_or_else(|e| panic!("preset {name}: {e}"))
}

/// FNV-1a over every particle position, then every body's position and rotation (the
/// `tests/golden.rs` hash).
pub fn hash(w: &World) -> u64 {
    w.state_hash()
}

/// What a case runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Script {
    /// The preset, untouched.
    Plain,
    /// The rope preset's free end grabbed at step 60, moved along [`DRAG_PATH`] and let go.
    DragPoint,
    /// The wrecking ball grabbed by the soft mouse joint, moved along [`DRAG_PATH`], let go.
    DragBody,
}

/// One case: a preset, a solver and a script. Its name is `preset/solver`, or
/// `drag:preset/solver` for the drags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Case {
    pub preset: &'static str,
    pub solver: SolverKind,
    pub script: Script,
}

impl Case {
    pub fn name(&self) -> String {
        let prefix = if self.script == Script::Plain { "" } else { "drag:" };
        format!("{prefix}{}/{}", self.preset, self.solver.name())
    }

    /// The case's world before its first step.
    pub fn world(&self) -> World {
        let mut w = preset(self.preset);
        w.settings.solver = self.solver;
        w
    }
}

/// Every case, in the table's order: each preset under every solver it supports, then the
/// point drag under every solver, then the body drag under the impulse and exact solvers.
pub fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for &(name, _) in PRESETS {
        let w = preset(name);
        for &solver in SolverKind::ALL {
            let mut w = w.clone();
            w.settings.solver = solver;
            if solver.supports(&w).is_ok() {
                out.push(Case { preset: name, solver, script: Script::Plain });
            }
        }
    }
    for &solver in SolverKind::ALL {
        out.push(Case { preset: "rope", solver, script: Script::DragPoint });
    }
    for solver in [SolverKind::Exact, SolverKind::Impulse] {
        out.push(Case { preset: "wrecking-ball", solver, script: Script::DragBody });
    }
    out
}

/// The case named `name`, if there is one.
pub fn case(name: &str) -> Option<Case> {
    cases().into_iter().find(|c| c.name() == name)
}

/// Waypoints of the scripted drags relative to where the grab happened (m, in the view
/// plane): the hold moves from one to the next in [`DRAG_LEG`] steps, by linear
/// interpolation only (no transcendental function in the script itself).
pub const DRAG_PATH: [[f32; 2]; 6] = [[0.0, 0.0], [0.8, 0.6], [1.4, -0.3], [0.2, -1.0], [-0.9, 0.4], [-0.2, 0.9]];
/// Steps per leg of [`DRAG_PATH`].
pub const DRAG_LEG: usize = 50;
/// The step at which the drags grab.
pub const DRAG_START: usize = 60;

/// The drag target at step `t` (`None` before the grab and after the release).
fn drag_target(start: Vec2, t: usize) -> Option<Vec2> {
    let k = t.checked_sub(DRAG_START)?;
    let leg = k / DRAG_LEG;
    if leg + 1 >= DRAG_PATH.len() {
        return None;
    }
    let f = (k % DRAG_LEG) as f32 / DRAG_LEG as f32;
    let (a, b) = (Vec2::from(DRAG_PATH[leg]), Vec2::from(DRAG_PATH[leg + 1]));
    Some(start + a + (b - a) * f)
}

/// The step after which the drags release.
pub const DRAG_END: usize = DRAG_START + DRAG_LEG * (DRAG_PATH.len() - 1);

/// Runs `case` for [`STEPS`] steps; returns the world at the end.
pub fn run(case: &Case) -> World {
    run_with(case, &[])
}

/// Steps after which [`run_reloading`] exports the world and goes on from the export.
pub const RELOADS: [usize; 3] = [1, 150, 300];
/// For the drags: before the grab and after the release (a hold is the pointer's, not the
/// scene's: an export does not carry it).
pub const DRAG_RELOADS: [usize; 2] = [30, 400];

/// The world exported as a scene and loaded again (`Sim::export_scene_json`, then
/// `Sim::load_scene_json`): what a share link or a saved file gives back.
pub fn reload(w: &World) -> World {
    let mut sim = Sim::new();
    *sim.world_mut() = w.clone();
    let text = sim.export_scene_json();
    let mut back = Sim::new();
    back.load_scene_json(&text).unwrap_or_else(|e| panic!("the export does not load: {e}\n{text}"));
    back.world().clone()
}

/// [`run`], but the world is exported and loaded again after each of the steps in
/// [`RELOADS`] (the drags: [`DRAG_RELOADS`]) and goes on from the loaded copy: an export
/// carries the whole state, so the hash is the uninterrupted run's.
pub fn run_reloading(case: &Case) -> World {
    run_with(case, if case.script == Script::Plain { &RELOADS } else { &DRAG_RELOADS })
}

/// Runs `case`, exporting and reloading the world after each step count in `at`.
fn run_with(case: &Case, at: &[usize]) -> World {
    match case.script {
        Script::Plain => {
            let mut w = case.world();
            for t in 0..STEPS {
                w.step(DT).expect("a valid step");
                if at.contains(&(t + 1)) {
                    w = reload(&w);
                }
            }
            w
        }
        Script::DragPoint => {
            let mut w = case.world();
            let last = w.particles.len() - 1;
            let mut start = Vec2::ZERO;
            for t in 0..STEPS {
                if t == DRAG_START {
                    w.grab(1, last as i64).expect("grab");
                    start = w.settings.view.project(w.particles.pos[last]);
                }
                if let Some(q) = drag_target(start, t) {
                    w.drag_to(1, q.x, q.y).expect("drag");
                } else if t == DRAG_END {
                    w.release(1);
                }
                w.step(DT).expect("a valid step");
                if at.contains(&(t + 1)) {
                    w = reload(&w);
                }
            }
            w
        }
        Script::DragBody => {
            let mut sim = Sim::new();
            sim.load_scene_json(preset_text(case.preset).expect("a preset")).expect("the preset loads");
            sim.world_mut().settings.solver = case.solver;
            let mut start = Vec2::ZERO;
            for t in 0..STEPS {
                let id = sim.world().bodies.id[0];
                if t == DRAG_START {
                    let w = sim.world();
                    start = w.settings.view.project(w.bodies.pos[0]);
                    sim.grab_body_at(1, id, start.x, start.y).expect("grab the body");
                }
                if let Some(q) = drag_target(start, t) {
                    sim.drag_body_to(1, q.x, q.y).expect("drag the body");
                } else if t == DRAG_END {
                    sim.release_body_from(1);
                }
                sim.world_mut().step(DT).expect("a valid step");
                if at.contains(&(t + 1)) {
                    let w = reload(sim.world());
                    *sim.world_mut() = w;
                }
            }
            sim.world().clone()
        }
    }
}

/// Every case's name and hash, in [`cases`] order.
pub fn compute() -> Vec<(String, u64)> {
    cases().iter().map(|c| (c.name(), hash(&run(c)))).collect()
}

/// The golden trajectories' presets: the ones that existed when the solvers were last
/// restructured (the determinism table holds every preset).
const GOLDEN_PRESETS: [&str; 10] =
    ["rope", "bridge", "net", "leash", "capstan", "wrecking-ball", "hinge-chain", "door", "ragdoll", "crane"];

/// The golden trajectories (`tests/golden.rs`, `tests/golden_hashes.txt`): those presets
/// under every solver that runs them, the W1 and W3 workloads under every solver and the
/// leash workload, each stepped [`STEPS`] times at [`DT`]; name and [`hash`] in order.
pub fn golden() -> Vec<(String, u64)> {
    let run = |mut w: World| {
        for _ in 0..STEPS {
            w.step(DT).expect("a valid step");
        }
        hash(&w)
    };
    let mut out = Vec::new();
    for name in GOLDEN_PRESETS {
        for &kind in SolverKind::ALL {
            let mut w = preset(name);
            w.settings.solver = kind;
            if kind.supports(&w).is_ok() {
                out.push((format!("{name}/{}", kind.name()), run(w)));
            }
        }
    }
    for &kind in SolverKind::ALL {
        out.push((format!("W1/{}", kind.name()), run(crate::workloads::w1(kind))));
        out.push((format!("W3/{}", kind.name()), run(crate::workloads::w3(kind))));
    }
    out.push(("leash-workload".into(), run(crate::workloads::leash_world())));
    out
}

/// The table's text: one `name hash` line per case (hash as 16 hex digits).
pub fn format_table(rows: &[(String, u64)]) -> String {
    let mut s = String::from(
        "# FNV-1a of every position and body pose after 600 steps (`determinism::hash`), native = wasm.\n\
         # Re-record with `make goldens`, only when a trajectory is meant to change (say why in the commit).\n",
    );
    for (name, h) in rows {
        s.push_str(&format!("{name} {h:016x}\n"));
    }
    s
}

/// Parses [`format_table`]'s text (`#` lines are comments).
pub fn parse_table(text: &str) -> Vec<(String, u64)> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (name, h) = l.split_once(' ').unwrap_or_else(|| panic!("bad table line {l:?}"));
            (name.to_string(), u64::from_str_radix(h.trim(), 16).unwrap_or_else(|_| panic!("bad hash in {l:?}")))
        })
        .collect()
}

/// `Err` lists every case whose hash differs from the table, and any case added or missing.
pub fn compare(got: &[(String, u64)], want: &[(String, u64)]) -> Result<(), String> {
    let mut diffs = Vec::new();
    for (name, h) in got {
        match want.iter().find(|(n, _)| n == name) {
            Some((_, w)) if w == h => {}
            Some((_, w)) => diffs.push(format!("{name}: {h:016x}, table {w:016x}")),
            None => diffs.push(format!("{name}: {h:016x}, not in the table")),
        }
    }
    for (name, _) in want {
        if !got.iter().any(|(n, _)| n == name) {
            diffs.push(format!("{name}: in the table, no longer a case"));
        }
    }
    if diffs.is_empty() {
        Ok(())
    } else {
        Err(format!("{} of {} cases differ:\n{}", diffs.len(), got.len(), diffs.join("\n")))
    }
}
