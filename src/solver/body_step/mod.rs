//! The bodies' step, shared by every solver: rigid bodies and their joints as generic rows
//! (`joints::row`) solved by sequential impulses, Box2D v3's soft step — the body part of
//! the impulse solver (`impulse.rs`, which adds its particles' rows to the same array and
//! sweeps) and, under the position-based solvers, the bodies' own step in their `integrate`
//! stage (`solve_bodies`), with the attached particles as proxies (`proxy_masses`,
//! `transfer_proxies`).
//!
//! Rows live in one flat array in a fixed layout — the impulse solver's links, pins and soft
//! mouse holds, then joints (each its own slice), then 2D locks — that is rebuilt in place
//! every substep, so a row's accumulated impulse stays in its slot from substep to substep
//! and from step to step (warm starting) while the layout is unchanged. When joints are
//! added or removed the layout is rebuilt and every joint's rows reload their impulses from
//! the joint's own storage (`Joints::accum`): warm starting by joint id.
//!
//! Solver body indices: particles first (`0..n_p`), then bodies (`n_p..n_p + n_b`), then the
//! static ground. A particle attached to a body (`bodies::attach`) is not a solver body:
//! its rows are built on the body at the attachment point.
//!
//! Restitution between bodies is not a pass of the sweeps: the step resolves the body
//! contacts that strike as impacts before the substeps (`contacts::impact`).
//!
//! ## Files
//! - `rows.rs`: the joints' and 2D locks' rows (built per substep, and again from the moved
//!   poses for relax), and the locks left out of a step.
//! - `points.rs`: the point lane, rigid ball-sockets between isotropic bodies solved from the
//!   poses; their rows keep only the impulses (warm starting by joint id, exports).

mod points;
mod rows;
#[cfg(test)]
#[cfg(feature = "full")]
mod tests;

use glam::{Quat, Vec3};

use crate::joints::lock_2d;
use crate::joints::row::{self, Phase, Row, SolverBodies};
use crate::settings::SolverKind;
use crate::solver::exact;
use crate::solver::StepContext;
use rows::direct_joints;
pub(crate) use rows::{prepare_body_rows, relax_rows};

/// Relax sweeps per substep (Box2D v3 uses one).
pub const RELAX_ITERATIONS: u32 = 1;
pub(crate) use crate::solver::topology::NONE;

/// The rows' reusable memory: solver bodies, the flat row array and its layout.
#[derive(Clone, Debug, Default)]
pub struct RowScratch {
    pub bodies: SolverBodies,
    pub rows: Vec<Row>,
    /// Per particle: index into the attachments, or `NONE`.
    pub(crate) attach_of: Vec<u32>,
    /// Link of each link row: the links in colour order (for a chain, the even links then
    /// the odd ones), as the PBD solvers sweep them, so consecutive rows share no particle
    /// and the processor overlaps them instead of waiting on each (about 2× on W1).
    pub(crate) link_of_row: Vec<u32>,
    /// First row of each joint.
    joint_start: Vec<u32>,
    /// Each joint's two solver bodies (A, B; the ground for a missing body), resolved
    /// with the layout.
    joint_bodies: Vec<[u32; 2]>,
    /// First row of the pins, holds, joints and 2D locks.
    pub(crate) pin_start: usize,
    pub(crate) hold_start: usize,
    joints_start: usize,
    pub(crate) planar_start: usize,
    /// The 2D locks' rows are built for this step (see `rows::Locks`).
    locks_built: bool,
    /// Every 2D lock sits this step out (`rows::idle_locks`): the sweeps and the warm start
    /// stop at `planar_start` ([`RowScratch::live`]).
    locks_idle: bool,
    /// Per body, the pose (position, orientation) that the last relax made the world inverse
    /// inertias in `bodies` and the joints' rows from (`rows::relax_rows`); the next substep
    /// keeps both for every body and joint still there. Valid while `relax_built`.
    relax_pose: Vec<(Vec3, Quat)>,
    relax_built: bool,
    /// Never keep relax's rows or inertias (the tests' reference for that keep).
    pub(crate) rebuild_rows: bool,
    /// Per body: its 2D lock (if it is planar) may sit this step out (`rows::idle_locks`).
    lock_idle: Vec<bool>,
    /// Per body: its 2D lock's rows are left out (`row::IDLE_LOCK`, impulses +0), as the
    /// rows say: so the step's start reads this, not each lock's rows (`rows::body_rows`).
    /// Emptied with the rows whenever they are made anew.
    lock_out: Vec<bool>,
    /// Build and sweep every 2D lock (the tests' reference for `rows::idle_locks`).
    pub(crate) keep_locks: bool,
    /// What the layout was built from; `None` = rebuild.
    key: Option<LayoutKey>,
    /// The rows carry the impulse solver's particles (links, pins, holds; laid out by
    /// `impulse::prepare`), else the bodies' alone.
    pub(crate) with_particles: bool,
    /// Row impulses a loaded export carries (`scene::state`), put into the rows when the
    /// first layout is built, if it has as many rows.
    pending_rows: Vec<f32>,
    /// This step's ball-sockets solved from the poses (`points`), and per joint whether it
    /// is one of them (its rows are then stepped over).
    pub(crate) points: points::PointLane,
    pub(crate) in_lane: Vec<bool>,
    /// Every joint is in the point lane this step: their rows need neither building nor the
    /// bodies' inverse inertias after the first substep.
    lane_all: bool,
    /// Solve every joint as rows (the tests' reference for the point lane).
    pub(crate) no_lane: bool,
}

