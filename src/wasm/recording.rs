//! Recording and replay (the format is `crate::recording`).
//!
//! Every input entry point of `Sim` goes through [`Sim::input`]: while recording, the input is
//! logged against the step count after it applied (drag targets rounded to the recording's
//! grid first, so the recorded run is the run the file replays); while playing, an input from
//! outside ends the replay there (the user takes over) and the world goes on from where it is.
//! During a replay `step`/`advance` apply the inputs due before each step and step by the
//! recorded step length, check the state every `CHECK_EVERY` steps against the file's checks,
//! and after the last step compare the final hash.

use super::*;
use crate::recording::{self as rec, Entry, Hex, Input, Recording, SceneRef};
use crate::settings::table::SETTINGS;

/// An open recording.
#[derive(Clone, Debug)]
pub struct Recorder {
    rec: Recording,
    /// The step length of the last step recorded.
    h: f32,
}

/// A recording being played.
#[derive(Clone, Debug)]
pub struct Player {
    rec: Recording,
    /// The next input to apply.
    next: usize,
    /// Steps run.
    step: u32,
    h: f32,
    /// The first check step whose state differs from the recording's.
    diverged: Option<u32>,
    /// The step at which an input from outside ended the replay.
    taken_over: Option<u32>,
    /// Whether the final state equals the recording's (once the last step ran).
    final_ok: Option<bool>,
    /// The state hash after the last recorded step (the world steps on after it).
    final_hash: u64,
    /// Marks applied and not yet taken by the page.
    marks: Vec<(String, f64)>,
}

impl Player {
    fn active(&self) -> bool {
        self.taken_over.is_none() && self.final_ok.is_none()
    }
}

/// What a replay came to.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayReport {
    pub steps: u32,
    pub hash: u64,
    pub recorded_hash: u64,
    pub engine: u32,
    pub recorded_engine: u32,
    /// The first check step whose state differed (or the last step, when only the final
    /// hash differed).
    pub diverged_at: Option<u32>,
}

impl ReplayReport {
    pub fn matches(&self) -> bool {
        self.diverged_at.is_none() && self.hash == self.recorded_hash
    }

    /// One line for people: exact, or where and why not.
    pub fn message(&self) -> String {
        let who = if self.engine == self.recorded_engine {
            String::new()
        } else {
            format!("recorded with engine {}; this build (engine {}) ", self.recorded_engine, self.engine)
        };
        match self.diverged_at {
            None if self.hash == self.recorded_hash => {
                format!(
                    "{}replays it exactly ({} steps, state {})",
                    if who.is_empty() { "" } else { &who },
                    self.steps,
                    Hex(self.hash)
                )
            }
            k => format!(
                "{}diverges at step {} (state {} at the end, recorded {})",
                if who.is_empty() { "this build ".to_string() } else { who },
                k.unwrap_or(self.steps),
                Hex(self.hash),
                Hex(self.recorded_hash)
            ),
        }
    }

    pub fn to_json(&self) -> String {
        crate::json_macro::json!({
            "steps": self.steps,
            "hash": Hex(self.hash).to_string(),
            "recordedHash": Hex(self.recorded_hash).to_string(),
            "engine": self.engine,
            "recordedEngine": self.recorded_engine,
            "divergedAt": self.diverged_at,
            "matches": self.matches(),
            "message": self.message(),
        })
        .to_string()
    }
}

/// The plain Rust surface (natively testable).
impl Sim {
    /// Applies one input and, while recording, logs it; an input from outside ends a replay
    /// (one that fails changes nothing, the replay included).
    pub(super) fn input(&mut self, input: Input) -> Result<Outcome> {
        let out = self.apply(&input)?;
        if matches!(input, Input::Load { .. }) {
            // Another scene: the replay is over, not taken over.
            self.player = None;
        }
        self.end_replay_by_hand();
        if let Some(r) = self.recorder.as_mut() {
            let step = r.rec.steps;
            // A drag replaces the same pointer's drag earlier in this step when only other
            // pointers' drags came between (a drag sets the target, the next one overwrites it).
            if let Some(key) = input.track_key() {
                let inputs = &mut r.rec.inputs;
                let mut k = inputs.len();
                while k > 0 && inputs[k - 1].step == step {
                    match inputs[k - 1].input.track_key() {
                        Some(other) if other == key => {
                            inputs.remove(k - 1);
                            break;
                        }
                        Some(_) => k -= 1,
                        None => break,
                    }
                }
            }
            r.rec.inputs.push(Entry { step, input });
        }
        Ok(out)
    }

