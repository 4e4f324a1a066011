//! The benchmark workloads of `docs/benchmarks.md`, built exactly as written, shared by
//! `cargo bench`, the native runner and the tests.
//!
//! Common setup: 2D (z = 0), y up, g = 9.81 m/s² down; a rope of 100 points of 1 kg,
//! rest length 0.1 m between neighbours (9.9 m); point 0 pinned; at rest and horizontal,
//! point i at (x_pin + 0.1·i, 0); dt = 1/60 s; 5 iterations per step or the solver's
//! nearest equivalent (5 sweeps, 5 substeps × 1 iteration, or 5 passes of a direct
//! solver); no collisions, no damping (every damping setting is zeroed here).

use glam::Vec3;

use crate::bodies::{BodyDef, BodyKind, Shape};
use crate::joints::{JointDef, JointKind};
use crate::links::LinkDef;
use crate::particles::ParticleDef;
use crate::settings::Settings;
use crate::solver::SolverKind;
use crate::world::World;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Workload {
    /// `rope100`: one rope pinned at the origin.
    W1,
    /// `ropes100x100`: 100 ropes, pins on y = 0 at x = (r − 49.5)·20 m.
    W2,
    /// `chain-heavy`: W1 with point 99 at 100 kg.
    W3,
    /// `chain-bodies`: W1 made of rigid bodies (100 spheres on ball-socket joints).
    W4,
    /// `wrecking-ball`: W1's rope holding a 100 kg sphere body at its end.
    W5,
    /// `pyramid20`: 20 rows of 1 m boxes (210 bodies) on a static ground, contacts only.
    W6,
    /// `large_pyramid`: Box2D v3's own benchmark scene, 100 rows (5,050 boxes), on Box2D's
    /// ground and in its loop (`benchmark::run_box2d_protocol`).
    W7,
}

impl Workload {
    pub const ALL: [Workload; 7] =
        [Workload::W1, Workload::W2, Workload::W3, Workload::W4, Workload::W5, Workload::W6, Workload::W7];

