//! Solvers: one file per algorithm, chosen at run time on the same world.
//!
//! Each `step(dt)` of the world is split into `substeps` substeps of length `h = dt / substeps`,
//! and runs the stages listed in [`crate::step::STAGES`] (the module docs there have the
//! table). Four of them are the solver's, dispatched here on the chosen [`SolverKind`]:
//!
//! 1. **`prepare`** (per step) — scratch sized, topology refreshed, links packed;
//! 2. **`integrate`** (per substep) — external forces into velocity/position (Verlet for
//!    `classic`; a predicted position x̃ = x + h·v with v ← v·damping + h·g for the PBD
//!    family), followed by the world's `broadPhase` stage (rope–rope pairs);
//! 3. **`solve`** (per substep) — `iterations` passes over the constraints (links,
//!    bending, tethers, pins, the mouse, the dogs' support and feet) and the contacts
//!    (walls, ground, obstacles, then rope–rope contacts last in each pass for the PBD
//!    family, so the no-crossing guarantee has the last word; the Jacobi solver averages
//!    them with its links);
//! 4. **`velocities`** (per substep) — `vel = (pos - prev) / h`, the invariant every solver
//!    keeps (plus restitution for particles that hit something);
//!
//! and `forces` (per step) turns the multipliers into link tensions, a step output.
//!
//! Solvers never see the `World`: each stage gets a [`StepContext`] (the world's pieces
//! borrowed apart, the solver's scratch, the step outputs), as Box2D's `b2StepContext`.
//!
//! | solver    | links                                         | per substep                  |
//! |-----------|-----------------------------------------------|------------------------------|
//! | `classic` | the 002 seed's Verlet relaxation with give    | `iterations` sweeps          |
//! | `pbd`     | the 000 seed's PBD, Gauss–Seidel by colour    | `iterations` sweeps          |
//! | `jacobi`  | PBD, averaged Jacobi with over-relaxation ω   | `iterations` sweeps          |
//! | `xpbd`    | XPBD with compliance (m/N) and multipliers    | `iterations` sweeps          |
//! | `exact`   | direct linear-time solve of the link forest   | ≤ `iterations` Newton passes |
//!
//! Rope–body contacts (`contacts::rope_body`: rope segments against body shapes, two-way,
//! with Coulomb friction) are projected in every iteration of `pbd`, `xpbd`, `jacobi` and
//! `exact` (after the obstacles, before the rope–rope contacts), moving the particles and
//! the bodies; under `impulse` they are velocity rows.
//!
//! Rope–rope contacts (`collide::segments`) run for `pbd`, `xpbd` and `jacobi` in every
//! iteration. The `exact` solver runs them (and the other contacts) before each direct solve
//! and once more after the last, so contacts have the last word there too and the
//! no-tunnelling guarantee holds for it (tested with fast drags in the leash scene);
//! `classic` has no rope contacts.
//!
//! Because every solver leaves `pos`, `prev` and `vel` consistent, switching solvers
//! between two steps is seamless. The only state that outlives a step is cached structure
//! (rebuilt when the links or particles change, see [`PackKey`]) and the exact solver's
//! chain multipliers, which warm-start its next substep only if it ran the last one
//! (never after a step under another solver).
//!
//! Solver-owned scratch memory lives in [`Scratch`] and is reused from step to step: the
//! hot path never allocates once the scratch has grown to the world's size.

pub mod body_step;
pub mod classic;
pub mod exact;
pub mod impulse;
pub mod jacobi;
pub mod pbd;
pub mod topology;

use glam::{Vec2, Vec3};

use crate::bodies::attach::Attachment;
use crate::bodies::Bodies;
use crate::collide::contact::{self, ContactRecord, Material, Obstacle, WallContacts};
use crate::collide::segments::{segment_contact_deltas, ContactParams};
pub use crate::collide::{RopeContacts, ROPE_FAT_MARGIN};
use crate::constraints::length::{pbd_stiffness, Packed};
use crate::constraints::{bending, pin, tether, Apply, Direct};
use crate::contacts::rope_body::RopeFriction;
use crate::dog::Dog;
use crate::hold::Hold;
use crate::joints::Joints;
use crate::links::{LinkKind, Links};
use crate::particles::Particles;
use crate::ropes::Ropes;
use crate::settings::Settings;
pub use crate::settings::SolverKind;
use crate::step::StepOutputs;
use topology::Topology;

