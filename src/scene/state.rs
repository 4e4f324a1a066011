//! What a step carries from one step to the next beyond the scene's own fields: the
//! export's `state`, so that an exported world, loaded again, continues the trajectory it
//! was on bit for bit (`tests/export_reload.rs`).
//!
//! A scene file without `state` is a scene's start: every carried value starts empty (no
//! warm start, the dogs' random walk at its seed). `Sim.exportScene()` writes it; its
//! contents follow the world's own layout (which rows, in which order), so it is checked on
//! load against the world the rest of the file builds, and refused, naming the path, when
//! they disagree (a hand-edited file that added a link, say): the rest of the file is then
//! still a valid scene without it.

use glam::Vec3;
use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::joints::JointKind;
use crate::world::World;

use super::scene_err;

/// The lite build (no bodies, joints or impulse solver) reads past what only the full build
/// carries, and writes none of it: its serde code is not in the lite wasm.
#[cfg(not(feature = "full"))]
fn ignore<'de, D: serde::Deserializer<'de>, T: Default>(d: D) -> std::result::Result<T, D::Error> {
    serde::de::IgnoredAny::deserialize(d)?;
    Ok(T::default())
}

/// The carried state (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StateSpec {
    /// Completed steps and simulated time (s): reports only.
    #[serde(default)]
    pub steps: u64,
    #[serde(default)]
    pub time: f64,
    /// The last substep's length (s): new particles' velocities are seeded with it.
    pub last_h: f32,
    /// The dogs' random walk's generator state, as 16 hex digits (a JSON number would lose
    /// bits in JavaScript).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub rng: String,
    /// Per dog of the leash: where its random walk pulls it back to, and its walking
    /// velocity (m, m/s).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dogs: Vec<DogState>,
    /// Per particle: its position at the last substep's start (m), which the Verlet-style
    /// solvers' velocities come from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prev: Vec<Vec3>,
    /// Per link: its tension in the last substep (N). A winch reads it before the next
    /// solve (it stalls at its maximum force), and the read-outs show it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub link_force: Vec<f32>,
    /// The impulse solver's rows' accumulated impulses (N·s), in its layout's order (links,
    /// pins, holds, joints, 2D locks), as the next step's `prepare` will leave them
    /// (`World::rows_at_next_prepare`): the next step's warm start.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(not(feature = "full"), serde(deserialize_with = "ignore", skip_serializing))]
    pub rows: Vec<f32>,
    /// The impulse solver's particle contacts with walls and obstacles: particle, shape
    /// (obstacle index, or 0xFFFF0000 + wall) and the normal and tangent rows' impulses.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(not(feature = "full"), serde(deserialize_with = "ignore", skip_serializing))]
    pub point_contacts: Vec<(u32, u32, [f32; 3])>,
    /// Per joint: its rows' impulses of the last step (warm starting by joint).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(not(feature = "full"), serde(deserialize_with = "ignore", skip_serializing))]
    pub joints: Vec<Vec<f32>>,
    /// Per joint: its frames in the bodies' own frames, as the world keeps them (the
    /// joints' anchors and axes in world coordinates, turned back into the bodies' frames on
    /// load, round differently): anchor in A, anchor in B, axis in A, axis in B, the two
    /// perpendiculars in A, and the reference rotation q_A⁻¹ q_B ([x, y, z, w]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(not(feature = "full"), serde(deserialize_with = "ignore", skip_serializing))]
    pub joint_frames: Vec<[[f32; 4]; 7]>,
    /// Per joint: a distance joint's length, min and max as the world holds them (max −1: no
    /// upper limit; `null` for the other kinds). A scene's `length` ≤ 0 means "the anchors' distance when the joint
    /// is made", so a joint of length 0 would reload at the distance its bodies have now.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(not(feature = "full"), serde(deserialize_with = "ignore", skip_serializing))]
    pub distance: Vec<Option<[f32; 3]>>,
    /// Per attachment: the particle's point in its body's frame (m), as the world keeps it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(not(feature = "full"), serde(deserialize_with = "ignore", skip_serializing))]
    pub attachments: Vec<Vec3>,
    /// The exact solver's chains' multipliers, when the last step ran it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact: Option<crate::solver::exact::ExactWarm>,
    /// The exact solver's body forest: each joint it solves directly, its multiplier of
    /// the last substep (N·s², in the forest's slot order), which the next step's first
    /// pass reads.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(not(feature = "full"), serde(deserialize_with = "ignore", skip_serializing))]
    pub body_tree: Vec<[f32; 3]>,
    /// The bodies' and the joints' id pools (`ids::IdState`): the ids the API names them
    /// by, which also order the contacts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(not(feature = "full"), serde(deserialize_with = "ignore", skip_serializing))]
    pub body_ids: Option<crate::ids::IdState>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(not(feature = "full"), serde(deserialize_with = "ignore", skip_serializing))]
    pub joint_ids: Option<crate::ids::IdState>,
    /// The body contacts (`contacts::ContactsState`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(not(feature = "full"), serde(deserialize_with = "ignore", skip_serializing))]
    pub contacts: Option<crate::contacts::ContactsState>,
}

