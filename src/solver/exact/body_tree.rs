//! The exact solver's body joints: ball-socket joints that form a tree (or forest) of rigid
//! bodies, solved directly in linear time per Newton pass — Baraff 1996, "Linear-Time
//! Dynamics using Lagrange Multipliers", on the joint/body tree with 3×3 blocks, in the
//! position-based form the particle forest uses (`mod.rs`).
//!
//! ## The system
//! Each substep the bodies are integrated (v ← v + h g, x̃ = x + h v, q̃ = q + ½ h (ω,0) q)
//! and then projected so that every tree joint's anchors coincide. A ball-socket joint j
//! joins a *parent* body P and a *child* body c (roles from the tree, not from the joint's
//! A and B) with levers r_P = R_P l_P and r_c = R_c l_c:
//!
//! ```text
//! C_j = (x_c + r_c) − (x_P + r_P)                          (3 rows)
//! ΔC_j = E(r_c) Δq_c − E(r_P) Δq_P,   E(r) = [1, −[r]ₓ],   Δq = (Δx, Δθ)
//! ```
//!
//! The step solves XPBD's system for rigid joints, M(q − q̃) = J(q)ᵀλ, C(q) = 0 (λ the
//! position-level multipliers, N·s²). One Newton pass linearises it at the current poses,
//! with W̃ = (M + K)⁻¹ per body (K the geometric stiffness below) and the residual
//! ρ = M(q − q̃) − Jᵀλ:
//!
//! ```text
//! (J W̃ Jᵀ) Δλ = −C + J W̃ ρ,      Δq_b = W̃_b (Σ_j u_{j,b} Δλ_j − ρ_b),
//! u_{j,c} = E(r_c)ᵀ = [1; [r_c]ₓ],   u_{j,P} = −E(r_P)ᵀ
//! ```
//!
//! and applies Δx, and Δθ as q ← normalise(q + ½ (Δθ,0) q). The pose moves by Δq and the
//! velocities by Δq/h, so v = (x − x_prev)/h holds of the result.
//!
//! ## Geometric stiffness (why a pass is a Newton step, not Gauss–Newton)
//! XPBD and the particle forest drop the second derivative of C, Σ λ_j ∇²C_j (Gauss–
//! Newton). For bodies that is ruinous: through a rotation R(θ) the anchor term λ·(R l) has
//! the Hessian H = ½(λ rᵀ + r λᵀ) − (λ·r) 1 (signed as the body's end: + child, − parent),
//! which under tension along the lever is |λ||r| (n nᵀ − 1), a stiffness against turning
//! of |λ||r| across the lever. In W4 that is 0.27 N·s² × 0.1 m = 0.027 kg·m² near the pin
//! against the sphere's own I = 6.4e-4 kg·m²: Gauss–Newton sees the spheres turn 40 times
//! too easily, spends each correction on rotations that the next pass must undo, and
//! needs 4–10 passes a step (with a cap of 4 the chain came apart; a 1000:1 chain did at
//! one pass per substep). So each pass takes K_b = k_b 1 with
//! k_b = Σ_j max(0, σ_j λ_j·r_j) (the tension part of H only — a compressed lever would
//! soften the body, and W̃ must stay positive definite — and isotropic: exact across a
//! single lever, whose own axis is in E(r)'s null space), from this substep's λ so far or,
//! in its first pass, the last substep's. K is only the metric of the step: the residual
//! ρ keeps the fixed point at XPBD's (C = 0, M(q − q̃) = Jᵀλ) whatever K is. ρ's linear
//! part stays 0 (x − x̃ = m⁻¹ Σ u λ exactly), its angular part is I_w Θ − Σ_j σ_j r_j × λ_j
//! (Θ the rotation applied so far this substep). With it W4 converges in one solve per
//! step (2.07 passes counting the pass that finds it converged), the 1000:1 chain too.
//! Bodies with an anisotropic inertia keep K = 0 (a 3×3 inverse per body per pass would
//! be needed) but get ρ: a true Newton step without the stiffness.
//!
//! ## Elimination on the tree (no fill-in)
//! A = J W̃ Jᵀ (W̃ written W below) couples two joints only through a body they share: A_jk = u_{j,b}ᵀ W_b u_{k,b}
//! (3×3). The joints at a body of degree d form a d-clique, but the clique is a rank-6
//! form through W_b, exactly like the particle forest's rank-3 G_p. Eliminating joints
//! leaves first (reverse breadth-first order of the tree), with per body an effective
//! inverse mass G_b (6×6, starting at W_b) and an eliminated right-hand side e_b (6-vector,
//! starting at 0), and b_j starting at Newton's −C_j + u_{j,c}ᵀ z_c + u_{j,P}ᵀ z_P (z_b = W_b ρ_b):
//!
//! ```text
//! for joints j = (P, c) leaves first:
//!     v_j = G_P u_{j,P}                         (6×3: coupling to P's other joints; G_P so far)
//!     D_j = u_{j,c}ᵀ G_c u_{j,c} + u_{j,P}ᵀ v_j (3×3; G_c final: c's children are done)
//!     b_j −= u_{j,c}ᵀ e_c + u_{j,P}ᵀ e_P
//!     y_j = D_j⁻¹ b_j
//!     G_P −= v_j D_j⁻¹ v_jᵀ,   e_P += v_j y_j
//! back-substitution, roots first, s_b = 0:
//!     Δλ_j = y_j − D_j⁻¹ v_jᵀ s_P,   s_P += u_{j,P} Δλ_j,   s_c += u_{j,c} Δλ_j
//! finally Δq_b = W_b s_b − z_b
//! ```
//!
//! G_b is never formed: u_{j,c}ᵀ G_c u_{j,c} = K_c(r_c, r_c) − Σ_i L_i D_i⁻¹ L_iᵀ over c's
//! child joints i, with L_i = u_{j,c}ᵀ v_i, and v_j = W_P u_{j,P} − Σ_s v_s D_s⁻¹ (v_sᵀ u_{j,P})
//! over P's children s eliminated before j, where
//!
//! ```text
//! K_b(r, s) = E(r) W_b E(s)ᵀ = m⁻¹ 1 − [r]ₓ I_w⁻¹ [s]ₓ,     u_cᵀ (a; w) = a + w × r_c.
//! ```
//!
//! So a body with one child (a chain) costs a few 3×3 products and one 3×3 inverse per
//! joint: the block Thomas algorithm; a body with d children costs O(d²) 3×3 products, as
//! the particle forest's branch points do. D_j is symmetric positive definite while the
//! joint has a movable end (W ⪰ 0 and the downdates keep G ⪰ 0; an end at a body with
//! I⁻¹ = 0 and zero lever still has m⁻¹ 1), so no pivoting is needed; a joint between two
//! immovable ends is not in the tree.
//!
//! ## What is in the tree
//! Rigid (not soft) ball-socket joints with at least one dynamic end, as a breadth-first
//! forest over the dynamic bodies (inverse mass > 0). An immovable end (the world, a
//! static or kinematic body, a body held kinematically) is a leaf of its own — W = 0
//! decouples it, as a locked particle does in the particle forest — so a chain pinned at
//! both ends is a tree. A joint that closes a loop among dynamic bodies, and every other
//! joint (hinges, soft joints, limits, motors, ...) and the 2D locks, stay rows (the
//! bodies' step, `body_step::solve_bodies`): the rows run first (velocity level, in
//! sub-substeps of ≤ 1/240 s as under the other solvers), then the tree is projected
//! (`project`) on the poses they leave, in each sub-substep. When the tree is everything
//! (no rows left), a substep is one integration and one projection, with no sub-substeps.
//!
//! ## Convergence
//! Passes repeat up to `iterations` times and stop once every tree joint's |C| is below
//! `TOLERANCE` × (|l_P| + |l_c|) (relative to the joint's span, as links are to their rest
//! length; at least 1e-6 m), or within the f32 spacing of the coordinates. The check is made
//! by the sweep that measures the joints before eliminating, so a converged forest costs
//! that sweep.
//!
//! ## Where the paper and the seed are loose
//! Baraff writes the velocity-level KKT system over a tree whose nodes are bodies *and*
//! joints and eliminates it with 6×6 body blocks; here the same elimination is written in
//! joint space with the body blocks folded into the 3×3 couplings (no 6×6 inverse, and the
//! chain case collapses to block Thomas). He also handles loops with an outer iteration on
//! the loop multipliers; we leave loops to the rows instead. The geometric stiffness is in
//! neither Baraff nor the seed (it is Tournier, Nesme, Gilles and Faure 2015, "Stable
//! Constrained Dynamics", for velocity-level steps); its isotropic, tension-only form here
//! is our choice, and only the step's metric: ρ makes the result independent of it. Applying a position-level
//! Newton step to a rotation through q + ½ Δθ q is first order in Δθ; the next pass (or
//! substep) corrects the rest.

