//! The docs say what is there (issue 30 §1):
//!
//! 1. README.md is a README: at most 250 lines (the reference is in docs/).
//! 2. Every repo-relative file path named in the docs (README.md, CHANGELOG.md, docs/**/*.md)
//!    or in a comment (src/, tests/, benches/, tools/ and www/ sources, the Makefile, Trunk.toml,
//!    Cargo.toml) exists. A path is a token that starts with one of the repo's top-level folders
//!    (`src/`, `tests/`, `www/`, `docs/`, `benches/`, `tools/`, `package/`, `.cargo/`) where no
//!    path character comes before it (so URLs and `../x/src/…` are not read as ours); globs and
//!    placeholders (`*`, `…`, `<`, `{`) are skipped, and so are names of what a build writes,
//!    listed in `GENERATED` with the reason. Module paths (`solver::impulse`) are not paths.
//!    Markdown links (`[text](file.md#anchor)`, relative to the linking file) name files that
//!    exist and headings that are there.
//! 3. docs/js-api.md names every member of `Sim` (www/types/ropelab.d.ts).
//! 4. No tracked file points outside the repo at the shared folder: what the project needs is in
//!    the project (docs/toolchain.md, docs/benchmarks.md).

use std::fs;
use std::path::{Path, PathBuf};

/// The folders a repo-relative path can start with.
const ROOTS: &[&str] = &["src/", "tests/", "www/", "docs/", "benches/", "tools/", "package/", ".cargo/"];

/// Paths the docs may name that are not in the repo, each with the reason.
const GENERATED: &[(&str, &str)] = &[
    // tests/e2e/*.test.mjs write screenshots and traces there on failure (gitignored).
    ("tests/e2e/artifacts", "written by the end-to-end tests"),
];

/// Directories never read: build outputs, installed packages, git.
const SKIP_DIRS: &[&str] = &["target", "node_modules", "dist", "pkg", ".git", "screenshots", "artifacts"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if p.is_dir() {
            if !SKIP_DIRS.contains(&name.as_str()) {
                walk(&p, out);
            }
        } else {
            out.push(p);
        }
    }
}

fn rel(p: &Path) -> String {
    p.strip_prefix(root()).unwrap().to_string_lossy().replace('\\', "/")
}

fn is_path_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '/' | '-' | '*' | '{' | '}' | '…' | '$')
}

/// Chars a path token is made of (a wider set is read first, so that globs and placeholders
/// stay whole and are then skipped).
fn token_end(s: &str, start: usize) -> usize {
    let mut end = start;
    for (i, c) in s[start..].char_indices() {
        // ',' and ')' end a path unless a glob's braces or a placeholder are open.
        if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '/' | '-' | '*' | '{' | '}' | '<' | '>' | '…' | '$') {
            end = start + i + c.len_utf8();
        } else if c == ',' && s[start..start + i].contains('{') && !s[start..start + i].contains('}') {
            end = start + i + 1;
        } else {
            break;
        }
    }
    end
}

/// The repo-relative paths named in `text`.
fn paths_in(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (i, _) in text.char_indices() {
        let rest = &text[i..];
        if !ROOTS.iter().any(|r| rest.starts_with(r)) {
            continue;
        }
        if let Some(prev) = text[..i].chars().next_back() {
            if is_path_char(prev) || prev == ':' || prev == '@' || prev == '~' {
                continue;
            }
        }
        let end = token_end(text, i);
        let mut tok = &text[i..end];
        if tok.contains(['*', '{', '}', '<', '>', '…', '$']) {
            continue; // a glob or a placeholder
        }
        // Trailing sentence punctuation and a `:line` or `#anchor` are not part of the path.
        tok = tok.trim_end_matches(['.', ',', '-']);
        if let Some(h) = tok.find('#') {
            tok = &tok[..h];
        }
        if ROOTS.contains(&tok) {
            continue; // a bare root (`src/`) is a folder that exists
        }
        found.push(tok.to_string());
    }
    found
}

