//! Swing-twist (ragdoll shoulder) joint, the seed's composition "plane ×3 + swing limit +
//! twist limit": a ball-socket whose bone (B's axis) stays inside a cone about its rest
//! direction on A and twists about itself only within [min, max].
//!
//! The bone axis is the joint's axis, taken in B's frame; its rest direction is the same
//! axis taken in A's frame at creation (so the cone is centred on the pose the joint was
//! made in).

use super::row::Row;
use super::setup::Setup;
use super::{ball_socket, swing_twist, Frames};

pub const ROWS: usize = 6;

pub fn setup(s: &Setup, f: &Frames, rows: &mut [Row], max_swing: f32, twist: [f32; 2]) {
    let a_w = s.qb * f.axis_b;
    let r_w = s.qa * f.axis_a;
    swing_twist::swing(s, &mut rows[0], a_w, r_w, max_swing);
    let tau = swing_twist::twist_angle(s.qa, s.qb, f.q_ref, f.axis_b);
    let j = swing_twist::twist_rate_axis(s.qa, s.qb, f.q_ref, f.axis_b);
    swing_twist::twist(s, &mut rows[1..3], j, tau, twist[0], twist[1]);
    ball_socket::point(s, &mut rows[3..6], f.anchor_a(s), f.anchor_b(s));
}
