//! Body contacts checked against physics (issue 11 §4), under the impulse solver at
//! dt = 1/60 s with 4 substeps × 1 iteration (Box2D v3's defaults). Every tolerance is
//! stated where it is asserted, with the figure measured when it was set (`--nocapture`).

use glam::{Quat, Vec3};
use ropelab::bodies::{BodyDef, BodyKind, Material, Shape};
use ropelab::ids::Id;
use ropelab::joints::{JointDef, JointKind};
use ropelab::{Settings, SolverKind, World};

const DT: f32 = 1.0 / 60.0;
const G: f32 = 9.81;

fn world() -> World {
    World::new(Settings { solver: SolverKind::Impulse, substeps: 4, iterations: 1, ..Settings::default() })
}

fn ground(w: &mut World, material: Material) -> Id {
    w.add_body(&BodyDef {
        kind: BodyKind::Static,
        shape: Shape::Box { half: Vec3::new(40.0, 0.5, 40.0) },
        pos: Vec3::new(0.0, -0.5, 0.0),
        material,
        ..Default::default()
    })
    .unwrap()
}

fn cube(w: &mut World, pos: Vec3, half: f32, material: Material) -> Id {
    w.add_body(&BodyDef {
        shape: Shape::Box { half: Vec3::splat(half) },
        mass: 1.0,
        pos,
        material,
        ..Default::default()
    })
    .unwrap()
}

fn steps(w: &mut World, n: usize) {
    for _ in 0..n {
        w.step(DT).unwrap();
    }
}

/// A 1 m box of `mass` kg at `pos`, planar or 3D.
fn unit_box(w: &mut World, pos: Vec3, mass: f32, planar: bool) -> Id {
    w.add_body(&BodyDef { shape: Shape::Box { half: Vec3::splat(0.5) }, mass, pos, planar, ..Default::default() })
        .unwrap()
}

/// Ten 1 m boxes stacked on the ground (box k of `mass(k)` kg, centre at y = 0.5 + k),
/// after 10 s on `substeps` × 1 iteration; box k is body k + 1.
fn tower_after_10_s(planar: bool, substeps: u32, mass: impl Fn(usize) -> f32) -> World {
    let mut w = world();
    w.settings.substeps = substeps;
    ground(&mut w, Material::default());
    for k in 0..10 {
        unit_box(&mut w, Vec3::new(0.0, 0.5 + k as f32, 0.0), mass(k), planar);
    }
    steps(&mut w, 600);
    w
}

/// A 10-box tower (1 m, 1 kg cubes) on the ground for 10 s.
///
/// Issue 11 asks for a drift under 1 mm. With the soft contacts the same issue asks for
/// (Box2D v3's soft step; ropelab's spring is 54 Hz, ζ = 5, per contact point:
/// `rule::Tuning::BODIES`) a resting contact is a spring of stiffness m_eff·ω² per point, so
/// contact j of the tower, carrying the (10 − j) boxes above it on 4 points, settles
/// compressed by s_j = F/(m_eff ω²) with F = (10 − j)·m·g/4 and 1/m_eff = K = J M⁻¹ Jᵀ
/// (4 kg⁻¹ on the ground, where the spring is 60 Hz, 8 kg⁻¹ between two boxes: 1/m + 3/m
/// each, the corner lever's rotational term being 6·(0.5² + 0.5²) = 3). Summed up the tower
/// that is 8.4 mm at the top (25.5 mm with Box2D's 30 Hz): no spring stable at this budget
/// holds a 10-box tower within 1 mm (a stiffer one on shorter substeps does: the next
/// test), so this test checks the physics of the model instead:
/// every layer's compression equals its spring's (within 2 %; measured ≤ 0.4 %), and
/// sideways the tower stays within 2 mm (measured 0.04 mm; 6.2 mm at 30 Hz with every
/// biased sweep forward) and comes to rest (|ω| < 10⁻³ rad/s at 10 s).
#[test]
fn a_ten_box_tower_stands_ten_seconds() {
    let (sank, lateral, spin) = ten_box_tower(4, None);
    assert!(sank < 0.01, "top sank {sank}");
    assert!(lateral < 2e-3, "lateral drift {lateral}");
    assert!(spin < 1e-3, "still turning: {spin}");
}

