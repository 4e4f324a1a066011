//! The 002 seed's solver, faithfully: Verlet integration with the seed's friction, then
//! `ITERATION_COUNT` passes of centre-based relaxation with `give` over the links **in array
//! order**, bouncing off the walls. Its defaults are the post's (`AIR_FRICTION` 0.95,
//! `BOUNCE_FRICTION` 0.5, `ITERATION_COUNT` 3, `GIVE` 0, one step per frame).
//!
//! Per link with ends p1, p2 and rest length L, the seed computes
//!
//! ```text
//! center = (p1 + p2) / 2,   dir = (p1 - p2) / |p1 - p2|
//! p1 ← give·p1 + (1 - give)·(center + dir·L/2)      unless p1 is locked
//! p2 ← give·p2 + (1 - give)·(center - dir·L/2)      unless p2 is locked
//! ```
//!
//! i.e. each free end moves half the error, `(1 - give)·(L - d)/2`, along the link.
//! **Known flaw, kept on purpose:** it ignores mass. With one end locked the free end still
//! moves only half the error, so a pinned chain converges at half speed and a heavy point is
//! pushed around like a light one. `Settings::mass_weighted` switches to the PBD projection
//! (Müller et al. 2006), which moves each end by `w_i / (w_1 + w_2)` of the error
//! (w = inverse mass) and so closes the whole error in one pass when one end is locked.
//!
//! ## The sweep order: the seed's, scheduled as a wavefront
//! The seed sweeps its connections in array order, `ITERATION_COUNT` times. Done literally,
//! each projection waits for the previous one (they share a point): a chain of dependent
//! square roots and divisions, about 50 cycles a link. An earlier version swept even-indexed
//! links, then odd-indexed ones, which breaks that chain but is *not* the seed's order and
//! has an artefact the seed does not have: with few passes the last half-sweep leaves every
//! odd link exact and every even link stretched (28.5 % / 0 % alternating on the rope
//! preset), so the ends of even links clump and the stretch tint draws stripes.
//!
//! [`Schedule`] keeps the seed's order exactly and still overlaps the work. A projection
//! reads and writes only its two end points, so two projections that share no point commute
//! *bit for bit*. Give every projection of the sequential order (pass `it`, link `k`) a
//! level: one more than the level of the last earlier projection that touched either of its
//! points. Projections of one level share no point, and every projection comes after all
//! those it depends on, so running the levels in turn is a topological order of the
//! sequential dependency graph: the same floating-point operations on the same values, hence
//! the same result as the literal loops (tested bit for bit on random graphs). On a chain,
//! pass `it` link `k` lands on level `k + 2·it + 1`, so the passes run as a wavefront, five
//! independent projections in flight at five passes. The schedule is rebuilt only when the
//! links or the pass count change.
//!
//! ## Substeps
//! The post runs one step per frame, and its constants are per step: `AIR_FRICTION` per
//! step, gravity per step², `ITERATION_COUNT` sweeps per step. Classic runs each substep as
//! one whole step of the post's, of length h = dt/substeps: the default, 1 substep of a
//! 1/60 s frame, is the post frame for frame (mapped at 1 px = 1 cm, the post's gravity
//! `GRAVITY · STEP²` = 0.25 px/frame² is 9 m/s²). More substeps are the same algorithm at a
//! finer step: gravity is integrated the same (Verlet), the links are swept
//! `substeps × iterations` times per frame, and `friction` and `bounce_friction` act per
//! substep, so 4 substeps keep friction⁴ of the velocity per frame (0.81 at 0.95) and the
//! rope moves differently (3.2 cm apart after 10 frames of the rope preset). Substeps are
//! kept rather than ignored because scenes set them for the solvers that need them (the
//! capstan: 30 substeps × 2 iterations) and classic runs those scenes too: ignoring them
//! would leave it 2 sweeps a frame, and the capstan's load slides 0.7 m off the bollard.
//! A faithful run of the post is substeps = 1 (`tests/classic.rs`).
//!
//! ## Walls, obstacles and bouncing: the post's, after the relaxation
//! The post, per point: friction, velocity, gravity, then the walls: a point past a wall is
//! put on it, its previous position mirrored past the wall by its velocity before gravity
//! (the normal speed reflected fully) and `applyFriction(BOUNCE_FRICTION = 0.5)` halves its
//! whole velocity, tangential part included. Classic keeps that arithmetic with the
//! defaults `restitution` = 1 (the mirror) and `bounce_friction` = 0.5 (the halving), and
//! `friction` = 0.95 (`AIR_FRICTION`): a lone point bouncing off the walls follows the
//! post to f32 rounding (`tests/classic.rs`, the post's code transcribed).
//!
//! Positions are kept inside the walls (and outside obstacles, with their Coulomb friction:
//! the shared `collide::contact` projection) before and after the relaxation, and the
//! bounce is applied in the velocity stage, from where the walls left the point before the
//! relaxation (a) and the velocity it arrived with (u = friction·v₀, the post's `vel`):
//!
//! ```text
//! v = bounce_friction · R(a - x_prev)/h + (x - a)/h
//! ```
//!
//! R replaces the normal part by −e·u·n (e = `restitution`), and the relaxation's
//! displacement after the wall (x − a) keeps only its tangential part; obstacles keep
//! `bounce_friction` 1 (they have their own friction). Three deviations from the post are
//! kept on purpose:
//!
//! - **Bouncing after the relaxation.** The post bounces before it, so its relaxation runs
//!   with `prev` mirrored off the constraint manifold and the projection's inward pull adds
//!   to the reflected velocity: each bounce pumps energy in. A violent drag into the walls
//!   at restitution 1 grew a point's velocity past the size of the box (167 km/s measured),
//!   after which it hit a wall on every step and the rope hung frozen with its energy
//!   climbing from 2·10⁹ J to 9·10⁹ J. Here the bounce has the last word on the normal
//!   velocity, so the projections only take energy out (`tests/violent_drag.rs`).
//! - **Nothing ends the step past a wall.** The relaxation can push a point a wall stopped
//!   back past it (its link is off its length); the post leaves it there to be mirrored
//!   again next frame, classic puts it back on the wall. A stick thrown at a wall turns a
//!   few centimetres differently from the post's for that (measured 5.5 cm at most, the
//!   same rest on the floor to 1 mm; `tests/classic.rs`).
//! - **No floor jitter.** The post mirrors any arrival, so a point lying on the floor
//!   bounces by half of each frame's gravity forever. Classic reflects only an arrival
//!   faster than gravity alone makes in two steps (2|g|h); slower contacts keep the normal
//!   velocity the projection leaves (zero), and still lose `bounce_friction` of the rest,
//!   as the post's floor does. A point touching two walls at once (a corner) records one
//!   of them, so it loses `bounce_friction` once, not twice as in the post.
//!
//! Only a point still on its contact at the end of the step is reflected (one its links
//! pulled away did not stop against the surface; as `contact::velocities_with_restitution`).
//!
//! Friction is the seed's `applyFriction`: `prev ← mix(pos, prev, friction)`, so the next
//! Verlet displacement is `friction · (pos - prev)`: a per-step velocity retention factor.

