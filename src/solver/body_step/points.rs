//! Ball-sockets between two bodies of isotropic inertia (spheres, cubes, the ground), solved
//! from the bodies' poses, as Box2D v3 solves its joints, instead of from rows rebuilt at
//! every substep.
//!
//! The constraint is the ball-socket's (`joints::ball_socket`): the anchors p_A = x_A + r_A
//! and p_B = x_B + r_B coincide, r = q·r_local. Its three rows along the world axes, solved as
//! one block, are
//!
//! ```text
//! Ċ = v_B + ω_B × r_B − v_A − ω_A × r_A
//! K = (w_A + w_B) 1 + [r_A]ₓᵀ I_A⁻¹ [r_A]ₓ + [r_B]ₓᵀ I_B⁻¹ [r_B]ₓ
//!   = (w_A + w_B + s_A |r_A|² + s_B |r_B|²) 1 − s_A r_A r_Aᵀ − s_B r_B r_Bᵀ    (I⁻¹ = s·1)
//! Δλ = −s_mass K⁻¹ (Ċ + b) − s_impulse λ
//! v_A −= w_A Δλ,  ω_A −= s_A r_A × Δλ,  v_B += w_B Δλ,  ω_B += s_B r_B × Δλ
//! ```
//!
//! with the soft step's factors of `joints::row` (the biased solve: b = bias rate · C with C
//! = p_B − p_A shortened to the rigid rows' largest correction, `Setup::point_error`, and each
//! component clamped as `Setup::equality` clamps it; relax: rigid, no bias).
//!
//! **Why a lane of its own.** Built as rows, each joint's three 168-byte rows were filled
//! from the poses at every substep (for relax, after the positions move): 786 instructions a
//! build against 224 a solve, half of W4's step (docs/benchmarks.md, "W4's instructions
//! against Box2D's"). Here a joint is a 128-byte record chosen once a step. Its levers (and
//! the biased solve's bias) are taken from the orientations at the substep's start and again
//! after the positions move, so relax acts where the body *is*, as the rebuilt rows did
//! (`rows` module docs); K⁻¹ is applied through a 2×2 system (`PointJoint::solve_k`), a few
//! products for isotropic bodies. The same with a general inverse inertia would cost two 3×3
//! products per side a solve; those joints stay rows.
//!
//! **Order.** The sweeps run the joints colour by colour (`PointLane::colour`), as Box2D's
//! constraint graph orders them: consecutive joints share no moving body, so their solves
//! overlap in the processor instead of each waiting on the last one's writes.
//!
//! **Conditioning.** uᵀK u = d − s_A (r_A·u)² − s_B (r_B·u)² for a unit u, so K's eigenvalues
//! lie between w_A + w_B and d = w_A + w_B + s_A|r_A|² + s_B|r_B|² whatever the orientations,
//! and its condition number is at most d/(w_A + w_B), fixed for the step. A joint takes the
//! lane only when that bound is at most [`MAX_CONDITION`]; a longer lever stays a row block,
//! which goes to f64 where it must.
//!
//! The joints' impulses stay in their rows' `accum` between steps (warm starting by joint
//! id, export and reload): the lane reads them when it is chosen and writes them back after
//! each substep. The rows themselves are marked [`row::LANE_POINT`] and stepped over.

use glam::{Quat, Vec3, Vec3A};

use crate::joints::row::{self, Phase, Row, SolverBodies, Spring};

/// The largest d/(w_A + w_B), the bound on K's condition number, a joint of the lane may
/// have (module docs): `solve_k`'s relative error is about ε_f32 times it, 6e-4 here, which
/// the next sweep corrects as it corrects any unconverged impulse. A 0.1 m, 1 kg sphere on a
/// 0.5 m lever to the world has 63.5; W4's joints 8.8 between two spheres and 16.6 at the
/// static end; a 1 kg box 1 m across held 100 m from its centre 6e4 (those stay row blocks,
/// which go to f64 where they must).
const MAX_CONDITION: f32 = 1e4;