/// The same tower with a stiffer contact spring (the world's `contact_hertz`, Box2D v3's
/// contact tuning) on shorter substeps: 160 Hz on 16 substeps × 1 iteration, where the cap
/// is 240 Hz. The compression goes as 1/ω², so the tower sinks (54/160)² as deep between
/// boxes: its drift, the largest distance a box centre moved, is then under issue 11's
/// 1 mm. Measured: 0.91 mm (8.4 mm at the default 54 Hz on 4 substeps), lateral 4 µm.
#[test]
fn a_ten_box_tower_drifts_under_a_millimetre_with_a_stiffer_spring() {
    let (sank, lateral, spin) = ten_box_tower(16, Some(160.0));
    assert!(sank.hypot(lateral) < 1e-3, "top sank {sank}, lateral {lateral}");
    assert!(spin < 1e-3, "still turning: {spin}");
}

/// The 10-box tower on `substeps` × 1 iteration (`hertz`: the contact spring, else the
/// default) for 10 s, each layer's compression checked against its spring's (within 2 %,
/// plus five f32 steps of a position near y = 9.5, 9.5e-7 m each: a layer's compression is
/// the difference of two positions, and a box at rest stays on that grid wherever a substep
/// would move it less than half a step — at 16 substeps of 160 Hz a layer sat 3.7 steps
/// from its spring's 39 µm): the top box's sink, the largest lateral drift, the largest |ω|.
fn ten_box_tower(substeps: u32, hertz: Option<f32>) -> (f32, f32, f32) {
    let mut w = world();
    w.settings.substeps = substeps;
    if let Some(hz) = hertz {
        w.settings.contact_hertz = hz;
    }
    ground(&mut w, Material::default());
    let start: Vec<Vec3> = (0..10).map(|k| Vec3::new(0.0, 0.5 + k as f32, 0.0)).collect();
    for &p in &start {
        cube(&mut w, p, 0.5, Material::default());
    }
    steps(&mut w, 600);
    let pos = |k: usize| w.bodies.pos[k + 1];
    let lateral = (0..10).map(|k| (pos(k) - start[k]) * Vec3::new(1.0, 0.0, 1.0)).map(Vec3::length).fold(0.0, f32::max);
    let spin = (0..10).map(|k| w.bodies.ang_vel[k + 1].length()).fold(0.0, f32::max);
    let [hz, hz_ground] = w.settings.contact_tuning().hertz_at(DT / substeps as f32);
    let omega2 = |hz: f32| (std::f32::consts::TAU * hz).powi(2);
    let sank = start[9].y - pos(9).y;
    println!(
        "10-box tower, {substeps} substeps, {hz} Hz, after 10 s: top sank {sank:.3e} m, lateral drift {lateral:.2e} m, max |ω| {spin:.1e}"
    );
    for j in 0..10 {
        let compression = if j == 0 { 0.5 - pos(0).y } else { 1.0 - (pos(j).y - pos(j - 1).y) };
        let k = if j == 0 { 4.0 } else { 8.0 };
        // (Against the static ground the spring is stiffer: Box2D's static softness.)
        let omega2 = omega2(if j == 0 { hz_ground } else { hz });
        let want = (10 - j) as f32 * G / 4.0 * k / omega2;
        println!("  contact {j}: compressed {compression:.3e} m, spring {want:.3e} m");
        assert!((compression - want).abs() < 0.02 * want + 5.0 * 9.5e-7, "contact {j}: {compression} vs {want}");
    }
    (sank, lateral, spin)
}

