//! The tangle system (issue 4): braid words of the leashes, rope–rope contact geometry helpers,
//! capstan friction.
//!
//! - [`braid`]: Artin generators, free reduction, the exact word problem (SL(2, ℤ) × exponent
//!   sum for B₃, left Garside normal form for any n), full-twist detection, the shortest
//!   untangle hint and its description in words;
//! - [`crossings`]: the braid word derived from the current leash geometry (re-derived every
//!   frame), the incremental events, and the tracker that reconciles the two;
//! - [`capstan`]: e^{μθ}, the lock test, wrap angles of polylines.
//!
//! Segment–segment closest points, capsule contacts, the broad phase and the position-level
//! rope–rope contact with friction live in [`crate::collide::segments`].
pub mod braid;
pub mod capstan;
pub mod crossings;
