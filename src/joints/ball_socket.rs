//! Ball-socket (the 001 seed's `ball_socket.md`): the anchor on A and the anchor on B are
//! the same world point; all three relative rotations are free. Three plane rows, one per
//! world axis of the anchor separation p = p_B − p_A:
//!
//! ```text
//! C_i = e_i · p = 0,   J_i = [−e_i, e_i × s_A, e_i, r_B × e_i],   s_A = p_B − x_A
//! ```
//!
//! Scalar rows (the seed's choice), not a 3×3 block: they iterate to the same answer, and
//! keep every row on the one generic `row::solve`.

use glam::Vec3;

use super::plane;
use super::row::Row;
use super::setup::Setup;

/// Rows this joint needs.
pub const ROWS: usize = 3;

/// Point coincidence of the world anchors `pa` (on A) and `pb` (on B).
pub fn point(s: &Setup, rows: &mut [Row], pa: Vec3, pb: Vec3) {
    let p = pb - pa;
    let (s_a, r_b) = (pb - s.xa, pb - s.xb);
    for (k, row) in rows.iter_mut().take(3).enumerate() {
        plane::plane(s, row, Vec3::AXES[k], s_a, r_b, p[k]);
    }
}
