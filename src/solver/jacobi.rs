//! The 000 seed's Jacobi solver, done right: the parallel-friendly form of PBD.
//!
//! Per iteration every link (and bend) computes its PBD correction from the *same*
//! positions; corrections and their count are summed per particle (the seed used
//! `omp atomic` on vectors, which is not valid OpenMP; a parallel build would use a
//! per-thread accumulator or the colour classes instead), then each particle moves by
//! the over-relaxed average
//!
//! ```text
//! x_i ← x_i + ω · (Σ_c Δx_i,c) / n_i        (n_i = corrections received, 0 < ω < 2)
//! ```
//!
//! Averaging keeps a particle pulled by several constraints from overshooting (plain
//! Jacobi summation diverges on stiff chains); ω > 1 wins back some of the speed that
//! averaging costs. Tethers, pins, the mouse and contacts touch one particle each and
//! are applied directly after the averaged step; rope–rope contacts are computed from the
//! same positions as the links (`collide::segments::segment_contact_deltas`) and averaged
//! with them. Converges to the same constraint
//! manifold as Gauss–Seidel, more slowly (tested: same static equilibrium).

use glam::Vec3;

use crate::constraints::{length, Accumulate};

use super::StepContext;

/// Stage `solve`: `iterations` Jacobi passes (links and rope contacts averaged per
/// particle with over-relaxation ω, bending likewise, then the particle-local constraints).
pub fn solve(c: &mut StepContext) {
    let iterations = c.settings.iterations.max(1);
    let omega = c.settings.omega;
    c.start_multipliers();
    let n = c.particles.len();
    for it in 0..iterations {
        {
            let sc = &mut *c.scratch;
            let mut acc = Accumulate { delta: &mut sc.delta[..n], count: &mut sc.count[..n] };
            length::sweep(&mut c.particles.pos, &sc.packed, &mut sc.lambda, &mut acc);
            // Rope–rope contacts from the same positions, averaged with the links.
            if c.out.rope.active {
                let rope = &mut c.out.rope;
                super::project_rope_contacts(
                    &mut c.particles.pos,
                    &c.particles.prev,
                    &c.particles.inv_mass,
                    c.ropes,
                    rope,
                    c.settings,
                    c.h,
                    &mut acc,
                );
            }
        }
        if c.settings.bending {
            let (delta, count) = (std::mem::take(&mut c.scratch.delta), std::mem::take(&mut c.scratch.count));
            let (mut delta, mut count) = (delta, count);
            c.bending(&mut Accumulate { delta: &mut delta[..n], count: &mut count[..n] });
            c.scratch.delta = delta;
            c.scratch.count = count;
        }
        let pos = &mut c.particles.pos[..n];
        let (delta, count) = (&mut c.scratch.delta[..n], &mut c.scratch.count[..n]);
        for i in 0..n {
            if count[i] > 0.0 {
                pos[i] += delta[i] * (omega / count[i]);
                delta[i] = Vec3::ZERO;
                count[i] = 0.0;
            }
        }
        c.local(it + 1 == iterations);
    }
}