impl RowScratch {
    /// The end of the rows this step's sweeps and warm start run over: the 2D locks' are
    /// left out when every lock sits the step out (each would only be stepped over, three
    /// rows at a time, in every sweep).
    #[inline]
    pub(crate) fn live(&self) -> usize {
        let end = if self.locks_idle { self.planar_start.min(self.rows.len()) } else { self.rows.len() };
        // (Nothing but the point lane's joints, whose rows would each be stepped over.)
        if self.lane_all && self.joints_start == 0 && end == self.planar_start {
            0
        } else {
            end
        }
    }

    /// The rows' accumulated impulses (layout order), which the next step warm starts from.
    pub fn warm_rows(&self) -> Vec<f32> {
        match self.key {
            Some(_) => self.rows.iter().map(|r| r.accum).collect(),
            None => self.pending_rows.clone(),
        }
    }

    /// Puts [`RowScratch::warm_rows`]'s values into a fresh scratch, for when the first
    /// step lays the rows out.
    pub fn set_pending_rows(&mut self, rows: Vec<f32>) {
        self.pending_rows = rows;
    }

    /// The static ground's solver body.
    #[inline]
    pub(crate) fn ground(&self) -> u32 {
        (self.bodies.len() - 1) as u32
    }
}

/// The poses the point lane reads: the bodies' now, after `np` particles.
#[inline]
pub(crate) fn poses<'a>(bodies: &'a crate::bodies::Bodies, np: usize, ground: u32) -> points::Poses<'a> {
    points::Poses { pos: &bodies.pos, rot: &bodies.rot, first: np as u32, ground }
}

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

/// Whether rows run for particles (the impulse solver) or only for bodies (the others).
fn solves_particles(c: &StepContext) -> bool {
    c.settings.solver == SolverKind::Impulse
}

/// Stage `prepare` (per step) under the solvers other than `impulse`: sizes the solver
/// bodies and lays out the bodies' rows.
pub fn prepare(c: &mut StepContext) {
    if c.bodies.is_empty() {
        return;
    }
    lay_out(c, false);
}

