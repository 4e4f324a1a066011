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
//! ## The rest
//! Newton passes repeat up to `iterations` times and stop early once every link's
//! residual |C + α̃λ|/L is below [`TOLERANCE`] (checked before eliminating, so a converged
//! pass costs one sweep of distances). With other constraints present (loops, bending,
//! pins, contacts) all `iterations` passes run, since those converge iteratively.
//! Links that close loops (nets) are not in the forest: they, bending, pins, the mouse
//! and contacts get a Gauss–Seidel projection before each direct solve, so the direct
//! solve has the last word and the forest's links leave every pass exact. Rope links
//! (max length only) take part in a pass when taut. Tethers are pointless here and
//! ignored. Iterative solvers need ~n sweeps to pull an n-link chain straight and suffer
//! with heavy ends; this one does not care about either (tested: stretch ≤ 1e-4 on the
//! hanging chain and the 100:1 heavy-end chain).

use glam::Vec3;

use crate::constraints::distance::{self, Packed};
use crate::constraints::Direct;
use crate::world::World;

use super::topology::NONE;
use super::Ctx;

/// Relative residual below which a Newton pass is skipped (the solve has converged).
pub const TOLERANCE: f32 = 5e-5;

/// Work arrays of the direct solve: per forest link n, -res/b, v, 1/D, Δλ.
#[derive(Clone, Debug, Default)]
pub struct ExactScratch {
    n: Vec<Vec3>,
    b: Vec<f32>,
    v: Vec<Vec3>,
    inv_d: Vec<f32>,
    dl: Vec<f32>,
}

impl ExactScratch {
    pub fn ensure(&mut self, tree_links: usize) {
        self.n.resize(tree_links, Vec3::ZERO);
        self.b.resize(tree_links, 0.0);
        self.v.resize(tree_links, Vec3::ZERO);
        self.inv_d.resize(tree_links, 0.0);
        self.dl.resize(tree_links, 0.0);
    }
}

pub fn substep(world: &mut World, h: f32) {
    let passes = world.settings.iterations.max(1);
    let mut c = Ctx::new(world, h);
    c.integrate();
    c.start_multipliers();
    let n_tree = c.sc.n_tree;
    let iterative = n_tree < c.sc.packed.len()
        || c.s.bending
        || !c.sc.topo.pins.is_empty()
        || !c.holds.is_empty()
        || !c.obstacles.is_empty()
        || c.s.walls.is_some();
    for _ in 0..passes {
        if iterative {
            let loops = &c.sc.packed[n_tree..];
            distance::sweep(&mut c.p.pos, loops, &mut c.sc.lambda[n_tree..], &mut Direct);
            c.bending(&mut Direct);
            c.local(false);
        }
        let sc = &mut *c.sc;
        let forest = Forest {
            links: &sc.packed[..n_tree],
            up: &sc.topo.tree_up,
            child_start: &sc.topo.child_start,
            child_count: &sc.topo.child_count,
        };
        let corrected = direct_pass(&mut c.p.pos, &c.p.inv_mass, &forest, &mut sc.lambda[..n_tree], &mut sc.exact);
        if !corrected && !iterative {
            break; // converged (with iterative constraints, keep iterating those)
        }
    }
    c.velocities();
}

/// The spanning forest as the direct solve reads it.
struct Forest<'a> {
    /// Slot j: a = parent particle, b = child particle.
    links: &'a [Packed],
    up: &'a [u32],
    child_start: &'a [u32],
    child_count: &'a [u32],
}

/// One Newton pass over the forest; returns false (and changes nothing) if every link's
/// residual was already below [`TOLERANCE`].
fn direct_pass(pos: &mut [Vec3], w: &[f32], f: &Forest, lambda: &mut [f32], ex: &mut ExactScratch) -> bool {
    let m = f.links.len().min(lambda.len()).min(f.up.len());
    let ExactScratch { n: nn, b, v: vv, inv_d, dl } = ex;
    let (nn, b, vv, inv_d, dl) = (&mut nn[..m], &mut b[..m], &mut vv[..m], &mut inv_d[..m], &mut dl[..m]);

    // 1. Geometry: directions and residuals (independent per link). An inactive link (a
    //    slack rope, a degenerate one) gets n = 0, which decouples it below.
    let mut max_res = 0.0f32;
    for j in 0..m {
        let l = &f.links[j];
        let d = pos[l.b as usize] - pos[l.a as usize];
        let len = d.length();
        let c = len - l.rest;
        if len < 1e-9 || (l.rope && c <= 0.0) {
            nn[j] = Vec3::ZERO;
            b[j] = 0.0;
            continue;
        }
        let res = c + l.alpha * lambda[j];
        max_res = max_res.max(res.abs() / l.rest);
        nn[j] = d / len;
        b[j] = -res;
    }
    if max_res < TOLERANCE {
        return false;
    }

    // 2. Elimination, leaves first (reverse breadth-first order).
    for j in (0..m).rev() {
        let l = &f.links[j];
        let n = nn[j];
        if n == Vec3::ZERO {
            vv[j] = Vec3::ZERO;
            inv_d[j] = 0.0;
            b[j] = 0.0;
            continue;
        }
        let (p, c) = (l.a as usize, l.b as usize);
        let (wp, wc) = (w[p], w[c]);
        let mut bj = b[j];
        // Child side: G_c = w_c I - Σ_children v_i v_iᵀ / D_i, r_c = Σ v_i b_i / D_i.
        let mut qc = wc;
        let cs = f.child_start[c] as usize;
        for i in cs..cs + f.child_count[c] as usize {
            let t = vv[i].dot(n);
            let ti = t * inv_d[i];
            qc -= t * ti;
            bj -= ti * b[i];
        }
        // Parent side: G_P so far (siblings eliminated before this link: higher slots).
        let mut v = n * -wp;
        let ps = f.child_start[p] as usize;
        for i in j + 1..ps + f.child_count[p] as usize {
            let t = vv[i].dot(n);
            let ti = t * inv_d[i];
            v += vv[i] * ti;
            bj += ti * b[i];
        }
        let dd = l.alpha + qc - v.dot(n);
        if dd <= 1e-20 {
            // Both ends immovable and the link rigid: nothing can be done.
            vv[j] = Vec3::ZERO;
            inv_d[j] = 0.0;
            b[j] = 0.0;
            continue;
        }
        vv[j] = v;
        inv_d[j] = 1.0 / dd;
        b[j] = bj;
    }

    // 3. Back-substitution, roots first.
    for j in 0..m {
        let mut x = b[j];
        let up = f.up[j];
        if up != NONE {
            x -= vv[j].dot(nn[up as usize]) * dl[up as usize];
        }
        let ps = f.child_start[f.links[j].a as usize] as usize;
        for i in ps..j {
            x += vv[j].dot(nn[i]) * dl[i];
        }
        dl[j] = x * inv_d[j];
    }

    // 4. Δx = W Jᵀ Δλ.
    for j in 0..m {
        let l = &f.links[j];
        let (p, c) = (l.a as usize, l.b as usize);
        lambda[j] += dl[j];
        let g = nn[j] * dl[j];
        pos[c] += g * w[c];
        pos[p] -= g * w[p];
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::links::LinkDef;
    use crate::particles::ParticleDef;
    use crate::settings::Settings;
    use crate::solver::topology::Topology;

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
            child_start: &topo.child_start,
            child_count: &topo.child_count,
        };
        assert!(direct_pass(&mut w.particles.pos, &w.particles.inv_mass, &forest, &mut lambda, &mut ex));
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
