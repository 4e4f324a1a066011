//! Distance links and rope links.
//!
//! A link between particles a and b with rest length L has
//!
//! ```text
//! C(x) = |x_b - x_a| - L,   n = (x_b - x_a) / |x_b - x_a|,   ∇_b C = n,   ∇_a C = -n
//! ```
//!
//! so |∇C|² summed with inverse masses is w_a + w_b and one XPBD projection is
//!
//! ```text
//! Δλ = -(C + α̃ λ) / (w_a + w_b + α̃),   x_a -= w_a n Δλ,   x_b += w_b n Δλ
//! ```
//!
//! With α̃ = 0 this is Müller et al.'s PBD projection (2006), which closes the whole error
//! (with one end locked, the free end moves all of it; otherwise each end moves its
//! inverse-mass share). PBD links are softened instead by a stiffness k ∈ (0, 1] that
//! scales Δλ; Müller's correction k' = 1 - (1 - k)^(1/n) for n iterations makes the
//! softening independent of the iteration count (here k = 1 - give, the seed's give).
//! XPBD links use their compliance α (m/N) instead, which is independent of both the
//! iteration count and the step (tested).
//!
//! **Rope links** are the inequality C ≤ 0 (seed 001's rope row): they pull when taut and
//! go slack when shorter than L. The multiplier of a pulling link is ≤ 0, so the XPBD
//! update clamps λ + Δλ ≤ 0: a slack link (C < 0, λ = 0) does nothing, and a link that
//! pulled earlier in the substep may give back part of its pull.

use glam::Vec3;

use super::Apply;

/// A link prepared for one step: ends, rest length, α̃ = α/h², inverse masses and the
/// gain k/(w_a + w_b + α̃) (0 when both ends are immovable), so a projection needs no
/// division but one.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Packed {
    pub a: u32,
    pub b: u32,
    pub rest: f32,
    /// α̃ = compliance / h² (0 for PBD).
    pub alpha: f32,
    /// k / (w_a + w_b + α̃), k = Müller's iteration-corrected stiffness for PBD, 1 for XPBD.
    pub gain: f32,
    pub wa: f32,
    pub wb: f32,
    /// Inequality (rope) link: pulls only.
    pub rope: bool,
}

impl Packed {
    /// Prepares link a–b; `stiff` = k (1 for XPBD), `alpha` = α̃.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub fn new(a: u32, b: u32, rest: f32, alpha: f32, stiff: f32, wa: f32, wb: f32, rope: bool) -> Packed {
        let denom = wa + wb + alpha;
        let gain = if wa + wb > 0.0 && denom > 0.0 { stiff / denom } else { 0.0 };
        Packed { a, b, rest, alpha, gain, wa, wb, rope }
    }
}

/// One projection of link `l`; returns Δλ.
#[inline(always)]
pub fn project<A: Apply>(pos: &mut [Vec3], l: &Packed, lambda: &mut f32, acc: &mut A) -> f32 {
    if l.gain == 0.0 {
        return 0.0;
    }
    let (a, b) = (l.a as usize, l.b as usize);
    let d = pos[b] - pos[a];
    let len2 = d.length_squared();
    if len2 < 1e-18 {
        return 0.0;
    }
    let len = len2.sqrt();
    let c = len - l.rest;
    if l.rope && c <= 0.0 && *lambda == 0.0 {
        return 0.0; // slack
    }
    let mut dl = -(c + l.alpha * *lambda) * l.gain;
    if l.rope {
        dl = (*lambda + dl).min(0.0) - *lambda;
    }
    *lambda += dl;
    let g = d * (dl / len);
    acc.apply(pos, a, g * -l.wa);
    acc.apply(pos, b, g * l.wb);
    dl
}

/// Gauss–Seidel sweep over `links` in order (the solvers order them by colour).
#[inline]
pub fn sweep<A: Apply>(pos: &mut [Vec3], links: &[Packed], lambda: &mut [f32], acc: &mut A) {
    for (l, lam) in links.iter().zip(lambda.iter_mut()) {
        project(pos, l, lam, acc);
    }
}

/// Müller et al.'s iteration-count correction of a PBD stiffness `k = 1 - give`.
#[inline(always)]
pub fn pbd_stiffness(give: f32, iterations: u32) -> f32 {
    if give <= 0.0 {
        1.0
    } else {
        1.0 - libm::powf(give, 1.0 / iterations.max(1) as f32)
    }
}
