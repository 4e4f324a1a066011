//! Structure the solvers derive from the link graph, cached and rebuilt only when the
//! links change (`Links::version`) or which particles are anchors or pinned changes
//! (`Particles::version`). Rebuilding allocates; a step with unchanged topology does not.
//!
//! - **Adjacency** (compressed rows): each particle's (neighbour, link) pairs.
//! - **Edge colouring** for Gauss–Seidel: a greedy colouring in which no two links of one
//!   colour share a particle, and the links sorted by colour. For a chain it is the
//!   even/odd split. Links of one colour are independent, so a sweep colour by colour has
//!   no chain of dependencies within a colour (the loop can overlap or vectorise them,
//!   and a parallel build could split them across threads).
//! - **Bending triples** (a, m, b) at every particle m joined by exactly two links.
//! - **Spanning forest** for the direct solver: a breadth-first search from the centre of
//!   each connected component gives each reached particle a parent link; links that close
//!   a loop are listed apart (the direct solver relaxes them iteratively).
//! - **Tethers**: a multi-source shortest-path search (Dijkstra over rest lengths) from
//!   every anchor (inverse mass 0: locked or held) gives each free particle its nearest
//!   anchor and the path's rest length.
//! - **Pins**: the particles with a pin.

// Rebuilds walk several parallel per-particle and per-link arrays by index.
#![allow(clippy::needless_range_loop)]

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use crate::constraints::tether::Tether;
use crate::links::Links;
use crate::particles::Particles;

/// "No such slot or particle."
pub const NONE: u32 = u32::MAX;
/// `tree_shape` bit: the slot's child particle has exactly one child link.
pub const SINGLE_CHILD: u8 = 1;
/// `tree_shape` bit: the slot's child particle has two or more child links.
pub const MANY_CHILDREN: u8 = 2;
/// `tree_shape` bit: the slot is its parent particle's only child link.
pub const ONLY_CHILD: u8 = 4;

#[derive(Clone, Debug, Default)]
pub struct Topology {
    valid_links: bool,
    valid_particles: bool,
    links_version: u64,
    particles_version: u64,
    n_particles: usize,
    n_links: usize,
    /// Adjacency rows: `adj[adj_start[i]..adj_start[i + 1]]` = (neighbour, link).
    pub adj_start: Vec<u32>,
    pub adj: Vec<(u32, u32)>,
    /// Link indices sorted by colour; colour c is `colour_order[colour_start[c]..colour_start[c+1]]`.
    pub colour_order: Vec<u32>,
    pub colour_start: Vec<u32>,
    /// Bending triples (a, m, b).
    pub bends: Vec<[u32; 3]>,
    /// Spanning forest in breadth-first order: entry j is the link `tree_link[j]` from
    /// `tree_parent[j]` (nearer the root) to `tree_child[j]`. Parents come before children.
    pub tree_child: Vec<u32>,
    pub tree_parent: Vec<u32>,
    pub tree_link: Vec<u32>,
    /// For forest slot j: the slot of the link above its parent particle (`NONE` at a root).
    pub tree_up: Vec<u32>,
    /// Per particle: its child links are the consecutive forest slots
    /// `child_start[p] .. child_start[p] + child_count[p]` (breadth-first order lists a
    /// particle's children together).
    pub child_start: Vec<u32>,
    pub child_count: Vec<u32>,
    /// Per forest slot: `SINGLE_CHILD` | `MANY_CHILDREN` | `ONLY_CHILD` bits.
    pub tree_shape: Vec<u8>,
    /// The forest's trees as ranges of slots (each tree's slots are consecutive).
    pub tree_ranges: Vec<(u32, u32)>,
    /// Links that close a loop (not in the spanning forest).
    pub loop_links: Vec<u32>,
    /// Tethers from free particles to their nearest anchor (by path rest length).
    pub tethers: Vec<Tether>,
    /// Particles with a pin.
    pub pins: Vec<u32>,
    // Rebuild buffers, kept to avoid reallocating on every topology change.
    dist: Vec<f32>,
    heap: BinaryHeap<HeapItem>,
    queue: Vec<u32>,
    visited: Vec<bool>,
    link_seen: Vec<bool>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct HeapItem {
    dist: f32,
    node: u32,
    anchor: u32,
}

impl Eq for HeapItem {}

impl Ord for HeapItem {
    fn cmp(&self, other: &Self) -> Ordering {
        // Min-heap on distance; ties broken by node index for determinism.
        other.dist.total_cmp(&self.dist).then_with(|| other.node.cmp(&self.node))
    }
}

impl PartialOrd for HeapItem {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Topology {
    /// Brings the cache up to date with `particles` and `links`; returns whether anything
    /// was rebuilt.
    pub fn refresh(&mut self, particles: &Particles, links: &Links) -> bool {
        let n = particles.len();
        let m = links.len();
        let links_stale =
            !self.valid_links || self.links_version != links.version || self.n_links != m || self.n_particles != n;
        if links_stale {
            self.rebuild_links(particles, links);
        }
        let particles_stale = links_stale || !self.valid_particles || self.particles_version != particles.version;
        if particles_stale {
            self.rebuild_particles(particles, links);
        }
        links_stale || particles_stale
    }

