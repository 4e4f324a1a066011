//! Recordings: a session's inputs, kept against the step each applied to, on top of the scene
//! it started from, so that the same build replays it bit for bit anywhere (natively, in any
//! browser) — the step is deterministic across targets (tests/determinism.rs).
//!
//! A recording is JSON:
//!
//! ```text
//! { "format": "ropelab-recording", "version": 1, "engine": 1,
//!   "scene": "rope" | { …a scene file… }, "scene_hash": "…", "h": 0.016666668,
//!   "quantum": 0.001953125, "steps": 1800,
//!   "inputs": [[0, "grab", 1, 24], [0, "drag", 1, 512, 1024, [3, -1, …], []], [412, "release", 1]],
//!   "checks": [2826452473, …], "hash": "9f3c…" }
//! ```
//!
//! - `scene`: a preset's name (the page and the runner read `scenes/<name>.json`) or the scene
//!   itself. `scene_hash` is FNV-1a of the world's export right after loading it, so a preset
//!   file edited since the recording is caught before anything is replayed.
//! - `inputs`: `[step, op, args…]`, where `step` is the number of steps run before the input
//!   applied; inputs of one step apply in order. See [`Input`] for the ops.
//! - Drag tracks: a pointer's drag targets are quantised *while recording* (the recorded run
//!   itself moves to the rounded point, so the replay of the recorded track is exact) to
//!   multiples of `quantum` m (a power of two, so `q as f32 * quantum` is exact), and a run of
//!   drags, one per step, is written as its first point and the second differences of the rest
//!   (`[ddx, ddy, …]`: a hand's path has small ones; `drag1`, the first differences, when they
//!   are smaller) with the steps it skipped
//!   (`[entry, skipped, …]`). A drag joins its track only when nothing but other pointers'
//!   drags follows it in its step (those commute with it); other drags stay single `to` ops.
//! - `checks`: a 32-bit digest of the state every [`CHECK_EVERY`] steps and `hash` the 64-bit
//!   [`crate::World::state_hash`] after the last step, so a build that replays differently
//!   says at which check it parted ("diverges at step k") instead of showing something else.
//! - `engine`: [`ENGINE`], raised whenever a change moves any trajectory (tests/recording.rs
//!   ties it to the golden hashes).

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::ser::{SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};
use std::fmt;

use crate::scene::Scene;
use crate::settings::table::SettingValue;

/// The engine's trajectory version: recordings made by another engine number may replay
/// differently (the checks tell).
pub const ENGINE: u32 = 5;
/// `format` of a recording file.
pub const FORMAT: &str = "ropelab-recording";
/// The recording format's version.
pub const VERSION: u32 = 1;
/// Steps between two state checks.
pub const CHECK_EVERY: u32 = 60;
/// The drag-target grid (m): 2⁻⁹ m, about 2 mm, under half a pixel at the page's zoom.
pub const DEFAULT_QUANTUM: f32 = 1.0 / 512.0;
/// Longest recording read (steps): an hour at 60 Hz.
pub const MAX_STEPS: u32 = 216_000;

