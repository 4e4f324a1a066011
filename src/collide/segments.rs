//! Rope–rope contacts: segment–segment closest points, capsule contacts, continuous
//! (swept) crossing detection, the segments' boxes and pair filter for the broad phase
//! (`collide::broad`, shared with the bodies), and the position-level contact projection with
//! Coulomb friction that the XPBD-family solvers call once per candidate pair per iteration.
//!
//! A rope segment between particles i and j is a capsule: the segment plus a radius. Two
//! capsules touch when the distance between their axes is below the radius sum.
//!
//! # Closest points
//!
//! [`closest_points`] follows Ericson, *Real-Time Collision Detection*, §5.1.9: minimise
//! |a(s) - b(t)|² over s, t ∈ [0, 1] by solving the 2×2 system for the infinite lines, clamping
//! s, recomputing t, and re-clamping s when t was clamped. Unlike the 000 seed (which divides
//! by `b` or `c`, either of which can be 0), every degenerate case is handled explicitly:
//! zero-length segments are points, and **parallel** segments (a·e - b² ≤ ε·a·e) take s at the
//! middle of the interval where their projections overlap, so a pair of parallel ropes gets a
//! contact in the middle of their overlap rather than one that jumps to an end.
//!
//! # Continuous crossing detection
//!
//! In one substep a dragged rope can jump farther than two radii and pass straight through
//! another; the discrete test then sees two separated segments on the wrong sides. With
//! endpoints moving linearly from `prev` to `pos`, the two axes are coplanar exactly when
//! f(τ) = ((a₁-a₀) × (b₁-b₀)) · (b₀-a₀) = 0, a cubic in τ ∈ [0, 1] (Provot 1997; Bridson et al.
//! 2002). [`swept_crossing`] finds its roots (split at the roots of f', then bisection in f64),
//! and reports a crossing when, at an odd number of them, the segments actually meet (axis
//! distance ≤ a tolerance). The side the segments were on before the first crossing, the sign
//! of f, fixes the contact normal, and the contact projection pushes them back to that side.
//!
//! # Contact projection (XPBD, position level)
//!
//! With closest-point parameters s, t (held fixed during one projection), the contact points
//! are p_a = (1-s)x₀ + s x₁ and p_b = (1-t)x₂ + t x₃ and the constraint is the inequality
//! C = (p_b - p_a)·n - r ≥ 0 (r = radius sum, n the unit normal from a to b). Its gradients are
//! -(1-s)n, -s n, (1-t)n, t n, so with inverse masses wᵢ the generalised inverse mass is
//! W = w₀(1-s)² + w₁s² + w₂(1-t)² + w₃t², and
//!
//! ```text
//! Δλ = (-C - α̃λ) / (W + α̃),  α̃ = compliance/h²,  λ ← max(λ + Δλ, 0)
//! Δx₀ = -w₀(1-s)Δλ n,  Δx₁ = -w₁ s Δλ n,  Δx₂ = w₂(1-t)Δλ n,  Δx₃ = w₃ t Δλ n
//! ```
//!
//! (with α = 0 one projection closes the penetration exactly).
//!
//! **Friction** (Müller et al. 2020, "Detailed Rigid Body Simulation with XPBD", §3.5): the
//! contact points' relative motion over the substep, Δp = (p_b - p_b⁰) - (p_a - p_a⁰) with
//! p⁰ from `prev` at the same s, t, has a tangential part Δp_t. Cancelling it takes
//! λ_t = |Δp_t|/W. Coulomb's law bounds the *accumulated* tangential multiplier by the
//! accumulated normal one (λ is force·h², so |f_t| ≤ μ|f_n| is λ_t ≤ μλ_n): if
//! λ_t,acc + |Δp_t|/W ≤ μs·λ_n,acc the contact sticks (all of Δp_t is removed); otherwise it
//! slides and the tangential correction is cut to μk·λ_n,acc - λ_t,acc (never negative). The
//! accumulators live in a [`ContactState`] per pair that the solver resets every substep.
//!
//! # How the solver calls this (per substep)
//!
//! ```text
//! // once per substep, after prediction (pos = predicted, prev = start of substep):
//! broad.rope_pairs(pos, prev, segs, rope_of_seg, &BroadPhaseParams { expand, swept: true, self_gap }, &mut pairs)
//! states.clear(); states.resize(pairs.len(), ContactState::default())
//! // every iteration, in the same loop as the links (Gauss–Seidel) or into the Jacobi deltas:
//! for (k, [i, j]) in pairs.iter().enumerate() {
//!     solve_segment_contact(pos, prev, inv_mass, segs[i], segs[j], &params, &mut states[k]);
//! }
//! ```
//!
//! `expand` should be the largest capsule radius plus a speculative margin of about the
//! largest distance a particle moves in a substep; with `swept: true` the boxes also cover
//! `prev`, so a pair that tunnels within the substep is still a candidate. Nothing here
//! allocates once the broad phase's buffers have grown to the scene.

