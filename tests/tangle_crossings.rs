//! Braid words from scripted leash geometry: dog 1 circling dog 2 clockwise and back, signs
//! from heights, the seam behind the handler, full rotations (a full twist), the hand-region
//! memory, and events with resync.

use std::f32::consts::{FRAC_PI_2, FRAC_PI_4, PI, TAU};

use glam::Vec3;
use ropelab::tangle::braid::{self, word, Gen};
use ropelab::tangle::crossings::*;

/// Handler at the origin facing +z (so the local frame is u = z, v = x; v > 0 is the
/// handler's left), hand 1 m up.
fn frame() -> BraidFrame {
    BraidFrame { hub: Vec3::new(0.0, 1.0, 0.0), front: Vec3::Z, hand_radius: 0.05 }
}

fn w(u: f32, v: f32, y: f32) -> Vec3 {
    Vec3::new(v, y, u)
}

/// A leash through ground-plane waypoints (u, v), each leg cut into pieces of at most 10 cm,
/// with height `profile(s)` at the fraction s of its horizontal length.
fn leash(way: &[(f32, f32)], profile: impl Fn(f32) -> f32) -> Vec<Vec3> {
    let mut pts: Vec<(f32, f32)> = vec![way[0]];
    for leg in way.windows(2) {
        let (a, b) = (leg[0], leg[1]);
        let len = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt();
        let k = (len / 0.1).ceil().max(1.0) as usize;
        for i in 1..=k {
            let f = i as f32 / k as f32;
            pts.push((a.0 + (b.0 - a.0) * f, a.1 + (b.1 - a.1) * f));
        }
    }
    let mut acc = vec![0.0f32];
    for p in pts.windows(2) {
        acc.push(acc.last().unwrap() + ((p[1].0 - p[0].0).powi(2) + (p[1].1 - p[0].1).powi(2)).sqrt());
    }
    let total = *acc.last().unwrap();
    pts.iter().zip(&acc).map(|(&(u, v), &s)| w(u, v, profile(s / total))).collect()
}

fn linear(s: f32) -> f32 {
    1.0 - 0.6 * s
}
/// Drops fast near the hand: lower than a linear leash there.
fn low(s: f32) -> f32 {
    1.0 - 0.6 * s.sqrt()
}
/// Stays high near the hand.
fn high(s: f32) -> f32 {
    1.0 - 0.6 * s * s
}

const SLOT: [(f32, f32); 3] = [(0.0, -0.03), (0.0, 0.0), (0.0, 0.03)];
const D2: (f32, f32) = (1.6, 0.0);
const D3: (f32, f32) = (1.2, 0.9);

/// Dog 1 after walking θ clockwise (seen from above) around dog 2 on a 0.4 m circle,
/// starting on dog 2's right; leash 1 drawn taut, catching on dog 2 (a post of 6 cm) once it
/// goes behind it.
fn dog1_leash(theta: f32, profile: fn(f32) -> f32) -> Vec<Vec3> {
    let a = -FRAC_PI_2 - theta;
    let d1 = (D2.0 + 0.4 * a.cos(), D2.1 + 0.4 * a.sin());
    let mut way = vec![SLOT[0]];
    if theta > 1.3 * PI {
        way.push((1.6, 0.062)); // passes dog 2 on its left (v > 0)
    }
    if theta > 1.5 * PI {
        way.push((1.655, 0.02)); // round its back, over its ray
        way.push((1.665, -0.02));
    }
    if theta > 1.9 * PI {
        way.push((1.64, -0.06)); // folds back toward the hand a little
    }
    way.push(d1);
    leash(&way, profile)
}

fn scene(theta: f32, l1: fn(f32) -> f32, l2: fn(f32) -> f32) -> [Vec<Vec3>; 3] {
    [dog1_leash(theta, l1), leash(&[SLOT[1], D2], l2), leash(&[SLOT[2], D3], linear)]
}

fn read(strands: &[Vec<Vec3>]) -> Reading {
    let refs: Vec<&[Vec3]> = strands.iter().map(|s| s.as_slice()).collect();
    BraidReader::new().read(&frame(), &refs).clone()
}

const KEYS: [f32; 9] =
    [0.0, FRAC_PI_4, 3.0 * FRAC_PI_4, PI, 5.0 * FRAC_PI_4, 1.5 * PI - 0.15, 1.5 * PI + 0.15, 7.0 * FRAC_PI_4, TAU];

