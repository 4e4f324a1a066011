//! The `World`: particles, links, settings, and `step(dt)` as a named sequence of stages.

use glam::Vec3;

use crate::bodies::attach::Attachment;
use crate::bodies::{Bodies, BodyDef};
use crate::collide::Obstacle;
use crate::error::{self, Result, SimError};
use crate::ids::Id;
use crate::joints::{JointDef, Joints};
use crate::leash::{self, Leash, Wander};
use crate::limits;
use crate::links::{LinkDef, Links};
use crate::particles::{ParticleDef, Particles};
use crate::ropes::Ropes;
use crate::settings::table::{self, SettingValue};
use crate::settings::Settings;
use crate::settings::SolverKind;
use crate::solver::{self, Scratch, StepContext};
use crate::step::{Stage, StageTimes, StepOutputs, STAGES};
use crate::tangle::lifecycle::{TangleEvent, TangleState};
use crate::tangle::stage::TangleStage;
use crate::winch::Winch;

pub use crate::hold::Hold;

/// Something that happened during a step, queued for the page to read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Event {
    /// Link `link` (joining `a` and `b`) stretched past its tear threshold and was removed.
    LinkTorn { a: u32, b: u32, stretch: f32 },
    /// A tangle formed where rope `over` lies on rope `under` (fires once per tangle).
    TangleFormed { id: u32, over: u32, under: u32, point: Vec3 },
    /// A tangle started or stopped holding by friction (`Locked` / `Tight`).
    TangleStateChanged { id: u32, state: TangleState },
    /// A tangle came undone (fires once per tangle).
    TangleBroken { id: u32, over: u32, under: u32 },
    /// Leash scene: two dogs traded places; generator `gen` (signed index: +i = σᵢ, -i = σᵢ⁻¹)
    /// was appended to the braid; `dogs` were at positions i and i+1 before.
    DogsSwapped { gen: i8, dogs: [u32; 2] },
    /// Leash scene: the braid changed in a way dog swaps do not explain (re-derived).
    BraidResync,
    /// Joint `id` pulled harder than its break force (`force`, N) and was removed.
    JointBroken { id: u32, force: f32 },
}

/// At most this many events wait in the queue; older ones are dropped first.
pub const EVENT_QUEUE_CAP: usize = 1024;

#[derive(Clone, Debug, Default)]
pub struct World {
    pub particles: Particles,
    pub links: Links,
    pub settings: Settings,
    pub holds: Vec<Hold>,
    /// Static obstacles (PBD-family solvers collide with them).
    pub obstacles: Vec<Obstacle>,
    /// Rigid bodies.
    pub bodies: Bodies,
    /// Joints between bodies (or a body and the world).
    pub joints: Joints,
    /// Particles that are points of bodies (ropes hanging from bodies).
    pub attachments: Vec<Attachment>,
    /// Winches paying ropes out or reeling them in.
    pub winches: Vec<Winch>,
    /// Which particles form each rope (rope–rope contacts, tangles, braids).
    pub ropes: Ropes,
    /// The leash scene (hand, dogs, braid), if this world is one.
    pub leash: Option<Leash>,
    /// The dogs' random walk and the world's PRNG.
    pub wander: Wander,
    /// Tangles between ropes (lifecycle and events).
    pub tangles: TangleStage,
    pub events: Vec<Event>,
    /// Body contact begin/end events of every step since the last drain (for JS).
    pub contact_log: crate::contacts::ContactLog,
    /// Simulated time (s).
    pub time: f64,
    /// Number of completed `step` calls.
    pub steps: u64,
    /// Points and bodies whose state a step left NaN or infinite, put back at rest where
    /// they were by `keep_in_bounds` (a solver defect: the API fuzzer fails on any).
    pub non_finite_resets: u64,
    /// Length of the last substep (s); used to seed velocities of new particles.
    pub(crate) last_h: f32,
    pub(crate) scratch: Scratch,
    /// What the solver left for the stages after it and for reports.
    pub(crate) outputs: StepOutputs,
    /// Per-stage timers, when profiling is on.
    pub(crate) profile: Option<StageTimes>,
}

/// Parameters of the step being run, handed from stage to stage.
#[derive(Clone, Copy, Debug)]
struct StepState {
    dt: f32,
    h: f32,
    substeps: u32,
    /// The substep being run (per-substep stages).
    substep: u32,
    /// A link tore in this step's `tearing` stage.
    torn: bool,
}

