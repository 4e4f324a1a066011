//! Editing operations: pick, hold/drag/release, lock, add and remove points, connect and
//! disconnect, subdivide (the seed's `addBetween`), cut. Coordinates are 2D in the world's
//! view plane (`Settings::view`: x–y side-on, x–z from above). Every operation validates
//! its input and changes nothing when it returns an error.

use glam::{Vec2, Vec3};

use crate::error::{self, Result, SimError};
use crate::limits;
use crate::links::LinkDef;
use crate::particles::ParticleDef;
use crate::world::{Hold, World};

fn check_point(x: f32, y: f32) -> Result<Vec2> {
    let m = crate::limits::MAX_COORD;
    error::in_range("x", x, -m, m, "|x| ≤ 1e5 m")?;
    error::in_range("y", y, -m, m, "|y| ≤ 1e5 m")?;
    Ok(Vec2::new(x, y))
}

impl World {
    /// Runs an edit and keeps it only if the solver can still run the world. The classic
    /// solver's limits depend on what the edits change (a cut makes two ropes of one, which
    /// it cannot collide; a subdivision or a removal changes which points weigh what); an
    /// edit that broke them left a world whose exported scene did not load. Under classic
    /// the edit runs on a copy first (classic worlds have no bodies: a copy is the points
    /// and links); the other solvers' limits do not depend on these edits.
    fn supported_edit<T>(&mut self, edit: impl FnOnce(&mut World) -> Result<T>) -> Result<T> {
        let kind = self.settings.solver;
        if kind != crate::solver::SolverKind::Classic || kind.supports(self).is_err() {
            return edit(self);
        }
        let mut next = self.clone();
        let out = edit(&mut next)?;
        if let Err(why) = kind.supports(&next) {
            return Err(SimError::Invalid(format!("classic cannot run the result: {why}")));
        }
        *self = next;
        Ok(out)
    }

    /// See [`World::set_locked_unchecked`]: refused, changing nothing, when the solver could not run
    /// the result.
    pub fn set_locked(&mut self, index: i64, locked: bool) -> Result<()> {
        self.supported_edit(|w| w.set_locked_unchecked(index, locked))
    }

    /// See [`World::add_point_unchecked`]: refused, changing nothing, when the solver could not run
    /// the result.
    pub fn add_point(&mut self, x: f32, y: f32, locked: bool) -> Result<usize> {
        self.supported_edit(|w| w.add_point_unchecked(x, y, locked))
    }

    /// See [`World::remove_point_unchecked`]: refused, changing nothing, when the solver could not run
    /// the result.
    pub fn remove_point(&mut self, index: i64) -> Result<()> {
        self.supported_edit(|w| w.remove_point_unchecked(index))
    }

    /// See [`World::connect_unchecked`]: refused, changing nothing, when the solver could not run
    /// the result.
    pub fn connect(&mut self, a: i64, b: i64) -> Result<usize> {
        self.supported_edit(|w| w.connect_unchecked(a, b))
    }

    /// See [`World::disconnect_unchecked`]: refused, changing nothing, when the solver could not run
    /// the result.
    pub fn disconnect(&mut self, a: i64, b: i64) -> Result<bool> {
        self.supported_edit(|w| w.disconnect_unchecked(a, b))
    }

    /// See [`World::subdivide_unchecked`]: refused, changing nothing, when the solver could not run
    /// the result.
    pub fn subdivide(&mut self, link: i64, count: u32) -> Result<usize> {
        self.supported_edit(|w| w.subdivide_unchecked(link, count))
    }

    /// See [`World::cut_unchecked`]: refused, changing nothing, when the solver could not run
    /// the result.
    pub fn cut(&mut self, x0: f32, y0: f32, x1: f32, y1: f32) -> Result<usize> {
        self.supported_edit(|w| w.cut_unchecked(x0, y0, x1, y1))
    }

    /// Index of the particle nearest to `(x, y)` within `radius` (in the view plane).
    pub fn pick(&self, x: f32, y: f32, radius: f32) -> Result<Option<usize>> {
        let q = check_point(x, y)?;
        error::finite("radius", radius)?;
        if radius < 0.0 {
            return Err(SimError::OutOfRange { what: "radius", value: radius as f64, range: "radius ≥ 0" });
        }
        let view = self.settings.view;
        let mut best: Option<(usize, f32)> = None;
        for (i, &p) in self.particles.pos.iter().enumerate() {
            let d2 = view.project(p).distance_squared(q);
            if d2 <= radius * radius && best.is_none_or(|(_, b)| d2 < b) {
                best = Some((i, d2));
            }
        }
        Ok(best.map(|(i, _)| i))
    }