/// One input, as the `Sim` method of the same name takes it (indices and ids as the world had
/// them at that step; drag coordinates in quanta).
#[derive(Clone, Debug, PartialEq)]
pub enum Input {
    /// `grab(pointer, point)`.
    Grab { pointer: u32, point: u32 },
    /// `dragTo(pointer, x, y)`, in quanta.
    Drag { pointer: u32, q: [i32; 2] },
    /// `release(pointer)`.
    Release { pointer: u32 },
    /// `grabBody(pointer, id, x, y)`, the grip in quanta.
    GrabBody { pointer: u32, body: u32, q: [i32; 2] },
    /// `dragBody(pointer, x, y)`, in quanta.
    DragBody { pointer: u32, q: [i32; 2] },
    /// `releaseBody(pointer)`.
    ReleaseBody { pointer: u32 },
    /// `setLocked(point, locked)` (and `toggleLock`).
    Lock { point: u32, locked: bool },
    /// `cut(x0, y0, x1, y1)`.
    Cut { from: [f32; 2], to: [f32; 2] },
    /// `addPoint(x, y, locked)`.
    AddPoint { at: [f32; 2], locked: bool },
    /// `removePoint(point)`.
    RemovePoint { point: u32 },
    /// `connect(a, b)`.
    Connect { a: u32, b: u32 },
    /// `disconnect(a, b)`.
    Disconnect { a: u32, b: u32 },
    /// `subdivide(link, count)`.
    Subdivide { link: u32, count: u32 },
    /// `pin(point, x, y, compliance)`.
    Pin { point: u32, at: [f32; 2], compliance: f32 },
    /// `unpin(point)`.
    Unpin { point: u32 },
    /// `addObstacle(json)`.
    AddObstacle { json: String },
    /// `clearObstacles()`.
    ClearObstacles,
    /// `addBody(json)`.
    AddBody { json: String },
    /// `removeBody(id)`.
    RemoveBody { body: u32 },
    /// `addJoint(json)`.
    AddJoint { json: String },
    /// `removeJoint(id)`.
    RemoveJoint { joint: u32 },
    /// `attach(point, bodyId)`.
    Attach { point: u32, body: u32 },
    /// `detach(point)`.
    Detach { point: u32 },
    /// `setWinchSpeed(winch, speed)`.
    WinchSpeed { winch: u32, speed: f32 },
    /// `setWander(on)`.
    Wander { on: bool },
    /// `setWanderParams(accel, damping)`.
    WanderParams { accel: f32, damping: f32 },
    /// Settings, all or nothing (`setSettings`, or one setter).
    Settings { patch: Vec<(String, SettingValue)> },
    /// `loadScene(text)`: a whole scene (an undo, a scene opened mid-recording).
    Load { text: String },
    /// The step length from here on (s).
    Dt { h: f32 },
    /// Nothing for the physics: a mark the page shows during a replay (a pause and its length
    /// in ms, a time-scale change).
    Mark { what: String, value: f64 },
}

impl Input {
    /// A drag's pointer and whether it drags a body: drags join tracks, and coalesce within a
    /// step, by this key.
    pub fn track_key(&self) -> Option<(u32, bool)> {
        match *self {
            Input::Drag { pointer, .. } => Some((pointer, false)),
            Input::DragBody { pointer, .. } => Some((pointer, true)),
            _ => None,
        }
    }

    fn drag_q(&self) -> [i32; 2] {
        match *self {
            Input::Drag { q, .. } | Input::DragBody { q, .. } => q,
            _ => [0, 0],
        }
    }
}

/// An input and the number of steps run before it applied.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub step: u32,
    pub input: Input,
}

/// Where a recording's world comes from.
#[derive(Clone, Debug)]
pub enum SceneRef {
    /// A preset, by name (`scenes/<name>.json`).
    Preset(String),
    /// The scene itself, as scene-file text. Kept as text and spliced into the recording's
    /// JSON (not a `Scene` inside the `Recording`): serde would otherwise build the whole
    /// scene reader and writer a second time for the recording's deserializer and compact
    /// writer, tens of KB of wasm.
    Inline(String),
}

/// A whole recording (the file's fields; see the module documentation).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recording {
    pub format: String,
    pub version: u32,
    pub engine: u32,
    /// Written by `to_json` (first), as text.
    #[serde(skip_serializing)]
    pub scene: SceneRef,
    pub scene_hash: Hex,
    pub h: f32,
    pub quantum: f32,
    pub steps: u32,
    #[serde(with = "entries")]
    pub inputs: Vec<Entry>,
    pub checks: Vec<u32>,
    pub hash: Hex,
}

/// A 64-bit hash written as 16 hex digits (JSON numbers lose bits above 2⁵³ in JS).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Hex(pub u64);

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

