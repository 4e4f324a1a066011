//! The 2D rows' arithmetic, for one contact (`f32`) or four side by side (`Vec4`, [`Lane`]):
//! a row ([`Row2`]), in-plane vectors ([`V2`]), the two bodies' in-plane velocities
//! ([`Vel`]) and motions since the manifold was made ([`Motion2`]). Shared by the 2D
//! patches' hot copies (`planar.rs`) and the 2D patches that stay `Patch`es
//! (`Patch::prepare_planar` / `solve_planar` in `patch.rs`).

use core::ops::{Add, AddAssign, BitAnd, Div, Mul, Neg, Sub, SubAssign};

use glam::{BVec4A, Quat, Vec2, Vec3, Vec4};

use crate::joints::row::SolverBodies;

/// One 2D row: J = [−t, ja ẑ, t, jb ẑ] with the contact's axis t (in the plane), its
/// effective mass and λ. `L` is `f32` for one contact, `Vec4` for four side by side
/// ([`Lane`]). (The angular parts times (I⁻¹)_zz are made where they are applied, from the
/// contact's two (I⁻¹)_zz: the sweep streams four floats a row, not six.)
#[derive(Clone, Copy, Debug, Default)]
pub struct Row2<L = f32> {
    pub ja: L,
    pub jb: L,
    pub mass: L,
    pub accum: L,
}

impl Row2 {
    /// The 2D row along `t` (n.z = t.z = 0) with levers `ra`, `rb` (their z parts left out:
    /// the rounding of a centre off z = 0), inverse masses and (I⁻¹)_zz of A and B:
    /// J = [−t, (t × r_a)_z ẑ, t, (r_b × t)_z ẑ] (see `Patch::prepare_planar`).
    #[inline]
    pub fn new(t: Vec3, ra: Vec3, rb: Vec3, wa: f32, wb: f32, iza: f32, izb: f32) -> Row2 {
        let ja = t.x * ra.y - t.y * ra.x;
        let jb = rb.x * t.y - rb.y * t.x;
        let (ia, ib) = (iza * ja, izb * jb);
        let tt = t.x * t.x + t.y * t.y;
        let k = wa * tt + ja * ia + wb * tt + jb * ib;
        Row2 { ja, jb, mass: if k > 0.0 { 1.0 / k } else { 0.0 }, accum: 0.0 }
    }
}

/// The arithmetic a contact's update needs, for one contact (`f32`) or four side by side
/// (`Vec4`, one per lane: SSE2 natively, simd128 in a wasm built with it, four scalars
/// otherwise). Every operation is lane-wise IEEE arithmetic, so a lane computes exactly the
/// bits the scalar code computes for the same contact; branches become masks and `select`.
pub trait Lane:
    Copy
    + Default
    + core::fmt::Debug
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + AddAssign
    + SubAssign
{
    /// Body indices: one, or one per lane.
    type Ix: Copy + Default + core::fmt::Debug;
    type Mask: Copy + BitAnd<Output = Self::Mask>;
    fn splat(x: f32) -> Self;
    fn gt(self, o: Self) -> Self::Mask;
    fn lt(self, o: Self) -> Self::Mask;
    fn le(self, o: Self) -> Self::Mask;
    fn ne(self, o: Self) -> Self::Mask;
    fn eq(self, o: Self) -> Self::Mask;
    fn or(a: Self::Mask, b: Self::Mask) -> Self::Mask;
    fn select(m: Self::Mask, a: Self, b: Self) -> Self;
    fn any(m: Self::Mask) -> bool;
    fn sqrt(self) -> Self;
    /// The two bodies' in-plane velocities (solver indices `a`, `b`).
    fn load(sb: &SolverBodies, a: Self::Ix, b: Self::Ix) -> Vel<Self>;
    /// Back into the bodies: the first `lanes` lanes.
    fn store(u: Vel<Self>, sb: &mut SolverBodies, a: Self::Ix, b: Self::Ix, lanes: usize);
    /// A body's motion since the manifolds were made (solver index `i`, whose dense index is
    /// `i − base`).
    fn motion(m: &[Motion2], i: Self::Ix, base: u32) -> Motion<Self>;
}

