//! Rope–rope contact geometry: closest points against brute force (including parallel and
//! degenerate segments), capsule contacts, the swept crossing test, the contact projection
//! with friction, and the broad phase against an O(n²) check.

use glam::Vec3;
use ropelab::collide::broad::{BroadPhase, Pass};
use ropelab::collide::segments::*;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn f(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.f()
    }
    fn v(&mut self, s: f32) -> Vec3 {
        Vec3::new(self.range(-s, s), self.range(-s, s), self.range(-s, s))
    }
}

/// Distance by dense sampling plus a local refinement (independent of the closed form).
fn brute_dist(a0: Vec3, a1: Vec3, b0: Vec3, b1: Vec3) -> f32 {
    let n = 60;
    let (mut best, mut bs, mut bt) = (f32::INFINITY, 0.0, 0.0);
    for i in 0..=n {
        let s = i as f32 / n as f32;
        for j in 0..=n {
            let t = j as f32 / n as f32;
            let d = (a0.lerp(a1, s)).distance(b0.lerp(b1, t));
            if d < best {
                (best, bs, bt) = (d, s, t);
            }
        }
    }
    // Refine around the best sample.
    let mut h = 1.0 / n as f32;
    for _ in 0..40 {
        for (ds, dt) in [(h, 0.0), (-h, 0.0), (0.0, h), (0.0, -h), (h, h), (-h, -h), (h, -h), (-h, h)] {
            let (s, t) = ((bs + ds).clamp(0.0, 1.0), (bt + dt).clamp(0.0, 1.0));
            let d = (a0.lerp(a1, s)).distance(b0.lerp(b1, t));
            if d < best {
                (best, bs, bt) = (d, s, t);
            }
        }
        h *= 0.7;
    }
    best
}

#[test]
fn closest_points_match_brute_force() {
    let mut rng = Rng(0xC0FFEE);
    for case in 0..300 {
        let (a0, a1) = (rng.v(1.0), rng.v(1.0));
        let (mut b0, mut b1) = (rng.v(1.0), rng.v(1.0));
        match case % 5 {
            1 => {
                // parallel, offset
                let off = rng.v(0.3);
                b0 = a0 + off + (a1 - a0) * rng.range(-0.5, 1.0);
                b1 = b0 + (a1 - a0) * rng.range(-1.5, 1.5);
            }
            2 => b1 = b0, // b is a point
            3 => {
                // collinear overlapping
                b0 = a0.lerp(a1, rng.range(-0.5, 0.7));
                b1 = a0.lerp(a1, rng.range(0.3, 1.5));
            }
            _ => {}
        }
        let c = closest_points(a0, a1, b0, b1);
        let d = c.dist_sq.sqrt();
        let bf = brute_dist(a0, a1, b0, b1);
        assert!(d <= bf + 1e-4, "case {case}: {d} > brute {bf}");
        assert!(d >= bf - 1e-4, "case {case}: {d} < brute {bf}");
        assert!((0.0..=1.0).contains(&c.s) && (0.0..=1.0).contains(&c.t));
        assert!((c.pa - a0.lerp(a1, c.s)).length() < 1e-5);
        assert!((c.pb - b0.lerp(b1, c.t)).length() < 1e-5);
        assert!(c.s.is_finite() && c.t.is_finite());
    }
}

