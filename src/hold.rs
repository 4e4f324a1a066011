//! A pointer holding a particle (the page's drag), as the step's stages see it.

use glam::Vec3;

/// A pointer (mouse button, finger, pen) holding a particle. The particle follows `target`
/// exactly; `vel` is a smoothed estimate of the pointer's velocity, measured in simulated
/// time, which the particle keeps when released (so a rope can be flung).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hold {
    pub pointer: u32,
    pub particle: u32,
    pub target: Vec3,
    pub(crate) last_target: Vec3,
    pub(crate) since_move: f32,
    pub vel: Vec3,
    /// Where the held particle was when this step began: a kinematic hold moves it from here
    /// to `target` linearly over the step's substeps, so the rope–rope contacts' swept test
    /// sees the whole motion (a drag never teleports a rope through another).
    pub(crate) step_from: Vec3,
}
