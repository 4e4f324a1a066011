//! One test per defect the API fuzzer (`tests/fuzz.rs`) found, named after what broke, each
//! the minimised call sequence it printed (issue 13 §1).
//!
//! The wasm fuzzer's (`tests/fuzz/wasm-fuzz.mjs`) one find lives in JS, where it can be
//! replayed: a number or an object passed where a method takes a string trapped in
//! wasm-bindgen's `&str` glue (`RuntimeError: memory access out of bounds`); the harness
//! replays it for every string parameter before its random calls, and `src/wasm/mod.rs`
//! (`js_text`) says why those parameters are `JsValue`s.

#[path = "common/fuzz.rs"]
mod fuzz;

use fuzz::*;
use ropelab::settings::table::SettingValue;
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

/// The plank bridge with an anchor removed and a 1 s step at 11 substeps exploded (bodies at
/// 10⁶ m/s); a step later a contact's friction bound, μ × a NaN normal impulse, reached
/// `f32::clamp`, which panics on NaN — a trap in wasm. Now a NaN bound leaves the row, and
/// speeds and positions are capped at each step's end (`World::keep_in_bounds`).
#[test]
fn a_nan_friction_bound_panicked_in_clamp_after_the_plank_bridge_exploded() {
    let body = r#"{"friction":0.2407717979836379,"mass":80.28948374031427,"pos":[3.83278793685633,-0.5040251234454518,0.0],"shape":{"half_length":0.447810662165306,"radius":0.06687243916183822,"type":"capsule"}}"#;
    let ops = [
        Op::Detach(17.0),
        Op::SetSubsteps(11.0),
        Op::Step(H),
        Op::RemoveBody(12.0),
        Op::Step(1.0),
        Op::AddBody(body.into()),
        Op::Advance(0.064),
        Op::ExportReload,
    ];
    replay("plank-bridge", &ops);
}

/// A pin target at x = 1e20 (finite) was accepted, and the leash went NaN pulling towards
/// it. Coordinates are now within ±1e5 m (`limits::MAX_COORD`).
#[test]
fn a_pin_at_1e20_made_the_leash_nan() {
    replay("leash", &[Op::Pin(35.0, 1e20, -3.6839128, 0.00028053857), Op::Advance(0.032)]);
}

/// A point added at y = −1e38 made the potential energy −∞ under 1000 m/s² gravity.
#[test]
fn a_point_added_at_minus_1e38_made_the_energy_infinite() {
    replay("pyramid", &[Op::AddPoint(-2.9556181, -1e38, false)]);
    let presets = presets();
    let ops = [Op::SetGravity(-10.835429, 1000.0, -0.8190199), Op::AddPoint(-0.0, -1e38, false)];
    assert!(run(None, &ops, &presets, false).0.is_none());
}

/// The atwood machine with a point pinned 1000 m away: a body reached 16,760 m/s, past the
/// 1e4 m/s the loader accepts, so `exportScene()` wrote a file `loadScene` refused.
#[test]
fn a_body_faster_than_the_loader_accepts_exported_a_scene_that_did_not_load() {
    replay("atwood", &[Op::Pin(22.0, 1000.0, -2.359771, 0.0005373118), Op::Step(H), Op::ExportReload]);
}

/// Removing a leash point leaves the leash invalid (no longer simulated), but the export
/// still wrote `leash_points`, which the loader refuses.
#[test]
fn a_broken_leash_exported_leash_points_that_did_not_load() {
    replay("leash", &[Op::RemovePoint(51.0), Op::ExportReload]);
}

/// Under Jacobi, attaching a second drum point made a scene Jacobi cannot run (`attach`
/// did not ask the solver, as `setSolver` does), and its export did not load.
#[test]
fn attaching_a_point_made_a_scene_the_solver_refuses() {
    replay("drum", &[Op::Attach(3.0, 0.0), Op::SetSolver("jacobi".into()), Op::Attach(30.0, 0.0), Op::ExportReload]);
}

/// `ref_rotation: [0, 1001, 3.4e38, 1]` is finite, but its squared length overflows and it
/// normalised to NaN: the joint exported NaN and the file did not load.
#[test]
fn a_ref_rotation_whose_length_overflows_normalised_to_nan() {
    let j = r#"{"a":5,"anchor":[2.0102040247908044,0.8657202606760654,-1.1441593933390122],"b":6,"ref_rotation":[0.0,1001.0,3.4028234663852886e+38,1.0],"type":"ballSocket"}"#;
    replay("ragdoll", &[Op::AddJoint(j.into()), Op::ExportReload]);
}

/// A body `rot` of `[0.36, 8.19, 6.36, 1e38]`: the same overflow made the body NaN.
#[test]
fn a_body_rotation_whose_length_overflows_made_the_body_nan() {
    let b = r#"{"mass":2.85,"pos":[-3.6,-1.3,2.4],"rot":[0.3624841574677373,8.187222389772291,6.359066351716772,1e+38],"shape":{"radius":0.32,"type":"sphere"}}"#;
    replay("net", &[Op::SetSolver("xpbd".into()), Op::AddBody(b.into()), Op::Step(H)]);
}