impl World {
    /// FNV-1a over every particle position, then every body's position and rotation: the
    /// state hash of the determinism table, the golden trajectories and recordings' checks.
    pub fn state_hash(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let bodies =
            self.bodies.pos.iter().zip(&self.bodies.rot).flat_map(|(p, q)| [p.x, p.y, p.z, q.x, q.y, q.z, q.w]);
        for v in self.particles.pos.iter().flat_map(|p| [p.x, p.y, p.z]).chain(bodies) {
            for b in v.to_bits().to_le_bytes() {
                h ^= b as u64;
                h = h.wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
        h
    }

    pub fn new(settings: Settings) -> Self {
        Self { settings, last_h: 1.0 / 60.0, ropes: Ropes::new(), ..Default::default() }
    }

    /// Brings the rope metadata up to date with the links (cuts ropes whose links are gone)
    /// and re-checks the leash. Called by `step` and by edits; cheap when nothing changed.
    pub fn sync_ropes(&mut self) {
        if self.ropes.is_empty() && self.leash.is_none() {
            return;
        }
        self.ropes.sync(&self.particles, &self.links);
        if let Some(l) = &mut self.leash {
            l.revalidate(&self.ropes);
        }
    }

    /// How many 1/60 s frames a step of `dt` runs: a scene is set up (substeps, iterations,
    /// compliance, contact springs) for 1/60 s steps, and a longer step is ⌈60·dt⌉ frames of
    /// dt/⌈60·dt⌉, each a whole step (collision, substeps, tangles, guards). A step whose
    /// frames would pass half the work budget (`limits::MAX_WORK` / 2 over one frame's
    /// [`limits::work`]) is refused, naming the longest `dt` this scene takes: with longer
    /// substeps it would not be the scene it was set up to be. (The fuzzer's plank bridge
    /// after `step(1)`: 8 substeps of 1/8 s spun its planks to the speed cap and the next
    /// step went NaN. Measured on every preset, 20 pairs of a long step and a 1/60 s one,
    /// without the split: the capstan ran away at steps of 1/15 s, the drum at 0.1 s, the
    /// Atwood machine and the plank bridge at 0.2 s; with it none did. Letting the substeps
    /// grow past the budget instead was measured too: the held ragdoll under `impulse` went
    /// NaN at `step(1)` in 17 frames' substeps.) Half the budget, kept from when a long step had
    /// one collision pass over boxes fattened by the whole `dt` (the plank bridge's `step(1)`
    /// then took 78 ms at the full budget): a margin for the work model's fit.
    pub fn frames_in(&self, dt: f32) -> Result<u32> {
        // (1e-3: a dt of 1/60 s rounded up in f32 is one frame.)
        let want = (dt * 60.0 - 1e-3).ceil().max(1.0) as u32;
        if want == 1 {
            return Ok(1);
        }
        let per_frame = limits::work(&self.load()).max(1);
        let afford = (limits::MAX_WORK / 2 / per_frame).min(u32::MAX as u64) as u32;
        if want > afford {
            return Err(SimError::Invalid(format!(
                "dt = {} s is too long for this scene: a step longer than 1/60 s runs its substeps as short as at \
                 60 Hz, and {want} frames of them would pass the work budget that keeps one step under {} ms; \
                 step by at most {} s, or use advance() for longer spans",
                crate::num::Num32(dt),
                crate::num::Num(limits::MAX_STEP_MS),
                crate::num::Num32(afford.max(1) as f32 / 60.0)
            )));
        }
        Ok(want)
    }

    /// What this world asks of one step (the counts and settings `limits::work` weighs).
    // (Not inlined: every edit's limit check calls it, and the planar count's loop would be
    // copied into each.)
    #[inline(never)]
    pub fn load(&self) -> limits::Load {
        limits::Load {
            points: self.particles.len(),
            links: self.links.len(),
            bodies: self.bodies.len(),
            planar_bodies: self.bodies.planar.iter().filter(|&&p| p).count(),
            joints: self.joints.len(),
            obstacles: self.obstacles.len(),
            substeps: self.settings.substeps,
            iterations: self.settings.iterations,
            rope_collisions: self.settings.rope_collisions,
        }
    }

    /// `Err` (a clear message, nothing changed) when the world grown by `grow` would pass a
    /// cap of [`limits`] or the per-step work budget.
    pub fn check_limits(&self, grow: impl FnOnce(&mut limits::Load)) -> Result<()> {
        let mut l = self.load();
        grow(&mut l);
        limits::check(&l).map_err(SimError::Invalid)
    }

    /// Adds a particle after validating it.
    pub fn add_particle(&mut self, def: &ParticleDef) -> Result<usize> {
        check_vec("position", def.pos)?;
        check_vec("velocity", def.vel)?;
        error::finite("mass", def.mass)?;
        if def.mass < crate::limits::MIN_MASS {
            return Err(SimError::OutOfRange { what: "mass", value: def.mass as f64, range: "mass ≥ 1e-6 kg" });
        }
        error::finite("radius", def.radius)?;
        if !(0.0..=limits::MAX_POINT_RADIUS).contains(&def.radius) {
            return Err(SimError::OutOfRange {
                what: "radius", value: def.radius as f64, range: "0 ≤ radius ≤ 10 m"
            });
        }
        self.check_limits(|l| l.points += 1)?;
        Ok(self.particles.push(def, self.last_h))
    }

    /// Adds a link after validating it; a `None` rest length takes the current distance.
    pub fn add_link(&mut self, def: &LinkDef) -> Result<usize> {
        let n = self.particles.len();
        let a = error::index("point", def.a as i64, n)?;
        let b = error::index("point", def.b as i64, n)?;
        if a == b {
            return Err(SimError::Invalid(format!("cannot link point {a} to itself")));
        }
        error::in_range("give", def.give, 0.0, 0.999_999, "0 ≤ give < 1")?;
        error::finite("compliance", def.compliance)?;
        if def.compliance < 0.0 {
            return Err(SimError::OutOfRange {
                what: "compliance",
                value: def.compliance as f64,
                range: "compliance ≥ 0 m/N",
            });
        }
        if let Some(t) = def.tear_stretch {
            error::finite("tear stretch", t)?;
            if t <= 0.0 {
                return Err(SimError::OutOfRange { what: "tear stretch", value: t as f64, range: "> 0" });
            }
        }
        let rest = match def.rest {
            Some(r) => {
                error::finite("rest length", r)?;
                if r < limits::MIN_REST {
                    return Err(SimError::OutOfRange { what: "rest length", value: r as f64, range: "≥ 1e-6 m" });
                }
                r
            }
            None => {
                let d = self.particles.pos[a].distance(self.particles.pos[b]);
                if d <= limits::MIN_REST {
                    return Err(SimError::Invalid(format!(
                        "points {a} and {b} coincide; give the link an explicit rest length"
                    )));
                }
                d
            }
        };
        self.check_limits(|l| l.links += 1)?;
        Ok(self.links.push(def, rest))
    }

    /// Advances the world by exactly `dt` seconds, running the stages of
    /// [`crate::step::STAGES`] in order (the per-substep block once per substep).
    pub fn step(&mut self, dt: f32) -> Result<()> {
        error::time_step(dt)?;
        let frames = self.frames_in(dt)?;
        // The page draws bodies interpolated from this pose to the step's end.
        self.bodies.prev_pos.clone_from(&self.bodies.pos);
        self.bodies.prev_rot.clone_from(&self.bodies.rot);
        // A step longer than 1/60 s is that many whole 60 Hz frames, each with its own
        // collision pass, tangle update and end-of-step guards (not one pass of each around
        // the frames' substeps: the fuzzer's crane after `step(1)` ran 240 substeps on one
        // step's contact manifolds, spun its hook against them to 1e20 m/s and went NaN).
        let frame_dt = dt / frames as f32;
        for _ in 0..frames {
            self.frame(frame_dt);
        }
        if let Some(p) = &mut self.profile {
            p.steps += 1;
        }
        self.time += dt as f64;
        self.steps += 1;
        Ok(())
    }

    /// One frame of [`World::step`]: the stages in order, substeps where they repeat.
    fn frame(&mut self, dt: f32) {
        let substeps = self.settings.substeps.max(1);
        let h = dt / substeps as f32;
        let mut st = StepState { dt, h, substeps, substep: 0, torn: false };
        let mut k = 0;
        while k < STAGES.len() {
            if STAGES[k].per_substep() {
                let end = k + STAGES[k..].iter().take_while(|s| s.per_substep()).count();
                for s in 0..substeps {
                    st.substep = s;
                    for &stage in &STAGES[k..end] {
                        self.run_timed(stage, &mut st);
                    }
                }
                k = end;
            } else {
                self.run_timed(STAGES[k], &mut st);
                k += 1;
            }
        }
        // The frame's contact events, with the impulses the new pairs took, into the log.
        if crate::FULL && self.settings.solver != SolverKind::Classic {
            let c = &mut self.scratch.contacts;
            c.finish_impacts(&mut self.bodies);
            c.finish_step();
            if !(c.begin.is_empty() && c.end.is_empty()) {
                self.contact_log.record(&c.begin, &c.end);
            }
        }
        self.cap_held_speeds();
        self.keep_in_bounds(h);
        self.last_h = h;
    }

    /// Held points (and the flings their holds remember) leave the step no faster than
    /// [`limits::MAX_THROW_SPEED`]: their positions are the pointers', their velocities are
    /// what a release or an export hands on. (`prev` is left alone: the rope–rope swept test
    /// read the substeps' motion already, and every solver starts a step from `vel`.)
    fn cap_held_speeds(&mut self) {
        let cap = limits::MAX_THROW_SPEED;
        for hold in &mut self.holds {
            hold.vel = hold.vel.clamp_length_max(cap);
            if let Some(v) = self.particles.vel.get_mut(hold.particle as usize) {
                *v = v.clamp_length_max(cap);
            }
        }
    }

    /// The step's last act: a point or body past [`limits::MAX_COORD`] stops at it, and
    /// speeds past [`limits::MAX_SPEED`] are capped (Box2D's `maxLinearSpeed`), so a violent
    /// step (a huge `dt`, a removed anchor) cannot run away to infinity and NaN, and every
    /// state exports a scene that loads. One branch per point when nothing is out of range,
    /// so trajectories that stay in range are bit-identical.
    fn keep_in_bounds(&mut self, h: f32) {
        let (m, v) = (limits::MAX_COORD, limits::MAX_SPEED);
        let p = &mut self.particles;
        for i in 0..p.pos.len() {
            let (x, u) = (p.pos[i], p.vel[i]);
            // (NaN fails the comparisons too, and is reset.)
            if !(x.abs().max_element() <= m && u.abs().max_element() <= v) {
                self.non_finite_resets += !(x.is_finite() && u.is_finite()) as u64;
                let x = if x.is_finite() { x.clamp(Vec3::splat(-m), Vec3::splat(m)) } else { p.prev[i] };
                let x = if x.is_finite() { x.clamp(Vec3::splat(-m), Vec3::splat(m)) } else { Vec3::ZERO };
                let u = if u.is_finite() { u.clamp(Vec3::splat(-v), Vec3::splat(v)) } else { Vec3::ZERO };
                p.pos[i] = x;
                p.vel[i] = u;
                p.prev[i] = x - u * h;
            }
        }
        if !crate::FULL {
            return;
        }
        let b = &mut self.bodies;
        // First a scan without branches (W4's bodies spent 2 % of the step here); the loop
        // below only when some body is out of range or not finite (NaN fails `<=`).
        let within = |a: Vec3, lim: f32| (a.x.abs() <= lim) & (a.y.abs() <= lim) & (a.z.abs() <= lim);
        let finite = |q: glam::Quat| {
            let inf = f32::INFINITY;
            (q.x.abs() < inf) & (q.y.abs() < inf) & (q.z.abs() < inf) & (q.w.abs() < inf)
        };
        let mut all = true;
        for i in 0..b.pos.len().min(b.vel.len()).min(b.ang_vel.len()).min(b.rot.len()) {
            all &= within(b.pos[i], m) & within(b.vel[i], v) & within(b.ang_vel[i], v) & finite(b.rot[i]);
        }
        if all {
            return;
        }
        for i in 0..b.pos.len() {
            let (x, u, w) = (b.pos[i], b.vel[i], b.ang_vel[i]);
            let ok = x.abs().max_element() <= m && u.abs().max_element() <= v && w.abs().max_element() <= v;
            if !ok || !b.rot[i].is_finite() {
                self.non_finite_resets +=
                    !(x.is_finite() && u.is_finite() && w.is_finite() && b.rot[i].is_finite()) as u64;
                let fix = |a: Vec3, lim: f32, or: Vec3| {
                    if a.is_finite() {
                        a.clamp(Vec3::splat(-lim), Vec3::splat(lim))
                    } else {
                        or
                    }
                };
                let back = fix(b.prev_pos[i], m, Vec3::ZERO);
                b.pos[i] = fix(x, m, back);
                b.vel[i] = fix(u, v, Vec3::ZERO);
                b.ang_vel[i] = fix(w, v, Vec3::ZERO);
                if !b.rot[i].is_finite() {
                    b.rot[i] = if b.prev_rot[i].is_finite() { b.prev_rot[i] } else { glam::Quat::IDENTITY };
                }
            }
        }
    }

    #[inline]
    fn run_timed(&mut self, stage: Stage, st: &mut StepState) {
        match self.profile.as_ref().map(|p| p.now) {
            None => self.run_stage(stage, st),
            Some(now) => {
                let t0 = now();
                self.run_stage(stage, st);
                let t1 = now();
                if let Some(p) = &mut self.profile {
                    p.total_ms[stage.index()] += t1 - t0;
                }
            }
        }
    }

    /// The impulse solver's rows' impulses as the next step's `prepare` stage will leave
    /// them. A step can change what the rows' layout depends on (an attached particle's
    /// inverse mass follows its body), and the next `prepare` then lays the rows out anew,
    /// keeping only the links' and the joints' impulses; an export carries what that step
    /// will start from, found by running the stages up to `prepare` on a copy.
    pub(crate) fn rows_at_next_prepare(&self) -> Vec<f32> {
        let mut w = self.clone();
        let substeps = w.settings.substeps.max(1);
        let dt = 1.0 / 60.0;
        let mut st = StepState { dt, h: dt / substeps as f32, substeps, substep: 0, torn: false };
        for &stage in &STAGES[..=STAGES.iter().position(|&s| s == Stage::Prepare).unwrap_or(0)] {
            w.run_stage(stage, &mut st);
        }
        w.scratch.rows.warm_rows()
    }

    /// Runs one stage of the step.
    fn run_stage(&mut self, stage: Stage, st: &mut StepState) {
        match stage {
            Stage::Ropes => self.sync_ropes(),
            Stage::Wander => self.stage_wander(st.dt),
            Stage::Winches => {
                // Per substep, so the length changes smoothly (a once-a-step jump is an
                // impulse the solvers would have to absorb); the links are repacked.
                let World { winches, ropes, links, outputs, .. } = self;
                let mut changed = false;
                for w in winches.iter() {
                    changed |= w.step(ropes, links, &outputs.link_force, st.h);
                }
                if changed {
                    solver::prepare(&mut self.step_context(st));
                }
            }
            Stage::HoldMasses => self.stage_hold_masses(),
            Stage::Prepare => solver::prepare(&mut self.step_context(st)),
            // The bodies' contacts, once per step (the substeps re-measure their separations).
            Stage::Collide => {
                // (The lite build has no bodies: the same as `collide` with none.)
                if !crate::FULL || self.settings.solver == SolverKind::Classic {
                    self.scratch.contacts.rope.clear();
                } else {
                    let np = self.particles.len();
                    let rope = crate::contacts::RopeInput {
                        pos: &self.particles.pos,
                        vel: &self.particles.vel,
                        ropes: &self.ropes,
                        attach: &self.attachments,
                        gravity: self.settings.gravity.length(),
                    };
                    let Scratch { contacts, broad, .. } = &mut self.scratch;
                    contacts.collide(broad, &self.bodies, &self.joints, np, st.dt, Some(rope));
                    contacts.impacts(&mut self.bodies, self.settings.gravity, st.dt);
                }
            }
            Stage::Holds => self.stage_holds(st.h, st.substep, st.substeps),
            Stage::Integrate => solver::integrate(&mut self.step_context(st)),
            Stage::BroadPhase => solver::broad_phase(&mut self.step_context(st)),
            Stage::Solve => solver::solve(&mut self.step_context(st)),
            Stage::Velocities => solver::velocities(&mut self.step_context(st)),
            Stage::Forces => solver::forces(&mut self.step_context(st)),
            Stage::Tearing => {
                let version = self.links.version;
                self.stage_breaking();
                self.stage_tearing();
                st.torn = self.links.version != version;
            }
            // (After a tear the contact pairs name stale links: skip one step.)
            Stage::Tangles if !st.torn => self.stage_tangles(st.h),
            Stage::Tangles => {}
            Stage::Braid => self.stage_braid(),
        }
    }

    /// The solver's view of this world for one stage.
    fn step_context(&mut self, st: &StepState) -> StepContext<'_> {
        let World {
            particles,
            links,
            settings,
            holds,
            obstacles,
            ropes,
            leash,
            scratch,
            outputs,
            steps,
            bodies,
            joints,
            attachments,
            ..
        } = self;
        let dogs = leash.as_ref().map_or(&[][..], |l| &l.dogs[..]);
        StepContext {
            particles,
            links,
            settings,
            holds,
            obstacles,
            ropes,
            dogs,
            bodies,
            joints,
            attach: attachments,
            scratch,
            out: outputs,
            h: st.h,
            step: *steps,
            last_substep: st.substep + 1 == st.substeps,
        }
    }

    /// Turns the per-stage timers on (with this clock, in milliseconds) or off. Off costs
    /// nothing; on, two clock reads per stage.
    pub fn set_profiler(&mut self, now: Option<fn() -> f64>) {
        self.profile = now.map(StageTimes::new);
    }

    /// The per-stage timers, if profiling is on.
    pub fn stage_times(&self) -> Option<&StageTimes> {
        self.profile.as_ref()
    }

    /// Starts the per-stage timers again from zero.
    pub fn reset_stage_times(&mut self) {
        if let Some(p) = &mut self.profile {
            p.reset();
        }
    }

    /// Stage: dogs wander (random acceleration, damping), see [`crate::leash`].
    fn stage_wander(&mut self, dt: f32) {
        if let Some(l) = &mut self.leash {
            leash::wander(&mut l.dogs, &mut self.wander, &self.particles.pos, &self.particles.inv_mass, dt);
        }
    }

    /// Stage: tangles from this step's rope–rope contacts (see [`crate::tangle::stage`]).
    fn stage_tangles(&mut self, h: f32) {
        if !self.settings.rope_collisions || self.settings.solver == SolverKind::Classic {
            return;
        }
        let World { tangles, ropes, particles, links, outputs, settings, events, leash, .. } = self;
        let dogs = leash.as_ref().filter(|l| l.valid).map_or(&[][..], |l| &l.dogs[..]);
        let ev = tangles.update(ropes, particles, links, outputs, settings, dogs, h);
        for e in ev {
            let e = match *e {
                TangleEvent::Formed { id, over, under, point } => Event::TangleFormed { id, over, under, point },
                TangleEvent::StateChanged { id, state } => Event::TangleStateChanged { id, state },
                TangleEvent::Broken { id, over, under } => Event::TangleBroken { id, over, under },
            };
            push_event(events, e);
        }
    }

    /// Stage: the leash braid, re-read from the positions.
    fn stage_braid(&mut self) {
        let World { leash, particles, ropes, events, .. } = self;
        if let Some(l) = leash {
            for e in l.update_braid(&particles.pos, ropes) {
                let e = match *e {
                    crate::tangle::crossings::BraidEvent::DogsSwapped { gen, dogs } => {
                        Event::DogsSwapped { gen: gen.signed(), dogs }
                    }
                    crate::tangle::crossings::BraidEvent::Resync => Event::BraidResync,
                };
                push_event(events, e);
            }
        }
    }

    /// Stage: held particles are kinematic (inverse mass 0), or — with a soft mouse
    /// (`drag_compliance > 0`, PBD-family solvers) — keep their mass and are pulled to the
    /// pointer by a compliant pin.
    fn stage_hold_masses(&mut self) {
        let soft = solver::soft_holds(&self.settings);
        for hold in &self.holds {
            let i = hold.particle as usize;
            if i >= self.particles.len() {
                continue;
            }
            let p = &mut self.particles;
            let w = if soft && !p.locked[i] && p.mass[i] > 0.0 { 1.0 / p.mass[i] } else { 0.0 };
            p.set_inv_mass(i, w);
        }
    }

    /// Stage: held particles follow their pointers; pointer velocity is estimated in
    /// simulated time so that a release keeps the fling. A kinematic hold moves its particle
    /// from where it was at the start of the step to the target in equal parts over the
    /// `substeps` substeps (this is substep `s`), so every substep's motion is short and
    /// linear (what the rope–rope swept test assumes).
    fn stage_holds(&mut self, h: f32, s: u32, substeps: u32) {
        let soft = solver::soft_holds(&self.settings);
        for hold in &mut self.holds {
            if s == 0 {
                hold.step_from = hold.last_target;
            }
            hold.since_move += h;
            if hold.target != hold.last_target {
                let sample = (hold.target - hold.last_target) / hold.since_move;
                hold.vel = 0.5 * (hold.vel + sample);
                hold.last_target = hold.target;
                hold.since_move = 0.0;
            } else if hold.since_move > 0.05 {
                // The pointer has rested for 50 ms: it is holding still.
                hold.vel = Vec3::ZERO;
            }
            let i = hold.particle as usize;
            if soft || i >= self.particles.len() {
                continue; // the solver's mouse constraint pulls it
            }
            let (f0, f1) = (s as f32 / substeps as f32, (s + 1) as f32 / substeps as f32);
            let (from, to) = (hold.step_from, hold.target);
            if from == to {
                self.particles.pos[i] = to;
                self.particles.prev[i] = to - hold.vel * h;
                self.particles.vel[i] = hold.vel;
            } else {
                let (p0, p1) = (from.lerp(to, f0), if s + 1 == substeps { to } else { from.lerp(to, f1) });
                self.particles.pos[i] = p1;
                self.particles.prev[i] = p0;
                self.particles.vel[i] = (p1 - p0) / h;
            }
        }
    }

    /// Stage (with tearing): joints pulled past their break force are removed, an event each.
    fn stage_breaking(&mut self) {
        let j = &self.joints;
        if !crate::FULL || !j.break_force.iter().any(|f| f.is_finite()) {
            return;
        }
        let broken: Vec<(Id, f32)> = (0..j.len())
            .filter(|&k| j.force[k].length() > j.break_force[k])
            .map(|k| (j.id[k], j.force[k].length()))
            .collect();
        for (id, force) in broken {
            let _ = self.joints.remove(id);
            self.push_event(Event::JointBroken { id: id.0, force });
        }
    }

    /// Adds a rigid body (validated first; nothing changes on error).
    pub fn add_body(&mut self, def: &BodyDef) -> Result<Id> {
        if !crate::FULL {
            return Err(SimError::Invalid(crate::not_in_lite("a rigid body")));
        }
        self.check_limits(|l| {
            l.bodies += 1;
            l.planar_bodies += def.planar as usize;
        })?;
        self.bodies.add(def)
    }

    /// Removes a body, its joints and the attachments of particles to it (they become
    /// free particles again with their own mass).
    pub fn remove_body(&mut self, id: Id) -> Result<()> {
        self.bodies.index(id)?;
        self.joints.remove_body(id);
        let freed: Vec<u32> = self.attachments.iter().filter(|a| a.body == id).map(|a| a.particle).collect();
        self.attachments.retain(|a| a.body != id);
        for i in freed {
            if (i as usize) < self.particles.len() {
                self.particles.refresh_inv_mass(i as usize);
            }
        }
        self.bodies.remove(id)?;
        Ok(())
    }

    /// Adds a joint (validated against the bodies first; nothing changes on error).
    pub fn add_joint(&mut self, def: &JointDef) -> Result<Id> {
        if !crate::FULL {
            return Err(SimError::Invalid(crate::not_in_lite("a joint")));
        }
        self.check_limits(|l| l.joints += 1)?;
        self.joints.add(def, &self.bodies)
    }

    pub fn remove_joint(&mut self, id: Id) -> Result<()> {
        self.joints.remove(id)
    }

    /// Makes particle `particle` the point of body `body` where it is now (it moves with the
    /// body and has no mass of its own until detached; see `bodies::attach`).
    pub fn attach(&mut self, particle: usize, body: Id) -> Result<()> {
        if !crate::FULL {
            return Err(SimError::Invalid(crate::not_in_lite("attaching a point to a body")));
        }
        let i = error::index("point", particle as i64, self.particles.len())?;
        let k = self.bodies.index(body)?;
        if self.attachments.iter().any(|a| a.particle as usize == i) {
            return Err(SimError::Invalid(format!("point {i} is already attached to a body")));
        }
        if self.particles.locked[i] {
            return Err(SimError::Invalid(format!("point {i} is locked; unlock it before attaching it to a body")));
        }
        let local = self.bodies.rot[k].inverse() * (self.particles.pos[i] - self.bodies.pos[k]);
        let was_supported = self.settings.solver.supports(self).is_ok();
        self.attachments.push(Attachment { particle: i as u32, body, local });
        // The point now weighs what the body does there: the solver must still run the
        // scene (Jacobi and classic refuse some mixes), or the attachment is undone.
        // (A world the solver already cannot run, built natively, is not guarded.)
        let now = if was_supported { self.settings.solver.supports(self) } else { Ok(()) };
        if let Err(why) = now {
            self.attachments.pop();
            return Err(SimError::Invalid(format!(
                "{} cannot run this with the point attached: {why}",
                self.settings.solver.name()
            )));
        }
        Ok(())
    }

    /// The bodies' contacts of the last step (patches, begin and end events).
    pub fn contacts(&self) -> &crate::contacts::Contacts {
        &self.scratch.contacts
    }

    /// Puts a winch on rope `rope` (stable id): `speed` m/s (negative reels in), reeling in
    /// against at most `max_force` N. Returns its index.
    pub fn add_winch(&mut self, rope: Id, speed: f32, max_force: f32) -> Result<usize> {
        self.sync_ropes();
        if self.winches.len() >= limits::MAX_WINCHES {
            return Err(SimError::Invalid(format!("too many winches (at most {})", limits::MAX_WINCHES)));
        }
        let w = Winch::new(&self.ropes, &self.links, rope, speed, max_force)?;
        self.winches.push(w);
        Ok(self.winches.len() - 1)
    }

    /// Changes winch `i`'s speed (m/s).
    pub fn set_winch_speed(&mut self, i: usize, speed: f32) -> Result<()> {
        let i = error::index("winch", i as i64, self.winches.len())?;
        Winch::check(speed, self.winches[i].max_force)?;
        self.winches[i].speed = speed;
        Ok(())
    }

    /// Frees an attached particle (it keeps its own mass again).
    pub fn detach(&mut self, particle: usize) -> Result<()> {
        let n = self.attachments.len();
        self.attachments.retain(|a| a.particle as usize != particle);
        if self.attachments.len() == n {
            return Err(SimError::Invalid(format!("point {particle} is not attached to a body")));
        }
        self.particles.refresh_inv_mass(particle);
        Ok(())
    }

    /// Stage: remove links stretched past their tear threshold or pulled past their tear
    /// force (tension over the last substep), queueing an event each.
    fn stage_tearing(&mut self) {
        let links = &self.links;
        let pos = &self.particles.pos;
        let force = &self.outputs.link_force;
        // Most worlds have no thresholds at all: a quick scan (vectorised) skips the rest.
        if !links.tear_stretch.iter().chain(&links.tear_force).any(|t| t.is_finite()) {
            return;
        }
        let tears = |k: usize| {
            (links.tear_stretch[k].is_finite() && stretch_of(pos, links.ends[k], links.rest[k]) > links.tear_stretch[k])
                || (links.tear_force[k].is_finite() && force.get(k).is_some_and(|&f| f > links.tear_force[k]))
        };
        if !(0..links.len()).any(tears) {
            return;
        }
        let mut torn = Vec::new();
        let keep: Vec<bool> = (0..links.len())
            .map(|k| {
                let s = stretch_of(pos, links.ends[k], links.rest[k]);
                let tear = tears(k);
                if tear {
                    torn.push(Event::LinkTorn { a: links.ends[k][0], b: links.ends[k][1], stretch: s });
                }
                !tear
            })
            .collect();
        self.links.retain_flags(&keep);
        for e in torn {
            self.push_event(e);
        }
    }

    pub fn push_event(&mut self, e: Event) {
        push_event(&mut self.events, e);
    }

    /// Takes every queued event, oldest first (the queue keeps its memory).
    pub fn drain_events(&mut self) -> Vec<Event> {
        self.events.drain(..).collect()
    }

    /// Largest relative stretch `|d - L| / L` over all distance links (rope links count only
    /// when taut, i.e. longer than rest).
    /// Newton passes the exact solver has run on its body forest (`solver::exact::body_tree`).
    pub fn body_tree_passes(&self) -> u64 {
        self.scratch.body_tree.passes
    }

    /// Per joint, whether the exact solver solved it directly in the last step (a
    /// ball-socket in its body forest) rather than as impulse rows; all false under the
    /// other solvers.
    pub fn direct_body_joint_flags(&self) -> Vec<bool> {
        let direct = &self.scratch.body_tree.direct;
        (0..self.joints.len())
            .map(|k| self.settings.solver == SolverKind::Exact && direct.get(k).copied().unwrap_or(false))
            .collect()
    }

    /// How many joints the exact solver solved directly in the last step.
    pub fn direct_body_joints(&self) -> usize {
        self.direct_body_joint_flags().iter().filter(|&&d| d).count()
    }

    pub fn max_stretch(&self) -> f32 {
        let mut m = 0.0f32;
        for k in 0..self.links.len() {
            let [a, b] = self.links.ends[k];
            let d = self.particles.pos[a as usize].distance_squared(self.particles.pos[b as usize]).sqrt();
            let rest = self.links.rest[k];
            let s = if self.links.kind[k] == crate::links::LinkKind::Rope {
                ((d - rest) / rest).max(0.0)
            } else {
                ((d - rest) / rest).abs()
            };
            m = m.max(s);
        }
        m
    }

    /// Tension of link `k` over the last substep of the last step, in newtons (positive
    /// when pulling; 0 for the classic solver, which has no multipliers, and before the
    /// first step).
    pub fn link_force(&self, k: usize) -> f32 {
        self.outputs.link_force.get(k).copied().unwrap_or(0.0)
    }

    /// The rope–rope contacts of the last substep: candidate segment pairs (indices into
    /// `ropes.segs()`) and their accumulated multipliers.
    pub fn rope_contacts(&self) -> &crate::collide::RopeContacts {
        &self.outputs.rope
    }

    /// The one broad phase (`collide::broad`): the bodies' and rope segments' boxes in one
    /// sorted list, as the last pass over it left them.
    pub fn broad_phase(&self) -> &crate::collide::BroadPhase {
        &self.scratch.broad
    }

    /// Tensions of all links (N), as [`World::link_force`]; empty before the first step.
    pub fn link_forces(&self) -> &[f32] {
        if self.outputs.link_force.len() == self.links.len() {
            &self.outputs.link_force
        } else {
            &[]
        }
    }

    /// Adds a static obstacle after validating it; returns its index.
    pub fn add_obstacle(&mut self, obstacle: &Obstacle) -> Result<usize> {
        let o =
            obstacle.validated().map_err(|(field, reason)| SimError::Invalid(format!("obstacle {field}: {reason}")))?;
        self.check_limits(|l| l.obstacles += 1)?;
        self.obstacles.push(o);
        Ok(self.obstacles.len() - 1)
    }

    /// Pins particle `index` to the world point `target` with `compliance` (m/N, 0 =
    /// rigid). A pinned particle keeps its mass: it is pulled to the target by the
    /// PBD-family solvers (a hanging mass m sags m·g·compliance below it).
    pub fn pin(&mut self, index: i64, target: Vec3, compliance: f32) -> Result<()> {
        let i = error::index("point", index, self.particles.len())?;
        check_vec("pin target", target)?;
        // (A compliance of 3.4e38 m/N made the pin's row NaN: 1e6 m/N is already no pull.)
        error::in_range("pin compliance", compliance, f32::NEG_INFINITY, 1e6, "0 ≤ compliance ≤ 1e6 m/N")?;
        if self.settings.solver == SolverKind::Classic {
            return Err(SimError::Invalid(
                "the classic solver (the 002 seed's) has no pins: lock the point, or choose another solver".into(),
            ));
        }
        if compliance < 0.0 {
            return Err(SimError::OutOfRange {
                what: "pin compliance",
                value: compliance as f64,
                range: "compliance ≥ 0 m/N",
            });
        }
        self.particles.pin_target[i] = target;
        self.particles.pin_compliance[i] = compliance;
        self.particles.version += 1;
        Ok(())
    }

    /// Removes particle `index`'s pin; returns whether it had one.
    pub fn unpin(&mut self, index: i64) -> Result<bool> {
        let i = error::index("point", index, self.particles.len())?;
        let had = self.particles.is_pinned(i);
        self.particles.pin_compliance[i] = f32::INFINITY;
        self.particles.version += 1;
        Ok(had)
    }

    /// Sets settings from `(name, value)` pairs (scene keys or JS names, see
    /// [`crate::settings::table`]), all or nothing: every value is checked against the
    /// table, and the current solver must be able to run the result. Setting `give` also
    /// sets every link's give (as the seed's slider does).
    pub fn set_settings<'k>(&mut self, patch: impl IntoIterator<Item = (&'k str, SettingValue)>) -> Result<()> {
        let mut next = self.settings.clone();
        let (mut give, mut solver) = (false, false);
        for (name, v) in patch {
            let t = table::find(name).ok_or_else(|| {
                let known: Vec<String> = table::SETTINGS.iter().map(|t| t.js_name()).collect();
                SimError::Invalid(format!(
                    "unknown setting {} (known: {})",
                    crate::error::quoted(name),
                    known.join(", ")
                ))
            })?;
            t.set(&mut next, &v).map_err(|reason| SimError::Setting { key: t.js_name(), reason })?;
            give |= t.key == "give";
            solver |= t.key == "solver";
        }
        let load = limits::Load {
            substeps: next.substeps,
            iterations: next.iterations,
            rope_collisions: next.rope_collisions,
            ..self.load()
        };
        limits::check(&load).map_err(SimError::Invalid)?;
        let before = std::mem::replace(&mut self.settings, next);
        let kind = self.settings.solver;
        if let Err(why) = kind.supports(self) {
            self.settings = before;
            let what = if solver { "this scene" } else { "this" };
            return Err(SimError::Invalid(format!("{} cannot run {what}: {why}", kind.name())));
        }
        if give {
            self.links.set_give_all(self.settings.give);
        }
        Ok(())
    }

    /// Sets one setting (see [`World::set_settings`]).
    pub fn set_setting(&mut self, name: &str, value: SettingValue) -> Result<()> {
        self.set_settings([(name, value)])
    }

    /// Kinetic plus gravitational potential energy (J) of everything that moves: the free
    /// particles (½ m v² − m g·x each) and the dynamic bodies (½ m v² + ½ ωᵀ I ω with the
    /// world-frame inertia, − m g·x at the centre of mass, g times the body's gravity
    /// scale). Not counted: locked particles and kinematic or static bodies (nothing does
    /// work on them), the links' stretch, and **attached particles**: a particle that is a
    /// point of a body has no mass of its own while attached (`bodies::attach`: the solvers
    /// move it with the body's mass and inertia, and its own mass only comes back when it is
    /// detached), so its motion is already the body's motion and counting its mass as well
    /// would count that point twice with a mass the simulation does not use.
    pub fn energy(&self) -> f64 {
        self.particle_energy(self.settings.gravity) + self.body_energy(self.settings.gravity)
    }

    /// Kinetic energy alone (J): [`World::energy`] without gravity.
    pub fn kinetic_energy(&self) -> f64 {
        self.particle_energy(Vec3::ZERO) + self.body_energy(Vec3::ZERO)
    }

    /// The particles' part of [`World::energy`] for gravity `g` (attached ones left out).
    fn particle_energy(&self, g: Vec3) -> f64 {
        let p = &self.particles;
        let mut e = p.energy(g);
        // Few particles are attached: taking them back out is cheaper than a mask.
        for a in &self.attachments {
            let i = a.particle as usize;
            if i < p.len() && !p.locked[i] {
                e -= p.energy_of(i, g);
            }
        }
        e
    }

    /// The dynamic bodies' part of [`World::energy`] for gravity `g`.
    fn body_energy(&self, g: Vec3) -> f64 {
        let b = &self.bodies;
        let mut e = 0.0f64;
        for i in 0..b.len() {
            if b.kind[i] != crate::bodies::BodyKind::Dynamic {
                continue;
            }
            let m = b.mass[i] as f64;
            let v = b.vel[i].as_dvec3();
            // ωᵀ I ω in the body frame, where I is diagonal: the same as with R I Rᵀ.
            let w = (b.rot[i].inverse() * b.ang_vel[i]).as_dvec3();
            let inertia = b.inertia[i].as_dvec3();
            let g = (g * b.gravity_scale[i]).as_dvec3();
            e += 0.5 * m * v.length_squared() + 0.5 * (inertia * w).dot(w) - m * g.dot(b.pos[i].as_dvec3());
        }
        e
    }
}