    /// The drag grid of the open recording, if any.
    fn grid(&self) -> Option<f32> {
        self.recorder.as_ref().map(|r| r.rec.quantum)
    }

    /// `dragTo` and `dragBody` while recording: the target rounded to the grid.
    pub(super) fn drag_input(&mut self, pointer: u32, x: f32, y: f32, body: bool) -> Result<()> {
        if body && !crate::FULL {
            return Err(SimError::Invalid(crate::not_in_lite("dragBody")));
        }
        error::finite("x", x)?;
        error::finite("y", y)?;
        match self.grid() {
            Some(g) => {
                let q = [rec::quantise(x, g), rec::quantise(y, g)];
                self.input(if body { Input::DragBody { pointer, q } } else { Input::Drag { pointer, q } })?;
            }
            None => {
                if body {
                    self.drag_body_to(pointer, x, y)?;
                } else {
                    self.world.drag_to(pointer, x, y)?;
                }
                self.end_replay_by_hand();
            }
        }
        Ok(())
    }

    /// `grabBody` while recording: the grip rounded to the grid.
    pub(super) fn grab_body_input(&mut self, pointer: u32, body: crate::ids::Id, x: f32, y: f32) -> Result<()> {
        error::finite("x", x)?;
        error::finite("y", y)?;
        match self.grid() {
            Some(g) => {
                let q = [rec::quantise(x, g), rec::quantise(y, g)];
                self.input(Input::GrabBody { pointer, body: body.0, q }).map(|_| ())
            }
            None => {
                self.grab_body_at(pointer, body, x, y)?;
                self.end_replay_by_hand();
                Ok(())
            }
        }
    }

    fn end_replay_by_hand(&mut self) {
        if let Some(p) = self.player.as_mut() {
            if p.active() {
                p.taken_over = Some(p.step);
            }
        }
    }

    /// Runs one input through the checked methods (no logging).
    fn apply(&mut self, input: &Input) -> Result<Outcome> {
        let g = self
            .recorder
            .as_ref()
            .map(|r| r.rec.quantum)
            .or_else(|| self.player.as_ref().map(|p| p.rec.quantum))
            .unwrap_or(rec::DEFAULT_QUANTUM);
        let at = |q: [i32; 2]| (rec::unquantise(q[0], g), rec::unquantise(q[1], g));
        Ok(match input {
            Input::Grab { pointer, point } => {
                self.world.grab(*pointer, *point as i64)?;
                Outcome::None
            }
            Input::Drag { pointer, q } => {
                let (x, y) = at(*q);
                self.world.drag_to(*pointer, x, y)?;
                Outcome::None
            }
            Input::Release { pointer } => Outcome::Bool(self.world.release(*pointer)),
            Input::Lock { point, locked } => {
                self.world.set_locked(*point as i64, *locked)?;
                Outcome::None
            }
            Input::Cut { from, to } => Outcome::Count(self.world.cut(from[0], from[1], to[0], to[1])?),
            Input::AddPoint { at, locked } => Outcome::Count(self.world.add_point(at[0], at[1], *locked)?),
            Input::RemovePoint { point } => {
                self.world.remove_point(*point as i64)?;
                Outcome::None
            }
            Input::Connect { a, b } => Outcome::Count(self.world.connect(*a as i64, *b as i64)?),
            Input::Disconnect { a, b } => Outcome::Bool(self.world.disconnect(*a as i64, *b as i64)?),
            Input::Subdivide { link, count } => Outcome::Count(self.world.subdivide(*link as i64, *count)?),
            Input::Pin { point, at, compliance } => {
                self.pin_now(*point, at[0], at[1], *compliance)?;
                Outcome::None
            }
            Input::Unpin { point } => Outcome::Bool(self.world.unpin(*point as i64)?),
            Input::AddObstacle { json } => Outcome::Count(self.add_obstacle_now(json)?),
            Input::ClearObstacles => {
                self.world.obstacles.clear();
                Outcome::None
            }
            // The lite build has no bodies: these refuse there (and their code stays out of it).
            Input::GrabBody { .. }
            | Input::DragBody { .. }
            | Input::ReleaseBody { .. }
            | Input::AddBody { .. }
            | Input::RemoveBody { .. }
            | Input::AddJoint { .. }
            | Input::RemoveJoint { .. }
            | Input::Attach { .. }
            | Input::Detach { .. } => self.apply_body(input, g)?,
            Input::WinchSpeed { winch, speed } => {
                self.world.set_winch_speed(*winch as usize, *speed)?;
                Outcome::None
            }
            Input::Wander { on } => {
                self.set_wander_now(*on)?;
                Outcome::None
            }
            Input::WanderParams { accel, damping } => {
                self.set_wander_params_now(*accel, *damping)?;
                Outcome::None
            }
            Input::Settings { patch } => {
                self.world.set_settings(patch.iter().map(|(k, v)| (k.as_str(), v.clone())))?;
                Outcome::None
            }
            Input::Load { text } => {
                self.load_world(text)?;
                Outcome::None
            }
            Input::Dt { h } => {
                error::time_step(*h)?;
                Outcome::None
            }
            Input::Mark { what, value } => {
                if let Some(p) = self.player.as_mut() {
                    p.marks.push((what.clone(), *value));
                }
                Outcome::None
            }
        })
    }

