//! One contact manifold between two solver bodies as the 001 seed's *contact patch*: one
//! penetration row per contact point, and patch friction (two tangent rows at the patch
//! centroid, a twist row about the normal, an optional rolling row), all friction bounds
//! coupled to the patch's total normal impulse.
//!
//! ## Penetration rows (the seed's `contact_setup`, with Box2D v3's soft step)
//! For a point with levers r_a, r_b (world, from each centre of mass to the contact point)
//! and normal n (from A to B), the separation s = n·(p_b − p_a) must stay ≥ 0. Its rate is
//! ṡ = n·(v_b + ω_b × r_b − v_a − ω_a × r_a), which is the plane family's Jacobian
//! J = [−n, n × r_a, n, r_b × n] (`Row::set_axis`), effective mass 1/(J M⁻¹ Jᵀ) and clamp
//! λ ∈ [0, ∞): contacts push, never pull.
//!
//! Their bias and softness are the contact rule's (`super::rule`: a gap closes within the
//! substep, an overlap is pushed out by a spring capped at 3 m/s, relax rigid), with the
//! bodies' tuning, doubled against an immovable body.
//!
//! The separation during a step is re-measured from the bodies' motion since the manifold
//! was made (Box2D v3's "relative anchors"): with the levers rotated by each body's rotation
//! since then, s = n·(Δx_b − Δx_a + r_b − r_a) + (s₀ − n·(r_b₀ − r_a₀)), so one collision
//! pass per step serves every substep.
//!
//! ## Patch friction (the seed's `patch_setup` / `patch_solve`)
//! Per manifold (not per point): with t₁, t₂ spanning the contact plane and c_a, c_b the
//! levers to the points' centroid,
//! - tangent rows J_k = [−t_k, t_k × c_a, t_k, c_b × t_k], λ_k ∈ [−μ Λ, μ Λ];
//! - twist row J = [0, −n, 0, n] (ω_b − ω_a about n), λ ∈ [−μ ρ Λ, μ ρ Λ], ρ the patch
//!   radius: the mean lever of a uniform pressure over the patch, (2/3)√(A/π) for a patch
//!   of area A (a disc's), and for a line contact (two points) half the points' mean
//!   distance from the centroid (a uniform line's mean lever is a quarter of its length);
//! - rolling row (only when μ_roll > 0 and the bodies roll): J = [0, −a, 0, a] with a the
//!   direction of the tangential relative spin at the step's start, λ ∈ [−μ_roll Λ, μ_roll Λ]
//!   (μ_roll in m: a rolling resistance lever, as a torque per unit normal force);
//!
//! where Λ = Σλ_n is re-summed from the patch's normal rows before the friction rows are
//! solved, in every sweep. No bias on friction rows (no position target). Patch rather than
//! per-point Coulomb: three rows instead of 2N, no four cones fighting under a resting box,
//! and the twist row gives spinning friction that per-point cones only approximate.
//!
//! ## Warm starting (the seed's feature-id matching)
//! Every point carries the narrow phase's feature id. A new manifold between the same two
//! bodies takes each point's λ_n from the old point with the same id; a point with no id
//! match takes the λ of the old point nearest to it within `MATCH_DISTANCE` (the seed's
//! distance fallback, for ids that change when a contact shifts to a neighbouring feature).
//! The friction rows' λ carry over when the patch existed last step (their directions are
//! re-projected onto the new tangent basis).

use glam::{Quat, Vec3};

use super::rule;
pub use crate::bodies::PairMaterial;
use crate::joints::row::{Phase, Soft, SolverBodies, Spring};

