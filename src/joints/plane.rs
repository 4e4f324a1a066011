//! Plane primitive (the 001 seed's `plane.md`): `t · p = 0` removes translation along `t`;
//! with a limit it bounds the slide `a · p` to [s_min, s_max]; with a motor it drives the
//! slide speed. One scalar row each.
//!
//! ## Derivation
//! p = p_B − p_A = (x_B + r_B) − (x_A + r_A); t is attached to A, so ṫ = ω_A × t.
//!
//! ```text
//! C  = t · p
//! Ċ  = (ω_A × t) · p + t · (v_B + ω_B × r_B − v_A − ω_A × r_A)
//!    = −t · v_A + ω_A · (t × (p + r_A)) + t · v_B + ω_B · (r_B × t)   (scalar triple products)
//! J  = [−t, t × s_A, t, r_B × t],   s_A = p + r_A = p_B − x_A
//! K  = 1/m_A + 1/m_B + (t × s_A)ᵀ I_A⁻¹ (t × s_A) + (r_B × t)ᵀ I_B⁻¹ (r_B × t)
//! ```
//!
//! **Limit**: the seed's unified signed-λ row is replaced by two one-sided rows, lower
//! C = a·p − s_min ≥ 0 with J, and upper C = s_max − a·p ≥ 0 with −J, both λ ≥ 0 and both
//! present every substep as speculative rows (`Setup::inequality`), so a fast slide cannot
//! overshoot a stop and a row never has to change sides.
//!
//! **Motor**: the same J with bias −v_target (Ċ is driven to v_target) and λ ∈ ±F_max·h.

use glam::Vec3;

use super::row::{Row, Soft};
use super::setup::Setup;

/// Equality row along `t` (world, attached to A) with position error `tp` = t·p; `s_a`
/// from A's centre to the anchor on B, `r_b` from B's centre to it.
pub fn plane(s: &Setup, row: &mut Row, t: Vec3, s_a: Vec3, r_b: Vec3, tp: f32) {
    row.set_axis(s.bodies, s.a, s.b, t, s_a, r_b);
    row.soft = s.equality(tp);
    row.lo = f32::NEG_INFINITY;
    row.hi = f32::INFINITY;
}

/// Lower and upper slide limits on `ap` = a·p.
#[allow(clippy::too_many_arguments)]
pub fn limit(s: &Setup, rows: &mut [Row], a: Vec3, s_a: Vec3, r_b: Vec3, ap: f32, s_min: f32, s_max: f32) {
    let [lower, upper] = rows else { return };
    lower.set_axis(s.bodies, s.a, s.b, a, s_a, r_b);
    lower.soft = s.inequality(ap - s_min);
    (lower.lo, lower.hi) = (0.0, f32::INFINITY);
    upper.set_axis(s.bodies, s.a, s.b, -a, s_a, r_b);
    upper.soft = s.inequality(s_max - ap);
    (upper.lo, upper.hi) = (0.0, f32::INFINITY);
}

/// Slide motor: drives a·(ṗ) to `speed` (m/s) with at most `max_force` (N).
pub fn motor(s: &Setup, row: &mut Row, a: Vec3, s_a: Vec3, r_b: Vec3, speed: f32, max_force: f32) {
    row.set_axis(s.bodies, s.a, s.b, a, s_a, r_b);
    row.soft = [Soft::target(-speed); 2];
    let cap = max_force * s.h;
    (row.lo, row.hi) = (-cap, cap);
}
