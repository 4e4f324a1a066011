//! Every setting defined once: its name, unit, range, default and a one-line doc, with how
//! to read and write it. The scene loader validates `settings` with this table, the JS API's
//! setters, `setSettings(patch)` and `settingsSchema()` go through it, and the page builds
//! its sliders from the schema, so a range cannot disagree between them
//! (`tests/settings_table.rs` proves the loader and the API accept and reject the same
//! values).
//!
//! Keys are the scene file's (snake_case); the JS name is the key in camelCase
//! ([`Setting::js_name`]).

use glam::{Vec2, Vec3};

use super::{Settings, SolverKind, View, Walls};
use crate::error::quoted;
use crate::num::{Exp, List, Num};

/// A setting's value as it crosses the API or comes from a scene file.
#[derive(Clone, Debug, PartialEq)]
pub enum SettingValue {
    Num(f64),
    Bool(bool),
    Text(String),
    Vec3([f64; 3]),
    /// `[min_x, min_y, max_x, max_y]` (walls).
    Rect([f64; 4]),
    /// No value: an optional setting turned off.
    Absent,
}

impl SettingValue {
    /// The value as JSON (what `settings()` and `settingsSchema()` show).
    pub fn to_json(&self) -> crate::json_macro::Value {
        use crate::json_macro::json;
        match self {
            SettingValue::Num(x) => number_json(*x),
            SettingValue::Bool(b) => json!(*b),
            SettingValue::Text(s) => json!(s.as_str()),
            SettingValue::Vec3(v) => json!(v.map(number_json)),
            SettingValue::Rect(r) => json!(r.map(number_json)),
            SettingValue::Absent => crate::json_macro::Value::Null,
        }
    }

    /// A JSON value (a patch entry) as a setting value; `null` is [`SettingValue::Absent`].
    pub fn from_json(v: &serde_json::Value) -> Result<SettingValue, String> {
        use serde_json::Value as J;
        let nums = |a: &Vec<J>| a.iter().map(|x| x.as_f64().ok_or("expected numbers")).collect::<Result<Vec<f64>, _>>();
        Ok(match v {
            J::Null => SettingValue::Absent,
            J::Bool(b) => SettingValue::Bool(*b),
            J::Number(n) => SettingValue::Num(n.as_f64().unwrap_or(f64::NAN)),
            J::String(s) => SettingValue::Text(s.clone()),
            J::Array(a) if a.len() == 3 => {
                let n = nums(a)?;
                SettingValue::Vec3([n[0], n[1], n[2]])
            }
            J::Array(a) if a.len() == 4 => {
                let n = nums(a)?;
                SettingValue::Rect([n[0], n[1], n[2], n[3]])
            }
            J::Object(o) if o.contains_key("min") && o.contains_key("max") => {
                let pair = |k: &str| -> Result<[f64; 2], String> {
                    let a = o[k].as_array().filter(|a| a.len() == 2).ok_or(format!("{k}: expected [x, y]"))?;
                    let n = nums(a)?;
                    Ok([n[0], n[1]])
                };
                let (lo, hi) = (pair("min")?, pair("max")?);
                SettingValue::Rect([lo[0], lo[1], hi[0], hi[1]])
            }
            _ => return Err(format!("unexpected value {v}")),
        })
    }

    fn describe(&self) -> String {
        match self {
            SettingValue::Num(x) => Num(*x).to_string(),
            SettingValue::Bool(b) => format!("{b}"),
            SettingValue::Text(s) => quoted(s),
            SettingValue::Vec3(v) => List(v).to_string(),
            SettingValue::Rect(r) => List(r).to_string(),
            SettingValue::Absent => "nothing".into(),
        }
    }
}

/// A number as JSON: whole numbers as integers (`8`, not `8.0`: what a scene file's
/// integer fields accept), numbers held as `f32` by their shortest `f32` form (`0.999`, not
/// `0.9990000128746033`).
fn number_json(x: f64) -> crate::json_macro::Value {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        return crate::json_macro::json!(x as i64);
    }
    let f = x as f32;
    if f as f64 == x && f.is_finite() {
        return crate::json_macro::json!(crate::num::f32_as_short_f64(f));
    }
    crate::json_macro::json!(x)
}

