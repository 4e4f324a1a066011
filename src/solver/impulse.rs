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
//! |                       | rope–body contacts (`collide::rope_body`) are rows in solve    |
//! |                       | and relax; rope–rope contacts are projected on positions after |
//! |                       | the step as the other solvers do                               |
//! | `storeImpulses`       | per step: joints keep their rows' λ (warm start by joint id),  |
//! |                       | reaction forces, link tensions, breakable joints (`forces`)    |
//!
//! Restitution: the particles' contacts with walls and obstacles get Box2D's restitution
//! pass after relax (`restitution`); between bodies it is no pass here — the step resolves
//! the body contacts that strike as impacts before the substeps (`contacts::impact`).

use glam::{Quat, Vec3};

use crate::bodies::Bodies;
use crate::joints::distance;
use crate::joints::row::{self, Phase, Row, SolverBodies, Spring};
use crate::joints::setup::Setup;
use crate::links::LinkKind;
use crate::solver::body_step::{self, RowScratch, NONE, RELAX_ITERATIONS};
use crate::solver::StepContext;

/// The impulse solver's own memory (its rows and solver bodies are `body_step`'s): the
/// particles' contacts with walls and obstacles.
#[derive(Clone, Debug, Default)]
pub struct ImpulseScratch {
    /// This substep's particle contacts (and the last substep's, for warm starting).
    contacts: Vec<PointContact>,
    old_contacts: Vec<PointContact>,
}

impl ImpulseScratch {
    /// The particle contacts' (key, the normal and two tangent rows' impulses), which the
    /// next step warm starts from.
    pub fn warm_contacts(&self) -> Vec<(u64, [f32; 3])> {
        self.contacts.iter().map(|c| (c.key, c.rows.map(|r| r.accum))).collect()
    }

    /// Particle `i` was removed: its contacts go, and those of the particles after it follow
    /// their new indices (the next step warm starts each contact from its own particle's).
    pub fn remove_particle(&mut self, i: u32) {
        self.contacts.retain(|c| (c.key >> 32) as u32 != i);
        for c in &mut self.contacts {
            if (c.key >> 32) as u32 > i {
                c.key -= 1 << 32;
            }
        }
    }

    /// Puts [`ImpulseScratch::warm_contacts`]'s values into a fresh scratch.
    pub fn set_warm_contacts(&mut self, contacts: &[(u64, [f32; 3])]) {
        self.contacts.clear();
        self.contacts.extend(contacts.iter().map(|&(key, accum)| {
            let mut c = PointContact { key, ..Default::default() };
            for (row, a) in c.rows.iter_mut().zip(accum) {
                row.accum = a;
            }
            c
        }));
    }

    /// Drops the particle contacts (the bodies' rows ran without this solver: they may name
    /// points since removed), so the next substep under it starts them cold.
    pub(crate) fn forget_contacts(&mut self) {
        self.contacts.clear();
    }
}

/// A particle touching (or about to touch) a static shape or wall: a normal row (λ ≥ 0)
/// and two tangent rows whose bounds follow Coulomb's law, |λ_t| ≤ μ λ_n, refreshed from
/// the normal row's accumulated impulse before each use (the seed's patch friction for a
/// one-point patch: tangent rows at the contact point; a point has no twist).
#[derive(Clone, Copy, Debug, Default)]
struct PointContact {
    /// Particle index (high 32 bits) and shape (low: obstacle index, or wall 0xFFFF_0000+k),
    /// to carry impulses from the last substep.
    key: u64,
    rows: [Row; 3],
    mu: f32,
    e: f32,
    /// Normal velocity before the solve (restitution uses it).
    vn0: f32,
}

/// Contacts within this distance (m, plus the distance the particle covers in a substep)
/// are made speculatively: the row lets the particle close the gap and no more.
const SPECULATIVE: f32 = 0.02;
/// Box2D v3's contact spring: 30 Hz (capped at a quarter of the substep rate), damping
/// ratio 10, and it never pushes out faster than 3 m/s.
const CONTACT_HERTZ: f32 = 60.0;
const CONTACT_DAMPING_RATIO: f32 = 10.0;
const CONTACT_PUSHOUT: f32 = 3.0;

/// Stage `prepare` (per step): sizes the solver bodies and lays out the rows, the
/// particles' in front of the bodies'.
pub fn prepare(c: &mut StepContext) {
    body_step::lay_out(c, true);
}

