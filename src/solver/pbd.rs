//! The 000 seed's position-based dynamics (Müller et al. 2006), Gauss–Seidel.
//!
//! Per substep: predict x̃ = x + h·v with v ← v·exp(-damping·h) + h·g (the seed's
//! `velocity *= damping`, as a rate so it does not depend on the substep count); then
//! `iterations` passes, each projecting every link in **colour order** (for a chain: the
//! even links, then the odd ones — see `topology.rs`), then bending, tethers (if enabled),
//! pins, the mouse and contacts; finally v = (x - x_prev)/h.
//!
//! Links are rigid, softened by the seed's give with Müller's iteration-count correction
//! (`constraints/distance.rs`); their compliance is the XPBD solver's business. This is
//! the seed's algorithm with its flaws fixed: the bending constraint is a real one and
//! collisions carry Coulomb friction and restitution instead of zeroing velocities.

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