/// What a solver can run depends on the world, so it is answered here (the kind itself is a
/// setting, the algorithms live in `solver`).
impl SolverKind {
    /// Whether this solver can run `world` correctly; `Err` says what it lacks.
    ///
    /// Only the classic solver has limits: it is the 002 seed's algorithm, which has no
    /// rope–rope contacts, pins or dogs, and ignores mass unless `mass_weighted` (so a scene
    /// whose points weigh differently, like the capstan's load and hold, needs that on).
    /// Every preset under every solver it supports is tested in `tests/preset_solvers.rs`.
    pub fn supports(self, world: &World) -> Result<(), String> {
        if !crate::FULL && self == SolverKind::Impulse {
            return Err(crate::not_in_lite("the impulse solver"));
        }
        if matches!(self, SolverKind::Pbd | SolverKind::Jacobi | SolverKind::Xpbd | SolverKind::Exact) {
            // The position-based family moves an attached body through one proxy particle per
            // attached point (`bodies::attach`); past two per body the proxies' corrections
            // fight (the plank bridge, four per plank: 180 % stretch under pbd and exact).
            let mut per_body: Vec<u32> = world.attachments.iter().map(|a| a.body.0).collect();
            per_body.sort_unstable();
            if per_body.windows(3).any(|w| w[0] == w[2]) {
                return Err("a body is held at more than two rope points, which this solver's proxy particles                             cannot hold together: use impulse"
                    .into());
            }
        }
        if self != SolverKind::Classic {
            return Ok(());
        }
        if !world.bodies.is_empty() {
            return Err("the 002 seed's solver has no rigid bodies".into());
        }
        if world.leash.is_some() {
            return Err("the 002 seed's solver has no dogs and no rope–rope contacts: the dogs would fall and the \
                        leashes pass through each other"
                .into());
        }
        if world.settings.rope_collisions && world.ropes.len() >= 2 {
            return Err(
                "the 002 seed's solver has no rope–rope contacts: the ropes would pass through each other".into()
            );
        }
        if world.particles.pin_compliance.iter().any(|c| c.is_finite()) {
            return Err("the 002 seed's solver has no pins to world points".into());
        }
        if !world.settings.mass_weighted {
            let p = &world.particles;
            let mut free = (0..p.len()).filter(|&i| p.inv_mass[i] > 0.0).map(|i| p.mass[i]);
            if let Some(m0) = free.next() {
                if free.any(|m| (m - m0).abs() > 0.01 * m0) {
                    return Err("the 002 seed's solver ignores mass (every point weighs the same), and this scene's \
                                points have different masses: turn on mass weighting to run it"
                        .into());
                }
            }
        }
        Ok(())
    }
}

