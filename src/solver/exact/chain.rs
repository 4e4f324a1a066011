//! The exact solver's chain solve: a path of links in path order, its tridiagonal system
//! eliminated from both ends towards the middle (Thomas) and back-substituted outwards.
//! The derivation is in `mod.rs` ("Chains").

use glam::{Vec3, Vec3A};

use super::plan::{ChainLink, ChainPart, Stat, WARM_BOUND};
use crate::constraints::length::Packed;

/// A chain's first measuring sweep of a substep: copies each link's data from its packed
/// forest slot (rest length, α̃, rope flag, inverse masses; λ = 0) and measures it.
/// Returns the measures (with the chain's rest length) and whether it has rope links.
pub(super) fn load_and_measure(
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
pub(super) fn load_link(
    k: usize,
    part: &mut [ChainPart],
    link: &mut [ChainLink],
    slots: &[u32],
    packed: &[Packed],
) -> (f32, f32) {
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

/// One link's geometry for a Newton pass: d, |d|², |d|, the right-hand side
/// -(C + α̃λ)|d| and the residual C + α̃λ; an inactive link (a slack rope, a degenerate one) gets
/// d = 0 and residual 0, which decouples it.
#[inline(always)]
pub(super) fn measure(
    xa: Vec3A,
    xb: Vec3A,
    rest: f32,
    alpha: f32,
    lambda: f32,
    rope: bool,
) -> (Vec3A, f32, f32, f32, f32) {
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
pub(super) struct ChainView<'a> {
    pub(super) part: &'a [ChainPart],
    pub(super) link: &'a mut [ChainLink],
}

impl ChainView<'_> {
    /// Measures every link from the current positions; returns the convergence measures.
    pub(super) fn measure(&mut self, pos: &[Vec3], extent: f32, ropes: bool) -> Stat {
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
    pub(super) fn eliminate(&mut self) {
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
    pub(super) fn back_substitute(&mut self, pos: &mut [Vec3]) {
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
