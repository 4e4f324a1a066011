//! User-facing world settings (apart from solver scratch, which lives in `solver::Scratch`).
//! Each setting's range, unit, default and doc are in one table, [`table::SETTINGS`].

pub mod table;

use glam::{Vec2, Vec3};
use serde::{Deserialize, Serialize};

/// Which plane the page draws and the pointer edits: the drag demo and solver comparisons
/// are side-on (x–y, y up); the leash scene is seen from above (x–z, y is height).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum View {
    #[default]
    Side,
    Top,
}

crate::json_macro::deserialize_by_name!(View, "side" => View::Side, "top" => View::Top);

impl View {
    /// The name scene files and the API use (`"side"`, `"top"`).
    pub fn name(self) -> &'static str {
        match self {
            View::Side => "side",
            View::Top => "top",
        }
    }

    pub fn from_name(s: &str) -> Option<View> {
        [View::Side, View::Top].into_iter().find(|v| v.name() == s)
    }
    /// World point → 2D view coordinates.
    #[inline]
    pub fn project(self, p: Vec3) -> Vec2 {
        match self {
            View::Side => Vec2::new(p.x, p.y),
            View::Top => Vec2::new(p.x, p.z),
        }
    }

    /// 2D view coordinates → world point, keeping `keep`'s out-of-view coordinate.
    #[inline]
    pub fn unproject(self, q: Vec2, keep: Vec3) -> Vec3 {
        match self {
            View::Side => Vec3::new(q.x, q.y, keep.z),
            View::Top => Vec3::new(q.x, keep.y, q.y),
        }
    }
}

pub use crate::collide::Walls;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// Gravity (m/s²).
    pub gravity: Vec3,
    /// Which solver advances the world.
    pub solver: SolverKind,
    /// Relaxation passes per (sub)step.
    pub iterations: u32,
    /// Substeps per `step(dt)`. Under the classic solver each substep is one whole step of
    /// the post's (friction, Verlet, walls, `iterations` sweeps) of length dt/substeps; the
    /// post is substeps = 1 (see `solver::classic`).
    pub substeps: u32,
    /// The seed's `applyFriction` weight (its `AIR_FRICTION`, 0.95): each classic step keeps
    /// this fraction of the velocity (`prev = mix(pos, prev, friction)`), so 1 = no air
    /// friction.
    pub friction: f32,
    /// Give assigned to links created by editing (the seed's `GIVE`).
    pub give: f32,
    /// Classic solver: project with inverse-mass weights instead of the seed's centre split
    /// (the seed ignores mass, so a pinned end only closes half the error per pass).
    pub mass_weighted: bool,
    /// Optional bounding box; `None` = unbounded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub walls: Option<Walls>,
    /// Fraction of normal speed kept when bouncing off a wall. The classic solver reflects
    /// the normal speed by it and then keeps `bounce_friction` of the whole velocity (the
    /// post mirrors fully, 1, then halves).
    pub restitution: f32,
    /// Classic solver: the fraction of its whole velocity (normal and tangential) a point
    /// keeps when it touches a wall, after the reflection: the post's `BOUNCE_FRICTION`
    /// (`applyFriction(0.5)` after mirroring). 1 = walls take no speed beyond `restitution`.
    pub bounce_friction: f32,
    /// Plane the page draws and edits in.
    pub view: View,
    /// PBD-family solvers: linear velocity damping rate (1/s); each substep of length h
    /// scales the velocity by `exp(-damping·h)`, so the damping does not depend on the
    /// substep count. 0 = none. (The 000 seed's `velocity *= 0.99` per 60 Hz step is
    /// about 0.6/s.)
    pub damping: f32,
    /// Jacobi solver: over-relaxation factor ω applied to the averaged corrections,
    /// 0 < ω < 2 (1 = plain averaging).
    pub omega: f32,
    /// Iterative solvers (pbd, jacobi, xpbd): long-range attachments (Kim et al. 2012):
    /// no particle may be farther from its nearest anchor (a locked or held particle)
    /// than the rest length of the shortest path of links between them.
    pub tethers: bool,
    /// PBD-family solvers: XPBD bending along ropes (at every particle joined by exactly
    /// two links), an angle constraint with compliance `bending_compliance`.
    pub bending: bool,
    /// Bending compliance in rad/(N·m): the inverse of the angular stiffness k = EI / L of
    /// one joint (0 = rigid).
    pub bending_compliance: f32,
    /// PBD-family solvers: Coulomb friction coefficient of the walls (static and dynamic).
    /// The walls' restitution is `restitution`.
    pub wall_friction: f32,
    /// PBD-family solvers: compliance (m/N) of the mouse constraint. 0 = the held point
    /// follows the pointer exactly (kinematic, as in the seed); > 0 = a soft pin pulls it
    /// toward the pointer, so dragging feels the rope's weight.
    pub drag_compliance: f32,
    /// PBD-family solvers: rope–rope contacts between the world's ropes (capsules of the
    /// particles' radii, Coulomb friction, swept crossing test so they never tunnel).
    pub rope_collisions: bool,
    /// Rope–rope static friction coefficient μs (also the μ of the tangles' capstan lock
    /// test, and the rope's side of the rope–body friction: against a body of friction μ_b
    /// the pair's is √(μs μ_b), `contacts::rope_body`).
    pub rope_friction: f32,
    /// Rope–rope dynamic friction coefficient μk; omitted = `rope_friction`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rope_dynamic_friction: Option<f32>,
    /// Optional cap on the tangles' holding ratio e^{μΘ} (the 000 seed's gameplay clamp of 3);
    /// omitted = the physics.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tangle_cap: Option<f32>,
    /// Impulse solver (and bodies' joints under every solver): start each step from the
    /// rows' impulses of the last one.
    pub warm_starting: bool,
    /// Body–body contacts: the spring's frequency in Hz, at least 0.01 (capped at a quarter
    /// of the substep rate; twice this against an immovable body; `contacts::rule::Tuning`).
    /// Rope–body and particle contacts keep their own springs.
    pub contact_hertz: f32,
    /// Body–body contacts: the spring's damping ratio.
    pub contact_damping_ratio: f32,
}