use glam::{DVec3, Vec3};

/// Squared length (m²) under which a segment is treated as a point.
pub const DEGENERATE_LEN_SQ: f32 = 1e-12;
/// Relative threshold on a·e - b² under which two segments are treated as parallel.
pub const PARALLEL_EPS: f32 = 1e-6;

// ---------------------------------------------------------------------------------------
// Closest points
// ---------------------------------------------------------------------------------------

/// Closest points between segment a = [a0, a1] and segment b = [b0, b1].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Closest {
    /// Parameter on a: pa = a0 + s (a1 - a0), s ∈ [0, 1].
    pub s: f32,
    /// Parameter on b: pb = b0 + t (b1 - b0), t ∈ [0, 1].
    pub t: f32,
    pub pa: Vec3,
    pub pb: Vec3,
    /// |pb - pa|².
    pub dist_sq: f32,
}

/// Closest points between two segments (Ericson §5.1.9, with explicit degenerate and
/// parallel cases; see the module docs).
pub fn closest_points(a0: Vec3, a1: Vec3, b0: Vec3, b1: Vec3) -> Closest {
    let d1 = a1 - a0;
    let d2 = b1 - b0;
    let r = a0 - b0;
    let a = d1.dot(d1);
    let e = d2.dot(d2);
    let f = d2.dot(r);
    let (s, t);
    if a <= DEGENERATE_LEN_SQ && e <= DEGENERATE_LEN_SQ {
        s = 0.0;
        t = 0.0;
    } else if a <= DEGENERATE_LEN_SQ {
        s = 0.0;
        t = (f / e).clamp(0.0, 1.0);
    } else {
        let c = d1.dot(r);
        if e <= DEGENERATE_LEN_SQ {
            t = 0.0;
            s = (-c / a).clamp(0.0, 1.0);
        } else {
            let b = d1.dot(d2);
            let denom = a * e - b * b;
            let mut s0 = if denom > PARALLEL_EPS * a * e {
                ((b * f - c * e) / denom).clamp(0.0, 1.0)
            } else {
                // Parallel: b's endpoints project onto a at u0, u1; take the middle of the
                // overlap of [u0, u1] with [0, 1] (or the nearer end of a if none).
                let u0 = -c / a;
                let u1 = (b - c) / a;
                let (lo, hi) = (u0.min(u1).max(0.0), u0.max(u1).min(1.0));
                if lo <= hi {
                    0.5 * (lo + hi)
                } else if u0.max(u1) < 0.0 {
                    0.0
                } else {
                    1.0
                }
            };
            let mut t0 = (b * s0 + f) / e;
            if t0 < 0.0 {
                t0 = 0.0;
                s0 = (-c / a).clamp(0.0, 1.0);
            } else if t0 > 1.0 {
                t0 = 1.0;
                s0 = ((b - c) / a).clamp(0.0, 1.0);
            }
            s = s0;
            t = t0;
        }
    }
    let pa = a0 + d1 * s;
    let pb = b0 + d2 * t;
    Closest { s, t, pa, pb, dist_sq: (pb - pa).length_squared() }
}