impl Serialize for Hex {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Hex {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Hex;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("16 hex digits")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Hex, E> {
                if v.len() != 16 {
                    return Err(E::custom("expected 16 hex digits"));
                }
                u64::from_str_radix(v, 16).map(Hex).map_err(|_| E::custom("expected 16 hex digits"))
            }
        }
        d.deserialize_str(V)
    }
}

impl<'de> Deserialize<'de> for SceneRef {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = SceneRef;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a preset's name or a scene object")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<SceneRef, E> {
                if v.is_empty()
                    || v.len() > 64
                    || !v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
                {
                    return Err(E::custom("a preset's name is letters, digits, - and _"));
                }
                Ok(SceneRef::Preset(v.to_string()))
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut m: A) -> Result<SceneRef, A::Error> {
                // Read from the text afterwards (`Recording::from_json`), by the scene reader.
                while m.next_entry::<de::IgnoredAny, de::IgnoredAny>()?.is_some() {}
                Ok(SceneRef::Inline(String::new()))
            }
        }
        d.deserialize_any(V)
    }
}

/// A setting value as a recording writes it: a number, a bool, a string, 3 or 4 numbers, null.
struct SettingOut<'a>(&'a SettingValue);

impl Serialize for SettingOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            SettingValue::Num(x) => s.serialize_f64(*x),
            SettingValue::Bool(b) => s.serialize_bool(*b),
            SettingValue::Text(t) => s.serialize_str(t),
            SettingValue::Vec3(v) => v.serialize(s),
            SettingValue::Rect(v) => v.serialize(s),
            SettingValue::Absent => s.serialize_unit(),
        }
    }
}

struct SettingIn(SettingValue);

