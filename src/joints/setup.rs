//! What a joint's setup sees of its two bodies in one substep, and the soft factors every
//! primitive picks from (the seed's `Setup` struct, with Box2D v3's soft step in place of
//! the seed's Baumgarte `beta`: see `row.rs`).

use glam::{Quat, Vec3};

use super::row::{Soft, SolverBodies, Spring};

/// One joint's two bodies this substep. Body A is the joint's first body (or the static
/// ground), B the second.
pub struct Setup<'a> {
    pub bodies: &'a SolverBodies,
    /// Solver-body indices.
    pub a: u32,
    pub b: u32,
    /// Centres of mass and orientations.
    pub xa: Vec3,
    pub xb: Vec3,
    pub qa: Quat,
    pub qb: Quat,
    /// Substep length (s).
    pub h: f32,
    /// The rigid rows' spring in the biased solve (`Spring::joint(h)`).
    pub rigid: Spring,
    /// The joint's own spring if the user made it soft (then every equality row is this
    /// spring in both phases).
    pub user: Option<Spring>,
}

impl Setup<'_> {
    /// Factors for an equality row with position error `c`.
    #[inline]
    pub fn equality(&self, c: f32) -> [Soft; 2] {
        match self.user {
            Some(s) => [s.on(c); 2],
            None => [self.rigid.on(c), Soft::RIGID],
        }
    }

    /// Factors for an inequality row C ≥ 0 with current value `c`, as Box2D v3's limits:
    /// while the limit is not reached (c > 0) the row is *speculative* — it lets the
    /// velocity close at most the remaining gap in one substep (bias = c/h) and does nothing
    /// otherwise — so it never needs to be switched on and off (the seed skips the row while
    /// inside the limit, which lets a fast body overshoot by up to v·h before the row
    /// engages). Once violated it is an equality row's soft step, clamped λ ≥ 0.
    #[inline]
    pub fn inequality(&self, c: f32) -> [Soft; 2] {
        if c > 0.0 {
            [Soft::target(c / self.h); 2]
        } else {
            self.equality(c)
        }
    }
}
