//! The impulse solver's particle contacts: a particle touching (or about to touch) an
//! obstacle or a wall, as three rows of `joints::row` swept with the joints' rows — the
//! seed's patch friction for a one-point patch (no twist: a point has none).
//!
//! - **Normal row**: J = [n] on the particle against the ground, λ ≥ 0, its factors by the
//!   contact rule (`rule::normal_soft`, tuning `Tuning::PARTICLES`); made speculatively
//!   within `SPECULATIVE` + |v|·h, so a fast particle is stopped in the substep it would
//!   cross a thin obstacle.
//! - **Tangent rows**: t₁, t₂ spanning the contact plane, λ_t ∈ [−μ λ_n, μ λ_n] with λ_n the
//!   normal row's accumulated impulse just before each use (Coulomb's law per sweep); μ is
//!   the shape's static coefficient, or its dynamic one when the particle already slides.
//! - **Restitution**: Box2D's pass after relax — a contact that approached faster than a
//!   threshold (two substeps of gravity) gets the normal velocity −e·v_n(before), the extra
//!   impulse still clamped to λ ≥ 0.
//! - **Warm starting**: a contact carries the three rows' λ from the last substep's contact
//!   of the same particle and shape (the rows are kept sorted by that key).

use glam::Vec3;

use super::rule::{self, Tuning, SPECULATIVE};
use crate::collide::contact::Material;
use crate::collide::{Obstacle, Walls};
use crate::joints::row::{self, Phase, Row, SolverBodies};
use crate::particles::Particles;

/// One particle's contact with one shape: the normal and two tangent rows.
#[derive(Clone, Copy, Debug, Default)]
struct PointContact {
    /// Particle index (high 32 bits) and shape (low: obstacle index, or wall 0xFFFF_0000+k),
    /// to carry impulses from the last substep.
    key: u64,
    rows: [Row; 3],
    mu: f32,
    e: f32,
    /// Normal velocity before the solve (restitution uses it).
    vn0: f32,
}

/// This substep's particle contacts and the last substep's (for warm starting); the buffers
/// are reused from substep to substep.
#[derive(Clone, Debug, Default)]
pub struct ParticleContacts {
    contacts: Vec<PointContact>,
    old_contacts: Vec<PointContact>,
}

impl ParticleContacts {
    /// The contacts' (key, the normal and two tangent rows' impulses), which the next step
    /// warm starts from.
    pub fn warm_contacts(&self) -> Vec<(u64, [f32; 3])> {
        self.contacts.iter().map(|c| (c.key, c.rows.map(|r| r.accum))).collect()
    }

    /// Particle `i` was removed: its contacts go, and those of the particles after it follow
    /// their new indices (the next step warm starts each contact from its own particle's).
    pub fn remove_particle(&mut self, i: u32) {
        self.contacts.retain(|c| (c.key >> 32) as u32 != i);
        for c in &mut self.contacts {
            if (c.key >> 32) as u32 > i {
                c.key -= 1 << 32;
            }
        }
    }

    /// Puts [`ParticleContacts::warm_contacts`]'s values into a fresh set.
    pub fn set_warm_contacts(&mut self, contacts: &[(u64, [f32; 3])]) {
        self.contacts.clear();
        self.contacts.extend(contacts.iter().map(|&(key, accum)| {
            let mut c = PointContact { key, ..Default::default() };
            for (row, a) in c.rows.iter_mut().zip(accum) {
                row.accum = a;
            }
            c
        }));
    }

    /// Drops the contacts (the bodies' rows ran without the impulse solver: they may name
    /// points since removed), so the next substep under it starts them cold.
    pub fn forget(&mut self) {
        self.contacts.clear();
    }

