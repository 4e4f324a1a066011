//! The broad phase: one sweep and prune over one sorted list of boxes that gives every kind
//! of candidate pair — body–body, rope–body and rope–rope (issue 11 §1: one broad phase,
//! not two).
//!
//! # Proxies and the list
//! A proxy is a body (proxies `0..bodies`, by dense body index) or a rope segment (proxies
//! `bodies..bodies + segments`, by segment index). Each has one axis-aligned box, grown by
//! the margin of the pass that wrote it last. The list holds one entry per proxy, `(box
//! minimum along the axis, proxy)`, sorted by that key and then by proxy (so the order is
//! a function of the boxes alone; the key is the coordinate as an order-preserving integer,
//! [`key`]). It is kept from call to call: the boxes move little
//! between calls, so the re-sort is an insertion sort over a nearly sorted list, and every
//! buffer is reused (no allocation once grown to the scene). The axis is the one along
//! which the box centres spread most; when it changes, or the proxy count does, the list
//! is rebuilt and sorted from scratch.
//!
//! # The two passes over it
//! The kinds of pair are needed at different times, with different margins, so one list is
//! swept by two passes ([`Pass`]):
//!
//! - **Bodies** (`contacts::Contacts::collide`, once per step, only when there are bodies):
//!   every box is rewritten — a body's its shape's bounds grown by the speculative distance
//!   and how far it can move in the step, a segment's the segment grown by its radius, the
//!   speculative distance and how far its faster end can move in the step — and the sweep
//!   reports body–body and segment–body overlaps (the narrow phase and the rope–body reach
//!   test then decide). With no rope segment the bodies' pairs persist instead
//!   (`Contacts::persistent_pairs`): the list holds the bodies' *fat* boxes (step boxes grown
//!   by `contacts::BODY_FAT_MARGIN`) and is re-sorted only in a step where some step box left
//!   its fat box, then queried for those bodies' pairs ([`BroadPhase::bodies_overlapping`]; swept
//!   whole when the bodies changed).
//! - **Ropes** ([`BroadPhase::rope_pairs`], from `collide::rope_contacts` once per substep
//!   when its last pairs may have gone stale): the segments' boxes are rewritten as *swept*
//!   boxes — the segment at the substep's start and predicted, grown by the rope's radius
//!   plus a speculative margin — and the sweep reports segment–segment overlaps. A pair of
//!   segments that passes through each other within the substep has overlapping swept
//!   boxes, so it is a candidate and the swept crossing test (`segments::swept_crossing`)
//!   sees it: the no-tunnelling guarantee. The bodies' entries keep their step boxes; the
//!   pass steps over them.
//!
//! The pairs come out in the order their callers sort them in (body pairs by id key, rope
//! pairs by segment indices), which does not depend on the sweep's order: the same boxes
//! give the same pairs in the same order whichever pass sorted the list last.

use glam::Vec3;

use super::segments::{pair_allowed, segment_box, BroadPhaseParams};
use crate::limits::{MAX_ROPE_BOX_TESTS, MAX_ROPE_PAIRS};

/// Axis-aligned box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    pub min: Vec3,
    pub max: Vec3,
}

impl Default for Aabb {
    fn default() -> Self {
        Aabb { min: Vec3::ZERO, max: Vec3::ZERO }
    }
}

impl Aabb {
    /// Closed-interval overlap on all three axes (the six comparisons all made, one branch).
    #[inline]
    pub fn overlaps(&self, o: &Aabb) -> bool {
        (self.min.cmple(o.max) & o.min.cmple(self.max)).all()
    }
}

/// Which pairs a sweep reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    /// Body–body and segment–body pairs (not segment–segment).
    Bodies,
    /// Segment–segment pairs only.
    Ropes,
}

/// The one sweep-and-prune structure (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct BroadPhase {
    /// Per proxy: bodies first, then segments.
    boxes: Vec<Aabb>,
    /// The sorted axis list: (key of the box minimum along `axis`, proxy), ascending (see
    /// [`key`]).
    list: Vec<(u32, u32)>,
    /// Number of body proxies (the first ones).
    bodies: usize,
    axis: usize,
    /// Every proxy's box in list order, for [`BroadPhase::bodies_overlapping`] (written by
    /// [`BroadPhase::boxes_in_order`]; emptied whenever the boxes or the list may change).
    in_order: Vec<Aabb>,
    /// Times the list was rebuilt and sorted from scratch (proxy count or axis changed).
    resets: u64,
}

#[inline]
fn coord(v: Vec3, axis: usize) -> f32 {
    match axis {
        0 => v.x,
        1 => v.y,
        _ => v.z,
    }
}

