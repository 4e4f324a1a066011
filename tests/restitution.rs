//! Restitution between touching bodies (issue 29 §1): a row of touching balls struck by a
//! fourth passes the momentum along as a Newton's cradle does, and a collision never adds
//! kinetic energy, for any restitution ≤ 1 and any substep count, in both contact paths
//! (3D patches and planar contacts).
use ropelab::scene::Scene;
use ropelab::World;

/// Four free 1 kg balls of radius 0.1 m in zero gravity, no friction, restitution `e`: three
/// in a row `gap` apart (surface to surface), the fourth `from` beyond the third arriving at
/// `speed` along −x.
fn row(e: f32, gap: f32, from: f32, speed: f32, planar: bool, substeps: u32, iterations: u32, solver: &str) -> World {
    let r = 0.1;
    let mut bodies = String::new();
    for k in 0..3 {
        let x = k as f32 * (2.0 * r + gap);
        bodies += &format!(
            r#"{{"shape": {{"type": "sphere", "radius": {r}}}, "pos": [{x}, 1, 0], "planar": {planar}, "friction": 0, "restitution": {e}}},"#
        );
    }
    let x = 2.0 * (2.0 * r + gap) + 2.0 * r + from;
    bodies += &format!(
        r#"{{"shape": {{"type": "sphere", "radius": {r}}}, "pos": [{x}, 1, 0], "vel": [{}, 0, 0], "planar": {planar}, "friction": 0, "restitution": {e}}}"#,
        -speed
    );
    let json = format!(
        r#"{{"version": 1, "settings": {{"solver": "{solver}", "gravity": [0, 0, 0], "substeps": {substeps}, "iterations": {iterations}}}, "bodies": [{bodies}]}}"#
    );
    Scene::from_json(&json).and_then(|s| s.build()).unwrap_or_else(|e| panic!("{e}\n{json}"))
}

fn kinetic(w: &World) -> f64 {
    let b = &w.bodies;
    (0..b.len()).map(|i| 0.5 * b.mass[i] as f64 * b.vel[i].length_squared() as f64).sum()
}

/// Substeps × iterations the checks run at.
const SOLVERS: [(u32, u32); 3] = [(4, 4), (8, 4), (16, 8)];

/// The issue's row: e = 1, touching or nearly (gaps up to 1 cm), the striker arriving from
/// 5 or 7.3 cm (a whole step's travel at 3 m/s, and not): the last ball leaves with ≥ 95 % of
/// the striker's speed, the others keep < 10 % of it (measured: 100 % and 0 %).
#[test]
fn a_struck_row_of_touching_balls_passes_the_momentum_to_the_last() {
    for planar in [false, true] {
        for (sub, it) in SOLVERS {
            for gap in [0.0, 0.002, 0.005, 0.01] {
                for extra in [0.05, 0.073] {
                    let mut w = row(1.0, gap, extra, 3.0, planar, sub, it, "impulse");
                    for _ in 0..60 {
                        w.step(1.0 / 60.0).unwrap();
                    }
                    let v: Vec<f32> = w.bodies.vel.iter().map(|v| v.x).collect();
                    let what = format!("planar {planar}, {sub}×{it}, gap {gap}, from {extra}: v {v:?}");
                    assert!(-v[0] >= 0.95 * 3.0, "{what}");
                    assert!(v[1..].iter().all(|u| u.abs() < 0.1 * 3.0), "{what}");
                }
            }
        }
    }
}

/// Kinetic energy never grows from one step to the next (no gravity, no motor: nothing
/// else feeds it), for e from 0 to 1, in both contact paths, at every substep count, and
/// under every solver that runs bodies (the position-based ones step the bodies through the
/// same contacts). 1e-4 J of 4.5 J: the solver's rounding.
#[test]
fn a_collision_never_adds_kinetic_energy() {
    for solver in ["impulse", "xpbd", "exact"] {
        for planar in [false, true] {
            for (sub, it) in SOLVERS {
                for e in [0.0, 0.3, 0.5, 0.8, 1.0] {
                    for gap in [0.0, 0.003, 0.03] {
                        let mut w = row(e, gap, 0.061, 3.0, planar, sub, it, solver);
                        let mut last = kinetic(&w);
                        for step in 0..90 {
                            w.step(1.0 / 60.0).unwrap();
                            let k = kinetic(&w);
                            assert!(
                                k <= last + 1e-4,
                                "{solver}, planar {planar}, {sub}×{it}, e {e}, gap {gap}: step {step} {last} J -> {k} J"
                            );
                            last = k;
                        }
                    }
                }
            }
        }
    }
}

