//! The tangle system (issue 4): braid words of the leashes, tangle lifecycle, capstan friction.
//!
//! - [`braid`]: Artin generators, free reduction, the exact word problem (SL(2, ℤ) × exponent
//!   sum for B₃, left Garside normal form for any n), full-twist detection, the shortest
//!   untangle hint and its description in words;
//! - [`crossings`]: the braid word re-derived from the current leash geometry every frame
//!   (radial reading around the hand, signs from heights), the incremental dog-swap events and
//!   the tracker that reconciles the two;
//! - [`capstan`]: e^{μθ}, the lock test, wrap angles of polylines;
//! - [`lifecycle`]: tangles with stable ids matched frame to frame, formed/locked/broken, with
//!   events that fire once per tangle;
//! - [`stage`]: the world's tangle stage — candidates built from the solver's rope–rope
//!   contacts (clusters per crossing, wrap, tensions, tightening), run every step.
//!
//! Rope–rope contacts themselves (closest points, capsules, the swept crossing test, the
//! broad phase, and the position-level contact with Coulomb friction that the solver calls
//! every iteration) are in [`crate::collide::segments`].
//!
//! # The tangle lifecycle (plan; the pieces above are the building blocks)
//!
//! Per step, after the solver (whose iterations already ran the rope–rope contacts):
//!
//! 1. **Candidate crossings.** The braid reading ([`crossings::BraidReader`]) lists every
//!    top-view crossing of two leashes with the strand on top. A crossing is a *candidate*
//!    when the two ropes actually touch there: the contact pair of the segments at the crossing
//!    had a positive accumulated normal multiplier this step
//!    ([`crate::collide::segments::ContactState::lambda_n`]), or their capsules are within a
//!    detection margin. (The seed instead tested every segment pair within 8 px.)
//! 2. **Formation criteria** (the seed's two, made physical): *tension direction* — the
//!    tensions on both sides of the contact pull each rope into the other (the resultant of
//!    the two link forces adjacent to the contact, projected on the contact normal, presses the
//!    ropes together), so pulling tightens the tangle instead of sliding it off; and *wrap* —
//!    the wrap angle Θ of each rope around the other's local axis
//!    ([`capstan::wrap_angle_around_axis`]) exceeds a threshold (the seed: 0.5 rad). Then a
//!    tangle forms: a stable id, the rope pair and over/under order, material parameters on
//!    both ropes (arc length, so it can slide), the sign of its braid generator, and a
//!    `Formed` event.
//! 3. **Tighten.** Nothing artificial pulls the ropes together (the seed's pull-together
//!    constraint scaled by a capped e^{μθ} is replaced): tension and the contacts' Coulomb
//!    friction do it, and the capstan effect emerges from friction at the contacts along the
//!    wrap. The tangle records Θ and the rope tensions T on both sides (link multipliers
//!    λ/h² next to the contact).
//! 4. **Lock.** A tangle holds while T_high / T_low ≤ e^{μΘ} on each rope through it
//!    ([`capstan::holds`]); the state is `Locked` while it holds with both ropes taut, `Tight`
//!    while it slips. The seed's cap of 3 is an optional gameplay clamp
//!    ([`capstan::holding_ratio_clamped`]).
//! 5. **Release.** A tangle breaks when its crossing is gone from the braid reading or the
//!    ropes stop touching for a few consecutive steps (hysteresis, so contact jitter does not
//!    flicker events), and emits `Broken` once.
//!
//! The page shows, per tangle: state, Θ, the tensions and the slip ratio; and for the braid:
//! the word, its reduced form, the number of crossings, whether it is only full twists, and
//! the untangle hint in words ([`crossings::BraidSummary`]).
//!
//! # Known limits of the B_n model
//!
//! The braid is relative to the hand, which is treated as a point the dogs may pass under;
//! a real handler's body and arm are obstacles a leash can wrap around, which B_n cannot
//! express (it would need one more, fixed strand). Dogs walking round the handler therefore
//! read as full twists of the leashes at the hand — what a swivel coupler sheds — rather than
//! as leashes wrapped round the handler's legs.
pub mod braid;
pub mod capstan;
pub mod crossings;
pub mod lifecycle;
pub mod stage;
