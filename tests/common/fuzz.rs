//! The API fuzzer's machinery (issue 13 §1), shared by `tests/fuzz.rs` (random sequences of
//! every `Sim` operation, and structure-aware mutations of the preset scene files) and
//! `tests/regressions.rs` (the minimised failures, replayed).
//!
//! A seeded SplitMix64 drives everything, so a failure is its seed: `FUZZ_SEED=… cargo test
//! --release --test fuzz` replays it, and the driver minimises the failing call sequence
//! (drops calls one at a time while the same failure remains) before reporting it.
//!
//! Every operation is called the way `src/wasm/` calls it for JS: the same plain-Rust method
//! of `Sim` (or the `World` method the `#[wasm_bindgen]` wrapper calls), with arguments
//! converted as the wrapper converts JS numbers (`f32` parameters get the f64 rounded as
//! `Math.fround` does, indices go through the same `idx`, counts stay `f64`).
#![allow(dead_code)]

use std::panic::{catch_unwind, AssertUnwindSafe};

use ropelab::settings::table::SettingValue;
use ropelab::Sim;

/// The leash's SplitMix64 (`ropelab::leash::Rng`) with the draws the fuzzer needs.
#[derive(Clone, Debug)]
pub struct Rng(pub ropelab::leash::Rng);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

/// The nasty numbers: non-finite, signed zeros, the edges of f32, huge, tiny, negative,
/// non-integer, and integers past 2^31, 2^32 and 2^53.
pub const NASTY: &[f64] = &[
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    0.0,
    -0.0,
    1e38,
    -1e38,
    3.5e38, // rounds to f32 infinity
    1e300,
    -1e300,
    f32::MAX as f64,
    f32::MIN_POSITIVE as f64,
    1e-45,
    1e-30,
    -1.0,
    -0.5,
    0.5,
    1.5,
    2.0,
    1.0,
    1000.0,
    1001.0,
    1e6,
    1e9,
    2147483648.0,
    4294967295.0,
    4294967296.0,
    9007199254740993.0,
    1e20,
];

/// A number from the nasty distribution: half the time a nasty one, else an ordinary value.
pub fn num(r: &mut Rng) -> f64 {
    match r.below(4) {
        0 | 1 => *r.pick(NASTY),
        2 => (r.unit() - 0.5) * 20.0,
        _ => (r.unit() * 4.0).round() - 1.0,
    }
}

/// A number that is usually sane (so sequences get somewhere), sometimes nasty.
pub fn mostly_sane(r: &mut Rng, lo: f64, hi: f64) -> f64 {
    if r.chance(0.25) {
        num(r)
    } else {
        lo + r.unit() * (hi - lo)
    }
}

/// An index: usually a valid one of `len`, else an edge (len, -1, fractions, NaN, huge).
pub fn index(r: &mut Rng, len: usize) -> f64 {
    if len > 0 && r.chance(0.7) {
        return r.below(len) as f64;
    }
    *r.pick(&[len as f64, len as f64 + 1.0, -1.0, -0.0, 0.5, f64::NAN, f64::INFINITY, 1e20, 4294967296.0, 2147483648.0])
}

/// A finite JSON number, possibly one that overflows f32 (1e300 parses as f32 infinity).
pub fn json_num(r: &mut Rng) -> serde_json::Value {
    let x = num(r);
    if x.is_finite() {
        serde_json::json!(x)
    } else {
        serde_json::json!(*r.pick(&[1e300, -1e300, 1e39]))
    }
}

fn vec3(r: &mut Rng, sane: f64) -> serde_json::Value {
    if r.chance(0.7) {
        serde_json::json!([
            (r.unit() - 0.5) * 2.0 * sane,
            (r.unit() - 0.5) * 2.0 * sane,
            if r.chance(0.5) { 0.0 } else { (r.unit() - 0.5) * sane }
        ])
    } else if r.chance(0.8) {
        serde_json::json!([json_num(r), json_num(r), json_num(r)])
    } else {
        serde_json::json!([json_num(r), json_num(r)])
    }
}

fn maybe_num(r: &mut Rng, lo: f64, hi: f64) -> serde_json::Value {
    if r.chance(0.3) {
        json_num(r)
    } else {
        serde_json::json!(lo + r.unit() * (hi - lo))
    }
}

/// A body as `addBody` takes it, from sane to absurd.
pub fn body_json(r: &mut Rng) -> String {
    let shape = match r.below(4) {
        0 => serde_json::json!({"type": "sphere", "radius": maybe_num(r, 0.05, 0.5)}),
        1 => {
            serde_json::json!({"type": "capsule", "radius": maybe_num(r, 0.02, 0.2), "half_length": maybe_num(r, 0.05, 0.5)})
        }
        2 => serde_json::json!({"type": "box", "half": if r.chance(0.7) {
            serde_json::json!([0.1 + r.unit(), 0.1 + r.unit(), 0.1 + r.unit()]) } else { vec3(r, 1.0) }}),
        _ => serde_json::json!({"type": *r.pick(&["cone", "", "sphere"]), "radius": json_num(r)}),
    };
    let mut b = serde_json::json!({"shape": shape, "pos": vec3(r, 5.0)});
    let o = b.as_object_mut().unwrap();
    for (k, p) in [
        ("mass", 0.6),
        ("kind", 0.3),
        ("angle", 0.2),
        ("rot", 0.1),
        ("vel", 0.2),
        ("angular_velocity", 0.2),
        ("linear_damping", 0.1),
        ("angular_damping", 0.1),
        ("gravity_scale", 0.1),
        ("planar", 0.3),
        ("friction", 0.1),
        ("restitution", 0.1),
        ("rolling_friction", 0.1),
    ] {
        if r.chance(p) {
            let v = match k {
                "mass" => maybe_num(r, 0.1, 100.0),
                "kind" => serde_json::json!(*r.pick(&["dynamic", "static", "kinematic", "ghost"])),
                "rot" => serde_json::json!([json_num(r), json_num(r), json_num(r), json_num(r)]),
                "vel" | "angular_velocity" => vec3(r, 10.0),
                "planar" => serde_json::json!(r.chance(0.5)),
                _ => maybe_num(r, 0.0, 1.0),
            };
            o.insert(k.into(), v);
        }
    }
    if r.chance(0.05) {
        o.insert("colour".into(), serde_json::json!(1));
    }
    b.to_string()
}

