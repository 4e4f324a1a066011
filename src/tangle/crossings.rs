//! The braid word of the leashes, read from their current geometry.
//!
//! # What is read, and why radially
//!
//! The leashes are strands from the hand (the hub) to the dogs, seen from above (x–z; y is
//! height). A top-view crossing of two leashes is a point where their projections meet; the
//! higher one there is *over*. To turn crossings into an Artin word the strands need a
//! common "time" along which each is monotone and a left-to-right order at each time. The
//! natural one for leashes held in one hand is the **horizontal distance r from the hand**
//! (time) and the **angle φ around the hand** (order): two strands swap their angular order
//! exactly where their projections cross, at the same point, so the sign comes from the two
//! heights *at the crossing*, as the issue asks.
//!
//! (Sweeping the strands' own parameter t instead, and ordering by an axis at the same t,
//! compares points that are not at the same place: two straight, non-crossing leashes of
//! different lengths already swap order along such a sweep and get a spurious generator with
//! a meaningless sign. The test `parameter_sweep_counterexample` keeps this honest.)
//!
//! # Conventions
//!
//! - **Angle** φ ∈ (-π, π] around the hub, measured from `front` (the direction the handler
//!   faces), **counter-clockwise seen from above** (looking down -y; positive φ is the handler's
//!   left: with front = +z, left = +x). The **seam** is directly behind the handler, φ = ±π.
//! - **Positions** 1..n: strands ordered by increasing φ, i.e. from the handler's right to
//!   their left. In the braid picture (hand at the top, dogs below, the handler facing down
//!   the page and seen from above) position 1 is on the left.
//! - **Generator sign**: at a crossing, the strands at positions i, i+1 swap; σᵢ if the one
//!   coming from position i (the smaller φ) is higher there, σᵢ⁻¹ if it is lower. The word is
//!   read from the hand outwards (see [`super::braid`] for what that means for moves:
//!   σᵢ = the two dogs trading places by half a turn counter-clockwise seen from above).
//! - **Beyond a dog** its strand continues radially outward at the dog's angle, **below
//!   everything** (the dog's "shadow" on the ground). A leash passing beyond a dog (farther
//!   from the hand) crosses this ray and is over it; this is what makes "dog A walks behind
//!   dog B" a generator with the right sign.
//! - **The seam**: a strand crossing φ = ±π behind the handler moves from one end of the order
//!   to the other. It is read as passing **under every other strand** (σₙ₋₁⋯σ₁ from the left
//!   end, φ → +π, to position 1; σ₁⁻¹⋯σₙ₋₁⁻¹ the other way). The configuration at distance r
//!   is a cylinder around the hand (angle × height); capping it at the ground — i.e. taking
//!   the dogs' ground plane as a disc in which the spot under the hand is no obstacle — turns
//!   it into a disc, and a short crossing of the seam is homotopic to going the long way round
//!   near the ground, under everything. With this rule all dogs walking once
//!   counter-clockwise around the handler is Δ² = (σ₁σ₂)³, the same full twist as the dogs
//!   circling their own centre counter-clockwise: what a swivel coupler at the hand sheds.
//!   (Capping at the top instead — lifting a leash over the hand — gives the mirror rule and
//!   breaks that consistency; a real handler's arm and body would be a further obstacle that
//!   B_n cannot represent, see the tangle module docs.)
//! - **The hand region** r < `hand_radius`: all strands meet at the hand, where their order
//!   cannot be read from a single frame (straight leashes from one point never cross in top
//!   view). Crossings inside it are *remembered*: [`BraidTracker`] watches the order at
//!   r = `hand_radius` frame to frame and records each change as generators (sign from the
//!   heights there, seam rule for crossings behind the hand). A crossing sliding inward across
//!   `hand_radius` moves from the geometric word to the remembered part with the same sign,
//!   so the braid does not jump.
//!
//! # Folds
//!
//! A slack leash can double back toward the hand. The reader makes each strand monotone in r
//! by pushing every point that lies no farther out than an earlier one radially outward to
//! just beyond the running maximum (a fold becomes a path along a circle at the fold's
//! outermost radius). This is exact when no other strand crosses inside the fold, and keeps the
//! dog's angle, so the end order always matches the dogs. A crossing hidden in a fold is read
//! at the fold's outer radius; when that breaks the bookkeeping the reading counts an
//! *anomaly* and the tracker reports a resync.
//!
//! # Robustness
//!
//! [`BraidReader::read`] re-derives the whole word from the current geometry every frame; the
//! [`BraidTracker`] adds only the hand-region memory and compares the incremental dog-end
//! events (two dogs swapping order = a generator appended) against the re-derived braid, so a
//! missed event cannot corrupt the word: it shows as a [`BraidEvent::Resync`].

