//! The exact solver's safeguard on its Newton passes when other constraints share the
//! particles (loop links, pins, holds, dogs, contacts): a pass over the forest is kept only
//! if it lowers the violation of the forest's rigid links, Σ C² (rope links counted only
//! when taut); otherwise the positions and the multipliers go back to what they were before
//! it, and the trees count as unconverged (the closing projection then relaxes them).
//!
//! ## Why
//! Each pass is a Newton step on the forest's links *without* their geometric stiffness
//! (see `mod.rs`), taken from wherever the other constraints' projections left the
//! particles. Near a solution it lowers every residual quadratically. Far from one — a net
//! dragged so that part of it folds or goes slack, where the loop links' Gauss–Seidel and
//! the tree's exact solve pull different ways — the linearisation can be nearly singular
//! (rigid links almost in line, a grid's shear mechanisms), the step Δλ ≈ C/(wθ²) huge, and
//! the move far outside where the linear model holds: measured on the net preset with an
//! interior point (row 6, column 4) held 0.8 m to the side, single passes took the tree's
//! largest stretch to 5 (500 %), the net never came to rest and its kinetic energy was 27 J
//! after 50 s (xpbd: 3e-8 J). A Newton step that makes the residual worse is the textbook
//! case for a line search; the simplest one, accept or reject the full step, is enough
//! here: with it the same hold comes to rest (kinetic energy 4e-9 J after 50 s), and passes
//! that converge are unaffected. (Backtracking — halving the step until Σ C² falls — was
//! measured worse on a net hung from its corners: the accepted fractions of a step along
//! the near-singular direction still moved particles by millimetres every step.)
//!
//! Only rigid forest links enter the test: a compliant link's system is regularised by α̃
//! (Δλ is bounded by C/α̃) and its solution has C = −α̃λ ≠ 0, which Σ C² would penalise;
//! the loop links are the Gauss–Seidel projections' business (counting them would reject
//! every pass that fixes the tree at their expense, which is what a pass does while the two
//! disagree). The chains keep their multipliers in the plan's link records: they are saved
//! with the rest (as zero before a substep's first pass, which loads them as zero).

use glam::Vec3;

use super::plan::ExactScratch;
use crate::constraints::length::Packed;

/// Σ C² over the rigid links of `packed` (rope links when taut).
pub(super) fn violation(pos: &[Vec3], packed: &[Packed]) -> f64 {
    let mut sum = 0.0f64;
    for l in packed {
        if l.alpha != 0.0 {
            continue;
        }
        let c = pos[l.a as usize].distance(pos[l.b as usize]) - l.rest;
        if l.rope && c <= 0.0 {
            continue;
        }
        sum += (c as f64) * (c as f64);
    }
    sum
}

impl ExactScratch {
    /// Saves what a pass over the forest changes: the positions, the general trees'
    /// multipliers `lambda` and the chains' (zero before a substep's `first` pass).
    pub(super) fn save_pass(&mut self, pos: &[Vec3], lambda: &[f32], first: bool) {
        let g = &mut self.guard;
        g.pos.clear();
        g.pos.extend_from_slice(pos);
        g.lambda.clear();
        g.lambda.extend_from_slice(lambda);
        g.chain_lambda.clear();
        if first {
            g.chain_lambda.resize(self.c_link.len(), 0.0);
        } else {
            g.chain_lambda.extend(self.c_link.iter().map(|l| l.lambda));
        }
    }

    /// Undoes the pass since `save_pass`; every tree is then unconverged.
    pub(super) fn undo_pass(&mut self, pos: &mut [Vec3], lambda: &mut [f32]) {
        let g = &self.guard;
        pos.copy_from_slice(&g.pos);
        lambda.copy_from_slice(&g.lambda);
        for (l, &v) in self.c_link.iter_mut().zip(&g.chain_lambda) {
            l.lambda = v;
        }
        self.converged.iter_mut().for_each(|c| *c = false);
    }
}
