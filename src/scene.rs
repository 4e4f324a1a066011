//! The versioned JSON scene format (serde), shared by the page, the native runner and the
//! tests. A scene is world settings plus particles and links, given one by one or by
//! builders (a rope from A to B with n points, a grid net).
//!
//! Loading is all-or-nothing: a scene is parsed and built into a fresh [`World`], and only
//! a complete success is returned. A failure names the JSON path of the fault
//! (`ropes[1].points: ...`) via `serde_path_to_error` for parse errors and by construction
//! for semantic ones.

use glam::{Vec2, Vec3};
use serde::{Deserialize, Serialize};

use crate::collide::Obstacle;
use crate::error::{Result, SimError};
use crate::leash::{Dog, Leash, Wander, WanderSpec};
use crate::links::{LinkDef, LinkKind};
use crate::particles::ParticleDef;
use crate::settings::Settings;
use crate::world::World;

/// The scene format version this build reads and writes.
pub const SCENE_VERSION: u32 = 1;

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scene {
    pub version: u32,
    #[serde(default)]
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// What the page should show first: centre and height (m) of the view rectangle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub camera: Option<Camera>,
    #[serde(default)]
    pub settings: Settings,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub particles: Vec<ParticleSpec>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<LinkSpec>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ropes: Vec<RopeSpec>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub grids: Vec<GridSpec>,
    /// Static obstacles: ground planes, slopes, circles, capsules, boxes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub obstacles: Vec<Obstacle>,
    /// Pins of particles (by index, after `particles`, `ropes` and `grids` are built) to
    /// world points.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pins: Vec<PinSpec>,
    /// The three-dog leash scene (built after `grids`): a hand, leashes, dogs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leash: Option<LeashSpec>,
    /// Ropes over existing particles, as index lists in order (consecutive ones must be
    /// linked). `ropes` entries register their ropes themselves; exported worlds use this.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rope_points: Vec<Vec<u32>>,
    /// A leash over existing particles and `rope_points` (what an exported leash world holds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leash_points: Option<LeashPoints>,
}

/// The leash scene builder: a hand (a locked particle, draggable) holding one leash per dog;
/// leash k runs from the hand to dog k's collar. Leash links are rope links (they go slack).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeashSpec {
    /// The hand (m; y is its height).
    pub hand: Vec3,
    /// Horizontal direction the handler faces (the braid's reference; the seam is behind).
    #[serde(default = "front_z")]
    pub front: Vec3,
    /// Horizontal radius (m) of the hand region whose crossings the braid remembers.
    #[serde(default = "default_hand_radius")]
    pub hand_radius: f32,
    pub dogs: Vec<DogSpec>,
    /// Particles per leash, the hand and the dog included (≥ 3).
    #[serde(default = "default_leash_points")]
    pub points: u32,
    /// Leash length (m).
    #[serde(default = "default_leash_length")]
    pub length: f32,
    #[serde(default = "default_leash_mass")]
    pub mass_per_meter: f32,
    /// Leash radius (m): half its thickness, the rope–rope contact radius.
    #[serde(default = "default_leash_radius")]
    pub radius: f32,
    /// Link compliance (m/N).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub compliance: f32,
    #[serde(default)]
    pub wander: WanderSpec,
}

/// One dog of a [`LeashSpec`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DogSpec {
    /// The collar (m; y is the collar height, held by the dog's legs).
    pub at: Vec3,
    /// kg.
    #[serde(default = "default_dog_mass")]
    pub mass: f32,
    /// Radius (m) of the dog's body (a vertical cylinder up to the collar the other leashes
    /// go around; 0 = none).
    #[serde(default = "default_body_radius")]
    pub body_radius: f32,
    /// Friction coefficient of the dog's feet on the ground: it stands against a leash
    /// pulling with up to grip·m·g.
    #[serde(default = "default_grip")]
    pub grip: f32,
}

/// A leash over existing particles (see [`Scene::leash_points`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeashPoints {
    pub hand: u32,
    pub dogs: Vec<DogPoint>,
    #[serde(default = "front_z")]
    pub front: Vec3,
    #[serde(default = "default_hand_radius")]
    pub hand_radius: f32,
    #[serde(default)]
    pub wander: WanderSpec,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DogPoint {
    pub particle: u32,
    pub height: f32,
    #[serde(default)]
    pub body_radius: f32,
    #[serde(default = "default_grip")]
    pub grip: f32,
}

