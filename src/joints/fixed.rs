//! Fixed (weld) joint, the 001 seed's `fixed.md`: "plane ×3 + orientation lock": no
//! relative translation at the anchor and no relative rotation, six equality rows.

use super::row::Row;
use super::setup::Setup;
use super::{ball_socket, orientation, Frames};

pub const ROWS: usize = 6;

pub fn setup(s: &Setup, f: &Frames, rows: &mut [Row]) {
    orientation::lock(s, &mut rows[..3], f.q_ref);
    ball_socket::point(s, &mut rows[3..6], f.anchor_a(s), f.anchor_b(s));
}