/// The comments of a source file: `//` to the end of the line (not a URL's `://`), and lines
/// inside `/* … */` or starting with `*` (JSDoc) or `#` (Makefile, TOML).
fn comments(path: &Path, text: &str) -> String {
    let ext = path.extension().map(|e| e.to_string_lossy().into_owned()).unwrap_or_default();
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let hash = name == "Makefile" || ext == "toml";
    let mut out = String::new();
    let mut in_block = false;
    for line in text.lines() {
        let t = line.trim_start();
        if hash {
            if let Some(k) = line.find('#') {
                out.push_str(&line[k..]);
                out.push('\n');
            }
            continue;
        }
        if in_block {
            out.push_str(line);
            out.push('\n');
            if line.contains("*/") {
                in_block = false;
            }
            continue;
        }
        if t.starts_with("/*") {
            in_block = !t.contains("*/");
            out.push_str(line);
            out.push('\n');
            continue;
        }
        if t.starts_with("* ") || t == "*" {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let b = line.as_bytes();
        let mut k = 0;
        while let Some(off) = line[k..].find("//") {
            let at = k + off;
            if at > 0 && b[at - 1] == b':' {
                k = at + 2;
                continue;
            }
            out.push_str(&line[at..]);
            break;
        }
        out.push('\n');
    }
    out
}

/// Every (file, text) the path check reads: whole docs, comments of sources.
fn documents() -> Vec<(String, String)> {
    let root = root();
    let mut files = Vec::new();
    for top in ["README.md", "CHANGELOG.md", "Makefile", "Trunk.toml", "Cargo.toml"] {
        files.push(root.join(top));
    }
    for dir in ["docs", "src", "tests", "benches", "tools", "www", "package", ".cargo"] {
        walk(&root.join(dir), &mut files);
    }
    let mut docs = Vec::new();
    for f in files {
        let Ok(text) = fs::read_to_string(&f) else { continue };
        let r = rel(&f);
        let ext = f.extension().map(|e| e.to_string_lossy().into_owned()).unwrap_or_default();
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let body = if ext == "md" {
            text
        } else if matches!(ext.as_str(), "rs" | "js" | "mjs" | "ts" | "toml") || name == "Makefile" {
            comments(&f, &text)
        } else {
            continue;
        };
        docs.push((r, body));
    }
    docs
}

#[test]
fn the_readme_is_at_most_250_lines() {
    let text = fs::read_to_string(root().join("README.md")).unwrap();
    let n = text.lines().count();
    assert!(n <= 250, "README.md has {n} lines (at most 250): move reference text to docs/");
}

#[test]
fn every_path_the_docs_and_comments_name_exists() {
    let root = root();
    let mut missing = Vec::new();
    let mut checked = 0;
    for (file, text) in documents() {
        for (n, line) in text.lines().enumerate() {
            for p in paths_in(line) {
                if GENERATED.iter().any(|(g, _)| p == *g || p.starts_with(&format!("{g}/"))) {
                    continue;
                }
                checked += 1;
                if !root.join(&p).exists() {
                    let at = if file.ends_with(".md") { format!("{file}:{}", n + 1) } else { file.clone() };
                    missing.push(format!("{at}: {p}"));
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} paths found: is the scanner reading the files?");
    assert!(missing.is_empty(), "{} named path(s) do not exist:\n  {}", missing.len(), missing.join("\n  "));
}

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown file's headings (outside code blocks).
fn anchors(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            out.push(slug(line.trim_start_matches('#')));
        }
    }
    out
}

#[test]
fn markdown_links_name_files_and_headings_that_exist() {
    let root = root();
    let mut files = vec![root.join("README.md"), root.join("CHANGELOG.md")];
    walk(&root.join("docs"), &mut files);
    let mut broken = Vec::new();
    let mut checked = 0;
    for f in files.iter().filter(|f| f.extension().is_some_and(|e| e == "md")) {
        let text = fs::read_to_string(f).unwrap();
        let mut rest = text.as_str();
        while let Some(k) = rest.find("](") {
            rest = &rest[k + 2..];
            let Some(end) = rest.find(')') else { break };
            let target = &rest[..end];
            if target.contains("://") || target.starts_with("mailto:") || target.contains(' ') {
                continue;
            }
            let (file, anchor) = target.split_once('#').unwrap_or((target, ""));
            let path = if file.is_empty() { f.clone() } else { f.parent().unwrap().join(file) };
            checked += 1;
            if !path.exists() {
                broken.push(format!("{}: ({target}): no file {}", rel(f), file));
            } else if !anchor.is_empty() {
                let there = fs::read_to_string(&path).unwrap_or_default();
                if !anchors(&there).iter().any(|a| a == anchor) {
                    broken.push(format!("{}: ({target}): no heading #{anchor} in {file}", rel(f)));
                }
            }
        }
    }
    assert!(checked > 20, "only {checked} links found");
    assert!(broken.is_empty(), "broken links:\n  {}", broken.join("\n  "));
}

/// docs/js-api.md names every method, getter and static of `Sim` that wasm-bindgen declares
/// (www/types/ropelab.d.ts, which `make test-types` keeps equal to the build's), so a new
/// method cannot go undocumented.
#[test]
fn the_js_api_doc_names_every_method_of_sim() {
    let dts = fs::read_to_string(root().join("www/types/ropelab.d.ts")).unwrap();
    let doc = fs::read_to_string(root().join("docs/js-api.md")).unwrap();
    let start = dts.find("export class Sim {").expect("www/types/ropelab.d.ts declares class Sim");
    let end = start + dts[start..].find("\n}").unwrap();
    let mut missing = Vec::new();
    let mut names = 0;
    for line in dts[start..end].lines().skip(1) {
        let t = line.trim();
        if t.starts_with('*') || t.starts_with("/*") || t.is_empty() {
            continue;
        }
        let t = t
            .trim_start_matches("static ")
            .trim_start_matches("readonly ")
            .trim_start_matches("get ")
            .trim_start_matches("set ");
        let name: String = t.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        if name.is_empty() || name == "constructor" {
            continue;
        }
        names += 1;
        if !doc.contains(&format!("`{name}")) && !doc.contains(&format!("Sim.{name}")) {
            missing.push(name);
        }
    }
    assert!(names > 50, "only {names} members of Sim found in www/types/ropelab.d.ts");
    missing.dedup();
    assert!(missing.is_empty(), "docs/js-api.md does not name these members of Sim: {}", missing.join(", "));
}

#[test]
fn nothing_points_at_the_shared_folder() {
    let root = root();
    let mut files = Vec::new();
    walk(&root, &mut files);
    let up = format!("{}{}", "../", "shared");
    let bare = format!("{}{}", "shared", "/");
    let work = format!("{}{}", "/work/", "shared");
    let me = root.join("tests").join("docs.rs");
    let mut found = Vec::new();
    for f in files {
        if f == me {
            continue;
        }
        let Ok(text) = fs::read_to_string(&f) else { continue };
        for (n, line) in text.lines().enumerate() {
            let cites_bare =
                line.match_indices(&bare).any(|(i, _)| !line[..i].chars().next_back().is_some_and(is_path_char));
            if line.contains(&up) || line.contains(&work) || cites_bare {
                found.push(format!("{}:{}: {}", rel(&f), n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "these lines cite the shared folder outside the repo (bring what is needed into docs/):\n  {}",
        found.join("\n  ")
    );
}

#[test]
fn the_scanner_reads_paths_as_meant() {
    let p = |s: &str| paths_in(s);
    assert_eq!(p("see `src/step.rs`, and tests/e2e/ too."), ["src/step.rs", "tests/e2e/"]);
    assert_eq!(
        p("[export](docs/export.md#state) (src/wasm/stepping.rs:12)"),
        ["docs/export.md", "src/wasm/stepping.rs"]
    );
    assert!(p("https://example.com/www/rope-lab.js ../x/src/a.rs www/scenes/*.json <www/{a,b}.js>").is_empty());
    assert!(p("solver::impulse and crate::json").is_empty());
    assert_eq!(slug("## `pbd`, `jacobi`, `xpbd`".trim_start_matches('#')), "pbd-jacobi-xpbd");
    assert_eq!(slug("The lite build's JSON reader"), "the-lite-builds-json-reader");
}
