//! The 001 seed's solver: sequential impulses (projected Gauss–Seidel) over the generic
//! rows of `joints::row`, on rigid bodies *and* particles (a particle is a body without
//! rotation: zero inverse inertia), as Box2D v3 runs it ("soft step").
//!
//! ## The step (per substep of length h, in Box2D v3's order)
//! | stage                 | what                                                           |
//! |-----------------------|----------------------------------------------------------------|
//! | `integrateVelocities` | v ← (v + h g)·damping, ω ← ω·damping (world stage `integrate`) |
//! | `prepareRows`         | every row's Jacobian, effective mass and soft factors from the |
//! |                       | substep's positions (links, pins, the mouse, joints); the 2D   |
//! |                       | locks once per step, then only their bias (`Locks`)            |
//! | `warmStart`           | each row's accumulated impulse re-applied                      |
//! | `solve`               | `iterations` sweeps, rigid rows soft with bias (`row.rs`)      |
//! | `integratePositions`  | x ← x + h v, q ← q + ½ h (ω, 0) q (normalised)                  |
//! | `prepareBodyRows`     | the joints' rows again, from the moved poses                   |
//! | `relax`               | one sweep, rigid rows rigid and without bias (the body contact |
//! |                       | patches against the last biased sweep's direction, which       |
//! |                       | alternates: `Contacts::sweep`; the rest forward as in solve)   |
//! | (contacts)            | particles' walls and obstacles, the bodies' patches and the    |
//! |                       | rope–body contacts (`collide::rope_body`) are rows in solve    |
//! |                       | and relax; rope–rope contacts are projected on positions after |
//! |                       | the step as the other solvers do                               |
//! | `storeImpulses`       | per step: joints keep their rows' λ (warm start by joint id),  |
//! |                       | reaction forces, link tensions, breakable joints (`forces`)    |
//!
//! ## Relax on the moved bodies (where the earlier version lost energy)
//! The relax sweep used the rows built at the substep's start. A rigid row then leaves the
//! velocity tangent to the constraint where the body *was*: for a pendulum, tangent to the
//! circle at the old angle. The body has moved on by ω h, so at the next substep that
//! velocity has an outward part v·(h v/L) along the rod, which the rod's row cuts off —
//! kinetic energy ½ m (h v²/L)² lost every substep, O(h) per unit time and growing as v⁴: a
//! 60° hinge pendulum lost 23 % of m g d in 60 s at 8 substeps (tests/joints.rs). Box2D v3
//! avoids this by measuring its joints' anchors from the current body rotations inside every
//! solve; here the joints' and 2D locks' rows are rebuilt from the integrated poses before
//! relax (their accumulated impulses kept), so relax leaves the velocity tangent to the
//! constraint where the body *is*: the pendulum now loses 0.9 %. The reaction forces read
//! after the step are then also taken at the step's final levers. A spring row (a soft
//! joint's) keeps the relax factors of the substep's start: with them relax is a no-op for
//! it and the spring stays the exact implicit Euler step (with C re-measured after the move
//! it acted twice and damped twice as much). Link, pin, hold and contact rows keep the rows
//! of the substep's start (their costs and the ropes' goldens unchanged).
//!
//! Restitution between bodies is not a pass here: the step resolves the body contacts that
//! strike as impacts before the substeps (`contacts::impact`). The particles' contacts with
//! walls and obstacles keep their restitution pass after relax (`restitution`).
//!
//! Rows live in one flat array in a fixed layout — links, pins, soft mouse holds, joints
//! (each its own slice), 2D locks — that is rebuilt in place every substep, so a row's
//! accumulated impulse stays in its slot from substep to substep and from step to step
//! (warm starting) while the layout is unchanged. When joints are added or removed the
//! layout is rebuilt and every joint's rows reload their impulses from the joint's own
//! storage (`Joints::accum`): warm starting by joint id.
//!
//! Solver body indices: particles first (`0..n_p`), then bodies (`n_p..n_p + n_b`), then the
//! static ground. A particle attached to a body (`bodies::attach`) is not a solver body:
//! its rows are built on the body at the attachment point.

use glam::{Quat, Vec3};

use crate::bodies::Bodies;
use crate::joints::row::{self, Phase, Row, Soft, SolverBodies, Spring};
use crate::joints::setup::{Setup, JOINT_MAX_CORRECTION};
use crate::joints::MAX_ROWS;
use crate::joints::{distance, planar};
use crate::links::LinkKind;

use super::StepContext;

/// Relax sweeps per substep (Box2D v3 uses one).
pub const RELAX_ITERATIONS: u32 = 1;
const NONE: u32 = u32::MAX;

/// The impulse solver's reusable memory.
#[derive(Clone, Debug, Default)]
pub struct ImpulseScratch {
    pub bodies: SolverBodies,
    pub rows: Vec<Row>,
    /// Per particle: index into the attachments, or `NONE`.
    attach_of: Vec<u32>,
    /// Link of each link row: the links in colour order (for a chain, the even links then
    /// the odd ones), as the PBD solvers sweep them, so consecutive rows share no particle
    /// and the processor overlaps them instead of waiting on each (about 2× on W1).
    link_of_row: Vec<u32>,
    /// First row of each joint.
    joint_start: Vec<u32>,
    /// First row of the pins, holds, joints and 2D locks.
    pin_start: usize,
    hold_start: usize,
    joints_start: usize,
    planar_start: usize,
    /// The 2D locks' rows are built for this step (see [`Locks`]).
    locks_built: bool,
    /// Per body: its 2D lock (if it is planar) may sit this step out ([`idle_locks`]).
    lock_idle: Vec<bool>,
    /// Build and sweep every 2D lock (the tests' reference for [`idle_locks`]).
    pub(crate) keep_locks: bool,
    /// What the layout was built from; `None` = rebuild.
    key: Option<LayoutKey>,
    /// Bodies and particles solved this substep are written back (position-based family:
    /// bodies only).
    with_particles: bool,
    /// This substep's particle contacts (and the last substep's, for warm starting).
    contacts: Vec<PointContact>,
    old_contacts: Vec<PointContact>,
    /// Row impulses a loaded export carries (`scene::state`), put into the rows when the
    /// first layout is built, if it has as many rows.
    pending_rows: Vec<f32>,
}

