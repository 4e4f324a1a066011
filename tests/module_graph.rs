//! The module graph of `src/` has no cycle (issue 9).
//!
//! Nodes are the crate's top-level modules (`src/world.rs`, the `src/solver/` folder, …);
//! an edge `a → b` is any path `crate::b…` written in a file of `a` (a `use`, a grouped
//! `use crate::{b, …}`, or a path in an expression or a type). Comments, string literals
//! and `#[cfg(test)]` items are ignored: unit tests may build a whole `World` to test a
//! solver without making the solver depend on the world. `lib.rs` (the crate root that
//! re-exports) and `src/bin/` are not nodes.
//!
//! Run alone: `cargo test --test module_graph -- --nocapture` prints the graph in
//! layers (each module after everything it uses).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// The source with comments, string/char literals and `#[cfg(test)]` items removed.
fn strip(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if b[i] == b'r' && (b[i..].starts_with(b"r\"") || b[i..].starts_with(b"r#")) && !ident_byte(prev(b, i)) {
            // Raw string r"…" or r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while j < b.len() && b[j] == b'#' {
                hashes += 1;
                j += 1;
            }
            if j < b.len() && b[j] == b'"' {
                j += 1;
                let close: Vec<u8> = std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
                while j < b.len() && !b[j..].starts_with(&close) {
                    j += 1;
                }
                i = j + close.len();
                out.push_str("\"\"");
            } else {
                out.push('r');
                i += 1;
            }
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if b[i] == b'\'' && i + 2 < b.len() && (b[i + 2] == b'\'' || b[i + 1] == b'\\') {
            // A char literal ('a', '\n', '\u{..}'); lifetimes ('a) have no closing quote.
            i += 1;
            while i < b.len() && b[i] != b'\'' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("' '");
        } else {
            let c = src[i..].chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    drop_cfg_test(&out)
}

fn prev(b: &[u8], i: usize) -> u8 {
    if i == 0 {
        b' '
    } else {
        b[i - 1]
    }
}

fn ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Removes every item annotated `#[cfg(test)]` (up to its `;` or its matching `}`).
fn drop_cfg_test(src: &str) -> String {
    let mut out = String::new();
    let mut rest = src;
    while let Some(k) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..k]);
        let b = &rest.as_bytes()[k..];
        let mut j = "#[cfg(test)]".len();
        let mut depth = 0i32;
        while j < b.len() {
            match b[j] {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        j += 1;
                        break;
                    }
                }
                b';' if depth == 0 => {
                    j += 1;
                    break;
                }
                _ => {}
            }
            j += 1;
        }
        rest = &rest[k + j.min(b.len())..];
    }
    out.push_str(rest);
    out
}

/// Top-level modules named by `crate::…` paths in `src`.
fn uses(src: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let b = src.as_bytes();
    let mut from = 0;
    while let Some(k) = src[from..].find("crate::") {
        let at = from + k;
        from = at + 7;
        if at > 0 && (ident_byte(b[at - 1]) || b[at - 1] == b'$') {
            continue; // `$crate::`, `my_crate::`
        }
        let tail = &src[from..];
        if let Some(group) = tail.strip_prefix('{') {
            // `crate::{a, b::c, d::{e, f}}`: the first segment of each top-level item.
            let mut depth = 0;
            let mut item_start = true;
            let mut name = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        if !name.is_empty() {
                            found.insert(std::mem::take(&mut name));
                        }
                        item_start = true;
                    }
                    c if item_start && (c.is_alphanumeric() || c == '_') => name.push(c),
                    _ if item_start && !name.is_empty() => {
                        found.insert(std::mem::take(&mut name));
                        item_start = false;
                    }
                    _ => {}
                }
            }
            if !name.is_empty() {
                found.insert(name);
            }
        } else {
            let name: String = tail.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if !name.is_empty() {
                found.insert(name);
            }
        }
    }
    found
}

