//! serde's `Serializer` writing JSON text as serde_json writes it, compact (`to_string`) or
//! indented (`to_string_pretty`: two spaces per level, `"key": value`, empty lists and
//! objects as `[]` and `{}`).

use serde::ser::{self, Serialize};

use super::Error;

pub(super) fn write<T: Serialize + ?Sized>(x: &T, pretty: bool) -> Result<String, Error> {
    let mut w = Writer { out: String::new(), pretty, indent: 0 };
    x.serialize(&mut w)?;
    Ok(w.out)
}

impl ser::Error for Error {
    fn custom<T: std::fmt::Display>(msg: T) -> Error {
        Error::new(msg.to_string())
    }
}

pub(super) fn push_u64(out: &mut String, mut n: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // ASCII digits.
    out.push_str(std::str::from_utf8(&buf[i..]).unwrap_or_default());
}

fn push_i64(out: &mut String, n: i64) {
    if n < 0 {
        out.push('-');
    }
    push_u64(out, n.unsigned_abs());
}

/// A finite `f64` by zmij's shortest digits, `null` otherwise (serde_json's).
pub(super) fn push_f64(out: &mut String, x: f64) {
    if x.is_finite() {
        out.push_str(zmij::Buffer::new().format_finite(x));
    } else {
        out.push_str("null");
    }
}

/// `s` quoted and escaped as serde_json escapes strings (`"` and `\`, the short escapes
/// `\b \f \n \r \t`, other control characters as `\u00xx`).
pub(super) fn push_quoted(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    // The runs between escapes are cut at ASCII bytes, so each is UTF-8 (by bytes, not `str`
    // slices: those link core's char-boundary panic and its Unicode tables).
    let bytes = s.as_bytes();
    let run = |a: usize, b: usize| std::str::from_utf8(&bytes[a..b]).unwrap_or("");
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let esc: &str = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            0x08 => "\\b",
            0x0c => "\\f",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0..=0x1f => "",
            _ => continue,
        };
        out.push_str(run(start, i));
        if esc.is_empty() {
            out.push_str("\\u00");
            out.push(HEX[(b >> 4) as usize] as char);
            out.push(HEX[(b & 0xf) as usize] as char);
        } else {
            out.push_str(esc);
        }
        start = i + 1;
    }
    out.push_str(run(start, bytes.len()));
    out.push('"');
}

struct Writer {
    out: String,
    pretty: bool,
    indent: usize,
}

impl Writer {
    fn open(&mut self, bracket: char) -> Compound<'_> {
        self.out.push(bracket);
        self.indent += 1;
        Compound { w: self, first: true }
    }

    fn newline(&mut self) {
        if self.pretty {
            self.out.push('\n');
            for _ in 0..self.indent {
                self.out.push_str("  ");
            }
        }
    }

    /// `"key": ` (or `"key":` compact).
    fn key(&mut self, key: &str) {
        push_quoted(&mut self.out, key);
        self.out.push_str(if self.pretty { ": " } else { ":" });
    }
}

/// An array or object being written.
struct Compound<'a> {
    w: &'a mut Writer,
    first: bool,
}

impl<'a> Compound<'a> {
    /// Before an element or a key.
    fn item(&mut self) {
        if !self.first {
            self.w.out.push(',');
        }
        self.first = false;
        self.w.newline();
    }

    fn close(self, bracket: char) -> &'a mut Writer {
        self.w.indent -= 1;
        if !self.first {
            self.w.newline();
        }
        self.w.out.push(bracket);
        self.w
    }

    fn element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        self.item();
        v.serialize(&mut *self.w)
    }

    fn field<T: Serialize + ?Sized>(&mut self, key: &str, v: &T) -> Result<(), Error> {
        self.item();
        self.w.key(key);
        v.serialize(&mut *self.w)
    }
}

