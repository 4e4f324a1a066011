//! Distance joint: the seed's `distance_setup` (|p| = L), widened as Box2D's distance
//! joint: a length range [min, max] with an optional spring toward `length` inside it.
//!
//! - min = max = length: one row, a rigid rod (or, if soft, a spring rod);
//! - otherwise: a spring row toward `length` (if soft), then a min row (|p| ≥ min, pushes)
//!   and a max row (|p| ≤ max, pulls), both rigid speculative one-sided rows. A soft joint
//!   given no `max` has max = +∞ (`Joints::add`): its max row stays inactive, so the spring
//!   acts on both sides of `length`, as Box2D's does with its limits off.

use super::row::Row;
use super::setup::Setup;
use super::{distance_row, Frames};

pub fn rows(min: f32, max: f32, soft: bool) -> usize {
    if min < max {
        2 + soft as usize
    } else {
        1
    }
}

pub fn setup(s: &Setup, f: &Frames, rows: &mut [Row], length: f32, min: f32, max: f32) {
    let (pa, pb) = (f.anchor_a(s), f.anchor_b(s));
    if min >= max {
        // Rigid rod, or (with a user spring) a spring rod: `Setup::equality` picks.
        distance_row::distance(s, &mut rows[0], pa, pb, length);
        return;
    }
    let mut k = 0;
    if let Some(sp) = s.user {
        distance_row::spring(s, &mut rows[k], pa, pb, length, sp);
        k += 1;
    }
    // The limits stay rigid even on a soft joint.
    let rigid = Setup { user: None, ..*s };
    distance_row::min_length(&rigid, &mut rows[k], pa, pb, min);
    if max.is_finite() {
        distance_row::rope(&rigid, &mut rows[k + 1], pa, pb, max);
    } else {
        // No upper limit: the row does nothing (zero mass and impulse; its bias would be ∞).
        rows[k + 1] = Row { a: s.a, b: s.b, ..Row::default() };
    }
}
