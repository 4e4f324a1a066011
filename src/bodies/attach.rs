//! Ropes hanging from bodies: a particle *attached* to a point on a body becomes that point
//! of the body. It has no mass of its own while attached; every solver sees the body
//! through it, two-way (the rope pulls the body, the body's weight swings the rope):
//!
//! - **impulse** (`solver::impulse`): every row that names the particle is built on the
//!   body instead, at the attachment point — the rope's last link is a distance row
//!   between its last free particle and the body, with the body's mass *and* inertia in
//!   its effective mass. Exact in the row sense: nothing is approximated.
//! - **position-based family** (`pbd`, `jacobi`, `xpbd`, `exact`, `classic`): the
//!   particle is a *proxy*: at the start of each substep it is put at the attachment point,
//!   and its inverse mass is the body's **generalised inverse mass** at that point along
//!   the rope, w = nᵀ K n with K = m⁻¹ 1 − [r]ₓ I⁻¹ [r]ₓ (the point's mobility, r from the
//!   centre of mass to the point, n the direction of the particle's link) — so XPBD's
//!   Δλ = −C/(w_i + w_proxy + α̃) is the rigid-body XPBD update of Müller et al. 2020
//!   ("Detailed Rigid Body Simulation with Extended Position Based Dynamics"), and the exact
//!   solver's tree simply has the body as a node with that inverse mass. After the solve,
//!   the proxy's displacement Δx is the body's: the impulse p = Δx/w along n moves the
//!   centre by p/m and turns the body by I⁻¹(r × p), and the velocities follow (Δv = Δx/h).
//!   With the attachment at the centre of mass, w = 1/m and the coupling is exact.

use glam::Vec3;

use crate::ids::Id;

/// Particle `particle` is the point `local` (body frame) of body `body`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Attachment {
    pub particle: u32,
    pub body: Id,
    pub local: Vec3,
}

/// Generalised inverse mass nᵀ K n of the body point at offset `r` (world) along the unit
/// direction `n`, for inverse mass `inv_m` and world inverse inertia `inv_i`.
#[inline]
pub fn generalized_inv_mass(inv_m: f32, inv_i: glam::Mat3, r: Vec3, n: Vec3) -> f32 {
    let rn = r.cross(n);
    inv_m + rn.dot(inv_i * rn)
}
