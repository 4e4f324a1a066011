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
//! Newton passes repeat up to `iterations` times and stop early, tree by tree, once every
//! link's residual |C + α̃λ|/L is below [`TOLERANCE`] (or within the f32 spacing of its
//! coordinates, far from the origin). The check comes before eliminating, so a converged
//! tree costs one sweep of distances. With other constraints present (loops, bending,
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

use super::topology::{MANY_CHILDREN, NONE, ONLY_CHILD, SINGLE_CHILD};
use super::Ctx;

/// Relative residual below which a Newton pass is skipped (the solve has converged).
pub const TOLERANCE: f32 = 8e-5;

/// Work arrays of the direct solve, per forest slot: direction n, cosine with the link
/// above, right-hand side b, 1/D, Δλ, and (at branch points only) the coupling vector v.
#[derive(Clone, Debug, Default)]
pub struct ExactScratch {
    n: Vec<Vec3>,
    cos: Vec<f32>,
    b: Vec<f32>,
    inv_d: Vec<f32>,
    dl: Vec<f32>,
    v: Vec<Vec3>,
}

impl ExactScratch {
    pub fn ensure(&mut self, tree_links: usize) {
        self.n.resize(tree_links, Vec3::ZERO);
        self.cos.resize(tree_links, 0.0);
        self.b.resize(tree_links, 0.0);
        self.inv_d.resize(tree_links, 0.0);
        self.dl.resize(tree_links, 0.0);
        self.v.resize(tree_links, Vec3::ZERO);
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
            shape: &sc.topo.tree_shape,
            child_start: &sc.topo.child_start,
            child_count: &sc.topo.child_count,
            ranges: &sc.topo.tree_ranges,
        };
        let corrected = direct_pass(&mut c.p.pos, &forest, &mut sc.lambda[..n_tree], &mut sc.exact);
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
    /// Per slot, `SINGLE_CHILD` / `MANY_CHILDREN` (of the child particle) and
    /// `ONLY_CHILD` (the link is its parent particle's only child link).
    shape: &'a [u8],
    child_start: &'a [u32],
    child_count: &'a [u32],
    /// Each tree's consecutive slots.
    ranges: &'a [(u32, u32)],
}

/// One Newton pass over the forest; returns false (and changes nothing) if every link's
/// residual was already below [`TOLERANCE`].
///
/// Along chains (a link that is its parent particle's only child, below a particle with
/// one child) the coupling vectors are v = -w n, so every quantity the elimination and
/// the back-substitution need reduces to scalars and the cosine between consecutive
/// links: that is the Thomas algorithm. Only at branch points are v and the sibling
/// couplings formed as vectors.
fn direct_pass(pos: &mut [Vec3], f: &Forest, lambda: &mut [f32], ex: &mut ExactScratch) -> bool {
    let m = f.links.len().min(lambda.len()).min(f.up.len()).min(f.shape.len());
    let mut corrected = false;
    for &(start, end) in f.ranges {
        let (start, end) = (start as usize, (end as usize).min(m));
        corrected |= solve_tree(pos, f, start..end, lambda, ex);
    }
    corrected
}

