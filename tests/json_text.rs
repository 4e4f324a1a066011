//! `ropelab::json`, the lite build's JSON text layer (issue 12 §5), against serde_json and
//! `serde_path_to_error`: the same values read (bit for bit) from every preset scene and from
//! thousands of mutations of them, the same text written for scenes (presets and stepped
//! worlds, so arbitrary floats), the same numbers read from number texts of every shape, and
//! errors named at the same JSON path.
//!
//! Runs in both builds: `cargo test --release --test json_text` (full) and
//! `cargo test --release --no-default-features --test json_text` (lite: what the lite wasm
//! runs; scenes with bodies are refused by both readers there).

use ropelab::leash::Rng;
use ropelab::scene::Scene;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};

#[path = "common/mutations.rs"]
mod mutations;

fn presets() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = std::fs::read_dir("www/scenes")
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            (p.display().to_string(), std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}

/// A value as serde_json writes it (the comparison of two read values: floats printed
/// shortest, so equal text is equal bits).
fn text_of<T: Serialize>(x: &T) -> String {
    serde_json::to_string(x).unwrap()
}

#[test]
fn writes_scenes_as_serde_json_does() {
    let mut checked = 0;
    for (name, text) in presets() {
        let scene = match serde_json::from_str::<Scene>(&text) {
            Ok(scene) => scene,
            Err(e) if !ropelab::FULL => {
                assert!(e.to_string().contains("lite build"), "{name}: {e}");
                continue;
            }
            Err(e) => panic!("{name}: {e}"),
        };
        let mut texts = vec![(scene.clone(), format!("{name} as read"))];
        // A stepped world exported: arbitrary floats, every exported field.
        if let Ok(mut world) = scene.build() {
            for _ in 0..90 {
                world.step(1.0 / 60.0).unwrap();
            }
            texts.push((Scene::from_world(&world, &scene.name, scene.camera), format!("{name} after 90 steps")));
        }
        for (s, what) in texts {
            assert_eq!(
                ropelab::json::to_string_pretty(&s).unwrap(),
                serde_json::to_string_pretty(&s).unwrap(),
                "{what}"
            );
            assert_eq!(ropelab::json::to_string(&s).unwrap(), serde_json::to_string(&s).unwrap(), "{what}");
            assert_eq!(s.to_json(), serde_json::to_string_pretty(&s).unwrap(), "{what}");
            checked += 1;
        }
    }
    assert!(checked >= if ropelab::FULL { 25 } else { 10 }, "{checked}");
}

/// Both readers on `text`: `Ok(value as text)` or `Err((path, message))`; `true` where the
/// text is not JSON (serde_json's syntax errors).
type Outcome = Result<String, (String, String)>;
fn both<T: DeserializeOwned + Serialize>(text: &str) -> (Outcome, Outcome, bool) {
    let ours = ropelab::json::from_str::<T>(text).map(|v| text_of(&v)).map_err(|e| (e.path(), e.to_string()));
    // Not JSON at all (truncated, …): serde_json may meet a data error first (it reads as it
    // parses), ours a syntax error (it parses first).
    let syntax = serde_json::from_str::<serde::de::IgnoredAny>(text).is_err()
        || serde_json::from_str::<T>(text).is_err_and(|e| !e.is_data());
    let de = &mut serde_json::Deserializer::from_str(text);
    let reference = serde_path_to_error::deserialize::<_, T>(de).map(|v| text_of(&v)).map_err(|e| {
        let path = e.path().to_string();
        (if path == "." { String::new() } else { path }, e.into_inner().to_string())
    });
    (ours, reference, syntax)
}

#[derive(Default, Debug)]
struct Tally {
    /// Both read the same value.
    same_value: usize,
    /// Both refused, at the same path.
    same_path: usize,
    /// Both refused inside a `shape` (an internally tagged enum): serde reads it from a buffer,
    /// so the reference names the `shape`; ours, the same or deeper.
    in_shape: usize,
    /// Syntax errors: both refused (serde_path_to_error names `?` for a key it was reading).
    syntax: usize,
    /// A struct given as an array: serde_json reads its fields in order, ours refuses it
    /// (`invalid type: sequence, expected struct …`).
    struct_as_array: usize,
    diffs: Vec<String>,
}

