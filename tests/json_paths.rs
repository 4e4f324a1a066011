//! The JSON path a scene parse error names (`scene::json_path`, found from where serde_json
//! stopped) against `serde_path_to_error`'s (the tracking deserializer it replaced, kept as a
//! dev-dependency as the reference): every preset scene, and the bodies, joints and
//! attachments the JS API parses alone, mutated at every node in many ways (wrong types and
//! values, deleted and unknown keys, truncations), compact and pretty-printed.
//!
//! Runs in both builds: `cargo test --release --test json_paths` (full) and
//! `cargo test --release --no-default-features --test json_paths` (lite, where `bodies`,
//! `joints` and `attachments` are refused by name). The lite build's scenes are read by
//! `ropelab::json`, which tracks the path itself: tests/json_text.rs holds it to the same
//! reference.

use ropelab::scene::json_path::error_path;
use ropelab::scene::Scene;
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

#[path = "common/mutations.rs"]
mod mutations;

/// Every mutation of `v` at every node: replaced by values of other types, objects with a key
/// deleted or an unknown one added.
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
    ];
    mutations::mutations(v, &replacements)
}

/// Both parsers on `text`: (ours, the reference), each `Ok(())` or `Err((path, message))`,
/// and whether the error is a syntax error (the text is not JSON, or ends too soon).
type Outcome = Result<(), (String, String)>;
fn both<T: DeserializeOwned>(text: &str) -> (Outcome, Outcome, bool) {
    let parsed = serde_json::from_str::<T>(text);
    let syntax = parsed.as_ref().is_err_and(|e| !e.is_data());
    let ours = parsed.map(|_| ()).map_err(|e| (error_path(text, &e), e.to_string()));
    let de = &mut serde_json::Deserializer::from_str(text);
    let reference = serde_path_to_error::deserialize::<_, T>(de).map(|_| ()).map_err(|e| {
        let path = e.path().to_string();
        (if path == "." { String::new() } else { path }, e.into_inner().to_string())
    });
    (ours, reference, syntax)
}

/// What `compare` counted.
#[derive(Default)]
struct Tally {
    /// Data errors whose paths were compared.
    compared: usize,
    /// Of those, errors inside a buffered `shape` that was the last key of its object, named
    /// by ours as the object (the reference: `….shape`); see `scene::json_path`.
    shape_last: usize,
    /// Syntax errors (truncated texts): the reference names `?` for a key it was reading, so
    /// paths are not compared; ours must name a path inside the text's top-level object.
    syntax: usize,
    /// Any other difference, as lines.
    diffs: Vec<String>,
}

/// Runs every mutation of `v` (compact, pretty, and truncated) through both.
fn compare<T: DeserializeOwned>(name: &str, v: &Value, t: &mut Tally) {
    let mut texts = Vec::new();
    for m in mutations(v) {
        texts.push(serde_json::to_string(&m).unwrap());
        texts.push(serde_json::to_string_pretty(&m).unwrap());
    }
    let pretty = serde_json::to_string_pretty(v).unwrap();
    for cut in (1..pretty.len()).step_by(7) {
        if pretty.is_char_boundary(cut) {
            texts.push(pretty[..cut].to_string());
        }
    }
    for text in &texts {
        let (ours, reference, syntax) = both::<T>(text);
        match (&ours, &reference) {
            (Ok(()), Ok(())) => {}
            (Err((p, m)), Err((q, n))) => {
                assert_eq!(m, n, "{name}: the same parser gave two messages for {text}");
                if syntax {
                    t.syntax += 1;
                } else if p == q {
                    t.compared += 1;
                } else if *q == if p.is_empty() { "shape".to_string() } else { format!("{p}.shape") } {
                    t.compared += 1;
                    t.shape_last += 1;
                } else {
                    t.compared += 1;
                    t.diffs.push(format!("{name}: ours `{p}`, reference `{q}`: {m}\n    in {text}"));
                }
            }
            _ => panic!("{name}: {ours:?} against {reference:?} for {text}"),
        }
    }
}

#[test]
fn parse_error_paths_match_serde_path_to_error() {
    let mut t = Tally::default();
    let mut scenes = Vec::new();
    for entry in std::fs::read_dir("www/scenes").unwrap() {
        let path = entry.unwrap().path();
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        scenes.push((path.display().to_string(), v));
    }
    scenes.sort_by(|a, b| a.0.cmp(&b.0));
    for (name, v) in &scenes {
        compare::<Scene>(name, v, &mut t);
        #[cfg(feature = "full")]
        {
            use ropelab::scene::bodies::{AttachSpec, BodySpec, JointSpec};
            for (list, i, item) in ["bodies", "joints", "attachments"]
                .iter()
                .flat_map(|l| v[*l].as_array().into_iter().flatten().enumerate().take(4).map(move |(i, x)| (*l, i, x)))
            {
                let name = format!("{name} {list}[{i}] alone");
                match list {
                    "bodies" => compare::<BodySpec>(&name, item, &mut t),
                    "joints" => compare::<JointSpec>(&name, item, &mut t),
                    _ => compare::<AttachSpec>(&name, item, &mut t),
                }
            }
        }
    }
    println!(
        "{} data errors compared ({} inside a last-key shape), {} syntax errors, {} paths differ",
        t.compared,
        t.shape_last,
        t.syntax,
        t.diffs.len()
    );
    for d in t.diffs.iter().take(40) {
        println!("{d}");
    }
    assert!(t.compared > 10_000, "too few errors compared: {}", t.compared);
    assert!(t.diffs.is_empty(), "{} of {} paths differ (first above)", t.diffs.len(), t.compared);
}