use super::graph::Graph;
use glam::{Mat3A, Vec3, Vec3A};

use super::TOLERANCE;
use crate::bodies::{Bodies, BodyKind};
use crate::joints::{JointKind, Joints};
use crate::solver::topology::NONE;
use crate::solver::StepContext;

/// One tree joint, in breadth-first order: parent body P (dense index), child body c (dense
/// index, or `NONE` for the world), levers in their bodies' frames.
#[derive(Clone, Copy, Debug)]
struct Slot {
    joint: u32,
    parent: u32,
    child: u32,
    /// The child end moves (else it is an immovable leaf: W = 0).
    child_moves: bool,
    /// The joint's B is the child (C = p_B − p_A), else its A.
    child_is_b: bool,
    l_parent: Vec3A,
    l_child: Vec3A,
    /// This is P's only child joint (then v_j = W_P u_{j,P} is used in closed form).
    parent_single: bool,
    /// |C| below this is converged (m).
    tol: f32,
    /// Slots of P's children: `sib_start..sib_end` (this one among them).
    sib_end: u32,
    /// Slots of c's children.
    kids_start: u32,
    kids_end: u32,
}

/// Per-slot results of the elimination.
#[derive(Clone, Copy, Debug)]
struct Work {
    r_c: Vec3A,
    r_p: Vec3A,
    /// C at the start of this pass.
    c: Vec3A,
    dinv: Mat3A,
    y: Vec3A,
    /// Σ Δλ over this substep's passes.
    lambda: Vec3A,
    /// v_j (6×3) as its linear and angular halves (only where P has several children).
    vt: Mat3A,
    vb: Mat3A,
}

