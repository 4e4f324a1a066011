//! Round–box contacts: sphere–box and capsule–box (A = the round shape, B = the box; a
//! sphere is a capsule with a zero-length core).
//!
//! Everything is done in the box's frame, where the box is [−h, h]. Let the capsule's core
//! be the segment p(t) = p₀ + t d, t ∈ [0, 1], with radius r.
//!
//! **Core outside the box** (slab test finds no t with p(t) in the box). The closest pair
//! (p on the core, q on the box) has p at a core end or in its interior; in the interior
//! q lies on a box edge or vertex (if q were inside a face the core would be parallel to the
//! face and an end would do as well). So the exact distance is the least of: each end
//! against the box (a clamp), and the core against each of the 12 edges (segment–segment).
//! Then n = (q − p)/|q − p| (A to B) and the separation is |q − p| − r.
//!
//! **Core inside the box** (it crosses the box). The core's penetration is the depth of the
//! origin in the Minkowski difference box ⊖ core, whose facet normals are the 3 box face
//! normals and the 3 axes d × e_k, so a separating-axis search over those 6 axes (both
//! directions each) gives the exact depth: along a unit axis L with box radius
//! R = Σ |L_i| h_i, moving the core to +L needs R − min(L·p₀, L·p₁). Face axes win ties (a
//! 1e-5 m bias) so a capsule lying in a face stays on the face.
//!
//! **Points.** With a box face the reference (the closest feature is in a face's region,
//! |n·e_k| > 1 − 1e-6, and the core within [`FACE_PARALLEL_SIN`] of parallel to the face, or the
//! face axis won the SAT), the core is clipped to the face's rectangle (its two other
//! coordinates within ±h), and each end t of the clipped interval is a point with
//! separation (outward normal m = ±e_k) s = m·p(t) − h_k − r: a capsule lying on a face gets
//! two points and does not rock. Otherwise one point at the closest pair (or, for an edge
//! axis, the closest points of the core and the box edge supporting that axis). Every point
//! sits midway between the surfaces: p − m (r + s/2).
//!
//! Feature ids: `0x0200_00ff` single closest-feature point; `0x0200_0000 | f << 4 | e` for
//! face `f` (0..6 = +x, −x, +y, −y, +z, −z) and clipped end `e` (1 = low t, 2 = high t);
//! `0x0200_0080 | k` for an edge-axis point (box axis k).

use glam::Vec3;

use super::{closest_segments, Manifold, Pose};

/// Sine of the largest angle between a capsule and a box face for a two-point face contact
/// from the separated side (≈ 1.1°).
pub const FACE_PARALLEL_SIN: f32 = 0.02;

const BOX_ROUND_TAG: u32 = 0x0200_0000;
/// Bias (m) an edge axis must beat a face axis by to be chosen.
const EDGE_MARGIN: f32 = 1e-5;

/// Round shape (core `p0`–`p1` in world, radius `r`) against a box at `pose` with half
/// extents `half`; normal from the round shape to the box.
pub fn collide_round_box(p0: Vec3, p1: Vec3, r: f32, pose: &Pose, half: Vec3, speculative: f32) -> Manifold {
    let mut m = collide_local(pose.apply_inv(p0), pose.apply_inv(p1), r, half, speculative);
    m.normal = pose.rot * m.normal;
    for p in &mut m.points[..m.count] {
        p.point = pose.apply(p.point);
    }
    m
}

/// Whether the segment p₀ + t d, t ∈ [0, 1] meets the box [−h, h] (slab test).
fn segment_hits_box(p0: Vec3, d: Vec3, h: Vec3) -> bool {
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    for i in 0..3 {
        if d[i].abs() < 1e-12 {
            if p0[i].abs() > h[i] {
                return false;
            }
        } else {
            let inv = 1.0 / d[i];
            let a = (-h[i] - p0[i]) * inv;
            let b = (h[i] - p0[i]) * inv;
            t0 = t0.max(a.min(b));
            t1 = t1.min(a.max(b));
            if t0 > t1 {
                return false;
            }
        }
    }
    true
}

