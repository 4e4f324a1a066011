//! The 2D patches of at most two points, as the step keeps them ([`PlanarPatch`]) and as the
//! solver sweeps them ([`Contact2`], four side by side in a [`Contact2x4`]).
//!
//! A 2D patch (between planar bodies, `Patch::make_planar`) has its normal and tangent in
//! the z = 0 plane and usually at most two points (a face on a face: one point per in-plane
//! end; a 3D manifold against a box tilted out of the plane can leave 3–4, and those patches
//! stay `Patch`es with their own 2D rows, `Patch::prepare_planar` / `solve_planar`, the 3D
//! patch's maths on one pass over the normal rows), so its rows act on v_x, v_y and ω_z
//! alone: a row is its two angular parts along ẑ, its effective mass and λ — four floats, where the 3D `Patch` keeps
//! 1 KB of levers, quaternions, four normal rows and four friction rows. The contacts stage
//! makes such a patch as a [`PlanarPatch`] (344 bytes: the manifold, the impulses it carries,
//! and for two boxes what their manifold was made from, `box_box_2d::RectCache`, and the
//! manifold as found, [`Kept`]); once per
//! step the solver builds their rows into the packs of its graph colours
//! ([`Contact2x4::from_flats`]; those no colour took into a [`Contact2`] each), sweeps those,
//! and leaves the impulses in a dense list beside the flat patches (`Contacts::flat_warm`),
//! which each patch takes as the next step reads it to warm start.
//!
//! The rows and their updates are the patch's (penetration rows with Box2D v3's soft step,
//! the seed's patch friction): same maths on fewer bytes, but for three things.
//! A point's spring is the sum of those of the 3D manifold's points it stands for
//! ([`point_spring`]: a planar box rests as deep as in 3D), a backward sweep takes the
//! two points in reverse ([`Contact2::solve`]), and the two normal rows are swept once where
//! a 3D patch sweeps its several twice (`patch::NORMAL_PASSES`: two points stand on one).
//! The separation during the step is the patch's too, s = n·(Δx_b − Δx_a + R_b r_b − R_a r_a) + base, with each
//! body's in-plane motion since the manifold was made (Δx, and the in-plane block of its
//! rotation since) computed once per body per substep instead of once per patch.

use glam::{BVec4A, Vec2, Vec3, Vec4};

use super::lanes::{at_least, at_most, transpose};
pub use super::lanes::{Lane, Motion, Motion2, Row2, Vel, Vel2, V2};
use super::patch::{PairMaterial, PointIn, WarmSource};
use super::rule::{self, Soft2, Spring2, Tuning};
use crate::joints::row::{Phase, SolverBodies};

/// A 2D patch's hot copy: one contact (`L = f32`) or four contacts side by side
/// (`L = Vec4`, [`Contact2x4`]), the same fields lane by lane.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub struct Contact2<L: Lane = f32> {
    // What the sweep reads first, in one run of cache lines (496 of a pack's 672 bytes), then
    // the levers and bases that measuring the separations reads, and the step's impulse sum.
    // (What the step's end alone reads, the patches' indices and point counts, lies apart:
    // `Contacts::wide_patch`, `wide_points`.)
    /// Solver bodies, inverse masses and (I⁻¹)_zz.
    pub a: L::Ix,
    pub b: L::Ix,
    pub wa: L,
    pub wb: L,
    pub iza: L,
    pub izb: L,
    pub n: V2<L>,
    pub t: V2<L>,
    pub mu: L,
    /// Points (at most 2; a missing point's row has zero mass and acts as a no-op on finite
    /// velocities: an infinite one becomes NaN through its 0 · ∞, which the step's guards
    /// catch as they would the infinity — not masked, to keep the sweep's lanes branch-free).
    pub rows: [Row2<L>; 2],
    /// Each point's separation: at the substep's start (`prepare`) in the biased sweeps, on
    /// the moved bodies (`refresh_relax`) in relax, which the next substep's `prepare` takes
    /// when the bodies have not moved since (see `Contacts::prepare`). The sweep makes each
    /// row's factors from it and the spring ([`rule::normal_factors`]' rule, as Box2D v3's
    /// solve does from its separation), so that the substep's preparation reads and writes
    /// no factors, only the separation and what the warm start moves.
    pub sep: [L; 2],
    pub friction: Row2<L>,
    /// Per point: its spring ([`point_spring`]).
    pub spring: [Spring2<L>; 2],
    /// Levers (in the plane, at the manifold's time) and s₀ − n·(r_b − r_a) per point.
    pub ra: [V2<L>; 2],
    pub rb: [V2<L>; 2],
    pub base: [L; 2],
    /// The step's normal impulse so far: each substep's, as the next one's `prepare` finds
    /// it (`Contacts::finish_step` adds the last).
    pub step_sum: L,
}

/// Four 2D contacts solved side by side (no two of them move the same body: see
/// `Contacts::colour`).
pub type Contact2x4 = Contact2<Vec4>;

/// The step's contact spring frequencies for substeps of `h`, `[between movable bodies,
/// against an immovable one]` (`rule::Tuning::hertz_at`), from which [`point_spring`] makes
/// each 2D point's.
#[derive(Clone, Copy, Debug)]
pub struct StepSprings {
    pub hz: [f32; 2],
    pub damping_ratio: f32,
    pub h: f32,
}

impl StepSprings {
    pub fn new(t: Tuning, h: f32) -> StepSprings {
        StepSprings { hz: t.hertz_at(h), damping_ratio: t.damping_ratio, h }
    }

    /// The frequency between bodies of inverse masses `wa`, `wb` (against an immovable one
    /// if either is 0).
    #[inline]
    fn hz_between(&self, wa: f32, wb: f32) -> f32 {
        self.hz[(wa == 0.0 || wb == 0.0) as usize]
    }
}

