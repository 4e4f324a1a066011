//! Limits that protect the page (issue 13 §4): every count a user or a scene file can set
//! has an upper bound, chosen so that one `step` stays under [`MAX_STEP_MS`] on the 2-core
//! development machine (measured at the caps: `cargo bench --bench limits`, which fails
//! over it; figures in docs/benchmarks.md, "Steps at the caps"). Beyond a bound, the call or the
//! scene file is rejected with a clear error and nothing changes.
//!
//! A step's cost grows with the counts *and* with substeps × iterations, so besides the
//! per-count caps one budget bounds their product: [`work`] is a step's cost in units of
//! about one link projection, and it may not exceed [`MAX_WORK`]. Adding a point, a link, a
//! body, a joint or an obstacle, raising the iterations or the substeps, and loading a scene
//! are all refused when they would pass it.

/// The time one step may take on the development machine (ms): what the caps are chosen for.
pub const MAX_STEP_MS: f64 = 50.0;

/// Particles in a world.
pub const MAX_POINTS: usize = 20_000;
/// Links in a world.
pub const MAX_LINKS: usize = 40_000;
/// Ropes a scene file may declare (`ropes`, `rope_points`; cuts can only split existing
/// ropes, each piece keeping at least one link).
pub const MAX_ROPES: usize = 2_000;
/// Rigid bodies in a world: enough for Box2D's large pyramid (5,050 boxes and the ground) as
/// a scene, its boxes planar (W7 `large_pyramid`, docs/benchmarks.md).
pub const MAX_BODIES: usize = 6_000;
/// Of those, bodies free in 3D (not `planar`): a 3D body's contacts cost several times a
/// planar one's (the general narrow phase, 3D patches, its full inertia).
pub const MAX_3D_BODIES: usize = 1_000;
/// Joints in a world (the pointers' drag joints included).
pub const MAX_JOINTS: usize = 2_000;
/// Static obstacles in a world.
pub const MAX_OBSTACLES: usize = 64;
/// Winches in a world.
pub const MAX_WINCHES: usize = 256;
/// The lightest a point or a dynamic body may be (kg): below it 1/m overflows (a mass of
/// 1e-45 kg, a subnormal, made the inverse mass infinite and the step NaN) or dwarfs every
/// other mass in the scene past what f32 rows can balance.
pub const MIN_MASS: f32 = 1e-6;
/// The shortest rest length a link may have (m), and the closest two points a link is made
/// between: a grid of spacing 1e-45 had points in one place and, subdivided, links of rest
/// length 0 (1e-45 / 565 rounds to 0), whose export did not load. Every way a link gets its
/// rest length keeps it at least this: loading, `connect`, `subdivide`, the winches.
pub const MIN_REST: f32 = 1e-6;
/// The farthest a joint's anchor may be from the centre of a body it joins (m): the anchor
/// on A from A's centre, the anchor on B (`anchor_b`, else `anchor`) from B's. The API
/// fuzzer's weld at a 1,000 m lever went NaN in its second step. The f32 rows now solve long
/// levers (point blocks and welds in f64 where f32 cannot: `joints::row`), but measured on
/// the plank bridge (a 1 kg plank, radius of gyration 0.1–0.3 m, hanging from two ropes,
/// 2 iterations): rigid welds, hinges and ball-sockets held at 100 m; at 300 m the hinge and
/// at 1,000 m the weld still diverged, as rounding in f32 velocities times the lever feeds
/// the rope rows. (A *soft* joint on that plank diverges from a 10 m lever on: not fixed,
/// see docs/js-api.md, "Known limit: soft joints on long levers".) No preset comes near: their levers are under 3 m.
pub const MAX_JOINT_LEVER: f32 = 100.0;
/// Iterations and substeps, each (the settings table's range).
pub const MAX_ITERATIONS: u32 = 1000;
pub const MAX_SUBSTEPS: u32 = 1000;
/// Steps one `advance` may run to catch up (`setFixedStep`'s `maxSteps`).
pub const MAX_CATCH_UP: u32 = 10;
/// Size of a scene file (bytes), checked before parsing.
pub const MAX_SCENE_BYTES: usize = 16 << 20;
/// How far from the origin (m, per coordinate) points and bodies may be placed, dragged or
/// pinned; a point or body that flies farther stops there (see `World::keep_in_bounds`), so
/// every world the engine reaches exports a scene that loads again.
pub const MAX_COORD: f32 = 1e5;
/// The fastest a point or body may move (m/s, per component; rad/s for a body's spin): a
/// violent step's speeds are capped to it at the step's end, as Box2D caps its bodies'.
pub const MAX_SPEED: f32 = 1e4;
/// The largest radius a point (a rope's thickness) may have (m): the API fuzzer loaded a
/// leash whose ropes were 4.3e9 m thick, and its rope–rope contacts went NaN in the first
/// step. The presets' ropes are 1–5 cm thick.
pub const MAX_POINT_RADIUS: f32 = 10.0;
/// The fastest a held point moves once a step is over, and so leaves the hold when it is
/// released or exported (m/s): the point is wherever the pointer put it, but a drag of
/// 26 m in one 1/60 s step gave it 1,564 m/s, and the plank bridge the fuzzer then
/// exported and reloaded (fuzz seed 20265325) came apart under `impulse` at 8 substeps,
/// NaN in its fourth step (stable with the same point at 100 m/s). 100 m/s is a fling
/// across a 10 m view in a tenth of a second.
pub const MAX_THROW_SPEED: f32 = 100.0;
/// Rope–rope contact candidates per substep, and box tests to find them (the broad phase
/// stops there: in a clump denser than that, the remaining segments pass through).
pub const MAX_ROPE_PAIRS: usize = 20_000;
pub const MAX_ROPE_BOX_TESTS: usize = 400_000;
/// Body substeps per substep (the impulse rows run bodies at up to 240 Hz: 4 per 1/60 s;
/// a longer (sub)step gets no more, so a step's cost does not grow with `dt`).
pub const MAX_BODY_SUBSTEPS: u32 = 4;
/// The per-step work budget (see [`work`]).
pub const MAX_WORK: u64 = 3_000_000;