    pub fn name(self) -> &'static str {
        match self {
            Workload::W1 => "W1",
            Workload::W2 => "W2",
            Workload::W3 => "W3",
            Workload::W4 => "W4",
            Workload::W5 => "W5",
            Workload::W6 => "W6",
            Workload::W7 => "W7",
        }
    }

    /// The workload's name in the output line: `W1`…`W5` as before; W6 prints as the
    /// peers' `pyramid20`, so its line sits beside theirs.
    pub fn label(self) -> &'static str {
        match self {
            Workload::W6 => "pyramid20",
            Workload::W7 => "large_pyramid",
            w => w.name(),
        }
    }

    /// The quality figures' names in the output line: `stretch`/`peak_stretch`, or for W6
    /// `drift`/`peak_drift` (largest displacement of a box centre, m).
    pub fn quality_names(self) -> (&'static str, &'static str) {
        match self {
            Workload::W6 | Workload::W7 => ("drift", "peak_drift"),
            _ => ("stretch", "peak_stretch"),
        }
    }

    /// The workload's docs/benchmarks.md line for `engine` (`ropelab-<config>`).
    /// W7's is the Box2D peer's: time per step and per box-step, the drift at the end.
    pub fn line(self, engine: &str, r: &crate::benchmark::BenchResult) -> String {
        if self == Workload::W7 {
            return large_pyramid_line(engine, r, LARGE_PYRAMID_ROWS);
        }
        crate::benchmark::format_line_as(engine, self.label(), r, self.quality_names())
    }

    /// Runs the workload's protocol on a freshly built `world`: docs/benchmarks.md's, or for
    /// W7 Box2D's own loop.
    pub fn run(self, world: &mut World, now: impl FnMut() -> f64) -> crate::benchmark::BenchResult {
        match self {
            Workload::W7 => crate::benchmark::run_box2d_protocol(world, now, |w| self.stretch(w)),
            _ => crate::benchmark::run_protocol_with(world, now, |w| self.stretch(w)),
        }
    }

    /// `W1`…`W7`, or the peers' names `pyramid20`, `large_pyramid` (any case).
    pub fn from_name(s: &str) -> Option<Workload> {
        Self::ALL.into_iter().find(|w| w.name().eq_ignore_ascii_case(s) || w.label().eq_ignore_ascii_case(s))
    }

    /// Builds the workload's world for `solver` with the per-step budget of docs/benchmarks.md
    /// ([`Workload::settings`]).
    pub fn build(self, solver: SolverKind) -> World {
        let mut w = World::new(self.settings(solver));
        match self {
            Workload::W1 => add_rope(&mut w, 0.0, 1.0),
            Workload::W2 => {
                for r in 0..100 {
                    add_rope(&mut w, (r as f32 - 49.5) * 20.0, 1.0);
                }
            }
            Workload::W3 => add_rope(&mut w, 0.0, 100.0),
            Workload::W4 => add_body_chain(&mut w),
            Workload::W5 => {
                add_rope(&mut w, 0.0, 1.0);
                let ball = w
                    .add_body(&BodyDef {
                        shape: Shape::Sphere { radius: 0.2 },
                        mass: 100.0,
                        // Exactly on point 99 (0.1 · 99 in f32), so the attachment is the centre.
                        pos: w.particles.pos[99],
                        ..Default::default()
                    })
                    .expect("valid workload body");
                // Attached at the ball's centre (docs/benchmarks.md lets us choose the centre or
                // the nearest surface point): the rope's last point *is* the centre, so the
                // last link runs from point 98 to the centre, 0.1 m at rest.
                w.attach(99, ball).expect("valid attachment");
            }
            Workload::W6 => add_pyramid(&mut w, PYRAMID_ROWS),
            Workload::W7 => add_pyramid_on(&mut w, LARGE_PYRAMID_ROWS, LARGE_PYRAMID_GROUND),
        }
        w
    }

    /// The per-step budget of docs/benchmarks.md for this workload under `solver`:
    /// [`settings_for`], except W4: 5 substeps × 1 iteration under every solver but
    /// `exact`, and 1 substep × up to 5 Newton passes under `exact`.
    ///
    /// W4 has no particles and no links, only bodies and joints. Under every solver but
    /// `exact` the joints are the impulse solver's rows (Box2D v3's soft step with a relax
    /// pass, `joints::row`), which are built for substeps: at 1 substep × 5 iterations (the
    /// budget pbd and jacobi use for W1–W3) the chain blows up within a second (stretch > 1
    /// from step 53, ≈ 1,000 after 1,100 steps; 1 × 20: from step 55). So W4 is "5
    /// substeps × 1" for them, which docs/benchmarks.md allows, and those lines measure the same
    /// rows.
    ///
    /// Under `exact` the ball-sockets are a tree of bodies solved directly
    /// (`solver::exact::body_tree`), and `iterations` caps its Newton passes: 1 substep × at
    /// most 5 passes, the "5 passes of a direct solver" budget, and a pass that finds the
    /// tree converged stops the step (it measures the joints and solves nothing). With the
    /// chain's geometric stiffness in the pass it converges in 2.07 passes per step on
    /// average (one solve and the measuring pass that finds it converged; the cap is never
    /// reached), stretch 1.2e-5, peak 7.0e-5. (Without it, as plain Gauss–Newton, the same
    /// budget needed 4.3 passes per step and the whip of the free end came apart with a
    /// cap of 4; 5 substeps × 1 pass was the robust choice then, at 2.4× the cost.)
    pub fn settings(self, solver: SolverKind) -> Settings {
        let mut s = settings_for(solver);
        if self == Workload::W4 {
            (s.substeps, s.iterations) = if solver == SolverKind::Exact { (1, 5) } else { (5, 1) };
        }
        if matches!(self, Workload::W6 | Workload::W7) {
            // "The engine's default solver with 4 iterations": the impulse solver's default
            // is Box2D v3's, 4 substeps × 1 iteration (the budget of tests/contacts.rs).
            (s.substeps, s.iterations) = (4, 1);
        }
        s
    }

    /// Whether `solver` can run this workload (the classic solver has no bodies).
    ///
    /// W6 runs only under `impulse`: the body contact solver (the other solvers would
    /// step the boxes' contacts through the same rows in their body sub-steps, but the
    /// workload measures the contact solver).
    pub fn runs_under(self, solver: SolverKind) -> bool {
        match self {
            Workload::W6 | Workload::W7 => solver == SolverKind::Impulse,
            Workload::W4 | Workload::W5 => solver != SolverKind::Classic,
            _ => true,
        }
    }

    /// The workload's `stretch`: over its links; W4 over the body centres; W5 over the 99
    /// rope links, the last one ending at the ball's attachment point (its centre) taken
    /// from the body's own pose, not from the proxy particle.
    pub fn stretch(self, w: &World) -> f32 {
        let rel = |a: Vec3, b: Vec3| ((b - a).length() - 0.1).abs() / 0.1;
        match self {
            Workload::W4 => w.bodies.pos.windows(2).map(|q| rel(q[0], q[1])).fold(0.0, f32::max),
            Workload::W5 => {
                let p = &w.particles.pos;
                let rope = p[..99].windows(2).map(|q| rel(q[0], q[1])).fold(0.0, f32::max);
                let a = w.attachments[0];
                let end = w.bodies.index(a.body).map_or(p[99], |k| w.bodies.world_point(k, a.local));
                rope.max(rel(p[98], end))
            }
            Workload::W6 => pyramid_drift(w, PYRAMID_ROWS),
            Workload::W7 => pyramid_drift(w, LARGE_PYRAMID_ROWS),
            _ => w.max_stretch(),
        }
    }
}