/// Most points per manifold (a box face on a box face).
pub const MANIFOLD_POINTS: usize = 4;
/// Gauss–Seidel passes over the normal rows of a 3D patch of more than one point, per sweep.
///
/// The soft row's update, Δλ = −m·s_m·(Ċ + b) − s_i·λ, has s_m + s_i = 1 (the rigid rows
/// too: 1 and 0), so a second pass over one isolated row changes nothing but rounding: after
/// the first, Ċ' = Ċ + Δλ/m and λ' = λ + Δλ, and the second gives Δλ − (s_m + s_i)·Δλ = 0
/// (the clamp at λ ≥ 0 too: λ + Δλ = s_m·(λ − m·Ċ − m·b), and λ − m·Ċ is the same after the
/// row's own update). Over the coupled rows of one patch (the corners of a box face share
/// the two bodies' turning) each pass is a Gauss–Seidel step on (K + diag(K)/a₂)·λ = rhs,
/// positive definite although a face's four rows have rank 3, so the passes converge to the
/// rows' simultaneous soft solve, whose resting compression is still F/(m_eff ω²) per row:
/// the spring each row models stays the same. A face's four corners couple strongly (a unit
/// cube's corner row: 1/m_eff = 8 kg⁻¹ of which 6 is turning). At 54 Hz with one pass a 3D
/// 10-box tower still sways after 10 s (its boxes up to 6.8 mm/s, 1.5 cm/s at 55 Hz, and at
/// 55 Hz it keeps swaying at 20 s) and the 10 kg / 1 kg tower leans 4.4 mm (boxes at
/// 4.9 cm/s); with two, 1.9 mm/s and dying out (0.3 mm/s at 20 s), and 1.6 mm (under
/// 1 mm/s). The cost: the 10-row 3D `pyramid` preset steps in 321 µs against 271 with one
/// pass (native, `ropelab run www/scenes/pyramid.json --steps 2000`). Planar contacts
/// (two points, `planar::Contact2`) stand at the same springs on one pass, and W6 is all
/// planar, so its cost is unchanged; a planar `Patch` of 3–4 points (`solve_planar`, rare:
/// a box tilted out of the plane) keeps one pass, untested at these springs.
pub const NORMAL_PASSES: usize = 2;

/// An old point this close (m) to a new one without the same feature id lends it its impulse.
pub const MATCH_DISTANCE: f32 = 0.005;

/// One contact point as the narrow phase reports it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PointIn {
    /// World contact point (m): where the impulse acts.
    pub point: Vec3,
    /// Signed distance along the normal (m; negative = overlap).
    pub separation: f32,
    /// Feature id: equal from step to step while the same features touch.
    pub id: u32,
}

/// One row of a patch, stored compactly: its Jacobian's linear parts are −axis on A and
/// +axis on B, with the axis (the normal, a tangent; zero for twist and rolling) and the two
/// bodies' inverse masses kept once per patch, so a row is its angular parts, M⁻¹Jᵀ's
/// angular parts, effective mass, factors and λ (80 bytes, against `joints::row::Row`'s
/// 168: W6's 590 patches were 1 MB, and every substep swept them six times). A row's own
/// update is `Row`'s, term for term in the same order; the normal rows of a patch are swept
/// with their shared linear part taken once (`Patch::solve_rows`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactRow {
    pub ang_a: Vec3,
    pub ang_b: Vec3,
    /// I⁻¹ times the angular parts.
    pub ia: Vec3,
    pub ib: Vec3,
    /// Effective mass 1/K (0 when K = 0: the row cannot act).
    pub mass: f32,
    /// Accumulated impulse λ.
    pub accum: f32,
    pub soft: [Soft; 2],
}

/// All zeros, factors too: a row that cannot act until `Patch::prepare` sets it (which sets
/// every factor it reads), and a patch's eight rows are then a plain memset when the
/// narrow phase makes it.
impl Default for ContactRow {
    fn default() -> Self {
        const NONE: Soft = Soft { bias: 0.0, mass_scale: 0.0, impulse_scale: 0.0 };
        ContactRow {
            ang_a: Vec3::ZERO,
            ang_b: Vec3::ZERO,
            ia: Vec3::ZERO,
            ib: Vec3::ZERO,
            mass: 0.0,
            accum: 0.0,
            soft: [NONE; 2],
        }
    }
}

/// The two solver bodies of a patch and their inverse masses.
#[derive(Clone, Copy, Debug, Default)]
pub struct PairBodies {
    pub a: u32,
    pub b: u32,
    pub wa: f32,
    pub wb: f32,
}

impl ContactRow {
    /// `Row::set_jacobian` for J = [−t, t × s_a, t, r_b × t] (`Row::set_axis`; t = 0 with
    /// angular parts [−axis, axis] is `Row::set_angular`).
    #[inline]
    fn set(&mut self, sb: &SolverBodies, e: &PairBodies, t: Vec3, ang_a: Vec3, ang_b: Vec3) {
        let (ai, bi) = (e.a as usize, e.b as usize);
        self.ang_a = ang_a;
        self.ang_b = ang_b;
        self.ia = sb.inv_i[ai] * ang_a;
        self.ib = sb.inv_i[bi] * ang_b;
        let k = e.wa * (-t).length_squared() + ang_a.dot(self.ia) + e.wb * t.length_squared() + ang_b.dot(self.ib);
        self.mass = if k > 0.0 { 1.0 / k } else { 0.0 };
    }

