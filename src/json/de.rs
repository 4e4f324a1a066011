//! serde's `Deserializer` over a parsed [`Node`]: what serde_json's does for the same text,
//! visitor call for visitor call (numbers as `u64`, `i64` or `f64`; structs from objects or
//! arrays; `null` as `None` for options), with the error's path added as it leaves each
//! array element and object value. Each method is a short dispatch, so the code a visitor
//! instantiates stays small.

use serde::de::{self, DeserializeSeed, Expected, IntoDeserializer, Unexpected, Visitor};

use super::{Error, Node};

impl de::Error for Error {
    fn custom<T: std::fmt::Display>(msg: T) -> Error {
        Error::new(msg.to_string())
    }

    fn invalid_type(unexp: Unexpected, exp: &dyn Expected) -> Error {
        Error::new(format!("invalid type: {}, expected {exp}", unexpected(unexp)))
    }

    fn invalid_value(unexp: Unexpected, exp: &dyn Expected) -> Error {
        Error::new(format!("invalid value: {}, expected {exp}", unexpected(unexp)))
    }
}

/// serde's `Unexpected` in serde_json's words (floats by zmij's shortest digits, `null`), but
/// strings quoted as JSON (serde's own `Display` of it formats floats with core's `Display` and strings with
/// `Debug`, which would link core's float printing and std's Unicode tables).
fn unexpected(u: Unexpected) -> String {
    match u {
        Unexpected::Bool(b) => format!("boolean `{b}`"),
        Unexpected::Unsigned(n) => format!("integer `{n}`"),
        Unexpected::Signed(n) => format!("integer `{n}`"),
        Unexpected::Float(x) => format!("floating point `{}`", float_text(x)),
        Unexpected::Char(c) => format!("character `{c}`"),
        Unexpected::Str(s) => format!("string {}", super::quote(s)),
        Unexpected::Bytes(_) => "byte array".into(),
        Unexpected::Unit => "null".into(),
        Unexpected::Option => "Option value".into(),
        Unexpected::NewtypeStruct => "newtype struct".into(),
        Unexpected::Seq => "sequence".into(),
        Unexpected::Map => "map".into(),
        Unexpected::Enum => "enum".into(),
        Unexpected::UnitVariant => "unit variant".into(),
        Unexpected::NewtypeVariant => "newtype variant".into(),
        Unexpected::TupleVariant => "tuple variant".into(),
        Unexpected::StructVariant => "struct variant".into(),
        Unexpected::Other(other) => other.into(),
    }
}

/// A float as serde_json prints one in a message (zmij's shortest digits; `NaN`, `inf`).
fn float_text(x: f64) -> String {
    if x.is_finite() {
        zmij::Buffer::new().format_finite(x).to_string()
    } else if x.is_nan() {
        "NaN".into()
    } else if x > 0.0 {
        "inf".into()
    } else {
        "-inf".into()
    }
}

impl Node {
    fn unexpected(&self) -> Unexpected<'_> {
        match self {
            Node::Null => Unexpected::Unit,
            Node::Bool(b) => Unexpected::Bool(*b),
            Node::U64(n) => Unexpected::Unsigned(*n),
            Node::I64(n) => Unexpected::Signed(*n),
            Node::F64(x, _) => Unexpected::Float(*x),
            Node::Str(s) => Unexpected::Str(s),
            Node::Arr(_) => Unexpected::Seq,
            Node::Obj(_) => Unexpected::Map,
        }
    }
}

