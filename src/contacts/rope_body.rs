//! Rope ↔ body contacts, two-way, with Coulomb friction (issue 11 §1, second bullet).
//!
//! A rope segment is a capsule of the rope's radius between two particles i₀, i₁ (its ends
//! are the particles' balls, so a particle is covered by its segments). The narrow phase
//! (`narrow::collide_segment`) gives, against a body shape, a unit normal n from the body
//! to the segment and up to two points p with their separation C (< 0 = penetrating). At a
//! point the segment's parameter is t ∈ [0, 1] (p projected on i₀i₁) and the body's lever
//! is r = x_s(t) − x_body, to the point on the rope's axis (r × n is the same for every
//! point on the normal, so this only matters for friction: "no slip" is then the rope's
//! centre line moving with the body, as a rope bends about its centre line, and a rope
//! of radius ρ on a wheel of radius R turns it at ω = v/(R + ρ)).
//!
//! ## The contact as one scalar constraint on three bodies
//! The contact point of the segment moves as x_s(t) = (1 − t) x₀ + t x₁ and the body's as
//! x_b + r, so along a unit direction a the constraint's Jacobian is
//!
//! ```text
//! Ċ = a · ((1 − t) v₀ + t v₁ − v_b − ω_b × r) = a·((1 − t) v₀ + t v₁ − v_b) − (r × a)·ω_b
//! J = [ (1 − t) a,  t a,  −a,  −(r × a) ]
//! K = J M⁻¹ Jᵀ = (1 − t)² w₀ + t² w₁ + m_b⁻¹ + (r × a)·I_b⁻¹ (r × a)
//! ```
//!
//! (w the particles' inverse masses, I_b⁻¹ the body's world inverse inertia; the last two
//! terms are the body's generalised inverse mass at r along a, `attach::generalized_inv_mass`).
//! An impulse λ along a changes v₀ by (1 − t) w₀ a λ, v₁ by t w₁ a λ, v_b by −m_b⁻¹ a λ and
//! ω_b by −I_b⁻¹ (r × a) λ: equal and opposite at the contact point, so momentum is
//! conserved and the body's share follows its mass and its inertia at the lever arm. That
//! is the whole of the two-way coupling: a rope draped over a box pushes it down by the
//! normal impulses; a swinging box pushes the rope aside by the same impulses.
//!
//! ## Position-based solvers (`pbd`, `xpbd`, `jacobi`, `exact`)
//! The same J as a position constraint, projected in every iteration as the rope–rope
//! contacts are (`segments::segment_contact_deltas`): Δλ_n = −C / K_n (rigid, λ_n ≥ 0 summed
//! over the substep), Δx₀ = (1 − t) w₀ n Δλ_n, Δx₁ = t w₁ n Δλ_n, and the body takes the
//! impulse −n Δλ_n: Δx_b = −m_b⁻¹ n Δλ_n, Δθ_b = −I_b⁻¹ (r × n) Δλ_n, and (as the attached
//! particles' proxies do, `bodies::attach`) its velocities by Δx_b/h and Δθ_b/h, so
//! v = Δx/h holds for the body as for the particles.
//!
//! **Friction** (Coulomb, static and kinetic, as the particle–obstacle contacts of
//! `contact.rs`): the slip of the substep at the contact is the relative displacement of
//! the two material points, d = Δx_s(t) − Δx_b(p), where Δx_b(p) is the body point's
//! displacement since the substep's start (the body's pose then is kept, `begin_substep`),
//! so a rope on a turning wheel does not slip while it turns with the rim. Its tangential
//! part d_t (length s, direction e) is removed by Δλ_t = s / K_t when that keeps the
//! substep's accumulated λ_t ≤ μ_s λ_n (sticking); otherwise λ_t grows only up to μ_k λ_n
//! (sliding). Dividing by h² turns the multipliers into forces, so this is |f_t| ≤ μ |f_n|.
//!
//! ## Impulse solver
//! Three velocity rows per point (normal, two tangents) with the J above, built at the
//! substep's start (speculative within `SPECULATIVE` + the distance the pair closes in a
//! substep, as the particles' obstacle rows), solved with the joints' rows and the bodies'
//! patches in every iteration and in relax; the normal row is Box2D v3's soft contact
//! (`rule::Tuning::PARTICLES`, push-out capped: `contacts::rule`) in the biased solve and rigid in
//! relax; the tangent pair is clamped to the disc |λ_t| ≤ μ λ_n (the seed's patch rule for
//! a one-point patch; μ_k once sliding). Accumulated impulses carry from substep to
//! substep by (segment, body, point).
//!
//! ## Friction coefficient
//! Box2D's mixing rule, as the bodies' pairs: μ_s = √(μ_rope,s · μ_body), μ_k =
//! √(μ_rope,k · μ_body), the rope's from `Settings::rope_friction` (and
//! `rope_dynamic_friction`), the body's its `Material::friction`. With both set to μ, the
//! pair's is μ.
//!
//! ## Pairs
//! The candidate (segment, body) pairs come once per step from the broad phase's body pass
//! (`collide::broad`, run by `contacts::Contacts::collide`): the segments' boxes are in the
//! same sorted list as the bodies', fattened by how far the segment and the body can move in
//! the step; an overlap becomes a pair when the narrow phase, with both reaches as its
//! margin, finds the segment within reach of the body's surface (the rope–rope pairs come
//! from the same list's rope pass, per substep on swept boxes, `rope_contacts`, which reuses
//! its pairs while the ropes move little). A segment with an end
//! attached to the body is skipped (the rope starts at the body's surface), and so are
//! bodies whose filter rejects group 1 (ropes collide as group 1). No bodies: no pairs and
//! nothing here runs, so rope-only scenes are untouched bit for bit.
//!
//! No allocation in the step once the buffers have grown.

