//! The 001 seed's solver: sequential impulses (projected Gauss–Seidel) over the generic
//! rows of `joints::row`, on rigid bodies *and* particles (a particle is a body without
//! rotation: zero inverse inertia), as Box2D v3 runs it ("soft step"). The bodies' part —
//! their rows' layout, joints and 2D locks, integration and write-back — is the bodies'
//! step every solver shares (`body_step`); this file adds the particles' rows (links, pins,
//! soft mouse holds, contacts with walls and obstacles) to the same array and sweeps.
//!
//! ## The step (per substep of length h, in Box2D v3's order)
//! | stage                 | what                                                           |
//! |-----------------------|----------------------------------------------------------------|
//! | `integrateVelocities` | v ← (v + h g)·damping, ω ← ω·damping (world stage `integrate`) |
//! | `prepareRows`         | every row's Jacobian, effective mass and soft factors from the |
//! |                       | substep's positions (links, pins, the mouse, joints); the 2D   |
//! |                       | locks once per step, then only their bias (`body_step::rows`)  |
//! | `warmStart`           | each row's accumulated impulse re-applied                      |
//! | `solve`               | `iterations` sweeps, rigid rows soft with bias (`row.rs`)      |
//! | `integratePositions`  | x ← x + h v, q ← q + ½ h (ω, 0) q (normalised)                  |
//! | `prepareBodyRows`     | the joints' rows again, from the moved poses (`body_step`)     |
//! | `relax`               | one sweep, rigid rows rigid and without bias (the body contact |
//! |                       | patches against the last biased sweep's direction, which       |
//! |                       | alternates: `Contacts::sweep`; the rest forward as in solve)   |
//! | `restitution`         | particles' contacts with walls and obstacles that struck       |
//! | (contacts)            | particles' walls and obstacles, the bodies' patches and the    |
//! |                       | rope–body contacts (`contacts::rope_body`) are rows in solve    |
//! |                       | and relax; rope–rope contacts are projected on positions after |
//! |                       | the step as the other solvers do                               |
//! | `storeImpulses`       | per step: joints keep their rows' λ (warm start by joint id),  |
//! |                       | reaction forces, link tensions, breakable joints (`forces`)    |
//!
//! Restitution: the particles' contacts with walls and obstacles get Box2D's restitution
//! pass after relax (`contacts::particle_rows`); between bodies it is no pass here — the step resolves
//! the body contacts that strike as impacts before the substeps (`contacts::impact`).

use glam::{Quat, Vec3};

use crate::bodies::Bodies;
use crate::collide::contact::Material;
use crate::joints::distance_row;
use crate::joints::row::{self, Phase, Row, Spring};
use crate::joints::setup::Setup;
use crate::links::LinkKind;
use crate::solver::body_step::{self, RowScratch, NONE, RELAX_ITERATIONS};
use crate::solver::StepContext;

/// Stage `prepare` (per step): sizes the solver bodies and lays out the rows, the
/// particles' in front of the bodies'.
pub fn prepare(c: &mut StepContext) {
    body_step::lay_out(c, true);
}

/// Stage `integrate` for this solver: velocities (particles and bodies) into the solver
/// bodies (the bodies' part is `body_step::integrate_bodies`).
pub fn integrate(c: &mut StepContext) {
    c.scratch.dog_grip_used.iter_mut().for_each(|u| *u = 0.0);
    let h = c.h;
    let damp = if c.settings.damping > 0.0 { libm::expf(-c.settings.damping * h) } else { 1.0 };
    let gh = c.settings.gravity * h;
    let sc = &mut c.scratch.rows;
    let p = &*c.particles;
    let inv_h = 1.0 / h;
    for i in 0..p.len() {
        let w = p.inv_mass[i];
        sc.bodies.inv_m[i] = w;
        sc.bodies.v[i] = if w > 0.0 { p.vel[i] * damp + gh } else { (p.pos[i] - p.prev[i]) * inv_h };
        sc.bodies.w[i] = Vec3::ZERO;
    }
    for &a in c.attach.iter() {
        if let Some(slot) = sc.bodies.inv_m.get_mut(a.particle as usize) {
            *slot = 0.0;
        }
    }
    body_step::integrate_bodies(c);
}

/// Where one end of a particle row is: solver body, its centre, the anchor point.
#[inline]
fn end(
    sc: &RowScratch,
    p: &[Vec3],
    bodies: &Bodies,
    attach: &[crate::bodies::attach::Attachment],
    i: u32,
) -> (u32, Vec3, Quat, Vec3) {
    let k = sc.attach_of[i as usize];
    if k == NONE {
        let x = p[i as usize];
        return (i, x, Quat::IDENTITY, x);
    }
    let a = attach[k as usize];
    let bi = bodies.index(a.body).unwrap_or(0);
    let x = bodies.pos[bi];
    let q = bodies.rot[bi];
    ((p.len() + bi) as u32, x, q, x + q * a.local)
}

