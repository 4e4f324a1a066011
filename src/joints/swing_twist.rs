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
//! a_local is (q_d.w, proj_a(q_d.xyz)), so τ = 2·atan2(q_d.xyz·a_local, q_d.w); lower and
//! upper one-sided rows as for the hinge limit.
//!
//! **Its rate (where the earlier version was wrong).** It took τ̇ = a_w·(ω_B − ω_A), which
//! holds only with no swing: swinging the bone while it is swung already changes τ, and
//! the row did not see it. The exact rate: with Δω = ω_B − ω_A and Ω = q_B⁻¹ Δω (B's frame),
//! q̇_d = ½ q_d (0, Ω). Write q_d = (w, v), p = v·a, v⊥ = v − p a (a = a_local). Then
//! ẇ = −½ v·Ω and ṗ = ½ Ω·(w a + a × v), and τ̇ = 2 (w ṗ − p ẇ)/(w² + p²) gives
//!
//! ```text
//! τ̇ = j·Δω,   j = q_B ( a + (w (a × v⊥) + p v⊥) / (w² + p²) ),    J = [0, −j, 0, j]
//! ```
//!
//! (even in q_d's sign; j = a_w when v⊥ = 0, i.e. no swing). At the cone's edge of a
//! 0.7 rad shoulder the extra term is 39 % of |a|, and a shaken arm went 0.04–0.05 rad past
//! its twist limit at any substep or iteration count with a_w; with j it stays within
//! 0.01 rad (tests/joints.rs). w² + p² = cos²(swing/2) vanishes only at a swing of π, where
//! the twist is undefined: there j falls back to a_w.

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
    row.soft = s.inequality(a_w.dot(r_w) - libm::cosf(max_swing));
    (row.lo, row.hi) = (0.0, f32::INFINITY);
}

/// Twist angle (rad, (−π, π]) about `a_local` (B's frame) since the reference `q_ref`.
#[inline]
pub fn twist_angle(qa: Quat, qb: Quat, q_ref: Quat, a_local: Vec3) -> f32 {
    let d = q_ref.inverse() * qa.inverse() * qb;
    let d = if d.w < 0.0 { -d } else { d };
    2.0 * libm::atan2f(Vec3::new(d.x, d.y, d.z).dot(a_local), d.w)
}

/// The twist's rate axis j (world): τ̇ = j·(ω_B − ω_A) for τ = [`twist_angle`] (see the
/// module docs).
#[inline]
pub fn twist_rate_axis(qa: Quat, qb: Quat, q_ref: Quat, a_local: Vec3) -> Vec3 {
    let d = q_ref.inverse() * qa.inverse() * qb;
    let v = Vec3::new(d.x, d.y, d.z);
    let p = v.dot(a_local);
    let v_perp = v - a_local * p;
    let n = d.w * d.w + p * p;
    if n < 1e-6 {
        return qb * a_local;
    }
    qb * (a_local + (d.w * a_local.cross(v_perp) + p * v_perp) / n)
}

/// Swing angle (rad) between `a_w` and `r_w`.
#[inline]
pub fn swing_angle(a_w: Vec3, r_w: Vec3) -> f32 {
    libm::acosf(a_w.dot(r_w).clamp(-1.0, 1.0))
}

/// Twist limit rows at twist `tau`, whose rate axis is `j` ([`twist_rate_axis`]).
pub fn twist(s: &Setup, rows: &mut [Row], j: Vec3, tau: f32, min: f32, max: f32) {
    super::hinge_axis::limit(s, rows, j, tau, min, max);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// τ̇ = j·(ω_B − ω_A) against a finite difference of τ, swung and twisted.
    #[test]
    fn twist_rate_axis_matches_a_finite_difference() {
        let a = Vec3::new(1.0, 2.0, -0.5).normalize();
        let q_ref = Quat::from_rotation_y(0.3);
        for (swing, tw) in [(0.0f32, 0.2f32), (0.7, 0.3), (1.2, -0.4), (2.5, 0.1)] {
            let qa = Quat::from_rotation_x(0.4) * Quat::from_rotation_z(-0.2);
            let perp = a.any_orthonormal_vector();
            // B = A · q_ref · swing · twist (B's frame).
            let d = Quat::from_axis_angle(perp, swing) * Quat::from_axis_angle(a, tw);
            let qb = qa * q_ref * d;
            assert!((twist_angle(qa, qb, q_ref, a) - tw).abs() < 1e-4);
            let j = twist_rate_axis(qa, qb, q_ref, a);
            let mut old_err = 0.0f32;
            for dw in [Vec3::X, Vec3::Y, Vec3::Z, Vec3::new(0.3, -0.7, 0.2)] {
                let eps = 1e-3f32;
                let (wb, wa) = (dw * 0.7, -dw * 0.3); // ω_B − ω_A = dw
                let step = |q: Quat, w: Vec3, t: f32| Quat::from_scaled_axis(w * t) * q;
                let t1 = twist_angle(step(qa, wa, eps), step(qb, wb, eps), q_ref, a);
                let t0 = twist_angle(step(qa, wa, -eps), step(qb, wb, -eps), q_ref, a);
                let fd = (t1 - t0) / (2.0 * eps);
                assert!((fd - j.dot(dw)).abs() < 2e-3, "swing {swing}: {fd} vs {}", j.dot(dw));
                old_err = old_err.max((fd - (qb * a).dot(dw)).abs());
            }
            // The earlier rate axis a_w is right only without swing.
            if swing > 0.5 {
                assert!(old_err > 0.1, "swing {swing}: a_w off by only {old_err}");
            }
        }
    }
}