#[test]
fn degenerate_cases_are_finite() {
    let p = Vec3::new(0.3, 0.1, -0.2);
    let c = closest_points(p, p, p, p);
    assert_eq!((c.s, c.t, c.dist_sq), (0.0, 0.0, 0.0));
    let c = closest_points(p, p, Vec3::ZERO, Vec3::X);
    assert!((c.t - 0.3).abs() < 1e-6 && c.s == 0.0);
    let c = closest_points(Vec3::ZERO, Vec3::X, p, p);
    assert!((c.s - 0.3).abs() < 1e-6 && c.t == 0.0);
    // Parallel overlapping: contact in the middle of the overlap [0.5, 1] of a.
    let c = closest_points(Vec3::ZERO, Vec3::X, Vec3::new(0.5, 0.1, 0.0), Vec3::new(1.5, 0.1, 0.0));
    assert!((c.s - 0.75).abs() < 1e-6, "s = {}", c.s);
    assert!((c.t - 0.25).abs() < 1e-6);
    assert!((c.dist_sq - 0.01).abs() < 1e-7);
    // Parallel, reversed direction, disjoint: nearest ends.
    let c = closest_points(Vec3::ZERO, Vec3::X, Vec3::new(3.0, 0.0, 1.0), Vec3::new(2.0, 0.0, 1.0));
    assert!((c.s - 1.0).abs() < 1e-6 && (c.t - 1.0).abs() < 1e-6);
    // Identical segments.
    let c = closest_points(Vec3::ZERO, Vec3::Y, Vec3::ZERO, Vec3::Y);
    assert!(c.dist_sq < 1e-12 && c.s.is_finite());
    let n = fallback_normal(Vec3::Y, Vec3::Y);
    assert!((n.length() - 1.0).abs() < 1e-6 && n.dot(Vec3::Y).abs() < 1e-6);
}

#[test]
fn capsule_contact_normal_depth_weights() {
    // a along x at y=0, b along z at y=0.015, crossing above a at x=0.25.
    let a0 = Vec3::new(0.0, 0.0, 0.0);
    let a1 = Vec3::new(1.0, 0.0, 0.0);
    let b0 = Vec3::new(0.25, 0.015, -0.5);
    let b1 = Vec3::new(0.25, 0.015, 0.5);
    let c = capsule_contact(a0, a1, b0, b1, 0.02).unwrap();
    assert!((c.normal - Vec3::Y).length() < 1e-6);
    assert!((c.depth - 0.005).abs() < 1e-6);
    assert!((c.s - 0.25).abs() < 1e-6 && (c.t - 0.5).abs() < 1e-6);
    assert!(capsule_contact(a0, a1, b0 + Vec3::Y, b1 + Vec3::Y, 0.02).is_none());
    // Axes that meet exactly still get a unit normal.
    let c = capsule_contact(a0, a1, b0 - Vec3::Y * 0.015, b1 - Vec3::Y * 0.015, 0.02).unwrap();
    assert!((c.normal.length() - 1.0).abs() < 1e-6);
    assert!((c.depth - 0.02).abs() < 1e-6);
}

fn contact_world() -> (Vec<Vec3>, Vec<Vec3>, Vec<f32>) {
    // a: 0–1 along x at y = 0; b: 2–3 along z at y = 0.015 over a's x = 0.25.
    let pos = vec![
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(1.0, 0.0, 0.0),
        Vec3::new(0.25, 0.015, -0.5),
        Vec3::new(0.25, 0.015, 0.5),
    ];
    (pos.clone(), pos, vec![1.0; 4])
}

#[test]
fn rigid_projection_closes_the_gap_with_barycentric_weights() {
    let (mut pos, prev, inv) = contact_world();
    let p = ContactParams { radius_sum: 0.02, mu_s: 0.0, mu_k: 0.0, ..Default::default() };
    let mut st = ContactState::default();
    let r = solve_segment_contact(&mut pos, &prev, &inv, [0, 1], [2, 3], &p, &mut st).unwrap();
    assert!((r.depth - 0.005).abs() < 1e-6);
    assert!(!r.crossed);
    let c = closest_points(pos[0], pos[1], pos[2], pos[3]);
    assert!((c.dist_sq.sqrt() - 0.02).abs() < 1e-6, "gap closed exactly");
    // s = 0.25: particle 0 moves 3× as far as particle 1; t = 0.5: 2 and 3 equally.
    let (m0, m1) = ((pos[0] - prev[0]).length(), (pos[1] - prev[1]).length());
    assert!((m0 / m1 - 3.0).abs() < 1e-3, "{m0} {m1}");
    assert!(((pos[2] - prev[2]).length() - (pos[3] - prev[3]).length()).abs() < 1e-7);
    // Momentum: Σ mᵢ Δxᵢ = 0 for equal masses.
    let sum: Vec3 = (0..4).map(|i| pos[i] - prev[i]).sum();
    assert!(sum.length() < 1e-7);
    // A second call finds nothing (left) to do.
    if let Some(r) = solve_segment_contact(&mut pos, &prev, &inv, [0, 1], [2, 3], &p, &mut st) {
        assert!(r.depth < 1e-6);
    }
}