use glam::Vec3;

use crate::collide::contact::{self, ContactRecord, Material, WallContacts};
use crate::links::{LinkKind, Links};

use super::StepContext;

/// Stage `integrate`: Verlet with the seed's friction, `x' = x + friction·(x − x_prev) + g h²`.
/// `vel` keeps the velocity the point arrives with, for the bounce.
pub fn integrate(c: &mut StepContext) {
    let h = c.h;
    let (particles, settings) = (&mut *c.particles, c.settings);
    let g = settings.gravity * (h * h);
    let friction = settings.friction;
    let n = particles.len();

    for i in 0..n {
        if particles.inv_mass[i] == 0.0 {
            continue;
        }
        let pos = particles.pos[i];
        let disp = (pos - particles.prev[i]) * friction;
        particles.prev[i] = pos;
        particles.pos[i] = pos + disp + g;
    }
}

/// The post's walls: no Coulomb friction at the position level; the bounce keeps
/// `bounce_friction` of the whole velocity (the velocity stage).
fn wall_contacts(settings: &crate::settings::Settings) -> Option<WallContacts> {
    settings.walls.map(|walls| WallContacts {
        walls,
        material: Material { mu_s: 0.0, mu_k: 0.0, e: settings.restitution, keep: settings.bounce_friction },
    })
}