use glam::{Mat3, Quat, Vec3};

use super::rule::{self, Tuning, SPECULATIVE};
use crate::bodies::attach::Attachment;
use crate::bodies::{Bodies, BodyKind};
use crate::collide::narrow::{self, Pose};
use crate::collide::segments::ContactState;
use crate::joints::row::{Phase, Soft, SolverBodies};
use crate::ropes::Ropes;

/// Friction coefficients of one rope against the bodies: (μ_s, μ_k) of the rope.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RopeFriction {
    pub mu_s: f32,
    pub mu_k: f32,
}

impl RopeFriction {
    /// (μ_s, μ_k) against a body of friction `mu_body` (Box2D's geometric mean).
    #[inline]
    pub fn with(self, mu_body: f32) -> (f32, f32) {
        ((self.mu_s * mu_body).max(0.0).sqrt(), (self.mu_k * mu_body).max(0.0).sqrt())
    }
}

/// One impulse-solver contact point between a rope segment and a body (three rows).
#[derive(Clone, Copy, Debug)]
struct SegRows {
    /// (segment << 32) | (body << 1) | point: carries impulses from the last substep.
    key: u64,
    i0: u32,
    i1: u32,
    /// Solver index of the body.
    b: u32,
    t: f32,
    /// Inverse masses: particles, body.
    w0: f32,
    w1: f32,
    wb: f32,
    /// Normal, tangent 1, tangent 2.
    axis: [Vec3; 3],
    /// r × axis and I⁻¹ (r × axis).
    rxa: [Vec3; 3],
    irxa: [Vec3; 3],
    /// Effective masses 1/K.
    mass: [f32; 3],
    accum: [f32; 3],
    /// The normal row's factors per phase.
    soft: [Soft; 2],
    mu: f32,
}

impl Default for SegRows {
    fn default() -> Self {
        SegRows {
            key: 0,
            i0: 0,
            i1: 0,
            b: 0,
            t: 0.0,
            w0: 0.0,
            w1: 0.0,
            wb: 0.0,
            axis: [Vec3::ZERO; 3],
            rxa: [Vec3::ZERO; 3],
            irxa: [Vec3::ZERO; 3],
            mass: [0.0; 3],
            accum: [0.0; 3],
            soft: [Soft::RIGID; 2],
            mu: 0.0,
        }
    }
}