/// Per-solver scratch, kept apart from user-facing definitions.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    /// The bodies' contact patches (kept from step to step: warm starting, events).
    pub contacts: crate::contacts::Contacts,
    /// The one broad phase (one sorted list of the bodies' and segments' boxes): the
    /// `collide` stage's body pass, the `broadPhase` stage's rope pass.
    pub broad: crate::collide::BroadPhase,
    /// Particle count the scratch was sized for.
    particles: usize,
    /// Structure derived from the link graph (colouring, trees, tethers, …).
    pub(crate) topo: Topology,
    /// Links prepared for this step in the solver's order (colour order; for `exact`, the
    /// spanning forest in breadth-first order, then the loop links).
    pub(crate) packed: Vec<Packed>,
    /// Link index of each packed slot.
    pub(crate) slot_link: Vec<u32>,
    /// For `exact`: how many packed slots are forest links.
    pub(crate) n_tree: usize,
    /// Multiplier per packed slot (reset every substep).
    pub(crate) lambda: Vec<f32>,
    pub(crate) bend_lambda: Vec<f32>,
    pub(crate) pin_lambda: Vec<Vec3>,
    pub(crate) hold_lambda: Vec<Vec3>,
    /// Jacobi accumulators.
    pub(crate) delta: Vec<Vec3>,
    pub(crate) count: Vec<f32>,
    /// This substep's contact per particle: normal (zero = none), restitution, the
    /// contact plane's offset along the normal and the velocity kept (`Material::keep`).
    pub(crate) contact_n: Vec<Vec3>,
    pub(crate) contact_e: Vec<f32>,
    pub(crate) contact_d: Vec<f32>,
    pub(crate) contact_keep: Vec<f32>,
    /// Classic solver: where the walls left each point that touched one before the
    /// relaxation (NaN = none), so its bounce can tell its arrival from the links' pull.
    pub(crate) classic_arrive: Vec<Vec3>,
    /// The direct solver's per-link work arrays.
    pub(crate) exact: exact::ExactScratch,
    /// The classic solver's wavefront schedule of the seed's sweeps.
    pub(crate) classic: classic::Schedule,
    /// The previous substep left its velocity stage to be fused with this substep's
    /// integration (one pass over the particles instead of two).
    velocity_pending: bool,
    /// What `packed` was made from (see [`PackKey`]); `None` = must repack.
    pack_key: Option<PackKey>,
    /// Per dog: friction correction used so far this substep (m).
    pub(crate) dog_grip_used: Vec<f32>,
    /// The rows and solver bodies: the bodies' joints and 2D locks under every solver, and
    /// the impulse solver's particle rows.
    pub(crate) rows: body_step::RowScratch,
    /// The impulse solver's particle contacts.
    pub(crate) particle_contacts: crate::contacts::particle_rows::ParticleContacts,
    /// The exact solver's forest of body joints (`exact::body_tree`).
    pub(crate) body_tree: exact::BodyTree,
}

impl Scratch {
    /// The impulse solver's particle contacts are its last substep's: after the bodies'
    /// rows ran under another solver it starts them cold.
    pub(crate) fn forget_particle_contacts(&mut self) {
        self.particle_contacts.forget();
    }

    /// The per-particle contact records as the contact stage writes them.
    pub(crate) fn contact_record(&mut self) -> ContactRecord<'_> {
        ContactRecord {
            normal: &mut self.contact_n,
            e: &mut self.contact_e,
            plane: &mut self.contact_d,
            keep: &mut self.contact_keep,
        }
    }

    /// Grows every per-particle buffer to `particles` entries. Allocates only when the
    /// world has grown since the last step.
    pub fn ensure(&mut self, particles: usize) {
        if self.particles != particles {
            self.delta.resize(particles, Vec3::ZERO);
            self.count.resize(particles, 0.0);
            self.contact_n.resize(particles, Vec3::ZERO);
            self.contact_e.resize(particles, 0.0);
            self.contact_d.resize(particles, 0.0);
            self.contact_keep.resize(particles, 1.0);
            self.classic_arrive.resize(particles, Vec3::NAN);
            self.particles = particles;
        }
    }
}