/// A pin with compliance 3.4e38 m/N (finite) made the wrecking ball's rope NaN. Pin
/// compliance is now at most 1e6 m/N.
#[test]
fn a_pin_compliance_of_3e38_made_the_rope_nan() {
    replay("wrecking-ball", &[Op::Pin(13.0, -0.24809553, -4.9635124, 3.4028235e38), Op::Step(H)]);
}

/// The plank bridge without an anchor after a 1 s step: a planar contact's friction cap went
/// NaN and reached `f32::clamp` in `Patch::solve` (the other clamp of the first fix).
#[test]
fn a_nan_friction_cap_panicked_in_a_planar_contact() {
    let ops = [
        Op::RemoveBody(3.0),
        Op::Step(1.0),
        Op::Cut(0.8847219, 0.96033496, -2.7512398, -3.2082794),
        Op::Connect(29.0, 44.0),
        Op::Step(H),
        Op::Step(0.5),
    ];
    let presets = presets();
    let k = presets.iter().position(|(n, _)| n == "plank-bridge").unwrap();
    // No panic; NaN inside the step may still be reset (counted) by keep_in_bounds.
    let (fail, _) = run(Some(k), &ops, &presets, false);
    assert!(!matches!(fail, Some((_, Failure::Panic(_)))), "{fail:?}");
}

/// A plane obstacle with normal [1e20, 2, −0.5]: its length overflowed, it normalised to
/// [0, 0, 0], and the exported scene did not load.
#[test]
fn a_plane_normal_whose_length_overflows_normalised_to_zero() {
    let o =
        r#"{"shape":{"normal":[1e+20,2.0,-0.5],"point":[-1.6429433802154518,-1.17937062338124,0.0],"type":"plane"}}"#;
    replay("ragdoll", &[Op::AddObstacle(o.into()), Op::ExportReload]);
}

/// Particle contacts built by the impulse solver stayed in its scratch after a switch to
/// `exact`, whose body rows still swept them: after `removePoint`, one named a point past
/// the end (index out of bounds: a panic, a trap in wasm).
#[test]
fn stale_particle_contacts_indexed_a_removed_point_after_a_solver_switch() {
    let plane = r#"{"shape":{"normal":[-0.20108022800215086,-0.1270368915454616,0.0980788871108873],"point":[1.2858044828658795,0.8193096257065076,-0.24059304339224252],"type":"plane"}}"#;
    let ops = [
        Op::AddPoint(4.855276, 2.722776, false),
        Op::AddObstacle(plane.into()),
        Op::Step(H),
        Op::SetSolver("exact".into()),
        Op::RemovePoint(-0.0),
        Op::Step(H),
    ];
    replay("hinge-chain", &ops);
}

/// A circle obstacle of radius 1e20 (finite) made the wrecking ball's rope NaN. Obstacle
/// coordinates and sizes are now within ±1e5 m.
#[test]
fn a_circle_obstacle_of_radius_1e20_made_the_rope_nan() {
    let o = r#"{"friction":0.0,"shape":{"center":[1.4059785369954776,0.734656923259219,0.0],"radius":1e+20,"type":"circle"}}"#;
    replay("wrecking-ball", &[Op::AddObstacle(o.into()), Op::Step(H)]);
}

/// A leash link subdivided into 1,001 pieces of 0.1 mm, thinner than the leash's 1 cm
/// radius, with rope collisions at 11 substeps: every segment overlapped every other, and
/// the broad phase and the contacts went quadratic — 25 s for one step (debug build; about
/// 1 s in release). The rope–rope broad phase now stops at `limits::MAX_ROPE_PAIRS` pairs
/// and `MAX_ROPE_BOX_TESTS` box tests per substep.
#[test]
fn a_clump_of_subdivided_leash_segments_made_rope_contacts_quadratic() {
    let mut sim = preset("leash");
    let p = presets();
    for op in
        [Op::Subdivide(24.0, 1000.0), Op::SetSolver("xpbd".into()), Op::SetRopeCollisions(true), Op::SetSubsteps(11.0)]
    {
        apply(&mut sim, &op, &p).unwrap();
    }
    assert!(ropelab::limits::work(&sim.world().load()) <= ropelab::limits::MAX_WORK);
    for _ in 0..2 {
        sim.world_mut().step(H).unwrap();
    }
    assert!(non_finite(&sim).is_none());
    // The step's time at the caps is `benches/limits.rs`'s (a budget of `limits::MAX_STEP_MS`).
}

/// A point dragged 1,000 m in one step: its speed was capped to 1e4 m/s at the step's end,
/// `subdivide` re-derived its new points' velocities from positions as 10000.004 m/s, and
/// the exported scene did not load. The loaders allow 1e-3 of rounding slack.
#[test]
fn a_speed_capped_to_1e4_came_back_from_subdivide_as_10000_004() {
    let ops = [
        Op::Grab(4294967295, 12.0),
        Op::DragTo(4294967295, 1001.0, -2.3795888),
        Op::Step(H),
        Op::Subdivide(7.0, 2.0),
        Op::ExportReload,
    ];
    replay("wall", &ops);
}

