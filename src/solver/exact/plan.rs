//! The exact solver's plan: how each tree of the forest is walked (a chain in path order,
//! or a general tree by its forest slots), kept in [`ExactScratch`] until the topology
//! changes, with the per-tree convergence measures ([`Stat`]). The derivation is in
//! `mod.rs`.

use glam::{Vec3, Vec3A};

use super::TOLERANCE;
use crate::solver::topology::Topology;

/// How the solve walks each tree of the forest, derived from the topology and kept until
/// it changes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Plan {
    /// A path of `n` links: links `l0..l0 + n` of the path arrays, particles
    /// `p0..=p0 + n`, in order along the path.
    Chain { l0: u32, p0: u32, n: u32 },
    /// Any other tree: its forest slots.
    Tree { start: u32, end: u32 },
}

/// Convergence measures of one tree: the largest |residual| - TOLERANCE·L (> 0: some link
/// is not converged), the largest |residual| (m) and the tree's rest length.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Stat {
    excess: f32,
    max_res: f32,
    pub(super) extent: f32,
}

impl Stat {
    pub(super) fn new(extent: f32) -> Stat {
        Stat { excess: f32::NEG_INFINITY, max_res: 0.0, extent }
    }

    /// Adds a link's residual (0 for an inactive link).
    #[inline(always)]
    pub(super) fn add(&mut self, res: f32, rest: f32) {
        let a = res.abs();
        // `max` (not a branch): the measuring loops stay straight.
        self.excess = self.excess.max(a - TOLERANCE * rest);
        self.max_res = self.max_res.max(a);
    }

    /// Converged within [`TOLERANCE`], or within a few f32 spacings of the coordinates
    /// (2·ε·|x|, |x| bounded by one particle of the tree, `anchor`, plus the tree's length:
    /// 2.4e-4 m at 1 km from the origin, where positions are spaced 6e-5 m apart and no
    /// update can place a particle more finely).
    #[inline(always)]
    pub(super) fn converged(&self, anchor: Vec3) -> bool {
        let floor = 2.0 * f32::EPSILON * (anchor.abs().max_element() + self.extent);
        self.excess <= 0.0 || self.max_res <= floor
    }
}

/// A particle of a chain, in path order.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct ChainPart {
    pub(super) i: u32,
    pub(super) w: f32,
}

/// A link of a chain, in path order (k joins path particles k and k+1): this substep's
/// constants, the current geometry, and the elimination's results (one record, so a pass
/// walks one array from each end).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct ChainLink {
    /// d = x_{k+1} - x_k, |d|² (0 when inactive), |d| and the residual C + α̃λ (0 when
    /// inactive).
    pub(super) d: Vec3A,
    pub(super) q: f32,
    pub(super) len: f32,
    pub(super) res: f32,
    /// The eliminated right-hand side / D and the coupling to the neighbour towards the
    /// middle / D.
    pub(super) y: f32,
    pub(super) c: f32,
    /// For the warm start, cached (recomputed when they change): 1/L, the larger inverse
    /// mass of the ends w and κ/w.
    pub(super) inv_rest: f32,
    pub(super) w_max: f32,
    pub(super) kappa_m: f32,
    /// Rest length, α̃, w_k + w_{k+1} + α̃, λ, rope flag.
    pub(super) rest: f32,
    pub(super) alpha: f32,
    pub(super) wsum: f32,
    pub(super) lambda: f32,
    pub(super) rope: bool,
}

/// Solver memory: the plan of the forest, the chains' links and per-link data in path
/// order, and the work arrays of the solve (structure of arrays). Grows only when the
/// topology does.
#[derive(Clone, Debug, Default)]
pub struct ExactScratch {
    /// The forest the plan was made for (`tree_parent`, `tree_child`, `tree_ranges`).
    key_parent: Vec<u32>,
    key_child: Vec<u32>,
    key_ranges: Vec<(u32, u32)>,
    pub(super) plan: Vec<Plan>,
    /// Chains: per path particle its index and inverse mass, per path link its forest slot
    /// and data.
    pub(super) c_part: Vec<ChainPart>,
    pub(super) c_slot: Vec<u32>,
    pub(super) c_link: Vec<ChainLink>,
    /// Per plan entry: the chain's rest length.
    pub(super) c_extent: Vec<f32>,
    /// Per plan entry: the chain has rope links (this substep).
    pub(super) c_ropes: Vec<bool>,
    /// `World::steps` at the last substep, if any since the plan was made, and per plan
    /// entry whether the tree converged in it: then its multipliers warm-start the next.
    pub(super) last_step: Option<u64>,
    pub(super) converged: Vec<bool>,
    /// Per forest slot (general trees): d, |d|, 1/D, eliminated right-hand side / D, chain
    /// coupling to the link above / D, μ, and (at branch points) the coupling vector v.
    pub(super) d: Vec<Vec3>,
    pub(super) len: Vec<f32>,
    pub(super) inv_d: Vec<f32>,
    pub(super) y: Vec<f32>,
    pub(super) up_c: Vec<f32>,
    pub(super) mu: Vec<f32>,
    pub(super) v: Vec<Vec3>,
    /// What a pass may have to undo (`guard.rs`).
    pub(super) guard: PassGuard,
    /// A loaded export's warm start (`scene::state`): the chains' multipliers, which trees
    /// converged, and the step they are from; put in place once the plan is made, if it has
    /// as many links and trees.
    pub(super) pending: Option<ExactWarm>,
}

