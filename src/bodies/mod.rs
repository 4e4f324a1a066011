//! Rigid bodies: user-facing definitions ([`BodyDef`]) apart from the solver's hot state.
//!
//! Bodies live in the same 3D world as the particles (SI units, y up), with a position
//! (centre of mass), an orientation (`glam::Quat`), linear and angular velocity, a mass and
//! a diagonal inertia tensor in the body frame from their [`Shape`]. They are:
//! - **dynamic** — moved by gravity, joints, attached ropes and the mouse;
//! - **kinematic** — moved only by their velocity (infinite mass to everything else);
//! - **static** — never move (infinite mass).
//!
//! A **planar** body is held in the z = 0 plane by the 001 seed's own rows (a plane row
//! along z and the two hinge-axis rows that keep its local z axis on the world's), so planar
//! scenes use the same 3D solver rather than a second engine (`joints::lock_2d`).
//!
//! Bodies are named by stable [`Id`]s (slot + generation, `ids.rs`): removing a body moves
//! the last one into its dense slot, and every other id stays valid. Sleeping is not
//! implemented (it would be off by default anyway): every dynamic body is simulated.

pub mod attach;
pub mod shape;

use glam::{Mat3, Quat, Vec3};
use serde::{Deserialize, Serialize};

use crate::error::{self, Result, SimError};
use crate::ids::{Id, IdPool};
pub use shape::Shape;

/// How a body moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BodyKind {
    #[default]
    Dynamic,
    Kinematic,
    Static,
}

impl BodyKind {
    pub fn name(self) -> &'static str {
        match self {
            BodyKind::Dynamic => "dynamic",
            BodyKind::Kinematic => "kinematic",
            BodyKind::Static => "static",
        }
    }
}

/// Everything needed to create a body (defaults: a 1 kg dynamic 0.1 m ball at the origin).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyDef {
    pub kind: BodyKind,
    pub shape: Shape,
    /// Mass (kg), > 0 for a dynamic body; ignored for kinematic and static ones.
    pub mass: f32,
    /// Centre of mass (m).
    pub pos: Vec3,
    /// Orientation (normalised on creation).
    pub rot: Quat,
    /// Linear velocity (m/s).
    pub vel: Vec3,
    /// Angular velocity (rad/s, world frame).
    pub ang_vel: Vec3,
    /// Linear damping rate (1/s): v ← v / (1 + h·c) per substep, as Box2D.
    pub linear_damping: f32,
    /// Angular damping rate (1/s).
    pub angular_damping: f32,
    /// Multiplies the world's gravity for this body.
    pub gravity_scale: f32,
    /// Held in the z = 0 plane (translation along z and rotation about x and y locked).
    pub planar: bool,
    /// Surface: friction, restitution, rolling resistance.
    pub material: Material,
    /// Which bodies it collides with.
    pub filter: Filter,
}

/// A body's surface. A pair mixes them as Box2D does: friction √(μ_a μ_b), restitution
/// max(e_a, e_b), rolling resistance max.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Material {
    /// Coulomb friction coefficient (≥ 0; default 0.6).
    pub friction: f32,
    /// Coefficient of restitution (0..=1; default 0).
    pub restitution: f32,
    /// Rolling resistance (m: resisting torque per newton of normal force; default 0).
    pub rolling_friction: f32,
}

impl Default for Material {
    fn default() -> Self {
        Material { friction: 0.6, restitution: 0.0, rolling_friction: 0.0 }
    }
}

impl Material {
    pub fn validate(&self) -> Result<()> {
        error::in_range("friction", self.friction, 0.0, 100.0, "0 ≤ friction ≤ 100")?;
        error::in_range("restitution", self.restitution, 0.0, 1.0, "0 ≤ restitution ≤ 1")?;
        error::in_range("rolling friction", self.rolling_friction, 0.0, 10.0, "0 ≤ rolling friction ≤ 10 m")?;
        Ok(())
    }

    /// The pair's friction, restitution and rolling resistance.
    pub fn mix(a: Material, b: Material) -> PairMaterial {
        PairMaterial {
            friction: Self::mix_friction(a.friction, b.friction),
            restitution: Self::mix_restitution(a.restitution, b.restitution),
            rolling: a.rolling_friction.max(b.rolling_friction),
        }
    }

    /// A pair's friction from its two surfaces' ([`Material::mix`]).
    #[inline(always)]
    pub fn mix_friction(a: f32, b: f32) -> f32 {
        (a * b).sqrt()
    }