/// A planar box rests as deep as the same box in 3D (`planar::point_spring`): a 2D
/// contact point stands for the 3D manifold's two corners at ±z, and its spring for theirs
/// together. The 10-box tower as planar bodies and as 3D ones, 10 s on 8 substeps, where
/// no box-on-box spring reaches the cap of a quarter of the substep rate (120 Hz; the
/// planar one is 54 Hz·√1.25 = 60.4 Hz, over the 60 Hz cap of 4 substeps). Each box-on-box
/// layer's compression agrees within 1 %, plus two f32 steps of a position near y = 9.5
/// (2 × 9.5e-7 m: a layer's compression, 0.17–1.5 mm, is the difference of two positions).
/// Measured: within 1.1 %, the largest difference 1.9e-6 m at the top layer, the rest
/// within 0.3 %; with one spring of the contact's frequency per 2D point the planar layers
/// sank 25 % deeper. On the ground the spring (2 × 54 Hz, ·√1.25 planar) is capped in the
/// planar tower only, so there the planar box sinks (120.7 / 120)² = 1.2 % deeper
/// (measured 1.2 %; at 4 substeps, capped in both, 25 %).
#[test]
fn a_planar_tower_sinks_as_deep_as_the_same_tower_in_3d() {
    let layers = |planar: bool| {
        let w = tower_after_10_s(planar, 8, |_| 1.0);
        let y = |k: usize| w.bodies.pos[k + 1].y;
        (0..10).map(|j| if j == 0 { 0.5 - y(0) } else { 1.0 - (y(j) - y(j - 1)) }).collect::<Vec<f32>>()
    };
    let (flat, solid) = (layers(true), layers(false));
    let mm = |v: &[f32]| v.iter().map(|x| x * 1e3).collect::<Vec<f32>>();
    let worst = (1..10).map(|j| (flat[j] / solid[j] - 1.0).abs()).fold(0.0, f32::max);
    println!("layer compressions (mm), planar: {:.4?}", mm(&flat));
    println!("                         3D:     {:.4?}", mm(&solid));
    println!("box on box, largest difference {:.2} %; ground, planar / 3D {:.3}", worst * 100.0, flat[0] / solid[0]);
    let ulps = 2.0 * 9.5e-7;
    for j in 1..10 {
        let (a, b) = (flat[j], solid[j]);
        assert!((a - b).abs() < 0.01 * b + ulps, "layer {j}: planar {a} against 3D {b}");
    }
    assert!(flat[0] >= solid[0] && flat[0] < 1.02 * solid[0], "ground: planar {} against 3D {}", flat[0], solid[0]);
}

/// The same through the general 2D manifold (the 3D one projected and its coincident
/// points merged, `Contacts::pair`): a box resting on a static bar across the plane (a
/// capsule along ẑ) touches it along a line, two 3D points at z = ±0.5 that the plane
/// merges into one. One box, 2 s, planar and 3D: the same sink within 1 % (the spring is
/// under the cap here: 60 Hz·√0.8 against the immovable bar). Measured: identical to 4
/// digits; with one spring of the contact's frequency per 2D point the planar box sank
/// 0.8 times as deep.
#[test]
fn a_planar_box_on_a_bar_sinks_as_deep_as_in_3d() {
    let sink = |planar: bool| {
        let mut w = world();
        let (radius, half_length) = (0.1, 2.0);
        w.add_body(&BodyDef {
            kind: BodyKind::Static,
            shape: Shape::Capsule { radius, half_length },
            rot: Quat::from_rotation_y(std::f32::consts::FRAC_PI_2),
            ..Default::default()
        })
        .unwrap();
        let pos = Vec3::new(0.0, radius + 0.5, 0.0);
        unit_box(&mut w, pos, 1.0, planar);
        steps(&mut w, 120);
        (pos.y - w.bodies.pos[1].y, (w.bodies.pos[1] - pos).truncate().x.abs())
    };
    let (flat, solid) = (sink(true), sink(false));
    println!(
        "box on a bar after 2 s: planar sank {:.4e} m (x {:.1e}), 3D {:.4e} m (x {:.1e})",
        flat.0, flat.1, solid.0, solid.1
    );
    assert!(solid.0 > 0.0 && (flat.0 - solid.0).abs() < 0.01 * solid.0, "planar {} against 3D {}", flat.0, solid.0);
}