/// What values a setting takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// A whole number in `min..=max`.
    Int {
        min: u32,
        max: u32,
    },
    /// A finite number between `min` and `max` (each bound open or closed).
    Real {
        min: f64,
        max: f64,
        min_open: bool,
        max_open: bool,
    },
    /// As `Real`, or absent (`null`): the setting is off.
    OptReal {
        min: f64,
        max: f64,
    },
    Bool,
    /// One of these names.
    Choice(&'static [&'static str]),
    /// A vector with finite components of magnitude ≤ `max_abs`.
    Vec3 {
        max_abs: f64,
    },
    /// A box `[min_x, min_y, max_x, max_y]`, finite, min below max, or absent (no walls).
    Walls,
}

/// A slider's practical range on the page (narrower than what the setting accepts).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slider {
    pub min: f64,
    pub max: f64,
    pub step: f64,
}

/// One setting.
#[derive(Clone, Copy)]
pub struct Setting {
    /// Scene-file key (snake_case).
    pub key: &'static str,
    /// Short label for controls.
    pub label: &'static str,
    /// SI unit ("" when dimensionless).
    pub unit: &'static str,
    /// One line on what it does.
    pub doc: &'static str,
    pub kind: Kind,
    /// The page's slider for it, if it has one.
    pub slider: Option<Slider>,
    get: fn(&Settings) -> SettingValue,
    /// Writes an already checked value.
    put: fn(&mut Settings, &SettingValue),
}

impl std::fmt::Debug for Setting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Setting").field("key", &self.key).field("kind", &self.kind).finish()
    }
}

// The names of `SolverKind::name` and `View::name` (a const table cannot call them; a test
// keeps them equal).
const SOLVER_NAMES: &[&str] = &["classic", "pbd", "jacobi", "xpbd", "exact", "impulse"];
const VIEW_NAMES: &[&str] = &["side", "top"];

fn num(v: &SettingValue) -> f64 {
    match v {
        SettingValue::Num(x) => *x,
        _ => f64::NAN,
    }
}
fn flag(v: &SettingValue) -> bool {
    matches!(v, SettingValue::Bool(true))
}
fn opt(v: &SettingValue) -> Option<f32> {
    match v {
        SettingValue::Num(x) => Some(*x as f32),
        _ => None,
    }
}
fn n32(x: f32) -> SettingValue {
    SettingValue::Num(x as f64)
}
fn o32(x: Option<f32>) -> SettingValue {
    x.map_or(SettingValue::Absent, n32)
}

