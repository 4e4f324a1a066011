//! The lite build's JSON text layer (issue 12 §5): serde's `Deserializer` and `Serializer`
//! for JSON text, and a small `Value`, in place of serde_json's. The scene types keep their
//! serde derives; only the text layer under them changes. The full build (the playground,
//! the native runner) keeps serde_json; this module is compiled in both so that the native
//! tests hold it to serde_json (tests/json_text.rs: the same values read from every preset
//! and thousands of mutations of them, the same text written, the same error paths as
//! `serde_path_to_error`).
//!
//! Why not serde_json in the lite wasm: its parser is generic over the reader and inlined
//! into every visitor it serves (`deserialize_struct` 5.4 KB and `deserialize_seq` 2-4 KB per
//! scene type, raw), its `Value` is a `BTreeMap`, and its error messages format serde's
//! `Unexpected` with core's float `Display` and `str`'s `Debug` (Grisu, Dragon4 and the
//! Unicode tables). Here the text is first parsed into a small tree ([`parse`], no generics),
//! and the `Deserializer` over that tree is a thin dispatch per visitor.
//!
//! What it reads and writes is serde_json's: the same grammar (RFC 8259, no trailing commas or
//! comments, nesting up to 127 deep), numbers read correctly rounded as serde_json reads them
//! with its `float_roundtrip` feature (core's `str::parse`, an f32 field read as an f32 and not
//! as an f64 rounded again: the same bits, and every float the writer prints reads back as
//! itself), and text written as serde_json writes it (`to_string`,
//! `to_string_pretty`; floats by zmij's shortest digits, non-finite ones as `null`). Error
//! messages are serde's and serde_json's words (`invalid type: string "x", expected f32`)
//! without serde_json's ` at line L column C`: instead every error carries its JSON path,
//! tracked while reading (`ropes[2].points`), which `scene::json_path` finds after the fact
//! for serde_json's.

mod de;
mod float;
mod ser;
mod value;

pub use value::{Map, Value};

use std::fmt;

/// A reading or writing error: serde's or serde_json's message and the JSON path where it
/// arose.
///
/// Boxed, as serde_json's: a `Result<f32, Error>` is then a pointer wide, which keeps the code
/// every visitor instantiates small.
#[derive(Debug)]
pub struct Error(Box<Inner>);

#[derive(Debug)]
struct Inner {
    /// Path segments, innermost first (they are added as the error travels out).
    path: Vec<Seg>,
    msg: String,
    /// Too deep: the path names the object key the nesting is under, not 127 array indices
    /// (set until the error leaves through a key).
    too_deep: bool,
}

#[derive(Debug)]
enum Seg {
    Key(String),
    Index(usize),
}

impl Error {
    #[cold]
    #[inline(never)]
    fn new(msg: impl Into<String>) -> Error {
        Error(Box::new(Inner { path: Vec::new(), msg: msg.into(), too_deep: false }))
    }

    #[cold]
    #[inline(never)]
    fn at_key(mut self, key: &str) -> Error {
        self.0.path.push(Seg::Key(key.to_string()));
        self.0.too_deep = false;
        self
    }

    #[cold]
    #[inline(never)]
    fn at_index(mut self, i: usize) -> Error {
        if self.0.too_deep {
            self.0.path.clear();
        } else {
            self.0.path.push(Seg::Index(i));
        }
        self
    }

    /// The JSON path (`ropes[1].points`; `""` at the top level).
    pub fn path(&self) -> String {
        let mut out = String::new();
        for seg in self.0.path.iter().rev() {
            match seg {
                Seg::Key(k) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(k);
                }
                Seg::Index(i) => {
                    out.push('[');
                    ser::push_u64(&mut out, *i as u64);
                    out.push(']');
                }
            }
        }
        out
    }

    /// The message, without the path.
    pub fn message(&self) -> &str {
        &self.0.msg
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.msg)
    }
}

impl std::error::Error for Error {}

/// Reads a `T` from JSON text (the whole text: trailing characters other than white space
/// are an error).
pub fn from_str<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, Error> {
    let node = parse(text)?;
    T::deserialize(&node)
}

/// Writes `x` as compact JSON (serde_json's `to_string`).
pub fn to_string<T: serde::Serialize + ?Sized>(x: &T) -> Result<String, Error> {
    ser::write(x, false)
}

