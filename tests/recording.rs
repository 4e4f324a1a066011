//! Recordings (`ropelab::recording`, `Sim::start_recording` / `play_recording` / `replay`):
//! a session recorded through the same entry points the page calls replays bit for bit, the
//! file format round-trips, a replay can be taken over, a build that replays differently says
//! where, and every recording in tests/recordings (made in the browser by the e2e suite)
//! replays natively to its recorded hash.

use ropelab::determinism::{hash, preset_text};
use ropelab::recording::{Entry, Hex, Input, Recording, ENGINE};
use ropelab::Sim;

fn rope() -> &'static str {
    preset_text("rope").unwrap()
}

/// The rope preset's free end (its last point).
fn free_end(sim: &Sim) -> usize {
    sim.world().particles.len() - 1
}

/// A scripted session: grab the rope's end, drag it around a circle for 2 s (skipping a step
/// now and then, as a slow frame does), cut through the rope, fling, and let it swing.
/// Returns the recording and the positions after every step.
fn session(sim: &mut Sim) -> (String, Vec<Vec<glam::Vec3>>) {
    let end = free_end(sim);
    let mut frames = Vec::new();
    sim.grab_checked(1, end as f64).unwrap();
    let p0 = sim.world().particles.pos[end];
    for k in 0..120 {
        if k % 17 != 5 {
            let t = k as f32 / 60.0;
            let (s, c) = (libm::sinf(3.0 * t), libm::cosf(3.0 * t));
            // Two moves in one frame: only the last one counts.
            sim.drag_to_checked(1, p0.x + 0.3 * s, p0.y - 0.3 + 0.3 * c).unwrap();
            sim.drag_to_checked(1, p0.x + 0.5 * s, p0.y - 0.5 + 0.5 * c).unwrap();
        }
        if k == 60 {
            sim.set_locked_checked(3.0, true).unwrap();
        }
        sim.step_checked(1.0 / 60.0).unwrap();
        frames.push(sim.world().particles.pos.clone());
    }
    assert!(sim.release_checked(1));
    sim.cut_checked(-5.0, 1.2, 5.0, 1.25).unwrap();
    sim.set("gravity", ropelab::settings::table::SettingValue::Vec3([0.0, -5.0, 0.0])).unwrap();
    for _ in 0..100 {
        sim.step_checked(1.0 / 60.0).unwrap();
        frames.push(sim.world().particles.pos.clone());
    }
    (sim.stop_recording().unwrap(), frames)
}

fn recorded() -> (String, Vec<Vec<glam::Vec3>>, u64) {
    let mut sim = Sim::new();
    sim.load_scene_json(rope()).unwrap();
    sim.set_solver_checked("xpbd").unwrap();
    sim.start_recording("rope", rope(), 0.0).unwrap();
    assert!(sim.is_recording());
    let (rec, frames) = session(&mut sim);
    (rec, frames, hash(sim.world()))
}

#[test]
fn a_session_replays_bit_for_bit() {
    let (rec, frames, end_hash) = recorded();
    let r = Recording::from_json(&rec).unwrap();
    assert_eq!(r.steps, 220);
    assert_eq!(r.hash, Hex(end_hash));
    assert_eq!(r.checks.len(), 3);

    // Played step by step as the page does: every position equal after every step.
    let mut sim = Sim::new();
    sim.play_recording(&rec, rope()).unwrap();
    assert_eq!(sim.world().settings.solver.name(), "xpbd", "the settings carry over");
    for (k, want) in frames.iter().enumerate() {
        assert!(sim.is_playing(), "still playing at step {k}");
        sim.step_checked(1.0 / 60.0).unwrap();
        let got = &sim.world().particles.pos;
        assert_eq!(got.len(), want.len());
        for (i, (a, b)) in got.iter().zip(want).enumerate() {
            assert_eq!(
                a.to_array().map(f32::to_bits),
                b.to_array().map(f32::to_bits),
                "point {i} after step {}",
                k + 1
            );
        }
    }
    assert!(!sim.is_playing());
    let status = sim.playback_json();
    assert!(status.contains("\"matches\":true"), "{status}");

    // And at once, as `ropelab replay` does.
    let report = Sim::replay(&rec, rope()).unwrap();
    assert!(report.matches(), "{}", report.message());
    assert_eq!(report.hash, end_hash);
    assert_eq!(report.steps, 220);
}

