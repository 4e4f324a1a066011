//! Bending along ropes: an XPBD angle constraint with compliance.
//!
//! At a rope particle m between neighbours a and b (a particle joined by exactly two
//! links), let e₁ = x_m - x_a, e₂ = x_b - x_m, t₁ = e₁/|e₁|, t₂ = e₂/|e₂|. The bend angle
//! is the turning angle between the two segments,
//!
//! ```text
//! θ = atan2(|t₁ × t₂|, t₁·t₂) ∈ [0, π],   C = θ   (rest: straight)
//! ```
//!
//! With the bend plane's normal m̂ = t₁ × t₂ / |t₁ × t₂|, rotating t₂ about m̂ opens the
//! angle and rotating t₁ closes it, which gives the gradients
//!
//! ```text
//! ∇_a θ = (m̂ × t₁) / |e₁|,   ∇_b θ = (m̂ × t₂) / |e₂|,   ∇_m θ = -(∇_a θ + ∇_b θ)
//! ```
//!
//! All three lie in the plane of the three particles (they are perpendicular to m̂), so
//! the correction straightens the rope **within its own plane**: a planar rope stays
//! planar. (The 000 seed instead nudged the middle particle by a fixed 0.1 along the
//! cross-product axis t₁ × t₂, which is perpendicular to that plane: it pushed planar
//! ropes out of their plane by a step-size-dependent amount and never straightened them.)
//! The XPBD update is the usual one with compliance α in rad/(N·m), the inverse of the
//! joint's angular stiffness k = EI/L for a rod of bending stiffness EI and segment L:
//!
//! ```text
//! Δλ = -(θ + α̃ λ) / (w_a|∇_a θ|² + w_m|∇_m θ|² + w_b|∇_b θ|² + α̃)
//! ```
//!
//! In static equilibrium each joint bends by θ = α·τ, τ the torque the rest of the rope
//! exerts about it (tested against the discrete cantilever in `tests/physics.rs`).
//! At θ = 0 the constraint is at its minimum and its gradient's direction is undefined:
//! nothing needs doing, so nearly straight joints (|t₁ × t₂| < 1e-6) are skipped; so are
//! fully folded ones (θ = π), whose bend plane is undefined.

use glam::Vec3;

use super::Apply;

/// Largest move of a particle in one projection, as a fraction of the shorter of the two
/// segments (a right angle between equal segments and masses straightens in one projection
/// moving the middle 0.55 of a segment; a fold would move the ends 1.4 of one).
pub const MAX_MOVE: f32 = 0.6;

/// One projection of the bend at `m` between `a` and `b`; `alpha` = α̃.
#[inline]
pub fn project<A: Apply>(pos: &mut [Vec3], w: &[f32], [a, m, b]: [u32; 3], alpha: f32, lambda: &mut f32, acc: &mut A) {
    let (a, m, b) = (a as usize, m as usize, b as usize);
    let (wa, wm, wb) = (w[a], w[m], w[b]);
    if wa + wm + wb == 0.0 {
        return;
    }
    let e1 = pos[m] - pos[a];
    let e2 = pos[b] - pos[m];
    let (l1, l2) = (e1.length_squared().sqrt(), e2.length_squared().sqrt());
    if l1 < 1e-9 || l2 < 1e-9 {
        return;
    }
    let (t1, t2) = (e1 / l1, e2 / l2);
    let cross = t1.cross(t2);
    let s = cross.length_squared().sqrt();
    if s < 1e-6 {
        return;
    }
    let theta = libm::atan2f(s, t1.dot(t2));
    let axis = cross / s;
    let ga = axis.cross(t1) / l1;
    let gb = axis.cross(t2) / l2;
    let gm = -(ga + gb);
    let denom = wa * ga.length_squared() + wm * gm.length_squared() + wb * gb.length_squared() + alpha;
    if denom <= 0.0 {
        return;
    }
    let mut dl = -(theta + alpha * *lambda) / denom;
    // The step is linear in the angle: near a fold it moves the ends by more than a segment
    // length across their segments, which lengthens them; along a crumpled run of short
    // segments each projection then starts from the last one's longer segments, and the
    // lengths grew geometrically (1.7× per joint over 564 subdivided links: NaN within a
    // step). So no particle moves more than `MAX_MOVE` of the shorter segment per projection.
    let moved = dl.abs() * (wa * ga.length()).max(wm * gm.length()).max(wb * gb.length());
    let cap = MAX_MOVE * l1.min(l2);
    if moved > cap {
        dl *= cap / moved;
    }
    *lambda += dl;
    if wa != 0.0 {
        acc.apply(pos, a, ga * (wa * dl));
    }
    if wm != 0.0 {
        acc.apply(pos, m, gm * (wm * dl));
    }
    if wb != 0.0 {
        acc.apply(pos, b, gb * (wb * dl));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraints::Direct;

    #[test]
    fn straightens_in_plane_and_gradient_matches_finite_differences() {
        // A right-angle bend in the x–y plane.
        let mut pos = vec![Vec3::new(-1.0, 0.0, 0.0), Vec3::ZERO, Vec3::new(0.0, 1.0, 0.0)];
        let w = [1.0, 1.0, 1.0];
        let mut lambda = 0.0;
        project(&mut pos, &w, [0, 1, 2], 0.0, &mut lambda, &mut Direct);
        assert!(pos.iter().all(|p| p.z == 0.0), "bending left the plane: {pos:?}");
        let angle = |p: &[Vec3]| {
            let (t1, t2) = ((p[1] - p[0]).normalize(), (p[2] - p[1]).normalize());
            t1.cross(t2).length().atan2(t1.dot(t2))
        };
        assert!(angle(&pos) < 0.35, "one rigid projection should nearly straighten: {}", angle(&pos));
        // Gradient check at a generic 3D configuration.
        let p0 = [Vec3::new(-1.0, 0.2, 0.1), Vec3::new(0.1, 0.0, -0.2), Vec3::new(0.3, 0.9, 0.4)];
        let (e1, e2) = (p0[1] - p0[0], p0[2] - p0[1]);
        let (t1, t2) = (e1.normalize(), e2.normalize());
        let axis = t1.cross(t2).normalize();
        let ga = axis.cross(t1) / e1.length();
        let eps = 1e-3;
        for k in 0..3 {
            let mut plus = p0;
            let mut minus = p0;
            plus[0][k] += eps;
            minus[0][k] -= eps;
            let fd = (angle(&plus) - angle(&minus)) / (2.0 * eps);
            assert!((fd - ga[k]).abs() < 2e-3, "d theta / d x_a[{k}]: fd {fd} vs {}", ga[k]);
        }
    }
}