fn expected(theta: f32) -> Vec<Gen> {
    if theta < FRAC_PI_2 {
        vec![]
    } else if theta < 1.5 * PI {
        word(&[-1])
    } else {
        word(&[-1, -1])
    }
}

#[test]
fn dog_circling_clockwise_reads_sigma_inverse_squared() {
    for &theta in &KEYS {
        let r = read(&scene(theta, low, linear));
        assert_eq!(r.anomalies, 0, "θ = {theta}");
        assert_eq!(r.word, expected(theta), "θ = {theta}: {}", braid::format_word(&r.word));
        assert_eq!(r.start_order, vec![0, 1, 2]);
        let swapped = theta > FRAC_PI_2 && theta < 1.5 * PI;
        assert_eq!(r.end_order, if swapped { vec![1, 0, 2] } else { vec![0, 1, 2] }, "θ = {theta}");
        // The word's permutation takes the hand order to the dog order.
        let perm = braid::permutation(3, &r.word);
        for (p, &s) in r.start_order.iter().enumerate() {
            assert_eq!(r.end_order[perm[p] as usize], s);
        }
    }
    // The full circle: one leash crossing under leash 2, one over dog 2's ray.
    let r = read(&scene(TAU, low, linear));
    let kinds: Vec<_> = r.crossings.iter().map(|c| (c.kind, c.over, c.under)).collect();
    assert_eq!(kinds, vec![(CrossingKind::Leash, 1, 0), (CrossingKind::DogRay, 0, 1)]);
}

#[test]
fn tracker_follows_the_circle_and_back_with_events() {
    let mut t = BraidTracker::new(frame());
    let mut events = Vec::new();
    let forward: Vec<f32> = KEYS.to_vec();
    let back: Vec<f32> = KEYS.iter().rev().copied().collect();
    for &theta in forward.iter().chain(back.iter().skip(1)) {
        let s = scene(theta, low, linear);
        let refs: Vec<&[Vec3]> = s.iter().map(|x| x.as_slice()).collect();
        events.extend_from_slice(t.update(&refs));
        assert!(braid::equal(3, t.word(), &expected(theta)), "θ = {theta}: {}", braid::format_word(t.word()));
        if (theta - TAU).abs() < 1e-6 {
            let sum = t.summary(false);
            assert_eq!(sum.word, "σ1⁻¹ σ1⁻¹");
            assert!(!sum.trivial);
            assert_eq!(sum.full_twists, None);
            assert_eq!(sum.hint.moves, word(&[1, 1]));
            assert_eq!(sum.hint_text, vec!["dog 1 walks once all the way around dog 2, counter-clockwise".to_string()]);
            // With a swivel it is still a real tangle (not a full twist).
            assert_eq!(t.summary(true).hint.moves.len(), 2);
        }
    }
    assert!(t.word().is_empty(), "back to the identity");
    assert!(t.summary(false).trivial);
    assert!(t.hub_word().is_empty());
    let s1 = Gen::sigma(1);
    assert_eq!(
        events,
        vec![
            BraidEvent::DogsSwapped { gen: s1.inverse(), dogs: [0, 1] }, // passes in front of dog 2
            BraidEvent::DogsSwapped { gen: s1.inverse(), dogs: [1, 0] }, // passes behind it
            BraidEvent::DogsSwapped { gen: s1, dogs: [0, 1] },           // back behind
            BraidEvent::DogsSwapped { gen: s1, dogs: [1, 0] },           // back in front
        ]
    );
}

#[test]
fn heights_decide_the_sign() {
    // Same top view; leash 1 under leash 2, then over it.
    let under = read(&scene(PI, low, linear));
    assert_eq!(under.word, word(&[-1]));
    assert_eq!(under.crossings[0].over, 1);
    let over = read(&scene(PI, high, low));
    assert_eq!(over.word, word(&[1]));
    assert_eq!(over.crossings[0].over, 0);
    // Mirrored: dog 1 starting on the other side, swapping with dog 2 the same way round.
    let mirror = |p: &Vec<Vec3>| p.iter().map(|q| Vec3::new(-q.x, q.y, q.z)).collect::<Vec<_>>();
    let s = scene(PI, low, linear);
    let m = read(&[mirror(&s[0]), mirror(&s[1])]);
    // Leash 1 (under) now comes from the right-hand position: the left strand is leash 2,
    // which is over → σ1.
    assert_eq!(m.word, word(&[1]));
}