use glam::{Vec2, Vec3};

use super::braid::{self, Gen};

/// Where and how the braid is read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BraidFrame {
    /// The hand: strands start here (only x and z matter).
    pub hub: Vec3,
    /// Horizontal direction the handler faces; φ is measured from it and the seam is behind.
    pub front: Vec3,
    /// Horizontal radius (m) of the hand region, whose crossings are remembered rather than
    /// read (a few centimetres: larger than the spread of the leashes' attachment points).
    pub hand_radius: f32,
}

impl Default for BraidFrame {
    fn default() -> Self {
        BraidFrame { hub: Vec3::new(0.0, 1.0, 0.0), front: Vec3::Z, hand_radius: 0.05 }
    }
}

impl BraidFrame {
    /// Unit front and left vectors in the ground plane (left = front turned +90° counter-
    /// clockwise seen from above).
    fn axes(&self) -> (Vec3, Vec3) {
        let f = Vec3::new(self.front.x, 0.0, self.front.z).try_normalize().unwrap_or(Vec3::Z);
        (f, Vec3::new(f.z, 0.0, -f.x))
    }

    /// Hub-centred ground-plane coordinates (u along front, v to the left).
    pub fn local(&self, p: Vec3) -> Vec2 {
        let (f, l) = self.axes();
        let d = p - self.hub;
        Vec2::new(d.dot(f), d.dot(l))
    }

    /// The angle φ of a point (counter-clockwise from front seen from above, in (-π, π]).
    pub fn angle(&self, p: Vec3) -> f32 {
        let q = self.local(p);
        libm::atan2f(q.y, q.x)
    }
}

/// What kind of crossing a generator came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CrossingKind {
    /// Two leashes cross in top view.
    Leash,
    /// A leash passes beyond a dog, over the dog's ray.
    DogRay,
    /// A leash crosses the seam behind the handler (passes under all others).
    Seam,
}

/// One crossing of the reading.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Crossing {
    pub kind: CrossingKind,
    /// Horizontal distance from the hand (m).
    pub radius: f32,
    /// World point of the crossing (x, z; y = the upper strand's height, or the seam strand's).
    pub point: Vec3,
    /// Strand (leash index) on top; for the seam, the strand that crosses it.
    pub over: u32,
    /// Strand underneath (`u32::MAX` for the seam).
    pub under: u32,
    /// Generators it contributed: `word[first..first + count]`.
    pub first: u32,
    pub count: u32,
}

/// The braid read from one frame's geometry.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reading {
    /// Crossings at r ≥ `hand_radius`, from the hand outwards (not reduced).
    pub word: Vec<Gen>,
    /// Strands by position at r = `hand_radius` (the top of the word).
    pub start_order: Vec<u32>,
    /// Strands by position at the dog end (the bottom of the word; the dogs' angular order).
    pub end_order: Vec<u32>,
    /// Per strand: angle at r = `hand_radius`.
    pub start_angle: Vec<f32>,
    /// Per strand: height at r = `hand_radius` (-∞ if the strand never gets that far out).
    pub start_height: Vec<f32>,
    /// Per strand: horizontal distance of its (monotonised) end from the hand.
    pub end_radius: Vec<f32>,
    /// Per strand: angle of its end (the dog) around the hand.
    pub end_angle: Vec<f32>,
    pub crossings: Vec<Crossing>,
    /// Events that could not be applied consistently (folds hiding crossings, exact ties); 0
    /// for clean geometry.
    pub anomalies: u32,
}