/// Sizes the solver bodies and lays out the rows (`with_particles`: the impulse solver's
/// link, pin and hold rows in front of the bodies'), unless nothing they depend on changed.
pub(crate) fn lay_out(c: &mut StepContext, with_particles: bool) {
    let nb = c.bodies.len();
    let sc = &mut c.scratch.rows;
    sc.with_particles = with_particles;
    sc.locks_built = false;
    sc.locks_idle = false;
    sc.relax_built = false;
    sc.bodies.resize(c.particles.len() + nb + 1);
    let key = LayoutKey {
        links: c.links.version,
        n_links: c.links.len(),
        particles: c.particles.version,
        n_particles: c.particles.len(),
        bodies: c.bodies.version,
        joints: c.joints.version,
        holds: c.holds.len(),
        attachments: c.attach.len(),
        with_particles,
        soft_holds: super::soft_holds(c.settings),
        pins: c.scratch.topo.pins.len(),
    };
    if sc.key == Some(key) {
        return;
    }
    sc.key = Some(key);
    sc.attach_of.clear();
    sc.attach_of.resize(c.particles.len(), NONE);
    for (k, a) in c.attach.iter().enumerate() {
        if let Some(slot) = sc.attach_of.get_mut(a.particle as usize) {
            if c.bodies.index(a.body).is_ok() {
                *slot = k as u32;
            }
        }
    }
    // The link rows keep their impulses when the same links come in the same order (a
    // winch changing rest lengths, a pin added): only new links start from zero.
    let new_links: &[u32] = if with_particles { &c.scratch.topo.colour_order } else { &[] };
    let keep_links = sc.link_of_row == new_links;
    if !keep_links {
        sc.link_of_row.clear();
        sc.link_of_row.extend_from_slice(new_links);
    }
    let sc = &mut c.scratch.rows;
    let n_links = sc.link_of_row.len();
    let n_pins = if with_particles { c.scratch.topo.pins.len() * 3 } else { 0 };
    let n_holds = if with_particles && super::soft_holds(c.settings) { c.holds.len() * 3 } else { 0 };
    let sc = &mut c.scratch.rows;
    sc.pin_start = n_links;
    sc.hold_start = sc.pin_start + n_pins;
    sc.joints_start = sc.hold_start + n_holds;
    sc.joint_start.clear();
    sc.joint_bodies.clear();
    let ground = sc.ground();
    let np = c.particles.len();
    let solver_body = |id: Option<crate::ids::Id>| match id.and_then(|id| c.bodies.index(id).ok()) {
        Some(bi) => (np + bi) as u32,
        None => ground,
    };
    let mut r = sc.joints_start;
    for k in 0..c.joints.len() {
        sc.joint_start.push(r as u32);
        sc.joint_bodies.push([solver_body(c.joints.a[k]), solver_body(c.joints.b[k])]);
        r += c.joints.rows(k);
    }
    sc.planar_start = r;
    let n_planar = c.bodies.planar.iter().filter(|&&p| p).count() * lock_2d::ROWS;
    let total = r + n_planar;
    sc.rows.truncate(if keep_links { n_links } else { 0 });
    sc.rows.resize(total, Row::default());
    sc.lock_out.clear();
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

/// Body velocities: v ← (v + h g·scale)/(1 + h c_lin), ω ← ω/(1 + h c_ang) (Box2D's
/// damping), copied into the solver bodies with their world inverse inertias.
pub fn integrate_bodies(c: &mut StepContext) {
    let nb = c.bodies.len();
    if nb == 0 && !solves_particles(c) {
        return;
    }
    let h = c.h;
    let g = c.settings.gravity;
    let np = c.particles.len();
    // The world inverse inertias are read when rows are built: joints' rows every substep,
    // particle-side rows (links on bodies, rope–body contacts) every substep, the contacts'
    // and 2D locks' rows only at the step's first substep (`locks_built` is still false
    // there). With no particle and no joint outside the point lane (whose joints keep the
    // scalars of isotropic inertias: `points`) the later substeps skip them (a 3×3 product
    // per body per substep: 2.5 % of W6's step); nothing reads them before the next step's
    // first substep sets them again.
    // After the first substep, a body still where the last relax left it keeps the inverse
    // inertia relax made for that pose (`rows::relax_rows`).
    let sc = &c.scratch.rows;
    let inertia = !sc.locks_built || (!c.joints.is_empty() && !sc.lane_all) || np > 0;
    let b = &mut *c.bodies;
    let RowScratch { bodies: sb, relax_pose, relax_built, locks_built, .. } = &mut c.scratch.rows;
    let kept: &[(Vec3, Quat)] = if *locks_built && *relax_built { relax_pose } else { &[] };
    {
        // Every array cut to the bodies' count first, so the loop has no bounds checks.
        let (vel, ang_vel, inv_mass) = (&mut b.vel[..nb], &mut b.ang_vel[..nb], &b.inv_mass[..nb]);
        let (scale, lin_damp, ang_damp) = (&b.gravity_scale[..nb], &b.linear_damping[..nb], &b.angular_damping[..nb]);
        let (sv, sw, sm) = (&mut sb.v[np..np + nb], &mut sb.w[np..np + nb], &mut sb.inv_m[np..np + nb]);
        for k in 0..nb {
            if inv_mass[k] > 0.0 {
                // (Undamped, the divisor is 1: x / 1 is x, and six divisions a body are left out.)
                let (lin, ang) = (1.0 + h * lin_damp[k], 1.0 + h * ang_damp[k]);
                let v = vel[k] + g * (scale[k] * h);
                vel[k] = if lin == 1.0 { v } else { v / lin };
                if ang != 1.0 {
                    ang_vel[k] /= ang;
                }
            }
            sv[k] = vel[k];
            sw[k] = ang_vel[k];
            sm[k] = inv_mass[k];
        }
    }
    if inertia {
        for k in 0..nb {
            if kept.get(k).is_some_and(|&(_, q)| same_bits(q.to_array(), b.rot[k].to_array())) {
                continue;
            }
            sb.inv_i[np + k] = b.inv_inertia_world(k);
        }
    }
    let g = np + nb;
    sb.v[g] = Vec3::ZERO;
    sb.w[g] = Vec3::ZERO;
    sb.inv_m[g] = 0.0;
    sb.inv_i[g] = glam::Mat3::ZERO;
}

/// Whether two sets of floats are the same bits (a pose that has not moved, not merely one
/// that compares equal: −0 and +0 would build different rows).
#[inline]
pub(crate) fn same_bits<const N: usize>(a: [f32; N], b: [f32; N]) -> bool {
    a.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits())
}

