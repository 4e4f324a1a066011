//! The one rule every contact row follows, in its scalar form ([`normal_soft`], on the
//! shared row types of `joints::row`) and its wide form ([`normal_factors`], on four lanes
//! at once), and the constants it is tuned by. Every velocity-level contact row is built
//! from it: the body patches (`patch`, `planar`), the particles' rows against obstacles and
//! walls (`particle_rows`) and the rope–body rows (`rope_body`).
//!
//! ## The normal row
//! A contact's separation s (m, the gap along the normal n from A to B) must stay ≥ 0. Its
//! rate is Ċ = n·(v_b + ω_b × r_b − v_a − ω_a × r_a), one row of `joints::row` clamped to
//! λ ∈ [0, ∞) (contacts push, never pull). What differs from a joint's row is the bias.
//! The 001 seed drives penetration out with Baumgarte, b = −(β/h)·max(depth − slop, 0), and
//! bakes restitution into the same bias; both are what Box2D v3 stopped doing, and so does
//! this rule:
//!
//! - **A gap** (s > 0, speculative): the row lets the gap close within the substep and no
//!   more, b = s/h, rigid, in both phases. A fast body meets a thin one in the substep it
//!   would cross it, because contacts are made within a margin ([`SPECULATIVE`] plus the
//!   distance the pair can close in the step) that covers the motion.
//! - **An overlap** (s ≤ 0), biased solve: an implicit spring-damper on the overlap
//!   (`joints::row::Spring`, Box2D v3's soft step) of a [`Tuning`]'s frequency and damping
//!   ratio, b = ω/(2ζ + hω)·s, whose push-out speed is capped at [`PUSHOUT`]: b ≥ −3 m/s.
//!   A deep overlap (a body dropped into another, a teleport) then comes out at a walking
//!   pace instead of being fired out.
//! - **An overlap, relax pass**: rigid with no bias, so the push-out velocity the biased
//!   solve put into the bodies is taken back out and a resting stack does not pop.
//!
//! Restitution is in neither phase's bias (a bias restitution fights the position
//! correction and depends on the iteration count): bodies resolve their impacts before the
//! substeps (`impact`), the particles' rows have Box2D's restitution pass after relax.
//!
//! ## Two tunings
//! The spring is stiff so that a resting load sinks little (F/(m_eff ω²) per contact), and
//! capped at a quarter of the substep rate, where one implicit step of it stays accurate.
//! Two tunings are used, each for a reason:
//! - [`Tuning::BODIES`] (54 Hz, ζ = 5) between rigid bodies, doubled against an immovable
//!   one; a world setting (`contact_hertz`, `contact_damping_ratio`) overrides it. Found by
//!   a grid over frequency and damping on stacks and pyramids (see its docs).
//! - [`Tuning::PARTICLES`] (60 Hz, ζ = 10) for a particle against an obstacle, a wall or a
//!   body: Box2D v3's default contact (30 Hz, ζ = 10) as it stands against a static body
//!   (its `staticSoftness`, twice the frequency). A particle is light beside what it
//!   touches, so the contact is the static case; at the page's 4 substeps both tunings are
//!   capped to the same 60 Hz and only the damping differs.
//!
//! Position-level contacts (the rope–rope capsule projection of `collide::segments` and
//! the particles' obstacle projection of `collide::contact`, both for the position-based
//! solvers) are not rows: a projection closes an overlap in one pass, with no bias to cap.

use super::lanes::{at_least, Lane};
use crate::joints::row::{Soft, Spring};

/// Contacts within this distance (m, plus what the pair can close in the step or substep)
/// are made speculatively: the row lets the gap close and no more. Box2D v3's speculative
/// distance, four times its linear slop.
pub const SPECULATIVE: f32 = 0.02;

/// The largest speed (m/s) at which the spring pushes an overlap out: Box2D v3's
/// `contactPushMaxVelocity`.
pub const PUSHOUT: f32 = 3.0;

/// A contact spring: its frequency (Hz, before the cap at a quarter of the substep rate)
/// and damping ratio. For bodies, the world's settings `contact_hertz` and
/// `contact_damping_ratio` (Box2D v3's `b2World_SetContactTuning`), by default
/// [`Tuning::BODIES`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tuning {
    /// Hz, > 0 (the setting takes 0.01 Hz and up).
    pub hertz: f32,
    /// ≥ 0.
    pub damping_ratio: f32,
}

