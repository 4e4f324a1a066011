//! Distance links between two particles (the 002 seed's `Connection`).
//!
//! A link keeps its two particle indices as a `[u32; 2]` pair so the page reads all pairs
//! as one `Uint32Array` view. `give` is the seed's stretchiness in [0, 1): each relaxation
//! pass moves a point only `1 - give` of the way to where the link wants it (0 = steel bar).
//! `compliance` (m/N) is the physical softness the XPBD solver uses; 0 = rigid.
//! A `Rope` link is the inequality form (`|p_b - p_a| ≤ rest`): it can go slack.

use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LinkKind {
    /// Equality: the length is pulled and pushed toward `rest`.
    #[default]
    Distance,
    /// Inequality: only a longer-than-rest link is pulled back; slack is allowed.
    Rope,
}

crate::json_macro::deserialize_by_name!(LinkKind, "distance" => LinkKind::Distance, "rope" => LinkKind::Rope);

/// User-facing description of one link.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinkDef {
    pub a: u32,
    pub b: u32,
    /// Rest length in metres; `None` takes the current distance, as the seed does.
    pub rest: Option<f32>,
    /// The seed's give in [0, 1).
    pub give: f32,
    /// XPBD compliance in m/N (≥ 0).
    pub compliance: f32,
    pub kind: LinkKind,
    /// Relative stretch past which the link tears (`None` = never).
    pub tear_stretch: Option<f32>,
}

impl Default for LinkDef {
    fn default() -> Self {
        Self { a: 0, b: 0, rest: None, give: 0.0, compliance: 0.0, kind: LinkKind::Distance, tear_stretch: None }
    }
}

#[derive(Clone, Debug, Default)]
pub struct Links {
    /// Particle index pairs.
    pub ends: Vec<[u32; 2]>,
    /// Rest length (m).
    pub rest: Vec<f32>,
    /// The seed's give in [0, 1).
    pub give: Vec<f32>,
    /// Compliance (m/N).
    pub compliance: Vec<f32>,
    pub kind: Vec<LinkKind>,
    /// Relative stretch at which the link tears; `f32::INFINITY` = never.
    pub tear_stretch: Vec<f32>,
    /// Tension (N) at which the link tears; `f32::INFINITY` = never. The tension is the
    /// solver's multiplier over the substep squared, `|λ| / h²` (PBD-family solvers).
    /// Set after creation (`Links::push` starts every link at infinity).
    pub tear_force: Vec<f32>,
    /// Bumped on every change of the links (ends, and rest length, give, compliance or kind)
    /// so solvers can rebuild cached structure and their packed copies of the links' data.
    /// Code that writes these fields directly must bump it too.
    pub version: u64,
}

impl Links {
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Appends a link with a resolved rest length; returns its index.
    pub fn push(&mut self, def: &LinkDef, rest: f32) -> usize {
        self.ends.push([def.a, def.b]);
        self.rest.push(rest);
        self.give.push(def.give);
        self.compliance.push(def.compliance);
        self.kind.push(def.kind);
        self.tear_stretch.push(def.tear_stretch.unwrap_or(f32::INFINITY));
        self.tear_force.push(f32::INFINITY);
        self.version += 1;
        self.len() - 1
    }

    /// Removes link `i`, keeping the order of the others.
    pub fn remove(&mut self, i: usize) {
        self.ends.remove(i);
        self.rest.remove(i);
        self.give.remove(i);
        self.compliance.remove(i);
        self.kind.remove(i);
        self.tear_stretch.remove(i);
        self.tear_force.remove(i);
        self.version += 1;
    }

    /// Keeps only the links whose entry in `keep` is true; returns how many were removed.
    pub fn retain_flags(&mut self, flags: &[bool]) -> usize {
        assert_eq!(flags.len(), self.len(), "one flag per link");
        let before = self.len();
        retain_flags(&mut self.ends, flags);
        retain_flags(&mut self.rest, flags);
        retain_flags(&mut self.give, flags);
        retain_flags(&mut self.compliance, flags);
        retain_flags(&mut self.kind, flags);
        retain_flags(&mut self.tear_stretch, flags);
        retain_flags(&mut self.tear_force, flags);
        let removed = before - self.len();
        if removed > 0 {
            self.version += 1;
        }
        removed
    }

    /// Sets the give of every link (bumping `version`, so solvers repack).
    pub fn set_give_all(&mut self, give: f32) {
        self.give.iter_mut().for_each(|g| *g = give);
        self.version += 1;
    }

    /// Index of the link joining `a` and `b` in either order.
    pub fn find(&self, a: u32, b: u32) -> Option<usize> {
        self.ends.iter().position(|&[x, y]| (x == a && y == b) || (x == b && y == a))
    }
}

fn retain_flags<T>(v: &mut Vec<T>, keep: &[bool]) {
    let mut i = 0;
    v.retain(|_| {
        i += 1;
        keep[i - 1]
    });
}