/// Under classic with rope collisions on, removing a bridge point cut its rope in two, a
/// world classic cannot run (two ropes it cannot collide), and its export did not load.
/// Edits under classic now run on a copy and are refused when classic could not run it.
#[test]
fn removing_a_point_under_classic_made_two_ropes_it_cannot_collide() {
    replay(
        "bridge",
        &[Op::SetRopeCollisions(true), Op::SetSolver("classic".into()), Op::RemovePoint(30.0), Op::ExportReload],
    );
    let mut sim = preset("bridge");
    let p = presets();
    apply(&mut sim, &Op::SetRopeCollisions(true), &p).unwrap();
    apply(&mut sim, &Op::SetSolver("classic".into()), &p).unwrap();
    let err = sim.world_mut().remove_point(30).unwrap_err().to_string();
    assert!(err.contains("classic cannot run"), "{err}");
}

/// A joint anchored 1,000 m out, on a body dragged to the world's edge: its anchor ended past
/// the loader's ±1e5 m, and the exported scene did not load. Anchors take ±5e5 m.
#[test]
fn a_joint_anchor_past_1e5_m_exported_a_scene_that_did_not_load() {
    let j = r#"{"a":7,"anchor":[1001.0,1000.0,2.0],"anchor_b":[-0.623253258866489,0.8779818112447202,0.0],"b":6,"type":"ballSocket"}"#;
    replay(
        "wall",
        &[Op::AddJoint(j.into()), Op::GrabBody(4294967295.0, 5.0, -1.6034068, 3.281513), Op::Step(H), Op::ExportReload],
    );
}

/// The leash at 1000 substeps with a plane obstacle 700 m deep: every segment pair became
/// a swept rope–rope candidate in every substep, and one step took over a second. The work
/// budget now counts the possible pairs, and refuses this.
#[test]
fn the_leash_at_1000_substeps_against_a_deep_plane_froze_a_step() {
    let plane = r#"{"friction":0.6006631808844911,"shape":{"normal":[0.7383354211983404,-0.608433768965146,0.0],"point":[1000.0,1.1754943508222875e-38,3.5155890240866716],"type":"plane"}}"#;
    let mut sim = preset("leash");
    let p = presets();
    let r = apply(&mut sim, &Op::SetSubsteps(1000.0), &p);
    assert!(r.as_ref().is_err_and(|e| e.contains("too much work")), "{r:?}");
    replay("leash", &[Op::SetSubsteps(1000.0), Op::AddObstacle(plane.into()), Op::Step(H)]);
}

/// A mutated crane scene with `camera.center` 1e300 (f32 infinity) loaded, and exported the
/// centre as null, which did not load. It is refused where it is read: an f32 field is read
/// correctly rounded as an f32, and beyond f32's range is out of range.
#[test]
fn a_camera_centre_of_1e300_loaded_and_exported_null() {
    let mut v: serde_json::Value =
        serde_json::from_str(&presets().into_iter().find(|(n, _)| n == "crane").unwrap().1).unwrap();
    v["camera"] = serde_json::json!({"center": [1e300, 0], "height": 5});
    let err = Sim::new().load_scene_json(&v.to_string()).unwrap_err().to_string();
    assert!(err.starts_with("scene error at `camera.center[0]`: number out of range"), "{err}");
}

/// `step(1)` on a scene with bodies (found by the wasm fuzzer: 3.5 s for one call): the
/// impulse rows ran bodies at 240 Hz whatever the step, 240 body substeps per substep. They
/// stop at `limits::MAX_BODY_SUBSTEPS` (4, what 1/60 s asks for), and a step longer than
/// 1/60 s runs its substeps at the 60 Hz length only as far as half the work budget allows
/// (`World::frames_in`), else it is refused: either way the call does bounded work.
#[test]
fn a_one_second_step_ran_240_body_substeps() {
    // The profiler's clock, counting its reads: each stage run reads it twice and adds the
    // difference, 1, so `total_ms` counts the stages a step ran instead of timing them.
    thread_local!(static TICKS: std::cell::Cell<f64> = const { std::cell::Cell::new(0.0) });
    fn tick() -> f64 {
        TICKS.with(|t| {
            t.set(t.get() + 1.0);
            t.get()
        })
    }
    let stages = |sim: &Sim| sim.world().stage_times().map_or(0.0, |p| p.total_ms.iter().sum::<f64>());
    let mut sim = preset("pyramid");
    sim.world_mut().step(H).unwrap();
    sim.world_mut().set_profiler(Some(tick));
    sim.world_mut().step(H).unwrap();
    let one = stages(&sim);
    assert!(one > 0.0);
    let work = ropelab::limits::work(&sim.world().load());
    // `step(1)` (refused: the pyramid cannot afford 60 frames) and a 2-frame step (run).
    let mut ran = 0;
    for dt in [1.0, 2.0 * H] {
        let before = (sim.export_scene_json(), stages(&sim));
        let frames = sim.world().frames_in(dt);
        match (sim.world_mut().step(dt), frames) {
            // As many frames' stages as it runs, within half the work budget.
            (Ok(()), Ok(k)) => {
                println!("step({dt}) ran {k} frames: {} stage runs, {one} per 1/60 s step", stages(&sim) - before.1);
                assert_eq!(stages(&sim) - before.1, k as f64 * one, "step({dt}) ran {k} frames' stages");
                assert!(k as u64 * work <= ropelab::limits::MAX_WORK / 2);
                ran += 1;
            }
            // Refused before running anything.
            (Err(e), Err(_)) => assert_eq!((sim.export_scene_json(), stages(&sim)), before, "{e}"),
            (run, frames) => panic!("step({dt}): {run:?}, frames_in: {frames:?}"),
        }
        assert!(non_finite(&sim).is_none());
    }
    assert_eq!(ran, 1, "step(1) is refused and step(1/30) runs");
    // The call's time is `benches/limits.rs`'s.
}