impl Tuning {
    /// Between rigid bodies. Box2D v3 uses 30 Hz and ζ = 10 (Rapier 30 Hz and 5). A resting
    /// stack sinks F/(m_eff ω²) per contact, so the stiffest spring every stack stands on is
    /// wanted; this one was found by a grid over frequency and damping on W6 `pyramid20`, 3D
    /// and planar 10-box towers (of 1 kg boxes, and of alternating 10 kg and 1 kg) and the
    /// 10-row 3D `pyramid` preset (docs/benchmarks.md, the W6 drift table). What lets it be
    /// this stiff:
    /// - the sweeps alternate direction every substep (`Contacts::sweep`): with every biased
    ///   sweep forward, 50 Hz rocked a 3D tower and leaned W6 by centimetres, and Box2D's
    ///   30 Hz leaned the planar 10 kg / 1 kg tower 30 cm;
    /// - a planar point's spring is that of the 3D points it stands for
    ///   (`planar::point_spring`);
    /// - a 3D patch of several points sweeps its normal rows twice (`patch::NORMAL_PASSES`).
    ///
    /// W6 sinks 9.5 mm (2.97 cm at 30 Hz, 1.07 cm at 50). Past 54 Hz the pyramid's settling
    /// turns sensitive to rounding (at 55–57 Hz two runs differing only in how the box
    /// manifolds were found ended up to 1.1 mm apart, at 54 Hz 0.44 mm), and at 58 Hz the
    /// 10-row preset drifts 6.7 mm (2.7 mm at 54).
    pub const BODIES: Tuning = Tuning { hertz: 54.0, damping_ratio: 5.0 };

    /// A particle against an obstacle, a wall or a body (see the module docs).
    pub const PARTICLES: Tuning = Tuning { hertz: 60.0, damping_ratio: 10.0 };

    /// The frequencies (Hz) for substeps of `h`: `[between movable bodies, against an
    /// immovable one]`. Against an immovable body the frequency is doubled (Box2D v3's
    /// `staticSoftness`: nothing on the other side gives, so the same frequency would sink
    /// a load deeper into the ground than into another box); both are capped at a quarter
    /// of the substep rate. (Box2D doubles after the cap, to up to half the substep rate;
    /// here the doubled one is capped too: the same 60 Hz at 4 substeps of 1/60 s.)
    pub fn hertz_at(self, h: f32) -> [f32; 2] {
        let cap = 0.25 / h;
        [self.hertz.min(cap), (2.0 * self.hertz).min(cap)]
    }

    /// [`Tuning::hertz_at`]'s springs, with the tuning's damping ratio.
    pub fn springs(self, h: f32) -> [Spring; 2] {
        self.hertz_at(h).map(|hz| Spring::new(hz, self.damping_ratio, h))
    }

    /// The spring of a particle's contact, which is the static case already (not doubled
    /// again): the frequency capped at a quarter of the substep rate.
    pub fn particle_spring(self, h: f32) -> Spring {
        Spring::new(self.hertz.min(0.25 / h), self.damping_ratio, h)
    }
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning::BODIES
    }
}

/// A spring's factors per lane (`joints::row::Spring`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Spring2<L> {
    pub rate: L,
    pub mass_scale: L,
    pub impulse_scale: L,
}

/// A row's factors in one phase per lane (`joints::row::Soft`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Soft2<L> {
    pub bias: L,
    pub mass_scale: L,
    pub impulse_scale: L,
}

/// The rule, wide: the normal row's factors `[biased solve, relax]` for separations `s`
/// (one lane or four), substeps of `h` and the overlap's spring.
#[inline(always)]
pub fn normal_factors<L: Lane>(s: L, h: L, spring: Spring2<L>) -> [Soft2<L>; 2] {
    let (zero, one) = (L::splat(0.0), L::splat(1.0));
    [solve_factors(s, h, spring), Soft2 { bias: relax_bias(s, h), mass_scale: one, impulse_scale: zero }]
}

/// [`normal_factors`]' first: the biased solve's.
#[inline(always)]
pub fn solve_factors<L: Lane>(s: L, h: L, spring: Spring2<L>) -> Soft2<L> {
    let (zero, one) = (L::splat(0.0), L::splat(1.0));
    let gap = s.gt(zero);
    let target = s / h;
    let pushed = at_least(spring.rate * s, L::splat(-PUSHOUT));
    Soft2 {
        bias: L::select(gap, target, pushed),
        mass_scale: L::select(gap, one, spring.mass_scale),
        impulse_scale: L::select(gap, zero, spring.impulse_scale),
    }
}