impl<'de> Deserialize<'de> for SettingIn {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = SettingIn;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a setting value")
            }
            fn visit_f64<E>(self, v: f64) -> Result<SettingIn, E> {
                Ok(SettingIn(SettingValue::Num(v)))
            }
            fn visit_i64<E>(self, v: i64) -> Result<SettingIn, E> {
                Ok(SettingIn(SettingValue::Num(v as f64)))
            }
            fn visit_u64<E>(self, v: u64) -> Result<SettingIn, E> {
                Ok(SettingIn(SettingValue::Num(v as f64)))
            }
            fn visit_bool<E>(self, v: bool) -> Result<SettingIn, E> {
                Ok(SettingIn(SettingValue::Bool(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<SettingIn, E> {
                Ok(SettingIn(SettingValue::Text(v.to_string())))
            }
            fn visit_unit<E>(self) -> Result<SettingIn, E> {
                Ok(SettingIn(SettingValue::Absent))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<SettingIn, A::Error> {
                let mut v = Vec::new();
                while let Some(x) = a.next_element::<f64>()? {
                    if v.len() == 4 {
                        return Err(de::Error::custom("expected 3 or 4 numbers"));
                    }
                    v.push(x);
                }
                match v[..] {
                    [a, b, c] => Ok(SettingIn(SettingValue::Vec3([a, b, c]))),
                    [a, b, c, d] => Ok(SettingIn(SettingValue::Rect([a, b, c, d]))),
                    _ => Err(de::Error::custom("expected 3 or 4 numbers")),
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// A track: one pointer's drags, one per step, from `step` on (see the module documentation).
struct Track {
    step: u32,
    pointer: u32,
    body: bool,
    first: [i32; 2],
    /// Second differences, two per entry after the first.
    dd: Vec<i32>,
    /// First differences (the same track): shorter when the pointer's events fall unevenly on
    /// the steps (a step without a move, then one with two), where second differences jitter.
    d1: Vec<i32>,
    /// `[entry, skipped steps]` pairs: entry k came `1 + skipped` steps after entry k − 1.
    gaps: Vec<u32>,
    /// Scratch while building: the last entry's point, velocity and step.
    last: [i32; 2],
    vel: [i32; 2],
    last_step: u32,
    entries: u32,
}

/// The inputs as the file writes them: `[step, op, args…]`, drags gathered into tracks.
mod entries {
    use super::*;

    /// Which entries may join a track: drags followed in their step only by other pointers'
    /// drags.
    fn trackable(inputs: &[Entry]) -> Vec<bool> {
        let mut ok = vec![false; inputs.len()];
        for (k, e) in inputs.iter().enumerate() {
            let Some(key) = e.input.track_key() else { continue };
            ok[k] = inputs[k + 1..]
                .iter()
                .take_while(|f| f.step == e.step)
                .all(|f| f.input.track_key().is_some_and(|g| g.0 != key.0 || g.1 != key.1));
        }
        ok
    }

    enum Out<'a> {
        One(&'a Entry),
        Track(Track),
    }

    pub fn serialize<S: Serializer>(inputs: &[Entry], s: S) -> Result<S::Ok, S::Error> {
        let ok = trackable(inputs);
        let mut out: Vec<Out> = Vec::new();
        // Open tracks by (pointer, body): their index in `out`.
        let mut open: Vec<((u32, bool), usize)> = Vec::new();
        for (k, e) in inputs.iter().enumerate() {
            let key = e.input.track_key();
            if let (Some(key), true) = (key, ok[k]) {
                let q = e.input.drag_q();
                if let Some(&(_, at)) = open.iter().find(|(k2, _)| *k2 == key) {
                    if let Out::Track(t) = &mut out[at] {
                        if e.step > t.last_step {
                            let v = [q[0] - t.last[0], q[1] - t.last[1]];
                            t.dd.push(v[0] - t.vel[0]);
                            t.dd.push(v[1] - t.vel[1]);
                            t.d1.extend(v);
                            if e.step > t.last_step + 1 {
                                t.gaps.push(t.entries);
                                t.gaps.push(e.step - t.last_step - 1);
                            }
                            t.vel = v;
                            t.last = q;
                            t.last_step = e.step;
                            t.entries += 1;
                            continue;
                        }
                    }
                }
                open.retain(|(k2, _)| *k2 != key);
                open.push((key, out.len()));
                out.push(Out::Track(Track {
                    step: e.step,
                    pointer: key.0,
                    body: key.1,
                    first: q,
                    dd: Vec::new(),
                    d1: Vec::new(),
                    gaps: Vec::new(),
                    last: q,
                    vel: [0, 0],
                    last_step: e.step,
                    entries: 1,
                }));
                continue;
            }
            // Anything else of a pointer ends its track (a release, a new grab, a single `to`).
            match e.input {
                Input::Grab { pointer, .. }
                | Input::Release { pointer }
                | Input::Drag { pointer, .. }
                | Input::GrabBody { pointer, .. }
                | Input::ReleaseBody { pointer }
                | Input::DragBody { pointer, .. } => open.retain(|(k2, _)| k2.0 != pointer),
                Input::Load { .. } => open.clear(),
                _ => {}
            }
            out.push(Out::One(e));
        }
        let mut seq = s.serialize_seq(Some(out.len()))?;
        for o in &out {
            match o {
                Out::One(e) => seq.serialize_element(&EntryOut(e))?,
                Out::Track(t) => seq.serialize_element(&TrackOut(t))?,
            }
        }
        seq.end()
    }

    struct TrackOut<'a>(&'a Track);

    impl Serialize for TrackOut<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let t = self.0;
            let mut seq = s.serialize_seq(Some(7))?;
            seq.serialize_element(&t.step)?;
            // (`drag`: second differences; `drag1`: first, whichever is smaller)
            let size = |v: &[i32]| v.iter().map(|x| x.unsigned_abs() as u64).sum::<u64>();
            let first = size(&t.d1) < size(&t.dd);
            seq.serialize_element(match (t.body, first) {
                (false, false) => "drag",
                (false, true) => "drag1",
                (true, false) => "dragbody",
                (true, true) => "dragbody1",
            })?;
            seq.serialize_element(&t.pointer)?;
            seq.serialize_element(&t.first[0])?;
            seq.serialize_element(&t.first[1])?;
            seq.serialize_element(if first { &t.d1 } else { &t.dd })?;
            seq.serialize_element(&t.gaps)?;
            seq.end()
        }
    }

    struct EntryOut<'a>(&'a Entry);

    impl Serialize for EntryOut<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut seq = s.serialize_seq(None)?;
            seq.serialize_element(&self.0.step)?;
            macro_rules! put {
                ($op:expr $(, $x:expr)*) => {{
                    seq.serialize_element($op)?;
                    $( seq.serialize_element(&$x)?; )*
                }};
            }
            match &self.0.input {
                Input::Grab { pointer, point } => put!("grab", pointer, point),
                Input::Drag { pointer, q } => put!("to", pointer, q[0], q[1]),
                Input::Release { pointer } => put!("release", pointer),
                Input::GrabBody { pointer, body, q } => put!("grabbody", pointer, body, q[0], q[1]),
                Input::DragBody { pointer, q } => put!("bodyto", pointer, q[0], q[1]),
                Input::ReleaseBody { pointer } => put!("releasebody", pointer),
                Input::Lock { point, locked } => put!("lock", point, locked),
                Input::Cut { from, to } => put!("cut", from[0], from[1], to[0], to[1]),
                Input::AddPoint { at, locked } => put!("add", at[0], at[1], locked),
                Input::RemovePoint { point } => put!("remove", point),
                Input::Connect { a, b } => put!("connect", a, b),
                Input::Disconnect { a, b } => put!("disconnect", a, b),
                Input::Subdivide { link, count } => put!("subdivide", link, count),
                Input::Pin { point, at, compliance } => put!("pin", point, at[0], at[1], compliance),
                Input::Unpin { point } => put!("unpin", point),
                Input::AddObstacle { json } => put!("obstacle", json),
                Input::ClearObstacles => put!("clearobstacles"),
                Input::AddBody { json } => put!("body", json),
                Input::RemoveBody { body } => put!("removebody", body),
                Input::AddJoint { json } => put!("joint", json),
                Input::RemoveJoint { joint } => put!("removejoint", joint),
                Input::Attach { point, body } => put!("attach", point, body),
                Input::Detach { point } => put!("detach", point),
                Input::WinchSpeed { winch, speed } => put!("winch", winch, speed),
                Input::Wander { on } => put!("wander", on),
                Input::WanderParams { accel, damping } => put!("wanderparams", accel, damping),
                Input::Settings { patch } => {
                    seq.serialize_element("set")?;
                    for (k, v) in patch {
                        seq.serialize_element(k)?;
                        seq.serialize_element(&SettingOut(v))?;
                    }
                }
                Input::Load { text } => put!("load", text),
                Input::Dt { h } => put!("dt", h),
                Input::Mark { what, value } => put!("mark", what, value),
            }
            seq.end()
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Entry>, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Vec<Entry>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array of inputs")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Vec<Entry>, A::Error> {
                // Tracks interleave with the other inputs: order by step, keeping file order
                // within a step but with tracks' drags (which commute with each other and were
                // written only when nothing else followed them in their step) last.
                // (Sorted as `(u32, u32)` keys, the broad phase's instantiation of the sort.)
                let mut all: Vec<Entry> = Vec::new();
                let mut keys: Vec<(u32, u32)> = Vec::new();
                while let Some(EntriesIn(es, track)) = a.next_element::<EntriesIn>()? {
                    for e in es {
                        if all.len() >= 1 << 30 {
                            return Err(de::Error::custom("too many inputs"));
                        }
                        keys.push((e.step, (track as u32) << 30 | all.len() as u32));
                        all.push(e);
                    }
                }
                keys.sort_unstable();
                let mut slots: Vec<Option<Entry>> = all.into_iter().map(Some).collect();
                Ok(keys
                    .iter()
                    .filter_map(|&(_, k)| slots.get_mut((k & ((1 << 30) - 1)) as usize).and_then(Option::take))
                    .collect())
            }
        }
        d.deserialize_seq(V)
    }

    /// One element of `inputs`: an input, or a track (many inputs).
    struct EntriesIn(Vec<Entry>, bool);

    impl<'de> Deserialize<'de> for EntriesIn {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = EntriesIn;
                fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                    f.write_str("an input [step, op, args…]")
                }
                fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<EntriesIn, A::Error> {
                    fn next<'de, A: SeqAccess<'de>, T: Deserialize<'de>>(a: &mut A, what: &str) -> Result<T, A::Error> {
                        a.next_element::<T>()?.ok_or_else(|| de::Error::custom(format!("missing {what}")))
                    }
                    let step: u32 = next(&mut a, "step")?;
                    let op: String = next(&mut a, "op")?;
                    let q = |a: &mut A| -> Result<[i32; 2], A::Error> { Ok([next(a, "x")?, next(a, "y")?]) };
                    let input = match op.as_str() {
                        "grab" => Input::Grab { pointer: next(&mut a, "pointer")?, point: next(&mut a, "point")? },
                        "to" => Input::Drag { pointer: next(&mut a, "pointer")?, q: q(&mut a)? },
                        "release" => Input::Release { pointer: next(&mut a, "pointer")? },
                        "grabbody" => Input::GrabBody {
                            pointer: next(&mut a, "pointer")?,
                            body: next(&mut a, "body")?,
                            q: q(&mut a)?,
                        },
                        "bodyto" => Input::DragBody { pointer: next(&mut a, "pointer")?, q: q(&mut a)? },
                        "releasebody" => Input::ReleaseBody { pointer: next(&mut a, "pointer")? },
                        "lock" => Input::Lock { point: next(&mut a, "point")?, locked: next(&mut a, "locked")? },
                        "cut" => Input::Cut {
                            from: [next(&mut a, "x0")?, next(&mut a, "y0")?],
                            to: [next(&mut a, "x1")?, next(&mut a, "y1")?],
                        },
                        "add" => Input::AddPoint {
                            at: [next(&mut a, "x")?, next(&mut a, "y")?],
                            locked: next(&mut a, "locked")?,
                        },
                        "remove" => Input::RemovePoint { point: next(&mut a, "point")? },
                        "connect" => Input::Connect { a: next(&mut a, "a")?, b: next(&mut a, "b")? },
                        "disconnect" => Input::Disconnect { a: next(&mut a, "a")?, b: next(&mut a, "b")? },
                        "subdivide" => Input::Subdivide { link: next(&mut a, "link")?, count: next(&mut a, "count")? },
                        "pin" => Input::Pin {
                            point: next(&mut a, "point")?,
                            at: [next(&mut a, "x")?, next(&mut a, "y")?],
                            compliance: next(&mut a, "compliance")?,
                        },
                        "unpin" => Input::Unpin { point: next(&mut a, "point")? },
                        "obstacle" => Input::AddObstacle { json: next(&mut a, "json")? },
                        "clearobstacles" => Input::ClearObstacles,
                        "body" => Input::AddBody { json: next(&mut a, "json")? },
                        "removebody" => Input::RemoveBody { body: next(&mut a, "body")? },
                        "joint" => Input::AddJoint { json: next(&mut a, "json")? },
                        "removejoint" => Input::RemoveJoint { joint: next(&mut a, "joint")? },
                        "attach" => Input::Attach { point: next(&mut a, "point")?, body: next(&mut a, "body")? },
                        "detach" => Input::Detach { point: next(&mut a, "point")? },
                        "winch" => Input::WinchSpeed { winch: next(&mut a, "winch")?, speed: next(&mut a, "speed")? },
                        "wander" => Input::Wander { on: next(&mut a, "on")? },
                        "wanderparams" => {
                            Input::WanderParams { accel: next(&mut a, "accel")?, damping: next(&mut a, "damping")? }
                        }
                        "set" => {
                            let mut patch = Vec::new();
                            while let Some(k) = a.next_element::<String>()? {
                                let SettingIn(v) = next(&mut a, "setting value")?;
                                patch.push((k, v));
                            }
                            Input::Settings { patch }
                        }
                        "load" => Input::Load { text: next(&mut a, "scene text")? },
                        "dt" => Input::Dt { h: next(&mut a, "h")? },
                        "mark" => Input::Mark { what: next(&mut a, "what")?, value: next(&mut a, "value")? },
                        "drag" | "dragbody" | "drag1" | "dragbody1" => {
                            let body = op.starts_with("dragbody");
                            let first = op.ends_with('1');
                            let pointer: u32 = next(&mut a, "pointer")?;
                            let mut at: [i32; 2] = q(&mut a)?;
                            let dd: Vec<i32> = next(&mut a, "second differences")?;
                            let gaps: Vec<u32> = next(&mut a, "gaps")?;
                            if a.next_element::<de::IgnoredAny>()?.is_some() {
                                return Err(de::Error::custom(format!("too many arguments for `{op}`")));
                            }
                            if dd.len() % 2 != 0 || gaps.len() % 2 != 0 {
                                return Err(de::Error::custom("a track's differences and gaps come in pairs"));
                            }
                            let n = dd.len() / 2 + 1;
                            if n > MAX_STEPS as usize + 1 {
                                return Err(de::Error::custom("a track longer than a recording may be"));
                            }
                            let make = |q: [i32; 2], step: u32| Entry {
                                step,
                                input: if body { Input::DragBody { pointer, q } } else { Input::Drag { pointer, q } },
                            };
                            let mut out = Vec::with_capacity(n);
                            out.push(make(at, step));
                            let (mut vel, mut s, mut g) = ([0i64; 2], step as u64, 0usize);
                            for k in 1..n {
                                s += 1;
                                if g + 1 < gaps.len() && gaps[g] as usize == k {
                                    s += gaps[g + 1] as u64;
                                    g += 2;
                                }
                                if first {
                                    vel = [0, 0];
                                }
                                vel[0] += dd[2 * k - 2] as i64;
                                vel[1] += dd[2 * k - 1] as i64;
                                let nx = at[0] as i64 + vel[0];
                                let ny = at[1] as i64 + vel[1];
                                if s > MAX_STEPS as u64 || nx.abs() > i32::MAX as i64 || ny.abs() > i32::MAX as i64 {
                                    return Err(de::Error::custom("a track runs off the recording"));
                                }
                                at = [nx as i32, ny as i32];
                                out.push(make(at, s as u32));
                            }
                            if g != gaps.len() {
                                return Err(de::Error::custom("a track's gaps must name its entries in order"));
                            }
                            return Ok(EntriesIn(out, true));
                        }
                        other => return Err(de::Error::custom(format!("unknown input `{other}`"))),
                    };
                    if a.next_element::<de::IgnoredAny>()?.is_some() {
                        return Err(de::Error::custom(format!("too many arguments for `{op}`")));
                    }
                    Ok(EntriesIn(vec![Entry { step, input }], false))
                }
            }
            d.deserialize_seq(V)
        }
    }
}

