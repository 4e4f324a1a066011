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

use crate::constraints::{distance, Direct};
use crate::world::World;

use super::Ctx;

pub fn substep(world: &mut World, h: f32) {
    let iterations = world.settings.iterations.max(1);
    let mut c = Ctx::new(world, h);
    c.integrate();
    c.start_multipliers();
    for it in 0..iterations {
        distance::sweep(&mut c.p.pos, &c.sc.packed, &mut c.sc.lambda, &mut Direct);
        c.bending(&mut Direct);
        c.local(it + 1 == iterations);
    }
    c.velocities();
}
