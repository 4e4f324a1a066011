//! Scenes at the caps, shared by the limits tests (`tests/limits.rs`) and their timing
//! benchmark (`benches/limits.rs`): the same worlds are checked for their errors and timed.
#![allow(dead_code)]

use ropelab::limits::{self, Load, MAX_WORK};
use serde_json::json;

/// The most iterations (at `substeps`) the work budget allows for `load`.
pub fn max_iterations(load: Load, substeps: u32) -> u32 {
    let mut it = 1;
    while it < limits::MAX_ITERATIONS && limits::work(&Load { substeps, iterations: it + 1, ..load }) <= MAX_WORK {
        it += 1;
    }
    it
}

pub fn pile_scene(bodies: usize, substeps: u32, iterations: u32, joints: bool) -> serde_json::Value {
    let mut b = vec![
        json!({"name": "ground", "kind": "static", "shape": {"type": "box", "half": [60, 0.5, 2]}, "pos": [0, -0.5, 0]}),
    ];
    for i in 0..bodies - 1 {
        let (col, row) = ((i % 40) as f32, (i / 40) as f32);
        b.push(
            json!({"shape": {"type": "box", "half": [0.5, 0.5, 0.5]}, "pos": [col * 1.1 - 22.0, 0.5 + row * 1.0, 0]}),
        );
    }
    let j: Vec<_> = if joints {
        (2..bodies).map(|k| json!({"type": "ballSocket", "a": k - 1, "b": k, "anchor": [0, 0, 0]})).collect()
    } else {
        Vec::new()
    };
    json!({"version": 1, "settings": {"solver": "impulse", "substeps": substeps, "iterations": iterations}, "bodies": b, "joints": j})
}
