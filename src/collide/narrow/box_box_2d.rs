//! Box–box contacts in the plane z = 0, for a 2D contact (two planar bodies, or a planar
//! body and an immovable one: `contacts`): both boxes have their local z axis along the
//! world's (the 2D lock holds a planar body so), so each one's section by the plane is the
//! rectangle of its x and y half extents, and the 2D contact the manifold is projected to
//! is the rectangles' contact — Box2D's `b2CollidePolygons` for two boxes: the separating
//! axis test on the four face normals, then the incident edge clipped to the reference
//! face's two side lines. The 3D test ([`super::box_box`]) finds the same reference face
//! (the edge axes a_x × b_z are the face axes again, and the z faces do not win while the
//! boxes overlap in the plane by less than their z half extents together), the same
//! clipped points twice over (at either z face, merged by the projection) and the same
//! separations (`tests/narrow_phase_2d.rs`: within 1e-6 m over 3,000 random pairs), at 4
//! axes and a segment clip instead of 15 axes and a quad clip (in W6 the 3D narrow phase
//! was a fifth of the step). Deeper than that, the 3D test's normal is ±z, which the
//! projection could not use (the pair was dropped); the 2D one keeps its in-plane normal.
//!
//! When the boxes are apart and the clip does not reach the face axis's separation (a
//! corner passing a corner: the closest pair lies outside the reference face), the contact
//! is the closest pair ([`closest`]), as `box_box::closest_contact` finds it in 3D: one
//! point, its normal along the pair. Not used (`None`: the caller takes the 3D test) when a
//! box is tilted out of the plane by more than [`MAX_TILT`] or does not cut the plane.
//!
//! **Feature ids** (their own family, `0x0500_0000 |`): `flip << 20 | f_ref << 16 | c`,
//! with f_ref = 2k + (0 for +, 1 for −) the reference face on local axis k as in 3D, flip = 1
//! when B holds it, and c = `0x80 | k << 2 | s` an incident corner (k the incident face's
//! axis, s its side bits) or `0x40 | side` a point cut by the reference face's side line
//! `side` (0: +, 1: −); the closest pair's `1 << 21 | which << 2 | v`, corner v (its side
//! bits along x and y) of B (which = 0) or of A (1).

use glam::{Mat3, Vec2, Vec3};

use super::box_box::FACE_BIAS;
use super::{Manifold, ManifoldPoint, Pose};

/// Largest |x|, |y| of a box's z axis (a tilt of about 1e-4 rad) for its section to be
/// taken as its x–y rectangle (the section's error is then under 1e-4 of the z half
/// extent; the 2D lock keeps a planar body's tilt at rounding).
pub const MAX_TILT: f32 = 1e-4;

const TAG_2D: u32 = 0x0500_0000;

/// A box's section by z = 0: centre, in-plane axes, half extents.
#[derive(Clone, Copy, Debug, Default)]
pub struct Rect {
    c: Vec2,
    axes: [Vec2; 2],
    half: [f32; 2],
}

impl Rect {
    /// Box `half` at `p` cut by z = 0, or `None` when its section is not its x–y rectangle
    /// (tilted by more than [`MAX_TILT`], or not cutting the plane).
    pub fn new(p: &Pose, half: Vec3) -> Option<Rect> {
        Rect::from_matrix(&Mat3::from_quat(p.rot), p.pos, half)
    }

    /// [`Rect::new`] of the box turned by the rotation `m` (`Mat3::from_quat` of its
    /// orientation), centred at `pos`.
    #[inline(always)]
    pub fn from_matrix(m: &Mat3, pos: Vec3, half: Vec3) -> Option<Rect> {
        if m.z_axis.x.abs() > MAX_TILT || m.z_axis.y.abs() > MAX_TILT || pos.z.abs() >= half.z {
            return None;
        }
        Some(Rect { c: pos.truncate(), axes: [m.x_axis.truncate(), m.y_axis.truncate()], half: [half.x, half.y] })
    }

    /// Its centre (the box's x and y).
    #[inline(always)]
    pub fn centre(&self) -> Vec2 {
        self.c
    }

    /// Its in-plane axes (x, y of the box): an orthonormal frame of the plane, mirrored
    /// when the box is turned half a turn about an in-plane axis.
    #[inline(always)]
    pub fn axes(&self) -> [Vec2; 2] {
        self.axes
    }