/// A joint as `addJoint` takes it, between existing bodies (ids), the world, or nothing.
pub fn joint_json(r: &mut Rng, ids: &[u32]) -> String {
    let body = |r: &mut Rng| -> serde_json::Value {
        match r.below(6) {
            0 => serde_json::Value::Null,
            1 => serde_json::json!(*r.pick(&[99999u64, 4294967296, 0])),
            2 => serde_json::json!(-1),
            _ if !ids.is_empty() => serde_json::json!(*r.pick(ids)),
            _ => serde_json::Value::Null,
        }
    };
    let ty = *r.pick(&[
        "ballSocket",
        "hinge",
        "prismatic",
        "fixed",
        "distance",
        "rope",
        "angularMotor",
        "swingTwist",
        "weld",
        "glue",
    ]);
    let mut j = serde_json::json!({"type": ty, "a": body(r), "b": body(r), "anchor": vec3(r, 3.0)});
    let o = j.as_object_mut().unwrap();
    let extra: &[&str] = match ty {
        "hinge" | "prismatic" => &["axis", "limit", "motor"],
        "distance" => &["length", "min", "max"],
        "rope" => &["max_length"],
        "angularMotor" => &["axis", "motor"],
        "swingTwist" => &["axis", "max_swing", "twist"],
        _ => &[],
    };
    for &k in extra.iter().chain(["soft", "break_force", "anchor_b", "ref_rotation", "limit"].iter()) {
        if !r.chance(0.3) {
            continue;
        }
        let v = match k {
            "axis" | "anchor_b" => vec3(r, 1.0),
            "limit" | "twist" => serde_json::json!([maybe_num(r, -1.0, 0.0), maybe_num(r, 0.0, 1.0)]),
            "motor" => serde_json::json!({"speed": maybe_num(r, -2.0, 2.0), "max_force": maybe_num(r, 0.0, 100.0)}),
            "soft" => serde_json::json!({"hertz": maybe_num(r, 0.5, 30.0), "damping_ratio": maybe_num(r, 0.0, 2.0)}),
            "ref_rotation" => serde_json::json!([json_num(r), json_num(r), json_num(r), json_num(r)]),
            _ => maybe_num(r, 0.0, 3.0),
        };
        o.insert(k.into(), v);
    }
    j.to_string()
}

/// An obstacle as `addObstacle` takes it.
pub fn obstacle_json(r: &mut Rng) -> String {
    let shape = match r.below(5) {
        0 => serde_json::json!({"type": "plane", "point": vec3(r, 2.0), "normal": vec3(r, 1.0)}),
        1 => serde_json::json!({"type": "circle", "center": vec3(r, 2.0), "radius": maybe_num(r, 0.1, 1.0)}),
        2 => {
            serde_json::json!({"type": "capsule", "a": vec3(r, 2.0), "b": vec3(r, 2.0), "radius": maybe_num(r, 0.1, 1.0)})
        }
        3 => {
            serde_json::json!({"type": "box", "center": vec3(r, 2.0), "half": vec3(r, 1.0), "angle": maybe_num(r, -3.0, 3.0)})
        }
        _ => serde_json::json!({"type": "torus"}),
    };
    let mut o = serde_json::json!({"shape": shape});
    if r.chance(0.3) {
        o["friction"] = maybe_num(r, 0.0, 1.0);
    }
    if r.chance(0.2) {
        o["restitution"] = maybe_num(r, 0.0, 1.0);
    }
    o.to_string()
}

/// Every setting's scene key and JS name (from the settings table).
pub fn setting_names() -> Vec<String> {
    let mut v = Vec::new();
    for t in ropelab::settings::table::SETTINGS {
        v.push(t.key.to_string());
        v.push(t.js_name());
    }
    v.push("colour".into());
    v
}

/// A value for any setting, of any type.
pub fn setting_value(r: &mut Rng) -> SettingValue {
    match r.below(8) {
        0 => SettingValue::Absent,
        1 => SettingValue::Bool(r.chance(0.5)),
        2 => SettingValue::Text(
            r.pick(&["classic", "pbd", "jacobi", "xpbd", "exact", "impulse", "top", "side", "", "CLASSIC"]).to_string(),
        ),
        3 => SettingValue::Vec3([num(r), num(r), num(r)]),
        4 => SettingValue::Rect([num(r), num(r), num(r), num(r)]),
        5 => SettingValue::Num(*r.pick(&[1.0, 2.0, 3.0, 8.0, 20.0, 0.5, 0.999, 0.0])),
        _ => SettingValue::Num(num(r)),
    }
}