    /// The body inputs (full build).
    #[cfg(feature = "full")]
    fn apply_body(&mut self, input: &Input, g: f32) -> Result<Outcome> {
        let at = |q: [i32; 2]| (rec::unquantise(q[0], g), rec::unquantise(q[1], g));
        Ok(match input {
            Input::GrabBody { pointer, body, q } => {
                let (x, y) = at(*q);
                self.grab_body_at(*pointer, crate::ids::Id(*body), x, y)?;
                Outcome::None
            }
            Input::DragBody { pointer, q } => {
                let (x, y) = at(*q);
                self.drag_body_to(*pointer, x, y)?;
                Outcome::None
            }
            Input::ReleaseBody { pointer } => Outcome::Bool(self.release_body_from(*pointer)),
            Input::AddBody { json } => Outcome::Count(self.add_body_now(json)?.0 as usize),
            Input::RemoveBody { body } => {
                self.world.remove_body(crate::ids::Id(*body))?;
                self.prune_mouse_joints();
                Outcome::None
            }
            Input::AddJoint { json } => Outcome::Count(self.add_joint_now(json)?.0 as usize),
            Input::RemoveJoint { joint } => {
                self.world.remove_joint(crate::ids::Id(*joint))?;
                self.prune_mouse_joints();
                Outcome::None
            }
            Input::Attach { point, body } => {
                self.world.attach(*point as usize, crate::ids::Id(*body))?;
                Outcome::None
            }
            Input::Detach { point } => {
                self.world.detach(*point as usize)?;
                Outcome::None
            }
            _ => Outcome::None,
        })
    }

    #[cfg(not(feature = "full"))]
    fn apply_body(&mut self, _: &Input, _: f32) -> Result<Outcome> {
        Err(SimError::Invalid(crate::not_in_lite("a recorded body input")))
    }

    /// What follows every step: the recording counts it (and checks the state), a replay
    /// moves on.
    pub(super) fn record_step(&mut self, h: f32) {
        // (the lite build only replays: the check keeps the recording writer out of it)
        if !crate::FULL {
            return;
        }
        if let Some(r) = self.recorder.as_mut() {
            if h != r.h {
                r.rec.inputs.push(Entry { step: r.rec.steps, input: Input::Dt { h } });
                r.h = h;
            }
            r.rec.steps += 1;
            if r.rec.steps % rec::CHECK_EVERY == 0 {
                r.rec.checks.push(rec::check(&self.world));
            }
            if r.rec.steps >= rec::MAX_STEPS {
                // An hour: it ends here rather than grow without end; `stopRecording` returns it.
                let mut r = self.recorder.take().expect("recording");
                r.rec.hash = Hex(self.world.state_hash());
                self.finished = Some(r.rec.to_json());
            }
        }
    }

    /// Before a step of a replay: applies the inputs due, returns the step length.
    pub(super) fn replay_before_step(&mut self) -> Option<f32> {
        let p = self.player.as_ref()?;
        if !p.active() {
            return None;
        }
        self.apply_due();
        self.player.as_ref().filter(|p| p.active()).map(|p| p.h)
    }

