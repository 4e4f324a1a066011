//! Golden trajectories: a hash of every particle's position (and every body's pose) after
//! 600 steps of 1/60 s, for ten presets under each solver that can run them, and for the W1
//! and W3 workloads and the leash workload (`determinism::golden`), against
//! `tests/golden_hashes.txt`. A restructure leaves every one bit-identical; when one has to
//! change, the commit says which and why, and `make goldens` re-records the file (this test
//! never writes it).
//!
//! The hash is FNV-1a over the f32 bit patterns, so it is exact: no tolerance. Rust does
//! not reassociate or fuse floating-point operations, so debug and release builds, and any
//! x86-64 or aarch64 machine, give the same bits.
use ropelab::determinism::{compare, golden, parse_table};

#[test]
fn trajectories_are_bit_identical_to_the_recorded_ones() {
    let got = golden();
    let want = parse_table(include_str!("golden_hashes.txt"));
    let names = |t: &[(String, u64)]| t.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(&got), names(&want), "the cases changed: re-record with `make goldens`");
    if let Err(e) = compare(&got, &want) {
        panic!("trajectories changed:\n{e}");
    }
}
