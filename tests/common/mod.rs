//! Small builders shared by the integration tests.
#![allow(dead_code)]

use glam::Vec3;
use ropelab::{LinkDef, ParticleDef, Settings, World};

/// A world with no gravity and the given settings tweaks.
pub fn world_with(f: impl FnOnce(&mut Settings)) -> World {
    let mut s = Settings::default();
    f(&mut s);
    World::new(s)
}

/// A straight chain of `n` points `seg` apart along +x from `origin`, first point locked.
pub fn chain(w: &mut World, origin: Vec3, n: usize, seg: f32, lock_first: bool) -> Vec<usize> {
    let first = w.particles.len();
    for i in 0..n {
        let def =
            ParticleDef { pos: origin + Vec3::X * seg * i as f32, locked: lock_first && i == 0, ..Default::default() };
        w.add_particle(&def).unwrap();
    }
    for i in 0..n - 1 {
        w.add_link(&LinkDef { a: (first + i) as u32, b: (first + i + 1) as u32, ..Default::default() }).unwrap();
    }
    (first..first + n).collect()
}

/// Largest |d - L| / L over all links.
pub fn max_stretch(w: &World) -> f32 {
    w.max_stretch()
}

/// Every preset in www/scenes/ as (name, JSON text), sorted by name.
pub fn presets() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = std::fs::read_dir("www/scenes")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| (p.file_stem().unwrap().to_string_lossy().to_string(), std::fs::read_to_string(&p).unwrap()))
        .collect();
    out.sort();
    out
}