/// Found by the scene fuzzer at its release budget (case 338, from the plank bridge): a
/// plank of mass 1e-45 kg (a subnormal) passed the `mass > 0` check, its inverse mass
/// overflowed to infinity and the first step left 61 points and bodies NaN. Masses are now
/// at least 1e-6 kg (`limits::MIN_MASS`), for points, bodies and dogs; the file is refused
/// with the JSON path and the world kept.
#[test]
fn a_plank_of_1e_minus_45_kg_made_the_first_step_nan() {
    let mut sim = preset("plank-bridge");
    let before = sim.export_scene();
    let text = presets().into_iter().find(|(n, _)| n == "plank-bridge").unwrap().1;
    let tiny = text.replacen("\"mass\": 1,", "\"mass\": 1e-45,", 1);
    assert_ne!(tiny, text, "the preset has a plank of 1 kg to edit");
    let err = sim.load_scene_json(&tiny).unwrap_err().to_string();
    assert!(err.contains("mass") && err.contains("1e-6"), "{err}");
    assert!(err.contains("bodies["), "names the JSON path: {err}");
    assert_eq!(sim.export_scene(), before, "the world is untouched");
    let mut w = ropelab::World::new(ropelab::Settings::default());
    let def = ropelab::particles::ParticleDef { mass: 1e-45, ..Default::default() };
    assert!(w.add_particle(&def).is_err());
    assert!(w.add_particle(&ropelab::particles::ParticleDef { mass: 1e-6, ..Default::default() }).is_ok());
}

/// Steps `sim` `steps` times at 1/60 s; the largest body spin (rad/s) seen, or the step at
/// which a point or body went NaN (reset by `keep_in_bounds`).
fn spin_over(sim: &mut Sim, steps: usize) -> Result<f32, String> {
    let mut most = 0f32;
    for k in 0..steps {
        sim.world_mut().step(H).unwrap();
        let w = sim.world();
        if w.non_finite_resets > 0 {
            return Err(format!("step {k}: {} points or bodies NaN", w.non_finite_resets));
        }
        most = w.bodies.ang_vel.iter().map(|v| v.length()).fold(most, f32::max);
    }
    Ok(most)
}

/// Native fuzz seed 20261473 (plank bridge): a soft weld from plank p6 to the static ground
/// at an anchor 1,000 m up went NaN inside its second step (then `keep_in_bounds` reset 61
/// points and bodies). Two defects of the rows under it: the weld's point block had a K
/// whose eigenvalues spread as (lever / radius of gyration)² ≈ 1e8, and its f32 inverse
/// came out with the wrong size and sign along the lever's stiff directions (now K and K⁻¹
/// in f64 below `row::F32_BLOCK_MIN_CONDITION`); and the point block and the orientation
/// rows, nearly parallel at a long lever, were solved in turn and did not converge (a rigid
/// weld at 30 m in free space blew up; now one 6×6 block). A lever this long is still past
/// what the plank bridge holds, so joints are refused past `limits::MAX_JOINT_LEVER`.
#[test]
fn a_weld_at_a_1000_m_lever_went_nan_inside_the_step() {
    let weld = r#"{"a":7,"anchor":[0.5,1001.0,8.747371971040298],"b":0,"ref_rotation":[1.071149915886176,2147483648.0,-1.0,1.0],"soft":{"damping_ratio":0.39185881556513125,"hertz":18.590831959613453},"type":"fixed"}"#;
    replay("plank-bridge", &[Op::AddJoint(weld.into()), Op::Step(H), Op::Step(H)]);
    let mut sim = preset("plank-bridge");
    let before = sim.export_scene();
    let err = sim.add_joint_json(weld).unwrap_err().to_string();
    assert!(err.contains("MAX_JOINT_LEVER") && err.contains("100 m"), "{err}");
    assert_eq!(sim.export_scene(), before, "the world is untouched");

    // At the cap, in free space: a 1 kg plank welded (rigid) to the world 100 m away, hanging
    // as a cantilever, and a 4 cm sphere on a ball-socket 100 m away, spinning. Both went NaN
    // before (the weld's groups in turn; the sphere's f32 block inverse), both now hold.
    for (body, joint) in [
        (
            r#"{"shape":{"type":"box","half":[0.19,0.03,0.5]},"mass":1,"pos":[70.71,-70.71,0]}"#,
            r#"{"type":"fixed","a":null,"b":ID,"anchor":[0,0,0]}"#,
        ),
        (
            r#"{"shape":{"type":"sphere","radius":0.04},"mass":0.5,"pos":[57.7,57.7,57.7],"angular_velocity":[1,-2,0.5]}"#,
            r#"{"type":"ballSocket","a":null,"b":ID,"anchor":[0,0,0]}"#,
        ),
    ] {
        let mut sim = Sim::new();
        sim.set_solver_checked("impulse").unwrap();
        let id = sim.add_body_json(body).unwrap().0;
        sim.add_joint_json(&joint.replace("ID", &id.to_string())).unwrap();
        let lever0 = sim.world().bodies.pos[0].length();
        let spin = spin_over(&mut sim, 600).unwrap_or_else(|e| panic!("{joint}: {e}"));
        let lever = sim.world().bodies.pos[0].length();
        assert!(spin < 10.0 && (lever - lever0).abs() < 0.05, "{joint}: spin {spin} rad/s, lever {lever0} → {lever} m");
    }
}