impl Recording {
    /// Reads a recording; errors name the JSON path (`inputs[3]`).
    pub fn from_json(text: &str) -> crate::Result<Recording> {
        if text.bytes().find(|b| !b.is_ascii_whitespace()) != Some(b'{') {
            return Err(err("(root)", "a recording is a JSON object ({\"format\": \"ropelab-recording\", …})"));
        }
        let mut r: Recording = crate::scene::parse(text).map_err(|e| match e {
            crate::SimError::Scene { path, reason } => err(&path, reason),
            other => other,
        })?;
        if let SceneRef::Inline(scene) = &mut r.scene {
            let span = top_level_value(text, "scene").ok_or_else(|| err("scene", "expected a scene object"))?;
            Scene::from_json(span).map_err(|e| match e {
                crate::SimError::Scene { path, reason } => err(&format!("scene.{path}"), reason),
                other => other,
            })?;
            *scene = span.to_string();
        }
        if r.format != FORMAT {
            return Err(err("format", format!("expected \"{FORMAT}\"")));
        }
        if r.version != VERSION {
            return Err(err(
                "version",
                format!("unsupported recording version {} (this build reads {VERSION})", r.version),
            ));
        }
        crate::error::time_step(r.h).map_err(|e| err("h", e.to_string()))?;
        if !(r.quantum > 0.0 && r.quantum.is_finite() && r.quantum.to_bits() & 0x007f_ffff == 0) {
            return Err(err("quantum", "a power of two (m)"));
        }
        if r.steps > MAX_STEPS {
            return Err(err("steps", format!("at most {MAX_STEPS}")));
        }
        if r.checks.len() != (r.steps / CHECK_EVERY) as usize {
            return Err(err("checks", format!("expected one per {CHECK_EVERY} steps ({})", r.steps / CHECK_EVERY)));
        }
        if let Some(k) = r.inputs.iter().position(|e| e.step > r.steps) {
            return Err(err("inputs", format!("input {k} comes after the last step ({})", r.steps)));
        }
        Ok(r)
    }

