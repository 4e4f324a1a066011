//! The exact solver's general trees: the forest as the solve reads it, one Newton pass over
//! one tree of the plan (dispatching chains to `chain.rs`), and the leaves-first elimination
//! of any tree. The derivation is in `mod.rs`.

use glam::Vec3;

use super::chain::{load_and_measure, measure, ChainView};
use super::plan::{ExactScratch, Plan, Stat};
use super::warm::warm_load_and_measure;
use crate::constraints::length::Packed;
use crate::solver::topology::{Topology, MANY_CHILDREN, NONE, ONLY_CHILD, SINGLE_CHILD};

/// The spanning forest as the direct solve reads it.
pub(super) struct Forest<'a> {
    /// Slot j: a = parent particle, b = child particle.
    pub(super) links: &'a [Packed],
    pub(super) up: &'a [u32],
    /// Per slot, `SINGLE_CHILD` / `MANY_CHILDREN` (of the child particle) and
    /// `ONLY_CHILD` (the link is its parent particle's only child link).
    pub(super) shape: &'a [u8],
    pub(super) child_start: &'a [u32],
    pub(super) child_count: &'a [u32],
}

impl<'a> Forest<'a> {
    /// The forest's `links` (its packed slots) with the topology's tree arrays.
    pub(super) fn new(links: &'a [Packed], topo: &'a Topology) -> Self {
        Forest {
            links,
            up: &topo.tree_up,
            shape: &topo.tree_shape,
            child_start: &topo.child_start,
            child_count: &topo.child_count,
        }
    }
}

impl ExactScratch {
    /// One Newton pass over tree `t` of the plan; false (nothing changed) if it had
    /// converged. `first`: the substep's first pass, which copies a chain's link data into
    /// path order as it measures them; `warm`: and warm-starts it (see
    /// [`warm_load_and_measure`]).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn tree_pass(
        &mut self,
        t: usize,
        pos: &mut [Vec3],
        f: &Forest,
        lambda: &mut [f32],
        first: bool,
        warm: bool,
    ) -> bool {
        match self.plan[t] {
            Plan::Chain { l0, p0, n } => {
                let (l0, p0, n) = (l0 as usize, p0 as usize, n as usize);
                let (part, link) = (&mut self.c_part[p0..p0 + n + 1], &mut self.c_link[l0..l0 + n]);
                let stat = if first {
                    let slots = &self.c_slot[l0..l0 + n];
                    let (stat, ropes) = if warm {
                        warm_load_and_measure(part, link, slots, f.links, pos)
                    } else {
                        load_and_measure(part, link, slots, f.links, pos)
                    };
                    (self.c_extent[t], self.c_ropes[t]) = (stat.extent, ropes);
                    stat
                } else {
                    let extent = self.c_extent[t];
                    let ropes = self.c_ropes[t];
                    ChainView { part, link: &mut *link }.measure(pos, extent, ropes)
                };
                let mut ch = ChainView { part: &self.c_part[p0..p0 + n + 1], link };
                // After a warm start one pass always runs: the guess alone would be an
                // explicit step (and its multipliers a lagged tension).
                if !warm && stat.converged(pos[ch.part[0].i as usize]) {
                    false
                } else {
                    ch.eliminate();
                    ch.back_substitute(pos);
                    true
                }
            }
            Plan::Tree { start, end } => {
                let m = f.links.len().min(lambda.len()).min(f.up.len()).min(f.shape.len());
                let slots = start as usize..(end as usize).min(m);
                solve_tree(pos, f, slots, lambda, self)
            }
        }
    }
}

