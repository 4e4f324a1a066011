//! Editing operations: pick, drag and fling, lock, add/remove, connect/disconnect,
//! subdivide, cut.
mod common;

use common::*;
use glam::Vec3;
use ropelab::LinkDef;

const H: f32 = 1.0 / 60.0;

#[test]
fn pick_finds_the_nearest_point_within_radius() {
    let mut w = world_with(|_| {});
    chain(&mut w, Vec3::ZERO, 5, 1.0, false);
    assert_eq!(w.pick(2.2, 0.1, 0.5).unwrap(), Some(2));
    assert_eq!(w.pick(2.6, 0.0, 0.5).unwrap(), Some(3));
    assert_eq!(w.pick(2.5, 3.0, 0.5).unwrap(), None);
    assert_eq!(w.pick(10.0, 0.0, 0.5).unwrap(), None);
}

#[test]
fn dragged_point_follows_pointer_and_keeps_its_velocity_when_released() {
    let mut w = world_with(|s| {
        s.gravity = Vec3::ZERO;
        s.friction = 1.0;
    });
    chain(&mut w, Vec3::ZERO, 10, 0.1, false);
    w.grab(7, 9).unwrap();
    // Move the pointer at 3 m/s along +y for half a second, one target per frame.
    for k in 1..=30 {
        w.drag_to(7, 0.9, 0.05 * k as f32).unwrap();
        w.step(H).unwrap();
        assert_eq!(w.particles.pos[9], Vec3::new(0.9, 0.05 * k as f32, 0.0), "held point sits on the pointer");
    }
    // The rope followed.
    assert!(w.particles.pos[8].y > 0.5, "neighbour followed: {}", w.particles.pos[8]);
    assert!(w.release(7));
    assert!(!w.release(7), "nothing held any more");
    let v = w.particles.vel[9];
    assert!((v.y - 3.0).abs() < 0.05 && v.x.abs() < 0.05, "released with the pointer's velocity: {v}");
    let y = w.particles.pos[9].y;
    w.step(H).unwrap();
    assert!(w.particles.pos[9].y > y, "flung point keeps moving up");
}

#[test]
fn pointer_held_still_gives_no_fling() {
    let mut w = world_with(|s| s.gravity = Vec3::ZERO);
    chain(&mut w, Vec3::ZERO, 3, 0.1, false);
    w.grab(1, 2).unwrap();
    w.drag_to(1, 0.5, 0.5).unwrap();
    for _ in 0..10 {
        w.step(H).unwrap();
    }
    w.release(1);
    assert_eq!(w.particles.vel[2], Vec3::ZERO);
}

#[test]
fn each_pointer_drags_its_own_point() {
    let mut w = world_with(|s| s.gravity = Vec3::ZERO);
    chain(&mut w, Vec3::ZERO, 10, 0.1, false);
    w.grab(1, 0).unwrap();
    w.grab(2, 9).unwrap();
    assert!(w.grab(3, 9).is_err(), "a point is held by one pointer at a time");
    w.drag_to(1, -1.0, 0.0).unwrap();
    w.drag_to(2, 2.0, 0.0).unwrap();
    w.step(H).unwrap();
    assert_eq!(w.particles.pos[0].x, -1.0);
    assert_eq!(w.particles.pos[9].x, 2.0);
    assert!(w.drag_to(3, 0.0, 0.0).is_err(), "pointer 3 holds nothing");
}

#[test]
fn lock_and_unlock() {
    let mut w = world_with(|_| {});
    chain(&mut w, Vec3::ZERO, 3, 0.1, false);
    w.set_locked(1, true).unwrap();
    assert!(w.particles.locked[1] && w.particles.inv_mass[1] == 0.0);
    let p = w.particles.pos[1];
    for _ in 0..30 {
        w.step(H).unwrap();
    }
    assert_eq!(w.particles.pos[1], p);
    w.set_locked(1, false).unwrap();
    assert_eq!(w.particles.inv_mass[1], 1.0);
    w.step(H).unwrap();
    assert!(w.particles.pos[1].y < p.y, "unlocked point falls");
}

#[test]
fn add_and_remove_points_keep_indices_dense() {
    let mut w = world_with(|_| {});
    chain(&mut w, Vec3::ZERO, 4, 1.0, false);
    let i = w.add_point(5.0, 5.0, true).unwrap();
    assert_eq!(i, 4);
    assert!(w.particles.locked[4]);
    w.connect(3, 4).unwrap();
    assert_eq!(w.links.len(), 4);
    w.remove_point(1).unwrap();
    assert_eq!(w.particles.len(), 4);
    // Links 0–1 and 1–2 went with point 1; 2–3 became 1–2 and 3–4 became 2–3.
    assert_eq!(w.links.ends, vec![[1, 2], [2, 3]]);
    assert_eq!(w.particles.pos[3], Vec3::new(5.0, 5.0, 0.0));
}