/// One ball-socket of the lane.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PointJoint {
    /// Solver bodies (the ground is the last).
    a: u32,
    b: u32,
    /// The anchors in the bodies' frames (for the ground: the world point).
    la: Vec3,
    lb: Vec3,
    /// Inverse masses and the inverse inertias' scalars.
    wa: f32,
    wb: f32,
    sa: f32,
    sb: f32,
    /// s_A |r_A|², s_B |r_B|² and 1/d, d = w_A + w_B + both (`solve_k`).
    a2: f32,
    b2: f32,
    inv_d: f32,
    /// Accumulated impulse, one component per world axis (the rows' λ).
    accum: Vec3,
    /// The levers r_A, r_B at the poses of this phase of the substep, and the biased solve's
    /// bias b (zero in relax): `levers`.
    ra: Vec3A,
    rb: Vec3A,
    bias: Vec3A,
    /// The joint's first row.
    row: u32,
}

/// The lane: this step's joints and the biased solve's factors.
#[derive(Clone, Debug, Default)]
pub(crate) struct PointLane {
    pub(crate) joints: Vec<PointJoint>,
    /// Scratch of [`PointLane::colour`]: per solver body, the colours its joints took; the
    /// joints in colour order.
    used: Vec<u64>,
    colours: Vec<u8>,
    sorted: Vec<PointJoint>,
    /// The rigid rows' spring this step (`Spring::joint(h)`): bias rate, mass and impulse
    /// scales; and the cap on their correction speed (`setup::JOINT_MAX_CORRECTION`).
    rigid: [f32; 3],
    max_correction: f32,
}

/// The bodies' poses a solve reads: positions and orientations by body, the solver index
/// of the first body (after the particles) and the ground's.
#[derive(Clone, Copy)]
pub(crate) struct Poses<'a> {
    pub pos: &'a [Vec3],
    pub rot: &'a [Quat],
    pub first: u32,
    pub ground: u32,
}

impl Poses<'_> {
    #[inline(always)]
    fn of(&self, i: u32) -> (Vec3A, Quat) {
        match (i != self.ground).then(|| (i - self.first) as usize) {
            Some(k) => (self.pos[k].into(), self.rot[k]),
            None => (Vec3A::ZERO, Quat::IDENTITY),
        }
    }
}

impl PointLane {
    /// Starts a step's choice of joints.
    pub(crate) fn begin(&mut self, rigid: Spring, max_correction: f32) {
        self.joints.clear();
        self.rigid = [rigid.bias_rate, rigid.mass_scale, rigid.impulse_scale];
        self.max_correction = max_correction;
    }

    /// Takes the ball-socket between solver bodies `a` ≠ `b` with anchors `la`, `lb` (in the
    /// bodies' frames) whose rows are `rows`, if both inverse inertias are isotropic and K's
    /// conditioning bound clears (module docs); then marks the rows [`row::LANE_POINT`].
    pub(crate) fn take(
        &mut self,
        sb: &SolverBodies,
        a: u32,
        b: u32,
        (la, lb): (Vec3, Vec3),
        rows: &mut [Row],
        row: u32,
    ) -> bool {
        let (ai, bi) = (a as usize, b as usize);
        let (Some(sa), Some(sb_), [r0, r1, r2]) = (row::isotropic(&sb.inv_i[ai]), row::isotropic(&sb.inv_i[bi]), rows)
        else {
            return false;
        };
        let (wa, wb) = (sb.inv_m[ai], sb.inv_m[bi]);
        let (a2, b2) = (sa * la.length_squared(), sb_ * lb.length_squared());
        let d = wa + wb + a2 + b2;
        let floor = wa + wb;
        let finite = [wa, wb, sa, sb_, d].iter().all(|x| x.is_finite());
        // (w² normal: `solve_k`'s determinant is at least w², and its reciprocal finite.)
        if a == b || !finite || !(floor > 0.0 && (floor * floor).is_normal()) || floor * MAX_CONDITION < d {
            return false;
        }
        let accum = Vec3::new(r0.accum, r1.accum, r2.accum);
        r0.block = row::LANE_POINT;
        let inv_d = 1.0 / d;
        let z = Vec3A::ZERO;
        self.joints.push(PointJoint {
            a,
            b,
            la,
            lb,
            wa,
            wb,
            sa,
            sb: sb_,
            a2,
            b2,
            inv_d,
            accum,
            row,
            ra: z,
            rb: z,
            bias: z,
        });
        true
    }