/// The 12 edges of the box [−h, h]: edge `k*4 + s` runs along axis k, at the signs of the
/// other two axes given by bits 0 and 1 of s (set = +).
pub(crate) fn box_edge(h: Vec3, k: usize, s: usize) -> (Vec3, Vec3) {
    let (i, j) = ((k + 1) % 3, (k + 2) % 3);
    let mut c = Vec3::ZERO;
    c[i] = if s & 1 != 0 { h[i] } else { -h[i] };
    c[j] = if s & 2 != 0 { h[j] } else { -h[j] };
    let mut e = Vec3::ZERO;
    e[k] = h[k];
    (c - e, c + e)
}

/// Closest pair of a segment `p0`–`p1` that does not meet the box [−h, h] and the box:
/// (squared distance, point on the segment, point on the box). Exact: the ends against the
/// box (a clamp) and the segment against the 12 edges cover every closest pair.
pub(crate) fn segment_box_closest(p0: Vec3, p1: Vec3, h: Vec3) -> (f32, Vec3, Vec3) {
    let (mut best, mut bp, mut bq) = (f32::MAX, p0, p0);
    let mut regions = [0u8; 2];
    for (r, p) in regions.iter_mut().zip([p0, p1]) {
        let q = p.clamp(-h, h);
        let l2 = (q - p).length_squared();
        if l2 < best {
            (best, bp, bq) = (l2, p, q);
        }
        // Which of the box's outside regions holds the end (one bit per clamped axis/side).
        for k in 0..3 {
            if p[k] > h[k] {
                *r |= 1 << (2 * k);
            } else if p[k] < -h[k] {
                *r |= 2 << (2 * k);
            }
        }
    }
    // Both ends over the same face (one clamped coordinate, the same): the segment lies in
    // that face's slab above it, its distance is linear along it, and an end is nearest.
    if regions[0] == regions[1] && regions[0].count_ones() == 1 {
        return (best, bp, bq);
    }
    if (p1 - p0).length_squared() > 1e-14 {
        for k in 0..3 {
            for s in 0..4 {
                let (a, b) = box_edge(h, k, s);
                let (_, _, c1, c2) = closest_segments(p0, p1, a, b);
                let l2 = (c2 - c1).length_squared();
                if l2 < best {
                    (best, bp, bq) = (l2, c1, c2);
                }
            }
        }
    }
    (best, bp, bq)
}

/// Face index of outward normal `sign · e_k`.
#[inline]
pub(crate) fn face_index(k: usize, positive: bool) -> u32 {
    (2 * k + usize::from(!positive)) as u32
}

/// Face contact on box face (axis k, outward sign): clips the core to the face's rectangle
/// and adds the ends whose separation is below `speculative`. Returns false when the clip
/// is empty.
#[allow(clippy::too_many_arguments)]
fn face_points(
    p0: Vec3,
    d: Vec3,
    r: f32,
    h: Vec3,
    k: usize,
    positive: bool,
    speculative: f32,
    m: &mut Manifold,
) -> bool {
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    for a in [(k + 1) % 3, (k + 2) % 3] {
        if d[a].abs() < 1e-12 {
            if p0[a].abs() > h[a] {
                return false;
            }
        } else {
            let inv = 1.0 / d[a];
            let x = (-h[a] - p0[a]) * inv;
            let y = (h[a] - p0[a]) * inv;
            t0 = t0.max(x.min(y));
            t1 = t1.min(x.max(y));
        }
    }
    if t0 > t1 {
        return false;
    }
    let sign = if positive { 1.0 } else { -1.0 };
    let mut mo = Vec3::ZERO;
    mo[k] = sign;
    let face = face_index(k, positive);
    m.normal = -mo;
    // One end when the clipped piece is a point (a sphere, or a core touching a face corner).
    let ends: &[(f32, u32)] = if (t1 - t0) * d.length() > 1e-6 { &[(t0, 1), (t1, 2)] } else { &[(t0, 1)] };
    for &(t, e) in ends {
        let p = p0 + d * t;
        let s = sign * p[k] - h[k] - r;
        if s < speculative {
            m.push(p - mo * (r + 0.5 * s), s, BOX_ROUND_TAG | face << 4 | e);
        }
    }
    true
}

