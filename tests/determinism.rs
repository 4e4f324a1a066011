//! Determinism (issue 13 §2): every preset under every solver that runs it, and the scripted
//! drags, hash bit for bit to `tests/determinism_hashes.txt` — the table `tests/web.rs`
//! checks the wasm build against in headless Chromium, so native ≡ wasm. Also: two runs in
//! one process, and two processes (`ropelab hash`), give the same hashes.
//!
//! Re-record (only when a trajectory is meant to change, and say why in the commit) with
//! `make goldens`; this test never writes the table.
use ropelab::determinism::{self, compare, format_table, parse_table};

const TABLE: &str = include_str!("determinism_hashes.txt");

#[test]
fn the_table_has_every_case() {
    let names: Vec<String> = determinism::cases().iter().map(|c| c.name()).collect();
    let table: Vec<String> = parse_table(TABLE).into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, table, "re-record with `make goldens`");
}

/// The cases are split four ways (every fourth), so the test harness runs them on every core
/// (a debug build takes about 80 s for all of them on one).
const SHARDS: usize = 4;

fn shard(k: usize) {
    let got: Vec<(String, u64)> = determinism::cases()
        .iter()
        .skip(k)
        .step_by(SHARDS)
        .map(|c| (c.name(), determinism::hash(&determinism::run(c))))
        .collect();
    let want: Vec<(String, u64)> =
        parse_table(TABLE).into_iter().filter(|(n, _)| got.iter().any(|(g, _)| g == n)).collect();
    if let Err(e) = compare(&got, &want) {
        panic!("{e}\n\nthis build's lines:\n{}", format_table(&got));
    }
}

#[test]
fn cases_0_hash_to_the_table() {
    shard(0);
}

#[test]
fn cases_1_hash_to_the_table() {
    shard(1);
}

#[test]
fn cases_2_hash_to_the_table() {
    shard(2);
}

#[test]
fn cases_3_hash_to_the_table() {
    shard(3);
}

/// Cases chosen to touch every stage that keeps state between steps: the leash (dogs' PRNG,
/// tangles, braid), contacts with warm starting, the point drag and the body drag.
const REPEATED: [&str; 4] = ["leash/xpbd", "cradle/impulse", "drag:rope/exact", "drag:wrecking-ball/impulse"];

#[test]
fn two_runs_in_one_process_agree() {
    for name in REPEATED {
        let c = determinism::case(name).expect("a case");
        let (a, b) = (determinism::hash(&determinism::run(&c)), determinism::hash(&determinism::run(&c)));
        assert_eq!(a, b, "{name}");
    }
}

#[test]
fn two_processes_agree_with_the_table() {
    let want = parse_table(TABLE);
    let out: Vec<String> = (0..2)
        .map(|_| {
            let o =
                std::process::Command::new(env!("CARGO_BIN_EXE_ropelab")).arg("hash").args(REPEATED).output().unwrap();
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            String::from_utf8(o.stdout).unwrap()
        })
        .collect();
    assert_eq!(out[0], out[1], "two processes differ");
    let got = parse_table(&out[0]);
    assert_eq!(got.len(), REPEATED.len());
    for (name, h) in got {
        let w = want.iter().find(|(n, _)| *n == name).map(|(_, h)| *h);
        assert_eq!(Some(h), w, "{name}: {h:016x} from `ropelab hash`, table {w:x?}");
    }
}

/// The root of native ≡ wasm for transcendental functions: std's `f32::sin`, `exp`,
/// `atan2`, … call the platform's C library natively (glibc here, Apple's libm on a Mac) but
/// compiler-builtins' port of musl's libm in wasm, which need not round the same way; glam
/// (with its `libm` feature) and our own code call the `libm` crate on both. This scans
/// `src/` (outside `#[cfg(test)]` modules, which sit at the end of each file) for a std call
/// or an explicit `mul_add` (a fused multiply-add rounds once, the plain form twice).
#[test]
fn no_platform_math_in_src() {
    const STD: [&str; 24] = [
        ".sin()",
        ".cos()",
        ".tan()",
        ".sin_cos()",
        ".asin()",
        ".acos()",
        ".atan()",
        ".atan2(",
        ".sinh()",
        ".cosh()",
        ".tanh()",
        ".exp()",
        ".exp2()",
        ".exp_m1()",
        ".ln()",
        ".ln_1p()",
        ".log(",
        ".log2()",
        ".log10()",
        ".powf(",
        ".cbrt()",
        ".hypot(",
        ".mul_add(",
        ".asinh()",
    ];
    let mut found = Vec::new();
    let mut stack = vec![std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/src"))];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") || path.ends_with("bin/ropelab.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for (n, line) in text.lines().enumerate() {
                if line.trim_start().starts_with("#[cfg(test)]") {
                    break;
                }
                let code = line.split("//").next().unwrap();
                if let Some(f) = STD.iter().find(|f| code.contains(*f)) {
                    found.push(format!("{}:{}: {f} — use libm", path.display(), n + 1));
                }
            }
        }
    }
    assert!(found.is_empty(), "std math in src/ (native and wasm may round differently):\n{}", found.join("\n"));
}