/// Seed 3829 of the native run from seed 99 (plank bridge): a motorised hinge from plank p0
/// to the left platform with `anchor_b` 4.6 m from `anchor`, on a plank also held by four
/// rope links. The rigid rows' soft-step bias (rate × C) asked for 340 m/s; the rows cannot
/// agree with the ropes, the biased solve did not converge in 8 iterations, and the plank it
/// left at hundreds of m/s and thousands of rad/s moved the anchors farther every substep:
/// NaN in the third step (the motor and the point removal only set the stage; without them
/// it blows up later). Rigid joint rows now correct at most `JOINT_MAX_CORRECTION` = 5 m/s
/// (rad/s for angular rows).
#[test]
fn a_hinge_whose_anchors_started_4_6_m_apart_blew_up_the_plank_bridge() {
    let hinge = r#"{"a":1,"anchor":[2.442486763543915,2.761701909926784,-1.3788085510433568],"anchor_b":[-0.4890694076427988,-0.6971325841688676,-0.4375555988143677],"axis":[-0.6416993672335212,0.5588154287087181,0.0],"b":14,"motor":{"max_force":2.0,"speed":1.0940268506854363},"type":"hinge"}"#;
    let ops = [
        Op::SetRopeCollisions(true),
        Op::SetIterations(8.0),
        Op::AddJoint(hinge.into()),
        Op::RemovePoint(19.0),
        Op::Step(H),
        Op::Step(H),
        Op::SetGravity(-16.044748, 8.828878, 0.7308901),
        Op::Step(H),
    ];
    replay("plank-bridge", &ops);
    // And for 5 s more, spinning no faster than the ball rolls (22.5 rad/s at the start).
    let presets = presets();
    let mut sim = preset("plank-bridge");
    for op in &ops {
        apply(&mut sim, op, &presets).unwrap();
    }
    let spin = spin_over(&mut sim, 300).unwrap();
    assert!(spin < 30.0, "a body spun at {spin} rad/s");
}

/// Native fuzz seed 20264913 (the drum, found after the two joint fixes): walls whose floor
/// was at y = 9e15 m threw every point up past the world's bound, where f32 steps are 1e9 m
/// apart; a grab there made velocities overflow and the next step left points NaN. Walls
/// must now lie within ±`limits::MAX_COORD`, as points and bodies do.
#[test]
fn walls_past_the_world_bound_made_a_grab_nan() {
    let walls = SettingValue::Rect([2.0, 9007199254740992.0, 1001.0, 3.4028234663852886e38]);
    replay("drum", &[Op::Set("walls".into(), walls.clone()), Op::Step(H), Op::Grab(1, 43.0), Op::Step(H)]);
    let mut sim = preset("drum");
    let err = sim.set("walls", walls).unwrap_err().to_string();
    assert!(err.contains("1e5"), "{err}");
    assert!(sim.set("walls", SettingValue::Rect([-1e5, -1e5, 1e5, 1e5])).is_ok());
}

/// The plank bridge after `step(1)` (fuzz seed 4646, after the joint fixes): its 8
/// substeps became 1/8 s long, the planks spun up to the speed cap and a 1/60 s step then
/// went NaN. A step longer than 1/60 s now keeps its substeps as short as at 60 Hz, within
/// half the work budget (`World::frames_in`).
#[test]
fn a_one_second_step_spun_the_plank_bridge_to_the_speed_cap() {
    let ops = [
        Op::Set("rope_dynamic_friction".into(), SettingValue::Num(2.0)),
        Op::Step(H),
        Op::Step(1.0),
        Op::Step(H),
        Op::ExportReload,
        Op::Step(1.0),
        Op::Step(H),
    ];
    replay("plank-bridge", &ops);
    let mut sim = preset("plank-bridge");
    for _ in 0..20 {
        sim.world_mut().step(0.2).unwrap();
        sim.world_mut().step(H).unwrap();
    }
    let fastest = sim.world().bodies.vel.iter().map(|v| v.length()).fold(0.0f32, f32::max);
    assert!(fastest < 20.0, "a plank at {fastest} m/s after 20 steps of 0.2 s");
    assert_eq!(sim.world().non_finite_resets, 0);
}

