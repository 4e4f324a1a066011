//! Angular motor (the 001 seed's `angular_motor.md`): a standalone one-row velocity drive
//! about an axis attached to A, torque-capped, with no alignment and no limit:
//!
//! ```text
//! Ċ = a·(ω_B − ω_A),  J = [0, −a, 0, a],  b = −ω_target,  λ ∈ [−T_max h, T_max h]
//! ```
//!
//! (Used beside a hinge to drive a wheel, or with ω_target = 0 and a small T_max as the
//! seed's "proportional damping" of a ragdoll's bones.)

use super::row::Row;
use super::setup::Setup;
use super::{hinge_axis, Frames, Motor};

pub const ROWS: usize = 1;

pub fn setup(s: &Setup, f: &Frames, rows: &mut [Row], m: Motor) {
    hinge_axis::motor(s, &mut rows[0], s.qa * f.axis_a, m.speed, m.max_force);
}
