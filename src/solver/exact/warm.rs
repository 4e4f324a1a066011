//! The exact solver's warm start: a chain that converged in its last substep starts the
//! next with a bounded share of its multipliers applied; the multipliers carried between
//! substeps, and the closing projection of trees left unconverged. The derivation is in
//! `mod.rs` ("Convergence").

use glam::{Vec3, Vec3A};

use super::chain::{load_link, measure};
use super::plan::{ChainLink, ChainPart, ExactScratch, Plan, Stat, WARM_BOUND};
use crate::constraints::length::{self, Packed};
use crate::constraints::Direct;

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
pub(super) fn warm_load_and_measure(
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

impl ExactScratch {
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
    pub(super) fn close_unconverged(&self, pos: &mut [Vec3], packed: &[Packed], lambda: &mut [f32]) {
        for (t, plan) in self.plan.iter().enumerate() {
            if self.converged[t] {
                continue;
            }
            match *plan {
                Plan::Chain { l0, n, .. } => {
                    for &slot in &self.c_slot[l0 as usize..(l0 + n) as usize] {
                        let j = slot as usize;
                        length::project(pos, &packed[j], &mut lambda[j], &mut Direct);
                    }
                    for &slot in self.c_slot[l0 as usize..(l0 + n) as usize].iter().rev() {
                        let j = slot as usize;
                        length::project(pos, &packed[j], &mut lambda[j], &mut Direct);
                    }
                }
                Plan::Tree { start, end } => {
                    let end = (end as usize).min(packed.len());
                    for j in (start as usize..end).chain((start as usize..end).rev()) {
                        length::project(pos, &packed[j], &mut lambda[j], &mut Direct);
                    }
                }
            }
        }
    }

    /// Copies the chains' multipliers back to their forest slots.
    pub(super) fn store_chains(&self, lambda: &mut [f32]) {
        for (&s, l) in self.c_slot.iter().zip(&self.c_link) {
            lambda[s as usize] = l.lambda;
        }
    }
}
