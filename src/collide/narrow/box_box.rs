//! Box–box contacts: separating-axis test and face clipping (the 3D form of Box2D v3's
//! `b2CollidePolygons`, after Gottschalk's OBB test and Gregorius's "The Separating Axis
//! Test between Convex Polyhedra", GDC 2013).
//!
//! **SAT.** With A's axes a_i, B's axes b_j (unit, world), half extents h^A, h^B and
//! t = c_B − c_A, the separation of the two boxes along a unit axis L is
//! |t·L| − Σ_k |L·a_k| h^A_k − Σ_k |L·b_k| h^B_k (the gap between their projections). The
//! candidates are the 3 face normals of A, the 3 of B and the 9 edge directions a_i × b_j
//! (skipped when nearly parallel: that axis is then a face axis already). Any axis with a
//! separation above the speculative margin proves the boxes farther apart than the margin:
//! no contact. Otherwise the axis with the largest separation is the contact normal (for
//! overlapping boxes: the least-penetration axis = the exact penetration depth, since the
//! Minkowski difference of two boxes has exactly these facet normals), with biases for
//! stability: B's face must beat A's by [`FACE_BIAS`]·s and an edge axis the best face by
//! [`EDGE_BIAS`]·s (s = smallest half extent), so a resting pair keeps one reference face
//! and never flickers to an edge axis.
//!
//! **Face contact.** The reference face is the winning face (outward normal n_r, on box R),
//! the incident face the face of the other box I most anti-parallel to n_r. The incident
//! quad is written in the reference face's frame (x, y in its plane, z = height above it)
//! and clipped (Sutherland–Hodgman) against the reference face's four side planes
//! |x| ≤ h_u, |y| ≤ h_v, interpolating z. Every clipped vertex with z < margin is a point:
//! z is its separation, and it sits midway at (x, y, z/2). Up to 8 vertices are reduced to
//! 4 ([`super::reduce4`]: deepest, farthest, largest triangle on each side). If clipping
//! leaves nothing, or its deepest point is shallower than the edge axis by more than the
//! bias (the face was chosen by the bias but the boxes touch edge to edge), the edge contact
//! below is used instead.
//!
//! **Edge contact.** For overlapping boxes and the winning axis L (oriented A → B): the
//! supporting edge of A along +L and of B along −L; the point is the midpoint of their
//! closest points, the separation the axis's (the exact depth). For boxes *apart* (within
//! the margin) an edge axis's SAT value is only a lower bound on the gap (the closest
//! features may be a vertex and an edge), so the contact is then one point at the exact
//! closest pair instead (`closest_contact`: vertex–box clamps and edge–edge pairs), which
//! also serves when the face clip of boxes apart finds nothing, or finds only points farther
//! than the closest pair (the clip cut away the incident box's nearest vertex, so the gap is
//! least outside the reference face's prism).
//!
//! **Feature ids.** Box faces are numbered f = 2k + (0 for +, 1 for −) on local axis k,
//! vertices v by bits 0, 1, 2 = + side of local x, y, z, edges `k*4 + s` along local axis k
//! at the signs of axes k+1, k+2 in bits 0, 1 of s (set = +). A clipped vertex is where two
//! lines meet (the incident face's edges and the reference face's side planes +u, −u, +v,
//! −v = 0..4), named by the incident box's own feature numbers so the id does not depend on
//! which of two tied faces (a box standing on an edge) was taken as incident:
//! - face contact: `0x0300_0000 | flip << 20 | f_ref << 16 | c`, flip = 1 when B holds the
//!   reference face, c = `0x80 | v` an incident vertex, `0x40 | e << 2 | side` an incident
//!   edge through a side plane, `0xc0 | side₁ << 2 | side₂` a reference-face corner (side₁ <
//!   side₂);
//! - edge contact: `0x0400_0000 | e_A << 8 | e_B`;
//! - closest pair of boxes apart: `0x0401_0000 | c`, c = 24 + v (vertex v of B on A),
//!   32 + v (vertex v of A on B), 64 + 12 e_A + e_B (an edge pair). (Points of boxes apart
//!   are speculative; the seed does not warm start them.)
//!
//! A box resting on another keeps its reference face and clip features while it is nudged
//! or wobbles, so its ids stay put (tested).