    #[inline]
    fn set_axis(&mut self, sb: &SolverBodies, e: &PairBodies, t: Vec3, s_a: Vec3, r_b: Vec3) {
        self.set(sb, e, t, t.cross(s_a), r_b.cross(t));
    }

    #[inline]
    fn set_angular(&mut self, sb: &SolverBodies, e: &PairBodies, axis: Vec3) {
        self.set(sb, e, Vec3::ZERO, -axis, axis);
    }

    /// Ċ = J·u (`Row::cdot`).
    #[inline(always)]
    fn cdot(&self, t: Vec3, u: &Vel) -> f32 {
        (-t).dot(u.va) + self.ang_a.dot(u.wa) + t.dot(u.vb) + self.ang_b.dot(u.wb)
    }

    /// u ← u + M⁻¹Jᵀ λ (`Row::apply`).
    #[inline(always)]
    fn apply(&self, t: Vec3, e: &PairBodies, u: &mut Vel, lambda: f32) {
        u.va += (-t) * (e.wa * lambda);
        u.wa += self.ia * lambda;
        u.vb += t * (e.wb * lambda);
        u.wb += self.ib * lambda;
    }

    /// `row::solve` with bounds [`lo`, `hi`] (a bound that is not a number leaves the row:
    /// `clamp` panics on NaN, a trap in wasm).
    #[inline(always)]
    fn solve(&mut self, t: Vec3, e: &PairBodies, u: &mut Vel, phase: Phase, lo: f32, hi: f32) {
        let s = self.soft[phase as usize];
        let cdot = self.cdot(t, u);
        let raw = -self.mass * s.mass_scale * (cdot + s.bias) - s.impulse_scale * self.accum;
        let new = if lo <= hi { (self.accum + raw).clamp(lo, hi) } else { self.accum };
        let d = new - self.accum;
        self.accum = new;
        self.apply(t, e, u, d);
    }
}

/// The two bodies' velocities, held in registers while a patch is solved (loaded once,
/// stored once: a patch's rows all act on the same two bodies, never one body twice).
#[derive(Clone, Copy)]
struct Vel {
    va: Vec3,
    wa: Vec3,
    vb: Vec3,
    wb: Vec3,
}

impl Vel {
    #[inline(always)]
    fn load(sb: &SolverBodies, e: &PairBodies) -> Vel {
        let (a, b) = (e.a as usize, e.b as usize);
        Vel { va: sb.v[a], wa: sb.w[a], vb: sb.v[b], wb: sb.w[b] }
    }

    #[inline(always)]
    fn store(self, sb: &mut SolverBodies, e: &PairBodies) {
        let (a, b) = (e.a as usize, e.b as usize);
        sb.v[a] = self.va;
        sb.w[a] = self.wa;
        sb.v[b] = self.vb;
        sb.w[b] = self.wb;
    }
}

/// Last step's manifold of a pair, as the new one's warm start reads it (a [`Patch`] or a
/// 2D `planar::PlanarPatch`): its points' feature ids, world positions (A's centre plus the lever,
/// when made) and normal impulses; its friction impulses, their tangents and normal.
pub trait WarmSource {
    fn points(&self) -> usize;
    fn id(&self, j: usize) -> u32;
    fn at(&self, j: usize) -> Vec3;
    fn accum(&self, j: usize) -> f32;
    /// Tangents; friction impulses (tangent 1, tangent 2, twist); normal.
    fn friction(&self) -> ([Vec3; 2], [f32; 3], Vec3);

    /// The normal λ a new point (feature `id`, at `at`) takes: the old point's with the same
    /// id, else the nearest old point's within [`MATCH_DISTANCE`] (the seed's distance
    /// fallback), else none.
    #[inline]
    fn normal_for(&self, id: u32, at: Vec3) -> Option<f32> {
        let by_id = (0..self.points()).find(|&j| self.id(j) == id);
        let j = by_id.or_else(|| {
            (0..self.points())
                .map(|j| (j, super::length(self.at(j) - at)))
                .filter(|&(_, d)| d < MATCH_DISTANCE)
                .min_by(|x, y| x.1.total_cmp(&y.1))
                .map(|(j, _)| j)
        });
        j.map(|j| self.accum(j))
    }

