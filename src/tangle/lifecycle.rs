//! Tangles with stable identities: matched from step to step, formed, locked or slipping, and
//! broken, with events that fire once per tangle.
//!
//! The caller (the world's tangle stage) turns each step's geometry and solver state into
//! [`Candidate`]s — crossings where two ropes touch, with their wrap angle, whether tension
//! tightens them, and the rope tensions on both sides (see the plan in the module docs of
//! [`crate::tangle`]). [`TangleManager::update`] then:
//!
//! 1. matches every live tangle to the nearest candidate with the same rope on top and the
//!    same rope underneath whose material positions along both ropes are within
//!    `match_dist` (so a tangle may slide along the ropes and keep its id);
//! 2. forms a tangle from an unmatched candidate that touches, tightens, and wraps at least
//!    `form_wrap` (event `Formed`);
//! 3. updates each matched tangle: wrap, tensions, and the capstan lock test — `Locked` while
//!    both ropes are taut and T_high / T_low ≤ e^{μΘ} on each rope through it, else `Tight`
//!    (event `StateChanged` on a change). The test has the hysteresis of friction itself: a
//!    locked tangle starts to slip past the static limit e^{μ_s Θ}, a slipping one locks again
//!    only below the kinetic limit e^{μ_k Θ} (μ_k ≤ μ_s); and a change must persist for
//!    `settle_steps` consecutive steps, so solver jitter in the tensions (a few per cent from
//!    step to step) does not flicker the state;
//! 4. breaks a tangle that went unmatched or untouched for more than `release_steps`
//!    consecutive steps (event `Broken`), so contact jitter does not flicker events.
//!
//! Ids are never reused. Nothing allocates once the buffers have grown.

use glam::Vec3;

use super::capstan;
use crate::ids::{Id, IdPool};

/// A crossing of two ropes this step, as seen by the caller.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    /// Rope on top at the crossing (its stable id, [`crate::ropes::Ropes::id`]).
    pub over: u32,
    /// Rope underneath (its stable id).
    pub under: u32,
    /// World position of the crossing.
    pub point: Vec3,
    /// Material position along `[over, under]` (e.g. arc length from each rope's start, m).
    pub along: [f32; 2],
    /// The ropes touch here this step (contact active).
    pub touching: bool,
    /// Tension presses the ropes into each other (pulling tightens rather than slides off).
    pub tightening: bool,
    /// Wrap angle Θ (rad) of the ropes around each other here.
    pub wrap: f32,
    /// Tensions (N) on the two sides of the crossing: `[over before, over after, under before,
    /// under after]`.
    pub tension: [f32; 4],
}

impl Candidate {
    /// Every number finite. A candidate read from geometry that blew up within a step (the
    /// step's end guard then clamps the positions back) can carry NaN; the lifecycle ignores
    /// it rather than let it match a tangle (`f32::max` drops a NaN from the match distance).
    pub fn is_finite(&self) -> bool {
        self.point.is_finite()
            && self.along.iter().all(|a| a.is_finite())
            && self.wrap.is_finite()
            && self.tension.iter().all(|t| !t.is_nan())
    }
}

/// Parameters of the lifecycle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LifecycleParams {
    /// Smallest wrap angle that forms a tangle (rad; the seed's 0.5).
    pub form_wrap: f32,
    /// Largest slide along either rope (m) between steps for a candidate to continue a tangle.
    pub match_dist: f32,
    /// Consecutive steps a tangle may go unmatched or untouched before it breaks.
    pub release_steps: u32,
    /// Rope–rope static friction coefficient μ_s for the lock test (a locked tangle slips
    /// once T_high / T_low > e^{μ_s Θ}).
    pub mu: f32,
    /// Kinetic friction coefficient μ_k (≤ μ_s; larger values count as μ_s): a slipping
    /// tangle locks again once T_high / T_low ≤ e^{μ_k Θ}.
    pub mu_k: f32,
    /// Consecutive steps the lock test must disagree with a tangle's state before the state
    /// changes (1 = at once).
    pub settle_steps: u32,
    /// Optional cap on e^{μΘ} (the seed's gameplay clamp of 3); `None` = the physics.
    pub cap: Option<f32>,
    /// Tension (N) below which a rope counts as slack (a slack rope cannot lock a tangle).
    pub min_tension: f32,
}