/// A benchmarked configuration: a solver at the per-step budget of docs/benchmarks.md
/// ([`settings_for`]), optionally with tethers (long-range attachments to the pin, which
/// docs/benchmarks.md allows for the XPBD row). Named `xpbd`, `xpbd+tethers`, …, and printed as
/// `ropelab-<name>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchConfig {
    pub solver: SolverKind,
    pub tethers: bool,
}

impl BenchConfig {
    /// Every solver plain, then XPBD with tethers.
    pub fn all() -> Vec<BenchConfig> {
        let mut v: Vec<_> = SolverKind::ALL.iter().map(|&solver| BenchConfig { solver, tethers: false }).collect();
        v.push(BenchConfig { solver: SolverKind::Xpbd, tethers: true });
        v
    }

    /// `"<solver>"` or `"<solver>+tethers"`.
    pub fn from_name(name: &str) -> Option<BenchConfig> {
        let (solver, tethers) = match name.strip_suffix("+tethers") {
            Some(s) => (s, true),
            None => (name, false),
        };
        SolverKind::from_name(solver).map(|solver| BenchConfig { solver, tethers })
    }

    pub fn name(self) -> String {
        if self.tethers {
            format!("{}+tethers", self.solver.name())
        } else {
            self.solver.name().to_string()
        }
    }

    /// `workload`'s world in this configuration.
    pub fn build(self, workload: Workload) -> World {
        let mut w = workload.build(self.solver);
        w.settings.tethers = self.tethers;
        w
    }

    /// The leash scene preset under this configuration's solver (tethers added if asked;
    /// the preset may have them on already).
    pub fn leash(self) -> World {
        let mut w = leash_world();
        w.settings.solver = self.solver;
        w.settings.tethers |= self.tethers;
        w
    }
}

