//! The exact rope solver: every link of a chain — or of any tree, or forest, of links —
//! satisfied at once by a direct linear-time solve per Newton pass (Baraff 1996,
//! "Linear-Time Dynamics using Lagrange Multipliers"; Deul, Kugelstadt, Weiler and Bender
//! 2018, "Direct Position-Based Solver for Stiff Rods"; Goldenthal et al. 2007's "fast
//! projection" is the same iteration for cloth).
//!
//! ## The system
//! After the prediction x̃, XPBD asks for positions x and multipliers λ with
//! M(x - x̃) = ∇C(x)ᵀλ and C(x) + α̃λ = 0 (α̃ = α/h², α the link compliance). One Newton
//! pass linearises the links at the current x (J = ∇C, rows n_kᵀ at the link's far end
//! and -n_kᵀ at its near end) and, as XPBD does, drops the geometric-stiffness term:
//!
//! ```text
//! (J W Jᵀ + α̃) Δλ = -(C + α̃ λ),     Δx = W Jᵀ Δλ,     λ += Δλ      (W = M⁻¹)
//! ```
//!
//! A = J W Jᵀ + α̃ couples two links only when they share a particle p, with entry
//! w_p (±n_j)·(±n_k). For a chain that is tridiagonal and Gaussian elimination is the
//! Thomas algorithm. For a tree, the links meeting at a particle of degree d form a
//! d-clique in A, but the clique is a rank-≤3 form: A_jk = u_jᵀ G_p u_k with G_p = w_p I
//! (u = ±n). Eliminating a link downdates only the 3×3 matrix G of the particle it hangs
//! from, so the elimination never fills in anything — it is Baraff's leaves-first
//! factorisation of the particle/link tree, written in link space.
//!
//! ## Elimination order and formulas
//! The topology cache roots every tree (anchors first) and lists its links in
//! breadth-first order as (parent particle P, child particle c) pairs, n = (x_c - x_P)/|·|.
//! Eliminating in *reverse* order processes each link after all links below it. With
//! per-particle G_p (3×3 symmetric, starting at w_p I) and r_p (3-vector, starting at 0):
//!
//! ```text
//! for links k = (P, c) leaves first:
//!     D_k = α̃_k + nᵀ G_c n + nᵀ G_P n              (G_c final, G_P so far)
//!     v_k = -G_P n                                  (coupling to P's other links)
//!     b_k = -(C_k + α̃_k λ_k) - n·r_c + n·r_P        (eliminated right-hand side)
//!     G_P -= v_k v_kᵀ / D_k,   r_P += v_k b_k / D_k
//! back-substitution, roots first, s_p = 0:
//!     Δλ_k = (b_k - v_k·s_P) / D_k,   s_P -= n Δλ_k,   s_c += n Δλ_k
//! finally Δx_p = w_p s_p   (= w_p Σ_k ∇_p C_k Δλ_k)
//! ```
//!
//! Each pass costs O(links) with a handful of 3-vector operations per link; a locked or
//! held particle has w = 0, so G = 0 and the links on either side decouple by themselves
//! (the cache need not change when something is grabbed). D_k > 0 always (G stays
//! positive semi-definite under the downdates), so no pivoting is needed. Compliance
//! enters the diagonal as α̃, so soft links are exact too.
//!
//! ## Chains
//! A tree that is a path (a rope: no particle with more than two links) is solved in path
//! order instead, from a plan made when the forest changes: the links' data sit in one
//! record per link in path order, the tridiagonal system is eliminated from both ends
//! towards the middle link (two independent recurrences, which the processor overlaps)
//! and back-substituted outwards, moving each particle once. Per Newton pass that is one
//! sweep measuring the links, one eliminating and one back-substituting, each a straight
//! loop over one array, with one division per link. The rows are written unnormalised
//! (d_kᵀ = |d_k| n_kᵀ, as for trees), so no direction is normalised either.
//!
//! ## Convergence
//! Newton passes repeat up to `iterations` times and stop early, tree by tree, once every
//! link's residual |C + α̃λ|/L is below [`TOLERANCE`] (or within the f32 spacing of its
//! coordinates, far from the origin). The check measures the links before eliminating, so
//! a converged tree costs one sweep of distances. Trees are independent, so each is solved
//! to convergence in turn (its data stay in cache over its passes). With other constraints
//! present (loops, bending, pins, contacts) every tree takes part in every pass, after
//! those constraints' projections, since they converge iteratively; when they are only
//! contacts (walls, obstacles, rope–rope), the passes stop early once a pass finds every
//! tree within tolerance right after their projections.
//!
//! Each pass is a true Newton step on C(x) = 0 (the Jacobian fresh at the current x, the
//! linear system solved exactly), so the residual left after it is the second-order term
//! alone, |P_k Δd_k|²/(2|d_k|) per link (P_k the projection across the link): convergence
//! is quadratic, but with a large constant. The step moves particles along W Jᵀ, i.e.
//! along the links' current directions; where the rope is under high tension and kinked
//! (a zig-zag of a few 1e-2 rad near the pin of a swinging rope, which the projection
//! leaves behind from step to step), a small change of tension moves the particles
//! sideways by about Δλ·θ, and shortening one stretched link near the pin takes moving
//! the whole rope below it (Δλ ≈ C × the links below). So a residual of 1e-3 comes back
//! as ~3e-4 and only the last pass or two look quadratic: 3.8 passes per step on W1, 5.5
//! on the 100:1 heavy end. Curing that needs the geometric stiffness Σ λ_k ∇²C_k in the
//! step (the Newton step of the full system M(x - x̃) = Jᵀλ, C = 0), which converges in
//! about 3 passes cold and 1.5–1.8 warm-started and keeps the rope free of the zig-zag
//! (measured in an f64 prototype), but makes every link a 3×3 block, several times the
//! cost of a pass. The quadratic form (|d|² - L²)/2L converges no faster, and a second-order
//! correction reusing the factorisation does not help either.
//!
//! What does help is starting closer: a chain that converged in its last substep starts
//! the next with a share of its multipliers applied (see `warm_load_and_measure`),
//! bounded where the full share would act as an explicit, unstable stiffness; on W1 that
//! is 2.9 passes per step, on the heavy end 4.0.
//!
//! ## The rest
//! Links that close loops (nets) are not in the forest: they, bending, pins, the mouse
//! and contacts get a Gauss–Seidel projection before each direct solve, so the forest's
//! links leave every pass exact; after the last pass the contacts (walls, obstacles,
//! rope–rope) are projected once more, so that nothing ends a substep inside the ground or
//! through another rope (the links next to a contact give up to a fraction of a millimetre
//! for it, as in the iterative solvers). Rope links
//! (max length only) take part in a pass when taut. Tethers are pointless here and
//! ignored. Iterative solvers need ~n sweeps to pull an n-link chain straight and suffer
//! with heavy ends; this one does not care about either (tested: stretch ≤ 1e-4 on the
//! hanging chain and the 100:1 heavy-end chain).

