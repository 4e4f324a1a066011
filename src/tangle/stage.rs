//! The world's tangle stage: candidate crossings from the rope–rope contacts of the step's
//! last substep, fed to the [`TangleManager`] (see the plan in [`crate::tangle`]).
//!
//! Per step, after the solver:
//!
//! 1. **Contacts → clusters.** Every broad-phase pair of segments of two different ropes that
//!    touched (accumulated normal multiplier λ_n > 0 in the last substep) or whose axes are
//!    within the radius sum plus `detect_margin` is a contact. Contacts of the same two ropes
//!    on neighbouring segments (segment ranges overlapping or adjacent on both ropes) are one
//!    crossing: a cluster.
//! 2. **Cluster → [`Candidate`].** Point: the mean of the contacts' midpoints. Over/under:
//!    which rope rests on the other — the vertical parts of the contact normals weighted by
//!    the normal forces (heights decide, not the seed's heuristic; the contacts on the sides
//!    of a wrap are horizontal and barely count); without forces, which is higher. Along: arc length (rest lengths) of the contacts along each rope, so the manager can
//!    follow a tangle that slides. Tensions: the link forces (λ/h²) of the links entering and
//!    leaving the contact span on each rope. Wrap Θ: how far each rope turns around the
//!    other there — the turning angles at the span's vertices, measured in the plane
//!    perpendicular to the other rope's direction (so a rope crossing straight over another
//!    wraps 0, one bent round it wraps its bend); the larger of the two. Tightening: the
//!    resultant of the two tensions on a rope's span presses it into the other rope
//!    (component along the contact normal over the sum of the tensions above
//!    `TIGHTEN_MIN`: about a 6° bend) while it carries at least `form_tension` (2 N: slack
//!    leashes draped over each other by their weight are not tangles), for either rope.
//! 3. The manager matches, forms (Θ ≥ 0.5 rad, touching, tightening), runs the capstan lock
//!    test with μ = the rope friction (e^{μΘ}, the seed's cap optional) and breaks tangles
//!    untouched for `release_steps` steps; its events go to the world's queue.
//!
//! The capstan *friction* itself is not added here: it emerges from the Coulomb friction of
//! the rope–rope contacts in the solver (`collide::segments`), as it does on a bollard from the
//! particle–obstacle friction (`tests/capstan.rs` measures it against e^{μθ}).
//!
//! Nothing allocates once the buffers have grown.

use glam::Vec3;

use super::capstan::turning_angle;
use super::lifecycle::{Candidate, LifecycleParams, Tangle, TangleEvent, TangleManager};
use crate::collide::segments::closest_points;
use crate::dog::Dog;
use crate::links::Links;
use crate::particles::Particles;
use crate::ropes::Ropes;
use crate::settings::Settings;
use crate::step::StepOutputs;

/// Normalised press (resultant · normal / sum of tensions) above which tension tightens a
/// crossing: sin(δ/2) for a bend δ, 0.05 ≈ a 6° bend.
pub const TIGHTEN_MIN: f32 = 0.05;

#[derive(Clone, Copy, Debug, Default)]
struct Cluster {
    ra: u32,
    rb: u32,
    a_lo: u32,
    a_hi: u32,
    b_lo: u32,
    b_hi: u32,
    count: f32,
    point: Vec3,
    along_a: f32,
    along_b: f32,
    /// Sum of unit normals from a to b.
    normal: Vec3,
    /// Sum of (height of b - height of a) at the contacts.
    dy: f32,
    touching: bool,
    /// Sum of normal forces (N).
    force: f32,
    /// Sum of normal force × vertical part of the normal from a to b.
    lift: f32,
}

/// Extra per-tangle data the page shows, in the order of [`TangleManager::tangles`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TangleExtra {
    /// Wrap of the over rope and of the under rope around each other (rad).
    pub wraps: [f32; 2],
    /// Total normal force between the ropes at the crossing (N).
    pub normal_force: f32,
}