/// Stage `integrate` for this solver: velocities (particles and bodies) into the solver
/// bodies (the bodies' part is `body_step::integrate_bodies`).
pub fn integrate(c: &mut StepContext) {
    c.sc.dog_grip_used.iter_mut().for_each(|u| *u = 0.0);
    let h = c.h;
    let damp = if c.s.damping > 0.0 { libm::expf(-c.s.damping * h) } else { 1.0 };
    let gh = c.s.gravity * h;
    let sc = &mut c.sc.rows;
    let p = &*c.p;
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
    let sc = &mut c.sc.rows;
    let body_contacts = &mut c.sc.contacts;
    let contacts = &mut c.sc.impulse.contacts;
    let (rows, sb) = (&mut sc.rows, &mut sc.bodies);
    if c.s.warm_starting {
        row::warm_start(rows, &mut sb.v, &mut sb.w);
        for row in contacts.iter().flat_map(|k| k.rows.iter()) {
            row.warm_start(&mut sb.v, &mut sb.w);
        }
    } else {
        rows.iter_mut().chain(contacts.iter_mut().flat_map(|k| k.rows.iter_mut())).for_each(|r| r.accum = 0.0);
    }
    body_contacts.prepare(sb, c.bodies, c.h, c.s.warm_starting, c.s.contact_tuning());
    body_contacts.rope.warm_start(sb, c.s.warm_starting);
    for _ in 0..c.s.iterations.max(1) {
        row::sweep(rows, &mut sb.v, &mut sb.w, Phase::Solve);
        contact_sweep(contacts, sb, Phase::Solve);
        body_contacts.sweep(sb, Phase::Solve);
        body_contacts.rope.sweep(sb, Phase::Solve);
    }
    integrate_positions(c);
    // Relax on the moved bodies (`body_step::rows`).
    body_step::relax_rows(c);
    let sc = &mut c.sc.rows;
    let contacts = &mut c.sc.impulse.contacts;
    for _ in 0..RELAX_ITERATIONS {
        row::sweep(&mut sc.rows, &mut sc.bodies.v, &mut sc.bodies.w, Phase::Relax);
        contact_sweep(contacts, &mut sc.bodies, Phase::Relax);
        c.sc.contacts.sweep(&mut sc.bodies, Phase::Relax);
        c.sc.contacts.rope.sweep(&mut sc.bodies, Phase::Relax);
    }
    c.sc.contacts.rope.finish_rows(c.h);
    restitution(contacts, &mut sc.bodies, 2.0 * c.s.gravity.length() * c.h);
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
    let sc = &c.sc.rows;
    let np = c.p.len();
    let p = &mut *c.p;
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
    let sc = &c.sc.rows;
    let np = c.p.len();
    // Relax and restitution changed the velocities after the positions moved: `prev`
    // follows, so vel = (pos − prev)/h still holds for the velocity stage (which then also
    // sees what the position-level rope–rope contacts and dogs do).
    for i in 0..np {
        if sc.bodies.inv_m[i] > 0.0 {
            let v = sc.bodies.v[i];
            c.p.vel[i] = v;
            c.p.prev[i] = c.p.pos[i] - v * c.h;
        }
    }
    body_step::write_back(c);
}

/// Stage `prepareRows`: every row from this substep's positions, the particles' here and
/// then the bodies' (`body_step::prepare_body_rows`).
fn prepare_rows(c: &mut StepContext) {
    let h = c.h;
    let rigid = Spring::joint(h);
    let sc = &mut c.sc.rows;
    let ground = sc.ground();
    let np = c.p.len();
    let pos = &c.p.pos;
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
                distance::rope(&s, row, pa, pb, rest);
            } else {
                let err = distance::distance(&s, row, pa, pb, rest);
                let compliance = c.links.compliance[k];
                if let (Some(err), true) = (err, compliance > 0.0) {
                    compliant(row, compliance, err, h);
                }
            }
        }
        // Pins to world points: three rows against the ground.
        for (n, &i) in c.sc.topo.pins.iter().enumerate() {
            let i = i as usize;
            let target = c.p.pin_target[i];
            let compliance = c.p.pin_compliance[i];
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
        build_contacts(&mut c.sc.impulse, &sc.bodies, ground, c.p, c.obstacles, c.s, h);
        let friction = crate::collide::rope_body::RopeFriction { mu_s: c.s.rope_friction, mu_k: c.s.rope_mu_k() };
        c.sc.contacts.rope.build_rows(&sc.bodies, pos, c.ropes, bodies, np, friction, h);
        if crate::solver::soft_holds(c.s) {
            for (n, hold) in c.holds.iter().enumerate() {
                let i = hold.particle as usize;
                let rr = &mut rows[sc.hold_start + 3 * n..sc.hold_start + 3 * n + 3];
                if i >= np {
                    rr.iter_mut().for_each(|r| r.mass = 0.0);
                    continue;
                }
                point_rows(sc, rr, ground, i as u32, pos[i], hold.target, h, rigid, c.s.drag_compliance);
            }
        }
    }
    body_step::prepare_body_rows(c, &mut rows);
    c.sc.rows.rows = rows;
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