/// Towers of ten 1 m boxes alternating 10 kg and 1 kg, as 3D and as planar bodies, 10 s.
/// A light box under a heavy one is where Gauss–Seidel struggles (the heavy box's weight has
/// to pass through the light one's rows). Measured: lateral drift 1.6 mm (3D) and 7.9 mm
/// (planar) with 54 Hz contacts, the sweeps alternating direction and a 3D patch's normal
/// rows swept twice (`patch::NORMAL_PASSES`; once, 4.4 mm in 3D); 2.3 mm and 1.1 cm with
/// 50 Hz and one pass; with Box2D v3's 30 Hz and every biased sweep forward, 4.1 cm and 30 cm.
#[test]
fn a_tower_of_heavy_and_light_boxes_stands() {
    for planar in [false, true] {
        let w = tower_after_10_s(planar, 4, |k| if k % 2 == 1 { 10.0 } else { 1.0 });
        let start: Vec<Vec3> = (0..10).map(|k| Vec3::new(0.0, 0.5 + k as f32, 0.0)).collect();
        let lateral =
            (0..10).map(|k| ((w.bodies.pos[k + 1] - start[k]) * Vec3::new(1.0, 0.0, 1.0)).length()).fold(0.0, f32::max);
        let sank = start[9].y - w.bodies.pos[10].y;
        println!("10:1 tower (planar {planar}) after 10 s: lateral drift {lateral:.2e} m, top sank {sank:.2e} m");
        // (3D: 4.4 mm with one pass over a patch's normal rows, `patch::NORMAL_PASSES`.)
        let bound = if planar { 0.01 } else { 3e-3 };
        assert!(lateral < bound, "planar {planar}: lateral drift {lateral}");
        assert!(sank > 0.0 && sank < 0.06, "planar {planar}: top sank {sank}");
    }
}

#[test]
fn a_dropped_ball_bounces_to_e_squared_times_its_height() {
    for e in [0.5f32, 0.8] {
        let mut w = world();
        ground(&mut w, Material { restitution: e, ..Default::default() });
        let r = 0.1;
        let h = 1.0;
        w.add_body(&BodyDef {
            shape: Shape::Sphere { radius: r },
            pos: Vec3::new(0.0, r + h, 0.0),
            material: Material { restitution: e, ..Default::default() },
            ..Default::default()
        })
        .unwrap();
        // Fall, bounce, and record the top of the first rebound.
        let mut bounced = false;
        let mut top = 0.0f32;
        for _ in 0..240 {
            w.step(DT).unwrap();
            let (y, vy) = (w.bodies.pos[1].y - r, w.bodies.vel[1].y);
            if vy > 0.0 {
                bounced = true;
            }
            if bounced {
                top = top.max(y);
                if vy < 0.0 {
                    break;
                }
            }
        }
        let want = e * e * h;
        println!("e = {e}: rebound {top:.4} m, e²h = {want:.4} m");
        // Within 5 %: the impact speed is sampled at 1/240 s substeps (the ball meets the
        // floor between them), measured 1–3 %.
        assert!((top - want).abs() < 0.05 * want, "e {e}: rebound {top} vs {want}");
    }
}