/// The tangle stage's state (owned by the world).
#[derive(Clone, Debug)]
pub struct TangleStage {
    pub manager: TangleManager,
    /// Lifecycle parameters; `mu` and `cap` are refreshed from the settings every step.
    pub params: LifecycleParams,
    /// Extra distance (m) beyond the radius sum within which a non-touching pair still counts
    /// as a (non-touching) candidate.
    pub detect_margin: f32,
    /// Tension (N) a rope must carry (on either side of the crossing) for its tension to
    /// count as tightening the crossing: slack leashes merely draped over each other (held by
    /// their weight) are not tangles.
    pub form_tension: f32,
    candidates: Vec<Candidate>,
    extras: Vec<TangleExtra>,
    clusters: Vec<Cluster>,
    /// Per live tangle: its extra data (matched by id).
    live_extra: Vec<(u32, TangleExtra)>,
}

impl Default for TangleStage {
    fn default() -> Self {
        TangleStage {
            manager: TangleManager::new(),
            params: LifecycleParams { release_steps: 10, ..LifecycleParams::default() },
            detect_margin: 0.01,
            form_tension: 2.0,
            candidates: Vec::new(),
            extras: Vec::new(),
            clusters: Vec::new(),
            live_extra: Vec::new(),
        }
    }
}

impl TangleStage {
    /// The live tangles, oldest first.
    pub fn tangles(&self) -> &[Tangle] {
        self.manager.tangles()
    }

    /// Extra data of live tangle `id` (wrap per rope, normal force).
    pub fn extra(&self, id: u32) -> TangleExtra {
        self.live_extra.iter().find(|(i, _)| *i == id).map(|(_, e)| *e).unwrap_or_default()
    }

    /// This step's candidate crossings (for debugging and tests).
    pub fn candidates(&self) -> &[Candidate] {
        &self.candidates
    }

    /// Runs the stage for the step that just ended; returns the manager's events.
    #[allow(clippy::too_many_arguments)]
    pub fn update(
        &mut self,
        ropes: &Ropes,
        particles: &Particles,
        links: &Links,
        out: &StepOutputs,
        settings: &Settings,
        dogs: &[Dog],
        h: f32,
    ) -> &[TangleEvent] {
        self.params.mu = settings.rope_friction;
        self.params.mu_k = settings.rope_mu_k();
        self.params.cap = settings.tangle_cap;
        self.build_candidates(ropes, particles, links, out, h);
        self.body_candidates(dogs, ropes, particles, links, out);
        self.manager.update(&self.candidates, &self.params);
        // Extras of the live tangles: from the candidate each was matched to (same point).
        self.live_extra.clear();
        for t in self.manager.tangles() {
            let e = self
                .candidates
                .iter()
                .zip(&self.extras)
                .find(|(c, _)| c.point == t.point && c.over == t.over && c.under == t.under)
                .map(|(_, e)| *e)
                .unwrap_or_default();
            self.live_extra.push((t.id, e));
        }
        self.manager.events()
    }

