//! Collision/mass shapes of rigid bodies and their mass properties.
//!
//! Every shape is centred on its body's centre of mass, with its axes along the body's
//! local axes. The inertia tensor about the centre of mass is diagonal in the body frame
//! for all three shapes, so a body stores it as three principal moments (kg·m²). Mass is
//! given by the user (kg); the moments are those of a solid of uniform density and that
//! mass, in closed form:
//!
//! - **sphere** radius r: I = ⅖ m r² about every axis.
//! - **box** half extents (a, b, c): I_x = m (b² + c²)/3, and so on (the usual m (h² + d²)/12
//!   with full extents 2a, 2b, 2c).
//! - **capsule** radius r, segment half length l along local x (a cylinder of length
//!   L = 2l and two hemispherical caps). With the cylinder's share of the mass
//!   m_c = m·V_c/V and the caps' m_s = m·V_s/V (V_c = π r² L, V_s = ⁴⁄₃ π r³):
//!   I_x = m_c r²/2 + ⅖ m_s r²;
//!   I_y = I_z = m_c (L²/12 + r²/4) + m_s (⅖ r² + L²/4 + ⅜ L r)
//!   (each cap is half a ball whose moment about its flat face's diameter is ⅖ (m_s/2) r²;
//!   the parallel-axis theorem moves it to the capsule's centre, through the cap's centroid
//!   ⅜ r beyond the cylinder's end, which gives the L²/4 and ⅜ L r terms).
//!   A test checks all three against a sampled solid.

use glam::Vec3;
use serde::{Deserialize, Serialize};

use crate::error::{self, Result, SimError};

/// A body's shape (centred on its centre of mass, in its local frame).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum Shape {
    /// A ball of radius `radius` (m).
    Sphere { radius: f32 },
    /// A segment from −`half_length` to +`half_length` along local x, swept by a ball of
    /// radius `radius` (m).
    Capsule {
        radius: f32,
        /// `half_length` in scene files (snake_case as the rest of the format; `halfLength`,
        /// the first spelling, is still read).
        #[serde(alias = "halfLength")]
        half_length: f32,
    },
    /// A box with half extents `half` (m) along local x, y, z.
    Box { half: Vec3 },
}

/// Shapes larger than this (m) are refused: a body is not a landscape.
pub const MAX_SIZE: f32 = 1000.0;
/// Smallest size (m) of any shape dimension that has a size.
pub const MIN_SIZE: f32 = 1e-4;