use glam::{Mat3, Vec3};

use super::box_round::{box_edge, face_index};
use super::{closest_segments, reduce4, Manifold, Pose};

/// Relative bias (times the smallest half extent) for B's face over A's.
pub const FACE_BIAS: f32 = 1e-3;
/// Relative bias (times the smallest half extent) for an edge axis over the best face.
pub const EDGE_BIAS: f32 = 2e-3;

const TAG_FACE: u32 = 0x0300_0000;
const TAG_EDGE: u32 = 0x0400_0000;

/// A clipped vertex in the reference face's frame.
#[derive(Clone, Copy, Default)]
struct ClipVertex {
    x: f32,
    y: f32,
    z: f32,
    /// Line the polygon arrives on / leaves on.
    lin: u8,
    lout: u8,
}

/// Box A at `pa` (half extents `ha`) against box B at `pb` (`hb`); normal from A to B.
pub fn collide_boxes(pa: &Pose, ha: Vec3, pb: &Pose, hb: Vec3, speculative: f32) -> Manifold {
    let ma = Mat3::from_quat(pa.rot);
    let mb = Mat3::from_quat(pb.rot);
    let a = [ma.x_axis, ma.y_axis, ma.z_axis];
    let b = [mb.x_axis, mb.y_axis, mb.z_axis];
    let t = pb.pos - pa.pos;
    // c_ij = a_i·b_j (B's axes in A's frame) and t in A's frame.
    let mut c = [[0.0f32; 3]; 3];
    let mut abs_c = [[0.0f32; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            c[i][j] = a[i].dot(b[j]);
            abs_c[i][j] = c[i][j].abs();
        }
    }
    let ta = [t.dot(a[0]), t.dot(a[1]), t.dot(a[2])];
    let scale = ha.min_element().min(hb.min_element());

    // Faces of A.
    let (mut sep_a, mut ia) = (f32::MIN, 0usize);
    for i in 0..3 {
        let rb = abs_c[i][0] * hb.x + abs_c[i][1] * hb.y + abs_c[i][2] * hb.z;
        let s = t.dot(a[i]).abs() - ha[i] - rb;
        if s > speculative {
            return Manifold::EMPTY;
        }
        if s > sep_a {
            (sep_a, ia) = (s, i);
        }
    }
    // Faces of B.
    let (mut sep_b, mut jb) = (f32::MIN, 0usize);
    for j in 0..3 {
        let ra = abs_c[0][j] * ha.x + abs_c[1][j] * ha.y + abs_c[2][j] * ha.z;
        let s = t.dot(b[j]).abs() - hb[j] - ra;
        if s > speculative {
            return Manifold::EMPTY;
        }
        if s > sep_b {
            (sep_b, jb) = (s, j);
        }
    }
    // Edge pairs, in A's frame (Gottschalk's table): L = a_i × b_j has components
    // (0, −c_{i2 j}, c_{i1 j}) on (a_i, a_i1, a_i2), so with (i1, i2), (j1, j2) the next two
    // axes, |t·L| = |t_i2 c_i1j − t_i1 c_i2j|, A's radius h_i1 |c_i2j| + h_i2 |c_i1j|, B's
    // h_j1 |c_ij2| + h_j2 |c_ij1|, and |L|² = c_i1j² + c_i2j².
    let (mut sep_e, mut ei, mut ej) = (f32::MIN, 0usize, 0usize);
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let len2 = c[i1][j] * c[i1][j] + c[i2][j] * c[i2][j];
            if len2 < 1e-8 {
                continue;
            }
            let d = (ta[i2] * c[i1][j] - ta[i1] * c[i2][j]).abs();
            let ra = ha[i1] * abs_c[i2][j] + ha[i2] * abs_c[i1][j];
            let rb = hb[j1] * abs_c[i][j2] + hb[j2] * abs_c[i][j1];
            let s = (d - ra - rb) / len2.sqrt();
            if s > speculative {
                return Manifold::EMPTY;
            }
            if s > sep_e {
                (sep_e, ei, ej) = (s, i, j);
            }
        }
    }
    // The winning edge axis in the world, oriented A → B.
    let axis_e = {
        let l = a[ei].cross(b[ej]).normalize_or_zero();
        if t.dot(l) < 0.0 {
            -l
        } else {
            l
        }
    };

    let flip = sep_b > sep_a + FACE_BIAS * scale;
    let face_sep = if flip { sep_b } else { sep_a };
    let has_edge = sep_e > f32::MIN;
    let edge = |m: &mut Manifold| edge_contact(pa, &a, ha, pb, &b, hb, ei, ej, axis_e, sep_e, m);
    let mut m = Manifold::EMPTY;
    // Reference face normals: A's toward B, B's toward A.
    let na = a[ia] * if t.dot(a[ia]) < 0.0 { -1.0 } else { 1.0 };
    let nb = b[jb] * if t.dot(b[jb]) > 0.0 { -1.0 } else { 1.0 };
    // Apart by more than a micrometre (the closest pair then has a direction), along `sep_axis`.
    let apart = face_sep.max(sep_e) > 1e-6;
    let sep_axis = if sep_e > face_sep {
        axis_e
    } else if flip {
        -nb
    } else {
        na
    };
    let closest = |m: &mut Manifold| closest_contact(pa, ha, pb, hb, sep_axis, speculative, m);
    if has_edge && sep_e > face_sep + EDGE_BIAS * scale {
        if apart {
            closest(&mut m);
        } else {
            edge(&mut m);
        }
        return m;
    }
    if flip {
        face_contact(pb, &b, hb, jb, nb, pa, &a, ha, true, speculative, &mut m);
        m.normal = -nb;
    } else {
        face_contact(pa, &a, ha, ia, na, pb, &b, hb, false, speculative, &mut m);
        m.normal = na;
    }
    if apart && m.count == 0 {
        // Apart, and the face's prism holds no point within the margin: the closest pair.
        closest(&mut m);
        return m;
    }
    if apart && m.min_separation().is_some_and(|s| s > face_sep + 1e-6) {
        // Apart, and the clip cut away the incident box's nearest vertex: the face axis's
        // separation (a lower bound on the gap) is not reached in the face's prism, so the
        // closest pair may lie outside it. Take it when it is nearer than the clip says.
        let mut c = Manifold::EMPTY;
        closest(&mut c);
        if c.min_separation().is_some_and(|cs| cs < m.min_separation().unwrap_or(f32::MAX) - 1e-6) {
            return c;
        }
    }
    // The face won on the bias alone and its clip misses the edge axis's depth (the boxes
    // touch edge to edge), or the clip is empty: the edge contact.
    let misses = sep_e > face_sep && m.min_separation().is_some_and(|s| s > sep_e + EDGE_BIAS * scale);
    if has_edge && sep_e < speculative && (m.count == 0 || misses) {
        let mut e = Manifold::EMPTY;
        edge(&mut e);
        return e;
    }
    m
}

