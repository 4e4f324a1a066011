//! One test per defect the API fuzzer (`tests/fuzz.rs`) found, named after what broke, each
//! the minimised call sequence it printed (issue 13 §1).

#[path = "common/fuzz.rs"]
mod fuzz;

use fuzz::*;
use ropelab::Sim;

fn preset(name: &str) -> Sim {
    let mut sim = Sim::new();
    let text = presets().into_iter().find(|(n, _)| n == name).expect("preset").1;
    sim.load_scene_json(&text).unwrap();
    sim
}

/// Replays `ops` on `start` and asserts the fuzzer's checks pass for every call.
#[track_caller]
fn replay(start: &str, ops: &[Op]) {
    let presets = presets();
    let k = presets.iter().position(|(n, _)| n == start).expect("preset");
    let (fail, _) = run(Some(k), ops, &presets, false);
    assert!(fail.is_none(), "{fail:?}");
}

const H: f32 = 1.0 / 60.0;

/// `step(1e-45)`: a subnormal dt passed the `dt > 0` check, and the velocities, the
/// displacement over the step, came out infinite (then NaN). dt is now at least 1e-6 s.
#[test]
fn a_subnormal_dt_made_velocities_infinite() {
    replay("wrecking-ball", &[Op::Step(1e-45)]);
    replay("rope", &[Op::Step(1e-7), Op::Step(1e-6), Op::SetSubsteps(1000.0), Op::Step(1e-6)]);
    let mut sim = preset("rope");
    assert!(sim.world_mut().step(1e-45).unwrap_err().to_string().contains("dt"));
}

/// The crane after a 1 s step: its planar trolley ended more than the loader's 1 mm slack
/// off z = 0, so `exportScene()` wrote a file `loadScene` refused (`bodies[2].planar`).
#[test]
fn a_planar_body_knocked_off_its_plane_exported_a_scene_that_did_not_load() {
    let ops = [
        Op::Step(1.0),
        Op::SetRopeFriction(0.03384788, 0.44409922),
        Op::Step(H),
        Op::Step(H),
        Op::Grab(0, 10.0),
        Op::Step(H),
        Op::Step(H),
        Op::Step(H),
        Op::ExportReload,
    ];
    replay("crane", &ops);
}

/// The plank bridge: a point attached to a plank could be locked, and the exported scene
/// then failed to load (`attachments[…]`: a locked point cannot be attached). Locking an
/// attached point is now refused, as attaching a locked one is.
#[test]
fn locking_an_attached_point_exported_a_scene_that_did_not_load() {
    replay("plank-bridge", &[Op::ToggleLock(20.0), Op::ExportReload]);
    let mut sim = preset("plank-bridge");
    let err = sim.world_mut().set_locked(20, true).unwrap_err().to_string();
    assert!(err.contains("attached"), "{err}");
}