impl SegRows {
    #[inline(always)]
    fn cdot(&self, k: usize, v: &[Vec3], w: &[Vec3]) -> f32 {
        let (i0, i1, b) = (self.i0 as usize, self.i1 as usize, self.b as usize);
        let a = self.axis[k];
        a.dot(v[i0] * (1.0 - self.t) + v[i1] * self.t - v[b]) - self.rxa[k].dot(w[b])
    }

    #[inline(always)]
    fn apply(&self, k: usize, v: &mut [Vec3], w: &mut [Vec3], l: f32) {
        let (i0, i1, b) = (self.i0 as usize, self.i1 as usize, self.b as usize);
        let a = self.axis[k];
        v[i0] += a * ((1.0 - self.t) * self.w0 * l);
        v[i1] += a * (self.t * self.w1 * l);
        v[b] -= a * (self.wb * l);
        w[b] -= self.irxa[k] * l;
    }

    fn solve(&mut self, v: &mut [Vec3], w: &mut [Vec3], phase: Phase) {
        // Normal: λ ≥ 0.
        let s = self.soft[phase as usize];
        let cd = self.cdot(0, v, w);
        let new =
            (self.accum[0] - self.mass[0] * s.mass_scale * (cd + s.bias) - s.impulse_scale * self.accum[0]).max(0.0);
        let d = new - self.accum[0];
        self.accum[0] = new;
        self.apply(0, v, w, d);
        // Tangents: the pair clamped to the disc |λ_t| ≤ μ λ_n.
        let cap = self.mu * self.accum[0];
        let want =
            [self.accum[1] - self.mass[1] * self.cdot(1, v, w), self.accum[2] - self.mass[2] * self.cdot(2, v, w)];
        let len2 = want[0] * want[0] + want[1] * want[1];
        let scale = if len2 > cap * cap { cap / len2.sqrt() } else { 1.0 };
        for k in 1..3 {
            let new = want[k - 1] * scale;
            let d = new - self.accum[k];
            self.accum[k] = new;
            self.apply(k, v, w, d);
        }
    }
}

/// The rope–body contacts: this step's candidate pairs, the position solvers' per-substep
/// multipliers and body poses, the impulse solver's rows.
#[derive(Clone, Debug, Default)]
pub struct RopeBodyContacts {
    /// (segment, dense body index), sorted; made by the bodies' broad phase each step.
    pub(crate) pairs: Vec<[u32; 2]>,
    /// Position solvers: per pair and manifold point, the substep's multipliers.
    states: Vec<[ContactState; 2]>,
    /// Position solvers: the bodies' poses at the start of the substep.
    start_pos: Vec<Vec3>,
    start_rot: Vec<Quat>,
    /// Position solvers: the bodies' poses before one projection pass (to move the
    /// particles attached to them along).
    pass_pos: Vec<Vec3>,
    pass_rot: Vec<Quat>,
    /// Impulse solver: this substep's rows and the last substep's (warm starting).
    rows: Vec<SegRows>,
    old_rows: Vec<SegRows>,
    /// Normal force (N) on the bodies summed over the last substep's contacts (a report).
    pub(crate) normal_force: f32,
}

/// The inverse mass and world inverse inertia of body `k` as the contacts see it (zero for
/// a static or kinematic body).
#[inline]
fn body_inv(bodies: &Bodies, k: usize) -> (f32, Mat3) {
    if bodies.kind[k] == BodyKind::Dynamic && bodies.inv_mass[k] > 0.0 {
        (bodies.inv_mass[k], bodies.inv_inertia_world(k))
    } else {
        (0.0, Mat3::ZERO)
    }
}

/// q turned by the small rotation vector `dth`: normalise(q + ½ (dth, 0) q) (the solvers'
/// rotation update).
#[inline]
fn turn(q: Quat, dth: Vec3) -> Quat {
    let dq = Quat::from_xyzw(dth.x, dth.y, dth.z, 0.0) * q;
    (q + dq * 0.5).normalize()
}

/// Largest distance (m) of a body shape's surface from its centre.
#[inline]
fn extent(shape: &crate::bodies::Shape) -> f32 {
    use crate::bodies::Shape;
    match *shape {
        Shape::Sphere { radius } => radius,
        Shape::Capsule { radius, half_length } => radius + half_length,
        Shape::Box { half } => half.length(),
    }
}