/// A setting's label and doc text: only the full build's `settingsSchema()` shows them, so
/// the lite build's table holds empty strings (its wasm then carries none of the ~4 KB of
/// text; evaluated at compile time).
const fn full_only(text: &'static str) -> &'static str {
    if crate::FULL {
        text
    } else {
        ""
    }
}

const fn real(min: f64, max: f64) -> Kind {
    Kind::Real { min, max, min_open: false, max_open: false }
}
const fn slider(min: f64, max: f64, step: f64) -> Option<Slider> {
    Some(Slider { min, max, step })
}

/// Every setting, in the order the docs and the schema list them.
pub const SETTINGS: &[Setting] = &[
    Setting {
        key: "solver",
        label: full_only("solver"),
        unit: "",
        doc: full_only("Which solver advances the world (it must be able to run the scene)."),
        kind: Kind::Choice(SOLVER_NAMES),
        slider: None,
        get: |s| SettingValue::Text(s.solver.name().into()),
        put: |s, v| {
            if let SettingValue::Text(t) = v {
                s.solver = SolverKind::from_name(t).unwrap_or(s.solver);
            }
        },
    },
    Setting {
        key: "iterations",
        label: full_only("iterations"),
        unit: "",
        doc: full_only("Constraint passes per (sub)step (the seed's ITERATION_COUNT; Newton passes for exact)."),
        kind: Kind::Int { min: 1, max: 1000 },
        slider: slider(1.0, 40.0, 1.0),
        get: |s| SettingValue::Num(s.iterations as f64),
        put: |s, v| s.iterations = num(v) as u32,
    },
    Setting {
        key: "substeps",
        label: full_only("substeps"),
        unit: "",
        doc: full_only("Substeps per step (classic: each one whole step of the post's, which is 1 substep per frame)."),
        kind: Kind::Int { min: 1, max: 1000 },
        slider: slider(1.0, 64.0, 1.0),
        get: |s| SettingValue::Num(s.substeps as f64),
        put: |s, v| s.substeps = num(v) as u32,
    },
    Setting {
        key: "gravity",
        label: full_only("gravity"),
        unit: "m/s²",
        doc: full_only("Gravity vector (y up; the slider sets its downward part, 9.81 on Earth)."),
        kind: Kind::Vec3 { max_abs: 1000.0 },
        slider: slider(0.0, 30.0, 0.01),
        get: |s| SettingValue::Vec3(s.gravity.to_array().map(|x| x as f64)),
        put: |s, v| {
            if let SettingValue::Vec3(g) = v {
                s.gravity = Vec3::new(g[0] as f32, g[1] as f32, g[2] as f32);
            }
        },
    },
    Setting {
        key: "give",
        label: full_only("give"),
        unit: "",
        doc: full_only("How stretchy every link is: 0 = steel bar (the seed's GIVE); setting it sets every link's."),
        kind: Kind::Real { min: 0.0, max: 1.0, min_open: false, max_open: true },
        slider: slider(0.0, 0.95, 0.01),
        get: |s| n32(s.give),
        put: |s, v| s.give = num(v) as f32,
    },
    Setting {
        key: "friction",
        label: full_only("friction · velocity kept"),
        unit: "",
        doc: full_only("The post's air friction (classic solver): the fraction of velocity kept each step; 1 = none."),
        kind: real(0.0, 1.0),
        slider: slider(0.9, 1.0, 0.001),
        get: |s| n32(s.friction),
        put: |s, v| s.friction = num(v) as f32,
    },
    Setting {
        key: "damping",
        label: full_only("damping"),
        unit: "1/s",
        doc: full_only("Velocity damping rate of the other solvers: the velocity decays as e^(−rate·t)."),
        kind: real(0.0, 1000.0),
        slider: slider(0.0, 2.0, 0.01),
        get: |s| n32(s.damping),
        put: |s, v| s.damping = num(v) as f32,
    },
    Setting {
        key: "mass_weighted",
        label: full_only("mass-weighted"),
        unit: "",
        doc: full_only("Classic solver: project links by inverse mass instead of the seed's centre split."),
        kind: Kind::Bool,
        slider: None,
        get: |s| SettingValue::Bool(s.mass_weighted),
        put: |s, v| s.mass_weighted = flag(v),
    },
    Setting {
        key: "walls",
        label: full_only("walls"),
        unit: "m",
        doc: full_only("A box the particles bounce inside, [min x, min y, max x, max y]; null = none."),
        kind: Kind::Walls,
        slider: None,
        get: |s| {
            s.walls.map_or(SettingValue::Absent, |w| {
                SettingValue::Rect([w.min.x as f64, w.min.y as f64, w.max.x as f64, w.max.y as f64])
            })
        },
        put: |s, v| {
            s.walls = match v {
                SettingValue::Rect(r) => {
                    Some(Walls { min: Vec2::new(r[0] as f32, r[1] as f32), max: Vec2::new(r[2] as f32, r[3] as f32) })
                }
                _ => None,
            }
        },
    },
    Setting {
        key: "restitution",
        label: full_only("restitution"),
        unit: "",
        doc: full_only("Fraction of normal speed kept when bouncing off a wall (the post mirrors it fully: 1)."),
        kind: real(0.0, 1.0),
        slider: None,
        get: |s| n32(s.restitution),
        put: |s, v| s.restitution = num(v) as f32,
    },
    Setting {
        key: "bounce_friction",
        label: full_only("bounce friction"),
        unit: "",
        doc: full_only("Classic solver: fraction of the whole velocity a point keeps when it touches a wall (the post's: 0.5)."),
        kind: real(0.0, 1.0),
        slider: None,
        get: |s| n32(s.bounce_friction),
        put: |s, v| s.bounce_friction = num(v) as f32,
    },
    Setting {
        key: "wall_friction",
        label: full_only("wall friction"),
        unit: "",
        doc: full_only("Coulomb friction coefficient of walls and obstacles (PBD-family solvers)."),
        kind: real(0.0, 100.0),
        slider: None,
        get: |s| n32(s.wall_friction),
        put: |s, v| s.wall_friction = num(v) as f32,
    },
    Setting {
        key: "view",
        label: full_only("view"),
        unit: "",
        doc: full_only("The plane the page draws and edits: side (x–y, y up) or top (x–z)."),
        kind: Kind::Choice(VIEW_NAMES),
        slider: None,
        get: |s| SettingValue::Text(s.view.name().into()),
        put: |s, v| {
            if let SettingValue::Text(t) = v {
                s.view = View::from_name(t).unwrap_or(s.view);
            }
        },
    },
    Setting {
        key: "omega",
        label: full_only("ω"),
        unit: "",
        doc: full_only("Jacobi solver: over-relaxation of the averaged corrections (1 = plain averaging)."),
        kind: Kind::Real { min: 0.0, max: 2.0, min_open: true, max_open: true },
        slider: None,
        get: |s| n32(s.omega),
        put: |s, v| s.omega = num(v) as f32,
    },
    Setting {
        key: "tethers",
        label: full_only("tethers"),
        unit: "",
        doc: full_only("Iterative solvers: no particle farther from its nearest anchor than the links between them allow."),
        kind: Kind::Bool,
        slider: None,
        get: |s| SettingValue::Bool(s.tethers),
        put: |s, v| s.tethers = flag(v),
    },
    Setting {
        key: "warm_starting",
        label: full_only("warm starting"),
        unit: "",
        doc: full_only("Impulse rows (the impulse solver; bodies' joints under every solver) start each step from the last step's impulses."),
        kind: Kind::Bool,
        slider: None,
        get: |s| SettingValue::Bool(s.warm_starting),
        put: |s, v| s.warm_starting = flag(v),
    },
    Setting {
        key: "contact_hertz",
        label: full_only("contact stiffness"),
        unit: "Hz",
        doc: full_only("Body–body contacts' spring (twice it against static bodies; at most a quarter of the substep rate)."),
        // (Closed at 0.01 Hz: a spring of ~1e-45 Hz has h·ω = 0, and with ζ = 0 its bias
        // rate ω / (2ζ + hω) is infinite, NaN on a touching point.)
        kind: real(0.01, 1.0e4),
        slider: None,
        get: |s| n32(s.contact_hertz),
        put: |s, v| s.contact_hertz = num(v) as f32,
    },
    Setting {
        key: "contact_damping_ratio",
        label: full_only("contact damping"),
        unit: "",
        doc: full_only("Body–body contacts' damping ratio."),
        kind: real(0.0, 1.0e3),
        slider: None,
        get: |s| n32(s.contact_damping_ratio),
        put: |s, v| s.contact_damping_ratio = num(v) as f32,
    },
    Setting {
        key: "bending",
        label: full_only("bending"),
        unit: "",
        doc: full_only("PBD-family solvers: XPBD bending along ropes with compliance bending_compliance."),
        kind: Kind::Bool,
        slider: None,
        get: |s| SettingValue::Bool(s.bending),
        put: |s, v| s.bending = flag(v),
    },
    Setting {
        key: "bending_compliance",
        label: full_only("bending compliance"),
        unit: "rad/(N·m)",
        doc: full_only("Inverse angular stiffness of one rope joint (0 = rigid)."),
        kind: real(0.0, 1.0e6),
        slider: None,
        get: |s| n32(s.bending_compliance),
        put: |s, v| s.bending_compliance = num(v) as f32,
    },
    Setting {
        key: "drag_compliance",
        label: full_only("drag compliance"),
        unit: "m/N",
        doc: full_only("Mouse constraint: 0 = the held point follows the pointer exactly; > 0 = a soft pin pulls it."),
        kind: real(0.0, 1.0e6),
        slider: None,
        get: |s| n32(s.drag_compliance),
        put: |s, v| s.drag_compliance = num(v) as f32,
    },
    Setting {
        key: "rope_collisions",
        label: full_only("rope collisions"),
        unit: "",
        doc: full_only("PBD-family solvers: rope–rope contacts (capsules, Coulomb friction, never tunnelling)."),
        kind: Kind::Bool,
        slider: None,
        get: |s| SettingValue::Bool(s.rope_collisions),
        put: |s, v| s.rope_collisions = flag(v),
    },
    Setting {
        key: "rope_friction",
        label: full_only("rope friction μs"),
        unit: "",
        doc: full_only("Rope–rope static friction (also the μ of the tangles' capstan lock test)."),
        kind: real(0.0, 100.0),
        slider: None,
        get: |s| n32(s.rope_friction),
        put: |s, v| s.rope_friction = num(v) as f32,
    },
    Setting {
        key: "rope_dynamic_friction",
        label: full_only("rope friction μk"),
        unit: "",
        doc: full_only("Rope–rope dynamic friction; null = the static one."),
        kind: Kind::OptReal { min: 0.0, max: 100.0 },
        slider: None,
        get: |s| o32(s.rope_dynamic_friction),
        put: |s, v| s.rope_dynamic_friction = opt(v),
    },
    Setting {
        key: "tangle_cap",
        label: full_only("tangle cap"),
        unit: "",
        doc: full_only("Optional cap on the tangles' holding ratio e^{μΘ} (the 000 seed's gameplay clamp of 3); null = physics."),
        kind: Kind::OptReal { min: 1.0, max: 1.0e6 },
        slider: None,
        get: |s| o32(s.tangle_cap),
        put: |s, v| s.tangle_cap = opt(v),
    },
];

/// The setting with scene key `key` or JS name `key`.
pub fn find(key: &str) -> Option<&'static Setting> {
    SETTINGS.iter().find(|s| s.key == key || s.js_name() == key)
}

