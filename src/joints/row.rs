//! The 001 seed's generic row: one scalar velocity constraint between two solver bodies,
//! and the one `solve` every joint, link and pin goes through.
//!
//! ## The row
//! A row constrains the relative velocity u = [v_a, ω_a, v_b, ω_b] along a Jacobian
//! J = [J_va, J_ωa, J_vb, J_ωb]: Ċ = J·u. With the inverse mass matrix M⁻¹ = diag(m_a⁻¹ 1,
//! I_a⁻¹, m_b⁻¹ 1, I_b⁻¹) its effective mass is K⁻¹ with K = J M⁻¹ Jᵀ. The solver changes the
//! row's accumulated impulse λ by
//!
//! ```text
//! Δλ = −m_eff · s_mass · (Ċ + b) − s_impulse · λ,      m_eff = 1/K
//! λ  ← clamp(λ + Δλ, lo, hi),   u ← u + M⁻¹ Jᵀ Δλ(applied)
//! ```
//!
//! which is the seed's `row_solve` with its softness term written in Box2D v3's form
//! (`b2Softness`: bias rate, mass scale, impulse scale). The clamp makes equalities
//! (±∞), limits and contacts (one-sided) and motors (±F·h) the same code.
//!
//! ## Soft rows: where the seed is wrong
//! The seed's `soft_row` computes `Ks = K · den` with `den = 1/(h(h k + c))` and then
//! `inv_A = 1/(K (1 + Ks))`. With k = m_eff ω² and c = 2 m_eff ζ ω, `den` has units of
//! 1/kg and K of 1/kg, so `Ks` has units of kg⁻²: the formula is not dimensionless and
//! gives a different spring for every mass (it is right only when K = 1). The implicit
//! spring-damper it means to build (Catto, "Soft Step", GDC 2011; Box2D's `b2MakeSoft`) is,
//! with γ = 1/(h (c + h k)) and β = h k/(c + h k):
//!
//! ```text
//! Δλ = −(Ċ + (β/h) C + γ λ) / (K + γ)
//! ```
//!
//! Substituting k and c in terms of ω, ζ and m_eff = 1/K gives Box2D's mass-independent
//! factors, which this file uses (a test checks the two forms agree):
//!
//! ```text
//! a = h ω (2ζ + h ω);   bias rate = ω/(2ζ + h ω);   s_mass = a/(1 + a);   s_impulse = 1/(1 + a)
//! ```
//!
//! so Δλ = −m_eff s_mass (Ċ + bias rate · C) − s_impulse λ. A rigid row with no bias is
//! s_mass = 1, s_impulse = 0, b = 0.
//!
//! ## Rigid rows without energy gain: the soft step, not Baumgarte
//! The seed drives position error out with Baumgarte's b = (β/h) C, β = 0.2. That bias
//! velocity stays in the bodies after the error is gone, so Baumgarte adds energy (a chain
//! jitters, a stack pops), and β has no physical meaning (its effect depends on h and on the
//! mass ratio). ropelab does what Box2D v3 does ("soft step"): every rigid row is, during
//! the biased solve, a stiff *soft* row at `JOINT_HERTZ` = 60 Hz capped at a quarter of the
//! substep rate (the cap that keeps h ω small enough for the implicit spring to stay stable
//! and not ring at the substep frequency) with damping ratio `JOINT_DAMPING_RATIO` = 2
//! (overdamped: error decays without overshoot); then, after the positions are integrated, a
//! **relax** pass solves the same rows rigidly with no bias at all, which removes the bias
//! velocity from the bodies. Position error is corrected, and the velocity that corrected it
//! is taken back out, so no energy is injected. Each row therefore carries two sets of
//! factors, one per phase ([`Phase`]).

use glam::{DMat3, DVec3, Mat3, Mat3A, Vec3, Vec3A};

/// Box2D v3's default joint stiffness for rigid rows during the biased solve (Hz).
pub const JOINT_HERTZ: f32 = 60.0;
/// Box2D v3's default joint damping ratio for rigid rows during the biased solve.
pub const JOINT_DAMPING_RATIO: f32 = 2.0;

/// The smallest det K / (K₁₁ K₂₂ K₃₃) (1 for a diagonal K, → 0 as K turns singular: a
/// measure of its conditioning that does not depend on the rows' units) at which a point
/// block's K is inverted in f32. The inverse's relative error is about ε_f32 over this
/// ratio; where it is smaller — a lever arm much longer than the body's radius of gyration,
/// K's eigenvalues spread as (lever / radius)² — K and K⁻¹ are computed in f64 and applied
/// in f64 ([`make_block_f64`]). Measured (the API fuzzer's case: a 1 kg plank joined to the
/// ground at a 1,000 m lever, ratio ~1e-8): the f32 inverse has the wrong size, even the wrong
/// sign, along the lever's stiff directions, and the block's iteration diverged to NaN within
/// two steps; a plank held at 10 m (ratio 3e-4) to 100 m (3e-6) by f32 blocks stayed stable,
/// 300 m (2e-7) did not. Every preset's blocks are above 0.26.
pub const F32_BLOCK_MIN_CONDITION: f32 = 1e-3;

/// The factors of one phase of a row (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Soft {
    /// Velocity bias b (m/s or rad/s): bias rate × C, a motor's −target, …
    pub bias: f32,
    pub mass_scale: f32,
    pub impulse_scale: f32,
}

impl Soft {
    /// A rigid row with no bias.
    pub const RIGID: Soft = Soft { bias: 0.0, mass_scale: 1.0, impulse_scale: 0.0 };

    /// A rigid row driving Ċ toward `-bias` (motors: bias = −target speed; speculative
    /// limits: bias = C/h).
    pub const fn target(bias: f32) -> Soft {
        Soft { bias, mass_scale: 1.0, impulse_scale: 0.0 }
    }
}

/// An implicit spring-damper from a frequency (Hz) and a damping ratio, for substeps of
/// length `h`: Box2D's `b2MakeSoft`. Independent of the row's mass (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spring {
    pub bias_rate: f32,
    pub mass_scale: f32,
    pub impulse_scale: f32,
}

impl Spring {
    pub fn new(hertz: f32, damping_ratio: f32, h: f32) -> Spring {
        if hertz <= 0.0 {
            return Spring { bias_rate: 0.0, mass_scale: 0.0, impulse_scale: 0.0 };
        }
        let omega = 2.0 * std::f32::consts::PI * hertz;
        let a1 = 2.0 * damping_ratio + h * omega;
        let a2 = h * omega * a1;
        if !a2.is_finite() {
            // Stiffer than f32 holds (a pin of compliance 1.2e-38 m/N: ω = √(k/m) overflowed
            // and mass_scale came out ∞ · 0 = NaN): the rigid limit as ω → ∞.
            return Spring { bias_rate: 1.0 / h, mass_scale: 1.0, impulse_scale: 0.0 };
        }
        let a3 = 1.0 / (1.0 + a2);
        Spring { bias_rate: omega / a1, mass_scale: a2 * a3, impulse_scale: a3 }
    }