/// What a world asks of one step, counted for [`work`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Load {
    pub points: usize,
    pub links: usize,
    pub bodies: usize,
    /// Of `bodies`, those held in the plane (`planar`): cheaper, see [`work`].
    pub planar_bodies: usize,
    pub joints: usize,
    pub obstacles: usize,
    pub substeps: u32,
    pub iterations: u32,
    /// Rope–rope contacts on (PBD-family solvers solve them in every iteration).
    pub rope_collisions: bool,
}

/// A step's cost in units of about one link projection: per substep, every point and body
/// is integrated and collided (with every obstacle) and every link's row is rebuilt, and
/// every iteration sweeps the links, joints and body contacts. The weights are fitted to the
/// slowest solver of each kind of term (`benches/limits.rs`): per substep, a point or a link
/// ≈ 6 units (the impulse and exact solvers rebuild their rows every substep), per
/// iteration a link ≈ 3, a possible rope–rope pair ≈ 6 (with rope collisions on: up to
/// [`MAX_ROPE_PAIRS`]), a point against an obstacle ≈ ½ (PBD-family solvers project obstacle
/// contacts in every iteration, with no broad phase), a joint ≈ 10, a body with its
/// contacts ≈ 40 (a planar body half that: its contacts are 2D, four side by side; W7's 5,050
/// planar boxes at 4 substeps are 2.4 M units and took 21–39 ms a step), these two times the
/// body substeps a substep may run ([`MAX_BODY_SUBSTEPS`], whatever `dt` is). The budget is set
/// so the slowest case at it takes about 30 ms on the fast level of the development machine,
/// under 50 ms on its slow one (1.7× slower).
pub fn work(l: &Load) -> u64 {
    let (p, k, j, o) = (l.points as u64, l.links as u64, l.joints as u64, l.obstacles as u64);
    // A body in units of a 3D one: a planar body counts a half.
    let planar = l.planar_bodies.min(l.bodies) as u64;
    let b2 = 2 * (l.bodies as u64 - planar) + planar;
    // Rope–rope contacts: every pair of segments may be a candidate (a violent step sweeps
    // them all; the leash at 1000 substeps with a plane 700 m deep took over a second), up to
    // the broad phase's cap.
    let pairs = (k * k.saturating_sub(1) / 2).min(MAX_ROPE_PAIRS as u64);
    let contacts = if l.rope_collisions { 6 * pairs } else { 0 };
    // Bodies and joints run up to MAX_BODY_SUBSTEPS times per substep (whatever `dt` is).
    let bs = MAX_BODY_SUBSTEPS as u64;
    let per_iteration = 3 * k + contacts + p * o / 2 + bs * (10 * j + 20 * b2);
    let per_substep = p * (6 + o / 4) + 6 * k + bs * 10 * b2 + l.iterations.max(1) as u64 * per_iteration;
    l.substeps.max(1) as u64 * per_substep
}

/// `Err` (the message) when `l` exceeds a cap or the work budget. (A `String`, so that this
/// module depends on nothing: every layer can use it.)
pub fn check(l: &Load) -> Result<(), String> {
    for (what, n, max) in [
        ("points", l.points, MAX_POINTS),
        ("links", l.links, MAX_LINKS),
        ("bodies", l.bodies, MAX_BODIES),
        ("3D bodies (not planar)", l.bodies.saturating_sub(l.planar_bodies), MAX_3D_BODIES),
        ("joints", l.joints, MAX_JOINTS),
        ("obstacles", l.obstacles, MAX_OBSTACLES),
    ] {
        if n > max {
            return Err(format!(
                "too many {what}: {n} (at most {max}, so that one step stays under {} ms)",
                crate::num::Num(MAX_STEP_MS)
            ));
        }
    }
    let w = work(l);
    if w > MAX_WORK {
        return Err(format!(
            "too much work per step: {} substeps × {} iterations over {} points, {} links, {} bodies, {} joints, {} obstacles \
             is {w} units, over the budget of {MAX_WORK} that keeps one step under {} ms \
             (fewer substeps or iterations, or a smaller scene)",
            l.substeps,
            l.iterations,
            l.points,
            l.links,
            l.bodies,
            l.joints,
            l.obstacles,
            crate::num::Num(MAX_STEP_MS)
        ));
    }
    Ok(())
}