fn fmt_bound(x: f64) -> String {
    if x.abs() >= 1e4 {
        Exp(x).to_string()
    } else {
        Num(x).to_string()
    }
}

impl Setting {
    /// The name in JS (`setSettings`, `settings()`): the key in camelCase.
    pub fn js_name(&self) -> String {
        let mut out = String::with_capacity(self.key.len());
        let mut up = false;
        for c in self.key.chars() {
            if c == '_' {
                up = true;
            } else if up {
                // The keys are ASCII snake_case; `char::to_uppercase` would link std's Unicode
                // case tables (~10 KB of wasm) for nothing.
                out.push(c.to_ascii_uppercase());
                up = false;
            } else {
                out.push(c);
            }
        }
        out
    }

    /// The accepted values in words, e.g. `0 ≤ damping ≤ 1000 1/s`.
    pub fn range_text(&self) -> String {
        let unit = if self.unit.is_empty() { String::new() } else { format!(" {}", self.unit) };
        match self.kind {
            Kind::Int { min, max } => format!("a whole number in {min}..={max}"),
            Kind::Real { min, max, min_open, max_open } => format!(
                "{} {} {} {} {}{unit}",
                fmt_bound(min),
                if min_open { "<" } else { "≤" },
                self.key,
                if max_open { "<" } else { "≤" },
                fmt_bound(max)
            ),
            Kind::OptReal { min, max } => {
                format!("{} ≤ {} ≤ {}{unit}, or null for none", fmt_bound(min), self.key, fmt_bound(max))
            }
            Kind::Bool => "true or false".into(),
            Kind::Choice(names) => format!("one of {}", names.join(", ")),
            Kind::Vec3 { max_abs } => format!("[x, y, z], each finite with |·| ≤ {}{unit}", fmt_bound(max_abs)),
            Kind::Walls => format!(
                "[min x, min y, max x, max y], each within ±{}{unit}, min below max; or null for none",
                fmt_bound(crate::limits::MAX_COORD as f64)
            ),
        }
    }