#[test]
fn static_segment_does_not_move() {
    let (mut pos, prev, mut inv) = contact_world();
    inv[0] = 0.0;
    inv[1] = 0.0;
    let p = ContactParams { radius_sum: 0.02, ..Default::default() };
    let mut st = ContactState::default();
    solve_segment_contact(&mut pos, &prev, &inv, [0, 1], [2, 3], &p, &mut st).unwrap();
    assert_eq!(pos[0], prev[0]);
    assert_eq!(pos[1], prev[1]);
    assert!((pos[2].y - 0.02).abs() < 1e-6);
}

#[test]
fn friction_static_and_dynamic() {
    // b slides along x by 1 mm this substep while pressed 5 mm into a.
    let p = ContactParams { radius_sum: 0.02, mu_s: 0.5, mu_k: 0.3, ..Default::default() };
    let run = |slide: f32| {
        let (mut pos, mut prev, inv) = contact_world();
        prev[2] -= Vec3::X * slide;
        prev[3] -= Vec3::X * slide;
        let mut st = ContactState::default();
        let r = solve_segment_contact(&mut pos, &prev, &inv, [0, 1], [2, 3], &p, &mut st).unwrap();
        // Relative motion of the two material contact points over the substep.
        let at = |x: &[Vec3]| x[2].lerp(x[3], r.t) - x[0].lerp(x[1], r.s);
        let rel = at(&pos) - at(&prev);
        (r, st, rel.x)
    };
    // Small slide: |Δp_t|/W = 0.001/W < μs λn = 0.5·0.005/W → sticks, tangential motion gone.
    let (r, st, slip) = run(0.001);
    assert!(r.sticking);
    assert!(slip.abs() < 1e-6, "slip {slip}");
    assert!((st.lambda_t / st.lambda_n - 0.2).abs() < 1e-3);
    // Large slide: 0.01 > μs·0.005 → slides; correction limited to μk·λn (1.5 mm of 10).
    let (r, st, slip) = run(0.01);
    assert!(!r.sticking);
    assert!((st.lambda_t - 0.3 * st.lambda_n).abs() < 1e-6);
    assert!((slip - (0.01 - 0.3 * 0.005)).abs() < 1e-5, "slip {slip}");
}

#[test]
fn fast_crossing_is_detected_and_undone() {
    // a rests along x; b (along z) falls from 0.5 m above to 0.5 m below within one substep.
    let prev =
        vec![Vec3::new(-0.5, 0.0, 0.0), Vec3::new(0.5, 0.0, 0.0), Vec3::new(0.1, 0.5, -0.5), Vec3::new(0.1, 0.5, 0.5)];
    let mut pos = prev.clone();
    pos[2].y = -0.5;
    pos[3].y = -0.5;
    // The discrete test sees two separated capsules.
    assert!(capsule_contact(pos[0], pos[1], pos[2], pos[3], 0.02).is_none());
    let hit = swept_crossing([prev[0], prev[1]], [prev[2], prev[3]], [pos[0], pos[1]], [pos[2], pos[3]], 0.01).unwrap();
    assert!((hit.tau - 0.5).abs() < 1e-4);
    assert!((hit.side - Vec3::Y).length() < 1e-5, "b was above a: {:?}", hit.side);
    let inv = vec![1.0, 1.0, 1.0, 1.0];
    let p = ContactParams { radius_sum: 0.02, mu_s: 0.0, mu_k: 0.0, ..Default::default() };
    let mut st = ContactState::default();
    let r = solve_segment_contact(&mut pos, &prev, &inv, [0, 1], [2, 3], &p, &mut st).unwrap();
    assert!(r.crossed);
    assert!((r.normal - Vec3::Y).length() < 1e-5);
    // Back on the original side: the contact points are the radius sum apart along +y (the
    // projection tilts the segments, so measure at the material points s, t).
    let gap = pos[2].lerp(pos[3], r.t) - pos[0].lerp(pos[1], r.s);
    assert!((gap.y - 0.02).abs() < 1e-5, "gap {gap:?}");
    // A few more iterations settle the tilted pair at the radius sum.
    for _ in 0..5 {
        solve_segment_contact(&mut pos, &prev, &inv, [0, 1], [2, 3], &p, &mut st);
    }
    let c = closest_points(pos[0], pos[1], pos[2], pos[3]);
    assert!(c.pb.y > c.pa.y && (c.dist_sq.sqrt() - 0.02).abs() < 1e-4, "{c:?}");
    // Without the swept test the pair would have stayed tunnelled.
    let mut pos2 = prev.clone();
    pos2[2].y = -0.5;
    pos2[3].y = -0.5;
    let p_no = ContactParams { ccd: false, ..p };
    assert!(
        solve_segment_contact(&mut pos2, &prev, &inv, [0, 1], [2, 3], &p_no, &mut ContactState::default()).is_none()
    );
}