    fn apply_due(&mut self) {
        loop {
            let Some(p) = self.player.as_mut() else { return };
            let Some(e) = p.rec.inputs.get(p.next).filter(|e| e.step == p.step) else { return };
            let input = e.input.clone();
            p.next += 1;
            if let Input::Dt { h } = input {
                p.h = h;
                continue;
            }
            // An input that failed when recorded was not logged; one that fails now means
            // this build parted from the recording.
            if self.apply(&input).is_err() {
                if let Some(p) = self.player.as_mut() {
                    p.diverged.get_or_insert(p.step);
                }
            }
        }
    }

    /// After a step of a replay: counts it, checks the state, finishes at the last step.
    pub(super) fn replay_after_step(&mut self) {
        let check = {
            let Some(p) = self.player.as_mut() else { return };
            if !p.active() {
                return;
            }
            p.step += 1;
            (p.step % rec::CHECK_EVERY == 0).then(|| (p.step, (p.step / rec::CHECK_EVERY) as usize - 1))
        };
        if let Some((step, k)) = check {
            let c = rec::check(&self.world);
            let p = self.player.as_mut().expect("checked above");
            if p.rec.checks.get(k) != Some(&c) {
                p.diverged.get_or_insert(step);
            }
        }
        let p = self.player.as_ref().expect("checked above");
        if p.step >= p.rec.steps {
            self.apply_due();
            let hash = self.world.state_hash();
            let p = self.player.as_mut().expect("checked above");
            p.final_hash = hash;
            p.final_ok = Some(hash == p.rec.hash.0);
            if hash != p.rec.hash.0 {
                p.diverged.get_or_insert(p.step);
            }
            self.let_go();
        }
    }

    /// At a replay's end no recorded hand holds anything any more (a recording stopped
    /// mid-drag would leave its point held, with no pointer on the page to let it go).
    fn let_go(&mut self) {
        while let Some(h) = self.world.holds.first() {
            let pointer = h.pointer;
            self.world.release(pointer);
        }
        // (the lite build has no bodies to hold: the check keeps the body code out of it)
        while let Some(&(pointer, _)) = self.mouse_joints.first().filter(|_| crate::FULL) {
            self.release_body_from(pointer);
        }
    }

    /// Starts recording from `scene_text` freshly loaded (the world restarts), with the
    /// settings the world has now that differ from the scene's. `scene_ref` names the preset
    /// the file will name instead of carrying the scene (empty: carry it). `quantum`: the drag
    /// grid (m, a power of two; 0 for the default).
    pub fn start_recording(&mut self, scene_ref: &str, scene_text: &str, quantum: f32) -> Result<()> {
        let quantum = if quantum == 0.0 { rec::DEFAULT_QUANTUM } else { quantum };
        if !(quantum > 0.0 && quantum.is_finite() && quantum.to_bits() & 0x007f_ffff == 0 && quantum <= 1.0) {
            return Err(SimError::Invalid(format!(
                "recording grid {} m: a power of two up to 1 m (or 0 for the default)",
                crate::num::Num(quantum as f64)
            )));
        }
        let settings = self.world.settings.clone();
        let mut next = next_fresh(scene_text)?;
        let scene_hash = rec::fnv(next.export_scene_json().as_bytes());
        let loaded = next.world.settings.clone();
        let patch: Vec<(&str, SettingValue)> =
            SETTINGS.iter().filter(|t| t.get(&settings) != t.get(&loaded)).map(|t| (t.key, t.get(&settings))).collect();
        // The settings the page shows carry over; when the fresh scene refuses them (a solver
        // that cannot run it), the scene's own settings stand.
        if !patch.is_empty() && next.world.set_settings(patch).is_err() {
            next.world.settings = loaded.clone();
        }
        let applied: Vec<(String, SettingValue)> = SETTINGS
            .iter()
            .filter(|t| t.get(&next.world.settings) != t.get(&loaded))
            .map(|t| (t.key.to_string(), t.get(&next.world.settings)))
            .collect();
        let scene = if scene_ref.is_empty() {
            SceneRef::Inline(scene_text.to_string())
        } else {
            SceneRef::Preset(scene_ref.to_string())
        };
        let mut inputs = Vec::new();
        if !applied.is_empty() {
            // Applied again on replay, where the give setting also resets every link's give.
            next.world.settings = loaded;
            next.world.set_settings(applied.iter().map(|(k, v)| (k.as_str(), v.clone())))?;
            inputs.push(Entry { step: 0, input: Input::Settings { patch: applied } });
            // The page's settings are the scene's from here: the reading is not voided by them.
            #[cfg(feature = "full")]
            next.watch.rebase(&next.world);
        }
        let h = self.clock.h;
        next.clock = self.clock.clone();
        next.recorder = Some(Box::new(Recorder {
            rec: Recording {
                format: rec::FORMAT.to_string(),
                version: rec::VERSION,
                engine: rec::ENGINE,
                scene,
                scene_hash: Hex(scene_hash),
                h,
                quantum,
                steps: 0,
                inputs,
                checks: Vec::new(),
                hash: Hex(0),
            },
            h,
        }));
        next.render = std::mem::take(&mut self.render);
        next.body_poses = std::mem::take(&mut self.body_poses);
        *self = next;
        Ok(())
    }

