//! `World::energy` against closed forms (issue 29 §3): rigid bodies count with their
//! translational and rotational kinetic energy (world-frame inertia) and their potential
//! energy; a particle attached to a body counts as part of the body, not at its own mass;
//! and the soak sees a body gaining energy.

use glam::{Mat3, Quat, Vec3};
use ropelab::bodies::{BodyDef, BodyKind, Shape};
use ropelab::determinism::preset;
use ropelab::soak::{soak, ENERGY_RISE_TOL};
use ropelab::World;

fn empty(gravity: Vec3) -> World {
    let mut w = World::default();
    w.settings.gravity = gravity;
    w
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * b.abs().max(1e-12)
}

/// A box turning about a tilted axis, with its orientation turned too: ½ ωᵀ (R I Rᵀ) ω with
/// I = m/3 diag(hy² + hz², hx² + hz², hx² + hy²) written out here, plus ½ m v².
#[test]
fn a_spinning_box_has_half_omega_i_omega() {
    let mut w = empty(Vec3::ZERO);
    let (m, h) = (2.0f32, Vec3::new(0.5, 0.25, 0.1));
    let rot = Quat::from_axis_angle(Vec3::new(1.0, 2.0, -0.5).normalize(), 0.7);
    let (omega, v) = (Vec3::new(1.0, -2.0, 3.0), Vec3::new(0.3, 0.0, -0.4));
    w.add_body(&BodyDef { shape: Shape::Box { half: h }, mass: m, rot, ang_vel: omega, vel: v, ..Default::default() })
        .unwrap();
    let i_body = Vec3::new(h.y * h.y + h.z * h.z, h.x * h.x + h.z * h.z, h.x * h.x + h.y * h.y) * (m / 3.0);
    let r = Mat3::from_quat(rot);
    let i_world = r * Mat3::from_diagonal(i_body) * r.transpose();
    let expect = 0.5 * omega.dot(i_world * omega) as f64 + 0.5 * (m * v.length_squared()) as f64;
    assert!(close(w.energy(), expect, 1e-5), "{} vs {expect}", w.energy());
    assert!(close(w.kinetic_energy(), expect, 1e-5));
    // Without gravity that is all of it; stepping a free spinning box keeps it (no torque).
    for _ in 0..60 {
        w.step(1.0 / 60.0).unwrap();
    }
    assert!(close(w.energy(), expect, 1e-3), "after 1 s: {} vs {expect}", w.energy());
}

/// A ball dropped from rest: m g h turns into ½ m v², the total stays put, and the speed is
/// g t.
#[test]
fn a_falling_body_turns_m_g_h_into_half_m_v_squared() {
    let g = 9.81f32;
    let mut w = empty(Vec3::new(0.0, -g, 0.0));
    let m = 3.0f32;
    w.add_body(&BodyDef { mass: m, pos: Vec3::new(0.0, 10.0, 0.0), ..Default::default() }).unwrap();
    let e0 = w.energy();
    assert!(close(e0, (m * g * 10.0) as f64, 1e-6), "potential energy m g h: {e0}");
    let steps = 60;
    for _ in 0..steps {
        w.step(1.0 / 60.0).unwrap();
    }
    let drop = 10.0 - w.bodies.pos[0].y as f64;
    let ke = 0.5 * m as f64 * w.bodies.vel[0].length_squared() as f64;
    assert!(close(w.kinetic_energy(), ke, 1e-6));
    assert!(close(ke, m as f64 * g as f64 * drop, 1e-2), "½ m v² = {ke}, m g Δh = {}", m * g * drop as f32);
    assert!(close(w.bodies.vel[0].y as f64, -(g as f64), 1e-4), "v = g t after 1 s: {}", w.bodies.vel[0].y);
    assert!(close(w.energy(), e0, 1e-2), "the total stays: {} vs {e0}", w.energy());
    // The gravity scale scales the body's weight, so its potential energy.
    let mut w2 = empty(Vec3::new(0.0, -g, 0.0));
    w2.add_body(&BodyDef { mass: m, pos: Vec3::new(0.0, 10.0, 0.0), gravity_scale: 0.5, ..Default::default() })
        .unwrap();
    assert!(close(w2.energy(), 0.5 * e0, 1e-6));
}