    /// Every joint's accumulated impulse to zero (no warm starting).
    pub(crate) fn zero(&mut self) {
        self.joints.iter_mut().for_each(|j| j.accum = Vec3::ZERO);
    }

    /// Puts the joints in colour order, as Box2D orders its constraints (`constraint_graph.c`):
    /// each joint takes the lowest of 64 colours that no joint of either of its moving bodies
    /// took before it (an immovable end, w = s = 0, takes none: a solve leaves its velocity
    /// as it is, v − 0·Δλ), and the sweeps run colour by colour, the overflow last.
    /// Consecutive joints of one colour share no moving body, so the processor overlaps their
    /// solves instead of waiting on each one's writes: a chain's joints alternate colours (the
    /// even joints, then the odd ones). Within a colour the order is the joints' own.
    /// `bodies` is the number of solver bodies.
    pub(crate) fn colour(&mut self, bodies: usize) {
        const OVERFLOW: usize = 64;
        if self.joints.is_empty() {
            return;
        }
        // (Zero where it grows; the joints' own entries are zeroed again below, so a step
        // costs the lane's joints, not every solver body, particles included.)
        if self.used.len() < bodies {
            self.used.resize(bodies, 0);
        }
        self.colours.clear();
        // (Counting sort: joints per colour, then each colour's first slot.)
        let mut start = [0u32; OVERFLOW + 2];
        for j in &self.joints {
            let moves = |w: f32, s: f32| w != 0.0 || s != 0.0;
            let (ma, mb) = (moves(j.wa, j.sa), moves(j.wb, j.sb));
            let mut taken = 0u64;
            if ma {
                taken |= self.used[j.a as usize];
            }
            if mb {
                taken |= self.used[j.b as usize];
            }
            let c = (!taken).trailing_zeros() as usize;
            if c < OVERFLOW {
                if ma {
                    self.used[j.a as usize] |= 1 << c;
                }
                if mb {
                    self.used[j.b as usize] |= 1 << c;
                }
            }
            self.colours.push(c as u8);
            start[c + 1] += 1;
        }
        for c in 0..=OVERFLOW {
            start[c + 1] += start[c];
        }
        self.sorted.clear();
        self.sorted.resize(self.joints.len(), PointJoint::default());
        for (j, &c) in self.joints.iter().zip(&self.colours) {
            self.sorted[start[c as usize] as usize] = *j;
            start[c as usize] += 1;
            self.used[j.a as usize] = 0;
            self.used[j.b as usize] = 0;
        }
        std::mem::swap(&mut self.joints, &mut self.sorted);
    }

    /// Every joint's levers from the bodies' poses now, and for the biased solve its bias:
    /// at a substep's start (`Phase::Solve`: the poses the warm start and the biased sweeps
    /// act at) and after the positions move (`Phase::Relax`: relax acts where the bodies are).
    pub(crate) fn levers(&mut self, poses: Poses, phase: Phase) {
        let ([rate, ..], cap) = (self.rigid, self.max_correction);
        for j in self.joints.iter_mut() {
            let ((xa, qa), (xb, qb)) = (poses.of(j.a), poses.of(j.b));
            (j.ra, j.rb) = (qa * Vec3A::from(j.la), qb * Vec3A::from(j.lb));
            j.bias = match phase {
                Phase::Solve => {
                    // `Setup::point_error`, then `Setup::equality`'s clamp of each component.
                    let mut c = (xb + j.rb) - (xa + j.ra);
                    let v = rate * c.length();
                    if v > cap {
                        c *= cap / v;
                    }
                    (c * rate).clamp(Vec3A::splat(-cap), Vec3A::splat(cap))
                }
                Phase::Relax => Vec3A::ZERO,
            };
        }
    }

    /// Re-applies every joint's accumulated impulse (warm starting), at the levers of
    /// [`PointLane::levers`].
    pub(crate) fn warm_start(&self, sb: &mut SolverBodies) {
        for j in &self.joints {
            if j.accum != Vec3::ZERO {
                apply(j, sb, j.accum.into());
            }
        }
    }