/// A 2D patch of at most two points as the step keeps it (the common 2D contact: a face on
/// a face, a corner on a face): the manifold ([`PlanarPatch::make`], the arithmetic of
/// `Patch::fill` and `Patch::make_planar`), the impulses it carries to the next step, and
/// nothing the sweep does not read — 344 bytes (68 of them the box pair's cache, as many its kept manifold, 16 what each point stands for in 3D) where a
/// [`patch::Patch`] is 1 KB (making,
/// warm starting and copying W6's 590 patches every step was a fifth of it). Its hot copy
/// ([`Contact2::from_flat`]) is what the substeps sweep.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub struct PlanarPatch {
    // In the order the packs read it (`Contact2x4::from_flats`): what they gather lies in the
    // first `PlanarPatch::HOT` bytes, three cache lines or four, with the key, and the rest,
    // which the next step's pair reads once, after.
    /// The pair (body ids: A's in the high half, B's in the low).
    pub key: u64,
    pub count: usize,
    /// Solver bodies.
    pub a: u32,
    pub b: u32,
    /// Unit normal from A to B and the tangent ẑ × n (both in the plane).
    pub normal: Vec3,
    pub tangent: Vec3,
    /// Levers (world, when made) from A's and B's centres.
    pub r_a: [Vec3; 2],
    pub r_b: [Vec3; 2],
    /// s₀ − n·(r_b₀ − r_a₀).
    pub base: [f32; 2],
    /// Normal impulses.
    pub accum: [f32; 2],
    /// Per point: how many points of the 3D manifold it stands for (merged where they
    /// coincide in the plane: a box's edge along ẑ is two corners), and the mean of their
    /// z² (m²). Its spring is theirs together ([`point_spring`]).
    pub stands_for: [f32; 2],
    pub depth2: [f32; 2],
    /// Levers to the points' centroid.
    pub c_a: Vec3,
    pub c_b: Vec3,
    pub mu: f32,
    /// Friction impulses (in-plane tangent, ẑ, twist: the last two only carried, never
    /// solved here).
    pub friction: [f32; 3],
    pub e: f32,
    pub ids: [u32; 2],
    /// A's centre plus A's lever.
    pub at: [Vec3; 2],
    /// What a 2D box–box manifold was made from, for the next step (`box_box_2d::RectCache`;
    /// empty for the other shapes).
    pub rect: crate::collide::narrow::box_box_2d::RectCache,
    /// A 2D box pair's manifold as it was found, in the boxes' frames ([`Kept`]): the next
    /// steps keep it while the pair stays within its cache's limits (`rect`).
    pub kept: Option<Kept>,
}

/// A 2D box pair's manifold as found, in the two boxes' own frames (their rectangles' axes,
/// `box_box_2d::Rect::axes`): each point's place on A and on B (the same world point
/// then), the normal in A's frame and each point's separation then, with what each point
/// stands for in 3D. While the boxes stay within 5 mm and 5 mrad of the pose it was found
/// at relative to each other (`box_box_2d::RectCache::holds`) the pair's patch is made
/// from it ([`PlanarPatch::keep`], Box2D v3's contact recycling): the points move with
/// their boxes, the normal turns with A, and each separation is the one then plus how far
/// the point on B has moved from the point on A along the normal, s = s₀ + n·(p_b − p_a) —
/// the substeps' own measure of separation, carried from step to step. A corner on a face
/// then stays exact to the product of the turn and the separation (5 mrad · mm); the
/// impulses carry over as they are, the friction's along a tangent that turns with A.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Kept {
    pub on_a: [Vec2; 2],
    pub on_b: [Vec2; 2],
    pub normal: Vec2,
    pub separation: [f32; 2],
    pub stands_for: [f32; 2],
    pub depth2: [f32; 2],
}

impl Kept {
    /// Patch `f`, just made with points at separations `s` between boxes whose in-plane
    /// axes are `ax` (A) and `bx` (B), in their frames.
    #[inline(always)]
    pub fn of(f: &PlanarPatch, s: [f32; 2], ax: [Vec2; 2], bx: [Vec2; 2]) -> Kept {
        let local = |x: [Vec2; 2], v: Vec3| Vec2::new(x[0].dot(v.truncate()), x[1].dot(v.truncate()));
        Kept {
            on_a: [local(ax, f.r_a[0]), local(ax, f.r_a[1])],
            on_b: [local(bx, f.r_b[0]), local(bx, f.r_b[1])],
            normal: local(ax, f.normal),
            separation: s,
            stands_for: f.stands_for,
            depth2: f.depth2,
        }
    }

    /// Every value finite (a loaded export's).
    pub fn is_finite(&self) -> bool {
        let v = [self.on_a, self.on_b].iter().flatten().all(|v| v.is_finite());
        let f = [self.separation, self.stands_for, self.depth2].iter().flatten().all(|x| x.is_finite());
        v && f && self.normal.is_finite()
    }
}

// (The packs' part in three cache lines or four; the list's stride as the docs give it, on
// 64-bit targets (`count` is a usize); the sweep's part of a pack as `Contact2` gives it.)
const _: () = assert!(PlanarPatch::HOT <= 168);
#[cfg(target_pointer_width = "64")]
const _: () = assert!(size_of::<PlanarPatch>() == 344);
const _: () = assert!(core::mem::offset_of!(Contact2x4, ra) == 496 && size_of::<Contact2x4>() == 672);

// The hot part's runs of four f32 fields in a row (`PlanarPatch::run`).
const _: () = {
    use core::mem::offset_of;
    assert!(offset_of!(PlanarPatch, tangent) == offset_of!(PlanarPatch, normal) + 12);
    assert!(offset_of!(PlanarPatch, r_a) == offset_of!(PlanarPatch, tangent) + 12);
    assert!(offset_of!(PlanarPatch, r_b) == offset_of!(PlanarPatch, r_a) + 24);
    assert!(offset_of!(PlanarPatch, accum) == offset_of!(PlanarPatch, base) + 8);
    assert!(offset_of!(PlanarPatch, depth2) == offset_of!(PlanarPatch, stands_for) + 8);
    assert!(offset_of!(PlanarPatch, c_b) == offset_of!(PlanarPatch, c_a) + 12);
    assert!(offset_of!(PlanarPatch, mu) == offset_of!(PlanarPatch, c_b) + 12);
    assert!(offset_of!(PlanarPatch, friction) == offset_of!(PlanarPatch, mu) + 4);
    assert!(PlanarPatch::RUN_CB + 16 <= PlanarPatch::HOT);
};