fn setting_json(v: &SettingValue) -> serde_json::Value {
    let n = |x: f64| if x.is_finite() { serde_json::json!(x) } else { serde_json::json!(1e300) };
    match v {
        SettingValue::Absent => serde_json::Value::Null,
        SettingValue::Bool(b) => serde_json::json!(b),
        SettingValue::Text(s) => serde_json::json!(s),
        SettingValue::Num(x) => n(*x),
        SettingValue::Vec3(a) => serde_json::json!(a.map(n)),
        SettingValue::Rect(a) => serde_json::json!(a.map(n)),
    }
}

/// One call into the `Sim` surface with its arguments (as the wrapper would receive them).
#[derive(Clone, Debug)]
pub enum Op {
    // stepping
    Step(f32),
    Advance(f64),
    SetFixedStep(f32, f64),
    RefreshRender,
    SetProfiling(bool),
    StageTimes,
    ResetStageTimes,
    Readouts,
    // editing
    Pick(f32, f32, f32),
    Grab(u32, f64),
    DragTo(u32, f32, f32),
    Release(u32),
    HeldBy(u32),
    SetLocked(f64, bool),
    IsLocked(f64),
    ToggleLock(f64),
    AddPoint(f32, f32, bool),
    RemovePoint(f64),
    Connect(f64, f64),
    Disconnect(f64, f64),
    Subdivide(f64, f64),
    Cut(f32, f32, f32, f32),
    AddObstacle(String),
    ClearObstacles,
    Pin(f64, f32, f32, f32),
    Unpin(f64),
    // ropes
    RopePoints(f64),
    RopeId(f64),
    RopeIndex(f64),
    SetWander(bool),
    SetWanderParams(f32, f32),
    RopeReports(bool),
    DrainEvents,
    // scenes
    LoadScene(String),
    LoadPreset(usize),
    ExportReload,
    // settings
    Set(String, SettingValue),
    SetSettingsJson(String),
    SetIterations(f64),
    SetSubsteps(f64),
    SetGive(f32),
    SetGravity(f32, f32, f32),
    SetFriction(f32),
    SetWalls(f32, f32, f32, f32),
    ClearWalls,
    SetSolver(String),
    SetMassWeighted(bool),
    SetTethers(bool),
    SetBending(bool),
    SetRopeCollisions(bool),
    SetDamping(f32),
    SetOmega(f32),
    SetBendingCompliance(f32),
    SetWallFriction(f32),
    SetRestitution(f32),
    SetDragCompliance(f32),
    SetRopeFriction(f32, f32),
    SetTangleCap(Option<f32>),
    SettingsReadouts,
    // bodies
    AddBody(String),
    AddJoint(String),
    RemoveBody(f64),
    RemoveJoint(f64),
    Attach(f64, f64),
    AttachJson(String),
    Detach(f64),
    SetWinchSpeed(f64, f64),
    RefillBodyPoses(f32),
    PickBody(f32, f32, Option<f32>),
    GrabBody(f64, f64, f32, f32),
    DragBody(f64, f32, f32),
    ReleaseBody(f64),
    DrainContactEvents,
    ClearContactEvents,
    BodyReadouts,
}

/// The preset scene files, by name.
pub fn presets() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/www/scenes");
    let mut v: Vec<(String, String)> = std::fs::read_dir(dir)
        .expect("www/scenes")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| (p.file_stem().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap()))
        // The lite build (`--no-default-features`) refuses bodies, joints and attachments: its
        // fuzzing runs on the rope presets (through its own JSON reader, `ropelab::json`).
        .filter(|(_, text)| {
            let v: serde_json::Value = serde_json::from_str(text).unwrap();
            ropelab::FULL
                || ["bodies", "joints", "attachments"].iter().all(|k| v[*k].as_array().is_none_or(|a| a.is_empty()))
        })
        .collect();
    v.sort();
    v
}

/// `idx` of `src/wasm/mod.rs`: a JS number used as an index.
pub fn idx(x: f64) -> i64 {
    if x.is_finite() && x.fract() == 0.0 && x.abs() < 9.0e15 {
        x as i64
    } else {
        -1
    }
}

/// Math.fround: what a JS number passed to an `f32` parameter becomes.
pub fn f(x: f64) -> f32 {
    x as f32
}

