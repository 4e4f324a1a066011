//! The JS surface, exercised in headless Chromium through wasm-bindgen-test
//! (`cargo test --target wasm32-unknown-unknown --test web`, run by `make test`).
#![cfg(target_arch = "wasm32")]

use ropelab::Sim;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const ROPE: &str = include_str!("../www/scenes/rope.json");

fn rope() -> Sim {
    let mut sim = Sim::new();
    sim.load_scene(ROPE.into()).expect("rope scene loads");
    sim
}

fn message(e: wasm_bindgen::JsError) -> String {
    let v: wasm_bindgen::JsValue = e.into();
    let err: js_sys::Error = v.dyn_into().expect("a JS Error");
    String::from(err.message())
}

#[wasm_bindgen_test]
fn positions_and_links_are_views_of_wasm_memory() {
    let mut sim = rope();
    sim.step(1.0 / 60.0).unwrap();
    let pos = sim.positions();
    let n = sim.point_count();
    assert_eq!(pos.length(), 3 * n);
    let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().dyn_into().unwrap();
    assert!(js_sys::Object::is(&pos.buffer(), &memory.buffer()), "positions() is a view, not a copy");
    let links = sim.links();
    assert_eq!(links.length(), 2 * sim.link_count());
    assert!(js_sys::Object::is(&links.buffer(), &memory.buffer()));
    assert_eq!((links.get_index(0), links.get_index(1)), (0, 1));
    for i in 0..pos.length() {
        assert!(pos.get_index(i).is_finite());
    }
    // The first point is locked: z = 0, and it stays put.
    let p0 = (pos.get_index(0), pos.get_index(1));
    for _ in 0..30 {
        sim.step(1.0 / 60.0).unwrap();
    }
    let pos = sim.positions();
    assert_eq!((pos.get_index(0), pos.get_index(1)), p0);
    // The rope starts level at y = 5 m; its free end falls at g or faster (the links pull it
    // down and in as the rope swings): after 31 steps (0.52 s) free fall is ½ g t² = 1.31 m,
    // and it fell 1.34 m (at half of g: 0.67 m). At least 1 m, and no farther from the pin
    // than the rope's 4 m.
    let end = (pos.get_index(3 * (n - 1)), pos.get_index(3 * (n - 1) + 1));
    assert!(end.1 < 5.0 - 1.0, "free end fell 1 m in 0.5 s: at {end:?}");
    let reach = ((end.0 - p0.0).powi(2) + (end.1 - p0.1).powi(2)).sqrt();
    assert!(reach <= 4.0 * 1.001, "free end within the rope's length of the pin: {reach} m");
}