#[test]
fn parameter_sweep_counterexample() {
    // Two straight leashes from the outer slots never cross in top view: A from the left slot
    // (v = +0.03) to (0.5, 0.2), B from the right slot (v = -0.03) to (1.6, 0.6). Ordered by v
    // at equal parameter t they swap (A: 0.03 + 0.17t, B: -0.03 + 0.63t, equal at t ≈ 0.13),
    // which a parameter sweep would read as a crossing; the radial reading sees none.
    let a = leash(&[(0.0, 0.03), (0.5, 0.2)], linear);
    let b = leash(&[(0.0, -0.03), (1.6, 0.6)], linear);
    let r = read(&[a, b]);
    assert!(r.word.is_empty(), "{:?}", r.word);
    assert_eq!(r.start_order, vec![1, 0]);
    assert_eq!(r.end_order, vec![1, 0]);
    let (va, vb) = (|t: f32| 0.03 + 0.17 * t, |t: f32| -0.03 + 0.63 * t);
    assert!(va(0.0) > vb(0.0) && va(1.0) < vb(1.0));
}

#[test]
fn crossing_the_seam_passes_under_everyone() {
    // Leash 0 straight ahead; leash 1 goes out to the left and round behind the handler to the
    // right: from the left end to position 1, under leash 0: σ1.
    let l0 = leash(&[(0.0, 0.0), (1.5, 0.0)], linear);
    let l1 = leash(&[(0.0, 0.0), (0.0, 0.8), (-0.8, 0.5), (-1.2, -0.3)], linear);
    let r = read(&[l0.clone(), l1.clone()]);
    assert_eq!(r.word, word(&[1]));
    assert_eq!(r.crossings[0].kind, CrossingKind::Seam);
    assert_eq!(r.end_order, vec![1, 0]);
    // Three strands: σ2σ1.
    let l2 = leash(&[(0.0, 0.0), (1.0, -0.8)], linear);
    let r = read(&[l0, l1, l2]);
    assert_eq!(r.word, word(&[2, 1]));
    assert_eq!(r.anomalies, 0);
}

fn fan(angles: &[f32], radius: f32) -> Vec<Vec<Vec3>> {
    angles.iter().map(|&a| leash(&[(0.0, 0.0), (radius * a.cos(), radius * a.sin())], linear)).collect()
}

#[test]
fn all_dogs_circling_the_handler_is_one_full_twist() {
    let base = [-0.6f32, 0.1, 0.7];
    for dir in [1.0f32, -1.0] {
        let mut t = BraidTracker::new(frame());
        for step in 0..=90 {
            let rot = dir * TAU * step as f32 / 90.0;
            let angles: Vec<f32> = base.iter().map(|a| a + rot).collect();
            let s = fan(&angles, 1.5);
            let refs: Vec<&[Vec3]> = s.iter().map(|x| x.as_slice()).collect();
            let ev = t.update(&refs).to_vec();
            assert!(!ev.contains(&BraidEvent::Resync), "step {step}");
        }
        // Counter-clockwise seen from above = one positive full twist.
        assert_eq!(braid::full_twists(3, t.word()), Some(dir as i64), "{}", braid::format_word(t.word()));
        let sum = t.summary(true);
        assert!(sum.hint.moves.is_empty(), "a swivel sheds it");
        assert_eq!(sum.hint.twists_left, dir as i64);
        assert_eq!(t.summary(false).hint.moves.len(), 6);
    }
}

#[test]
fn pair_circling_counter_clockwise_matches_the_move_convention() {
    // Dogs 1 and 2 turn once counter-clockwise around their midpoint (straight leashes from a
    // point hand): σ1², remembered in the hand region.
    let mut t = BraidTracker::new(frame());
    let mid = (1.4f32, 0.0f32);
    for step in 0..=72 {
        let a = TAU * step as f32 / 72.0;
        let off = (0.3 * (-FRAC_PI_2 + a).cos(), 0.3 * (-FRAC_PI_2 + a).sin());
        let d1 = (mid.0 + off.0, mid.1 + off.1);
        let d2 = (mid.0 - off.0, mid.1 - off.1);
        let s = [leash(&[(0.0, 0.0), d1], linear), leash(&[(0.0, 0.0), d2], linear)];
        let refs: Vec<&[Vec3]> = s.iter().map(|x| x.as_slice()).collect();
        t.update(&refs);
    }
    assert!(braid::equal(2, t.word(), &word(&[1, 1])), "{}", braid::format_word(t.word()));
    assert_eq!(t.hub_word(), word(&[1, 1]).as_slice());
}

