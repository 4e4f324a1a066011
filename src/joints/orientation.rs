//! Orientation lock (the 001 seed's `orientation_lock.md`): three rows that hold B's
//! orientation relative to A at its reference `q_ref` (captured when the joint is made).
//!
//! ## Derivation
//! At the velocity level "relative rotation does not change" is ω_B − ω_A = 0, one row per
//! world axis e_i: J_i = [0, −e_i, 0, e_i], K_i = e_iᵀ (I_A⁻¹ + I_B⁻¹) e_i.
//!
//! The position error must be in the same (world) frame as the rows. The target is
//! q_B* = q_A q_ref; the error rotation E with q_B = E q_B* is E = q_B q_ref⁻¹ q_A⁻¹, whose
//! axis is in world coordinates and whose rate is ω_B − ω_A, so C = 2·Im(E) (E taken with
//! w ≥ 0, the short way). **The seed** uses 2·Im(q_A⁻¹ q_B q_ref⁻¹), which is
//! q_A⁻¹ E q_A: the same error expressed in A's frame. Fed to world-axis rows it is right
//! only while A is unrotated (A = the ground); for a rotated A the bias pushes along the
//! wrong axes. ropelab uses the world-frame E.

use glam::{Quat, Vec3};

use super::row::Row;
use super::setup::Setup;

/// World-frame rotation error 2·Im(E), E = q_B q_ref⁻¹ q_A⁻¹ taken the short way.
#[inline]
pub fn error(qa: Quat, qb: Quat, q_ref: Quat) -> Vec3 {
    let e = qb * q_ref.inverse() * qa.inverse();
    let v = Vec3::new(e.x, e.y, e.z) * 2.0;
    if e.w < 0.0 {
        -v
    } else {
        v
    }
}

/// Three rows locking relative rotation to `q_ref`.
pub fn lock(s: &Setup, rows: &mut [Row], q_ref: Quat) {
    let err = error(s.qa, s.qb, q_ref);
    for (k, row) in rows.iter_mut().take(3).enumerate() {
        let e = Vec3::AXES[k];
        row.set_angular(s.bodies, s.a, s.b, e);
        row.soft = s.equality(err[k]);
        (row.lo, row.hi) = (f32::NEG_INFINITY, f32::INFINITY);
    }
}