    /// A pair's restitution from its two surfaces' ([`Material::mix`]).
    #[inline(always)]
    pub fn mix_restitution(a: f32, b: f32) -> f32 {
        a.max(b)
    }
}

/// How a pair's surfaces combine (`Material::mix`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairMaterial {
    pub friction: f32,
    pub restitution: f32,
    pub rolling: f32,
}

/// Collision filtering: bodies a and b collide when `a.group & b.mask != 0` and
/// `b.group & a.mask != 0` (Box2D's category and mask bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Filter {
    pub group: u32,
    pub mask: u32,
}

impl Default for Filter {
    fn default() -> Self {
        Filter { group: 1, mask: u32::MAX }
    }
}

impl Filter {
    #[inline]
    pub fn collides(self, other: Filter) -> bool {
        self.group & other.mask != 0 && other.group & self.mask != 0
    }
}

impl Default for BodyDef {
    fn default() -> Self {
        Self {
            kind: BodyKind::Dynamic,
            shape: Shape::Sphere { radius: 0.1 },
            mass: 1.0,
            pos: Vec3::ZERO,
            rot: Quat::IDENTITY,
            vel: Vec3::ZERO,
            ang_vel: Vec3::ZERO,
            linear_damping: 0.0,
            angular_damping: 0.0,
            gravity_scale: 1.0,
            planar: false,
            material: Material::default(),
            filter: Filter::default(),
        }
    }
}

/// Largest mass (kg) and speed (m/s) a body may be given.
pub const MAX_MASS: f32 = 1e9;
pub use crate::limits::MAX_SPEED;
/// Most bodies a world can store (native use; the page and scene files are held to
/// `limits::MAX_BODIES`, which the step's time budget sets).
pub const MAX_STORED_BODIES: usize = 10_000;

impl BodyDef {
    /// Checks every field (finite, in range) without changing anything.
    pub fn validate(&self) -> Result<()> {
        self.shape.validate()?;
        let vec = |what: &'static str, v: Vec3, max: f32| -> Result<()> {
            if !v.is_finite() {
                return Err(SimError::NotFinite { what });
            }
            // (Slack for rounding, as `world::check_vec`.)
            if v.abs().max_element() > max * 1.001 {
                return Err(SimError::OutOfRange {
                    what,
                    value: v.abs().max_element() as f64,
                    range: if max == MAX_SPEED { "|component| ≤ 1e4" } else { "|component| ≤ 1e5 m" },
                });
            }
            Ok(())
        };
        vec("body position", self.pos, crate::limits::MAX_COORD)?;
        vec("body velocity", self.vel, MAX_SPEED)?;
        vec("body angular velocity", self.ang_vel, MAX_SPEED)?;
        let q = self.rot;
        // (A finite quaternion whose squared length overflows, [0, 0, 1e38, 1], normalised
        // to NaN.)
        if !(q.is_finite() && q.length_squared().is_finite() && q.length_squared() >= 1e-12) {
            return Err(SimError::Invalid("body rotation must be a finite, non-zero quaternion (|q|² finite)".into()));
        }
        if self.kind == BodyKind::Dynamic {
            error::finite("body mass", self.mass)?;
            if !(self.mass >= crate::limits::MIN_MASS && self.mass <= MAX_MASS) {
                return Err(SimError::OutOfRange {
                    what: "body mass",
                    value: self.mass as f64,
                    range: "1e-6 ≤ mass ≤ 1e9 kg for a dynamic body",
                });
            }
        }
        error::in_range("linear damping", self.linear_damping, 0.0, 1000.0, "0 ≤ damping ≤ 1000 1/s")?;
        error::in_range("angular damping", self.angular_damping, 0.0, 1000.0, "0 ≤ damping ≤ 1000 1/s")?;
        error::in_range("gravity scale", self.gravity_scale, -100.0, 100.0, "-100 ≤ gravity scale ≤ 100")?;
        self.material.validate()?;
        // (Within 1 mm: the lock's rows hold a planar body in z = 0 to about 1e-5 m, and a
        // scene exported mid-swing must load again; the rows pull it the rest of the way.)
        if self.planar && self.pos.z.abs() > PLANAR_SLACK {
            return Err(SimError::Invalid("a planar body must start at z = 0 (within 1 mm)".into()));
        }
        Ok(())
    }
}

/// How far (m) from z = 0 a planar body may start.
pub const PLANAR_SLACK: f32 = 1e-3;