/// A unit vector perpendicular to both directions when they are not parallel, else
/// perpendicular to the first non-degenerate one (deterministic, sign arbitrary).
pub fn fallback_normal(d1: Vec3, d2: Vec3) -> Vec3 {
    let m = d1.cross(d2);
    if m.length_squared() > 1e-12 * d1.length_squared() * d2.length_squared() && m.length_squared() > 0.0 {
        return m.normalize();
    }
    let d = if d1.length_squared() > DEGENERATE_LEN_SQ {
        d1
    } else if d2.length_squared() > DEGENERATE_LEN_SQ {
        d2
    } else {
        Vec3::X
    };
    d.any_orthonormal_vector()
}

/// Overlap of two capsules.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CapsuleContact {
    /// Unit normal from a's axis point toward b's.
    pub normal: Vec3,
    /// Axis distance |pb - pa|.
    pub dist: f32,
    /// Penetration depth, radius sum - dist (> 0).
    pub depth: f32,
    pub s: f32,
    pub t: f32,
    pub pa: Vec3,
    pub pb: Vec3,
}

/// The contact between capsules [a0, a1] and [b0, b1] whose radii add up to `radius_sum`, or
/// `None` if they do not overlap. Axes that meet exactly get [`fallback_normal`].
pub fn capsule_contact(a0: Vec3, a1: Vec3, b0: Vec3, b1: Vec3, radius_sum: f32) -> Option<CapsuleContact> {
    let c = closest_points(a0, a1, b0, b1);
    if c.dist_sq >= radius_sum * radius_sum {
        return None;
    }
    let dist = c.dist_sq.sqrt();
    let normal = if dist > 1e-7 { (c.pb - c.pa) / dist } else { fallback_normal(a1 - a0, b1 - b0) };
    Some(CapsuleContact { normal, dist, depth: radius_sum - dist, s: c.s, t: c.t, pa: c.pa, pb: c.pb })
}

// ---------------------------------------------------------------------------------------
// Continuous crossing detection
// ---------------------------------------------------------------------------------------

/// Two segment axes passed through each other during a substep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweptCrossing {
    /// Fraction of the substep at the first crossing.
    pub tau: f32,
    /// Unit direction from a toward b before the crossing: the side b must be pushed back to
    /// (the axes' common normal when they cross in their interiors, else the direction of
    /// approach).
    pub side: Vec3,
    /// The axes met away from their ends (then the contact normal follows the current common
    /// normal, oriented by `side`).
    pub interior: bool,
}

