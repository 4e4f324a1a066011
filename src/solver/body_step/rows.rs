//! The joints' and 2D locks' rows, built from the bodies' poses at each substep's start and
//! again from the moved poses for relax; the 2D locks a step leaves out; and the choice of
//! the joints the point lane solves from the poses instead (`points`: rigid ball-sockets
//! between isotropic bodies), whose rows are neither built nor swept.
//!
//! ## Relax on the moved bodies
//! A relax sweep on the rows built at the substep's start leaves a rigid row's velocity
//! tangent to the constraint where the body *was*: for a pendulum, tangent to the circle at
//! the old angle. The body has moved on by ω h, so at the next substep that velocity has an
//! outward part v·(h v/L) along the rod, which the rod's row cuts off — kinetic energy
//! ½ m (h v²/L)² lost every substep, O(h) per unit time and growing as v⁴: a 60° hinge
//! pendulum would lose 23 % of m g d in 60 s at 8 substeps (tests/joints.rs). Box2D v3
//! avoids this by measuring its joints' anchors from the current body rotations inside every
//! solve; here the joints' and 2D locks' rows are rebuilt from the integrated poses before
//! relax (their accumulated impulses kept), so relax leaves the velocity tangent to the
//! constraint where the body *is*: the pendulum loses 0.9 %. The rows are built with the
//! world inverse inertias of the moved poses too, and the next substep starts from the same
//! poses: it keeps those inertias and, for every joint whose bodies nothing else has moved
//! since, those rows (relax built them with the biased solve's factors as well), so a joint's
//! rows are built once per substep (twice at the step's first). The reaction forces read after
//! the step are then also taken at the step's final levers. A spring row (a soft joint's)
//! keeps the relax factors of the substep's start: with them relax is a no-op for it and the
//! spring stays the exact implicit Euler step (with C re-measured after the move it would act
//! twice and damp twice as much). The impulse solver's link, pin, hold and contact rows keep
//! the rows of the substep's start.

use glam::{Quat, Vec3};

use super::RowScratch;
use crate::bodies::Bodies;
use crate::joints::lock_2d;
use crate::joints::row::{self, Phase, Row, Soft, Spring};
use crate::joints::setup::{Setup, JOINT_MAX_CORRECTION};
use crate::joints::MAX_ROWS;
use crate::settings::SolverKind;
use crate::solver::StepContext;

/// Stage `prepareBodyRows` at a substep's start: the joints' rows from the poses now, the 2D
/// locks' built at the step's first substep (after choosing the idle ones) and only their
/// bias at the others. `rows` is the whole row array, taken out of the scratch.
pub(crate) fn prepare_body_rows(c: &mut StepContext, rows: &mut [Row]) {
    let (h, np) = (c.h, c.particles.len());
    let sc = &mut c.scratch.rows;
    let direct = direct_joints(c.settings, &c.scratch.body_tree.direct);
    let locks = if sc.locks_built { Locks::Bias } else { Locks::Build };
    if locks == Locks::Build {
        idle_locks(sc, c.joints, c.bodies, c.attach, &c.scratch.contacts, np, c.settings.gravity);
        choose_lane(sc, c.joints, direct, rows, h);
    }
    // After the first substep a joint whose bodies have not moved since relax built its rows
    // keeps them: relax built them from these poses and inverse inertias with the same
    // factors (a user's spring excepted: relax kept its start-of-substep relax factors).
    let kept: &[(Vec3, Quat)] = if locks == Locks::Bias && sc.relax_built { &sc.relax_pose } else { &[] };
    let mut out = std::mem::take(&mut sc.lock_out);
    out.resize(c.bodies.len(), false);
    body_rows(sc, c.joints, c.bodies, np, h, rows, false, direct, locks, kept, &mut out);
    if locks == Locks::Build {
        // (`out` says what the rows say.)
        debug_assert!({
            let planar = c.bodies.planar.iter().zip(&out).filter(|(&p, _)| p);
            let lock = |j: usize| &rows[sc.planar_start + lock_2d::ROWS * j];
            planar.enumerate().all(|(j, (_, &o))| o == (lock(j).block == row::IDLE_LOCK))
        });
        sc.locks_idle = rows.len() >= sc.planar_start && c.bodies.planar.iter().zip(&out).all(|(&p, &o)| !p || o);
        // (What `row::warm_start` would check of each idle lock it stepped over.)
        debug_assert!(!sc.locks_idle || rows[sc.planar_start..].iter().all(|r| r.accum.to_bits() == 0));
    }
    sc.lock_out = out;
    sc.locks_built = true;
}