/// The plank bridge with a rope point dragged 26 m in one step, then exported and reloaded
/// (fuzz seed 20265325; the swing-twist joint it also added is not needed): the reload
/// dropped the hold and kept the point's 1,564 m/s, and under `impulse` at 8 substeps the
/// rope it yanked tore the planks apart, NaN in the fourth step. Held points now leave a
/// step no faster than `limits::MAX_THROW_SPEED` (100 m/s).
#[test]
fn a_point_dragged_26_m_in_one_step_kept_1564_m_s_and_tore_the_plank_bridge_apart() {
    let joint = r#"{"a":5,"anchor":[-0.7331051987071093,1.267248913401814,-0.9480039635414782],"b":10,"break_force":1.736210646840568,"max_swing":0.3389754639273407,"ref_rotation":[0.5473653709918325,0.0,-1.0,2147483648.0],"type":"swingTwist"}"#;
    let ops = [
        Op::Step(H),
        Op::Step(H),
        Op::Grab(1, 31.0),
        Op::GrabBody(0.0, 5.0, 0.8623899, 3.287287),
        Op::DragTo(1, -4.997589, 4.137935),
        Op::Cut(1.8464427, 1.7199129, 3.4100225, 4.4802103),
        Op::Detach(19.0),
        Op::AddJoint(joint.into()),
        Op::Step(H),
        Op::ExportReload,
        Op::Advance(0.128),
    ];
    replay("plank-bridge", &ops);
    // The same drag, released: the point leaves at the cap.
    let mut sim = preset("plank-bridge");
    let w = sim.world_mut();
    w.grab(1, 31).unwrap();
    w.drag_to(1, -4.997589, 4.137935).unwrap();
    w.step(H).unwrap();
    w.release(1);
    let v = w.particles.vel[31].length();
    assert!(v <= ropelab::limits::MAX_THROW_SPEED, "released at {v} m/s");
}

/// The held ragdoll under `impulse` after `step(1)` (fuzz seed 3828, found once long steps
/// ran their substeps at the 60 Hz length): it could afford 17 of the 60 frames' substeps,
/// and letting the substeps grow past that took it to NaN. A step the budget cannot split
/// is now refused, naming the longest step the scene takes.
#[test]
fn a_held_ragdoll_went_nan_in_a_one_second_step_the_budget_could_not_split() {
    let ops = [Op::GrabBody(1.0, 9.0, -4.696894, 4.31385), Op::Step(H), Op::SetSolver("impulse".into()), Op::Step(1.0)];
    replay("ragdoll", &ops);
    let presets = presets();
    let mut sim = preset("ragdoll");
    for op in &ops[..3] {
        apply(&mut sim, op, &presets).unwrap();
    }
    let err = sim.world_mut().step(1.0).unwrap_err().to_string();
    assert!(err.contains("step by at most"), "{err}");
}

/// A leash scene whose ropes were 4,294,967,295 m thick (fuzz seed 20266969, a mutated
/// leash preset): it loaded, and its rope–rope contacts went NaN in the first step. A
/// point's radius (a rope's thickness, a dog's body) is now at most 10 m
/// (`limits::MAX_POINT_RADIUS`), and the scene is refused at `leash.radius`.
#[test]
fn a_leash_4_3e9_m_thick_loaded_and_went_nan() {
    let mut v: serde_json::Value =
        serde_json::from_str(&presets().into_iter().find(|(n, _)| n == "leash").unwrap().1).unwrap();
    v["leash"]["radius"] = serde_json::json!(4294967295u64);
    let err = Sim::new().load_scene_json(&v.to_string()).unwrap_err().to_string();
    assert!(err.starts_with("scene error at `leash.radius`"), "{err}");
    let mut sim = preset("rope");
    let err = sim.world_mut().add_particle(&ropelab::ParticleDef { radius: 11.0, mass: 1.0, ..Default::default() });
    assert!(err.unwrap_err().to_string().contains("radius"));
}

/// A pin of compliance 1.2e-38 m/N (the smallest normal f32) on the bridge under `impulse`
/// (fuzz seed 20267142): its spring's ω = √(k/m) overflowed to ∞ and the row's mass scale
/// came out ∞ · 0 = NaN. A spring stiffer than f32 holds is now the rigid limit.
#[test]
fn a_pin_of_compliance_1e_minus_38_made_an_infinite_spring() {
    replay(
        "bridge",
        &[Op::SetSolver("impulse".into()), Op::Pin(2.0, 1.5433081, -0.6633613, 1.1754944e-38), Op::Step(H)],
    );
    let h = 1.0 / 240.0;
    let s = ropelab::joints::row::Spring::new(f32::INFINITY, 1.0, h);
    assert_eq!((s.bias_rate, s.mass_scale, s.impulse_scale), (1.0 / h, 1.0, 0.0));
}

/// Fuzz seed 20265768 (run of 20261129): the crane without its first body, a point pinned
/// and grabbed, a link to a point, that point attached to a body, then `step(1)`: a step
/// went NaN (reset by the step's end guard).
#[test]
fn the_crane_without_its_base_went_nan_at_a_one_second_step() {
    replay(
        "crane",
        &[
            Op::Pin(13.0, -4.6187963, -3.2265215, 0.00012739991),
            Op::SetWalls(-4.4414473, 2.9484751, 4.809051, 5.4375463),
            Op::RemoveBody(0.0),
            Op::Grab(2, 4.0),
            Op::Connect(9.0, 0.0),
            Op::Step(0.016666668),
            Op::AttachJson("{\"body\":2,\"point\":3}".into()),
            Op::Step(1.0),
        ],
    );
}

