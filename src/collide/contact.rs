//! Particle–obstacle contacts with Coulomb friction and restitution, at the position level
//! (Macklin et al. 2014, "Unified Particle Physics for Real-Time Applications", §6.1;
//! Müller et al. 2020, "Detailed Rigid Body Simulation with Extended Position Based
//! Dynamics", §3.5–3.6). Shared by every PBD-family solver.
//!
//! **Normal.** A particle of radius r at x penetrates a shape when its signed distance
//! d(x) < r. The contact is the inequality C(x) = d(x) - r ≥ 0 against a static (infinitely
//! heavy) body, so its whole correction goes to the particle:
//!
//! ```text
//! Δx_n = p·n,   p = r - d(x) > 0 (the penetration),   n = ∇d (the outward normal)
//! ```
//!
//! **Friction.** Over the substep the particle has moved Δx = x - x₀ (x₀ = its position at
//! the start of the substep, `prev`). Its tangential part Δx_t = Δx - (Δx·n)n is the slip.
//! The normal correction p is, divided by h², the normal force impulse per unit mass, so
//! Coulomb's law |f_t| ≤ μ|f_n| becomes a bound on the tangential correction:
//!
//! ```text
//! |Δx_t| < μs·p :  x ← x - Δx_t                         (static: the contact sticks)
//! otherwise      :  x ← x - Δx_t·min(μk·p / |Δx_t|, 1)   (dynamic: slip reduced by μk·p)
//! ```
//!
//! For a particle resting on a slope at angle θ under gravity, one substep predicts a
//! displacement g h² whose normal part p = g h² cos θ is pushed back and whose tangential
//! part is g h² sin θ: it sticks exactly when tan θ < μs, which is Coulomb's criterion, and
//! slides with acceleration g(sin θ - μk cos θ) otherwise (tested in `tests/physics.rs`).
//!
//! **Restitution.** Position projection leaves a separating normal velocity of at most the
//! penetration speed, i.e. a perfectly inelastic contact. After the velocity update, a
//! particle that touched a shape this substep and arrived with normal speed
//! v₀·n < -2|g|h (faster than gravity alone produces in two substeps, so resting contacts
//! do not jitter) has its normal velocity set to -e·(v₀·n); `prev` is moved to keep
//! vel = (pos - prev)/h.

use glam::{Vec2, Vec3};
use serde::{Deserialize, Serialize};

use super::shapes::Shape;

/// An axis-aligned box the particles bounce inside (the seed's canvas edges), in the x–y
/// plane. The bottom wall doubles as the ground.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Walls {
    pub min: Vec2,
    pub max: Vec2,
}

/// A static obstacle: a shape and its surface material.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Obstacle {
    pub shape: Shape,
    /// Coulomb static friction coefficient μs (≥ 0).
    #[serde(default = "default_friction")]
    pub friction: f32,
    /// Coulomb dynamic friction coefficient μk (≥ 0); omitted = `friction`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dynamic_friction: Option<f32>,
    /// Fraction of normal speed kept in a bounce, 0 ≤ e ≤ 1.
    #[serde(default)]
    pub restitution: f32,
}

fn default_friction() -> f32 {
    0.5
}

impl Obstacle {
    pub fn new(shape: Shape) -> Obstacle {
        Obstacle { shape, friction: default_friction(), dynamic_friction: None, restitution: 0.0 }
    }

    /// Checks every number; returns the obstacle with its shape normalised, or the faulty
    /// field's path (relative to the obstacle, e.g. `shape.radius`) and the reason.
    pub fn validated(&self) -> Result<Obstacle, (String, String)> {
        let shape = self.shape.validated().map_err(|(f, r)| (format!("shape.{f}"), r))?;
        let mu = |name: &str, x: f32| {
            if x.is_finite() && x >= 0.0 {
                Ok(())
            } else {
                Err((
                    name.to_string(),
                    format!("{} is out of range (a friction coefficient ≥ 0)", crate::num::Num32(x)),
                ))
            }
        };
        mu("friction", self.friction)?;
        if let Some(k) = self.dynamic_friction {
            mu("dynamic_friction", k)?;
        }
        if !(0.0..=1.0).contains(&self.restitution) {
            return Err((
                "restitution".into(),
                format!("{} is out of range (0 ≤ restitution ≤ 1)", crate::num::Num32(self.restitution)),
            ));
        }
        Ok(Obstacle { shape, ..*self })
    }

    #[inline]
    pub fn material(&self) -> Material {
        Material {
            mu_s: self.friction,
            mu_k: self.dynamic_friction.unwrap_or(self.friction),
            e: self.restitution,
            keep: 1.0,
        }
    }
}

/// Surface material of one contact.
#[derive(Clone, Copy, Debug)]
pub struct Material {
    pub mu_s: f32,
    pub mu_k: f32,
    pub e: f32,
    /// Fraction of its whole velocity a particle keeps after touching the surface (the 002
    /// post's `BOUNCE_FRICTION` on its walls; 1 for obstacles). Read by the classic solver's
    /// velocity stage only.
    pub keep: f32,
}