/// 5 iterations per step, or 5 substeps × 1 iteration for the substepping solver; no
/// damping of any kind.
///
/// The exact solver's `iterations` is a cap on Newton passes, not a fixed count: each
/// step runs passes until every link is within 8e-5 of its rest length
/// (`solver::exact::TOLERANCE`) and stops there. Warm-started from the last step's
/// multipliers, that takes 2.9 Newton passes per step on W1 on average (W3: 4.0; plus one
/// measuring sweep that finds convergence), but the whip of the free end needs up to about
/// 10 now and then, so the cap is 20. (With a hard cap of 5 the whip is not resolved: W1
/// peak stretch ≈ 2.)
pub fn settings_for(solver: SolverKind) -> Settings {
    let mut s = Settings { solver, friction: 1.0, gravity: Vec3::new(0.0, -9.81, 0.0), ..Settings::default() };
    match solver {
        SolverKind::Xpbd | SolverKind::Impulse => {
            s.substeps = 5;
            s.iterations = 1;
        }
        SolverKind::Exact => {
            s.substeps = 1;
            s.iterations = 20;
        }
        _ => {
            s.substeps = 1;
            s.iterations = 5;
        }
    }
    s
}

/// The leash scene preset (`www/scenes/leash.json`: three leashes of 20 points, dogs,
/// rope–rope contacts, tangles and the braid every step) — ropelab's own workload beside
/// docs/benchmarks.md's (the 000 seed's table: 0.7 ms per step for its 60-particle version).
pub fn leash_world() -> World {
    crate::scene::Scene::from_json(LEASH_JSON).and_then(|s| s.build()).expect("the leash preset is valid")
}

/// The leash preset's text.
pub const LEASH_JSON: &str = include_str!("../www/scenes/leash.json");

/// W1 `rope100` for `solver`.
pub fn w1(solver: SolverKind) -> World {
    Workload::W1.build(solver)
}

/// W2 `ropes100x100` for `solver`.
pub fn w2(solver: SolverKind) -> World {
    Workload::W2.build(solver)
}

/// W3 `chain-heavy` for `solver`.
pub fn w3(solver: SolverKind) -> World {
    Workload::W3.build(solver)
}

/// W4: 100 spheres (radius 0.04 m, 1 kg), centres 0.1 m apart on y = 0 from x = 0, each
/// joined to the next by a ball-socket at its own centre ((−0.1, 0) in the next one's
/// frame), the first static. 3D bodies, not planar-locked (docs/benchmarks.md would allow the 2D
/// lock, but it adds three rows per body): gravity, the anchors and every impulse lie in
/// z = 0 and the spheres' inertia is isotropic, so the chain stays in the plane exactly
/// (every centre's z is 0.0 after 1,100 steps under every solver) and the bodies turn
/// about z only, as the peers' 2D bodies do.
fn add_body_chain(w: &mut World) {
    let mut prev = None;
    for i in 0..100 {
        let def = BodyDef {
            kind: if i == 0 { BodyKind::Static } else { BodyKind::Dynamic },
            shape: Shape::Sphere { radius: 0.04 },
            mass: 1.0,
            pos: Vec3::new(0.1 * i as f32, 0.0, 0.0),
            // docs/benchmarks.md: no collisions (the peers' collision groups match nothing).
            filter: crate::bodies::Filter { group: 0, mask: 0 },
            ..Default::default()
        };
        let id = w.add_body(&def).expect("valid workload body");
        if let Some(p) = prev {
            let anchor = Vec3::new(0.1 * (i - 1) as f32, 0.0, 0.0);
            let joint = JointDef { kind: JointKind::BallSocket, a: Some(p), b: Some(id), anchor, ..Default::default() };
            w.add_joint(&joint).expect("valid workload joint");
        }
        prev = Some(id);
    }
}

/// W6's rows.
pub const PYRAMID_ROWS: usize = 20;