/// The wrecking ball with link 1 subdivided into 564 points (0.28 mm links), bending rigid,
/// gravity changed and the ball grabbed: the drag joint's force and torque read NaN (`null`
/// in `jointsJson()`), `energy()` 0, and the ball never moved again. The cause was the
/// bending projection, not the mouse joint: its step is linear in the angle, and on the
/// crumpled run of tiny links (bends of 163°) each projection moved the ends 1.4 segment
/// lengths across their segments, lengthening them 1.7× per joint down the run, until the
/// exact solver's chain solve overflowed; the step's end guard then reset every point and
/// the ball each step. A projection now moves no particle more than 0.6 of its shorter
/// segment (`constraints::bending::MAX_MOVE`).
#[test]
fn rigid_bending_on_a_finely_subdivided_cable_made_the_drag_joint_nan() {
    let ops = [
        Op::Subdivide(1.0, 564.0),
        Op::SetBending(true),
        Op::SetBendingCompliance(0.0),
        Op::SetGravity(3.0, -15.0, 0.0),
        Op::GrabBody(0.0, 0.0, 3.35, 4.5),
        Op::Step(H),
        Op::Step(H),
        Op::Step(H),
        Op::Step(H),
        Op::Step(H),
    ];
    replay("wrecking-ball", &ops);
    let mut sim = preset("wrecking-ball");
    sim.subdivide_checked(1.0, 564.0).unwrap();
    sim.set("bending", SettingValue::Bool(true)).unwrap();
    sim.set_bending_compliance_checked(0.0).unwrap();
    sim.set_gravity_checked(3.0, -15.0, 0.0).unwrap();
    sim.grab_body_checked(0.0, 0.0, 3.35, 4.5).unwrap();
    let start = sim.world().bodies.pos[0];
    for _ in 0..30 {
        sim.world_mut().step(H).unwrap();
        let joints: serde_json::Value = serde_json::from_str(&sim.joints_json_string()).unwrap();
        for j in joints.as_array().unwrap() {
            for key in ["force", "torque"] {
                assert!(j[key].as_array().unwrap().iter().all(|x| x.is_number()), "{key}: {j}");
            }
        }
        assert!(sim.world().energy() != 0.0);
    }
    assert_eq!(sim.world().non_finite_resets, 0);
    assert!(sim.world().bodies.pos[0].distance(start) > 0.05, "the ball moves");
}

/// Loads `text`, expecting an error naming `path`, and a fresh `Sim` left as it was.
#[track_caller]
fn refused_at(text: &str, path: &str) -> String {
    let mut sim = preset("rope");
    let before = sim.export_scene_json();
    let err = sim.load_scene_json(text).expect_err("must be refused").to_string();
    assert!(err.contains(&format!("`{path}`")), "{err:?} should name {path}");
    assert_eq!(sim.export_scene_json(), before, "a refused load changes nothing");
    err
}