/// Draws one operation for the sim as it is now.
pub fn gen_op(r: &mut Rng, sim: &Sim, presets: &[(String, String)]) -> Op {
    let w = sim.world();
    let (n, m) = (w.particles.len(), w.links.len());
    let ropes = w.ropes.len();
    let body_ids: Vec<u32> = w.bodies.id.iter().map(|i| i.0).collect();
    let joint_ids: Vec<u32> = w.joints.id.iter().map(|i| i.0).collect();
    let id = |r: &mut Rng, ids: &[u32]| -> f64 {
        if !ids.is_empty() && r.chance(0.7) {
            *r.pick(ids) as f64
        } else {
            num(r)
        }
    };
    let coord = |r: &mut Rng| f(mostly_sane(r, -5.0, 5.0));
    let pointer = |r: &mut Rng| *r.pick(&[0u32, 1, 2, 1, 4294967295, 2147483648]);
    match r.below(80) {
        0..=9 => Op::Step(f(if r.chance(0.7) { 1.0 / 60.0 } else { num(r) })),
        10 => Op::Advance(if r.chance(0.5) { 0.016 * r.below(10) as f64 } else { num(r) }),
        11 => Op::SetFixedStep(f(if r.chance(0.5) { 1.0 / 60.0 } else { num(r) }), num(r)),
        12 => Op::RefreshRender,
        13 => Op::SetProfiling(r.chance(0.5)),
        14 => Op::StageTimes,
        15 => Op::ResetStageTimes,
        16 => Op::Readouts,
        17 => Op::Pick(coord(r), coord(r), f(mostly_sane(r, 0.0, 1.0))),
        18 | 19 => Op::Grab(pointer(r), index(r, n)),
        20 | 21 => Op::DragTo(pointer(r), coord(r), coord(r)),
        22 => Op::Release(pointer(r)),
        23 => Op::HeldBy(pointer(r)),
        24 => Op::SetLocked(index(r, n), r.chance(0.5)),
        25 => Op::IsLocked(index(r, n)),
        26 => Op::ToggleLock(index(r, n)),
        27 => Op::AddPoint(coord(r), coord(r), r.chance(0.3)),
        28 => Op::RemovePoint(index(r, n)),
        29 => Op::Connect(index(r, n), index(r, n)),
        30 => Op::Disconnect(index(r, n), index(r, n)),
        31 => Op::Subdivide(index(r, m), if r.chance(0.6) { (1 + r.below(5)) as f64 } else { num(r) }),
        32 => Op::Cut(coord(r), coord(r), coord(r), coord(r)),
        33 => Op::AddObstacle(obstacle_json(r)),
        34 => Op::ClearObstacles,
        35 => Op::Pin(index(r, n), coord(r), coord(r), f(mostly_sane(r, 0.0, 1e-3))),
        36 => Op::Unpin(index(r, n)),
        37 => Op::RopePoints(index(r, ropes)),
        38 => Op::RopeId(index(r, ropes)),
        39 => Op::RopeIndex(index(r, ropes)),
        40 => Op::SetWander(r.chance(0.5)),
        41 => Op::SetWanderParams(f(mostly_sane(r, 0.0, 5.0)), f(mostly_sane(r, 0.0, 5.0))),
        42 => Op::RopeReports(r.chance(0.5)),
        43 => Op::DrainEvents,
        44 => {
            if r.chance(0.5) {
                Op::LoadPreset(r.below(presets.len()))
            } else {
                let (_, text) = r.pick(presets);
                Op::LoadScene(mutate_scene(r, text))
            }
        }
        45 => Op::ExportReload,
        46 | 47 => {
            let names = setting_names();
            Op::Set(r.pick(&names).clone(), setting_value(r))
        }
        48 => {
            let names = setting_names();
            let mut o = serde_json::Map::new();
            for _ in 0..r.below(4) {
                o.insert(r.pick(&names).clone(), setting_json(&setting_value(r)));
            }
            Op::SetSettingsJson(if r.chance(0.9) { serde_json::Value::Object(o).to_string() } else { "[1, 2".into() })
        }
        49 => Op::SetIterations(if r.chance(0.5) { (1 + r.below(20)) as f64 } else { num(r) }),
        50 => Op::SetSubsteps(if r.chance(0.5) { (1 + r.below(20)) as f64 } else { num(r) }),
        51 => Op::SetGive(f(mostly_sane(r, 0.0, 1.0))),
        52 => {
            Op::SetGravity(f(mostly_sane(r, -20.0, 20.0)), f(mostly_sane(r, -20.0, 20.0)), f(mostly_sane(r, -1.0, 1.0)))
        }
        53 => Op::SetFriction(f(mostly_sane(r, 0.9, 1.0))),
        54 => Op::SetWalls(coord(r), coord(r), coord(r), coord(r)),
        55 => Op::ClearWalls,
        56 => Op::SetSolver(r.pick(&["classic", "pbd", "jacobi", "xpbd", "exact", "impulse", "Exact", ""]).to_string()),
        57 => Op::SetMassWeighted(r.chance(0.5)),
        58 => Op::SetTethers(r.chance(0.5)),
        59 => Op::SetBending(r.chance(0.5)),
        60 => Op::SetRopeCollisions(r.chance(0.5)),
        61 => match r.below(6) {
            0 => Op::SetDamping(f(mostly_sane(r, 0.0, 2.0))),
            1 => Op::SetOmega(f(mostly_sane(r, 0.5, 1.9))),
            2 => Op::SetBendingCompliance(f(mostly_sane(r, 0.0, 1.0))),
            3 => Op::SetWallFriction(f(mostly_sane(r, 0.0, 1.0))),
            4 => Op::SetRestitution(f(mostly_sane(r, 0.0, 1.0))),
            _ => Op::SetDragCompliance(f(mostly_sane(r, 0.0, 1e-3))),
        },
        62 => Op::SetRopeFriction(f(mostly_sane(r, 0.0, 1.0)), f(mostly_sane(r, 0.0, 1.0))),
        63 => Op::SetTangleCap(if r.chance(0.3) { None } else { Some(f(mostly_sane(r, 1.0, 5.0))) }),
        64 => Op::SettingsReadouts,
        65 | 66 => Op::AddBody(body_json(r)),
        67 | 68 => Op::AddJoint(joint_json(r, &body_ids)),
        69 => Op::RemoveBody(id(r, &body_ids)),
        70 => Op::RemoveJoint(id(r, &joint_ids)),
        71 => Op::Attach(index(r, n), id(r, &body_ids)),
        72 => {
            let body = if body_ids.is_empty() || r.chance(0.2) {
                serde_json::json!("ghost")
            } else {
                serde_json::json!(*r.pick(&body_ids))
            };
            let spec = if r.chance(0.5) {
                serde_json::json!({"point": index(r, n).clamp(0.0, 1e9) as u64, "body": body})
            } else {
                serde_json::json!({"rope": r.below(ropes + 2), "end": *r.pick(&["start", "end", "middle"]), "body": body})
            };
            Op::AttachJson(spec.to_string())
        }
        73 => Op::Detach(index(r, n)),
        74 => Op::SetWinchSpeed(index(r, w.winches.len()), mostly_sane(r, -1.0, 1.0)),
        75 => Op::RefillBodyPoses(f(mostly_sane(r, 0.0, 1.0))),
        76 => Op::PickBody(coord(r), coord(r), if r.chance(0.5) { None } else { Some(f(mostly_sane(r, 0.0, 1.0))) }),
        77 => Op::GrabBody(pointer(r) as f64, id(r, &body_ids), coord(r), coord(r)),
        78 => match r.below(3) {
            0 => Op::DragBody(if r.chance(0.8) { pointer(r) as f64 } else { num(r) }, coord(r), coord(r)),
            1 => Op::ReleaseBody(if r.chance(0.8) { pointer(r) as f64 } else { num(r) }),
            _ => Op::DrainContactEvents,
        },
        _ => match r.below(2) {
            0 => Op::ClearContactEvents,
            _ => Op::BodyReadouts,
        },
    }
}

