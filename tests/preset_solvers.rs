//! Every solver the page offers for a preset runs it correctly, and the ones that cannot
//! are refused with a reason (issue 8, point 2: `classic` used to collapse the leash
//! scene's dogs onto the hand and drop the capstan's rope through the bollard).
use glam::Vec3;
use ropelab::obstacle_wrap::wrap_report;
use ropelab::{scene::Scene, Event, SolverKind, World};

/// The presets with rigid bodies (tests/scene_bodies.rs plays them), the "contacts" group
/// last (tests/contact_scenes.rs).
const BODY_PRESETS: [&str; 9] =
    ["wrecking-ball", "hinge-chain", "door", "ragdoll", "crane", "pyramid", "wall", "plank-bridge", "cradle"];

fn preset(name: &str) -> World {
    let text = std::fs::read_to_string(format!("{}/www/scenes/{name}.json", env!("CARGO_MANIFEST_DIR"))).unwrap();
    Scene::from_json(&text).unwrap().build().unwrap()
}

/// Runs `w` for 10 s; returns the braid resyncs seen and the peak stretch.
fn run(w: &mut World) -> (usize, f32) {
    let (mut resync, mut peak) = (0, 0.0f32);
    for _ in 0..600 {
        w.step(1.0 / 60.0).unwrap();
        peak = peak.max(w.max_stretch());
        resync += w.drain_events().iter().filter(|e| matches!(e, Event::BraidResync)).count();
        assert!(w.particles.pos.iter().all(|p| p.is_finite()));
    }
    (resync, peak)
}