fn front_z() -> Vec3 {
    Vec3::Z
}
fn default_hand_radius() -> f32 {
    0.05
}
fn default_leash_points() -> u32 {
    20
}
fn default_leash_length() -> f32 {
    1.8
}
fn default_leash_mass() -> f32 {
    0.15
}
fn default_leash_radius() -> f32 {
    0.01
}
fn default_dog_mass() -> f32 {
    8.0
}
fn default_body_radius() -> f32 {
    0.12
}
fn default_grip() -> f32 {
    0.8
}

/// A particle pinned to a world point, optionally compliant (a zero-length spring).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PinSpec {
    /// Particle index.
    pub point: u32,
    /// World point; omitted = where the particle is when the scene loads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<Vec3>,
    /// Compliance in m/N (0 = rigid).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub compliance: f32,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Camera {
    pub center: Vec2,
    pub height: f32,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParticleSpec {
    pub pos: Vec3,
    #[serde(default, skip_serializing_if = "is_zero_vec")]
    pub vel: Vec3,
    #[serde(default = "one")]
    pub mass: f32,
    #[serde(default = "default_radius")]
    pub radius: f32,
    #[serde(default, skip_serializing_if = "is_false")]
    pub locked: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkSpec {
    pub a: u32,
    pub b: u32,
    /// Rest length (m); omitted = the distance at load time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rest: Option<f32>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub give: f32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub compliance: f32,
    #[serde(default, skip_serializing_if = "is_distance")]
    pub kind: LinkKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tear_stretch: Option<f32>,
    /// Tension (N) past which the link tears (PBD-family solvers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tear_force: Option<f32>,
}

/// A straight rope from `from` to `to` with `points` particles (≥ 2).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RopeSpec {
    pub from: Vec3,
    pub to: Vec3,
    pub points: u32,
    /// Mass per metre (kg/m), spread evenly over the points.
    #[serde(default = "one")]
    pub mass_per_meter: f32,
    /// Rest length as a multiple of the straight length (> 1 = hangs with slack).
    #[serde(default = "one")]
    pub slack: f32,
    #[serde(default, skip_serializing_if = "is_false")]
    pub lock_start: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub lock_end: bool,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub give: f32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub compliance: f32,
    #[serde(default, skip_serializing_if = "is_distance")]
    pub kind: LinkKind,
    #[serde(default = "default_radius")]
    pub radius: f32,
    /// Relative stretch past which each link tears.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tear_stretch: Option<f32>,
    /// Tension (N) past which each link tears (PBD-family solvers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tear_force: Option<f32>,
    /// Mass (kg) of the first point instead of its share of the rope (a weight at the end).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_mass: Option<f32>,
    /// Mass (kg) of the last point instead of its share of the rope.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_mass: Option<f32>,
}

/// Which points of a grid start locked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GridLock {
    #[default]
    None,
    TopCorners,
    TopRow,
}

/// A net: `cols × rows` points `spacing` apart in the view plane, linked to their right
/// and lower neighbours. `origin` is the top-left point.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GridSpec {
    pub origin: Vec3,
    pub cols: u32,
    pub rows: u32,
    pub spacing: f32,
    #[serde(default = "one")]
    pub point_mass: f32,
    #[serde(default)]
    pub lock: GridLock,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub give: f32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub compliance: f32,
    #[serde(default = "default_radius")]
    pub radius: f32,
}

fn one() -> f32 {
    1.0
}
fn default_radius() -> f32 {
    0.02
}
fn is_zero(x: &f32) -> bool {
    *x == 0.0
}
fn is_false(b: &bool) -> bool {
    !*b
}
fn is_zero_vec(v: &Vec3) -> bool {
    *v == Vec3::ZERO
}
fn is_distance(k: &LinkKind) -> bool {
    *k == LinkKind::Distance
}

