//! The 2D lock: a planar body is held in the z = 0 plane by the seed's own rows against the
//! static ground — a plane row along z (C = z of the centre of mass) and the two hinge-axis
//! rows that keep the body's local z axis parallel to the world's (C = x̂·a_B, ŷ·a_B with
//! a_B = q_B ẑ), which lock rotation about x and y and leave rotation about z free. So planar
//! scenes are the 3D solver with three more rows per body, not a second engine.

use glam::Vec3;

use super::row::Row;
use super::setup::Setup;
use super::{hinge_axis, plane};

pub const ROWS: usize = 3;

/// `s.a` is the ground, `s.b` the planar body.
pub fn setup(s: &Setup, rows: &mut [Row]) {
    plane::plane(s, &mut rows[0], Vec3::Z, s.xb, Vec3::ZERO, s.xb.z);
    hinge_axis::align(s, &mut rows[1..3], Vec3::X, Vec3::Y, s.qb * Vec3::Z);
}