impl Default for LifecycleParams {
    fn default() -> Self {
        LifecycleParams {
            form_wrap: 0.5,
            match_dist: 0.15,
            release_steps: 5,
            mu: 0.5,
            mu_k: 0.5,
            settle_steps: 3,
            cap: None,
            min_tension: 0.01,
        }
    }
}

/// Whether a tangle holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TangleState {
    /// Formed, but the tension ratio across it exceeds e^{μΘ} (it slides) or a rope is slack.
    Tight,
    /// Friction holds it: T_high / T_low ≤ e^{μΘ} on both ropes.
    Locked,
}

/// A live tangle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tangle {
    /// Stable id (slot and generation, [`crate::ids`]): valid while the tangle lives, stale
    /// after it breaks, whatever happens to the others.
    pub id: u32,
    pub over: u32,
    pub under: u32,
    pub point: Vec3,
    pub along: [f32; 2],
    pub wrap: f32,
    pub tension: [f32; 4],
    pub state: TangleState,
    /// The tension ratio against the static limit: the larger of (T_high/T_low)/e^{μ_s Θ}
    /// over the two ropes. A locked tangle slips once it exceeds 1 (for `settle_steps`
    /// steps); a slipping one may show ≤ 1 and still slip until it falls below the kinetic
    /// limit, e^{(μ_k − μ_s) Θ}.
    pub slip_ratio: f32,
    /// Consecutive steps the lock test has disagreed with `state`.
    pub pending: u32,
    /// Steps since it formed.
    pub age: u32,
    /// Consecutive steps without a touching match.
    pub missing: u32,
}

/// What happened to the tangles this step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TangleEvent {
    Formed { id: u32, over: u32, under: u32, point: Vec3 },
    StateChanged { id: u32, state: TangleState },
    Broken { id: u32, over: u32, under: u32 },
}

/// The live tangles and their events.
#[derive(Clone, Debug, Default)]
pub struct TangleManager {
    tangles: Vec<Tangle>,
    events: Vec<TangleEvent>,
    used: Vec<bool>,
    ids: IdPool,
}

impl TangleManager {
    pub fn new() -> Self {
        Self::default()
    }

    /// The live tangles, oldest first.
    pub fn tangles(&self) -> &[Tangle] {
        &self.tangles
    }

    /// Events of the last update.
    pub fn events(&self) -> &[TangleEvent] {
        &self.events
    }