    /// The friction λ (tangent 1, tangent 2, twist) on new `tangents` and `normal`: the old
    /// friction impulse as a vector, re-projected; the twist scaled by the normals' cosine.
    #[inline]
    fn friction_for(&self, tangents: [Vec3; 2], normal: Vec3) -> [f32; 3] {
        let (t, l, n) = self.friction();
        let f = t[0] * l[0] + t[1] * l[1];
        [f.dot(tangents[0]), f.dot(tangents[1]), l[2] * n.dot(normal)]
    }
}

impl WarmSource for Patch {
    #[inline]
    fn points(&self) -> usize {
        self.count
    }
    #[inline]
    fn id(&self, j: usize) -> u32 {
        self.ids[j]
    }
    #[inline]
    fn at(&self, j: usize) -> Vec3 {
        self.x_a + self.r_a[j]
    }
    #[inline]
    fn accum(&self, j: usize) -> f32 {
        self.rows[j].accum
    }
    #[inline]
    fn friction(&self) -> ([Vec3; 2], [f32; 3], Vec3) {
        let f = &self.friction;
        (self.tangents, [f[0].accum, f[1].accum, f[2].accum], self.normal)
    }
}

/// One manifold's rows and the state they carry from step to step.
#[derive(Clone, Copy, Debug, Default)]
pub struct Patch {
    /// The pair (body ids: A's in the high half, B's in the low; the ground is `u32::MAX`).
    pub key: u64,
    /// Solver bodies.
    pub a: u32,
    pub b: u32,
    /// Unit normal from A to B.
    pub normal: Vec3,
    pub count: usize,
    pub ids: [u32; MANIFOLD_POINTS],
    /// Levers (world, at the time the manifold was made) from A's and B's centres.
    pub r_a: [Vec3; MANIFOLD_POINTS],
    pub r_b: [Vec3; MANIFOLD_POINTS],
    /// s₀ − n·(r_b₀ − r_a₀): the separation at Δx = 0 without the lever term.
    pub base: [f32; MANIFOLD_POINTS],
    /// Poses when the manifold was made (for Δx and the levers' rotation).
    pub x_a: Vec3,
    pub x_b: Vec3,
    pub q_a: Quat,
    pub q_b: Quat,
    /// Solver bodies and inverse masses of the rows (set with the Jacobians).
    pub ends: PairBodies,
    /// Normal rows.
    pub rows: [ContactRow; MANIFOLD_POINTS],
    /// Tangent 1, tangent 2, twist, rolling.
    pub friction: [ContactRow; 4],
    pub tangents: [Vec3; 2],
    pub rolling_axis: Vec3,
    pub has_rolling: bool,
    /// Levers to the centroid (world, when made).
    pub c_a: Vec3,
    pub c_b: Vec3,
    pub radius: f32,
    pub mix: Option<PairMaterial>,
    /// A 2D contact (between planar bodies): one tangent row in the plane, no twist.
    pub planar: bool,
    /// The Jacobians are built (the step's first substep did it).
    pub prepared: bool,
}