    fn build_candidates(&mut self, ropes: &Ropes, particles: &Particles, links: &Links, out: &StepOutputs, h: f32) {
        self.candidates.clear();
        self.extras.clear();
        self.clusters.clear();
        let rc = &out.rope;
        let (pairs, states) = (rc.pairs(), rc.states());
        if pairs.is_empty() || ropes.segs.is_empty() {
            return;
        }
        let pos = &particles.pos;
        let inv_h2 = 1.0 / (h * h);
        let rest = |j: usize| links.rest.get(ropes.seg_link[j] as usize).copied().unwrap_or(0.0);
        // 1. Contacts into clusters.
        for (pair, st) in pairs.iter().zip(states) {
            let (i, j) = (pair[0] as usize, pair[1] as usize);
            let (ra, rb) = (ropes.seg_rope[i], ropes.seg_rope[j]);
            if ra == rb || near_shared_end(ropes, ra, rb, i, j) {
                continue;
            }
            let (sa, sb) = (ropes.segs[i], ropes.segs[j]);
            let c = closest_points(pos[sa[0] as usize], pos[sa[1] as usize], pos[sb[0] as usize], pos[sb[1] as usize]);
            // Geometry blown far out within the step (clamped back by the step's end guard)
            // overflows the closest-point arithmetic: no contact to read there.
            if !(c.s.is_finite() && c.t.is_finite() && c.dist_sq.is_finite() && c.pa.is_finite() && c.pb.is_finite()) {
                continue;
            }
            let rsum = ropes.seg_radius[i] + ropes.seg_radius[j];
            let touching = st.lambda_n > 0.0;
            let near = rsum + self.detect_margin;
            if !touching && c.dist_sq > near * near {
                continue;
            }
            let d = c.pb - c.pa;
            let n = d.try_normalize().unwrap_or(Vec3::Y);
            let (along_a, along_b) = (ropes.along(i, c.s, rest(i)), ropes.along(j, c.t, rest(j)));
            let (i, j) = (i as u32, j as u32);
            let found = self.clusters.iter().position(|k| {
                k.ra == ra && k.rb == rb && i + 1 >= k.a_lo && i <= k.a_hi + 1 && j + 1 >= k.b_lo && j <= k.b_hi + 1
            });
            let k = match found {
                Some(k) => &mut self.clusters[k],
                None => {
                    self.clusters.push(Cluster { ra, rb, a_lo: i, a_hi: i, b_lo: j, b_hi: j, ..Default::default() });
                    self.clusters.last_mut().expect("just pushed")
                }
            };
            k.a_lo = k.a_lo.min(i);
            k.a_hi = k.a_hi.max(i);
            k.b_lo = k.b_lo.min(j);
            k.b_hi = k.b_hi.max(j);
            k.count += 1.0;
            k.point += 0.5 * (c.pa + c.pb);
            k.along_a += along_a;
            k.along_b += along_b;
            k.normal += n;
            k.dy += c.pb.y - c.pa.y;
            k.touching |= touching;
            k.force += st.lambda_n * inv_h2;
            k.lift += st.lambda_n * inv_h2 * n.y;
        }
        // 2. Clusters into candidates.
        let force = |j: u32| out.link_force.get(ropes.seg_link[j as usize] as usize).copied().unwrap_or(0.0).max(0.0);
        for k in &self.clusters {
            let n = k.normal.try_normalize().unwrap_or(Vec3::Y);
            let ta = span_tangent(pos, ropes, k.a_lo, k.a_hi);
            let tb = span_tangent(pos, ropes, k.b_lo, k.b_hi);
            let wrap_a = span_wrap(pos, ropes, k.a_lo, k.a_hi, tb);
            let wrap_b = span_wrap(pos, ropes, k.b_lo, k.b_hi, ta);
            let (ta_in, ta_out, press_a) = span_tension(pos, ropes, k.a_lo, k.a_hi, &force, n);
            let (tb_in, tb_out, press_b) = span_tension(pos, ropes, k.b_lo, k.b_hi, &force, -n);
            let taut = |a: f32, b: f32| a.max(b) >= self.form_tension;
            let tightening =
                (press_a > TIGHTEN_MIN && taut(ta_in, ta_out)) || (press_b > TIGHTEN_MIN && taut(tb_in, tb_out));
            // Over/under: which rope rests on the other — the vertical part of the contact
            // normals weighted by their normal forces (a rope draped over another presses
            // down on its top; contacts on the sides of a wrap are horizontal and barely
            // count); without forces, which is higher at the contacts.
            let b_over = if k.lift != 0.0 { k.lift > 0.0 } else { k.dy > 0.0 };
            let cnt = k.count.max(1.0);
            let (along_a, along_b) = (k.along_a / cnt, k.along_b / cnt);
            let cand = if b_over {
                Candidate {
                    over: ropes.id(k.rb as usize).0,
                    under: ropes.id(k.ra as usize).0,
                    point: k.point / cnt,
                    along: [along_b, along_a],
                    touching: k.touching,
                    tightening,
                    wrap: wrap_a.max(wrap_b),
                    tension: [tb_in, tb_out, ta_in, ta_out],
                }
            } else {
                Candidate {
                    over: ropes.id(k.ra as usize).0,
                    under: ropes.id(k.rb as usize).0,
                    point: k.point / cnt,
                    along: [along_a, along_b],
                    touching: k.touching,
                    tightening,
                    wrap: wrap_a.max(wrap_b),
                    tension: [ta_in, ta_out, tb_in, tb_out],
                }
            };
            self.candidates.push(cand);
            let wraps = if b_over { [wrap_b, wrap_a] } else { [wrap_a, wrap_b] };
            self.extras.push(TangleExtra { wraps, normal_force: k.force });
        }
    }
}