/// Detects whether segment a (moving linearly from `a_prev` to `a_now`) and segment b passed
/// through each other: an odd number of instants at which their axes are coplanar *and* within
/// `tol` of each other. See the module docs.
pub fn swept_crossing(
    a_prev: [Vec3; 2],
    b_prev: [Vec3; 2],
    a_now: [Vec3; 2],
    b_now: [Vec3; 2],
    tol: f32,
) -> Option<SweptCrossing> {
    let dv = |v: Vec3| v.as_dvec3();
    let (a0, a1, b0, b1) = (dv(a_prev[0]), dv(a_prev[1]), dv(b_prev[0]), dv(b_prev[1]));
    let (a0n, a1n, b0n, b1n) = (dv(a_now[0]), dv(a_now[1]), dv(b_now[0]), dv(b_now[1]));
    // A(τ) = a1 - a0, B(τ) = b1 - b0, C(τ) = b0 - a0, each linear in τ.
    let (ca0, cb0, cc0) = (a1 - a0, b1 - b0, b0 - a0);
    let (ca1, cb1, cc1) = ((a1n - a0n) - ca0, (b1n - b0n) - cb0, (b0n - a0n) - cc0);
    let trip = |x: DVec3, y: DVec3, z: DVec3| x.cross(y).dot(z);
    let k0 = trip(ca0, cb0, cc0);
    let k1 = trip(ca1, cb0, cc0) + trip(ca0, cb1, cc0) + trip(ca0, cb0, cc1);
    let k2 = trip(ca1, cb1, cc0) + trip(ca1, cb0, cc1) + trip(ca0, cb1, cc1);
    let k3 = trip(ca1, cb1, cc1);
    let f = |t: f64| ((k3 * t + k2) * t + k1) * t + k0;
    let scale = k0.abs().max(k1.abs()).max(k2.abs()).max(k3.abs());
    let lerp = |p: DVec3, q: DVec3, t: f64| p + (q - p) * t;
    let seg_at = |t: f64| {
        [lerp(a0, a0n, t).as_vec3(), lerp(a1, a1n, t).as_vec3(), lerp(b0, b0n, t).as_vec3(), lerp(b1, b1n, t).as_vec3()]
    };
    // Nearly parallel throughout (f ≈ 0): compare the closest-point directions at both ends.
    let len_scale = (ca0.length() * cb0.length()).max(1e-30);
    if scale <= 1e-9 * len_scale * (cc0.length() + cc1.length() + ca1.length() + cb1.length() + 1e-6) {
        let c0 = closest_points(a_prev[0], a_prev[1], b_prev[0], b_prev[1]);
        let c1 = closest_points(a_now[0], a_now[1], b_now[0], b_now[1]);
        let (d0, d1) = (c0.pb - c0.pa, c1.pb - c1.pa);
        if d0.dot(d1) < 0.0 && d0.length_squared() > 0.0 {
            return Some(SweptCrossing { tau: 0.5, side: d0.normalize(), interior: false });
        }
        return None;
    }
    // Monotone pieces of f on [0, 1]: split at the roots of f'(τ) = 3k3τ² + 2k2τ + k1.
    let mut cuts = [0.0f64, 1.0, 1.0, 1.0];
    let mut nc = 1;
    let (qa, qb, qc) = (3.0 * k3, 2.0 * k2, k1);
    if qa.abs() > 1e-12 * scale {
        let disc = qb * qb - 4.0 * qa * qc;
        if disc > 0.0 {
            let sq = disc.sqrt();
            let mut r = [(-qb - sq) / (2.0 * qa), (-qb + sq) / (2.0 * qa)];
            crate::sort::insertion_sort_by(&mut r, |x, y| x.total_cmp(y).is_lt());
            for x in r {
                if x > 0.0 && x < 1.0 {
                    cuts[nc] = x;
                    nc += 1;
                }
            }
        }
    } else if qb.abs() > 1e-12 * scale {
        let x = -qc / qb;
        if x > 0.0 && x < 1.0 {
            cuts[nc] = x;
            nc += 1;
        }
    }
    cuts[nc] = 1.0;
    let mut hits = 0;
    let mut first: Option<SweptCrossing> = None;
    let mut lo = 0.0f64;
    let mut f_lo = f(0.0);
    for &hi in &cuts[1..=nc] {
        let f_hi = f(hi);
        // A root in (lo, hi]: a strict sign change (a zero at an end counts once, at its right).
        let has_root = (f_lo < 0.0 && f_hi >= 0.0) || (f_lo > 0.0 && f_hi <= 0.0);
        if has_root {
            let (mut l, mut h) = (lo, hi);
            for _ in 0..60 {
                let m = 0.5 * (l + h);
                if (f(m) < 0.0) == (f_lo < 0.0) {
                    l = m;
                } else {
                    h = m;
                }
            }
            let tau = 0.5 * (l + h);
            let [p0, p1, q0, q1] = seg_at(tau);
            let c = closest_points(p0, p1, q0, q1);
            if c.dist_sq <= tol * tol {
                hits += 1;
                if first.is_none() {
                    // Before the root f has the sign of f_lo: b lay on the side sign(f_lo)·(A×B).
                    // That common normal separates axes that cross in their interiors; when
                    // one passes through the other near an end, the direction from a to b
                    // on the way in (halfway to the crossing) is the side to restore.
                    let m = (p1 - p0).cross(q1 - q0);
                    let inner = |u: f32| u > 0.02 && u < 0.98;
                    let interior = inner(c.s) && inner(c.t) && m.length_squared() > 1e-20;
                    let approach = || {
                        let [p0, p1, q0, q1] = seg_at(0.5 * tau);
                        let c = closest_points(p0, p1, q0, q1);
                        (c.pb - c.pa).try_normalize()
                    };
                    let side = if interior {
                        m.normalize() * (f_lo.signum() as f32)
                    } else if let Some(d) = approach() {
                        d
                    } else if m.length_squared() > 1e-20 {
                        m.normalize() * (f_lo.signum() as f32)
                    } else {
                        Vec3::Y
                    };
                    first = Some(SweptCrossing { tau: tau as f32, side, interior });
                }
            }
        }
        lo = hi;
        f_lo = f_hi;
    }
    if hits % 2 == 1 {
        first
    } else {
        None
    }
}