impl Lane for f32 {
    type Ix = u32;
    type Mask = bool;
    #[inline(always)]
    fn splat(x: f32) -> f32 {
        x
    }
    #[inline(always)]
    fn gt(self, o: f32) -> bool {
        self > o
    }
    #[inline(always)]
    fn lt(self, o: f32) -> bool {
        self < o
    }
    #[inline(always)]
    fn le(self, o: f32) -> bool {
        self <= o
    }
    #[inline(always)]
    fn ne(self, o: f32) -> bool {
        self != o
    }
    #[inline(always)]
    fn eq(self, o: f32) -> bool {
        self == o
    }
    #[inline(always)]
    fn or(a: bool, b: bool) -> bool {
        a | b
    }
    #[inline(always)]
    fn select(m: bool, a: f32, b: f32) -> f32 {
        if m {
            a
        } else {
            b
        }
    }
    #[inline(always)]
    fn sqrt(self) -> f32 {
        f32::sqrt(self)
    }
    #[inline(always)]
    fn any(m: bool) -> bool {
        m
    }
    #[inline(always)]
    fn load(sb: &SolverBodies, a: u32, b: u32) -> Vel<f32> {
        let (a, b) = (a as usize, b as usize);
        Vel { va: V2::new(sb.v[a].x, sb.v[a].y), wa: sb.w[a].z, vb: V2::new(sb.v[b].x, sb.v[b].y), wb: sb.w[b].z }
    }
    #[inline(always)]
    fn store(u: Vel<f32>, sb: &mut SolverBodies, a: u32, b: u32, _lanes: usize) {
        let (a, b) = (a as usize, b as usize);
        (sb.v[a].x, sb.v[a].y, sb.w[a].z) = (u.va.x, u.va.y, u.wa);
        (sb.v[b].x, sb.v[b].y, sb.w[b].z) = (u.vb.x, u.vb.y, u.wb);
    }
    #[inline(always)]
    fn motion(m: &[Motion2], i: u32, base: u32) -> Motion<f32> {
        let m = &m[(i - base) as usize];
        let ([dx, dy, r0x, r0y], [r1x, r1y, _, _]) = (m.head.to_array(), m.tail.to_array());
        Motion { dx: V2::new(dx, dy), r: [V2::new(r0x, r0y), V2::new(r1x, r1y)] }
    }
}