    /// The contacts with obstacles and walls for this substep, speculative within
    /// `SPECULATIVE` + |v|·h, impulses carried over from the last substep's contact with
    /// the same particle and shape. `bodies` are the solver bodies (particle i is body i),
    /// `ground` the static one; the walls (if any) are of material `wall_mat`.
    #[allow(clippy::too_many_arguments)]
    pub fn build(
        &mut self,
        bodies: &SolverBodies,
        ground: u32,
        p: &Particles,
        obstacles: &[Obstacle],
        walls: Option<Walls>,
        wall_mat: Material,
        h: f32,
    ) {
        std::mem::swap(&mut self.contacts, &mut self.old_contacts);
        self.contacts.clear();
        if obstacles.is_empty() && walls.is_none() {
            return;
        }
        let spring = Tuning::PARTICLES.particle_spring(h);
        let (contacts, old_contacts) = (&mut self.contacts, &self.old_contacts);
        let mut old = 0;
        for i in 0..p.len() {
            if bodies.inv_m[i] == 0.0 {
                continue;
            }
            let (x, r, v) = (p.pos[i], p.radius[i], bodies.v[i]);
            let reach = SPECULATIVE + v.length_squared().sqrt() * h;
            let mut add = |shape: u32, gap: f32, n: Vec3, m: Material| {
                let key = (i as u64) << 32 | shape as u64;
                let mut k = PointContact { key, mu: m.mu_s, e: m.e, vn0: n.dot(v), ..Default::default() };
                let (t1, t2) = n.any_orthonormal_pair();
                for (row, axis) in k.rows.iter_mut().zip([n, t1, t2]) {
                    row.set_axis(bodies, ground, i as u32, axis, x, Vec3::ZERO);
                }
                k.rows[0].soft = rule::normal_soft(gap, h, spring);
                (k.rows[0].lo, k.rows[0].hi) = (0.0, f32::INFINITY);
                // Sliding already: the dynamic coefficient.
                if (v - n * n.dot(v)).length_squared() > 1e-6 {
                    k.mu = m.mu_k;
                }
                while old < old_contacts.len() && old_contacts[old].key < key {
                    old += 1;
                }
                if let Some(o) = old_contacts.get(old).filter(|o| o.key == key) {
                    for (row, orow) in k.rows.iter_mut().zip(o.rows.iter()) {
                        row.accum = orow.accum;
                    }
                }
                contacts.push(k);
            };
            for (o_idx, o) in obstacles.iter().enumerate() {
                let (d, n) = o.shape.distance(x);
                if d - r < reach {
                    add(o_idx as u32, d - r, n, o.material());
                }
            }
            if let Some(w) = walls {
                let planes = [
                    (x.x - r - w.min.x, Vec3::X),
                    (w.max.x - x.x - r, Vec3::NEG_X),
                    (x.y - r - w.min.y, Vec3::Y),
                    (w.max.y - x.y - r, Vec3::NEG_Y),
                ];
                for (k, (gap, n)) in planes.into_iter().enumerate() {
                    if gap < reach {
                        add(0xFFFF_0000 + k as u32, gap, n, wall_mat);
                    }
                }
            }
        }
    }

    /// Every row's accumulated impulse re-applied to the solver bodies.
    pub fn warm_start(&self, sb: &mut SolverBodies) {
        for row in self.contacts.iter().flat_map(|k| k.rows.iter()) {
            row.warm_start(&mut sb.v, &mut sb.w);
        }
    }

    /// Every row's accumulated impulse zeroed (warm starting off).
    pub fn zero(&mut self) {
        self.contacts.iter_mut().flat_map(|k| k.rows.iter_mut()).for_each(|r| r.accum = 0.0);
    }

    /// One pass over the contacts: the normal row, then the tangent rows with their Coulomb
    /// bounds from the normal impulse.
    pub fn sweep(&mut self, sb: &mut SolverBodies, phase: Phase) {
        for k in self.contacts.iter_mut() {
            let [n, t1, t2] = &mut k.rows;
            row::solve(n, &mut sb.v, &mut sb.w, phase);
            let cap = k.mu * n.accum;
            for t in [t1, t2] {
                (t.lo, t.hi) = (-cap, cap);
                row::solve(t, &mut sb.v, &mut sb.w, phase);
            }
        }
    }

    /// Box2D's restitution pass: a contact that was approaching faster than `threshold` gets
    /// the normal velocity −e·v_n(before), the extra impulse still clamped λ ≥ 0.
    pub fn restitution(&mut self, sb: &mut SolverBodies, threshold: f32) {
        for k in self.contacts.iter_mut() {
            if k.e == 0.0 || k.vn0 > -threshold || k.rows[0].accum == 0.0 {
                continue;
            }
            let n = &mut k.rows[0];
            let vn = n.cdot(&sb.v, &sb.w);
            let new = (n.accum - n.mass * (vn + k.e * k.vn0)).max(0.0);
            let d = new - n.accum;
            n.accum = new;
            n.apply(&mut sb.v, &mut sb.w, d);
        }
    }
}
