//! A `World` as a scene file (what `exportScene()` returns).

use crate::world::World;

use super::*;

impl Scene {
    /// Captures a world as an explicit scene (builders expanded into particles and links).
    pub fn from_world(world: &World, name: &str, camera: Option<Camera>) -> Scene {
        let p = &world.particles;
        let l = &world.links;
        let (bodies, joints, attachments) = super::bodies::export(world);
        Scene {
            bodies,
            joints,
            attachments,
            winches: super::winches::export(world),
            state: Some(super::state::capture(world)),
            version: SCENE_VERSION,
            name: name.to_string(),
            description: String::new(),
            camera,
            // (An export continues a run: the scene's measurement window and restart time
            // count from a load, which this is not.)
            measure: None,
            restart_after: None,
            settings: world.settings.clone(),
            particles: (0..p.len())
                .map(|i| ParticleSpec {
                    pos: p.pos[i],
                    vel: p.vel[i],
                    mass: p.mass[i],
                    radius: p.radius[i],
                    locked: p.locked[i],
                })
                .collect(),
            links: (0..l.len())
                .map(|k| LinkSpec {
                    a: l.ends[k][0],
                    b: l.ends[k][1],
                    rest: Some(l.rest[k]),
                    give: l.give[k],
                    compliance: l.compliance[k],
                    kind: l.kind[k],
                    tear_stretch: l.tear_stretch[k].is_finite().then_some(l.tear_stretch[k]),
                    tear_force: l.tear_force[k].is_finite().then_some(l.tear_force[k]),
                })
                .collect(),
            ropes: Vec::new(),
            grids: Vec::new(),
            obstacles: world.obstacles.clone(),
            pins: (0..p.len())
                .filter(|&i| p.is_pinned(i))
                .map(|i| PinSpec { point: i as u32, target: Some(p.pin_target[i]), compliance: p.pin_compliance[i] })
                .collect(),
            leash: None,
            rope_points: (0..world.ropes.len()).map(|k| world.ropes.points(k).to_vec()).collect(),
            // A leash cut or broken apart is no longer simulated (its dogs are free points)
            // and the loader refuses it: it is exported as what it now is, ropes and points.
            leash_points: world.leash.as_ref().filter(|l| l.hand != u32::MAX && l.valid).map(|l| LeashPoints {
                hand: l.hand,
                dogs: l
                    .dogs
                    .iter()
                    .map(|d| DogPoint {
                        particle: d.particle,
                        height: d.height,
                        body_radius: d.body_radius,
                        grip: d.grip,
                    })
                    .collect(),
                front: l.tracker.frame.front,
                hand_radius: l.tracker.frame.hand_radius,
                wander: world.wander.spec,
            }),
        }
    }
}