impl Lane for Vec4 {
    type Ix = [u32; 4];
    type Mask = BVec4A;
    #[inline(always)]
    fn splat(x: f32) -> Vec4 {
        Vec4::splat(x)
    }
    #[inline(always)]
    fn gt(self, o: Vec4) -> BVec4A {
        self.cmpgt(o)
    }
    #[inline(always)]
    fn lt(self, o: Vec4) -> BVec4A {
        self.cmplt(o)
    }
    #[inline(always)]
    fn le(self, o: Vec4) -> BVec4A {
        self.cmple(o)
    }
    #[inline(always)]
    fn ne(self, o: Vec4) -> BVec4A {
        self.cmpne(o)
    }
    #[inline(always)]
    fn eq(self, o: Vec4) -> BVec4A {
        self.cmpeq(o)
    }
    #[inline(always)]
    fn or(a: BVec4A, b: BVec4A) -> BVec4A {
        a | b
    }
    #[inline(always)]
    fn select(m: BVec4A, a: Vec4, b: Vec4) -> Vec4 {
        Vec4::select(m, a, b)
    }
    /// One packed square root where the target has it (glam's `Vec4::sqrt` takes four
    /// scalar ones through libm, whose x86 `sqrtss` is inline assembly: legacy SSE, which
    /// in a build with AVX enabled stalls on the mix of encodings; in wasm libm's root is
    /// its software one, a call per lane: 2.6 % of W6's step in V8). Every form is IEEE's
    /// correctly rounded root: the same bits.
    #[inline(always)]
    fn sqrt(self) -> Vec4 {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        {
            // SAFETY: the instruction is SSE's, which this build enables (the cfg above).
            Vec4::from(unsafe { core::arch::x86_64::_mm_sqrt_ps(self.into()) })
        }
        #[cfg(all(target_arch = "x86", target_feature = "sse2"))]
        {
            // SAFETY: as above.
            Vec4::from(unsafe { core::arch::x86::_mm_sqrt_ps(self.into()) })
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        {
            Vec4::from(core::arch::wasm32::f32x4_sqrt(self.into()))
        }
        #[cfg(not(any(
            all(any(target_arch = "x86", target_arch = "x86_64"), target_feature = "sse2"),
            all(target_arch = "wasm32", target_feature = "simd128")
        )))]
        {
            Vec4::sqrt(self)
        }
    }
    #[inline(always)]
    fn any(m: BVec4A) -> bool {
        m.any()
    }
    #[inline(always)]
    fn load(sb: &SolverBodies, a: [u32; 4], b: [u32; 4]) -> Vel<Vec4> {
        let (v, w) = (&sb.v, &sb.w);
        // One check for the pack's gather, which then reads the bodies unchecked (a check per
        // load costs 2 % of W6's instructions; this one fails as an index past the end would).
        let top = a.into_iter().chain(b).fold(0, u32::max) as usize;
        assert!(top < v.len() && top < w.len());
        let g = |i: [u32; 4], f: &dyn Fn(usize) -> f32| {
            Vec4::new(f(i[0] as usize), f(i[1] as usize), f(i[2] as usize), f(i[3] as usize))
        };
        // SAFETY: `g` calls each reader only with the elements of `a` (or `b`), each ≤ top,
        // which is below both lengths (asserted above).
        Vel {
            va: V2::new(g(a, &|k| unsafe { v.get_unchecked(k) }.x), g(a, &|k| unsafe { v.get_unchecked(k) }.y)),
            wa: g(a, &|k| unsafe { w.get_unchecked(k) }.z),
            vb: V2::new(g(b, &|k| unsafe { v.get_unchecked(k) }.x), g(b, &|k| unsafe { v.get_unchecked(k) }.y)),
            wb: g(b, &|k| unsafe { w.get_unchecked(k) }.z),
        }
    }
    #[inline(always)]
    fn store(u: Vel<Vec4>, sb: &mut SolverBodies, a: [u32; 4], b: [u32; 4], lanes: usize) {
        let (vax, vay, wa) = (u.va.x.to_array(), u.va.y.to_array(), u.wa.to_array());
        let (vbx, vby, wb) = (u.vb.x.to_array(), u.vb.y.to_array(), u.wb.to_array());
        for j in 0..lanes {
            let (a, b) = (a[j] as usize, b[j] as usize);
            (sb.v[a].x, sb.v[a].y, sb.w[a].z) = (vax[j], vay[j], wa[j]);
            (sb.v[b].x, sb.v[b].y, sb.w[b].z) = (vbx[j], vby[j], wb[j]);
        }
    }
    #[inline(always)]
    fn motion(m: &[Motion2], i: [u32; 4], base: u32) -> Motion<Vec4> {
        let m = i.map(|i| &m[(i - base) as usize]);
        // (Each body's two records transposed into lanes.)
        let [dx, dy, r0x, r0y] = transpose(m.map(|m| m.head));
        let [r1x, r1y, _, _] = transpose(m.map(|m| m.tail));
        Motion { dx: V2::new(dx, dy), r: [V2::new(r0x, r0y), V2::new(r1x, r1y)] }
    }
}

