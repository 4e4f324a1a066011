//! `json!`, the small one: builds a `serde_json::Value` from an object literal
//! (`json!({"a": x, "b": y})`) or one value (`json!([x, y])`, `json!(s)`), converting each
//! value with `Value::from`. serde_json's own `json!` turns every value into JSON through
//! `serde_json::to_value(&x).unwrap()`: a serializer instantiated per value type, and an
//! `unwrap` whose panic message formats serde_json's error with `Debug` (which links `str`'s
//! `Debug` and std's Unicode tables), all in the wasm (issue 12 §5, the lite wasm's size).
//! The values are the same: `Value::from` is what that serializer calls for numbers, strings
//! and bools (`NaN` and infinities become `null` either way), and `Option`, arrays and `Vec`s
//! convert element by element. A JSON `null` is written `Value::Null`. The values are
//! [`Value`]s: serde_json's in the full build, `crate::json`'s in the lite one.

macro_rules! json {
    ({ $($k:literal : $v:expr),* $(,)? }) => {{
        #[allow(unused_mut)]
        let mut m = $crate::json_macro::Map::new();
        $( m.insert(::std::string::String::from($k), $crate::json_macro::Value::from($v)); )*
        $crate::json_macro::Value::Object(m)
    }};
    ($e:expr) => {
        $crate::json_macro::Value::from($e)
    };
}
pub(crate) use json;

#[cfg(not(feature = "full"))]
pub(crate) use crate::json::{Map, Value};
/// The JSON value reports are built as: serde_json's in the full build, `crate::json`'s (the
/// same text, far less wasm) in the lite one.
#[cfg(feature = "full")]
pub(crate) use serde_json::{Map, Value};

/// A fieldless enum read from its name, as `#[derive(Deserialize)]` reads it (a JSON string;
/// an unknown one is serde's `unknown variant `x`, expected one of …` error, raised inside
/// the deserializer so that serde_json gives it its position, which `scene::json_path`
/// places). The derive instantiates an enum visitor per type and per deserializer; here one
/// visitor (a name list) serves every such enum. Unlike the derive it takes no
/// `{"name": null}` object form. `names[k]` reads as `values[k]`.
pub(crate) fn variant<'de, D, T>(d: D, names: &'static [&'static str], values: &[T]) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Copy,
{
    d.deserialize_str(Names(names)).map(|k| values[k])
}

/// Visits a string and answers its index in the list.
struct Names(&'static [&'static str]);

impl serde::de::Visitor<'_> for Names {
    type Value = usize;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("one of ")?;
        for (k, n) in self.0.iter().enumerate() {
            f.write_str(if k == 0 { "`" } else { ", `" })?;
            f.write_str(n)?;
            f.write_str("`")?;
        }
        Ok(())
    }

    fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<usize, E> {
        self.0.iter().position(|n| *n == s).ok_or_else(|| E::unknown_variant(s, self.0))
    }
}

/// Implements `Deserialize` for a fieldless enum by [`variant`]: `deserialize_by_name!(Type, "a" =>
/// Type::A, …)`.
macro_rules! deserialize_by_name {
    ($t:ty, $($name:literal => $v:expr),+ $(,)?) => {
        impl<'de> ::serde::Deserialize<'de> for $t {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                $crate::json_macro::variant(d, &[$($name),+], &[$($v),+])
            }
        }
    };
}
pub(crate) use deserialize_by_name;

/// A `Serialize` value (a struct) as JSON: `serde_json::to_value` in the full build, whose
/// error (it has none for plain structs of numbers) panics with `Display`, not `unwrap`'s
/// `Debug`. The lite build's `crate::json::to_value` writes the text and reads it back, so a
/// float comes back from its shortest digits, not as serde_json's `to_value` gives it (an
/// `f32` 0.1 is 0.1 there, 0.10000000149011612 here), and an `f64` through a reader that is
/// not correctly rounded in the last digit; its one caller (a joint's JSON) is in the full
/// build only.
pub(crate) fn to_json<T: serde::Serialize>(x: T) -> Value {
    #[cfg(feature = "full")]
    let v = serde_json::to_value(x);
    #[cfg(not(feature = "full"))]
    let v = crate::json::to_value(&x);
    v.unwrap_or_else(|e| panic!("serialisable: {e}"))
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    /// The by-name readers list each enum's names a second time beside the derived
    /// `Serialize`'s `rename_all`: every variant, written by the derive, reads back as itself,
    /// and a name that is not one is refused.
    #[test]
    fn every_variant_written_by_name_reads_back() {
        fn round_trip<T: serde::Serialize + for<'de> Deserialize<'de> + PartialEq + core::fmt::Debug + Copy>(
            all: &[T],
        ) {
            for &v in all {
                let text = serde_json::to_string(&v).unwrap();
                assert_eq!(serde_json::from_str::<T>(&text).unwrap(), v, "{text}");
            }
            assert!(serde_json::from_str::<T>("\"no-such-name\"").is_err());
        }
        use crate::links::LinkKind;
        use crate::scene::GridLock;
        use crate::settings::View;
        round_trip(crate::SolverKind::ALL);
        round_trip(&[View::Side, View::Top]);
        round_trip(&[LinkKind::Distance, LinkKind::Rope]);
        round_trip(&[GridLock::None, GridLock::TopCorners, GridLock::TopRow]);
    }

    use crate::scene::GridLock;

    /// What `GridLock`'s derive was.
    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    enum Derived {
        None,
        TopCorners,
        TopRow,
    }

    #[test]
    fn by_name_reads_and_refuses_as_the_derive() {
        for text in [r#""none""#, r#""top-corners""#, r#""top-row""#, r#""Top-Row""#, r#""""#, r#"  "x" "#] {
            let ours = serde_json::from_str::<GridLock>(text);
            let derived = serde_json::from_str::<Derived>(text);
            match (ours, derived) {
                (Ok(a), Ok(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "{text}"),
                (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{text}"),
                (a, b) => panic!("{text}: {a:?} vs the derive's {b:?}"),
            }
        }
        // Not a string: both refuse (the words differ).
        assert!(serde_json::from_str::<GridLock>("3").is_err() && serde_json::from_str::<Derived>("3").is_err());
    }

    #[test]
    fn same_values_as_serde_json() {
        let s = String::from("x\"y\n\u{1}é");
        let ours = json!({"a": 1u32, "b": -2.5f32, "c": f64::NAN, "d": s.as_str(), "e": [1.0f32, 2.0],
            "f": Some(3i64), "g": None::<u32>, "h": vec![true, false], "i": super::Value::Null, "j": 0.1f32,
            "k": -7i32, "l": 1e300f64, "m": f32::INFINITY, "A": json!({"z": 1u8, "b": []as [u32; 0]})});
        let theirs = serde_json::json!({"a": 1u32, "b": -2.5f32, "c": f64::NAN, "d": s.as_str(), "e": [1.0f32, 2.0],
            "f": Some(3i64), "g": None::<u32>, "h": vec![true, false], "i": null, "j": 0.1f32,
            "k": -7i32, "l": 1e300f64, "m": f32::INFINITY, "A": {"z": 1u8, "b": []}});
        #[cfg(feature = "full")]
        assert_eq!(ours, theirs);
        assert_eq!(ours.to_string(), theirs.to_string());
    }
}