    /// Pointer `pointer` grabs particle `index`; it then follows [`World::drag_to`] targets.
    /// A pointer holds one particle at a time; a particle is held by one pointer at a time.
    pub fn grab(&mut self, pointer: u32, index: i64) -> Result<()> {
        let i = error::index("point", index, self.particles.len())?;
        if let Some(h) = self.holds.iter().find(|h| h.particle as usize == i && h.pointer != pointer) {
            return Err(SimError::Invalid(format!("point {i} is already held by pointer {}", h.pointer)));
        }
        self.release(pointer);
        let p = self.particles.pos[i];
        self.holds.push(Hold {
            pointer,
            particle: i as u32,
            target: p,
            last_target: p,
            since_move: 0.0,
            vel: Vec3::ZERO,
            step_from: p,
        });
        self.particles.held[i] = true;
        self.particles.refresh_inv_mass(i);
        Ok(())
    }

    /// Moves pointer `pointer`'s target to `(x, y)` in the view plane.
    pub fn drag_to(&mut self, pointer: u32, x: f32, y: f32) -> Result<()> {
        let q = check_point(x, y)?;
        let view = self.settings.view;
        let Some(h) = self.holds.iter_mut().find(|h| h.pointer == pointer) else {
            return Err(SimError::Invalid(format!("pointer {pointer} holds no point")));
        };
        h.target = view.unproject(q, h.target);
        // Show the move at once (also while paused); the next step keeps it there.
        self.particles.pos[h.particle as usize] = h.target;
        Ok(())
    }

    /// Releases whatever `pointer` holds; the particle keeps the pointer's velocity.
    /// Returns whether anything was held.
    pub fn release(&mut self, pointer: u32) -> bool {
        let Some(k) = self.holds.iter().position(|h| h.pointer == pointer) else {
            return false;
        };
        let h = self.holds.swap_remove(k);
        let i = h.particle as usize;
        self.particles.held[i] = false;
        self.particles.refresh_inv_mass(i);
        self.particles.vel[i] = h.vel;
        self.particles.prev[i] = self.particles.pos[i] - h.vel * self.last_h;
        true
    }

    /// Locks or unlocks particle `index`. A locked particle stops dead.
    fn set_locked_unchecked(&mut self, index: i64, locked: bool) -> Result<()> {
        let i = error::index("point", index, self.particles.len())?;
        // As `attach` refuses a locked point: an attached point moves with its body (a scene
        // saved with a locked attached point would not load).
        if locked && self.attachments.iter().any(|a| a.particle as usize == i) {
            return Err(SimError::Invalid(format!("point {i} is attached to a body; detach it before locking it")));
        }
        self.particles.locked[i] = locked;
        self.particles.refresh_inv_mass(i);
        if locked {
            self.particles.vel[i] = Vec3::ZERO;
            self.particles.prev[i] = self.particles.pos[i];
        }
        Ok(())
    }

    /// Adds a resting particle at `(x, y)` in the view plane (mass 1 kg unless changed).
    fn add_point_unchecked(&mut self, x: f32, y: f32, locked: bool) -> Result<usize> {
        let q = check_point(x, y)?;
        let pos = self.settings.view.unproject(q, Vec3::ZERO);
        // Like the scene's typical point (the median mass and radius), so that a point added
        // to a rope weighs what its points do (and the classic solver, which needs equal
        // masses, keeps running the scene).
        let median = |v: &[f32]| {
            let mut v = v.to_vec();
            crate::sort::sort_f32_total(&mut v);
            v.get(v.len() / 2).copied()
        };
        let d = ParticleDef::default();
        let mass = median(&self.particles.mass).unwrap_or(d.mass);
        let radius = median(&self.particles.radius).unwrap_or(d.radius);
        self.add_particle(&ParticleDef { pos, locked, mass, radius, ..d })
    }

    /// Removes particle `index` with every link touching it; higher indices shift down.
    fn remove_point_unchecked(&mut self, index: i64) -> Result<()> {
        let i = error::index("point", index, self.particles.len())?;
        let iu = i as u32;
        let keep: Vec<bool> = self.links.ends.iter().map(|e| !e.contains(&iu)).collect();
        self.links.retain_flags(&keep);
        for e in &mut self.links.ends {
            for j in e.iter_mut() {
                if *j > iu {
                    *j -= 1;
                }
            }
        }
        self.links.version += 1;
        self.holds.retain(|h| h.particle != iu);
        for h in &mut self.holds {
            if h.particle > iu {
                h.particle -= 1;
            }
        }
        self.particles.remove(i);
        if crate::FULL {
            self.scratch.particle_contacts.remove_particle(iu);
        }
        // An attached point goes with its attachment; later attachments shift down.
        self.attachments.retain(|a| a.particle != iu);
        for a in &mut self.attachments {
            if a.particle > iu {
                a.particle -= 1;
            }
        }
        // Ropes through the point are cut there; the leash follows the shifted indices.
        self.ropes.remove_particle(iu);
        if let Some(l) = &mut self.leash {
            l.remove_particle(iu);
        }
        self.sync_ropes();
        Ok(())
    }

