//! Determinism (issue 13 §2): every preset under every solver that runs it, and the scripted
//! drags, hash bit for bit to `tests/determinism_hashes.txt` — the table `tests/web.rs`
//! checks the wasm build against in headless Chromium, so native ≡ wasm. Also: two runs in
//! one process, and two processes (`ropelab hash`), give the same hashes.
//!
//! Re-record (only when a trajectory is meant to change, and say why in the commit):
//! `DETERMINISM_RECORD=1 cargo test --release --test determinism`.
use ropelab::determinism::{self, compare, compute, format_table, parse_table};

const TABLE: &str = include_str!("determinism_hashes.txt");

#[test]
fn every_preset_and_drag_hashes_to_the_table() {
    let got = compute();
    if std::env::var_os("DETERMINISM_RECORD").is_some() {
        let path = format!("{}/tests/determinism_hashes.txt", env!("CARGO_MANIFEST_DIR"));
        std::fs::write(&path, format_table(&got)).unwrap();
        println!("recorded {} cases in {path}", got.len());
        return;
    }
    if let Err(e) = compare(&got, &parse_table(TABLE)) {
        panic!("{e}\n\nthis build's table:\n{}", format_table(&got));
    }
}

/// Cases chosen to touch every stage that keeps state between steps: the leash (dogs' PRNG,
/// tangles, braid), contacts with warm starting, the point drag and the body drag.
const REPEATED: [&str; 4] = ["leash/xpbd", "pyramid/impulse", "drag:rope/exact", "drag:wrecking-ball/impulse"];

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