/// Everything the packed links depend on: the solver (its order and formulation), the
/// iteration count (PBD's corrected stiffness), the substep length (α̃ = α/h²) and the
/// versions of the links (ends, rest lengths, compliance, give, kind) and of the particles
/// (inverse masses). When none changed since the last step, the packing is reused: on W2
/// (9,900 links) that saves about a tenth of the exact solver's step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PackKey {
    solver: SolverKind,
    iterations: u32,
    h_bits: u32,
    links: u64,
    particles: u64,
    n_links: usize,
    n_particles: usize,
}

/// Stage `prepare`: sizes scratch and outputs, refreshes cached structure and packs the
/// links for the chosen solver, for substeps of length `c.h`.
pub fn prepare(c: &mut StepContext) {
    // (`crate::FULL` off: no bodies, joints or attachments, never `impulse` — every call to
    // `body_step` or `impulse` here would return at once, and the lite build leaves them out.)
    if crate::FULL {
        body_step::proxy_masses(c);
    }
    let h = c.h;
    let StepContext { particles, links, settings, scratch, holds, out, .. } = c;
    let (particles, links, settings) = (&**particles, *links, *settings);
    scratch.ensure(particles.len());
    out.link_force.resize(links.len(), 0.0);
    if settings.solver == SolverKind::Classic {
        // (The classic solver refuses bodies in `supports`; should a world with bodies be
        // stepped under it anyway, their joints still run, so nothing is left unsized.)
        if crate::FULL {
            body_step::prepare(c);
        }
        return;
    }
    scratch.topo.refresh(particles, links);
    if crate::FULL && settings.solver == SolverKind::Impulse {
        impulse::prepare(c);
        return;
    }
    let key = PackKey {
        solver: settings.solver,
        iterations: settings.iterations,
        h_bits: h.to_bits(),
        links: links.version,
        particles: particles.version,
        n_links: links.len(),
        n_particles: particles.len(),
    };
    if scratch.pack_key != Some(key) {
        scratch.pack_key = Some(key);
        let inv_h2 = 1.0 / (h * h);
        let xpbd = matches!(settings.solver, SolverKind::Xpbd | SolverKind::Exact);
        let w = &particles.inv_mass;
        let n = particles.len();
        let iterations = settings.iterations;
        #[inline(always)]
        #[allow(clippy::too_many_arguments)]
        fn pack(links: &Links, w: &[f32], k: u32, a: u32, b: u32, xpbd: bool, inv_h2: f32, iterations: u32) -> Packed {
            let k = k as usize;
            let (alpha, stiff) = if xpbd {
                (links.compliance[k] * inv_h2, 1.0)
            } else {
                (0.0, pbd_stiffness(links.give[k], iterations))
            };
            Packed::new(
                a,
                b,
                links.rest[k],
                alpha,
                stiff,
                w[a as usize],
                w[b as usize],
                links.kind[k] == LinkKind::Rope,
            )
        }
        let pack = |k: u32, a: u32, b: u32| pack(links, w, k, a, b, xpbd, inv_h2, iterations);
        let topo = &scratch.topo;
        let (packed, slot_link) = (&mut scratch.packed, &mut scratch.slot_link);
        if settings.solver == SolverKind::Exact {
            let (n_tree, n_loop) = (topo.tree_link.len(), topo.loop_links.len());
            packed.resize(n_tree + n_loop, Packed::default());
            slot_link.resize(n_tree + n_loop, 0);
            for j in 0..n_tree {
                let k = topo.tree_link[j];
                packed[j] = pack(k, topo.tree_parent[j], topo.tree_child[j]);
                slot_link[j] = k;
            }
            for (j, &k) in topo.loop_links.iter().enumerate() {
                let [a, b] = links.ends[k as usize];
                packed[n_tree + j] = pack(k, a, b);
                slot_link[n_tree + j] = k;
            }
            scratch.n_tree = n_tree;
            scratch.exact.ensure(n_tree);
        } else {
            // The topology lists only links with valid ends.
            let m = topo.colour_order.len();
            packed.resize(m, Packed::default());
            slot_link.resize(m, 0);
            let mut j = 0;
            for &k in &topo.colour_order {
                let [a, b] = links.ends[k as usize];
                if (a as usize) < n && (b as usize) < n && a != b {
                    packed[j] = pack(k, a, b);
                    slot_link[j] = k;
                    j += 1;
                }
            }
            packed.truncate(j);
            slot_link.truncate(j);
        }
    }
    scratch.lambda.resize(scratch.packed.len(), 0.0);
    scratch.bend_lambda.resize(scratch.topo.bends.len(), 0.0);
    scratch.pin_lambda.resize(scratch.topo.pins.len(), Vec3::ZERO);
    scratch.hold_lambda.resize(holds.len(), Vec3::ZERO);
    if crate::FULL {
        body_step::prepare(c);
    }
}