/// [`same_bits`] for a pose (position, orientation).
#[inline]
pub(crate) fn same_pose((xa, qa): (Vec3, Quat), (xb, qb): (Vec3, Quat)) -> bool {
    same_bits(xa.to_array(), xb.to_array()) && same_bits(qa.to_array(), qb.to_array())
}

/// The bodies' rows for one (sub-)substep under the solvers other than `impulse`: prepare
/// rows, warm start, biased sweeps with the body contacts, integrate positions, relax on the
/// moved bodies (`rows::relax_rows`), velocities back into the bodies.
fn solve(c: &mut StepContext) {
    if c.bodies.is_empty() {
        return;
    }
    // The impulse solver's particle contacts name points that may since have been removed.
    c.scratch.forget_particle_contacts();
    let mut rows = std::mem::take(&mut c.scratch.rows.rows);
    prepare_body_rows(c, &mut rows);
    c.scratch.rows.rows = rows;
    let sc = &mut c.scratch.rows;
    let body_contacts = &mut c.scratch.contacts;
    let live = sc.live();
    let (rows, sb, lane) = (&mut sc.rows[..live], &mut sc.bodies, &mut sc.points);
    let np = c.particles.len();
    let ground = (sb.len() - 1) as u32;
    lane.levers(poses(c.bodies, np, ground), Phase::Solve);
    if c.settings.warm_starting {
        lane.warm_start(sb);
        row::warm_start(rows, &mut sb.v, &mut sb.w);
    } else {
        rows.iter_mut().for_each(|r| r.accum = 0.0);
        lane.zero();
    }
    body_contacts.prepare(sb, c.bodies, c.h, c.settings.warm_starting, c.settings.contact_tuning());
    for _ in 0..c.settings.iterations.max(1) {
        lane.sweep(sb, Phase::Solve);
        row::sweep(rows, &mut sb.v, &mut sb.w, Phase::Solve);
        body_contacts.sweep(sb, Phase::Solve);
    }
    integrate_positions(c);
    relax_rows(c);
    let sc = &mut c.scratch.rows;
    sc.points.levers(poses(c.bodies, np, ground), Phase::Relax);
    for _ in 0..RELAX_ITERATIONS {
        sc.points.sweep(&mut sc.bodies, Phase::Relax);
        row::sweep(&mut sc.rows[..live], &mut sc.bodies.v, &mut sc.bodies.w, Phase::Relax);
        c.scratch.contacts.sweep(&mut sc.bodies, Phase::Relax);
    }
    sc.points.store(&mut sc.rows);
    write_back(c);
}

