//! Building a `World` from a scene: all or nothing.

use glam::{Vec2, Vec3};

use crate::error::Result;
use crate::leash::{Dog, Leash, Wander};
use crate::limits;
use crate::links::{LinkDef, LinkKind};
use crate::particles::ParticleDef;
use crate::settings::Settings;
use crate::world::World;

use super::validate::*;
use super::*;

impl Scene {
    /// Builds a fresh world from the scene; nothing is returned unless all of it is valid.
    pub fn build(&self) -> Result<World> {
        validate_settings(&self.settings)?;
        self.check_counts()?;
        // (A centre of 1e300 read as f32 infinity, exported as null, and did not load again.)
        if let Some(c) = self.camera {
            if !c.center.is_finite() {
                return Err(scene_err("camera.center", "must be finite"));
            }
            if !(c.height.is_finite() && c.height > 0.0) {
                return Err(scene_err(
                    "camera.height",
                    format!("{} is out of range (a height > 0 m)", crate::num::Num32(c.height)),
                ));
            }
        }
        // Built at 1 substep × 1 iteration, so that a scene over the work budget is named as
        // such once, at the end, rather than at whichever point tipped it over.
        let mut w = World::new(Settings { substeps: 1, iterations: 1, ..self.settings.clone() });
        for (i, p) in self.particles.iter().enumerate() {
            let def = ParticleDef { pos: p.pos, vel: p.vel, mass: p.mass, radius: p.radius, locked: p.locked };
            w.add_particle(&def).map_err(at(format!("particles[{i}]")))?;
        }
        for (i, l) in self.links.iter().enumerate() {
            let def = LinkDef {
                a: l.a,
                b: l.b,
                rest: l.rest,
                give: l.give,
                compliance: l.compliance,
                kind: l.kind,
                tear_stretch: l.tear_stretch,
            };
            let k = w.add_link(&def).map_err(at(format!("links[{i}]")))?;
            if let Some(f) = l.tear_force {
                check_tear_force(f).map_err(|r| scene_err(format!("links[{i}].tear_force"), r))?;
                w.links.tear_force[k] = f;
            }
        }
        for (i, r) in self.ropes.iter().enumerate() {
            build_rope(&mut w, r).map_err(at(format!("ropes[{i}]")))?;
        }
        for (i, g) in self.grids.iter().enumerate() {
            build_grid(&mut w, g).map_err(at(format!("grids[{i}]")))?;
        }
        if let Some(l) = &self.leash {
            build_leash(&mut w, l).map_err(at("leash".to_string()))?;
        }
        for (i, o) in self.obstacles.iter().enumerate() {
            let o = o.validated().map_err(|(field, reason)| scene_err(format!("obstacles[{i}].{field}"), reason))?;
            w.obstacles.push(o);
        }
        for (i, p) in self.pins.iter().enumerate() {
            let n = w.particles.len();
            if p.point as usize >= n {
                return Err(scene_err(
                    format!("pins[{i}].point"),
                    format!("point {} does not exist (there are {n})", p.point),
                ));
            }
            let target = p.target.unwrap_or(w.particles.pos[p.point as usize]);
            if !target.is_finite() {
                return Err(scene_err(format!("pins[{i}].target"), "must be finite"));
            }
            if !(p.compliance.is_finite() && p.compliance >= 0.0) {
                return Err(scene_err(
                    format!("pins[{i}].compliance"),
                    format!("{} is out of range (≥ 0 m/N)", crate::num::Num32(p.compliance)),
                ));
            }
            w.pin(p.point as i64, target, p.compliance).map_err(at(format!("pins[{i}]")))?;
        }
        for (i, r) in self.rope_points.iter().enumerate() {
            check_rope_points(&w, r).map_err(|reason| scene_err(format!("rope_points[{i}]"), reason))?;
            w.ropes.push(r);
        }
        if let Some(l) = &self.leash_points {
            build_leash_points(&mut w, l).map_err(at("leash_points".to_string()))?;
        }
        w.sync_ropes();
        super::bodies::build(&mut w, &self.bodies, &self.joints, &self.attachments, self.state.is_some())?;
        super::winches::build(&mut w, &self.winches)?;
        (w.settings.substeps, w.settings.iterations) = (self.settings.substeps, self.settings.iterations);
        if w.winches.len() > limits::MAX_WINCHES {
            return Err(scene_err("winches", format!("{} winches: at most {}", w.winches.len(), limits::MAX_WINCHES)));
        }
        limits::check(&w.load()).map_err(|e| scene_err("settings", e))?;
        let solver = w.settings.solver;
        solver
            .supports(&w)
            .map_err(|why| scene_err("settings.solver", format!("{} cannot run this scene: {why}", solver.name())))?;
        if let Some(state) = &self.state {
            super::state::restore(&mut w, state)?;
        }
        if let Some(t) = self.restart_after {
            if !(t.is_finite() && t > 0.0) {
                return Err(scene_err("restart_after", format!("{} is out of range (> 0 s)", crate::num::Num32(t))));
            }
        }
        #[cfg(feature = "full")]
        self.meter(&w)?;
        Ok(w)
    }