    /// Advances the lifecycle by one step; returns this step's events.
    pub fn update(&mut self, candidates: &[Candidate], p: &LifecycleParams) -> &[TangleEvent] {
        self.events.clear();
        self.used.clear();
        self.used.resize(candidates.len(), false);
        // 1. Continue live tangles (oldest first, each taking its nearest free candidate).
        for t in &mut self.tangles {
            let mut best: Option<(usize, f32)> = None;
            for (k, c) in candidates.iter().enumerate() {
                if self.used[k] || c.over != t.over || c.under != t.under || !c.is_finite() {
                    continue;
                }
                let d = (c.along[0] - t.along[0]).abs().max((c.along[1] - t.along[1]).abs());
                if d <= p.match_dist && best.is_none_or(|(_, bd)| d < bd) {
                    best = Some((k, d));
                }
            }
            t.age += 1;
            match best {
                Some((k, _)) => {
                    self.used[k] = true;
                    let c = &candidates[k];
                    t.point = c.point;
                    t.along = c.along;
                    t.wrap = c.wrap;
                    t.tension = c.tension;
                    t.missing = if c.touching { 0 } else { t.missing + 1 };
                    let (state, slip) = lock_test(c.tension, c.wrap, t.state, p);
                    t.slip_ratio = slip;
                    if state == t.state {
                        t.pending = 0;
                    } else {
                        t.pending += 1;
                        if t.pending >= p.settle_steps.max(1) {
                            t.state = state;
                            t.pending = 0;
                            self.events.push(TangleEvent::StateChanged { id: t.id, state });
                        }
                    }
                }
                None => {
                    t.missing += 1;
                    t.pending = 0;
                }
            }
        }
        // 2. Break the ones gone too long.
        let (events, ids) = (&mut self.events, &mut self.ids);
        self.tangles.retain(|t| {
            let keep = t.missing <= p.release_steps;
            if !keep {
                events.push(TangleEvent::Broken { id: t.id, over: t.over, under: t.under });
                ids.free(Id(t.id));
            }
            keep
        });
        for (k, t) in self.tangles.iter().enumerate() {
            self.ids.moved(Id(t.id), k);
        }
        // 3. Form new ones.
        for (k, c) in candidates.iter().enumerate() {
            if self.used[k] || !c.touching || !c.tightening || !(c.wrap >= p.form_wrap) || !c.is_finite() {
                continue;
            }
            // A new tangle starts locked if static friction holds it.
            let (state, slip) = lock_test(c.tension, c.wrap, TangleState::Locked, p);
            let Some(Id(id)) = self.ids.alloc(self.tangles.len()) else {
                break; // MAX_LIVE tangles: no more form
            };
            self.tangles.push(Tangle {
                id,
                over: c.over,
                under: c.under,
                point: c.point,
                along: c.along,
                wrap: c.wrap,
                tension: c.tension,
                state,
                slip_ratio: slip,
                pending: 0,
                age: 0,
                missing: 0,
            });
            self.used[k] = true;
            self.events.push(TangleEvent::Formed { id, over: c.over, under: c.under, point: c.point });
        }
        &self.events
    }
}