    /// Checks `v` against the setting's kind and range; the error is a reason in words.
    pub fn check(&self, v: &SettingValue) -> Result<(), String> {
        if let SettingValue::Num(x) = v {
            if !x.is_finite() {
                return Err(format!("{} is not a finite number", Num(*x)));
            }
        }
        if let SettingValue::Vec3(g) = v {
            if !g.iter().all(|x| x.is_finite()) {
                return Err(format!("{} is not finite", v.describe()));
            }
        }
        let bad = || Err(format!("{} is out of range (expected {})", v.describe(), self.range_text()));
        // In range as given and once stored as f32 (e.g. give just below 1 must not round to 1).
        let in_real = |x: f64, min: f64, max: f64, min_open: bool, max_open: bool| {
            let within =
                |y: f64| (if min_open { y > min } else { y >= min }) && (if max_open { y < max } else { y <= max });
            x.is_finite() && within(x) && within(x as f32 as f64)
        };
        match (self.kind, v) {
            (Kind::Int { min, max }, SettingValue::Num(x)) => {
                if x.is_finite() && x.fract() == 0.0 && *x >= min as f64 && *x <= max as f64 {
                    Ok(())
                } else {
                    bad()
                }
            }
            (Kind::Real { min, max, min_open, max_open }, SettingValue::Num(x)) => {
                if in_real(*x, min, max, min_open, max_open) {
                    Ok(())
                } else {
                    bad()
                }
            }
            (Kind::OptReal { .. }, SettingValue::Absent) => Ok(()),
            (Kind::OptReal { min, max }, SettingValue::Num(x)) => {
                if in_real(*x, min, max, false, false) {
                    Ok(())
                } else {
                    bad()
                }
            }
            (Kind::Bool, SettingValue::Bool(_)) => Ok(()),
            (Kind::Choice(names), SettingValue::Text(t)) => {
                if names.contains(&t.as_str()) {
                    Ok(())
                } else {
                    Err(format!("unknown {} {} (known: {})", self.key, quoted(t), names.join(", ")))
                }
            }
            (Kind::Vec3 { max_abs }, SettingValue::Vec3(g)) => {
                if g.iter().all(|x| x.is_finite() && x.abs() <= max_abs) {
                    Ok(())
                } else {
                    bad()
                }
            }
            (Kind::Walls, SettingValue::Absent) => Ok(()),
            (Kind::Walls, SettingValue::Rect(r)) => {
                let f = r.map(|x| x as f32);
                // Within the world's bounds (`limits::MAX_COORD`), as every point and body: a
                // floor at y = 9e15 threw the drum's points up where f32 steps are 1e9 m apart,
                // and a grab's velocities there overflowed to NaN (the API fuzzer).
                let m = crate::limits::MAX_COORD;
                if f.iter().all(|x| x.is_finite() && x.abs() <= m) && f[0] < f[2] && f[1] < f[3] {
                    Ok(())
                } else {
                    Err(format!("{} is not a box (expected {})", v.describe(), self.range_text()))
                }
            }
            _ => Err(format!("expected {}, got {}", self.range_text(), v.describe())),
        }
    }

