//! Narrow phase for rigid bodies: contact manifolds between body shapes, a ground plane, rope
//! particles (spheres) and rope segments (capsules). Geometry only — the solver turns the
//! manifolds into rows (issue 11). No allocation anywhere: every manifold is a fixed array.
//!
//! ## Conventions
//! - A [`Manifold`] has one unit `normal` pointing **from A to B** and up to four
//!   [`ManifoldPoint`]s. Each point is in world space, **midway between the two surfaces**
//!   along the normal; its `separation` is the gap between the surfaces along the normal
//!   there (negative = penetrating). `anchor_a`/`anchor_b` are the point relative to each
//!   body's centre, in the world frame (the solver's lever arms).
//! - **Speculative contacts**: a point is reported when its separation is below
//!   `speculative` (≥ 0), so a solver that sets the margin to |v_rel|·dt keeps a fast body
//!   from tunnelling; with `speculative = 0` only touching/penetrating points appear.
//!   The narrow phase only honours the margin; choosing it is the solver's job.
//! - **Feature ids** (`id`, never 0 — the seed reserves 0 for "no id"): the high byte names
//!   the pair family and contact mode, the low bits the features that made the point, so a
//!   resting contact keeps its ids from step to step and the solver can warm start by
//!   matching them within a manifold. Encodings are documented in each file:
//!   - `0x01_xxxxxx` round–round ([`round`]): 1 = single point; 2, 3 = the two ends of the
//!     overlap of parallel capsules;
//!   - `0x02_xxxxxx` round–box ([`box_round`]): one point from the closest features `0xFF`;
//!     box face `f` (0..6 = +x, −x, +y, −y, +z, −z) with segment end `e` (1, 2):
//!     `f << 4 | e`; an edge axis `0x80 | k` (box axis k);
//!   - `0x03_xxxxxx` box–box face contact (reference face and the clip feature: an incident
//!     vertex, an incident edge through a side plane, or a reference-face corner), `0x0400_xxxx` box–box edge contact (the two edges),
//!     `0x0401_xxxx` box–box closest pair of boxes apart ([`box_box`]);
//!   - `0x05_xxxxxx` plane–round (segment end 1, 2), `0x06_xxxxxx` plane–box (vertex + 1)
//!     ([`plane`]).
//!
//! Spheres and capsules are both "round" shapes: a segment core (a point for a sphere)
//! swept by a ball, so sphere–sphere, sphere–capsule and capsule–capsule share one routine,
//! and sphere–box is capsule–box with a zero-length core. The pair functions work with
//! A = the round shape and B = the box; [`collide`] swaps reversed pairs and flips the normal.

pub mod box_box;
pub mod box_box_2d;
pub mod box_round;
pub mod half_space;
pub mod round;

use glam::{Quat, Vec3};

use crate::bodies::Shape;

/// A body's pose: centre of mass and orientation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    pub pos: Vec3,
    pub rot: Quat,
}

impl Pose {
    pub const IDENTITY: Pose = Pose { pos: Vec3::ZERO, rot: Quat::IDENTITY };

    pub fn new(pos: Vec3, rot: Quat) -> Self {
        Self { pos, rot }
    }

    pub fn from_pos(pos: Vec3) -> Self {
        Self { pos, rot: Quat::IDENTITY }
    }

    /// Local → world.
    #[inline]
    pub fn apply(&self, p: Vec3) -> Vec3 {
        self.pos + self.rot * p
    }

    /// World → local.
    #[inline]
    pub fn apply_inv(&self, p: Vec3) -> Vec3 {
        self.rot.conjugate() * (p - self.pos)
    }
}

impl Default for Pose {
    fn default() -> Self {
        Self::IDENTITY
    }
}

/// A static half-space `{x : normal·x ≤ offset}` (the ground: normal = +y, offset = 0).
/// Kept apart from [`Shape`] so the bodies' scene format does not change.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plane {
    /// Unit outward normal.
    pub normal: Vec3,
    /// Signed distance of the surface from the origin along `normal` (m).
    pub offset: f32,
}

impl Plane {
    /// The ground y = `height`.
    pub fn ground(height: f32) -> Self {
        Self { normal: Vec3::Y, offset: height }
    }

    /// Signed distance of `p` above the surface.
    #[inline]
    pub fn distance(&self, p: Vec3) -> f32 {
        self.normal.dot(p) - self.offset
    }
}

/// One contact point of a [`Manifold`].
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct ManifoldPoint {
    /// World point midway between the two surfaces.
    pub point: Vec3,
    /// Gap between the surfaces along the manifold normal (m); negative = penetrating.
    pub separation: f32,
    /// `point` relative to A's centre (world frame).
    pub anchor_a: Vec3,
    /// `point` relative to B's centre (world frame).
    pub anchor_b: Vec3,
    /// Feature key, stable while the same features touch; never 0.
    pub id: u32,
}