    /// Ends the recording and returns it as JSON text.
    pub fn stop_recording(&mut self) -> Result<String> {
        if let Some(text) = self.finished.take() {
            return Ok(text);
        }
        let mut r =
            self.recorder.take().ok_or_else(|| SimError::Invalid("not recording (startRecording first)".into()))?;
        r.rec.hash = Hex(self.world.state_hash());
        Ok(r.rec.to_json())
    }

    /// Loads a recording to play: its scene (`scene_text`, for a recording that names a
    /// preset; ignored when it carries its scene), checked against the recorded one; the
    /// next steps replay it.
    pub fn play_recording(&mut self, recording: &str, scene_text: &str) -> Result<()> {
        let r = Recording::from_json(recording)?;
        let text = match &r.scene {
            SceneRef::Preset(name) => {
                if scene_text.is_empty() {
                    return Err(SimError::Invalid(format!(
                        "the recording plays on the preset \"{name}\": pass its scene text"
                    )));
                }
                scene_text.to_string()
            }
            SceneRef::Inline(scene) => scene.clone(),
        };
        let fresh = next_fresh(&text)?;
        let got = rec::fnv(fresh.export_scene_json().as_bytes());
        if got != r.scene_hash.0 {
            let what = match &r.scene {
                SceneRef::Preset(name) => format!("the preset \"{name}\" has changed since"),
                SceneRef::Inline(_) => "its scene reads differently in this build".to_string(),
            };
            return Err(SimError::Invalid(format!(
                "this recording cannot be replayed: {what} it was recorded (scene {} now, {} then)",
                Hex(got),
                r.scene_hash
            )));
        }
        let mut next = fresh;
        next.clock = self.clock.clone();
        next.render = std::mem::take(&mut self.render);
        next.body_poses = std::mem::take(&mut self.body_poses);
        next.player = Some(Box::new(Player {
            h: r.h,
            rec: r,
            next: 0,
            step: 0,
            diverged: None,
            taken_over: None,
            final_ok: None,
            final_hash: 0,
            marks: Vec::new(),
        }));
        // The inputs before the first step (the settings carried over) show at once.
        next.apply_due();
        #[cfg(feature = "full")]
        next.watch.rebase(&next.world);
        *self = next;
        Ok(())
    }

    /// Plays a whole recording at once (no page), and says whether this build replays it
    /// exactly.
    pub fn replay(recording: &str, scene_text: &str) -> Result<ReplayReport> {
        let mut sim = Sim::new();
        sim.play_recording(recording, scene_text)?;
        let steps = sim.player.as_ref().map_or(0, |p| p.rec.steps);
        if steps == 0 {
            sim.replay_after_step_zero();
        }
        while sim.player.as_ref().is_some_and(|p| p.active()) {
            let h = sim.replay_before_step().unwrap_or(1.0 / 60.0);
            sim.world.step(h)?;
            sim.replay_after_step();
        }
        let p = sim.player.as_ref().expect("a replay");
        Ok(ReplayReport {
            steps: p.step,
            hash: p.final_hash,
            recorded_hash: p.rec.hash.0,
            engine: rec::ENGINE,
            recorded_engine: p.rec.engine,
            diverged_at: p.diverged,
        })
    }