    /// The rigid rows' spring during the biased solve: [`JOINT_HERTZ`] capped at a quarter of
    /// the substep rate, damping ratio [`JOINT_DAMPING_RATIO`].
    pub fn joint(h: f32) -> Spring {
        Spring::new(JOINT_HERTZ.min(0.25 / h), JOINT_DAMPING_RATIO, h)
    }

    /// This spring acting on position error `c`.
    #[inline]
    pub fn on(self, c: f32) -> Soft {
        Soft { bias: self.bias_rate * c, mass_scale: self.mass_scale, impulse_scale: self.impulse_scale }
    }

    /// A spring from a stiffness k (N/m) and damping c (N·s/m) on a row of effective mass
    /// `m_eff` (kg): the same implicit step, with ω = √(k/m), ζ = c/(2√(k m)).
    pub fn from_stiffness(k: f32, c: f32, m_eff: f32, h: f32) -> Spring {
        if k.is_nan() || k <= 0.0 || m_eff.is_nan() || m_eff <= 0.0 || !k.is_finite() {
            return Spring { bias_rate: 0.0, mass_scale: 1.0, impulse_scale: 0.0 };
        }
        let omega = (k / m_eff).sqrt();
        let zeta = c / (2.0 * (k * m_eff).sqrt());
        Spring::new(omega / (2.0 * std::f32::consts::PI), zeta, h)
    }
}

/// Which pass of the step a row is solved in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Before the positions are integrated: rigid rows soft, with bias.
    Solve = 0,
    /// After: rigid rows rigid, no bias (takes the bias velocity back out).
    Relax = 1,
}

/// The solver bodies every row indexes: particles (no rotation), bodies and, last, the
/// static ground. Struct of arrays, reused from step to step.
#[derive(Clone, Debug, Default)]
pub struct SolverBodies {
    pub v: Vec<Vec3>,
    pub w: Vec<Vec3>,
    pub inv_m: Vec<f32>,
    /// World-frame inverse inertia (zero for particles and immovable bodies).
    pub inv_i: Vec<Mat3>,
}

impl SolverBodies {
    pub fn resize(&mut self, n: usize) {
        self.v.resize(n, Vec3::ZERO);
        self.w.resize(n, Vec3::ZERO);
        self.inv_m.resize(n, 0.0);
        self.inv_i.resize(n, Mat3::ZERO);
    }
    pub fn len(&self) -> usize {
        self.v.len()
    }
    pub fn is_empty(&self) -> bool {
        self.v.is_empty()
    }
}

/// One scalar constraint row (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Row {
    pub a: u32,
    pub b: u32,
    /// Jacobian: linear and angular parts for both bodies.
    pub lin_a: Vec3,
    pub ang_a: Vec3,
    pub lin_b: Vec3,
    pub ang_b: Vec3,
    /// M⁻¹Jᵀ, precomputed at setup: inverse masses and I⁻¹·(angular parts).
    pub wa: f32,
    pub wb: f32,
    pub ia: Vec3,
    pub ib: Vec3,
    /// Effective mass 1/K (0 when K = 0: the row cannot act).
    pub mass: f32,
    /// Factors per [`Phase`].
    pub soft: [Soft; 2],
    pub lo: f32,
    pub hi: f32,
    /// Accumulated impulse λ (N·s or N·m·s), kept across substeps and, through the joint's
    /// storage, across steps (warm starting).
    pub accum: f32,
    /// 3 on the first of three equality rows solved together as a block (a point
    /// constraint: see [`solve_block3`]); `0x80 | n` on the first of n rows solved together
    /// in f64 ([`make_block_f64`]); else 0.
    pub block: u8,
    /// For a 3-block's first row: the inverse of its 3×3 K, columns (set by [`set_point3`]).
    /// An f64 block keeps its K⁻¹ in its rows' `k_inv` ([`make_block_f64`]).
    pub k_inv: [Vec3; 3],
}

impl Default for Row {
    fn default() -> Self {
        Row {
            a: 0,
            b: 0,
            lin_a: Vec3::ZERO,
            ang_a: Vec3::ZERO,
            lin_b: Vec3::ZERO,
            ang_b: Vec3::ZERO,
            wa: 0.0,
            wb: 0.0,
            ia: Vec3::ZERO,
            ib: Vec3::ZERO,
            mass: 0.0,
            soft: [Soft::RIGID; 2],
            lo: f32::NEG_INFINITY,
            hi: f32::INFINITY,
            accum: 0.0,
            block: 0,
            k_inv: [Vec3::ZERO; 3],
        }
    }
}

impl Row {
    /// Sets the Jacobian and everything derived from it (M⁻¹Jᵀ, the effective mass) from
    /// the bodies' current inverse masses and inertias. Keeps `accum`, `soft`, `lo`, `hi`.
    #[inline]
    pub fn set_jacobian(&mut self, bodies: &SolverBodies, a: u32, b: u32, j: [Vec3; 4]) {
        let (ai, bi) = (a as usize, b as usize);
        self.a = a;
        self.b = b;
        [self.lin_a, self.ang_a, self.lin_b, self.ang_b] = j;
        self.wa = bodies.inv_m[ai];
        self.wb = bodies.inv_m[bi];
        self.ia = bodies.inv_i[ai] * j[1];
        self.ib = bodies.inv_i[bi] * j[3];
        let k =
            self.wa * j[0].length_squared() + j[1].dot(self.ia) + self.wb * j[2].length_squared() + j[3].dot(self.ib);
        self.mass = if k > 0.0 { 1.0 / k } else { 0.0 };
    }

    /// The plane family's Jacobian, J = [−t, t × s_a, t, r_b × t] (the seed's
    /// `row_setup_axis`): `s_a` runs from A's centre to the anchor on B, `r_b` from B's
    /// centre to that anchor.
    #[inline]
    pub fn set_axis(&mut self, bodies: &SolverBodies, a: u32, b: u32, t: Vec3, s_a: Vec3, r_b: Vec3) {
        self.set_jacobian(bodies, a, b, [-t, t.cross(s_a), t, r_b.cross(t)]);
    }

    /// A purely angular Jacobian J = [0, −axis, 0, axis] (Ċ = axis·(ω_b − ω_a)).
    #[inline]
    pub fn set_angular(&mut self, bodies: &SolverBodies, a: u32, b: u32, axis: Vec3) {
        self.set_jacobian(bodies, a, b, [Vec3::ZERO, -axis, Vec3::ZERO, axis]);
    }

    /// Ċ = J·u for the current velocities.
    #[inline(always)]
    pub fn cdot(&self, v: &[Vec3], w: &[Vec3]) -> f32 {
        let (a, b) = (self.a as usize, self.b as usize);
        self.lin_a.dot(v[a]) + self.ang_a.dot(w[a]) + self.lin_b.dot(v[b]) + self.ang_b.dot(w[b])
    }

    /// u ← u + M⁻¹Jᵀ λ.
    #[inline(always)]
    pub fn apply(&self, v: &mut [Vec3], w: &mut [Vec3], lambda: f32) {
        let (a, b) = (self.a as usize, self.b as usize);
        v[a] += self.lin_a * (self.wa * lambda);
        w[a] += self.ia * lambda;
        v[b] += self.lin_b * (self.wb * lambda);
        w[b] += self.ib * lambda;
    }