#[test]
fn swept_test_rejects_near_misses_and_round_trips() {
    let a = [Vec3::new(-0.5, 0.0, 0.0), Vec3::new(0.5, 0.0, 0.0)];
    // b passes beyond a's end (x = 0.8): coplanar at some instant but never touching.
    let b0 = [Vec3::new(0.8, 0.5, -0.5), Vec3::new(0.8, 0.5, 0.5)];
    let b1 = [Vec3::new(0.8, -0.5, -0.5), Vec3::new(0.8, -0.5, 0.5)];
    assert!(swept_crossing(a, b0, a, b1, 0.01).is_none());
    // Parallel segments sliding past each other without crossing.
    let c0 = [Vec3::new(-0.5, 0.1, 0.0), Vec3::new(0.5, 0.1, 0.0)];
    let c1 = [Vec3::new(0.5, 0.1, 0.0), Vec3::new(1.5, 0.1, 0.0)];
    assert!(swept_crossing(a, c0, a, c1, 0.01).is_none());
    // Parallel segments passing through each other.
    let d1 = [Vec3::new(-0.5, -0.1, 0.0), Vec3::new(0.5, -0.1, 0.0)];
    let hit = swept_crossing(a, c0, a, d1, 0.01).unwrap();
    assert!((hit.side - Vec3::Y).length() < 1e-5);
    // Random fast pairs: whenever the end state is tunnelled (sides swapped while the
    // closest points are interior), the swept test reports it.
    let mut rng = Rng(77);
    let mut found = 0;
    for _ in 0..500 {
        let a0 = [rng.v(0.5), rng.v(0.5)];
        let b0 = [rng.v(0.5), rng.v(0.5)];
        let mv = rng.v(1.0);
        let b1 = [b0[0] + mv, b0[1] + mv];
        let m0 = (a0[1] - a0[0]).cross(b0[1] - b0[0]);
        let side0 = (b0[0] - a0[0]).dot(m0);
        let side1 = (b1[0] - a0[0]).dot(m0);
        // Pure translation: the axes cross iff b's line passes through a's segment, i.e.
        // the translated segment sweeps a parallelogram that a's segment pierces.
        let pierces = {
            // Solve a0 + u(a1-a0) = b0 + v(b1-b0)·... via the parallelogram b0[0] + x(b0[1]-b0[0]) + y·mv
            let (e1, e2, e3) = (b0[1] - b0[0], mv, a0[1] - a0[0]);
            let mtx = glam::Mat3::from_cols(e1, e2, -e3);
            if mtx.determinant().abs() < 1e-6 {
                None
            } else {
                let sol = mtx.inverse() * (a0[0] - b0[0]);
                Some((0.0..=1.0).contains(&sol.x) && (0.0..=1.0).contains(&sol.y) && (0.0..=1.0).contains(&sol.z))
            }
        };
        let Some(pierces) = pierces else { continue };
        let hit = swept_crossing(a0, b0, a0, b1, 1e-4);
        assert_eq!(hit.is_some(), pierces, "side {side0} → {side1}");
        if pierces {
            found += 1;
            let s = hit.unwrap().side;
            assert!(s.dot(m0) * side0 > 0.0, "side points from a to b before the crossing");
        }
    }
    assert!(found > 20, "only {found} crossings sampled");
}