/// One point at the exact closest pair of two boxes that do not overlap. A closest pair is
/// vertex–face, or has a point on an edge of each box (edge–edge, vertex–edge and
/// vertex–vertex are all segment–segment cases), so the least of: each vertex of one box
/// against the other box (a clamp in its frame) and each edge pair (segment–segment) is the
/// distance. With `l` a separating axis (A → B, positive separation) only edges with an
/// adjacent face turned toward the other box can hold the pair (the normal cone at the
/// closest point holds the direction to the other box, which has a negative component
/// along l for B, positive for A), 9 of 12 each: 16 clamps and 81 segment pairs.
/// Used only for boxes apart by less than the margin whose SAT axis is an edge axis (then
/// the SAT value is only a lower bound) or whose reference-face clip misses the pair.
/// Ids `0x0401_0000 |` 24 + v for vertex v of B, 32 + v for vertex v of A,
/// 64 + 12 e_A + e_B for an edge pair.
#[allow(clippy::too_many_arguments)]
fn closest_contact(pa: &Pose, ha: Vec3, pb: &Pose, hb: Vec3, l: Vec3, speculative: f32, m: &mut Manifold) {
    let corner = |h: Vec3, v: usize| {
        Vec3::new(
            if v & 1 != 0 { h.x } else { -h.x },
            if v & 2 != 0 { h.y } else { -h.y },
            if v & 4 != 0 { h.z } else { -h.z },
        )
    };
    // B in A's frame, and A in B's.
    let inv_a = pa.rot.conjugate();
    let b_in_a = Pose { pos: inv_a * (pb.pos - pa.pos), rot: inv_a * pb.rot };
    let inv_b = pb.rot.conjugate();
    let a_in_b = Pose { pos: inv_b * (pa.pos - pb.pos), rot: inv_b * pa.rot };
    let (la, lb) = (inv_a * l, inv_b * l);
    // Best so far: squared distance, the pair (qa on A, qb on B) in the frame of `in_b`.
    let (mut best, mut qa, mut qb, mut in_b, mut id) = (f32::MAX, Vec3::ZERO, Vec3::ZERO, false, 0u32);
    for v in 0..8 {
        let p = b_in_a.apply(corner(hb, v));
        let q = p.clamp(-ha, ha);
        let d2 = (p - q).length_squared();
        if d2 < best {
            (best, qa, qb, in_b, id) = (d2, q, p, false, 24 + v as u32);
        }
        let p = a_in_b.apply(corner(ha, v));
        let q = p.clamp(-hb, hb);
        let d2 = (p - q).length_squared();
        if d2 < best {
            (best, qa, qb, in_b, id) = (d2, p, q, true, 32 + v as u32);
        }
    }
    // Whether edge (k, s) of a box has an adjacent face turned along `dir` (box frame).
    let front = |k: usize, s: usize, dir: Vec3| {
        let (k1, k2) = ((k + 1) % 3, (k + 2) % 3);
        let f1 = if s & 1 != 0 { dir[k1] } else { -dir[k1] };
        let f2 = if s & 2 != 0 { dir[k2] } else { -dir[k2] };
        f1 > 0.0 || f2 > 0.0
    };
    let mut eb = [(Vec3::ZERO, Vec3::ZERO, 0u32); 12];
    let mut nb = 0;
    for k in 0..3 {
        for s in 0..4 {
            if front(k, s, -lb) {
                let (e0, e1) = box_edge(hb, k, s);
                eb[nb] = (b_in_a.apply(e0), b_in_a.apply(e1), (k * 4 + s) as u32);
                nb += 1;
            }
        }
    }
    for k in 0..3 {
        for s in 0..4 {
            if !front(k, s, la) {
                continue;
            }
            let (a0, a1) = box_edge(ha, k, s);
            for &(b0, b1, ib) in &eb[..nb] {
                let (_, _, c1, c2) = closest_segments(a0, a1, b0, b1);
                let d2 = (c2 - c1).length_squared();
                if d2 < best {
                    (best, qa, qb, in_b, id) = (d2, c1, c2, false, 64 + 12 * (k * 4 + s) as u32 + ib);
                }
            }
        }
    }
    let dist = best.sqrt();
    if dist >= speculative || dist <= 1e-9 {
        return;
    }
    let frame = if in_b { pb } else { pa };
    m.normal = (frame.rot * (qb - qa)).normalize();
    m.push(frame.apply(0.5 * (qa + qb)), dist, TAG_EDGE | 1 << 16 | id);
}