    fn rebuild_links(&mut self, particles: &Particles, links: &Links) {
        let n = particles.len();
        let m = links.len();
        // Adjacency (links with an out-of-range end are ignored: they cannot be solved).
        let valid = |k: usize| {
            let [a, b] = links.ends[k];
            (a as usize) < n && (b as usize) < n && a != b
        };
        self.adj_start.clear();
        self.adj_start.resize(n + 1, 0);
        for k in 0..m {
            if valid(k) {
                let [a, b] = links.ends[k];
                self.adj_start[a as usize + 1] += 1;
                self.adj_start[b as usize + 1] += 1;
            }
        }
        for i in 0..n {
            self.adj_start[i + 1] += self.adj_start[i];
        }
        self.adj.clear();
        self.adj.resize(self.adj_start[n] as usize, (0, 0));
        let mut fill: Vec<u32> = self.adj_start[..n].to_vec();
        for k in 0..m {
            if valid(k) {
                let [a, b] = links.ends[k];
                self.adj[fill[a as usize] as usize] = (b, k as u32);
                fill[a as usize] += 1;
                self.adj[fill[b as usize] as usize] = (a, k as u32);
                fill[b as usize] += 1;
            }
        }

        // Greedy edge colouring: smallest colour free at both ends (64 tracked per
        // particle; beyond that, links share the last colour, still a valid sweep order).
        let mut mask = vec![0u64; n];
        let mut colour = vec![0u8; m];
        let mut counts = [0u32; 64];
        for k in 0..m {
            if !valid(k) {
                colour[k] = 63;
                counts[63] += 1;
                continue;
            }
            let [a, b] = links.ends[k];
            let used = mask[a as usize] | mask[b as usize];
            let c = (!used).trailing_zeros().min(63) as u8;
            colour[k] = c;
            counts[c as usize] += 1;
            mask[a as usize] |= 1 << c;
            mask[b as usize] |= 1 << c;
        }
        let used_colours = counts.iter().rposition(|&c| c > 0).map_or(0, |c| c + 1);
        self.colour_start.clear();
        self.colour_start.push(0);
        for c in 0..used_colours {
            let last = *self.colour_start.last().unwrap();
            self.colour_start.push(last + counts[c]);
        }
        self.colour_order.clear();
        self.colour_order.resize(m, 0);
        let mut next: Vec<u32> = self.colour_start.clone();
        for k in 0..m {
            let c = colour[k] as usize;
            self.colour_order[next[c] as usize] = k as u32;
            next[c] += 1;
        }

        // Bending triples at particles with exactly two links.
        self.bends.clear();
        for i in 0..n {
            let row = &self.adj[self.adj_start[i] as usize..self.adj_start[i + 1] as usize];
            if row.len() == 2 && row[0].0 != row[1].0 {
                self.bends.push([row[0].0, i as u32, row[1].0]);
            }
        }

        // Spanning forest by breadth-first search, anchors first as roots.
        self.tree_child.clear();
        self.tree_parent.clear();
        self.tree_link.clear();
        self.tree_up.clear();
        self.tree_ranges.clear();
        self.loop_links.clear();
        self.child_start.clear();
        self.child_start.resize(n, 0);
        self.child_count.clear();
        self.child_count.resize(n, 0);
        let mut up_slot = vec![NONE; n];
        self.visited.clear();
        self.visited.resize(n, false);
        self.link_seen.clear();
        self.link_seen.resize(m, false);
        for start in 0..n {
            if self.visited[start] {
                continue;
            }
            // Root each tree at its centre (the middle of a longest path, found by two
            // breadth-first searches): a chain then splits into two halves that the
            // breadth-first order interleaves, so the direct solver's leaves-first
            // elimination runs two independent dependency chains side by side.
            let far = self.farthest(start, &mut up_slot);
            self.clear_component(&mut up_slot);
            let far2 = self.farthest(far, &mut up_slot);
            // `up_slot` now holds BFS parents from `far`; walk half the path back.
            let mut path_len = 0;
            let mut p = far2;
            while p != far {
                p = up_slot[p] as usize;
                path_len += 1;
            }
            let mut root = far2;
            for _ in 0..path_len / 2 {
                root = up_slot[root] as usize;
            }
            self.clear_component(&mut up_slot);
            let first = self.tree_link.len() as u32;
            self.grow_tree(root, &mut up_slot);
            let end = self.tree_link.len() as u32;
            if end > first {
                self.tree_ranges.push((first, end));
            }
        }
        self.tree_shape.clear();
        for j in 0..self.tree_link.len() {
            let (p, c) = (self.tree_parent[j] as usize, self.tree_child[j] as usize);
            let mut shape = match self.child_count[c] {
                0 => 0,
                1 => SINGLE_CHILD,
                _ => MANY_CHILDREN,
            };
            if self.child_count[p] == 1 {
                shape |= ONLY_CHILD;
            }
            self.tree_shape.push(shape);
        }
        self.valid_links = true;
        self.links_version = links.version;
        self.n_links = m;
        self.n_particles = n;
    }