    /// The scene's `measure` resolved against `w`, the world it built (body names → ids).
    #[cfg(feature = "full")]
    pub fn meter(&self, w: &World) -> Result<Option<crate::measure::Meter>> {
        let Some(spec) = &self.measure else { return Ok(None) };
        let names: Vec<&str> = self.bodies.iter().map(|b| b.name.as_str()).collect();
        crate::measure::Meter::new(spec, w, &names).map(Some)
    }
}

impl Scene {
    /// The builders' counts against the caps of [`limits`], before anything is built (so a
    /// 10⁶-point rope is an error naming its field, not a long wait).
    fn check_counts(&self) -> Result<()> {
        let ropes = self.ropes.len() + self.rope_points.len();
        if ropes > limits::MAX_ROPES {
            let field = if self.ropes.len() > self.rope_points.len() { "ropes" } else { "rope_points" };
            return Err(scene_err(field, format!("{ropes} ropes: a scene may have at most {}", limits::MAX_ROPES)));
        }
        let over = |n: u64, max: usize| n > max as u64;
        let mut points = self.particles.len() as u64;
        for (i, r) in self.ropes.iter().enumerate() {
            if over(r.points as u64, limits::MAX_POINTS) {
                return Err(scene_err(
                    format!("ropes[{i}].points"),
                    format!("{} is out of range (2..={} points)", r.points, limits::MAX_POINTS),
                ));
            }
            points += r.points as u64;
        }
        for (i, g) in self.grids.iter().enumerate() {
            let n = g.cols as u64 * g.rows as u64;
            if over(n, limits::MAX_POINTS) {
                return Err(scene_err(
                    format!("grids[{i}].cols"),
                    format!("{} × {} = {n} points: at most {}", g.cols, g.rows, limits::MAX_POINTS),
                ));
            }
            points += n;
        }
        if over(points, limits::MAX_POINTS) {
            return Err(scene_err("particles", format!("{points} points in all: at most {}", limits::MAX_POINTS)));
        }
        if self.links.len() > limits::MAX_LINKS {
            return Err(scene_err("links", format!("{} links: at most {}", self.links.len(), limits::MAX_LINKS)));
        }
        for (field, n, max) in [
            ("bodies", self.bodies.len(), limits::MAX_BODIES),
            ("joints", self.joints.len(), limits::MAX_JOINTS),
            ("obstacles", self.obstacles.len(), limits::MAX_OBSTACLES),
            ("winches", self.winches.len(), limits::MAX_WINCHES),
        ] {
            if n > max {
                return Err(scene_err(field, format!("{n} {field}: at most {max}")));
            }
        }
        let free = self.bodies.iter().filter(|b| !b.planar).count();
        if free > limits::MAX_3D_BODIES {
            return Err(scene_err(
                "bodies",
                format!("{free} bodies free in 3D (not planar): at most {}", limits::MAX_3D_BODIES),
            ));
        }
        Ok(())
    }
}

pub(super) fn build_rope(w: &mut World, r: &RopeSpec) -> Result<()> {
    if !(2..=100_000).contains(&r.points) {
        return Err(scene_err("points", format!("{} is out of range (2..=100000)", r.points)));
    }
    if !(r.from.is_finite() && r.to.is_finite()) {
        return Err(scene_err("from", "rope ends must be finite"));
    }
    let length = r.from.distance(r.to);
    if length <= 1e-6 {
        return Err(scene_err("to", "rope ends coincide"));
    }
    if !(r.mass_per_meter.is_finite() && r.mass_per_meter > 0.0) {
        return Err(scene_err("mass_per_meter", "must be > 0"));
    }
    if !(r.slack.is_finite() && r.slack > 0.0) {
        return Err(scene_err("slack", "must be > 0"));
    }
    for (name, m) in [("start_mass", r.start_mass), ("end_mass", r.end_mass)] {
        if let Some(m) = m {
            if !(m.is_finite() && m > 0.0) {
                return Err(scene_err(name, format!("{} is out of range (> 0 kg)", crate::num::Num32(m))));
            }
        }
    }
    let n = r.points as usize;
    let seg = length / (n - 1) as f32;
    let mass = r.mass_per_meter * length * r.slack / n as f32;
    let first = w.particles.len();
    for i in 0..n {
        let t = i as f32 / (n - 1) as f32;
        let locked = (i == 0 && r.lock_start) || (i == n - 1 && r.lock_end);
        let m = match i {
            0 => r.start_mass.unwrap_or(mass),
            _ if i == n - 1 => r.end_mass.unwrap_or(mass),
            _ => mass,
        };
        let def = ParticleDef { pos: r.from.lerp(r.to, t), mass: m, radius: r.radius, locked, ..Default::default() };
        w.add_particle(&def).map_err(at(format!("points[{i}]")))?;
    }
    for i in 0..n - 1 {
        let def = LinkDef {
            a: (first + i) as u32,
            b: (first + i + 1) as u32,
            rest: Some(seg * r.slack),
            give: r.give,
            compliance: r.compliance,
            kind: r.kind,
            tear_stretch: r.tear_stretch,
        };
        let k = w.add_link(&def)?;
        if let Some(f) = r.tear_force {
            check_tear_force(f).map_err(|reason| scene_err("tear_force", reason))?;
            w.links.tear_force[k] = f;
        }
    }
    let points: Vec<u32> = (first as u32..(first + n) as u32).collect();
    w.ropes.push(&points);
    Ok(())
}