    /// Re-applies the accumulated impulse (warm starting).
    #[inline]
    pub fn warm_start(&self, v: &mut [Vec3], w: &mut [Vec3]) {
        if self.accum != 0.0 {
            self.apply(v, w, self.accum);
        }
    }
}

/// `s` when `m` is s·1 exactly (`Bodies::inv_inertia_world` of an isotropic body).
#[inline(always)]
pub(crate) fn isotropic(m: &Mat3) -> Option<f32> {
    let s = m.x_axis.x;
    let off = [m.x_axis.y, m.x_axis.z, m.y_axis.x, m.y_axis.z, m.z_axis.x, m.z_axis.y];
    (m.y_axis.y == s && m.z_axis.z == s && off.iter().all(|&x| x == 0.0)).then_some(s)
}

/// Fills `rows[0..3]` as one point-coincidence block between bodies `a` and `b` with world
/// levers `r_a`, `r_b` (rows along the world axes, J_i = [−e_i, e_i × r_a, e_i, r_b × e_i]),
/// directly in matrix form: with A_a = −[r_a]ₓ and A_b = [r_b]ₓ (whose columns are the rows'
/// angular parts), M⁻¹Jᵀ's angular parts are the columns of I_a⁻¹ A_a and I_b⁻¹ A_b and
/// K = (w_a + w_b) 1 + A_aᵀ I_a⁻¹ A_a + A_bᵀ I_b⁻¹ A_b: four 3×3 products and one inverse
/// instead of nine four-term dot products (W4's preparation halves). `soft` per row; `accum`
/// is kept.
pub fn set_point3(rows: &mut [Row], bodies: &SolverBodies, a: u32, b: u32, r_a: Vec3, r_b: Vec3, soft: [[Soft; 2]; 3]) {
    let [r0, r1, r2] = rows else { return };
    let (ai, bi) = (a as usize, b as usize);
    let (wa, wb) = (bodies.inv_m[ai], bodies.inv_m[bi]);
    // (In Mat3A, whose products run a column per SIMD register on the same arithmetic.)
    let skew =
        |r: Vec3| Mat3A::from_cols(Vec3A::new(0.0, r.z, -r.y), Vec3A::new(-r.z, 0.0, r.x), Vec3A::new(r.y, -r.x, 0.0));
    let aa = -skew(r_a);
    let ab = skew(r_b);
    let (ia, ib, k) = match (isotropic(&bodies.inv_i[ai]), isotropic(&bodies.inv_i[bi])) {
        // Both inverse inertias s·1 (spheres, cubes, the ground): M⁻¹Jᵀ's angular parts are
        // the levers' skews scaled, and since [r]×ᵀ[r]× = |r|²·1 − r rᵀ,
        // K = (w_a + w_b + s_a|r_a|² + s_b|r_b|²)·1 − s_a r_a r_aᵀ − s_b r_b r_bᵀ.
        (Some(sa), Some(sb)) => {
            // (r_i r_j)·s: symmetric to the bit.
            let outer = |r: Vec3, s: f32| {
                let r = Vec3A::from(r);
                Mat3A::from_cols(r * r.x, r * r.y, r * r.z) * s
            };
            let d = wa + wb + sa * r_a.length_squared() + sb * r_b.length_squared();
            let k = Mat3A::from_diagonal(Vec3::splat(d)) - outer(r_a, sa) - outer(r_b, sb);
            (aa * sa, ab * sb, k)
        }
        _ => {
            let ia = Mat3A::from(bodies.inv_i[ai]) * aa;
            let ib = Mat3A::from(bodies.inv_i[bi]) * ab;
            (ia, ib, Mat3A::from_diagonal(Vec3::splat(wa + wb)) + aa.transpose() * ia + ab.transpose() * ib)
        }
    };
    let (aa, ab, ia, ib) = (Mat3::from(aa), Mat3::from(ab), Mat3::from(ia), Mat3::from(ib));
    for (i, row) in [&mut *r0, &mut *r1, &mut *r2].into_iter().enumerate() {
        let e = Vec3::AXES[i];
        row.a = a;
        row.b = b;
        row.lin_a = -e;
        row.ang_a = aa.col(i);
        row.lin_b = e;
        row.ang_b = ab.col(i);
        row.wa = wa;
        row.wb = wb;
        row.ia = ia.col(i);
        row.ib = ib.col(i);
        let kk = k.col(i)[i];
        row.mass = if kk > 0.0 { 1.0 / kk } else { 0.0 };
        row.soft = soft[i];
        row.lo = f32::NEG_INFINITY;
        row.hi = f32::INFINITY;
        row.block = 0;
    }
    let det = k.determinant();
    let scale = k.col(0).abs().max(k.col(1).abs()).max(k.col(2).abs()).max_element();
    if det > F32_BLOCK_MIN_CONDITION * k.x_axis.x * k.y_axis.y * k.z_axis.z && det > 1e-9 * scale * scale * scale {
        let inv = k.inverse();
        r0.block = POINT_BLOCK3;
        r0.k_inv = [inv.x_axis.into(), inv.y_axis.into(), inv.z_axis.into()];
        return;
    }
    // Ill-conditioned in f32 (a lever arm far longer than the body's radius of gyration):
    // K and K⁻¹ in f64 instead (see `F32_BLOCK_MIN_CONDITION`).
    make_block_f64(rows, bodies);
}

/// `Row::block` of an f64 block of n rows: `F64_BLOCK | n`.
const F64_BLOCK: u8 = 0x80;
/// Most rows one f64 block holds (a weld's six).
pub const MAX_BLOCK: usize = 6;

/// Slot `k` of the f32 storage an f64 block keeps its K⁻¹ in: the rows' `k_inv`, nine
/// floats each, in order.
#[inline(always)]
fn slot(rows: &[Row], k: usize) -> f32 {
    rows[k / 9].k_inv[k % 9 / 3][k % 3]
}