/// Edge contact on A's edge direction `i` and B's `j` along `axis` (unit, A → B).
#[allow(clippy::too_many_arguments)]
fn edge_contact(
    pa: &Pose,
    a: &[Vec3; 3],
    ha: Vec3,
    pb: &Pose,
    b: &[Vec3; 3],
    hb: Vec3,
    i: usize,
    j: usize,
    axis: Vec3,
    sep: f32,
    m: &mut Manifold,
) {
    // Supporting edge of a box along direction `dir`: centre, half-edge vector and index.
    let support = |pos: Vec3, ax: &[Vec3; 3], h: Vec3, k: usize, dir: Vec3| {
        let (k1, k2) = ((k + 1) % 3, (k + 2) % 3);
        let s1 = ax[k1].dot(dir) >= 0.0;
        let s2 = ax[k2].dot(dir) >= 0.0;
        let c = pos + ax[k1] * if s1 { h[k1] } else { -h[k1] } + ax[k2] * if s2 { h[k2] } else { -h[k2] };
        let id = (k * 4 + usize::from(s1) + 2 * usize::from(s2)) as u32;
        (c, ax[k] * h[k], id)
    };
    // Relative to A's centre (precision far from the origin).
    let (ca, ea, ida) = support(Vec3::ZERO, a, ha, i, axis);
    let (cb, eb, idb) = support(pb.pos - pa.pos, b, hb, j, -axis);
    let (_, _, qa, qb) = closest_segments(ca - ea, ca + ea, cb - eb, cb + eb);
    let (qa, qb) = (qa + pa.pos, qb + pa.pos);
    m.normal = axis;
    m.push(0.5 * (qa + qb), sep, TAG_EDGE | ida << 8 | idb);
}

