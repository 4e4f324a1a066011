//! Collisions of particles with the static world: walls, ground, slopes and obstacles
//! (circles/spheres, capsules, boxes), with Coulomb friction and restitution, shared by
//! every PBD-family solver (`pbd`, `jacobi`, `xpbd`, `exact`).
//!
//! - `shapes.rs`: the shapes and their signed distance functions;
//! - `contact.rs`: the position-level contact, friction and restitution (derivation on top).
//!
//! - `segments.rs`: rope–rope (segment–segment) contacts, owned by the tangle system.

pub mod contact;
pub mod segments;
pub mod shapes;

pub use contact::{Obstacle, Walls};
pub use shapes::Shape;