/// Walls (the seed's canvas box in the x–y plane) with their material.
#[derive(Clone, Copy, Debug)]
pub struct WallContacts {
    pub walls: Walls,
    pub material: Material,
}

/// Per-particle record of this substep's contact: the normal (zero = none), the
/// restitution, the contact plane (n·x = `plane` at the particle's surface point) and the
/// material's `keep`, read by [`velocities_with_restitution`] (and the classic solver's
/// velocity stage) after the velocity update.
pub struct ContactRecord<'a> {
    pub normal: &'a mut [Vec3],
    pub e: &'a mut [f32],
    pub plane: &'a mut [f32],
    pub keep: &'a mut [f32],
}

/// One projection pass of every free particle against every obstacle and the walls.
#[allow(clippy::too_many_arguments)]
pub fn solve(
    pos: &mut [Vec3],
    prev: &[Vec3],
    w: &[f32],
    radius: &[f32],
    obstacles: &[Obstacle],
    walls: Option<&WallContacts>,
    rec: &mut ContactRecord,
) {
    let n = pos
        .len()
        .min(prev.len())
        .min(w.len())
        .min(radius.len())
        .min(rec.normal.len())
        .min(rec.e.len())
        .min(rec.plane.len())
        .min(rec.keep.len());
    for i in 0..n {
        if w[i] == 0.0 {
            continue;
        }
        let r = radius[i];
        for o in obstacles {
            let (d, normal) = o.shape.distance(pos[i]);
            if d < r {
                contact(i, pos, prev, r - d, normal, o.material(), rec);
            }
        }
        if let Some(wc) = walls {
            let (lo, hi) = (wc.walls.min, wc.walls.max);
            let p = pos[i];
            if p.x - r < lo.x {
                contact(i, pos, prev, lo.x - (p.x - r), Vec3::X, wc.material, rec);
            } else if p.x + r > hi.x {
                contact(i, pos, prev, p.x + r - hi.x, Vec3::NEG_X, wc.material, rec);
            }
            let p = pos[i];
            if p.y - r < lo.y {
                contact(i, pos, prev, lo.y - (p.y - r), Vec3::Y, wc.material, rec);
            } else if p.y + r > hi.y {
                contact(i, pos, prev, p.y + r - hi.y, Vec3::NEG_Y, wc.material, rec);
            }
        }
    }
}

/// Resolves one contact of particle `i`: penetration `pen` > 0 along `normal`.
#[inline]
fn contact(i: usize, pos: &mut [Vec3], prev: &[Vec3], pen: f32, normal: Vec3, m: Material, rec: &mut ContactRecord) {
    let mut x = pos[i] + normal * pen;
    let dx = x - prev[i];
    let slip = dx - normal * dx.dot(normal);
    let s = slip.length_squared().sqrt();
    if s < m.mu_s * pen {
        x -= slip;
    } else if s > 0.0 {
        x -= slip * (m.mu_k * pen / s).min(1.0);
    }
    pos[i] = x;
    rec.normal[i] = normal;
    rec.e[i] = m.e;
    rec.plane[i] = normal.dot(x);
    rec.keep[i] = m.keep;
}

/// Velocity stage with restitution: `vel` holds the velocities at the start of the
/// substep on entry and `(pos - prev)/h` (with bounces) on exit; contact records are
/// cleared. `threshold` is the approach speed below which contacts do not bounce.
///
/// Only a particle still on its contact bounces: within its radius of the contact plane
/// at the end of the substep. A particle that touched a wall and was then pulled away by
/// its links (the exact solver's Newton pass can move a point of a folded rope a long way)
/// did not stop against the surface, so reflecting its approach speed would invent
/// energy; with e = 1 that used to keep one point of a violently dragged rope at 519 m/s
/// indefinitely, the rope frozen at 23 kJ (tests/violent_drag.rs).
pub fn velocities_with_restitution(
    pos: &[Vec3],
    prev: &mut [Vec3],
    vel: &mut [Vec3],
    radius: &[f32],
    h: f32,
    threshold: f32,
    rec: &mut ContactRecord,
) {
    let inv_h = 1.0 / h;
    let n = pos
        .len()
        .min(prev.len())
        .min(vel.len())
        .min(radius.len())
        .min(rec.normal.len())
        .min(rec.e.len())
        .min(rec.plane.len());
    for i in 0..n {
        let mut v = (pos[i] - prev[i]) * inv_h;
        let normal = rec.normal[i];
        if normal != Vec3::ZERO {
            let vn0 = vel[i].dot(normal);
            let on_contact = normal.dot(pos[i]) - rec.plane[i] <= radius[i].max(1e-3);
            if vn0 < -threshold && on_contact {
                v += normal * (-rec.e[i] * vn0 - v.dot(normal));
                prev[i] = pos[i] - v * h;
            }
            rec.normal[i] = Vec3::ZERO;
        }
        vel[i] = v;
    }
}