/// Runs one operation; `Err` is the API's error message (a rejected call).
pub fn apply(sim: &mut Sim, op: &Op, presets: &[(String, String)]) -> Result<(), String> {
    let e = |e: ropelab::SimError| e.to_string();
    match op {
        Op::Step(dt) => sim.world_mut().step(*dt).map_err(e),
        Op::Advance(t) => sim.advance_checked(*t).map(drop).map_err(e),
        Op::SetFixedStep(h, k) => sim.set_fixed_step_checked(*h, *k).map_err(e),
        Op::RefreshRender => {
            sim.refill_render();
            let b = sim.render_buffers();
            let _ = (b.flags.len(), b.strain.len(), b.tension.len());
            Ok(())
        }
        Op::SetProfiling(on) => {
            sim.set_profiling_checked(*on);
            Ok(())
        }
        Op::StageTimes => {
            serde_json::from_str::<serde_json::Value>(&sim.stage_times_json()).map_err(|e| format!("BAD JSON {e}"))?;
            Ok(())
        }
        Op::ResetStageTimes => {
            sim.world_mut().reset_stage_times();
            Ok(())
        }
        Op::Readouts => {
            let w = sim.world();
            let _ = (w.max_stretch(), w.energy(), w.time, w.particles.len(), w.links.len(), sim.camera_js());
            Ok(())
        }
        Op::Pick(x, y, rad) => sim.world().pick(*x, *y, *rad).map(drop).map_err(e),
        Op::Grab(p, i) => sim.world_mut().grab(*p, idx(*i)).map_err(e),
        Op::DragTo(p, x, y) => sim.world_mut().drag_to(*p, *x, *y).map_err(e),
        Op::Release(p) => {
            sim.world_mut().release(*p);
            Ok(())
        }
        Op::HeldBy(p) => {
            let _ = sim.held_by(*p);
            Ok(())
        }
        Op::SetLocked(i, on) => sim.world_mut().set_locked(idx(*i), *on).map_err(e),
        Op::IsLocked(i) => ropelab::error::index("point", idx(*i), sim.world().particles.len()).map(drop).map_err(e),
        Op::ToggleLock(i) => {
            let k = ropelab::error::index("point", idx(*i), sim.world().particles.len()).map_err(e)?;
            let locked = !sim.world().particles.locked[k];
            sim.world_mut().set_locked(idx(*i), locked).map_err(e)
        }
        Op::AddPoint(x, y, l) => sim.world_mut().add_point(*x, *y, *l).map(drop).map_err(e),
        Op::RemovePoint(i) => sim.world_mut().remove_point(idx(*i)).map_err(e),
        Op::Connect(a, b) => sim.world_mut().connect(idx(*a), idx(*b)).map(drop).map_err(e),
        Op::Disconnect(a, b) => sim.world_mut().disconnect(idx(*a), idx(*b)).map(drop).map_err(e),
        Op::Subdivide(k, c) => sim.subdivide_checked(*k, *c).map(drop).map_err(e),
        Op::Cut(a, b, c, d) => sim.world_mut().cut(*a, *b, *c, *d).map(drop).map_err(e),
        Op::AddObstacle(j) => sim.add_obstacle_json(j).map(drop).map_err(e),
        Op::ClearObstacles => {
            sim.world_mut().obstacles.clear();
            Ok(())
        }
        Op::Pin(i, x, y, c) => sim.pin_checked(idx(*i), *x, *y, *c).map_err(e),
        Op::Unpin(i) => sim.world_mut().unpin(idx(*i)).map(drop).map_err(e),
        Op::RopePoints(i) => sim.rope_points_checked(idx(*i)).map(drop).map_err(e),
        Op::RopeId(i) => sim.rope_id_checked(idx(*i)).map(drop).map_err(e),
        Op::RopeIndex(i) => {
            let _ = sim.rope_index_of(*i);
            Ok(())
        }
        Op::SetWander(on) => sim.set_wander_checked(*on).map_err(e),
        Op::SetWanderParams(a, d) => sim.set_wander_params_checked(*a, *d).map_err(e),
        Op::RopeReports(swivel) => {
            let w = sim.world();
            for s in [
                sim.capstan_report_json(),
                ropelab::report::leash_json(w),
                ropelab::report::tangles_json(w),
                ropelab::report::braid_json(w, *swivel),
                ropelab::report::braid_crossings_json(w),
                ropelab::report::top_crossings_json(w),
                ropelab::report::contacts_json(w),
                sim.obstacles_json(),
            ] {
                serde_json::from_str::<serde_json::Value>(&s).map_err(|e| format!("BAD JSON {e}: {s}"))?;
            }
            let _ = w.ropes.rope_of_links(w.links.len());
            Ok(())
        }
        Op::DrainEvents => {
            let s = ropelab::report::drain_events(sim.world_mut());
            serde_json::from_str::<serde_json::Value>(&s).map_err(|e| format!("BAD JSON {e}: {s}"))?;
            Ok(())
        }
        Op::LoadScene(text) => sim.load_scene_json(text).map_err(e),
        Op::LoadPreset(k) => sim.load_scene_json(&presets[*k % presets.len()].1).map_err(e),
        Op::ExportReload => {
            let text = sim.export_scene_json();
            // An export taken right after a step continues as the world it was taken from,
            // bit for bit (`scene::state`), unless a pointer holds something (a hold is not
            // part of the scene). After an edit and before the next step, the impulse
            // solver's re-laid rows start cold in the copy: hence the step first. A leash an
            // edit broke is exported as ropes and points, without its dogs' legs and walk
            // (`Scene::from_world`): not compared either (docs/export.md).
            let w = sim.world();
            let broken_leash = w.leash.as_ref().is_some_and(|l| !l.valid || l.hand == u32::MAX);
            if w.holds.is_empty() && !w.joints.transient.iter().any(|&t| t) && !broken_leash {
                let mut a = w.clone();
                if a.step(1.0 / 60.0).is_ok() {
                    let mut b = ropelab::determinism::reload(&a);
                    let same = (0..3).all(|_| a.step(1.0 / 60.0).is_ok() & b.step(1.0 / 60.0).is_ok());
                    if same && ropelab::determinism::hash(&a) != ropelab::determinism::hash(&b) {
                        return Err("EXPORT DOES NOT CONTINUE: 3 steps of the reloaded export differ".into());
                    }
                }
            }
            sim.load_scene_json(&text).map_err(|err| format!("EXPORT DOES NOT RELOAD: {err}"))
        }
        Op::Set(k, v) => sim.set(k, v.clone()).map_err(e),
        Op::SetSettingsJson(j) => sim.set_settings_json(j).map_err(e),
        Op::SetIterations(x) => sim.set_iterations_checked(*x).map_err(e),
        Op::SetSubsteps(x) => sim.set_substeps_checked(*x).map_err(e),
        Op::SetGive(x) => sim.set_give_checked(*x).map_err(e),
        Op::SetGravity(x, y, z) => sim.set_gravity_checked(*x, *y, *z).map_err(e),
        Op::SetFriction(x) => sim.set_friction_checked(*x).map_err(e),
        Op::SetWalls(a, b, c, d) => sim.set_walls_checked(*a, *b, *c, *d).map_err(e),
        Op::ClearWalls => sim.set("walls", SettingValue::Absent).map_err(e),
        Op::SetSolver(s) => sim.set_solver_checked(s).map_err(e),
        Op::SetMassWeighted(on) => sim.set_mass_weighted_checked(*on).map_err(e),
        Op::SetTethers(on) => sim.set("tethers", SettingValue::Bool(*on)).map_err(e),
        Op::SetBending(on) => sim.set("bending", SettingValue::Bool(*on)).map_err(e),
        Op::SetRopeCollisions(on) => sim.set_rope_collisions_checked(*on).map_err(e),
        Op::SetDamping(x) => sim.set_damping_checked(*x).map_err(e),
        Op::SetOmega(x) => sim.set_omega_checked(*x).map_err(e),
        Op::SetBendingCompliance(x) => sim.set_bending_compliance_checked(*x).map_err(e),
        Op::SetWallFriction(x) => sim.set_wall_friction_checked(*x).map_err(e),
        Op::SetRestitution(x) => sim.set_restitution_checked(*x).map_err(e),
        Op::SetDragCompliance(x) => sim.set_drag_compliance_checked(*x).map_err(e),
        Op::SetRopeFriction(a, b) => sim.set_rope_friction_checked(*a, *b).map_err(e),
        Op::SetTangleCap(c) => sim.set_tangle_cap_checked(*c).map_err(e),
        Op::SettingsReadouts => {
            for s in
                [sim.settings_json(), Sim::settings_schema_json(), Sim::solver_info_json(), sim.solver_support_json()]
            {
                serde_json::from_str::<serde_json::Value>(&s).map_err(|e| format!("BAD JSON {e}: {s}"))?;
            }
            Ok(())
        }
        Op::AddBody(j) => sim.add_body_json(j).map(drop).map_err(e),
        Op::AddJoint(j) => sim.add_joint_json(j).map(drop).map_err(e),
        Op::RemoveBody(i) => sim.remove_body_checked(*i).map_err(e),
        Op::RemoveJoint(i) => sim.remove_joint_checked(*i).map_err(e),
        Op::Attach(p, b) => sim.attach_checked(*p, *b).map_err(e),
        Op::AttachJson(j) => sim.attach_json(j).map_err(e),
        Op::Detach(p) => sim.detach_checked(*p).map_err(e),
        Op::SetWinchSpeed(i, s) => sim.set_winch_speed_checked(*i, *s).map_err(e),
        Op::RefillBodyPoses(a) => sim.refill_body_poses(*a).map_err(e),
        Op::PickBody(x, y, m) => sim.pick_body_checked(*x, *y, *m).map(drop).map_err(e),
        Op::GrabBody(p, i, x, y) => sim.grab_body_checked(*p, *i, *x, *y).map_err(e),
        Op::DragBody(p, x, y) => sim.drag_body_checked(*p, *x, *y).map_err(e),
        Op::ReleaseBody(p) => sim.release_body_checked(*p).map(drop).map_err(e),
        Op::DrainContactEvents => {
            let s = sim.drain_contact_events_json();
            serde_json::from_str::<serde_json::Value>(&s).map_err(|e| format!("BAD JSON {e}: {s}"))?;
            Ok(())
        }
        Op::ClearContactEvents => {
            sim.world_mut().contact_log.clear();
            Ok(())
        }
        Op::BodyReadouts => {
            for s in [sim.bodies_json_string(), sim.joints_json_string(), sim.winches_json_string()] {
                serde_json::from_str::<serde_json::Value>(&s).map_err(|e| format!("BAD JSON {e}: {s}"))?;
            }
            let _ = sim.body_poses();
            Ok(())
        }
    }
}

