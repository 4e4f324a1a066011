//! Rope joint: the seed's `rope_setup`, |p| ≤ L — one row that only pulls, and only when
//! taut (speculative while slack; see `distance.rs`).

use super::row::Row;
use super::setup::Setup;
use super::{distance_row, Frames};

pub const ROWS: usize = 1;

pub fn setup(s: &Setup, f: &Frames, rows: &mut [Row], max_length: f32) {
    distance_row::rope(s, &mut rows[0], f.anchor_a(s), f.anchor_b(s), max_length);
}