/// Stage `solve`: walls and obstacles, the seed's relaxation passes in its order, walls and
/// obstacles again.
pub fn solve(c: &mut StepContext) {
    let StepContext { particles, links, settings, obstacles, scratch, .. } = c;
    let (links, settings, obstacles) = (*links, *settings, *obstacles);
    let n = particles.len();

    // Walls and obstacles (positions only).
    let walls = wall_contacts(settings);
    let contacts = walls.is_some() || !obstacles.is_empty();
    let collide = |pos: &mut [Vec3], prev: &[Vec3], w: &[f32], radius: &[f32], rec: &mut ContactRecord| {
        if contacts {
            contact::solve(pos, prev, w, radius, obstacles, walls.as_ref(), rec);
        }
    };
    collide(&mut particles.pos, &particles.prev, &particles.inv_mass, &particles.radius, &mut scratch.contact_record());
    if contacts {
        // Where the walls left the points they stopped, before the links pull them.
        for ((at, &p), &nrm) in scratch.classic_arrive.iter_mut().zip(&particles.pos).zip(&scratch.contact_n) {
            *at = if nrm != Vec3::ZERO { p } else { Vec3::NAN };
        }
    }

    // The relaxation passes, in the seed's order (see [`Schedule`]).
    scratch.classic.refresh(links, n, settings.iterations);
    let order = &scratch.classic.order;
    let pos = &mut particles.pos[..];
    let w = &particles.inv_mass[..];
    if settings.mass_weighted {
        relax_mass_weighted(pos, w, links, order);
    } else {
        relax_seed(pos, w, links, order);
    }

    // Walls and obstacles again, so nothing ends the step inside them.
    collide(&mut particles.pos, &particles.prev, &particles.inv_mass, &particles.radius, &mut scratch.contact_record());
}

/// Stage `velocities`: v = (x − x_prev)/h, with the post's bounce for points that touched
/// a wall or an obstacle this step (see the module docs). With `a` where the walls left the
/// point before the relaxation (its position now if it touched only after it):
///
/// ```text
/// v_a = (a - x_prev)/h,  d = (x - a)/h   the arrival, and the links' pull after it
/// u = friction · v₀                      the post's `vel`: the Verlet velocity before gravity
/// if u·n < -2|g|h and still on contact:  v_a ← v_a - (v_a·n)n - e(u·n)n,  d ← d - (d·n)n
/// v = keep · v_a + d                     keep = bounce_friction on walls, 1 on obstacles
/// ```
pub fn velocities(c: &mut StepContext) {
    let h = c.h;
    let StepContext { particles, settings, obstacles, scratch, .. } = c;
    let n = particles.len();
    if settings.walls.is_some() || !obstacles.is_empty() {
        let threshold = 2.0 * settings.gravity.length() * h;
        let arrive = std::mem::take(&mut scratch.classic_arrive);
        bounce(particles, &arrive, settings.friction, h, threshold, &mut scratch.contact_record());
        scratch.classic_arrive = arrive;
    } else {
        let inv_h = 1.0 / h;
        for i in 0..n {
            particles.vel[i] = (particles.pos[i] - particles.prev[i]) * inv_h;
        }
    }
}

