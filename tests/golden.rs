//! Golden trajectories (issue 9, "what must not change"): a hash of every particle's
//! position (and every body's pose) after 600 steps of 1/60 s, for each preset under each
//! solver that can run it, and for the W1 and W3 workloads and the leash workload. Recorded
//! after issue 8's solver changes (the body presets' cases in issue 10); a restructure must leave every one bit-identical (if one has to change, the
//! commit says which and why, and the table below is re-recorded with
//! `GOLDEN_RECORD=1 cargo test --release --test golden -- --nocapture`).
//!
//! The hash is FNV-1a over the f32 bit patterns, so it is exact: no tolerance. Rust does
//! not reassociate or fuse floating-point operations, so debug and release builds, and any
//! x86-64 or aarch64 machine, give the same bits.
use ropelab::{scene::Scene, workloads, SolverKind, World};

/// FNV-1a over every particle position, then every body's position and rotation (worlds
/// without bodies hash as they did before bodies existed): the determinism table's hash.
use ropelab::determinism::hash;

fn run(mut w: World) -> u64 {
    for _ in 0..600 {
        w.step(1.0 / 60.0).unwrap();
    }
    hash(&w)
}

fn preset(name: &str) -> World {
    let text = std::fs::read_to_string(format!("{}/www/scenes/{name}.json", env!("CARGO_MANIFEST_DIR"))).unwrap();
    Scene::from_json(&text).unwrap().build().unwrap()
}

/// Every (case, hash) in the order of `GOLDEN`.
fn compute() -> Vec<(String, u64)> {
    let mut out = Vec::new();
    for name in
        ["rope", "bridge", "net", "leash", "capstan", "wrecking-ball", "hinge-chain", "door", "ragdoll", "crane"]
    {
        for &kind in SolverKind::ALL {
            let mut w = preset(name);
            w.settings.solver = kind;
            if kind.supports(&w).is_err() {
                continue;
            }
            out.push((format!("{name}/{}", kind.name()), run(w)));
        }
    }
    for &kind in SolverKind::ALL {
        out.push((format!("W1/{}", kind.name()), run(workloads::w1(kind))));
        out.push((format!("W3/{}", kind.name()), run(workloads::w3(kind))));
    }
    out.push(("leash-workload".into(), run(workloads::leash_world())));
    out
}

const GOLDEN: &[(&str, u64)] = &[
    ("rope/classic", 0x4d315cc315d5cf08),
    ("rope/pbd", 0xb97c0a5991515847),
    ("rope/jacobi", 0x2d6c552910b792fd),
    ("rope/xpbd", 0xb97c0a5991515847),
    ("rope/exact", 0x3724e5a951260377),
    ("rope/impulse", 0x3e39e6fe2075af7c),
    ("bridge/classic", 0xa4315b3f327711c6),
    ("bridge/pbd", 0x05e93de3c1e61544),
    ("bridge/jacobi", 0xd967053a47414f44),
    ("bridge/xpbd", 0x05e93de3c1e61544),
    ("bridge/exact", 0xb5341a2aad9eedb9),
    ("bridge/impulse", 0x1dbd91aaaa7a21de),
    ("net/classic", 0x1b3ad8b5bee82e69),
    ("net/pbd", 0xf7afe05c78b63e96),
    ("net/jacobi", 0x49182b00b8e3bc0d),
    ("net/xpbd", 0xf7afe05c78b63e96),
    ("net/exact", 0xd902b6cb0ed50858),
    ("net/impulse", 0x27c312fecc128172),
    ("leash/pbd", 0x5c800f88957a8688),
    ("leash/jacobi", 0x804773d564d9ca6d),
    ("leash/xpbd", 0x5c800f88957a8688),
    ("leash/exact", 0xdee551430080fc93),
    ("leash/impulse", 0x7dc3f4a4cb031530),
    ("capstan/pbd", 0x0550ef124cfc8ae6),
    ("capstan/jacobi", 0xbf3b6fe068c1390b),
    ("capstan/xpbd", 0x0550ef124cfc8ae6),
    ("capstan/exact", 0x82fa36488764792b),
    ("capstan/impulse", 0x6682295583136a27),
    ("wrecking-ball/pbd", 0xcadc977d504da588),
    ("wrecking-ball/jacobi", 0x217368887b439f9d),
    ("wrecking-ball/xpbd", 0xcadc977d504da588),
    ("wrecking-ball/exact", 0xe5c35dc0cbe9ccfb),
    ("wrecking-ball/impulse", 0x1d1445cfa7f9b51f),
    ("hinge-chain/pbd", 0x35fd15abe26109e1),
    ("hinge-chain/jacobi", 0x35fd15abe26109e1),
    ("hinge-chain/xpbd", 0x35fd15abe26109e1),
    ("hinge-chain/exact", 0x35fd15abe26109e1),
    ("hinge-chain/impulse", 0x35fd15abe26109e1),
    ("door/pbd", 0x9ba89b0d416e9edc),
    ("door/jacobi", 0x9ba89b0d416e9edc),
    ("door/xpbd", 0x9ba89b0d416e9edc),
    ("door/exact", 0x9ba89b0d416e9edc),
    ("door/impulse", 0x9ba89b0d416e9edc),
    ("ragdoll/pbd", 0xf45c9f944d3e67de),
    ("ragdoll/jacobi", 0xc2a7c60a72134d5d),
    ("ragdoll/xpbd", 0xf45c9f944d3e67de),
    ("ragdoll/exact", 0x0c8213ad199db426),
    ("ragdoll/impulse", 0x401f86c26d25d409),
    ("crane/pbd", 0xd25f6c308e0201aa),
    ("crane/jacobi", 0x0c73f5faa0ea81a0),
    ("crane/xpbd", 0xd25f6c308e0201aa),
    ("crane/exact", 0xc7d64a5edf08cdba),
    ("crane/impulse", 0xa5f4313258df247f),
    ("W1/classic", 0x527290201cfa3e25),
    ("W3/classic", 0x527290201cfa3e25),
    ("W1/pbd", 0x59a6e7c448202fe1),
    ("W3/pbd", 0xb626232db2aad2dd),
    ("W1/jacobi", 0x93774197b0bb5284),
    ("W3/jacobi", 0xc344655cc29699c6),
    ("W1/xpbd", 0x06914f36c4ab67f1),
    ("W3/xpbd", 0x2b00a7793b25f8b5),
    ("W1/exact", 0x769558c9061adf9d),
    ("W3/exact", 0xb530df622ea8bb7f),
    ("W1/impulse", 0xfa433a8282f6a014),
    ("W3/impulse", 0x9336694cd57be075),
    ("leash-workload", 0x5c800f88957a8688),
];

#[test]
fn trajectories_are_bit_identical_to_the_recorded_ones() {
    let got = compute();
    if std::env::var_os("GOLDEN_RECORD").is_some() {
        for (case, h) in &got {
            println!("    (\"{case}\", {h:#018x}),");
        }
        return;
    }
    let want: Vec<(String, u64)> = GOLDEN.iter().map(|&(c, h)| (c.to_string(), h)).collect();
    let changed: Vec<String> = got
        .iter()
        .zip(&want)
        .filter(|(g, w)| g != w)
        .map(|(g, w)| format!("{}: {:#018x}, recorded {:#018x}", g.0, g.1, w.1))
        .collect();
    assert_eq!(got.len(), want.len(), "the cases changed: {:?}", got.iter().map(|g| &g.0).collect::<Vec<_>>());
    assert!(changed.is_empty(), "trajectories changed:\n{}", changed.join("\n"));
}