pub(super) fn build_leash(w: &mut World, l: &LeashSpec) -> Result<()> {
    use crate::tangle::braid::MAX_STRANDS;
    use crate::tangle::crossings::BraidFrame;
    if !l.hand.is_finite() {
        return Err(scene_err("hand", "must be finite"));
    }
    let front = check_horizontal(l.front)?;
    check_hand_radius(l.hand_radius)?;
    if l.dogs.is_empty() || l.dogs.len() > MAX_STRANDS {
        return Err(scene_err("dogs", format!("1..={MAX_STRANDS} dogs (got {})", l.dogs.len())));
    }
    if !(3..=1000).contains(&l.points) {
        return Err(scene_err("points", format!("{} is out of range (3..=1000)", l.points)));
    }
    if !(l.length.is_finite() && l.length > 0.0) {
        return Err(scene_err("length", "must be > 0 m"));
    }
    if !(l.mass_per_meter.is_finite() && l.mass_per_meter > 0.0) {
        return Err(scene_err("mass_per_meter", "must be > 0"));
    }
    if let Some(why) = point_radius_error(l.radius) {
        return Err(scene_err("radius", why));
    }
    if !(l.compliance.is_finite() && l.compliance >= 0.0) {
        return Err(scene_err("compliance", "must be ≥ 0 m/N"));
    }
    check_wander(&l.wander)?;
    for (k, d) in l.dogs.iter().enumerate() {
        let e = |f: &str, r: String| scene_err(format!("dogs[{k}].{f}"), r);
        if !d.at.is_finite() {
            return Err(e("at", "must be finite".into()));
        }
        if d.at.distance(l.hand) >= l.length {
            return Err(e(
                "at",
                format!(
                    "{} m from the hand: beyond the leash ({} m)",
                    crate::num::rounded(f64::from(d.at.distance(l.hand)), 3),
                    crate::num::Num32(l.length)
                ),
            ));
        }
        if d.at.distance(l.hand) < 1e-3 {
            return Err(e("at", "at the hand".into()));
        }
        if !(d.mass.is_finite() && d.mass >= crate::limits::MIN_MASS) {
            return Err(e("mass", format!("{} is out of range (≥ 1e-6 kg)", crate::num::Num32(d.mass))));
        }
        if let Some(why) = point_radius_error(d.body_radius) {
            return Err(e("body_radius", why));
        }
        if !(d.grip.is_finite() && d.grip >= 0.0) {
            return Err(e("grip", format!("{} is out of range (≥ 0)", crate::num::Num32(d.grip))));
        }
    }
    let n = l.points as usize;
    let rest = l.length / (n - 1) as f32;
    let m = l.mass_per_meter * l.length / (n - 1) as f32;
    let hand =
        w.add_particle(&ParticleDef { pos: l.hand, mass: m, radius: l.radius, locked: true, ..Default::default() })?
            as u32;
    let mut dogs = Vec::new();
    for d in &l.dogs {
        let mut chain = vec![hand];
        for i in 1..n {
            let t = i as f32 / (n - 1) as f32;
            let last = i == n - 1;
            let def = ParticleDef {
                pos: l.hand.lerp(d.at, t),
                mass: if last { d.mass } else { m },
                radius: l.radius,
                ..Default::default()
            };
            chain.push(w.add_particle(&def)? as u32);
        }
        for p in chain.windows(2) {
            let def = LinkDef {
                a: p[0],
                b: p[1],
                rest: Some(rest),
                compliance: l.compliance,
                kind: LinkKind::Rope,
                ..Default::default()
            };
            w.add_link(&def)?;
        }
        let rope = w.ropes.push(&chain) as u32;
        dogs.push(Dog {
            particle: *chain.last().expect("n ≥ 3"),
            rope,
            height: d.at.y,
            body_radius: d.body_radius,
            home: d.at,
            grip: d.grip,
            walk: Vec3::ZERO,
        });
    }
    let frame = BraidFrame { hub: l.hand, front, hand_radius: l.hand_radius };
    w.leash = Some(Leash::new(hand, dogs, frame));
    w.wander = Wander::new(l.wander);
    Ok(())
}