/// All bodies, struct of arrays; hot solver state first, then user data. Dense index `i`
/// is the same in every array.
#[derive(Clone, Debug, Default)]
pub struct Bodies {
    /// Centre of mass (m).
    pub pos: Vec<Vec3>,
    pub rot: Vec<Quat>,
    pub vel: Vec<Vec3>,
    /// World-frame angular velocity (rad/s).
    pub ang_vel: Vec<Vec3>,
    /// Pose at the start of the last step (the page interpolates from it to the current one).
    pub prev_pos: Vec<Vec3>,
    pub prev_rot: Vec<Quat>,
    /// 0 for kinematic and static bodies and while held kinematically.
    pub inv_mass: Vec<f32>,
    /// Inverse principal moments (body frame); 0 where `inv_mass` is 0.
    pub inv_inertia: Vec<Vec3>,
    // ---- user data ----
    pub kind: Vec<BodyKind>,
    pub shape: Vec<Shape>,
    pub mass: Vec<f32>,
    /// Principal moments (kg·m², body frame).
    pub inertia: Vec<Vec3>,
    pub linear_damping: Vec<f32>,
    pub angular_damping: Vec<f32>,
    pub gravity_scale: Vec<f32>,
    pub planar: Vec<bool>,
    pub material: Vec<Material>,
    pub filter: Vec<Filter>,
    /// Stable id of each dense entry.
    pub id: Vec<Id>,
    ids: IdPool,
    /// Bumped when bodies are added or removed or a mass changes.
    pub version: u64,
}

impl Bodies {
    /// The ids' pool as plain lists (`scene::state`).
    pub fn ids_state(&self) -> crate::ids::IdState {
        self.ids.to_state()
    }

    /// Puts back [`Self::ids_state`]'s pool, naming every live thing by the id it had;
    /// `false` (nothing changed) when the lists do not fit this many.
    pub fn set_ids_state(&mut self, s: &crate::ids::IdState) -> bool {
        crate::ids::IdPool::restore(&mut self.ids, &mut self.id, s)
    }

    pub fn len(&self) -> usize {
        self.pos.len()
    }
    pub fn is_empty(&self) -> bool {
        self.pos.is_empty()
    }

    /// Adds a body after validating `def`; returns its id.
    pub fn add(&mut self, def: &BodyDef) -> Result<Id> {
        def.validate()?;
        if self.len() >= MAX_STORED_BODIES {
            return Err(SimError::Invalid(format!("a world holds at most {MAX_STORED_BODIES} bodies")));
        }
        let i = self.len();
        let id = self.ids.alloc(i).ok_or_else(|| SimError::Invalid("too many bodies".into()))?;
        // A quaternion that is unit to rounding is kept bit for bit (so a pose exported and
        // loaded again is the same pose); others are normalised.
        let rot = if (def.rot.length_squared() - 1.0).abs() <= 1e-6 { def.rot } else { def.rot.normalize() };
        let dynamic = def.kind == BodyKind::Dynamic;
        let mass = if dynamic { def.mass } else { 0.0 };
        let inertia = if dynamic { def.shape.inertia(mass) } else { Vec3::ZERO };
        self.pos.push(def.pos);
        self.rot.push(rot);
        let (vel, ang_vel) =
            if def.kind == BodyKind::Static { (Vec3::ZERO, Vec3::ZERO) } else { (def.vel, def.ang_vel) };
        self.vel.push(vel);
        self.ang_vel.push(ang_vel);
        self.prev_pos.push(def.pos);
        self.prev_rot.push(rot);
        self.inv_mass.push(if dynamic { 1.0 / mass } else { 0.0 });
        self.inv_inertia.push(if dynamic { inertia.recip() } else { Vec3::ZERO });
        self.kind.push(def.kind);
        self.shape.push(def.shape);
        self.mass.push(mass);
        self.inertia.push(inertia);
        self.linear_damping.push(def.linear_damping);
        self.angular_damping.push(def.angular_damping);
        self.gravity_scale.push(def.gravity_scale);
        self.planar.push(def.planar);
        self.material.push(def.material);
        self.filter.push(def.filter);
        self.id.push(id);
        self.version += 1;
        Ok(id)
    }

    /// Dense index of the body named `id`, or an error naming it.
    pub fn index(&self, id: Id) -> Result<usize> {
        self.ids.get(id).ok_or_else(|| SimError::Invalid(format!("no body with id {}", id.0)))
    }