fn rs_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The graph: top-level module → the top-level modules it uses.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut files = Vec::new();
    rs_files(&src, &mut files);
    for f in files {
        let rel = f.strip_prefix(&src).unwrap();
        let first = rel.components().next().unwrap().as_os_str().to_string_lossy().into_owned();
        if first == "lib.rs" || first == "bin" {
            continue;
        }
        let module = first.trim_end_matches(".rs").to_string();
        let text = strip(&fs::read_to_string(&f).unwrap());
        let entry = g.entry(module.clone()).or_default();
        for u in uses(&text) {
            if u != module {
                entry.insert(u);
            }
        }
    }
    // Names that are not modules (re-exports from lib.rs such as `crate::Settings`) are
    // resolved by lib.rs's `pub use` lines.
    let lib = strip(&fs::read_to_string(src.join("lib.rs")).unwrap());
    let mut reexport: BTreeMap<String, String> = BTreeMap::new();
    for line in lib.split(';') {
        let line = line.trim();
        if let Some(path) = line.strip_prefix("pub use ") {
            let (module, names) = path.split_once("::").unwrap();
            for n in names.trim_matches(|c| c == '{' || c == '}').split(',') {
                reexport.insert(n.trim().to_string(), module.trim().to_string());
            }
        }
    }
    let modules: BTreeSet<String> = g.keys().cloned().collect();
    for (m, deps) in g.iter_mut() {
        *deps = deps
            .iter()
            .map(|d| reexport.get(d).cloned().unwrap_or_else(|| d.clone()))
            .filter(|d| d != m && modules.contains(d))
            .collect();
    }
    g
}

/// Strongly connected components with more than one module (Tarjan).
fn cycles(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct T<'a> {
        g: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a str) {
        let i = t.index.len();
        t.index.insert(v, i);
        t.low.insert(v, i);
        t.stack.push(v);
        t.on.insert(v);
        for w in &t.g[v] {
            let w = w.as_str();
            if !t.index.contains_key(w) {
                visit(t, w);
                let lw = t.low[w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if t.on.contains(w) {
                let iw = t.index[w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if t.low[v] == t.index[v] {
            let mut comp = Vec::new();
            loop {
                let w = t.stack.pop().unwrap();
                t.on.remove(w);
                comp.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                t.out.push(comp);
            }
        }
    }
    let mut t = T { g, index: BTreeMap::new(), low: BTreeMap::new(), stack: vec![], on: BTreeSet::new(), out: vec![] };
    for v in g.keys() {
        if !t.index.contains_key(v.as_str()) {
            visit(&mut t, v);
        }
    }
    t.out
}

#[test]
fn parser_sees_the_forms_of_use() {
    let src = "use crate::a::X;\nuse crate::{b, c::{D, E}, d::F};\nfn f() { crate::e::g(); $crate::h::i(); \
               let s = \"crate::j\"; } // crate::k\n#[cfg(test)]\nmod tests { use crate::l; }\n";
    let got: Vec<String> = uses(&strip(src)).into_iter().collect();
    assert_eq!(got, ["a", "b", "c", "d", "e"]);
}

#[test]
fn the_cycle_checker_finds_a_cycle() {
    let mut g = BTreeMap::new();
    g.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    g.insert("b".to_string(), BTreeSet::from(["c".to_string()]));
    g.insert("c".to_string(), BTreeSet::from(["a".to_string()]));
    g.insert("d".to_string(), BTreeSet::from(["a".to_string()]));
    assert_eq!(cycles(&g), vec![vec!["a".to_string(), "b".into(), "c".into()]]);
}

#[test]
fn module_graph_has_no_cycle() {
    let g = graph();
    assert!(g.contains_key("world") && g.contains_key("solver"), "modules not found: {:?}", g.keys());
    assert!(g["world"].contains("solver"), "the parser missed world → solver");
    let c = cycles(&g);
    // Print the graph in layers (each module after all it uses), for docs/architecture.md.
    let mut placed: BTreeSet<String> = BTreeSet::new();
    let mut layer = 0;
    while placed.len() < g.len() && c.is_empty() {
        let next: Vec<&String> = g
            .iter()
            .filter(|(m, d)| !placed.contains(*m) && d.iter().all(|x| placed.contains(x)))
            .map(|(m, _)| m)
            .collect();
        println!("layer {layer}: {}", next.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", "));
        placed.extend(next.into_iter().cloned());
        layer += 1;
    }
    let detail: Vec<String> = c
        .iter()
        .map(|comp| {
            let edges: Vec<String> = comp
                .iter()
                .flat_map(|a| g[a].iter().filter(|b| comp.contains(b)).map(move |b| format!("{a} → {b}")))
                .collect();
            format!("{{{}}}: {}", comp.join(", "), edges.join(", "))
        })
        .collect();
    assert!(c.is_empty(), "the module graph has cycles:\n{}", detail.join("\n"));
}