/// A coordinate as an integer that orders as the coordinates do (`x < y` ⇔ `key(x) <
/// key(y)`, equal for equal coordinates, −0 as +0; a NaN at one end), so sorting and the
/// sweep's stopping test compare integers: negatives with every bit flipped, so larger
/// magnitudes come first, below the non-negatives with the sign bit set.
#[inline]
pub fn key(x: f32) -> u32 {
    let b = (x + 0.0).to_bits();
    // Negative (sign set): xor with all ones; else with the sign bit alone.
    b ^ (((b as i32) >> 31) as u32 | 0x8000_0000)
}

/// Insertion sort of `list` by (key, proxy) with every key refreshed from `boxes` on the way
/// (entry k's key is read as k is inserted; the entries before it are already fresh).
#[inline]
fn resort(list: &mut [(u32, u32)], boxes: &[Aabb], coord: impl Fn(&Aabb) -> f32) {
    // (key, proxy) as one integer: ties by proxy, so the order is unique.
    let whole = |e: (u32, u32)| ((e.0 as u64) << 32) | e.1 as u64;
    for k in 0..list.len() {
        let p = list[k].1;
        let v = (key(coord(&boxes[p as usize])), p);
        let w = whole(v);
        let mut j = k;
        while j > 0 && w < whole(list[j - 1]) {
            list[j] = list[j - 1];
            j -= 1;
        }
        list[j] = v;
    }
}

impl BroadPhase {
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of body proxies.
    #[inline]
    pub fn bodies(&self) -> usize {
        self.bodies
    }

    /// Number of segment proxies.
    #[inline]
    pub fn segments(&self) -> usize {
        self.boxes.len() - self.bodies
    }

    /// Sets the number of body proxies (keeping the segments'). A change drops the order:
    /// the next [`sort`](Self::sort) starts afresh.
    pub fn set_bodies(&mut self, n: usize) {
        if n != self.bodies {
            let segments = self.segments();
            self.boxes.drain(..self.bodies);
            self.boxes.splice(0..0, std::iter::repeat_n(Aabb::default(), n));
            self.bodies = n;
            debug_assert_eq!(self.segments(), segments);
            self.list.clear();
            self.in_order.clear();
        }
    }

    /// Sets the number of segment proxies (keeping the bodies'). A change drops the order.
    pub fn set_segments(&mut self, n: usize) {
        if n != self.segments() {
            self.boxes.resize(self.bodies + n, Aabb::default());
            self.list.clear();
            self.in_order.clear();
        }
    }

    /// Every proxy's box, bodies first.
    #[inline]
    pub fn boxes(&self) -> &[Aabb] {
        &self.boxes
    }

    /// The bodies' boxes and the segments' boxes, to rewrite before a [`sort`](Self::sort).
    #[inline]
    pub fn boxes_mut(&mut self) -> (&mut [Aabb], &mut [Aabb]) {
        self.in_order.clear();
        self.boxes.split_at_mut(self.bodies)
    }

    /// The sweep axis (0 x, 1 y, 2 z) of the last sort.
    #[inline]
    pub fn axis(&self) -> usize {
        self.axis
    }

    /// Times the list was sorted from scratch rather than re-sorted in place.
    #[inline]
    pub fn resets(&self) -> u64 {
        self.resets
    }

    /// The sorted list: ([`key`] of the box minimum along the axis, proxy) in sweep order.
    #[inline]
    pub fn list(&self) -> &[(u32, u32)] {
        &self.list
    }

    /// Calls `f(q)` for each body proxy q whose box minimum along the axis of the last
    /// [`sort`](Self::sort) lies in `[lo, hi]`, in list order: two ends found by binary
    /// search, so a query costs the window, not the list.
    #[inline]
    pub fn bodies_starting_in(&self, lo: f32, hi: f32, mut f: impl FnMut(usize)) {
        let (lo, hi) = (key(lo), key(hi));
        let start = self.list.partition_point(|&(k, _)| k < lo);
        for &(k, q) in &self.list[start..] {
            if k > hi {
                break;
            }
            if (q as usize) < self.bodies {
                f(q as usize);
            }
        }
    }

    /// Writes every proxy's box in list order (for `bodies_overlapping`, until the boxes or
    /// the list change).
    pub fn boxes_in_order(&mut self) {
        self.in_order.clear();
        let boxes = &self.boxes;
        self.in_order.extend(self.list.iter().map(|&(_, q)| boxes[q as usize]));
    }

