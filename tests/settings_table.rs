//! The settings table is the one definition of every setting: the scene loader and the JS
//! API (`Sim::set`, `setSettings`, and the individual setters, which all go through it)
//! accept and reject exactly the same values (issue 9, point 3).

use ropelab::settings::table::{Kind, SettingValue, SETTINGS};
use ropelab::Sim;
use serde_json::{json, Value};

/// Values to try for a setting: both sides of each bound, the middle, far outside, and the
/// wrong type.
fn probes(kind: Kind) -> Vec<SettingValue> {
    use SettingValue::*;
    let num = |x: f64| Num(x);
    let mut v = Vec::new();
    match kind {
        Kind::Int { min, max } => {
            let (a, b) = (min as f64, max as f64);
            v.extend([a - 1.0, a, a + 0.5, (a + b).div_euclid(2.0), b, b + 1.0, -1e9, 1e12].map(num));
        }
        Kind::Real { min, max, .. } | Kind::OptReal { min, max } => {
            let eps = 1e-3 * (max - min).abs().max(1.0);
            v.extend([min - eps, min, min + eps, 0.5 * (min + max), max - eps, max, max + eps, -1e30, 1e30].map(num));
            if matches!(kind, Kind::OptReal { .. }) {
                v.push(Absent);
            }
        }
        Kind::Bool => v.extend([Bool(true), Bool(false)]),
        Kind::Choice(names) => {
            v.extend(names.iter().map(|n| Text(n.to_string())));
            v.push(Text("bogus".into()));
        }
        Kind::Vec3 { max_abs } => {
            v.extend([Vec3([0.0, -9.81, 0.0]), Vec3([max_abs, 0.0, -max_abs]), Vec3([0.0, -max_abs - 1.0, 0.0])]);
        }
        Kind::Walls => {
            v.extend([Rect([-2.0, -2.0, 2.0, 2.0]), Rect([2.0, -2.0, -2.0, 2.0]), Rect([0.0, 0.0, 0.0, 1.0]), Absent]);
        }
    }
    // The wrong type.
    v.push(if matches!(kind, Kind::Choice(_)) { Num(1.0) } else { Text("1".into()) });
    v
}

/// The value as a scene file writes it.
fn scene_json(kind: Kind, v: &SettingValue) -> Value {
    match (kind, v) {
        (Kind::Walls, SettingValue::Rect(r)) => json!({"min": [r[0], r[1]], "max": [r[2], r[3]]}),
        _ => serde_json::from_str(&v.to_json().to_string()).unwrap(),
    }
}

/// A small scene every solver can run (one rope, equal masses, no pins or dogs).
fn base_scene() -> Value {
    let mut sim = Sim::new();
    sim.load_scene_json(&std::fs::read_to_string("www/scenes/rope.json").unwrap()).unwrap();
    let v: Value = serde_json::from_str(&sim.export_scene_json()).unwrap();
    v
}

#[test]
fn loader_and_api_accept_and_reject_the_same_values() {
    let base = base_scene();
    let base_text = base.to_string();
    let mut checked = 0;
    for s in SETTINGS {
        for probe in probes(s.kind) {
            // The scene loader.
            let mut scene = base.clone();
            scene["settings"][s.key] = scene_json(s.kind, &probe);
            let mut by_file = Sim::new();
            by_file.load_scene_json(&base_text).unwrap();
            let file = by_file.load_scene_json(&scene.to_string());
            // The API, by JS name, on the same world.
            let mut by_api = Sim::new();
            by_api.load_scene_json(&base_text).unwrap();
            let before = by_api.settings_json();
            let api = by_api.set(&s.js_name(), probe.clone());
            assert_eq!(
                file.is_ok(),
                api.is_ok(),
                "{} = {probe:?}: scene file {:?} but API {:?}",
                s.key,
                file.as_ref().err().map(|e| e.to_string()),
                api.as_ref().err().map(|e| e.to_string())
            );
            match (&file, &api) {
                (Err(fe), Err(_)) => {
                    assert!(fe.to_string().contains(&format!("settings.{}", s.key)), "{fe} names the path");
                    assert_eq!(by_api.settings_json(), before, "a rejected value changes nothing");
                }
                (Ok(()), Ok(())) => {
                    // Both read back the same value.
                    assert_eq!(by_file.settings_json(), by_api.settings_json(), "{} = {probe:?}", s.key);
                }
                _ => unreachable!(),
            }
            // The same through setSettings' JSON form (scene key), where JSON can say it.
            let mut by_patch = Sim::new();
            by_patch.load_scene_json(&base_text).unwrap();
            let patch = format!("{{{}: {}}}", ropelab::json::quote(s.key), probe.to_json());
            assert_eq!(by_patch.set_settings_json(&patch).is_ok(), api.is_ok(), "{} = {probe:?} via patch", s.key);
            checked += 1;
        }
        // Numbers JSON cannot carry: the API rejects them and changes nothing.
        if matches!(s.kind, Kind::Int { .. } | Kind::Real { .. } | Kind::OptReal { .. }) {
            for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
                let mut sim = Sim::new();
                sim.load_scene_json(&base_text).unwrap();
                let before = sim.settings_json();
                let e = sim.set(&s.js_name(), SettingValue::Num(x)).unwrap_err().to_string();
                assert!(e.contains(&s.js_name()) && e.contains("finite"), "{e}");
                assert_eq!(sim.settings_json(), before);
            }
        }
    }
    assert!(checked > 150, "only {checked} probes");
}