// ---------------------------------------------------------------------------------------
// Contact projection with friction
// ---------------------------------------------------------------------------------------

/// Material and step data for [`solve_segment_contact`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactParams {
    /// Sum of the two capsule radii (m).
    pub radius_sum: f32,
    /// Static friction coefficient μs.
    pub mu_s: f32,
    /// Dynamic friction coefficient μk (≤ μs).
    pub mu_k: f32,
    /// Normal compliance (m/N); 0 = rigid.
    pub compliance: f32,
    /// Substep length h (s), for α̃ = compliance / h².
    pub h: f32,
    /// Run the swept crossing test against `prev` (recommended; costs a cubic per pair).
    pub ccd: bool,
}

impl Default for ContactParams {
    fn default() -> Self {
        ContactParams { radius_sum: 0.02, mu_s: 0.5, mu_k: 0.4, compliance: 0.0, h: 1.0 / 240.0, ccd: true }
    }
}

/// Per-pair multipliers accumulated over one substep (reset to default every substep).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ContactState {
    /// Accumulated normal multiplier λ_n (N·s², ≥ 0).
    pub lambda_n: f32,
    /// Accumulated tangential multiplier λ_t (N·s², ≥ 0).
    pub lambda_t: f32,
}

/// What one projection did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactReport {
    /// Unit normal from a toward b.
    pub normal: Vec3,
    /// Penetration before this projection (radius sum - signed axis distance; > 0).
    pub depth: f32,
    pub s: f32,
    pub t: f32,
    /// Normal multiplier applied by this call.
    pub dlambda_n: f32,
    /// Tangential multiplier applied by this call.
    pub dlambda_t: f32,
    /// Friction held the contact (static) in this call.
    pub sticking: bool,
    /// The axes had passed through each other and were pushed back to their `prev` side.
    pub crossed: bool,
}

/// Projects the contact between rope segments `a` = [i₀, i₁] and `b` = [i₂, i₃] (particle
/// indices into `pos`, `prev`, `inv_mass`): pushes penetrating or crossed capsules apart along
/// the normal with barycentric weights and inverse masses, then applies Coulomb friction
/// clamped by the accumulated normal multiplier (static/dynamic). Returns `None` (and changes
/// nothing) when the capsules neither overlap nor crossed. Gauss–Seidel form of
/// [`segment_contact_deltas`]; see the module docs for the formulas and the call pattern.
#[allow(clippy::too_many_arguments)]
pub fn solve_segment_contact(
    pos: &mut [Vec3],
    prev: &[Vec3],
    inv_mass: &[f32],
    a: [u32; 2],
    b: [u32; 2],
    p: &ContactParams,
    state: &mut ContactState,
) -> Option<ContactReport> {
    let idx = [a[0] as usize, a[1] as usize, b[0] as usize, b[1] as usize];
    let (report, dx) =
        segment_contact_deltas(idx.map(|i| pos[i]), idx.map(|i| prev[i]), idx.map(|i| inv_mass[i]), p, state)?;
    for k in 0..4 {
        pos[idx[k]] += dx[k];
    }
    Some(report)
}