    /// Breadth-first search from `start` over its component; `parent` must be `NONE` for
    /// the component's particles on entry and holds each one's BFS parent on exit (the
    /// component is left in `queue`). Returns the last particle reached (a farthest one).
    fn farthest(&mut self, start: usize, parent: &mut [u32]) -> usize {
        self.queue.clear();
        self.queue.push(start as u32);
        parent[start] = start as u32;
        let mut head = 0;
        while head < self.queue.len() {
            let p = self.queue[head] as usize;
            head += 1;
            for idx in self.adj_start[p] as usize..self.adj_start[p + 1] as usize {
                let q = self.adj[idx].0 as usize;
                if parent[q] == NONE {
                    parent[q] = p as u32;
                    self.queue.push(q as u32);
                }
            }
        }
        *self.queue.last().unwrap() as usize
    }

    /// Resets `parent` to `NONE` over the component left in `queue`.
    fn clear_component(&self, parent: &mut [u32]) {
        for &q in &self.queue {
            parent[q as usize] = NONE;
        }
    }

    /// Breadth-first spanning tree of `root`'s component, appending forest slots.
    fn grow_tree(&mut self, root: usize, up_slot: &mut [u32]) {
        self.visited[root] = true;
        self.queue.clear();
        self.queue.push(root as u32);
        let mut head = 0;
        while head < self.queue.len() {
            let p = self.queue[head] as usize;
            head += 1;
            self.child_start[p] = self.tree_link.len() as u32;
            for idx in self.adj_start[p] as usize..self.adj_start[p + 1] as usize {
                let (q, k) = self.adj[idx];
                if self.link_seen[k as usize] {
                    continue;
                }
                self.link_seen[k as usize] = true;
                if self.visited[q as usize] {
                    self.loop_links.push(k);
                } else {
                    self.visited[q as usize] = true;
                    self.queue.push(q);
                    up_slot[q as usize] = self.tree_link.len() as u32;
                    self.tree_up.push(up_slot[p]);
                    self.child_count[p] += 1;
                    self.tree_parent.push(p as u32);
                    self.tree_child.push(q);
                    self.tree_link.push(k);
                }
            }
        }
    }