    /// [`bodies_starting_in`](Self::bodies_starting_in) for `window`'s extent along the axis
    /// (its low end less `reach`), calling `f(q)` only for the bodies whose box overlaps
    /// `window` ([`Aabb::overlaps`]), tested on the boxes in list order where
    /// `boxes_in_order` wrote them since the boxes and the list last changed (else on each
    /// body's box where it lies): the window's scan reads them in a row (a query's window
    /// over a tall pile holds whole columns).
    #[inline]
    pub fn bodies_overlapping(&self, window: &Aabb, reach: f32, mut f: impl FnMut(usize)) {
        let axis = self.axis;
        if self.in_order.len() != self.list.len() {
            // (Not written since the list last changed: each body's box read where it lies.)
            let (lo, hi) = (coord(window.min, axis) - reach, coord(window.max, axis));
            return self.bodies_starting_in(lo, hi, |q| {
                if window.overlaps(&self.boxes[q]) {
                    f(q)
                }
            });
        }
        let (lo, hi) = (key(coord(window.min, axis) - reach), key(coord(window.max, axis)));
        let start = self.list.partition_point(|&(k, _)| k < lo);
        for (&(k, q), b) in self.list[start..].iter().zip(&self.in_order[start..]) {
            if k > hi {
                break;
            }
            if (q as usize) < self.bodies && window.overlaps(b) {
                f(q as usize);
            }
        }
    }

    /// Re-sorts the list after boxes changed: picks the axis of largest spread of the box
    /// centres (kept with fewer than two proxies), refreshes the keys and re-sorts (an
    /// insertion sort, near-linear on a nearly sorted list; from scratch when the axis or
    /// the proxy count changed).
    pub fn sort(&mut self) {
        // (Room for `boxes_in_order` made in every sort: the first step sorts the whole list
        // before any body can escape, so the first step whose bodies escape does not allocate.)
        self.in_order.clear();
        self.in_order.reserve(self.boxes.len());
        let n = self.boxes.len();
        let mut axis = self.axis;
        if n > 1 {
            let mut mean = Vec3::ZERO;
            let mut sq = Vec3::ZERO;
            for b in &self.boxes {
                let c = 0.5 * (b.min + b.max);
                mean += c;
                sq += c * c;
            }
            let var = sq / n as f32 - (mean / n as f32) * (mean / n as f32);
            axis = if var.x >= var.y && var.x >= var.z {
                0
            } else if var.y >= var.z {
                1
            } else {
                2
            };
        }
        let boxes = &self.boxes;
        if self.list.len() != n || axis != self.axis {
            self.axis = axis;
            self.list.clear();
            self.list.extend(boxes.iter().enumerate().map(|(p, b)| (key(coord(b.min, axis)), p as u32)));
            self.list.sort_unstable();
            self.resets += 1;
            return;
        }
        // One loop per axis, so the coordinate is not chosen per entry.
        let list = &mut self.list[..];
        match axis {
            0 => resort(list, boxes, |b| b.min.x),
            1 => resort(list, boxes, |b| b.min.y),
            _ => resort(list, boxes, |b| b.min.z),
        }
    }

    /// Sweeps the sorted list: for every pair of proxies of the pass's kinds whose boxes
    /// overlap, calls `f(a, b)` (proxy indices, `a`'s entry first in the list); stops when
    /// `f` returns false or after `max_tests` box tests of the pass's kinds.
    #[inline]
    pub fn sweep(&self, pass: Pass, max_tests: usize, mut f: impl FnMut(usize, usize) -> bool) {
        let nb = self.bodies as u32;
        let (boxes, list, axis) = (&self.boxes, &self.list, self.axis);
        let mut tests = 0usize;
        for k in 0..list.len() {
            let a = list[k].1;
            let a_seg = a >= nb;
            if pass == Pass::Ropes && !a_seg {
                continue;
            }
            let ba = &boxes[a as usize];
            let top = key(coord(ba.max, axis));
            for &(lo, b) in &list[k + 1..] {
                if lo > top {
                    break;
                }
                let b_seg = b >= nb;
                let wanted = match pass {
                    Pass::Ropes => b_seg,
                    Pass::Bodies => !(a_seg && b_seg),
                };
                if !wanted {
                    continue;
                }
                tests += 1;
                if tests > max_tests {
                    return;
                }
                if ba.overlaps(&boxes[b as usize]) && !f(a as usize, b as usize) {
                    return;
                }
            }
        }
    }