use glam::{Vec3, Vec3A};

use super::topology::{Topology, MANY_CHILDREN, NONE, ONLY_CHILD, SINGLE_CHILD};
use super::StepContext;
use crate::constraints::distance::{self, Packed};
use crate::constraints::Direct;

/// Relative residual below which a Newton pass is skipped (the solve has converged).
pub const TOLERANCE: f32 = 8e-5;

/// How the solve walks each tree of the forest, derived from the topology and kept until
/// it changes.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Plan {
    /// A path of `n` links: links `l0..l0 + n` of the path arrays, particles
    /// `p0..=p0 + n`, in order along the path.
    Chain { l0: u32, p0: u32, n: u32 },
    /// Any other tree: its forest slots.
    Tree { start: u32, end: u32 },
}

/// Convergence measures of one tree: the largest |residual| - TOLERANCE·L (> 0: some link
/// is not converged), the largest |residual| (m) and the tree's rest length.
#[derive(Clone, Copy, Debug, Default)]
struct Stat {
    excess: f32,
    max_res: f32,
    extent: f32,
}

impl Stat {
    fn new(extent: f32) -> Stat {
        Stat { excess: f32::NEG_INFINITY, max_res: 0.0, extent }
    }

    /// Adds a link's residual (0 for an inactive link).
    #[inline(always)]
    fn add(&mut self, res: f32, rest: f32) {
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
    fn converged(&self, anchor: Vec3) -> bool {
        let floor = 2.0 * f32::EPSILON * (anchor.abs().max_element() + self.extent);
        self.excess <= 0.0 || self.max_res <= floor
    }
}

/// A particle of a chain, in path order.
#[derive(Clone, Copy, Debug, Default)]
struct ChainPart {
    i: u32,
    w: f32,
}

/// A link of a chain, in path order (k joins path particles k and k+1): this substep's
/// constants, the current geometry, and the elimination's results (one record, so a pass
/// walks one array from each end).
#[derive(Clone, Copy, Debug, Default)]
struct ChainLink {
    /// d = x_{k+1} - x_k, |d|² (0 when inactive), |d| and the residual C + α̃λ (0 when
    /// inactive).
    d: Vec3A,
    q: f32,
    len: f32,
    res: f32,
    /// The eliminated right-hand side / D and the coupling to the neighbour towards the
    /// middle / D.
    y: f32,
    c: f32,
    /// For the warm start, cached (recomputed when they change): 1/L, the larger inverse
    /// mass of the ends w and κ/w.
    inv_rest: f32,
    w_max: f32,
    kappa_m: f32,
    /// Rest length, α̃, w_k + w_{k+1} + α̃, λ, rope flag.
    rest: f32,
    alpha: f32,
    wsum: f32,
    lambda: f32,
    rope: bool,
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
    plan: Vec<Plan>,
    /// Chains: per path particle its index and inverse mass, per path link its forest slot
    /// and data.
    c_part: Vec<ChainPart>,
    c_slot: Vec<u32>,
    c_link: Vec<ChainLink>,
    /// Per plan entry: the chain's rest length.
    c_extent: Vec<f32>,
    /// Per plan entry: the chain has rope links (this substep).
    c_ropes: Vec<bool>,
    /// `World::steps` at the last substep, if any since the plan was made, and per plan
    /// entry whether the tree converged in it: then its multipliers warm-start the next.
    last_step: Option<u64>,
    converged: Vec<bool>,
    /// Per forest slot (general trees): d, |d|, 1/D, eliminated right-hand side / D, chain
    /// coupling to the link above / D, μ, and (at branch points) the coupling vector v.
    d: Vec<Vec3>,
    len: Vec<f32>,
    inv_d: Vec<f32>,
    y: Vec<f32>,
    up_c: Vec<f32>,
    mu: Vec<f32>,
    v: Vec<Vec3>,
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
    fn refresh_plan(&mut self, topo: &Topology, n_tree: usize) {
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

    /// The closing projection of trees the pass budget left unconverged: a symmetric
    /// Gauss–Seidel sweep of PBD projections over their links (one way along the tree's
    /// slot order, then back).
    ///
    /// A Newton pass leaves each link longer by the second-order term |P Δd|²/(2|d|), which
    /// is tiny once the passes converge but not when a low budget (`iterations` of 1–3 at
    /// 60 Hz) stops them while the free end whips round by more than a link length per
    /// step. Left alone, that excess comes back as outward velocity and feeds itself: one
    /// pass per step took W1 from rest to +24 kJ (stretch 13×) within 1,100 steps. A
    /// one-way sweep bounds it but still let W3 (the 100:1 heavy end) gain 3 kJ; the
    /// symmetric sweep is dissipative on both over 12,000 steps (W1 with 1 pass per step:
    /// stretch ≈ 0.58, W3 ≈ 1.6; with 2 passes 0.15 and 0.6): a low budget gives a
    /// stretchy, damped rope, as the iterative solvers do at low iteration counts, never an
    /// explosion (tested). With the default budget it does not run (the passes converge
    /// first).
    fn close_unconverged(&self, pos: &mut [Vec3], packed: &[Packed], lambda: &mut [f32]) {
        for (t, plan) in self.plan.iter().enumerate() {
            if self.converged[t] {
                continue;
            }
            match *plan {
                Plan::Chain { l0, n, .. } => {
                    for &slot in &self.c_slot[l0 as usize..(l0 + n) as usize] {
                        let j = slot as usize;
                        distance::project(pos, &packed[j], &mut lambda[j], &mut Direct);
                    }
                    for &slot in self.c_slot[l0 as usize..(l0 + n) as usize].iter().rev() {
                        let j = slot as usize;
                        distance::project(pos, &packed[j], &mut lambda[j], &mut Direct);
                    }
                }
                Plan::Tree { start, end } => {
                    let end = (end as usize).min(packed.len());
                    for j in (start as usize..end).chain((start as usize..end).rev()) {
                        distance::project(pos, &packed[j], &mut lambda[j], &mut Direct);
                    }
                }
            }
        }
    }

    /// Copies the chains' multipliers back to their forest slots.
    fn store_chains(&self, lambda: &mut [f32]) {
        for (&s, l) in self.c_slot.iter().zip(&self.c_link) {
            lambda[s as usize] = l.lambda;
        }
    }
}

/// Stage `solve`: up to `iterations` Newton passes, each a direct solve of the link forest
/// (with the other constraints and contacts between passes when there are any), contacts
/// once more at the end.
pub fn solve(c: &mut StepContext) {
    let passes = c.s.iterations.max(1);
    let step = c.step;
    c.start_multipliers();
    let n_tree = c.sc.n_tree;
    // Other constraints: those that converge over the passes themselves (loop links,
    // bending, pins, holds, the dogs) and contacts (walls, obstacles, rope–rope).
    let gradual = n_tree < c.sc.packed.len()
        || c.s.bending
        || !c.sc.topo.pins.is_empty()
        || !c.holds.is_empty()
        || !c.dogs.is_empty();
    let iterative = gradual || !c.obstacles.is_empty() || c.s.walls.is_some() || c.out.rope.active;
    c.sc.exact.refresh_plan(&c.sc.topo, n_tree);
    // Warm start from the multipliers of the last substep if it was this step's or the
    // last one's (not after a pause under another solver) and the tree converged in it;
    // only without other constraints (with them the passes follow their projections).
    let ex = &mut c.sc.exact;
    let warm = !iterative && ex.last_step.is_some_and(|s| s == step || s + 1 == step);
    ex.last_step = Some(step);
    if iterative {
        ex.converged.iter_mut().for_each(|c| *c = false);
        // Other constraints move particles between passes: every tree takes part in every
        // pass, after their projections.
        for pass in 0..passes {
            let loops = &c.sc.packed[n_tree..];
            distance::sweep(&mut c.p.pos, loops, &mut c.sc.lambda[n_tree..], &mut Direct);
            c.bending(&mut Direct);
            c.local(false);
            let sc = &mut *c.sc;
            let forest = Forest::new(&sc.packed[..n_tree], &sc.topo);
            let mut any = false;
            for t in 0..sc.exact.plan.len() {
                let changed = sc.exact.tree_pass(t, &mut c.p.pos, &forest, &mut sc.lambda[..n_tree], pass == 0, false);
                // Converged if the last pass found nothing to do (a solve in it is unverified).
                sc.exact.converged[t] = !changed;
                any |= changed;
            }
            // Every tree was within tolerance right after the contacts' projections: nothing
            // the next passes could improve (the contacts run once more below). Not with
            // `gradual` constraints: a pass moves them too little to disturb the trees while
            // they are still far from their solution.
            if !any && !gradual {
                break;
            }
        }
    } else {
        // Trees are independent: each is solved to convergence in turn, its data staying in
        // cache over its passes.
        let sc = &mut *c.sc;
        let forest = Forest::new(&sc.packed[..n_tree], &sc.topo);
        let ex = &mut sc.exact;
        for t in 0..ex.plan.len() {
            let warm = warm && ex.converged[t];
            ex.converged[t] = false;
            for pass in 0..passes {
                let first = pass == 0;
                if !ex.tree_pass(t, &mut c.p.pos, &forest, &mut sc.lambda[..n_tree], first, first && warm) {
                    ex.converged[t] = true;
                    break;
                }
            }
        }
    }
    let sc = &mut *c.sc;
    // The forest slots' multipliers are read only by `end_step` (link tensions) and by the
    // closing projection (which then updates them: store once, before it).
    let unconverged = sc.exact.converged.iter().any(|&v| !v);
    if c.last_substep || unconverged {
        sc.exact.store_chains(&mut sc.lambda[..n_tree]);
    }
    if unconverged {
        sc.exact.close_unconverged(&mut c.p.pos, &sc.packed[..n_tree], &mut sc.lambda[..n_tree]);
    }
    if iterative {
        // Contacts get the last word, as in the iterative solvers: the direct solve may have
        // pulled a particle into the ground or a rope through another (a sub-millimetre
        // violation of the links near a contact is the price of never tunnelling).
        c.contacts();
    }
}

/// The spanning forest as the direct solve reads it.
struct Forest<'a> {
    /// Slot j: a = parent particle, b = child particle.
    links: &'a [Packed],
    up: &'a [u32],
    /// Per slot, `SINGLE_CHILD` / `MANY_CHILDREN` (of the child particle) and
    /// `ONLY_CHILD` (the link is its parent particle's only child link).
    shape: &'a [u8],
    child_start: &'a [u32],
    child_count: &'a [u32],
}

impl<'a> Forest<'a> {
    /// The forest's `links` (its packed slots) with the topology's tree arrays.
    fn new(links: &'a [Packed], topo: &'a Topology) -> Self {
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
    fn tree_pass(
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

/// A chain's first measuring sweep of a substep: copies each link's data from its packed
/// forest slot (rest length, α̃, rope flag, inverse masses; λ = 0) and measures it.
/// Returns the measures (with the chain's rest length) and whether it has rope links.
fn load_and_measure(
    part: &mut [ChainPart],
    link: &mut [ChainLink],
    slots: &[u32],
    packed: &[Packed],
    pos: &[Vec3],
) -> (Stat, bool) {
    let mut stat = Stat::new(0.0);
    let mut ropes = false;
    let mut xa = Vec3A::from(pos[part[0].i as usize]);
    for k in 0..link.len() {
        load_link(k, part, link, slots, packed);
        let l = &mut link[k];
        l.lambda = 0.0;
        ropes |= l.rope;
        stat.extent += l.rest;
        let xb = Vec3A::from(pos[part[k + 1].i as usize]);
        let (d, q, len, _, res) = measure(xa, xb, l.rest, l.alpha, 0.0, l.rope);
        l.d = d;
        l.q = q;
        l.len = len;
        l.res = res;
        stat.add(res, l.rest);
        xa = xb;
    }
    (stat, ropes)
}

/// Copies link k's data from its packed forest slot (and its ends' inverse masses), leaving
/// λ alone; returns the ends' inverse masses.
#[inline(always)]
fn load_link(k: usize, part: &mut [ChainPart], link: &mut [ChainLink], slots: &[u32], packed: &[Packed]) -> (f32, f32) {
    let pk = &packed[slots[k] as usize];
    let (wk, wk1) = if pk.a == part[k].i { (pk.wa, pk.wb) } else { (pk.wb, pk.wa) };
    part[k].w = wk;
    part[k + 1].w = wk1;
    let l = &mut link[k];
    if l.rest != pk.rest {
        l.rest = pk.rest;
        l.inv_rest = if pk.rest > 0.0 { 1.0 / pk.rest } else { 0.0 };
    }
    let w = pk.wa.max(pk.wb);
    if l.w_max != w {
        l.w_max = w;
        l.kappa_m = if w > 0.0 { WARM_BOUND / w } else { 0.0 };
    }
    l.alpha = pk.alpha;
    l.rope = pk.rope;
    l.wsum = pk.wa + pk.wb + pk.alpha;
    (wk, wk1)
}

/// The warm-start share of link `l` lying along `d` (in the prediction): g = f d with
/// f = β λ'/L, β = min(1, κ L / (|λ'| w)) (taking L for |d| in the share, which is a guess:
/// 1/L and κ/w are cached, so the sweep has no division), and λ starts at what that
/// displacement is worth, f |d| (|d| ≈ (|d|² / L + L) / 2, exact to second order in the
/// stretch, without a square root).
#[inline(always)]
fn warm_share(l: &mut ChainLink, d: Vec3A) -> Vec3A {
    let lam = l.lambda;
    if l.rope {
        l.lambda = 0.0;
        return Vec3A::ZERO;
    }
    let f = if lam.abs() * l.w_max <= WARM_BOUND * l.rest { lam * l.inv_rest } else { lam.signum() * l.kappa_m };
    l.lambda = f * 0.5 * (d.length_squared() * l.inv_rest + l.rest);
    d * f
}

/// The warm start's bound κ: β |λ'| w ≤ κ L (see [`warm_load_and_measure`]).
const WARM_BOUND: f32 = 0.25;

/// A chain's first measuring sweep of a substep with a warm start: applies a share β of the
/// multipliers λ' the chain ended its last (converged) substep with, Δx = β W Jᵀ λ' along
/// the links as predicted, starts λ at β λ', and measures the links (one sweep: particle
/// k+1 moves, then link k is measured). The passes then only correct the change of
/// tension. At least one pass follows, so the positions and multipliers stay the implicit
/// solve's (a guess that happened to land within the tolerance would otherwise stand as an
/// explicit step, and jitter).
///
/// The full warm start (β = 1) is unstable: the tension's sideways part,
/// λ'(n_{i-1} - n_i) at particle i, then acts explicitly, and a zig-zag of the particles
/// feels it as a spring of 4 |λ'| w / L per step (displacement per step², w the inverse
/// mass), beyond what an explicit step keeps (≤ 4, ω h ≤ 2) wherever |λ'| w > L: near the
/// pin of a swinging rope (|λ'| w ≈ 2.7 L on W1), above a heavy load. So each link's share
/// is bounded, β |λ'| w ≤ κ L with κ = 1/4 (w the larger inverse mass of its ends): on W1
/// that is 2.9 passes per step instead of 3.8, on the 100:1 heavy end 4.0 instead of 5.5.
/// κ = 1/2 helps less (3.7 on W1: the zig-zag is excited), κ = 1 diverges on W1 within 20
/// steps. (Measured in an f64/f32 prototype over 6,000 steps on W1, 1:100 heavy end and a
/// 1:100 middle mass: stable, energy as with the cold start to 1e-4; and in the engine,
/// see the tests.) Rope links (which may have gone slack) start cold.
fn warm_load_and_measure(
    part: &mut [ChainPart],
    link: &mut [ChainLink],
    slots: &[u32],
    packed: &[Packed],
    pos: &mut [Vec3],
) -> (Stat, bool) {
    let n = link.len();
    let mut stat = Stat::new(0.0);
    let (w0, _) = load_link(0, part, link, slots, packed);
    let (i0, i1) = (part[0].i as usize, part[1].i as usize);
    let mut xb_pred = Vec3A::from(pos[i1]);
    let mut g = warm_share(&mut link[0], xb_pred - Vec3A::from(pos[i0]));
    let mut xa = Vec3A::from(pos[i0]) - g * w0;
    pos[i0] = xa.into();
    for k in 0..n {
        // Particle k+1 gets the shares of links k and k+1 (the latter from the prediction,
        // both of its ends still unmoved).
        let ib = part[k + 1].i as usize;
        let g_next = if k + 1 < n {
            load_link(k + 1, part, link, slots, packed);
            let xc_pred = Vec3A::from(pos[part[k + 2].i as usize]);
            let gn = warm_share(&mut link[k + 1], xc_pred - xb_pred);
            xb_pred = xc_pred;
            gn
        } else {
            Vec3A::ZERO
        };
        let xb = Vec3A::from(pos[ib]) + (g - g_next) * part[k + 1].w;
        pos[ib] = xb.into();
        let l = &mut link[k];
        let (d, q, len, _, res) = measure(xa, xb, l.rest, l.alpha, l.lambda, l.rope);
        l.d = d;
        l.q = q;
        l.len = len;
        l.res = res;
        stat.add(res, l.rest);
        stat.extent += l.rest;
        xa = xb;
        g = g_next;
    }
    let ropes = link.iter().any(|l| l.rope);
    (stat, ropes)
}

/// One link's geometry for a Newton pass: d, |d|², |d|, the right-hand side
/// -(C + α̃λ)|d| and the residual C + α̃λ; an inactive link (a slack rope, a degenerate one) gets
/// d = 0 and residual 0, which decouples it.
#[inline(always)]
fn measure(xa: Vec3A, xb: Vec3A, rest: f32, alpha: f32, lambda: f32, rope: bool) -> (Vec3A, f32, f32, f32, f32) {
    let d = xb - xa;
    let q = d.length_squared();
    let len = q.sqrt();
    let c = len - rest;
    let res = c + alpha * lambda;
    // Branch-free (a select), so the solve's loops stay straight.
    let on = if q < 1e-18 || (rope && c <= 0.0) { 0.0 } else { 1.0 };
    (d * on, q * on, len, -res * len * on, res * on)
}

/// One chain (a path of n links between particles `part[0..=n]`).
struct ChainView<'a> {
    part: &'a [ChainPart],
    link: &'a mut [ChainLink],
}

impl ChainView<'_> {
    /// Measures every link from the current positions; returns the convergence measures.
    fn measure(&mut self, pos: &[Vec3], extent: f32, ropes: bool) -> Stat {
        if ropes {
            self.measure_links::<true>(pos, extent)
        } else {
            self.measure_links::<false>(pos, extent)
        }
    }

    /// `measure` for a chain with (`ROPES`) or without rope links.
    #[inline(always)]
    fn measure_links<const ROPES: bool>(&mut self, pos: &[Vec3], extent: f32) -> Stat {
        let mut stat = Stat::new(extent);
        let mut xa = Vec3A::from(pos[self.part[0].i as usize]);
        for (l, p) in self.link.iter_mut().zip(&self.part[1..]) {
            let xb = Vec3A::from(pos[p.i as usize]);
            let (d, q, len, _, res) = measure(xa, xb, l.rest, l.alpha, l.lambda, ROPES && l.rope);
            l.d = d;
            l.q = q;
            l.len = len;
            l.res = res;
            stat.add(res, l.rest);
            xa = xb;
        }
        stat
    }

    /// Eliminates the tridiagonal system of the path (row k: d_k W d_j, j = k, k±1) from
    /// both ends towards the middle link m: two independent recurrences, D_k = A_kk -
    /// A_{k-1,k}² / D_{k-1} on the top side (links 0..m) and its mirror image on the bottom
    /// side (links n-1 down to m+1), which the processor overlaps. Stores per link
    /// y = (eliminated right-hand side)/D and c = A_{k,k±1}/D (the coupling towards the
    /// middle), and μ_m in the middle link's y.
    fn eliminate(&mut self) {
        let (link, part) = (&mut *self.link, self.part);
        let n = link.len();
        let m = (n - 1) / 2;
        let (top, bot) = (m, n - 1 - m);
        // One step of either side: eliminate link l, coupled to the link before it through
        // the carried coupling a, 1/D r and y, towards the next link (coupling -w d·d_next).
        #[inline(always)]
        fn step(l: &mut ChainLink, next_d: Vec3A, w: f32, a: f32, r: f32, y: f32) -> (f32, f32, f32) {
            let dd = l.wsum * l.q - a * a * r;
            let r = if dd > 1e-20 * l.q { 1.0 / dd } else { 0.0 };
            let y = (-l.res * l.len - a * y) * r;
            let a = -w * l.d.dot(next_d);
            l.y = y;
            l.c = a * r;
            (a, r, y)
        }
        let (mut ta, mut tr, mut ty) = (0.0f32, 0.0f32, 0.0f32);
        let (mut ba, mut br, mut by) = (0.0f32, 0.0f32, 0.0f32);
        for t in 0..bot {
            if t < top {
                let k = t;
                let next_d = link[k + 1].d;
                (ta, tr, ty) = step(&mut link[k], next_d, part[k + 1].w, ta, tr, ty);
            }
            let k = n - 1 - t;
            let next_d = link[k - 1].d;
            (ba, br, by) = step(&mut link[k], next_d, part[k].w, ba, br, by);
        }
        // The middle link, coupled to both sides: μ_m.
        let l = &mut link[m];
        let dd = l.wsum * l.q - ta * ta * tr - ba * ba * br;
        l.y = if dd > 1e-20 * l.q { (-l.res * l.len - ta * ty - ba * by) / dd } else { 0.0 };
    }

    /// Back-substitution from the middle outwards, μ_k = y_k - c_k μ_(neighbour), moving
    /// particle j by w_j (μ_{j-1} d_{j-1} - μ_j d_j) once both are known (each particle
    /// once), and λ_k += μ_k |d_k|.
    fn back_substitute(&mut self, pos: &mut [Vec3]) {
        let (link, part) = (&mut *self.link, self.part);
        let n = link.len();
        let m = (n - 1) / 2;
        let (top, bot) = (m, n - 1 - m);
        let l = &mut link[m];
        let mu_m = l.y;
        l.lambda += mu_m * l.len;
        let (mut tmu, mut bmu) = (mu_m, mu_m);
        for t in 0..bot {
            if t < top {
                let k = m - 1 - t;
                let next_d = link[k + 1].d;
                let l = &mut link[k];
                let mu = l.y - l.c * tmu;
                l.lambda += mu * l.len;
                let p = part[k + 1];
                pos[p.i as usize] += Vec3::from((l.d * mu - next_d * tmu) * p.w);
                tmu = mu;
            }
            let k = m + 1 + t;
            let prev_d = link[k - 1].d;
            let l = &mut link[k];
            let mu = l.y - l.c * bmu;
            l.lambda += mu * l.len;
            let p = part[k];
            pos[p.i as usize] += Vec3::from((prev_d * bmu - l.d * mu) * p.w);
            bmu = mu;
        }
        // The ends: μ_0 (= tmu after the top side, or μ_m) and μ_{n-1}.
        let (p, d) = (part[0], link[0].d);
        pos[p.i as usize] -= Vec3::from(d * (tmu * p.w));
        let (p, d) = (part[n], link[n - 1].d);
        pos[p.i as usize] += Vec3::from(d * (bmu * p.w));
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
fn general_pass(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::links::LinkDef;
    use crate::particles::ParticleDef;
    use crate::settings::Settings;
    use crate::solver::topology::Topology;
    use crate::world::World;

    /// After one direct pass the *linearised* constraints hold: n·(Δx_c - Δx_P) = -C for
    /// every forest link (the solve is exact, not iterative), on a branching tree with
    /// mixed masses, a locked particle and a compliant link.
    #[test]
    fn one_pass_solves_the_linearised_system_exactly() {
        let mut w = World::new(Settings::default());
        let pts = [
            (0.0, 0.0, true, 1.0),
            (0.1, -0.02, false, 1.0),
            (0.2, 0.01, false, 3.0),
            (0.25, -0.1, false, 0.5),
            (0.31, 0.05, false, 1.0),
            (0.2, -0.2, false, 100.0),
            (0.4, 0.1, false, 2.0),
        ];
        for (x, y, locked, mass) in pts {
            w.add_particle(&ParticleDef { pos: Vec3::new(x, y, 0.03 * x), locked, mass, ..Default::default() })
                .unwrap();
        }
        for (a, b) in [(0, 1), (1, 2), (2, 3), (2, 4), (3, 5), (4, 6), (1, 5)] {
            w.add_link(&LinkDef { a, b, rest: Some(0.09), ..Default::default() }).unwrap();
        }
        let mut topo = Topology::default();
        topo.refresh(&w.particles, &w.links);
        assert_eq!(topo.loop_links.len(), 1, "(1,5) closes a loop");
        let packed: Vec<Packed> = (0..topo.tree_link.len())
            .map(|j| {
                let (a, b) = (topo.tree_parent[j], topo.tree_child[j]);
                let w = &w.particles.inv_mass;
                Packed::new(a, b, 0.09, if j == 2 { 0.5 } else { 0.0 }, 1.0, w[a as usize], w[b as usize], false)
            })
            .collect();
        let mut lambda = vec![0.0; packed.len()];
        let mut ex = ExactScratch::default();
        ex.ensure(packed.len());
        let before = w.particles.pos.clone();
        let forest = Forest {
            links: &packed,
            up: &topo.tree_up,
            shape: &topo.tree_shape,
            child_start: &topo.child_start,
            child_count: &topo.child_count,
        };
        assert!(general_pass(&mut w.particles.pos, &forest, &topo.tree_ranges, &mut lambda, &mut ex));
        for (j, l) in packed.iter().enumerate() {
            let (p, c) = (l.a as usize, l.b as usize);
            let d = before[c] - before[p];
            let n = d.normalize();
            let dx = (w.particles.pos[c] - before[c]) - (w.particles.pos[p] - before[p]);
            let lin = d.length() - l.rest + n.dot(dx) + l.alpha * lambda[j];
            assert!(lin.abs() < 1e-6, "link slot {j}: linearised residual {lin}");
        }
    }
}

#[cfg(test)]
mod chain_tests {
    use super::*;
    use crate::links::LinkDef;
    use crate::particles::ParticleDef;
    use crate::settings::Settings;
    use crate::solver::topology::Topology;
    use crate::world::World;

    #[test]
    fn centre_rooted_chain_linear_solve_is_exact() {
        let mut w = World::new(Settings::default());
        for i in 0..9 {
            let pos = Vec3::new(0.1 * i as f32, 0.03 * (i as f32 * 1.3).sin(), 0.0);
            w.add_particle(&ParticleDef { pos, locked: i == 0, mass: 1.0 + i as f32, ..Default::default() }).unwrap();
        }
        for i in 0..8 {
            w.add_link(&LinkDef { a: i, b: i + 1, rest: Some(0.09), ..Default::default() }).unwrap();
        }
        let mut topo = Topology::default();
        topo.refresh(&w.particles, &w.links);
        let wv = &w.particles.inv_mass;
        let packed: Vec<Packed> = (0..topo.tree_link.len())
            .map(|j| {
                let (a, b) = (topo.tree_parent[j], topo.tree_child[j]);
                Packed::new(a, b, 0.09, 0.0, 1.0, wv[a as usize], wv[b as usize], false)
            })
            .collect();
        let mut lambda = vec![0.0; packed.len()];
        let mut ex = ExactScratch::default();
        ex.ensure(packed.len());
        let before = w.particles.pos.clone();
        let forest = Forest {
            links: &packed,
            up: &topo.tree_up,
            shape: &topo.tree_shape,
            child_start: &topo.child_start,
            child_count: &topo.child_count,
        };
        assert!(general_pass(&mut w.particles.pos, &forest, &topo.tree_ranges, &mut lambda, &mut ex));
        for (j, l) in packed.iter().enumerate() {
            let (p, c) = (l.a as usize, l.b as usize);
            let d = before[c] - before[p];
            let n = d.normalize();
            let dx = (w.particles.pos[c] - before[c]) - (w.particles.pos[p] - before[p]);
            let lin = d.length() - l.rest + n.dot(dx);
            assert!(lin.abs() < 1e-6, "slot {j} shape {}: linearised residual {lin}", topo.tree_shape[j]);
        }
    }

    /// A chain of `n` links with mixed masses, a locked particle inside (from 5 links on: a
    /// link between two locked particles, too), a compliant link and a taut rope link,
    /// zig-zagging in 3D; packed as `begin_step` would.
    fn chain_world(n: usize) -> (World, Topology, Vec<Packed>) {
        let mut w = World::new(Settings::default());
        for i in 0..=n {
            let t = i as f32;
            let pos = Vec3::new(0.1 * t, 0.03 * (t * 1.3).sin(), 0.02 * (t * 0.7).cos());
            let locked = i == 0 || (n > 4 && i == n / 3);
            w.add_particle(&ParticleDef { pos, locked, mass: 1.0 + (i % 5) as f32, ..Default::default() }).unwrap();
        }
        for i in 0..n as u32 {
            let kind = if i == 1 { crate::links::LinkKind::Rope } else { crate::links::LinkKind::Distance };
            let compliance = if i == 2 { 1e-4 } else { 0.0 };
            w.add_link(&LinkDef { a: i, b: i + 1, rest: Some(0.09), kind, compliance, ..Default::default() }).unwrap();
        }
        let mut topo = Topology::default();
        topo.refresh(&w.particles, &w.links);
        let wv = &w.particles.inv_mass;
        let packed = (0..topo.tree_link.len())
            .map(|j| {
                let (a, b) = (topo.tree_parent[j], topo.tree_child[j]);
                let k = topo.tree_link[j] as usize;
                let alpha = w.links.compliance[k] * 3600.0;
                let rope = w.links.kind[k] == crate::links::LinkKind::Rope;
                Packed::new(a, b, 0.09, alpha, 1.0, wv[a as usize], wv[b as usize], rope)
            })
            .collect();
        (w, topo, packed)
    }

    /// The chain path solves the linearised system exactly (n·Δd = -(C + α̃λ) on every
    /// link after one pass), for chains of every parity and length, including 1 and 2 links.
    #[test]
    fn chain_linear_solve_is_exact() {
        for n in [1, 2, 3, 4, 5, 6, 8, 9, 40, 99] {
            let (mut w, topo, packed) = chain_world(n);
            let mut ex = ExactScratch::default();
            ex.ensure(packed.len());
            ex.refresh_plan(&topo, packed.len());
            assert_eq!(ex.plan, vec![Plan::Chain { l0: 0, p0: 0, n: n as u32 }]);
            let forest = Forest {
                links: &packed,
                up: &topo.tree_up,
                shape: &topo.tree_shape,
                child_start: &topo.child_start,
                child_count: &topo.child_count,
            };
            let before = w.particles.pos.clone();
            let mut lambda = vec![0.0; packed.len()];
            assert!(ex.tree_pass(0, &mut w.particles.pos, &forest, &mut lambda, true, false));
            ex.store_chains(&mut lambda);
            for (j, l) in packed.iter().enumerate() {
                if l.wa + l.wb == 0.0 {
                    continue; // both ends locked: nothing can move
                }
                let (p, c) = (l.a as usize, l.b as usize);
                let d = before[c] - before[p];
                let dn = d.normalize();
                let dx = (w.particles.pos[c] - before[c]) - (w.particles.pos[p] - before[p]);
                let lin = d.length() - l.rest + dn.dot(dx) + l.alpha * lambda[j];
                assert!(lin.abs() < 2e-6, "n = {n}, slot {j}: linearised residual {lin}");
            }
        }
    }

    /// The plan: paths become chains (in path order, all links once), other trees stay
    /// trees; an unchanged forest keeps its plan.
    #[test]
    fn plan_finds_chains_and_trees() {
        let mut w = World::new(Settings::default());
        // A path of 6 points, a star (3 arms of 2), and a single link.
        for i in 0..6 {
            w.add_particle(&ParticleDef { pos: Vec3::new(i as f32, 0.0, 0.0), ..Default::default() }).unwrap();
        }
        for i in 0..5 {
            w.add_link(&LinkDef { a: i, b: i + 1, ..Default::default() }).unwrap();
        }
        let hub = w.particles.len() as u32;
        w.add_particle(&ParticleDef { pos: Vec3::new(0.0, 5.0, 0.0), ..Default::default() }).unwrap();
        for arm in 0..3 {
            let first = w.particles.len() as u32;
            for k in 0..2 {
                let pos = Vec3::new(arm as f32, 6.0 + k as f32, 0.0);
                w.add_particle(&ParticleDef { pos, ..Default::default() }).unwrap();
            }
            w.add_link(&LinkDef { a: hub, b: first, ..Default::default() }).unwrap();
            w.add_link(&LinkDef { a: first, b: first + 1, ..Default::default() }).unwrap();
        }
        let a = w.particles.len() as u32;
        w.add_particle(&ParticleDef { pos: Vec3::new(0.0, -3.0, 0.0), ..Default::default() }).unwrap();
        w.add_particle(&ParticleDef { pos: Vec3::new(1.0, -3.0, 0.0), ..Default::default() }).unwrap();
        w.add_link(&LinkDef { a, b: a + 1, ..Default::default() }).unwrap();
        let mut topo = Topology::default();
        topo.refresh(&w.particles, &w.links);
        let mut ex = ExactScratch::default();
        let n_tree = topo.tree_link.len();
        ex.refresh_plan(&topo, n_tree);
        let kinds: Vec<_> = ex.plan.iter().map(|p| matches!(p, Plan::Chain { .. })).collect();
        assert_eq!(kinds, vec![true, false, true]);
        // Chains in path order: consecutive path particles are the ends of each link.
        for plan in &ex.plan {
            if let Plan::Chain { l0, p0, n } = *plan {
                for k in 0..n as usize {
                    let s = ex.c_slot[l0 as usize + k] as usize;
                    let ends = [topo.tree_parent[s], topo.tree_child[s]];
                    let (pa, pb) = (ex.c_part[p0 as usize + k].i, ex.c_part[p0 as usize + k + 1].i);
                    assert!(ends == [pa, pb] || ends == [pb, pa], "chain link {k}: {ends:?} vs {pa}, {pb}");
                }
            }
        }
        let mut slots: Vec<u32> = ex.c_slot.clone();
        for plan in &ex.plan {
            if let Plan::Tree { start, end } = *plan {
                slots.extend(start..end);
            }
        }
        slots.sort();
        assert_eq!(slots, (0..n_tree as u32).collect::<Vec<_>>());
        let before = ex.plan.clone();
        ex.refresh_plan(&topo, n_tree);
        assert_eq!(ex.plan, before);
    }
}