/// The velocity stage with the post's bounce (`arrive`: where the walls left each point
/// before the relaxation, NaN if they did not); clears the contact records.
fn bounce(
    particles: &mut crate::particles::Particles,
    arrive: &[Vec3],
    friction: f32,
    h: f32,
    threshold: f32,
    rec: &mut ContactRecord,
) {
    let inv_h = 1.0 / h;
    let (pos, prev, vel, radius) = (&particles.pos, &mut particles.prev, &mut particles.vel, &particles.radius);
    let n = pos
        .len()
        .min(prev.len())
        .min(vel.len())
        .min(radius.len())
        .min(arrive.len())
        .min(rec.normal.len())
        .min(rec.e.len())
        .min(rec.plane.len())
        .min(rec.keep.len());
    for i in 0..n {
        let normal = rec.normal[i];
        if normal == Vec3::ZERO {
            vel[i] = (pos[i] - prev[i]) * inv_h;
            continue;
        }
        rec.normal[i] = Vec3::ZERO;
        let a = if arrive[i].is_nan() { pos[i] } else { arrive[i] };
        let (mut va, mut d) = ((a - prev[i]) * inv_h, (pos[i] - a) * inv_h);
        // Only a point still on its contact bounces (as `velocities_with_restitution`: one
        // its links pulled away did not stop against the surface).
        let on_contact = normal.dot(pos[i]) - rec.plane[i] <= radius[i].max(1e-3);
        let un = friction * vel[i].dot(normal);
        if on_contact && un < -threshold {
            va += normal * (-rec.e[i] * un - va.dot(normal));
            d -= normal * d.dot(normal);
        } else if rec.keep[i] == 1.0 {
            // Nothing to change: v = (x - x_prev)/h, `prev` as it is.
            vel[i] = (pos[i] - prev[i]) * inv_h;
            continue;
        }
        let v = va * rec.keep[i] + d;
        prev[i] = pos[i] - v * h;
        vel[i] = v;
    }
}

/// The seed's sequential sweeps (`passes` × every link in array order) as levels of
/// mutually independent projections; see the module docs.
#[derive(Clone, Debug, Default)]
pub struct Schedule {
    /// What the schedule was built from: links version and count, particle count, passes.
    key: Option<(u64, usize, usize, u32)>,
    /// Link index of every projection, level by level (`passes × links` entries).
    pub(crate) order: Vec<u32>,
    /// Build scratch: per particle, the level of the last projection that touched it.
    last: Vec<u32>,
    /// Build scratch: level of each projection in sequential order, then per-level counts.
    level: Vec<u32>,
    count: Vec<u32>,
}

impl Schedule {
    /// Rebuilds the schedule if the links, the particle count or the pass count changed.
    pub fn refresh(&mut self, links: &Links, particles: usize, passes: u32) {
        let key = (links.version, links.len(), particles, passes);
        if self.key == Some(key) {
            return;
        }
        self.key = Some(key);
        let m = links.len();
        self.last.clear();
        self.last.resize(particles, 0);
        self.level.clear();
        let mut top = 0u32;
        for _ in 0..passes {
            for &[a, b] in &links.ends {
                let (a, b) = (a as usize, b as usize);
                let t = 1 + self.last[a].max(self.last[b]);
                self.last[a] = t;
                self.last[b] = t;
                self.level.push(t);
                top = top.max(t);
            }
        }
        // Counting sort by level, stable: within a level, sequential order.
        self.count.clear();
        self.count.resize(top as usize + 2, 0);
        for &t in &self.level {
            self.count[t as usize + 1] += 1;
        }
        for t in 1..self.count.len() {
            self.count[t] += self.count[t - 1];
        }
        self.order.clear();
        self.order.resize(self.level.len(), 0);
        for (j, &t) in self.level.iter().enumerate() {
            let slot = &mut self.count[t as usize];
            self.order[*slot as usize] = (j % m.max(1)) as u32;
            *slot += 1;
        }
    }
}

/// The seed's centre-split projections of the links listed in `order`.
#[inline]
pub fn relax_seed(pos: &mut [Vec3], w: &[f32], links: &Links, order: &[u32]) {
    let (ends, rest, give, kind) = (&links.ends[..], &links.rest[..], &links.give[..], &links.kind[..]);
    for &k in order {
        let k = k as usize;
        let [a, b] = ends[k];
        let (a, b) = (a as usize, b as usize);
        let delta = pos[a] - pos[b];
        let d = delta.length_squared().sqrt();
        if d < 1e-9 || (kind[k] == LinkKind::Rope && d <= rest[k]) {
            continue;
        }
        // p1 moves to center + dir·L/2 = p1 + dir·(L - d)/2, blended by give.
        let shift = delta * ((1.0 - give[k]) * 0.5 * (rest[k] - d) / d);
        if w[a] != 0.0 {
            pos[a] += shift;
        }
        if w[b] != 0.0 {
            pos[b] -= shift;
        }
    }
}