/// What a rejected call must leave exactly as it was: the scene, the positions bit for bit,
/// the holds, the time.
pub fn snapshot(sim: &Sim) -> (String, Vec<u32>, String) {
    let w = sim.world();
    let bits = w.particles.pos.iter().flat_map(|p| p.to_array()).map(f32::to_bits).collect();
    (sim.export_scene_json(), bits, format!("{:?}|{}|{}", w.holds, w.time, w.steps))
}

/// Non-finite state after a valid call, if any.
pub fn non_finite(sim: &Sim) -> Option<String> {
    let w = sim.world();
    let p = &w.particles;
    for i in 0..p.len() {
        if !p.pos[i].is_finite() || !p.vel[i].is_finite() || !p.prev[i].is_finite() {
            return Some(format!("point {i}: pos {} vel {} prev {}", p.pos[i], p.vel[i], p.prev[i]));
        }
    }
    let b = &w.bodies;
    for i in 0..b.len() {
        if !b.pos[i].is_finite() || !b.rot[i].is_finite() || !b.vel[i].is_finite() || !b.ang_vel[i].is_finite() {
            return Some(format!("body {i}: pos {} rot {} vel {} ω {}", b.pos[i], b.rot[i], b.vel[i], b.ang_vel[i]));
        }
    }
    if w.non_finite_resets > 0 {
        return Some(format!("a step left {} points or bodies NaN (reset by keep_in_bounds)", w.non_finite_resets));
    }
    let e = w.energy();
    if !e.is_finite() {
        return Some(format!("energy {e}"));
    }
    None
}