impl PlanarPatch {
    /// The bytes the packs read (`from_flats`): the fields before `e`.
    pub const HOT: usize = core::mem::offset_of!(PlanarPatch, e);
    /// Byte offsets of the runs of four floats `from_flats` reads whole: n.x n.y n.z t.x;
    /// t.y t.z r_a₀.x r_a₀.y; r_a₁.x r_a₁.y r_a₁.z r_b₀.x; r_b₀.y r_b₀.z r_b₁.x r_b₁.y;
    /// base₀ base₁ λ₀ λ₁; stands_for₀ stands_for₁ depth2₀ depth2₁; c_a.x c_a.y c_a.z c_b.x;
    /// c_b.y c_b.z μ λ_t.
    const RUN_N: usize = core::mem::offset_of!(PlanarPatch, normal);
    const RUN_T: usize = core::mem::offset_of!(PlanarPatch, tangent) + 4;
    const RUN_RA: usize = core::mem::offset_of!(PlanarPatch, r_a) + 12;
    const RUN_RB: usize = core::mem::offset_of!(PlanarPatch, r_b) + 4;
    const RUN_BASE: usize = core::mem::offset_of!(PlanarPatch, base);
    const RUN_STAND: usize = core::mem::offset_of!(PlanarPatch, stands_for);
    const RUN_CA: usize = core::mem::offset_of!(PlanarPatch, c_a);
    const RUN_CB: usize = core::mem::offset_of!(PlanarPatch, c_b) + 4;

    /// The four floats at byte `OFF`, one of the `RUN_*` offsets.
    #[inline(always)]
    fn run<const OFF: usize>(&self) -> Vec4 {
        const { assert!(OFF % 4 == 0 && OFF + 16 <= PlanarPatch::HOT) };
        // SAFETY: each `RUN_*` offset starts four f32 fields in a row inside the patch (the
        // assertions above; `OFF` inside the patch is checked at compile time); read
        // unaligned, as the patch's alignment is less than 16.
        Vec4::from_array(unsafe {
            (self as *const PlanarPatch).cast::<u8>().add(OFF).cast::<[f32; 4]>().read_unaligned()
        })
    }

    /// The manifold between solver bodies `a`, `b` (centres `x_a`, `x_b` now; normal in the
    /// plane) of `count` (at most two) points, `point(k)`: given by a function, so that the
    /// caller's points need not be staged in memory.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn make(
        key: u64,
        a: u32,
        b: u32,
        x_a: Vec3,
        x_b: Vec3,
        normal: Vec3,
        count: usize,
        point: impl Fn(usize) -> PointIn,
        mix: PairMaterial,
        f: &mut PlanarPatch,
    ) {
        let count = count.min(2);
        (f.key, f.a, f.b, f.normal, f.count) = (key, a, b, normal, count);
        let mut centroid = Vec3::ZERO;
        for k in 0..count {
            let pt = point(k);
            let (ra, rb) = (pt.point - x_a, pt.point - x_b);
            f.ids[k] = pt.id;
            f.r_a[k] = ra;
            f.r_b[k] = rb;
            f.at[k] = x_a + ra;
            f.base[k] = pt.separation - normal.dot(rb - ra);
            centroid += pt.point;
        }
        if count > 0 {
            centroid /= count as f32;
        }
        f.c_a = centroid - x_a;
        f.c_b = centroid - x_b;
        f.tangent = Vec3::Z.cross(normal).normalize_or_zero();
        (f.mu, f.e) = (mix.friction, mix.restitution);
        (f.stands_for, f.depth2) = ([1.0; 2], [0.0; 2]);
    }

    /// t·I_a⁻¹t + t·I_b⁻¹t: the two bodies' inverse inertia about the tangent (tilting),
    /// which the 3D rows of the points it stands for also turn (see [`point_spring`]).
    /// (The tangent lies in the plane, so each term reads the in-plane block of I⁻¹ alone:
    /// the same sums as t·(I⁻¹t) less the terms in t.z = 0.)
    #[inline]
    pub fn tilt(&self, sb: &SolverBodies) -> f32 {
        let (tx, ty) = (self.tangent.x, self.tangent.y);
        let along = |m: &glam::Mat3| {
            let (x, y) = (m.x_axis.x * tx + m.y_axis.x * ty, m.x_axis.y * tx + m.y_axis.y * ty);
            tx * x + ty * y
        };
        along(&sb.inv_i[self.a as usize]) + along(&sb.inv_i[self.b as usize])
    }

    /// Last step's patch of the pair (this one) made again, where it lies, from its kept
    /// manifold (`self.kept`, [`Kept`]; without one nothing is made) for solver bodies `a`,
    /// `b` at centres `x_a`, `x_b` with in-plane axes `ax`, `bx` and material `mix`: its
    /// points, ids and impulses, and its cache, stay as they were, and only what moves with
    /// the bodies is written (the last 140 bytes, the cache and the kept manifold, are not:
    /// a cache line or two of each patch stay clean). Says whether a point is within `touch` (m).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn keep(
        &mut self,
        a: u32,
        b: u32,
        x_a: Vec3,
        x_b: Vec3,
        ax: [Vec2; 2],
        bx: [Vec2; 2],
        touch: f32,
        mix: PairMaterial,
    ) -> bool {
        // (Read where it lies, not copied: the patch's fields it writes are others.)
        let Some(k) = self.kept.as_ref() else { return false };
        let world = |x: [Vec2; 2], l: Vec2| x[0] * l.x + x[1] * l.y;
        let n = world(ax, k.normal);
        let normal = n.extend(0.0);
        let (mut centroid, mut touching) = (Vec3::ZERO, false);
        let count = self.count.min(2);
        // (Points past `count` are read by nothing; they keep last step's, so the patch is
        // last step's wherever nothing moved.)
        for j in 0..count {
            // (The points lie in the plane z = 0: the levers' z is the centres' depth.)
            let ra = world(ax, k.on_a[j]).extend(-x_a.z);
            let rb = world(bx, k.on_b[j]).extend(-x_b.z);
            let (pa, pb) = (x_a + ra, x_b + rb);
            let s = k.separation[j] + normal.dot(pb - pa);
            (self.r_a[j], self.r_b[j], self.at[j]) = (ra, rb, pa);
            self.base[j] = s - normal.dot(rb - ra);
            touching |= s < touch;
            centroid += pa;
        }
        if count > 0 {
            centroid /= count as f32;
        }
        (self.a, self.b, self.normal, self.tangent) = (a, b, normal, Vec3::new(-n.y, n.x, 0.0));
        (self.c_a, self.c_b) = (centroid - x_a, centroid - x_b);
        (self.mu, self.e) = (mix.friction, mix.restitution);
        (self.stands_for, self.depth2) = (k.stands_for, k.depth2);
        touching
    }

    /// Takes last step's impulses (`Patch::warm_from`'s rule).
    #[inline]
    pub fn warm_from<W: WarmSource>(&mut self, old: &W) {
        for k in 0..self.count {
            if let Some(l) = old.normal_for(self.ids[k], self.at[k]) {
                self.accum[k] = l;
            }
        }
        self.friction = old.friction_for([self.tangent, Vec3::Z], self.normal);
    }

    /// The normal impulse of its rows (`Patch::normal_impulse`).
    #[inline]
    pub fn normal_impulse(&self) -> f32 {
        self.accum[..self.count].iter().sum()
    }

    /// Its hot copy's impulses at the step's end ([`Contact2::impulses`]): its points' normal
    /// impulses and the in-plane friction's.
    #[inline]
    pub fn take_impulses(&mut self, w: [f32; 3]) {
        // (Point by point: a copy of `count` floats is a call to memcpy, 0.4 % of W7's step.)
        for k in 0..2 {
            if k < self.count {
                self.accum[k] = w[k];
            }
        }
        self.friction[0] = w[2];
    }
}

