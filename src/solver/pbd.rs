//! The Gauss–Seidel position-based loop shared by two solvers, `pbd` and `xpbd`: they run
//! the same passes and differ only in how the links are packed for them (in
//! `solver::begin_step`: `pbd` softens rigid links by the seed's give with Müller's
//! iteration-count correction, `xpbd` gives each link its compliance α/h² and a
//! multiplier). With zero compliance and zero give the two produce the same trajectory bit
//! for bit (the comparison view says so when they coincide).
//!
//! ## pbd
//! The 000 seed's position-based dynamics (Müller et al. 2006), Gauss–Seidel.
//!
//! Per substep: predict x̃ = x + h·v with v ← v·exp(-damping·h) + h·g (the seed's
//! `velocity *= damping`, as a rate so it does not depend on the substep count); then
//! `iterations` passes, each projecting every link in **colour order** (for a chain: the
//! even links, then the odd ones — see `topology.rs`), then bending, tethers (if enabled),
//! pins, the mouse and contacts; finally v = (x - x_prev)/h.
//!
//! Links are rigid, softened by the seed's give with Müller's iteration-count correction
//! (`constraints/length.rs`); their compliance is the XPBD solver's business. This is
//! the seed's algorithm with its flaws fixed: the bending constraint is a real one and
//! collisions carry Coulomb friction and restitution instead of zeroing velocities.
//!
//! ## xpbd
//! Extended position-based dynamics (Macklin, Müller and Chentanez 2016, "XPBD:
//! Position-Based Simulation of Compliant Constrained Dynamics"), run the way Macklin et
//! al. 2019 ("Small Steps in Physics Simulation") recommend: many substeps of one
//! iteration each (`substeps` × `iterations`, e.g. 5 × 1).
//!
//! Each link has a compliance α in m/N (0 = rigid) and a multiplier λ that starts at 0 in
//! every substep. With α̃ = α/h², one Gauss–Seidel projection (in colour order) is
//!
//! ```text
//! Δλ = -(C + α̃ λ) / (w_a + w_b + α̃),   λ += Δλ,   Δx = w ∇C Δλ
//! ```
//!
//! which converges to the implicit-Euler solution of the compliant constraint. The
//! stiffness a user sets is therefore a physical one: a hanging mass m on a link of
//! compliance α stretches it by m·g·α whatever the iteration count or the substep length
//! (both tested in `tests/solvers.rs`), unlike PBD's stiffness k, whose effect depends on
//! both. Small substeps also make the position prediction nearly exact, which is why
//! n substeps × 1 iteration beat 1 step × n iterations for the same cost.
//!
//! Bending is the XPBD angle constraint, tethers (optional) bound the stretch of long
//! ropes, pins and the mouse are compliant pins, and contacts carry friction.

use crate::constraints::{length, Direct};

use super::StepContext;

/// Stage `solve`: `iterations` Gauss–Seidel passes (links in colour order, bending, then
/// tethers on the last pass, pins, the mouse, dogs and contacts).
pub fn solve(c: &mut StepContext) {
    let iterations = c.settings.iterations.max(1);
    c.start_multipliers();
    for it in 0..iterations {
        length::sweep(&mut c.particles.pos, &c.scratch.packed, &mut c.scratch.lambda, &mut Direct);
        c.bending(&mut Direct);
        c.local(it + 1 == iterations);
    }
}
