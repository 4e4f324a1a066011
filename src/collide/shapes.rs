//! Static obstacle shapes and their signed distance functions.
//!
//! Every shape answers one question for a point `p`: the signed distance `d` from its
//! surface (negative inside) and the outward unit normal `n` there, i.e. the gradient of
//! the signed distance field. A particle of radius `r` touches the shape when `d < r`;
//! the contact solver (`contact.rs`) moves it out by `r - d` along `n`.
//!
//! ```text
//! plane    d = (p - o)·n                               n = n (unit, given)
//! circle   d = |p - c| - R                             n = (p - c) / |p - c|
//! capsule  q = a + t(b - a), t = clamp((p-a)·(b-a)/|b-a|², 0, 1)
//!          d = |p - q| - R                             n = (p - q) / |p - q|
//! box      l = Rz(-angle)(p - c),  e = |l| - half  (per axis)
//!          outside (some e > 0): d = |max(e, 0)|,  n = Rz(angle)(sign(l)·max(e, 0)) / d
//!          inside  (all e ≤ 0): d = max(e),        n = Rz(angle)(sign(l_k) e_k), k = argmax e
//! ```
//!
//! A "circle" is a sphere in 3D; planar scenes live at z = 0 where it draws as a circle.
//! A box is rotated by `angle` radians about the z axis (the side view's normal) and can
//! be made as deep in z as a scene needs.

use glam::{Vec2, Vec3};
use serde::Serialize;

// The lite build reads it with `scene::shape_lite` (no serde `Content` buffer).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "full", derive(serde::Deserialize))]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum Shape {
    /// The half-space behind a plane through `point` with outward `normal` (ground, slopes).
    Plane { point: Vec3, normal: Vec3 },
    /// A sphere of `radius` around `center` (a circle in the view plane).
    #[serde(alias = "sphere")]
    Circle { center: Vec3, radius: f32 },
    /// All points within `radius` of the segment `a`–`b`.
    Capsule { a: Vec3, b: Vec3, radius: f32 },
    /// A box with half extents `half`, rotated by `angle` radians about z.
    Box {
        center: Vec3,
        half: Vec3,
        #[serde(default)]
        angle: f32,
    },
}

impl Shape {
    /// Signed distance from `p` to the surface and the outward unit normal there.
    #[inline]
    pub fn distance(&self, p: Vec3) -> (f32, Vec3) {
        match *self {
            Shape::Plane { point, normal } => ((p - point).dot(normal), normal),
            Shape::Circle { center, radius } => round(p - center, radius),
            Shape::Capsule { a, b, radius } => {
                let ab = b - a;
                let len2 = ab.length_squared();
                let t = if len2 > 0.0 { ((p - a).dot(ab) / len2).clamp(0.0, 1.0) } else { 0.0 };
                round(p - (a + ab * t), radius)
            }
            Shape::Box { center, half, angle } => {
                let (s, c) = (libm::sinf(angle), libm::cosf(angle));
                let r = p - center;
                // Into box coordinates: rotate by -angle about z.
                let l = Vec3::new(c * r.x + s * r.y, -s * r.x + c * r.y, r.z);
                let e = l.abs() - half;
                let sign = Vec3::select(l.cmplt(Vec3::ZERO), Vec3::NEG_ONE, Vec3::ONE);
                let (d, nl) = if e.max_element() > 0.0 {
                    let out = e.max(Vec3::ZERO);
                    let d = out.length_squared().sqrt();
                    (d, sign * out / d)
                } else {
                    let k = if e.x >= e.y && e.x >= e.z {
                        0
                    } else if e.y >= e.z {
                        1
                    } else {
                        2
                    };
                    let mut n = Vec3::ZERO;
                    n[k] = sign[k];
                    (e[k], n)
                };
                // Back to world coordinates: rotate by +angle.
                (d, Vec3::new(c * nl.x - s * nl.y, s * nl.x + c * nl.y, nl.z))
            }
        }
    }