impl TangleStage {
    /// Leash scene: a leash wrapped around another dog's body is wrapped around that dog's
    /// strand (the braid continues each leash down through its dog), so it is a tangle of the
    /// two leashes: `over` = the wrapping leash, `under` = the dog's leash, the point on the
    /// body, Θ = the wrapping leash's turning around the dog's vertical axis where it touches
    /// the body (`capstan::wrap_angle_around_axis`), tensions of the wrapping leash before
    /// and after the touching run and of the dog's leash (both sides: its last link).
    fn body_candidates(
        &mut self,
        dogs: &[Dog],
        ropes: &Ropes,
        particles: &Particles,
        links: &Links,
        out: &StepOutputs,
    ) {
        let pos = &particles.pos;
        let force = |j: usize| out.link_force.get(ropes.seg_link[j] as usize).copied().unwrap_or(0.0).max(0.0);
        for d in dogs {
            let di = d.particle as usize;
            if d.body_radius <= 0.0 || d.rope == u32::MAX || di >= pos.len() || d.rope as usize >= ropes.len() {
                continue;
            }
            let c = pos[di];
            let under = d.rope;
            let under_segs = ropes.segments(under as usize);
            let t_dog = if under_segs.is_empty() { 0.0 } else { force(under_segs.end - 1) };
            let along_dog: f32 =
                under_segs.clone().map(|j| links.rest.get(ropes.seg_link[j] as usize).copied().unwrap_or(0.0)).sum();
            for r in 0..ropes.len() {
                if r as u32 == under {
                    continue;
                }
                let pts = ropes.points(r);
                let reach =
                    d.body_radius + particles.radius.get(pts[0] as usize).copied().unwrap_or(0.0) + self.detect_margin;
                let touches = |i: u32| {
                    let x = pos[i as usize];
                    let off = Vec3::new(x.x - c.x, 0.0, x.z - c.z);
                    x.y <= d.height + reach && off.length_squared() <= reach * reach
                };
                let Some(lo) = pts.iter().position(|&i| touches(i)) else { continue };
                let hi = pts.iter().rposition(|&i| touches(i)).expect("some point touches");
                // The run of points from one before the first touching to one after the last.
                let (a, b) = (lo.saturating_sub(1), (hi + 1).min(pts.len() - 1));
                let mut wrap = 0.0;
                for v in a + 1..b {
                    if !touches(pts[v]) {
                        continue;
                    }
                    let f = |i: u32| {
                        let p = pos[i as usize];
                        Vec3::new(p.x, 0.0, p.z)
                    };
                    wrap += turning_angle(f(pts[v - 1]), f(pts[v]), f(pts[v + 1]));
                }
                let segs = ropes.segments(r);
                let (t_in, t_out) = (force(segs.start + a.min(segs.len() - 1)), force(segs.start + (b.max(1) - 1)));
                let mut point = Vec3::ZERO;
                for &i in &pts[lo..=hi] {
                    point += pos[i as usize];
                }
                point /= (hi - lo + 1) as f32;
                let rest = |j: usize| links.rest.get(ropes.seg_link[j] as usize).copied().unwrap_or(0.0);
                let along_over: f32 = (segs.start..segs.start + lo).map(rest).sum();
                // Tension presses the run onto the body when the pulls on its ends point
                // round it (their resultant toward the axis).
                let (p_lo, p_hi) = (pos[pts[lo] as usize], pos[pts[hi] as usize]);
                let back = (pos[pts[a] as usize] - p_lo).try_normalize().unwrap_or(Vec3::ZERO);
                let fwd = (pos[pts[b] as usize] - p_hi).try_normalize().unwrap_or(Vec3::ZERO);
                let inward = Vec3::new(c.x - point.x, 0.0, c.z - point.z).try_normalize().unwrap_or(Vec3::ZERO);
                let sum = t_in + t_out;
                let press = if sum > 1e-6 { (back * t_in + fwd * t_out).dot(inward) / sum } else { 0.0 };
                let tightening = press > TIGHTEN_MIN && t_in.max(t_out) >= self.form_tension;
                self.candidates.push(Candidate {
                    over: ropes.id(r).0,
                    under: ropes.id(under as usize).0,
                    point,
                    along: [along_over, along_dog],
                    touching: true,
                    tightening,
                    wrap,
                    tension: [t_in, t_out, t_dog, t_dog],
                });
                self.extras.push(TangleExtra { wraps: [wrap, 0.0], normal_force: 0.0 });
            }
        }
    }
}