/// Contact manifold between two shapes: a normal from A to B and up to four points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Manifold {
    /// Unit normal from A to B (meaningful when `count > 0`).
    pub normal: Vec3,
    pub points: [ManifoldPoint; 4],
    pub count: usize,
}

impl Default for Manifold {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl Manifold {
    pub const EMPTY: Manifold = Manifold {
        normal: Vec3::Y,
        points: [ManifoldPoint {
            point: Vec3::ZERO,
            separation: 0.0,
            anchor_a: Vec3::ZERO,
            anchor_b: Vec3::ZERO,
            id: 0,
        }; 4],
        count: 0,
    };

    /// The points in use.
    pub fn points(&self) -> &[ManifoldPoint] {
        &self.points[..self.count]
    }

    /// Smallest separation of the points (None when empty).
    pub fn min_separation(&self) -> Option<f32> {
        self.points().iter().map(|p| p.separation).reduce(f32::min)
    }

    /// Adds a point if there is room (anchors are filled by [`Manifold::set_anchors`]).
    #[inline]
    pub(crate) fn push(&mut self, point: Vec3, separation: f32, id: u32) {
        if self.count < 4 {
            self.points[self.count] =
                ManifoldPoint { point, separation, anchor_a: Vec3::ZERO, anchor_b: Vec3::ZERO, id };
            self.count += 1;
        }
    }

    /// Fills every point's anchors from the two centres.
    pub(crate) fn set_anchors(&mut self, ca: Vec3, cb: Vec3) {
        for p in &mut self.points[..self.count] {
            p.anchor_a = p.point - ca;
            p.anchor_b = p.point - cb;
        }
    }

    /// The same contact seen from B: normal flipped, anchors swapped.
    pub fn flipped(mut self) -> Self {
        self.normal = -self.normal;
        for p in &mut self.points[..self.count] {
            std::mem::swap(&mut p.anchor_a, &mut p.anchor_b);
        }
        self
    }
}

/// A shape placed in the world, as the pair routines see it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Core {
    /// A segment `p0`–`p1` (a point for a sphere) swept by a ball of radius `r`.
    Round { p0: Vec3, p1: Vec3, r: f32 },
    /// A box.
    Box { pose: Pose, half: Vec3 },
}

impl Core {
    pub(crate) fn new(shape: &Shape, pose: &Pose) -> Self {
        match *shape {
            Shape::Sphere { radius } => Core::Round { p0: pose.pos, p1: pose.pos, r: radius },
            Shape::Capsule { radius, half_length } => {
                let ax = pose.rot * Vec3::new(half_length, 0.0, 0.0);
                Core::Round { p0: pose.pos - ax, p1: pose.pos + ax, r: radius }
            }
            Shape::Box { half } => Core::Box { pose: *pose, half },
        }
    }
}

/// Core dispatch without anchors (A first).
fn collide_cores(a: Core, b: Core, speculative: f32) -> Manifold {
    match (a, b) {
        (Core::Round { p0, p1, r }, Core::Round { p0: q0, p1: q1, r: rb }) => {
            round::collide_round(p0, p1, r, q0, q1, rb, speculative)
        }
        (Core::Round { p0, p1, r }, Core::Box { pose, half }) => {
            box_round::collide_round_box(p0, p1, r, &pose, half, speculative)
        }
        (Core::Box { pose, half }, Core::Round { p0, p1, r }) => {
            let mut m = box_round::collide_round_box(p0, p1, r, &pose, half, speculative);
            m.normal = -m.normal;
            m
        }
        (Core::Box { pose: pa, half: ha }, Core::Box { pose: pb, half: hb }) => {
            box_box::collide_boxes(&pa, ha, &pb, hb, speculative)
        }
    }
}

/// Contact manifold between shape `a` at `pa` and shape `b` at `pb`: normal from A to B,
/// the points whose separation is below `speculative` (m, ≥ 0).
pub fn collide(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose, speculative: f32) -> Manifold {
    let mut m = collide_cores(Core::new(a, pa), Core::new(b, pb), speculative);
    m.set_anchors(pa.pos, pb.pos);
    m
}

/// Contact manifold between a static half-space (A, anchors relative to the world origin)
/// and shape `b` at `pb`.
pub fn collide_plane(plane: &Plane, b: &Shape, pb: &Pose, speculative: f32) -> Manifold {
    let mut m = match Core::new(b, pb) {
        Core::Round { p0, p1, r } => half_space::collide_plane_round(plane, p0, p1, r, speculative),
        Core::Box { pose, half } => half_space::collide_plane_box(plane, &pose, half, speculative),
    };
    m.set_anchors(Vec3::ZERO, pb.pos);
    m
}