impl ImpulseScratch {
    /// The rows' accumulated impulses (layout order) and the particle contacts' (key, the
    /// normal and two tangent rows'), which the next step warm starts from.
    pub fn warm_state(&self) -> (Vec<f32>, Vec<(u64, [f32; 3])>) {
        let rows = match self.key {
            Some(_) => self.rows.iter().map(|r| r.accum).collect(),
            None => self.pending_rows.clone(),
        };
        let contacts = self.contacts.iter().map(|c| (c.key, c.rows.map(|r| r.accum))).collect();
        (rows, contacts)
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

    /// Puts [`ImpulseScratch::warm_state`]'s values into a fresh scratch: the particle
    /// contacts now, the rows when the first step lays them out.
    pub fn set_warm_state(&mut self, rows: Vec<f32>, contacts: &[(u64, [f32; 3])]) {
        self.pending_rows = rows;
        self.contacts.clear();
        self.contacts.extend(contacts.iter().map(|&(key, accum)| {
            let mut c = PointContact { key, ..Default::default() };
            for (row, a) in c.rows.iter_mut().zip(accum) {
                row.accum = a;
            }
            c
        }));
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct LayoutKey {
    links: u64,
    n_links: usize,
    particles: u64,
    n_particles: usize,
    bodies: u64,
    joints: u64,
    holds: usize,
    attachments: usize,
    with_particles: bool,
    soft_holds: bool,
    pins: usize,
}

impl ImpulseScratch {
    #[inline]
    fn ground(&self) -> u32 {
        (self.bodies.len() - 1) as u32
    }
}

/// Whether rows run for particles (the impulse solver) or only for bodies (the others).
fn solves_particles(c: &StepContext) -> bool {
    c.s.solver == super::SolverKind::Impulse
}

/// Stage `prepare` (per step): sizes the solver bodies and lays out the rows.
pub fn prepare(c: &mut StepContext) {
    let with_particles = solves_particles(c);
    if !with_particles && c.bodies.is_empty() {
        return;
    }
    let nb = c.bodies.len();
    let sc = &mut c.sc.impulse;
    sc.with_particles = with_particles;
    sc.locks_built = false;
    sc.bodies.resize(c.p.len() + nb + 1);
    let key = LayoutKey {
        links: c.links.version,
        n_links: c.links.len(),
        particles: c.p.version,
        n_particles: c.p.len(),
        bodies: c.bodies.version,
        joints: c.joints.version,
        holds: c.holds.len(),
        attachments: c.attach.len(),
        with_particles,
        soft_holds: super::soft_holds(c.s),
        pins: c.sc.topo.pins.len(),
    };
    if sc.key == Some(key) {
        return;
    }
    sc.key = Some(key);
    sc.attach_of.clear();
    sc.attach_of.resize(c.p.len(), NONE);
    for (k, a) in c.attach.iter().enumerate() {
        if let Some(slot) = sc.attach_of.get_mut(a.particle as usize) {
            if c.bodies.index(a.body).is_ok() {
                *slot = k as u32;
            }
        }
    }
    // The link rows keep their impulses when the same links come in the same order (a
    // winch changing rest lengths, a pin added): only new links start from zero.
    let new_links: &[u32] = if with_particles { &c.sc.topo.colour_order } else { &[] };
    let keep_links = sc.link_of_row == new_links;
    if !keep_links {
        sc.link_of_row.clear();
        sc.link_of_row.extend_from_slice(new_links);
    }
    let sc = &mut c.sc.impulse;
    let n_links = sc.link_of_row.len();
    let n_pins = if with_particles { c.sc.topo.pins.len() * 3 } else { 0 };
    let n_holds = if with_particles && super::soft_holds(c.s) { c.holds.len() * 3 } else { 0 };
    let sc = &mut c.sc.impulse;
    sc.pin_start = n_links;
    sc.hold_start = sc.pin_start + n_pins;
    sc.joints_start = sc.hold_start + n_holds;
    sc.joint_start.clear();
    let mut r = sc.joints_start;
    for k in 0..c.joints.len() {
        sc.joint_start.push(r as u32);
        r += c.joints.rows(k);
    }
    sc.planar_start = r;
    let n_planar = c.bodies.planar.iter().filter(|&&p| p).count() * planar::ROWS;
    let total = r + n_planar;
    sc.rows.truncate(if keep_links { n_links } else { 0 });
    sc.rows.resize(total, Row::default());
    // Warm start by joint id: each joint's rows reload their impulses.
    for k in 0..c.joints.len() {
        let s = sc.joint_start[k] as usize;
        for (j, row) in sc.rows[s..s + c.joints.rows(k)].iter_mut().enumerate() {
            row.accum = c.joints.accum[k][j];
        }
    }
    let pending = std::mem::take(&mut sc.pending_rows);
    if pending.len() == sc.rows.len() {
        for (row, a) in sc.rows.iter_mut().zip(pending) {
            row.accum = a;
        }
    }
}

/// Stage `integrate` for this solver: velocities (particles and bodies) into the solver
/// bodies. Other solvers call [`integrate_bodies`] for the bodies alone.
pub fn integrate(c: &mut StepContext) {
    c.sc.dog_grip_used.iter_mut().for_each(|u| *u = 0.0);
    let h = c.h;
    let damp = if c.s.damping > 0.0 { libm::expf(-c.s.damping * h) } else { 1.0 };
    let gh = c.s.gravity * h;
    let sc = &mut c.sc.impulse;
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
    integrate_bodies(c);
}

/// Body velocities: v ← (v + h g·scale)/(1 + h c_lin), ω ← ω/(1 + h c_ang) (Box2D's
/// damping), copied into the solver bodies with their world inverse inertias.
pub fn integrate_bodies(c: &mut StepContext) {
    let nb = c.bodies.len();
    if nb == 0 && !solves_particles(c) {
        return;
    }
    let h = c.h;
    let g = c.s.gravity;
    let np = c.p.len();
    // The world inverse inertias are read when rows are built: joints' rows every substep,
    // particle-side rows (links on bodies, rope–body contacts) every substep, the contacts'
    // and 2D locks' rows only at the step's first substep (`locks_built` is still false
    // there). With no joint and no particle the later substeps skip them (a 3×3 product
    // per body per substep: 2.5 % of W6's step); nothing reads them before the next step's
    // first substep sets them again.
    let inertia = !c.sc.impulse.locks_built || !c.joints.is_empty() || np > 0;
    let b = &mut *c.bodies;
    let sb = &mut c.sc.impulse.bodies;
    {
        // Every array cut to the bodies' count first, so the loop has no bounds checks.
        let (vel, ang_vel, inv_mass) = (&mut b.vel[..nb], &mut b.ang_vel[..nb], &b.inv_mass[..nb]);
        let (scale, lin_damp, ang_damp) = (&b.gravity_scale[..nb], &b.linear_damping[..nb], &b.angular_damping[..nb]);
        let (sv, sw, sm) = (&mut sb.v[np..np + nb], &mut sb.w[np..np + nb], &mut sb.inv_m[np..np + nb]);
        for k in 0..nb {
            if inv_mass[k] > 0.0 {
                vel[k] = (vel[k] + g * (scale[k] * h)) / (1.0 + h * lin_damp[k]);
                ang_vel[k] /= 1.0 + h * ang_damp[k];
            }
            sv[k] = vel[k];
            sw[k] = ang_vel[k];
            sm[k] = inv_mass[k];
        }
    }
    if inertia {
        for k in 0..nb {
            sb.inv_i[np + k] = b.inv_inertia_world(k);
        }
    }
    let g = np + nb;
    sb.v[g] = Vec3::ZERO;
    sb.w[g] = Vec3::ZERO;
    sb.inv_m[g] = 0.0;
    sb.inv_i[g] = glam::Mat3::ZERO;
}

/// Where one end of a particle row is: solver body, its centre, the anchor point.
#[inline]
fn end(
    sc: &ImpulseScratch,
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
    let with_particles = c.sc.impulse.with_particles;
    if !with_particles && c.bodies.is_empty() {
        return;
    }
    prepare_rows(c);
    let sc = &mut c.sc.impulse;
    let body_contacts = &mut c.sc.contacts;
    let (rows, sb, contacts) = (&mut sc.rows, &mut sc.bodies, &mut sc.contacts);
    if c.s.warm_starting {
        row::warm_start(rows, &mut sb.v, &mut sb.w);
        for row in contacts.iter().flat_map(|k| k.rows.iter()) {
            row.warm_start(&mut sb.v, &mut sb.w);
        }
    } else {
        rows.iter_mut().chain(contacts.iter_mut().flat_map(|k| k.rows.iter_mut())).for_each(|r| r.accum = 0.0);
    }
    body_contacts.prepare(sb, c.bodies, c.h, c.s.warm_starting, c.s.contact_tuning());
    if with_particles {
        body_contacts.rope.warm_start(sb, c.s.warm_starting);
    }
    for _ in 0..c.s.iterations.max(1) {
        row::sweep(rows, &mut sb.v, &mut sb.w, Phase::Solve);
        contact_sweep(contacts, sb, Phase::Solve);
        body_contacts.sweep(sb, Phase::Solve);
        if with_particles {
            body_contacts.rope.sweep(sb, Phase::Solve);
        }
    }
    integrate_positions(c);
    let sc = &mut c.sc.impulse;
    // Relax on the moved bodies (see the module docs).
    if !c.bodies.is_empty() {
        let mut rows = std::mem::take(&mut sc.rows);
        let direct = direct_joints(c.s, &c.sc.body_tree);
        body_rows(sc, c.joints, c.bodies, c.p.len(), c.h, &mut rows, true, direct, Locks::Keep);
        sc.rows = rows;
        c.sc.contacts.refresh_relax(c.bodies, c.h);
    }
    let sc = &mut c.sc.impulse;
    for _ in 0..RELAX_ITERATIONS {
        row::sweep(&mut sc.rows, &mut sc.bodies.v, &mut sc.bodies.w, Phase::Relax);
        contact_sweep(&mut sc.contacts, &mut sc.bodies, Phase::Relax);
        c.sc.contacts.sweep(&mut sc.bodies, Phase::Relax);
        if with_particles {
            c.sc.contacts.rope.sweep(&mut sc.bodies, Phase::Relax);
        }
    }
    if with_particles {
        c.sc.contacts.rope.finish_rows(c.h);
    }
    restitution(&mut sc.contacts, &mut sc.bodies, 2.0 * c.s.gravity.length() * c.h);
    write_back(c);
    if with_particles {
        // The dogs' collars and feet and the rope–rope contacts, projected on the positions
        // as in the position-based solvers (velocities follow in `velocities`).
        c.dogs();
        c.rope_contacts_last();
    }
}

/// Body-only version for the position-based family: run in their `integrate` stage, so
/// the bodies have moved (by their joints) before the particles are solved against them.
///
/// Body joints need short steps (as Box2D, which defaults to 4 substeps at 60 Hz: at one
/// substep of 1/60 s a rigid row is a 15 Hz spring and W4's chain flies apart), and the
/// position-based solvers' substep count is chosen for their ropes (`exact` runs one), so
/// the bodies here take as many sub-substeps as keep each at most 1/240 s.
///
/// Under the exact solver, ball-socket joints that form a tree of bodies are solved
/// directly instead (`exact::bodies`), and only the other joints stay rows.
pub fn solve_bodies(c: &mut StepContext) {
    if c.bodies.is_empty() {
        return;
    }
    // (Between this solver's substeps the bodies moved: proxies, rope–body projection, the
    // exact solver's projection of its body tree.)
    c.sc.contacts.poses_moved();
    if c.s.solver == super::SolverKind::Exact {
        c.sc.body_tree.refresh(&mut *c.joints, c.bodies);
        if c.sc.body_tree.active() {
            return super::exact::bodies::solve_bodies(c);
        }
    }
    let h = c.h;
    let n = body_substeps(h);
    c.h = h / n as f32;
    for _ in 0..n {
        integrate_bodies(c);
        solve(c);
    }
    c.h = h;
}

/// Sub-substep rate (1/s) of the bodies' joints under the position-based solvers.
const BODY_RATE: f32 = 240.0;

/// How many sub-substeps of at most 1/`BODY_RATE` s a substep of `h` takes for the rows.
pub(crate) fn body_substeps(h: f32) -> u32 {
    // At most `limits::MAX_BODY_SUBSTEPS` (4, what 1/60 s asks for): a `step(1)` ran 240 of
    // them, 3.5 s in wasm for a pile of boxes. A longer step is split no further (the step's
    // end bounds what an unstable one does).
    ((h * BODY_RATE).ceil().max(1.0) as u32).min(crate::limits::MAX_BODY_SUBSTEPS)
}

/// Integrates positions: free particles x ← x + h v (prev ← x), bodies x and q, attached
/// particles follow their bodies.
fn integrate_positions(c: &mut StepContext) {
    let h = c.h;
    let sc = &c.sc.impulse;
    let np = c.p.len();
    if sc.with_particles {
        let p = &mut *c.p;
        for i in 0..np {
            if sc.bodies.inv_m[i] > 0.0 {
                p.prev[i] = p.pos[i];
                p.pos[i] += sc.bodies.v[i] * h;
            }
        }
    }
    let b = &mut *c.bodies;
    for k in 0..b.len() {
        if b.kind[k] == crate::bodies::BodyKind::Static
            || (b.inv_mass[k] == 0.0 && b.kind[k] == crate::bodies::BodyKind::Dynamic)
        {
            continue;
        }
        let (v, w) = (sc.bodies.v[np + k], sc.bodies.w[np + k]);
        b.pos[k] += v * h;
        b.rot[k] = integrate_rotation(b.rot[k], w, h);
    }
    for a in c.attach.iter() {
        let i = a.particle as usize;
        if let (Ok(k), true) = (b.index(a.body), i < np) {
            // (The position-based family's integration already moved `prev` on.)
            if sc.with_particles {
                c.p.prev[i] = c.p.pos[i];
            }
            c.p.pos[i] = b.world_point(k, a.local);
        }
    }
}

/// Position-based family, per step before the links are packed: each attached particle's
/// inverse mass is its body's generalised inverse mass at the attachment point along the
/// particle's first link (`bodies::attach`); 0 for an immovable body.
pub fn proxy_masses(c: &mut StepContext) {
    if c.attach.is_empty() || c.s.solver == super::SolverKind::Impulse {
        return;
    }
    for a in c.attach.iter() {
        let i = a.particle as usize;
        let Ok(k) = c.bodies.index(a.body) else { continue };
        if i >= c.p.len() {
            continue;
        }
        let b = &*c.bodies;
        let r = b.rot[k] * a.local;
        let x = b.pos[k] + r;
        let other = c.links.ends.iter().find_map(|&[u, v]| {
            if u as usize == i {
                Some(v)
            } else if v as usize == i {
                Some(u)
            } else {
                None
            }
        });
        let n = other.and_then(|j| c.p.pos.get(j as usize)).map_or(Vec3::Y, |&pj| (pj - x).normalize_or(Vec3::Y));
        let w = if b.inv_mass[k] > 0.0 {
            crate::bodies::attach::generalized_inv_mass(b.inv_mass[k], b.inv_inertia_world(k), r, n)
        } else {
            0.0
        };
        c.p.pos[i] = x;
        c.p.set_inv_mass(i, w);
    }
}

/// Position-based family, after the solve: each attached particle's displacement becomes
/// an impulse p = Δx/w on its body (position and rotation move, and the velocities by
/// Δx/h), and the particle is put back on the body.
pub fn transfer_proxies(c: &mut StepContext) {
    if c.attach.is_empty() {
        return;
    }
    let inv_h = 1.0 / c.h;
    for a in c.attach.iter() {
        let i = a.particle as usize;
        let Ok(k) = c.bodies.index(a.body) else { continue };
        if i >= c.p.len() {
            continue;
        }
        let b = &mut *c.bodies;
        let r = b.rot[k] * a.local;
        let anchor = b.pos[k] + r;
        let w = c.p.inv_mass[i];
        if w > 0.0 && b.inv_mass[k] > 0.0 {
            let imp = (c.p.pos[i] - anchor) / w;
            let dx = imp * b.inv_mass[k];
            let dth = b.inv_inertia_world(k) * r.cross(imp);
            b.pos[k] += dx;
            b.rot[k] = integrate_rotation(b.rot[k], dth, 1.0);
            b.vel[k] += dx * inv_h;
            b.ang_vel[k] += dth * inv_h;
        }
        c.p.pos[i] = b.world_point(k, a.local);
    }
}

/// q ← normalise(q + ½ h (ω, 0) q).
#[inline]
pub fn integrate_rotation(q: Quat, w: Vec3, h: f32) -> Quat {
    let dq = Quat::from_xyzw(w.x, w.y, w.z, 0.0) * q;
    (q + dq * (0.5 * h)).normalize()
}

/// Solver velocities back into particles and bodies.
fn write_back(c: &mut StepContext) {
    let sc = &c.sc.impulse;
    let np = c.p.len();
    if sc.with_particles {
        // Relax and restitution changed the velocities after the positions moved: `prev`
        // follows, so vel = (pos − prev)/h still holds for the velocity stage (which then
        // also sees what the position-level rope–rope contacts and dogs do).
        for i in 0..np {
            if sc.bodies.inv_m[i] > 0.0 {
                let v = sc.bodies.v[i];
                c.p.vel[i] = v;
                c.p.prev[i] = c.p.pos[i] - v * c.h;
            }
        }
    }
    let b = &mut *c.bodies;
    for k in 0..b.len() {
        if b.kind[k] != crate::bodies::BodyKind::Static {
            b.vel[k] = sc.bodies.v[np + k];
            b.ang_vel[k] = sc.bodies.w[np + k];
        }
    }
}

/// Stage `prepareRows`: every row from this substep's positions.
fn prepare_rows(c: &mut StepContext) {
    let h = c.h;
    let rigid = Spring::joint(h);
    let sc = &mut c.sc.impulse;
    let ground = sc.ground();
    let np = c.p.len();
    let pos = &c.p.pos;
    let bodies = &*c.bodies;
    let attach = c.attach;
    let mut rows = std::mem::take(&mut sc.rows);
    if !sc.with_particles {
        // Only the impulse solver builds particle contacts: under the others they would be
        // the last impulse step's, naming points that may since have been removed (an
        // out-of-bounds index after setSolver("exact") and removePoint).
        sc.contacts.clear();
    }
    if sc.with_particles {
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
        build_contacts(sc, c.p, c.obstacles, c.s, h);
        let friction = crate::collide::rope_body::RopeFriction { mu_s: c.s.rope_friction, mu_k: c.s.rope_mu_k() };
        c.sc.contacts.rope.build_rows(&sc.bodies, pos, c.ropes, bodies, np, friction, h);
        if super::soft_holds(c.s) {
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
    let direct = direct_joints(c.s, &c.sc.body_tree);
    let locks = if sc.locks_built { Locks::Bias } else { Locks::Build };
    if locks == Locks::Build {
        idle_locks(sc, c.joints, bodies, c.attach, &c.sc.contacts, np, c.s.gravity);
    }
    body_rows(sc, c.joints, bodies, np, h, &mut rows, false, direct, locks);
    sc.locks_built = true;
    sc.rows = rows;
}

/// Which planar bodies' 2D locks sit this step out (`row::IDLE_LOCK`: neither built nor
/// swept). A lock is idle in a sweep when its body is in the plane, untilted, with no
/// out-of-plane velocity and no impulse held (`row::solve_lock`, which skips it then, bit
/// for bit). Through a step nothing but rows can give a body out-of-plane velocity when the
/// gravity has no z part (integration adds g·h and damps), and a 2D contact's rows act on
/// v_x, v_y and ω_z alone; so a body idle at the step's start that only 2D contacts touch —
/// no joint, no rope attached or touching it, no 3D patch — stays idle through every sweep
/// of the step, and its lock is left out. Marks the candidates here (`lock_idle`); the
/// build then also requires the lock's impulses to be +0 (`body_rows`). Set only what
/// holds exactly: a −0 velocity component, a gravity with any z part, or anything else
/// touching the body, and the lock is built and swept as always; so is a spin ω_z of −0
/// (which the lock's update could make +0) or an infinite one (which it would make NaN).
fn idle_locks(
    sc: &mut ImpulseScratch,
    joints: &crate::joints::Joints,
    bodies: &Bodies,
    attach: &[crate::bodies::attach::Attachment],
    contacts: &crate::contacts::Contacts,
    np: usize,
    gravity: Vec3,
) {
    let nb = bodies.len();
    sc.lock_idle.clear();
    if sc.keep_locks || gravity.z != 0.0 || !bodies.planar.iter().any(|&p| p) {
        sc.lock_idle.resize(nb, false);
        return;
    }
    sc.lock_idle.resize(nb, true);
    let idle = &mut sc.lock_idle;
    let mut busy = |id: Option<crate::ids::Id>| {
        if let Some(k) = id.and_then(|id| bodies.index(id).ok()) {
            idle[k] = false;
        }
    };
    for k in 0..joints.len() {
        busy(joints.a[k]);
        busy(joints.b[k]);
    }
    for a in attach {
        busy(Some(a.body));
    }
    for &[_, k] in contacts.rope.pairs() {
        if let Some(i) = idle.get_mut(k as usize) {
            *i = false;
        }
    }
    for p in &contacts.patches {
        for s in [p.a, p.b] {
            if let Some(i) = (s as usize).checked_sub(np).and_then(|k| idle.get_mut(k)) {
                *i = false;
            }
        }
    }
    let (v, w) = (&sc.bodies.v, &sc.bodies.w);
    for (k, idle) in idle.iter_mut().enumerate() {
        let (x, a_b) = (bodies.pos[k], bodies.rot[k] * Vec3::Z);
        // (ω_z also neither −0, which a built lock could turn +0, nor infinite, which it
        // would turn NaN through its 0·ω_z: `row::solve_lock`.)
        let still = match (v.get(np + k), w.get(np + k)) {
            (Some(v), Some(w)) => {
                (v.z.to_bits() | w.x.to_bits() | w.y.to_bits()) == 0
                    && w.z.to_bits() != (-0.0f32).to_bits()
                    && w.z.is_finite()
            }
            _ => false,
        };
        *idle &= bodies.planar[k] && still && x.z == 0.0 && a_b.x == 0.0 && a_b.y == 0.0;
    }
}

/// What [`body_rows`] does with the 2D locks' rows.
///
/// A lock's rows are one-body rows against the world whose Jacobian depends only on the
/// body's tilt out of the plane (J = [ẑ, 0] and [0, t_k × a_B], a_B = q_B ẑ), which the lock
/// itself holds at zero, and on its world inverse inertia, which a turn about ẑ changes
/// (unless I_xx = I_yy) only in its in-plane block — and the rows apply the same stale M⁻¹
/// that their K⁻¹ was made with, so a lock still meets its target exactly; the stale part
/// has no z component. So they are built once per step, at the first substep, with K⁻¹ of the block; the
/// later substeps refresh only the biased solve's target C/h from the poses now (a body made
/// off the plane is not corrected four times over), and relax, which has no bias, keeps the
/// rows as they are. (They were rebuilt twice per substep: 20 % of W6's step.)
#[derive(Clone, Copy, PartialEq, Eq)]
enum Locks {
    /// Jacobians, effective masses, K⁻¹ and bias from the poses now.
    Build,
    /// Only the bias C/h from the poses now.
    Bias,
    /// Untouched (relax).
    Keep,
}

/// Per joint, whether the exact solver's body forest solves it (its rows stay empty);
/// empty (none) under every other solver.
fn direct_joints<'a>(s: &crate::settings::Settings, tree: &'a super::exact::BodyTree) -> &'a [bool] {
    if s.solver == super::SolverKind::Exact {
        &tree.direct
    } else {
        &[]
    }
}

/// The joints' and 2D locks' rows from the bodies' current poses (rows keep their
/// accumulated impulses). Run at the start of the substep and again, for relax, after the
/// positions are integrated (`relax`; see the module docs): then a spring row keeps the
/// relax factors it was given at the substep's start. The joints marked in `direct` (the
/// exact solver's body forest) get empty rows.
#[allow(clippy::too_many_arguments)]
fn body_rows(
    sc: &ImpulseScratch,
    joints: &crate::joints::Joints,
    bodies: &Bodies,
    np: usize,
    h: f32,
    rows: &mut [Row],
    relax: bool,
    direct: &[bool],
    locks: Locks,
) {
    let rigid = Spring::joint(h);
    let ground = sc.ground();
    // Joints.
    for k in 0..joints.len() {
        let resolve = |id: Option<crate::ids::Id>| -> (u32, Vec3, Quat) {
            match id.and_then(|id| bodies.index(id).ok()) {
                Some(bi) => ((np + bi) as u32, bodies.pos[bi], bodies.rot[bi]),
                None => (ground, Vec3::ZERO, Quat::IDENTITY),
            }
        };
        let (a, xa, qa) = resolve(joints.a[k]);
        let (b, xb, qb) = resolve(joints.b[k]);
        let user = joints.soft[k].map(|s| Spring::new(s.hertz, s.damping_ratio, h));
        let s =
            Setup { bodies: &sc.bodies, a, b, xa, xb, qa, qb, h, rigid, user, max_correction: JOINT_MAX_CORRECTION };
        let start = sc.joint_start[k] as usize;
        let rows = &mut rows[start..start + joints.rows(k)];
        if direct.get(k).copied().unwrap_or(false) {
            rows.iter_mut().for_each(|r| *r = Row::default());
            continue;
        }
        if relax && user.is_some() {
            // A spring's relax factors stay those of the substep's start, whose C makes the
            // relax sweep a no-op for it (its solve already reached the implicit step's fixed
            // point): the spring stays the implicit Euler step it is. With C re-measured after
            // the move it would act twice per substep (measured: twice the numerical damping).
            let mut kept = [Soft::RIGID; MAX_ROWS];
            for (kept, row) in kept.iter_mut().zip(rows.iter()) {
                *kept = row.soft[Phase::Relax as usize];
            }
            joints.setup(k, &s, rows);
            for (kept, row) in kept.iter().zip(rows.iter_mut()) {
                if row.soft[Phase::Relax as usize].impulse_scale > 0.0 {
                    row.soft[Phase::Relax as usize] = *kept;
                }
            }
        } else {
            joints.setup(k, &s, rows);
        }
    }
    // 2D locks.
    let mut r = sc.planar_start;
    if locks == Locks::Keep {
        return;
    }
    for k in 0..bodies.len() {
        if bodies.planar[k] && locks == Locks::Bias {
            let rr = &mut rows[r..r + planar::ROWS];
            if rr[0].block != row::IDLE_LOCK {
                planar::refresh_bias(bodies.pos[k], bodies.rot[k], h, rr);
            }
            r += planar::ROWS;
        } else if bodies.planar[k] {
            let rr = &mut rows[r..r + planar::ROWS];
            if sc.lock_idle.get(k) == Some(&true) && rr.iter().all(|row| row.accum.to_bits() == 0) {
                // Left out of this step (`idle_locks`); its impulses stay +0.
                rr[0].block = row::IDLE_LOCK;
                r += planar::ROWS;
                continue;
            }
            let s = Setup {
                bodies: &sc.bodies,
                a: ground,
                b: (np + k) as u32,
                xa: Vec3::ZERO,
                xb: bodies.pos[k],
                qa: Quat::IDENTITY,
                qb: bodies.rot[k],
                h,
                rigid,
                user: None,
                max_correction: JOINT_MAX_CORRECTION,
            };
            planar::setup(&s, &mut rows[r..r + planar::ROWS]);
            r += planar::ROWS;
        }
    }
}

/// Three rows holding particle `i` (at `x`) at world point `target`, rigid or with a
/// compliance (m/N) as a spring, critically damped for a soft hold.
#[allow(clippy::too_many_arguments)]
fn point_rows(
    sc: &ImpulseScratch,
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
fn build_contacts(
    sc: &mut ImpulseScratch,
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
    let ground = sc.ground();
    let spring = Spring::new(CONTACT_HERTZ.min(0.25 / h), CONTACT_DAMPING_RATIO, h);
    let wall_mat =
        crate::collide::contact::Material { mu_s: s.wall_friction, mu_k: s.wall_friction, e: s.restitution, keep: 1.0 };
    let mut old = 0;
    for i in 0..p.len() {
        if sc.bodies.inv_m[i] == 0.0 {
            continue;
        }
        let (x, r, v) = (p.pos[i], p.radius[i], sc.bodies.v[i]);
        let reach = SPECULATIVE + v.length_squared().sqrt() * h;
        let mut add = |shape: u32, gap: f32, n: Vec3, m: crate::collide::contact::Material| {
            let key = (i as u64) << 32 | shape as u64;
            let mut k = PointContact { key, mu: m.mu_s, e: m.e, vn0: n.dot(v), ..Default::default() };
            let (t1, t2) = n.any_orthonormal_pair();
            for (row, axis) in k.rows.iter_mut().zip([n, t1, t2]) {
                row.set_axis(&sc.bodies, ground, i as u32, axis, x, Vec3::ZERO);
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

/// Stage `forces` / `storeImpulses` (per step): joints keep their rows' impulses (warm
/// starting by id) and their reaction force and torque on B; links their tension.
pub fn store_impulses(c: &mut StepContext) {
    let h = c.h;
    let sc = &c.sc.impulse;
    if sc.rows.is_empty() {
        return;
    }
    if sc.with_particles {
        let force = &mut c.out.link_force;
        for (row, &k) in sc.rows.iter().zip(sc.link_of_row.iter()) {
            // λ < 0 pulls the ends together: tension is −λ/h.
            if let Some(f) = force.get_mut(k as usize) {
                *f = -row.accum / h;
            }
        }
    }
    // (The exact solver's direct joints have empty rows: their forces come from its body
    // forest below.)
    let direct = direct_joints(c.s, &c.sc.body_tree);
    for k in 0..c.joints.len() {
        if direct.get(k).copied().unwrap_or(false) {
            continue;
        }
        let s = sc.joint_start[k] as usize;
        let n = c.joints.rows(k);
        let (mut f, mut t) = (Vec3::ZERO, Vec3::ZERO);
        for (j, row) in sc.rows[s..s + n].iter().enumerate() {
            c.joints.accum[k][j] = row.accum;
            f += row.lin_b * row.accum;
            t += row.ang_b * row.accum;
        }
        c.joints.force[k] = f / h;
        c.joints.torque[k] = t / h;
    }
    if c.s.solver == super::SolverKind::Exact {
        c.sc.body_tree.store_forces(c.joints);
    }
}

// (Rigid bodies: the full build.)
#[cfg(test)]
#[cfg(feature = "full")]
mod tests {
    use crate::bodies::{BodyDef, BodyKind, Shape};
    use crate::joints::{JointDef, JointKind};
    use crate::workloads::Workload;
    use crate::world::World;
    use glam::{Quat, Vec3};

    fn bits(w: &World) -> Vec<u32> {
        let b = &w.bodies;
        let v3 = |v: &Vec3| v.to_array();
        b.pos
            .iter()
            .map(v3)
            .chain(b.vel.iter().map(v3))
            .chain(b.ang_vel.iter().map(v3))
            .flatten()
            .chain(b.rot.iter().flat_map(|q: &Quat| q.to_array()))
            .map(f32::to_bits)
            .collect()
    }

    /// The separations `refresh_relax` measured at a substep's end, taken by the next
    /// substep's `prepare` instead of measuring them again, change nothing: W6's pyramid
    /// under the impulse solver; the same pyramid with a rope hanging from its top box
    /// under PBD (whose bodies move between its substeps — the rope's pull through its
    /// attached point — so each of its body solves measures afresh: `poses_moved`); and
    /// under the exact solver, one substep a step, with two boxes joined by a ball-socket from
    /// step 20 (a body tree, which its projection moves after each of the four body
    /// substeps it takes: a review found those separations stale). Run beside the same worlds measuring in every prepare, they
    /// agree bit for bit at every step.
    #[test]
    fn separations_kept_from_relax_change_no_bit() {
        use crate::links::LinkDef;
        use crate::particles::ParticleDef;
        use crate::solver::SolverKind;
        for solver in [SolverKind::Impulse, SolverKind::Pbd, SolverKind::Exact] {
            let make = |always: bool| {
                let mut w = Workload::W6.build(solver);
                if solver == SolverKind::Pbd {
                    let top = *w.bodies.id.last().unwrap();
                    let at = *w.bodies.pos.last().unwrap() + Vec3::new(0.5, 0.0, 0.0);
                    let first = w.particles.len();
                    for i in 0..10 {
                        let pos = at + Vec3::new(0.2 * i as f32, 0.0, 0.0);
                        w.add_particle(&ParticleDef { pos, mass: 0.5, ..Default::default() }).unwrap();
                    }
                    for i in 0..9 {
                        let (a, b) = ((first + i) as u32, (first + i + 1) as u32);
                        w.add_link(&LinkDef { a, b, rest: Some(0.2), ..Default::default() }).unwrap();
                    }
                    w.attach(first, top).unwrap();
                }
                if solver == SolverKind::Exact {
                    // One step of 1/60 s, which the bodies take in four substeps, each
                    // followed by the tree's projection.
                    w.settings.substeps = 1;
                }
                w.scratch.contacts.measure_always = always;
                w
            };
            let (mut kept, mut measured) = (make(false), make(true));
            for step in 0..300 {
                if step == 20 && solver == SolverKind::Exact {
                    for w in [&mut kept, &mut measured] {
                        let (a, b) = (w.bodies.id[5], w.bodies.id[60]);
                        let anchor = w.bodies.pos[5] + Vec3::new(0.3, 0.2, 0.0);
                        let kind = JointKind::BallSocket;
                        w.add_joint(&JointDef { kind, a: Some(a), b: Some(b), anchor, ..Default::default() }).unwrap();
                        w.bodies.vel[60] += Vec3::new(1.0, 0.5, 0.0);
                    }
                }
                kept.step(1.0 / 60.0).unwrap();
                measured.step(1.0 / 60.0).unwrap();
                if step >= 20 && solver == SolverKind::Exact {
                    assert!(kept.scratch.body_tree.active(), "the ball-socket is the exact solver's tree");
                }
                assert!(bits(&kept) == bits(&measured), "{solver:?}: step {step} differs");
            }
            let top = kept.bodies.pos.last().unwrap();
            if solver == SolverKind::Pbd {
                // The rope pulled the top box along (so the bodies did move between substeps).
                assert!(top.distance(Vec3::new(0.0, 19.5, 0.0)) > 0.05, "{top}");
            }
        }
    }

    /// The 2D locks left out of a step (`idle_locks`) change nothing: W6's pyramid, then a
    /// ball-socket holding one of its boxes by a point off the plane, a sphere (not planar)
    /// dropped on it, free-falling boxes spinning at −0, and one box kicked out of the plane, run with the skip and with every lock built and swept, agree bit
    /// for bit at every step; and the skip was taken (most locks, most steps) until the
    /// pyramid was disturbed, and no longer for the kicked box.
    #[test]
    fn idle_locks_left_out_change_no_bit() {
        let make = |keep: bool| {
            let mut w = Workload::W6.build(crate::solver::SolverKind::Impulse);
            w.scratch.impulse.keep_locks = keep;
            w
        };
        let (mut with, mut without) = (make(false), make(true));
        let mut idle_steps = 0;
        for step in 0..400 {
            match step {
                100 => {
                    // A ball-socket to the world 0.3 m off the plane, beside a box's centre:
                    // its pull turns the box about in-plane axes, which the lock undoes.
                    for w in [&mut with, &mut without] {
                        let b = w.bodies.id[5];
                        let anchor = w.bodies.pos[5] + Vec3::new(0.1, 0.05, 0.3);
                        let kind = JointKind::BallSocket;
                        w.add_joint(&JointDef { kind, a: None, b: Some(b), anchor, ..Default::default() }).unwrap();
                    }
                }
                200 => {
                    for w in [&mut with, &mut without] {
                        let top = w.bodies.pos.iter().map(|p| p.y).fold(0.0, f32::max);
                        w.add_body(&BodyDef {
                            kind: BodyKind::Dynamic,
                            shape: Shape::Sphere { radius: 0.4 },
                            mass: 3.0,
                            pos: Vec3::new(0.2, top + 2.0, 0.3),
                            ..Default::default()
                        })
                        .unwrap();
                    }
                }
                250 => {
                    // Falling boxes that nothing touches, turned about ẑ, with spins of −0
                    // (from input: the updates never make one): their locks are built, as
                    // the full update may turn the −0 into +0.
                    for w in [&mut with, &mut without] {
                        for k in 0..10 {
                            w.add_body(&BodyDef {
                                shape: Shape::Box { half: Vec3::splat(0.3) },
                                mass: 1.0,
                                pos: Vec3::new(25.0 + 2.0 * k as f32, 30.0, 0.0),
                                rot: Quat::from_rotation_z(0.3 * k as f32 + 0.1),
                                ang_vel: Vec3::new(0.0, 0.0, -0.0),
                                planar: true,
                                ..Default::default()
                            })
                            .unwrap();
                        }
                    }
                }
                300 => {
                    for w in [&mut with, &mut without] {
                        w.bodies.vel[40] += Vec3::new(0.0, 0.0, 0.5);
                        w.bodies.ang_vel[40] += Vec3::new(0.3, -0.2, 0.0);
                    }
                }
                _ => {}
            }
            with.step(1.0 / 60.0).unwrap();
            without.step(1.0 / 60.0).unwrap();
            assert_eq!(bits(&with), bits(&without), "step {step}");
            let rows = &with.scratch.impulse.rows[with.scratch.impulse.planar_start..];
            let idle = rows.chunks(3).filter(|r| r[0].block == crate::joints::row::IDLE_LOCK).count();
            if step < 100 && idle > rows.len() / 3 / 2 {
                idle_steps += 1;
            }
            if step == 300 {
                // The kicked box (planar index 39: body 40, the ground is not planar).
                assert_ne!(rows[3 * 39].block, crate::joints::row::IDLE_LOCK, "the kicked box's lock is swept");
            }
        }
        assert!(idle_steps > 80, "the locks were left out in {idle_steps} of the first 100 steps");
        assert!(without.scratch.impulse.rows.iter().all(|r| r.block != crate::joints::row::IDLE_LOCK));
    }
}