/// Writes `x` as indented JSON (serde_json's `to_string_pretty`: two spaces, `"key": value`).
pub fn to_string_pretty<T: serde::Serialize + ?Sized>(x: &T) -> Result<String, Error> {
    ser::write(x, true)
}

/// `x` as a [`Value`] (written, then read back: for the few reports that embed a
/// serialised struct). Not serde_json's `to_value` for floats: an `f32` comes back from its
/// shortest digits (0.1, where serde_json gives 0.10000000149011612) and an `f64` through
/// serde_json's default reader, not correctly rounded in the last digit.
pub fn to_value<T: serde::Serialize + ?Sized>(x: &T) -> Result<Value, Error> {
    Ok(Value::of(parse(&to_string(x)?)?))
}

/// `s` as a JSON string literal, quotes included (serde_json's escaping).
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    ser::push_quoted(&mut out, s);
    out
}

/// A parsed JSON value, the tree the `Deserializer` walks. Objects keep their keys in text
/// order, duplicates included (the visitor refuses a duplicate field, as with serde_json).
#[derive(Debug)]
pub(crate) enum Node {
    Null,
    Bool(bool),
    /// serde_json's three number kinds: a non-negative integer, a negative one, anything else.
    U64(u64),
    I64(i64),
    /// A float, and the same text read as an f32 (correctly rounded once, as serde_json's
    /// `float_roundtrip` reads an f32 field: not the f64 rounded again).
    F64(f64, f32),
    Str(String),
    Arr(Vec<Node>),
    Obj(Vec<(String, Node)>),
}

/// Nesting this deep is refused (serde_json's limit: 127 levels are read): the recursive
/// parser's stack.
const MAX_DEPTH: u32 = 128;

/// Values in one text, at most. The tree is built before the types read it (16 bytes a value
/// in wasm32, each list trimmed to its length when it closes), so this bounds its memory at
/// about 32 MB, where a 16 MB text of `[0,0,…` would take 200 MB untrimmed and uncapped (a
/// wasm memory never shrinks). The largest scene the limits allow (`crate::limits`: 20,000
/// points, 40,000 links, 1,000 bodies, 2,000 joints) is about a million values.
pub(crate) const MAX_VALUES: usize = 2_000_000;

/// Parses JSON text into a [`Node`] tree; a syntax error names the path where it was found.
pub(crate) fn parse(text: &str) -> Result<Node, Error> {
    let mut p = Parser { b: text.as_bytes(), i: 0, depth: 0, values: 0 };
    let v = p.value()?;
    p.ws();
    if p.i < p.b.len() {
        return Err(Error::new("trailing characters"));
    }
    Ok(v)
}