/// One Newton pass over the tree in `slots`; false (positions and multipliers unchanged) if
/// it had converged.
///
/// The rows of J are written unnormalised, d_kᵀ = (x_c - x_P)ᵀ = |d_k| n_kᵀ, with multiplier
/// μ_k = Δλ_k / |d_k|: row k of the system times |d_k| reads
///
/// ```text
/// Σ_j (d_k W d_j) μ_j + α̃ |d_k|² μ_k = -(C_k + α̃ λ_k) |d_k|,    Δx = W Dᵀ μ,   Δλ_k = |d_k| μ_k
/// ```
///
/// the same Newton step without normalising any direction. Along chains (a link that is its
/// parent particle's only child, below a particle with one child) the coupling vectors are
/// v = -w d, so the elimination is the scalar Thomas algorithm on d_k·d_up; only at branch
/// points are v and the sibling couplings formed as vectors.
///
/// Sweep 1 (leaves first) measures each link and eliminates it at once; the convergence
/// test needs every residual, so it comes after it, and a converged tree costs that one
/// sweep. Sweep 2 (roots first) back-substitutes and applies Δx as it goes (positions are
/// not read any more in this Newton pass).
fn solve_tree(
    pos: &mut [Vec3],
    f: &Forest,
    slots: std::ops::Range<usize>,
    lambda: &mut [f32],
    ex: &mut ExactScratch,
) -> bool {
    let ExactScratch { d: dd, len: lens, inv_d, y, up_c, mu, v: vv, .. } = ex;

    let mut stat = Stat::new(0.0);
    for j in slots.clone().rev() {
        let l = &f.links[j];
        let (a, b) = (l.a as usize, l.b as usize);
        let (dj, q, len, mut bj, res) = measure(pos[a].into(), pos[b].into(), l.rest, l.alpha, lambda[j], l.rope);
        let dj = Vec3::from(dj);
        stat.add(res, l.rest);
        stat.extent += l.rest;
        dd[j] = dj;
        lens[j] = len;
        let shape = f.shape[j];
        let (wp, wc) = (l.wa, l.wb);
        // Child side: d_jᵀ G_c d_j with G_c = w_c I - Σ_children v_i v_iᵀ / D_i, and
        // b_j -= d_j·r_c with r_c = Σ v_i y_i.
        let mut qc = wc * q;
        if shape & SINGLE_CHILD != 0 {
            let i = f.child_start[b] as usize;
            let e = dd[i].dot(dj);
            let ci = wc * e * inv_d[i]; // v_i = -w_c d_i
            up_c[i] = ci;
            qc -= wc * e * ci;
            bj += wc * e * y[i];
        } else if shape & MANY_CHILDREN != 0 {
            let cs = f.child_start[b] as usize;
            for i in cs..cs + f.child_count[b] as usize {
                let t = vv[i].dot(dj);
                qc -= t * t * inv_d[i];
                bj -= t * y[i];
            }
        }
        // Parent side: G_P so far (siblings eliminated before this link: higher slots).
        let qp = if shape & ONLY_CHILD != 0 {
            wp * q
        } else {
            let mut v = dj * -wp;
            let ps = f.child_start[a] as usize;
            for i in j + 1..ps + f.child_count[a] as usize {
                let t = vv[i].dot(dj);
                v += vv[i] * (t * inv_d[i]);
                bj += t * y[i];
            }
            vv[j] = v;
            -v.dot(dj)
        };
        let dj_diag = l.alpha * q + qc + qp;
        if dj_diag <= 1e-20 * q {
            // Inactive, or both ends immovable and the link rigid: Δλ = 0.
            vv[j] = Vec3::ZERO;
            inv_d[j] = 0.0;
            y[j] = 0.0;
            continue;
        }
        let r = 1.0 / dj_diag;
        inv_d[j] = r;
        y[j] = bj * r;
    }
    if stat.converged(pos[f.links[slots.start].a as usize]) {
        return false;
    }

    // Back-substitution, roots first, applying Δx = W Dᵀ μ as it goes.
    for j in slots {
        let l = &f.links[j];
        let up = f.up[j];
        let m = if f.shape[j] & ONLY_CHILD != 0 {
            if up != NONE {
                y[j] + up_c[j] * mu[up as usize]
            } else {
                y[j]
            }
        } else {
            let mut x = 0.0;
            if up != NONE {
                x -= vv[j].dot(dd[up as usize]) * mu[up as usize];
            }
            let ps = f.child_start[l.a as usize] as usize;
            for i in ps..j {
                x += vv[j].dot(dd[i]) * mu[i];
            }
            y[j] + x * inv_d[j]
        };
        mu[j] = m;
        lambda[j] += m * lens[j];
        let g = dd[j] * m;
        pos[l.b as usize] += g * l.wb;
        pos[l.a as usize] -= g * l.wa;
    }
    true
}

/// The general tree solve over every tree of a forest (tests).
#[cfg(test)]
pub(super) fn general_pass(
    pos: &mut [Vec3],
    f: &Forest,
    ranges: &[(u32, u32)],
    lambda: &mut [f32],
    ex: &mut ExactScratch,
) -> bool {
    let mut corrected = false;
    for &(start, end) in ranges {
        corrected |= solve_tree(pos, f, start as usize..end as usize, lambda, ex);
    }
    corrected
}
