//! Restitution as impacts: once per step, before the substeps, the body contacts that will
//! close within the step while approaching faster than [`THRESHOLD`] are resolved as
//! collisions, one contact after another, on the velocities the step starts from.
//!
//! ## Why not Box2D's restitution pass
//! Box2D v3 stores each point's normal speed before the solve and, after relax, gives the
//! points that approached fast and took an impulse a separating speed of −e times it. The
//! solve in between has already treated the impact as inelastic: a ball striking a row of
//! touching balls pushes the whole row at the common speed, and the pass then restores only
//! the struck pair's relative speed. The row moves off together and the striking ball
//! bounces back, instead of the last ball leaving alone (a Newton's cradle with touching
//! balls). Run once per substep, the same pass gave each substep's approach a bounce again,
//! and a struck row of touching balls gained up to 2.5× its kinetic energy.
//!
//! ## The impacts
//! Each contact is a collision between its two bodies, solved on their current velocities
//! (Gauss–Seidel over the contacts, alternating direction, until no contact qualifies or
//! [`MAX_SWEEPS`] sweeps): the struck ball stops, the next ball now approaches its
//! neighbour, and the momentum runs down the row in one step, as the chain of binary
//! collisions a real cradle is. A contact's points are solved together, as a small
//! projected Gauss–Seidel on targets fixed when it is met: point i with normal speed
//! v_i < 0 is to leave at −e·v_i, with accumulated impulse λ_i ≥ 0 and
//! Δλ_i = −m_i (v_i' − target_i), m_i = 1 / (w_a + w_b + (r_a×n)ᵀ I_a⁻¹ (r_a×n) + (r_b×n)ᵀ I_b⁻¹ (r_b×n)).
//!
//! **Energy.** Impulses λ along the points' Jacobians J_i change the kinetic energy by
//! ΔK = Σ λ_i (v_i + v_i')/2 (with u' = u + M⁻¹Jᵀλ). For one point v' = −e·v gives
//! ΔK = −½ m (1 − e²) v² ≤ 0. For several, the targets met exactly give the same sign, but a
//! clamped or unconverged solve need not: the impulse is then scaled by α ≤ 1 with
//! ΔK(α) = α A + ½ α² B ≤ 0, A = Σ λ_i v_i ≤ 0, B = Σ λ_i (v_i' − v_i) ≥ 0, so α = min(1, −2A/B).
//! Every contact's impact so loses kinetic energy or keeps it (e = 1), and so does the pass.
//!
//! **Time of impact.** A contact closes at t_c = d/(−v_n) into the step (d: its separation,
//! measured along the bodies' shifted paths below). Its bodies should move with their old
//! velocities until t_c and with the new ones after; the substeps move them with the new
//! ones all the step, so each body keeps a shift (v − v')·t_c (and (ω − ω')·t_c for its
//! orientation), added to its pose at the step's end ([`Contacts::finish_impacts`]). Without
//! it a ball bounced up to v·dt before it touched (5 cm at 3 m/s), which a bounce height
//! with e < 1 shows as (1 − e²)·v·dt; a struck row's balls, which touch, get shifts that
//! cancel (the ball that passes the momentum on stops where it was struck).
//!
//! Contacts that approach slower than [`THRESHOLD`] are left to the solver's contact rows
//! (inelastic), as in Box2D: a resting body does not bounce on gravity's g·h per step.

use glam::{Mat3, Quat, Vec3};

use crate::bodies::{Bodies, BodyKind};

use super::Contacts;

/// Slower approaches (m/s) do not bounce (Box2D's restitution threshold).
pub const THRESHOLD: f32 = 1.0;
/// Sweeps over the contacts at most: a row of n touching balls struck at one end needs n − 1
/// sweeps in the wrong order and one in the right, and the sweeps alternate.
pub const MAX_SWEEPS: usize = 16;
/// Iterations of one contact's points (a box face's four).
const POINT_ITERATIONS: usize = 8;
use super::patch::MANIFOLD_POINTS;

/// One contact as an impact: its dense bodies, normal, points' levers and separations.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Impact {
    a: u32,
    b: u32,
    e: f32,
    n: Vec3,
    count: usize,
    r_a: [Vec3; MANIFOLD_POINTS],
    r_b: [Vec3; MANIFOLD_POINTS],
    s: [f32; MANIFOLD_POINTS],
}

/// The pass's reusable memory.
#[derive(Clone, Debug, Default)]
pub(crate) struct Impacts {
    list: Vec<Impact>,
    /// Per dense body: the linear and angular shift its pose takes at the step's end.
    shift: Vec<(Vec3, Vec3)>,
    inv_i: Vec<Mat3>,
    /// Some body was shifted this step.
    pending: bool,
}