/// Face contact with reference face (box R, local axis `k`, outward normal `n`) and incident
/// box I; pushes the clipped points. `flip` is recorded in the ids.
#[allow(clippy::too_many_arguments)]
fn face_contact(
    pr: &Pose,
    r: &[Vec3; 3],
    hr: Vec3,
    k: usize,
    n: Vec3,
    pi: &Pose,
    inc: &[Vec3; 3],
    hi: Vec3,
    flip: bool,
    speculative: f32,
    m: &mut Manifold,
) {
    let ref_face = face_index(k, r[k].dot(n) > 0.0);
    // Incident face: the face of I most anti-parallel to n.
    let (mut ki, mut best) = (0usize, -1.0f32);
    for (j, axis) in inc.iter().enumerate() {
        let d = axis.dot(n).abs();
        // Ties (a box standing on an edge) go to the lower axis: stable ids.
        if d > best + 1e-6 {
            (ki, best) = (j, d);
        }
    }
    let inc_positive = inc[ki].dot(n) < 0.0;
    let ni = inc[ki] * if inc_positive { 1.0 } else { -1.0 };
    let (ki1, ki2) = ((ki + 1) % 3, (ki + 2) % 3);
    // Everything relative to the reference box's centre (precision far from the origin).
    let ci = (pi.pos - pr.pos) + ni * hi[ki];
    let (du, dv) = (inc[ki1] * hi[ki1], inc[ki2] * hi[ki2]);
    let corners = [ci + du + dv, ci - du + dv, ci - du - dv, ci + du - dv];
    // The corners as the incident box's vertex numbers (bit k set = + side of local axis k),
    // so ids do not depend on which of two tied faces was taken as incident.
    let vbit = |k: usize, plus: bool| if plus { 1u8 << k } else { 0 };
    let vk = vbit(ki, inc_positive);
    let vert = [
        vk | vbit(ki1, true) | vbit(ki2, true),
        vk | vbit(ki1, false) | vbit(ki2, true),
        vk | vbit(ki1, false) | vbit(ki2, false),
        vk | vbit(ki1, true) | vbit(ki2, false),
    ];
    // Incident edge e (corner e → e + 1) as the box's edge number k*4 + s.
    let edge_of = |e: usize| {
        let (v1, v2) = (vert[e], vert[(e + 1) % 4]);
        let k = (v1 ^ v2).trailing_zeros() as usize;
        let bit = |a: usize| u32::from(v1 >> a & 1);
        (k as u32) * 4 + bit((k + 1) % 3) + 2 * bit((k + 2) % 3)
    };

    // Reference frame.
    let (k1, k2) = ((k + 1) % 3, (k + 2) % 3);
    let (u, v) = (r[k1], r[k2]);
    let (hu, hv) = (hr[k1], hr[k2]);
    let cr = n * hr[k];
    let mut poly = [ClipVertex::default(); 8];
    for (e, c) in corners.iter().enumerate() {
        let d = *c - cr;
        poly[e] = ClipVertex { x: d.dot(u), y: d.dot(v), z: d.dot(n), lin: ((e + 3) % 4) as u8, lout: e as u8 };
    }
    let mut count = 4;
    let mut tmp = [ClipVertex::default(); 8];
    for (axis, sign, lim, line) in [(0, 1.0, hu, 4u8), (0, -1.0, hu, 5), (1, 1.0, hv, 6), (1, -1.0, hv, 7)] {
        count = clip(&poly[..count], &mut tmp, axis, sign, lim, line);
        poly[..count].copy_from_slice(&tmp[..count]);
        if count == 0 {
            return;
        }
    }

    let mut pts = [Vec3::ZERO; 8];
    let mut seps = [0.0f32; 8];
    let mut ids = [0u32; 8];
    let mut kept = 0;
    let base = TAG_FACE | u32::from(flip) << 20 | ref_face << 16;
    for cv in &poly[..count] {
        if cv.z < speculative {
            pts[kept] = pr.pos + cr + u * cv.x + v * cv.y + n * (0.5 * cv.z);
            seps[kept] = cv.z;
            let (lo, hi) = (cv.lin.min(cv.lout), cv.lin.max(cv.lout));
            let code = match (lo < 4, hi < 4) {
                // An incident corner: edges (e − 1, e) meet at corner e.
                (true, true) => 0x80 | u32::from(vert[usize::from(cv.lout)]),
                // An incident edge through a side plane.
                (true, false) => 0x40 | edge_of(usize::from(lo)) << 2 | u32::from(hi - 4),
                // A corner of the reference face.
                _ => 0xc0 | u32::from(lo - 4) << 2 | u32::from(hi - 4),
            };
            ids[kept] = base | code;
            kept += 1;
        }
    }
    let (keep, nk) = reduce4(&pts[..kept], &seps[..kept], n);
    for &i in &keep[..nk] {
        m.push(pts[i], seps[i], ids[i]);
    }
}

