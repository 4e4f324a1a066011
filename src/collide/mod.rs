//! Collisions of particles with the static world: walls, ground, slopes and obstacles
//! (circles/spheres, capsules, boxes), with Coulomb friction and restitution, shared by
//! every PBD-family solver (`pbd`, `jacobi`, `xpbd`, `exact`).
//!
//! - `shapes.rs`: the shapes and their signed distance functions;
//! - `contact.rs`: the position-level contact, friction and restitution (derivation on top).
//!
//! - `broad.rs`: the one broad phase: sweep and prune over one sorted list of the bodies'
//!   and rope segments' boxes, giving body–body, rope–body and (swept) rope–rope pairs;
//! - `segments.rs`: rope–rope (segment–segment) contacts, owned by the tangle system;
//! - `rope_contacts.rs`: one substep's rope–rope pairs and multipliers (a step output);
//! - `narrow/`: the rigid-body narrow phase (manifolds with feature ids between body shapes,
//!   a ground plane, rope particles and rope segments).

pub mod broad;
pub mod contact;
pub mod narrow;
pub mod rope_contacts;
pub mod segments;
pub mod shapes;

pub use broad::BroadPhase;
pub use contact::{Obstacle, Walls};
pub use rope_contacts::{RopeContacts, ROPE_FAT_MARGIN};
pub use shapes::Shape;