/// Parameter of `p` projected on the segment `a`–`b`, in [0, 1].
#[inline]
fn param(a: Vec3, b: Vec3, p: Vec3) -> f32 {
    let d = b - a;
    let l2 = d.length_squared();
    if l2 > 1e-12 {
        ((p - a).dot(d) / l2).clamp(0.0, 1.0)
    } else {
        0.5
    }
}

impl RopeBodyContacts {
    /// The candidate (segment, body) pairs of this step.
    pub fn pairs(&self) -> &[[u32; 2]] {
        &self.pairs
    }

    /// Total normal force (N) the ropes pressed on bodies with in the last substep.
    pub fn normal_force(&self) -> f32 {
        self.normal_force
    }

    /// The impulse solver's rope–body rows of the last substep (key, the normal and two
    /// tangent rows' impulses), which the next warm starts from (`scene::state`).
    pub(crate) fn warm_state(&self) -> Vec<(u64, [f32; 3])> {
        self.rows.iter().map(|r| (r.key, r.accum)).collect()
    }

    /// Puts [`RopeBodyContacts::warm_state`]'s values back (in key order, as taken).
    pub(crate) fn set_warm_state(&mut self, rows: &[(u64, [f32; 3])]) {
        self.rows.clear();
        self.rows.extend(rows.iter().map(|&(key, accum)| SegRows { key, accum, ..Default::default() }));
    }

    pub(crate) fn clear(&mut self) {
        self.pairs.clear();
        self.rows.clear();
        self.old_rows.clear();
        self.states.clear();
    }

    // -------------------------------------------------------------------------------
    // Position-based solvers
    // -------------------------------------------------------------------------------

    /// Before the bodies move in a substep: keep their poses (the friction's slip is
    /// measured from them) and restart the multipliers.
    pub fn begin_substep(&mut self, bodies: &Bodies) {
        if self.pairs.is_empty() {
            return;
        }
        self.start_pos.clear();
        self.start_pos.extend_from_slice(&bodies.pos);
        self.start_rot.clear();
        self.start_rot.extend_from_slice(&bodies.rot);
        self.states.clear();
        self.states.resize(self.pairs.len(), [ContactState::default(); 2]);
        self.normal_force = 0.0;
    }

