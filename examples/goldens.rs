//! `make goldens`: re-records the determinism table (`tests/determinism_hashes.txt`) and the
//! golden trajectories (`tests/golden_hashes.txt`) from this build. Run it only when a
//! trajectory is meant to change, and say in the commit which lines changed and why; the
//! tests only ever compare against these files.
use ropelab::determinism::{compute, format_table, golden, parse_table};

fn main() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests");
    for (file, rows) in [("determinism_hashes.txt", compute()), ("golden_hashes.txt", golden())] {
        let path = format!("{dir}/{file}");
        let old = std::fs::read_to_string(&path).map(|t| parse_table(&t)).unwrap_or_default();
        let changed: Vec<&str> =
            rows.iter().filter(|(n, h)| !old.iter().any(|(m, g)| m == n && g == h)).map(|(n, _)| n.as_str()).collect();
        std::fs::write(&path, format_table(&rows)).unwrap_or_else(|e| panic!("{path}: {e}"));
        println!("{path}: {} cases, {} new or changed {:?}", rows.len(), changed.len(), changed);
    }
}