    /// The recording as JSON text (one line: it goes into links).
    pub fn to_json(&self) -> String {
        #[cfg(feature = "full")]
        let text = serde_json::to_string(self);
        #[cfg(not(feature = "full"))]
        let text = crate::json::to_string(self);
        let text = text.unwrap_or_else(|e| panic!("a recording always serialises: {e}"));
        // A preset's name needs no escaping (letters, digits, - and _: checked when read).
        let scene = match &self.scene {
            SceneRef::Inline(scene) => scene.as_str(),
            SceneRef::Preset(name) => &format!("\"{name}\""),
        };
        format!("{{\"scene\":{scene},{}", text.strip_prefix('{').unwrap_or(&text))
    }
}

/// The text of the value of `key` in the top-level object of the JSON `text` (which serde
/// has already read, so it is well formed).
fn top_level_value<'t>(text: &'t str, key: &str) -> Option<&'t str> {
    let b = text.as_bytes();
    let (mut i, mut depth) = (0usize, 0usize);
    let mut value_start: Option<usize> = None;
    let mut last_key: Option<(usize, usize)> = None;
    while i < b.len() {
        match b[i] {
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                if depth == 1 && value_start.is_none() {
                    last_key = Some((start, i));
                }
            }
            b':' if depth == 1 => {
                if let Some((s, e)) = last_key.take() {
                    if text.get(s..e) == Some(key) {
                        value_start = Some(i + 1);
                    }
                }
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth -= 1;
                if depth == 1 {
                    if let Some(s) = value_start {
                        return text.get(s..=i).map(str::trim);
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

fn err(path: &str, reason: impl fmt::Display) -> crate::SimError {
    crate::SimError::Invalid(format!("recording error at `{path}`: {reason}"))
}

/// FNV-1a of bytes (the scene check).
pub fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// A state check: the 64-bit state hash folded to 32 bits (a JSON number JS reads exactly).
pub fn check(w: &crate::World) -> u32 {
    let h = w.state_hash();
    (h ^ (h >> 32)) as u32
}

/// The drag grid: `x` rounded to a multiple of `quantum`, as a count of quanta.
pub fn quantise(x: f32, quantum: f32) -> i32 {
    let q = libm::roundf(x / quantum);
    q.clamp(-2.0e9, 2.0e9) as i32
}

/// The point a count of quanta stands for (exact: `quantum` is a power of two).
pub fn unquantise(q: i32, quantum: f32) -> f32 {
    q as f32 * quantum
}
