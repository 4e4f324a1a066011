//! A rope wrapped over an obstacle, read off the world for the page: the capstan equation
//! on screen.
//!
//! A rope pulled around a fixed round body holds a load T_load with a smaller pull T_hold as
//! long as T_load / T_hold ≤ e^{μθ} (Euler–Eytelwein: θ the wrap angle in radians, μ the
//! static friction coefficient); past that it slips. This module finds the chain of links
//! that lies on an obstacle, measures θ from the chain itself, and takes the tensions just
//! off the obstacle on both sides:
//!
//! - **wrap** θ: the sum of the turning angles between consecutive links from the last link
//!   before the contact to the first link after it (so 2π for one full turn; the angle
//!   between the two free ends alone could not tell a half turn from one and a half);
//! - **tensions**: the solver's link force (N, over the last substep) on those two links, or
//!   — for the classic solver, which has no multipliers — the weight of the rope hanging
//!   below each side (the static tension, exact at rest for a vertically hanging end);
//! - **holds**: the rope's mean speed over the obstacle is under 1 cm/s. The page shows it
//!   beside the prediction `ratio ≤ e^{μθ}`: the two agree when the physics does.
//!
//! Built on request (it allocates); `tests/capstan.rs` checks the slip threshold itself.

use glam::Vec3;

use crate::collide::Shape;
use crate::world::World;

/// Speed (m/s) under which the rope counts as holding on the obstacle.
pub const HOLD_SPEED: f32 = 0.01;

/// One end of the wrapped rope: its last point and that point's mass.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WrapEnd {
    pub point: u32,
    pub mass: f32,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WrapReport {
    /// Index of the obstacle the rope lies on.
    pub obstacle: u32,
    /// Its static friction coefficient μs.
    pub mu: f32,
    /// Wrap angle θ (rad).
    pub wrap: f32,
    /// e^{μθ}: the largest tension ratio friction can hold.
    pub limit: f32,
    /// Tension (N) on the harder-pulling side, just off the obstacle.
    pub tension_load: f32,
    /// Tension (N) on the other side.
    pub tension_hold: f32,
    /// Whether the tensions are the solver's link forces (else hanging weights).
    pub from_solver: bool,
    /// T_load / T_hold (infinite when the hold side is slack).
    pub ratio: f32,
    /// Mean speed (m/s) of the rope's points on the obstacle.
    pub slip_speed: f32,
    /// The rope is not sliding over the obstacle (`slip_speed` < [`HOLD_SPEED`]).
    pub holds: bool,
    pub load: WrapEnd,
    pub hold: WrapEnd,
    /// The first and last rope points on the obstacle (load side first).
    pub contact_from: Vec3,
    pub contact_to: Vec3,
}