/// Makes `rows` (2 to [`MAX_BLOCK`] equality rows of one joint, Jacobians set, sharing their
/// soft factors' mass and impulse scales) one block solved whole by [`solve_block_f64`]:
/// K = J M⁻¹ Jᵀ built in f64 from the Jacobians and the bodies' own inverse masses and
/// inertias (not from the rows' f32 M⁻¹Jᵀ, whose rounding alone is larger than K's smallest
/// eigenvalue when a lever is long) and inverted in f64 (Gauss–Jordan, partial pivoting).
/// K⁻¹'s upper triangle is kept in the rows' `k_inv` as pairs of f32 (the f64 entry rounded
/// to f32, and what that rounding left out: together ~48 bits). Left as it was (scalar rows,
/// `block` 0) if K is singular or not finite.
#[allow(clippy::needless_range_loop)] // (index arithmetic of a small dense matrix)
pub fn make_block_f64(rows: &mut [Row], bodies: &SolverBodies) {
    let n = rows.len();
    if !(2..=MAX_BLOCK).contains(&n) {
        return;
    }
    rows[0].block = 0;
    let (ai, bi) = (rows[0].a as usize, rows[0].b as usize);
    let d = |m: Mat3| DMat3::from_cols(m.x_axis.as_dvec3(), m.y_axis.as_dvec3(), m.z_axis.as_dvec3());
    let (ia, ib) = (d(bodies.inv_i[ai]), d(bodies.inv_i[bi]));
    let (wa, wb) = (bodies.inv_m[ai] as f64, bodies.inv_m[bi] as f64);
    // M⁻¹Jᵀ in f64, per row.
    let mut mj = [[DVec3::ZERO; 4]; MAX_BLOCK];
    for (m, r) in mj.iter_mut().zip(rows.iter()) {
        *m = [r.lin_a.as_dvec3() * wa, ia * r.ang_a.as_dvec3(), r.lin_b.as_dvec3() * wb, ib * r.ang_b.as_dvec3()];
    }
    let mut k = [[0f64; 2 * MAX_BLOCK]; MAX_BLOCK];
    for i in 0..n {
        let r = &rows[i];
        let j_i = [r.lin_a.as_dvec3(), r.ang_a.as_dvec3(), r.lin_b.as_dvec3(), r.ang_b.as_dvec3()];
        for j in 0..n {
            k[i][j] = (0..4).map(|c| j_i[c].dot(mj[j][c])).sum();
        }
        k[i][n + i] = 1.0;
    }
    // Gauss–Jordan on [K | 1].
    for c in 0..n {
        let p = (c..n).max_by(|&x, &y| k[x][c].abs().total_cmp(&k[y][c].abs())).unwrap_or(c);
        let piv = k[p][c];
        // Relative to the diagonal (units differ from row to row): a pivot this small is a
        // singular K.
        if !piv.is_finite() || piv.abs() <= 1e-14 * k[c][c].abs().max(k[p][p].abs()) || piv == 0.0 {
            return;
        }
        k.swap(p, c);
        let inv = 1.0 / piv;
        for x in k[c].iter_mut().take(2 * n) {
            *x *= inv;
        }
        for r in 0..n {
            if r != c {
                let f = k[r][c];
                if f != 0.0 {
                    let row_c = k[c];
                    for (x, y) in k[r].iter_mut().zip(row_c.iter()).take(2 * n) {
                        *x -= f * y;
                    }
                }
            }
        }
    }
    let mut t = 0;
    for i in 0..n {
        for j in i..n {
            let x = 0.5 * (k[i][n + j] + k[j][n + i]);
            if !x.is_finite() {
                return;
            }
            let hi = x as f32;
            let lo = (x - hi as f64) as f32;
            for (q, v) in [(2 * t, hi), (2 * t + 1, lo)] {
                rows[q / 9].k_inv[q % 9 / 3][q % 3] = v;
            }
            t += 1;
        }
    }
    rows[0].block = F64_BLOCK | n as u8;
}

/// Solves an f64 block ([`make_block_f64`]): Δλ = −s_mass K⁻¹ (Ċ + b) − s_impulse λ with
/// K⁻¹ and the product in f64, the soft step's factors taken from the first row.
#[inline(never)]
#[allow(clippy::needless_range_loop)]
pub fn solve_block_f64(rows: &mut [Row], v: &mut [Vec3], w: &mut [Vec3], phase: Phase) {
    let n = rows.len().min(MAX_BLOCK);
    let p = phase as usize;
    let s = rows[0].soft[p];
    let mut cb = [0f64; MAX_BLOCK];
    for (c, r) in cb.iter_mut().zip(rows.iter()) {
        *c = r.cdot(v, w) as f64 + r.soft[p].bias as f64;
    }
    let mut kinv = [[0f64; MAX_BLOCK]; MAX_BLOCK];
    let mut t = 0;
    for i in 0..n {
        for j in i..n {
            let x = slot(rows, 2 * t) as f64 + slot(rows, 2 * t + 1) as f64;
            kinv[i][j] = x;
            kinv[j][i] = x;
            t += 1;
        }
    }
    for i in 0..n {
        let x: f64 = (0..n).map(|j| kinv[i][j] * cb[j]).sum();
        let di = -(x as f32) * s.mass_scale - rows[i].accum * s.impulse_scale;
        rows[i].accum += di;
        rows[i].apply(v, w, di);
    }
}

/// Makes `rows[0..3]`, whose Jacobians are already set, one 3×3 block solved whole by
/// [`solve_block3`]: K_ij = J_i M⁻¹ J_jᵀ from the rows' own Jacobians and M⁻¹Jᵀ (for rows
/// that are not a point constraint, e.g. the 2D lock's). The three rows must share their
/// soft factors' mass and impulse scales. Left as scalar rows if K is singular. `a_is_ground`:
/// body A is the ground (at rest for ever), so the block may be solved on B alone
/// ([`solve_block3_b`]); an immovable A that can still move (kinematic, held) must not be.
pub fn make_block3(rows: &mut [Row], a_is_ground: bool) {
    let [r0, r1, r2] = rows else { return };
    let k_ij = |a: &Row, b: &Row| {
        a.lin_a.dot(b.lin_a) * b.wa + a.ang_a.dot(b.ia) + a.lin_b.dot(b.lin_b) * b.wb + a.ang_b.dot(b.ib)
    };
    let k = Mat3::from_cols(
        Vec3::new(k_ij(r0, r0), k_ij(r1, r0), k_ij(r2, r0)),
        Vec3::new(k_ij(r0, r1), k_ij(r1, r1), k_ij(r2, r1)),
        Vec3::new(k_ij(r0, r2), k_ij(r1, r2), k_ij(r2, r2)),
    );
    r0.block = 0;
    let det = k.determinant();
    let scale = k.col(0).abs().max(k.col(1).abs()).max(k.col(2).abs()).max_element();
    if scale > 0.0 && det.abs() > 1e-9 * scale * scale * scale {
        let inv = k.inverse();
        let immovable_a = [&*r0, &*r1, &*r2].iter().all(|r| r.wa == 0.0 && r.ia == Vec3::ZERO);
        r0.block = if a_is_ground && immovable_a { ONE_BODY_BLOCK3 } else { 3 };
        r0.k_inv = [inv.x_axis, inv.y_axis, inv.z_axis];
    }
}

/// `Row::block` of a 3-block against the ground (A never moves: a 2D lock), solved by
/// [`solve_block3_b`].
const ONE_BODY_BLOCK3: u8 = 4;

/// [`solve_block3`] for a block against the ground: the same update, without reading A's
/// velocity (the ground's, zero for ever) or adding its zero change. (Each 2D lock is such a block against the ground: solving them in a row
/// wrote the ground's velocity 210 times a sweep in W6, each waiting on the last.)
#[inline(always)]
pub fn solve_block3_b(rows: &mut [Row], v: &mut [Vec3], w: &mut [Vec3], phase: Phase) {
    let [r0, r1, r2] = rows else { return };
    let p = phase as usize;
    let s = r0.soft[p];
    let b = r0.b as usize;
    let (vb, wb) = (v[b], w[b]);
    let cdot = |r: &Row| r.lin_b.dot(vb) + r.ang_b.dot(wb) + r.soft[p].bias;
    let cb = Vec3::new(cdot(r0), cdot(r1), cdot(r2));
    let kinv = Mat3::from_cols(r0.k_inv[0], r0.k_inv[1], r0.k_inv[2]);
    let acc = Vec3::new(r0.accum, r1.accum, r2.accum);
    let d = -(kinv * cb) * s.mass_scale - acc * s.impulse_scale;
    let (mut vb, mut wb) = (vb, wb);
    for (row, di) in [r0, r1, r2].into_iter().zip(d.to_array()) {
        row.accum += di;
        vb += row.lin_b * (row.wb * di);
        wb += row.ib * di;
    }
    (v[b], w[b]) = (vb, wb);
}