impl<'de> de::Deserializer<'de> for &'de Node {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Node::Null => visitor.visit_unit(),
            Node::Bool(b) => visitor.visit_bool(*b),
            Node::U64(n) => visitor.visit_u64(*n),
            Node::I64(n) => visitor.visit_i64(*n),
            Node::F64(x, _) => visitor.visit_f64(*x),
            Node::Str(s) => visitor.visit_borrowed_str(s),
            Node::Arr(_) => self.deserialize_seq(visitor),
            Node::Obj(_) => self.deserialize_map(visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Node::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    // Each typed request visits only the node kind it asks for and refuses the others with
    // serde's `invalid type` error (what the visitor's default method would raise), so a visitor
    // instantiates one `visit_*` here, not all of them. Unlike serde_json, a struct is read only
    // from an object (serde_json also takes its fields in order from an array): the derive's
    // array reader of each scene type is not in the wasm.

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Node::Bool(b) => visitor.visit_bool(*b),
            _ => Err(self.refuse(&visitor)),
        }
    }

    fn deserialize_u32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.number(visitor)
    }

    fn deserialize_u64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.number(visitor)
    }

    fn deserialize_i32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.number(visitor)
    }

    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.number(visitor)
    }

    /// A float read as an f32 is its text rounded once to f32 (serde_json's `float_roundtrip`
    /// reads an f32 field so), and one too large for an f32 is out of range there.
    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Node::F64(_, g) if g.is_infinite() => Err(Error::new("number out of range")),
            Node::F64(_, g) => visitor.visit_f32(*g),
            _ => self.number(visitor),
        }
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.number(visitor)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Node::Str(s) => visitor.visit_borrowed_str(s),
            _ => Err(self.refuse(&visitor)),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Node::Arr(items) => {
                let mut seq = Seq { items: items.iter(), i: 0 };
                let v = visitor.visit_seq(&mut seq)?;
                seq.end(items.len())?;
                Ok(v)
            }
            _ => Err(self.refuse(&visitor)),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Node::Obj(entries) => {
                let mut map = Map { entries: entries.iter(), value: None };
                let v = visitor.visit_map(&mut map)?;
                map.end(entries.len())?;
                Ok(v)
            }
            _ => Err(self.refuse(&visitor)),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_map(visitor)
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Node::Null => visitor.visit_unit(),
            _ => Err(self.refuse(&visitor)),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self {
            Node::Str(s) => visitor.visit_enum(s.as_str().into_deserializer()),
            Node::Obj(entries) if entries.len() == 1 => {
                let (key, value) = &entries[0];
                visitor.visit_enum(Variant { key, value })
            }
            _ => Err(self.refuse(&visitor)),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        i8 i16 i128 u8 u16 u128 char bytes byte_buf
    }
}

impl Node {
    /// serde's `invalid type` error for this node where `exp` was expected.
    #[inline(never)]
    fn refuse(&self, exp: &dyn Expected) -> Error {
        de::Error::invalid_type(self.unexpected(), exp)
    }

    /// A number, visited as the kind serde_json reads it as (so the visitor's range checks and
    /// messages are the same).
    fn number<'de, V: Visitor<'de>>(&'de self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Node::U64(n) => visitor.visit_u64(*n),
            Node::I64(n) => visitor.visit_i64(*n),
            Node::F64(x, _) => visitor.visit_f64(*x),
            _ => Err(self.refuse(&visitor)),
        }
    }
}

struct Seq<'de> {
    items: std::slice::Iter<'de, Node>,
    i: usize,
}

impl Seq<'_> {
    /// After the visitor: elements it left unread are an error (serde's words for it).
    fn end(&self, len: usize) -> Result<(), Error> {
        if self.items.len() == 0 {
            Ok(())
        } else {
            Err(de::Error::invalid_length(len, &Fewer(self.i, "sequence")))
        }
    }
}

/// serde's "expected N elements in sequence" of a too long list.
struct Fewer(usize, &'static str);

impl Expected for Fewer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0 == 1 {
            write!(f, "1 element in {}", self.1)
        } else {
            write!(f, "{} elements in {}", self.0, self.1)
        }
    }
}

impl<'de> de::SeqAccess<'de> for &mut Seq<'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Error> {
        match self.items.next() {
            Some(node) => {
                let i = self.i;
                self.i += 1;
                seed.deserialize(node).map(Some).map_err(|e| e.at_index(i))
            }
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

struct Map<'de> {
    entries: std::slice::Iter<'de, (String, Node)>,
    value: Option<&'de (String, Node)>,
}

impl Map<'_> {
    fn end(&self, len: usize) -> Result<(), Error> {
        let left = self.entries.len();
        if left == 0 {
            Ok(())
        } else {
            Err(de::Error::invalid_length(len, &Fewer(len - left, "map")))
        }
    }
}

impl<'de> de::MapAccess<'de> for &mut Map<'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        match self.entries.next() {
            Some(entry) => {
                self.value = Some(entry);
                seed.deserialize(Key(&entry.0)).map(Some).map_err(|e| e.at_key(&entry.0))
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        match self.value.take() {
            Some((key, value)) => seed.deserialize(value).map_err(|e| e.at_key(key)),
            None => Err(de::Error::custom("value is missing")),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

/// An object key: a string to every visitor (serde_json's keys, less its numeric keys).
struct Key<'de>(&'de str);

impl<'de> de::Deserializer<'de> for Key<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_borrowed_str(self.0)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option
        unit unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

/// An enum written as `{"variant": value}`.
struct Variant<'de> {
    key: &'de str,
    value: &'de Node,
}

impl<'de> de::EnumAccess<'de> for Variant<'de> {
    type Error = Error;
    type Variant = &'de Node;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, &'de Node), Error> {
        seed.deserialize(Key(self.key)).map(|v| (v, self.value))
    }
}

impl<'de> de::VariantAccess<'de> for &'de Node {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        <() as de::Deserialize>::deserialize(self)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        de::Deserializer::deserialize_any(self, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(self, _fields: &'static [&'static str], visitor: V) -> Result<V::Value, Error> {
        de::Deserializer::deserialize_any(self, visitor)
    }
}
