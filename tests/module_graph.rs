//! The module graph of `src/` has no cycle (issue 9).
//!
//! Nodes are the crate's top-level modules (`src/world.rs`, the `src/solver/` folder, …);
//! an edge `a → b` is any path `crate::b…` written in a file of `a` (a `use`, a grouped
//! `use crate::{b, …}`, or a path in an expression or a type). Comments, string literals
//! and `#[cfg(test)]` items (and files, `#![cfg(test)]`) are ignored: unit tests may build
//! a whole `World` to test a solver without making the solver depend on the world. `lib.rs` (the crate root that
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

/// Removes every item annotated `#[cfg(test)]` (up to its `;` or its matching `}`); a file
/// that is a test module as a whole (`#![cfg(test)]`) leaves nothing.
fn drop_cfg_test(src: &str) -> String {
    if src.contains("#![cfg(test)]") {
        return String::new();
    }
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

// ---------------------------------------------------------------------------------------
// Files inside a folder module (issue 30 §2, §3): `src/solver/` and `src/contacts/` have no
// file-level cycle, and no file of `src/solver/` is over `MAX_SOLVER_LINES` lines.
//
// Nodes are the folder's `.rs` files (`solver/impulse.rs`, `solver/exact/mod.rs`, …); an
// edge f → g is a path in f that names g's module or an item of it: `super::x`, `self::x`,
// `crate::solver::x`, or a child module's name (`impulse::solve` in `solver/mod.rs`), in a
// `use` (groups expanded) or in an expression or a type. A name that a `mod.rs` re-exports
// or imports (`pub use bodies::BodyTree`) is followed to the file that defines it. Edges
// from a file to the `mod.rs` of a folder it sits in are the module tree, not edges: a
// folder's root declares its files and dispatches to them, and they read the types it
// defines (`super::StepContext`).

/// Longest a file of `src/solver/` may be (issue 30: one job per file).
const MAX_SOLVER_LINES: usize = 800;

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Every path of `src` (comments and strings stripped) as its segments: `use` trees
/// expanded (`use a::{b, c::d}` → `a::b`, `a::c::d`; `self` in a group names its prefix),
/// then each `a::b::c` elsewhere. Paths of one segment are left out.
fn paths(src: &str) -> Vec<Vec<String>> {
    fn expand(tree: &str, prefix: &[String], out: &mut Vec<Vec<String>>) {
        let tree = tree.trim();
        if tree.is_empty() {
            return;
        }
        // Split off the leading `a::b::` segments, up to a group `{…}` or the last name.
        let mut segs: Vec<String> = prefix.to_vec();
        let mut rest = tree;
        loop {
            let rest_t = rest.trim_start().trim_start_matches("::").trim_start();
            if let Some(group) = rest_t.strip_prefix('{') {
                let inner = &group[..group.rfind('}').unwrap_or(group.len())];
                let mut depth = 0;
                let mut start = 0;
                for (i, c) in inner.char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            expand(&inner[start..i], &segs, out);
                            start = i + 1;
                        }
                        _ => {}
                    }
                }
                expand(&inner[start..], &segs, out);
                return;
            }
            let name: String = rest_t.chars().take_while(|&c| is_ident(c) || c == '*').collect();
            if name.is_empty() {
                break;
            }
            rest = &rest_t[name.len()..];
            if name == "self" && !segs.is_empty() && !rest.trim_start().starts_with("::") {
                break; // `a::{self, …}`: `a` itself
            }
            segs.push(name);
            if !rest.trim_start().starts_with("::") {
                break; // the last name (an `as` alias after it does not matter)
            }
        }
        if segs.len() > 1 {
            out.push(segs);
        }
    }
    let mut out = Vec::new();
    let mut code = String::with_capacity(src.len());
    // `use` items first (their trees may have groups), blanked out of the text after.
    let mut rest = src;
    while let Some(k) = rest.find("use ") {
        let before = rest[..k].chars().next_back();
        if before.is_some_and(is_ident) {
            code.push_str(&rest[..k + 4]);
            rest = &rest[k + 4..];
            continue;
        }
        code.push_str(&rest[..k]);
        let end = rest[k..].find(';').map_or(rest.len(), |e| k + e);
        expand(&rest[k + 4..end], &[], &mut out);
        rest = &rest[end..];
    }
    code.push_str(rest);
    // Then every `a::b…` in the code.
    let b: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < b.len() {
        if is_ident(b[i]) && (i == 0 || !(is_ident(b[i - 1]) || b[i - 1] == ':' || b[i - 1] == '$')) {
            let mut segs = Vec::new();
            let mut j = i;
            loop {
                let s = j;
                while j < b.len() && is_ident(b[j]) {
                    j += 1;
                }
                segs.push(b[s..j].iter().collect::<String>());
                if j + 2 < b.len() && b[j] == ':' && b[j + 1] == ':' && is_ident(b[j + 2]) {
                    j += 2;
                } else {
                    break;
                }
            }
            if segs.len() > 1 {
                out.push(segs);
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// The file graph of `src/<folder>/` (see above): file (relative to `src/`) → the files it
/// uses.
fn file_graph(folder: &str) -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rs_files(&src.join(folder), &mut files);
    files.sort();
    // Module path (`solver::exact`) → file (`solver/exact/mod.rs`).
    let mut module_file: BTreeMap<Vec<String>, String> = BTreeMap::new();
    let mut texts: BTreeMap<String, (Vec<String>, String)> = BTreeMap::new();
    for f in &files {
        let rel = f.strip_prefix(&src).unwrap().to_string_lossy().replace('\\', "/");
        let mut module: Vec<String> = rel.trim_end_matches(".rs").split('/').map(String::from).collect();
        if module.last().is_some_and(|m| m == "mod") {
            module.pop();
        }
        module_file.insert(module.clone(), rel.clone());
        texts.insert(rel, (module, strip(&fs::read_to_string(f).unwrap())));
    }
    // `local`: the names a file's `use` items bring in (`exact` for `use crate::solver::exact`).
    let resolve = |module: &[String], local: &BTreeMap<String, Vec<String>>, segs: &[String]| -> Option<Vec<String>> {
        let mut abs: Vec<String> = module.to_vec();
        let mut it = segs.iter().peekable();
        match it.peek().map(|s| s.as_str()) {
            Some("crate") => {
                abs.clear();
                it.next();
            }
            Some("super") => {
                while it.peek().is_some_and(|s| *s == "super") {
                    abs.pop();
                    it.next();
                }
            }
            Some("self") => {
                it.next();
            }
            Some(first) if local.contains_key(first) => {
                abs = local[first].clone();
                it.next();
            }
            Some(first) => {
                let mut child = module.to_vec();
                child.push(first.to_string());
                if !module_file.contains_key(&child) {
                    return None; // std, glam, a type's associated item, …
                }
            }
            None => return None,
        }
        abs.extend(it.cloned());
        Some(abs)
    };
    // Names a `mod.rs` imports or re-exports: (module, name) → the module they come from.
    let mut imported: BTreeMap<(Vec<String>, String), Vec<String>> = BTreeMap::new();
    for (rel, (module, text)) in &texts {
        if !rel.ends_with("mod.rs") {
            continue;
        }
        let mut rest = text.as_str();
        while let Some(k) = rest.find("use ") {
            if rest[..k].chars().next_back().is_some_and(is_ident) {
                rest = &rest[k + 4..];
                continue;
            }
            let end = rest[k..].find(';').map_or(rest.len(), |e| k + e);
            for segs in paths(&rest[k..=end.min(rest.len() - 1)]) {
                if let Some(abs) = resolve(module, &BTreeMap::new(), &segs) {
                    let name = abs.last().unwrap().clone();
                    imported.insert((module.clone(), name), abs[..abs.len() - 1].to_vec());
                }
            }
            rest = &rest[end..];
        }
    }
    let file_of = |abs: &[String]| -> Option<String> {
        let mut abs = abs.to_vec();
        for _ in 0..4 {
            let k = (1..=abs.len()).rev().find(|&k| module_file.contains_key(&abs[..k]))?;
            if let Some(from) = abs.get(k).and_then(|name| imported.get(&(abs[..k].to_vec(), name.clone()))) {
                if *from != abs[..k] {
                    let mut next = from.clone();
                    next.extend(abs[k..].iter().cloned());
                    abs = next;
                    continue;
                }
            }
            return Some(module_file[&abs[..k]].clone());
        }
        None
    };
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (rel, (module, text)) in &texts {
        let entry = g.entry(rel.clone()).or_default();
        let found = paths(text);
        let mut local = BTreeMap::new();
        for segs in &found {
            if let Some(abs) = resolve(module, &BTreeMap::new(), segs) {
                local.insert(segs.last().unwrap().clone(), abs);
            }
        }
        for segs in &found {
            let Some(to) = resolve(module, &local, segs).and_then(|abs| file_of(&abs)) else { continue };
            let (_, (to_module, _)) = texts.get_key_value(&to).unwrap();
            let ancestor = to.ends_with("mod.rs") && module.len() > to_module.len() && module.starts_with(to_module);
            if to != *rel && !ancestor {
                entry.insert(to);
            }
        }
    }
    g
}

#[test]
fn the_path_parser_expands_use_trees() {
    let src = "use super::{a::{self, B}, c};\nuse crate::solver::d::E as F;\nfn f() { g::h(); x.y(); i::j::K::new(); }";
    let got: Vec<String> = paths(src).iter().map(|p| p.join("::")).collect();
    assert_eq!(got, ["super::a", "super::a::B", "super::c", "crate::solver::d::E", "g::h", "i::j::K::new"]);
}

#[test]
fn solver_files_are_at_most_800_lines() {
    let mut files = Vec::new();
    rs_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/solver"), &mut files);
    assert!(files.len() > 5, "{files:?}");
    let long: Vec<String> = files
        .iter()
        .map(|f| (f, fs::read_to_string(f).unwrap().lines().count()))
        .filter(|&(_, n)| n > MAX_SOLVER_LINES)
        .map(|(f, n)| format!("{} ({n} lines)", f.display()))
        .collect();
    assert!(long.is_empty(), "over {MAX_SOLVER_LINES} lines: {long:?}");
}

/// The file graph's cycles, each with its edges, for the assertion's message.
fn file_cycles(folder: &str) -> (BTreeMap<String, BTreeSet<String>>, Vec<String>) {
    let g = file_graph(folder);
    let found = cycles(&g)
        .iter()
        .map(|comp| {
            let edges: Vec<String> = comp
                .iter()
                .flat_map(|a| g[a].iter().filter(|b| comp.contains(b)).map(move |b| format!("{a} → {b}")))
                .collect();
            format!("{{{}}}: {}", comp.join(", "), edges.join(", "))
        })
        .collect();
    (g, found)
}

#[test]
fn solver_files_have_no_import_cycle() {
    let (g, found) = file_cycles("solver");
    // The parser sees the edges it must (a silent parser would pass anything).
    for (a, b) in [
        ("solver/mod.rs", "solver/impulse.rs"),
        ("solver/mod.rs", "solver/body_step/mod.rs"),
        ("solver/impulse.rs", "solver/body_step/mod.rs"),
        ("solver/body_step/mod.rs", "solver/exact/body_tree.rs"),
        ("solver/body_step/mod.rs", "solver/body_step/rows.rs"),
        ("solver/exact/tree.rs", "solver/exact/chain.rs"),
        ("solver/exact/guard.rs", "solver/exact/plan.rs"),
    ] {
        assert!(g[a].contains(b), "the parser missed {a} → {b}: {:?}", g[a]);
    }
    // Edges into an enclosing folder's mod.rs are the module tree.
    assert!(!g["solver/impulse.rs"].contains("solver/mod.rs"));
    assert!(found.is_empty(), "files of src/solver/ that use each other:\n{}", found.join("\n"));
}

#[test]
fn contacts_files_have_no_import_cycle() {
    let (g, found) = file_cycles("contacts");
    for (a, b) in [("contacts/impact.rs", "contacts/patch.rs"), ("contacts/patch.rs", "contacts/lanes.rs")] {
        assert!(g[a].contains(b), "the parser missed {a} → {b}: {:?}", g[a]);
    }
    assert!(found.is_empty(), "files of src/contacts/ that use each other:\n{}", found.join("\n"));
}

/// The module-level constants (`const NAME` at the start of a line, outside `#[cfg(test)]`
/// items) of every file under `src/`, as (name, file).
fn module_constants() -> Vec<(String, String)> {
    let mut files = Vec::new();
    rs_files(Path::new("src"), &mut files);
    files.sort();
    let mut out = Vec::new();
    for f in &files {
        let src = drop_cfg_test(&strip(&fs::read_to_string(f).unwrap()));
        for line in src.lines() {
            let rest = ["pub const ", "pub(crate) const ", "pub(super) const ", "const "]
                .iter()
                .find_map(|p| line.strip_prefix(p));
            if let Some(rest) = rest {
                let name: String = rest.chars().take_while(|&c| is_ident(c)).collect();
                if !name.is_empty() && name != "_" && name != "fn" {
                    out.push((name, f.display().to_string()));
                }
            }
        }
    }
    out
}

/// Each module-level constant is defined in one file: a value two files need is imported
/// from one of them (two files that each define `SPECULATIVE` can drift apart), and two
/// different quantities get two names. The one exception is `ROWS`, each joint's row
/// count, always read through its joint's module (`ball_socket::ROWS`).
#[test]
fn every_constant_is_defined_once() {
    let consts = module_constants();
    assert!(consts.iter().any(|(n, f)| n == "SPECULATIVE" && f.ends_with("rule.rs")), "the scan sees the constants");
    let mut homes: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (name, file) in &consts {
        homes.entry(name).or_default().push(file);
    }
    let twice: Vec<String> = homes
        .iter()
        .filter(|(name, files)| files.len() > 1 && **name != "ROWS")
        .map(|(name, files)| format!("{name}: {}", files.join(", ")))
        .collect();
    assert!(twice.is_empty(), "constants defined in more than one file:\n{}", twice.join("\n"));
}

/// No two files under `src/` share a name for different roles (`joints/planar.rs`, a body's
/// 2D lock, beside `contacts/planar.rs`, 2D contacts, read as one thing). Exempt: `mod.rs`,
/// and the two layers that mirror the domain's modules by design — `src/wasm/` (the JS
/// surface of ropes, bodies, …) and `src/scene/` (their scene-file form).
#[test]
fn no_two_source_files_share_a_name() {
    let mut files = Vec::new();
    rs_files(Path::new("src"), &mut files);
    let mut by_name: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for f in &files {
        let s = f.display().to_string().replace('\\', "/");
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        if name == "mod.rs" || s.starts_with("src/wasm/") || s.starts_with("src/scene/") {
            continue;
        }
        by_name.entry(name).or_default().push(s);
    }
    assert!(by_name.contains_key("rule.rs"), "the scan sees the files");
    let twice: Vec<String> =
        by_name.iter().filter(|(_, v)| v.len() > 1).map(|(n, v)| format!("{n}: {}", v.join(", "))).collect();
    assert!(twice.is_empty(), "files sharing a name:\n{}", twice.join("\n"));
}