#[derive(Clone, Copy, Debug)]
struct Pt {
    q: Vec2, // hub-centred (u, v)
    r: f32,  // |q|
    y: f32,  // height; -∞ on a dog's ray
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum EvKind {
    Pair { a: u32, b: u32, over: u32 },
    Seam { strand: u32, to_front: bool }, // to_front: from φ≈+π to φ≈-π (left end → position 1)
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Ev {
    r: f32,
    kind: EvKind,
    point: Vec2,
    y: f32,
    ray: bool,
}

/// Reads braid words from leash geometry; keeps its buffers between frames.
#[derive(Clone, Debug, Default)]
pub struct BraidReader {
    pts: Vec<Pt>,
    start: Vec<usize>, // strand k's points are pts[start[k]..start[k + 1]] (last one = ray end)
    events: Vec<Ev>,
    pending: Vec<Ev>,
    order: Vec<u32>,
    pos_of: Vec<usize>,
    reading: Reading,
    frame: BraidFrame,
}

/// Largest radius any reading uses for the far end of the dogs' rays (m beyond the farthest
/// point).
const RAY_EXTRA: f32 = 1.0;

impl BraidReader {
    pub fn new() -> Self {
        Self::default()
    }

    /// The last reading.
    pub fn reading(&self) -> &Reading {
        &self.reading
    }

    /// Reads the braid of `strands` (each a polyline from the hand to its dog; strand k is
    /// leash k) in `frame`. Allocates only while its buffers grow.
    pub fn read(&mut self, frame: &BraidFrame, strands: &[&[Vec3]]) -> &Reading {
        self.frame = *frame;
        let n = strands.len();
        self.build_strands(frame, strands);
        let r0 = frame.hand_radius.max(0.0);
        let rd = &mut self.reading;
        rd.word.clear();
        rd.crossings.clear();
        rd.anomalies = 0;
        rd.start_angle.clear();
        rd.start_height.clear();
        rd.end_radius.clear();
        rd.end_angle.clear();
        // Start positions at r0.
        for k in 0..n {
            let (q, y) = Self::at_radius(&self.pts[self.start[k]..self.start[k + 1]], r0);
            rd.start_angle.push(libm::atan2f(q.y, q.x));
            rd.start_height.push(y);
            let last = self.start[k + 1] - 2; // the point before the ray's far end
            rd.end_radius.push(self.pts[last].r);
            let e = self.pts[last + 1].q; // the ray's far end: the dog's direction
            rd.end_angle.push(libm::atan2f(e.y, e.x));
        }
        rd.start_order.clear();
        rd.start_order.extend(0..n as u32);
        let ang = &rd.start_angle;
        // At most MAX_STRANDS (16) strands, all keys distinct (ties by strand): the insertion
        // sort gives the one sorted order, without an ipnsort instantiation of its own
        // (`crate::sort`, ~2.5 KB of wasm).
        crate::sort::insertion_sort_by(&mut rd.start_order, |&a, &b| {
            ang[a as usize].total_cmp(&ang[b as usize]).then(a.cmp(&b)).is_lt()
        });
        // Events.
        self.events.clear();
        for a in 0..n {
            for b in a + 1..n {
                Self::pair_events(&self.pts, &self.start, a, b, r0, &mut self.events);
            }
            Self::seam_events(&self.pts, &self.start, a, r0, &mut self.events);
        }
        // Unstable (no allocation): equal keys are the same crossing of the same pair.
        self.events.sort_unstable_by(|x, y| x.r.total_cmp(&y.r).then_with(|| ev_key(x).cmp(&ev_key(y))));
        // Sweep.
        self.order.clear();
        self.order.extend_from_slice(&rd.start_order);
        self.pos_of.clear();
        self.pos_of.resize(n, 0);
        for (p, &s) in self.order.iter().enumerate() {
            self.pos_of[s as usize] = p;
        }
        self.pending.clear();
        let (hub, (f, l)) = (frame.hub, frame.axes());
        let world = |q: Vec2, y: f32| Vec3::new(hub.x, 0.0, hub.z) + f * q.x + l * q.y + Vec3::Y * y;
        for i in 0..self.events.len() {
            let ev = self.events[i];
            if apply(&ev, &mut self.order, &mut self.pos_of, rd, &world) {
                // Retry events that waited for this one (near-ties).
                let mut again = true;
                while again {
                    again = false;
                    let mut j = 0;
                    while j < self.pending.len() {
                        if apply(&self.pending[j], &mut self.order, &mut self.pos_of, rd, &world) {
                            self.pending.remove(j);
                            again = true;
                        } else {
                            j += 1;
                        }
                    }
                }
            } else {
                self.pending.push(ev);
            }
        }
        rd.anomalies += self.pending.len() as u32;
        rd.end_order.clear();
        rd.end_order.extend_from_slice(&self.order);
        // The sweep must end in the dogs' angular order.
        let ends = &rd.end_angle;
        if rd.end_order.windows(2).any(|w| ends[w[0] as usize] > ends[w[1] as usize]) {
            rd.anomalies += 1;
        }
        &self.reading
    }

    /// Monotonised hub-centred polylines plus each dog's ray.
    fn build_strands(&mut self, frame: &BraidFrame, strands: &[&[Vec3]]) {
        self.pts.clear();
        self.start.clear();
        // The frame's axes once (not per point); lengths by `f32::sqrt` (the same bits as
        // glam's `length`, which is libm's software square root with the `libm` feature).
        let (f, l) = frame.axes();
        let hub = frame.hub;
        let local = |p: Vec3| {
            let d = p - hub;
            Vec2::new(d.dot(f), d.dot(l))
        };
        let len = |q: Vec2| q.length_squared().sqrt();
        let mut far2 = 0.0f32;
        for s in strands {
            for &p in s.iter() {
                far2 = far2.max(local(p).length_squared());
            }
        }
        let far = far2.sqrt() + RAY_EXTRA;
        const STEP: f32 = 1e-5;
        for s in strands {
            self.start.push(self.pts.len());
            // Direction for points at the hub itself: the first point off the hub.
            let first_dir =
                s.iter().map(|&p| local(p)).find(|&q| len(q) > 1e-6).map(|q| q * (1.0 / len(q))).unwrap_or(Vec2::X);
            let mut rmax = -1.0f32;
            let mut dir = first_dir;
            for &p in s.iter() {
                let mut q = local(p);
                let mut r = len(q);
                if r > 1e-6 {
                    dir = q / r;
                }
                if r <= rmax {
                    r = rmax + STEP;
                    q = dir * r;
                } else if r <= 1e-6 {
                    q = dir * r;
                }
                rmax = r;
                self.pts.push(Pt { q, r, y: p.y });
            }
            if s.is_empty() {
                self.pts.push(Pt { q: Vec2::ZERO, r: 0.0, y: frame.hub.y });
            }
            // The ray beyond the dog.
            let end = *self.pts.last().unwrap();
            let d = if end.r > 1e-6 { end.q / end.r } else { dir };
            let rf = far.max(end.r + RAY_EXTRA);
            self.pts.push(Pt { q: d * rf, r: rf, y: f32::NEG_INFINITY });
        }
        self.start.push(self.pts.len());
    }

    /// Point and height where a monotone strand first reaches radius r.
    fn at_radius(pts: &[Pt], r: f32) -> (Vec2, f32) {
        for w in pts.windows(2) {
            let (p, q) = (w[0], w[1]);
            if q.r >= r {
                if p.r >= r {
                    return (p.q, p.y);
                }
                // Solve |p + λ(q - p)| = r for λ ∈ [0, 1].
                let d = q.q - p.q;
                let (a, b, c) = (d.dot(d), 2.0 * p.q.dot(d), p.q.dot(p.q) - r * r);
                let lam = if a > 0.0 {
                    let disc = (b * b - 4.0 * a * c).max(0.0);
                    ((-b + disc.sqrt()) / (2.0 * a)).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                let y = if q.y == f32::NEG_INFINITY { f32::NEG_INFINITY } else { p.y + (q.y - p.y) * lam };
                return (p.q + d * lam, y);
            }
        }
        let last = pts[pts.len() - 1];
        (last.q, last.y)
    }

    fn pair_events(pts: &[Pt], start: &[usize], a: usize, b: usize, r0: f32, out: &mut Vec<Ev>) {
        let sa = &pts[start[a]..start[a + 1]];
        let sb = &pts[start[b]..start[b + 1]];
        for i in 0..sa.len() - 1 {
            let (p0, p1) = (sa[i], sa[i + 1]);
            if p1.r < r0 {
                continue;
            }
            let ray_a = p1.y == f32::NEG_INFINITY;
            for j in 0..sb.len() - 1 {
                let (q0, q1) = (sb[j], sb[j + 1]);
                // Radius ranges of monotone segments must overlap.
                if q1.r < p0.r.min(p1.r) - 1e-4 || q0.r > p1.r.max(p0.r) + 1e-4 || q1.r < r0 {
                    continue;
                }
                let ray_b = q1.y == f32::NEG_INFINITY;
                if ray_a && ray_b {
                    continue;
                }
                let Some((la, lb)) = seg_intersect(p0.q, p1.q, q0.q, q1.q) else { continue };
                let x = p0.q + (p1.q - p0.q) * la;
                let r = x.length_squared().sqrt();
                if r < r0 {
                    continue;
                }
                let ya = if ray_a { f32::NEG_INFINITY } else { p0.y + (p1.y - p0.y) * la };
                let yb = if ray_b { f32::NEG_INFINITY } else { q0.y + (q1.y - q0.y) * lb };
                let over = if ya > yb || (ya == yb && a < b) { a } else { b };
                out.push(Ev {
                    r,
                    kind: EvKind::Pair { a: a as u32, b: b as u32, over: over as u32 },
                    point: x,
                    y: ya.max(yb),
                    ray: ray_a || ray_b,
                });
            }
        }
    }

    fn seam_events(pts: &[Pt], start: &[usize], k: usize, r0: f32, out: &mut Vec<Ev>) {
        let s = &pts[start[k]..start[k + 1]];
        for i in 0..s.len() - 1 {
            let (p, q) = (s[i], s[i + 1]);
            if q.y == f32::NEG_INFINITY {
                break; // rays are radial: they never cross the seam
            }
            // Half-open: a crossing from v > 0 to v ≤ 0 or from v ≤ 0 to v > 0.
            let (vp, vq) = (p.q.y, q.q.y);
            let down = vp > 0.0 && vq <= 0.0;
            let up = vp <= 0.0 && vq > 0.0;
            if !(down || up) {
                continue;
            }
            let lam = vp / (vp - vq);
            let u = p.q.x + (q.q.x - p.q.x) * lam;
            if u >= 0.0 || -u < r0 {
                continue; // crosses in front of the handler (φ = 0), or inside the hand
            }
            out.push(Ev {
                r: -u,
                kind: EvKind::Seam { strand: k as u32, to_front: down },
                point: Vec2::new(u, 0.0),
                y: p.y + (q.y - p.y) * lam,
                ray: false,
            });
        }
    }
}

fn ev_key(e: &Ev) -> (u32, u32, u32) {
    match e.kind {
        EvKind::Pair { a, b, .. } => (0, a, b),
        EvKind::Seam { strand, to_front } => (1, strand, to_front as u32),
    }
}

/// Proper intersection of 2D segments [p0, p1] and [q0, q1], half-open at the far ends:
/// parameters (λ, μ) ∈ [0, 1)².
fn seg_intersect(p0: Vec2, p1: Vec2, q0: Vec2, q1: Vec2) -> Option<(f32, f32)> {
    let d = p1 - p0;
    let e = q1 - q0;
    let den = d.perp_dot(e);
    if den.abs() <= 1e-12 * d.length() * e.length() || den == 0.0 {
        return None; // parallel (collinear overlaps are not crossings)
    }
    let w = q0 - p0;
    let la = w.perp_dot(e) / den;
    let lb = w.perp_dot(d) / den;
    ((0.0..1.0).contains(&la) && (0.0..1.0).contains(&lb)).then_some((la, lb))
}

/// Applies one event to the sweep; false if the strands are not where the event needs them.
fn apply(
    ev: &Ev,
    order: &mut [u32],
    pos_of: &mut [usize],
    rd: &mut Reading,
    world: &dyn Fn(Vec2, f32) -> Vec3,
) -> bool {
    let n = order.len();
    let first = rd.word.len() as u32;
    match ev.kind {
        EvKind::Pair { a, b, over } => {
            let (pa, pb) = (pos_of[a as usize], pos_of[b as usize]);
            if pa.abs_diff(pb) != 1 {
                return false;
            }
            let left = pa.min(pb);
            let positive = order[left] == over;
            rd.word.push(Gen::new(left as u8 + 1, positive));
            order.swap(left, left + 1);
            pos_of[order[left] as usize] = left;
            pos_of[order[left + 1] as usize] = left + 1;
            let under = if over == a { b } else { a };
            rd.crossings.push(Crossing {
                kind: if ev.ray { CrossingKind::DogRay } else { CrossingKind::Leash },
                radius: ev.r,
                point: world(ev.point, ev.y),
                over,
                under,
                first,
                count: 1,
            });
        }
        EvKind::Seam { strand, to_front } => {
            let p = pos_of[strand as usize];
            if to_front {
                // From the left end (φ → +π) to position 1, under everyone: σₙ₋₁ ⋯ σ₁.
                if p != n - 1 {
                    return false;
                }
                for j in (1..n).rev() {
                    rd.word.push(Gen::sigma(j as u8));
                }
                order.rotate_right(1);
            } else {
                if p != 0 {
                    return false;
                }
                for j in 1..n {
                    rd.word.push(Gen::sigma_inv(j as u8));
                }
                order.rotate_left(1);
            }
            for (q, &s) in order.iter().enumerate() {
                pos_of[s as usize] = q;
            }
            rd.crossings.push(Crossing {
                kind: CrossingKind::Seam,
                radius: ev.r,
                point: world(ev.point, ev.y),
                over: strand,
                under: u32::MAX,
                first,
                count: (n - 1) as u32,
            });
        }
    }
    true
}

// ---------------------------------------------------------------------------------------
// Order changes as generators (the incremental form)
// ---------------------------------------------------------------------------------------

/// The generators that take the order `from` to the order `to` by adjacent swaps (bubble
/// sort), each signed by `left_over(left_strand, right_strand)`: true when the strand on the
/// left passes over. `from` and `to` must be permutations of the same strands.
pub fn order_change(from: &[u32], to: &[u32], left_over: impl FnMut(u32, u32) -> bool, out: &mut Vec<Gen>) {
    let mut cur = from.to_vec();
    order_change_in_place(&mut cur, to, left_over, out);
}

/// [`order_change`] working on `cur` (which ends equal to `to`): no allocation beyond `out`'s
/// growth.
fn order_change_in_place(cur: &mut [u32], to: &[u32], mut left_over: impl FnMut(u32, u32) -> bool, out: &mut Vec<Gen>) {
    let rank = |s: u32| to.iter().position(|&x| x == s).expect("orders hold the same strands");
    let n = cur.len();
    loop {
        let mut swapped = false;
        for j in 0..n.saturating_sub(1) {
            if rank(cur[j]) > rank(cur[j + 1]) {
                out.push(Gen::new(j as u8 + 1, left_over(cur[j], cur[j + 1])));
                cur.swap(j, j + 1);
                swapped = true;
            }
        }
        if !swapped {
            return;
        }
    }
}

/// Strands whose angle jumped across the seam (from above π/2 to below -π/2 or back) between
/// two frames, applied to `order` with the seam rule (under everyone), generators to `out`.
fn seam_moves(order: &mut [u32], before: &[f32], after: &[f32], out: &mut Vec<Gen>) {
    use std::f32::consts::FRAC_PI_2;
    let n = order.len();
    for k in 0..n as u32 {
        let (a0, a1) = (before[k as usize], after[k as usize]);
        let p = order.iter().position(|&s| s == k).expect("strand in order");
        if a0 > FRAC_PI_2 && a1 < -FRAC_PI_2 && p == n - 1 {
            out.extend((1..n).rev().map(|j| Gen::sigma(j as u8)));
            order.rotate_right(1);
        } else if a0 < -FRAC_PI_2 && a1 > FRAC_PI_2 && p == 0 {
            out.extend((1..n).map(|j| Gen::sigma_inv(j as u8)));
            order.rotate_left(1);
        }
    }
}

// ---------------------------------------------------------------------------------------
// The tracker: re-derived word + hand-region memory + events
// ---------------------------------------------------------------------------------------

/// Something the braid did this frame (for notification only: the word itself is always
/// re-derived from the geometry).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BraidEvent {
    /// Two dogs traded places at the dog end: `gen` was appended to the braid. `dogs` are the
    /// leashes at positions i and i+1 before the swap.
    DogsSwapped { gen: Gen, dogs: [u32; 2] },
    /// The braid changed in a way the dog-end swaps do not explain (a leash passed through
    /// another, the geometry jumped, or a fold hid a crossing): the re-derived word stands.
    Resync,
}

/// Keeps the braid of a set of leashes from frame to frame: re-reads the geometry every
/// frame, remembers crossings that slid into the hand region, and reports events.
#[derive(Clone, Debug)]
pub struct BraidTracker {
    pub frame: BraidFrame,
    reader: BraidReader,
    hub_word: Vec<Gen>,
    last_start: Vec<u32>,
    last_start_angle: Vec<f32>,
    last_end: Vec<u32>,
    last_end_angle: Vec<f32>,
    word: Vec<Gen>,
    events: Vec<BraidEvent>,
    scratch: Vec<Gen>,
    // Reused buffers (the update allocates nothing once they have grown).
    work: Vec<u32>,
    appended: Vec<Gen>,
    predicted: Vec<Gen>,
    started: bool,
    /// `hub_word`'s length after its last reduction to a normal form's short word.
    hub_reduced_len: usize,
}

/// The remembered word is reduced to its normal form's short word once it passes twice its
/// last reduced length, and not below this many letters (short words stay as read).
const HUB_REDUCE_MIN: usize = 32;

impl BraidTracker {
    pub fn new(frame: BraidFrame) -> Self {
        // Room for long words up front, so tracking every step does not allocate as the
        // braid grows (up to this length).
        const WORD_ROOM: usize = 256;
        BraidTracker {
            frame,
            reader: BraidReader::new(),
            hub_word: Vec::with_capacity(WORD_ROOM),
            last_start: Vec::new(),
            last_start_angle: Vec::new(),
            last_end: Vec::new(),
            last_end_angle: Vec::new(),
            word: Vec::with_capacity(WORD_ROOM),
            events: Vec::new(),
            scratch: Vec::with_capacity(WORD_ROOM),
            work: Vec::new(),
            appended: Vec::with_capacity(WORD_ROOM),
            predicted: Vec::with_capacity(WORD_ROOM),
            started: false,
            hub_reduced_len: 0,
        }
    }

    /// Forgets the hand-region memory: the next update takes its geometry as the reference
    /// (the word is then just what the geometry shows).
    pub fn reset(&mut self) {
        self.started = false;
        self.hub_word.clear();
        self.hub_reduced_len = 0;
    }

    /// Reads this frame's geometry; returns the events since the last update. Allocates
    /// only while its buffers grow and when the remembered word is reduced to its normal
    /// form's short word (each time it has doubled: a few times in 60,000 steps of the leash
    /// preset), so it can run every step.
    pub fn update(&mut self, strands: &[&[Vec3]]) -> &[BraidEvent] {
        self.events.clear();
        let n = strands.len();
        if self.started && self.last_start.len() != n {
            self.reset();
        }
        let frame = self.frame;
        self.reader.read(&frame, strands);
        let BraidTracker {
            reader,
            hub_word,
            last_start,
            last_start_angle,
            last_end,
            last_end_angle,
            word,
            events,
            scratch,
            work,
            appended,
            predicted,
            started,
            hub_reduced_len,
            ..
        } = self;
        let reading = reader.reading();
        if *started {
            // 1. The hand region: order changes at r = hand_radius become remembered crossings.
            if reading.start_order != *last_start {
                // Strands that crossed the seam inside the hand pass under everyone.
                work.clear();
                work.extend_from_slice(last_start);
                seam_moves(work, last_start_angle, &reading.start_angle, hub_word);
                let h = &reading.start_height;
                order_change_in_place(work, &reading.start_order, |l, r| h[l as usize] >= h[r as usize], hub_word);
                braid::free_reduce_in_place(hub_word);
                // Free reduction alone let the remembered word grow with time (the strands'
                // order at the hand's edge flickers as the dogs wander: 496 letters after
                // 52,000 steps of the leash scene for a braid whose shortest word has 24).
                // Past twice its last reduced length it is replaced by its normal form's
                // short word, the same braid (rarely: the allocations are amortised).
                if hub_word.len() > (2 * *hub_reduced_len).max(HUB_REDUCE_MIN) {
                    let short = braid::Garside::of_word(n.max(2), hub_word).to_short_word();
                    if short.len() < hub_word.len() {
                        hub_word.clear();
                        hub_word.extend_from_slice(&short);
                    }
                    *hub_reduced_len = hub_word.len();
                }
            }
        }
        // 2. The word: remembered hand-region crossings, then the geometry.
        scratch.clear();
        scratch.extend_from_slice(hub_word);
        scratch.extend_from_slice(&reading.word);
        braid::free_reduce_in_place(scratch);
        if *started {
            // 3. Events: dog-end order changes, checked against the re-derived braid.
            appended.clear();
            if reading.end_order != *last_end {
                let rd = reading;
                let pts = &*reader;
                // A dog crossing behind the handler: under everyone (the seam rule).
                work.clear();
                work.extend_from_slice(last_end);
                seam_moves(work, last_end_angle, &reading.end_angle, appended);
                order_change_in_place(
                    work,
                    &reading.end_order,
                    |l, r| {
                        // The dog nearer the hand passes under the other's leash unless that
                        // leash is lower than its collar there (then it stepped over it).
                        let (rl, rr) = (rd.end_radius[l as usize], rd.end_radius[r as usize]);
                        let (near, far) = if rl <= rr { (l, r) } else { (r, l) };
                        let collar = pts.end_height(near as usize);
                        let leash = pts.height_at(far as usize, rd.end_radius[near as usize]);
                        let far_over = leash >= collar;
                        (far == l) == far_over
                    },
                    appended,
                );
            }
            predicted.clear();
            predicted.extend_from_slice(word);
            predicted.extend_from_slice(appended);
            if *predicted == *scratch || braid::equal(n.max(2), predicted, scratch) {
                work.clear();
                work.extend_from_slice(last_end);
                for &g in appended.iter() {
                    let i = g.index() as usize - 1;
                    events.push(BraidEvent::DogsSwapped { gen: g, dogs: [work[i], work[i + 1]] });
                    work.swap(i, i + 1);
                }
            } else {
                events.push(BraidEvent::Resync);
            }
        }
        std::mem::swap(word, scratch);
        last_start.clear();
        last_start.extend_from_slice(&reading.start_order);
        last_start_angle.clear();
        last_start_angle.extend_from_slice(&reading.start_angle);
        last_end.clear();
        last_end.extend_from_slice(&reading.end_order);
        last_end_angle.clear();
        last_end_angle.extend_from_slice(&reading.end_angle);
        *started = true;
        &self.events
    }

    /// The braid (freely reduced): remembered hand-region crossings followed by the geometric
    /// word.
    pub fn word(&self) -> &[Gen] {
        &self.word
    }

    /// The part remembered from crossings inside the hand region.
    pub fn hub_word(&self) -> &[Gen] {
        &self.hub_word
    }

    /// The last geometric reading.
    pub fn reading(&self) -> &Reading {
        self.reader.reading()
    }

    /// Leashes by position at the dog end (what the moves of a hint refer to).
    pub fn dog_order(&self) -> &[u32] {
        &self.reading().end_order
    }

    /// Events of the last update.
    pub fn events(&self) -> &[BraidEvent] {
        &self.events
    }

    /// Everything the page shows about the braid.
    pub fn summary(&self, swivel: bool) -> BraidSummary {
        let n = self.reading().end_order.len().max(2);
        let hint = braid::untangle_hint(n, &self.word, swivel, braid::SearchLimits::INTERACTIVE);
        let reduced = braid::reduced_form_within(n, &self.word, braid::SearchLimits::INTERACTIVE);
        BraidSummary {
            word: braid::format_word(&self.word),
            reduced: braid::format_word(&reduced),
            normal_form: braid::Garside::of_word(n, &self.word).to_string(),
            crossings: self.reading().crossings.len(),
            trivial: braid::is_trivial(n, &self.word),
            full_twists: braid::full_twists(n, &self.word),
            hint_text: braid::describe_moves(&hint.moves, self.dog_order()).into_iter().map(|m| m.text).collect(),
            hint,
        }
    }
}

impl BraidReader {
    /// Height of strand k's (monotonised) end, i.e. the dog's collar.
    fn end_height(&self, k: usize) -> f32 {
        self.pts[self.start[k + 1] - 2].y
    }

    /// Height of strand k where it first reaches horizontal distance r (-∞ beyond its dog).
    fn height_at(&self, k: usize, r: f32) -> f32 {
        Self::at_radius(&self.pts[self.start[k]..self.start[k + 1]], r).1
    }
}

/// The braid as the page shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct BraidSummary {
    /// The word, e.g. `σ1⁻¹ σ1⁻¹` (`e` when empty).
    pub word: String,
    /// A shortest equivalent word.
    pub reduced: String,
    /// The left Garside normal form.
    pub normal_form: String,
    /// Crossings visible in the current geometry.
    pub crossings: usize,
    pub trivial: bool,
    /// `Some(k)`: only k full twists (a swivel coupler sheds them).
    pub full_twists: Option<i64>,
    pub hint: braid::Hint,
    /// The hint as sentences naming the dogs (1-based).
    pub hint_text: Vec<String>,
}