struct Parser<'a> {
    b: &'a [u8],
    i: usize,
    depth: u32,
    /// Values read so far ([`MAX_VALUES`]).
    values: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.b.get(self.i) {
            self.i += 1;
        }
    }

    fn peek(&self) -> u8 {
        self.b.get(self.i).copied().unwrap_or(0)
    }

    fn eof(&self) -> bool {
        self.i >= self.b.len()
    }

    fn value(&mut self) -> Result<Node, Error> {
        self.ws();
        if self.eof() {
            return Err(Error::new("EOF while parsing a value"));
        }
        self.values += 1;
        if self.values > MAX_VALUES {
            return Err(Error::new("more than 2000000 values: too large to read"));
        }
        match self.peek() {
            b'n' => self.ident(b"null", Node::Null),
            b't' => self.ident(b"true", Node::Bool(true)),
            b'f' => self.ident(b"false", Node::Bool(false)),
            b'"' => {
                self.i += 1;
                Ok(Node::Str(self.string()?))
            }
            b'-' => {
                self.i += 1;
                self.number(false)
            }
            b'0'..=b'9' => self.number(true),
            b'[' => {
                self.enter()?;
                let mut items = Vec::new();
                self.ws();
                if self.peek() == b']' {
                    self.i += 1;
                } else {
                    loop {
                        let v = self.value().map_err(|e| e.at_index(items.len()))?;
                        items.push(v);
                        self.ws();
                        match self.peek() {
                            b',' => {
                                self.i += 1;
                                self.ws();
                                if self.peek() == b']' {
                                    return Err(Error::new("trailing comma"));
                                }
                            }
                            b']' => {
                                self.i += 1;
                                break;
                            }
                            _ if self.eof() => return Err(Error::new("EOF while parsing a list")),
                            _ => return Err(Error::new("expected `,` or `]`")),
                        }
                    }
                }
                self.depth -= 1;
                items.shrink_to_fit();
                Ok(Node::Arr(items))
            }
            b'{' => {
                self.enter()?;
                let mut entries = Vec::new();
                self.ws();
                if self.peek() == b'}' {
                    self.i += 1;
                } else {
                    loop {
                        self.ws();
                        match self.peek() {
                            b'"' => self.i += 1,
                            _ if self.eof() => return Err(Error::new("EOF while parsing an object")),
                            _ => return Err(Error::new("key must be a string")),
                        }
                        let key = self.string()?;
                        self.ws();
                        match self.peek() {
                            b':' => self.i += 1,
                            _ if self.eof() => return Err(Error::new("EOF while parsing an object").at_key(&key)),
                            _ => return Err(Error::new("expected `:`").at_key(&key)),
                        }
                        let v = self.value().map_err(|e| e.at_key(&key))?;
                        entries.push((key, v));
                        self.ws();
                        match self.peek() {
                            b',' => {
                                self.i += 1;
                                self.ws();
                                if self.peek() == b'}' {
                                    return Err(Error::new("trailing comma"));
                                }
                            }
                            b'}' => {
                                self.i += 1;
                                break;
                            }
                            _ if self.eof() => return Err(Error::new("EOF while parsing an object")),
                            _ => return Err(Error::new("expected `,` or `}`")),
                        }
                    }
                }
                self.depth -= 1;
                entries.shrink_to_fit();
                Ok(Node::Obj(entries))
            }
            _ => Err(Error::new("expected value")),
        }
    }

    /// Past a `[` or `{`, one level deeper.
    fn enter(&mut self) -> Result<(), Error> {
        self.i += 1;
        self.depth += 1;
        if self.depth >= MAX_DEPTH {
            let mut e = Error::new("recursion limit exceeded");
            e.0.too_deep = true;
            return Err(e);
        }
        Ok(())
    }

    fn ident(&mut self, word: &[u8], v: Node) -> Result<Node, Error> {
        for &c in word {
            if self.eof() {
                return Err(Error::new("EOF while parsing a value"));
            }
            if self.b[self.i] != c {
                return Err(Error::new("expected ident"));
            }
            self.i += 1;
        }
        Ok(v)
    }

    /// A string's contents after its `"`, unescaped; past its closing quote.
    fn string(&mut self) -> Result<String, Error> {
        let mut out: Vec<u8> = Vec::new();
        loop {
            let Some(&c) = self.b.get(self.i) else {
                return Err(Error::new("EOF while parsing a string"));
            };
            self.i += 1;
            match c {
                b'"' => break,
                b'\\' => {
                    let Some(&e) = self.b.get(self.i) else {
                        return Err(Error::new("EOF while parsing a string"));
                    };
                    self.i += 1;
                    let ch = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hi = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&hi) {
                                if self.b.get(self.i..self.i + 2) != Some(b"\\u") {
                                    return Err(Error::new("lone leading surrogate in hex escape"));
                                }
                                self.i += 2;
                                let lo = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    return Err(Error::new("lone leading surrogate in hex escape"));
                                }
                                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                            } else {
                                hi
                            };
                            match char::from_u32(code) {
                                Some(ch) => ch,
                                None => return Err(Error::new("invalid unicode code point")),
                            }
                        }
                        _ => return Err(Error::new("invalid escape")),
                    };
                    let mut buf = [0; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
                0..=0x1f => return Err(Error::new("control character (\\u0000-\\u001F) found while parsing a string")),
                _ => out.push(c),
            }
        }
        // The text is a `str` and escapes were encoded as UTF-8: always valid.
        String::from_utf8(out).map_err(|_| Error::new("invalid unicode code point"))
    }

    fn hex4(&mut self) -> Result<u32, Error> {
        let mut v = 0;
        for _ in 0..4 {
            let Some(&d) = self.b.get(self.i) else {
                return Err(Error::new("EOF while parsing a string"));
            };
            let Some(d) = (d as char).to_digit(16) else {
                return Err(Error::new("invalid escape"));
            };
            v = v * 16 + d;
            self.i += 1;
        }
        Ok(v)
    }

    fn digit(&self) -> Option<u64> {
        match self.peek() {
            c @ b'0'..=b'9' => Some((c - b'0') as u64),
            _ => None,
        }
    }

    /// A number (after its `-`, if any), as serde_json reads it (`parse_integer` and what it
    /// calls, with `float_roundtrip`).
    fn number(&mut self, positive: bool) -> Result<Node, Error> {
        let start = self.i;
        if self.eof() {
            return Err(Error::new("EOF while parsing a value"));
        }
        let mut sig = match self.digit() {
            Some(0) => {
                self.i += 1;
                if self.digit().is_some() {
                    return Err(Error::new("invalid number"));
                }
                0
            }
            Some(d) => {
                self.i += 1;
                d
            }
            None => return Err(Error::new("invalid number")),
        };
        if sig != 0 {
            while let Some(d) = self.digit() {
                match sig.checked_mul(10).and_then(|s| s.checked_add(d)) {
                    Some(s) => {
                        sig = s;
                        self.i += 1;
                    }
                    None => {
                        // More digits than a u64 holds: a float.
                        while self.digit().is_some() {
                            self.i += 1;
                        }
                        return self.fraction(start, positive, true);
                    }
                }
            }
        }
        match self.peek() {
            b'.' | b'e' | b'E' => self.fraction(start, positive, sig != 0),
            _ if positive => Ok(Node::U64(sig)),
            _ => {
                let neg = (sig as i64).wrapping_neg();
                // A float on underflow, or for `-0` (serde_json's f32 is this f64 rounded).
                let f = -(sig as f64);
                Ok(if neg >= 0 { Node::F64(f, f as f32) } else { Node::I64(neg) })
            }
        }
    }

    /// The `.digits` and `e±digits` parts of a float whose text starts at `start` (`nonzero`:
    /// a digit before them is not 0, which with the fraction's decides what an exponent too
    /// large for an i32 means, as in serde_json).
    fn fraction(&mut self, start: usize, positive: bool, mut nonzero: bool) -> Result<Node, Error> {
        if self.peek() == b'.' {
            self.i += 1;
            let mut any = false;
            while let Some(d) = self.digit() {
                self.i += 1;
                any = true;
                nonzero |= d != 0;
            }
            if !any {
                return Err(Error::new(if self.eof() { "EOF while parsing a value" } else { "invalid number" }));
            }
        }
        if let b'e' | b'E' = self.peek() {
            self.i += 1;
            let positive_exp = match self.peek() {
                b'+' => {
                    self.i += 1;
                    true
                }
                b'-' => {
                    self.i += 1;
                    false
                }
                _ => true,
            };
            if self.eof() {
                return Err(Error::new("EOF while parsing a value"));
            }
            let Some(first) = self.digit() else {
                return Err(Error::new("invalid number"));
            };
            self.i += 1;
            let mut e = first as i32;
            while let Some(d) = self.digit() {
                self.i += 1;
                match e.checked_mul(10).and_then(|x| x.checked_add(d as i32)) {
                    Some(x) => e = x,
                    None => {
                        if nonzero && positive_exp {
                            return Err(Error::new("number out of range"));
                        }
                        while self.digit().is_some() {
                            self.i += 1;
                        }
                        let zero = if positive { 0.0 } else { -0.0 };
                        return Ok(Node::F64(zero, zero as f32));
                    }
                }
            }
        }
        from_text(&self.b[start..self.i], positive)
    }
}