/// A failure: the call that broke and how.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    Panic(String),
    ErrorChangedWorld(String),
    NonFinite(String),
    Slow(String),
    Other(String),
}

impl Failure {
    /// The failure's kind and its message's first words, to tell distinct failures apart
    /// (and to keep a minimisation on the same one).
    pub fn key(&self) -> String {
        let (k, m) = match self {
            Failure::Panic(m) => ("panic", m),
            Failure::ErrorChangedWorld(m) => ("error changed the world", m),
            Failure::NonFinite(m) => ("non-finite", m),
            Failure::Slow(m) => ("slow", m),
            Failure::Other(m) => ("other", m),
        };
        let words: String =
            m.split(|c: char| c.is_ascii_digit() || c == '\n').next().unwrap_or("").chars().take(60).collect();
        format!("{k}: {words}")
    }
}

/// Longest a single call may take under `FUZZ_TIMING=1` (`make fuzz`): a call that takes longer is a
/// freeze of the page.
pub const SLOW_CALL_MS: f64 = 1000.0;

/// Runs `ops` on a fresh sim loaded with `start` (a preset index, or none); returns the
/// index of the call that failed and how, and the number of calls made.
pub fn run(
    start: Option<usize>,
    ops: &[Op],
    presets: &[(String, String)],
    check_time: bool,
) -> (Option<(usize, Failure)>, usize) {
    let mut sim = Sim::new();
    if let Some(k) = start {
        sim.load_scene_json(&presets[k].1).expect("presets load");
    }
    for (i, op) in ops.iter().enumerate() {
        let before = snapshot(&sim);
        let t0 = std::time::Instant::now();
        let result = catch_unwind(AssertUnwindSafe(|| apply(&mut sim, op, presets)));
        let ms = t0.elapsed().as_secs_f64() * 1e3;
        let fail = match result {
            Err(payload) => {
                let msg = payload
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                return (Some((i, Failure::Panic(msg))), i + 1);
            }
            Ok(Err(msg)) if msg.starts_with("BAD JSON") || msg.starts_with("EXPORT") => Some(Failure::Other(msg)),
            Ok(Err(msg)) => {
                if msg.trim().is_empty() {
                    Some(Failure::Other("an error without a message".into()))
                } else if snapshot(&sim) != before {
                    Some(Failure::ErrorChangedWorld(msg))
                } else {
                    None
                }
            }
            Ok(Ok(())) => non_finite(&sim).map(Failure::NonFinite),
        };
        let fail = fail.or_else(|| (check_time && ms > SLOW_CALL_MS).then(|| Failure::Slow(format!("{ms:.0} ms"))));
        if let Some(f) = fail {
            return (Some((i, f)), i + 1);
        }
    }
    (None, ops.len())
}

