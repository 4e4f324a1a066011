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
//! **Edge contact.** For the winning axis L (oriented A → B) the supporting edge of A along
//! +L and of B along −L; the point is the midpoint of their closest points, the separation
//! the axis's. For boxes apart by less than the margin but closest vertex to vertex this
//! separation is the SAT's lower bound on the gap (conservative for a speculative contact).
//!
//! **Feature ids.** Box faces are numbered f = 2k + (0 for +, 1 for −) on local axis k.
//! Incident edge e (0..4) runs from incident corner e to e + 1; the reference face's side
//! planes are lines 4..8 (+u, −u, +v, −v). A clipped vertex is where two lines meet: the one
//! it arrives on (`in`) and leaves on (`out`); an unclipped corner e is (e − 1, e).
//! - face contact: `0x0300_0000 | flip << 20 | f_ref << 16 | f_inc << 12 | in << 4 | out`,
//!   flip = 1 when B holds the reference face;
//! - edge contact: `0x0400_0000 | e_A << 8 | e_B`, with box edge `k*4 + s` along local axis k
//!   at the signs of axes k+1, k+2 in bits 0, 1 of s (set = +).
//!
//! A box resting on another keeps its reference face, incident face and clip lines while it
//! is nudged, so its ids stay put (tested).

use glam::{Mat3, Vec3};

use super::box_round::face_index;
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
    let mut abs_c = [[0.0f32; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            abs_c[i][j] = a[i].dot(b[j]).abs();
        }
    }
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
    // Edge pairs.
    let (mut sep_e, mut ei, mut ej, mut axis_e) = (f32::MIN, 0usize, 0usize, Vec3::ZERO);
    for i in 0..3 {
        for j in 0..3 {
            let l = a[i].cross(b[j]);
            let len2 = l.length_squared();
            if len2 < 1e-8 {
                continue;
            }
            let l = l / len2.sqrt();
            let ra = l.dot(a[0]).abs() * ha.x + l.dot(a[1]).abs() * ha.y + l.dot(a[2]).abs() * ha.z;
            let rb = l.dot(b[0]).abs() * hb.x + l.dot(b[1]).abs() * hb.y + l.dot(b[2]).abs() * hb.z;
            let d = t.dot(l);
            let s = d.abs() - ra - rb;
            if s > speculative {
                return Manifold::EMPTY;
            }
            if s > sep_e {
                (sep_e, ei, ej, axis_e) = (s, i, j, if d < 0.0 { -l } else { l });
            }
        }
    }

    let flip = sep_b > sep_a + FACE_BIAS * scale;
    let face_sep = if flip { sep_b } else { sep_a };
    let has_edge = sep_e > f32::MIN;
    let edge = |m: &mut Manifold| edge_contact(pa, &a, ha, pb, &b, hb, ei, ej, axis_e, sep_e, m);
    let mut m = Manifold::EMPTY;
    if has_edge && sep_e > face_sep + EDGE_BIAS * scale {
        edge(&mut m);
        return m;
    }
    if flip {
        let n = b[jb] * if t.dot(b[jb]) > 0.0 { -1.0 } else { 1.0 };
        face_contact(pb, &b, hb, jb, n, pa, &a, ha, true, speculative, &mut m);
        m.normal = -n;
    } else {
        let n = a[ia] * if t.dot(a[ia]) < 0.0 { -1.0 } else { 1.0 };
        face_contact(pa, &a, ha, ia, n, pb, &b, hb, false, speculative, &mut m);
        m.normal = n;
    }
    let shallow = m.min_separation().is_none_or(|s| s > face_sep + EDGE_BIAS * scale);
    if has_edge && shallow && sep_e < speculative {
        let mut e = Manifold::EMPTY;
        edge(&mut e);
        return e;
    }
    m
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
    let (ca, ea, ida) = support(pa.pos, a, ha, i, axis);
    let (cb, eb, idb) = support(pb.pos, b, hb, j, -axis);
    let (_, _, qa, qb) = closest_segments(ca - ea, ca + ea, cb - eb, cb + eb);
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
    let inc_face = face_index(ki, inc_positive);
    let ni = inc[ki] * if inc_positive { 1.0 } else { -1.0 };
    let (ki1, ki2) = ((ki + 1) % 3, (ki + 2) % 3);
    let ci = pi.pos + ni * hi[ki];
    let (du, dv) = (inc[ki1] * hi[ki1], inc[ki2] * hi[ki2]);
    let corners = [ci + du + dv, ci - du + dv, ci - du - dv, ci + du - dv];

    // Reference frame.
    let (k1, k2) = ((k + 1) % 3, (k + 2) % 3);
    let (u, v) = (r[k1], r[k2]);
    let (hu, hv) = (hr[k1], hr[k2]);
    let cr = pr.pos + n * hr[k];
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
    let base = TAG_FACE | u32::from(flip) << 20 | ref_face << 16 | inc_face << 12;
    for cv in &poly[..count] {
        if cv.z < speculative {
            pts[kept] = cr + u * cv.x + v * cv.y + n * (0.5 * cv.z);
            seps[kept] = cv.z;
            ids[kept] = base | u32::from(cv.lin) << 4 | u32::from(cv.lout);
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