/// The rope on an obstacle with the most points touching it (planes — floors — excluded),
/// or `None` when no chain of links runs over one with both ends hanging free of it.
pub fn wrap_report(world: &World) -> Option<WrapReport> {
    let p = &world.particles;
    let n = p.len();
    // Points touching each obstacle (within a quarter radius or 2 mm of the surface).
    let touching = |o: &Shape, i: usize| {
        let (d, _) = o.distance(p.pos[i]);
        d <= p.radius[i] + (0.25 * p.radius[i]).max(2e-3)
    };
    let (oi, obstacle) = world
        .obstacles
        .iter()
        .enumerate()
        .filter(|(_, o)| !matches!(o.shape, Shape::Plane { .. }))
        .map(|(k, o)| (k, o, (0..n).filter(|&i| touching(&o.shape, i)).count()))
        .filter(|&(_, _, c)| c >= 2)
        .max_by_key(|&(_, _, c)| c)
        .map(|(k, o, _)| (k, o))?;

    // Neighbours through links (a chain has at most two per point).
    let mut nbr: Vec<Vec<(u32, u32)>> = vec![Vec::new(); n];
    for (k, &[a, b]) in world.links.ends.iter().enumerate() {
        nbr[a as usize].push((b, k as u32));
        nbr[b as usize].push((a, k as u32));
    }
    let start = (0..n).find(|&i| touching(&obstacle.shape, i) && nbr[i].len() <= 2)?;
    // Walk out both ways from `start` while the chain does not branch.
    let walk = |first: (u32, u32)| {
        let mut out = vec![first];
        let (mut prev, mut cur) = (start as u32, first.0);
        while nbr[cur as usize].len() == 2 && out.len() <= n {
            let &next = nbr[cur as usize].iter().find(|&&(q, _)| q != prev)?;
            out.push(next);
            (prev, cur) = (cur, next.0);
        }
        Some(out)
    };
    let mut chain: Vec<u32> = Vec::new(); // points in order
    let mut chain_links: Vec<u32> = Vec::new(); // chain_links[j] joins chain[j] and chain[j + 1]
    let sides: Vec<Vec<(u32, u32)>> = nbr[start].iter().map(|&f| walk(f)).collect::<Option<_>>()?;
    if let Some(left) = sides.first() {
        for &(q, k) in left.iter().rev() {
            chain.push(q);
            chain_links.push(k);
        }
    }
    chain.push(start as u32);
    if let Some(right) = sides.get(1) {
        for &(q, k) in right {
            chain_links.push(k);
            chain.push(q);
        }
    }
    let on: Vec<bool> = chain.iter().map(|&i| touching(&obstacle.shape, i as usize)).collect();
    let f = on.iter().position(|&t| t)?;
    let l = on.iter().rposition(|&t| t)?;
    if f == 0 || l + 1 >= chain.len() {
        return None; // an end lies on the obstacle: nothing hangs over it on that side
    }

    // Wrap: turning angles from the link entering the contact to the link leaving it.
    let dir = |j: usize| (p.pos[chain[j + 1] as usize] - p.pos[chain[j] as usize]).normalize_or_zero();
    let mut wrap = 0.0f32;
    for j in (f - 1)..l {
        let (a, b) = (dir(j), dir(j + 1));
        wrap += libm::acosf(a.dot(b).clamp(-1.0, 1.0));
    }

    // Tensions just off the obstacle.
    let forces = world.link_forces();
    let g = world.settings.gravity.length();
    let from_solver = !forces.is_empty() && forces.iter().any(|&t| t != 0.0);
    let (t_first, t_last) = if from_solver {
        (forces[chain_links[f - 1] as usize].max(0.0), forces[chain_links[l] as usize].max(0.0))
    } else {
        let weight =
            |r: &[u32]| r.iter().map(|&i| if p.locked[i as usize] { 0.0 } else { p.mass[i as usize] }).sum::<f32>() * g;
        (weight(&chain[..f]), weight(&chain[l + 1..]))
    };
    let (first_end, last_end) = (chain[0], chain[chain.len() - 1]);
    let end = |i: u32| WrapEnd { point: i, mass: p.mass[i as usize] };
    let (load_first, (tension_load, tension_hold)) =
        if t_first >= t_last { (true, (t_first, t_last)) } else { (false, (t_last, t_first)) };
    let (load, hold) = if load_first { (end(first_end), end(last_end)) } else { (end(last_end), end(first_end)) };
    let (cf, cl) = (p.pos[chain[f] as usize], p.pos[chain[l] as usize]);
    let (contact_from, contact_to) = if load_first { (cf, cl) } else { (cl, cf) };

    let slip_speed = (f..=l).map(|j| p.vel[chain[j] as usize].length()).sum::<f32>() / (l - f + 1) as f32;
    let mu = obstacle.friction;
    Some(WrapReport {
        obstacle: oi as u32,
        mu,
        wrap,
        limit: libm::expf(mu * wrap),
        tension_load,
        tension_hold,
        from_solver,
        ratio: if tension_hold > 0.0 { tension_load / tension_hold } else { f32::INFINITY },
        slip_speed,
        holds: slip_speed < HOLD_SPEED,
        load,
        hold,
        contact_from,
        contact_to,
    })
}