    /// The current value in `s`.
    pub fn get(&self, s: &Settings) -> SettingValue {
        (self.get)(s)
    }

    /// Checks `v` and writes it into `s` (nothing changes on error).
    pub fn set(&self, s: &mut Settings, v: &SettingValue) -> Result<(), String> {
        self.check(v)?;
        (self.put)(s, v);
        Ok(())
    }

    /// The default value.
    pub fn default_value(&self) -> SettingValue {
        (self.get)(&Settings::default())
    }

    /// The schema entry as JSON: `{key, js, label, unit, doc, kind, range, default, …}`.
    pub fn schema_json(&self) -> crate::json_macro::Value {
        use crate::json_macro::json;
        let mut o = json!({
            "key": self.key,
            "js": self.js_name(),
            "label": self.label,
            "unit": self.unit,
            "doc": self.doc,
            "range": self.range_text(),
            "default": self.default_value().to_json(),
        });
        let m = o.as_object_mut().expect("an object");
        match self.kind {
            Kind::Int { min, max } => {
                m.insert("kind".into(), json!("int"));
                m.insert("min".into(), json!(min));
                m.insert("max".into(), json!(max));
            }
            Kind::Real { min, max, min_open, max_open } => {
                m.insert("kind".into(), json!("real"));
                m.insert("min".into(), json!(min));
                m.insert("max".into(), json!(max));
                m.insert("minOpen".into(), json!(min_open));
                m.insert("maxOpen".into(), json!(max_open));
            }
            Kind::OptReal { min, max } => {
                m.insert("kind".into(), json!("optional real"));
                m.insert("min".into(), json!(min));
                m.insert("max".into(), json!(max));
            }
            Kind::Bool => {
                m.insert("kind".into(), json!("bool"));
            }
            Kind::Choice(names) => {
                m.insert("kind".into(), json!("choice"));
                m.insert("choices".into(), json!(names));
            }
            Kind::Vec3 { max_abs } => {
                m.insert("kind".into(), json!("vec3"));
                m.insert("maxAbs".into(), json!(max_abs));
            }
            Kind::Walls => {
                m.insert("kind".into(), json!("walls"));
            }
        }
        if let Some(sl) = self.slider {
            m.insert("slider".into(), json!({"min": sl.min, "max": sl.max, "step": sl.step}));
        }
        o
    }
}