/// Four records of four floats (`r[j]` is record j) as four vectors of one field each, lane
/// j record j's: the 4×4 transpose, in SSE's or wasm SIMD's shuffles where glam's `Vec4` is
/// one register of them (eight shuffles, where gathering the sixteen floats one by one is
/// sixteen loads and twelve shuffles). Moves bits only.
#[inline(always)]
pub(super) fn transpose(r: [Vec4; 4]) -> [Vec4; 4] {
    #[cfg(all(any(target_arch = "x86", target_arch = "x86_64"), target_feature = "sse2"))]
    {
        #[cfg(target_arch = "x86")]
        use core::arch::x86::{__m128, _mm_movehl_ps, _mm_movelh_ps, _mm_unpackhi_ps, _mm_unpacklo_ps};
        #[cfg(target_arch = "x86_64")]
        use core::arch::x86_64::{__m128, _mm_movehl_ps, _mm_movelh_ps, _mm_unpackhi_ps, _mm_unpacklo_ps};
        let [a, b, c, d] = r.map(__m128::from);
        // (a0 b0 a1 b1), (c0 d0 c1 d1), (a2 b2 a3 b3), (c2 d2 c3 d3), then their halves.
        // SAFETY: SSE is enabled at compile time (the `cfg` above: SSE2 implies it); the
        // shuffles read and write registers only.
        let t = unsafe {
            let (lo_ab, lo_cd) = (_mm_unpacklo_ps(a, b), _mm_unpacklo_ps(c, d));
            let (hi_ab, hi_cd) = (_mm_unpackhi_ps(a, b), _mm_unpackhi_ps(c, d));
            [
                _mm_movelh_ps(lo_ab, lo_cd),
                _mm_movehl_ps(lo_cd, lo_ab),
                _mm_movelh_ps(hi_ab, hi_cd),
                _mm_movehl_ps(hi_cd, hi_ab),
            ]
        };
        t.map(Vec4::from)
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        use core::arch::wasm32::{i32x4_shuffle, i64x2_shuffle, v128};
        let [a, b, c, d] = r.map(v128::from);
        let (lo_ab, lo_cd) = (i32x4_shuffle::<0, 4, 1, 5>(a, b), i32x4_shuffle::<0, 4, 1, 5>(c, d));
        let (hi_ab, hi_cd) = (i32x4_shuffle::<2, 6, 3, 7>(a, b), i32x4_shuffle::<2, 6, 3, 7>(c, d));
        [
            i64x2_shuffle::<0, 2>(lo_ab, lo_cd),
            i64x2_shuffle::<1, 3>(lo_ab, lo_cd),
            i64x2_shuffle::<0, 2>(hi_ab, hi_cd),
            i64x2_shuffle::<1, 3>(hi_ab, hi_cd),
        ]
        .map(Vec4::from)
    }
    #[cfg(not(any(
        all(any(target_arch = "x86", target_arch = "x86_64"), target_feature = "sse2"),
        all(target_arch = "wasm32", target_feature = "simd128")
    )))]
    {
        let m = r.map(Vec4::to_array);
        core::array::from_fn(|i| Vec4::new(m[0][i], m[1][i], m[2][i], m[3][i]))
    }
}

/// `x`, or `lo` where x < lo: `f32::clamp`'s lower half, so the same bits on every
/// platform (the min/max instructions of SSE, wasm and wasm SIMD disagree on ±0 and NaN).
#[inline(always)]
pub(super) fn at_least<L: Lane>(x: L, lo: L) -> L {
    L::select(x.lt(lo), lo, x)
}

/// `x`, or `hi` where x > hi.
#[inline(always)]
pub(super) fn at_most<L: Lane>(x: L, hi: L) -> L {
    L::select(x.gt(hi), hi, x)
}

/// An in-plane vector of lanes.
#[derive(Clone, Copy, Debug, Default)]
pub struct V2<L> {
    pub x: L,
    pub y: L,
}

impl<L: Lane> V2<L> {
    #[inline(always)]
    pub fn new(x: L, y: L) -> V2<L> {
        V2 { x, y }
    }
    #[inline(always)]
    pub(super) fn dot(self, o: V2<L>) -> L {
        self.x * o.x + self.y * o.y
    }
    #[inline(always)]
    pub(super) fn sub(self, o: V2<L>) -> V2<L> {
        V2::new(self.x - o.x, self.y - o.y)
    }
    #[inline(always)]
    pub(super) fn add(self, o: V2<L>) -> V2<L> {
        V2::new(self.x + o.x, self.y + o.y)
    }
    #[inline(always)]
    pub(super) fn scale(self, k: L) -> V2<L> {
        V2::new(self.x * k, self.y * k)
    }
}

/// A body's in-plane motion since the manifold was made: Δx, and the in-plane block of its
/// rotation since ([cos, −sin; sin, cos] for a turn about ẑ), as two records of four floats
/// that four bodies' are transposed from into lanes ([`transpose`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Motion2 {
    /// Δx, then the block's first column.
    head: Vec4,
    /// The block's second column, then two zeros.
    tail: Vec4,
}