/// A dog's random walk (see [`StateSpec::dogs`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DogState {
    pub home: Vec3,
    pub walk: Vec3,
}

/// `Err` naming `path` when a list carried for `want` things has another length (an empty
/// list carries nothing and fits any).
fn fits(path: &str, what: &str, got: usize, want: usize) -> Result<()> {
    if got != 0 && got != want {
        return Err(scene_err(path, format!("{got} {what} for {want}")));
    }
    Ok(())
}

/// The carried state of `w`.
pub fn capture(w: &World) -> StateSpec {
    // (A leash cut or broken apart is exported as ropes and points: `Scene::from_world`.)
    let leash = w.leash.as_ref().filter(|l| l.hand != u32::MAX && l.valid);
    let mut s = StateSpec {
        steps: w.steps,
        time: w.time,
        last_h: w.last_h,
        rng: if leash.is_some() { format!("{:016x}", w.wander.rng.0) } else { String::new() },
        dogs: leash.iter().flat_map(|l| l.dogs.iter().map(|d| DogState { home: d.home, walk: d.walk })).collect(),
        prev: w.particles.prev.clone(),
        link_force: w.link_forces().to_vec(),
        exact: w.scratch.exact.warm_state(w.steps),
        ..Default::default()
    };
    // (The lite build has no bodies, joints or impulse solver: its compiler drops this.)
    if crate::FULL {
        capture_full(w, &mut s);
    }
    s
}

/// The full build's part of [`capture`].
fn capture_full(w: &World, s: &mut StateSpec) {
    let contacts = w.scratch.particle_contacts.warm_contacts();
    s.rows = w.rows_at_next_prepare();
    s.point_contacts = contacts.iter().map(|&(k, a)| ((k >> 32) as u32, k as u32, a)).collect();
    s.joints = (0..w.joints.len())
        .filter(|&k| !w.joints.transient[k])
        .map(|k| w.joints.accum[k][..w.joints.rows(k)].to_vec())
        .collect();
    s.joint_frames = (0..w.joints.len())
        .filter(|&k| !w.joints.transient[k])
        .map(|k| {
            let f = &w.joints.frames[k];
            let v = |v: Vec3| v.extend(0.0).to_array();
            [v(f.local_a), v(f.local_b), v(f.axis_a), v(f.axis_b), v(f.perp_a[0]), v(f.perp_a[1]), f.q_ref.to_array()]
        })
        .collect();
    s.distance = if w.joints.kind.iter().any(|k| matches!(k, JointKind::Distance { .. })) {
        (0..w.joints.len())
            .filter(|&k| !w.joints.transient[k])
            .map(|k| match w.joints.kind[k] {
                // (No upper limit, +∞, is written −1: JSON has no infinity.)
                JointKind::Distance { length, min, max } => {
                    Some([length, min, if max.is_finite() { max } else { -1.0 }])
                }
                _ => None,
            })
            .collect()
    } else {
        Vec::new()
    };
    s.attachments = w.attachments.iter().map(|a| a.local).collect();
    s.body_tree = w.scratch.body_tree.warm_state(&w.joints, &w.bodies);
    s.body_ids = (!w.bodies.is_empty()).then(|| w.bodies.ids_state());
    s.joint_ids = (!w.joints.is_empty() && !w.joints.transient.iter().any(|&t| t)).then(|| w.joints.ids_state());
    s.contacts = Some(w.scratch.contacts.warm_state()).filter(|c| *c != Default::default());
}