fn random_ropes(rng: &mut Rng, ropes: usize, per: usize, step: f32) -> (Vec<Vec3>, Vec<Vec3>, Vec<[u32; 2]>, Vec<u32>) {
    let mut pos = Vec::new();
    let mut segs = Vec::new();
    let mut rope = Vec::new();
    for r in 0..ropes {
        let mut p = rng.v(1.0);
        let start = pos.len() as u32;
        pos.push(p);
        for k in 0..per {
            p += rng.v(step);
            pos.push(p);
            segs.push([start + k as u32, start + k as u32 + 1]);
            rope.push(r as u32);
        }
    }
    let prev: Vec<Vec3> = pos.iter().map(|&p| p + rng.v(0.02)).collect();
    (pos, prev, segs, rope)
}

#[test]
fn broad_phase_matches_brute_force() {
    let mut rng = Rng(2024);
    let mut bp = BroadPhase::new();
    let mut got = Vec::new();
    for case in 0..24 {
        let (pos, prev, segs, rope) = random_ropes(&mut rng, 3 + case % 4, 10 + case, 0.15);
        for params in [
            BroadPhaseParams { expand: 0.02, swept: true, self_gap: None },
            BroadPhaseParams { expand: 0.05, swept: false, self_gap: Some(3) },
            BroadPhaseParams { expand: 0.0, swept: true, self_gap: Some(2) },
        ] {
            bp.rope_pairs(&pos, &prev, &segs, &rope, &params, &mut got);
            let want = brute_force_pairs(&pos, &prev, &segs, &rope, &params);
            assert_eq!(got, want, "case {case}, {params:?}");
            // Conservative: every allowed pair of capsules within 2·expand is a candidate.
            for i in 0..segs.len() {
                for j in i + 1..segs.len() {
                    if !pair_allowed(i, j, &segs, &rope, params.self_gap) {
                        continue;
                    }
                    let [a0, a1] = segs[i].map(|k| pos[k as usize]);
                    let [b0, b1] = segs[j].map(|k| pos[k as usize]);
                    if closest_points(a0, a1, b0, b1).dist_sq.sqrt() <= 2.0 * params.expand {
                        assert!(got.binary_search(&[i as u32, j as u32]).is_ok(), "missed close pair {i} {j}");
                    }
                }
            }
        }
    }
}

#[test]
fn broad_phase_reuses_its_memory() {
    let mut rng = Rng(9);
    let (mut pos, prev, segs, rope) = random_ropes(&mut rng, 4, 30, 0.1);
    let mut bp = BroadPhase::new();
    let mut pairs = Vec::new();
    let params = BroadPhaseParams::default();
    bp.rope_pairs(&pos, &prev, &segs, &rope, &params, &mut pairs);
    // Grow once with a larger margin, then jiggle: the buffers stay where they are.
    bp.rope_pairs(&pos, &prev, &segs, &rope, &BroadPhaseParams { expand: 0.5, ..params }, &mut pairs);
    let ptr = (pairs.as_ptr(), bp.boxes().as_ptr(), bp.list().as_ptr());
    for _ in 0..20 {
        for p in pos.iter_mut() {
            *p += rng.v(0.01);
        }
        bp.rope_pairs(&pos, &prev, &segs, &rope, &params, &mut pairs);
        assert_eq!((pairs.as_ptr(), bp.boxes().as_ptr(), bp.list().as_ptr()), ptr);
        assert_eq!(pairs, brute_force_pairs(&pos, &prev, &segs, &rope, &params));
    }
}