    /// Largest separation over this rectangle's two face axes from `o` (toward `d` = o − self),
    /// and that axis.
    #[inline]
    fn sat(&self, o: &Rect, d: Vec2) -> (f32, usize) {
        let mut best = (f32::MIN, 0);
        for i in 0..2 {
            let l = self.axes[i];
            let r = l.dot(o.axes[0]).abs() * o.half[0] + l.dot(o.axes[1]).abs() * o.half[1];
            let s = d.dot(l).abs() - self.half[i] - r;
            if s > best.0 {
                best = (s, i);
            }
        }
        best
    }
}

/// The 2D manifold of boxes `ha` at `pa` and `hb` at `pb` (normal from A to B, points at
/// z = 0 within `speculative`), or `None` where the 3D test must decide (a box tilted or off
/// the plane: see the module docs). An empty manifold: apart by more than `speculative`.
pub fn collide(pa: &Pose, ha: Vec3, pb: &Pose, hb: Vec3, speculative: f32) -> Option<Manifold> {
    Some(collide_rects(&Rect::new(pa, ha)?, pa.pos, ha, &Rect::new(pb, hb)?, pb.pos, hb, speculative))
}

/// [`collide`] for the boxes' sections made beforehand ([`Rect::new`] of the poses at
/// `xa`, `xb`, half extents `ha`, `hb`): the contacts stage makes each body's once per step,
/// not once per pair.
pub fn collide_rects(a: &Rect, xa: Vec3, ha: Vec3, b: &Rect, xb: Vec3, hb: Vec3, speculative: f32) -> Manifold {
    let c = collide_rects_2d(a, ha, b, hb, speculative);
    let mut man = Manifold::EMPTY;
    if c.normal != Vec2::ZERO {
        // (Not apart by the separating axes: the clip's normal, as the 3D test gives it.)
        man.normal = c.normal.extend(0.0);
    }
    for (dst, &(q, s, id)) in man.points.iter_mut().zip(&c.points[..c.count]) {
        *dst = ManifoldPoint { point: q.extend(0.0), separation: s, id, ..Default::default() };
    }
    man.count = c.count;
    man.set_anchors(xa, xb);
    man
}

/// The 2D manifold as [`collide_rects_2d`] gives it: the in-plane normal (from A to B) and
/// at most two points (position in the plane, separation, feature id).
#[derive(Clone, Copy, Debug)]
pub struct Contact2d {
    pub normal: Vec2,
    pub count: usize,
    pub points: [(Vec2, f32, u32); 2],
}

impl Contact2d {
    /// No contact.
    pub const EMPTY: Contact2d = Contact2d { normal: Vec2::ZERO, count: 0, points: [(Vec2::ZERO, 0.0, 0); 2] };
}

/// [`collide_rects`] without the 3D manifold around it (the contacts stage's 2D patches
/// take the points as they are): `count` 0 when apart by more than `speculative`.
///
/// Always inlined: called out of line, its result went back through memory — each point
/// written a field at a time, then read back by the caller sixteen bytes at once, a
/// store-forwarding stall per point — and the call took a fifth of W6's step by `perf`
/// (10 % of its time, same instructions, measured in one run alternating both builds).
#[inline(always)]
pub fn collide_rects_2d(a: &Rect, ha: Vec3, b: &Rect, hb: Vec3, speculative: f32) -> Contact2d {
    match clip(a, ha, b, hb, speculative) {
        Ok(c) => finish(a, b, &c, speculative),
        Err(out) => out,
    }
}

/// The separating axis test's choice and the clipped incident edge: everything the
/// manifold is made from ([`finish`]).
#[derive(Clone, Copy, Debug)]
struct Clipped {
    /// B holds the reference face, on its local axis `k`, outward normal `sign`·axis.
    flip: bool,
    k: usize,
    sign: f32,
    /// The separation along that face's normal (positive: apart).
    face_sep: f32,
    /// The larger of the two boxes' face-axis separations: a lower bound on the gap, so the
    /// boxes are apart when it is positive (`box_box::collide`'s `face_sep.max(sep_e)`: for
    /// boxes turned about z the edge axes are the face axes).
    gap: f32,
    /// The incident edge's two ends after the clip, with their point ids.
    pts: [(Vec2, u32); 2],
}