/// Sutherland–Hodgman: clips `input` against `sign · coord[axis] ≤ lim`, the new edges on
/// `line`. Returns the vertex count written to `out` (at most input + 1 ≤ 8).
fn clip(input: &[ClipVertex], out: &mut [ClipVertex; 8], axis: usize, sign: f32, lim: f32, line: u8) -> usize {
    let n = input.len();
    let f = |c: &ClipVertex| sign * if axis == 0 { c.x } else { c.y } - lim;
    let mut count = 0;
    let mut push = |c: ClipVertex| {
        if count < 8 {
            out[count] = c;
            count += 1;
        }
    };
    for i in 0..n {
        let prev = input[(i + n - 1) % n];
        let cur = input[i];
        let (dp, dc) = (f(&prev), f(&cur));
        // The edge prev → cur lies on prev.lout.
        let cross = |prev: &ClipVertex, cur: &ClipVertex| {
            let s = dp / (dp - dc);
            ClipVertex {
                x: prev.x + s * (cur.x - prev.x),
                y: prev.y + s * (cur.y - prev.y),
                z: prev.z + s * (cur.z - prev.z),
                lin: 0,
                lout: 0,
            }
        };
        if dc <= 0.0 {
            if dp > 0.0 {
                let mut x = cross(&prev, &cur);
                x.lin = line;
                x.lout = prev.lout;
                push(x);
            }
            push(cur);
        } else if dp <= 0.0 {
            let mut x = cross(&prev, &cur);
            x.lin = prev.lout;
            x.lout = line;
            push(x);
        }
    }
    count
}