/// The bodies' step under the position-based family: run in their `integrate` stage, so
/// the bodies have moved (by their joints) before the particles are solved against them.
///
/// Body joints need short steps (as Box2D, which defaults to 4 substeps at 60 Hz: at one
/// substep of 1/60 s a rigid row is a 15 Hz spring and W4's chain flies apart), and the
/// position-based solvers' substep count is chosen for their ropes (`exact` runs one), so
/// the bodies here take as many sub-substeps as keep each at most 1/240 s.
///
/// Under the exact solver, ball-socket joints that form a tree of bodies are solved
/// directly instead (`exact::body_tree`), and only the other joints stay rows (`solve_tree`).
pub fn solve_bodies(c: &mut StepContext) {
    if c.bodies.is_empty() {
        return;
    }
    // (Between this solver's substeps the bodies moved: proxies, rope–body projection, the
    // exact solver's projection of its body tree; and the tree's refresh may hand joints to
    // it or take them back, so no joint keeps the last relax's rows.)
    c.scratch.contacts.poses_moved();
    c.scratch.rows.relax_built = false;
    if c.settings.solver == SolverKind::Exact {
        c.scratch.body_tree.refresh(&mut *c.joints, c.bodies);
        if c.scratch.body_tree.active() {
            return solve_tree(c);
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

/// Under the exact solver with a body tree (`exact::body_tree`): per (sub-)substep, the rows of
/// every other joint and the body contacts (or a plain integration when there are none),
/// then the tree's projection and the velocities it implies.
fn solve_tree(c: &mut StepContext) {
    let h = c.h;
    // Body contacts are rows: with any patch the step runs the rows too.
    let pure = c.scratch.body_tree.pure && c.scratch.contacts.patches.is_empty() && c.scratch.contacts.flat.is_empty();
    let n = if pure { 1 } else { body_substeps(h) };
    c.h = h / n as f32;
    for _ in 0..n {
        if !pure {
            integrate_bodies(c);
            solve(c);
        }
        exact::body_tree::project(c, pure);
        // (The projection moved the tree's bodies: the separations the relax measured are
        // stale.)
        c.scratch.contacts.poses_moved();
    }
    c.h = h;
}

/// Integrates the bodies' positions (x and q) and puts the attached particles on them (the
/// impulse solver moves its free particles first: `impulse::integrate_positions`).
pub(crate) fn integrate_positions(c: &mut StepContext) {
    let h = c.h;
    let sc = &c.scratch.rows;
    let np = c.particles.len();
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
                c.particles.prev[i] = c.particles.pos[i];
            }
            c.particles.pos[i] = b.world_point(k, a.local);
        }
    }
}

