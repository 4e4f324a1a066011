//! A dog of the leash scene as the solver and the tangle stage see it: a particle held at
//! collar height by its legs, walking with a friction-limited grip, its body a vertical
//! cylinder the other leashes go around. (The scene around it — hand, braid, wander — is
//! `crate::leash`.)

use glam::Vec3;

/// A dog: the collar particle at the end of leash `rope`, held at `height` by its legs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dog {
    pub particle: u32,
    /// Index of its leash in the world's ropes (`u32::MAX` when the leash was cut).
    pub rope: u32,
    /// Collar height (m).
    pub height: f32,
    /// Radius (m) of the dog's body, a vertical cylinder from the ground to the collar that
    /// the other leashes go around (0 = none).
    pub body_radius: f32,
    /// Where the dog started (its wander's home).
    pub home: Vec3,
    /// Coulomb friction of the dog's feet on the ground (the legs hold the dog against a
    /// leash pulling with up to μ·m·g).
    pub grip: f32,
    /// The dog's intended walking velocity (horizontal, m/s): the random walk's state.
    pub walk: Vec3,
}
