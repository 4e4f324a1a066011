//! Long-range attachments (Kim, Chentanez and Müller 2012, "Long Range Attachments — A
//! Method to Simulate Inextensible Clothing in Computer Games").
//!
//! In an inextensible rope, particle i can never be farther from an anchor (a locked or
//! held particle) than the rest length of the path of links between them, L_i. That is
//! the unilateral constraint
//!
//! ```text
//! C_i(x) = |x_i - x_anchor| - L_i ≤ 0
//! ```
//!
//! The anchor has inverse mass 0, so one projection moves particle i alone, all the way:
//! x_i ← x_anchor + L_i (x_i - x_anchor)/|x_i - x_anchor| when C_i > 0. The constraints
//! are independent of each other (each touches one free particle), so a pass costs one
//! distance per particle and removes in one go the stretch an iterative solver would need
//! about n sweeps to propagate along an n-link rope. L_i comes from a shortest-path search
//! over the link graph from every anchor at once (the solver's topology cache), so each
//! particle is tethered to its nearest anchor along the rope.
//!
//! Tethers only ever pull a particle back toward its anchor, never push, so a rope may
//! still go slack and fold; they are a bound, not a replacement for the links.

use glam::Vec3;

/// One tether: particle `i` at most `len` from particle `anchor`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tether {
    pub i: u32,
    pub anchor: u32,
    pub len: f32,
}

/// One pass over all tethers (Gauss–Seidel and Jacobi alike: they are independent).
#[inline]
pub fn project_all(pos: &mut [Vec3], tethers: &[Tether]) {
    for t in tethers {
        let (i, a) = (t.i as usize, t.anchor as usize);
        let d = pos[i] - pos[a];
        let len2 = d.length_squared();
        if len2 > t.len * t.len {
            let len = len2.sqrt();
            pos[i] -= d * ((len - t.len) / len);
        }
    }
}