/// Queues an event, dropping the oldest when the queue is full (no allocation once grown).
fn push_event(events: &mut Vec<Event>, e: Event) {
    if events.capacity() < EVENT_QUEUE_CAP {
        events.reserve_exact(EVENT_QUEUE_CAP - events.len());
    }
    if events.len() >= EVENT_QUEUE_CAP {
        events.remove(0);
    }
    events.push(e);
}

#[inline]
fn stretch_of(pos: &[Vec3], [a, b]: [u32; 2], rest: f32) -> f32 {
    (pos[a as usize].distance_squared(pos[b as usize]).sqrt() - rest) / rest
}

pub(crate) fn check_vec(what: &'static str, v: Vec3) -> Result<Vec3> {
    if !v.is_finite() {
        return Err(SimError::NotFinite { what });
    }
    // (By bytes: `str::contains` links core's char-boundary panic and std's Unicode tables.)
    let max = if what.as_bytes().windows(8).any(|w| w == b"velocity") { limits::MAX_SPEED } else { limits::MAX_COORD };
    // (A relative slack of 1e-3: a velocity capped to 1e4 m/s and re-derived from positions,
    // as `subdivide` does, came out 10000.004 and the exported scene did not load.)
    if v.abs().max_element() > max * 1.001 {
        return Err(SimError::OutOfRange {
            what,
            value: v.abs().max_element() as f64,
            range: if max == limits::MAX_SPEED { "|component| ≤ 1e4 m/s" } else { "|component| ≤ 1e5 m" },
        });
    }
    Ok(v)
}