impl Shape {
    /// Checks every size is finite and within [`MIN_SIZE`, `MAX_SIZE`].
    pub fn validate(&self) -> Result<()> {
        let size = |what: &'static str, x: f32| -> Result<()> {
            error::in_range(what, x, MIN_SIZE, MAX_SIZE, "1e-4 m ≤ size ≤ 1000 m").map(|_| ())
        };
        match *self {
            Shape::Sphere { radius } => size("sphere radius", radius),
            Shape::Capsule { radius, half_length } => {
                size("capsule radius", radius)?;
                error::finite("capsule half length", half_length)?;
                if !(0.0..=MAX_SIZE).contains(&half_length) {
                    return Err(SimError::OutOfRange {
                        what: "capsule half length",
                        value: half_length as f64,
                        range: "0 ≤ half length ≤ 1000 m",
                    });
                }
                Ok(())
            }
            Shape::Box { half } => {
                size("box half extent x", half.x)?;
                size("box half extent y", half.y)?;
                size("box half extent z", half.z)
            }
        }
    }

    /// Principal moments of inertia (kg·m²) of a solid of this shape with mass `mass`.
    pub fn inertia(&self, mass: f32) -> Vec3 {
        match *self {
            Shape::Sphere { radius } => Vec3::splat(0.4 * mass * radius * radius),
            Shape::Box { half: h } => {
                let (x2, y2, z2) = (h.x * h.x, h.y * h.y, h.z * h.z);
                Vec3::new(y2 + z2, x2 + z2, x2 + y2) * (mass / 3.0)
            }
            Shape::Capsule { radius: r, half_length: l } => {
                let len = 2.0 * l;
                let vc = std::f32::consts::PI * r * r * len;
                let vs = 4.0 / 3.0 * std::f32::consts::PI * r * r * r;
                let (mc, ms) = (mass * vc / (vc + vs), mass * vs / (vc + vs));
                let axial = 0.5 * mc * r * r + 0.4 * ms * r * r;
                let perp =
                    mc * (len * len / 12.0 + r * r / 4.0) + ms * (0.4 * r * r + len * len / 4.0 + 0.375 * len * r);
                Vec3::new(axial, perp, perp)
            }
        }
    }

    /// Radius of the smallest sphere about the centre holding the shape (m).
    pub fn bounding_radius(&self) -> f32 {
        match *self {
            Shape::Sphere { radius } => radius,
            Shape::Capsule { radius, half_length } => radius + half_length,
            Shape::Box { half } => half.length(),
        }
    }

    /// The point of the shape's surface nearest to `p` (both in the body frame); for a
    /// point inside, the nearest point on the surface.
    pub fn nearest_surface_point(&self, p: Vec3) -> Vec3 {
        match *self {
            Shape::Sphere { radius } => p.normalize_or(Vec3::Y) * radius,
            Shape::Capsule { radius, half_length } => {
                let c = Vec3::new(p.x.clamp(-half_length, half_length), 0.0, 0.0);
                c + (p - c).normalize_or(Vec3::Y) * radius
            }
            Shape::Box { half } => {
                let q = p.clamp(-half, half);
                if q != p {
                    return q;
                }
                // Inside: push out through the nearest face.
                let d = half - p.abs();
                let mut out = p;
                if d.x <= d.y && d.x <= d.z {
                    out.x = half.x.copysign(p.x);
                } else if d.y <= d.z {
                    out.y = half.y.copysign(p.y);
                } else {
                    out.z = half.z.copysign(p.z);
                }
                out
            }
        }
    }

    /// The name scene files use.
    pub fn name(&self) -> &'static str {
        match self {
            Shape::Sphere { .. } => "sphere",
            Shape::Capsule { .. } => "capsule",
            Shape::Box { .. } => "box",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Numerical inertia by sampling the solid on a fine grid (midpoint rule).
    fn sampled(shape: Shape, mass: f32) -> Vec3 {
        // Over the shape's bounding box, 120 cells along each axis.
        let r = match shape {
            Shape::Sphere { radius } => Vec3::splat(radius),
            Shape::Capsule { radius, half_length } => Vec3::new(radius + half_length, radius, radius),
            Shape::Box { half } => half,
        };
        let n = 120;
        let step = 2.0 * r / n as f32;
        let inside = |p: Vec3| match shape {
            Shape::Sphere { radius } => p.length() <= radius,
            Shape::Capsule { radius, half_length } => {
                let c = Vec3::new(p.x.clamp(-half_length, half_length), 0.0, 0.0);
                (p - c).length() <= radius
            }
            Shape::Box { half } => p.abs().cmple(half).all(),
        };
        let (mut count, mut acc) = (0.0f64, [0.0f64; 3]);
        for i in 0..n {
            for j in 0..n {
                for k in 0..n {
                    let p = Vec3::new(i as f32 + 0.5, j as f32 + 0.5, k as f32 + 0.5) * step - r;
                    if inside(p) {
                        let (x, y, z) = (p.x as f64, p.y as f64, p.z as f64);
                        count += 1.0;
                        acc[0] += y * y + z * z;
                        acc[1] += x * x + z * z;
                        acc[2] += x * x + y * y;
                    }
                }
            }
        }
        let m = mass as f64 / count;
        Vec3::new((acc[0] * m) as f32, (acc[1] * m) as f32, (acc[2] * m) as f32)
    }

    #[test]
    fn inertia_matches_a_sampled_solid_within_1_percent() {
        for shape in [
            Shape::Sphere { radius: 0.3 },
            Shape::Box { half: Vec3::new(0.5, 0.2, 0.1) },
            Shape::Capsule { radius: 0.1, half_length: 0.3 },
        ] {
            let (exact, num) = (shape.inertia(2.0), sampled(shape, 2.0));
            let err = ((exact - num) / num).abs().max_element();
            assert!(err < 0.01, "{shape:?}: closed form {exact} vs sampled {num} ({err})");
        }
    }

    #[test]
    fn bad_sizes_are_refused() {
        assert!(Shape::Sphere { radius: f32::NAN }.validate().is_err());
        assert!(Shape::Sphere { radius: 0.0 }.validate().is_err());
        assert!(Shape::Box { half: Vec3::new(1.0, 0.0, 1.0) }.validate().is_err());
        assert!(Shape::Capsule { radius: 0.1, half_length: -1.0 }.validate().is_err());
        assert!(Shape::Capsule { radius: 0.1, half_length: 0.0 }.validate().is_ok());
    }
}