#[test]
fn crossing_slides_into_the_hand_region_without_a_jump() {
    // Leash 1 crosses under leash 2 at a distance that shrinks frame by frame, ending inside
    // the hand region: the braid stays σ1⁻¹ throughout, first read, then remembered.
    let mut t = BraidTracker::new(frame());
    for step in 0..=40 {
        let c = 0.5 - 0.48 * step as f32 / 40.0; // crossing distance along leash 2: 0.5 → 0.02
        let l2 = leash(&[(0.0, 0.0), (1.6, 0.0)], linear);
        let l1 = leash(&[(0.0, -0.03), (c, 0.0), (1.6, 0.4)], low);
        let s = [l1, l2];
        let refs: Vec<&[Vec3]> = s.iter().map(|x| x.as_slice()).collect();
        let ev = t.update(&refs).to_vec();
        assert!(ev.is_empty(), "step {step}: {ev:?}");
        assert_eq!(t.word(), word(&[-1]).as_slice(), "step {step}");
    }
    assert_eq!(t.hub_word(), word(&[-1]).as_slice());
    assert!(t.reading().word.is_empty());
}

#[test]
fn a_jump_in_topology_is_a_resync() {
    let mut t = BraidTracker::new(frame());
    let s = scene(0.0, low, linear);
    t.update(&s.iter().map(|x| x.as_slice()).collect::<Vec<_>>());
    // Same dog positions, but leash 1 now wrapped round leash 2: a pass-through.
    let s = scene(TAU, low, linear);
    let ev = t.update(&s.iter().map(|x| x.as_slice()).collect::<Vec<_>>()).to_vec();
    assert_eq!(ev, vec![BraidEvent::Resync]);
    assert_eq!(t.word(), word(&[-1, -1]).as_slice(), "the geometry wins");
}

#[test]
fn order_change_bubbles_with_signs() {
    let mut out = Vec::new();
    order_change(&[0, 1, 2], &[2, 0, 1], |l, _| l == 2, &mut out);
    assert_eq!(out, word(&[-2, -1]));
    out.clear();
    order_change(&[0, 1, 2], &[0, 1, 2], |_, _| true, &mut out);
    assert!(out.is_empty());
}

#[test]
fn random_geometry_never_breaks_the_reader() {
    let mut seed = 0x1234_5678_9abc_def0u64;
    let mut rnd = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 40) as f32 / (1u64 << 24) as f32
    };
    let mut reader = BraidReader::new();
    for _ in 0..200 {
        let strands: Vec<Vec<Vec3>> = (0..3)
            .map(|_| {
                let mut p = Vec3::new(0.0, 1.0, 0.0);
                (0..15)
                    .map(|_| {
                        let q = p;
                        p += Vec3::new(rnd() - 0.5, rnd() * 0.1 - 0.05, rnd() - 0.3) * 0.3;
                        q
                    })
                    .collect()
            })
            .collect();
        let refs: Vec<&[Vec3]> = strands.iter().map(|s| s.as_slice()).collect();
        let r = reader.read(&frame(), &refs);
        let perm = braid::permutation(3, &r.word);
        for (p, &s) in r.start_order.iter().enumerate() {
            assert_eq!(r.end_order[perm[p] as usize], s);
        }
    }
}

#[test]
fn smooth_circle_has_no_resyncs() {
    let mut t = BraidTracker::new(frame());
    let n = 240;
    let thetas: Vec<f32> = (0..=n).chain((0..n).rev()).map(|k| TAU * k as f32 / n as f32).collect();
    let mut swaps = 0;
    for &theta in &thetas {
        let s = scene(theta, low, linear);
        let refs: Vec<&[Vec3]> = s.iter().map(|x| x.as_slice()).collect();
        for e in t.update(&refs) {
            match e {
                BraidEvent::DogsSwapped { .. } => swaps += 1,
                BraidEvent::Resync => panic!("resync at θ = {theta}"),
            }
        }
        assert_eq!(t.reading().anomalies, 0, "θ = {theta}");
        assert!(braid::equal(3, t.word(), &expected(theta)), "θ = {theta}: {}", braid::format_word(t.word()));
    }
    assert_eq!(swaps, 4);
}