/// A 2D contact point's spring, lane-wise: its frequency `hz` (the step's, per lane: against
/// an immovable body or not) for a point that stands for `n` points of the 3D manifold at
/// mean z² `z2` (`PlanarPatch::stands_for`, `depth2`), on a row of effective mass `mass` (1/K₂),
/// between bodies of inverse inertia `tilt` about the tangent ([`PlanarPatch::tilt`]).
///
/// Each of the n 3D points is a spring of stiffness ω²/K₃, its row's K₃ = K₂ + z²·tilt
/// (r × n = z·t + ẑ(…) for n in the plane, t = ẑ × n), so the 2D point is their sum,
/// n·ω²/K₃, on its own row of K₂: frequency ω·√(n·K₂/K₃) = ω·√(n / (1 + z²·tilt·m)). So a
/// planar box rests as deep as the same box in 3D (a unit cube on a cube: n = 2, K₂ = 5,
/// K₃ = 8, ω·√1.25), where one spring of the contact's frequency per 2D point sank it 25 %
/// deeper. Capped at a quarter of the substep rate as every contact spring is, so the
/// equivalence holds below the cap: where ω·√(n·K₂/K₃) passes it, a planar box sinks
/// deeper than in 3D, by up to n·K₂/K₃ (≤ 2) — a unit cube on the ground at 4 substeps
/// (60 Hz already capped) by 25 %, on a 0.4 m deep planar box by 23 %. The same
/// arithmetic as `Spring::new` after the frequency, so a point that stands for one point at
/// z = 0 gets the step's spring to the bit.
#[inline(always)]
pub fn point_spring<L: Lane>(hz: L, n: L, z2: L, tilt: L, mass: L, s: &StepSprings) -> Spring2<L> {
    let one = L::splat(1.0);
    let factor = n / (one + z2 * tilt * mass);
    let scaled = hz * factor.sqrt();
    let cap = L::splat(0.25 / s.h);
    let hz = L::select(scaled.lt(cap), scaled, cap);
    let h = L::splat(s.h);
    let omega = L::splat(2.0 * std::f32::consts::PI) * hz;
    let a1 = L::splat(2.0 * s.damping_ratio) + h * omega;
    let a2 = h * omega * a1;
    let a3 = one / (one + a2);
    Spring2 { rate: omega / a1, mass_scale: a2 * a3, impulse_scale: a3 }
}

impl WarmSource for PlanarPatch {
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
        self.at[j]
    }
    #[inline]
    fn accum(&self, j: usize) -> f32 {
        self.accum[j]
    }
    #[inline]
    fn friction(&self) -> ([Vec3; 2], [f32; 3], Vec3) {
        ([self.tangent, Vec3::Z], self.friction, self.normal)
    }
}

impl Contact2 {
    /// The hot copy of 2D patch `f`: its rows built here from the manifold ([`Row2::new`]),
    /// its λ the patch's (warm started by [`PlanarPatch::warm_from`]).
    #[inline]
    pub fn from_flat(f: &PlanarPatch, sb: &SolverBodies, s: &StepSprings) -> Contact2 {
        let (a, b) = (f.a as usize, f.b as usize);
        let (wa, wb) = (sb.inv_m[a], sb.inv_m[b]);
        let (iza, izb) = (sb.inv_i[a].z_axis.z, sb.inv_i[b].z_axis.z);
        let row = |t: Vec3, ra: Vec3, rb: Vec3, accum: f32| Row2 { accum, ..Row2::new(t, ra, rb, wa, wb, iza, izb) };
        let v2 = |v: Vec3| V2::new(v.x, v.y);
        let tilt = f.tilt(sb);
        let mut c = Contact2 {
            a: f.a,
            b: f.b,
            wa,
            wb,
            iza,
            izb,
            n: v2(f.normal),
            t: v2(f.tangent),
            mu: f.mu,
            friction: row(f.tangent, f.c_a, f.c_b, f.friction[0]),
            ..Default::default()
        };
        for k in 0..f.count {
            c.rows[k] = row(f.normal, f.r_a[k], f.r_b[k], f.accum[k]);
            let hz = s.hz_between(wa, wb);
            c.spring[k] = point_spring(hz, f.stands_for[k].max(1.0), f.depth2[k], tilt, c.rows[k].mass, s);
            c.ra[k] = v2(f.r_a[k]);
            c.rb[k] = v2(f.r_b[k]);
            c.base[k] = f.base[k];
        }
        c
    }

    /// The impulses its patch carries to the next step ([`PlanarPatch::take_impulses`]):
    /// rows 0 and 1, then friction.
    #[inline]
    pub fn impulses(&self) -> [f32; 3] {
        [self.rows[0].accum, self.rows[1].accum, self.friction.accum]
    }
}