/// The separating axis test and the clip (`Err`: the contact made without a clip: apart by
/// more than `speculative`, or the closest pair, which is empty for boxes that touch).
#[inline(always)]
fn clip(a: &Rect, ha: Vec3, b: &Rect, hb: Vec3, speculative: f32) -> Result<Clipped, Contact2d> {
    let d = b.c - a.c;
    let (sep_a, ia) = a.sat(b, d);
    let (sep_b, jb) = b.sat(a, d);
    if sep_a > speculative || sep_b > speculative {
        return Err(Contact2d::EMPTY);
    }
    let scale = ha.min_element().min(hb.min_element());
    let flip = sep_b > sep_a + FACE_BIAS * scale;
    // Reference rectangle r (face axis k, outward normal n toward the other), incident i.
    let (r, k, face_sep, i, sign) = if flip {
        // B's face toward A.
        (b, jb, sep_b, a, if d.dot(b.axes[jb]) > 0.0 { -1.0 } else { 1.0 })
    } else {
        (a, ia, sep_a, b, if d.dot(a.axes[ia]) < 0.0 { -1.0 } else { 1.0 })
    };
    let n = r.axes[k] * sign;
    // Incident face: the one of i most anti-parallel to n; its edge's two corners.
    let dots = [n.dot(i.axes[0]), n.dot(i.axes[1])];
    let m = if dots[0].abs() >= dots[1].abs() { 0 } else { 1 };
    let fs = if dots[m] > 0.0 { -1.0 } else { 1.0 };
    let o = 1 - m;
    let mid = i.c + i.axes[m] * (fs * i.half[m]);
    let side_bits = |s: f32| -> u32 { (m as u32) << 2 | ((fs < 0.0) as u32) << 1 | (s < 0.0) as u32 };
    let mut pts =
        [(mid + i.axes[o] * i.half[o], 0x80 | side_bits(1.0)), (mid - i.axes[o] * i.half[o], 0x80 | side_bits(-1.0))];
    // Clip to the reference face's side lines |(p − c)·t| ≤ h_t.
    let t = r.axes[1 - k];
    let ht = r.half[1 - k];
    let face_c = r.c + n * r.half[k];
    for (side, s) in [(0u32, 1.0f32), (1, -1.0)] {
        let u = t * s;
        let d0 = (pts[0].0 - face_c).dot(u) - ht;
        let d1 = (pts[1].0 - face_c).dot(u) - ht;
        if d0 > 0.0 && d1 > 0.0 {
            // Nothing left (boxes apart, a corner past a corner): the closest pair.
            // (Not apart, the pair is within a nanometre, and `closest` has nothing either.)
            return Err(closest(a, b, speculative));
        }
        if d0 > 0.0 || d1 > 0.0 {
            let cut = pts[0].0 + (pts[1].0 - pts[0].0) * (d0 / (d0 - d1));
            let out = if d0 > 0.0 { 0 } else { 1 };
            pts[out] = (cut, 0x40 | side);
        }
    }
    Ok(Clipped { flip, k, sign, face_sep, gap: sep_a.max(sep_b), pts })
}

/// The manifold from the clipped edge: each end within `speculative` of the reference face
/// is a point, halfway between the faces.
#[inline(always)]
fn finish(a: &Rect, b: &Rect, c: &Clipped, speculative: f32) -> Contact2d {
    let mut man = Contact2d::EMPTY;
    let (r, k, sign) = (if c.flip { b } else { a }, c.k, c.sign);
    let n = r.axes[k] * sign;
    let f_ref = 2 * k as u32 + (sign < 0.0) as u32;
    let face_c = r.c + n * r.half[k];
    man.normal = if c.flip { -n } else { n };
    let tag = TAG_2D | (c.flip as u32) << 20 | f_ref << 16;
    // Both ends, then the ones within `speculative` first (without a store at a moving
    // index: the caller read such points back whole, stalling on the stores).
    let point = |(p, id): (Vec2, u32)| {
        let s = (p - face_c).dot(n);
        (p - n * (0.5 * s), s, tag | id)
    };
    let (p0, p1) = (point(c.pts[0]), point(c.pts[1]));
    let (in0, in1) = (p0.1 < speculative, p1.1 < speculative);
    man.points = [if in0 { p0 } else { p1 }, p1];
    man.count = in0 as usize + in1 as usize;
    let apart = c.gap > APART;
    let min_separation = man.points[..man.count].iter().map(|p| p.1).reduce(f32::min);
    if apart && (man.count == 0 || min_separation.is_some_and(|s| s > c.face_sep + APART)) {
        // Apart, and the clip holds no point within the margin or cut away the incident
        // box's nearest corner: the face axis's separation (a lower bound on the gap) is not
        // reached in the face's strip, so the closest pair may lie outside it. It is taken
        // when the clip has nothing or it is nearer than the clip says (`box_box::collide`'s
        // rule).
        let near = closest(a, b, speculative);
        if man.count == 0 || (near.count > 0 && min_separation.is_some_and(|s| near.points[0].1 < s - APART)) {
            return near;
        }
    }
    man
}