#[test]
fn drags_are_quantised_while_recording_only() {
    let mut sim = Sim::new();
    sim.load_scene_json(rope()).unwrap();
    let end = free_end(&sim);
    sim.grab_checked(1, end as f64).unwrap();
    sim.drag_to_checked(1, 0.123_456, 1.0).unwrap();
    assert_eq!(sim.world().particles.pos[end].x, 0.123_456, "not recording: the point goes where the pointer is");
    sim.start_recording("rope", rope(), 0.0).unwrap();
    let end = free_end(&sim);
    sim.grab_checked(1, end as f64).unwrap();
    sim.drag_to_checked(1, 0.123_456, 1.0).unwrap();
    let x = sim.world().particles.pos[end].x;
    assert_eq!(x, 63.0 / 512.0, "recording: to the 2⁻⁹ m grid");
}

/// Every input kind, tracks with gaps and two pointers, written and read back.
#[test]
fn the_format_round_trips() {
    use ropelab::settings::table::SettingValue as V;
    let d = |step, pointer, x, y| Entry { step, input: Input::Drag { pointer, q: [x, y] } };
    let inputs = vec![
        Entry { step: 0, input: Input::Settings { patch: vec![("solver".into(), V::Text("xpbd".into()))] } },
        Entry { step: 0, input: Input::Grab { pointer: 1, point: 20 } },
        d(0, 1, 100, 200),
        Entry { step: 1, input: Input::Grab { pointer: 2, point: 5 } },
        d(1, 1, 103, 198),
        d(1, 2, -50, 7),
        d(2, 1, 107, 195),
        d(2, 2, -51, 8),
        // A cut after a drag in the same step: that drag stays a single `to`.
        d(3, 1, 112, 190),
        Entry { step: 3, input: Input::Cut { from: [0.1, 0.2], to: [0.3, -0.4] } },
        d(5, 1, 118, 180),
        Entry { step: 8, input: Input::Release { pointer: 2 } },
        d(9, 1, 120, 181),
        Entry { step: 10, input: Input::Release { pointer: 1 } },
        Entry { step: 10, input: Input::GrabBody { pointer: 3, body: 4, q: [1, -2] } },
        Entry { step: 11, input: Input::DragBody { pointer: 3, q: [2, -2] } },
        Entry { step: 12, input: Input::DragBody { pointer: 3, q: [4, -3] } },
        Entry { step: 12, input: Input::ReleaseBody { pointer: 3 } },
        Entry { step: 12, input: Input::Lock { point: 3, locked: true } },
        Entry { step: 13, input: Input::AddPoint { at: [0.5, 1.5], locked: false } },
        Entry { step: 13, input: Input::Connect { a: 1, b: 2 } },
        Entry { step: 13, input: Input::Disconnect { a: 1, b: 2 } },
        Entry { step: 13, input: Input::Subdivide { link: 2, count: 3 } },
        Entry { step: 13, input: Input::Pin { point: 2, at: [1.0, 2.0], compliance: 0.001 } },
        Entry { step: 13, input: Input::Unpin { point: 2 } },
        Entry { step: 13, input: Input::RemovePoint { point: 7 } },
        Entry {
            step: 14,
            input: Input::AddObstacle { json: r#"{"shape":{"type":"circle","center":[0,1,0],"radius":0.5}}"#.into() },
        },
        Entry { step: 14, input: Input::ClearObstacles },
        Entry { step: 14, input: Input::AddBody { json: "{}".into() } },
        Entry { step: 14, input: Input::RemoveBody { body: 9 } },
        Entry { step: 14, input: Input::AddJoint { json: "{}".into() } },
        Entry { step: 14, input: Input::RemoveJoint { joint: 2 } },
        Entry { step: 14, input: Input::Attach { point: 1, body: 2 } },
        Entry { step: 14, input: Input::Detach { point: 1 } },
        Entry { step: 14, input: Input::WinchSpeed { winch: 0, speed: -0.25 } },
        Entry { step: 14, input: Input::Wander { on: false } },
        Entry { step: 14, input: Input::WanderParams { accel: 2.0, damping: 0.5 } },
        Entry {
            step: 14,
            input: Input::Settings {
                patch: vec![
                    ("gravity".into(), V::Vec3([0.0, -9.81, 0.0])),
                    ("walls".into(), V::Rect([-1.0, 0.0, 1.0, 2.0])),
                    ("tangle_cap".into(), V::Absent),
                    ("tethers".into(), V::Bool(true)),
                    ("iterations".into(), V::Num(12.0)),
                ],
            },
        },
        Entry { step: 15, input: Input::Load { text: "{\"version\": 1}".into() } },
        Entry { step: 15, input: Input::Dt { h: 1.0 / 120.0 } },
        Entry { step: 16, input: Input::Mark { what: "pause".into(), value: 1250.0 } },
    ];
    let mut r = Recording::from_json(&recorded().0).unwrap();
    r.steps = 60;
    r.checks = vec![7];
    r.inputs = inputs.clone();
    let text = r.to_json();
    let back = Recording::from_json(&text).unwrap();
    assert_eq!(back.inputs, inputs, "{text}");
    assert!(text.contains(r#"[0,"drag",1,100,200,[3,-2,1,-1],[]]"#), "{text}");
    assert!(text.contains(r#"[5,"drag",1,118,180,[2,1],[1,3]]"#), "{text}");
    assert!(text.contains(r#"[3,"to",1,112,190]"#), "{text}");
}

#[test]
fn a_replay_can_be_taken_over() {
    let (rec, frames, _) = recorded();
    let mut sim = Sim::new();
    sim.play_recording(&rec, rope()).unwrap();
    for _ in 0..30 {
        sim.step_checked(1.0 / 60.0).unwrap();
    }
    assert_eq!(sim.world().particles.pos, frames[29]);
    // The user grabs a point: the replay ends there and the world goes on under their hand.
    sim.grab_checked(7, 2.0).unwrap();
    assert!(!sim.is_playing());
    let status = sim.playback_json();
    assert!(status.contains("\"takenOver\":30") && status.contains("taken over at step 30"), "{status}");
    sim.drag_to_checked(7, 0.0, 0.0).unwrap();
    sim.step_checked(1.0 / 60.0).unwrap();
    assert_ne!(sim.world().particles.pos, frames[30]);
}

/// A build that replays a recording differently says where it parts from it: here the
/// recording is made by "another engine" (its gravity and engine number changed by hand,
/// as an older build's different physics would leave it).
#[test]
fn a_different_engine_is_detected() {
    let (rec, _, _) = recorded();
    let mut r = Recording::from_json(&rec).unwrap();
    r.engine = ENGINE + 1;
    let same = Sim::replay(&r.to_json(), rope()).unwrap();
    assert!(same.matches());
    assert_eq!(
        same.message(),
        format!(
            "recorded with engine {}; this build (engine {ENGINE}) replays it exactly (220 steps, state {})",
            ENGINE + 1,
            r.hash
        )
    );
    // The "older engine" moved the rope another way from step 100 on: its second and third
    // checks and its final hash differ from this build's.
    r.engine = ENGINE - 1;
    r.checks[1] ^= 1;
    r.checks[2] ^= 1;
    r.hash = Hex(r.hash.0 ^ 1);
    let report = Sim::replay(&r.to_json(), rope()).unwrap();
    assert!(!report.matches());
    assert_eq!(report.diverged_at, Some(120));
    assert!(
        report.message().starts_with(&format!(
            "recorded with engine {}; this build (engine {ENGINE}) diverges at step 120",
            ENGINE - 1
        )),
        "{}",
        report.message()
    );
    // On the page: the status says so while it plays on.
    let mut sim = Sim::new();
    sim.play_recording(&r.to_json(), rope()).unwrap();
    for _ in 0..130 {
        sim.step_checked(1.0 / 60.0).unwrap();
    }
    let status = sim.playback_json();
    assert!(status.contains("\"divergedAt\":120") && status.contains("diverges at step 120"), "{status}");
}

#[test]
fn a_changed_scene_is_refused() {
    let (rec, _, _) = recorded();
    let other = rope().replacen("\"points\": ", "\"points\": 1", 1);
    let mut sim = Sim::new();
    sim.load_scene_json(preset_text("bridge").unwrap()).unwrap();
    let before = hash(sim.world());
    let e = sim.play_recording(&rec, &other).unwrap_err().to_string();
    assert!(e.contains("the preset \"rope\" has changed since it was recorded"), "{e}");
    assert_eq!(hash(sim.world()), before, "a refused recording changes nothing");
    let e = sim.play_recording(&rec, "").unwrap_err().to_string();
    assert!(e.contains("pass its scene text"), "{e}");
}

#[test]
fn malformed_recordings_name_the_place() {
    let (rec, _, _) = recorded();
    for (from, to, want) in [
        ("\"format\":\"ropelab-recording\"", "\"format\":\"x\"", "recording error at `format`"),
        ("\"release\",1]", "\"release\"]", "recording error at `inputs["),
        ("\"release\",1]", "\"release\",1,2]", "too many arguments for `release`"),
        ("\"release\",1]", "\"fly\",1]", "unknown input `fly`"),
        ("\"quantum\":0.001953125", "\"quantum\":0.003", "recording error at `quantum`"),
        ("\"steps\":220", "\"steps\":240", "recording error at `checks`"),
    ] {
        assert!(rec.contains(from), "{from} in {rec}");
        let bad = rec.replacen(from, to, 1);
        let e = Sim::replay(&bad, rope()).unwrap_err().to_string();
        assert!(e.contains(want), "{to}: {e}");
    }
    assert!(Sim::replay("[1]", "").unwrap_err().to_string().contains("a recording is a JSON object"));
}

/// The engine number moves with the trajectories: when the golden hashes are re-recorded
/// (a change moved some trajectory), `recording::ENGINE` must be raised and the recordings
/// in tests/recordings made again.
#[test]
fn the_engine_number_follows_the_goldens() {
    let fingerprint = |path: &str| {
        let text = std::fs::read_to_string(format!("{}/tests/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        ropelab::recording::fnv(text.replace("\r\n", "\n").as_bytes())
    };
    let now = (fingerprint("golden_hashes.txt"), fingerprint("determinism_hashes.txt"));
    // (engine, golden_hashes.txt, determinism_hashes.txt)
    const ENGINES: &[(u32, u64, u64)] = &[
        (1, 0x13a3_ae70_ca7d_b3da, 0xf170_d9dc_e004_5cac),
        (2, 0x13a3_ae70_ca7d_b3da, 0x4288_76d1_92d9_bf73),
        (3, 0xef3b_7ff1_b674_9e16, 0x347d_65bd_6620_c3f6),
        (4, 0x42a7_c81c_bc38_7f7e, 0xf461_1a6e_b277_4edf),
        (5, 0x42a7_c81c_bc38_7f7e, 0x8d4a_b0f9_c4a4_b99d),
    ];
    let known = ENGINES.iter().find(|e| e.0 == ENGINE).map(|e| (e.1, e.2));
    assert_eq!(
        known,
        Some(now),
        "the golden trajectories changed: raise recording::ENGINE, add ({}, {:#x}, {:#x}) here, and record tests/recordings again",
        ENGINE + 1,
        now.0,
        now.1
    );
}

/// Every recording the browser made replays natively to the hash it recorded.
#[test]
fn the_browser_recordings_replay_natively() {
    let dir = format!("{}/tests/recordings", env!("CARGO_MANIFEST_DIR"));
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let r = Recording::from_json(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let scene = match &r.scene {
            ropelab::recording::SceneRef::Preset(name) => {
                preset_text(name).unwrap_or_else(|| panic!("no preset {name}"))
            }
            ropelab::recording::SceneRef::Inline(_) => "",
        };
        let report = Sim::replay(&text, scene).unwrap();
        assert!(report.matches(), "{}: {}", path.display(), report.message());
        assert_eq!(report.hash, r.hash.0);
        n += 1;
    }
    assert!(n >= 4, "tests/recordings holds {n} recordings; the e2e suite makes four");
}

/// A recording that carries its scene (an edited world: the page records from its export)
/// replays without a preset, from the world as it was, mid-run velocities and all.
#[test]
fn a_recording_can_carry_its_scene() {
    let mut sim = Sim::new();
    sim.load_scene_json(preset_text("bridge").unwrap()).unwrap();
    for _ in 0..45 {
        sim.step_checked(1.0 / 60.0).unwrap();
    }
    sim.add_point(0.3, 2.5, true).ok();
    let now = sim.export_scene_json();
    sim.start_recording("", &now, 0.0).unwrap();
    let mid = sim.world().particles.len() / 2;
    sim.grab_checked(4, mid as f64).unwrap();
    let p = sim.world().particles.pos[mid];
    for k in 0..90 {
        sim.drag_to_checked(4, p.x + 0.01 * k as f32, p.y - 0.02 * k as f32).unwrap();
        sim.step_checked(1.0 / 60.0).unwrap();
    }
    sim.release_checked(4);
    sim.step_checked(1.0 / 60.0).unwrap();
    let rec = sim.stop_recording().unwrap();
    assert!(rec.contains("\"scene\":{"), "the scene travels with it");
    let report = Sim::replay(&rec, "").unwrap();
    assert!(report.matches(), "{}", report.message());
    assert_eq!(report.hash, hash(sim.world()));
}

/// The page steps on after a replay's last step: its report stays the one of that step.
#[test]
fn the_report_is_the_last_steps() {
    let (rec, _, _) = recorded();
    let mut sim = Sim::new();
    sim.play_recording(&rec, rope()).unwrap();
    for _ in 0..260 {
        sim.step_checked(1.0 / 60.0).unwrap();
    }
    let status = sim.playback_json();
    assert!(status.contains("\"matches\":true") && status.contains("replays it exactly (220 steps"), "{status}");
}

/// A recording stopped mid-drag: at the end of its replay nothing stays held.
#[test]
fn a_replay_lets_go_at_its_end() {
    let mut sim = Sim::new();
    sim.start_recording("rope", rope(), 0.0).unwrap();
    let end = free_end(&sim);
    sim.grab_checked(2, end as f64).unwrap();
    for k in 0..30 {
        sim.drag_to_checked(2, 0.01 * k as f32, 1.0).unwrap();
        sim.step_checked(1.0 / 60.0).unwrap();
    }
    let rec = sim.stop_recording().unwrap();
    assert!(!sim.world().holds.is_empty(), "the recording's own run still holds the point");
    let mut sim = Sim::new();
    sim.play_recording(&rec, rope()).unwrap();
    for _ in 0..30 {
        sim.step_checked(1.0 / 60.0).unwrap();
    }
    assert!(sim.playback_json().contains("\"matches\":true"));
    assert!(sim.world().holds.is_empty(), "the replay let go");
}

/// A pointer whose moves fall unevenly on the steps (none in one step, two in the next) is
/// written as first differences (`drag1`), and reads back the same.
#[test]
fn an_uneven_track_is_written_as_first_differences() {
    let mut r = Recording::from_json(&recorded().0).unwrap();
    let xs = [0, 0, 20, 20, 40, 40, 60, 60, 80, 80, 100, 100];
    r.inputs = xs
        .iter()
        .enumerate()
        .map(|(k, &x)| Entry { step: k as u32, input: Input::Drag { pointer: 1, q: [x, -x] } })
        .collect();
    let text = r.to_json();
    assert!(text.contains(r#"[0,"drag1",1,0,0,[0,0,20,-20,0,0,20,-20,"#), "{text}");
    assert_eq!(Recording::from_json(&text).unwrap().inputs, r.inputs);
}