    /// One projection pass over every pair (see the module docs): particles in `pos`
    /// (substep start `prev`, inverse masses `w`), bodies moved and their velocities
    /// updated by Δx/h. A particle attached to a body (a proxy, `bodies::attach`) moves
    /// with its body's point: otherwise the proxies' transfer would read the body's turn
    /// as the proxy pulling it back, a brake growing with the substep count.
    #[allow(clippy::too_many_arguments)]
    pub fn project(
        &mut self,
        pos: &mut [Vec3],
        prev: &[Vec3],
        w: &[f32],
        ropes: &Ropes,
        bodies: &mut Bodies,
        attach: &[Attachment],
        friction: RopeFriction,
        h: f32,
    ) {
        if self.pairs.is_empty() || self.states.len() != self.pairs.len() || self.start_pos.len() != bodies.len() {
            return;
        }
        if !attach.is_empty() {
            self.pass_pos.clear();
            self.pass_pos.extend_from_slice(&bodies.pos);
            self.pass_rot.clear();
            self.pass_rot.extend_from_slice(&bodies.rot);
        }
        self.project_pass(pos, prev, w, ropes, bodies, friction, h);
        for a in attach {
            let (i, Ok(k)) = (a.particle as usize, bodies.index(a.body)) else { continue };
            if i < pos.len() && k < self.pass_pos.len() {
                let was = self.pass_pos[k] + self.pass_rot[k] * a.local;
                pos[i] += bodies.world_point(k, a.local) - was;
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn project_pass(
        &mut self,
        pos: &mut [Vec3],
        prev: &[Vec3],
        w: &[f32],
        ropes: &Ropes,
        bodies: &mut Bodies,
        friction: RopeFriction,
        h: f32,
    ) {
        let inv_h = 1.0 / h;
        let inv_h2 = inv_h * inv_h;
        for (pair, state) in self.pairs.iter().zip(self.states.iter_mut()) {
            let (s, k) = (pair[0] as usize, pair[1] as usize);
            let Some(&[i0, i1]) = ropes.segs.get(s) else { continue };
            let (i0, i1) = (i0 as usize, i1 as usize);
            if i0 >= pos.len() || i1 >= pos.len() || k >= bodies.len() {
                continue;
            }
            let radius = ropes.seg_radius[s];
            let pose = Pose::new(bodies.pos[k], bodies.rot[k]);
            let m = narrow::collide_segment(&bodies.shape[k], &pose, pos[i0], pos[i1], radius, 0.0);
            if m.count == 0 {
                continue;
            }
            let n = m.normal;
            let (mu_s, mu_k) = friction.with(bodies.material[k].friction);
            for (q, st) in m.points().iter().zip(state.iter_mut()) {
                if q.separation >= 0.0 {
                    continue;
                }
                let (inv_m, inv_i) = body_inv(bodies, k);
                let (x0, x1) = (pos[i0], pos[i1]);
                let t = param(x0, x1, q.point);
                let wt = [(1.0 - t), t];
                let (wa, wb) = (w[i0] * wt[0], w[i1] * wt[1]);
                let ws = w[i0] * wt[0] * wt[0] + w[i1] * wt[1] * wt[1];
                // The lever to the rope's axis point (r × n is the same for any point on
                // the normal; for friction this makes "no slip" the rope's centre line
                // moving with the body, as a rope bends about its centre line).
                let r = x0.lerp(x1, t) - bodies.pos[k];
                let gen = |a: Vec3| {
                    let ra = r.cross(a);
                    inv_m + ra.dot(inv_i * ra)
                };
                let kn = ws + gen(n);
                if kn <= 0.0 {
                    continue;
                }
                // Normal.
                let dl = (-q.separation / kn).max(-st.lambda_n);
                st.lambda_n += dl;
                pos[i0] += n * (wa * dl);
                pos[i1] += n * (wb * dl);
                let mut impulse = -n * dl;
                // Friction on the corrected positions.
                if st.lambda_n > 0.0 && (mu_s > 0.0 || mu_k > 0.0) {
                    let y = pos[i0].lerp(pos[i1], t);
                    let y0 = prev[i0].lerp(prev[i1], t);
                    let here = bodies.pos[k] + r;
                    let local = bodies.rot[k].inverse() * r;
                    let was = self.start_pos[k] + self.start_rot[k] * local;
                    // The body's point moves with the normal correction applied below too;
                    // the slip is measured before it (Gauss–Seidel: next pass sees it).
                    let d = (y - y0) - (here - was);
                    let dt = d - n * d.dot(n);
                    let len = dt.length();
                    if len > 1e-9 {
                        let e = dt / len;
                        let kt = ws + gen(e);
                        if kt > 0.0 {
                            let full = len / kt;
                            let dlt = if st.lambda_t + full <= mu_s * st.lambda_n {
                                full
                            } else {
                                full.min((mu_k * st.lambda_n - st.lambda_t).max(0.0))
                            };
                            if dlt > 0.0 {
                                st.lambda_t += dlt;
                                pos[i0] -= e * (wa * dlt);
                                pos[i1] -= e * (wb * dlt);
                                impulse += e * dlt;
                            }
                        }
                    }
                }
                if inv_m > 0.0 {
                    let dx = impulse * inv_m;
                    let dth = inv_i * r.cross(impulse);
                    bodies.pos[k] += dx;
                    bodies.rot[k] = turn(bodies.rot[k], dth);
                    bodies.vel[k] += dx * inv_h;
                    bodies.ang_vel[k] += dth * inv_h;
                }
                self.normal_force += dl * inv_h2;
            }
        }
    }

    // -------------------------------------------------------------------------------
    // Impulse solver
    // -------------------------------------------------------------------------------

    /// The substep's rows from the positions now (particles `pos`, solver bodies `sb` with
    /// this substep's velocities; body k is solver body `np + k`).
    #[allow(clippy::too_many_arguments)]
    pub fn build_rows(
        &mut self,
        sb: &SolverBodies,
        pos: &[Vec3],
        ropes: &Ropes,
        bodies: &Bodies,
        np: usize,
        friction: RopeFriction,
        h: f32,
    ) {
        std::mem::swap(&mut self.rows, &mut self.old_rows);
        self.rows.clear();
        if self.pairs.is_empty() {
            return;
        }
        let spring = Tuning::PARTICLES.particle_spring(h);
        let mut old = 0;
        for pair in &self.pairs {
            let (s, k) = (pair[0] as usize, pair[1] as usize);
            let Some(&[i0, i1]) = ropes.segs.get(s) else { continue };
            let (i0u, i1u) = (i0 as usize, i1 as usize);
            let b = np + k;
            if i0u >= np || i1u >= np || k >= bodies.len() || b >= sb.len() {
                continue;
            }
            let radius = ropes.seg_radius[s];
            let (x0, x1) = (pos[i0u], pos[i1u]);
            let closing = sb.v[i0u].length().max(sb.v[i1u].length())
                + sb.v[b].length()
                + sb.w[b].length() * extent(&bodies.shape[k]);
            let margin = SPECULATIVE + closing * h;
            let pose = Pose::new(bodies.pos[k], bodies.rot[k]);
            let m = narrow::collide_segment(&bodies.shape[k], &pose, x0, x1, radius, margin);
            if m.count == 0 {
                continue;
            }
            let n = m.normal;
            let (mu_s, mu_k) = friction.with(bodies.material[k].friction);
            let (t1, t2) = n.any_orthonormal_pair();
            for (j, q) in m.points().iter().enumerate().take(2) {
                let t = param(x0, x1, q.point);
                // The lever to the rope's axis point (see `project`).
                let r = x0.lerp(x1, t) - bodies.pos[k];
                let mut c = SegRows {
                    key: (s as u64) << 32 | (k as u64) << 1 | j as u64,
                    i0,
                    i1,
                    b: b as u32,
                    t,
                    w0: sb.inv_m[i0u],
                    w1: sb.inv_m[i1u],
                    wb: sb.inv_m[b],
                    axis: [n, t1, t2],
                    mu: mu_s,
                    ..Default::default()
                };
                let ws = c.w0 * (1.0 - t) * (1.0 - t) + c.w1 * t * t;
                for a in 0..3 {
                    c.rxa[a] = r.cross(c.axis[a]);
                    c.irxa[a] = sb.inv_i[b] * c.rxa[a];
                    let kk = ws + c.wb + c.rxa[a].dot(c.irxa[a]);
                    c.mass[a] = if kk > 0.0 { 1.0 / kk } else { 0.0 };
                }
                let gap = q.separation;
                c.soft = rule::normal_soft(gap, h, spring);
                // Sliding already: the kinetic coefficient.
                let vrel = sb.v[i0u] * (1.0 - t) + sb.v[i1u] * t - sb.v[b] - sb.w[b].cross(r);
                if (vrel - n * vrel.dot(n)).length_squared() > 1e-6 {
                    c.mu = mu_k;
                }
                while old < self.old_rows.len() && self.old_rows[old].key < c.key {
                    old += 1;
                }
                if let Some(o) = self.old_rows.get(old).filter(|o| o.key == c.key) {
                    c.accum = o.accum;
                }
                self.rows.push(c);
            }
        }
    }

    /// Warm start (or zero) the rows' impulses.
    pub fn warm_start(&mut self, sb: &mut SolverBodies, warm: bool) {
        for c in self.rows.iter_mut() {
            if warm {
                for k in 0..3 {
                    if c.accum[k] != 0.0 {
                        c.apply(k, &mut sb.v, &mut sb.w, c.accum[k]);
                    }
                }
            } else {
                c.accum = [0.0; 3];
            }
        }
    }

    /// One sweep over the rows.
    #[inline]
    pub fn sweep(&mut self, sb: &mut SolverBodies, phase: Phase) {
        for c in self.rows.iter_mut() {
            c.solve(&mut sb.v, &mut sb.w, phase);
        }
    }

    /// After the substep's solve: the normal force report (N).
    pub fn finish_rows(&mut self, h: f32) {
        self.normal_force = self.rows.iter().map(|c| c.accum[0]).sum::<f32>() / h;
    }
}