    /// A zero-step recording: its inputs all apply at step 0 and it ends there.
    fn replay_after_step_zero(&mut self) {
        self.apply_due();
        let hash = self.world.state_hash();
        if let Some(p) = self.player.as_mut() {
            p.final_hash = hash;
            p.final_ok = Some(hash == p.rec.hash.0);
            if hash != p.rec.hash.0 {
                p.diverged.get_or_insert(0);
            }
        }
    }

    /// The replay's state as JSON: `{playing, step, steps, done, takenOver, divergedAt,
    /// matches, engine, recordedEngine, message}`, or `null` when nothing was played.
    pub fn playback_json(&self) -> String {
        let Some(p) = self.player.as_ref() else { return "null".into() };
        let report = ReplayReport {
            steps: p.step,
            hash: if p.final_ok.is_some() { p.final_hash } else { self.world.state_hash() },
            recorded_hash: p.rec.hash.0,
            engine: rec::ENGINE,
            recorded_engine: p.rec.engine,
            diverged_at: p.diverged,
        };
        let message = match (p.taken_over, p.final_ok) {
            (Some(k), _) => format!("taken over at step {k}"),
            (None, Some(_)) => report.message(),
            (None, None) => match p.diverged {
                Some(_) => report.message(),
                None => format!("step {} of {}", p.step, p.rec.steps),
            },
        };
        crate::json_macro::json!({
            "playing": p.active(),
            "step": p.step,
            "steps": p.rec.steps,
            "done": p.final_ok.is_some(),
            "takenOver": p.taken_over,
            "divergedAt": p.diverged,
            "matches": p.final_ok.map(|ok| ok && p.diverged.is_none()),
            "engine": rec::ENGINE,
            "recordedEngine": p.rec.engine,
            "message": message,
        })
        .to_string()
    }

    /// The marks a replay applied since the last call, as JSON `[[what, value], …]`.
    pub fn take_marks_json(&mut self) -> String {
        let marks = self.player.as_mut().map(|p| std::mem::take(&mut p.marks)).unwrap_or_default();
        let v: Vec<crate::json_macro::Value> = marks
            .into_iter()
            .map(|(w, x)| crate::json_macro::json!([crate::json_macro::json!(w.as_str()), crate::json_macro::json!(x)]))
            .collect();
        crate::json_macro::Value::from(v).to_string()
    }

    /// Adds a mark to the open recording (nothing for the physics: the page's pause or time
    /// scale, shown again during a replay).
    pub fn record_mark(&mut self, what: &str, value: f64) -> Result<()> {
        if what.is_empty() || what.len() > 32 {
            return Err(SimError::Invalid("recordMark: a name of 1 to 32 characters".into()));
        }
        if !value.is_finite() {
            return Err(SimError::Invalid("recordMark: the value must be a finite number".into()));
        }
        if let Some(r) = self.recorder.as_mut() {
            r.rec.inputs.push(Entry { step: r.rec.steps, input: Input::Mark { what: what.to_string(), value } });
        }
        Ok(())
    }

    /// Ends a replay where it is (the world goes on from here under the user's hands).
    pub fn stop_playback(&mut self) {
        self.end_replay_by_hand();
    }

    /// Recording (or a recording that ran its hour out, until `stopRecording` takes it).
    pub fn is_recording(&self) -> bool {
        self.recorder.is_some() || self.finished.is_some()
    }

    pub fn is_playing(&self) -> bool {
        self.player.as_ref().is_some_and(|p| p.active())
    }

    /// Steps recorded so far.
    pub fn recorded_steps(&self) -> u32 {
        self.recorder.as_ref().map_or(0, |r| r.rec.steps)
    }
}

/// A sim with `text` loaded (the state a recording starts from).
fn next_fresh(text: &str) -> Result<Sim> {
    let mut s = Sim::new();
    s.load_world(text)?;
    Ok(s)
}

/// What an input's entry point returns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Outcome {
    None,
    Bool(bool),
    Count(usize),
}

impl Outcome {
    pub fn count(self) -> usize {
        match self {
            Outcome::Count(n) => n,
            _ => 0,
        }
    }

    pub fn flag(self) -> bool {
        matches!(self, Outcome::Bool(true))
    }
}

