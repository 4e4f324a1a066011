//! Half-space contacts: a static plane {x : n·x ≤ offset} (A) against a sphere, a capsule or
//! a box (B). The normal is the plane's n (from the plane into the free side, A to B).
//!
//! - **Round shapes**: the gap of a ball of radius r centred at c is n·c − offset − r. A
//!   capsule's surface nearest the plane is reached at a core end (the gap is linear along
//!   the core), so each core end is a candidate: a capsule lying on the plane gets two
//!   points, one standing on it one (the upper end is above the margin). A sphere's core is
//!   one point. The point midway between the surfaces is c − n (r + s/2).
//! - **Box**: the gap is linear over the box, so the contact set is spanned by vertices:
//!   each of the 8 vertices v with s = n·v − offset < margin is a candidate at v − n s/2.
//!   A box resting on the plane gives its 4 bottom corners; more than four candidates (a thin
//!   plank inside a wide margin) are reduced to 4 by [`super::reduce4`] (deepest first).
//!
//! Feature ids: `0x0500_0001`/`0x0500_0002` for core end p₀/p₁ (a sphere: 1);
//! `0x0600_0000 | (v + 1)` for box vertex v = bit 0 x, bit 1 y, bit 2 z (set = + side of the
//! box's local axis), so a resting box keeps its ids.

use glam::Vec3;

use super::{reduce4, Manifold, Plane, Pose};

const TAG_ROUND: u32 = 0x0500_0000;
const TAG_BOX: u32 = 0x0600_0000;

/// Plane against a round shape with core `p0`–`p1` and radius `r`.
pub fn collide_plane_round(plane: &Plane, p0: Vec3, p1: Vec3, r: f32, speculative: f32) -> Manifold {
    let mut m = Manifold::EMPTY;
    let n = plane.normal;
    m.normal = n;
    let ends: &[(Vec3, u32)] = if (p1 - p0).length_squared() > 1e-14 { &[(p0, 1), (p1, 2)] } else { &[(p0, 1)] };
    for &(c, e) in ends {
        let s = plane.distance(c) - r;
        if s < speculative {
            m.push(c - n * (r + 0.5 * s), s, TAG_ROUND | e);
        }
    }
    m
}

/// Plane against a box at `pose` with half extents `half`.
pub fn collide_plane_box(plane: &Plane, pose: &Pose, half: Vec3, speculative: f32) -> Manifold {
    let mut m = Manifold::EMPTY;
    let n = plane.normal;
    m.normal = n;
    let mut pts = [Vec3::ZERO; 8];
    let mut seps = [0.0f32; 8];
    let mut ids = [0u32; 8];
    let mut count = 0;
    let base = plane.distance(pose.pos);
    for v in 0..8u32 {
        let local = Vec3::new(
            if v & 1 != 0 { half.x } else { -half.x },
            if v & 2 != 0 { half.y } else { -half.y },
            if v & 4 != 0 { half.z } else { -half.z },
        );
        // The centre's height plus the vertex's offset (precision far from the origin).
        let r = pose.rot * local;
        let w = pose.pos + r;
        let s = base + n.dot(r);
        if s < speculative {
            pts[count] = w - n * (0.5 * s);
            seps[count] = s;
            ids[count] = TAG_BOX | (v + 1);
            count += 1;
        }
    }
    let (keep, k) = reduce4(&pts[..count], &seps[..count], n);
    for &i in &keep[..k] {
        m.push(pts[i], seps[i], ids[i]);
    }
    m
}