/// A separation above which boxes are apart (the closest pair then has a direction), and the
/// least by which the closest pair must beat the clip (m).
const APART: f32 = 1e-6;

/// The closest pair of two rectangles that do not overlap, as one point halfway between, its
/// separation the distance and its normal along the pair (A to B); empty when that distance
/// is not below `speculative` (or is under a nanometre: no direction). Two convex polygons
/// apart are nearest at a corner of one (clamped into the other's rectangle in its frame),
/// so the least of the eight clamps is the distance — `box_box::closest_contact`'s vertex
/// clamps in the plane, where its edge pairs along ẑ are the corners again.
#[inline(never)]
fn closest(a: &Rect, b: &Rect, speculative: f32) -> Contact2d {
    let corner = |r: &Rect, v: usize| {
        let sx = if v & 1 != 0 { r.half[0] } else { -r.half[0] };
        let sy = if v & 2 != 0 { r.half[1] } else { -r.half[1] };
        r.c + r.axes[0] * sx + r.axes[1] * sy
    };
    // The point of `r` nearest to `p`: `p` clamped in its frame.
    let clamp = |r: &Rect, p: Vec2| {
        let d = p - r.c;
        let x = d.dot(r.axes[0]).clamp(-r.half[0], r.half[0]);
        let y = d.dot(r.axes[1]).clamp(-r.half[1], r.half[1]);
        r.c + r.axes[0] * x + r.axes[1] * y
    };
    // Best so far: squared distance, the pair (on A, on B), its id.
    let (mut best, mut qa, mut qb, mut id) = (f32::MAX, Vec2::ZERO, Vec2::ZERO, 0u32);
    for v in 0..4 {
        let p = corner(b, v);
        let q = clamp(a, p);
        let d2 = (p - q).length_squared();
        if d2 < best {
            (best, qa, qb, id) = (d2, q, p, v as u32);
        }
        let p = corner(a, v);
        let q = clamp(b, p);
        let d2 = (p - q).length_squared();
        if d2 < best {
            (best, qa, qb, id) = (d2, p, q, 1 << 2 | v as u32);
        }
    }
    let dist = best.sqrt();
    let mut man = Contact2d::EMPTY;
    if dist < speculative && dist > 1e-9 {
        man.normal = (qb - qa) / dist;
        man.points[0] = (0.5 * (qa + qb), dist, TAG_2D | 1 << 21 | id);
        man.count = 1;
    }
    man
}

/// Largest movement of B's centre relative to A (m, in A's frame) and of B's turn relative
/// to A (the sine of the angle) for a cached 2D box manifold to be remade rather than
/// found again ([`collide_rects_2d_cached`]). A point cut by a side line is then off by up to
/// the shift along its edge, a corner by the turn times its separation. With these limits the
/// slowly slumping large pyramid (W7) finds 6 % of its pairs afresh a step; with 1 mm and
/// 1 mrad it found a third, and its pile settled twice as far (Box2D v3 recycles a contact
/// within 5 cm and about 0.2 rad).
pub const CACHE_SHIFT: f32 = 5e-3;
pub const CACHE_TURN: f32 = 5e-3;

/// What a 2D box–box manifold was made from, kept with the patch so that next step it can
/// be remade — its points moved with the boxes, its separations measured anew — without
/// the separating axis test and the clip, while the boxes have moved by less than
/// [`CACHE_SHIFT`] and [`CACHE_TURN`] relative to each other since it was found (Jolt's body
/// pair cache; PhysX's contact cache). Two boxes at rest on each other then keep their
/// features and their points (each fixed on the incident box: a corner exactly, a point
/// cut by a side line up to the shift); a box that slides or turns finds them again once
/// it has moved that far. (Serialised only in an export's carried state, `scene::state`.)
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RectCache {
    /// Made (a contact that was not apart), or empty.
    valid: bool,
    /// B's centre in A's frame; cos and sin of B's turn relative to A; when found.
    rel: [f32; 4],
    /// The boxes' half extents (x, y of A, then B) when found.
    halves: [f32; 4],
    /// Their frames' handedness in the plane when found ([`RectCache::hands`]).
    hands: [bool; 2],
    flip: bool,
    k: u8,
    sign: f32,
    /// The clipped edge's ends in the incident box's frame, and their point ids.
    pts: [(Vec2, u32); 2],
}

