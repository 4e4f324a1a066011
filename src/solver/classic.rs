//! The 002 seed's solver, faithfully: Verlet integration with the seed's friction, then
//! `ITERATION_COUNT` passes of centre-based relaxation with `give` over the links **in array
//! order**, bouncing off the walls.
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
//! ## Walls, obstacles and bouncing
//! Positions are kept inside the walls (and outside obstacles, with their Coulomb friction:
//! the shared `collide::contact` projection) before and after the relaxation, and a point
//! that hit something bounces in the velocity stage: its normal velocity becomes `-e` times
//! the one it arrived with (e = `restitution`; the seed reflects fully, e = 1), unless it
//! arrived slower than gravity alone makes it in two steps (so ropes lying on the floor do
//! not jitter).
//!
//! An earlier version bounced the seed's way *before* the relaxation, by moving the previous
//! position to the mirror image of the step beyond the wall. That puts `prev` off the
//! constraint manifold while the links are projected, and the projection, which pulls the
//! point back toward its neighbours (inward), then *adds* to its inward velocity: each bounce
//! pumped energy in. A violent drag into the walls grew a point's velocity past the size of
//! the box (167 km/s measured), after which it hit a wall on every step, and the rope hung
//! frozen with its energy climbing from 2·10⁹ J to 9·10⁹ J. Bouncing after the relaxation
//! keeps `prev` on the manifold while it runs, so the projections only ever take energy out
//! (`tests/violent_drag.rs` drives the same drag and bounds the energy).
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
    let (particles, settings) = (&mut *c.p, c.s);
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

/// The seed's walls (frictionless) and the static obstacles as contacts.
fn wall_contacts(settings: &crate::settings::Settings) -> Option<WallContacts> {
    settings.walls.map(|walls| WallContacts {
        walls,
        // The seed's walls have no friction.
        material: Material { mu_s: 0.0, mu_k: 0.0, e: settings.restitution },
    })
}

/// Stage `solve`: walls and obstacles, the seed's relaxation passes in its order, walls and
/// obstacles again.
pub fn solve(c: &mut StepContext) {
    let StepContext { p: particles, links, s: settings, obstacles, sc: scratch, .. } = c;
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

/// Stage `velocities`: v = (x − x_prev)/h, with the bounce for points that hit something.
pub fn velocities(c: &mut StepContext) {
    let h = c.h;
    let StepContext { p: particles, s: settings, obstacles, sc: scratch, .. } = c;
    let n = particles.len();
    if settings.walls.is_some() || !obstacles.is_empty() {
        let threshold = 2.0 * settings.gravity.length() * h;
        contact::velocities_with_restitution(
            &particles.pos,
            &mut particles.prev,
            &mut particles.vel,
            &particles.radius,
            h,
            threshold,
            &mut scratch.contact_record(),
        );
    } else {
        let inv_h = 1.0 / h;
        for i in 0..n {
            particles.vel[i] = (particles.pos[i] - particles.prev[i]) * inv_h;
        }
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
