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
    /// The fastest a rigid row may correct its position error in the biased solve (m/s, or
    /// rad/s for an angular row): [`JOINT_MAX_CORRECTION`] for joints and 2D locks, ∞ for
    /// links, pins and holds.
    pub max_correction: f32,
}

/// The cap on a rigid joint row's correction speed (m/s for linear rows, rad/s for angular
/// ones), as Box2D v3 caps its contacts' push-out (3 m/s; here `contacts::rule::PUSHOUT`). The soft
/// step's bias is rate × C (79/s at 8 substeps), so a hinge whose anchors started 4.6 m
/// apart asked for 340 m/s; on a plank also held by four rope links (the API fuzzer's plank
/// bridge) the rows cannot agree, the biased solve did not converge in its iterations, and
/// the bodies it left at hundreds of m/s and thousands of rad/s moved the anchors farther
/// each substep: NaN in the third step. Capped, the same joint closes its gap at 5 m/s and
/// no body spins faster than the bridge's ball (22.5 rad/s) over 5 s. The presets' rigid
/// joint rows ask at most 1.4 m/s (the ragdoll's), so the cap never acts on them. User
/// springs (`soft`) are not capped: their force is the spring's.
pub const JOINT_MAX_CORRECTION: f32 = 5.0;

impl Setup<'_> {
    /// Factors for an equality row with position error `c`.
    #[inline]
    pub fn equality(&self, c: f32) -> [Soft; 2] {
        match self.user {
            Some(s) => [s.on(c); 2],
            None => {
                let mut s = self.rigid.on(c);
                s.bias = s.bias.clamp(-self.max_correction, self.max_correction);
                [s, Soft::RIGID]
            }
        }
    }

    /// A point error `p` shortened so that the rigid rows' correction velocity (rate × p) is
    /// at most `max_correction` long (the per-row clamp of [`Setup::equality`] would turn
    /// its direction).
    #[inline]
    pub fn point_error(&self, p: Vec3) -> Vec3 {
        if self.user.is_some() {
            return p;
        }
        let v = self.rigid.bias_rate * p.length();
        if v > self.max_correction {
            p * (self.max_correction / v)
        } else {
            p
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
