//! Hinge axis (the 001 seed's `hinge_axis.md`): two rows keeping B's hinge axis a_B
//! parallel to A's, leaving rotation about it free; plus the optional angle limit and motor
//! about the shared axis.
//!
//! ## Derivation
//! t₀, t₁ ⊥ a_A are attached to A, a_B to B. Aligned ⇔ t₀·a_B = 0 and t₁·a_B = 0.
//!
//! ```text
//! C_k = t_k · a_B
//! Ċ_k = (ω_A × t_k)·a_B + t_k·(ω_B × a_B) = (t_k × a_B)·(ω_A − ω_B)
//! J_k = [0, t_k × a_B, 0, −(t_k × a_B)],   K_k = cᵀ (I_A⁻¹ + I_B⁻¹) c,  c = t_k × a_B
//! ```
//!
//! **Angle limit**: θ is B's rotation about the axis relative to the reference, from the
//! twist part of the relative rotation: with q_d = q_A⁻¹ q_B q_ref⁻¹ (A's frame) and the
//! axis a in A's frame, θ = 2·atan2(q_d.xyz·a, q_d.w), wrapped to (−π, π]. θ̇ = a_w·(ω_B − ω_A)
//! gives J = [0, −a_w, 0, a_w]. As for the slide limit, two one-sided speculative rows
//! (θ − θ_min ≥ 0 with J, θ_max − θ ≥ 0 with −J), not the seed's single switching row.
//!
//! **Motor**: J = [0, −a_w, 0, a_w], bias −ω_target, λ ∈ ±T_max·h (the seed's
//! `hinge_motor_setup` and `angular_motor.md`).

use glam::{Quat, Vec3};

use super::row::{Row, Soft};
use super::setup::Setup;

/// Two alignment rows: `t0`, `t1` ⊥ A's axis (world, attached to A), `a_b` B's axis (world).
pub fn align(s: &Setup, rows: &mut [Row], t0: Vec3, t1: Vec3, a_b: Vec3) {
    for (row, t) in rows.iter_mut().zip([t0, t1]) {
        let c = t.cross(a_b);
        row.set_jacobian(s.bodies, s.a, s.b, [Vec3::ZERO, c, Vec3::ZERO, -c]);
        row.soft = s.equality(t.dot(a_b));
        (row.lo, row.hi) = (f32::NEG_INFINITY, f32::INFINITY);
    }
}

/// Signed angle (rad, in (−π, π]) of B about `axis_a` (A's frame) relative to the reference.
#[inline]
pub fn angle(qa: Quat, qb: Quat, q_ref: Quat, axis_a: Vec3) -> f32 {
    let d = qa.inverse() * qb * q_ref.inverse();
    let mut th = 2.0 * libm::atan2f(Vec3::new(d.x, d.y, d.z).dot(axis_a), d.w);
    if th > std::f32::consts::PI {
        th -= std::f32::consts::TAU;
    } else if th <= -std::f32::consts::PI {
        th += std::f32::consts::TAU;
    }
    th
}

/// Lower and upper angle limits about `a` (world) at angle `theta`.
pub fn limit(s: &Setup, rows: &mut [Row], a: Vec3, theta: f32, min: f32, max: f32) {
    let [lower, upper] = rows else { return };
    lower.set_angular(s.bodies, s.a, s.b, a);
    lower.soft = s.inequality(theta - min);
    (lower.lo, lower.hi) = (0.0, f32::INFINITY);
    upper.set_angular(s.bodies, s.a, s.b, -a);
    upper.soft = s.inequality(max - theta);
    (upper.lo, upper.hi) = (0.0, f32::INFINITY);
}

/// Angular motor about `a` (world): drives a·(ω_B − ω_A) to `speed` (rad/s) with at most
/// `max_torque` (N·m).
pub fn motor(s: &Setup, row: &mut Row, a: Vec3, speed: f32, max_torque: f32) {
    row.set_angular(s.bodies, s.a, s.b, a);
    row.soft = [Soft::target(-speed); 2];
    let cap = max_torque * s.h;
    (row.lo, row.hi) = (-cap, cap);
}