/// The lock test on both ropes through a tangle in state `now`: (the state friction wants,
/// worst slip ratio against the static limit). Locked stays locked while T_high / T_low ≤
/// e^{μ_s Θ} on both ropes; Tight locks when it is ≤ e^{μ_k Θ}; a slack rope cannot lock.
fn lock_test(t: [f32; 4], wrap: f32, now: TangleState, p: &LifecycleParams) -> (TangleState, f32) {
    let worst = |limit: f32| {
        let ratio = |a: f32, b: f32| {
            let (hi, lo) = (a.max(b).max(0.0), a.min(b).max(0.0));
            if hi == 0.0 {
                0.0
            } else if lo == 0.0 {
                f32::INFINITY
            } else {
                hi / lo / limit
            }
        };
        ratio(t[0], t[1]).max(ratio(t[2], t[3]))
    };
    let slip_s = worst(capstan::holding_ratio_clamped(p.mu, wrap, p.cap));
    let taut = t.iter().all(|&x| x >= p.min_tension);
    let holds = match now {
        TangleState::Locked => slip_s <= 1.0,
        TangleState::Tight => worst(capstan::holding_ratio_clamped(p.mu_k.min(p.mu), wrap, p.cap)) <= 1.0,
    };
    (if taut && holds { TangleState::Locked } else { TangleState::Tight }, slip_s)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A candidate whose `along` was NaN on one rope (a segment blown far out within a step,
    /// where the closest-point arithmetic overflowed) matched its tangle anyway — `f32::max`
    /// drops a NaN, so the distance came out as the other rope's — and the tangle took
    /// `along: [0.39, NaN]` (`[0.39, null]` in `tangles()`). Non-finite candidates are
    /// ignored now; the tangle keeps its last finite values.
    #[test]
    fn a_candidate_with_a_nan_along_does_not_update_a_tangle() {
        let mut m = TangleManager::new();
        let p = LifecycleParams::default();
        m.update(&[cand(0.39, true, 1.0, EVEN)], &p);
        assert_eq!(m.tangles().len(), 1);
        let mut bad = cand(0.39, true, 1.0, EVEN);
        bad.along[1] = f32::NAN;
        m.update(&[bad], &p);
        let t = m.tangles()[0];
        assert!(t.along.iter().all(|a| a.is_finite()), "{:?}", t.along);
        assert!(t.point.is_finite() && t.wrap.is_finite());
        // Nor does one form from it.
        let mut m = TangleManager::new();
        m.update(&[bad], &p);
        assert!(m.tangles().is_empty());
    }

    fn cand(along: f32, touching: bool, wrap: f32, tension: [f32; 4]) -> Candidate {
        Candidate {
            over: 0,
            under: 1,
            point: Vec3::new(along, 0.5, 0.0),
            along: [along, 1.0 - along],
            touching,
            tightening: true,
            wrap,
            tension,
        }
    }

    const EVEN: [f32; 4] = [10.0, 10.0, 10.0, 10.0];

    #[test]
    fn forms_once_and_keeps_its_id_while_sliding() {
        let mut m = TangleManager::new();
        let p = LifecycleParams::default();
        // Too little wrap, or not tightening: nothing.
        assert!(m.update(&[cand(0.5, true, 0.3, EVEN)], &p).is_empty());
        let mut c = cand(0.5, true, 1.0, EVEN);
        c.tightening = false;
        assert!(m.update(&[c], &p).is_empty());
        // Forms.
        let ev = m.update(&[cand(0.5, true, 1.0, EVEN)], &p).to_vec();
        assert!(matches!(ev[..], [TangleEvent::Formed { id: 0, over: 0, under: 1, .. }]));
        // Slides 5 cm a step for 10 steps: same tangle, no more events.
        for k in 1..=10 {
            assert!(m.update(&[cand(0.5 + 0.05 * k as f32, true, 1.0, EVEN)], &p).is_empty());
        }
        assert_eq!(m.tangles().len(), 1);
        assert_eq!(m.tangles()[0].id, 0);
        assert_eq!(m.tangles()[0].age, 10);
    }

    #[test]
    fn jitter_does_not_break_it_but_absence_does_once() {
        let mut m = TangleManager::new();
        let p = LifecycleParams { release_steps: 3, ..Default::default() };
        m.update(&[cand(0.5, true, 1.0, EVEN)], &p);
        // Flickers: untouched for 3 steps, then touching again.
        for _ in 0..3 {
            assert!(m.update(&[cand(0.5, false, 1.0, EVEN)], &p).is_empty());
        }
        assert!(m.update(&[cand(0.5, true, 1.0, EVEN)], &p).is_empty());
        // Gone: breaks after the 4th missing step, once.
        let mut broken = 0;
        for _ in 0..10 {
            for e in m.update(&[], &p) {
                assert!(matches!(e, TangleEvent::Broken { id: 0, .. }));
                broken += 1;
            }
        }
        assert_eq!(broken, 1);
        assert!(m.tangles().is_empty());
        // Re-forming gets a new id: the same slot, the next generation (the old id is stale).
        let ev = m.update(&[cand(0.5, true, 1.0, EVEN)], &p).to_vec();
        let new = Id(1 << 16);
        assert!(matches!(ev[..], [TangleEvent::Formed { id, .. }] if id == new.0));
        assert_eq!(m.ids.get(Id(0)), None);
        assert_eq!(m.ids.get(new), Some(0));
    }

    #[test]
    fn a_tangles_id_survives_the_others_breaking() {
        let mut m = TangleManager::new();
        let p = LifecycleParams { release_steps: 0, ..Default::default() };
        let mut second = cand(0.5, true, 1.0, EVEN);
        second.point = Vec3::new(3.0, 0.0, 0.0);
        second.over = 2;
        m.update(&[cand(0.5, true, 1.0, EVEN), second], &p);
        let ids: Vec<u32> = m.tangles().iter().map(|t| t.id).collect();
        assert_eq!(ids, [0, 1]);
        // The first goes; the second keeps id 1 though it is now first in the dense list.
        m.update(&[second], &p);
        assert_eq!(m.tangles().len(), 1);
        assert_eq!(m.tangles()[0].id, 1);
        assert_eq!(m.ids.get(Id(1)), Some(0));
        assert_eq!(m.ids.get(Id(0)), None);
    }

    #[test]
    fn distinct_crossings_are_distinct_tangles() {
        let mut m = TangleManager::new();
        let p = LifecycleParams::default();
        let mut swapped = cand(0.5, true, 1.0, EVEN);
        swapped.over = 1;
        swapped.under = 0;
        let ev = m.update(&[cand(0.2, true, 1.0, EVEN), cand(0.8, true, 1.0, EVEN), swapped], &p).to_vec();
        assert_eq!(ev.len(), 3);
        // Next step each continues its own.
        assert!(m.update(&[cand(0.22, true, 1.0, EVEN), cand(0.78, true, 1.0, EVEN), swapped], &p).is_empty());
        let ids: Vec<u32> = m.tangles().iter().map(|t| t.id).collect();
        assert_eq!(ids, vec![0, 1, 2]);
        assert!((m.tangles()[0].along[0] - 0.22).abs() < 1e-6);
    }

    #[test]
    fn locks_by_the_capstan_relation() {
        let mut m = TangleManager::new();
        let p = LifecycleParams { mu: 0.5, mu_k: 0.5, settle_steps: 1, ..Default::default() };
        let theta = std::f32::consts::PI; // e^{0.5π} ≈ 4.81
        m.update(&[cand(0.5, true, theta, [10.0, 40.0, 10.0, 10.0])], &p);
        assert_eq!(m.tangles()[0].state, TangleState::Locked);
        let ev = m.update(&[cand(0.5, true, theta, [10.0, 50.0, 10.0, 10.0])], &p).to_vec();
        assert_eq!(ev, vec![TangleEvent::StateChanged { id: 0, state: TangleState::Tight }]);
        assert!(m.tangles()[0].slip_ratio > 1.0);
        // With the seed's cap of 3 even 40 N against 10 N slips.
        let capped = LifecycleParams { cap: Some(3.0), ..p };
        m.update(&[cand(0.5, true, theta, [10.0, 40.0, 10.0, 10.0])], &capped);
        assert_eq!(m.tangles()[0].state, TangleState::Tight);
        // A slack rope cannot lock.
        m.update(&[cand(0.5, true, theta, [0.0, 0.0, 10.0, 10.0])], &p);
        assert_eq!(m.tangles()[0].state, TangleState::Tight);
    }

    #[test]
    fn state_changes_need_to_persist_and_follow_friction_hysteresis() {
        let theta = std::f32::consts::PI;
        // e^{0.5π} ≈ 4.81 (static), e^{0.3π} ≈ 2.57 (kinetic).
        let p = LifecycleParams { mu: 0.5, mu_k: 0.3, settle_steps: 3, ..Default::default() };
        let mut m = TangleManager::new();
        let at = |ratio: f32| cand(0.5, true, theta, [10.0, 10.0 * ratio, 10.0, 10.0]);
        m.update(&[at(4.0)], &p);
        assert_eq!(m.tangles()[0].state, TangleState::Locked);
        // Jitter across the static limit, never 3 steps in a row beyond it: no event.
        for k in 0..30 {
            let r = if k % 3 == 2 { 4.5 } else { 5.2 };
            assert!(m.update(&[at(r)], &p).is_empty(), "step {k}");
        }
        assert_eq!(m.tangles()[0].state, TangleState::Locked);
        // Beyond it for 3 steps: slips, once.
        let mut ev = Vec::new();
        for _ in 0..3 {
            ev.extend_from_slice(m.update(&[at(5.2)], &p));
        }
        assert_eq!(ev, vec![TangleEvent::StateChanged { id: 0, state: TangleState::Tight }]);
        // Slipping: back under the static limit but above the kinetic one, it keeps slipping.
        for _ in 0..10 {
            assert!(m.update(&[at(4.0)], &p).is_empty());
        }
        assert_eq!(m.tangles()[0].state, TangleState::Tight);
        // Under the kinetic limit for 3 steps: locks again, once.
        let mut ev = Vec::new();
        for _ in 0..5 {
            ev.extend_from_slice(m.update(&[at(2.0)], &p));
        }
        assert_eq!(ev, vec![TangleEvent::StateChanged { id: 0, state: TangleState::Locked }]);
    }
}