/// Puts `s` into the freshly built `w`; `Err` names the path of what does not fit it.
pub fn restore(w: &mut World, s: &StateSpec) -> Result<()> {
    if !(s.last_h.is_finite() && s.last_h >= 0.0) {
        return Err(scene_err("state.last_h", "must be a substep length ≥ 0 s (0: not stepped)"));
    }
    if !s.time.is_finite() || s.time < 0.0 {
        return Err(scene_err("state.time", "must be a time ≥ 0 s"));
    }
    let rng = if s.rng.is_empty() {
        None
    } else {
        let v = u64::from_str_radix(&s.rng, 16)
            .ok()
            .filter(|_| s.rng.len() == 16)
            .ok_or_else(|| scene_err("state.rng", "must be 16 hex digits"))?;
        Some(v)
    };
    let dogs = w.leash.as_ref().map_or(0, |l| l.dogs.len());
    fits("state.dogs", "dogs' walks", s.dogs.len(), dogs)?;
    for (i, d) in s.dogs.iter().enumerate() {
        if !(d.home.is_finite() && d.walk.is_finite()) {
            return Err(scene_err(format!("state.dogs[{i}]"), "must be finite"));
        }
    }
    fits("state.prev", "points", s.prev.len(), w.particles.len())?;
    if let Some(i) = s.prev.iter().position(|p| !p.is_finite()) {
        return Err(scene_err(format!("state.prev[{i}]"), "must be finite"));
    }
    fits("state.link_force", "links' tensions", s.link_force.len(), w.links.len())?;
    if let Some(i) = s.link_force.iter().position(|f| !f.is_finite()) {
        return Err(scene_err(format!("state.link_force[{i}]"), "must be finite"));
    }
    if let Some(e) = &s.exact {
        if !e.lambda.iter().all(|l| l.is_finite()) {
            return Err(scene_err("state.exact.lambda", "must be finite"));
        }
        w.scratch.exact.set_warm_state(e.clone());
    }
    if !s.prev.is_empty() {
        w.particles.prev.copy_from_slice(&s.prev);
    }
    w.outputs.link_force.clone_from(&s.link_force);
    w.steps = s.steps;
    w.time = s.time;
    if s.last_h > 0.0 {
        w.last_h = s.last_h;
    }
    if let Some(v) = rng {
        w.wander.rng.0 = v;
    }
    // (The lite build reads none of these: its compiler drops this.)
    if crate::FULL {
        restore_full(w, s)?;
    }
    if let Some(l) = &mut w.leash {
        for (d, s) in l.dogs.iter_mut().zip(&s.dogs) {
            (d.home, d.walk) = (s.home, s.walk);
        }
    }
    Ok(())
}

