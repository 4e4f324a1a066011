//! Fixed (weld) joint, the 001 seed's `fixed.md`: "plane ×3 + orientation lock": no
//! relative translation at the anchor and no relative rotation, six equality rows.
//!
//! The six rows are solved as one 6×6 block in f64 (`row::make_block_f64`), not as a point
//! block and three orientation rows in turn. With the anchor far from B's centre (a lever L
//! much longer than B's radius of gyration ρ), the point rows move B almost only by turning
//! it, which is what the orientation rows forbid: the two groups' constraint directions are
//! nearly parallel, and Gauss–Seidel between them converges by about (ρ/L)² per sweep. The
//! biased solve then left most of each substep's error in the velocities and a welded
//! plank hanging 30 m from its anchor blew up within 2 s (the API fuzzer's weld at 1,000 m went NaN
//! in its second step); solved whole, the weld holds at any lever (tests/regressions.rs).

use super::row::{self, Row};
use super::setup::Setup;
use super::{ball_socket, orientation, Frames};

pub const ROWS: usize = 6;

pub fn setup(s: &Setup, f: &Frames, rows: &mut [Row]) {
    orientation::lock(s, &mut rows[..3], f.q_ref);
    ball_socket::point(s, &mut rows[3..6], f.anchor_a(s), f.anchor_b(s));
    row::make_block_f64(&mut rows[..6], s.bodies);
}
