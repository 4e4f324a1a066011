//! The body forest's search for tree centres (`body_tree::BodyTree::refresh`): the dynamic
//! bodies and their candidate joints as a graph in compressed rows, searched breadth first.

// `NONE`: the end of a joint on the world (no body).
use crate::solver::topology::NONE;

/// The dynamic bodies and their candidate joints (CSR), for the searches that find each
/// tree's centre.
pub(super) struct Graph<'a> {
    pub start: &'a [u32],
    pub adj: &'a [u32],
    pub ends: &'a [(u32, u32)],
    pub inv_mass: &'a [f32],
}

impl Graph<'_> {
    /// The last body a breadth-first search from `first` reaches over dynamic bodies, with
    /// `from` leading back to `first`; `queue` ends up holding the component.
    pub fn farthest(
        &self,
        first: usize,
        stamp: u32,
        queue: &mut Vec<u32>,
        from: &mut [u32],
        seen: &mut [u32],
    ) -> usize {
        queue.clear();
        queue.push(first as u32);
        seen[first] = stamp;
        from[first] = NONE;
        let mut head = 0;
        while head < queue.len() {
            let p = queue[head] as usize;
            head += 1;
            for &k in &self.adj[self.start[p] as usize..self.start[p + 1] as usize] {
                let (a, b) = self.ends[k as usize];
                let o = if a as usize == p { b } else { a };
                if o != NONE && self.inv_mass[o as usize] > 0.0 && seen[o as usize] != stamp {
                    seen[o as usize] = stamp;
                    from[o as usize] = p as u32;
                    queue.push(o);
                }
            }
        }
        queue[queue.len() - 1] as usize
    }
}