/// A box on a slope of angle θ: sticks when tan θ < μ; slides with a = g (sin θ − μ cos θ).
#[test]
fn a_box_sticks_below_the_friction_angle_and_slides_above_at_the_coulomb_rate() {
    let mu = 0.4f32;
    for theta_deg in [15.0f32, 30.0] {
        let theta = theta_deg.to_radians();
        let mut w = world();
        let q = Quat::from_rotation_z(theta);
        let material = Material { friction: mu, ..Default::default() };
        w.add_body(&BodyDef {
            kind: BodyKind::Static,
            shape: Shape::Box { half: Vec3::new(20.0, 0.5, 2.0) },
            pos: q * Vec3::new(0.0, -0.5, 0.0),
            rot: q,
            material,
            ..Default::default()
        })
        .unwrap();
        let b = cube(&mut w, q * Vec3::new(0.0, 0.25, 0.0), 0.25, material);
        let i = w.bodies.index(b).unwrap();
        steps(&mut w, 30);
        let (x0, v0) = (w.bodies.pos[i], w.bodies.vel[i]);
        let t = 1.0;
        steps(&mut w, 60);
        let down = (q * Vec3::NEG_X).normalize();
        let travelled = (w.bodies.pos[i] - x0).dot(down);
        if theta.tan() < mu {
            println!("θ = {theta_deg}°: moved {travelled:.2e} m in 1 s (sticks)");
            assert!(travelled.abs() < 1e-3, "stuck below tan θ = μ: moved {travelled}");
        } else {
            let a = G * (theta.sin() - mu * theta.cos());
            let want = v0.dot(down) * t + 0.5 * a * t * t;
            println!("θ = {theta_deg}°: slid {travelled:.4} m in 1 s, Coulomb {want:.4} m");
            // Within 2 %: measured 0.3 %.
            assert!((travelled - want).abs() < 0.02 * want, "slid {travelled} vs {want}");
        }
    }
}

/// A 30 m/s ball against a 5 cm plank: a 0.5 m step would carry it through, the speculative
/// rows stop it at the plank's face.
#[test]
fn a_fast_ball_does_not_tunnel_through_a_thin_plank() {
    let mut w = world();
    w.settings.gravity = Vec3::ZERO;
    w.add_body(&BodyDef {
        kind: BodyKind::Static,
        shape: Shape::Box { half: Vec3::new(0.025, 1.0, 1.0) },
        pos: Vec3::new(1.0, 0.0, 0.0),
        ..Default::default()
    })
    .unwrap();
    w.add_body(&BodyDef {
        shape: Shape::Sphere { radius: 0.05 },
        pos: Vec3::new(0.0, 0.0, 0.0),
        vel: Vec3::new(30.0, 0.0, 0.0),
        ..Default::default()
    })
    .unwrap();
    let mut worst = f32::MIN;
    for _ in 0..30 {
        w.step(DT).unwrap();
        worst = worst.max(w.bodies.pos[1].x);
    }
    println!("fast ball: furthest x {worst:.4} m (plank face at 0.975, ball radius 0.05)");
    assert!(worst < 0.975 - 0.05 + 0.01, "went into or through the plank: {worst}");
    assert!(w.bodies.pos[1].x < 0.93, "ended on the near side: {}", w.bodies.pos[1].x);
}

/// A box spinning flat on the floor stops when its twist friction has taken its angular
/// momentum: t = I_y ω₀ / (μ m g ρ), ρ the patch radius (2/3)√(A/π).
#[test]
fn twist_friction_stops_a_spinning_box_in_the_time_its_torque_predicts() {
    let mu = 0.5f32;
    let mut w = world();
    let material = Material { friction: mu, ..Default::default() };
    ground(&mut w, material);
    let half = 0.5f32;
    let b = cube(&mut w, Vec3::new(0.0, half, 0.0), half, material);
    steps(&mut w, 30);
    let i = w.bodies.index(b).unwrap();
    let w0 = 4.0f32;
    w.bodies.ang_vel[i] = Vec3::new(0.0, w0, 0.0);
    let inertia = w.bodies.inertia[i].y;
    let rho = (2.0 / 3.0) * ((4.0 * half * half) / std::f32::consts::PI).sqrt();
    let want = inertia * w0 / (mu * 1.0 * G * rho);
    let mut t = 0.0;
    while w.bodies.ang_vel[i].y > 1e-3 && t < 10.0 {
        w.step(DT).unwrap();
        t += DT;
    }
    println!("spinning box: stopped after {t:.3} s, predicted {want:.3} s");
    // Within 5 %: the stop is seen to the step (1/60 s of ~0.25 s), measured 2 %.
    assert!((t - want).abs() < 0.05 * want, "stopped after {t} s, predicted {want}");
}

