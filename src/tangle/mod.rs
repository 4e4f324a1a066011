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
//! # The tangle lifecycle (as built: [`stage`], run by `World::step` after the solver)
//!
//! Per step, after the solver (whose iterations already ran the rope–rope contacts,
//! `solver::Ctx::rope_contacts`):
//!
//! 1. **Candidate crossings** come from the contacts, not from the braid reading (so they
//!    work for any ropes, not only leashes): every broad-phase pair of segments of two ropes
//!    whose accumulated normal multiplier was positive in the last substep
//!    ([`crate::collide::segments::ContactState::lambda_n`]) or whose capsules are within a
//!    detection margin; neighbouring pairs of the same two ropes form one crossing. In the
//!    leash scene a leash pressed against another dog's body also counts (the braid
//!    continues each leash down through its dog). (The seed instead tested every segment pair
//!    within 8 px.) Contacts next to a particle two ropes share (the leashes at the hand) are
//!    no tangle.
//! 2. **Formation criteria** (the seed's two, made physical): *tension direction* — the
//!    resultant of the link forces entering and leaving the contact span presses the rope into
//!    the other (normalised press > 0.05, about a 6° bend) while the rope carries at least
//!    2 N (slack ropes draped by their weight are not tangles); and *wrap* — the turning of
//!    the rope around the other's direction where they touch (around the dog's vertical axis
//!    for a body) is at least 0.5 rad. Over/under: which rope rests on the other (contact
//!    normals weighted by force). Then a tangle forms with a stable id and a `Formed` event.
//! 3. **Tighten.** Nothing artificial pulls the ropes together (the seed's pull-together
//!    constraint scaled by a capped e^{μθ} is dropped): tension and the contacts' Coulomb
//!    friction do it, and the capstan effect emerges from friction at the contacts along the
//!    wrap (measured against e^{μθ} on a bollard in `tests/capstan.rs`: within about 1 %).
//!    The tangle records Θ and the rope tensions T on both sides (link multipliers λ/h² next
//!    to the contact).
//! 4. **Lock.** A tangle holds while T_high / T_low ≤ e^{μΘ} on each rope through it
//!    ([`capstan::holds`]); the state is `Locked` while it holds with both ropes taut, `Tight`
//!    while it slips. The seed's cap of 3 is an optional gameplay clamp
//!    (`Settings::tangle_cap`, [`capstan::holding_ratio_clamped`]).
//! 5. **Release.** A tangle breaks when the ropes stop touching there for 10 consecutive
//!    steps (hysteresis, so contact jitter does not flicker events), and emits `Broken` once.
//!
//! The page reads, per tangle: state, Θ, the tensions and the slip ratio; and for the braid:
//! the word, its reduced form, the number of crossings, whether it is only full twists, and
//! the untangle hint in words (`report::braid_json`, the `Sim` methods `tangles()` and
//! `braid()`).
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