impl Contact2x4 {
    /// The hot copies of flat patches `flats[ix[j]]` (one to four) side by side, built in
    /// lanes: lane j holds what [`Contact2::from_flat`] makes of its patch, bit for bit —
    /// [`Row2::new`]'s arithmetic lane-wise, a missing point's row all zeros — and the lanes
    /// past `ix` are `pack_from`'s padding. (Made directly, not through four
    /// `Contact2`s packed: the copies and shuffles were a twentieth of W6's step.)
    #[inline]
    pub fn from_flats(flats: &[PlanarPatch], ix: &[u32], sb: &SolverBodies, s: &StepSprings) -> Contact2x4 {
        debug_assert!(!ix.is_empty() && ix.len() <= 4);
        // Lane by lane in registers (each value the lanes' four, gathered into a vector), not
        // through arrays filled one lane at a time: a vector read of four scalars just
        // written one by one waits for the stores. The padding lanes read the first patch and
        // are masked out (`live`).
        let first = &flats[ix[0] as usize];
        let f: [&PlanarPatch; 4] = core::array::from_fn(|j| ix.get(j).map_or(first, |&i| &flats[i as usize]));
        let g = |x: &dyn Fn(&PlanarPatch) -> f32| Vec4::new(x(f[0]), x(f[1]), x(f[2]), x(f[3]));
        let zero = Vec4::ZERO;
        let live = BVec4A::from_array(core::array::from_fn(|j| j < ix.len()));
        let (a, b) = (f.map(|f| f.a), f.map(|f| f.b));
        // Per lane: wa, wb, (I⁻¹)_zz of A and B, zero in the padding lanes.
        let body = |x: &dyn Fn(&PlanarPatch) -> f32| Vec4::select(live, g(x), zero);
        let wa = body(&|f| sb.inv_m[f.a as usize]);
        let wb = body(&|f| sb.inv_m[f.b as usize]);
        let iza = body(&|f| sb.inv_i[f.a as usize].z_axis.z);
        let izb = body(&|f| sb.inv_i[f.b as usize].z_axis.z);
        // The patches' fields, four floats of a patch at a time, transposed into lanes.
        let [nx, ny, _, tx] = transpose(f.map(|f| f.run::<{ PlanarPatch::RUN_N }>()));
        let [ty, _, ra0x, ra0y] = transpose(f.map(|f| f.run::<{ PlanarPatch::RUN_T }>()));
        let [ra1x, ra1y, _, rb0x] = transpose(f.map(|f| f.run::<{ PlanarPatch::RUN_RA }>()));
        let [rb0y, _, rb1x, rb1y] = transpose(f.map(|f| f.run::<{ PlanarPatch::RUN_RB }>()));
        let [base0, base1, acc0, acc1] = transpose(f.map(|f| f.run::<{ PlanarPatch::RUN_BASE }>()));
        let [sf0, sf1, depth0, depth1] = transpose(f.map(|f| f.run::<{ PlanarPatch::RUN_STAND }>()));
        let [cax, cay, _, cbx] = transpose(f.map(|f| f.run::<{ PlanarPatch::RUN_CA }>()));
        let [cby, _, mu, fr0] = transpose(f.map(|f| f.run::<{ PlanarPatch::RUN_CB }>()));
        let live_only = |x: Vec4| Vec4::select(live, x, zero);
        let (nx, ny, tx, ty, mu) = (live_only(nx), live_only(ny), live_only(tx), live_only(ty), live_only(mu));
        let hz = body(&|f| s.hz_between(sb.inv_m[f.a as usize], sb.inv_m[f.b as usize]));
        let tilt = body(&|f| f.tilt(sb));
        // Per point k (and k = 2 the friction's): which lanes hold it (a point past the patch's
        // count, a padding lane: not a row).
        let valid = [0, 1, 2].map(|k| {
            let m = BVec4A::from_array(f.map(|f| k == 2 || k < f.count.min(2)));
            BVec4A::from_array(core::array::from_fn(|j| live.test(j) && m.test(j)))
        });
        let point = |k: usize, x: Vec4, or: f32| Vec4::select(valid[k], x, Vec4::splat(or));
        // Per point and for the centroid: ra.x, ra.y, rb.x, rb.y.
        let lever = |k: usize, l: [Vec4; 4]| l.map(|x| point(k, x, 0.0));
        let levers =
            [lever(0, [ra0x, ra0y, rb0x, rb0y]), lever(1, [ra1x, ra1y, rb1x, rb1y]), lever(2, [cax, cay, cbx, cby])];
        let lever = |k: usize| levers[k];
        let acc = [point(0, acc0, 0.0), point(1, acc1, 0.0), point(2, fr0, 0.0)];
        let base_ = [point(0, base0, 0.0), point(1, base1, 0.0)];
        // Per point: stands for (at least 1: `f32::max(x, 1.0)`, NaN too), mean z².
        let one = Vec4::ONE;
        let at_least_one = |x: Vec4| Vec4::select(x.cmpgt(one), x, one);
        let stand = [
            [point(0, at_least_one(sf0), 1.0), point(0, depth0, 1.0)],
            [point(1, at_least_one(sf1), 1.0), point(1, depth1, 1.0)],
        ];
        // `Row2::new` lane-wise; a lane that is not a row (a missing point, a padding lane) is
        // `Row2::default()`.
        let row = |(tx, ty): (Vec4, Vec4), [rax, ray, rbx, rby]: [Vec4; 4], accum: Vec4, m: BVec4A| {
            let ja = tx * ray - ty * rax;
            let jb = rbx * ty - rby * tx;
            let (ia, ib) = (iza * ja, izb * jb);
            let tt = tx * tx + ty * ty;
            let k = wa * tt + ja * ia + wb * tt + jb * ib;
            let keep = |x: Vec4| Vec4::select(m, x, zero);
            let mass = Vec4::select(k.cmpgt(zero), Vec4::ONE / k, zero);
            Row2 { ja: keep(ja), jb: keep(jb), mass: keep(mass), accum }
        };
        let (l0, l1) = (lever(0), lever(1));
        let rows = [row((nx, ny), l0, acc[0], valid[0]), row((nx, ny), l1, acc[1], valid[1])];
        // (A lane that is not a row keeps a zero spring, as `Contact2::default()`.)
        let spring = [0, 1].map(|k| {
            let sp = point_spring(hz, stand[k][0], stand[k][1], tilt, rows[k].mass, s);
            let keep = |x: Vec4| Vec4::select(valid[k], x, zero);
            Spring2 { rate: keep(sp.rate), mass_scale: keep(sp.mass_scale), impulse_scale: keep(sp.impulse_scale) }
        });
        Contact2x4 {
            a,
            b,
            wa,
            wb,
            iza,
            izb,
            n: V2::new(nx, ny),
            t: V2::new(tx, ty),
            mu,
            rows,
            spring,
            sep: [zero; 2],
            friction: row((tx, ty), lever(2), acc[2], valid[2]),
            ra: [V2::new(l0[0], l0[1]), V2::new(l1[0], l1[1])],
            rb: [V2::new(l0[2], l0[3]), V2::new(l1[2], l1[3])],
            base: base_,
            step_sum: zero,
        }
    }

