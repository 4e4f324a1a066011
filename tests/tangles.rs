//! Tangles in a simulated world: a rope draped over a taut rope forms one tangle (events
//! once), reports its wrap, tensions and lock state by the capstan relation (with the seed's
//! optional cap), breaks once when lifted off (ids never reused). Also the JSON
//! views the page reads.

use ropelab::scene::Scene;
use ropelab::tangle::lifecycle::TangleState;
use ropelab::{Event, World};

const DT: f32 = 1.0 / 60.0;

/// Rope 0: a bar along x at 1 m: a rope locked at both ends and pre-stretched (its rest
/// length 5 % short), so it is taut and barely sags. Rope 1: along z, laid across it
/// just above, with weights at both ends (`left`, `right` kg) so it drapes over the bar.
fn drape(left: f32, right: f32, cap: Option<f32>) -> World {
    let cap = cap.map_or(String::new(), |c| format!(", \"tangle_cap\": {c}"));
    let json = format!(
        r#"{{ "version": 1, "name": "drape",
        "settings": {{ "solver": "xpbd", "substeps": 10, "iterations": 2, "damping": 0.5,
                       "rope_collisions": true, "rope_friction": 0.5 {cap} }},
        "ropes": [
          {{ "from": [-1, 1, 0], "to": [1, 1, 0], "points": 21, "lock_start": true, "lock_end": true,
             "radius": 0.01, "mass_per_meter": 0.2, "slack": 0.95 }},
          {{ "from": [0, 1.03, -0.6], "to": [0, 1.03, 0.6], "points": 25, "radius": 0.01,
             "mass_per_meter": 0.2, "start_mass": {left}, "end_mass": {right} }}
        ] }}"#
    );
    Scene::from_json(&json).unwrap().build().unwrap()
}

fn run(w: &mut World, steps: usize, events: &mut Vec<Event>) {
    for _ in 0..steps {
        w.step(DT).unwrap();
        events.append(&mut w.events);
    }
}

fn formed(ev: &[Event]) -> Vec<u32> {
    ev.iter().filter_map(|e| if let Event::TangleFormed { id, .. } = e { Some(*id) } else { None }).collect()
}

fn broken(ev: &[Event]) -> Vec<u32> {
    ev.iter().filter_map(|e| if let Event::TangleBroken { id, .. } = e { Some(*id) } else { None }).collect()
}

/// Every id forms once, breaks at most once (after forming), and ids only grow.
fn once_each(ev: &[Event]) {
    let f = formed(ev);
    assert!(f.windows(2).all(|w| w[0] < w[1]), "ids grow, each formed once: {f:?}");
    let mut b = broken(ev);
    b.sort_unstable();
    assert!(b.windows(2).all(|w| w[0] < w[1]), "each broken once: {b:?}");
    assert!(b.iter().all(|id| f.contains(id)));
}

#[test]
fn drape_forms_one_locked_tangle_and_lifting_breaks_it_once() {
    let mut w = drape(0.3, 0.3, None);
    let mut ev = Vec::new();
    run(&mut w, 120, &mut ev);
    assert_eq!(formed(&ev), vec![0], "{ev:?}");
    let t = w.tangles.tangles()[0];
    assert_eq!((t.over, t.under), (1, 0), "the draped rope is on top");
    assert!(t.wrap > 2.0, "wrapped over the bar: Θ = {}", t.wrap);
    assert_eq!(t.state, TangleState::Locked, "equal weights: friction holds ({:?})", t.tension);
    assert!(t.tension.iter().all(|&x| x > 1.0), "{:?}", t.tension);
    let [x, y, z] = t.point.to_array();
    assert!(x.abs() < 0.05 && (y - 1.0).abs() < 0.05 && z.abs() < 0.05, "at the bar's middle: {}", t.point);
    // The JSON views.
    let json = ropelab::report::tangles_json(&w);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v[0]["id"], 0);
    assert_eq!(v[0]["state"], "locked");
    assert!(v[0]["holdingRatio"].as_f64().unwrap() > 2.0);
    let cross: serde_json::Value = serde_json::from_str(&ropelab::report::top_crossings_json(&w)).unwrap();
    assert!(cross.as_array().unwrap().iter().any(|c| c["over"]["rope"] == 1 && c["under"]["rope"] == 0), "{cross}");
    // Lift the draped rope off by its middle (up, then aside): one break.
    let mid = w.ropes.points(1)[12] as i64;
    w.grab(1, mid).unwrap();
    let p = w.particles.pos[mid as usize];
    for k in 1..=30 {
        w.drag_to(1, p.x, p.y + 0.02 * k as f32).unwrap();
        w.step(DT).unwrap();
        ev.append(&mut w.events);
    }
    w.settings.view = ropelab::View::Top;
    for k in 1..=30 {
        w.drag_to(1, p.x, p.z + 0.015 * k as f32).unwrap();
        w.step(DT).unwrap();
        ev.append(&mut w.events);
    }
    run(&mut w, 30, &mut ev);
    // (While it is lifted, the rope's halves still hug the bar from the sides and below
    // under tension: such contacts may form short-lived tangles of their own.)
    assert!(broken(&ev).contains(&0), "{ev:?}");
    assert!(w.tangles.tangles().is_empty(), "clear of the bar, nothing is tangled");
    once_each(&ev);
    // Events as the page reads them.
    w.events.push(Event::TangleBroken { id: 9, over: 1, under: 0 });
    let drained = ropelab::report::drain_events(&mut w);
    assert!(drained.contains("\"type\":\"tangleBroken\""), "{drained}");
    assert!(w.events.is_empty());
}

#[test]
fn the_lock_test_follows_the_capstan_relation_and_the_optional_cap() {
    // 1.2:1 weights: within e^{0.5·π} = 4.8 — but a cap of 1.05 (the seed clamps at 3)
    // calls it slipping.
    let mut ev = Vec::new();
    let mut w = drape(0.3, 0.36, None);
    run(&mut w, 120, &mut ev);
    assert_eq!(w.tangles.tangles().len(), 1, "{ev:?}");
    let t = w.tangles.tangles()[0];
    assert_eq!(t.state, TangleState::Locked, "{:?} Θ = {}", t.tension, t.wrap);
    assert!(t.slip_ratio < 1.0);
    let mut w = drape(0.3, 0.36, Some(1.05));
    run(&mut w, 120, &mut ev);
    let t = w.tangles.tangles()[0];
    assert_eq!(t.state, TangleState::Tight, "capped at 1.05: {:?}", t.tension);
    assert!(t.slip_ratio > 1.0);
}