/// The relax phase's bias alone (its row is rigid): a gap still closes within the substep,
/// an overlap gets none. For a separation re-measured on the moved bodies before relax.
#[inline(always)]
pub fn relax_bias<L: Lane>(s: L, h: L) -> L {
    L::select(s.gt(L::splat(0.0)), s / h, L::splat(0.0))
}

/// The rule, scalar: [`normal_factors`] for one row of `joints::row`.
#[inline]
pub fn normal_soft(s: f32, h: f32, spring: Spring) -> [Soft; 2] {
    let spring = Spring2 { rate: spring.bias_rate, mass_scale: spring.mass_scale, impulse_scale: spring.impulse_scale };
    normal_factors(s, h, spring).map(|f| Soft {
        bias: f.bias,
        mass_scale: f.mass_scale,
        impulse_scale: f.impulse_scale,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec4;

    #[test]
    fn a_gap_closes_within_the_substep_and_an_overlap_is_pushed_out_at_most_pushout() {
        let h = 1.0 / 240.0;
        let spring = Tuning::BODIES.springs(h)[0];
        // A 1 cm gap: rigid, closing at s/h in both phases.
        let [solve, relax] = normal_soft(0.01, h, spring);
        assert_eq!(solve, Soft::target(0.01 / h));
        assert_eq!(relax, Soft::target(0.01 / h));
        // A 1 mm overlap: the spring's bias, under the cap; relax rigid without bias.
        let [solve, relax] = normal_soft(-0.001, h, spring);
        assert_eq!(solve, spring.on(-0.001));
        assert!(solve.bias > -PUSHOUT);
        assert_eq!(relax, Soft::RIGID);
        // A 1 m overlap: capped at the push-out speed.
        let [solve, _] = normal_soft(-1.0, h, spring);
        assert_eq!(solve.bias, -PUSHOUT);
        assert_eq!(solve.mass_scale, spring.mass_scale);
    }

    #[test]
    fn the_wide_rule_is_the_scalar_rule_lane_by_lane() {
        let h = 1.0 / 240.0;
        let springs = Tuning::BODIES.springs(h);
        let s = [0.02, -0.0005, -2.0, 0.0];
        let sp = |k: usize| springs[k % 2];
        let wide = normal_factors(
            Vec4::from(s),
            Vec4::splat(h),
            Spring2 {
                rate: Vec4::from([0, 1, 2, 3].map(|k| sp(k).bias_rate)),
                mass_scale: Vec4::from([0, 1, 2, 3].map(|k| sp(k).mass_scale)),
                impulse_scale: Vec4::from([0, 1, 2, 3].map(|k| sp(k).impulse_scale)),
            },
        );
        for k in 0..4 {
            let scalar = normal_soft(s[k], h, sp(k));
            for phase in 0..2 {
                let w = wide[phase];
                let got = Soft { bias: w.bias[k], mass_scale: w.mass_scale[k], impulse_scale: w.impulse_scale[k] };
                assert_eq!(got.bias.to_bits(), scalar[phase].bias.to_bits(), "lane {k} phase {phase}");
                assert_eq!(got, scalar[phase], "lane {k} phase {phase}");
            }
        }
    }

    #[test]
    fn both_tunings_are_capped_at_a_quarter_of_the_substep_rate() {
        // The page's 4 substeps of 1/60 s: every contact spring at the cap, 60 Hz (to f32's
        // rounding of 0.25/h).
        let h = 1.0 / 240.0;
        let cap = 0.25 / h;
        assert!((cap - 60.0f32).abs() < 1e-5);
        assert_eq!(Tuning::BODIES.hertz_at(h), [54.0, cap]);
        assert_eq!(Tuning::PARTICLES.particle_spring(h), Spring::new(cap, 10.0, h));
        // One substep of 1/60 s: 15 Hz whatever is asked.
        let h = 1.0 / 60.0;
        assert_eq!(Tuning::BODIES.hertz_at(h), [0.25 / h; 2]);
        assert!((0.25 / h - 15.0f32).abs() < 1e-5);
    }
}