/// Recording is the playground's (the full build); both builds replay.
#[wasm_bindgen]
impl Sim {
    /// Restarts from `sceneText` and records every input from its first step (the settings
    /// the world has now carry over). `sceneRef`: the preset's name the recording names
    /// instead of carrying the scene ("" to carry it). `quantum`: the drag grid in m, a power
    /// of two (0: 2⁻⁹ m); drags while recording move to the grid.
    #[cfg(feature = "full")]
    #[wasm_bindgen(js_name = startRecording)]
    pub fn start_recording_js(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] scene_ref: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] scene_text: JsValue,
        quantum: f32,
    ) -> Result<(), JsError> {
        let scene_ref = js_text("startRecording: the scene's name", &scene_ref)?;
        let scene_text = js_text("startRecording: the scene text", &scene_text)?;
        self.start_recording(&scene_ref, &scene_text, quantum).map_err(js)
    }

    /// Ends the recording; returns it (JSON text).
    #[cfg(feature = "full")]
    #[wasm_bindgen(js_name = stopRecording)]
    pub fn stop_recording_js(&mut self) -> Result<String, JsError> {
        self.stop_recording().map_err(js)
    }

    /// Whether a recording is open.
    #[cfg(feature = "full")]
    #[wasm_bindgen(getter)]
    pub fn recording(&self) -> bool {
        self.is_recording()
    }

    /// Steps recorded so far.
    #[cfg(feature = "full")]
    #[wasm_bindgen(getter, js_name = recordedSteps)]
    pub fn recorded_steps_js(&self) -> u32 {
        self.recorded_steps()
    }

    /// Adds a mark to the open recording (`what`: 1–32 characters, `value` finite); nothing
    /// for the physics. Does nothing when not recording.
    #[cfg(feature = "full")]
    #[wasm_bindgen(js_name = recordMark)]
    pub fn record_mark_js(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] what: JsValue,
        value: f64,
    ) -> Result<(), JsError> {
        let what = js_text("recordMark: the mark's name", &what)?;
        self.record_mark(&what, value).map_err(js)
    }

    /// Loads a recording to play from its first step (`sceneText`: the preset's scene when
    /// the recording names one, else ""). Throws, keeping the world, when the recording is
    /// malformed or its scene is not the one it was recorded on.
    #[wasm_bindgen(js_name = playRecording)]
    pub fn play_recording_js(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] recording: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] scene_text: JsValue,
    ) -> Result<(), JsError> {
        let recording = js_text("playRecording: the recording (JSON text)", &recording)?;
        let scene_text = js_text("playRecording: the scene text", &scene_text)?;
        self.play_recording(&recording, &scene_text).map_err(js)
    }

    /// Whether a replay is running (not finished, not taken over).
    #[wasm_bindgen(getter)]
    pub fn playing(&self) -> bool {
        self.is_playing()
    }

    /// The replay's state: `{playing, step, steps, done, takenOver, divergedAt, matches,
    /// engine, recordedEngine, message}` (JSON), or `null`.
    #[wasm_bindgen(js_name = playback)]
    pub fn playback(&self) -> String {
        self.playback_json()
    }

    /// The marks the replay passed since the last call: `[[what, value], …]` (JSON).
    #[wasm_bindgen(js_name = takeMarks)]
    pub fn take_marks(&mut self) -> String {
        self.take_marks_json()
    }

    /// Ends the replay where it is; the world goes on from there.
    #[wasm_bindgen(js_name = stopPlayback)]
    pub fn stop_playback_js(&mut self) {
        self.stop_playback();
    }
}

/// Plays a whole recording without drawing and reports `{steps, hash, recordedHash, engine,
/// recordedEngine, divergedAt, matches, message}` (JSON): what `ropelab replay` prints.
/// `sceneText`: the preset's scene when the recording names one, else "".
#[wasm_bindgen(js_name = replayRecording)]
pub fn replay_recording(
    #[wasm_bindgen(unchecked_param_type = "string")] recording: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] scene_text: JsValue,
) -> Result<String, JsError> {
    let recording = js_text("replayRecording: the recording (JSON text)", &recording)?;
    let scene_text = js_text("replayRecording: the scene text", &scene_text)?;
    Sim::replay(&recording, &scene_text).map(|r| r.to_json()).map_err(js)
}