#[test]
fn classic_is_refused_where_it_lacks_what_the_scene_needs() {
    let leash = preset("leash");
    let why = SolverKind::Classic.supports(&leash).unwrap_err();
    assert!(why.contains("dogs"), "{why}");
    let capstan = preset("capstan");
    let why = SolverKind::Classic.supports(&capstan).unwrap_err();
    assert!(why.contains("mass"), "{why}");
    // …and a scene file asking for it names the setting.
    let text = std::fs::read_to_string(format!("{}/www/scenes/leash.json", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["settings"]["solver"] = "classic".into();
    let err = Scene::from_json(&v.to_string()).unwrap().build().unwrap_err().to_string();
    assert!(err.contains("settings.solver") && err.contains("classic cannot run this scene"), "{err}");
    for name in ["rope", "bridge", "net"] {
        assert_eq!(SolverKind::Classic.supports(&preset(name)), Ok(()), "{name}");
    }
    // With mass weighting on, classic takes the capstan.
    let mut capstan = preset("capstan");
    capstan.settings.mass_weighted = true;
    assert_eq!(SolverKind::Classic.supports(&capstan), Ok(()));
    for &kind in &SolverKind::ALL[1..] {
        for name in ["rope", "bridge", "net", "leash", "capstan"].into_iter().chain(BODY_PRESETS) {
            if name == "plank-bridge" && kind != SolverKind::Impulse {
                // Four rope points per plank: only the impulse rows hold that.
                let why = kind.supports(&preset(name)).unwrap_err();
                assert!(why.contains("more than two rope points"), "{why}");
                continue;
            }
            assert_eq!(kind.supports(&preset(name)), Ok(()), "{} {name}", kind.name());
        }
    }
    // Classic cannot run rigid bodies.
    for name in BODY_PRESETS {
        let why = SolverKind::Classic.supports(&preset(name)).unwrap_err();
        assert!(why.contains("rigid bodies"), "{name}: {why}");
    }
}

#[test]
fn every_supported_solver_keeps_the_leash_dogs_apart_and_the_braid_log_clean() {
    for &kind in SolverKind::ALL {
        let mut w = preset("leash");
        w.settings.solver = kind;
        if kind.supports(&w).is_err() {
            continue;
        }
        let (resync, peak) = run(&mut w);
        let l = w.leash.as_ref().unwrap();
        let hand = w.particles.pos[l.hand as usize];
        for d in &l.dogs {
            let p = w.particles.pos[d.particle as usize];
            let dist = ((p - hand) * Vec3::new(1.0, 0.0, 1.0)).length();
            // The dogs wander at the ends of their 1.5 m leashes; collapsed they sat at 0.8.
            assert!(dist > 0.5, "{}: a dog is {dist:.2} m from the hand", kind.name());
        }
        assert_eq!(resync, 0, "{}: the braid log missed events", kind.name());
        // The impulse solver's rows do not see the dogs (their collars and feet are position
        // projections after the rows, as in the position-based solvers), so the leashes give
        // under the dogs' pulls: measured 0.54 peak (issue 10's note). The others stay tight.
        let limit = if kind == SolverKind::Impulse { 0.6 } else { 0.2 };
        assert!(peak < limit, "{}: leash stretch {peak:.3}", kind.name());
    }
}

#[test]
fn every_supported_solver_holds_the_capstan_load_on_the_bollard() {
    for mass_weighted in [false, true] {
        for &kind in SolverKind::ALL {
            let mut w = preset("capstan");
            w.settings.solver = kind;
            w.settings.mass_weighted = mass_weighted;
            if kind.supports(&w).is_err() {
                continue;
            }
            // Sequential impulses cannot hold a 1.5 kg load on a chain of 10 g particles (mass
            // ratio 150) with 2 iterations: the rope stretches 87 % and the load reaches the
            // floor (measured), the family's known weakness (Rapier's revolute chain stretches
            // 7,300 % on W3). Checked as such, so a fix shows up here.
            if kind == SolverKind::Impulse {
                run(&mut w);
                assert!(w.max_stretch() > 0.3, "impulse now holds the capstan: tighten this test");
                continue;
            }
            let load0 = w.particles.pos[0];
            run(&mut w);
            let tag = format!("{} (mass weighted {mass_weighted})", kind.name());
            // Nothing inside the bollard (axis at (0, 1.5), radius 0.1, points of radius 0.01).
            let axis = Vec3::new(0.0, 1.5, 0.0);
            let inside = w
                .particles
                .pos
                .iter()
                .map(|p| ((*p - axis) * Vec3::new(1.0, 1.0, 0.0)).length())
                .fold(f32::INFINITY, f32::min);
            assert!(inside > 0.105, "{tag}: a point is {inside:.3} m from the bollard's axis");
            assert!(w.particles.pos.iter().all(|p| p.y > 0.005), "{tag}: through the floor");
            // Ratio 3.2 under e^{μθ} = 4.81: the load holds (a few cm of settling at most).
            let moved = (w.particles.pos[0] - load0).length();
            assert!(moved < 0.05, "{tag}: the load moved {moved:.3} m");
            let r = wrap_report(&w).expect("the rope lies over the bollard");
            assert!(r.holds, "{tag}: {r:?}");
            assert!((r.wrap - std::f32::consts::PI).abs() < 0.15, "{tag}: wrap {}", r.wrap);
            assert!((r.limit - 4.81).abs() < 0.4, "{tag}: limit {}", r.limit);
        }
    }
}

#[test]
fn every_solver_hangs_the_drag_presets() {
    for name in ["rope", "bridge", "net"] {
        for &kind in SolverKind::ALL {
            let mut w = preset(name);
            w.settings.solver = kind;
            let (_, peak) = run(&mut w);
            // Iterative solvers at the preset's few iterations stretch (rope: ~25 % at rest);
            // none runs away.
            assert!(peak < 0.8, "{name} {}: peak stretch {peak:.3}", kind.name());
            assert!(w.particles.pos.iter().all(|p| p.y >= 0.0), "{name} {}: through the floor", kind.name());
        }
    }
}

#[test]
fn the_wrap_report_sees_a_heavy_load_slip() {
    let mut w = preset("capstan");
    // 4 kg: tensions ≈ 43 N and 5.8 N, a ratio of 7.4 over e^{μθ} = 4.81.
    w.particles.mass[0] = 4.0;
    w.particles.refresh_inv_mass(0);
    let mut slipped = false;
    for t in 0..120 {
        w.step(1.0 / 60.0).unwrap();
        // (The first steps are the rope settling from its straight start.)
        if t < 5 {
            continue;
        }
        if let Some(r) = wrap_report(&w) {
            if !r.holds {
                slipped = true;
                // Static friction gave way because the tensions' ratio passed e^{μθ}.
                assert!(r.ratio > r.limit, "{r:?}");
                assert_eq!(r.load.point, 0, "{r:?}");
                break;
            }
        }
    }
    assert!(slipped, "the 4 kg load should slip");
}