impl Settings {
    /// Rope–rope dynamic friction μk.
    #[inline]
    pub fn rope_mu_k(&self) -> f32 {
        self.rope_dynamic_friction.unwrap_or(self.rope_friction)
    }

    /// The body contacts' spring.
    #[inline]
    pub fn contact_tuning(&self) -> crate::contacts::rule::Tuning {
        crate::contacts::rule::Tuning { hertz: self.contact_hertz, damping_ratio: self.contact_damping_ratio }
    }
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            gravity: Vec3::new(0.0, -9.81, 0.0),
            solver: SolverKind::Classic,
            iterations: 3,
            substeps: 1,
            friction: 0.95,
            give: 0.0,
            mass_weighted: false,
            walls: None,
            restitution: 1.0,
            bounce_friction: 0.5,
            view: View::Side,
            damping: 0.0,
            omega: 1.5,
            tethers: false,
            bending: false,
            bending_compliance: 1e-2,
            wall_friction: 0.3,
            drag_compliance: 0.0,
            rope_collisions: false,
            rope_friction: 0.5,
            rope_dynamic_friction: None,
            tangle_cap: None,
            warm_starting: true,
            contact_hertz: crate::contacts::rule::Tuning::BODIES.hertz,
            contact_damping_ratio: crate::contacts::rule::Tuning::BODIES.damping_ratio,
        }
    }
}

/// Which solver advances the world (its `supports` check lives in `solver`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SolverKind {
    /// The 002 seed's Verlet + centre-split relaxation with give, faithfully.
    #[default]
    Classic,
    /// The 000 seed's position-based dynamics, Gauss–Seidel in colour order.
    Pbd,
    /// The 000 seed's Jacobi form: averaged corrections with over-relaxation ω.
    Jacobi,
    /// Extended PBD: compliance in m/N, Lagrange multipliers, small steps.
    Xpbd,
    /// Direct linear-time solve of chains and trees of links (Newton passes).
    Exact,
    /// The 001 seed's sequential impulses: generic rows for links, pins and every joint,
    /// soft step and relax, warm starting (particles are bodies without rotation).
    Impulse,
}

crate::json_macro::deserialize_by_name!(SolverKind,
    "classic" => SolverKind::Classic,
    "pbd" => SolverKind::Pbd,
    "jacobi" => SolverKind::Jacobi,
    "xpbd" => SolverKind::Xpbd,
    "exact" => SolverKind::Exact,
    "impulse" => SolverKind::Impulse,
);

impl SolverKind {
    pub const ALL: &'static [SolverKind] = &[
        SolverKind::Classic,
        SolverKind::Pbd,
        SolverKind::Jacobi,
        SolverKind::Xpbd,
        SolverKind::Exact,
        SolverKind::Impulse,
    ];

    pub fn name(self) -> &'static str {
        match self {
            SolverKind::Classic => "classic",
            SolverKind::Pbd => "pbd",
            SolverKind::Jacobi => "jacobi",
            SolverKind::Xpbd => "xpbd",
            SolverKind::Exact => "exact",
            SolverKind::Impulse => "impulse",
        }
    }

    pub fn from_name(s: &str) -> Option<SolverKind> {
        Self::ALL.iter().copied().find(|k| k.name() == s)
    }
}

impl SolverKind {
    /// A short label for menus.
    pub fn label(self) -> &'static str {
        match self {
            SolverKind::Classic => "classic — the 002 seed, faithfully",
            SolverKind::Pbd => "pbd — position-based (Gauss–Seidel)",
            SolverKind::Jacobi => "jacobi — averaged, parallel form",
            SolverKind::Xpbd => "xpbd — compliance and substeps",
            SolverKind::Exact => "exact — direct solve, inextensible",
            SolverKind::Impulse => "impulse — the 001 seed's rows (Box2D-style)",
        }
    }

    /// One line on what the solver is.
    pub fn about(self) -> &'static str {
        match self {
            SolverKind::Classic => {
                "The blog post's Verlet rope: points, centre-split relaxation with give, walls. Ignores mass; no pins, \
                 rope–rope contacts or dogs."
            }
            SolverKind::Pbd => {
                "The 000 seed's position-based dynamics: rigid links (softened by give), swept in colour order."
            }
            SolverKind::Jacobi => {
                "The same projections averaged per point (the form that runs in parallel), over-relaxed by ω."
            }
            SolverKind::Xpbd => "Links with a physical compliance (m/N); best as many substeps of one iteration.",
            SolverKind::Exact => {
                "Solves every chain and tree of links exactly in linear time per Newton pass: ropes do not stretch."
            }
            SolverKind::Impulse => {
                "Sequential impulses on the 001 seed's generic rows, soft step and relax, warm started: the rigid-body \
                 engines' solver (Box2D, Rapier), on ropes and bodies alike."
            }
        }
    }
}