/// Stage `integrate`: gravity and damping into a predicted position (Verlet with the seed's
/// friction for `classic`).
pub fn integrate(c: &mut StepContext) {
    match c.settings.solver {
        SolverKind::Impulse if crate::FULL => return impulse::integrate(c),
        SolverKind::Classic => classic::integrate(c),
        _ => c.integrate(),
    }
    if !crate::FULL {
        return;
    }
    // The bodies' poses before they move this substep (rope–body friction measures the
    // slip from them).
    c.scratch.contacts.rope.begin_substep(c.bodies);
    // Bodies move by their joints' rows first; attached particles follow them.
    body_step::solve_bodies(c);
}

/// Stage `broadPhase`: the rope–rope candidate pairs for this substep (PBD family with rope
/// contacts on; otherwise none).
pub fn broad_phase(c: &mut StepContext) {
    c.rope_broad_phase();
}

/// Stage `solve`: the chosen solver's passes over the constraints and contacts.
pub fn solve(c: &mut StepContext) {
    match c.settings.solver {
        SolverKind::Classic => classic::solve(c),
        // One loop for both: they differ in the packing of the links (`prepare` above).
        SolverKind::Pbd | SolverKind::Xpbd => pbd::solve(c),
        SolverKind::Jacobi => jacobi::solve(c),
        SolverKind::Exact => exact::solve(c),
        SolverKind::Impulse if crate::FULL => impulse::solve(c),
        // (The lite build refuses `impulse` in `SolverKind::supports`.)
        SolverKind::Impulse => pbd::solve(c),
    }
}

/// Stage `velocities`: v = (x − x_prev)/h with restitution for particles that hit something.
pub fn velocities(c: &mut StepContext) {
    match c.settings.solver {
        SolverKind::Impulse if crate::FULL => impulse::velocities(c),
        SolverKind::Classic => {
            if crate::FULL {
                body_step::transfer_proxies(c);
            }
            classic::velocities(c)
        }
        _ => {
            if crate::FULL {
                body_step::transfer_proxies(c);
            }
            c.velocities()
        }
    }
}

/// Stage `forces`: records each link's tension over the last substep (N), a step output.
pub fn forces(c: &mut StepContext) {
    let h = c.h;
    c.out.link_force.iter_mut().for_each(|f| *f = 0.0);
    if crate::FULL {
        body_step::store_impulses(c);
    }
    if c.settings.solver == SolverKind::Classic || c.out.link_force.len() != c.links.len() {
        return;
    }
    let StepContext { settings, scratch, links, out, .. } = c;
    let Scratch { lambda, slot_link, topo, .. } = scratch;
    let force = &mut out.link_force;
    if settings.solver == SolverKind::Impulse {
        return;
    }
    let inv_h2 = 1.0 / (h * h);
    if settings.solver == SolverKind::Jacobi {
        // Jacobi applies each correction averaged over the particle's constraints.
        for (&k, &lam) in slot_link.iter().zip(lambda.iter()) {
            let k = k as usize;
            let [a, b] = links.ends[k];
            let deg = topo.degree(a as usize).max(topo.degree(b as usize)).max(1);
            if k < force.len() {
                force[k] = -lam * inv_h2 * settings.omega / deg as f32;
            }
        }
    } else {
        for (&k, &lam) in slot_link.iter().zip(lambda.iter()) {
            if let Some(f) = force.get_mut(k as usize) {
                *f = -lam * inv_h2;
            }
        }
    }
}