/// Kinematic and static bodies do not count (nothing does work on them).
#[test]
fn kinematic_and_static_bodies_do_not_count() {
    let mut w = empty(Vec3::new(0.0, -9.81, 0.0));
    for kind in [BodyKind::Kinematic, BodyKind::Static] {
        w.add_body(&BodyDef { kind, pos: Vec3::Y, vel: Vec3::X, ..Default::default() }).unwrap();
    }
    assert_eq!(w.energy(), 0.0);
}

/// The presets with bodies and no free particles read their bodies' energy (they read 0 J).
#[test]
fn body_presets_have_energy() {
    for name in ["pyramid", "door"] {
        let w = preset(name);
        let g = w.settings.gravity;
        let b = &w.bodies;
        let expect: f64 = (0..b.len())
            .filter(|&i| b.kind[i] == BodyKind::Dynamic)
            .map(|i| -(b.mass[i] as f64) * (g * b.gravity_scale[i]).dot(b.pos[i]) as f64)
            .sum();
        assert!(expect != 0.0);
        assert!(close(w.energy(), expect, 1e-6), "{name}: {} vs {expect}", w.energy());
    }
}

/// An attached particle is a point of its body: its own mass (which the solvers do not use
/// while it is attached) is not counted; detached, it counts again.
#[test]
fn an_attached_particle_counts_as_part_of_its_body() {
    let mut w = preset("wrecking-ball");
    for _ in 0..30 {
        w.step(1.0 / 60.0).unwrap();
    }
    let g = w.settings.gravity;
    let p = &w.particles;
    let attached: Vec<usize> = w.attachments.iter().map(|a| a.particle as usize).collect();
    assert_eq!(attached.len(), 1);
    let free: f64 = (0..p.len())
        .filter(|&i| !p.locked[i] && !attached.contains(&i))
        .map(|i| {
            let m = p.mass[i] as f64;
            0.5 * m * p.vel[i].length_squared() as f64 - m * g.dot(p.pos[i]) as f64
        })
        .sum();
    let b = &w.bodies;
    let w_local = b.rot[0].inverse() * b.ang_vel[0];
    let body = 0.5 * b.mass[0] as f64 * b.vel[0].length_squared() as f64
        + 0.5 * (b.inertia[0] * w_local).dot(w_local) as f64
        - b.mass[0] as f64 * g.dot(b.pos[0]) as f64;
    assert!(close(w.energy(), free + body, 1e-6), "{} vs {}", w.energy(), free + body);
    let i = attached[0];
    let own = {
        let m = p.mass[i] as f64;
        0.5 * m * p.vel[i].length_squared() as f64 - m * g.dot(p.pos[i]) as f64
    };
    w.detach(i).unwrap();
    assert!(close(w.energy(), free + body + own, 1e-6), "detached, the point counts at its own mass");
}

/// The soak's energy watch sees a body: a box spun up a little every step is a rise far
/// past the tolerance (before bodies counted it read a flat 0).
#[test]
fn the_soak_sees_a_body_gaining_energy() {
    let mut w = preset("pyramid");
    let top = (0..w.bodies.len()).max_by(|&a, &b| w.bodies.pos[a].y.total_cmp(&w.bodies.pos[b].y)).unwrap();
    let r = soak(&mut w, 120, 10, 1.0 / 60.0, |w, _| {
        w.bodies.ang_vel[top] += Vec3::new(0.0, 0.5, 0.0);
    });
    assert!(r.energy_scale > 0.0);
    assert!(r.rise_rel() > ENERGY_RISE_TOL, "rise {:e} of m g h", r.rise_rel());
    // Undriven, the pyramid settles without gaining energy.
    let mut w = preset("pyramid");
    let r = soak(&mut w, 240, 60, 1.0 / 60.0, |_, _| {});
    assert!(r.rise_rel() <= ENERGY_RISE_TOL, "undriven rise {:e} of m g h", r.rise_rel());
}