#[test]
fn jointed_bodies_do_not_collide_unless_asked() {
    for collide_connected in [false, true] {
        let mut w = world();
        w.settings.gravity = Vec3::ZERO;
        let a = cube(&mut w, Vec3::ZERO, 0.5, Material::default());
        let b = cube(&mut w, Vec3::new(0.8, 0.0, 0.0), 0.5, Material::default());
        w.add_joint(&JointDef {
            kind: JointKind::Distance { length: 0.8, min: 0.0, max: 10.0 },
            a: Some(a),
            b: Some(b),
            anchor: Vec3::ZERO,
            anchor_b: Some(Vec3::new(0.8, 0.0, 0.0)),
            collide_connected,
            ..Default::default()
        })
        .unwrap();
        steps(&mut w, 30);
        let gap = w.bodies.pos[1].x - w.bodies.pos[0].x;
        println!("collide_connected {collide_connected}: centres {gap:.3} m apart");
        if collide_connected {
            assert!(gap > 0.99, "the contact pushed them apart: {gap}");
        } else {
            assert!((gap - 0.8).abs() < 1e-3, "no contact between joined bodies: {gap}");
        }
    }
}

#[test]
fn bad_materials_are_refused() {
    let mut w = world();
    for m in [
        Material { friction: f32::NAN, ..Default::default() },
        Material { friction: -1.0, ..Default::default() },
        Material { restitution: 1.5, ..Default::default() },
        Material { rolling_friction: f32::INFINITY, ..Default::default() },
    ] {
        let n = w.bodies.len();
        assert!(w.add_body(&BodyDef { material: m, ..Default::default() }).is_err(), "{m:?}");
        assert_eq!(w.bodies.len(), n);
    }
}

/// A ball rolling on the floor with rolling resistance μ_r (m, a lever: the resisting torque
/// is μ_r N) slows at a = (μ_r / r) g / (1 + I/(m r²)) = (5/7)(μ_r / r) g for a solid ball
/// that rolls without slipping; with μ_r = 0 it keeps its speed.
#[test]
fn rolling_friction_slows_a_ball_at_the_rate_its_torque_predicts() {
    let r = 0.2f32;
    for mu_r in [0.0f32, 0.01, 0.02] {
        let mut w = world();
        let material = Material { friction: 0.8, rolling_friction: mu_r, ..Default::default() };
        ground(&mut w, material);
        let b = w
            .add_body(&BodyDef {
                shape: Shape::Sphere { radius: r },
                mass: 1.0,
                pos: Vec3::new(0.0, r, 0.0),
                material,
                ..Default::default()
            })
            .unwrap();
        steps(&mut w, 10);
        let i = w.bodies.index(b).unwrap();
        let v0 = 2.0f32;
        w.bodies.vel[i] = Vec3::new(v0, 0.0, 0.0);
        w.bodies.ang_vel[i] = Vec3::new(0.0, 0.0, -v0 / r);
        steps(&mut w, 6);
        let (t0, x0) = (6.0 * DT, w.bodies.vel[i].x);
        steps(&mut w, 30);
        let decel = (x0 - w.bodies.vel[i].x) / (30.0 * DT);
        let want = 5.0 / 7.0 * mu_r / r * G;
        let slip = w.bodies.vel[i].x + w.bodies.ang_vel[i].z * r;
        println!("rolling μ_r {mu_r}: deceleration {decel:.4} m/s², predicted {want:.4} (after {t0:.2} s), slip {slip:.1e} m/s");
        // Within 3 % of the prediction (measured ≤ 0.1 %), or 0.005 m/s² when it is zero;
        // the ball rolls: its contact point moves at under 1 % of its speed (measured 8 mm/s).
        assert!((decel - want).abs() < (0.03 * want).max(0.005), "μ_r {mu_r}: {decel} vs {want}");
        assert!(slip.abs() < 0.02, "slipping at {slip} m/s");
    }
}

