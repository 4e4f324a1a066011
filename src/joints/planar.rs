//! The 2D lock: a planar body is held in the z = 0 plane by the seed's own rows against the
//! static ground — a plane row along z (C = z of the centre of mass) and the two hinge-axis
//! rows that keep the body's local z axis parallel to the world's (C = x̂·a_B, ŷ·a_B with
//! a_B = q_B ẑ), which lock rotation about x and y and leave rotation about z free. So planar
//! scenes are the 3D solver with three more rows per body, not a second engine.
//!
//! ## Exact, not soft (where the earlier version leaked)
//! These rows were ordinary rigid rows: a soft spring in the biased solve, rigid in relax.
//! A soft row removes only part of the out-of-plane velocity before the positions are
//! integrated (at 4 substeps of 1/60 s its mass scale is 0.90), so whatever the other rows
//! put out of plane — a ball-socket's z row acts through levers in the plane and so turns
//! the body about x and y — or an out-of-plane spin the user gives a body moved it out of
//! the plane for a substep before the spring pulled it back: a 6-box chain kicked at
//! 3 rad/s about x left z = 0 by 4e-6 m and tilted 6e-4 rad. The two hinge-axis rows were
//! also solved one after the other, and with a box's in-plane inertia not diagonal in the
//! world frame the second undid part of the first.
//!
//! Now the three rows are one block (`row::make_block3`: K = J M⁻¹ Jᵀ inverted, so one solve
//! zeroes v_z, ω_x and ω_y together; against the ground the plane row has no lever and is
//! decoupled from the other two) and rigid in both phases, with bias C/h in the biased
//! solve (the exact projection: C + h Ċ = 0) and none in relax. They are the last rows of
//! every sweep, so the velocities that are integrated and written back are planar exactly:
//! z and the tilt stay 0 to rounding (tests/joints.rs: 1e-13 m and 2e-11 after every box
//! of a chain is kicked at 3 rad/s out of the plane).
//! The bias velocity C/h — nonzero only after rounding or a body made off the plane — is
//! taken back out by the relax pass as every other row's, so it adds no energy; and a 2D
//! lock has no reaction force anyone reads, so its stiffness costs nothing the soft step
//! protects.

use glam::{Quat, Vec3};

use super::row::{self, Row, Soft};
use super::setup::Setup;
use super::{hinge_axis, plane};

pub const ROWS: usize = 3;

/// `s.a` is the ground, `s.b` the planar body.
pub fn setup(s: &Setup, rows: &mut [Row]) {
    let a_b = s.qb * Vec3::Z;
    plane::plane(s, &mut rows[0], Vec3::Z, s.xb, Vec3::ZERO, s.xb.z);
    hinge_axis::align(s, &mut rows[1..3], Vec3::X, Vec3::Y, a_b);
    for (row, c) in rows.iter_mut().zip([s.xb.z, a_b.x, a_b.y]) {
        row.soft = [Soft::target(c / s.h), Soft::RIGID];
    }
    row::make_lock_block(&mut rows[..3]);
}

/// The biased solve's targets C/h of rows built by [`setup`] for the pose (`x`, `q`) now,
/// Jacobians and K⁻¹ kept (the solver builds a lock once per step: `solver::impulse`).
#[inline]
pub fn refresh_bias(x: Vec3, q: Quat, h: f32, rows: &mut [Row]) {
    let a_b = q * Vec3::Z;
    for (row, c) in rows.iter_mut().zip([x.z, a_b.x, a_b.y]) {
        row.soft[0].bias = c / h;
    }
}