    fn rebuild_particles(&mut self, particles: &Particles, links: &Links) {
        let n = particles.len();
        // Tethers: Dijkstra from all anchors at once.
        self.tethers.clear();
        self.dist.clear();
        self.dist.resize(n, f32::INFINITY);
        self.heap.clear();
        let mut anchor_of = vec![NONE; n];
        for i in 0..n {
            if particles.inv_mass[i] == 0.0 && self.adj_start[i + 1] > self.adj_start[i] {
                self.dist[i] = 0.0;
                anchor_of[i] = i as u32;
                self.heap.push(HeapItem { dist: 0.0, node: i as u32, anchor: i as u32 });
            }
        }
        while let Some(HeapItem { dist, node, anchor }) = self.heap.pop() {
            let p = node as usize;
            if dist > self.dist[p] {
                continue;
            }
            for idx in self.adj_start[p] as usize..self.adj_start[p + 1] as usize {
                let (q, k) = self.adj[idx];
                let nd = dist + links.rest[k as usize];
                if nd < self.dist[q as usize] {
                    self.dist[q as usize] = nd;
                    anchor_of[q as usize] = anchor;
                    self.heap.push(HeapItem { dist: nd, node: q, anchor });
                }
            }
        }
        for i in 0..n {
            if particles.inv_mass[i] != 0.0 && anchor_of[i] != NONE {
                self.tethers.push(Tether { i: i as u32, anchor: anchor_of[i], len: self.dist[i] });
            }
        }
        // Pins.
        self.pins.clear();
        self.pins.extend((0..n).filter(|&i| particles.is_pinned(i)).map(|i| i as u32));

        self.valid_particles = true;
        self.particles_version = particles.version;
    }

    /// Number of links touching particle `i`.
    #[inline]
    pub fn degree(&self, i: usize) -> u32 {
        self.adj_start[i + 1] - self.adj_start[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::links::LinkDef;
    use crate::particles::ParticleDef;
    use glam::Vec3;

    fn chain(n: usize) -> (Particles, Links) {
        let mut p = Particles::default();
        let mut l = Links::default();
        for i in 0..n {
            p.push(&ParticleDef { pos: Vec3::X * i as f32, locked: i == 0, ..Default::default() }, 1.0 / 60.0);
        }
        for i in 0..n - 1 {
            l.push(&LinkDef { a: i as u32, b: i as u32 + 1, ..Default::default() }, 1.0);
        }
        (p, l)
    }

    #[test]
    fn chain_colours_even_odd_and_forms_one_tree() {
        let (p, l) = chain(6);
        let mut t = Topology::default();
        assert!(t.refresh(&p, &l));
        assert!(!t.refresh(&p, &l), "unchanged topology must not rebuild");
        assert_eq!(t.colour_start, vec![0, 3, 5]);
        assert_eq!(t.colour_order, vec![0, 2, 4, 1, 3]);
        assert_eq!(t.bends.len(), 4);
        // Rooted at a middle particle (2 of 0..=5): two branches, interleaved.
        assert_eq!(t.tree_parent[0], 2);
        assert_eq!(t.child_count[2], 2);
        assert_eq!(t.tree_child, vec![1, 3, 0, 4, 5]);
        assert_eq!(t.tree_up, vec![NONE, NONE, 0, 1, 3]);
        assert_eq!((t.child_start[3], t.child_count[3]), (3, 1));
        assert_eq!(t.child_count[5], 0);
        assert!(t.loop_links.is_empty());
        let lens: Vec<f32> = t.tethers.iter().map(|t| t.len).collect();
        assert_eq!(lens, vec![1.0, 2.0, 3.0, 4.0, 5.0]);
    }

    #[test]
    fn loops_are_found_and_colours_are_proper() {
        // A square with a diagonal: 5 links, 4 particles, 2 loop links.
        let mut p = Particles::default();
        let mut l = Links::default();
        for i in 0..4 {
            p.push(&ParticleDef { pos: Vec3::new((i % 2) as f32, (i / 2) as f32, 0.0), ..Default::default() }, 0.1);
        }
        for (a, b) in [(0, 1), (1, 3), (3, 2), (2, 0), (0, 3)] {
            l.push(&LinkDef { a, b, ..Default::default() }, 1.0);
        }
        let mut t = Topology::default();
        t.refresh(&p, &l);
        assert_eq!(t.tree_link.len(), 3);
        assert_eq!(t.loop_links.len(), 2);
        for c in 0..t.colour_start.len() - 1 {
            let ks = &t.colour_order[t.colour_start[c] as usize..t.colour_start[c + 1] as usize];
            let mut seen = std::collections::HashSet::new();
            for &k in ks {
                for e in l.ends[k as usize] {
                    assert!(seen.insert(e), "colour {c} has two links at particle {e}");
                }
            }
        }
        assert!(t.tethers.is_empty(), "no anchors, no tethers");
    }
}