/// Position-based family, per step before the links are packed: each attached particle's
/// inverse mass is its body's generalised inverse mass at the attachment point along the
/// particle's first link (`bodies::attach`); 0 for an immovable body.
pub fn proxy_masses(c: &mut StepContext) {
    if c.attach.is_empty() || c.settings.solver == SolverKind::Impulse {
        return;
    }
    for a in c.attach.iter() {
        let i = a.particle as usize;
        let Ok(k) = c.bodies.index(a.body) else { continue };
        if i >= c.particles.len() {
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
        let n =
            other.and_then(|j| c.particles.pos.get(j as usize)).map_or(Vec3::Y, |&pj| (pj - x).normalize_or(Vec3::Y));
        let w = if b.inv_mass[k] > 0.0 {
            crate::bodies::attach::generalized_inv_mass(b.inv_mass[k], b.inv_inertia_world(k), r, n)
        } else {
            0.0
        };
        c.particles.pos[i] = x;
        c.particles.set_inv_mass(i, w);
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
        if i >= c.particles.len() {
            continue;
        }
        let b = &mut *c.bodies;
        let r = b.rot[k] * a.local;
        let anchor = b.pos[k] + r;
        let w = c.particles.inv_mass[i];
        if w > 0.0 && b.inv_mass[k] > 0.0 {
            let imp = (c.particles.pos[i] - anchor) / w;
            let dx = imp * b.inv_mass[k];
            let dth = b.inv_inertia_world(k) * r.cross(imp);
            b.pos[k] += dx;
            b.rot[k] = integrate_rotation(b.rot[k], dth, 1.0);
            b.vel[k] += dx * inv_h;
            b.ang_vel[k] += dth * inv_h;
        }
        c.particles.pos[i] = b.world_point(k, a.local);
    }
}

/// q ← normalise(q + ½ h (ω, 0) q).
#[inline]
pub fn integrate_rotation(q: Quat, w: Vec3, h: f32) -> Quat {
    let dq = Quat::from_xyzw(w.x, w.y, w.z, 0.0) * q;
    (q + dq * (0.5 * h)).normalize()
}

/// Solver velocities back into the bodies (the impulse solver writes its particles' first:
/// `impulse::write_back`).
pub(crate) fn write_back(c: &mut StepContext) {
    let sc = &c.scratch.rows;
    let np = c.particles.len();
    let b = &mut *c.bodies;
    for k in 0..b.len() {
        if b.kind[k] != crate::bodies::BodyKind::Static {
            b.vel[k] = sc.bodies.v[np + k];
            b.ang_vel[k] = sc.bodies.w[np + k];
        }
    }
}

/// Stage `forces` / `storeImpulses` (per step): joints keep their rows' impulses (warm
/// starting by id) and their reaction force and torque on B; links their tension.
pub fn store_impulses(c: &mut StepContext) {
    let h = c.h;
    let sc = &c.scratch.rows;
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
    let direct = direct_joints(c.settings, &c.scratch.body_tree.direct);
    for k in 0..c.joints.len() {
        if direct.get(k).copied().unwrap_or(false) {
            continue;
        }
        let s = sc.joint_start[k] as usize;
        let n = c.joints.rows(k);
        let (mut f, mut t) = (Vec3::ZERO, Vec3::ZERO);
        let lane = sc.in_lane.get(k) == Some(&true);
        for (j, row) in sc.rows[s..s + n].iter().enumerate() {
            c.joints.accum[k][j] = row.accum;
            if !lane {
                f += row.lin_b * row.accum;
                t += row.ang_b * row.accum;
            }
        }
        if lane {
            // (The lane's rows hold only the impulse λ, one component per world axis: the
            // force on B is λ, the torque about its centre r_B × λ.)
            let l = Vec3::from_array(c.joints.accum[k][..3].try_into().unwrap_or([0.0; 3]));
            let q = c.joints.b[k].and_then(|id| c.bodies.index(id).ok()).map_or(Quat::IDENTITY, |i| c.bodies.rot[i]);
            (f, t) = (l, (q * c.joints.frames[k].local_b).cross(l));
        }
        c.joints.force[k] = f / h;
        c.joints.torque[k] = t / h;
    }
    if c.settings.solver == SolverKind::Exact {
        c.scratch.body_tree.store_forces(c.joints);
    }
}