/// A spring of stiffness 1/`compliance` (no damping) for a row whose effective mass is
/// already set: XPBD's compliance as an impulse row.
#[inline]
fn compliant(row: &mut Row, compliance: f32, c: f32, h: f32) {
    if compliance > 0.0 {
        row.soft = [Spring::from_stiffness(1.0 / compliance, 0.0, row.mass, h).on(c); 2];
    }
}

/// Stage `solve`: prepare rows, warm start, biased sweeps, integrate positions, relax, then
/// the particles' contacts.
pub fn solve(c: &mut StepContext) {
    prepare_rows(c);
    let sc = &mut c.scratch.rows;
    let body_contacts = &mut c.scratch.contacts;
    let contacts = &mut c.scratch.particle_contacts;
    let live = sc.live();
    let (rows, sb, lane) = (&mut sc.rows[..live], &mut sc.bodies, &mut sc.points);
    let np = c.particles.len();
    let ground = (sb.len() - 1) as u32;
    lane.levers(body_step::poses(c.bodies, np, ground), Phase::Solve);
    if c.settings.warm_starting {
        lane.warm_start(sb);
        row::warm_start(rows, &mut sb.v, &mut sb.w);
        contacts.warm_start(sb);
    } else {
        rows.iter_mut().for_each(|r| r.accum = 0.0);
        lane.zero();
        contacts.zero();
    }
    body_contacts.prepare(sb, c.bodies, c.h, c.settings.warm_starting, c.settings.contact_tuning());
    body_contacts.rope.warm_start(sb, c.settings.warm_starting);
    for _ in 0..c.settings.iterations.max(1) {
        lane.sweep(sb, Phase::Solve);
        row::sweep(rows, &mut sb.v, &mut sb.w, Phase::Solve);
        contacts.sweep(sb, Phase::Solve);
        body_contacts.sweep(sb, Phase::Solve);
        body_contacts.rope.sweep(sb, Phase::Solve);
    }
    integrate_positions(c);
    // Relax on the moved bodies (`body_step::rows`).
    body_step::relax_rows(c);
    let sc = &mut c.scratch.rows;
    let contacts = &mut c.scratch.particle_contacts;
    sc.points.levers(body_step::poses(c.bodies, np, ground), Phase::Relax);
    for _ in 0..RELAX_ITERATIONS {
        sc.points.sweep(&mut sc.bodies, Phase::Relax);
        row::sweep(&mut sc.rows[..live], &mut sc.bodies.v, &mut sc.bodies.w, Phase::Relax);
        contacts.sweep(&mut sc.bodies, Phase::Relax);
        c.scratch.contacts.sweep(&mut sc.bodies, Phase::Relax);
        c.scratch.contacts.rope.sweep(&mut sc.bodies, Phase::Relax);
    }
    sc.points.store(&mut sc.rows);
    c.scratch.contacts.rope.finish_rows(c.h);
    contacts.restitution(&mut sc.bodies, 2.0 * c.settings.gravity.length() * c.h);
    write_back(c);
    // The dogs' collars and feet and the rope–rope contacts, projected on the positions as
    // in the position-based solvers (velocities follow in `velocities`).
    c.dogs();
    c.rope_contacts_last();
}

/// Integrates positions: free particles x ← x + h v (prev ← x), then the bodies and the
/// particles attached to them (`body_step::integrate_positions`).
fn integrate_positions(c: &mut StepContext) {
    let h = c.h;
    let sc = &c.scratch.rows;
    let np = c.particles.len();
    let p = &mut *c.particles;
    for i in 0..np {
        if sc.bodies.inv_m[i] > 0.0 {
            p.prev[i] = p.pos[i];
            p.pos[i] += sc.bodies.v[i] * h;
        }
    }
    body_step::integrate_positions(c);
}

/// Solver velocities back into the particles, then the bodies (`body_step::write_back`).
fn write_back(c: &mut StepContext) {
    let sc = &c.scratch.rows;
    let np = c.particles.len();
    // Relax and restitution changed the velocities after the positions moved: `prev`
    // follows, so vel = (pos − prev)/h still holds for the velocity stage (which then also
    // sees what the position-level rope–rope contacts and dogs do).
    for i in 0..np {
        if sc.bodies.inv_m[i] > 0.0 {
            let v = sc.bodies.v[i];
            c.particles.vel[i] = v;
            c.particles.prev[i] = c.particles.pos[i] - v * c.h;
        }
    }
    body_step::write_back(c);
}