/// Segments `i` (of rope `ra`) and `j` (of rope `rb`) are among the first two (last two)
/// segments of ropes that share their first (last) particle: they meet there by
/// construction (the leashes at the hand), which is no tangle.
fn near_shared_end(ropes: &Ropes, ra: u32, rb: u32, i: usize, j: usize) -> bool {
    let (pa, pb) = (ropes.points(ra as usize), ropes.points(rb as usize));
    let (sa, sb) = (ropes.segments(ra as usize), ropes.segments(rb as usize));
    (pa[0] == pb[0] && i < sa.start + 2 && j < sb.start + 2)
        || (pa[pa.len() - 1] == pb[pb.len() - 1] && i + 2 >= sa.end && j + 2 >= sb.end)
}

/// The rope of segments `lo..=hi` (consecutive segments of one rope): its vertex range.
#[inline]
fn span_vertices(ropes: &Ropes, lo: u32, hi: u32) -> (usize, usize, std::ops::Range<usize>) {
    let rope = ropes.seg_rope[lo as usize] as usize;
    let segs = ropes.segments(rope);
    (lo as usize, hi as usize, segs)
}

/// Unit direction of a span of segments (from its first vertex to its last).
fn span_tangent(pos: &[Vec3], ropes: &Ropes, lo: u32, hi: u32) -> Vec3 {
    let a = ropes.segs[lo as usize][0] as usize;
    let b = ropes.segs[hi as usize][1] as usize;
    (pos[b] - pos[a]).try_normalize().unwrap_or(Vec3::X)
}

/// Turning of the span's vertices (each contact segment's ends, where interior to the rope)
/// around the other rope's direction `axis`: turning angles of the projections onto the
/// plane perpendicular to `axis`. A vertex counts only where both of its segments cross the
/// axis at more than 30° (a rope lying along the other cannot wrap around it, and projecting
/// nearly parallel segments would only amplify noise).
fn span_wrap(pos: &[Vec3], ropes: &Ropes, lo: u32, hi: u32, axis: Vec3) -> f32 {
    let (lo, hi, segs) = span_vertices(ropes, lo, hi);
    let flat = |p: Vec3| p - axis * p.dot(axis);
    let mut sum = 0.0;
    // Vertex v between segments v-1 and v (segment indices); interior when both exist.
    for v in lo..=hi + 1 {
        if v <= segs.start || v >= segs.end {
            continue;
        }
        let (s0, s1) = (ropes.segs[v - 1], ropes.segs[v]);
        let (a, b, c) = (pos[s0[0] as usize], pos[s0[1] as usize], pos[s1[1] as usize]);
        let across = |u: Vec3| flat(u).length_squared() >= 0.25 * u.length_squared();
        if !(across(b - a) && across(c - b)) {
            continue;
        }
        sum += turning_angle(flat(a), flat(b), flat(c));
    }
    sum
}

/// Tensions entering and leaving a span (link forces of the segments just outside it, or of
/// its own end segments at a rope's end) and how hard their resultant presses the span along
/// `n` (normalised by the sum of the two tensions; 0 when slack).
fn span_tension(
    pos: &[Vec3],
    ropes: &Ropes,
    lo: u32,
    hi: u32,
    force: &impl Fn(u32) -> f32,
    n: Vec3,
) -> (f32, f32, f32) {
    let (lo, hi, segs) = span_vertices(ropes, lo, hi);
    let before = if lo > segs.start { lo - 1 } else { lo };
    let after = if hi + 1 < segs.end { hi + 1 } else { hi };
    let (t_in, t_out) = (force(before as u32), force(after as u32));
    // Directions the two tensions pull the span: back along the rope from its first vertex,
    // forward from its last.
    let first = pos[ropes.segs[lo][0] as usize];
    let last = pos[ropes.segs[hi][1] as usize];
    let back = (pos[ropes.segs[before][0] as usize] - first).try_normalize();
    let fwd = (pos[ropes.segs[after][1] as usize] - last).try_normalize();
    let (back, fwd) = match (back, fwd) {
        (Some(b), Some(f)) => (b, f),
        // The span is at a rope end: the tension pulls along the span itself.
        (None, Some(f)) => ((first - last).try_normalize().unwrap_or(-f), f),
        (Some(b), None) => (b, (last - first).try_normalize().unwrap_or(-b)),
        (None, None) => return (t_in, t_out, 0.0),
    };
    let sum = t_in + t_out;
    if sum <= 1e-6 {
        return (t_in, t_out, 0.0);
    }
    let press = (back * t_in + fwd * t_out).dot(n) / sum;
    (t_in, t_out, press)
}