/// The joints' rows again from the integrated poses, before relax (see the module docs),
/// and the body contacts' separations measured there.
pub(crate) fn relax_rows(c: &mut StepContext) {
    if c.bodies.is_empty() {
        return;
    }
    let np = c.particles.len();
    let sc = &mut c.scratch.rows;
    // The world inverse inertias of the moved poses, which the rows built here apply (their
    // M⁻¹Jᵀ and K), when anything reads them again this step: joints' rows, and the impulse
    // solver's particle-side rows built at the next substep's start. The next substep keeps
    // both for the bodies that stay put (`integrate_bodies`, `prepare_body_rows`).
    let fresh = (!c.joints.is_empty() && !sc.lane_all) || (np > 0 && sc.with_particles);
    if fresh {
        let b = &*c.bodies;
        sc.relax_pose.clear();
        for k in 0..b.len() {
            sc.bodies.inv_i[np + k] = b.inv_inertia_world(k);
            sc.relax_pose.push((b.pos[k], b.rot[k]));
        }
    }
    let mut rows = std::mem::take(&mut sc.rows);
    let direct = direct_joints(c.settings, &c.scratch.body_tree.direct);
    body_rows(sc, c.joints, c.bodies, np, c.h, &mut rows, true, direct, Locks::Keep, &[], &mut []);
    sc.rows = rows;
    sc.relax_built = fresh && !sc.rebuild_rows;
    c.scratch.contacts.refresh_relax(c.bodies, c.h);
}

/// This step's point lane (`points`): every rigid ball-socket the exact solver's forest
/// does not take, between two solver bodies whose inverse inertias are isotropic, with K's
/// conditioning bound clear. Chosen at the step's first substep; `body_rows` steps over
/// them for the rest of the step.
fn choose_lane(sc: &mut RowScratch, joints: &crate::joints::Joints, direct: &[bool], rows: &mut [Row], h: f32) {
    sc.points.begin(Spring::joint(h), JOINT_MAX_CORRECTION);
    sc.in_lane.clear();
    sc.in_lane.resize(joints.len(), false);
    sc.lane_all = false;
    if sc.no_lane {
        return;
    }
    for k in 0..joints.len() {
        let rigid_ball = joints.kind[k] == crate::joints::JointKind::BallSocket && joints.soft[k].is_none();
        if !rigid_ball || direct.get(k).copied().unwrap_or(false) {
            continue;
        }
        let ([a, b], start) = (sc.joint_bodies[k], sc.joint_start[k]);
        let Some(r) = rows.get_mut(start as usize..start as usize + 3) else { continue };
        let f = &joints.frames[k];
        sc.in_lane[k] = sc.points.take(&sc.bodies, a, b, (f.local_a, f.local_b), r, start);
    }
    sc.points.colour(sc.bodies.len());
    sc.lane_all = sc.points.joints.len() == joints.len();
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
    sc: &mut RowScratch,
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
/// has no z component. So they are built once per step, at the first substep, with K⁻¹ of
/// the block; the later substeps refresh only the biased solve's target C/h from the poses
/// now (a body made off the plane is not corrected four times over), and relax, which has no
/// bias, keeps the rows as they are (rebuilding them twice per substep would cost 20 % of
/// W6's step).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Locks {
    /// Jacobians, effective masses, K⁻¹ and bias from the poses now.
    Build,
    /// Only the bias C/h from the poses now.
    Bias,
    /// Untouched (relax).
    Keep,
}