/// The particles' contacts with obstacles and walls for this substep, speculative within
/// `SPECULATIVE` + |v|·h, impulses carried over from the last substep's contact with the
/// same particle and shape.
#[allow(clippy::too_many_arguments)]
fn build_contacts(
    sc: &mut ImpulseScratch,
    bodies: &SolverBodies,
    ground: u32,
    p: &crate::particles::Particles,
    obstacles: &[crate::collide::Obstacle],
    s: &crate::settings::Settings,
    h: f32,
) {
    std::mem::swap(&mut sc.contacts, &mut sc.old_contacts);
    sc.contacts.clear();
    if obstacles.is_empty() && s.walls.is_none() {
        return;
    }
    let spring = Spring::new(CONTACT_HERTZ.min(0.25 / h), CONTACT_DAMPING_RATIO, h);
    let wall_mat =
        crate::collide::contact::Material { mu_s: s.wall_friction, mu_k: s.wall_friction, e: s.restitution, keep: 1.0 };
    let mut old = 0;
    for i in 0..p.len() {
        if bodies.inv_m[i] == 0.0 {
            continue;
        }
        let (x, r, v) = (p.pos[i], p.radius[i], bodies.v[i]);
        let reach = SPECULATIVE + v.length_squared().sqrt() * h;
        let mut add = |shape: u32, gap: f32, n: Vec3, m: crate::collide::contact::Material| {
            let key = (i as u64) << 32 | shape as u64;
            let mut k = PointContact { key, mu: m.mu_s, e: m.e, vn0: n.dot(v), ..Default::default() };
            let (t1, t2) = n.any_orthonormal_pair();
            for (row, axis) in k.rows.iter_mut().zip([n, t1, t2]) {
                row.set_axis(bodies, ground, i as u32, axis, x, Vec3::ZERO);
            }
            k.rows[0].soft = if gap > 0.0 {
                [crate::joints::row::Soft::target(gap / h); 2]
            } else {
                let mut soft = spring.on(gap);
                soft.bias = soft.bias.max(-CONTACT_PUSHOUT);
                [soft, crate::joints::row::Soft::RIGID]
            };
            (k.rows[0].lo, k.rows[0].hi) = (0.0, f32::INFINITY);
            // Sliding already: the dynamic coefficient.
            if (v - n * n.dot(v)).length_squared() > 1e-6 {
                k.mu = m.mu_k;
            }
            while old < sc.old_contacts.len() && sc.old_contacts[old].key < key {
                old += 1;
            }
            if let Some(o) = sc.old_contacts.get(old).filter(|o| o.key == key) {
                for (row, orow) in k.rows.iter_mut().zip(o.rows.iter()) {
                    row.accum = orow.accum;
                }
            }
            sc.contacts.push(k);
        };
        for (o_idx, o) in obstacles.iter().enumerate() {
            let (d, n) = o.shape.distance(x);
            if d - r < reach {
                add(o_idx as u32, d - r, n, o.material());
            }
        }
        if let Some(w) = s.walls {
            let planes = [
                (x.x - r - w.min.x, Vec3::X),
                (w.max.x - x.x - r, Vec3::NEG_X),
                (x.y - r - w.min.y, Vec3::Y),
                (w.max.y - x.y - r, Vec3::NEG_Y),
            ];
            for (k, (gap, n)) in planes.into_iter().enumerate() {
                if gap < reach {
                    add(0xFFFF_0000 + k as u32, gap, n, wall_mat);
                }
            }
        }
    }
}

/// One pass over the particle contacts: the normal row, then the tangent rows with their
/// Coulomb bounds from the normal impulse.
fn contact_sweep(contacts: &mut [PointContact], sb: &mut SolverBodies, phase: Phase) {
    for k in contacts.iter_mut() {
        let [n, t1, t2] = &mut k.rows;
        row::solve(n, &mut sb.v, &mut sb.w, phase);
        let cap = k.mu * n.accum;
        for t in [t1, t2] {
            (t.lo, t.hi) = (-cap, cap);
            row::solve(t, &mut sb.v, &mut sb.w, phase);
        }
    }
}

/// Box2D's restitution pass: a contact that was approaching faster than `threshold` gets
/// the normal velocity −e·v_n(before), the extra impulse still clamped λ ≥ 0.
fn restitution(contacts: &mut [PointContact], sb: &mut SolverBodies, threshold: f32) {
    for k in contacts.iter_mut() {
        if k.e == 0.0 || k.vn0 > -threshold || k.rows[0].accum == 0.0 {
            continue;
        }
        let n = &mut k.rows[0];
        let vn = n.cdot(&sb.v, &sb.w);
        let new = (n.accum - n.mass * (vn + k.e * k.vn0)).max(0.0);
        let d = new - n.accum;
        n.accum = new;
        n.apply(&mut sb.v, &mut sb.w, d);
    }
}

/// Stage `velocities` for this solver: particles v = (x − x_prev)/h with restitution
/// where a contact moved them (bodies keep the solver's velocities).
pub fn velocities(c: &mut StepContext) {
    c.velocities_now();
}