fn compare<T: DeserializeOwned + Serialize>(name: &str, text: &str, t: &mut Tally) {
    let (ours, reference, syntax) = both::<T>(text);
    match (&ours, &reference) {
        // (serde_path_to_error does not look past the value: serde_json's own reader decides.)
        (Err(_), _) if syntax => t.syntax += 1,
        // Ours read what serde_json's reader refuses as JSON (trailing text, …): a diff
        // (serde_path_to_error stops at the value's end and would accept it).
        (Ok(_), _) if syntax => t.diffs.push(format!("{name}: ours read text serde_json refuses:\n    {text}")),
        (Ok(a), Ok(b)) if a == b => t.same_value += 1,
        (Err((p, m)), Err((q, _))) => {
            if p == q {
                t.same_path += 1;
            } else if q.ends_with("shape") && (p == q || p.starts_with(&format!("{q}."))) {
                t.in_shape += 1;
            } else if m.starts_with("invalid type: sequence, expected ") && (p == q || q.starts_with(p.as_str())) {
                t.struct_as_array += 1;
            } else {
                t.diffs.push(format!("{name}: ours `{p}` ({m}), reference `{q}`:\n    {text}"));
            }
        }
        (Err((_, m)), Ok(_)) if m.starts_with("invalid type: sequence, expected ") => t.struct_as_array += 1,
        _ => t.diffs.push(format!("{name}: ours {ours:?}, reference {reference:?}:\n    {text}")),
    }
}

/// Every mutation of `v` at every node (the first three elements of an array): replaced by
/// values of other types, an object's key deleted or an unknown one added, an array's last
/// element dropped or its first repeated.
fn mutations(v: &Value) -> Vec<Value> {
    let replacements = [
        json!("x"),
        json!(-1),
        json!(1.5),
        json!(1e39),
        json!(4_294_967_296u64),
        Value::Null,
        json!(true),
        json!([]),
        json!({}),
        json!([1, 2]),
        json!(["a"]),
        json!({"type": "nope"}),
        json!({"type": "circle", "center": [0, 0, 0]}),
    ];
    mutations::mutations(v, &replacements)
}

#[test]
fn reads_scenes_and_their_mutations_as_serde_json_does() {
    let mut t = Tally::default();
    for (name, text) in presets() {
        compare::<Scene>(&name, &text, &mut t);
        let v: Value = serde_json::from_str(&text).unwrap();
        let pretty = serde_json::to_string_pretty(&v).unwrap();
        for m in mutations(&v) {
            compare::<Scene>(&name, &serde_json::to_string(&m).unwrap(), &mut t);
            compare::<Scene>(&name, &serde_json::to_string_pretty(&m).unwrap(), &mut t);
        }
        for cut in (1..pretty.len()).step_by(7) {
            if pretty.is_char_boundary(cut) {
                compare::<Scene>(&name, &pretty[..cut], &mut t);
            }
        }
        // Not JSON: trailing text, a trailing comma, a bad escape, a control character.
        for bad in [format!("{pretty} x"), pretty.replacen("]", ",]", 1), pretty.replacen("\"", "\"\\q", 2)] {
            compare::<Scene>(&name, &bad, &mut t);
        }
    }
    println!("{t:?}");
    for d in t.diffs.iter().take(30) {
        println!("{d}");
    }
    assert!(t.diffs.is_empty(), "{} differences (first above)", t.diffs.len());
    assert!(t.same_value > 1_000 && t.same_path > 10_000 && t.syntax > 1_000, "{t:?}");
}

