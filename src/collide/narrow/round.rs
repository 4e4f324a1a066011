//! Round–round contacts: sphere–sphere, sphere–capsule, capsule–capsule.
//!
//! Both shapes are a core segment swept by a ball (a sphere's core is a point), so the gap
//! between the surfaces is the distance between the cores minus the two radii. With c₁, c₂
//! the closest points of the cores (Ericson's segment–segment routine, robust for
//! zero-length segments) and d = |c₂ − c₁|:
//!
//! - normal n = (c₂ − c₁)/d, from A to B (for closest points inside both cores of skew
//!   cores, the common perpendicular d̂_A × d̂_B, oriented the same way: exact when the cores
//!   nearly cross and c₂ − c₁ is mostly rounding);
//! - separation s = d − r_A − r_B;
//! - point midway between the surfaces: c₁ + n (r_A + s/2) (A's surface is c₁ + n r_A,
//!   B's is c₂ − n r_B = c₁ + n (d − r_B); their mean is c₁ + n (r_A + d − r_B)/2).
//!
//! **Parallel capsules** (|d̂_A × d̂_B| < [`CAPSULES_PARALLEL_SIN`]) touch along a line, and one point
//! would let a capsule lying on another rock about it. Then B's core is projected on A's
//! core, the overlapping parameter interval [s₀, s₁] of A is clipped out (Box2D v3's
//! `b2CollideCapsules` does the same in 2D) and each end gets its own point: the point of A
//! at the end, its closest point on B, and the separation measured along the one normal n
//! (for parallel cores n ⟂ both, so it is the exact gap at each end).
//!
//! **Degenerate input**: cores closer than 1e-9 m (coincident sphere centres, crossing
//! capsule cores) have no direction; the normal falls back to a vector perpendicular to both
//! cores (the cross product of their directions, else any perpendicular of one, else +y),
//! and the separation stays −r_A − r_B: finite, never NaN.
//!
//! Feature ids: `0x0100_0001` for a single point; `0x0100_0002`/`0x0100_0003` for the low
//! and high ends of the parallel overlap (stable while the capsules lie side by side).

use glam::Vec3;

use super::{any_perpendicular, closest_segments, Manifold};

/// Sine of the largest angle between two capsules treated as parallel (≈ 1.1°).
pub const CAPSULES_PARALLEL_SIN: f32 = 0.02;

const ROUND_TAG: u32 = 0x0100_0000;

/// A = core `p0`–`p1` radius `ra`; B = core `q0`–`q1` radius `rb`.
pub fn collide_round(p0: Vec3, p1: Vec3, ra: f32, q0: Vec3, q1: Vec3, rb: f32, speculative: f32) -> Manifold {
    let mut m = Manifold::EMPTY;
    // Relative to A's first end (precision far from the origin), back to world at the end.
    let o = p0;
    let (p0, p1, q0, q1) = (Vec3::ZERO, p1 - o, q0 - o, q1 - o);
    let (s, t, c1, c2) = closest_segments(p0, p1, q0, q1);
    let d = c2 - c1;
    let dist = d.length();
    let rr = ra + rb;
    let sep = dist - rr;
    if sep >= speculative {
        return m;
    }
    let da = p1 - p0;
    let db = q1 - q0;
    let c = da.cross(db);
    let interior = s > 0.0 && s < 1.0 && t > 0.0 && t < 1.0;
    let n = if interior && c.length_squared() > 1e-6 * da.length_squared() * db.length_squared() {
        // Closest points inside both cores of skew cores: the common perpendicular, exact
        // even when the cores nearly cross (c₂ − c₁ is then mostly rounding).
        let c = c.normalize();
        if c.dot(d) < 0.0 {
            -c
        } else {
            c
        }
    } else if dist > 1e-9 {
        d / dist
    } else {
        if c.length_squared() > 1e-18 {
            c.normalize()
        } else if da.length_squared() > 1e-18 {
            any_perpendicular(da)
        } else {
            any_perpendicular(db)
        }
    };
    m.normal = n;

    // Parallel cores: clip the overlap and give each end a point.
    let la2 = da.length_squared();
    let lb2 = db.length_squared();
    if la2 > 1e-12 && lb2 > 1e-12 {
        let cross2 = da.cross(db).length_squared();
        if cross2 < CAPSULES_PARALLEL_SIN * CAPSULES_PARALLEL_SIN * la2 * lb2 {
            // B's ends as parameters of A's core.
            let u0 = (q0 - p0).dot(da) / la2;
            let u1 = (q1 - p0).dot(da) / la2;
            let lo = u0.min(u1).max(0.0);
            let hi = u0.max(u1).min(1.0);
            // Overlap longer than a thousandth of the shorter core (else one point is it).
            let min_len = 1e-3 * la2.min(lb2).sqrt();
            if (hi - lo) * la2.sqrt() > min_len {
                for (k, s) in [lo, hi].into_iter().enumerate() {
                    let a = p0 + da * s;
                    let t = ((a - q0).dot(db) / lb2).clamp(0.0, 1.0);
                    let b = q0 + db * t;
                    let gap = (b - a).dot(n) - rr;
                    if gap < speculative {
                        m.push(o + a + n * (ra + 0.5 * gap), gap, ROUND_TAG | (2 + k as u32));
                    }
                }
                if m.count > 0 {
                    return m;
                }
            }
        }
    }
    m.push(o + c1 + n * (ra + 0.5 * sep), sep, ROUND_TAG | 1);
    m
}