    /// Four (or fewer: the rest of the lanes are no-ops on lane 0's bodies, never stored)
    /// contacts side by side. (The tests' reference: the step builds its packs with
    /// `from_flats`.)
    #[cfg(test)]
    pub fn pack(cs: &[Contact2]) -> Contact2x4 {
        let ix: [u32; 4] = core::array::from_fn(|j| j as u32);
        Contact2x4::pack_from(cs, &ix[..cs.len()])
    }

    /// [`pack`](Contact2x4::pack) of `cs[i]` for the (one to four) indices `ix`.
    #[cfg(test)]
    pub fn pack_from(cs: &[Contact2], ix: &[u32]) -> Contact2x4 {
        debug_assert!(!ix.is_empty() && ix.len() <= 4);
        let first = &cs[ix[0] as usize];
        let pad = Contact2 { a: first.a, b: first.b, ..Default::default() };
        let c = |j: usize| if j < ix.len() { &cs[ix[j] as usize] } else { &pad };
        let (c0, c1, c2, c3) = (c(0), c(1), c(2), c(3));
        let f = |g: &dyn Fn(&Contact2) -> f32| Vec4::new(g(c0), g(c1), g(c2), g(c3));
        let ix = |g: &dyn Fn(&Contact2) -> u32| [g(c0), g(c1), g(c2), g(c3)];
        let v2 = |g: &dyn Fn(&Contact2) -> V2<f32>| V2::new(f(&|c| g(c).x), f(&|c| g(c).y));
        let row = |g: &dyn Fn(&Contact2) -> Row2| Row2 {
            ja: f(&|c| g(c).ja),
            jb: f(&|c| g(c).jb),
            mass: f(&|c| g(c).mass),
            accum: f(&|c| g(c).accum),
        };
        Contact2x4 {
            a: ix(&|c| c.a),
            b: ix(&|c| c.b),
            wa: f(&|c| c.wa),
            wb: f(&|c| c.wb),
            iza: f(&|c| c.iza),
            izb: f(&|c| c.izb),
            n: v2(&|c| c.n),
            t: v2(&|c| c.t),
            mu: f(&|c| c.mu),
            rows: [row(&|c| c.rows[0]), row(&|c| c.rows[1])],
            spring: [0, 1].map(|k| Spring2 {
                rate: f(&|c| c.spring[k].rate),
                mass_scale: f(&|c| c.spring[k].mass_scale),
                impulse_scale: f(&|c| c.spring[k].impulse_scale),
            }),
            sep: [Vec4::ZERO; 2],
            friction: row(&|c| c.friction),
            ra: [v2(&|c| c.ra[0]), v2(&|c| c.ra[1])],
            rb: [v2(&|c| c.rb[0]), v2(&|c| c.rb[1])],
            base: [f(&|c| c.base[0]), f(&|c| c.base[1])],
            step_sum: Vec4::ZERO,
        }
    }

    /// Lane `j`'s normal impulses (rows 0 and 1).
    #[inline]
    pub fn normal_impulses(&self, j: usize) -> [f32; 2] {
        [self.rows[0].accum.to_array()[j], self.rows[1].accum.to_array()[j]]
    }

    /// Lane `j`'s [`Contact2::impulses`].
    #[inline]
    pub fn impulses(&self, j: usize) -> [f32; 3] {
        let [n0, n1] = self.normal_impulses(j);
        [n0, n1, self.friction.accum.to_array()[j]]
    }
}

impl<L: Lane> Contact2<L> {
    /// Separation of point `k` for the bodies' motion `ma`, `mb`.
    #[inline(always)]
    fn separation(&self, k: usize, ma: &Motion<L>, mb: &Motion<L>) -> L {
        let d = mb.dx.sub(ma.dx).add(mb.rotate(self.rb[k])).sub(ma.rotate(self.ra[k]));
        self.n.dot(d) + self.base[k]
    }

    #[inline(always)]
    fn apply(&self, r: &Row2<L>, t: V2<L>, u: &mut Vel<L>, d: L) {
        u.apply(t, self.wa, self.wb, self.iza * r.ja, self.izb * r.jb, d);
    }

