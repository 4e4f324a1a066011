//! The lite build's reader of an obstacle's `shape` (`{"type": "circle", "center": …,
//! "radius": …}`), issue 12 §5. The full build derives it: serde reads an internally tagged
//! enum by buffering the object into its `Content` tree and reading each variant from that,
//! about 12 KB of wasm (the buffer's visitors and deserializer, a visitor per variant). Here
//! the object is read once into [`ShapeFields`], a struct of every shape's fields (a plain derive),
//! and then checked against the named shape: the same fields required, the same defaults
//! (`angle` 0), the same refusals in serde's words (`missing field `radius``,
//! `unknown field `half`, expected `center` or `radius``), the same `sphere` alias. An error
//! inside a field names the field (`obstacles[0].shape.radius`), where serde's buffer could
//! name only the `shape`. tests/json_text.rs reads every preset's shapes and their mutations
//! with both, and the full build's tests hold [`read`] to the derive.

use glam::Vec3;
use serde::de::Error as _;
use serde::Deserialize;

use crate::collide::Shape;

#[derive(Clone, Copy)]
enum Kind {
    Plane,
    Circle,
    Capsule,
    Box,
}

crate::json_macro::deserialize_by_name!(Kind,
    "plane" => Kind::Plane,
    "circle" => Kind::Circle,
    "sphere" => Kind::Circle,
    "capsule" => Kind::Capsule,
    "box" => Kind::Box,
);

/// Every shape's fields, each optional but `type` (expected as the derive words it).
#[derive(Deserialize)]
#[serde(expecting = "internally tagged enum Shape", deny_unknown_fields)]
struct ShapeFields {
    #[serde(rename = "type")]
    kind: Kind,
    #[serde(default)]
    point: Given<Vec3>,
    #[serde(default)]
    normal: Given<Vec3>,
    #[serde(default)]
    center: Given<Vec3>,
    #[serde(default)]
    radius: Given<f32>,
    #[serde(default)]
    a: Given<Vec3>,
    #[serde(default)]
    b: Given<Vec3>,
    #[serde(default)]
    half: Given<Vec3>,
    #[serde(default)]
    angle: Given<f32>,
}

/// A field that may be left out but, given, must be a `T` (`null` is refused, as the derived
/// reader refuses it; an `Option` would take it as left out).
struct Given<T>(Option<T>);

impl<T> Default for Given<T> {
    fn default() -> Self {
        Given(None)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Given<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::deserialize(d).map(|v| Given(Some(v)))
    }
}

#[cfg(not(feature = "full"))]
impl<'de> Deserialize<'de> for Shape {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Shape, D::Error> {
        read(d)
    }
}

/// Reads a shape (the lite build's `Deserialize` for [`Shape`]; public so that the full
/// build's tests can hold it to the derived reader).
pub fn read<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Shape, D::Error> {
    let f = ShapeFields::deserialize(d)?;
    // Each field given, by name, and whether the shape has it.
    let given: [(&str, bool); 8] = [
        ("point", f.point.0.is_some()),
        ("normal", f.normal.0.is_some()),
        ("center", f.center.0.is_some()),
        ("radius", f.radius.0.is_some()),
        ("a", f.a.0.is_some()),
        ("b", f.b.0.is_some()),
        ("half", f.half.0.is_some()),
        ("angle", f.angle.0.is_some()),
    ];
    let fields: &'static [&'static str] = match f.kind {
        Kind::Plane => &["point", "normal"],
        Kind::Circle => &["center", "radius"],
        Kind::Capsule => &["a", "b", "radius"],
        Kind::Box => &["center", "half", "angle"],
    };
    if let Some((name, _)) = given.iter().find(|(name, set)| *set && !fields.contains(name)) {
        return Err(D::Error::unknown_field(name, fields));
    }
    // Missing fields in the order the shape lists them, as the derive reports them.
    if let Some(name) = fields.iter().find(|name| **name != "angle" && !given.iter().any(|(n, set)| n == *name && *set))
    {
        return Err(D::Error::missing_field(name));
    }
    let v = |g: Given<Vec3>| g.0.unwrap_or_default();
    let radius = f.radius.0.unwrap_or_default();
    Ok(match f.kind {
        Kind::Plane => Shape::Plane { point: v(f.point), normal: v(f.normal) },
        Kind::Circle => Shape::Circle { center: v(f.center), radius },
        Kind::Capsule => Shape::Capsule { a: v(f.a), b: v(f.b), radius },
        Kind::Box => Shape::Box { center: v(f.center), half: v(f.half), angle: f.angle.0.unwrap_or(0.0) },
    })
}