/// `Row::block` of a 2D lock's block ([`make_lock_block`]), solved by [`solve_lock`].
const LOCK_BLOCK3: u8 = 5;
/// `Row::block` of a 2D lock left out of this step's sweeps (`solver::body_step::rows`: a planar
/// body only 2D contacts touch, lying in the plane with no out-of-plane velocity, whose lock
/// every sweep would find idle, [`solve_lock`]): the sweep steps over its three rows.
pub const IDLE_LOCK: u8 = 6;

/// [`make_block3`] for a 2D lock's three rows against the ground, when they have the lock's
/// shape: A immovable (w_a = 0, I_a⁻¹ Jᵀ = 0), a plane row along ẑ through B's centre
/// (J_B = [ẑ, 0], so its M⁻¹Jᵀ angular part is 0) and two purely angular rows
/// (J_B = [0, c_k]). K is then [w_b, 0, 0; 0, c_i·I_b⁻¹c_j] exactly: its other terms are
/// products by exact zeros, so the four dot products here give the same K⁻¹ as
/// [`make_block3`]'s 36 (up to the sign of its zero entries), and the block is marked for
/// [`solve_lock`]. Any other shape, or an A that is not the ground (`a_is_ground`, said by
/// the caller as for [`make_block3`]: a kinematic or held A has zero inverse mass but moves,
/// and [`solve_lock`] does not read A's velocity), goes to [`make_block3`]. Returns whether
/// it was a lock.
pub fn make_lock_block(rows: &mut [Row], a_is_ground: bool) -> bool {
    let [r0, r1, r2] = rows else { return false };
    let shaped = a_is_ground
        && r0.b == r1.b
        && r0.b == r2.b
        && [&*r0, &*r1, &*r2].iter().all(|r| r.wa == 0.0 && r.ia == Vec3::ZERO)
        && r0.lin_b == Vec3::Z
        && r0.ang_b == Vec3::ZERO
        && r0.ib == Vec3::ZERO
        && r1.lin_b == Vec3::ZERO
        && r2.lin_b == Vec3::ZERO;
    if !shaped {
        make_block3(rows, a_is_ground);
        return false;
    }
    let k = Mat3::from_cols(
        Vec3::new(r0.wb, 0.0, 0.0),
        Vec3::new(0.0, r1.ang_b.dot(r1.ib), r2.ang_b.dot(r1.ib)),
        Vec3::new(0.0, r1.ang_b.dot(r2.ib), r2.ang_b.dot(r2.ib)),
    );
    r0.block = 0;
    let det = k.determinant();
    let scale = k.col(0).abs().max(k.col(1).abs()).max(k.col(2).abs()).max_element();
    if scale > 0.0 && det.abs() > 1e-9 * scale * scale * scale {
        let inv = k.inverse();
        r0.block = LOCK_BLOCK3;
        r0.k_inv = [inv.x_axis, inv.y_axis, inv.z_axis];
    }
    true
}

/// [`solve_block3_b`] for a 2D lock's block ([`make_lock_block`]): the same update term
/// for term without the products by the rows' exact zeros (the plane row reads and moves
/// v_z alone; the two angular rows read and move ω alone). The results are those of
/// [`solve_block3_b`] bit for bit, up to the sign of a zero (an exact 0 + (−0) is +0)
/// and to a non-finite velocity the skipped products would have carried as NaN: the
/// step's guards catch those anyway. About 60 instructions a block where the generic one
/// took 200 (W6 solves 210 of them in each of its 8 sweeps a step).
///
/// A lock with nothing to do is skipped: no impulse held (λ = +0), no error to correct and
/// no out-of-plane velocity (Ċ + b = 0 in all three rows, v_z = ω_x = ω_y = +0 exactly) —
/// every planar body of a resting 2D scene, every sweep. The update would then add ±0 to
/// each λ and velocity component, which leaves them as they are (+0 + ±0 = +0, x + ±0 = x
/// for x ≠ 0) except a −0 spin ω_z, which it could make +0: the skip requires ω_z ≠ −0, so
/// the results are the full update's bit for bit (`the_idle_lock_skip_is_bit_exact`).
#[inline(always)]
pub fn solve_lock(rows: &mut [Row], v: &mut [Vec3], w: &mut [Vec3], phase: Phase) {
    let [r0, r1, r2] = rows else { return };
    let p = phase as usize;
    let b = r0.b as usize;
    let (vz, wb) = (v[b].z, w[b]);
    let cb = Vec3::new(vz + r0.soft[p].bias, r1.ang_b.dot(wb) + r1.soft[p].bias, r2.ang_b.dot(wb) + r2.soft[p].bias);
    let zero_bits =
        vz.to_bits() | wb.x.to_bits() | wb.y.to_bits() | r0.accum.to_bits() | r1.accum.to_bits() | r2.accum.to_bits();
    if zero_bits == 0 && cb == Vec3::ZERO && wb.z.to_bits() != (-0.0f32).to_bits() {
        return;
    }
    solve_lock_from(rows, v, w, phase, cb);
}

/// [`solve_lock`]'s update from Ċ + b = `cb`, without the idle test.
#[inline(always)]
fn solve_lock_from(rows: &mut [Row], v: &mut [Vec3], w: &mut [Vec3], phase: Phase, cb: Vec3) {
    let [r0, r1, r2] = rows else { return };
    let p = phase as usize;
    let s = r0.soft[p];
    let b = r0.b as usize;
    let (mut vz, mut wb) = (v[b].z, w[b]);
    let kinv = Mat3::from_cols(r0.k_inv[0], r0.k_inv[1], r0.k_inv[2]);
    let acc = Vec3::new(r0.accum, r1.accum, r2.accum);
    let d = -(kinv * cb) * s.mass_scale - acc * s.impulse_scale;
    r0.accum += d.x;
    vz += r0.wb * d.x;
    r1.accum += d.y;
    wb += r1.ib * d.y;
    r2.accum += d.z;
    wb += r2.ib * d.z;
    (v[b].z, w[b]) = (vz, wb);
}

