//! `json!`, the small one: builds a `serde_json::Value` from an object literal
//! (`json!({"a": x, "b": y})`) or one value (`json!([x, y])`, `json!(s)`), converting each
//! value with `Value::from`. serde_json's own `json!` turns every value into JSON through
//! `serde_json::to_value(&x).unwrap()`: a serializer instantiated per value type, and an
//! `unwrap` whose panic message formats serde_json's error with `Debug` (which links `str`'s
//! `Debug` and std's Unicode tables), all in the wasm (issue 12 §5, the lite wasm's size).
//! The values are the same: `Value::from` is what that serializer calls for numbers, strings
//! and bools (`NaN` and infinities become `null` either way), and `Option`, arrays and `Vec`s
//! convert element by element. A JSON `null` is written `Value::Null`.

macro_rules! json {
    ({ $($k:literal : $v:expr),* $(,)? }) => {{
        #[allow(unused_mut)]
        let mut m = ::serde_json::Map::new();
        $( m.insert(::std::string::String::from($k), ::serde_json::Value::from($v)); )*
        ::serde_json::Value::Object(m)
    }};
    ($e:expr) => {
        ::serde_json::Value::from($e)
    };
}
pub(crate) use json;

/// A `Serialize` value (a struct) as JSON: `serde_json::to_value`, whose error (it has none
/// for plain structs of numbers) panics with `Display`, not `unwrap`'s `Debug`.
pub(crate) fn to_json<T: serde::Serialize>(x: T) -> serde_json::Value {
    serde_json::to_value(x).unwrap_or_else(|e| panic!("serialisable: {e}"))
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    #[test]
    fn same_values_as_serde_json() {
        let s = String::from("x\"y");
        let ours = json!({"a": 1u32, "b": -2.5f32, "c": f64::NAN, "d": s.as_str(), "e": [1.0f32, 2.0],
            "f": Some(3i64), "g": None::<u32>, "h": vec![true, false], "i": Value::Null, "j": 0.1f32});
        let theirs = serde_json::json!({"a": 1u32, "b": -2.5f32, "c": f64::NAN, "d": s.as_str(), "e": [1.0f32, 2.0],
            "f": Some(3i64), "g": None::<u32>, "h": vec![true, false], "i": null, "j": 0.1f32});
        assert_eq!(ours, theirs);
        assert_eq!(ours.to_string(), theirs.to_string());
    }
}