/// Prefixes an error with the JSON path of the item being built (`ropes[2]` + `points`
/// → `ropes[2].points`).
fn at(path: String) -> impl FnOnce(SimError) -> SimError {
    move |e| match e {
        SimError::Scene { path: inner, reason } => SimError::Scene { path: format!("{path}.{inner}"), reason },
        other => SimError::Scene { path, reason: other.to_string() },
    }
}

fn scene_err(path: impl Into<String>, reason: impl Into<String>) -> SimError {
    SimError::Scene { path: path.into(), reason: reason.into() }
}

impl Scene {
    /// Parses a scene from JSON text; errors carry the JSON path.
    pub fn from_json(text: &str) -> Result<Scene> {
        let de = &mut serde_json::Deserializer::from_str(text);
        let scene: Scene = serde_path_to_error::deserialize(de).map_err(|e| {
            let path = e.path().to_string();
            let path = if path == "." || path == "?" { "(root)".to_string() } else { path };
            scene_err(path, e.into_inner().to_string())
        })?;
        if scene.version != SCENE_VERSION {
            return Err(scene_err(
                "version",
                format!("unsupported scene version {} (this build reads {SCENE_VERSION})", scene.version),
            ));
        }
        Ok(scene)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a scene always serialises")
    }

    /// Builds a fresh world from the scene; nothing is returned unless all of it is valid.
    pub fn build(&self) -> Result<World> {
        validate_settings(&self.settings)?;
        let mut w = World::new(self.settings.clone());
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
                    format!("{} is out of range (≥ 0 m/N)", p.compliance),
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
        let solver = w.settings.solver;
        solver
            .supports(&w)
            .map_err(|why| scene_err("settings.solver", format!("{} cannot run this scene: {why}", solver.name())))?;
        Ok(w)
    }

    /// Captures a world as an explicit scene (builders expanded into particles and links).
    pub fn from_world(world: &World, name: &str, camera: Option<Camera>) -> Scene {
        let p = &world.particles;
        let l = &world.links;
        Scene {
            version: SCENE_VERSION,
            name: name.to_string(),
            description: String::new(),
            camera,
            settings: world.settings.clone(),
            particles: (0..p.len())
                .map(|i| ParticleSpec {
                    pos: p.pos[i],
                    vel: p.vel[i],
                    mass: p.mass[i],
                    radius: p.radius[i],
                    locked: p.locked[i],
                })
                .collect(),
            links: (0..l.len())
                .map(|k| LinkSpec {
                    a: l.ends[k][0],
                    b: l.ends[k][1],
                    rest: Some(l.rest[k]),
                    give: l.give[k],
                    compliance: l.compliance[k],
                    kind: l.kind[k],
                    tear_stretch: l.tear_stretch[k].is_finite().then_some(l.tear_stretch[k]),
                    tear_force: l.tear_force[k].is_finite().then_some(l.tear_force[k]),
                })
                .collect(),
            ropes: Vec::new(),
            grids: Vec::new(),
            obstacles: world.obstacles.clone(),
            pins: (0..p.len())
                .filter(|&i| p.is_pinned(i))
                .map(|i| PinSpec { point: i as u32, target: Some(p.pin_target[i]), compliance: p.pin_compliance[i] })
                .collect(),
            leash: None,
            rope_points: (0..world.ropes.len()).map(|k| world.ropes.points(k).to_vec()).collect(),
            leash_points: world.leash.as_ref().filter(|l| l.hand != u32::MAX).map(|l| LeashPoints {
                hand: l.hand,
                dogs: l
                    .dogs
                    .iter()
                    .map(|d| DogPoint {
                        particle: d.particle,
                        height: d.height,
                        body_radius: d.body_radius,
                        grip: d.grip,
                    })
                    .collect(),
                front: l.tracker.frame.front,
                hand_radius: l.tracker.frame.hand_radius,
                wander: world.wander.spec,
            }),
        }
    }
}

/// Every setting checked against the one table ([`crate::settings::table`]), as the JS
/// setters check them: an error names `settings.<key>`.
fn validate_settings(s: &Settings) -> Result<()> {
    crate::settings::table::validate(s).map_err(|(key, reason)| scene_err(format!("settings.{key}"), reason))
}