/// A ball dropped from 1 m onto the ground leaves it at e times the speed it struck with,
/// √(2 g · 1 m): the take-off speed is read from the first step after the bounce by the
/// energy of free flight, √(v² + 2 g y) (y: the ball's height above the ground), so the
/// integrator's apex error (about v·h/2 for h = 1/240 s, 2 % of the e = 0.5 apex) is not in
/// it. Within 2 %; without the impact's gravity term (the step's g·dt all put after the
/// impact) e = 0.5 measured 0.44.
#[test]
fn a_ball_leaves_the_ground_at_e_times_its_impact_speed() {
    let g = 9.81f32;
    for planar in [false, true] {
        for e in [0.5f32, 0.8, 1.0] {
            let r = 0.1;
            let json = format!(
                r#"{{"version": 1, "settings": {{"solver": "impulse", "substeps": 4, "iterations": 4, "gravity": [0, {}, 0]}},
                "bodies": [{{"kind": "static", "shape": {{"type": "box", "half": [5, 0.5, 1]}}, "pos": [0, -0.5, 0], "restitution": {e}, "friction": 0}},
                           {{"shape": {{"type": "sphere", "radius": {r}}}, "pos": [0, {}, 0], "planar": {planar}, "friction": 0, "restitution": {e}}}]}}"#,
                -g,
                1.0 + r
            );
            let mut w = Scene::from_json(&json).and_then(|s| s.build()).unwrap();
            let mut takeoff = None;
            for _ in 0..120 {
                w.step(1.0 / 60.0).unwrap();
                let (y, v) = (w.bodies.pos[1].y - r, w.bodies.vel[1].y);
                if v > 0.0 {
                    takeoff = Some((v * v + 2.0 * g * y).sqrt());
                    break;
                }
            }
            let got = takeoff.expect("it bounced") / (2.0 * g * 1.0f32).sqrt();
            assert!((got - e).abs() < 0.02 * e, "planar {planar}: e {e}, measured {got}");
        }
    }
}

/// The cradle preset swings as a cradle for 60 s: the three middle balls stay within 3 cm
/// of where they hang (measured 2.2 cm: the residue of each transfer, about 1 cm/s, swings
/// them a little), and the swing keeps 80 % of its energy (kinetic, and potential above
/// the hanging balls' height; measured 86 %).
/// Before the impacts its balls, then 3 cm apart, swung apart within 20 s.
#[test]
fn the_cradle_preset_swings_as_a_cradle_for_60_s() {
    let mut w = ropelab::determinism::preset("cradle");
    let rest: Vec<f32> = w.bodies.pos.iter().map(|p| p.x).collect();
    let g = w.settings.gravity;
    let rest_y = glam::Vec3::new(0.0, w.bodies.pos[2].y, 0.0);
    let energy = |w: &World| -> f64 {
        let b = &w.bodies;
        (1..b.len()).map(|i| (b.mass[i] * (0.5 * b.vel[i].length_squared() - g.dot(b.pos[i] - rest_y))) as f64).sum()
    };
    let e0 = energy(&w);
    let mut worst: f32 = 0.0;
    for _ in 0..3600 {
        w.step(1.0 / 60.0).unwrap();
        for k in 2..5 {
            worst = worst.max((w.bodies.pos[k].x - rest[k]).abs());
        }
    }
    let lost = 1.0 - energy(&w) / e0;
    println!("middle balls within {worst} m, energy lost {lost}");
    assert!(worst < 0.03, "a middle ball swung {worst} m from where it hangs");
    assert!(lost < 0.2, "{lost} of the energy lost");
}