impl Contacts {
    /// The step's impacts (see the module docs), on `bodies`' velocities before the
    /// substeps; `g` is the gravity and `dt` the step. A world with no restitution does nothing here.
    pub fn impacts(&mut self, bodies: &mut Bodies, g: Vec3, dt: f32) {
        let imp = &mut self.impacts;
        imp.pending = false;
        if !bodies.material.iter().any(|m| m.restitution > 0.0) {
            return;
        }
        imp.list.clear();
        let base = self.base;
        for p in &self.patches {
            let e = p.mix.map_or(0.0, |m| m.restitution);
            if e > 0.0 && p.count > 0 {
                let (a, b) = (p.a - base, p.b - base);
                let mut c = Impact { a, b, e, n: p.normal, count: p.count.min(MANIFOLD_POINTS), ..Default::default() };
                for k in 0..c.count {
                    (c.r_a[k], c.r_b[k]) = (p.r_a[k], p.r_b[k]);
                    c.s[k] = p.base[k] + p.normal.dot(p.r_b[k] - p.r_a[k]);
                }
                imp.list.push(c);
            }
        }
        for f in &self.flat {
            if f.e > 0.0 && f.count > 0 {
                let (a, b) = (f.a - base, f.b - base);
                let mut c = Impact { a, b, e: f.e, n: f.normal, count: f.count.min(2), ..Default::default() };
                for k in 0..c.count {
                    (c.r_a[k], c.r_b[k]) = (f.r_a[k], f.r_b[k]);
                    c.s[k] = f.base[k] + f.normal.dot(f.r_b[k] - f.r_a[k]);
                }
                imp.list.push(c);
            }
        }
        if imp.list.is_empty() {
            return;
        }
        let n = bodies.len();
        imp.shift.clear();
        imp.shift.resize(n, (Vec3::ZERO, Vec3::ZERO));
        imp.inv_i.clear();
        imp.inv_i.extend((0..n).map(|k| {
            if bodies.kind[k] == BodyKind::Dynamic {
                bodies.inv_inertia_world(k)
            } else {
                Mat3::ZERO
            }
        }));
        for sweep in 0..MAX_SWEEPS {
            let mut struck = false;
            let m = imp.list.len();
            for j in 0..m {
                let j = if sweep % 2 == 0 { j } else { m - 1 - j };
                struck |= impact(&imp.list[j], bodies, &imp.inv_i, &mut imp.shift, g, dt);
            }
            imp.pending |= struck;
            if !struck {
                break;
            }
        }
    }

    /// The step's end: each body struck in [`Contacts::impacts`] takes its shift.
    pub fn finish_impacts(&mut self, bodies: &mut Bodies) {
        let imp = &mut self.impacts;
        if !std::mem::take(&mut imp.pending) {
            return;
        }
        for (k, &(dx, dq)) in imp.shift.iter().enumerate().take(bodies.len()) {
            if dx != Vec3::ZERO {
                bodies.pos[k] += dx;
            }
            if dq != Vec3::ZERO {
                bodies.rot[k] = (Quat::from_scaled_axis(dq) * bodies.rot[k]).normalize();
            }
        }
    }
}