/// Whether pointer holds act as soft pins (the mouse constraint) rather than kinematically.
#[inline]
pub fn soft_holds(settings: &Settings) -> bool {
    settings.drag_compliance > 0.0 && settings.solver != SolverKind::Classic
}

/// What the solver's stages work on (Box2D's `b2StepContext`): the world's pieces borrowed
/// apart — particles to move, the links, settings, holds, obstacles, ropes and dogs to read —
/// the solver's scratch, the step's outputs and the substep's parameters. The world builds
/// it for each stage; the solver never sees the `World`.
pub struct StepContext<'a> {
    pub particles: &'a mut Particles,
    pub links: &'a Links,
    pub settings: &'a Settings,
    pub holds: &'a [Hold],
    pub obstacles: &'a [Obstacle],
    /// The world's ropes (segments for rope–rope contacts).
    pub ropes: &'a Ropes,
    /// Dogs of the leash scene (held at collar height, bodies the other leashes go around).
    pub dogs: &'a [Dog],
    /// Rigid bodies, their joints and the particles attached to them.
    pub bodies: &'a mut Bodies,
    pub joints: &'a mut Joints,
    pub attach: &'a [Attachment],
    /// The solvers' memory, reused from step to step.
    pub scratch: &'a mut Scratch,
    /// Link forces and rope contacts, read after the step by tangles and reports.
    pub out: &'a mut StepOutputs,
    /// Substep length (s).
    pub h: f32,
    /// Completed steps before this one (`World::steps`).
    pub step: u64,
    /// This is the step's last substep.
    pub last_substep: bool,
}