/// Number texts of every shape, read as each number type by both (same bits, or both refuse).
#[test]
fn reads_numbers_as_serde_json_does() {
    let mut rng = Rng::new(12);
    let mut texts: Vec<String> = [
        "0",
        "-0",
        "1",
        "-1",
        "00",
        "01",
        "-",
        "1.",
        ".5",
        "1e",
        "1e+",
        "1E-2",
        "-0.0",
        "0e0",
        "1e400",
        "-1e400",
        "1e-400",
        "0e99999999999",
        "1e99999999999",
        "1e-99999999999",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        "123456789012345678901234567890",
        "1.00000000000000000000001",
        "4294967295",
        "4294967296",
        "-2147483648",
        "3.4028235e38",
        "3.4028236e38",
        "1.17549435e-38",
        "1e-45",
        "2.2250738585072014e-308",
        "4.9e-324",
        "179769313486231570000000000000000000000000000000000000000000000000000\
         00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000\
         00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000\
         0000000000000000000000000000000000000000000000000",
        "0.1",
        "0.30000000000000004",
        " 7 ",
        "7 x",
        "true",
        "null",
        "\"1\"",
        "[1]",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for _ in 0..20_000 {
        let bits = rng.next_u64();
        let f = f64::from_bits(bits);
        let g = f32::from_bits(bits as u32);
        if f.is_finite() {
            texts.push(format!("{f}"));
            texts.push(format!("{f:e}"));
            texts.push(format!("{f:.20e}"));
        }
        if g.is_finite() {
            texts.push(format!("{g}"));
            texts.push(format!("{:.12}", g));
        }
        texts.push(format!("{}", bits as i64));
        texts.push(format!("{}", bits >> (bits % 64)));
    }
    let mut n = 0;
    for text in &texts {
        n += same::<f64>(text) + same::<f32>(text) + same::<u32>(text) + same::<i32>(text) + same::<u64>(text);
        n += same::<i64>(text) + same::<Option<f32>>(text);
    }
    println!("{} number texts, {n} reads compared", texts.len());
    assert!(n > 100_000, "{n}");
}

fn same<T: DeserializeOwned + Serialize>(text: &str) -> usize {
    let ours = ropelab::json::from_str::<T>(text).map(|v| text_of(&v));
    let theirs = serde_json::from_str::<T>(text).map(|v| text_of(&v));
    match (&ours, &theirs) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "{text} as {}", std::any::type_name::<T>()),
        (Err(a), Err(b)) => {
            // The same words, but for serde_json's position.
            let b = b.to_string();
            let b = b.split(" at line ").next().unwrap();
            assert_eq!(a.to_string(), b, "{text} as {}", std::any::type_name::<T>());
        }
        _ => panic!("{text} as {}: ours {ours:?}, serde_json {theirs:?}", std::any::type_name::<T>()),
    }
    1
}

/// Strings: escapes read and written as serde_json does.
#[test]
fn strings_as_serde_json() {
    let mut rng = Rng::new(7);
    let alphabet =
        ['a', '"', '\\', '/', '\n', '\r', '\t', '\u{8}', '\u{c}', '\u{1}', '\u{1f}', '\u{7f}', 'é', '€', '𝄞'];
    for _ in 0..5_000 {
        let s: String =
            (0..rng.next_u64() % 12).map(|_| alphabet[(rng.next_u64() % alphabet.len() as u64) as usize]).collect();
        let written = serde_json::to_string(&s).unwrap();
        assert_eq!(ropelab::json::to_string(&s).unwrap(), written);
        assert_eq!(ropelab::json::quote(&s), written);
        assert_eq!(ropelab::json::from_str::<String>(&written).unwrap(), s);
    }
    for text in
        [r#""\u00e9\ud834\udd1e\/""#, r#""\ud834""#, r#""\udd1e""#, r#""\u12""#, r#""\x""#, "\"\u{1}\"", r#""abc"#]
    {
        let ours = ropelab::json::from_str::<String>(text).ok();
        assert_eq!(ours, serde_json::from_str::<String>(text).ok(), "{text}");
    }
}

/// Nesting: serde_json's limit (127 levels), deeper refused, not a stack overflow.
#[test]
fn deep_nesting_is_refused() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let e = ropelab::json::from_str::<serde::de::IgnoredAny>(&deep).unwrap_err();
    assert_eq!((e.to_string().as_str(), e.path().as_str()), ("recursion limit exceeded", ""));
    // Its path names the key the nesting is under, not the 127 indices.
    let e = ropelab::json::from_str::<serde::de::IgnoredAny>(&format!("{{\"a\": [{{\"b\": {deep}}}]}}")).unwrap_err();
    assert_eq!(e.path(), "a[0].b");
    assert!(serde_json::from_str::<Value>(&deep).is_err());
    for (depth, ok) in [(127, true), (128, false)] {
        let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        assert_eq!(ropelab::json::from_str::<serde::de::IgnoredAny>(&text).is_ok(), ok, "{depth}");
        assert_eq!(serde_json::from_str::<Value>(&text).is_ok(), ok, "{depth}");
    }
}