/// A rope particle (a ball of `radius` centred at `p`, as B) against a body (`shape` at
/// `pose`, as A). Returns the contact point (anchor_a relative to the body's centre,
/// anchor_b relative to `p`) and the unit normal from the body to the particle, or `None`
/// when the gap is at least `speculative`.
pub fn collide_point(
    shape: &Shape,
    pose: &Pose,
    p: Vec3,
    radius: f32,
    speculative: f32,
) -> Option<(ManifoldPoint, Vec3)> {
    let mut m = collide_cores(Core::new(shape, pose), Core::Round { p0: p, p1: p, r: radius }, speculative);
    if m.count == 0 {
        return None;
    }
    m.set_anchors(pose.pos, p);
    // A ball against a convex shape touches at one point; keep the deepest if more came.
    let mut best = m.points[0];
    for q in &m.points[1..m.count] {
        if q.separation < best.separation {
            best = *q;
        }
    }
    Some((best, m.normal))
}

/// A rope segment (a capsule `p0`–`p1` of `radius`, as B) against a body (`shape` at
/// `pose`, as A): normal from the body to the segment, up to two points (a segment lying
/// on a face or along a capsule). `anchor_b` is relative to the segment's midpoint; the
/// rope solver splits the impulse between `p0` and `p1` by the point's position.
pub fn collide_segment(shape: &Shape, pose: &Pose, p0: Vec3, p1: Vec3, radius: f32, speculative: f32) -> Manifold {
    let mut m = collide_cores(Core::new(shape, pose), Core::Round { p0, p1, r: radius }, speculative);
    m.set_anchors(pose.pos, 0.5 * (p0 + p1));
    m
}

/// Closest points of segments `p1`–`q1` and `p2`–`q2`: (s, t, c1, c2) with
/// c1 = p1 + s (q1 − p1), c2 = p2 + t (q2 − p2), s, t ∈ [0, 1] — the rope–rope contacts'
/// [`crate::collide::segments::closest_points`] (Ericson §5.1.9, degenerate and parallel
/// cases handled), in the tuple form this module's callers take.
#[inline]
pub(crate) fn closest_segments(p1: Vec3, q1: Vec3, p2: Vec3, q2: Vec3) -> (f32, f32, Vec3, Vec3) {
    let c = crate::collide::segments::closest_points(p1, q1, p2, q2);
    (c.s, c.t, c.pa, c.pb)
}

/// A unit vector perpendicular to `v` (any, deterministic), or +y for a zero `v`.
pub(crate) fn any_perpendicular(v: Vec3) -> Vec3 {
    let n = v.normalize_or_zero();
    if n == Vec3::ZERO {
        return Vec3::Y;
    }
    n.any_orthonormal_vector()
}

/// Keeps at most 4 of `n` candidate points (`pts` world positions, `seps` separations),
/// chosen as Box2D/Bullet do for a stable, spread patch: the deepest; the farthest from it;
/// the one making the largest triangle with those two on one side; the largest on the
/// other side (a quadrilateral covering most of the patch). Returns the kept indices.
pub(crate) fn reduce4(pts: &[Vec3], seps: &[f32], normal: Vec3) -> ([usize; 4], usize) {
    let n = pts.len();
    let mut out = [0usize; 4];
    if n <= 4 {
        for (i, o) in out.iter_mut().enumerate().take(n) {
            *o = i;
        }
        return (out, n);
    }
    let mut i0 = 0;
    for i in 1..n {
        if seps[i] < seps[i0] {
            i0 = i;
        }
    }
    let mut i1 = usize::MAX;
    let mut best = -1.0;
    for i in 0..n {
        // Distance in the contact plane.
        let d = pts[i] - pts[i0];
        let d = d - normal * d.dot(normal);
        let l = d.length_squared();
        if i != i0 && l > best {
            best = l;
            i1 = i;
        }
    }
    let area = |k: usize| (pts[i1] - pts[i0]).cross(pts[k] - pts[i0]).dot(normal);
    let (mut i2, mut amax) = (usize::MAX, 0.0f32);
    let (mut i3, mut amin) = (usize::MAX, 0.0f32);
    for k in 0..n {
        if k == i0 || k == i1 {
            continue;
        }
        let a = area(k);
        if a > amax {
            amax = a;
            i2 = k;
        }
        if a < amin {
            amin = a;
            i3 = k;
        }
    }
    out[0] = i0;
    out[1] = i1;
    let mut count = 2;
    for k in [i2, i3] {
        if k != usize::MAX {
            out[count] = k;
            count += 1;
        }
    }
    (out, count)
}