    /// Removes the body `id` (the last body takes its dense slot). Returns the dense index
    /// it had and the index the moved body came from (if any).
    pub fn remove(&mut self, id: Id) -> Result<(usize, Option<usize>)> {
        let i = self.index(id)?;
        let last = self.len() - 1;
        macro_rules! swap_remove {
            ($($f:ident),*) => { $( self.$f.swap_remove(i); )* };
        }
        swap_remove!(
            pos,
            rot,
            vel,
            ang_vel,
            prev_pos,
            prev_rot,
            inv_mass,
            inv_inertia,
            kind,
            shape,
            mass,
            inertia,
            linear_damping,
            angular_damping,
            gravity_scale,
            planar,
            material,
            filter,
            id
        );
        self.ids.free(id);
        let moved = if i != last {
            self.ids.moved(self.id[i], i);
            Some(last)
        } else {
            None
        };
        self.version += 1;
        Ok((i, moved))
    }

    pub fn clear(&mut self) {
        *self = Bodies { version: self.version + 1, ..Default::default() };
    }

    /// World-frame inverse inertia tensor R·I⁻¹·Rᵀ of body `i`. For an isotropic body (a
    /// sphere, a cube, and every immovable body: the same inverse inertia about each axis,
    /// I⁻¹ = s·1) it is s·1 in every pose, taken exactly rather than through R's rounding.
    #[inline]
    pub fn inv_inertia_world(&self, i: usize) -> Mat3 {
        let d = self.inv_inertia[i];
        if d.x == d.y && d.y == d.z {
            return Mat3::from_diagonal(d);
        }
        // R·D is R's columns scaled (no products by the diagonal's zeros).
        let r = Mat3::from_quat(self.rot[i]);
        Mat3::from_cols(r.x_axis * d.x, r.y_axis * d.y, r.z_axis * d.z) * r.transpose()
    }

    /// World point of the body-frame point `local` on body `i`.
    #[inline]
    pub fn world_point(&self, i: usize, local: Vec3) -> Vec3 {
        self.pos[i] + self.rot[i] * local
    }

    /// Velocity (m/s) of the body-fixed point at world position `p`.
    #[inline]
    pub fn point_velocity(&self, i: usize, p: Vec3) -> Vec3 {
        self.vel[i] + self.ang_vel[i].cross(p - self.pos[i])
    }

    /// Kinetic energy (J) of body `i`: ½ m v² + ½ ωᵀ I ω.
    pub fn kinetic_energy(&self, i: usize) -> f32 {
        let w_local = self.rot[i].inverse() * self.ang_vel[i];
        0.5 * self.mass[i] * self.vel[i].length_squared() + 0.5 * (self.inertia[i] * w_local).dot(w_local)
    }

    /// Sets whether body `i` is held kinematically (inverse mass 0) or moves freely.
    pub fn set_kinematic_hold(&mut self, i: usize, held: bool) {
        let free = self.kind[i] == BodyKind::Dynamic && !held;
        self.inv_mass[i] = if free { 1.0 / self.mass[i] } else { 0.0 };
        self.inv_inertia[i] = if free { self.inertia[i].recip() } else { Vec3::ZERO };
        self.version += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_stay_valid_when_others_are_removed() {
        let mut b = Bodies::default();
        let ids: Vec<Id> = (0..4)
            .map(|k| b.add(&BodyDef { pos: Vec3::new(k as f32, 0.0, 0.0), ..Default::default() }).unwrap())
            .collect();
        b.remove(ids[1]).unwrap();
        assert!(b.index(ids[1]).is_err(), "a removed id is stale");
        for &k in &[0usize, 2, 3] {
            let i = b.index(ids[k]).unwrap();
            assert_eq!(b.pos[i].x, k as f32, "id {k} still names its body");
        }
        let again = b.add(&BodyDef::default()).unwrap();
        assert_ne!(again, ids[1], "a reused slot has a new generation");
    }

    #[test]
    fn bad_defs_change_nothing() {
        let mut b = Bodies::default();
        for def in [
            BodyDef { mass: 0.0, ..Default::default() },
            BodyDef { mass: f32::NAN, ..Default::default() },
            BodyDef { pos: Vec3::new(f32::INFINITY, 0.0, 0.0), ..Default::default() },
            BodyDef { rot: Quat::from_xyzw(0.0, 0.0, 0.0, 0.0), ..Default::default() },
            BodyDef { shape: Shape::Box { half: Vec3::ZERO }, ..Default::default() },
            BodyDef { planar: true, pos: Vec3::new(0.0, 0.0, 1.0), ..Default::default() },
        ] {
            assert!(b.add(&def).is_err(), "{def:?} must be refused");
        }
        assert!(b.is_empty());
        // A static body needs no mass.
        assert!(b.add(&BodyDef { kind: BodyKind::Static, mass: 0.0, ..Default::default() }).is_ok());
    }
}