/// The inverse-mass-weighted (PBD) projections, blended by give, of the links in `order`.
#[inline]
pub fn relax_mass_weighted(pos: &mut [Vec3], w: &[f32], links: &Links, order: &[u32]) {
    let (ends, rest, give, kind) = (&links.ends[..], &links.rest[..], &links.give[..], &links.kind[..]);
    for &k in order {
        let k = k as usize;
        let [a, b] = ends[k];
        let (a, b) = (a as usize, b as usize);
        let (wa, wb) = (w[a], w[b]);
        let wsum = wa + wb;
        if wsum == 0.0 {
            continue;
        }
        let delta = pos[a] - pos[b];
        let d = delta.length_squared().sqrt();
        if d < 1e-9 || (kind[k] == LinkKind::Rope && d <= rest[k]) {
            continue;
        }
        let shift = delta * ((1.0 - give[k]) * (rest[k] - d) / (d * wsum));
        pos[a] += shift * wa;
        pos[b] -= shift * wb;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::links::LinkDef;

    /// A small deterministic PRNG (xorshift) for the random graphs.
    fn rng(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    /// The schedule gives the literal loops' result bit for bit, on chains, grids and random
    /// graphs, for both projections, locked points, rope links and give.
    #[test]
    fn schedule_is_the_seed_order_bit_for_bit() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for case in 0..60 {
            let n = 2 + (rng(&mut s) % 60) as usize;
            let mut links = Links::default();
            let m = 1 + (rng(&mut s) % 120) as usize;
            for k in 0..m {
                let (a, b) = if case % 3 == 0 {
                    (k % (n - 1), k % (n - 1) + 1) // chains (repeated)
                } else {
                    let a = (rng(&mut s) % n as u64) as usize;
                    let mut b = (rng(&mut s) % n as u64) as usize;
                    if a == b {
                        b = (a + 1) % n;
                    }
                    (a, b)
                };
                let def = LinkDef {
                    a: a as u32,
                    b: b as u32,
                    give: if k % 5 == 0 { 0.3 } else { 0.0 },
                    kind: if k % 7 == 0 { LinkKind::Rope } else { LinkKind::Distance },
                    ..Default::default()
                };
                links.push(&def, 0.05 + (rng(&mut s) % 100) as f32 * 0.01);
            }
            let pos0: Vec<Vec3> = (0..n)
                .map(|_| {
                    let f = |s: &mut u64| (rng(s) % 2000) as f32 * 0.001 - 1.0;
                    Vec3::new(f(&mut s), f(&mut s), f(&mut s))
                })
                .collect();
            let w: Vec<f32> = (0..n).map(|i| if i % 9 == 0 { 0.0 } else { 1.0 / (1 + i % 4) as f32 }).collect();
            let passes = 1 + (case % 6) as u32;
            let mut sched = Schedule::default();
            sched.refresh(&links, n, passes);
            assert_eq!(sched.order.len(), m * passes as usize);
            let sequential: Vec<u32> = (0..passes).flat_map(|_| 0..m as u32).collect();
            for weighted in [false, true] {
                let relax = if weighted { relax_mass_weighted } else { relax_seed };
                let (mut a, mut b) = (pos0.clone(), pos0.clone());
                relax(&mut a, &w, &links, &sequential);
                relax(&mut b, &w, &links, &sched.order);
                let bits = |v: &[Vec3]| v.iter().flat_map(|p| p.to_array().map(f32::to_bits)).collect::<Vec<_>>();
                assert_eq!(bits(&a), bits(&b), "case {case} weighted {weighted}");
            }
        }
    }

    /// Projections of one level share no point (what lets the CPU overlap them).
    #[test]
    fn levels_are_independent_on_a_chain() {
        let mut links = Links::default();
        for k in 0..99u32 {
            links.push(&LinkDef { a: k, b: k + 1, ..Default::default() }, 0.1);
        }
        let mut sched = Schedule::default();
        sched.refresh(&links, 100, 5);
        // Level of pass `it`, link `k` is k + 2·it + 1: the first level has one projection,
        // and the order starts 0, 1, (2, 0), (3, 1), (4, 2, 0), …
        assert_eq!(&sched.order[..9], &[0, 1, 2, 0, 3, 1, 4, 2, 0]);
    }
}
