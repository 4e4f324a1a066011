// @ts-check
// The geometry both body drawings need (the page's bodies.js and <rope-lab>'s
// embed-bodies.js): a quaternion rotation and the outline of a box's projected corners.

/**
 * Rotates v by the unit quaternion q = [x, y, z, w] (q at offset `o`).
 * @param {ArrayLike<number>} q
 * @param {ArrayLike<number>} v
 * @param {number} [o]
 * @returns {[number, number, number]}
 */
export function rotate(q, v, o = 0) {
  const x = q[o], y = q[o + 1], z = q[o + 2], w = q[o + 3];
  // v' = v + 2w (u × v) + 2 u × (u × v), u = (x, y, z)
  const cx = y * v[2] - z * v[1], cy = z * v[0] - x * v[2], cz = x * v[1] - y * v[0];
  return [
    v[0] + 2 * (w * cx + y * cz - z * cy),
    v[1] + 2 * (w * cy + z * cx - x * cz),
    v[2] + 2 * (w * cz + x * cy - y * cx),
  ];
}

/**
 * Convex hull (monotone chain) of screen points: a box's outline from its 8 projected corners.
 * @param {[number, number][]} pts
 * @returns {[number, number][]}
 */
export function hull(pts) {
  const p = pts.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (p.length < 3) return p;
  const cross = (/** @type {number[]} */ o, /** @type {number[]} */ a, /** @type {number[]} */ b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  /** @type {[number, number][]} */
  const out = [];
  for (const pass of [p, p.slice().reverse()]) {
    const start = out.length;
    for (const q of pass) {
      while (out.length >= start + 2 && cross(out[out.length - 2], out[out.length - 1], q) <= 0) out.pop();
      out.push(q);
    }
    out.pop();
  }
  return out;
}