/// Solves a 3-row point block (see [`set_point3`]; solving the three rows of a point
/// constraint whole is the seed's "3×3 block (tighter convergence)" for the ball-socket, as
/// Box2D and Rapier solve point constraints: a lever arm couples the world axes through the
/// body's rotation, and scalar rows crawl — W4 stretched 121 % with them, 11 % as blocks): Δλ = −s_mass K⁻¹ (Ċ + b) − s_impulse λ, the
/// soft step's factors taken from the first row (the three share them), no clamping.
#[inline(always)]
pub fn solve_block3(rows: &mut [Row], v: &mut [Vec3], w: &mut [Vec3], phase: Phase) {
    let [r0, r1, r2] = rows else { return };
    let p = phase as usize;
    let s = r0.soft[p];
    let cb =
        Vec3::new(r0.cdot(v, w) + r0.soft[p].bias, r1.cdot(v, w) + r1.soft[p].bias, r2.cdot(v, w) + r2.soft[p].bias);
    let kinv = Mat3::from_cols(r0.k_inv[0], r0.k_inv[1], r0.k_inv[2]);
    let acc = Vec3::new(r0.accum, r1.accum, r2.accum);
    let d = -(kinv * cb) * s.mass_scale - acc * s.impulse_scale;
    for (row, di) in [r0, r1, r2].into_iter().zip(d.to_array()) {
        row.accum += di;
        row.apply(v, w, di);
    }
}

/// `Row::block` of a ball-socket's three rows while the bodies' point lane solves the joint
/// (`solver::body_step::points`): the sweeps and the warm start step over them.
pub(crate) const LANE_POINT: u8 = 8;

/// `Row::block` of a point block made by [`set_point3`] (rows along the world axes, so
/// J_i = [−e_i, ·, e_i, ·]), solved by [`solve_point3`] and warm started whole.
const POINT_BLOCK3: u8 = 7;

/// [`solve_block3`] for a [`set_point3`] block, with the same arithmetic in the same order,
/// equal up to the sign of a zero: each body's velocities are read once and written once,
/// and the linear parts, ±e_i, are the velocities' components (−e_i · v = −v_i, and
/// v + (−e_i)(w λ) changes only v_i; the generic rows' products by the zero parts of e_i
/// can only turn a −0 into +0, or spread a non-finite velocity to the other rows). A joint
/// of a body with itself goes to [`solve_block3`].
#[inline(always)]
pub fn solve_point3(rows: &mut [Row], v: &mut [Vec3], w: &mut [Vec3], phase: Phase) {
    let (a, b) = (rows[0].a as usize, rows[0].b as usize);
    if a == b {
        return solve_block3(rows, v, w, phase);
    }
    let [r0, r1, r2] = rows else { return };
    let p = phase as usize;
    let s = r0.soft[p];
    let (va, wa, vb, wb) = (v[a], w[a], v[b], w[b]);
    let cdot = |r: &Row, i: usize| -va[i] + r.ang_a.dot(wa) + vb[i] + r.ang_b.dot(wb) + r.soft[p].bias;
    let cb = Vec3::new(cdot(r0, 0), cdot(r1, 1), cdot(r2, 2));
    let kinv = Mat3::from_cols(r0.k_inv[0], r0.k_inv[1], r0.k_inv[2]);
    let acc = Vec3::new(r0.accum, r1.accum, r2.accum);
    let d = -(kinv * cb) * s.mass_scale - acc * s.impulse_scale;
    r0.accum += d.x;
    r1.accum += d.y;
    r2.accum += d.z;
    point_apply(r0, r1, r2, v, w, d, (a, b));
}

/// u ← u + M⁻¹Jᵀ λ for a [`POINT_BLOCK3`]'s three rows: the angular parts row by row, as
/// [`Row::apply`]; the linear parts, ±e_i, each on its own component.
#[inline(always)]
fn point_apply(r0: &Row, r1: &Row, r2: &Row, v: &mut [Vec3], w: &mut [Vec3], d: Vec3, (a, b): (usize, usize)) {
    let (ma, mb) = (d * r0.wa, d * r0.wb);
    v[a] -= ma;
    w[a] = w[a] + r0.ia * d.x + r1.ia * d.y + r2.ia * d.z;
    v[b] += mb;
    w[b] = w[b] + r0.ib * d.x + r1.ib * d.y + r2.ib * d.z;
}

/// The seed's `row_solve`, the only inner-loop code of the impulse solver: one projected
/// Gauss–Seidel update of one row in phase `phase`.
#[inline(always)]
pub fn solve(row: &mut Row, v: &mut [Vec3], w: &mut [Vec3], phase: Phase) {
    let s = row.soft[phase as usize];
    let cdot = row.cdot(v, w);
    let raw = -row.mass * s.mass_scale * (cdot + s.bias) - s.impulse_scale * row.accum;
    // (`clamp` panics on NaN bounds — a contact's friction bounds are μ times its normal
    // impulse — and a panic is a trap in wasm: a bound that is not a number leaves the row.)
    let new = if row.lo <= row.hi { (row.accum + raw).clamp(row.lo, row.hi) } else { row.accum };
    let d = new - row.accum;
    row.accum = new;
    row.apply(v, w, d);
}

/// Every row's accumulated impulse re-applied ([`Row::warm_start`]), stepping over the 2D
/// locks left out of the step ([`IDLE_LOCK`]: their impulses are +0, which `warm_start`
/// would skip row by row after reading each).
pub fn warm_start(rows: &[Row], v: &mut [Vec3], w: &mut [Vec3]) {
    let mut i = 0;
    while i < rows.len() {
        if rows[i].block == IDLE_LOCK && i + 3 <= rows.len() {
            debug_assert!(rows[i..i + 3].iter().all(|r| r.accum == 0.0));
            i += 3;
        } else if rows[i].block == LANE_POINT && i + 3 <= rows.len() {
            i += 3;
        } else if let (POINT_BLOCK3, Some([r0, r1, r2])) = (rows[i].block, rows.get(i..i + 3)) {
            // (The three rows' impulses at once: the rows' own order of products, equal to the
            // row by row warm start up to the sign of a zero.)
            let (a, b) = (r0.a as usize, r0.b as usize);
            if a == b {
                rows[i].warm_start(v, w);
                i += 1;
                continue;
            }
            if r0.accum != 0.0 || r1.accum != 0.0 || r2.accum != 0.0 {
                point_apply(r0, r1, r2, v, w, Vec3::new(r0.accum, r1.accum, r2.accum), (a, b));
            }
            i += 3;
        } else {
            rows[i].warm_start(v, w);
            i += 1;
        }
    }
}