/// Contact `c` as an impact, if it qualifies; returns whether it struck. `g` is the gravity.
fn impact(c: &Impact, bodies: &mut Bodies, inv_i: &[Mat3], shift: &mut [(Vec3, Vec3)], g: Vec3, dt: f32) -> bool {
    let (a, b) = (c.a as usize, c.b as usize);
    let dynamic = |k: usize| bodies.kind[k] == BodyKind::Dynamic;
    let wa = if dynamic(a) { bodies.inv_mass[a] } else { 0.0 };
    let wb = if dynamic(b) { bodies.inv_mass[b] } else { 0.0 };
    let (ia, ib) = (inv_i[a], inv_i[b]);
    let (va0, oa0, vb0, ob0) = (bodies.vel[a], bodies.ang_vel[a], bodies.vel[b], bodies.ang_vel[b]);
    let (sa, sb) = (shift[a], shift[b]);
    let n = c.n;
    let vn =
        |va: Vec3, oa: Vec3, vb: Vec3, ob: Vec3, k: usize| n.dot((vb + ob.cross(c.r_b[k])) - (va + oa.cross(c.r_a[k])));
    // The gravity closes the gap too (a falling ball meets the ground faster than it left
    // the step's start): the relative normal acceleration.
    let gravity = |k: usize| if dynamic(k) { g * bodies.gravity_scale[k] } else { Vec3::ZERO };
    let acc = n.dot(gravity(b) - gravity(a));
    // The points that close within the step, approaching fast, and the time of impact (the
    // earliest point's).
    let mut on = [false; MANIFOLD_POINTS];
    let mut t_c = dt;
    for k in 0..c.count {
        let v = vn(va0, oa0, vb0, ob0, k);
        // Whether it strikes is judged on the separation the substeps' contact rows see (the
        // poses not shifted), so that no row meets a fast approach and makes it inelastic;
        // when it strikes on the shifted paths, which may be later than the step's end
        // (the momentum jumped a gap it had not yet crossed), is clamped to the step.
        if v + acc * dt < -THRESHOLD && c.s[k] + (v + 0.5 * acc * dt) * dt < super::TOUCH_SLOP {
            let d = c.s[k] + n.dot((sb.0 + sb.1.cross(c.r_b[k])) - (sa.0 + sa.1.cross(c.r_a[k])));
            on[k] = true;
            t_c = t_c.min(closing_time(d, v, acc).min(dt));
        }
    }
    if !on.iter().any(|&o| o) {
        return false;
    }
    // Normal speeds at the impact, and the targets.
    let at = acc * t_c;
    let mut target = [0.0f32; MANIFOLD_POINTS];
    let mut v0 = [0.0f32; MANIFOLD_POINTS];
    for k in 0..c.count {
        v0[k] = vn(va0, oa0, vb0, ob0, k) + at;
        on[k] &= v0[k] < 0.0;
        target[k] = -c.e * v0[k];
    }
    let mut mass = [0.0f32; MANIFOLD_POINTS];
    let (mut ja, mut jb) = ([Vec3::ZERO; MANIFOLD_POINTS], [Vec3::ZERO; MANIFOLD_POINTS]);
    for k in 0..c.count {
        (ja[k], jb[k]) = (c.r_a[k].cross(n), c.r_b[k].cross(n));
        let kk = wa + wb + ja[k].dot(ia * ja[k]) + jb[k].dot(ib * jb[k]);
        mass[k] = if kk > 0.0 { 1.0 / kk } else { 0.0 };
    }
    let (mut va, mut oa, mut vb, mut ob) = (va0, oa0, vb0, ob0);
    let mut lambda = [0.0f32; MANIFOLD_POINTS];
    let iterations = if c.count == 1 { 1 } else { POINT_ITERATIONS };
    for _ in 0..iterations {
        for k in (0..c.count).filter(|&k| on[k]) {
            let v = vn(va, oa, vb, ob, k) + at;
            let new = (lambda[k] - mass[k] * (v - target[k])).max(0.0);
            let d = new - lambda[k];
            lambda[k] = new;
            va -= n * (wa * d);
            oa -= ia * (ja[k] * d);
            vb += n * (wb * d);
            ob += ib * (jb[k] * d);
        }
    }
    // The energy guard (module docs): ΔK(α) = α A + ½ α² B ≤ 0.
    let (mut aa, mut bb) = (0.0f32, 0.0f32);
    for k in 0..c.count {
        aa += lambda[k] * v0[k];
        bb += lambda[k] * (vn(va, oa, vb, ob, k) + at - v0[k]);
    }
    let alpha = if bb > 0.0 && aa + 0.5 * bb > 0.0 { (-2.0 * aa / bb).clamp(0.0, 1.0) } else { 1.0 };
    if alpha < 1.0 {
        (va, oa, vb, ob) =
            (va0 + (va - va0) * alpha, oa0 + (oa - oa0) * alpha, vb0 + (vb - vb0) * alpha, ob0 + (ob - ob0) * alpha);
    }
    if (va, oa, vb, ob) == (va0, oa0, vb0, ob0) {
        return false;
    }
    if dynamic(a) {
        (bodies.vel[a], bodies.ang_vel[a]) = (va, oa);
        shift[a].0 += (va0 - va) * t_c;
        shift[a].1 += (oa0 - oa) * t_c;
    }
    if dynamic(b) {
        (bodies.vel[b], bodies.ang_vel[b]) = (vb, ob);
        shift[b].0 += (vb0 - vb) * t_c;
        shift[b].1 += (ob0 - ob) * t_c;
    }
    true
}

/// When a gap `d` closing at speed `−v` with acceleration `acc` (both along the normal)
/// closes: the smaller root of d + v t + ½ acc t² = 0, in the form that does not cancel;
/// 0 for a gap already closed, infinity for one that never closes.
fn closing_time(d: f32, v: f32, acc: f32) -> f32 {
    if d <= 0.0 {
        return 0.0;
    }
    let disc = v * v - 2.0 * acc * d;
    if disc < 0.0 || (v >= 0.0 && acc >= 0.0) {
        return f32::INFINITY;
    }
    let q = -v + disc.sqrt();
    if q > 0.0 {
        2.0 * d / q
    } else {
        f32::INFINITY
    }
}
