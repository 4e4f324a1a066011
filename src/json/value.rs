//! A JSON value to build reports with (`crate::json_macro::json!`) and print: serde_json's
//! `Value` as the lite build uses it. Numbers keep serde_json's three kinds (printed `3`,
//! `-3`, `3.0`); objects print their keys sorted, as serde_json's `BTreeMap` does, and hold
//! them in a sorted `Vec` (a binary search per insert, no B-tree code).

use std::fmt;

use super::ser::{push_f64, push_quoted, push_u64};

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Array(Vec<Value>),
    Object(Map),
}

/// serde_json's number kinds; a float is always finite (`Value::from` makes NaN and the
/// infinities `null`, as serde_json's does).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    U(u64),
    I(i64),
    F(f64),
}

/// An object: keys sorted, each once.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Map(Vec<(String, Value)>);

impl Map {
    pub fn new() -> Map {
        Map(Vec::new())
    }

    /// Inserts or replaces `key`'s value.
    pub fn insert(&mut self, key: String, v: Value) {
        match self.0.binary_search_by(|(k, _)| k.as_str().cmp(key.as_str())) {
            Ok(i) => self.0[i].1 = v,
            Err(i) => self.0.insert(i, (key, v)),
        }
    }
}

impl Map {
    fn entries(&self) -> &[(String, Value)] {
        &self.0
    }
}

impl Extend<(String, Value)> for Map {
    fn extend<I: IntoIterator<Item = (String, Value)>>(&mut self, items: I) {
        for (k, v) in items {
            self.insert(k, v);
        }
    }
}

impl IntoIterator for Map {
    type Item = (String, Value);
    type IntoIter = std::vec::IntoIter<(String, Value)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl Value {
    pub fn as_object_mut(&mut self) -> Option<&mut Map> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    /// The value of a parsed tree.
    pub(crate) fn of(node: super::Node) -> Value {
        use super::Node;
        match node {
            Node::Null => Value::Null,
            Node::Bool(b) => Value::Bool(b),
            Node::U64(n) => Value::Number(Number::U(n)),
            Node::I64(n) => Value::Number(Number::I(n)),
            Node::F64(x, _) => Value::Number(Number::F(x)),
            Node::Str(s) => Value::String(s),
            Node::Arr(items) => Value::Array(items.into_iter().map(Value::of).collect()),
            Node::Obj(entries) => {
                let mut m = Map::new();
                m.extend(entries.into_iter().map(|(k, v)| (k, Value::of(v))));
                Value::Object(m)
            }
        }
    }

    fn write(&self, out: &mut String) {
        match self {
            Value::Null => out.push_str("null"),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Number(Number::U(n)) => push_u64(out, *n),
            Value::Number(Number::I(n)) => {
                if *n < 0 {
                    out.push('-');
                }
                push_u64(out, n.unsigned_abs());
            }
            Value::Number(Number::F(x)) => push_f64(out, *x),
            Value::String(s) => push_quoted(out, s),
            Value::Array(items) => {
                out.push('[');
                for (k, v) in items.iter().enumerate() {
                    if k > 0 {
                        out.push(',');
                    }
                    v.write(out);
                }
                out.push(']');
            }
            Value::Object(m) => {
                out.push('{');
                for (k, (key, v)) in m.entries().iter().enumerate() {
                    if k > 0 {
                        out.push(',');
                    }
                    push_quoted(out, key);
                    out.push(':');
                    v.write(out);
                }
                out.push('}');
            }
        }
    }
}

/// Compact JSON, as serde_json's `Value::to_string`.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        self.write(&mut out);
        f.write_str(&out)
    }
}

macro_rules! from_unsigned {
    ($($t:ty),*) => {$(
        impl From<$t> for Value {
            fn from(n: $t) -> Value {
                Value::Number(Number::U(n as u64))
            }
        }
    )*};
}
from_unsigned!(u8, u16, u32, u64, usize);

macro_rules! from_signed {
    ($($t:ty),*) => {$(
        impl From<$t> for Value {
            /// serde_json: a non-negative integer is its unsigned kind.
            fn from(n: $t) -> Value {
                Value::Number(if n < 0 { Number::I(n as i64) } else { Number::U(n as u64) })
            }
        }
    )*};
}
from_signed!(i8, i16, i32, i64, isize);

impl From<f64> for Value {
    fn from(x: f64) -> Value {
        if x.is_finite() {
            Value::Number(Number::F(x))
        } else {
            Value::Null
        }
    }
}

impl From<f32> for Value {
    fn from(x: f32) -> Value {
        Value::from(x as f64)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::String(s.to_string())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::String(s)
    }
}

impl From<Map> for Value {
    fn from(m: Map) -> Value {
        Value::Object(m)
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Null, Into::into)
    }
}

impl<T: Into<Value>> From<Vec<T>> for Value {
    fn from(v: Vec<T>) -> Value {
        Value::Array(v.into_iter().map(Into::into).collect())
    }
}

impl<T: Into<Value>, const N: usize> From<[T; N]> for Value {
    fn from(v: [T; N]) -> Value {
        Value::Array(v.into_iter().map(Into::into).collect())
    }
}

impl<T: Clone + Into<Value>> From<&[T]> for Value {
    fn from(v: &[T]) -> Value {
        Value::Array(v.iter().cloned().map(Into::into).collect())
    }
}