/// The exact solver's warm start between steps (see [`ExactScratch::warm_state`]).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExactWarm {
    /// The step the multipliers are from.
    pub step: u64,
    pub lambda: Vec<f32>,
    pub converged: Vec<bool>,
}

impl ExactScratch {
    /// What the next step warm starts from, if the last step (`steps − 1`) ran this solver
    /// (or a loaded export's, not yet taken).
    pub fn warm_state(&self, steps: u64) -> Option<ExactWarm> {
        if let Some(p) = &self.pending {
            return Some(p.clone());
        }
        let s = self.last_step.filter(|&s| s + 1 == steps)?;
        Some(ExactWarm {
            step: s,
            lambda: self.c_link.iter().map(|l| l.lambda).collect(),
            converged: self.converged.clone(),
        })
    }

    /// Puts [`ExactScratch::warm_state`]'s values into a fresh scratch (see `pending`).
    pub fn set_warm_state(&mut self, w: ExactWarm) {
        self.pending = Some(w);
    }

    /// Applies the pending warm start to the plan just made.
    pub(super) fn take_pending(&mut self) {
        let Some(w) = self.pending.take() else { return };
        if w.lambda.len() == self.c_link.len() && w.converged.len() == self.converged.len() {
            for (l, lam) in self.c_link.iter_mut().zip(w.lambda) {
                l.lambda = lam;
            }
            self.converged = w.converged;
            self.last_step = Some(w.step);
        }
    }
}

impl ExactScratch {
    pub fn ensure(&mut self, tree_links: usize) {
        self.d.resize(tree_links, Vec3::ZERO);
        self.len.resize(tree_links, 0.0);
        self.inv_d.resize(tree_links, 0.0);
        self.y.resize(tree_links, 0.0);
        self.up_c.resize(tree_links, 0.0);
        self.mu.resize(tree_links, 0.0);
        self.v.resize(tree_links, Vec3::ZERO);
    }

    /// Brings the plan up to date with the topology's forest (compares it with the forest
    /// the plan was made for; rebuilds, and may allocate, only when it changed).
    pub(super) fn refresh_plan(&mut self, topo: &Topology, n_tree: usize) {
        let parent = &topo.tree_parent[..n_tree.min(topo.tree_parent.len())];
        let child = &topo.tree_child[..n_tree.min(topo.tree_child.len())];
        if self.key_parent == parent && self.key_child == child && self.key_ranges == topo.tree_ranges {
            return;
        }
        self.key_parent.clear();
        self.key_parent.extend_from_slice(parent);
        self.key_child.clear();
        self.key_child.extend_from_slice(child);
        self.key_ranges.clear();
        self.key_ranges.extend_from_slice(&topo.tree_ranges);
        self.plan.clear();
        self.c_part.clear();
        self.c_slot.clear();
        let m = parent.len().min(child.len()).min(topo.tree_up.len());
        for &(start, end) in &topo.tree_ranges {
            let (start, end) = (start as usize, (end as usize).min(m));
            if start >= end {
                continue;
            }
            let root = parent[start] as usize;
            let count = |p: usize| topo.child_count.get(p).copied().unwrap_or(0);
            let is_path = count(root) <= 2 && (start..end).all(|j| count(child[j] as usize) <= 1);
            if !is_path {
                self.plan.push(Plan::Tree { start: start as u32, end: end as u32 });
                continue;
            }
            // Arm A (the root's first child link, reversed), the root, then arm B.
            let (l0, p0) = (self.c_slot.len(), self.c_part.len());
            let arm = |first: usize, out_part: &mut Vec<ChainPart>, out_slot: &mut Vec<u32>| {
                let mut j = first;
                loop {
                    out_slot.push(j as u32);
                    let c = child[j] as usize;
                    out_part.push(ChainPart { i: c as u32, w: 0.0 });
                    if count(c) == 0 {
                        break;
                    }
                    j = topo.child_start[c] as usize;
                }
            };
            let first = topo.child_start[root] as usize;
            let (mut pa, mut sa) = (Vec::new(), Vec::new());
            arm(first, &mut pa, &mut sa);
            self.c_part.extend(pa.iter().rev());
            self.c_slot.extend(sa.iter().rev());
            self.c_part.push(ChainPart { i: root as u32, w: 0.0 });
            if count(root) == 2 {
                arm(first + 1, &mut self.c_part, &mut self.c_slot);
            }
            let n = self.c_slot.len() - l0;
            debug_assert_eq!(n, end - start);
            debug_assert_eq!(self.c_part.len() - p0, n + 1);
            self.plan.push(Plan::Chain { l0: l0 as u32, p0: p0 as u32, n: n as u32 });
        }
        self.c_link.clear();
        self.c_link.resize(self.c_slot.len(), ChainLink::default());
        self.last_step = None;
        self.c_extent.resize(self.plan.len(), 0.0);
        self.c_ropes.resize(self.plan.len(), false);
        self.converged.clear();
        self.converged.resize(self.plan.len(), false);
    }
}

/// What a pass may have to undo (`guard.rs`).
#[derive(Clone, Debug, Default)]
pub struct PassGuard {
    pub(super) pos: Vec<Vec3>,
    pub(super) lambda: Vec<f32>,
    pub(super) chain_lambda: Vec<f32>,
}

/// The warm start's bound κ: β |λ'| w ≤ κ L (see `warm::warm_load_and_measure`).
pub(super) const WARM_BOUND: f32 = 0.25;
