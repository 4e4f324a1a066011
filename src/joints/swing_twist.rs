//! Swing and twist limits (the 001 seed's `swing_twist.md`): a ragdoll joint's cone on how
//! far B's bone axis may swing away from its rest direction on A, and a range for the twist
//! about the bone. One row each (the twist as two one-sided rows here).
//!
//! ## Swing (cone)
//! a_w = q_B a_local (B's bone axis), r_w = q_A r_local (its rest direction on A).
//!
//! ```text
//! C = a_w · r_w − cos(max_swing) ≥ 0              (dot form: no acos derivative at 0 or π)
//! Ċ = (ω_B × a_w)·r_w + a_w·(ω_A × r_w) = (a_w × r_w)·(ω_B − ω_A)
//! J = [0, −s, 0, s],  s = a_w × r_w
//! ```
//!
//! The row is speculative inside the cone (as the limits in `plane.rs`), not skipped. When
//! the bone is (anti)parallel to the rest direction, s = 0 and the row has no direction: it
//! is left inactive for that substep.
//!
//! ## Twist
//! The twist angle about the bone comes from the swing–twist split of the rotation since
//! the reference, q_d = q_ref⁻¹ q_A⁻¹ q_B (B's reference frame): its twist part about
//! a_local is (q_d.w, proj_a(q_d.xyz)), so τ = 2·atan2(q_d.xyz·a_local, q_d.w). Its rate is
//! a_w·(ω_B − ω_A) up to the swing's coupling, so J = [0, −a_w, 0, a_w]; lower and upper
//! one-sided rows as for the hinge limit.

use glam::{Quat, Vec3};

use super::row::Row;
use super::setup::Setup;

/// Swing cone row: bone axis `a_w`, rest direction `r_w` (both world), half angle `max`.
pub fn swing(s: &Setup, row: &mut Row, a_w: Vec3, r_w: Vec3, max_swing: f32) {
    let axis = a_w.cross(r_w);
    if axis.length_squared() < 1e-10 {
        row.mass = 0.0;
        row.accum = 0.0;
        return;
    }
    row.set_angular(s.bodies, s.a, s.b, axis);
    row.soft = s.inequality(a_w.dot(r_w) - max_swing.cos());
    (row.lo, row.hi) = (0.0, f32::INFINITY);
}

/// Twist angle (rad, (−π, π]) about `a_local` (B's frame) since the reference `q_ref`.
#[inline]
pub fn twist_angle(qa: Quat, qb: Quat, q_ref: Quat, a_local: Vec3) -> f32 {
    let d = q_ref.inverse() * qa.inverse() * qb;
    let d = if d.w < 0.0 { -d } else { d };
    2.0 * Vec3::new(d.x, d.y, d.z).dot(a_local).atan2(d.w)
}

/// Swing angle (rad) between `a_w` and `r_w`.
#[inline]
pub fn swing_angle(a_w: Vec3, r_w: Vec3) -> f32 {
    a_w.dot(r_w).clamp(-1.0, 1.0).acos()
}

/// Twist limit rows about the bone axis `a_w` (world) at twist `tau`.
pub fn twist(s: &Setup, rows: &mut [Row], a_w: Vec3, tau: f32, min: f32, max: f32) {
    super::hinge_axis::limit(s, rows, a_w, tau, min, max);
}