impl Motion2 {
    /// From Δx and the rotation block's columns `r`.
    #[inline(always)]
    pub fn from_parts(dx: Vec2, r: [Vec2; 2]) -> Motion2 {
        Motion2 { head: Vec4::new(dx.x, dx.y, r[0].x, r[0].y), tail: Vec4::new(r[1].x, r[1].y, 0.0, 0.0) }
    }

    /// From the pose at the manifold's time (`x0`, `q0`) and now.
    #[inline]
    pub fn new(x0: Vec3, q0: Quat, x: Vec3, q: Quat) -> Motion2 {
        let d = q * q0.inverse();
        let (x2, y2, z2) = (d.x * d.x, d.y * d.y, d.z * d.z);
        let (xy, wz) = (d.x * d.y, d.w * d.z);
        Motion2::from_parts(
            Vec2::new(x.x - x0.x, x.y - x0.y),
            // Columns of the rotation matrix's xy block.
            [Vec2::new(1.0 - 2.0 * (y2 + z2), 2.0 * (xy + wz)), Vec2::new(2.0 * (xy - wz), 1.0 - 2.0 * (x2 + z2))],
        )
    }

    /// [`Motion2::new`] of four bodies, lane by lane: the quaternions transposed into lanes
    /// and the same arithmetic on the same values, so every bit is the same where glam's
    /// `Quat` is SIMD (the crate's targets: x86-64's SSE2, wasm's simd128; glam's scalar
    /// fallback sums left to right, and the test below would fail there). `q · q0⁻¹` is
    /// summed as glam's SIMD product sums it (SSE2 and wasm alike): (q_x·p_w + q_w·p_x) +
    /// (−q_z·p_y + q_y·p_z) for x, and so on, p = q0⁻¹ its conjugate (their products by ±1,
    /// exact, as its sign masks are; with FMA the same, as a sum with an exact product is
    /// rounded once either way). (One body at a time, through glam's shuffles, this was
    /// about 4 % of W7's step: five passes over every body a step.)
    #[inline(always)]
    pub fn new4(x0: [Vec3; 4], q0: [Quat; 4], x: [Vec3; 4], q: [Quat; 4]) -> [Motion2; 4] {
        let [qx, qy, qz, qw] = transpose(q.map(Vec4::from));
        let [ax, ay, az, aw] = transpose(q0.map(Vec4::from));
        let (px, py, pz, pw) = (-ax, -ay, -az, aw);
        let dx = (qx * pw + qw * px) + (-(qz * py) + qy * pz);
        let dy = (-(qx * pz) + qw * py) + (qz * px + qy * pw);
        let dz = (qx * py + qw * pz) + (qz * pw + -(qy * px));
        let dw = (-(qx * px) + qw * pw) + (-(qz * pz) + -(qy * py));
        let (x2, y2, z2) = (dx * dx, dy * dy, dz * dz);
        let (xy, wz) = (dx * dy, dw * dz);
        let (one, two) = (Vec4::ONE, Vec4::splat(2.0));
        let (c0x, c0y) = (one - two * (y2 + z2), two * (xy + wz));
        let (c1x, c1y) = (two * (xy - wz), one - two * (x2 + z2));
        let lanes = |f: &dyn Fn(usize) -> f32| Vec4::new(f(0), f(1), f(2), f(3));
        let (mx, my) = (lanes(&|j| x[j].x - x0[j].x), lanes(&|j| x[j].y - x0[j].y));
        let head = transpose([mx, my, c0x, c0y]);
        let tail = transpose([c1x, c1y, Vec4::ZERO, Vec4::ZERO]);
        core::array::from_fn(|j| Motion2 { head: head[j], tail: tail[j] })
    }
}

/// [`Motion2`] in lanes.
#[derive(Clone, Copy, Debug)]
pub struct Motion<L> {
    pub dx: V2<L>,
    pub r: [V2<L>; 2],
}

impl<L: Lane> Motion<L> {
    #[inline(always)]
    pub(super) fn rotate(&self, v: V2<L>) -> V2<L> {
        self.r[0].scale(v.x).add(self.r[1].scale(v.y))
    }
}