impl StepContext<'_> {
    /// Rope–rope contacts are on for this world and solver.
    #[inline]
    fn rope_contacts_on(&self) -> bool {
        self.settings.rope_collisions && self.settings.solver != SolverKind::Classic && self.ropes.segs.len() >= 2
    }

    /// The rope–rope broad phase and fresh multipliers (see [`RopeContacts::update`]),
    /// or none when rope contacts are off.
    pub fn rope_broad_phase(&mut self) {
        let rc = &mut self.out.rope;
        if !(self.settings.rope_collisions && self.settings.solver != SolverKind::Classic && self.ropes.segs.len() >= 2)
        {
            rc.deactivate();
            return;
        }
        let pos = &self.particles.pos;
        let moves = self
            .holds
            .iter()
            .filter_map(|hold| pos.get(hold.particle as usize).map(|&x| (hold.target - x).length_squared()));
        rc.update(&mut self.scratch.broad, pos, &self.particles.prev, moves, self.ropes);
    }

    /// Every iteration, after the links: projects every candidate pair's capsule contact
    /// (XPBD, rigid, swept crossing test, static/dynamic Coulomb friction clamped by the
    /// accumulated normal multiplier; `collide::segments`), through `acc` (at once for
    /// Gauss–Seidel, into the averaged sums for Jacobi).
    pub fn rope_contacts<A: Apply>(&mut self, acc: &mut A) {
        if !self.out.rope.active {
            return;
        }
        let rope = &mut self.out.rope;
        project_rope_contacts(
            &mut self.particles.pos,
            &self.particles.prev,
            &self.particles.inv_mass,
            self.ropes,
            rope,
            self.settings,
            self.h,
            acc,
        );
    }

    /// Dogs: the collar stays at its height (the legs hold it; a leash can neither lift nor
    /// drop it); the feet's Coulomb friction walks it at the dog's intended velocity against
    /// leash pulls up to grip·m·g (a budget of grip·g·h² of correction per substep, shared by
    /// the iterations); and the dog's body — a vertical cylinder from the ground to the
    /// collar — pushes the other leashes' particles out horizontally (mass-weighted,
    /// frictionless), so a leash can wrap around a dog.
    pub fn dogs(&mut self) {
        if self.dogs.is_empty() {
            return;
        }
        let used = &mut self.scratch.dog_grip_used;
        if used.len() != self.dogs.len() {
            used.clear();
            used.resize(self.dogs.len(), 0.0);
        }
        let budget_unit = self.settings.gravity.length() * self.h * self.h;
        let (pos, prev, w, radius) =
            (&mut self.particles.pos, &self.particles.prev, &self.particles.inv_mass, &self.particles.radius);
        for (k, d) in self.dogs.iter().enumerate() {
            let di = d.particle as usize;
            if di >= pos.len() {
                continue;
            }
            if w[di] > 0.0 {
                pos[di].y = d.height;
                // Feet: stick to the intended walk while the friction budget lasts.
                let target = prev[di] + d.walk * self.h;
                let slip = Vec2::new(pos[di].x - target.x, pos[di].z - target.z);
                let len = slip.length();
                let left = (d.grip * budget_unit - used[k]).max(0.0);
                if len > 0.0 {
                    let take = len.min(left);
                    let c = slip * (take / len);
                    pos[di].x -= c.x;
                    pos[di].z -= c.y;
                    used[k] += take;
                }
            }
            if d.body_radius <= 0.0 {
                continue;
            }
            for r in 0..self.ropes.len() {
                if r as u32 == d.rope {
                    continue;
                }
                for &i in self.ropes.points(r) {
                    let i = i as usize;
                    if i == di || w[i] == 0.0 && w[di] == 0.0 {
                        continue;
                    }
                    let (x, c) = (pos[i], pos[di]);
                    let rr = d.body_radius + radius[i];
                    if x.y > d.height + radius[i] || x.y < -radius[i] {
                        continue;
                    }
                    let off = Vec2::new(x.x - c.x, x.z - c.z);
                    let d2 = off.length_squared();
                    if d2 >= rr * rr {
                        continue;
                    }
                    let dist = d2.sqrt();
                    let dir = if dist > 1e-6 { off / dist } else { Vec2::X };
                    let wsum = w[i] + w[di];
                    if wsum <= 0.0 {
                        continue;
                    }
                    let push = (rr - dist) / wsum;
                    let dv = Vec3::new(dir.x, 0.0, dir.y) * push;
                    pos[i] += dv * w[i];
                    pos[di] -= dv * w[di];
                }
            }
        }
    }

    /// Stage 1: v ← v·exp(-damping h) + h g; prev ← x; x ← x + h v. (Damping acts on the
    /// velocity only, so a body at rest feels its full weight.) Kinematic particles
    /// (inverse mass 0: locked or held) are left where the hold stage put them.
    pub fn integrate(&mut self) {
        self.scratch.dog_grip_used.iter_mut().for_each(|u| *u = 0.0);
        let h = self.h;
        let gh = self.settings.gravity * h;
        let damp = if self.settings.damping > 0.0 { libm::expf(-self.settings.damping * h) } else { 1.0 };
        let pending = std::mem::take(&mut self.scratch.velocity_pending);
        let p = &mut *self.particles;
        let n = p.len();
        let (pos, prev, vel, w) = (&mut p.pos[..n], &mut p.prev[..n], &mut p.vel[..n], &p.inv_mass[..n]);
        if pending {
            // The previous substep's velocity stage, fused with this integration.
            let inv_h = 1.0 / h;
            for i in 0..n {
                let v = (pos[i] - prev[i]) * inv_h;
                vel[i] = v;
                if w[i] == 0.0 {
                    continue;
                }
                prev[i] = pos[i];
                pos[i] += (v * damp + gh) * h;
            }
        } else {
            for i in 0..n {
                if w[i] == 0.0 {
                    continue;
                }
                let v = vel[i] * damp + gh;
                prev[i] = pos[i];
                pos[i] += v * h;
            }
        }
    }

    /// Restarts every multiplier for a new substep (XPBD: λ = 0 at the start of each).
    pub fn start_multipliers(&mut self) {
        self.scratch.lambda.iter_mut().for_each(|l| *l = 0.0);
        self.scratch.bend_lambda.iter_mut().for_each(|l| *l = 0.0);
        self.scratch.pin_lambda.iter_mut().for_each(|l| *l = Vec3::ZERO);
        self.scratch.hold_lambda.iter_mut().for_each(|l| *l = Vec3::ZERO);
    }

    /// Bending, applied through `acc` (Gauss–Seidel or Jacobi).
    pub fn bending<A: Apply>(&mut self, acc: &mut A) {
        if !self.settings.bending {
            return;
        }
        let alpha = self.settings.bending_compliance / (self.h * self.h);
        let bends = &self.scratch.topo.bends;
        for (t, lam) in bends.iter().zip(self.scratch.bend_lambda.iter_mut()) {
            bending::project(&mut self.particles.pos, &self.particles.inv_mass, *t, alpha, lam, acc);
        }
    }

    /// Particle-local constraints, applied at once: tethers (when `tethers`: the solvers
    /// pass it on the last iteration of a substep, so the bound holds at its end for one
    /// pass over the particles), pins, the mouse and contacts.
    pub fn local(&mut self, tethers: bool) {
        if tethers && self.settings.tethers {
            tether::project_all(&mut self.particles.pos, &self.scratch.topo.tethers);
        }
        let inv_h2 = 1.0 / (self.h * self.h);
        for (&i, lam) in self.scratch.topo.pins.iter().zip(self.scratch.pin_lambda.iter_mut()) {
            let i = i as usize;
            let alpha = self.particles.pin_compliance[i] * inv_h2;
            pin::project(
                &mut self.particles.pos,
                &self.particles.inv_mass,
                i,
                self.particles.pin_target[i],
                alpha,
                lam,
            );
        }
        if soft_holds(self.settings) {
            let alpha = self.settings.drag_compliance * inv_h2;
            for (hold, lam) in self.holds.iter().zip(self.scratch.hold_lambda.iter_mut()) {
                let i = hold.particle as usize;
                if i < self.particles.len() {
                    pin::project(&mut self.particles.pos, &self.particles.inv_mass, i, hold.target, alpha, lam);
                }
            }
        }
        self.dogs();
        self.contacts();
    }

    /// Walls, ground and obstacles, then rope–rope contacts (part of [`StepContext::local`]; the
    /// exact solver also calls it after its last direct solve so contacts have the last word).
    pub fn contacts(&mut self) {
        if self.has_contacts() {
            let walls = self.settings.walls.map(|walls| WallContacts {
                walls,
                material: Material {
                    mu_s: self.settings.wall_friction,
                    mu_k: self.settings.wall_friction,
                    e: self.settings.restitution,
                    keep: 1.0,
                },
            });
            let mut rec = self.scratch.contact_record();
            contact::solve(
                &mut self.particles.pos,
                &self.particles.prev,
                &self.particles.inv_mass,
                &self.particles.radius,
                self.obstacles,
                walls.as_ref(),
                &mut rec,
            );
        }
        self.rope_body_contacts();
        // Rope–rope contacts last, so the no-crossing guarantee has the last word (the
        // Jacobi solver averages them with its links instead).
        if self.settings.solver != SolverKind::Jacobi && self.rope_contacts_on() {
            self.rope_contacts(&mut Direct);
        }
    }

    /// Rope–body contacts, projected on the particles and the bodies (`contacts::rope_body`).
    pub fn rope_body_contacts(&mut self) {
        if !crate::FULL || self.scratch.contacts.rope.pairs.is_empty() {
            return;
        }
        let friction = RopeFriction { mu_s: self.settings.rope_friction, mu_k: self.settings.rope_mu_k() };
        self.scratch.contacts.rope.project(
            &mut self.particles.pos,
            &self.particles.prev,
            &self.particles.inv_mass,
            self.ropes,
            self.bodies,
            self.attach,
            friction,
            self.h,
        );
    }

    /// Rope–rope contacts alone (the impulse solver's particle–shape contacts are rows).
    pub fn rope_contacts_last(&mut self) {
        if self.rope_contacts_on() {
            self.rope_contacts(&mut Direct);
        }
    }

    #[inline]
    fn has_contacts(&self) -> bool {
        !self.obstacles.is_empty() || self.settings.walls.is_some()
    }

    /// Stage 4 without the fusion with the next integration.
    pub fn velocities_now(&mut self) {
        self.velocities_fused(false);
    }

    /// Stage 4: vel = (pos - prev)/h, with restitution for particles that hit something.
    pub fn velocities(&mut self) {
        self.velocities_fused(true);
    }

    fn velocities_fused(&mut self, fuse: bool) {
        let h = self.h;
        let contacts = self.has_contacts();
        if fuse && !contacts && !self.last_substep {
            // Deferred: the next substep's integration computes it on its way.
            self.scratch.velocity_pending = true;
            return;
        }
        let p = &mut *self.particles;
        if contacts {
            let threshold = 2.0 * self.settings.gravity.length() * h;
            let mut rec = self.scratch.contact_record();
            contact::velocities_with_restitution(&p.pos, &mut p.prev, &mut p.vel, &p.radius, h, threshold, &mut rec);
        } else {
            // Over flat f32 arrays, so the loop vectorises.
            let inv_h = 1.0 / h;
            let n = p.len();
            let (pos, prev, vel) = (flat(&p.pos[..n]), flat(&p.prev[..n]), flat_mut(&mut p.vel[..n]));
            for k in 0..vel.len().min(pos.len()).min(prev.len()) {
                vel[k] = (pos[k] - prev[k]) * inv_h;
            }
        }
    }
}