/// Bad shapes and unknown ids get a clear error and change nothing.
#[test]
fn bad_shapes_and_unknown_ids_are_refused() {
    let mut w = world();
    let keep = cube(&mut w, Vec3::ZERO, 0.5, Material::default());
    for shape in [
        Shape::Box { half: Vec3::new(0.5, f32::NAN, 0.5) },
        Shape::Box { half: Vec3::new(0.5, 0.0, 0.5) },
        Shape::Box { half: Vec3::new(-0.5, 0.5, 0.5) },
        Shape::Sphere { radius: f32::INFINITY },
        Shape::Sphere { radius: 0.0 },
        Shape::Capsule { radius: 0.1, half_length: f32::NAN },
    ] {
        let err = w.add_body(&BodyDef { shape, ..Default::default() }).unwrap_err();
        println!("{shape:?}: {err}");
        assert!(!err.to_string().is_empty());
        assert_eq!(w.bodies.len(), 1, "{shape:?} was added");
    }
    let before = (w.bodies.pos.clone(), w.joints.len());
    let ghost = Id(keep.0 + 1000);
    assert!(w.remove_body(ghost).is_err());
    let bad = JointDef { kind: JointKind::BallSocket, a: Some(keep), b: Some(ghost), ..Default::default() };
    assert!(w.add_joint(&bad).is_err());
    assert_eq!((w.bodies.pos.clone(), w.joints.len()), before);
}

/// Warm starting (issue 11 §4): a 10-row pyramid at rest for 5 s, with the contact impulses
/// carried from step to step by feature id and without. Cold, the solver needs many more
/// iterations per substep for the same drift (printed: the figure for the notes).
#[test]
fn warm_starting_needs_fewer_iterations_for_the_same_pyramid_drift() {
    fn pyramid(iterations: u32, warm_starting: bool) -> f32 {
        let mut w = World::new(Settings {
            solver: SolverKind::Impulse,
            substeps: 4,
            iterations,
            warm_starting,
            ..Settings::default()
        });
        ground(&mut w, Material::default());
        let rows = 10;
        let mut start = Vec::new();
        for row in 0..rows {
            for k in 0..rows - row {
                let x = (k as f32 - (rows - row - 1) as f32 * 0.5) * 1.05;
                start.push(Vec3::new(x, 0.5 + row as f32, 0.0));
            }
        }
        for &p in &start {
            cube(&mut w, p, 0.5, Material::default());
        }
        steps(&mut w, 300);
        let drift = start.iter().enumerate().map(|(k, s)| w.bodies.pos[k + 1].distance(*s)).fold(0.0, f32::max);
        if drift.is_finite() {
            drift
        } else {
            f32::INFINITY
        }
    }
    let warm = pyramid(1, true);
    let mut cold = Vec::new();
    for it in [1u32, 2, 4, 8, 16] {
        cold.push((it, pyramid(it, false)));
    }
    println!("10-row pyramid, 5 s: warm-started 1 iteration drift {warm:.2e} m; cold {cold:?}");
    let needed = cold.iter().find(|&&(_, d)| d <= warm).map(|&(it, _)| it);
    println!("cold iterations for the warm drift: {needed:?}");
    // The warm-started pyramid stands (drift < 5 cm) on 1 iteration, and cold takes at
    // least 4 iterations per substep to match its drift.
    assert!(warm < 0.05, "warm-started pyramid drift {warm}");
    assert!(needed.is_none_or(|it| it >= 4), "cold matched the warm drift with {needed:?} iterations");
}

/// A planar box on the ground is a 2D contact: the 3D manifold's four corners project onto
/// two points of the plane, and the patch keeps two rows, not four rows in coincident pairs
/// (a doubled row only halves its impulse with its twin, at twice the cost). At rest each
/// carries half the weight (within 1 %; measured 0.0 %).
#[test]
fn a_planar_box_rests_on_two_points() {
    let mut w = world();
    ground(&mut w, Material::default());
    w.add_body(&BodyDef {
        shape: Shape::Box { half: Vec3::new(0.5, 0.25, 0.5) },
        mass: 1.0,
        pos: Vec3::new(0.0, 0.25, 0.0),
        planar: true,
        ..Default::default()
    })
    .unwrap();
    steps(&mut w, 120);
    // A 2D patch of two points: a flat one (`planar::PlanarPatch`).
    assert!(w.contacts().patches.is_empty());
    assert_eq!(w.contacts().flat.len(), 1);
    // (As the step left it: its impulses are the step's last substep's.)
    let p = &w.contacts().flat_now(0);
    assert_eq!(p.count, 2, "two in-plane points");
    let ends: Vec<f32> = (0..2).map(|k| p.r_a[k].x + p.r_b[k].x).collect();
    assert!(ends[0] * ends[1] < 0.0, "one point at each end of the face: {ends:?}");
    let weight = G * DT / 4.0; // per substep
    for k in 0..2 {
        let share = p.accum[k] / weight;
        println!("point {k}: {share:.4} of the weight per substep");
        assert!((share - 0.5).abs() < 0.01, "point {k} carries {share} of the weight");
    }
}