/// The in-plane velocities of a contact's two bodies (or four contacts'), held in registers
/// while it is solved (by [`Contact2`] and by `Patch::solve_planar`, the 2D patches without
/// a hot copy).
#[derive(Clone, Copy)]
pub struct Vel<L> {
    pub(super) va: V2<L>,
    pub(super) wa: L,
    pub(super) vb: V2<L>,
    pub(super) wb: L,
}

/// One contact's.
pub type Vel2 = Vel<f32>;

impl<L: Lane> Vel<L> {
    /// Ċ of a 2D row along in-plane axis `t` with angular parts `ja`, `jb` (along ẑ).
    #[inline(always)]
    pub(super) fn cdot(&self, t: V2<L>, ja: L, jb: L) -> L {
        t.x * (self.vb.x - self.va.x) + t.y * (self.vb.y - self.va.y) + ja * self.wa + jb * self.wb
    }

    /// Impulse `d` along `t`, for inverse masses `wa`, `wb` and (I⁻¹)_zz times the row's
    /// angular parts `ia`, `ib`.
    #[inline(always)]
    pub(super) fn apply(&mut self, t: V2<L>, wa: L, wb: L, ia: L, ib: L, d: L) {
        self.va = self.va.sub(t.scale(wa * d));
        self.wa += ia * d;
        self.vb = self.vb.add(t.scale(wb * d));
        self.wb += ib * d;
    }
}

impl Vel2 {
    #[inline(always)]
    pub(super) fn load(sb: &SolverBodies, a: u32, b: u32) -> Vel2 {
        <f32 as Lane>::load(sb, a, b)
    }

    #[inline(always)]
    pub(super) fn store(self, sb: &mut SolverBodies, a: u32, b: u32) {
        <f32 as Lane>::store(self, sb, a, b, 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Four bodies' motions at once are each body's alone, every bit: random poses, turned
    /// about every axis (the product's every term), near the start and far from it.
    #[test]
    fn four_motions_at_once_are_each_alone_bit_for_bit() {
        let mut rng = crate::leash::Rng::new(11);
        let mut f = |lo: f32, hi: f32| rng.range(lo, hi);
        for draw in 0..2_000 {
            let mut pose = |small: bool| {
                let axis = Vec3::new(f(-1.0, 1.0), f(-1.0, 1.0), f(-1.0, 1.0)).normalize_or(Vec3::Z);
                let angle = if small { f(-1e-3, 1e-3) } else { f(-7.0, 7.0) };
                (Vec3::new(f(-50.0, 50.0), f(-50.0, 50.0), f(-1.0, 1.0)), Quat::from_axis_angle(axis, angle))
            };
            let starts: [(Vec3, Quat); 4] = core::array::from_fn(|_| pose(false));
            let nows: [(Vec3, Quat); 4] = core::array::from_fn(|j| {
                let (dx, dq) = pose(draw % 2 == 0);
                (starts[j].0 + dx * 0.01, (dq * starts[j].1).normalize())
            });
            let four = Motion2::new4(starts.map(|s| s.0), starts.map(|s| s.1), nows.map(|s| s.0), nows.map(|s| s.1));
            for j in 0..4 {
                let one = Motion2::new(starts[j].0, starts[j].1, nows[j].0, nows[j].1);
                let bits = |m: &Motion2| [m.head.to_array(), m.tail.to_array()].map(|a| a.map(f32::to_bits));
                assert_eq!(bits(&four[j]), bits(&one), "draw {draw}, body {j}");
            }
        }
    }

    /// Record j's field i lands in vector i's lane j, every bit (NaNs, −0 and subnormals too).
    #[test]
    fn transpose_moves_record_fields_into_lanes_bit_for_bit() {
        let odd = [f32::NAN, -0.0, f32::MIN_POSITIVE / 2.0, f32::INFINITY];
        let rec: [[f32; 4]; 4] =
            core::array::from_fn(|j| core::array::from_fn(|i| if i == j { odd[i] } else { (10 * j + i) as f32 + 0.5 }));
        let t = transpose(rec.map(Vec4::from_array));
        for (i, v) in t.iter().enumerate() {
            for (j, r) in rec.iter().enumerate() {
                assert_eq!(v.to_array()[j].to_bits(), r[i].to_bits(), "field {i} of record {j}");
            }
        }
    }
}