/// One list for every kind of pair (`collide::broad`): bodies' boxes and rope segments' boxes
/// in one broad phase. Its body pass gives exactly the body–body and segment–body overlaps
/// (never segment–segment), its rope pass exactly the allowed segment–segment overlaps of
/// the swept boxes — the same pairs a broad phase without bodies gives — whichever pass
/// sorted the list last, and once grown the passes reuse their memory.
#[test]
fn one_sorted_list_gives_body_rope_and_rope_rope_pairs() {
    let mut rng = Rng(77);
    let mut bp = BroadPhase::new();
    let mut alone = BroadPhase::new();
    let (mut got, mut want) = (Vec::new(), Vec::new());
    let mut ptrs = None;
    let (mut mixed, mut body_body, mut rope_rope) = (0, 0, 0);
    for round in 0..30 {
        // The scene grows for the first rounds (new proxies: the list starts afresh).
        let n_bodies = 5 + round.min(10);
        let (pos, prev, segs, rope) = random_ropes(&mut Rng(1000 + round as u64), 3, 12, 0.15);
        let bodies: Vec<Aabb> = (0..n_bodies)
            .map(|_| {
                let c = rng.v(1.2);
                let h = Vec3::new(rng.range(0.02, 0.3), rng.range(0.02, 0.3), rng.range(0.02, 0.3));
                Aabb { min: c - h, max: c + h }
            })
            .collect();
        // Segment boxes of the body pass: the segment now, grown by a reach.
        let reach = rng.range(0.0, 0.1);
        let seg_now: Vec<Aabb> = segs.iter().map(|&s| segment_box(&pos, &prev, s, reach, false)).collect();
        bp.set_bodies(n_bodies);
        bp.set_segments(segs.len());
        let (b, s) = bp.boxes_mut();
        b.copy_from_slice(&bodies);
        s.copy_from_slice(&seg_now);
        bp.sort();
        assert_eq!(bp.list().len(), n_bodies + segs.len(), "one list for bodies and segments");
        got.clear();
        bp.sweep(Pass::Bodies, usize::MAX, |a, b| {
            got.push((a.min(b), a.max(b)));
            true
        });
        got.sort_unstable();
        let all: Vec<Aabb> = bodies.iter().chain(&seg_now).copied().collect();
        want.clear();
        for a in 0..all.len() {
            for b in a + 1..all.len() {
                if (a < n_bodies || b < n_bodies) && all[a].overlaps(&all[b]) {
                    want.push((a, b));
                }
            }
        }
        assert_eq!(got, want, "round {round}: body pass");
        mixed += got.iter().filter(|&&(a, b)| a < n_bodies && b >= n_bodies).count();
        body_body += got.iter().filter(|&&(_, b)| b < n_bodies).count();
        // The rope pass over the same list: swept boxes; the bodies' entries stay in it.
        let params =
            BroadPhaseParams { expand: 0.03, swept: true, self_gap: if round % 2 == 0 { None } else { Some(3) } };
        let mut pairs = Vec::new();
        bp.rope_pairs(&pos, &prev, &segs, &rope, &params, &mut pairs);
        assert_eq!(bp.bodies(), n_bodies);
        assert_eq!(pairs, brute_force_pairs(&pos, &prev, &segs, &rope, &params), "round {round}: rope pass");
        let mut only = Vec::new();
        alone.rope_pairs(&pos, &prev, &segs, &rope, &params, &mut only);
        assert_eq!(pairs, only, "round {round}: the bodies change no rope pair");
        rope_rope += pairs.len();
        // And the body pass again after the rope pass re-sorted the list.
        let (_, s) = bp.boxes_mut();
        s.copy_from_slice(&seg_now);
        bp.sort();
        let mut again = Vec::new();
        bp.sweep(Pass::Bodies, usize::MAX, |a, b| {
            again.push((a.min(b), a.max(b)));
            true
        });
        again.sort_unstable();
        assert_eq!(again, want, "round {round}: body pass after the rope pass");
        if round >= 10 {
            // Grown: the boxes and the list stay where they are.
            let p = (bp.boxes().as_ptr(), bp.list().as_ptr());
            assert_eq!(*ptrs.get_or_insert(p), p, "round {round}: the broad phase reallocated");
        }
    }
    println!("pairs compared: {body_body} body–body, {mixed} segment–body, {rope_rope} segment–segment");
    assert!(body_body > 20 && mixed > 100 && rope_rope > 100, "{body_body} {mixed} {rope_rope}: too few to compare");
}

