//! Every preset keeps its subject on stage: stepped untouched for 20 s, at least 80 % of its
//! free particles and dynamic bodies stay inside the view its camera frames on a desktop
//! page (the canvas beside the panel: 1280 × 800 less the 320-px panel, an aspect of 1.2),
//! at every sample (every second), and no dynamic body leaves for good. A preset is a small
//! experiment: stops, floors and catch basins keep its story where it can be watched.
//! The page's own framing and the phone's are checked in the browser (tests/e2e/).

mod common;
use common::presets;
use ropelab::bodies::BodyKind;
use ropelab::scene::Scene;
use ropelab::settings::View;

/// The desktop canvas beside the panel, width over height.
const ASPECT: f32 = 960.0 / 800.0;
const SHARE: f32 = 0.8;

/// The share of the subject (free particles, dynamic bodies) inside the view rectangle.
fn share_in_view(w: &ropelab::world::World, lo: glam::Vec2, hi: glam::Vec2, top: bool) -> (f32, usize) {
    let y = |p: glam::Vec3| if top { p.z } else { p.y };
    let inside = |p: glam::Vec3| p.x >= lo.x && p.x <= hi.x && y(p) >= lo.y && y(p) <= hi.y;
    let (mut n, mut k) = (0usize, 0usize);
    for (i, &p) in w.particles.pos.iter().enumerate() {
        if w.particles.inv_mass[i] > 0.0 {
            n += 1;
            k += inside(p) as usize;
        }
    }
    for (i, &p) in w.bodies.pos.iter().enumerate() {
        if w.bodies.kind[i] == BodyKind::Dynamic {
            n += 1;
            k += inside(p) as usize;
        }
    }
    (if n == 0 { 1.0 } else { k as f32 / n as f32 }, n)
}

#[test]
fn every_preset_keeps_its_subject_in_view_for_20_s() {
    let mut report = Vec::new();
    let mut failed = Vec::new();
    for (name, text) in presets() {
        let scene = Scene::from_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut w = scene.build().unwrap();
        let top = w.settings.view == View::Top;
        let (lo, hi) = match (scene.camera, w.settings.walls) {
            (Some(c), walls) => {
                // The page fits the camera's height and, with walls, their width (up to 2.5
                // heights): scale = min(h / height, w / min_width).
                let min_width = walls.map_or(0.0, |wl| ((wl.max.x - wl.min.x) * 1.02).min(c.height * 2.5));
                let width = (c.height * ASPECT).max(min_width);
                let half = glam::Vec2::new(0.5 * width, 0.5 * width / ASPECT);
                (c.center - half, c.center + half)
            }
            (None, Some(wl)) => (wl.min, wl.max), // (the page adds a margin)
            (None, None) => panic!("{name}: a preset states its camera or its walls"),
        };
        let mut worst = 1.0f32;
        for s in 1..=20 {
            for _ in 0..60 {
                w.step(1.0 / 60.0).unwrap();
            }
            let (share, n) = share_in_view(&w, lo, hi, top);
            assert!(n > 0, "{name}: nothing to watch");
            worst = worst.min(share);
            if share < SHARE {
                failed.push(format!("{name}: {:.0} % in view at {s} s", share * 100.0));
                break;
            }
        }
        report.push(format!("{name} {:.0} %", worst * 100.0));
    }
    println!("least share in view over 20 s: {}", report.join(", "));
    assert!(failed.is_empty(), "presets whose subject leaves the view:\n{}", failed.join("\n"));
}