pub(super) fn build_leash_points(w: &mut World, l: &LeashPoints) -> Result<()> {
    use crate::tangle::braid::MAX_STRANDS;
    use crate::tangle::crossings::BraidFrame;
    let n = w.particles.len();
    if l.hand as usize >= n {
        return Err(scene_err("hand", format!("point {} does not exist (there are {n})", l.hand)));
    }
    let front = check_horizontal(l.front)?;
    check_hand_radius(l.hand_radius)?;
    check_wander(&l.wander)?;
    if l.dogs.is_empty() || l.dogs.len() > MAX_STRANDS {
        return Err(scene_err("dogs", format!("1..={MAX_STRANDS} dogs (got {})", l.dogs.len())));
    }
    let mut dogs = Vec::new();
    for (k, d) in l.dogs.iter().enumerate() {
        let e = |f: &str, r: String| scene_err(format!("dogs[{k}].{f}"), r);
        if d.particle as usize >= n {
            return Err(e("particle", format!("point {} does not exist (there are {n})", d.particle)));
        }
        if !d.height.is_finite() {
            return Err(e("height", "must be finite".into()));
        }
        if let Some(why) = point_radius_error(d.body_radius) {
            return Err(e("body_radius", why));
        }
        let home = w.particles.pos[d.particle as usize];
        if !(d.grip.is_finite() && d.grip >= 0.0) {
            return Err(e("grip", format!("{} is out of range (≥ 0)", crate::num::Num32(d.grip))));
        }
        dogs.push(Dog {
            particle: d.particle,
            rope: u32::MAX,
            height: d.height,
            body_radius: d.body_radius,
            home,
            grip: d.grip,
            walk: Vec3::ZERO,
        });
    }
    let hub = w.particles.pos[l.hand as usize];
    let mut leash = Leash::new(l.hand, dogs, BraidFrame { hub, front, hand_radius: l.hand_radius });
    w.ropes.sync(&w.particles, &w.links);
    leash.revalidate(&w.ropes);
    if !leash.valid {
        return Err(scene_err("dogs", "every dog needs a rope (in rope_points) from the hand to it"));
    }
    w.leash = Some(leash);
    w.wander = Wander::new(l.wander);
    Ok(())
}

pub(super) fn build_grid(w: &mut World, g: &GridSpec) -> Result<()> {
    if !(1..=1000).contains(&g.cols) || !(1..=1000).contains(&g.rows) || g.cols * g.rows < 2 {
        return Err(scene_err("cols", "a grid needs 1..=1000 columns and rows, and at least 2 points"));
    }
    if !(g.spacing.is_finite() && g.spacing >= limits::MIN_REST) {
        return Err(scene_err("spacing", "must be at least 1e-6 m (limits::MIN_REST)"));
    }
    if let Some(why) = point_radius_error(g.radius) {
        return Err(scene_err("radius", why));
    }
    let view = w.settings.view;
    let o = view.project(g.origin);
    let first = w.particles.len() as u32;
    let (cols, rows) = (g.cols, g.rows);
    for r in 0..rows {
        for c in 0..cols {
            let q = o + Vec2::new(c as f32 * g.spacing, -(r as f32) * g.spacing);
            let locked = match g.lock {
                GridLock::None => false,
                GridLock::TopRow => r == 0,
                GridLock::TopCorners => r == 0 && (c == 0 || c == cols - 1),
            };
            let def = ParticleDef {
                pos: view.unproject(q, g.origin),
                mass: g.point_mass,
                radius: g.radius,
                locked,
                ..Default::default()
            };
            w.add_particle(&def)?;
        }
    }
    let idx = |r: u32, c: u32| first + r * cols + c;
    for r in 0..rows {
        for c in 0..cols {
            let mut link = |b: u32| {
                let pos = &w.particles.pos;
                if pos[idx(r, c) as usize] == pos[b as usize] {
                    return Err(scene_err(
                        "spacing",
                        format!(
                            "points {} m apart round to one place at this origin (f32 has no finer step \
                             there): use a larger spacing",
                            crate::num::Num(g.spacing as f64)
                        ),
                    ));
                }
                let def = LinkDef {
                    a: idx(r, c),
                    b,
                    rest: Some(g.spacing),
                    give: g.give,
                    compliance: g.compliance,
                    ..Default::default()
                };
                w.add_link(&def).map(|_| ())
            };
            if c + 1 < cols {
                link(idx(r, c + 1))?;
            }
            if r + 1 < rows {
                link(idx(r + 1, c))?;
            }
        }
    }
    Ok(())
}
