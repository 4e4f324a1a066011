//! Soak runs (issue 13 §3): a preset stepped for a long time with nobody draining its event
//! queues, watched for NaN, energy growth and queue growth; and a drag held in place for an
//! hour of simulated time. `ropelab soak` runs the long versions (`make soak`: 10⁶ steps of
//! the net, leash and capstan presets, and a 216,000-step hold); `tests/soak.rs` runs short
//! ones in `cargo test`; `tests/soak/wasm-soak.mjs` does the same through the JS API in node.
//!
//! **Energy** is [`World::energy`]: kinetic plus gravitational potential energy of the free
//! particles and the dynamic bodies, rotation included (J; an attached particle counts as a
//! point of its body; links are rigid, so no spring energy is stored beyond the solver's
//! residual stretch). A scene is *undriven* when
//! nothing but gravity does work on it (the net and the capstan; the leash's dogs walk, so
//! its energy is only required to stay bounded). Its growth is measured as the largest rise
//! of the energy above the lowest value it had reached before: an undriven scene that never
//! gains energy has a rise of 0, up to the solver's per-step noise. The tolerance
//! ([`ENERGY_RISE_TOL`]) is relative to the scene's energy scale `m g h` (total free mass ×
//! |g| × the height span of the scene at the start).

use glam::Vec3;

use crate::world::{World, EVENT_QUEUE_CAP};

/// Largest allowed rise of an undriven scene's energy above its running minimum, as a
/// fraction of its energy scale `m g h`: 10⁻³. A position solver moves points by up to its
/// residual stretch each step; the potential energy of that motion (1e-4 stretch on a
/// 1 m rope: 1e-4 of m g h) is the noise this allows, ten times over.
pub const ENERGY_RISE_TOL: f64 = 1e-3;

/// What a soak run saw.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SoakReport {
    pub steps: u64,
    pub energy_start: f64,
    pub energy_end: f64,
    pub energy_min: f64,
    pub energy_max: f64,
    /// Largest rise of the energy above its running minimum (J).
    pub energy_rise: f64,
    /// The scene's energy scale m g h (J) the tolerance is relative to.
    pub energy_scale: f64,
    /// First step with a non-finite position (particle or body) or energy, if any.
    pub nan_at: Option<u64>,
    /// Largest lengths (and capacities) of the undrained queues.
    pub max_events: usize,
    pub max_contact_events: usize,
    pub events_capacity: usize,
    pub contact_log_capacity: usize,
    /// Capacities of the particle and link storage at the end (they must not grow).
    pub particle_capacity: usize,
    pub link_capacity: usize,
    /// Live tangles, most seen at once.
    pub max_tangles: usize,
}

impl SoakReport {
    /// `energy_rise / energy_scale`.
    pub fn rise_rel(&self) -> f64 {
        if self.energy_scale > 0.0 {
            self.energy_rise / self.energy_scale
        } else {
            self.energy_rise
        }
    }
}

/// The energy scale m g h of `w`: free mass (particles not locked nor attached, and dynamic
/// bodies) × |g| × the height span of particles and body centres (at least 1 m).
pub fn energy_scale(w: &World) -> f64 {
    let p = &w.particles;
    let g = w.settings.gravity;
    let up = if g.length_squared() > 0.0 { -g.normalize() } else { Vec3::Y };
    let (mut lo, mut hi, mut m) = (f32::INFINITY, f32::NEG_INFINITY, 0.0f64);
    for i in 0..p.len() {
        let h = p.pos[i].dot(up);
        lo = lo.min(h);
        hi = hi.max(h);
        if !p.locked[i] && !w.attachments.iter().any(|a| a.particle as usize == i) {
            m += p.mass[i] as f64;
        }
    }
    let b = &w.bodies;
    for i in 0..b.len() {
        if b.kind[i] == crate::bodies::BodyKind::Dynamic {
            let h = b.pos[i].dot(up);
            lo = lo.min(h);
            hi = hi.max(h);
            m += b.mass[i] as f64;
        }
    }
    m * g.length() as f64 * ((hi - lo) as f64).max(1.0)
}

/// Steps `w` for `steps` steps of `dt` without draining anything, calling `each` after every
/// step (a drag script, say). The energy figures (start, min, max, rise) count from step
/// `warmup` on: the presets start from straight, unsettled layouts whose first seconds trade
/// energy between gravity and the links' residual stretch, which `World::energy` does not
/// count.
pub fn soak(w: &mut World, steps: u64, warmup: u64, dt: f32, mut each: impl FnMut(&mut World, u64)) -> SoakReport {
    for t in 0..warmup.min(steps) {
        w.step(dt).expect("a valid step");
        each(w, t);
    }
    let e0 = w.energy();
    let mut r = SoakReport {
        energy_start: e0,
        energy_min: e0,
        energy_max: e0,
        energy_scale: energy_scale(w),
        ..Default::default()
    };
    for t in warmup.min(steps)..steps {
        w.step(dt).expect("a valid step");
        each(w, t);
        let e = w.energy();
        r.energy_rise = r.energy_rise.max(e - r.energy_min);
        r.energy_min = r.energy_min.min(e);
        r.energy_max = r.energy_max.max(e);
        let finite = w.particles.pos.iter().all(|p| p.is_finite()) && w.bodies.pos.iter().all(|p| p.is_finite());
        if r.nan_at.is_none() && (!e.is_finite() || !finite) {
            r.nan_at = Some(t);
        }
        r.max_events = r.max_events.max(w.events.len());
        r.max_contact_events = r.max_contact_events.max(w.contact_log.len());
        r.max_tangles = r.max_tangles.max(w.tangles.tangles().len());
        debug_assert!(w.events.len() <= EVENT_QUEUE_CAP);
    }
    r.steps = steps;
    r.energy_end = w.energy();
    r.events_capacity = w.events.capacity();
    r.contact_log_capacity = w.contact_log.impulses.capacity();
    r.particle_capacity = w.particles.pos.capacity();
    r.link_capacity = w.links.ends.capacity();
    r
}

/// What a held drag saw.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HoldReport {
    pub soak: SoakReport,
    /// Largest distance of the held point from where it is held, over the run (m).
    pub max_offset: f32,
}

/// Grabs point `index` of `w` with pointer 1, moves the hold by `offset` (view plane, m) in
/// `warmup` steps, then keeps it there for `steps` more. Returns the soak report of the
/// held part (its energy figures start once the hold is in place) and the held point's
/// largest distance from its target.
pub fn held_drag(w: &mut World, index: usize, offset: [f32; 2], warmup: u64, steps: u64, dt: f32) -> HoldReport {
    w.grab(1, index as i64).expect("grab");
    let start = w.settings.view.project(w.particles.pos[index]);
    for t in 0..warmup {
        let f = (t + 1) as f32 / warmup as f32;
        let q = start + glam::Vec2::from(offset) * f;
        w.drag_to(1, q.x, q.y).expect("drag");
        w.step(dt).expect("a valid step");
    }
    let target = w.holds[0].target;
    let mut max_offset = 0.0f32;
    let soak = soak(w, steps, 0, dt, |w, _| max_offset = max_offset.max(w.particles.pos[index].distance(target)));
    HoldReport { soak, max_offset }
}