    /// Checks the shape's numbers and returns it with its plane normal normalised, or the
    /// name of the faulty field and why.
    pub fn validated(&self) -> Result<Shape, (&'static str, String)> {
        // (Within the world's ±1e5 m: a circle of radius 1e20 made the points it touched NaN.)
        let m = crate::limits::MAX_COORD;
        let finite = |name: &'static str, v: Vec3| {
            if v.is_finite() && v.abs().max_element() <= m {
                Ok(())
            } else {
                Err((name, "must be finite, each coordinate within ±1e5 m".to_string()))
            }
        };
        let positive = |name: &'static str, x: f32| {
            if x.is_finite() && x > 0.0 && x <= m {
                Ok(())
            } else {
                Err((name, format!("{} must be a finite number in (0, 1e5] m", crate::num::Num32(x))))
            }
        };
        match *self {
            Shape::Plane { point, normal } => {
                finite("point", point)?;
                if !normal.is_finite() {
                    return Err(("normal", "must be finite".into()));
                }
                // (A finite normal whose length overflows, [1e20, 2, 0], came out [0, 0, 0]:
                // scale it down first.)
                let normal = if normal.length().is_finite() { normal } else { normal / normal.abs().max_element() };
                let len = normal.length();
                if len < 1e-6 {
                    return Err(("normal", "must not be zero".into()));
                }
                // A normal already of unit length (within f32 rounding) is kept as it is, so
                // that a loaded export, whose normals this made unit, has the same bits: a
                // second division may round them differently.
                let unit = (normal.length_squared() - 1.0).abs() <= 4.0 * f32::EPSILON;
                Ok(Shape::Plane { point, normal: if unit { normal } else { normal / len } })
            }
            Shape::Circle { center, radius } => {
                finite("center", center)?;
                positive("radius", radius)?;
                Ok(*self)
            }
            Shape::Capsule { a, b, radius } => {
                finite("a", a)?;
                finite("b", b)?;
                positive("radius", radius)?;
                Ok(*self)
            }
            Shape::Box { center, half, angle } => {
                finite("center", center)?;
                if !(half.is_finite() && half.min_element() > 0.0 && half.max_element() <= m) {
                    return Err(("half", "half extents must be finite, > 0 and ≤ 1e5 m".into()));
                }
                if !angle.is_finite() {
                    return Err(("angle", "must be finite".into()));
                }
                Ok(*self)
            }
        }
    }

    /// The shape's outline projected to 2D for drawing, as a short description the page
    /// can use: (kind, numbers). Circles: [cx, cy, r]; capsules: [ax, ay, bx, by, r];
    /// boxes: [cx, cy, hx, hy, angle]; planes: [px, py, nx, ny].
    pub fn outline(&self, project: impl Fn(Vec3) -> Vec2) -> (&'static str, Vec<f32>) {
        match *self {
            Shape::Plane { point, normal } => {
                let (p, n) = (project(point), project(normal));
                ("plane", vec![p.x, p.y, n.x, n.y])
            }
            Shape::Circle { center, radius } => {
                let c = project(center);
                ("circle", vec![c.x, c.y, radius])
            }
            Shape::Capsule { a, b, radius } => {
                let (a, b) = (project(a), project(b));
                ("capsule", vec![a.x, a.y, b.x, b.y, radius])
            }
            Shape::Box { center, half, angle } => {
                let (c, h) = (project(center), project(half));
                ("box", vec![c.x, c.y, h.x, h.y, angle])
            }
        }
    }
}

/// Distance and normal for a point at offset `v` from the core of a rounded shape.
#[inline]
fn round(v: Vec3, radius: f32) -> (f32, Vec3) {
    let len = v.length_squared().sqrt();
    if len > 1e-12 {
        (len - radius, v / len)
    } else {
        (-radius, Vec3::Y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() < 1e-5
    }

    #[test]
    fn plane_circle_capsule() {
        let p = Shape::Plane { point: Vec3::ZERO, normal: Vec3::Y };
        let (d, n) = p.distance(Vec3::new(3.0, -0.5, 0.0));
        assert!(close(d, -0.5) && n == Vec3::Y);
        let c = Shape::Circle { center: Vec3::new(1.0, 1.0, 0.0), radius: 0.5 };
        let (d, n) = c.distance(Vec3::new(1.0, 2.0, 0.0));
        assert!(close(d, 0.5) && (n - Vec3::Y).length() < 1e-6);
        let k = Shape::Capsule { a: Vec3::ZERO, b: Vec3::X * 2.0, radius: 0.25 };
        let (d, n) = k.distance(Vec3::new(1.0, -1.0, 0.0));
        assert!(close(d, 0.75) && (n + Vec3::Y).length() < 1e-6);
        let (d, _) = k.distance(Vec3::new(3.0, 0.0, 0.0));
        assert!(close(d, 0.75));
    }

    #[test]
    fn rotated_box_outside_and_inside() {
        let b = Shape::Box { center: Vec3::ZERO, half: Vec3::new(1.0, 0.5, 1.0), angle: std::f32::consts::FRAC_PI_2 };
        // Rotated 90°: the long axis is now y.
        let (d, n) = b.distance(Vec3::new(0.0, 1.5, 0.0));
        assert!(close(d, 0.5), "d = {d}");
        assert!((n - Vec3::Y).length() < 1e-5, "n = {n}");
        let (d, n) = b.distance(Vec3::new(0.4, 0.0, 0.0));
        assert!(close(d, -0.1), "d = {d}");
        assert!((n - Vec3::X).length() < 1e-5, "n = {n}");
        // A corner region: distance to the corner.
        let a = Shape::Box { center: Vec3::ZERO, half: Vec3::new(1.0, 1.0, 1.0), angle: 0.0 };
        let (d, _) = a.distance(Vec3::new(2.0, 2.0, 0.0));
        assert!(close(d, 2f32.sqrt()));
    }

    #[test]
    fn validation_normalises_planes_and_names_fields() {
        let p = Shape::Plane { point: Vec3::ZERO, normal: Vec3::new(0.0, 2.0, 0.0) }.validated().unwrap();
        assert_eq!(p, Shape::Plane { point: Vec3::ZERO, normal: Vec3::Y });
        let bad = Shape::Circle { center: Vec3::ZERO, radius: -1.0 }.validated().unwrap_err();
        assert_eq!(bad.0, "radius");
    }
}