/// Per joint, whether the exact solver's body forest solves it (its rows stay empty), from
/// the forest's `direct`; empty (none) under every other solver.
pub(crate) fn direct_joints<'a>(s: &crate::settings::Settings, direct: &'a [bool]) -> &'a [bool] {
    if s.solver == SolverKind::Exact {
        direct
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
    sc: &RowScratch,
    joints: &crate::joints::Joints,
    bodies: &Bodies,
    np: usize,
    h: f32,
    rows: &mut [Row],
    relax: bool,
    direct: &[bool],
    locks: Locks,
    kept: &[(Vec3, Quat)],
    out: &mut [bool],
) {
    let rigid = Spring::joint(h);
    let ground = sc.ground();
    // (Every body where `kept` has it: no joint's pose need be looked at.)
    let all_still = !kept.is_empty()
        && kept.len() == bodies.len()
        && kept.iter().zip(bodies.pos.iter().zip(&bodies.rot)).all(|(&kp, (&x, &q))| super::same_pose(kp, (x, q)));
    // Joints (none when the point lane has them all).
    let joints_here = if sc.lane_all { 0 } else { joints.len() };
    for k in 0..joints_here {
        if sc.in_lane.get(k) == Some(&true) {
            continue;
        }
        // (A user's spring is rebuilt always: see `prepare_body_rows`.)
        let keepable = !kept.is_empty() && joints.soft[k].is_none();
        if all_still && keepable {
            continue;
        }
        // (Pose, and whether the rows built from `kept` stand for it.)
        let pose = |i: u32| -> (Vec3, Quat, bool) {
            match (i as usize).checked_sub(np).filter(|_| i != ground) {
                Some(bi) => {
                    let (x, q) = (bodies.pos[bi], bodies.rot[bi]);
                    let still = kept.get(bi).is_some_and(|&kp| super::same_pose(kp, (x, q)));
                    (x, q, still)
                }
                None => (Vec3::ZERO, Quat::IDENTITY, true),
            }
        };
        let [a, b] = sc.joint_bodies[k];
        let ((xa, qa, still_a), (xb, qb, still_b)) = (pose(a), pose(b));
        if still_a && still_b && keepable {
            continue;
        }
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
    if locks == Locks::Keep || (locks == Locks::Bias && sc.locks_idle) {
        return;
    }
    for k in 0..bodies.len() {
        if bodies.planar[k] && locks == Locks::Bias {
            let rr = &mut rows[r..r + lock_2d::ROWS];
            if rr[0].block != row::IDLE_LOCK {
                lock_2d::refresh_bias(bodies.pos[k], bodies.rot[k], h, rr);
            }
            r += lock_2d::ROWS;
        } else if bodies.planar[k] {
            let rr = &mut rows[r..r + lock_2d::ROWS];
            // (A lock left out last step still holds +0: nothing builds or sweeps it; and
            // whenever the rows are laid out anew, `out` is emptied with them. So a settled
            // pile's locks are passed over on `out` alone, their rows not read.)
            let held = |rr: &[Row]| rr.iter().any(|row| row.accum.to_bits() != 0);
            let was_out = out.get(k) == Some(&true);
            debug_assert!(!was_out || (rr[0].block == row::IDLE_LOCK && !held(rr)));
            if sc.lock_idle.get(k) == Some(&true) && (was_out || !held(rr)) {
                // Left out of this step (`idle_locks`); its impulses stay +0.
                if !was_out {
                    rr[0].block = row::IDLE_LOCK;
                    if let Some(o) = out.get_mut(k) {
                        *o = true;
                    }
                }
                r += lock_2d::ROWS;
                continue;
            }
            if let Some(o) = out.get_mut(k) {
                *o = false;
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
            lock_2d::setup(&s, &mut rows[r..r + lock_2d::ROWS]);
            r += lock_2d::ROWS;
        }
    }
}