/// The lite build's shape reader (`scene::shape_lite::read`, no serde `Content` buffer)
/// against the derived one of the full build, on every preset obstacle's shape and their
/// mutations, read as the lite build reads them (through `ropelab::json`): the same shape,
/// or both refuse, mostly in the same words. The wording differs (printed) where they say
/// what they expected (the lite reader lists every shape's fields for an unknown key, the
/// derive the named shape's; for a `type` that is no string the lite reader lists the names,
/// the derive says `variant identifier`), for an array (serde_json reads a struct's fields
/// from one, `ropelab::json` refuses it), and where a text has two faults (the derive reads
/// `type` first, the lite reader names the first bad value).
#[cfg(feature = "full")]
#[test]
fn the_lite_shape_reader_reads_as_the_derive() {
    use ropelab::collide::Shape;
    #[derive(serde::Deserialize)]
    struct Lite(#[serde(deserialize_with = "ropelab::scene::shape_lite::read")] Shape);

    let mut shapes: Vec<Value> = vec![
        json!({"type": "sphere", "center": [0, 1, 0], "radius": 0.5}),
        json!({"type": "box", "center": [0, 1, 0], "half": [1, 1, 1]}),
        json!({"type": "box", "center": [0, 1, 0], "half": [1, 1, 1], "angle": null}),
        json!({"type": "capsule", "a": [0, 1, 0], "b": [1, 1, 0], "radius": 0.1, "radius": 0.2}),
        json!({"center": [0, 1, 0], "radius": 0.5}),
    ];
    for (_, text) in presets() {
        let v: Value = serde_json::from_str(&text).unwrap();
        shapes.extend(v["obstacles"].as_array().into_iter().flatten().map(|o| o["shape"].clone()));
    }
    let (mut same, mut worded, mut beyond) = (0, Vec::new(), 0);
    for shape in &shapes {
        let mut texts = vec![serde_json::to_string(shape).unwrap()];
        texts.extend(mutations(shape).iter().map(|m| serde_json::to_string(m).unwrap()));
        for key in ["point", "normal", "center", "radius", "a", "b", "half", "angle", "type"] {
            let mut m = shape.clone();
            m[key] = json!([0.5, 1, 2]);
            texts.push(serde_json::to_string(&m).unwrap());
            m[key] = json!(0.25);
            texts.push(serde_json::to_string(&m).unwrap());
        }
        for text in &texts {
            let derived = serde_json::from_str::<Shape>(text);
            // The lite side as the lite build reads it: through `ropelab::json`.
            let lite = ropelab::json::from_str::<Lite>(text).map(|l| l.0).map_err(|e| e.to_string());
            match (&derived, &lite) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{text}"),
                (Err(a), Err(b)) => {
                    let (a, b) = (a.to_string(), b.to_string());
                    let (a, b) = (a.split(" at line ").next().unwrap(), b.split(" at line ").next().unwrap());
                    if a == b {
                        same += 1;
                    } else {
                        if worded.len() < 12 {
                            println!("  {text}: derived `{a}`, lite `{b}`");
                        }
                        worded.push(text.clone());
                    }
                }
                // A coordinate beyond f32's range: the derive reads it through serde's buffer
                // as an f64 rounded again to ±inf (which the scene's check then refuses), the
                // lite reader refuses it as serde_json refuses any f32 field out of range.
                (Ok(a), Err(b)) if b.starts_with("number out of range") && a.validated().is_err() => beyond += 1,
                _ => panic!("{text}: derived {derived:?}, lite {lite:?}"),
            }
        }
    }
    println!(
        "{} shapes: {same} refusals in the same words, {} worded differently, {beyond} beyond f32",
        shapes.len(),
        worded.len()
    );
    assert!(same > 500 && worded.len() * 3 < same, "{same} against {}", worded.len());
}

/// The reader's tree is capped at `MAX_VALUES` (2,000,000) values, which bounds its memory
/// (the tree is built before the types read it): an array of that many values reads, one more
/// is refused with the cap in the message and the path of the value past it.
#[test]
fn a_text_of_too_many_values_is_refused() {
    let n = 2_000_000;
    let text = |values: usize| {
        let mut s = String::with_capacity(2 * values + 2);
        s.push('[');
        for k in 0..values {
            if k > 0 {
                s.push(',');
            }
            s.push('0');
        }
        s.push(']');
        s
    };
    // (The array is a value too.)
    let read = ropelab::json::from_str::<Vec<u8>>(&text(n - 1));
    assert!(read.as_ref().is_ok_and(|v| v.len() == n - 1), "{:?}", read.map(|v| v.len()));
    let e = ropelab::json::from_str::<Vec<u8>>(&text(n)).unwrap_err();
    assert!(e.to_string().contains("more than 2000000 values"), "{e}");
    assert_eq!(e.path(), format!("[{}]", n - 1));
}