/// The pure core of [`solve_segment_contact`]: for the four particles (a₀, a₁, b₀, b₁) at
/// `x`, `x_prev` with inverse masses `w`, the report and the position changes to apply
/// (normal and friction together), updating the pair's accumulators in `state`. A Jacobi
/// solver adds the deltas to its per-particle sums instead of applying them at once.
pub fn segment_contact_deltas(
    x: [Vec3; 4],
    x_prev: [Vec3; 4],
    w: [f32; 4],
    p: &ContactParams,
    state: &mut ContactState,
) -> Option<(ContactReport, [Vec3; 4])> {
    let r = p.radius_sum;
    let tol = 0.5 * r.max(1e-6);
    let m = |k: usize| (x[k] - x_prev[k]).length_squared();
    // Cheaper early out first: the axis distance is at least the gap between the segments'
    // boxes (see the reach argument below).
    let gap = (x[2].min(x[3]) - x[0].max(x[1])).max(x[0].min(x[1]) - x[2].max(x[3])).max_element();
    if gap > r {
        let reach = tol + m(0).max(m(1)).sqrt() + m(2).max(m(3)).sqrt();
        if !p.ccd || gap > reach {
            return None;
        }
    }
    let c = closest_points(x[0], x[1], x[2], x[3]);
    // Early out (exact): every point of a segment moves at most as far as its farther end
    // over the substep, so the axis distance changes at most by m_a + m_b. If they are now
    // farther apart than that plus the crossing tolerance, they never met: no crossing, and
    // no overlap either.
    if c.dist_sq >= r * r {
        let (ma, mb) = (m(0).max(m(1)).sqrt(), m(2).max(m(3)).sqrt());
        let reach = tol + ma + mb;
        if !p.ccd || c.dist_sq > reach * reach {
            return None;
        }
    }
    let crossing = if p.ccd {
        swept_crossing([x_prev[0], x_prev[1]], [x_prev[2], x_prev[3]], [x[0], x[1]], [x[2], x[3]], 0.5 * r.max(1e-6))
    } else {
        None
    };
    let d = c.pb - c.pa;
    let (normal, cval) = if let Some(cr) = crossing {
        // Push back to the side b was on at the start of the substep: the direction between
        // the closest points at `prev` (fixed for the whole substep, so iterations agree),
        // following the current common normal when the axes crossed in their interiors.
        let c0 = closest_points(x_prev[0], x_prev[1], x_prev[2], x_prev[3]);
        let n0 = (c0.pb - c0.pa).try_normalize().unwrap_or(cr.side);
        let m = (x[1] - x[0]).cross(x[3] - x[2]);
        let n = if cr.interior && m.length_squared() > 1e-20 {
            let n = m.normalize();
            if n.dot(n0) < 0.0 {
                -n
            } else {
                n
            }
        } else {
            n0
        };
        (n, d.dot(n) - r)
    } else {
        if c.dist_sq >= r * r {
            return None;
        }
        let dist = c.dist_sq.sqrt();
        let n = if dist > 1e-7 {
            d / dist
        } else {
            // Axes meet: orient the fallback normal by where b was relative to a at `prev`.
            let c0 = closest_points(x_prev[0], x_prev[1], x_prev[2], x_prev[3]);
            let n = fallback_normal(x[1] - x[0], x[3] - x[2]);
            if n.dot(c0.pb - c0.pa) < 0.0 {
                -n
            } else {
                n
            }
        };
        (n, dist - r)
    };
    if cval >= 0.0 {
        return None;
    }
    let (s, t) = (c.s, c.t);
    let wt = [1.0 - s, s, 1.0 - t, t];
    let sgn = [-1.0f32, -1.0, 1.0, 1.0];
    let wsum: f32 = (0..4).map(|k| w[k] * wt[k] * wt[k]).sum();
    let mut report = ContactReport {
        normal,
        depth: -cval,
        s,
        t,
        dlambda_n: 0.0,
        dlambda_t: 0.0,
        sticking: false,
        crossed: crossing.is_some(),
    };
    let mut dx = [Vec3::ZERO; 4];
    if wsum <= 0.0 {
        return Some((report, dx));
    }
    // Normal.
    let alpha = if p.h > 0.0 { p.compliance / (p.h * p.h) } else { 0.0 };
    let mut dl = (-cval - alpha * state.lambda_n) / (wsum + alpha);
    dl = dl.max(-state.lambda_n);
    state.lambda_n += dl;
    for k in 0..4 {
        dx[k] = normal * (sgn[k] * w[k] * wt[k] * dl);
    }
    report.dlambda_n = dl;
    // Friction, on the positions after the normal correction.
    if state.lambda_n > 0.0 && (p.mu_s > 0.0 || p.mu_k > 0.0) {
        let y = [x[0] + dx[0], x[1] + dx[1], x[2] + dx[2], x[3] + dx[3]];
        let pa = y[0].lerp(y[1], s);
        let pb = y[2].lerp(y[3], t);
        let pa0 = x_prev[0].lerp(x_prev[1], s);
        let pb0 = x_prev[2].lerp(x_prev[3], t);
        let dp = (pb - pb0) - (pa - pa0);
        let dpt = dp - normal * dp.dot(normal);
        let len = dpt.length();
        if len > 1e-9 {
            let full = len / wsum;
            let dlt = if state.lambda_t + full <= p.mu_s * state.lambda_n {
                report.sticking = true;
                full
            } else {
                full.min((p.mu_k * state.lambda_n - state.lambda_t).max(0.0))
            };
            if dlt > 0.0 {
                let dir = dpt / len;
                state.lambda_t += dlt;
                for k in 0..4 {
                    // Reduce the relative tangential motion: b back along dir, a forward.
                    dx[k] -= dir * (sgn[k] * w[k] * wt[k] * dlt);
                }
                report.dlambda_t = dlt;
            }
        }
    }
    Some((report, dx))
}