/// The contact tuning settings at the ends of what they accept (`contact_hertz` 0.01 Hz to
/// 10 kHz, `contact_damping_ratio` 0 to 1000): two boxes stacked on the ground, planar and
/// 3D, exactly touching at the start, stay finite for a second, and nothing outside the
/// range is taken. (A frequency of ~1e-45 Hz, which an open lower bound at 0 let through,
/// with ζ = 0 made the planar rows' bias rate infinite and the touching points NaN.)
#[test]
fn contact_tuning_at_its_limits_stays_finite() {
    for (hz, zeta) in [(0.01, 0.0), (0.01, 1000.0), (1.0e4, 0.0), (1.0e4, 1000.0)] {
        for planar in [false, true] {
            let mut w = world();
            w.settings.contact_hertz = hz;
            w.settings.contact_damping_ratio = zeta;
            ground(&mut w, Material::default());
            unit_box(&mut w, Vec3::new(0.0, 0.5, 0.0), 1.0, planar);
            unit_box(&mut w, Vec3::new(0.3, 1.5, 0.0), 1.0, planar);
            steps(&mut w, 60);
            let finite = (1..3)
                .all(|k| w.bodies.pos[k].is_finite() && w.bodies.vel[k].is_finite() && w.bodies.ang_vel[k].is_finite());
            assert!(finite, "{hz} Hz, ζ {zeta}, planar {planar}: {:?} {:?}", w.bodies.pos, w.bodies.vel);
        }
    }
    let mut sim = ropelab::Sim::new();
    for bad in [0.0, 1.0e-45, -1.0, f64::NAN, f64::INFINITY, 1.0e5] {
        let before = sim.export_scene_json();
        let err = sim.set("contact_hertz", ropelab::settings::table::SettingValue::Num(bad));
        assert!(err.is_err(), "contact_hertz {bad} was taken");
        let msg = err.unwrap_err().to_string();
        assert!(msg.contains("contact_hertz") || msg.contains("contactHertz"), "{msg}");
        assert_eq!(sim.export_scene_json(), before, "contact_hertz {bad} changed the scene");
    }
}

/// The contact events of W6's first 150 steps (boxes landing on each other and the ground):
/// every begin and end with its impulse, hashed (FNV-1a over the bits), against the hash they
/// had when the flat patches' step sums were added in the step's end walk, one patch at a time.
/// The sums are now taken from the hot copies as the substeps go (`Contact2::step_sum`); any
/// change to what is added, or in which order, changes an impulse's bits, and this hash.
#[test]
fn the_pyramids_contact_events_keep_their_impulses_to_the_bit() {
    let mut w = ropelab::workloads::Workload::W6.build(SolverKind::Impulse);
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |x: u64| {
        h ^= x;
        h = h.wrapping_mul(0x100_0000_01b3);
    };
    let mut n = 0;
    for s in 0..150u64 {
        w.step(1.0 / 60.0).unwrap();
        let c = w.contacts();
        for (kind, events) in [(1, &c.begin), (0, &c.end)] {
            for e in events {
                for x in [s, kind, e.a.0 as u64, e.b.0 as u64, e.impulse.to_bits() as u64] {
                    mix(x);
                }
                n += 1;
            }
        }
    }
    assert_eq!((n, h), (590, 0x312f_6c40_138b_547d), "events {n}, hash {h:#018x}");
}