#[test]
fn connect_and_disconnect() {
    let mut w = world_with(|s| s.give = 0.3);
    w.add_point(0.0, 0.0, false).unwrap();
    w.add_point(3.0, 4.0, false).unwrap();
    let k = w.connect(0, 1).unwrap();
    assert_eq!(w.links.rest[k], 5.0);
    assert_eq!(w.links.give[k], 0.3, "new links take the world's give");
    assert_eq!(w.connect(1, 0).unwrap(), k, "connecting twice keeps one link");
    assert!(w.disconnect(1, 0).unwrap());
    assert!(!w.disconnect(0, 1).unwrap());
    assert!(w.links.is_empty());
}

#[test]
fn subdivide_inserts_points_like_add_between() {
    let mut w = world_with(|_| {});
    w.add_point(0.0, 0.0, true).unwrap();
    w.add_point(1.0, 0.0, false).unwrap();
    w.add_link(&LinkDef { a: 0, b: 1, rest: Some(1.2), give: 0.1, ..Default::default() }).unwrap();
    // Give the far end some velocity: the new points interpolate previous positions too.
    w.particles.prev[1] = Vec3::new(1.0, -0.3, 0.0);
    let first = w.subdivide(0, 3).unwrap();
    assert_eq!(first, 2);
    assert_eq!(w.particles.len(), 5);
    assert_eq!(w.links.len(), 4);
    let total: f32 = w.links.rest.iter().sum();
    assert!((total - 1.2).abs() < 1e-6, "rest length is shared out: {total}");
    assert!(w.links.give.iter().all(|&g| g == 0.1));
    for (s, i) in (2..5).enumerate() {
        let t = (s + 1) as f32 / 4.0;
        assert!((w.particles.pos[i] - Vec3::new(t, 0.0, 0.0)).length() < 1e-6);
        assert!((w.particles.prev[i] - Vec3::new(t, -0.3 * t, 0.0)).length() < 1e-6);
    }
    // The chain runs 0 → 2 → 3 → 4 → 1.
    assert_eq!(w.links.ends, vec![[0, 2], [2, 3], [3, 4], [4, 1]]);
    assert!(w.subdivide(9, 1).is_err() && w.subdivide(0, 0).is_err());
}

#[test]
fn cut_removes_only_links_crossed_by_the_swipe() {
    let mut w = world_with(|_| {});
    chain(&mut w, Vec3::ZERO, 6, 1.0, false); // links along x from 0 to 5
                                              // A vertical swipe at x = 2.5 crosses only link 2–3.
    assert_eq!(w.cut(2.5, -1.0, 2.5, 1.0).unwrap(), 1);
    assert_eq!(w.links.ends, vec![[0, 1], [1, 2], [3, 4], [4, 5]]);
    // A swipe that stops short cuts nothing.
    assert_eq!(w.cut(3.5, 1.0, 3.5, 0.5).unwrap(), 0);
    // A long diagonal across several links, no: a horizontal swipe along the rope is parallel.
    assert_eq!(w.cut(-1.0, 0.0, 9.0, 0.0).unwrap(), 0);
    // A zig-zag swipe in two segments cuts two links.
    assert_eq!(w.cut(0.5, 1.0, 0.5, -1.0).unwrap() + w.cut(4.5, -1.0, 4.5, 1.0).unwrap(), 2);
    assert_eq!(w.links.ends, vec![[1, 2], [3, 4]]);
}

#[test]
fn removing_a_held_point_drops_its_hold() {
    let mut w = world_with(|_| {});
    chain(&mut w, Vec3::ZERO, 4, 1.0, false);
    w.grab(1, 3).unwrap();
    w.grab(2, 1).unwrap();
    w.remove_point(3).unwrap();
    assert_eq!(w.holds.len(), 1);
    w.remove_point(0).unwrap();
    assert_eq!(w.holds[0].particle, 0, "hold index shifted with its point");
    w.step(H).unwrap();
}

/// A point added in edit mode weighs what the scene's points do, so the classic solver
/// (equal masses only) keeps running a rope the user extends.
#[test]
fn an_added_point_is_like_the_scenes_points() {
    let text = std::fs::read_to_string(format!("{}/www/scenes/rope.json", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let mut w = ropelab::scene::Scene::from_json(&text).unwrap().build().unwrap();
    let m = w.particles.mass[5];
    let i = w.add_point(1.0, 1.0, false).unwrap();
    assert_eq!(w.particles.mass[i], m);
    assert_eq!(w.particles.radius[i], w.particles.radius[5]);
    assert_eq!(ropelab::SolverKind::Classic.supports(&w), Ok(()));
}
