//! Ball-socket (the 001 seed's `ball_socket.md`): the anchor on A and the anchor on B are
//! the same world point; all three relative rotations are free. Three plane rows, one per
//! world axis of the anchor separation p = p_B − p_A:
//!
//! ```text
//! C_i = e_i · p = 0,   Ċ_i = e_i · (v_B + ω_B × r_B − v_A − ω_A × r_A)
//! J_i = [−e_i, e_i × r_A, e_i, r_B × e_i],   r_A = p_A − x_A
//! ```
//!
//! **Where the seed is wrong.** The seed builds these rows with `plane_setup`, whose
//! angular term for A is t × s_A with s_A = p_B − x_A = r_A + p: right for a plane whose
//! axis t is *attached to A* (ṫ = ω_A × t contributes ω_A·(t × p)), wrong here, where the
//! axes are the world's and do not turn with A. The extra term e_i × p couples A's spin to
//! the joint's error; with light, small bodies (W4's 4 cm spheres, I = 6.4e-4 kg·m²) that
//! feedback spins them up and the chain explodes within seconds, at any substep count
//! (measured: stretch 1e6 after 10 s at 5 or 20 substeps). With r_A the W4 chain is stable.
//!
//! The three rows are solved together as a 3×3 block (`row::solve_block3`), the option the
//! seed mentions for "tighter convergence": with scalar rows a 100-sphere chain (W4)
//! stretched 121 % at 5 substeps; see the measured figures in the issue notes.

use glam::Vec3;

use super::row::Row;
use super::setup::Setup;

/// Rows this joint needs.
pub const ROWS: usize = 3;

/// Point coincidence of the world anchors `pa` (on A) and `pb` (on B).
pub fn point(s: &Setup, rows: &mut [Row], pa: Vec3, pb: Vec3) {
    let p = s.point_error(pb - pa);
    // World axes: A's lever is r_A (to its own anchor), not s_A (see above).
    let (r_a, r_b) = (pa - s.xa, pb - s.xb);
    let soft = [s.equality(p.x), s.equality(p.y), s.equality(p.z)];
    super::row::set_point3(&mut rows[..3], s.bodies, s.a, s.b, r_a, r_b, soft);
}