#[test]
fn adjacent_and_same_rope_pairs_are_filtered() {
    let segs = vec![[0, 1], [1, 2], [2, 3], [3, 4], [5, 6]];
    let rope = vec![0, 0, 0, 0, 1];
    assert!(!pair_allowed(0, 1, &segs, &rope, Some(1))); // shared particle
    assert!(!pair_allowed(0, 2, &segs, &rope, None));
    assert!(pair_allowed(0, 2, &segs, &rope, Some(2)));
    assert!(!pair_allowed(0, 2, &segs, &rope, Some(3)));
    assert!(pair_allowed(0, 4, &segs, &rope, None));
}

/// Two ropes crossing in an X (A along x, B along z, B 3 cm above A); B's middle particle is
/// dragged straight down 0.25 m per step (12 radius sums per step) for 8 steps, a minimal
/// position-based loop (distance links + rope–rope contacts from the broad phase). Returns the
/// lowest height difference B − A at the crossing seen after any step.
fn fast_drag(ccd: bool) -> f32 {
    let n = 11;
    let mut pos = Vec::new();
    for k in 0..n {
        pos.push(Vec3::new(-0.5 + 0.1 * k as f32, 0.0, 0.0)); // rope A
    }
    for k in 0..n {
        pos.push(Vec3::new(0.03, 0.03, -0.5 + 0.1 * k as f32)); // rope B
    }
    let mut inv = vec![1.0f32; 2 * n];
    let grab = n + n / 2;
    inv[grab] = 0.0;
    let mut segs = Vec::new();
    let mut rope = Vec::new();
    for r in 0..2 {
        for k in 0..n - 1 {
            segs.push([(r * n + k) as u32, (r * n + k + 1) as u32]);
            rope.push(r as u32);
        }
    }
    let rest = 0.1;
    let params = ContactParams { radius_sum: 0.02, mu_s: 0.3, mu_k: 0.2, ccd, ..Default::default() };
    let mut bp = BroadPhase::new();
    let mut pairs = Vec::new();
    let mut states: Vec<ContactState> = Vec::new();
    let mut worst = f32::INFINITY;
    for _step in 0..8 {
        let prev = pos.clone();
        pos[grab].y -= 0.25;
        let broad = BroadPhaseParams { expand: 0.3, swept: true, self_gap: None };
        bp.rope_pairs(&pos, &prev, &segs, &rope, &broad, &mut pairs);
        states.clear();
        states.resize(pairs.len(), ContactState::default());
        for _it in 0..20 {
            for s in &segs {
                let (i, j) = (s[0] as usize, s[1] as usize);
                let d = pos[j] - pos[i];
                let len = d.length();
                let wsum = inv[i] + inv[j];
                if len > 0.0 && wsum > 0.0 {
                    let corr = d * ((len - rest) / len / wsum);
                    pos[i] += corr * inv[i];
                    pos[j] -= corr * inv[j];
                }
            }
            for (k, &[i, j]) in pairs.iter().enumerate() {
                solve_segment_contact(
                    &mut pos,
                    &prev,
                    &inv,
                    segs[i as usize],
                    segs[j as usize],
                    &params,
                    &mut states[k],
                );
            }
        }
        // Height of B over A where the ropes cross in top view (x–z): every crossing.
        for i in 0..n - 1 {
            for j in n..2 * n - 1 {
                let (p0, p1, q0, q1) = (pos[i], pos[i + 1], pos[j], pos[j + 1]);
                let (d, e, w0) = (p1 - p0, q1 - q0, q0 - p0);
                let den = d.x * e.z - d.z * e.x;
                if den.abs() < 1e-12 {
                    continue;
                }
                let la = (w0.x * e.z - w0.z * e.x) / den;
                let lb = (w0.x * d.z - w0.z * d.x) / den;
                if (0.0..1.0).contains(&la) && (0.0..1.0).contains(&lb) {
                    worst = worst.min((q0.y + e.y * lb) - (p0.y + d.y * la));
                }
            }
        }
    }
    worst
}

#[test]
fn fast_drag_never_tunnels() {
    let with = fast_drag(true);
    eprintln!("fast drag: B over A by at least {with} m with the swept test");
    assert!(with > 0.015, "B stayed above A: {with}");
    // Control: the same drag without the swept test goes straight through.
    let without = fast_drag(false);
    eprintln!("fast drag without it: {without} m");
    assert!(without < 0.0, "expected tunnelling without CCD, got {without}");
}