impl<'a> ser::Serializer for &'a mut Writer {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.out.push_str(if v { "true" } else { "false" });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), Error> {
        self.serialize_i64(v as i64)
    }
    fn serialize_i16(self, v: i16) -> Result<(), Error> {
        self.serialize_i64(v as i64)
    }
    fn serialize_i32(self, v: i32) -> Result<(), Error> {
        self.serialize_i64(v as i64)
    }
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        push_i64(&mut self.out, v);
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Result<(), Error> {
        self.serialize_u64(v as u64)
    }
    fn serialize_u16(self, v: u16) -> Result<(), Error> {
        self.serialize_u64(v as u64)
    }
    fn serialize_u32(self, v: u32) -> Result<(), Error> {
        self.serialize_u64(v as u64)
    }
    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        push_u64(&mut self.out, v);
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        if v.is_finite() {
            self.out.push_str(zmij::Buffer::new().format_finite(v));
        } else {
            self.out.push_str("null");
        }
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        push_f64(&mut self.out, v);
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        push_quoted(&mut self.out, v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        let mut seq = self.open('[');
        for b in v {
            seq.element(b)?;
        }
        seq.close(']');
        Ok(())
    }
    fn serialize_none(self) -> Result<(), Error> {
        self.serialize_unit()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<(), Error> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Error> {
        self.out.push_str("null");
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Result<(), Error> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _name: &'static str, v: &T) -> Result<(), Error> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<(), Error> {
        let mut obj = self.open('{');
        obj.field(variant, v)?;
        obj.close('}');
        Ok(())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'a>, Error> {
        Ok(self.open('['))
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a>, Error> {
        self.serialize_seq(Some(len))
    }
    /// `{"variant": [ … ]}`: the object is closed by `SerializeTupleVariant::end`.
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a>, Error> {
        self.variant_open(variant, '[')
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'a>, Error> {
        Ok(self.open('{'))
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Compound<'a>, Error> {
        Ok(self.open('{'))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a>, Error> {
        self.variant_open(variant, '{')
    }
}

impl Writer {
    /// `{"variant": ` and the inner array or object opened.
    fn variant_open(&mut self, variant: &str, bracket: char) -> Result<Compound<'_>, Error> {
        self.out.push('{');
        self.indent += 1;
        self.newline();
        self.key(variant);
        Ok(self.open(bracket))
    }

    /// Closes what `variant_open` opened around the inner value.
    fn variant_close(&mut self) {
        self.indent -= 1;
        self.newline();
        self.out.push('}');
    }
}

impl ser::SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        self.element(v)
    }
    fn end(self) -> Result<(), Error> {
        self.close(']');
        Ok(())
    }
}

impl ser::SerializeTuple for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        self.element(v)
    }
    fn end(self) -> Result<(), Error> {
        self.close(']');
        Ok(())
    }
}

impl ser::SerializeTupleStruct for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        self.element(v)
    }
    fn end(self) -> Result<(), Error> {
        self.close(']');
        Ok(())
    }
}

impl ser::SerializeTupleVariant for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        self.element(v)
    }
    fn end(self) -> Result<(), Error> {
        self.close(']').variant_close();
        Ok(())
    }
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Error;
    /// Keys must be strings (serde_json also takes numbers; no map here has them).
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.item();
        let start = self.w.out.len();
        key.serialize(&mut *self.w)?;
        if self.w.out.as_bytes().get(start) != Some(&b'"') {
            return Err(Error::new("key must be a string"));
        }
        self.w.out.push_str(if self.w.pretty { ": " } else { ":" });
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        v.serialize(&mut *self.w)
    }
    fn end(self) -> Result<(), Error> {
        self.close('}');
        Ok(())
    }
}

impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Result<(), Error> {
        self.field(key, v)
    }
    fn end(self) -> Result<(), Error> {
        self.close('}');
        Ok(())
    }
}

impl ser::SerializeStructVariant for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Result<(), Error> {
        self.field(key, v)
    }
    fn end(self) -> Result<(), Error> {
        self.close('}').variant_close();
        Ok(())
    }
}