    /// The rope pass: rewrites the segments' boxes (`segment_box` with `params`: swept over
    /// `prev` → `pos` when `params.swept`), re-sorts the list and writes into `out` the
    /// candidate segment pairs `[i, j]` (i < j, sorted) whose boxes overlap and which
    /// [`pair_allowed`] accepts. `rope[k]` is the rope of segment k. A clump denser than
    /// `limits::MAX_ROPE_BOX_TESTS` box tests or `MAX_ROPE_PAIRS` pairs is cut there (the
    /// rest pass through rather than make the step quadratic).
    pub fn rope_pairs(
        &mut self,
        pos: &[Vec3],
        prev: &[Vec3],
        segs: &[[u32; 2]],
        rope: &[u32],
        params: &BroadPhaseParams,
        out: &mut Vec<[u32; 2]>,
    ) {
        assert_eq!(rope.len(), segs.len(), "one rope id per segment");
        self.set_segments(segs.len());
        let (_, seg_boxes) = self.boxes_mut();
        for (b, &s) in seg_boxes.iter_mut().zip(segs) {
            *b = segment_box(pos, prev, s, params.expand, params.swept);
        }
        self.sort();
        out.clear();
        let nb = self.bodies;
        self.sweep(Pass::Ropes, MAX_ROPE_BOX_TESTS, |a, b| {
            let (i, j) = (a - nb, b - nb);
            if pair_allowed(i, j, segs, rope, params.self_gap) {
                out.push(if i < j { [i as u32, j as u32] } else { [j as u32, i as u32] });
            }
            out.len() < MAX_ROPE_PAIRS
        });
        out.sort_unstable();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The window query finds the bodies whose box overlaps the window and starts within
    /// its reach along the axis, the same with the boxes in list order and without them
    /// (written, or emptied by a change to the boxes), and never a segment.
    #[test]
    fn window_queries_find_the_overlapping_bodies_in_order_or_not() {
        let mut rng = crate::leash::Rng::new(3);
        let mut f = |lo: f32, hi: f32| rng.range(lo, hi);
        let mut broad = BroadPhase::new();
        broad.set_bodies(200);
        broad.set_segments(20);
        let random_box = |f: &mut dyn FnMut(f32, f32) -> f32| {
            let c = Vec3::new(f(-10.0, 10.0), f(-3.0, 3.0), f(-0.5, 0.5));
            let e = Vec3::new(f(0.05, 0.6), f(0.05, 0.6), f(0.05, 0.6));
            Aabb { min: c - e, max: c + e }
        };
        let boxes: Vec<Aabb> = (0..220).map(|_| random_box(&mut f)).collect();
        let (bodies, segments) = broad.boxes_mut();
        bodies.copy_from_slice(&boxes[..200]);
        segments.copy_from_slice(&boxes[200..]);
        broad.sort();
        let axis = broad.axis();
        for _ in 0..200 {
            let window = random_box(&mut f);
            let reach = f(0.0, 1.5);
            let mut want: Vec<usize> = (0..200)
                .filter(|&q| {
                    window.overlaps(&boxes[q]) && key(coord(boxes[q].min, axis)) >= key(coord(window.min, axis) - reach)
                })
                .collect();
            want.sort_unstable();
            let found = |broad: &BroadPhase| {
                let mut got = Vec::new();
                broad.bodies_overlapping(&window, reach, |q| got.push(q));
                got.sort_unstable();
                got
            };
            assert_eq!(found(&broad), want, "without the boxes in list order");
            broad.boxes_in_order();
            assert_eq!(found(&broad), want, "with them");
            let _ = broad.boxes_mut();
            assert_eq!(found(&broad), want, "after a change to the boxes emptied them");
        }
    }

    #[test]
    fn keys_order_as_the_coordinates_do() {
        let xs = [
            f32::NEG_INFINITY,
            -3.0e38,
            -7.25,
            -1.0,
            -f32::MIN_POSITIVE,
            -1e-45,
            0.0,
            1e-45,
            f32::MIN_POSITIVE,
            1.0,
            1.5,
            3.0e38,
            f32::INFINITY,
        ];
        for (i, &x) in xs.iter().enumerate() {
            for (j, &y) in xs.iter().enumerate() {
                assert_eq!(key(x).cmp(&key(y)), i.cmp(&j), "{x} vs {y}");
            }
        }
        // −0 is +0 (the sweep's closed intervals touch there); a NaN lies beyond one end or
        // the other (which one its sign bit says, and arithmetic need not keep that).
        assert_eq!(key(-0.0), key(0.0));
        for nan in [f32::NAN, -f32::NAN] {
            assert!(key(nan) > key(f32::INFINITY) || key(nan) < key(f32::NEG_INFINITY));
        }
    }
}
