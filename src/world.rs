//! The `World`: particles, links, settings, and `step(dt)` as a named sequence of stages.

use glam::Vec3;

use crate::collide::Obstacle;
use crate::error::{self, Result, SimError};
use crate::links::{LinkDef, Links};
use crate::particles::{ParticleDef, Particles};
use crate::settings::Settings;
use crate::solver::{self, Scratch};

/// A pointer (mouse button, finger, pen) holding a particle. The particle follows `target`
/// exactly; `vel` is a smoothed estimate of the pointer's velocity, measured in simulated
/// time, which the particle keeps when released (so a rope can be flung).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hold {
    pub pointer: u32,
    pub particle: u32,
    pub target: Vec3,
    pub(crate) last_target: Vec3,
    pub(crate) since_move: f32,
    pub vel: Vec3,
}

/// Something that happened during a step, queued for the page to read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Event {
    /// Link `link` (joining `a` and `b`) stretched past its tear threshold and was removed.
    LinkTorn { a: u32, b: u32, stretch: f32 },
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
    pub events: Vec<Event>,
    /// Simulated time (s).
    pub time: f64,
    /// Number of completed `step` calls.
    pub steps: u64,
    /// Length of the last substep (s); used to seed velocities of new particles.
    pub(crate) last_h: f32,
    pub(crate) scratch: Scratch,
}

impl World {
    pub fn new(settings: Settings) -> Self {
        Self { settings, last_h: 1.0 / 60.0, ..Default::default() }
    }

    /// Adds a particle after validating it.
    pub fn add_particle(&mut self, def: &ParticleDef) -> Result<usize> {
        check_vec("position", def.pos)?;
        check_vec("velocity", def.vel)?;
        error::finite("mass", def.mass)?;
        if def.mass <= 0.0 {
            return Err(SimError::OutOfRange { what: "mass", value: def.mass as f64, range: "mass > 0 kg" });
        }
        error::finite("radius", def.radius)?;
        if def.radius < 0.0 {
            return Err(SimError::OutOfRange { what: "radius", value: def.radius as f64, range: "radius ≥ 0" });
        }
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
                if r <= 0.0 {
                    return Err(SimError::OutOfRange { what: "rest length", value: r as f64, range: "> 0 m" });
                }
                r
            }
            None => {
                let d = self.particles.pos[a].distance(self.particles.pos[b]);
                if d <= 1e-6 {
                    return Err(SimError::Invalid(format!(
                        "points {a} and {b} coincide; give the link an explicit rest length"
                    )));
                }
                d
            }
        };
        Ok(self.links.push(def, rest))
    }

    /// Advances the world by exactly `dt` seconds.
    pub fn step(&mut self, dt: f32) -> Result<()> {
        error::time_step(dt)?;
        let substeps = self.settings.substeps.max(1);
        let h = dt / substeps as f32;
        self.stage_hold_masses();
        solver::begin_step(self, h);
        for s in 0..substeps {
            self.stage_holds(h);
            self.scratch.last_substep = s + 1 == substeps;
            solver::substep(self, h);
        }
        solver::end_step(self, h);
        self.stage_tearing();
        self.last_h = h;
        self.time += dt as f64;
        self.steps += 1;
        Ok(())
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
    /// simulated time so that a release keeps the fling.
    fn stage_holds(&mut self, h: f32) {
        let soft = solver::soft_holds(&self.settings);
        for hold in &mut self.holds {
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
            self.particles.pos[i] = hold.target;
            self.particles.prev[i] = hold.target - hold.vel * h;
            self.particles.vel[i] = hold.vel;
        }
    }

    /// Stage: remove links stretched past their tear threshold or pulled past their tear
    /// force (tension over the last substep), queueing an event each.
    fn stage_tearing(&mut self) {
        let links = &self.links;
        let pos = &self.particles.pos;
        let force = &self.scratch.force;
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
        if self.events.len() >= EVENT_QUEUE_CAP {
            self.events.remove(0);
        }
        self.events.push(e);
    }

    /// Largest relative stretch `|d - L| / L` over all distance links (rope links count only
    /// when taut, i.e. longer than rest).
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
        self.scratch.force.get(k).copied().unwrap_or(0.0)
    }

    /// Tensions of all links (N), as [`World::link_force`]; empty before the first step.
    pub fn link_forces(&self) -> &[f32] {
        if self.scratch.force.len() == self.links.len() {
            &self.scratch.force
        } else {
            &[]
        }
    }

    /// Adds a static obstacle after validating it; returns its index.
    pub fn add_obstacle(&mut self, obstacle: &Obstacle) -> Result<usize> {
        let o =
            obstacle.validated().map_err(|(field, reason)| SimError::Invalid(format!("obstacle {field}: {reason}")))?;
        self.obstacles.push(o);
        Ok(self.obstacles.len() - 1)
    }

    /// Pins particle `index` to the world point `target` with `compliance` (m/N, 0 =
    /// rigid). A pinned particle keeps its mass: it is pulled to the target by the
    /// PBD-family solvers (a hanging mass m sags m·g·compliance below it).
    pub fn pin(&mut self, index: i64, target: Vec3, compliance: f32) -> Result<()> {
        let i = error::index("point", index, self.particles.len())?;
        check_vec("pin target", target)?;
        error::finite("pin compliance", compliance)?;
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

    /// Kinetic plus gravitational potential energy (J).
    pub fn energy(&self) -> f64 {
        self.particles.energy(self.settings.gravity)
    }
}

#[inline]
fn stretch_of(pos: &[Vec3], [a, b]: [u32; 2], rest: f32) -> f32 {
    (pos[a as usize].distance_squared(pos[b as usize]).sqrt() - rest) / rest
}

pub(crate) fn check_vec(what: &'static str, v: Vec3) -> Result<Vec3> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(SimError::NotFinite { what })
    }
}
