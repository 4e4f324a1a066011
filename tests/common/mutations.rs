//! Mutations of a JSON value for the scene readers' tests (tests/json_paths.rs,
//! tests/json_text.rs): each value at every node (the first three elements of an array)
//! replaced by each of `replacements`, an object's key deleted or an unknown one added, an
//! array's last element dropped or its first repeated.
#![allow(dead_code)]

use serde_json::{json, Value};

pub fn mutations(v: &Value, replacements: &[Value]) -> Vec<Value> {
    let mut pointers = Vec::new();
    collect_pointers(v, String::new(), &mut pointers);
    let mut out = Vec::new();
    for p in &pointers {
        for r in replacements {
            let mut m = v.clone();
            *m.pointer_mut(p).unwrap() = r.clone();
            out.push(m);
        }
        if let Some(Value::Object(obj)) = v.pointer(p) {
            for key in obj.keys() {
                let mut m = v.clone();
                m.pointer_mut(p).unwrap().as_object_mut().unwrap().remove(key);
                out.push(m);
            }
            let mut m = v.clone();
            m.pointer_mut(p).unwrap().as_object_mut().unwrap().insert("z\"z\\u00e9".into(), json!(1));
            out.push(m);
        }
        if let Some(Value::Array(a)) = v.pointer(p) {
            if !a.is_empty() {
                let mut m = v.clone();
                m.pointer_mut(p).unwrap().as_array_mut().unwrap().pop();
                out.push(m);
                let mut m = v.clone();
                m.pointer_mut(p).unwrap().as_array_mut().unwrap().push(a[0].clone());
                out.push(m);
            }
        }
    }
    out
}

/// The JSON pointers of `v`'s nodes (of a long array, the first three elements are enough).
fn collect_pointers(v: &Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    match v {
        Value::Object(o) => {
            for (k, c) in o {
                collect_pointers(c, format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")), out);
            }
        }
        Value::Array(a) => {
            for (i, c) in a.iter().enumerate().take(3) {
                collect_pointers(c, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}