/// The whole routine in the box frame.
fn collide_local(p0: Vec3, p1: Vec3, r: f32, h: Vec3, speculative: f32) -> Manifold {
    let mut m = Manifold::EMPTY;
    let d = p1 - p0;
    let len2 = d.length_squared();
    if !segment_hits_box(p0, d, h) {
        let (best, bp, bq) = segment_box_closest(p0, p1, h);
        let dist = best.sqrt();
        if dist > 1e-9 {
            let sep = dist - r;
            if sep >= speculative {
                return m;
            }
            let n = (bq - bp) / dist;
            // A core lying on a face: two points from the clipped core.
            let k = n.abs().max_position();
            if len2 > 1e-14 && n[k].abs() > 1.0 - 1e-6 && d[k].abs() < FACE_PARALLEL_SIN * len2.sqrt() {
                let mut fm = Manifold::EMPTY;
                if face_points(p0, d, r, h, k, n[k] < 0.0, speculative, &mut fm) && fm.count > 0 {
                    return fm;
                }
            }
            m.normal = n;
            m.push(bp + n * (r + 0.5 * sep), sep, BOX_ROUND_TAG | 0xff);
            return m;
        }
        // Touching within 1e-9 m: the SAT below finds the face.
    }

    // Core meets the box: least-penetration axis among 3 faces and 3 core × edge axes.
    let (mut face_sep, mut face_k, mut face_pos) = (f32::MIN, 0usize, true);
    for k in 0..3 {
        let lo = p0[k].min(p1[k]);
        let hi = p0[k].max(p1[k]);
        let (plus, minus) = (lo - h[k], -h[k] - hi);
        let (s, pos) = if plus >= minus { (plus, true) } else { (minus, false) };
        if s > face_sep {
            (face_sep, face_k, face_pos) = (s, k, pos);
        }
    }
    let (mut edge_sep, mut edge_k, mut edge_axis) = (f32::MIN, 0usize, Vec3::ZERO);
    if len2 > 1e-14 {
        for k in 0..3 {
            let mut e = Vec3::ZERO;
            e[k] = 1.0;
            let l = d.cross(e);
            if l.length_squared() < 1e-8 * len2 {
                continue;
            }
            let l = l.normalize();
            let rad = l.abs().dot(h);
            let c = l.dot(p0);
            let (plus, minus) = (c - rad, -rad - c);
            let (s, o) = if plus >= minus { (plus, l) } else { (minus, -l) };
            if s > edge_sep {
                (edge_sep, edge_k, edge_axis) = (s, k, o);
            }
        }
    }
    if edge_sep > face_sep + EDGE_MARGIN {
        let sep = edge_sep - r;
        if sep >= speculative {
            return m;
        }
        // The box edge along axis k supporting the outward direction.
        let o = edge_axis;
        let mut c = Vec3::new(h.x.copysign(o.x), h.y.copysign(o.y), h.z.copysign(o.z));
        c[edge_k] = 0.0;
        let mut e = Vec3::ZERO;
        e[edge_k] = h[edge_k];
        let (_, _, cp, _) = closest_segments(p0, p1, c - e, c + e);
        m.normal = -o;
        m.push(cp - o * (r + 0.5 * sep), sep, BOX_ROUND_TAG | 0x80 | edge_k as u32);
        return m;
    }
    if face_sep - r >= speculative {
        return m;
    }
    face_points(p0, d, r, h, face_k, face_pos, speculative, &mut m);
    m
}