impl Patch {
    /// A manifold between solver bodies `a` and `b` (poses now), keyed by `key`, written into
    /// a default (all-zero) patch where it lies: the contacts make their patches in their
    /// list (a ~1 KB patch made and then moved in was a memcpy per pair, 2 % of W6's step).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn fill(
        &mut self,
        key: u64,
        a: u32,
        b: u32,
        pose_a: (Vec3, Quat),
        pose_b: (Vec3, Quat),
        normal: Vec3,
        points: &[PointIn],
        mix: PairMaterial,
    ) {
        let count = points.len().min(MANIFOLD_POINTS);
        let p = self;
        (p.key, p.a, p.b, p.normal, p.count) = (key, a, b, normal, count);
        (p.x_a, p.q_a, p.x_b, p.q_b) = (pose_a.0, pose_a.1, pose_b.0, pose_b.1);
        p.mix = Some(mix);
        let mut centroid = Vec3::ZERO;
        for (k, pt) in points.iter().take(count).enumerate() {
            let (ra, rb) = (pt.point - pose_a.0, pt.point - pose_b.0);
            p.ids[k] = pt.id;
            p.r_a[k] = ra;
            p.r_b[k] = rb;
            p.base[k] = pt.separation - normal.dot(rb - ra);
            centroid += pt.point;
        }
        if count > 0 {
            centroid /= count as f32;
        }
        p.c_a = centroid - pose_a.0;
        p.c_b = centroid - pose_b.0;
        p.radius = patch_radius(&points[..count], centroid, normal);
        let (t1, t2) = normal.any_orthonormal_pair();
        p.tangents = [t1, t2];
    }

    /// Makes this the 2D contact of planar bodies (normal in the z = 0 plane): the friction
    /// is the one in-plane tangent, t₁ = ẑ × n; there is no twist or rolling about an
    /// in-plane axis (either would tip the bodies out of their plane, for the planar lock
    /// to undo). (Only a planar manifold of three or four points is a `Patch`; the common
    /// one or two are `planar::PlanarPatch`s. These rare ones keep one spring of the contact's
    /// frequency per point, and solve their points in one order, where the `PlanarPatch`s' springs
    /// are the 3D points' they stand for, `planar::point_spring`, and their two points
    /// alternate with the sweep.)
    pub fn make_planar(&mut self) {
        self.planar = true;
        self.tangents = [Vec3::Z.cross(self.normal).normalize_or_zero(), Vec3::Z];
        self.radius = 0.0;
    }

    /// Takes last step's impulses from `old` (the same pair): normal λ by feature id, else
    /// from the nearest old point within [`MATCH_DISTANCE`]; friction λ re-projected.
    #[inline]
    pub fn warm_from<W: WarmSource>(&mut self, old: &W) {
        for k in 0..self.count {
            if let Some(l) = old.normal_for(self.ids[k], self.x_a + self.r_a[k]) {
                self.rows[k].accum = l;
            }
        }
        let f = old.friction_for(self.tangents, self.normal);
        for (row, f) in self.friction.iter_mut().zip(f) {
            row.accum = f;
        }
    }

    /// Separation of point `k` for the poses now.
    #[inline]
    pub fn separation(&self, k: usize, pose_a: (Vec3, Quat), pose_b: (Vec3, Quat)) -> f32 {
        self.separation_in(k, &self.motion(pose_a, pose_b))
    }

    /// The bodies' motion since the manifold was made: Δx_b − Δx_a and each rotation since.
    #[inline(always)]
    fn motion(&self, pose_a: (Vec3, Quat), pose_b: (Vec3, Quat)) -> (Vec3, Quat, Quat) {
        let dx = (pose_b.0 - self.x_b) - (pose_a.0 - self.x_a);
        (dx, pose_a.1 * self.q_a.inverse(), pose_b.1 * self.q_b.inverse())
    }

    #[inline(always)]
    fn separation_in(&self, k: usize, m: &(Vec3, Quat, Quat)) -> f32 {
        let ra = m.1 * self.r_a[k];
        let rb = m.2 * self.r_b[k];
        let d = m.0 + rb - ra;
        self.normal.dot(d) + self.base[k]
    }

    /// Builds the rows for a substep of length `h`: the Jacobians and effective masses on
    /// the step's first call, the normal rows' softness from the poses now on every call;
    /// keeps every λ. The Jacobians keep the levers of the manifold (world frame, as
    /// Box2D v3's fixed anchors): the contact point stays where the bodies touch, not on the
    /// material point that was there (a rolling ball's would turn up its side within the
    /// step, and friction held the wrong point: the ball slipped 8 cm/s). Only the separation
    /// follows the material points (`separation`).
    /// `springs` are `rule::Tuning::springs` for the substep.
    pub fn prepare(
        &mut self,
        sb: &SolverBodies,
        pose_a: (Vec3, Quat),
        pose_b: (Vec3, Quat),
        h: f32,
        springs: &[Spring; 2],
    ) {
        self.prepare_rows(sb);
        // Every substep: the separation now sets each normal row's bias and softness
        // (stiffer against an immovable body: `rule::Tuning::hertz_at`).
        let immovable = sb.inv_m[self.a as usize] == 0.0 || sb.inv_m[self.b as usize] == 0.0;
        let spring = springs[immovable as usize];
        let m = self.motion(pose_a, pose_b);
        for k in 0..self.count {
            let s = self.separation_in(k, &m);
            let row = &mut self.rows[k];
            row.soft = rule::normal_soft(s, h, spring);
        }
    }

    /// The Jacobians and effective masses, once per step ([`Patch::prepare`] without the
    /// factors).
    pub fn prepare_rows(&mut self, sb: &SolverBodies) {
        if !self.prepared {
            // Once per step (Box2D v3's `b2PrepareContactsTask`): the Jacobians and effective
            // masses from the manifold's levers and the inertia at the step's start.
            self.prepared = true;
            let (a, b) = (self.a, self.b);
            let e = PairBodies { a, b, wa: sb.inv_m[a as usize], wb: sb.inv_m[b as usize] };
            self.ends = e;
            if self.planar {
                self.prepare_planar(sb);
            } else {
                self.prepare_3d(sb);
            }
        }
    }

    /// The 3D patch's Jacobians (once per step).
    fn prepare_3d(&mut self, sb: &SolverBodies) {
        {
            let (e, n) = (self.ends, self.normal);
            for k in 0..self.count {
                self.rows[k].set_axis(sb, &e, n, self.r_a[k], self.r_b[k]);
            }
            let (ca, cb) = (self.c_a, self.c_b);
            let [t1, t2] = self.tangents;
            let [f0, f1, f2, f3] = &mut self.friction;
            f0.set_axis(sb, &e, t1, ca, cb);
            f1.set_axis(sb, &e, t2, ca, cb);
            f2.set_angular(sb, &e, n);
            // Rolling: about the tangential relative spin at the step's start.
            let mix = self.mix.unwrap_or(PairMaterial { friction: 0.0, restitution: 0.0, rolling: 0.0 });
            if mix.rolling > 0.0 {
                let (a, b) = (self.a as usize, self.b as usize);
                let w = sb.w[b] - sb.w[a];
                let wt = w - n * w.dot(n);
                if wt.length_squared() > 1e-8 {
                    self.rolling_axis = wt.normalize();
                    self.has_rolling = true;
                    f3.set_angular(sb, &e, self.rolling_axis);
                }
            }
            for f in self.friction.iter_mut() {
                f.soft = [Soft::RIGID; 2];
            }
        }
    }

    /// The 2D patch's rows (once per step): normal and tangent in the plane (n.z = t.z = 0),
    /// so a row's angular parts are along ẑ only, J = [−t, (t × r_a)_z ẑ, t, (r_b × t)_z ẑ],
    /// and M⁻¹Jᵀ's angular parts (I⁻¹)_zz times them; the levers' out-of-plane parts (the
    /// rounding that leaves a centre at z ≈ 1e-13 m) and I⁻¹'s products with ẑ, which could
    /// only tilt the body out of the plane for its 2D lock to undo, are left out. The sweep
    /// then acts on v_x, v_y, ω_z alone ([`Patch::solve`]). No twist or rolling row: both
    /// would turn the bodies about an in-plane axis.
    fn prepare_planar(&mut self, sb: &SolverBodies) {
        let (e, n) = (self.ends, self.normal);
        let (iza, izb) = (sb.inv_i[e.a as usize].z_axis.z, sb.inv_i[e.b as usize].z_axis.z);
        let row = |t: Vec3, ra: Vec3, rb: Vec3| {
            let r = super::lanes::Row2::new(t, ra, rb, e.wa, e.wb, iza, izb);
            ContactRow {
                ang_a: Vec3::new(0.0, 0.0, r.ja),
                ang_b: Vec3::new(0.0, 0.0, r.jb),
                ia: Vec3::new(0.0, 0.0, iza * r.ja),
                ib: Vec3::new(0.0, 0.0, izb * r.jb),
                mass: r.mass,
                accum: 0.0,
                soft: [Soft::RIGID; 2],
            }
        };
        for k in 0..self.count {
            let accum = self.rows[k].accum;
            self.rows[k] = ContactRow { accum, ..row(n, self.r_a[k], self.r_b[k]) };
        }
        let accum = self.friction[0].accum;
        self.friction[0] = ContactRow { accum, ..row(self.tangents[0], self.c_a, self.c_b) };
        for f in self.friction[1..].iter_mut() {
            *f = ContactRow::default();
        }
        self.has_rolling = false;
    }

    /// Re-measures the separations for the relax pass (the bodies have moved): a point that
    /// is still apart keeps its speculative bias, one that overlaps is solved rigidly.
    pub fn refresh_relax(&mut self, pose_a: (Vec3, Quat), pose_b: (Vec3, Quat), h: f32) {
        let m = self.motion(pose_a, pose_b);
        for k in 0..self.count {
            let s = self.separation_in(k, &m);
            self.rows[k].soft[Phase::Relax as usize] = Soft::target(rule::relax_bias(s, h));
        }
    }

    /// Re-applies every λ (warm start) or zeroes them.
    pub fn warm_start(&mut self, sb: &mut SolverBodies, warm: bool) {
        let rolling = self.has_rolling;
        let (e, n) = (self.ends, self.normal);
        let [t1, t2] = self.tangents;
        let axes = [n, n, n, n, t1, t2, Vec3::ZERO, Vec3::ZERO];
        let mut u = Vel::load(sb, &e);
        let rows = self.rows[..self.count].iter_mut().zip(&axes[..self.count]);
        let friction = self.friction.iter_mut().zip(&axes[MANIFOLD_POINTS..]);
        for (i, (r, &t)) in rows.chain(friction).enumerate() {
            if warm && (i != self.count + 3 || rolling) {
                if r.accum != 0.0 {
                    r.apply(t, &e, &mut u, r.accum);
                }
            } else {
                r.accum = 0.0;
            }
        }
        u.store(sb, &e);
    }

    /// The seed's `patch_solve`: the normal rows, then the friction bounds from their Σλ,
    /// then the friction rows.
    pub fn solve(&mut self, sb: &mut SolverBodies, phase: Phase) {
        if self.planar {
            return self.solve_planar(sb, phase);
        }
        let e = self.ends;
        let mut u = Vel::load(sb, &e);
        self.solve_rows(&mut u, phase);
        u.store(sb, &e);
    }

    /// [`Patch::solve`] for a 2D patch (rows from [`Patch::prepare_planar`]): the same
    /// updates on v_x, v_y, ω_z, the only velocities its rows act on.
    #[inline(always)]
    fn solve_planar(&mut self, sb: &mut SolverBodies, phase: Phase) {
        let e = self.ends;
        let mut u = super::lanes::Vel2::load(sb, e.a, e.b);
        let n = super::lanes::V2::new(self.normal.x, self.normal.y);
        let mut total = 0.0;
        for k in 0..self.count {
            let r = &mut self.rows[k];
            let s = r.soft[phase as usize];
            let cdot = u.cdot(n, r.ang_a.z, r.ang_b.z);
            let raw = -r.mass * s.mass_scale * (cdot + s.bias) - s.impulse_scale * r.accum;
            // (`clamp` on a NaN λ gives NaN, no panic; the bounds are constants.)
            let new = (r.accum + raw).clamp(0.0, f32::INFINITY);
            u.apply(n, e.wa, e.wb, r.ia.z, r.ib.z, new - r.accum);
            r.accum = new;
            total += new;
        }
        // Tangent row, bounded by μΛ (`clamp` panics on a NaN bound, a trap in wasm).
        let cap = self.mix.map_or(0.0, |m| m.friction) * total;
        let t = super::lanes::V2::new(self.tangents[0].x, self.tangents[0].y);
        let f = &mut self.friction[0];
        let mut new = f.accum - f.mass * u.cdot(t, f.ang_a.z, f.ang_b.z);
        if cap >= 0.0 {
            new = new.clamp(-cap, cap);
        }
        u.apply(t, e.wa, e.wb, f.ia.z, f.ib.z, new - f.accum);
        f.accum = new;
        u.store(sb, e.a, e.b);
    }

    #[inline(always)]
    fn solve_rows(&mut self, u: &mut Vel, phase: Phase) {
        let (e, n) = (self.ends, self.normal);
        let [t1, t2] = self.tangents;
        // A patch of several points sweeps its normal rows twice (`NORMAL_PASSES`).
        let passes = if self.count > 1 { NORMAL_PASSES } else { 1 };
        // The rows share their linear parts, ∓n: the bodies' relative speed along n, v_n,
        // stands for both linear velocities while the rows run (each impulse d moves it by
        // (w_a + w_b)·|n|²·d), and the linear velocities take the rows' summed impulse after.
        let mut vn = n.dot(u.vb - u.va);
        let lift = (e.wa + e.wb) * n.dot(n);
        let mut sum = 0.0;
        for _ in 0..passes {
            for k in 0..self.count {
                let r = &mut self.rows[k];
                let s = r.soft[phase as usize];
                let cdot = vn + r.ang_a.dot(u.wa) + r.ang_b.dot(u.wb);
                let raw = -r.mass * s.mass_scale * (cdot + s.bias) - s.impulse_scale * r.accum;
                // (`clamp`, not `max`: `max` may return either zero for ±0.)
                let new = (r.accum + raw).clamp(0.0, f32::INFINITY);
                let d = new - r.accum;
                r.accum = new;
                vn += lift * d;
                u.wa += r.ia * d;
                u.wb += r.ib * d;
                sum += d;
            }
        }
        u.va += (-n) * (e.wa * sum);
        u.vb += n * (e.wb * sum);
        let total = self.rows[..self.count].iter().fold(0.0, |t, r| t + r.accum);
        let mix = self.mix.unwrap_or(PairMaterial { friction: 0.0, restitution: 0.0, rolling: 0.0 });
        // Tangent rows: the friction force is one vector in the contact plane, so its bound
        // is a disc |λ_t| ≤ μΛ, not a box on each row (a box lets a slide that runs
        // diagonally to t₁, t₂ take up to √2 μΛ: a box on a 30° slope slid a quarter short).
        let cap = mix.friction * total;
        let [f0, f1, f2, f3] = &mut self.friction;
        // (A 2D patch never comes here: `solve_planar`.)
        debug_assert!(!self.planar);
        let d0 = -f0.mass * f0.cdot(t1, u);
        f0.accum += d0;
        f0.apply(t1, &e, u, d0);
        let d1 = -f1.mass * f1.cdot(t2, u);
        f1.accum += d1;
        f1.apply(t2, &e, u, d1);
        let len = (f0.accum * f0.accum + f1.accum * f1.accum).sqrt();
        if len > cap {
            let k = if len > 0.0 { cap / len } else { 0.0 };
            let (c0, c1) = (f0.accum * k, f1.accum * k);
            f0.apply(t1, &e, u, c0 - f0.accum);
            f1.apply(t2, &e, u, c1 - f1.accum);
            f0.accum = c0;
            f1.accum = c1;
        }
        // Twist and rolling: one row each, a symmetric bound.
        let twist = mix.friction * self.radius * total;
        f2.solve(Vec3::ZERO, &e, u, phase, -twist, twist);
        if self.has_rolling {
            let roll = mix.rolling * total;
            f3.solve(Vec3::ZERO, &e, u, phase, -roll, roll);
        }
    }

    /// Total normal impulse (N·s) over the patch's points.
    pub fn normal_impulse(&self) -> f32 {
        self.rows[..self.count].iter().map(|r| r.accum).sum()
    }
}