/// The full build's part of [`restore`]: bodies, joints, attachments, the impulse solver.
fn restore_full(w: &mut World, s: &StateSpec) -> Result<()> {
    let finite = |v: &[f32]| v.iter().all(|x| x.is_finite());
    if !finite(&s.rows) {
        return Err(scene_err("state.rows", "must be finite"));
    }
    for (i, c) in s.point_contacts.iter().enumerate() {
        if c.0 as usize >= w.particles.len() || !finite(&c.2) {
            return Err(scene_err(format!("state.point_contacts[{i}]"), "names no particle, or is not finite"));
        }
    }
    if let Some(i) = s.body_tree.iter().position(|l| !finite(l)) {
        return Err(scene_err(format!("state.body_tree[{i}]"), "must be finite"));
    }
    if s.body_tree.len() > w.joints.len() {
        return Err(scene_err(
            "state.body_tree",
            format!("{} multipliers for {} joints", s.body_tree.len(), w.joints.len()),
        ));
    }
    w.scratch.body_tree.set_warm_state(s.body_tree.clone());
    fits("state.joints", "joints' impulses", s.joints.len(), w.joints.len())?;
    for (k, a) in s.joints.iter().enumerate() {
        if a.len() > crate::joints::MAX_ROWS || !finite(a) {
            return Err(scene_err(format!("state.joints[{k}]"), "must be at most one finite impulse per row"));
        }
    }
    fits("state.joint_frames", "joints' frames", s.joint_frames.len(), w.joints.len())?;
    for (k, f) in s.joint_frames.iter().enumerate() {
        let unit = |v: [f32; 4]| (Vec3::from_slice(&v).length() - 1.0).abs() < 1e-3;
        let q = glam::Quat::from_array(f[6]);
        if !f.iter().all(|v| finite(v))
            || ![f[2], f[3], f[4], f[5]].into_iter().all(unit)
            || (q.length() - 1.0).abs() > 1e-3
        {
            return Err(scene_err(
                format!("state.joint_frames[{k}]"),
                "must be finite, with unit axes and a unit rotation",
            ));
        }
    }
    fits("state.attachments", "attachments' points", s.attachments.len(), w.attachments.len())?;
    if let Some(i) = s.attachments.iter().position(|p| !p.is_finite()) {
        return Err(scene_err(format!("state.attachments[{i}]"), "must be finite"));
    }
    for (a, &p) in w.attachments.iter_mut().zip(&s.attachments) {
        a.local = p;
    }
    if let Some(ids) = &s.body_ids {
        // The joints and attachments name their bodies by the ids the build gave: by dense
        // index across the change of ids.
        let dense = |w: &World, id: crate::ids::Id| w.bodies.index(id).ok();
        let joint_ends: Vec<[Option<usize>; 2]> = (0..w.joints.len())
            .map(|k| [w.joints.a[k].and_then(|id| dense(w, id)), w.joints.b[k].and_then(|id| dense(w, id))])
            .collect();
        let attached: Vec<Option<usize>> = w.attachments.iter().map(|a| dense(w, a.body)).collect();
        if !w.bodies.set_ids_state(ids) {
            return Err(scene_err("state.body_ids", "is not a pool of ids for this scene's bodies"));
        }
        for (k, [a, b]) in joint_ends.into_iter().enumerate() {
            if let Some(i) = a {
                w.joints.a[k] = Some(w.bodies.id[i]);
            }
            if let Some(i) = b {
                w.joints.b[k] = Some(w.bodies.id[i]);
            }
        }
        for (att, d) in w.attachments.iter_mut().zip(attached) {
            if let Some(i) = d {
                att.body = w.bodies.id[i];
            }
        }
    }
    if let Some(ids) = &s.joint_ids {
        if !w.joints.set_ids_state(ids) {
            return Err(scene_err("state.joint_ids", "is not a pool of ids for this scene's joints"));
        }
    }
    if let Some(c) = &s.contacts {
        w.scratch.contacts.set_warm_state(c).map_err(|(path, why)| scene_err(format!("state.contacts.{path}"), why))?;
    }
    fits("state.distance", "joints' lengths", s.distance.len(), w.joints.len())?;
    for (k, d) in s.distance.iter().enumerate() {
        match (d, &mut w.joints.kind[k]) {
            (None, kind) if !matches!(kind, JointKind::Distance { .. }) => {}
            (Some([l, lo, hi]), JointKind::Distance { length, min, max })
                if (0.0..=1e4).contains(l)
                    && (0.0..=1e4).contains(lo)
                    && (*hi == -1.0 || (*lo <= *hi && *hi <= 1e4)) =>
            {
                (*length, *min, *max) = (*l, *lo, if *hi == -1.0 { f32::INFINITY } else { *hi });
            }
            _ => return Err(scene_err(format!("state.distance[{k}]"), format!("does not fit joint {k}"))),
        }
    }
    // (A joint whose rows the file's own fields now lay out differently starts cold.)
    for (k, a) in s.joints.iter().enumerate() {
        if a.len() == w.joints.rows(k) {
            w.joints.accum[k][..a.len()].copy_from_slice(a);
        }
    }
    for (k, f) in s.joint_frames.iter().enumerate() {
        let v = |v: [f32; 4]| Vec3::from_slice(&v);
        w.joints.frames[k] = crate::joints::Frames {
            local_a: v(f[0]),
            local_b: v(f[1]),
            axis_a: v(f[2]),
            axis_b: v(f[3]),
            perp_a: [v(f[4]), v(f[5])],
            q_ref: glam::Quat::from_array(f[6]),
        };
    }
    let contacts: Vec<(u64, [f32; 3])> =
        s.point_contacts.iter().map(|&(p, q, a)| ((p as u64) << 32 | q as u64, a)).collect();
    w.scratch.rows.set_pending_rows(s.rows.clone());
    w.scratch.particle_contacts.set_warm_contacts(&contacts);
    Ok(())
}