/// Box `k` (in build order) of an `rows`-row pyramid: row r (0 = bottom) has rows − r
/// boxes, 1 m apart centre to centre, centred on x = 0, centres at y = 0.5 + r.
pub fn pyramid_box_centre(rows: usize, k: usize) -> Vec3 {
    let mut k = k;
    for r in 0..rows {
        let n = rows - r;
        if k < n {
            return Vec3::new(k as f32 - 0.5 * (n - 1) as f32, 0.5 + r as f32, 0.0);
        }
        k -= n;
    }
    panic!("box {k} beyond a {rows}-row pyramid")
}

/// W6 `pyramid20` (docs/benchmarks.md): a static ground box spanning x = −40..40,
/// y = −1..0 (body 0), then rows·(rows+1)/2 unit boxes of 1 kg, μ 0.6, restitution 0,
/// exactly touching, at rest, unrotated. The boxes are planar (2D, as docs/benchmarks.md
/// specifies: 1 m cubes held in z = 0 by the 2D lock, ground 80 m deep), so their contacts
/// are the 2D ones (`contacts::planar`).
pub fn add_pyramid(w: &mut World, rows: usize) {
    add_pyramid_on(w, rows, Vec3::new(40.0, 0.5, 40.0));
}

/// W7's rows (Box2D's `CreateLargePyramid`: base 100).
pub const LARGE_PYRAMID_ROWS: usize = 100;

/// W7's ground, Box2D v3's `CreateLargePyramid` (in `benchmarks.c` of its source tree): a
/// static box of half extents (100, 1) centred at (0, −1), its top at y = 0. On it 100 rows
/// of 1 m boxes of density 1, friction 0.6 (Box2D's default), row i (0 = bottom) of 100 − i
/// boxes at y = i + 0.5, 1 m apart and centred on x = 0: the places [`pyramid_box_centre`]
/// gives. Sleeping is off in both.
pub const LARGE_PYRAMID_GROUND: Vec3 = Vec3::new(100.0, 1.0, 40.0);

/// W7's scene with `rows` rows (W7 has 100) under `solver` at W7's settings: the cost
/// curve's points (`ropelab bench W7 --rows 20`: W6's 210 boxes on W7's ground).
pub fn large_pyramid_world(rows: usize, solver: SolverKind) -> World {
    let mut w = World::new(Workload::W7.settings(solver));
    add_pyramid_on(&mut w, rows, LARGE_PYRAMID_GROUND);
    w
}

/// The Box2D peer's `large_pyramid` line for a pyramid of `rows` rows (result `r` of
/// `benchmark::run_box2d_protocol`, its drift in `stretch`).
pub fn large_pyramid_line(engine: &str, r: &crate::benchmark::BenchResult, rows: usize) -> String {
    let boxes = rows * (rows + 1) / 2;
    format!(
        "{engine} large_pyramid us_per_step={:.2} us_per_box_step={:.4} drift={} bodies={boxes} steps={}",
        r.us_per_step,
        r.us_per_step / boxes as f64,
        crate::benchmark::sci(r.stretch),
        crate::benchmark::BOX2D_STEPS - 1
    )
}

/// A pyramid of `rows` rows on a static ground of half extents `ground`, its top at y = 0.
fn add_pyramid_on(w: &mut World, rows: usize, ground: Vec3) {
    let material = crate::bodies::Material { friction: 0.6, restitution: 0.0, rolling_friction: 0.0 };
    w.add_body(&BodyDef {
        kind: BodyKind::Static,
        shape: Shape::Box { half: ground },
        pos: Vec3::new(0.0, -ground.y, 0.0),
        material,
        ..Default::default()
    })
    .expect("valid workload ground");
    for k in 0..rows * (rows + 1) / 2 {
        w.add_body(&BodyDef {
            shape: Shape::Box { half: Vec3::splat(0.5) },
            mass: 1.0,
            pos: pyramid_box_centre(rows, k),
            material,
            planar: true,
            ..Default::default()
        })
        .expect("valid workload box");
    }
}