/// The patch's twist lever (see the module docs).
fn patch_radius(points: &[PointIn], centroid: Vec3, n: Vec3) -> f32 {
    match points.len() {
        0 | 1 => 0.0,
        2 => 0.5 * 0.5 * points[0].point.distance(points[1].point),
        _ => {
            // Area of the polygon through the points in order around the centroid.
            let (t1, t2) = n.any_orthonormal_pair();
            let mut ang: [(f32, Vec3); MANIFOLD_POINTS] = [(0.0, Vec3::ZERO); MANIFOLD_POINTS];
            for (k, p) in points.iter().enumerate() {
                let d = p.point - centroid;
                ang[k] = (libm::atan2f(d.dot(t2), d.dot(t1)), d);
            }
            let m = points.len();
            crate::sort::insertion_sort_by(&mut ang[..m], |x, y| x.0.total_cmp(&y.0).is_lt());
            let mut area = 0.0;
            for k in 0..m {
                let (p, q) = (ang[k].1, ang[(k + 1) % m].1);
                area += 0.5 * p.cross(q).dot(n);
            }
            (2.0 / 3.0) * (area.abs() / std::f32::consts::PI).sqrt()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_square_patch_has_about_its_mean_lever() {
        // A 1 m square: the exact mean distance from the centre of a uniform square is
        // 0.3826 m; the disc of the same area gives (2/3)·√(1/π) = 0.3761 m (1.7 % less).
        let pts: Vec<PointIn> = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]
            .iter()
            .enumerate()
            .map(|(k, &(x, z))| PointIn { point: Vec3::new(x, 0.0, z), separation: 0.0, id: k as u32 })
            .collect();
        let r = patch_radius(&pts, Vec3::ZERO, Vec3::Y);
        assert!((r - 0.3761).abs() < 1e-3, "{r}");
        let line = [pts[0], pts[1]];
        assert!((patch_radius(&line, Vec3::new(0.0, 0.0, -0.5), Vec3::Y) - 0.25).abs() < 1e-6);
    }
}