// ---------------------------------------------------------------------------------------
// Broad phase: the segments' boxes and pair filter (the sweep is `collide::broad`'s)
// ---------------------------------------------------------------------------------------

pub use super::broad::Aabb;

/// Parameters of the rope pass of the broad phase ([`BroadPhase::rope_pairs`](super::broad::BroadPhase::rope_pairs)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BroadPhaseParams {
    /// Added to every side of every box (m): the largest capsule radius plus a speculative
    /// margin. Two capsules can only touch if their boxes overlap when this is ≥ their radii.
    pub expand: f32,
    /// Boxes also cover the segments at `prev` (swept boxes), for the crossing test.
    pub swept: bool,
    /// `None`: no pairs within one rope. `Some(g)`: also pairs of the same rope whose segment
    /// indices differ by at least g (segments of a rope are consecutive in the list).
    pub self_gap: Option<u32>,
}

impl Default for BroadPhaseParams {
    fn default() -> Self {
        BroadPhaseParams { expand: 0.02, swept: true, self_gap: None }
    }
}

/// Whether segments i and j may form a contact pair: they share no particle, and they belong
/// to different ropes (or to the same rope at least `self_gap` segments apart).
#[inline]
pub fn pair_allowed(i: usize, j: usize, segs: &[[u32; 2]], rope: &[u32], self_gap: Option<u32>) -> bool {
    let (a, b) = (segs[i], segs[j]);
    if a[0] == b[0] || a[0] == b[1] || a[1] == b[0] || a[1] == b[1] {
        return false;
    }
    if rope[i] != rope[j] {
        return true;
    }
    match self_gap {
        Some(g) => i.abs_diff(j) >= g as usize,
        None => false,
    }
}

/// The box of segment `seg` (at `pos`, and at `prev` too when `swept`), grown by `expand`.
#[inline]
pub fn segment_box(pos: &[Vec3], prev: &[Vec3], seg: [u32; 2], expand: f32, swept: bool) -> Aabb {
    let (p, q) = (pos[seg[0] as usize], pos[seg[1] as usize]);
    let (mut lo, mut hi) = (p.min(q), p.max(q));
    if swept {
        let (p0, q0) = (prev[seg[0] as usize], prev[seg[1] as usize]);
        lo = lo.min(p0).min(q0);
        hi = hi.max(p0).max(q0);
    }
    Aabb { min: lo - Vec3::splat(expand), max: hi + Vec3::splat(expand) }
}

/// Reference O(n²) version of the broad phase (for tests and debugging): every allowed pair
/// whose boxes overlap, sorted.
pub fn brute_force_pairs(
    pos: &[Vec3],
    prev: &[Vec3],
    segs: &[[u32; 2]],
    rope: &[u32],
    params: &BroadPhaseParams,
) -> Vec<[u32; 2]> {
    let boxes: Vec<Aabb> = segs.iter().map(|&s| segment_box(pos, prev, s, params.expand, params.swept)).collect();
    let mut out = Vec::new();
    for i in 0..segs.len() {
        for j in i + 1..segs.len() {
            if boxes[i].overlaps(&boxes[j]) && pair_allowed(i, j, segs, rope, params.self_gap) {
                out.push([i as u32, j as u32]);
            }
        }
    }
    out
}