impl Default for Work {
    fn default() -> Self {
        Work {
            r_c: Vec3A::ZERO,
            r_p: Vec3A::ZERO,
            c: Vec3A::ZERO,
            dinv: Mat3A::ZERO,
            y: Vec3A::ZERO,
            lambda: Vec3A::ZERO,
            vt: Mat3A::ZERO,
            vb: Mat3A::ZERO,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Key {
    joints: u64,
    bodies: u64,
    n_joints: usize,
    n_bodies: usize,
}

/// The body forest (kept until joints or bodies change) and its work arrays.
#[derive(Clone, Debug, Default)]
pub struct BodyTree {
    key: Option<Key>,
    /// Per joint: solved here (its impulse rows are left empty).
    pub(crate) direct: Vec<bool>,
    /// Every joint is in the tree and no body is planar-locked: no rows at all.
    pub(crate) pure: bool,
    slots: Vec<Slot>,
    work: Vec<Work>,
    /// Per body: W (inverse mass, world inverse inertia), the back-substitution sums s,
    /// and the pose before the projection.
    inv_m: Vec<f32>,
    inv_i: Vec<Mat3A>,
    /// i where I_w⁻¹ = i 1 (isotropic), 0 where immovable, else −1 (and listed in `aniso`).
    iso: Vec<f32>,
    aniso: Vec<u32>,
    /// 1/i for the isotropic ones (kg·m²).
    inertia: Vec<f32>,
    s_lin: Vec<Vec3A>,
    s_ang: Vec<Vec3A>,
    /// Geometric stiffness (see `pass`): per body this substep's rotation so far Θ, the
    /// multipliers' torque τ and stiffness k (gathered each pass), the effective
    /// isotropic inverse inertia (I + k)⁻¹ (−1: anisotropic, I_w⁻¹ and no k) and z = W̃ ρ.
    theta: Vec<Vec3A>,
    tau: Vec<Vec3A>,
    kgeo: Vec<f32>,
    ieff: Vec<f32>,
    z: Vec<Vec3A>,
    /// The last substep's length (s), for the reaction forces.
    h: f32,
    /// Multipliers per slot from a loaded export, put into `work` when the forest is built.
    pending: Vec<[f32; 3]>,
    /// Passes run since the counter was reset (tests, tuning).
    pub passes: u64,
}

impl BodyTree {
    /// Whether any joint is solved here.
    pub fn active(&self) -> bool {
        !self.slots.is_empty()
    }

    /// What the next step carries over: each direct joint's multiplier of the last
    /// substep (the first pass of the next one reads it for the geometric stiffness), in
    /// slot order; empty when the next step builds the forest anew (and starts from zero).
    pub fn warm_state(&self, joints: &Joints, bodies: &Bodies) -> Vec<[f32; 3]> {
        if self.key != Some(Self::key(joints, bodies)) {
            return Vec::new();
        }
        self.work.iter().map(|w| w.lambda.to_array()).collect()
    }

    /// Puts [`BodyTree::warm_state`]'s values into a fresh forest: the next build takes
    /// them when it lays out as many slots (otherwise it starts from zero).
    pub fn set_warm_state(&mut self, lambda: Vec<[f32; 3]>) {
        self.pending = lambda;
    }

    fn key(joints: &Joints, bodies: &Bodies) -> Key {
        Key { joints: joints.version, bodies: bodies.version, n_joints: joints.len(), n_bodies: bodies.len() }
    }

    /// Brings the forest up to date with the joints and bodies (rebuilds, and may allocate,
    /// only when either changed).
    pub fn refresh(&mut self, joints: &mut Joints, bodies: &Bodies) {
        let key = Self::key(joints, bodies);
        if self.key == Some(key) {
            return;
        }
        self.key = Some(key);
        let nb = bodies.len();
        let nj = joints.len();
        self.direct.clear();
        self.direct.resize(nj, false);
        self.slots.clear();
        let moves = |b: usize| bodies.inv_mass[b] > 0.0;
        let index = |id: Option<crate::ids::Id>| -> Option<u32> {
            match id {
                None => Some(NONE),
                Some(id) => bodies.index(id).ok().map(|i| i as u32),
            }
        };
        // Candidate joints per dynamic body (CSR).
        let mut ends: Vec<(u32, u32)> = vec![(NONE, NONE); nj];
        let mut candidate = vec![false; nj];
        let mut count = vec![0u32; nb + 1];
        for k in 0..nj {
            if joints.kind[k] != JointKind::BallSocket || joints.soft[k].is_some() {
                continue;
            }
            let (Some(a), Some(b)) = (index(joints.a[k]), index(joints.b[k])) else { continue };
            let ma = a != NONE && moves(a as usize);
            let mb = b != NONE && moves(b as usize);
            if !(ma || mb) || a == b {
                continue;
            }
            ends[k] = (a, b);
            candidate[k] = true;
            for (e, m) in [(a, ma), (b, mb)] {
                if m {
                    count[e as usize] += 1;
                }
            }
        }
        let mut start = vec![0u32; nb + 1];
        for b in 0..nb {
            start[b + 1] = start[b] + count[b];
        }
        let mut fill = start.clone();
        let mut adj = vec![0u32; start[nb] as usize];
        for k in 0..nj {
            if !candidate[k] {
                continue;
            }
            let (a, b) = ends[k];
            for e in [a, b] {
                if e != NONE && moves(e as usize) {
                    adj[fill[e as usize] as usize] = k as u32;
                    fill[e as usize] += 1;
                }
            }
        }
        // Breadth-first forest over the dynamic bodies, each tree rooted at its centre (the
        // middle of a longest path, found by two breadth-first searches): then the arms below
        // the root are eliminated interleaved (breadth-first order alternates between them),
        // independent recurrences the processor overlaps, and a chain's elimination takes
        // about half as long as from one end.
        let mut queue = Vec::with_capacity(nb);
        let mut from = vec![NONE; nb];
        let mut seen = vec![0u32; nb];
        let mut in_tree = vec![false; nb];
        let mut centres = Vec::new();
        let graph = Graph { start: &start, adj: &adj, ends: &ends, inv_mass: &bodies.inv_mass };
        for (first, generation) in (0..nb).zip(1u32..) {
            if in_tree[first] || !moves(first) || count[first] == 0 {
                continue;
            }
            let u = graph.farthest(first, 2 * generation, &mut queue, &mut from, &mut seen);
            let v = graph.farthest(u, 2 * generation + 1, &mut queue, &mut from, &mut seen);
            for &q in &queue {
                in_tree[q as usize] = true;
            }
            let mut path = vec![v as u32];
            while from[*path.last().unwrap_or(&(u as u32)) as usize] != NONE {
                let last = path[path.len() - 1] as usize;
                path.push(from[last]);
            }
            centres.push(path[path.len() / 2] as usize);
        }
        let mut visited = vec![false; nb];
        let mut used = vec![false; nj];
        let mut kids = vec![(0u32, 0u32); nb];
        let mut up = vec![NONE; nb];
        for &root in &centres {
            visited[root] = true;
            queue.clear();
            queue.push(root as u32);
            let mut head = 0;
            while head < queue.len() {
                let p = queue[head] as usize;
                head += 1;
                let first = self.slots.len() as u32;
                for &k in &adj[start[p] as usize..start[p + 1] as usize] {
                    let k = k as usize;
                    if used[k] {
                        continue;
                    }
                    used[k] = true;
                    let (a, b) = ends[k];
                    let child_is_b = a as usize == p;
                    let c = if child_is_b { b } else { a };
                    let child_moves = c != NONE && moves(c as usize);
                    if child_moves {
                        if visited[c as usize] {
                            continue; // closes a loop: stays on the rows
                        }
                        visited[c as usize] = true;
                        queue.push(c);
                        up[c as usize] = self.slots.len() as u32;
                    }
                    let f = &joints.frames[k];
                    let (l_parent, l_child) = if child_is_b { (f.local_a, f.local_b) } else { (f.local_b, f.local_a) };
                    let span = (l_parent.length() + l_child.length()).max(1e-6 / TOLERANCE);
                    self.direct[k] = true;
                    // (Its rows are empty from now on: nothing to warm-start them with.)
                    joints.accum[k] = [0.0; crate::joints::MAX_ROWS];
                    self.slots.push(Slot {
                        joint: k as u32,
                        parent: p as u32,
                        child: c,
                        child_moves,
                        child_is_b,
                        l_parent: l_parent.into(),
                        l_child: l_child.into(),
                        parent_single: false,
                        tol: TOLERANCE * span,
                        sib_end: 0,
                        kids_start: 0,
                        kids_end: 0,
                    });
                }
                kids[p] = (first, self.slots.len() as u32);
            }
        }
        for j in 0..self.slots.len() {
            let s = self.slots[j];
            let (k0, k1) = kids[s.parent as usize];
            self.slots[j].sib_end = k1;
            self.slots[j].parent_single = k1 == k0 + 1;
            if s.child_moves {
                (self.slots[j].kids_start, self.slots[j].kids_end) = kids[s.child as usize];
            }
        }
        self.pure = self.direct.iter().all(|&d| d) && !bodies.planar.iter().any(|&p| p);
        self.work.clear();
        self.work.resize(self.slots.len(), Work::default());
        let pending = std::mem::take(&mut self.pending);
        if pending.len() == self.work.len() {
            for (w, l) in self.work.iter_mut().zip(pending) {
                w.lambda = Vec3A::from_array(l);
            }
        }
        self.inv_m.resize(nb, 0.0);
        self.inv_i.resize(nb, Mat3A::ZERO);
        self.iso.resize(nb, -1.0);
        self.aniso.clear();
        self.inertia.resize(nb, 0.0);
        for k in 0..nb {
            // Inverse mass, and i where I⁻¹ = i 1 (0: immovable; −1: anisotropic, I_w⁻¹
            // taken each substep). Masses change only with `bodies.version`.
            let (m, d) = (bodies.inv_mass[k], bodies.inv_inertia[k]);
            self.inv_m[k] = m;
            self.iso[k] = if m <= 0.0 {
                0.0
            } else if d.x == d.y && d.y == d.z {
                self.inertia[k] = 1.0 / d.x;
                d.x
            } else {
                self.aniso.push(k as u32);
                -1.0
            };
        }
        self.s_lin.resize(nb, Vec3A::ZERO);
        self.s_ang.resize(nb, Vec3A::ZERO);
        self.theta.resize(nb, Vec3A::ZERO);
        self.tau.resize(nb, Vec3A::ZERO);
        self.kgeo.resize(nb, 0.0);
        self.ieff.resize(nb, 0.0);
        self.z.resize(nb, Vec3A::ZERO);
    }

    /// Each direct joint's reaction force and torque on B over the last substep (the
    /// rows' `body_step::store_impulses` writes the others).
    pub fn store_forces(&self, joints: &mut Joints) {
        if self.h <= 0.0 {
            return;
        }
        let inv_h2 = 1.0 / (self.h * self.h);
        for (s, w) in self.slots.iter().zip(self.work.iter()) {
            let k = s.joint as usize;
            if k < joints.len() {
                // The impulse on the child is λ/h: on B, ±λ/h² as a force, at B's lever.
                let (sign, r_b) = if s.child_is_b { (1.0, w.r_c) } else { (-1.0, w.r_p) };
                let f = w.lambda * (sign * inv_h2);
                joints.force[k] = f.into();
                joints.torque[k] = r_b.cross(f).into();
            }
        }
    }
}

/// The cross-product matrix [r]ₓ ([r]ₓ v = r × v).
#[inline(always)]
fn skew(r: Vec3A) -> Mat3A {
    Mat3A::from_cols(Vec3A::new(0.0, r.z, -r.y), Vec3A::new(-r.z, 0.0, r.x), Vec3A::new(r.y, -r.x, 0.0))
}

/// The body part of the exact solver's `integrate` stage, after the rows of each
/// (sub-)substep (`body_step::solve_bodies`): the integration when there are no rows
/// (`integrate`), then up to `iterations` Newton passes over the body forest (which move
/// the velocities with the poses), and attached particles put back on their bodies.
pub(crate) fn project(c: &mut StepContext, integrate: bool) {
    let h = c.h;
    let passes = c.settings.iterations.max(1);
    let bt = &mut c.scratch.body_tree;
    bt.h = h;
    let g = c.settings.gravity;
    let b = &mut *c.bodies;
    for k in 0..b.len().min(bt.inv_m.len()) {
        if integrate {
            // With no rows: v ← (v + h g·scale)/(1 + h c_lin), ω ← ω/(1 + h c_ang) (as
            // `body_step::integrate_bodies`), then x ← x + h v, q ← q + ½ h (ω,0) q (as the
            // impulse solver's position integration).
            if b.inv_mass[k] > 0.0 {
                b.vel[k] += g * (b.gravity_scale[k] * h);
                // (x / 1 = x: skipping the divisions without damping changes no bit.)
                if b.linear_damping[k] != 0.0 {
                    b.vel[k] /= 1.0 + h * b.linear_damping[k];
                }
                if b.angular_damping[k] != 0.0 {
                    b.ang_vel[k] /= 1.0 + h * b.angular_damping[k];
                }
            }
            if b.kind[k] != BodyKind::Static && !(b.inv_mass[k] == 0.0 && b.kind[k] == BodyKind::Dynamic) {
                b.pos[k] += b.vel[k] * h;
                b.rot[k] = turn(b.rot[k], b.ang_vel[k] * h);
            }
        }
    }
    // World inverse inertias R I⁻¹ Rᵀ of the anisotropic bodies (the others' is i 1 at any
    // rotation: `iso`, set with the forest), and this substep's rotation so far Θ = 0.
    for &k in &bt.aniso {
        bt.inv_i[k as usize] = Mat3A::from(b.inv_inertia_world(k as usize));
    }
    bt.theta.iter_mut().for_each(|t| *t = Vec3A::ZERO);
    for pass_no in 0..passes {
        bt.passes += 1;
        if !pass(bt, b, pass_no == 0, 1.0 / h) {
            break;
        }
    }
    for a in c.attach.iter() {
        let i = a.particle as usize;
        if let (Ok(k), true) = (b.index(a.body), i < c.particles.len()) {
            c.particles.pos[i] = b.world_point(k, a.local);
        }
    }
}

/// q ← normalise(q + ½ (Δθ,0) q), as `body_step::integrate_rotation` with h = 1, but for
/// small turns (|q'|² = 1 + ε, ε = |Δθ|²/4 < 1e-3: a Newton pass's, and a substep's of
/// ω h < 0.06 rad) normalised by one Newton step on 1/|q'| (q' (3 − |q'|²)/2, error
/// 3ε²/8 < 4e-7) instead of a square root and a division, which were a third of a pass's
/// pose update and a tenth of the step's integration.
#[inline(always)]
fn turn(q: glam::Quat, dth: Vec3) -> glam::Quat {
    let dq = glam::Quat::from_xyzw(dth.x, dth.y, dth.z, 0.0) * q;
    let q = q + dq * 0.5;
    let n2 = q.length_squared();
    if (n2 - 1.0).abs() < 1e-3 {
        q * (1.5 - 0.5 * n2)
    } else {
        q.normalize()
    }
}

/// I_w⁻¹ v for body k.
#[inline(always)]
fn inv_i_mul(iso: &[f32], inv_i: &[Mat3A], k: usize, v: Vec3A) -> Vec3A {
    if iso[k] >= 0.0 {
        v * iso[k]
    } else {
        inv_i[k] * v
    }
}

/// One Newton pass over the forest; false (nothing moved) if it had converged.
///
/// Written for speed (W4's budget is one pass per substep): 3×3 blocks as `Mat3A` (SIMD),
/// and where a body has one child joint (a chain) the coupling v = W_P u_P is not stored
/// but used in closed form, L_i = −K_c(r_c, r_i) on the child side and
/// v_jᵀ s_P = −E(r_P) W_P s_P (minus the motion of P's anchor) in the back-substitution.
fn pass(bt: &mut BodyTree, b: &mut Bodies, first: bool, inv_h: f32) -> bool {
    let BodyTree {
        slots, work, inv_m, inv_i, iso, inertia: inertia_of, s_lin, s_ang, theta, tau, kgeo, ieff, z, ..
    } = bt;
    let (pos, rot) = (&b.pos, &b.rot);
    let n = slots.len().min(work.len());
    let (slots, work) = (&slots[..n], &mut work[..n]);
    let mut converged = true;
    // Measure every joint, and gather per body the multipliers' torque τ and stiffness k.
    for (s, w) in slots.iter().zip(work.iter_mut()) {
        let (p, ci) = (s.parent as usize, s.child as usize);
        // (A joint at a body's centre, as W4's on one side of every joint, needs no rotation.)
        let lever = |q: glam::Quat, l: Vec3A| if l == Vec3A::ZERO { l } else { q.mul_vec3a(l) };
        let r_p = lever(rot[p], s.l_parent);
        let x_p = Vec3A::from(pos[p]);
        let (x_c, r_c) =
            if s.child == NONE { (Vec3A::ZERO, s.l_child) } else { (Vec3A::from(pos[ci]), lever(rot[ci], s.l_child)) };
        let cerr = (x_c + r_c) - (x_p + r_p);
        // Within tolerance, or within a few f32 spacings of the coordinates: tested only
        // while every joint so far passed, and first without the horizontal maxima (every
        // component within tolerance implies it), which cost a tenth of a measuring sweep.
        if converged {
            let a = cerr.abs();
            converged = a.cmple(Vec3A::splat(s.tol)).all() || {
                let floor = 4.0 * f32::EPSILON * x_p.abs().max_element();
                a.max_element() <= s.tol.max(floor)
            };
        }
        (w.r_p, w.r_c, w.c) = (r_p, r_c, cerr);
    }
    if converged {
        return false;
    }
    for (s, w) in slots.iter().zip(work.iter()) {
        let (p, ci) = (s.parent as usize, s.child as usize);
        // λ so far this substep; in its first pass, the last substep's (for k only).
        let lam = w.lambda;
        kgeo[p] += (-lam.dot(w.r_p)).max(0.0);
        if s.child_moves {
            kgeo[ci] += lam.dot(w.r_c).max(0.0);
        }
        if !first {
            tau[p] -= w.r_p.cross(lam);
            if s.child_moves {
                tau[ci] += w.r_c.cross(lam);
            }
        }
    }
    // Per body: W̃ = (M + K)⁻¹ and z = W̃ ρ, ρ = M (q − q̃) − Jᵀλ (angular part only: the
    // linear one stays 0, x − x̃ = m⁻¹ Σ u λ exactly).
    for k in 0..s_lin.len() {
        let (kg, t) = (kgeo[k], tau[k]);
        (kgeo[k], tau[k]) = (0.0, Vec3A::ZERO);
        if iso[k] > 0.0 {
            let inertia = inertia_of[k];
            let ie = 1.0 / (inertia + kg);
            ieff[k] = ie;
            // (In the first pass Θ = τ = 0.)
            z[k] = if first { Vec3A::ZERO } else { (theta[k] * inertia - t) * ie };
        } else if iso[k] == 0.0 {
            (ieff[k], z[k]) = (0.0, Vec3A::ZERO);
        } else {
            (ieff[k], z[k]) = (-1.0, theta[k] - inv_i[k] * t);
        }
    }
    let k = |body: usize, r: Vec3A, s: Vec3A| k_block(inv_m[body], ieff[body], &inv_i[body], r, s);
    // Leaves first: eliminate.
    for j in (0..n).rev() {
        let s = &slots[j];
        let (p, ci) = (s.parent as usize, s.child as usize);
        let (r_p, r_c) = (work[j].r_p, work[j].r_c);
        // b_j = −C_j + u_{j,c}ᵀ z_c + u_{j,P}ᵀ z_P (Newton's right-hand side: J W̃ ρ).
        let mut rhs = -work[j].c;
        if !first {
            // (z = 0 in a substep's first pass: Θ = τ = 0.)
            rhs += r_p.cross(z[p]);
            if s.child_moves {
                rhs += z[ci].cross(r_c);
            }
        }
        // Child side: u_cᵀ G_c u_c = K_c(r_c, r_c) − Σ_i L_i D_i⁻¹ L_iᵀ.
        let mut d = Mat3A::ZERO;
        if s.child_moves {
            let (k0, k1) = (s.kids_start as usize, (s.kids_end as usize).min(n));
            let (m_c, i_c) = (inv_m[ci], ieff[ci]);
            if k1 == k0 + 1 && slots[k0].parent_single && i_c >= 0.0 {
                // One child joint i and I_w⁻¹ = i 1: v_i = W_c u_{i,c}, L_i = −K, with
                // K = K_c(r_c, r_i) = α 1 − i r_i r_cᵀ (α = m⁻¹ + i r_c·r_i), so with
                // u = D_i⁻¹ r_c (D_i⁻¹ symmetric) and q = r_c·u,
                // K D_i⁻¹ Kᵀ = α² D_i⁻¹ − α i (u r_iᵀ + r_i uᵀ) + i² q r_i r_iᵀ, and
                // K_c(r_c, r_c) = β 1 − i r_c r_cᵀ (β = m⁻¹ + i |r_c|²): D column by column.
                let wi = &work[k0];
                let r_i = wi.r_p;
                let u = wi.dinv * r_c;
                let q = r_c.dot(u);
                let alpha = m_c + i_c * r_c.dot(r_i);
                let beta = m_c + i_c * r_c.length_squared();
                let (a2, ai, iq) = (alpha * alpha, alpha * i_c, i_c * i_c * q);
                let col = |e: Vec3A, dk: Vec3A, rc: f32, ri: f32, uk: f32| {
                    e * beta - dk * a2 - r_c * (i_c * rc) + u * (ai * ri) + r_i * (ai * uk - iq * ri)
                };
                let di = &wi.dinv;
                d = Mat3A::from_cols(
                    col(Vec3A::X, di.x_axis, r_c.x, r_i.x, u.x),
                    col(Vec3A::Y, di.y_axis, r_c.y, r_i.y, u.y),
                    col(Vec3A::Z, di.z_axis, r_c.z, r_i.z, u.z),
                );
                rhs += wi.y * alpha - r_i * (i_c * r_c.dot(wi.y));
            } else if k1 == k0 + 1 && slots[k0].parent_single {
                let wi = &work[k0];
                let l = k(ci, r_c, wi.r_p);
                let lt = k(ci, wi.r_p, r_c);
                d = k(ci, r_c, r_c) - l * wi.dinv * lt;
                rhs += l * wi.y;
            } else {
                d = k(ci, r_c, r_c);
                let sc = skew(r_c);
                for wi in &work[k0..k1] {
                    let l = wi.vt - sc * wi.vb;
                    d -= l * wi.dinv * l.transpose();
                    rhs -= l * wi.y;
                }
            }
        }
        // Parent side.
        if s.parent_single {
            d += k(p, r_p, r_p);
        } else {
            // v_j = W_P u_{j,P} − Σ_s v_s D_s⁻¹ (v_sᵀ u_{j,P}) over the siblings eliminated
            // before j (the higher slots among P's children).
            let sp = skew(r_p);
            let mut vt = Mat3A::from_diagonal(Vec3::splat(-inv_m[p]));
            let i_p = if ieff[p] >= 0.0 { Mat3A::from_diagonal(Vec3::splat(ieff[p])) } else { inv_i[p] };
            let mut vb = -(i_p * sp);
            let (w_lo, w_hi) = work.split_at_mut(j + 1);
            let w = &mut w_lo[j];
            for wi in &w_hi[..(s.sib_end as usize).min(n).saturating_sub(j + 1)] {
                let l = sp * wi.vb - wi.vt; // u_{j,P}ᵀ v_s
                let m = wi.dinv * l.transpose();
                vt -= wi.vt * m;
                vb -= wi.vb * m;
                rhs -= l * wi.y;
            }
            d += sp * vb - vt; // u_{j,P}ᵀ v_j
            w.vt = vt;
            w.vb = vb;
        }
        let w = &mut work[j];
        w.dinv = inverse_sym(&d);
        w.y = w.dinv * rhs;
    }
    // Roots first: back-substitute and gather s_b = Σ u Δλ. A body's sum is complete once
    // its parent joint and all its child joints are done: then Δq_b = W_b s_b is applied
    // at once (positions are not read any more in this pass) — P after its last child
    // joint, a leaf after its parent joint. The pose moves by Δq and the velocities by
    // Δq/h (as `body_step::transfer_proxies`): v = (x − x_prev)/h stays true of the result.
    let (pos, rot, vel, ang_vel) = (&mut b.pos, &mut b.rot, &mut b.vel, &mut b.ang_vel);
    macro_rules! apply {
        ($k:expr, $sl:expr, $sa:expr) => {{
            let (k, sl, sa): (usize, Vec3A, Vec3A) = ($k, $sl, $sa);
            // Δq = W̃ (s − ρ) = W̃ s − z.
            let dth = inv_i_mul(ieff, inv_i, k, sa) - z[k];
            theta[k] += dth;
            let (dx, dth) = (Vec3::from(sl * inv_m[k]), Vec3::from(dth));
            pos[k] += dx;
            rot[k] = turn(rot[k], dth);
            vel[k] += dx * inv_h;
            ang_vel[k] += dth * inv_h;
        }};
    }
    for j in 0..n {
        let s = &slots[j];
        let p = s.parent as usize;
        let w = &mut work[j];
        // −v_jᵀ s_P.
        let motion = if s.parent_single {
            s_lin[p] * inv_m[p] + inv_i_mul(ieff, inv_i, p, s_ang[p]).cross(w.r_p)
        } else {
            -(w.vt.transpose() * s_lin[p] + w.vb.transpose() * s_ang[p])
        };
        let dl = w.y + w.dinv * motion;
        w.lambda = if first { dl } else { w.lambda + dl };
        let (sl, sa) = (s_lin[p] - dl, s_ang[p] - w.r_p.cross(dl));
        if j + 1 == s.sib_end as usize {
            apply!(p, sl, sa);
            (s_lin[p], s_ang[p]) = (Vec3A::ZERO, Vec3A::ZERO);
        } else {
            (s_lin[p], s_ang[p]) = (sl, sa);
        }
        if s.child_moves {
            let ci = s.child as usize;
            let (sl, sa) = (s_lin[ci] + dl, s_ang[ci] + w.r_c.cross(dl));
            if s.kids_start == s.kids_end {
                apply!(ci, sl, sa);
                (s_lin[ci], s_ang[ci]) = (Vec3A::ZERO, Vec3A::ZERO);
            } else {
                (s_lin[ci], s_ang[ci]) = (sl, sa);
            }
        }
    }
    true
}

/// K_b(r, s) = E(r) W_b E(s)ᵀ = m⁻¹ 1 − [r]ₓ I_w⁻¹ [s]ₓ; for an isotropic I_w⁻¹ = i 1,
/// (m⁻¹ + i r·s) 1 − i s rᵀ. K(r, s)ᵀ = K(s, r).
#[inline(always)]
fn k_block(m: f32, iso: f32, inv_i: &Mat3A, r: Vec3A, s: Vec3A) -> Mat3A {
    if iso >= 0.0 {
        let diag = m + iso * r.dot(s);
        let si = s * -iso;
        Mat3A::from_cols(si * r.x + Vec3A::X * diag, si * r.y + Vec3A::Y * diag, si * r.z + Vec3A::Z * diag)
    } else {
        Mat3A::from_diagonal(Vec3::splat(m)) - skew(r) * (*inv_i * skew(s))
    }
}

/// The inverse of a symmetric 3×3 matrix (its cofactor matrix is its own transpose), or
/// zero when it is singular.
#[inline(always)]
fn inverse_sym(d: &Mat3A) -> Mat3A {
    let c0 = d.y_axis.cross(d.z_axis);
    let c1 = d.z_axis.cross(d.x_axis);
    let c2 = d.x_axis.cross(d.y_axis);
    let det = d.x_axis.dot(c0);
    if det.abs() > 1e-30 {
        let inv = Vec3A::splat(1.0 / det);
        Mat3A::from_cols(c0 * inv, c1 * inv, c2 * inv)
    } else {
        Mat3A::ZERO
    }
}