/// One Gauss–Seidel sweep over `rows` (scalar rows and 3-row blocks).
pub fn sweep(rows: &mut [Row], v: &mut [Vec3], w: &mut [Vec3], phase: Phase) {
    let mut i = 0;
    while i < rows.len() {
        if rows[i].block == IDLE_LOCK && i + 3 <= rows.len() {
            i += 3;
        } else if rows[i].block == LOCK_BLOCK3 && i + 3 <= rows.len() {
            solve_lock(&mut rows[i..i + 3], v, w, phase);
            i += 3;
        } else if rows[i].block == ONE_BODY_BLOCK3 && i + 3 <= rows.len() {
            solve_block3_b(&mut rows[i..i + 3], v, w, phase);
            i += 3;
        } else if rows[i].block == LANE_POINT && i + 3 <= rows.len() {
            i += 3;
        } else if rows[i].block == POINT_BLOCK3 && i + 3 <= rows.len() {
            solve_point3(&mut rows[i..i + 3], v, w, phase);
            i += 3;
        } else if rows[i].block == 3 && i + 3 <= rows.len() {
            solve_block3(&mut rows[i..i + 3], v, w, phase);
            i += 3;
        } else if rows[i].block > F64_BLOCK {
            let n = ((rows[i].block & !F64_BLOCK) as usize).min(rows.len() - i);
            solve_block_f64(&mut rows[i..i + n], v, w, phase);
            i += n;
        } else {
            solve(&mut rows[i], v, w, phase);
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    /// The idle lock skip (`solve_lock`) gives the full update's bits: from states that are
    /// idle (λ, v_z, ω_x, ω_y all +0, no error) and states one component away from idle
    /// (−0 among them, a tiny λ, error or tilt spin, ω_z of either zero sign), both phases.
    #[test]
    fn the_idle_lock_skip_is_bit_exact() {
        let mut rng = crate::leash::Rng::new(11);
        let mut rnd = move || rng.signed();
        let (mut skipped, mut cases) = (0, 0);
        for case in 0..4_000 {
            let mut rows = [Row::default(); 3];
            let q = Quat::from_rotation_z(3.0 * rnd());
            let r = Mat3::from_quat(q);
            let inv_i = r
                * Mat3::from_diagonal(Vec3::new(1.0 + rnd().abs(), 1.5 + rnd().abs(), 0.5 + rnd().abs()))
                * r.transpose();
            let a_b = q * Vec3::Z;
            rows[0] = Row { a: 0, b: 1, lin_a: -Vec3::Z, lin_b: Vec3::Z, wb: 0.7, mass: 1.0 / 0.7, ..Row::default() };
            for (row, t) in rows[1..].iter_mut().zip([Vec3::X, Vec3::Y]) {
                let c = t.cross(a_b);
                let ib = inv_i * -c;
                let k = (-c).dot(ib);
                *row = Row { a: 0, b: 1, ang_a: c, ang_b: -c, wb: 0.7, ib, mass: 1.0 / k, ..Row::default() };
            }
            for row in rows.iter_mut() {
                (row.lo, row.hi) = (f32::NEG_INFINITY, f32::INFINITY);
                row.soft = [Soft::target(0.0), Soft::RIGID];
            }
            assert!(make_lock_block(&mut rows, true));
            let mut v = [Vec3::ZERO, Vec3::new(rnd(), rnd(), 0.0)];
            let mut w = [Vec3::ZERO, Vec3::new(0.0, 0.0, 3.0 * rnd())];
            // One perturbation (or none: idle).
            match case % 9 {
                0 => v[1].z = -0.0,
                1 => w[1].x = 1e-7 * rnd(),
                2 => w[1].y = -0.0,
                3 => rows[1].accum = 1e-6 * rnd(),
                4 => rows[0].soft[0].bias = 1e-5 * rnd(),
                5 => w[1].z = -0.0,
                6 => w[1].z = 0.0,
                _ => {}
            }
            let (mut fast, mut full) = (rows, rows);
            let (mut v2, mut w2) = (v, w);
            for phase in [Phase::Solve, Phase::Relax] {
                let p = phase as usize;
                let cb = Vec3::new(
                    v2[1].z + full[0].soft[p].bias,
                    full[1].ang_b.dot(w2[1]) + full[1].soft[p].bias,
                    full[2].ang_b.dot(w2[1]) + full[2].soft[p].bias,
                );
                let before = (v, w, fast.map(|r| r.accum));
                solve_lock(&mut fast, &mut v, &mut w, phase);
                skipped += (before == (v, w, fast.map(|r| r.accum))) as u32;
                solve_lock_from(&mut full, &mut v2, &mut w2, phase, cb);
                cases += 1;
            }
            let bits = |v: &[Vec3; 2], w: &[Vec3; 2], r: &[Row; 3]| {
                let f = |x: Vec3| x.to_array().map(f32::to_bits);
                ([f(v[1]), f(w[1])], r.map(|r| r.accum.to_bits()))
            };
            assert_eq!(bits(&v, &w, &fast), bits(&v2, &w2, &full), "case {case}");
        }
        // (Measured: the skip or a no-op update in about half the solves.)
        assert!(skipped > cases / 4, "{skipped} of {cases}");
    }

    /// Box2D's factors equal the (k, c) implicit step Δλ = −(Ċ + β/h C + γλ)/(K + γ).
    #[test]
    fn box2d_soft_factors_equal_the_implicit_spring() {
        let (h, hz, zeta) = (1.0 / 240.0, 7.0, 0.4);
        for m_eff in [0.01f32, 1.0, 250.0] {
            let s = Spring::new(hz, zeta, h);
            let omega = 2.0 * std::f32::consts::PI * hz;
            let (k, c) = (m_eff * omega * omega, 2.0 * m_eff * zeta * omega);
            let kk = 1.0 / m_eff;
            let gamma = 1.0 / (h * (c + h * k));
            let beta = h * k / (c + h * k);
            let (cdot, cpos, lam) = (0.3f32, -0.02f32, 1.5f32);
            let implicit = -(cdot + beta / h * cpos + gamma * lam) / (kk + gamma);
            let ours = -m_eff * s.mass_scale * (cdot + s.bias_rate * cpos) - s.impulse_scale * lam;
            assert!((implicit - ours).abs() <= 1e-4 * implicit.abs().max(1.0), "m {m_eff}: {implicit} vs {ours}");
            // The seed's formula gives another answer unless K = 1.
            let den = 1.0 / (h * (h * k + c));
            let ks = kk * den;
            let seed_mass = 1.0 / (kk * (1.0 + ks));
            if (m_eff - 1.0).abs() > 0.5 {
                assert!((seed_mass - m_eff * s.mass_scale).abs() > 1e-3 * m_eff, "seed agrees at m {m_eff}?");
            }
        }
    }

    #[test]
    fn joint_spring_is_capped_at_a_quarter_of_the_substep_rate() {
        let h = 1.0 / 60.0;
        assert_eq!(Spring::joint(h), Spring::new(15.0, JOINT_DAMPING_RATIO, h));
        let h = 1.0 / 600.0;
        assert_eq!(Spring::joint(h), Spring::new(JOINT_HERTZ, JOINT_DAMPING_RATIO, h));
    }

    /// A rigid equality row between two particles reaches Ċ = 0 in one solve and conserves
    /// momentum.
    #[test]
    fn one_rigid_row_zeroes_relative_velocity_and_conserves_momentum() {
        let mut b = SolverBodies::default();
        b.resize(2);
        b.inv_m = vec![1.0, 0.25];
        b.v = vec![Vec3::new(1.0, 2.0, 0.0), Vec3::new(-1.0, 0.0, 0.5)];
        let p0 = b.v[0] / b.inv_m[0] + b.v[1] / b.inv_m[1];
        let mut row = Row::default();
        row.set_axis(&b, 0, 1, Vec3::X, Vec3::ZERO, Vec3::ZERO);
        solve(&mut row, &mut b.v, &mut b.w, Phase::Relax);
        assert!(row.cdot(&b.v, &b.w).abs() < 1e-6);
        let p1 = b.v[0] / b.inv_m[0] + b.v[1] / b.inv_m[1];
        assert!((p1 - p0).length() < 1e-5);
    }

    /// `solve_point3` and the warm start's point branch against `solve_block3` and the row by
    /// row warm start, with A a body or the ground and impulses of either zero sign among
    /// them: the same impulses and velocities (`==`: they may differ in a zero's sign).
    #[test]
    fn the_point_block_solves_as_the_generic_block() {
        let mut rng = crate::leash::Rng::new(7);
        let mut rnd = move || rng.signed();
        let mut blocks = 0;
        for case in 0..20_000 {
            let mut sb = SolverBodies::default();
            sb.resize(3);
            for k in 0..2 {
                sb.inv_m[k] = 0.5 + rnd().abs();
                let q = Quat::from_euler(glam::EulerRot::XYZ, 3.0 * rnd(), 3.0 * rnd(), 3.0 * rnd());
                let r = Mat3::from_quat(q);
                let d = Vec3::new(1.0 + rnd().abs(), 2.0 + rnd().abs(), 0.5 + rnd().abs());
                sb.inv_i[k] = r * Mat3::from_diagonal(d) * r.transpose();
                sb.v[k] = Vec3::new(rnd(), rnd(), rnd());
                sb.w[k] = Vec3::new(rnd(), rnd(), rnd());
            }
            if case % 7 == 0 {
                sb.v[1].y = -0.0;
                sb.w[0].z = -0.0;
            }
            let a = if case % 3 == 0 { 2 } else { 0 };
            let soft = |x: f32| [Soft { bias: x, mass_scale: 0.8, impulse_scale: 0.1 }, Soft::RIGID];
            let mut rows = [Row::default(); 3];
            let (ra, rb) = (Vec3::new(rnd(), rnd(), rnd()), Vec3::new(rnd(), rnd(), rnd()));
            set_point3(&mut rows, &sb, a, 1, ra, rb, [soft(rnd()), soft(rnd()), soft(rnd())]);
            if rows[0].block != POINT_BLOCK3 {
                continue;
            }
            blocks += 1;
            for (i, r) in rows.iter_mut().enumerate() {
                r.accum = match (case / 3 + i) % 5 {
                    0 => 0.0,
                    1 => -0.0,
                    _ => rnd(),
                };
            }
            for phase in [Phase::Solve, Phase::Relax] {
                let (mut r1, mut v1, mut w1) = (rows, sb.v.clone(), sb.w.clone());
                let (mut r2, mut v2, mut w2) = (rows, sb.v.clone(), sb.w.clone());
                solve_block3(&mut r1, &mut v1, &mut w1, phase);
                solve_point3(&mut r2, &mut v2, &mut w2, phase);
                assert!(r1.iter().zip(&r2).all(|(x, y)| x.accum == y.accum), "case {case}: impulses");
                assert!(v1 == v2 && w1 == w2, "case {case}: {v1:?} {v2:?} {w1:?} {w2:?}");
            }
            let (mut v1, mut w1) = (sb.v.clone(), sb.w.clone());
            let (mut v2, mut w2) = (sb.v.clone(), sb.w.clone());
            for r in &rows {
                r.warm_start(&mut v1, &mut w1);
            }
            warm_start(&rows, &mut v2, &mut w2);
            assert!(v1 == v2 && w1 == w2, "case {case}, warm start: {v1:?} {v2:?} {w1:?} {w2:?}");
        }
        assert!(blocks > 10_000, "{blocks} point blocks");
    }

    /// The point block between isotropic bodies (inverse inertias s·1: spheres, cubes, the
    /// ground) against K = (w_a + w_b)·1 + A_aᵀ I_a⁻¹ A_a + A_bᵀ I_b⁻¹ A_b and I⁻¹A taken
    /// in f64 from the same inputs: M⁻¹Jᵀ's angular parts within 1e-6 relative, K⁻¹ (where
    /// the f32 block is kept) within 1e-4 of its largest entry, and a non-isotropic body on
    /// either side still takes the products.
    #[test]
    fn the_isotropic_point_block_is_the_products() {
        let mut rng = crate::leash::Rng::new(5);
        let mut rnd = move || rng.signed();
        let (mut fast, mut general, mut checked) = (0, 0, 0);
        for case in 0..5_000 {
            let mut sb = SolverBodies::default();
            sb.resize(3);
            let aniso = case % 4 == 3;
            for k in 0..2 {
                sb.inv_m[k] = 0.5 + rnd().abs();
                sb.inv_i[k] = Mat3::from_diagonal(Vec3::splat(0.5 + 3.0 * rnd().abs()));
            }
            if aniso {
                sb.inv_i[1].y_axis.x = 0.1;
                sb.inv_i[1].x_axis.y = 0.1;
            }
            let a = if case % 3 == 0 { 2 } else { 0 };
            let mut rows = [Row::default(); 3];
            let (ra, rb) = (Vec3::new(rnd(), rnd(), rnd()), Vec3::new(rnd(), rnd(), rnd()));
            set_point3(&mut rows, &sb, a, 1, ra, rb, [[Soft::RIGID; 2]; 3]);
            let d = |m: Mat3| m.as_dmat3();
            let skew = |r: Vec3| {
                let r = r.as_dvec3();
                DMat3::from_cols(DVec3::new(0.0, r.z, -r.y), DVec3::new(-r.z, 0.0, r.x), DVec3::new(r.y, -r.x, 0.0))
            };
            let (aa, ab) = (-skew(ra), skew(rb));
            let (ia, ib) = (d(sb.inv_i[a as usize]) * aa, d(sb.inv_i[1]) * ab);
            let w = sb.inv_m[a as usize] as f64 + sb.inv_m[1] as f64;
            let k = DMat3::from_diagonal(DVec3::splat(w)) + aa.transpose() * ia + ab.transpose() * ib;
            for (i, r) in rows.iter().enumerate() {
                let close = |x: Vec3, y: DVec3| (x.as_dvec3() - y).length() <= 1e-6 * y.length().max(1.0);
                assert!(close(r.ia, ia.col(i)) && close(r.ib, ib.col(i)), "case {case}, row {i}");
            }
            if rows[0].block == POINT_BLOCK3 {
                checked += 1;
                let inv = k.inverse();
                let got = DMat3::from_cols(
                    Vec3::from(rows[0].k_inv[0]).as_dvec3(),
                    Vec3::from(rows[0].k_inv[1]).as_dvec3(),
                    Vec3::from(rows[0].k_inv[2]).as_dvec3(),
                );
                let scale = inv.to_cols_array().iter().fold(0.0f64, |m, x| m.max(x.abs()));
                let err = (got - inv).to_cols_array().iter().fold(0.0f64, |m, x| m.max(x.abs()));
                assert!(err <= 1e-4 * scale, "case {case}: K⁻¹ off by {err:e} of {scale:e}");
            }
            if aniso {
                general += 1;
            } else {
                fast += 1;
            }
            assert_eq!(isotropic(&sb.inv_i[1]).is_some(), !aniso);
        }
        assert!(fast > 3_000 && general > 1_000 && checked > 4_000, "{fast} {general} {checked}");
    }
}