fn build_rope(w: &mut World, r: &RopeSpec) -> Result<()> {
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
                return Err(scene_err(name, format!("{m} is out of range (> 0 kg)")));
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

fn check_rope_points(w: &World, r: &[u32]) -> std::result::Result<(), String> {
    if r.len() < 2 {
        return Err("a rope needs at least 2 points".into());
    }
    let n = w.particles.len();
    for (k, &p) in r.iter().enumerate() {
        if p as usize >= n {
            return Err(format!("point {p} (entry {k}) does not exist (there are {n})"));
        }
        if k > 0 && w.links.find(r[k - 1], p).is_none() {
            return Err(format!("points {} and {p} (entries {} and {k}) are not linked", r[k - 1], k - 1));
        }
    }
    Ok(())
}

fn check_horizontal(front: Vec3) -> Result<Vec3> {
    let f = Vec3::new(front.x, 0.0, front.z);
    if !f.is_finite() || f.length() < 1e-6 {
        return Err(scene_err("front", "must be a finite direction with a horizontal part"));
    }
    Ok(f.normalize())
}

fn check_wander(wd: &WanderSpec) -> Result<()> {
    if !(wd.accel.is_finite() && wd.accel >= 0.0) {
        return Err(scene_err("wander.accel", format!("{} is out of range (≥ 0 m/s²)", wd.accel)));
    }
    if !(wd.damping.is_finite() && wd.damping >= 0.0) {
        return Err(scene_err("wander.damping", format!("{} is out of range (≥ 0 1/s)", wd.damping)));
    }
    if !(wd.home_pull.is_finite() && wd.home_pull >= 0.0) {
        return Err(scene_err("wander.home_pull", format!("{} is out of range (≥ 0 1/s²)", wd.home_pull)));
    }
    Ok(())
}

fn check_hand_radius(r: f32) -> Result<()> {
    if !(r.is_finite() && (0.0..=1.0).contains(&r)) {
        return Err(scene_err("hand_radius", format!("{r} is out of range (0..=1 m)")));
    }
    Ok(())
}

fn build_leash(w: &mut World, l: &LeashSpec) -> Result<()> {
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
    if !(l.radius.is_finite() && l.radius >= 0.0) {
        return Err(scene_err("radius", "must be ≥ 0 m"));
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
                format!("{:.3} m from the hand: beyond the leash ({} m)", d.at.distance(l.hand), l.length),
            ));
        }
        if d.at.distance(l.hand) < 1e-3 {
            return Err(e("at", "at the hand".into()));
        }
        if !(d.mass.is_finite() && d.mass > 0.0) {
            return Err(e("mass", format!("{} is out of range (> 0 kg)", d.mass)));
        }
        if !(d.body_radius.is_finite() && d.body_radius >= 0.0) {
            return Err(e("body_radius", format!("{} is out of range (≥ 0 m)", d.body_radius)));
        }
        if !(d.grip.is_finite() && d.grip >= 0.0) {
            return Err(e("grip", format!("{} is out of range (≥ 0)", d.grip)));
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

fn build_leash_points(w: &mut World, l: &LeashPoints) -> Result<()> {
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
        if !(d.body_radius.is_finite() && d.body_radius >= 0.0) {
            return Err(e("body_radius", format!("{} is out of range (≥ 0 m)", d.body_radius)));
        }
        let home = w.particles.pos[d.particle as usize];
        if !(d.grip.is_finite() && d.grip >= 0.0) {
            return Err(e("grip", format!("{} is out of range (≥ 0)", d.grip)));
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

fn check_tear_force(f: f32) -> std::result::Result<(), String> {
    if f.is_finite() && f > 0.0 {
        Ok(())
    } else {
        Err(format!("{f} is out of range (a tension > 0 N)"))
    }
}

fn build_grid(w: &mut World, g: &GridSpec) -> Result<()> {
    if !(1..=1000).contains(&g.cols) || !(1..=1000).contains(&g.rows) || g.cols * g.rows < 2 {
        return Err(scene_err("cols", "a grid needs 1..=1000 columns and rows, and at least 2 points"));
    }
    if !(g.spacing.is_finite() && g.spacing > 0.0) {
        return Err(scene_err("spacing", "must be > 0"));
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