/// A hinge axis [1.2e29, 0, 0] loaded (finite, non-zero) but its squared length overflowed
/// and it normalised to [0, 0, 0]; the export was then refused at `joints[0].axis`. It is
/// refused at load now, at that path, and by `addJoint`.
#[test]
fn a_joint_axis_whose_length_overflows_normalised_to_zero() {
    let atwood = include_str!("../www/scenes/atwood.json");
    let text = atwood.replace(r#""axis": [0, 0, 1]"#, r#""axis": [1.2e29, 0, 0]"#);
    assert_ne!(text, atwood);
    let err = refused_at(&text, "joints[0].axis");
    assert!(err.contains("axis"), "{err}");
    let mut sim = preset("door");
    let joint = r#"{"type": "hinge", "b": 0, "anchor": [0, 0, 0], "axis": [0, 1.2e29, 0]}"#;
    let before = sim.export_scene_json();
    assert!(sim.add_joint_json(joint).unwrap_err().to_string().contains("axis"));
    assert_eq!(sim.export_scene_json(), before);
    // A large but squarable axis still loads, normalised.
    let ok = atwood.replace(r#""axis": [0, 0, 1]"#, r#""axis": [0, 0, 1e18]"#);
    let mut sim = Sim::new();
    sim.load_scene_json(&ok).unwrap();
    assert!(sim.export_scene_json().contains("\"axis\""));
    Sim::new().load_scene_json(&sim.export_scene_json()).unwrap();
}

/// `[1]` loaded as an empty scene (serde reads a struct from an array of its fields).
#[test]
fn a_scene_that_is_a_json_array_loaded_as_an_empty_scene() {
    for text in ["[1]", " \n [1, [], {}]", "[]"] {
        let err = refused_at(text, "(root)");
        assert!(err.contains("object"), "{err}");
    }
}

/// A grid of spacing 1e-45 loaded (its points in one place), and `subdivide` then made
/// links of rest length 0 (1e-45 / 565), whose export was refused at `links[23]`. Links are
/// now at least `limits::MIN_REST` (1e-6 m) long at rest however they are made, and a grid
/// whose neighbours round to one point is refused.
#[test]
fn a_grid_of_spacing_1e_minus_45_subdivided_into_links_of_rest_length_0() {
    let grid = |origin: f32, spacing: &str| {
        format!(
            r#"{{"version": 1, "grids": [{{"origin": [{origin}, 0, 0], "cols": 4, "rows": 3, "spacing": {spacing}, "point_mass": 0.1}}]}}"#
        )
    };
    for s in ["1e-45", "1e-7", "0"] {
        refused_at(&grid(0.0, s), "grids[0].spacing");
    }
    // 1e-3 m is below f32's step at 1e5 m: the points would sit in one place.
    let err = refused_at(&grid(1e5, "1e-3"), "grids[0].spacing");
    assert!(err.contains("one place"), "{err}");
    // A scene link shorter than that is refused at its path too.
    let text = r#"{"version": 1, "particles": [{"pos": [0, 0, 0], "mass": 1}, {"pos": [0, 0, 0], "mass": 1}],
        "links": [{"a": 0, "b": 1, "rest": 1e-45}]}"#;
    refused_at(text, "links[0]");
    // The smallest grid that loads: subdividing it below 1e-6 m is refused, changing nothing;
    // what is allowed exports a scene that loads again.
    let mut sim = Sim::new();
    sim.load_scene_json(&grid(0.0, "2e-6")).unwrap();
    let before = sim.export_scene_json();
    let err = sim.subdivide_checked(3.0, 564.0).unwrap_err().to_string();
    assert!(err.contains("1e-6"), "{err}");
    assert_eq!(sim.export_scene_json(), before);
    sim.subdivide_checked(3.0, 1.0).unwrap();
    let mut again = Sim::new();
    again.load_scene_json(&sim.export_scene_json()).unwrap();
    assert_eq!(again.world().links.len(), sim.world().links.len());
}

/// The crane given a plane obstacle through the API: a step knocked its planar bodies 6 cm
/// off z = 0, the export put them back within the loader's 1 mm, and the loaded copy went
/// another way. An export now keeps a planar body where it is (a scene that carries a state
/// continues from there; one without must still start on the plane).
#[test]
fn an_export_put_planar_bodies_back_on_their_plane() {
    let o = r#"{"shape":{"normal":[0.5909,0.1193,0],"point":[0.9129,-0.7771,-0.8666],"type":"plane"}}"#;
    replay("crane", &[Op::AddObstacle(o.into()), Op::Step(H), Op::ExportReload]);
}

/// The wall with a soft motorised hinge between two boxes and a pinned point: an attached
/// particle's inverse mass follows its body, so the step after an export laid the impulse
/// rows out anew and started the 2D locks and the pin cold, while the loaded copy warm
/// started them from the export. The export now carries the rows as that step leaves them.
#[test]
fn an_export_warm_started_rows_the_next_step_starts_cold() {
    let j = r#"{"a":5,"anchor":[-0.5329105061317312,-0.7894133194172421,0.47318049048537836],"b":13,"limit":[-0.49098582106780664,0.7484550285113621],"motor":{"max_force":1e-30,"speed":0.7474926544066136},"soft":{"damping_ratio":1.359478980432658,"hertz":29.00512547513588},"type":"hinge"}"#;
    replay("wall", &[Op::AddJoint(j.into()), Op::Pin(6.0, -4.1626587, -4.246388, 0.0006456732), Op::ExportReload]);
}

/// The ragdoll given a ball-socket to the world, which the exact solver solves in its body
/// forest: the forest's first pass of a step reads the last substep's multiplier (for the
/// geometric stiffness), which the export did not carry, so the loaded copy went another way.
#[test]
fn an_export_lost_the_body_forests_multipliers() {
    let o = r#"{"friction":0.8433539416840241,"shape":{"center":[0.7225059284533515,1.5479506606750255,-0.5044681223184548],"radius":6.216979087894002,"type":"circle"}}"#;
    let j = r#"{"a":null,"anchor":[-1.814012894050442,-0.740139464762132,0.0],"b":0,"type":"ballSocket"}"#;
    replay(
        "ragdoll",
        &[
            Op::SetIterations(3.0),
            Op::AddObstacle(o.into()),
            Op::RemovePoint(5.0),
            Op::Step(H),
            Op::AddJoint(j.into()),
            Op::ClearObstacles,
            Op::Step(H),
            Op::Step(H),
            Op::ExportReload,
        ],
    );
}

/// The pyramid with walls and a point that touched one: removing point 0 left the impulse
/// solver's particle contacts under the old indices, so the export named a particle that no
/// longer existed and did not load (and the next step warm started the wrong particles).
/// Removing a point now drops its contacts and shifts the later ones.
#[test]
fn removing_a_point_left_its_contacts_under_the_old_indices() {
    replay(
        "pyramid",
        &[
            Op::SetWalls(-4.0331, -1.8107295, 0.06915324, 0.18409768),
            Op::AddPoint(2.9267187, 1.5226502, false),
            Op::Step(H),
            Op::RemovePoint(0.0),
            Op::ExportReload,
        ],
    );
}

/// The crane with a point pinned and its winch paying in: a winch stalls at its maximum
/// force, which it reads from the links' tensions of the last substep before the next solve;
/// the export did not carry them, so the loaded copy's winch ran on where the original's
/// stalled.
#[test]
fn an_export_lost_the_tensions_a_winch_reads() {
    replay(
        "crane",
        &[
            Op::Pin(8.0, 1.5411847, 3.7772183, 0.00060739677),
            Op::SetWinchSpeed(0.0, -0.9113146406067785),
            Op::ExportReload,
        ],
    );
}