/// Generates a case from its seed: the start scene and the calls (generated against the sim
/// as it evolves, so indices are mostly valid).
pub fn gen_case(seed: u64, len: usize, presets: &[(String, String)]) -> (Option<usize>, Vec<Op>) {
    let mut r = Rng(ropelab::leash::Rng::new(seed));
    let start = if r.chance(0.9) { Some(r.below(presets.len())) } else { None };
    let mut sim = Sim::new();
    if let Some(k) = start {
        sim.load_scene_json(&presets[k].1).unwrap();
    }
    let mut ops = Vec::with_capacity(len);
    for _ in 0..len {
        let op = gen_op(&mut r, &sim, presets);
        // Keep generating against the evolving world; a panicking op ends the case here.
        let ok = catch_unwind(AssertUnwindSafe(|| apply(&mut sim, &op, presets))).is_ok();
        ops.push(op);
        if !ok {
            break;
        }
    }
    (start, ops)
}

/// Drops calls while the same failure remains: the minimised sequence.
pub fn minimise(
    start: Option<usize>,
    mut ops: Vec<Op>,
    want: &str,
    presets: &[(String, String)],
    check_time: bool,
) -> Vec<Op> {
    let same = |ops: &[Op]| matches!(run(start, ops, presets, check_time).0, Some((_, f)) if f.key() == want);
    // The failing call is last; cut everything after it first.
    if let (Some((i, _)), _) = run(start, &ops, presets, check_time) {
        ops.truncate(i + 1);
    }
    let mut k = 0;
    while k < ops.len() {
        let mut shorter = ops.clone();
        shorter.remove(k);
        if same(&shorter) {
            ops = shorter;
        } else {
            k += 1;
        }
    }
    ops
}

/// Quiet panics while fuzzing (they are caught and reported as failures).
pub fn quiet_panics() {
    std::panic::set_hook(Box::new(|_| {}));
}

// ---- scene files ----------------------------------------------------------------------------

/// A structure-aware mutation of a scene file: dropped fields, wrong types, extreme numbers,
/// huge builder counts, duplicated arrays, deep nesting, garbage.
pub fn mutate_scene(r: &mut Rng, text: &str) -> String {
    let mut v: serde_json::Value = serde_json::from_str(text).expect("presets parse");
    let n = if r.chance(0.6) { 1 } else { 2 + r.below(2) };
    for _ in 0..n {
        mutate_value(r, &mut v, 0);
    }
    match r.below(40) {
        0 => {
            // deep nesting in a field
            let depth = *r.pick(&[10usize, 100, 127, 128, 129, 500, 10_000]);
            let s = v.to_string();
            let nested = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
            return s.replacen("\"version\":1", &format!("\"version\":1,\"name\":{nested}"), 1);
        }
        1 => {
            let s = v.to_string();
            return s[..r.below(s.len())].to_string();
        }
        _ => {}
    }
    v.to_string()
}

fn mutate_value(r: &mut Rng, v: &mut serde_json::Value, depth: usize) {
    use serde_json::Value as V;
    let here = depth > 0 && r.chance(0.25);
    match v {
        V::Object(o) if !o.is_empty() && !here => {
            let keys: Vec<String> = o.keys().cloned().collect();
            let k = r.pick(&keys).clone();
            match r.below(10) {
                0 => {
                    o.remove(&k);
                }
                1 => {
                    o.insert(format!("{k}_typo"), V::Null);
                }
                _ => mutate_value(r, o.get_mut(&k).unwrap(), depth + 1),
            }
        }
        V::Array(a) if !a.is_empty() && !here => match r.below(8) {
            0 => {
                a.pop();
            }
            1 => {
                let x = a[r.below(a.len())].clone();
                for _ in 0..r.below(4) + 1 {
                    a.push(x.clone());
                }
            }
            _ => {
                let k = r.below(a.len());
                mutate_value(r, &mut a[k], depth + 1)
            }
        },
        _ => {
            *v = match r.below(12) {
                0 => V::Null,
                1 => serde_json::json!("text"),
                2 => serde_json::json!(true),
                3 => serde_json::json!([]),
                4 => serde_json::json!({}),
                5 => serde_json::json!(*r.pick(&[1_000_000u64, 100_000, 20_001, 4294967295, 4294967296])),
                6 => serde_json::json!(*r.pick(&[1e38, -1e38, 1e300, -1e300, 1e-45, -0.0])),
                7 => serde_json::json!(-1),
                8 => serde_json::json!(0),
                9 => serde_json::json!(0.5),
                10 => serde_json::json!([1e300, 0, 0]),
                _ => match v {
                    V::Number(n) => serde_json::json!(n.as_f64().unwrap_or(0.0) * *r.pick(&[10.0, 1000.0, -1.0, 1e6])),
                    _ => serde_json::json!(r.below(1000)),
                },
            };
        }
    }
}
