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

use glam::{Mat3, Quat, Vec3};

use super::row::{self, Row, Soft};
use super::setup::Setup;
use super::{hinge_axis, plane};

pub const ROWS: usize = 3;

/// `s.a` is the ground, `s.b` the planar body.
pub fn setup(s: &Setup, rows: &mut [Row]) {
    if !lock_rows(s, rows) {
        generic(s, rows);
    }
}

/// [`setup`] through the generic rows and block (any A).
fn generic(s: &Setup, rows: &mut [Row]) {
    let a_b = s.qb * Vec3::Z;
    plane::plane(s, &mut rows[0], Vec3::Z, s.xb, Vec3::ZERO, s.xb.z);
    hinge_axis::align(s, &mut rows[1..3], Vec3::X, Vec3::Y, a_b);
    for (row, c) in rows.iter_mut().zip([s.xb.z, a_b.x, a_b.y]) {
        row.soft = [Soft::target(c / s.h), Soft::RIGID];
    }
    // (`s.a` is the ground: `setup`.)
    row::make_lock_block(&mut rows[..3], true);
}

/// [`setup`] against an immovable A with no inverse inertia (the ground, always): the rows
/// `plane::plane` and `hinge_axis::align` build (`Row::set_jacobian`), written directly.
/// A's terms are products by its zero inverse mass and inertia and the plane row's angular
/// part on B is zero, so each effective mass is its one nonzero term (w_b for the plane
/// row, c·I_b⁻¹c for an angular row) and the values are those of the generic build (up to
/// the sign of a zero), at a fraction of its cost (it was 5 % of W6's step, once per body
/// per step). Returns false (nothing written) when A can move.
fn lock_rows(s: &Setup, rows: &mut [Row]) -> bool {
    let (ai, bi) = (s.a as usize, s.b as usize);
    let [r0, r1, r2, ..] = rows else { return false };
    if s.bodies.inv_m[ai] != 0.0 || s.bodies.inv_i[ai] != Mat3::ZERO {
        return false;
    }
    let (wb, inv_i) = (s.bodies.inv_m[bi], s.bodies.inv_i[bi]);
    let a_b = s.qb * Vec3::Z;
    let h = s.h;
    // The plane row: J = [−ẑ, ẑ × x_B, ẑ, 0] (`plane::plane` through B's centre).
    r0.a = s.a;
    r0.b = s.b;
    (r0.lin_a, r0.ang_a, r0.lin_b, r0.ang_b) = (-Vec3::Z, Vec3::Z.cross(s.xb), Vec3::Z, Vec3::ZERO);
    (r0.wa, r0.wb, r0.ia, r0.ib) = (0.0, wb, Vec3::ZERO, Vec3::ZERO);
    r0.mass = if wb > 0.0 { 1.0 / wb } else { 0.0 };
    r0.soft = [Soft::target(s.xb.z / h), Soft::RIGID];
    // The alignment rows: J = [0, c, 0, −c] with c = t × a_B (`hinge_axis::align`).
    for (row, (t, err)) in [r1, r2].into_iter().zip([(Vec3::X, a_b.x), (Vec3::Y, a_b.y)]) {
        let c = t.cross(a_b);
        let ib = inv_i * -c;
        let k = (-c).dot(ib);
        row.a = s.a;
        row.b = s.b;
        (row.lin_a, row.ang_a, row.lin_b, row.ang_b) = (Vec3::ZERO, c, Vec3::ZERO, -c);
        (row.wa, row.wb, row.ia, row.ib) = (0.0, wb, Vec3::ZERO, ib);
        row.mass = if k > 0.0 { 1.0 / k } else { 0.0 };
        row.soft = [Soft::target(err / h), Soft::RIGID];
    }
    for row in rows[..3].iter_mut() {
        (row.lo, row.hi) = (f32::NEG_INFINITY, f32::INFINITY);
    }
    row::make_lock_block(&mut rows[..3], true);
    true
}

/// The biased solve's targets C/h of rows built by [`setup`] for the pose (`x`, `q`) now,
/// Jacobians and K⁻¹ kept (the solver builds a lock once per step: `solver::body_step::rows`).
#[inline]
pub fn refresh_bias(x: Vec3, q: Quat, h: f32, rows: &mut [Row]) {
    let a_b = q * Vec3::Z;
    for (row, c) in rows.iter_mut().zip([x.z, a_b.x, a_b.y]) {
        row.soft[0].bias = c / h;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::joints::row::{SolverBodies, Spring};

    /// The direct build gives the generic build's rows (every field equal, as floats) for
    /// bodies turned about ẑ, slightly tilted and off the plane, with unequal inertias.
    #[test]
    fn the_direct_lock_rows_are_the_generic_ones() {
        let mut rng = crate::leash::Rng::new(0x9e37_79b9_7f4a_7c15);
        let mut rnd = move || rng.signed();
        let mut sb = SolverBodies::default();
        sb.resize(2);
        for case in 0..2_000 {
            let q = (Quat::from_rotation_z(3.0 * rnd()) * Quat::from_rotation_x(1e-3 * rnd() * (case % 2) as f32))
                .normalize();
            let inv_inertia = Vec3::new(1.0 + rnd().abs(), 1.5 + rnd().abs(), 0.5 + rnd().abs());
            let r = Mat3::from_quat(q);
            sb.inv_m[1] = 0.5 + rnd().abs();
            sb.inv_i[1] = r * Mat3::from_diagonal(inv_inertia) * r.transpose();
            let h = 1.0 / 240.0;
            let s = Setup {
                bodies: &sb,
                a: 0,
                b: 1,
                xa: Vec3::ZERO,
                xb: Vec3::new(10.0 * rnd(), 10.0 * rnd(), 1e-4 * rnd()),
                qa: Quat::IDENTITY,
                qb: q,
                h,
                rigid: Spring::joint(h),
                user: None,
                max_correction: super::super::setup::JOINT_MAX_CORRECTION,
            };
            let (mut fast, mut slow) = ([Row::default(); 3], [Row::default(); 3]);
            assert!(lock_rows(&s, &mut fast));
            generic(&s, &mut slow);
            assert_eq!(fast, slow, "case {case}");
            // Against the generic block of the same rows (both builds above use
            // `make_lock_block`): the same K⁻¹ (`==`: up to the sign of a zero) and, from the
            // same random velocities, the same solve, biased and relax.
            let mut reference = fast;
            row::make_block3(&mut reference, true);
            assert_eq!(fast[0].k_inv, reference[0].k_inv, "case {case}: K⁻¹");
            let mut v = [Vec3::ZERO, Vec3::new(rnd(), rnd(), rnd())];
            let mut w = [Vec3::ZERO, Vec3::new(rnd(), rnd(), rnd()) * 3.0];
            let (mut v2, mut w2) = (v, w);
            for phase in [row::Phase::Solve, row::Phase::Relax] {
                row::solve_lock(&mut fast, &mut v, &mut w, phase);
                row::solve_block3_b(&mut reference, &mut v2, &mut w2, phase);
            }
            assert_eq!((v, w), (v2, w2), "case {case}: velocities");
            let acc = |r: &[Row; 3]| r.map(|r| r.accum);
            assert_eq!(acc(&fast), acc(&reference), "case {case}: impulses");
        }
    }
}