    /// Connects `a` and `b` with a link at their current distance (the seed's `connect`),
    /// using the world's default give. Returns the link index; an existing link is kept.
    fn connect_unchecked(&mut self, a: i64, b: i64) -> Result<usize> {
        let n = self.particles.len();
        let ia = error::index("point", a, n)? as u32;
        let ib = error::index("point", b, n)? as u32;
        if let Some(k) = self.links.find(ia, ib) {
            return Ok(k);
        }
        self.add_link(&LinkDef { a: ia, b: ib, give: self.settings.give, ..Default::default() })
    }

    /// Removes the link between `a` and `b`; returns whether there was one.
    fn disconnect_unchecked(&mut self, a: i64, b: i64) -> Result<bool> {
        let n = self.particles.len();
        let ia = error::index("point", a, n)? as u32;
        let ib = error::index("point", b, n)? as u32;
        match self.links.find(ia, ib) {
            Some(k) => {
                self.links.remove(k);
                self.sync_ropes();
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Splits link `link` into `count + 1` links by inserting `count` points evenly along it
    /// (the seed's `addBetween`, which interpolates both position and previous position, so
    /// the new points move with the link). New points get the mean of the ends' masses; the
    /// new links share the old one's settings and its rest length equally.
    /// Returns the index of the first new particle.
    fn subdivide_unchecked(&mut self, link: i64, count: u32) -> Result<usize> {
        let k = error::index("link", link, self.links.len())?;
        if count == 0 || count > 1000 {
            return Err(SimError::OutOfRange { what: "count", value: count as f64, range: "1 ≤ count ≤ 1000" });
        }
        self.check_limits(|l| {
            l.points += count as usize;
            l.links += count as usize;
        })?;
        let piece = self.links.rest[k] / (count + 1) as f32;
        if piece < limits::MIN_REST {
            return Err(SimError::Invalid(format!(
                "subdividing link {k} ({} m) into {} pieces would make links of {} m, under the shortest a link may \
                 be (1e-6 m)",
                crate::num::Num(self.links.rest[k] as f64),
                count + 1,
                crate::num::Num(piece as f64)
            )));
        }
        let [a, b] = self.links.ends[k];
        let (ia, ib) = (a as usize, b as usize);
        let p = &self.particles;
        let (pa, pb, qa, qb) = (p.pos[ia], p.pos[ib], p.prev[ia], p.prev[ib]);
        let mass = 0.5 * (p.mass[ia] + p.mass[ib]);
        let radius = 0.5 * (p.radius[ia] + p.radius[ib]);
        let template = LinkDef {
            a,
            b,
            rest: Some(piece),
            give: self.links.give[k],
            // Springs in series add compliance: each piece gets an equal share.
            compliance: self.links.compliance[k] / (count + 1) as f32,
            kind: self.links.kind[k],
            tear_stretch: self.links.tear_stretch[k].is_finite().then_some(self.links.tear_stretch[k]),
        };
        self.links.remove(k);
        let first = self.particles.len();
        let mut chain = Vec::with_capacity(count as usize + 2);
        chain.push(a);
        for s in 1..=count {
            let t = s as f32 / (count + 1) as f32;
            let i = self
                .particles
                .push(&ParticleDef { pos: pa.lerp(pb, t), mass, radius, ..Default::default() }, self.last_h);
            self.particles.prev[i] = qa.lerp(qb, t);
            self.particles.vel[i] = (self.particles.pos[i] - self.particles.prev[i]) / self.last_h;
            chain.push(i as u32);
        }
        chain.push(b);
        for w in chain.windows(2) {
            // Rest and endpoints are valid by construction; push directly.
            let def = LinkDef { a: w[0], b: w[1], ..template };
            self.links.push(&def, template.rest.unwrap_or(1.0));
        }
        // A rope along the link keeps running through the new points.
        self.ropes.insert_between(a, b, &chain[1..chain.len() - 1]);
        self.sync_ropes();
        Ok(first)
    }

    /// Removes every link whose segment (in the view plane) crosses the swipe from
    /// `(x0, y0)` to `(x1, y1)`. Returns how many were cut.
    fn cut_unchecked(&mut self, x0: f32, y0: f32, x1: f32, y1: f32) -> Result<usize> {
        let s0 = check_point(x0, y0)?;
        let s1 = check_point(x1, y1)?;
        let view = self.settings.view;
        let pos = &self.particles.pos;
        let keep: Vec<bool> = (self.links.ends.iter())
            .map(|&[a, b]| !segments_cross(s0, s1, view.project(pos[a as usize]), view.project(pos[b as usize])))
            .collect();
        let n = self.links.retain_flags(&keep);
        self.sync_ropes();
        Ok(n)
    }
}

/// Whether segments p0–p1 and q0–q1 intersect (proper or touching).
pub fn segments_cross(p0: Vec2, p1: Vec2, q0: Vec2, q1: Vec2) -> bool {
    let r = p1 - p0;
    let s = q1 - q0;
    let denom = r.perp_dot(s);
    let qp = q0 - p0;
    if denom.abs() < 1e-12 {
        return false; // parallel (collinear overlaps are not a cut)
    }
    let t = qp.perp_dot(s) / denom;
    let u = qp.perp_dot(r) / denom;
    (0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u)
}