/// A JSON number's text (its syntax already checked, without its sign) read correctly rounded
/// as an f64 and as an f32, as serde_json with `float_roundtrip` reads it: a float this build
/// writes in its shortest digits reads back as the same bits (a saved world's `time` continues
/// exactly). Too large for an f64 is an error; too large for an f32 only where an f32 is read.
fn from_text(text: &[u8], positive: bool) -> Result<Node, Error> {
    match float::parse(text, &POW10) {
        (f, _) if f.is_infinite() => Err(Error::new("number out of range")),
        (f, g) => Ok(if positive { Node::F64(f, g) } else { Node::F64(-f, -g) }),
    }
}

/// 1e0 … 1e308 (each a literal, so each is the correctly rounded f64): the float reader's scale.
static POW10: [f64; 309] = [
    1e000, 1e001, 1e002, 1e003, 1e004, 1e005, 1e006, 1e007, 1e008, 1e009, //
    1e010, 1e011, 1e012, 1e013, 1e014, 1e015, 1e016, 1e017, 1e018, 1e019, //
    1e020, 1e021, 1e022, 1e023, 1e024, 1e025, 1e026, 1e027, 1e028, 1e029, //
    1e030, 1e031, 1e032, 1e033, 1e034, 1e035, 1e036, 1e037, 1e038, 1e039, //
    1e040, 1e041, 1e042, 1e043, 1e044, 1e045, 1e046, 1e047, 1e048, 1e049, //
    1e050, 1e051, 1e052, 1e053, 1e054, 1e055, 1e056, 1e057, 1e058, 1e059, //
    1e060, 1e061, 1e062, 1e063, 1e064, 1e065, 1e066, 1e067, 1e068, 1e069, //
    1e070, 1e071, 1e072, 1e073, 1e074, 1e075, 1e076, 1e077, 1e078, 1e079, //
    1e080, 1e081, 1e082, 1e083, 1e084, 1e085, 1e086, 1e087, 1e088, 1e089, //
    1e090, 1e091, 1e092, 1e093, 1e094, 1e095, 1e096, 1e097, 1e098, 1e099, //
    1e100, 1e101, 1e102, 1e103, 1e104, 1e105, 1e106, 1e107, 1e108, 1e109, //
    1e110, 1e111, 1e112, 1e113, 1e114, 1e115, 1e116, 1e117, 1e118, 1e119, //
    1e120, 1e121, 1e122, 1e123, 1e124, 1e125, 1e126, 1e127, 1e128, 1e129, //
    1e130, 1e131, 1e132, 1e133, 1e134, 1e135, 1e136, 1e137, 1e138, 1e139, //
    1e140, 1e141, 1e142, 1e143, 1e144, 1e145, 1e146, 1e147, 1e148, 1e149, //
    1e150, 1e151, 1e152, 1e153, 1e154, 1e155, 1e156, 1e157, 1e158, 1e159, //
    1e160, 1e161, 1e162, 1e163, 1e164, 1e165, 1e166, 1e167, 1e168, 1e169, //
    1e170, 1e171, 1e172, 1e173, 1e174, 1e175, 1e176, 1e177, 1e178, 1e179, //
    1e180, 1e181, 1e182, 1e183, 1e184, 1e185, 1e186, 1e187, 1e188, 1e189, //
    1e190, 1e191, 1e192, 1e193, 1e194, 1e195, 1e196, 1e197, 1e198, 1e199, //
    1e200, 1e201, 1e202, 1e203, 1e204, 1e205, 1e206, 1e207, 1e208, 1e209, //
    1e210, 1e211, 1e212, 1e213, 1e214, 1e215, 1e216, 1e217, 1e218, 1e219, //
    1e220, 1e221, 1e222, 1e223, 1e224, 1e225, 1e226, 1e227, 1e228, 1e229, //
    1e230, 1e231, 1e232, 1e233, 1e234, 1e235, 1e236, 1e237, 1e238, 1e239, //
    1e240, 1e241, 1e242, 1e243, 1e244, 1e245, 1e246, 1e247, 1e248, 1e249, //
    1e250, 1e251, 1e252, 1e253, 1e254, 1e255, 1e256, 1e257, 1e258, 1e259, //
    1e260, 1e261, 1e262, 1e263, 1e264, 1e265, 1e266, 1e267, 1e268, 1e269, //
    1e270, 1e271, 1e272, 1e273, 1e274, 1e275, 1e276, 1e277, 1e278, 1e279, //
    1e280, 1e281, 1e282, 1e283, 1e284, 1e285, 1e286, 1e287, 1e288, 1e289, //
    1e290, 1e291, 1e292, 1e293, 1e294, 1e295, 1e296, 1e297, 1e298, 1e299, //
    1e300, 1e301, 1e302, 1e303, 1e304, 1e305, 1e306, 1e307, 1e308,
];
