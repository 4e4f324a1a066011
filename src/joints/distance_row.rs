//! Distance primitives (the 001 seed's `distance.md`): |p| − L = 0 (a rigid link or a
//! spring), and the rope's one-sided |p| ≤ L. One scalar row each.
//!
//! ## Derivation
//! With n = p/|p| (frozen for the substep) and |x|˙ = (x·ẋ)/|x|:
//!
//! ```text
//! C = |p| − L,   Ċ = n · ṗ = n · (v_B + ω_B × r_B − v_A − ω_A × r_A)
//! J = [−n, n × s_A, n, r_B × n]          (the plane row with t = n; n is not attached to
//!                                          A, but ṅ·p = 0 since ṅ ⊥ n ∥ p, so s_A = r_A + p
//!                                          gives the same value as r_A here)
//! ```
//!
//! The **rope** row is the same J with C = L − |p| ≥ 0 written as the upper side: λ ≤ 0
//! (it only pulls). It is speculative while slack, so a rope snapping taut in one substep
//! is caught at its length instead of overshooting (the seed skips the row while slack).
//! When |p| is below 1e-6 m the direction is undefined; the row is left inactive.

use glam::Vec3;

use super::row::Row;
use super::setup::Setup;

/// Anchors `pa` (on A) and `pb` (on B), world points.
#[inline]
fn axis(s: &Setup, row: &mut Row, pa: Vec3, pb: Vec3) -> Option<f32> {
    let p = pb - pa;
    // (std's sqrt: IEEE-exact, so as deterministic as libm's and much faster.)
    let len = p.length_squared().sqrt();
    if len < 1e-6 {
        row.mass = 0.0;
        row.accum = 0.0;
        return None;
    }
    row.set_axis(s.bodies, s.a, s.b, p / len, pb - s.xa, pb - s.xb);
    Some(len)
}

/// Rigid (or, with a user spring, soft) distance `rest` between the anchors; returns the
/// error |p| − rest (None when the anchors coincide).
pub fn distance(s: &Setup, row: &mut Row, pa: Vec3, pb: Vec3, rest: f32) -> Option<f32> {
    let len = axis(s, row, pa, pb)?;
    row.soft = s.equality(len - rest);
    (row.lo, row.hi) = (f32::NEG_INFINITY, f32::INFINITY);
    Some(len - rest)
}

/// A spring toward `rest` with its own factors in both phases (a soft distance joint's
/// spring row, between its min and max limits).
pub fn spring(s: &Setup, row: &mut Row, pa: Vec3, pb: Vec3, rest: f32, spring: super::row::Spring) {
    if let Some(len) = axis(s, row, pa, pb) {
        row.soft = [spring.on(len - rest); 2];
        (row.lo, row.hi) = (f32::NEG_INFINITY, f32::INFINITY);
    }
}

/// |p| ≥ `min` (pushes apart only).
pub fn min_length(s: &Setup, row: &mut Row, pa: Vec3, pb: Vec3, min: f32) {
    if let Some(len) = axis(s, row, pa, pb) {
        row.soft = s.inequality(len - min);
        (row.lo, row.hi) = (0.0, f32::INFINITY);
    }
}

/// |p| ≤ `max` (the rope: pulls together only).
pub fn rope(s: &Setup, row: &mut Row, pa: Vec3, pb: Vec3, max: f32) {
    if let Some(len) = axis(s, row, pa, pb) {
        // C = max − |p| ≥ 0 on the row J (Ċ_J = d|p|/dt = −Ċ_C): λ ≤ 0, and the speculative
        // bias is −C/h in J's sign.
        let [a, b] = s.inequality(max - len);
        row.soft = [neg_bias(a), neg_bias(b)];
        (row.lo, row.hi) = (f32::NEG_INFINITY, 0.0);
    }
}

#[inline]
fn neg_bias(mut s: super::row::Soft) -> super::row::Soft {
    s.bias = -s.bias;
    s
}