/// Stage `prepareRows`: every row from this substep's positions, the particles' here and
/// then the bodies' (`body_step::prepare_body_rows`).
fn prepare_rows(c: &mut StepContext) {
    let h = c.h;
    let rigid = Spring::joint(h);
    let sc = &mut c.scratch.rows;
    let ground = sc.ground();
    let np = c.particles.len();
    let pos = &c.particles.pos;
    let bodies = &*c.bodies;
    let attach = c.attach;
    let mut rows = std::mem::take(&mut sc.rows);
    {
        // Links.
        for (row, &k) in rows.iter_mut().zip(sc.link_of_row.iter()) {
            let k = k as usize;
            let [i, j] = c.links.ends[k];
            if i as usize >= np || j as usize >= np || i == j {
                row.mass = 0.0;
                continue;
            }
            let (a, xa, qa, pa) = end(sc, pos, bodies, attach, i);
            let (b, xb, qb, pb) = end(sc, pos, bodies, attach, j);
            let s =
                Setup { bodies: &sc.bodies, a, b, xa, xb, qa, qb, h, rigid, user: None, max_correction: f32::INFINITY };
            let rest = c.links.rest[k];
            if c.links.kind[k] == LinkKind::Rope {
                distance_row::rope(&s, row, pa, pb, rest);
            } else {
                let err = distance_row::distance(&s, row, pa, pb, rest);
                let compliance = c.links.compliance[k];
                if let (Some(err), true) = (err, compliance > 0.0) {
                    compliant(row, compliance, err, h);
                }
            }
        }
        // Pins to world points: three rows against the ground.
        for (n, &i) in c.scratch.topo.pins.iter().enumerate() {
            let i = i as usize;
            let target = c.particles.pin_target[i];
            let compliance = c.particles.pin_compliance[i];
            point_rows(
                sc,
                &mut rows[sc.pin_start + 3 * n..sc.pin_start + 3 * n + 3],
                ground,
                i as u32,
                pos[i],
                target,
                h,
                rigid,
                compliance,
            );
        }
        let s = c.settings;
        let wall_mat = Material { mu_s: s.wall_friction, mu_k: s.wall_friction, e: s.restitution, keep: 1.0 };
        c.scratch.particle_contacts.build(&sc.bodies, ground, c.particles, c.obstacles, s.walls, wall_mat, h);
        let friction =
            crate::contacts::rope_body::RopeFriction { mu_s: c.settings.rope_friction, mu_k: c.settings.rope_mu_k() };
        c.scratch.contacts.rope.build_rows(&sc.bodies, pos, c.ropes, bodies, np, friction, h);
        if crate::solver::soft_holds(c.settings) {
            for (n, hold) in c.holds.iter().enumerate() {
                let i = hold.particle as usize;
                let rr = &mut rows[sc.hold_start + 3 * n..sc.hold_start + 3 * n + 3];
                if i >= np {
                    rr.iter_mut().for_each(|r| r.mass = 0.0);
                    continue;
                }
                point_rows(sc, rr, ground, i as u32, pos[i], hold.target, h, rigid, c.settings.drag_compliance);
            }
        }
    }
    body_step::prepare_body_rows(c, &mut rows);
    c.scratch.rows.rows = rows;
}

/// Three rows holding particle `i` (at `x`) at world point `target`, rigid or with a
/// compliance (m/N) as a spring, critically damped for a soft hold.
#[allow(clippy::too_many_arguments)]
fn point_rows(
    sc: &RowScratch,
    rows: &mut [Row],
    ground: u32,
    i: u32,
    x: Vec3,
    target: Vec3,
    h: f32,
    rigid: Spring,
    compliance: f32,
) {
    let s = Setup {
        bodies: &sc.bodies,
        a: ground,
        b: i,
        xa: Vec3::ZERO,
        xb: x,
        qa: Quat::IDENTITY,
        qb: Quat::IDENTITY,
        h,
        rigid,
        user: None,
        max_correction: f32::INFINITY,
    };
    let err = x - target;
    for (k, row) in rows.iter_mut().enumerate() {
        crate::joints::plane::plane(&s, row, Vec3::AXES[k], x, Vec3::ZERO, err[k]);
        if compliance > 0.0 && row.mass > 0.0 {
            let kk = 1.0 / compliance;
            let damping = 2.0 * (kk * row.mass).sqrt();
            row.soft = [Spring::from_stiffness(kk, damping, row.mass, h).on(err[k]); 2];
        }
    }
}

/// Stage `velocities` for this solver: particles v = (x − x_prev)/h with restitution
/// where a contact moved them (bodies keep the solver's velocities).
pub fn velocities(c: &mut StepContext) {
    c.velocities_now();
}