/// Checks every setting of `s` (a scene's): the first failure as `(key, reason)`.
pub fn validate(s: &Settings) -> Result<(), (&'static str, String)> {
    for t in SETTINGS {
        t.check(&t.get(s)).map_err(|r| (t.key, r))?;
    }
    Ok(())
}

/// Every setting's current value as a JSON object keyed by JS name.
pub fn values_json(s: &Settings) -> crate::json_macro::Value {
    // Inserted one by one: collecting into the map sorts the pairs first (std's stable sort,
    // a few KB of wasm for this one call); the map orders its keys either way.
    let mut m = crate::json_macro::Map::new();
    for t in SETTINGS {
        m.insert(t.js_name(), t.get(s).to_json());
    }
    crate::json_macro::Value::Object(m)
}

/// The whole table as JSON (`settingsSchema()`).
pub fn schema_json() -> crate::json_macro::Value {
    crate::json_macro::Value::Array(SETTINGS.iter().map(Setting::schema_json).collect())
}

/// The table as Markdown (docs/settings.md holds this text; `ropelab settings` prints it
/// and a test keeps docs/settings.md in step).
pub fn markdown() -> String {
    let mut out =
        String::from("| setting (scene key · JS name) | unit | accepts | default | what |\n|---|---|---|---|---|\n");
    for s in SETTINGS {
        let name =
            if s.js_name() == s.key { format!("`{}`", s.key) } else { format!("`{}` · `{}`", s.key, s.js_name()) };
        let unit = if s.unit.is_empty() { "–" } else { s.unit };
        out.push_str(&format!(
            "| {name} | {unit} | {} | `{}` | {} |\n",
            s.range_text(),
            s.default_value().to_json(),
            s.doc
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_of_settings_is_in_the_table_once_and_defaults_are_valid() {
        let walls = Walls { min: Vec2::ZERO, max: Vec2::ONE };
        let json = serde_json::to_value(Settings { walls: Some(walls), ..Settings::default() }).unwrap();
        let mut fields: Vec<String> = json.as_object().unwrap().keys().cloned().collect();
        fields.extend(["rope_dynamic_friction".to_string(), "tangle_cap".to_string()]);
        fields.sort();
        fields.dedup();
        let mut keys: Vec<String> = SETTINGS.iter().map(|s| s.key.to_string()).collect();
        keys.sort();
        assert_eq!(keys, fields, "the table and the Settings struct must list the same settings");
        assert!(validate(&Settings::default()).is_ok());
        for s in SETTINGS {
            let mut x = Settings::default();
            let v = s.get(&x);
            s.set(&mut x, &v).unwrap();
            assert_eq!(x, Settings::default(), "{}: get then set must round-trip", s.key);
        }
        assert_eq!(find("bendingCompliance").unwrap().key, "bending_compliance");
        assert!(SOLVER_NAMES.iter().all(|n| SolverKind::from_name(n).is_some()));
        assert_eq!(SOLVER_NAMES.len(), SolverKind::ALL.len());
        assert!(VIEW_NAMES.iter().all(|n| View::from_name(n).is_some_and(|v| v.name() == *n)));
    }
}