/// W6's `drift`: the largest distance of a box centre (bodies 1..) from its start.
pub fn pyramid_drift(w: &World, rows: usize) -> f32 {
    w.bodies.pos[1..].iter().enumerate().map(|(k, p)| p.distance(pyramid_box_centre(rows, k))).fold(0.0, f32::max)
}

/// One 100-point rope pinned at (x_pin, 0), horizontal, at rest; the last point has
/// `last_mass` kg.
fn add_rope(w: &mut World, x_pin: f32, last_mass: f32) {
    let first = w.particles.len() as u32;
    for i in 0..100 {
        let def = ParticleDef {
            pos: Vec3::new(x_pin + 0.1 * i as f32, 0.0, 0.0),
            mass: if i == 99 { last_mass } else { 1.0 },
            radius: 0.04,
            locked: i == 0,
            ..Default::default()
        };
        w.add_particle(&def).expect("valid workload particle");
    }
    for i in 0..99 {
        let def = LinkDef { a: first + i, b: first + i + 1, rest: Some(0.1), ..Default::default() };
        w.add_link(&def).expect("valid workload link");
    }
}

// (Rigid bodies: the full build.)
#[cfg(test)]
#[cfg(feature = "full")]
mod tests {
    use super::*;

    #[test]
    fn workloads_match_benchmarks_md() {
        let w1 = Workload::W1.build(SolverKind::Classic);
        assert_eq!((w1.particles.len(), w1.links.len()), (100, 99));
        assert!((w1.particles.pos[99].x - 9.9).abs() < 1e-5 && w1.particles.locked[0]);
        assert!(w1.links.rest.iter().all(|&r| r == 0.1));
        let w2 = Workload::W2.build(SolverKind::Classic);
        assert_eq!((w2.particles.len(), w2.links.len()), (10_000, 9_900));
        assert_eq!(w2.particles.pos[0].x, -990.0);
        assert_eq!(w2.particles.pos[9_900].x, 990.0);
        let w3 = Workload::W3.build(SolverKind::Classic);
        assert_eq!(w3.particles.mass[99], 100.0);
        assert_eq!(w3.particles.mass[98], 1.0);
        assert_eq!(Workload::from_name("w2"), Some(Workload::W2));
        let w4 = Workload::W4.build(SolverKind::Impulse);
        assert_eq!((w4.bodies.len(), w4.joints.len()), (100, 99));
        assert_eq!(w4.bodies.inv_mass[0], 0.0);
        assert!((w4.bodies.pos[99].x - 9.9).abs() < 1e-5 && Workload::W4.stretch(&w4) < 1e-5);
        let w5 = Workload::W5.build(SolverKind::Exact);
        assert_eq!((w5.particles.len(), w5.links.len(), w5.bodies.len()), (100, 99, 1));
        assert_eq!((w5.bodies.mass[0], w5.attachments[0].particle), (100.0, 99));
        assert_eq!((w5.attachments[0].local, w5.bodies.pos[0]), (Vec3::ZERO, w5.particles.pos[99]));
        assert!(Workload::W5.stretch(&w5) < 1e-5);
        // The proxy particle stays on the ball: W5's stretch (last link to the body's own
        // attachment point) is the links' stretch.
        for solver in [SolverKind::Exact, SolverKind::Impulse, SolverKind::Xpbd] {
            let mut w = Workload::W5.build(solver);
            for _ in 0..30 {
                w.step(1.0 / 60.0).unwrap();
                assert!((Workload::W5.stretch(&w) - w.max_stretch()).abs() < 1e-5, "{solver:?}");
            }
        }
        for solver in SolverKind::ALL.iter().copied().filter(|&s| Workload::W4.runs_under(s)) {
            let s = Workload::W4.build(solver).settings;
            let budget = if solver == SolverKind::Exact { (1, 5) } else { (5, 1) };
            assert_eq!((s.substeps, s.iterations), budget, "{solver:?}");
            assert_eq!(Workload::W5.build(solver).settings, settings_for(solver));
        }
        assert!(!Workload::W4.runs_under(SolverKind::Classic) && Workload::W1.runs_under(SolverKind::Classic));
        // W6: 210 unit boxes in 20 rows on a static ground, under impulse at 4 × 1.
        let w6 = Workload::W6.build(SolverKind::Impulse);
        assert_eq!((w6.bodies.len(), w6.settings.substeps, w6.settings.iterations), (211, 4, 1));
        assert_eq!((w6.bodies.inv_mass[0], w6.bodies.mass[1]), (0.0, 1.0));
        assert_eq!((w6.bodies.pos[1], w6.bodies.pos[20]), (Vec3::new(-9.5, 0.5, 0.0), Vec3::new(9.5, 0.5, 0.0)));
        assert_eq!(w6.bodies.pos[210], Vec3::new(0.0, 19.5, 0.0));
        assert_eq!(Workload::W6.stretch(&w6), 0.0);
        assert_eq!((Workload::from_name("pyramid20"), Workload::W6.label()), (Some(Workload::W6), "pyramid20"));
        let only: Vec<_> = SolverKind::ALL.iter().filter(|&&k| Workload::W6.runs_under(k)).collect();
        assert_eq!(only, [&SolverKind::Impulse]);
        // W7: Box2D's CreateLargePyramid, x = (i + 1)·½ + (j − i) − 50, y = i + ½ for
        // 0 ≤ i ≤ j < 100, on a ground of half extents (100, 1) at (0, −1).
        let w7 = Workload::W7.build(SolverKind::Impulse);
        assert_eq!((w7.bodies.len(), w7.settings.substeps, w7.settings.iterations), (5_051, 4, 1));
        let mut k = 1;
        for i in 0..100 {
            for j in i..100 {
                let x = (i as f32 + 1.0) * 0.5 + (j - i) as f32 - 50.0;
                assert_eq!(w7.bodies.pos[k], Vec3::new(x, i as f32 + 0.5, 0.0), "box {k}");
                k += 1;
            }
        }
        assert!(w7.bodies.planar[1..].iter().all(|&p| p) && w7.bodies.pos[0] == Vec3::new(0.0, -1.0, 0.0));
        assert_eq!(w7.bodies.shape[0], Shape::Box { half: Vec3::new(100.0, 1.0, 40.0) });
        assert_eq!(large_pyramid_world(LARGE_PYRAMID_ROWS, SolverKind::Impulse).bodies.pos, w7.bodies.pos);
        assert_eq!(Workload::W7.stretch(&w7), 0.0);
        for name in ["W7", "large_pyramid", "LARGE_PYRAMID"] {
            assert_eq!(Workload::from_name(name), Some(Workload::W7), "{name}");
        }
        let r = crate::benchmark::BenchResult {
            us_per_step: 3621.0,
            stretch: 0.5,
            peak_stretch: 0.5,
            mean_stretch: 0.5,
            median_stretch: 0.5,
        };
        assert_eq!(
            Workload::W7.line("ropelab-impulse", &r),
            "ropelab-impulse large_pyramid us_per_step=3621.00 us_per_box_step=0.7170 drift=5.000e-1 bodies=5050 steps=499"
        );
        let t = BenchConfig::from_name("xpbd+tethers").unwrap();
        assert_eq!((t.solver, t.tethers, t.name().as_str()), (SolverKind::Xpbd, true, "xpbd+tethers"));
        assert!(t.build(Workload::W1).settings.tethers && !Workload::W1.build(SolverKind::Xpbd).settings.tethers);
        assert_eq!(BenchConfig::from_name("exact").map(|c| c.tethers), Some(false));
        assert_eq!(BenchConfig::from_name("xpbd+tether"), None);
    }
}
