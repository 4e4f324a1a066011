//! The rope–rope contacts of one substep: the broad phase's candidate segment pairs and
//! each pair's accumulated multipliers. The solver fills them (a step output); after a step
//! they describe its last substep, and the tangle stage and the reports read them. The pairs
//! come from the rope pass of the one broad phase (`collide::broad`), which the bodies'
//! pairs share.

use glam::Vec3;

use super::broad::BroadPhase;
use super::segments::{BroadPhaseParams, ContactState};
use crate::ropes::Ropes;

/// Extra margin (m) the rope–rope broad phase adds to its boxes so that their pairs stay
/// valid for several substeps (Box2D's "fat" boxes): it rebuilds only once some particle
/// has moved by the spare margin.
pub const ROPE_FAT_MARGIN: f32 = 0.02;

/// Rope–rope contact state of one substep: the broad phase's candidate pairs (segment
/// indices into `Ropes::segs`) and each pair's accumulated multipliers.
#[derive(Clone, Debug, Default)]
pub struct RopeContacts {
    /// Candidate segment pairs `[i, j]` (i < j, sorted) from the last rebuild.
    pub(crate) pairs: Vec<[u32; 2]>,
    pub(crate) states: Vec<ContactState>,
    /// Pairs are valid for this substep.
    pub(crate) active: bool,
    /// The broad phase's box margin at its last rebuild (m): the margin needed then plus
    /// [`ROPE_FAT_MARGIN`].
    pub(crate) expand: f32,
    /// Positions at the last rebuild (the pairs stay valid while nothing moved farther from
    /// them than the spare margin).
    built_pos: Vec<Vec3>,
    /// `Ropes::version` and segment count at the last rebuild.
    built_ropes: (u64, usize),
    /// Rebuilds so far (for tests and tuning).
    pub(crate) rebuilds: u64,
}

impl RopeContacts {
    /// Candidate pairs of the last substep (empty when rope contacts are off).
    pub fn pairs(&self) -> &[[u32; 2]] {
        if self.active {
            &self.pairs
        } else {
            &[]
        }
    }

    /// Accumulated multipliers per pair over the last substep (λ_n / h² is the normal force).
    pub fn states(&self) -> &[ContactState] {
        if self.active {
            &self.states
        } else {
            &[]
        }
    }

    /// Whether the pairs are valid for the current substep.
    #[inline]
    pub fn active(&self) -> bool {
        self.active
    }

    /// Rope contacts are off this substep: no pairs.
    pub fn deactivate(&mut self) {
        self.active = false;
        self.built_pos.clear();
    }

    /// Once per substep, after the prediction: the broad phase's rope pass (sweep and prune
    /// over `broad`'s one sorted list, which also holds the bodies, on boxes covering each
    /// segment at the start of the substep and predicted, grown by the largest segment
    /// radius plus 1.5× the largest distance any particle moves this substep — predicted,
    /// dragged, or pulled by a soft mouse, `hold_moves` — so the solver's corrections, which
    /// drag neighbours along by about as much, stay inside the boxes), and fresh multipliers.
    ///
    /// The boxes get [`ROPE_FAT_MARGIN`] more, and the pairs are reused while every particle's
    /// position and substep start lie within the spare margin of where they were at the last
    /// rebuild: a box now is inside the old box grown by that distance, so the old pairs are
    /// a superset of what a rebuild would find (the same guarantee, at a fraction of the
    /// cost when the ropes move slowly).
    pub fn update(
        &mut self,
        broad: &mut BroadPhase,
        pos: &[Vec3],
        prev: &[Vec3],
        hold_moves: impl Iterator<Item = f32>,
        ropes: &Ropes,
    ) {
        let n = pos.len().min(prev.len());
        let (pos, prev) = (&pos[..n], &prev[..n]);
        let mut m2 = 0.0f32;
        for i in 0..n {
            m2 = m2.max((pos[i] - prev[i]).length_squared());
        }
        for d2 in hold_moves {
            m2 = m2.max(d2);
        }
        let needed = ropes.max_radius + 1.5 * m2.sqrt() + 1e-3;
        let stamp = (ropes.version, ropes.segs.len());
        let mut reuse = self.active && self.built_pos.len() == n && self.built_ropes == stamp && self.expand > needed;
        if reuse {
            let spare = self.expand - needed;
            let spare2 = spare * spare;
            let built = &self.built_pos[..n];
            for i in 0..n {
                let (a, b) = ((pos[i] - built[i]).length_squared(), (prev[i] - built[i]).length_squared());
                if a.max(b) >= spare2 {
                    reuse = false;
                    break;
                }
            }
        }
        if !reuse {
            let expand = needed + ROPE_FAT_MARGIN;
            let params = BroadPhaseParams { expand, swept: true, self_gap: None };
            broad.rope_pairs(pos, prev, &ropes.segs, &ropes.seg_rope, &params, &mut self.pairs);
            self.built_pos.clear();
            self.built_pos.extend_from_slice(pos);
            self.built_ropes = stamp;
            self.expand = expand;
            self.rebuilds += 1;
        }
        let pairs = self.pairs.len();
        self.states.clear();
        self.states.resize(pairs, ContactState::default());
        self.active = true;
    }
}