    /// Per substep: the separations now, from which the sweeps make the normal rows' factors
    /// (`Patch::prepare`'s: `rule::normal_factors`), and the warm start (or zeroed impulses).
    /// The separations are measured from the bodies' motions `m`, or with `None` are those
    /// `refresh_relax` measured at the same poses (`sep`). `base`: the solver
    /// index of dense body 0 (the motions are by dense index). `sum`: the last substep's
    /// normal impulses join the step's (`step_sum`), as `Iterator::sum` would add the two.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn prepare(
        &mut self,
        sb: &mut SolverBodies,
        m: Option<&[Motion2]>,
        base: u32,
        warm: bool,
        lanes: usize,
        sum: bool,
    ) {
        let zero = L::splat(0.0);
        if sum {
            // (The sum's neutral element is `Iterator::sum`'s own.)
            let neutral = L::splat([0.0f32; 0].iter().sum());
            self.step_sum += (neutral + self.rows[0].accum) + self.rows[1].accum;
        }
        let mut u = L::load(sb, self.a, self.b);
        if let Some(m) = m {
            let (ma, mb) = (L::motion(m, self.a, base), L::motion(m, self.b, base));
            self.sep = [self.separation(0, &ma, &mb), self.separation(1, &ma, &mb)];
        }
        if warm {
            for k in 0..2 {
                let r = self.rows[k];
                self.apply(&r, self.n, &mut u, r.accum);
            }
            let f = self.friction;
            self.apply(&f, self.t, &mut u, f.accum);
            L::store(u, sb, self.a, self.b, lanes);
        } else {
            for r in self.rows.iter_mut() {
                r.accum = zero;
            }
            self.friction.accum = zero;
        }
    }

    /// Before relax: separations re-measured on the moved bodies (`Patch::refresh_relax`).
    #[inline]
    pub fn refresh_relax(&mut self, m: &[Motion2], base: u32) {
        let (ma, mb) = (L::motion(m, self.a, base), L::motion(m, self.b, base));
        self.sep = [self.separation(0, &ma, &mb), self.separation(1, &ma, &mb)];
    }

    /// One update of the normal rows, then the tangent row bounded by μ Σλ_n
    /// (`Patch::solve` for a 2D patch). `lanes`: how many lanes are contacts. `back`: the
    /// sweep runs backward, and so do the two points (point 1 first): the two ends of a
    /// face contact taken in one order only lean a stack toward one side (W6's top box
    /// 0.09 mm sideways against 1.45 mm, a planar 10-box tower 0.22 against 0.69 mm).
    /// `h`: the substep's length (the rows' factors: [`rule::normal_factors`]).
    #[inline]
    pub fn solve(&mut self, sb: &mut SolverBodies, phase: Phase, h: f32, lanes: usize, back: bool) {
        if back {
            self.solve_in::<true>(sb, phase, h, lanes)
        } else {
            self.solve_in::<false>(sb, phase, h, lanes)
        }
    }

    #[inline(always)]
    fn solve_in<const BACK: bool>(&mut self, sb: &mut SolverBodies, phase: Phase, h: f32, lanes: usize) {
        let h = L::splat(h);
        let mut u = L::load(sb, self.a, self.b);
        let n = self.n;
        let zero = L::splat(0.0);
        let mut total = zero;
        // The two rows share their linear parts ∓n (`Patch::solve_rows`): the relative
        // speed along n, v_n, stands for both linear velocities while they run (an impulse
        // d moves it by (w_a + w_b)·|n|²·d), and the velocities take the rows' sum after.
        let mut vn = n.x * (u.vb.x - u.va.x) + n.y * (u.vb.y - u.va.y);
        let lift = (self.wa + self.wb) * (n.x * n.x + n.y * n.y);
        let mut sum = zero;
        for j in 0..2 {
            let k = if BACK { 1 - j } else { j };
            let r = self.rows[k];
            let s = match phase {
                Phase::Relax => {
                    Soft2 { bias: rule::relax_bias(self.sep[k], h), mass_scale: L::splat(1.0), impulse_scale: zero }
                }
                Phase::Solve => rule::solve_factors(self.sep[k], h, self.spring[k]),
            };
            let cdot = vn + r.ja * u.wa + r.jb * u.wb;
            let raw = -r.mass * s.mass_scale * (cdot + s.bias) - s.impulse_scale * r.accum;
            let new = at_least(r.accum + raw, zero);
            let d = new - r.accum;
            vn += lift * d;
            u.wa += (self.iza * r.ja) * d;
            u.wb += (self.izb * r.jb) * d;
            sum += d;
            self.rows[k].accum = new;
            total += new;
        }
        u.va = u.va.sub(n.scale(self.wa * sum));
        u.vb = u.vb.add(n.scale(self.wb * sum));
        // (A NaN bound leaves λ unbounded, as `clamp` would not: it panics, a trap in wasm.)
        let cap = self.mu * total;
        let f = self.friction;
        let free = f.accum - f.mass * u.cdot(self.t, f.ja, f.jb);
        let new = L::select(L::or(cap.gt(zero), cap.eq(zero)), at_most(at_least(free, -cap), cap), free);
        self.apply(&f, self.t, &mut u, new - f.accum);
        self.friction.accum = new;
        L::store(u, sb, self.a, self.b, lanes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::joints::row::Spring;
    use glam::{Mat3, Vec2};

    /// The test's numbers: the world's own generator (`leash::Rng`), uniform in [lo, hi).
    struct Rng(crate::leash::Rng);
    impl Rng {
        fn f(&mut self, lo: f32, hi: f32) -> f32 {
            self.0.range(lo, hi)
        }
    }

    /// Three contacts on bodies of their own and against one shared immovable body (the
    /// ground, body 0), bodies at random velocities and masses, rows from random levers:
    /// run side by side (one `Contact2x4` of 3 lanes) and one by one (three `Contact2`), the
    /// velocities and impulses after prepare, solve, relax and restitution agree bit for bit.
    #[test]
    fn four_lanes_compute_the_bits_of_one_contact_each() {
        let mut moved = 0;
        for seed in 0..50u64 {
            let mut rng = Rng(crate::leash::Rng::new(seed));
            let n = 7;
            let mut sb = SolverBodies::default();
            sb.resize(n);
            for i in 1..n {
                sb.v[i] = Vec3::new(rng.f(-2.0, 2.0), rng.f(-2.0, 2.0), 0.0);
                sb.w[i] = Vec3::new(0.0, 0.0, rng.f(-3.0, 3.0));
                sb.inv_m[i] = rng.f(0.2, 2.0);
                sb.inv_i[i] = Mat3::from_diagonal(Vec3::splat(rng.f(0.5, 6.0)));
            }
            let motion: Vec<Motion2> = (0..n)
                .map(|_| {
                    let dx = Vec2::new(rng.f(-0.01, 0.01), rng.f(-0.01, 0.01));
                    let a = rng.f(-0.02, 0.02);
                    Motion2::from_parts(dx, [Vec2::new(1.0 - a * a / 2.0, a), Vec2::new(-a, 1.0 - a * a / 2.0)])
                })
                .collect();
            // Pairs: (ground, 1), (2, 3), (4, 5): no movable body twice.
            let pairs = [(0u32, 1u32), (2, 3), (4, 5)];
            let contacts: Vec<Contact2> = pairs
                .iter()
                .enumerate()
                .map(|(i, &(a, b))| {
                    let th = rng.f(0.0, std::f32::consts::TAU);
                    let nrm = Vec3::new(libm::cosf(th), libm::sinf(th), 0.0);
                    let t = Vec3::new(-nrm.y, nrm.x, 0.0);
                    let (wa, wb) = (sb.inv_m[a as usize], sb.inv_m[b as usize]);
                    let (iza, izb) = (sb.inv_i[a as usize].z_axis.z, sb.inv_i[b as usize].z_axis.z);
                    let lever = |rng: &mut Rng| Vec3::new(rng.f(-0.5, 0.5), rng.f(-0.5, 0.5), 0.0);
                    let count = 1 + (i % 2) as u32;
                    let mut c = Contact2 {
                        a,
                        b,
                        wa,
                        wb,
                        iza,
                        izb,
                        n: V2::new(nrm.x, nrm.y),
                        t: V2::new(t.x, t.y),
                        mu: rng.f(0.0, 1.0),
                        ..Default::default()
                    };
                    for k in 0..count as usize {
                        let (ra, rb) = (lever(&mut rng), lever(&mut rng));
                        c.rows[k] = Row2 { accum: rng.f(0.0, 0.3), ..Row2::new(nrm, ra, rb, wa, wb, iza, izb) };
                        let sp = Spring::new(rng.f(30.0, 70.0), 5.0, 1.0 / 240.0);
                        c.spring[k] =
                            Spring2 { rate: sp.bias_rate, mass_scale: sp.mass_scale, impulse_scale: sp.impulse_scale };
                        c.ra[k] = V2::new(ra.x, ra.y);
                        c.rb[k] = V2::new(rb.x, rb.y);
                        c.base[k] = rng.f(-0.02, 0.01);
                    }
                    let (ca, cb) = (lever(&mut rng), lever(&mut rng));
                    c.friction = Row2 { accum: rng.f(-0.1, 0.1), ..Row2::new(t, ca, cb, wa, wb, iza, izb) };
                    c
                })
                .collect();
            let h = 1.0 / 240.0;
            let run_one = |sb: &mut SolverBodies, mut cs: Vec<Contact2>| {
                for c in cs.iter_mut() {
                    c.prepare(sb, Some(&motion), 0, true, 1, false);
                }
                for c in cs.iter_mut() {
                    c.solve(sb, Phase::Solve, h, 1, false);
                }
                for c in cs.iter_mut() {
                    c.refresh_relax(&motion, 0);
                    c.solve(sb, Phase::Relax, h, 1, true);
                }
                cs
            };
            let mut sb1 = sb.clone();
            let one = run_one(&mut sb1, contacts.clone());
            let mut sb4 = sb.clone();
            let mut four = Contact2x4::pack(&contacts);
            four.prepare(&mut sb4, Some(&motion), 0, true, 3, false);
            four.solve(&mut sb4, Phase::Solve, h, 3, false);
            four.refresh_relax(&motion, 0);
            four.solve(&mut sb4, Phase::Relax, h, 3, true);
            let bits = |v: &[Vec3]| v.iter().flat_map(|v| v.to_array()).map(f32::to_bits).collect::<Vec<_>>();
            assert_eq!(bits(&sb1.v), bits(&sb4.v), "seed {seed}: velocities");
            assert_eq!(bits(&sb1.w), bits(&sb4.w), "seed {seed}: spins");
            for (j, c) in one.iter().enumerate() {
                let [r0, r1] = four.normal_impulses(j);
                assert_eq!([c.rows[0].accum.to_bits(), c.rows[1].accum.to_bits()], [r0.to_bits(), r1.to_bits()]);
                assert_eq!(c.friction.accum.to_bits(), four.friction.accum.to_array()[j].to_bits());
            }
            // Something happened (in some draws every contact separates and takes back its
            // warm start: v + λ/m − λ/m, the same bits).
            moved += (bits(&sb1.v) != bits(&sb.v)) as u32;
        }
        assert!(moved >= 40, "only {moved} of 50 draws had a contact push");
    }

    /// The packs made directly from flat patches (`Contact2x4::from_flats`) are, lane by
    /// lane, the hot copies `Contact2::from_flat` makes packed (`pack_from`): every field's
    /// bits, for one to four lanes, one- and two-point patches, movable and immovable bodies.
    #[test]
    fn packs_made_from_flat_patches_are_the_packed_hot_copies() {
        let mut rng = Rng(crate::leash::Rng::new(7));
        let (n, base) = (9, 3u32);
        let mut sb = SolverBodies::default();
        sb.resize(n + base as usize);
        for i in base as usize + 1..n + base as usize {
            sb.inv_m[i] = rng.f(0.2, 2.0);
            sb.inv_i[i] = Mat3::from_diagonal(Vec3::splat(rng.f(0.5, 6.0)));
        }
        let v = |rng: &mut Rng| Vec3::new(rng.f(-0.5, 0.5), rng.f(-0.5, 0.5), rng.f(-1e-6, 1e-6));
        for draw in 0..200 {
            let flats: Vec<PlanarPatch> = (0..6)
                .map(|i| {
                    let th = rng.f(0.0, std::f32::consts::TAU);
                    let normal = Vec3::new(libm::cosf(th), libm::sinf(th), 0.0);
                    let a = base + (i % n as u32);
                    let b = base + ((i + 1 + (draw % 3)) % n as u32);
                    let count = 1 + ((i + draw) % 2) as usize;
                    let mut f = PlanarPatch {
                        key: i as u64,
                        a,
                        b,
                        count,
                        normal,
                        tangent: Vec3::Z.cross(normal).normalize_or_zero(),
                        c_a: v(&mut rng),
                        c_b: v(&mut rng),
                        mu: rng.f(0.0, 1.0),
                        e: rng.f(0.0, 0.5),
                        friction: [rng.f(-0.1, 0.1), 0.0, 0.0],
                        ..Default::default()
                    };
                    for k in 0..count {
                        (f.r_a[k], f.r_b[k], f.base[k], f.accum[k]) =
                            (v(&mut rng), v(&mut rng), rng.f(-0.02, 0.01), rng.f(0.0, 0.3));
                        // Points standing for one or two 3D points.
                        (f.stands_for[k], f.depth2[k]) =
                            if (i + k as u32) % 2 == 0 { (1.0, 0.0) } else { (2.0, rng.f(0.0, 0.5)) };
                    }
                    f
                })
                .collect();
            let ix: Vec<u32> = (0..1 + draw % 4).map(|j| (j + draw) % 6).collect();
            let springs = StepSprings::new(Tuning::default(), 1.0 / (60.0 * (1 + draw % 4) as f32));
            let copies: Vec<Contact2> = flats.iter().map(|f| Contact2::from_flat(f, &sb, &springs)).collect();
            let packed = Contact2x4::pack_from(&copies, &ix);
            let direct = Contact2x4::from_flats(&flats, &ix, &sb, &springs);
            // Every field, as bits (the packs' Debug prints each float exactly).
            let bits = |c: &Contact2x4| {
                let f = |x: Vec4| x.to_array().map(f32::to_bits);
                let row = |r: &Row2<Vec4>| [f(r.ja), f(r.jb), f(r.mass), f(r.accum)];
                (
                    (c.a, c.b),
                    [f(c.wa), f(c.wb), f(c.iza), f(c.izb), f(c.n.x), f(c.n.y), f(c.t.x), f(c.t.y), f(c.mu)],
                    [row(&c.rows[0]), row(&c.rows[1]), row(&c.friction)],
                    [
                        f(c.ra[0].x),
                        f(c.ra[0].y),
                        f(c.ra[1].x),
                        f(c.ra[1].y),
                        f(c.rb[0].x),
                        f(c.rb[0].y),
                        f(c.rb[1].x),
                        f(c.rb[1].y),
                    ],
                    [f(c.base[0]), f(c.base[1])],
                    c.spring.map(|s| [f(s.rate), f(s.mass_scale), f(s.impulse_scale)]),
                )
            };
            assert_eq!(bits(&direct), bits(&packed), "draw {draw}, lanes {ix:?}");
        }
    }
}