#[test]
fn the_named_setters_share_the_tables_ranges() {
    // The ranges that disagreed before the table (issue 9): damping, bending compliance,
    // wall friction were capped by the setters but unbounded in scene files.
    let mut sim = Sim::new();
    assert!(sim.set_damping_checked(1000.0).is_ok());
    assert!(sim.set_damping_checked(1000.5).is_err());
    assert!(sim.set_bending_compliance_checked(1e6).is_ok());
    assert!(sim.set_bending_compliance_checked(2e6).is_err());
    assert!(sim.set_wall_friction_checked(100.0).is_ok());
    assert!(sim.set_wall_friction_checked(101.0).is_err());
    let base = base_scene();
    for (key, bad) in [("damping", 1000.5), ("bending_compliance", 2e6), ("wall_friction", 101.0)] {
        let mut scene = base.clone();
        scene["settings"][key] = json!(bad);
        let e = sim.load_scene_json(&scene.to_string()).unwrap_err().to_string();
        assert!(e.contains(&format!("settings.{key}")), "{e}");
    }
    // Give applies to every link, through either path.
    sim.load_scene_json(&base.to_string()).unwrap();
    sim.set_settings_json(r#"{"give": 0.25}"#).unwrap();
    assert!(sim.world().links.give.iter().all(|&g| g == 0.25));
    // All or nothing: one bad entry and nothing changes.
    let before = sim.settings_json();
    assert!(sim.set_settings_json(r#"{"iterations": 7, "omega": 2.5}"#).is_err());
    assert_eq!(sim.settings_json(), before);
    assert!(sim.set_settings_json(r#"{"nonsense": 1}"#).unwrap_err().to_string().contains("unknown setting"));
}

#[test]
fn the_schema_lists_every_setting_with_its_range_and_default() {
    let schema: Value = serde_json::from_str(&Sim::settings_schema_json()).unwrap();
    let a = schema.as_array().unwrap();
    assert_eq!(a.len(), SETTINGS.len());
    for (e, s) in a.iter().zip(SETTINGS) {
        assert_eq!(e["key"], s.key);
        assert!(!e["doc"].as_str().unwrap().is_empty() && !e["range"].as_str().unwrap().is_empty());
        // The default as the schema shows it reads back as the default.
        let shown = SettingValue::from_json(&e["default"]).unwrap();
        let mut x = ropelab::Settings::default();
        s.set(&mut x, &shown).unwrap();
        assert_eq!(x, ropelab::Settings::default(), "{}: default {}", s.key, e["default"]);
        if let Some(sl) = e.get("slider") {
            // A slider never offers a value the setting rejects.
            for x in [sl["min"].as_f64().unwrap(), sl["max"].as_f64().unwrap()] {
                let v = if s.key == "gravity" { SettingValue::Vec3([0.0, -x, 0.0]) } else { SettingValue::Num(x) };
                assert!(s.check(&v).is_ok(), "{}: slider bound {x} rejected", s.key);
            }
        }
    }
}

/// docs/settings.md holds the table `ropelab settings` prints, whole and as it is now (a row
/// per setting, in the table's order), so the documented ranges and defaults are the code's.
#[test]
fn docs_settings_md_documents_the_table_as_it_is() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/settings.md");
    let doc = std::fs::read_to_string(path).unwrap();
    let table = ropelab::settings::table::markdown();
    assert_eq!(table.lines().count(), SETTINGS.len() + 2, "the generated table has a row per setting");
    assert!(
        doc.contains(&table),
        "docs/settings.md's settings table is out of date: replace it with `cargo run --bin ropelab -- settings`"
    );
}
