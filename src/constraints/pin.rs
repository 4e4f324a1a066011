//! Pins: a particle attached to a world point, optionally compliant; also the mouse
//! constraint (a compliant pin to the pointer's target).
//!
//! The pin is the vector constraint C(x) = x - t (three rows with ∇C = I), with
//! compliance α (m/N) and a vector multiplier λ. One XPBD projection is
//!
//! ```text
//! Δλ = -(C + α̃ λ) / (w + α̃),   x ← x + w Δλ          (α̃ = α / h²)
//! ```
//!
//! α = 0 puts the particle on the target at once. With α > 0 the pin is a zero-length
//! spring of stiffness 1/α: a hanging mass m sags by m g α below its target (tested). The
//! pin's pull on the particle is -λ / h² (N).

use glam::Vec3;

/// One projection of a pin of particle `i` to `target`; `alpha` = α̃.
#[inline(always)]
pub fn project(pos: &mut [Vec3], w: &[f32], i: usize, target: Vec3, alpha: f32, lambda: &mut Vec3) {
    let wi = w[i];
    if wi == 0.0 {
        return;
    }
    let c = pos[i] - target;
    let dl = -(c + *lambda * alpha) / (wi + alpha);
    *lambda += dl;
    pos[i] += dl * wi;
}
