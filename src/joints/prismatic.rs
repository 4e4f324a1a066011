//! Prismatic (slider) joint, the 001 seed's `prismatic.md`: "plane ×2 + orientation lock +
//! optional limit + optional motor". Translation along the axis a (attached to A) is free;
//! the two perpendicular translations (t₀, t₁ ⊥ a, attached to A) and all three rotations
//! are locked:
//!
//! ```text
//! C = t₀·p, t₁·p (plane rows), 2·Im(E) (orientation lock), a·p ∈ [s_min, s_max] (limit)
//! ```

use super::row::Row;
use super::setup::Setup;
use super::{orientation, plane, Frames, Motor};

pub fn rows(limit: Option<[f32; 2]>, motor: Option<Motor>) -> usize {
    5 + 2 * limit.is_some() as usize + motor.is_some() as usize
}

pub fn setup(s: &Setup, f: &Frames, rows: &mut [Row], limit: Option<[f32; 2]>, motor: Option<Motor>) {
    let (pa, pb) = (f.anchor_a(s), f.anchor_b(s));
    let p = pb - pa;
    let (s_a, r_b) = (pb - s.xa, pb - s.xb);
    let a = s.qa * f.axis_a;
    let mut k = 0;
    if let Some(m) = motor {
        plane::motor(s, &mut rows[k], a, s_a, r_b, m.speed, m.max_force);
        k += 1;
    }
    if let Some([min, max]) = limit {
        plane::limit(s, &mut rows[k..k + 2], a, s_a, r_b, a.dot(p), min, max);
        k += 2;
    }
    for t in f.perp_a {
        let t = s.qa * t;
        plane::plane(s, &mut rows[k], t, s_a, r_b, t.dot(p));
        k += 1;
    }
    orientation::lock(s, &mut rows[k..k + 3], f.q_ref);
}