#[wasm_bindgen_test]
fn bad_input_throws_a_js_error_and_changes_nothing() {
    let mut sim = rope();
    let before = sim.export_scene();
    let msg = message(sim.step(f32::NAN).unwrap_err());
    assert!(msg.contains("dt"), "{msg}");
    assert!(message(sim.step(0.0).unwrap_err()).contains("dt"));
    assert!(message(sim.step(-1.0).unwrap_err()).contains("dt"));
    assert!(message(sim.grab(1, f64::NAN).unwrap_err()).contains("out of range"));
    assert!(message(sim.grab(1, 1e9).unwrap_err()).contains("out of range"));
    assert!(message(sim.grab(1, 2.5).unwrap_err()).contains("out of range"));
    assert!(message(sim.set_locked(-1.0, true).unwrap_err()).contains("out of range"));
    assert!(message(sim.add_point(f32::INFINITY, 0.0, false).unwrap_err()).contains("finite"));
    assert!(message(sim.pick(0.0, 0.0, -1.0).unwrap_err()).contains("radius"));
    assert!(message(sim.set_solver("warp".into()).unwrap_err()).contains("unknown solver"));
    let msg = message(sim.load_scene(r#"{"version": 1, "ropes": [{"from": [0,0,0]}]}"#.into()).unwrap_err());
    assert!(msg.contains("ropes[0]"), "{msg}");
    assert_eq!(sim.export_scene(), before);
}

#[wasm_bindgen_test]
fn drag_lock_edit_and_cut_through_the_js_api() {
    let mut sim = rope();
    let n = sim.point_count();
    let last = (n - 1) as f64;
    let pos = sim.positions();
    let (x, y) = (pos.get_index(3 * (n - 1)), pos.get_index(3 * (n - 1) + 1));
    assert_eq!(sim.pick(x + 0.01, y, 0.1).unwrap(), (n - 1) as i32);
    sim.grab(3, last).unwrap();
    assert_eq!(sim.held_by(3), (n - 1) as i32);
    sim.drag_to(3, 1.0, 1.0).unwrap();
    sim.advance(0.1).unwrap();
    let pos = sim.positions();
    assert_eq!((pos.get_index(3 * (n - 1)), pos.get_index(3 * (n - 1) + 1)), (1.0, 1.0));
    assert!(sim.release(3));
    assert!(sim.toggle_lock(5.0).unwrap());
    sim.refresh_render();
    assert_eq!(sim.point_flags().get_index(5) & 1, 1);
    let p = sim.add_point(0.0, 1.0, false).unwrap();
    sim.connect(p as f64, last).unwrap();
    assert_eq!(sim.link_count(), n);
    sim.subdivide(0.0, 2.0).unwrap();
    assert_eq!(sim.point_count(), n + 3);
    let cut = sim.cut(-5.0, 4.0, 5.0, 4.0).unwrap();
    assert!(cut >= 1, "a horizontal swipe below the top cuts the hanging rope");
    sim.remove_point(p as f64).unwrap();
    assert_eq!(sim.point_count(), n + 2);
}

#[wasm_bindgen_test]
fn counts_refuse_negatives_and_solvers_say_why_not() {
    let mut sim = rope();
    let it = sim.iterations();
    let msg = message(sim.set_iterations(-5.0).unwrap_err());
    assert!(msg.contains("iterations") && msg.contains("-5"), "{msg}");
    assert_eq!(sim.iterations(), it);
    assert!(sim.set_substeps(2.5).is_err());
    let mut leash = Sim::new();
    leash.load_scene(include_str!("../www/scenes/leash.json").into()).unwrap();
    let msg = message(leash.set_solver("classic".into()).unwrap_err());
    assert!(msg.contains("classic cannot run this scene"), "{msg}");
    assert_eq!(leash.solver(), "xpbd");
    let info: js_sys::Array = js_sys::JSON::parse(&Sim::solver_info()).unwrap().dyn_into().unwrap();
    assert_eq!(info.length(), Sim::solvers().len() as u32);
    let mut capstan = Sim::new();
    capstan.load_scene(include_str!("../www/scenes/capstan.json").into()).unwrap();
    for _ in 0..30 {
        capstan.step(1.0 / 60.0).unwrap();
    }
    let report = js_sys::JSON::parse(&capstan.capstan_report()).unwrap();
    let holds = js_sys::Reflect::get(&report, &"holds".into()).unwrap();
    assert_eq!(holds.as_bool(), Some(true));
}

#[wasm_bindgen_test]
fn bodies_through_the_js_api_and_bad_ids_throw() {
    let mut sim = Sim::new();
    sim.load_scene(include_str!("../www/scenes/wrecking-ball.json").into()).unwrap();
    let before = sim.export_scene();
    for bad in [f64::NAN, f64::INFINITY, -1.0, 0.5, 1e10] {
        assert!(message(sim.remove_body(bad).unwrap_err()).contains("id"));
        assert!(message(sim.remove_joint(bad).unwrap_err()).contains("id"));
        assert!(sim.attach(3.0, bad).is_err());
        assert!(message(sim.attach(bad, 0.0).unwrap_err()).contains("point"));
        assert!(message(sim.detach(bad).unwrap_err()).contains("point"));
        assert!(sim.grab_body(1.0, bad, 0.0, 0.0).is_err());
    }
    for bad in [f64::NAN, 0.5, 2e10] {
        assert!(message(sim.grab_body(bad, 0.0, 3.25, 4.5).unwrap_err()).contains("pointer"));
        assert!(message(sim.release_body(bad).unwrap_err()).contains("pointer"));
    }
    assert!(message(sim.pick_body(f32::NAN, 0.0, None).unwrap_err()).contains("x"));
    assert!(message(sim.refill_body_poses_js(f32::NAN).unwrap_err()).contains("alpha"));
    assert!(message(sim.drag_body(7.0, 0.0, 0.0).unwrap_err()).contains("holds no body"));
    let msg = message(
        sim.add_body(r#"{"shape": {"type": "sphere", "radius": 0.1}, "mass": 0, "pos": [0, 0, 0]}"#.into())
            .unwrap_err(),
    );
    assert!(msg.contains("body.mass"), "{msg}");
    let msg = message(sim.add_joint(r#"{"type": "hinge", "a": 0, "b": 0, "anchor": [0, 0, 0]}"#.into()).unwrap_err());
    assert!(msg.contains("joint.b") && msg.contains("itself"), "{msg}");
    assert_eq!(sim.export_scene(), before, "nothing changed");
    // The ball is picked, dragged and let go; the pose buffer is refilled in place.
    assert_eq!(sim.body_count(), 1);
    let ball = sim.pick_body(3.25, 4.5, None).unwrap();
    assert_eq!(ball, 0.0);
    assert_eq!(sim.pick_body(0.0, 0.0, Some(0.1)).unwrap(), -1.0);
    sim.grab_body(1.0, ball, 3.25, 4.5).unwrap();
    sim.drag_body(1.0, 3.0, 4.5).unwrap();
    sim.step(1.0 / 60.0).unwrap();
    let joints: js_sys::Array = js_sys::JSON::parse(&sim.joints_json()).unwrap().dyn_into().unwrap();
    let mouse = js_sys::Reflect::get(&joints.get(0), &"mouse".into()).unwrap();
    assert_eq!(mouse.as_bool(), Some(true));
    assert!(sim.release_body(1.0).unwrap());
    assert_eq!(sim.refill_body_poses_js(0.5).unwrap(), 7);
    let ptr = sim.body_poses_ptr();
    assert_eq!(sim.body_poses_len(), 7);
    let poses = sim.body_poses_view();
    assert_eq!(poses.length(), 7);
    assert!((0..7).all(|k| poses.get_index(k).is_finite()));
    sim.refill_body_poses_js(1.0).unwrap();
    assert_eq!(sim.body_poses_ptr(), ptr, "refilled in place");
}

/// Body contact events in JS: the Uint32Array / Float32Array views and the JSON agree, and
/// draining empties the queue (the wall preset: its boxes rest on the ground and each other).
#[wasm_bindgen_test]
fn contact_events_as_views_and_json() {
    let mut sim = Sim::new();
    sim.load_scene(include_str!("../www/scenes/wall.json").into()).unwrap();
    for _ in 0..90 {
        sim.step(1.0 / 60.0).unwrap();
    }
    let n = sim.contact_event_count();
    assert!(n > 0, "the wall's boxes touch the ground and each other");
    let ids = sim.contact_event_ids().to_vec();
    let impulses = sim.contact_event_impulses().to_vec();
    assert_eq!((ids.len(), impulses.len()), (3 * n as usize, n as usize));
    let json = js_sys::JSON::parse(&sim.drain_contact_events()).unwrap();
    let list: js_sys::Array = json.dyn_into().unwrap();
    assert_eq!(list.length(), n);
    for k in 0..n as usize {
        let e = list.get(k as u32);
        let get = |f: &str| js_sys::Reflect::get(&e, &f.into()).unwrap();
        let kind = if ids[3 * k] == 1 { "begin" } else { "end" };
        assert_eq!(get("type").as_string().as_deref(), Some(kind));
        assert_eq!(get("a").as_f64(), Some(ids[3 * k + 1] as f64));
        assert_eq!(get("b").as_f64(), Some(ids[3 * k + 2] as f64));
        assert_eq!(get("impulse").as_f64(), Some(impulses[k] as f64));
    }
    assert_eq!(sim.contact_event_count(), 0);
    sim.step(1.0 / 60.0).unwrap();
    sim.clear_contact_events();
    assert_eq!((sim.contact_event_count(), sim.contact_event_ids().length()), (0, 0));
}

/// Determinism (issue 13 §2): every preset under every solver that runs it, and the scripted
/// drags, hash in Chromium's wasm exactly as natively — to the same committed table that
/// `tests/determinism.rs` checks the native build against. On a difference this prints the
/// wasm build's whole table (the browser console, shown by the runner).
#[wasm_bindgen_test]
fn every_preset_and_drag_hashes_to_the_native_table() {
    use ropelab::determinism::{compare, compute, format_table, parse_table};
    let got = compute();
    if let Err(e) = compare(&got, &parse_table(include_str!("determinism_hashes.txt"))) {
        console_log!("this wasm build's table:\n{}", format_table(&got));
        panic!("wasm differs from the native table: {e}");
    }
}

/// Export → reload through the JS surface (issue 29 §2): each preset under its own solver,
/// loaded with `loadScene`, stepped 300 times, exported with `exportScene` into a JS string,
/// loaded into a new `Sim` and stepped 300 more, hashes to the table's line for the 600
/// uninterrupted steps (the native `tests/export_reload.rs` runs every solver).
#[wasm_bindgen_test]
fn an_export_loaded_in_the_browser_continues_bit_for_bit() {
    use ropelab::determinism::{cases, hash, parse_table, Script, DT, PRESETS, STEPS};
    let table = parse_table(include_str!("determinism_hashes.txt"));
    for &(name, text) in PRESETS {
        let mut sim = Sim::new();
        sim.load_scene(text.into()).unwrap();
        let solver = sim.world().settings.solver;
        let case = cases().into_iter().find(|c| c.preset == name && c.solver == solver && c.script == Script::Plain);
        let Some(case) = case else { continue };
        for _ in 0..STEPS / 2 {
            sim.step(DT).unwrap();
        }
        let exported = wasm_bindgen::JsValue::from_str(&sim.export_scene());
        let mut back = Sim::new();
        back.load_scene(exported).unwrap_or_else(|e| panic!("{name}: the export does not load: {}", message(e)));
        for _ in 0..STEPS / 2 {
            back.step(DT).unwrap();
        }
        let want = table.iter().find(|(n, _)| *n == case.name()).expect("in the table").1;
        assert_eq!(hash(back.world()), want, "{}: the reloaded export went another way", case.name());
    }
}
