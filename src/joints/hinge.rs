//! Hinge (revolute) joint: the seed's composition "plane ×3 (anchor coincidence) +
//! hinge axis (2 rows) + optional angle limit + optional motor". One rotational degree of
//! freedom remains, about the hinge axis.
//!
//! Rows, in solve order: the motor first (so the limits and the point rows have the last
//! word, as Box2D orders them), then the two limit rows (if any), the two alignment rows
//! and the three point rows.

use super::row::Row;
use super::setup::Setup;
use super::{ball_socket, hinge_axis, Frames, Motor};

pub fn rows(limit: Option<[f32; 2]>, motor: Option<Motor>) -> usize {
    5 + 2 * limit.is_some() as usize + motor.is_some() as usize
}

pub fn setup(s: &Setup, f: &Frames, rows: &mut [Row], limit: Option<[f32; 2]>, motor: Option<Motor>) {
    let mut k = 0;
    let a = s.qa * f.axis_a;
    if let Some(m) = motor {
        hinge_axis::motor(s, &mut rows[k], a, m.speed, m.max_force);
        k += 1;
    }
    if let Some([min, max]) = limit {
        let theta = hinge_axis::angle(s.qa, s.qb, f.q_ref, f.axis_a);
        hinge_axis::limit(s, &mut rows[k..k + 2], a, theta, min, max);
        k += 2;
    }
    let (t0, t1) = (s.qa * f.perp_a[0], s.qa * f.perp_a[1]);
    hinge_axis::align(s, &mut rows[k..k + 2], t0, t1, s.qb * f.axis_b);
    ball_socket::point(s, &mut rows[k + 2..k + 5], f.anchor_a(s), f.anchor_b(s));
}