    /// One Gauss–Seidel sweep over the lane's joints in `phase`, at the levers and with the
    /// bias of [`PointLane::levers`] for that phase.
    pub(crate) fn sweep(&mut self, sb: &mut SolverBodies, phase: Phase) {
        let (mass_scale, impulse_scale) = match phase {
            Phase::Solve => (self.rigid[1], self.rigid[2]),
            Phase::Relax => (1.0, 0.0),
        };
        for j in self.joints.iter_mut() {
            let (a, b) = (j.a as usize, j.b as usize);
            let cdot = Vec3A::from(sb.v[b]) + Vec3A::from(sb.w[b]).cross(j.rb)
                - Vec3A::from(sb.v[a])
                - Vec3A::from(sb.w[a]).cross(j.ra);
            let accum = Vec3A::from(j.accum);
            let delta = -j.solve_k(j.ra, j.rb, cdot + j.bias) * mass_scale - accum * impulse_scale;
            j.accum = (accum + delta).into();
            apply(j, sb, delta);
        }
    }

    /// The joints' impulses into their rows (`accum`), where the warm start by joint id,
    /// the reaction forces and an export read them.
    pub(crate) fn store(&self, rows: &mut [Row]) {
        for j in &self.joints {
            if let Some([r0, r1, r2]) = rows.get_mut(j.row as usize..j.row as usize + 3) {
                (r0.accum, r1.accum, r2.accum) = (j.accum.x, j.accum.y, j.accum.z);
            }
        }
    }
}

impl PointJoint {
    /// K⁻¹ y for K = d 1 − s_A r_A r_Aᵀ − s_B r_B r_Bᵀ, d = w + A + B (w = w_A + w_B,
    /// A = s_A|r_A|², B = s_B|r_B|²), without forming K: K x = y gives
    /// x = (y + s_A α r_A + s_B β r_B)/d with α = r_A·x, β = r_B·x, and dotting that with r_A
    /// and r_B leaves the 2×2 system
    ///
    /// ```text
    /// (w + B) α − s_B c β = r_A·y,   −s_A c α + (w + A) β = r_B·y,   c = r_A·r_B
    /// det = (w + B)(w + A) − s_A s_B c² = w² + w (A + B) + s_A s_B |r_A × r_B|²
    /// ```
    ///
    /// whose determinant, written as that sum of terms that are never negative, is computed
    /// without cancellation (and is at least w², a normal number: `take`). A and B are the step's
    /// constants s|r_local|² (a rotation keeps a lever's length).
    #[inline(always)]
    fn solve_k(&self, ra: Vec3A, rb: Vec3A, y: Vec3A) -> Vec3A {
        let (w, a, b) = (self.wa + self.wb, self.a2, self.b2);
        let c = ra.dot(rb);
        let det = w * w + w * (a + b) + self.sa * self.sb * ra.cross(rb).length_squared();
        let (ya, yb) = (ra.dot(y), rb.dot(y));
        let inv = 1.0 / det;
        let alpha = ((w + a) * ya + self.sb * c * yb) * inv;
        let beta = ((w + b) * yb + self.sa * c * ya) * inv;
        (y + ra * (self.sa * alpha) + rb * (self.sb * beta)) * self.inv_d
    }
}

/// u ← u + M⁻¹Jᵀ λ for impulse `l` (on B; −`l` on A).
#[inline(always)]
fn apply(j: &PointJoint, sb: &mut SolverBodies, l: Vec3A) {
    let (a, b, ra, rb) = (j.a as usize, j.b as usize, j.ra, j.rb);
    sb.v[a] = (Vec3A::from(sb.v[a]) - l * j.wa).into();
    sb.w[a] = (Vec3A::from(sb.w[a]) - ra.cross(l) * j.sa).into();
    sb.v[b] = (Vec3A::from(sb.v[b]) + l * j.wb).into();
    sb.w[b] = (Vec3A::from(sb.w[b]) + rb.cross(l) * j.sb).into();
}
