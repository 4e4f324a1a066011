//! The JSON path of a parse error (`ropes[1].points`), found after the fact.
//!
//! Scenes (and the JS API's JSON arguments) are parsed by plain `serde_json`; when that fails,
//! its error's line and column give the byte offset where the parser stopped, and
//! [`error_path`] scans the text up to that offset with a stack of object keys and array
//! indices. This replaced `serde_path_to_error`, whose tracking deserializer doubled the
//! scene parser's code in the wasm (issue 12's size budget: about 19 KB of the lite wasm,
//! gzipped); `tests/json_paths.rs` checks the two agree on mutated preset scenes.
//!
//! Where serde_json stops, and so what the path names: just after a value of the wrong type
//! or an unknown variant (the value), at the `[` or `{` of an array or object where a number
//! or string was expected (that value), just after an unknown object key (that key, as
//! `serde_path_to_error` named it), and after the closing `}` or `]` of a struct or array
//! that is incomplete or too long (`missing field`, `invalid length`: the struct or array).
//! One case names less than `serde_path_to_error` did: an error inside an internally tagged
//! `shape` (an obstacle's or a body's) that serde finds only once it has buffered the whole
//! object, when `shape` is the last key of its obstacle or body: the path is then the
//! obstacle's (`obstacles[0]`, not `obstacles[0].shape`). The presets and exported scenes
//! put `shape` first, where the path is `obstacles[0].shape` as before.

/// The path (`ropes[1].points`; `""` at the top level) of `err` in `text`.
pub fn error_path(text: &str, err: &serde_json::Error) -> String {
    // An enum written as an object (`{"variant": …}`) whose key is no variant: serde_json
    // stops after the key, which names the enum's value, not a field.
    let variant_key = err.to_string().starts_with("unknown variant `");
    path_at(text, offset_of(text, err.line(), err.column()), variant_key)
}

/// Byte offset of serde_json's (1-based line, column = bytes since the line's start).
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let start = if line <= 1 {
        0
    } else {
        text.bytes().enumerate().filter(|&(_, b)| b == b'\n').nth(line - 2).map_or(text.len(), |(i, _)| i + 1)
    };
    (start + column).min(text.len())
}

enum Frame {
    /// An object and the key whose value is being read (None before the first key, and
    /// between a `,` and the next key).
    Object(Option<String>),
    /// An array, the index of its current element, and whether that element has begun.
    Array(usize, bool),
}

/// The path at byte `end` of `text`; `variant_key` leaves out an object key read last.
fn path_at(text: &str, end: usize, variant_key: bool) -> String {
    let b = text.as_bytes();
    let mut stack: Vec<Frame> = Vec::new();
    // In an object: true where a key (not a value) comes next.
    let mut want_key = false;
    // The last token read was an object key.
    let mut on_key = false;
    let mut i = 0;
    while i < end {
        let c = b[i];
        if matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b':') {
            i += 1;
            continue;
        }
        on_key = false;
        if let Some(Frame::Array(_, begun)) = stack.last_mut() {
            if c != b']' && c != b',' {
                *begun = true;
            }
        }
        match c {
            b'{' => {
                stack.push(Frame::Object(None));
                want_key = true;
            }
            b'[' => {
                stack.push(Frame::Array(0, false));
                want_key = false;
            }
            b'}' | b']' => {
                stack.pop();
                want_key = false;
            }
            b',' => match stack.last_mut() {
                Some(Frame::Object(key)) => {
                    *key = None;
                    want_key = true;
                }
                Some(Frame::Array(index, begun)) => {
                    *index += 1;
                    *begun = false;
                }
                None => {}
            },
            b'"' => {
                let (s, next) = string_at(b, i + 1, end);
                if want_key {
                    // (A key cut short by the end of the text is not one yet.)
                    if let (Some(Frame::Object(key)), Some(s)) = (stack.last_mut(), s) {
                        *key = Some(s);
                        on_key = true;
                    }
                    want_key = false;
                }
                i = next;
                continue;
            }
            // Numbers, true, false, null: one token.
            _ => {
                while i < end && !matches!(b[i], b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r' | b':') {
                    i += 1;
                }
                continue;
            }
        }
        i += 1;
    }
    match stack.last_mut() {
        // Stopped at the `[` or `{` of an array's element, not read (a number or a string was
        // expected): the path names that element.
        Some(Frame::Array(_, begun)) if matches!(b.get(end), Some(b'[' | b'{')) => *begun = true,
        Some(Frame::Object(key)) if on_key && variant_key => *key = None,
        _ => {}
    }
    let mut path = String::new();
    for frame in &stack {
        match frame {
            Frame::Object(Some(key)) => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(key);
            }
            Frame::Array(index, true) => {
                path.push('[');
                path.push_str(&index.to_string());
                path.push(']');
            }
            _ => {}
        }
    }
    path
}

/// The string whose contents start at `b[i]` (after its `"`), decoded (None where the scan
/// stops inside it), and the index after its closing quote (or `end`).
fn string_at(b: &[u8], mut i: usize, end: usize) -> (Option<String>, usize) {
    let mut out: Vec<u8> = Vec::new();
    while i < end {
        match b[i] {
            b'"' => return (Some(String::from_utf8_lossy(&out).into_owned()), i + 1),
            b'\\' if i + 1 < end => {
                let e = b[i + 1];
                i += 2;
                let c = match e {
                    b'n' => '\n',
                    b't' => '\t',
                    b'r' => '\r',
                    b'b' => '\u{8}',
                    b'f' => '\u{c}',
                    b'u' => {
                        let (unit, next) = hex4(b, i, end);
                        i = next;
                        let code = if (0xD800..0xDC00).contains(&unit) && b.get(i..i + 2) == Some(b"\\u") {
                            let (low, next) = hex4(b, i + 2, end);
                            if (0xDC00..0xE000).contains(&low) {
                                i = next;
                                0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                            } else {
                                unit
                            }
                        } else {
                            unit
                        };
                        char::from_u32(code).unwrap_or('\u{fffd}')
                    }
                    other => other as char,
                };
                let mut buf = [0; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
            other => {
                out.push(other);
                i += 1;
            }
        }
    }
    (None, end)
}

/// Four hex digits at `b[i..]` (fewer before `end` or a non-digit: what was read).
fn hex4(b: &[u8], mut i: usize, end: usize) -> (u32, usize) {
    let mut v = 0;
    for _ in 0..4 {
        match b.get(i).filter(|_| i < end).and_then(|&d| (d as char).to_digit(16)) {
            Some(d) => {
                v = v * 16 + d;
                i += 1;
            }
            None => break,
        }
    }
    (v, i)
}