/// One Newton pass over the tree in `slots`; false (nothing changed) if it had converged.
fn solve_tree(
    pos: &mut [Vec3],
    f: &Forest,
    slots: std::ops::Range<usize>,
    lambda: &mut [f32],
    ex: &mut ExactScratch,
) -> bool {
    let ExactScratch { n: nn, cos, b, inv_d, dl, v: vv } = ex;

    // 1. Geometry: directions, residuals and cosines with the link above (independent per
    //    link; parents come first). An inactive link (a slack rope, a degenerate one) gets
    //    n = 0, which decouples it below.
    let mut unconverged = false;
    let (mut max_res, mut extent) = (0.0f32, 0.0f32);
    for j in slots.clone() {
        let l = &f.links[j];
        let d = pos[l.b as usize] - pos[l.a as usize];
        let len = d.length_squared().sqrt();
        let c = len - l.rest;
        let n = if len < 1e-9 || (l.rope && c <= 0.0) {
            b[j] = 0.0;
            Vec3::ZERO
        } else {
            let res = c + l.alpha * lambda[j];
            unconverged |= res.abs() > TOLERANCE * l.rest;
            max_res = max_res.max(res.abs());
            extent += l.rest;
            b[j] = -res;
            d * (1.0 / len)
        };
        nn[j] = n;
        let up = f.up[j];
        cos[j] = if up != NONE { n.dot(nn[up as usize]) } else { 0.0 };
    }
    // Converged within TOLERANCE, or within a few f32 spacings of the coordinates (2·ε·|x|,
    // |x| bounded by the first link's parent and the tree's length: 2.4e-4 m at 1 km
    // from the origin, where positions are spaced 6e-5 m apart and no update can place a
    // particle more finely).
    let root = f.links[slots.start].a as usize;
    let floor = 2.0 * f32::EPSILON * (pos[root].abs().max_element() + extent);
    if !unconverged || max_res <= floor {
        return false;
    }

    // 2. Elimination, leaves first (reverse breadth-first order).
    for j in slots.clone().rev() {
        let l = &f.links[j];
        let n = nn[j];
        let shape = f.shape[j];
        let (wp, wc) = (l.wa, l.wb);
        let mut bj = b[j];
        // Child side: G_c = w_c I - Σ_children v_i v_iᵀ / D_i, r_c = Σ v_i b_i / D_i.
        let mut qc = wc;
        if shape & SINGLE_CHILD != 0 {
            let i = f.child_start[l.b as usize] as usize;
            let t = -wc * cos[i]; // v_i·n with v_i = -w_c n_i
            let ti = t * inv_d[i];
            qc -= t * ti;
            bj -= ti * b[i];
        } else if shape & MANY_CHILDREN != 0 {
            let cs = f.child_start[l.b as usize] as usize;
            for i in cs..cs + f.child_count[l.b as usize] as usize {
                let t = vv[i].dot(n);
                let ti = t * inv_d[i];
                qc -= t * ti;
                bj -= ti * b[i];
            }
        }
        // Parent side: G_P so far (siblings eliminated before this link: higher slots).
        let qp = if shape & ONLY_CHILD != 0 {
            wp
        } else {
            let mut v = n * -wp;
            let ps = f.child_start[l.a as usize] as usize;
            for i in j + 1..ps + f.child_count[l.a as usize] as usize {
                let t = vv[i].dot(n);
                let ti = t * inv_d[i];
                v += vv[i] * ti;
                bj += ti * b[i];
            }
            vv[j] = v;
            -v.dot(n)
        };
        let dd = l.alpha + qc + qp;
        if n == Vec3::ZERO || dd <= 1e-20 {
            // Inactive, or both ends immovable and the link rigid: Δλ = 0.
            vv[j] = Vec3::ZERO;
            inv_d[j] = 0.0;
            b[j] = 0.0;
            continue;
        }
        inv_d[j] = 1.0 / dd;
        b[j] = bj;
    }

    // 3. Back-substitution, roots first, applying Δx = W Jᵀ Δλ as it goes (positions are
    //    not read any more in this pass).
    for j in slots {
        let l = &f.links[j];
        let mut x = b[j];
        let up = f.up[j];
        if f.shape[j] & ONLY_CHILD != 0 {
            if up != NONE {
                x += l.wa * cos[j] * dl[up as usize]; // -(v·n_up) Δλ_up with v = -w_P n
            }
        } else {
            if up != NONE {
                x -= vv[j].dot(nn[up as usize]) * dl[up as usize];
            }
            let ps = f.child_start[l.a as usize] as usize;
            for i in ps..j {
                x += vv[j].dot(nn[i]) * dl[i];
            }
        }
        let d = x * inv_d[j];
        dl[j] = d;
        lambda[j] += d;
        let g = nn[j] * d;
        pos[l.b as usize] += g * l.wb;
        pos[l.a as usize] -= g * l.wa;
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
            shape: &topo.tree_shape,
            child_start: &topo.child_start,
            child_count: &topo.child_count,
            ranges: &topo.tree_ranges,
        };
        assert!(direct_pass(&mut w.particles.pos, &forest, &mut lambda, &mut ex));
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
            ranges: &topo.tree_ranges,
        };
        assert!(direct_pass(&mut w.particles.pos, &forest, &mut lambda, &mut ex));
        for (j, l) in packed.iter().enumerate() {
            let (p, c) = (l.a as usize, l.b as usize);
            let d = before[c] - before[p];
            let n = d.normalize();
            let dx = (w.particles.pos[c] - before[c]) - (w.particles.pos[p] - before[p]);
            let lin = d.length() - l.rest + n.dot(dx);
            assert!(lin.abs() < 1e-6, "slot {j} shape {}: linearised residual {lin}", topo.tree_shape[j]);
        }
    }
}
