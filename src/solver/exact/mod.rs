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
//! hanging chain and the 100:1 heavy-end chain). With those other constraints a pass can
//! start far from a solution (a net dragged until part of it folds), where the step
//! without geometric stiffness can make things worse: a pass that leaves the forest's rigid
//! links further from their lengths than it found them is undone (`guard.rs`).
//!
//! ## Files
//! - `plan.rs`: how each tree of the forest is walked ([`ExactScratch`] and its plan, kept
//!   until the topology changes).
//! - `chain.rs`: the chain (tridiagonal, Thomas) solve.
//! - `tree.rs`: general trees (the leaves-first elimination above), and the pass over one
//!   tree of the plan.
//! - `guard.rs`: the safeguard that undoes a pass which made the forest's violation worse.
//! - `warm.rs`: warm starting (the multipliers carried between substeps) and the closing
//!   projection of unconverged trees.

pub mod body_tree;
mod chain;
mod graph;
mod guard;
mod plan;
mod tree;
mod warm;

use super::StepContext;
use crate::constraints::length;
use crate::constraints::Direct;
pub use body_tree::BodyTree;
pub use plan::{ExactScratch, ExactWarm};
use tree::Forest;

/// Relative residual below which a Newton pass is skipped (the solve has converged).
pub const TOLERANCE: f32 = 8e-5;

/// Stage `solve`: up to `iterations` Newton passes, each a direct solve of the link forest
/// (with the other constraints and contacts between passes when there are any), contacts
/// once more at the end.
pub fn solve(c: &mut StepContext) {
    // No particles (W4's bodies alone): nothing here (the plan's key comparisons were 2 %
    // of W4's step).
    if c.particles.is_empty() {
        return;
    }
    let passes = c.settings.iterations.max(1);
    let step = c.step;
    c.start_multipliers();
    let n_tree = c.scratch.n_tree;
    // Other constraints: those that converge over the passes themselves (loop links,
    // bending, pins, holds, the dogs) and contacts (walls, obstacles, rope–rope).
    let gradual = n_tree < c.scratch.packed.len()
        || c.settings.bending
        || !c.scratch.topo.pins.is_empty()
        || !c.holds.is_empty()
        || !c.dogs.is_empty();
    let iterative = gradual
        || !c.obstacles.is_empty()
        || c.settings.walls.is_some()
        || c.out.rope.active
        || !c.scratch.contacts.rope.pairs.is_empty();
    c.scratch.exact.refresh_plan(&c.scratch.topo, n_tree);
    c.scratch.exact.take_pending();
    // Warm start from the multipliers of the last substep if it was this step's or the
    // last one's (not after a pause under another solver) and the tree converged in it;
    // only without other constraints (with them the passes follow their projections).
    let ex = &mut c.scratch.exact;
    let warm = !iterative && ex.last_step.is_some_and(|s| s == step || s + 1 == step);
    ex.last_step = Some(step);
    if iterative {
        ex.converged.iter_mut().for_each(|c| *c = false);
        // Other constraints move particles between passes: every tree takes part in every
        // pass, after their projections.
        for pass in 0..passes {
            let loops = &c.scratch.packed[n_tree..];
            length::sweep(&mut c.particles.pos, loops, &mut c.scratch.lambda[n_tree..], &mut Direct);
            c.bending(&mut Direct);
            c.local(false);
            let sc = &mut *c.scratch;
            let forest = Forest::new(&sc.packed[..n_tree], &sc.topo);
            // With loop links, the pass is kept only if it lowers the forest's violation
            // (`guard.rs`).
            let loops = n_tree < sc.packed.len();
            let before = if loops { guard::violation(&c.particles.pos, &sc.packed[..n_tree]) } else { 0.0 };
            if loops {
                sc.exact.save_pass(&c.particles.pos, &sc.lambda[..n_tree], pass == 0);
            }
            let mut any = false;
            for t in 0..sc.exact.plan.len() {
                let changed =
                    sc.exact.tree_pass(t, &mut c.particles.pos, &forest, &mut sc.lambda[..n_tree], pass == 0, false);
                // Converged if the last pass found nothing to do (a solve in it is unverified).
                sc.exact.converged[t] = !changed;
                any |= changed;
            }
            if loops && any && guard::violation(&c.particles.pos, &sc.packed[..n_tree]) > before {
                sc.exact.undo_pass(&mut c.particles.pos, &mut sc.lambda[..n_tree]);
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
        let sc = &mut *c.scratch;
        let forest = Forest::new(&sc.packed[..n_tree], &sc.topo);
        let ex = &mut sc.exact;
        for t in 0..ex.plan.len() {
            let warm = warm && ex.converged[t];
            ex.converged[t] = false;
            for pass in 0..passes {
                let first = pass == 0;
                if !ex.tree_pass(t, &mut c.particles.pos, &forest, &mut sc.lambda[..n_tree], first, first && warm) {
                    ex.converged[t] = true;
                    break;
                }
            }
        }
    }
    let sc = &mut *c.scratch;
    // The forest slots' multipliers are read only by `end_step` (link tensions) and by the
    // closing projection (which then updates them: store once, before it).
    let unconverged = sc.exact.converged.iter().any(|&v| !v);
    if c.last_substep || unconverged {
        sc.exact.store_chains(&mut sc.lambda[..n_tree]);
    }
    if unconverged {
        sc.exact.close_unconverged(&mut c.particles.pos, &sc.packed[..n_tree], &mut sc.lambda[..n_tree]);
    }
    if iterative {
        // Contacts get the last word, as in the iterative solvers: the direct solve may have
        // pulled a particle into the ground or a rope through another (a sub-millimetre
        // violation of the links near a contact is the price of never tunnelling).
        c.contacts();
    }
}

#[cfg(test)]
mod tests {
    use super::tree::general_pass;
    use super::*;
    use crate::constraints::length::Packed;
    use crate::links::LinkDef;
    use crate::particles::ParticleDef;
    use crate::settings::Settings;
    use crate::solver::topology::Topology;
    use crate::world::World;
    use glam::Vec3;

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
    use super::plan::Plan;
    use super::tree::general_pass;
    use super::*;
    use crate::constraints::length::Packed;
    use crate::links::LinkDef;
    use crate::particles::ParticleDef;
    use crate::settings::Settings;
    use crate::solver::topology::Topology;
    use crate::world::World;
    use glam::Vec3;

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
