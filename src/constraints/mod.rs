//! Constraint projections shared by every PBD-family solver, one file each with its
//! derivation on top:
//!
//! - `distance.rs`: distance links (equality) and rope links (max length only), PBD and
//!   XPBD forms;
//! - `bending.rs`: XPBD bending along ropes (an angle constraint with compliance);
//! - `tether.rs`: long-range attachments (Kim et al. 2012);
//! - `pin.rs`: pins of particles to world points and the mouse constraint.
//!
//! Every projection is written once and applied through [`Apply`]: Gauss–Seidel solvers
//! move the particles at once ([`Direct`]); the Jacobi solver accumulates the corrections
//! and their count per particle ([`Accumulate`]) and applies the (over-relaxed) average
//! after the sweep. The generic is monomorphised, so the Gauss–Seidel loop is as tight as
//! if written by hand.
//!
//! Conventions (XPBD, Macklin et al. 2016): a constraint C(x) = 0 with gradient ∇C and
//! compliance α (inverse stiffness, in the constraint's units per newton); per substep of
//! length h, α̃ = α / h² and the multiplier λ starts at 0; one projection is
//!
//! ```text
//! Δλ = -(C + α̃ λ) / (Σ_j w_j |∇_j C|² + α̃),   λ ← λ + Δλ,   Δx_j = w_j ∇_j C Δλ
//! ```
//!
//! (w = inverse mass). The force of the constraint over the substep is ∇C λ / h², so a
//! link's tension is -λ / h² (λ < 0 when stretched).
//!
//! Lengths in hot loops are `length_squared().sqrt()`, not glam's `length()`: with glam's
//! `libm` feature the latter calls libm's software `sqrtf` on wasm32, while `f32::sqrt`
//! compiles to the `f32.sqrt` instruction (and to `sqrtss` natively). IEEE square roots
//! are correctly rounded, so both give the same bits; only the speed differs.

pub mod bending;
pub mod length;
pub mod pin;
pub mod tether;

use glam::Vec3;

/// Where a projection's correction goes.
pub trait Apply {
    /// Moves particle `i` by `d` (now or later).
    fn apply(&mut self, pos: &mut [Vec3], i: usize, d: Vec3);
}

/// Gauss–Seidel: corrections move the particles at once.
pub struct Direct;

impl Apply for Direct {
    #[inline(always)]
    fn apply(&mut self, pos: &mut [Vec3], i: usize, d: Vec3) {
        pos[i] += d;
    }
}

/// Jacobi: corrections are summed per particle with a count, applied after the sweep.
pub struct Accumulate<'a> {
    pub delta: &'a mut [Vec3],
    pub count: &'a mut [f32],
}

impl Apply for Accumulate<'_> {
    #[inline(always)]
    fn apply(&mut self, _pos: &mut [Vec3], i: usize, d: Vec3) {
        self.delta[i] += d;
        self.count[i] += 1.0;
    }
}