impl RectCache {
    /// Whether it holds a manifold to remake.
    pub fn is_made(&self) -> bool {
        self.valid
    }

    /// B's pose relative to A: its centre in A's frame, and the cos and sin of its turn.
    #[inline(always)]
    fn relative(a: &Rect, b: &Rect) -> [f32; 4] {
        let d = b.c - a.c;
        let (x, y) = (a.axes[0], b.axes[0]);
        [d.dot(a.axes[0]), d.dot(a.axes[1]), x.dot(y), x.perp_dot(y)]
    }

    /// Whether each rectangle's frame is right-handed in the plane (a box turned half a turn
    /// about an in-plane axis has its y axis reversed: the same rectangle, a mirrored frame,
    /// in which the cached points and face would land on the other side).
    #[inline(always)]
    fn hands(a: &Rect, b: &Rect) -> [bool; 2] {
        [a.axes[0].perp_dot(a.axes[1]) > 0.0, b.axes[0].perp_dot(b.axes[1]) > 0.0]
    }

    /// Whether boxes of sections `a` and `b` are still within the limits of the pose it was
    /// made at ([`CACHE_SHIFT`], [`CACHE_TURN`]; the same sizes and frames' handedness).
    #[inline(always)]
    pub fn holds(&self, a: &Rect, b: &Rect) -> bool {
        self.fits(Self::relative(a, b), [a.half[0], a.half[1], b.half[0], b.half[1]], Self::hands(a, b))
    }

    /// Whether the manifold it holds is still good for boxes at `rel` with `halves`.
    #[inline(always)]
    fn fits(&self, rel: [f32; 4], halves: [f32; 4], hands: [bool; 2]) -> bool {
        let (dx, dy) = (rel[0] - self.rel[0], rel[1] - self.rel[1]);
        // sin of the angle between the turn now and the turn then.
        let turn = rel[3] * self.rel[2] - rel[2] * self.rel[3];
        self.valid
            && self.hands == hands
            && self.halves == halves
            && dx * dx + dy * dy < CACHE_SHIFT * CACHE_SHIFT
            && turn.abs() < CACHE_TURN
            && rel[2] * self.rel[2] + rel[3] * self.rel[3] > 0.0
    }
}

/// [`collide_rects_2d`] with a cache: `cache` holds what last step's manifold of the pair
/// was made from (or is empty); if the boxes have moved little enough relative to each
/// other since ([`RectCache`]), the manifold is remade from it and it is left as it is;
/// otherwise the manifold is found as [`collide_rects_2d`] finds it (the same bits) and
/// `cache` then holds what it was made from (empty when the boxes are apart). Also says
/// whether it was remade.
#[inline(always)]
pub fn collide_rects_2d_cached(
    a: &Rect,
    ha: Vec3,
    b: &Rect,
    hb: Vec3,
    speculative: f32,
    cache: &mut RectCache,
) -> (Contact2d, bool) {
    let rel = RectCache::relative(a, b);
    let halves = [ha.x, ha.y, hb.x, hb.y];
    let hands = RectCache::hands(a, b);
    if cache.fits(rel, halves, hands) {
        let i = if cache.flip { a } else { b };
        // (Written out: `array::map` was not inlined and went through memory.)
        let world = |(l, id): (Vec2, u32)| (i.c + i.axes[0] * l.x + i.axes[1] * l.y, id);
        let pts = [world(cache.pts[0]), world(cache.pts[1])];
        // (Only a contact that was not apart is kept: the corner-past-corner check is moot.)
        let c = Clipped { flip: cache.flip, k: cache.k as usize, sign: cache.sign, face_sep: 0.0, gap: 0.0, pts };
        return (finish(a, b, &c, speculative), true);
    }
    let out = match clip(a, ha, b, hb, speculative) {
        Ok(c) => {
            let out = finish(a, b, &c, speculative);
            *cache = RectCache::default();
            if c.gap <= APART && out.count > 0 {
                let i = if c.flip { a } else { b };
                let local = |p: Vec2| Vec2::new((p - i.c).dot(i.axes[0]), (p - i.c).dot(i.axes[1]));
                *cache = RectCache {
                    valid: true,
                    rel,
                    halves,
                    hands,
                    flip: c.flip,
                    k: c.k as u8,
                    sign: c.sign,
                    pts: [(local(c.pts[0].0), c.pts[0].1), (local(c.pts[1].0), c.pts[1].1)],
                };
            }
            out
        }
        Err(out) => {
            *cache = RectCache::default();
            out
        }
    };
    (out, false)
}