/// One pass of rope–rope contact projections over the substep's candidate pairs.
#[allow(clippy::too_many_arguments)]
pub(crate) fn project_rope_contacts<A: Apply>(
    pos: &mut [Vec3],
    prev: &[Vec3],
    inv_mass: &[f32],
    ropes: &Ropes,
    rc: &mut RopeContacts,
    s: &Settings,
    h: f32,
    acc: &mut A,
) {
    let (mu_s, mu_k) = (s.rope_friction, s.rope_mu_k());
    let (segs, radius) = (&ropes.segs, &ropes.seg_radius);
    for (pair, state) in rc.pairs.iter().zip(rc.states.iter_mut()) {
        let (i, j) = (pair[0] as usize, pair[1] as usize);
        let (a, b) = (segs[i], segs[j]);
        let idx = [a[0] as usize, a[1] as usize, b[0] as usize, b[1] as usize];
        let params = ContactParams { radius_sum: radius[i] + radius[j], mu_s, mu_k, compliance: 0.0, h, ccd: true };
        let x = idx.map(|q| pos[q]);
        let xp = idx.map(|q| prev[q]);
        let w = idx.map(|q| inv_mass[q]);
        if let Some((_, dx)) = segment_contact_deltas(x, xp, w, &params, state) {
            for q in 0..4 {
                acc.apply(pos, idx[q], dx[q]);
            }
        }
    }
}

/// `&[Vec3]` as a flat `&[f32]` (x, y, z per element).
#[inline(always)]
pub(crate) fn flat(v: &[Vec3]) -> &[f32] {
    const _: () = assert!(std::mem::size_of::<Vec3>() == 12 && std::mem::align_of::<Vec3>() == 4);
    // SAFETY: glam's Vec3 is #[repr(C)] { x: f32, y: f32, z: f32 }, size 12, align 4, so n
    // of them are exactly 3n contiguous f32.
    unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<f32>(), v.len() * 3) }
}

/// `&mut [Vec3]` as a flat `&mut [f32]`.
#[inline(always)]
pub(crate) fn flat_mut(v: &mut [Vec3]) -> &mut [f32] {
    // SAFETY: as for `flat`; the borrow is exclusive for its lifetime.
    unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr().cast::<f32>(), v.len() * 3) }
}
