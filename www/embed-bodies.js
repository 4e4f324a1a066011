// @ts-check
// <rope-lab>'s joints and bodies (embed-draw.js): a line between each joint's anchors, each
// body's outline (a sphere's circle with a radius line, the hull of a box's corners, a
// capsule's stadium), seen from the side or from above as the view's camera says. Its own file
// in the package, loaded with the full build (the lite one has no bodies): an embed of a rope
// scene loads none of it. (The page draws bodies with bodies.js: joints' axes, limits and
// forces, which an embed leaves out.)

/** @import { Camera } from './camera.js' */

/**
 * Rotates v by the unit quaternion q = [x, y, z, w] (q at offset `o`).
 * @param {ArrayLike<number>} q
 * @param {number} o
 * @param {number[]} v
 */
function rotate(q, o, v) {
  const x = q[o], y = q[o + 1], z = q[o + 2], w = q[o + 3];
  const cx = y * v[2] - z * v[1], cy = z * v[0] - x * v[2], cz = x * v[1] - y * v[0];
  return [
    v[0] + 2 * (w * cx + y * cz - z * cy),
    v[1] + 2 * (w * cy + z * cx - x * cz),
    v[2] + 2 * (w * cz + x * cy - y * cx),
  ];
}

/**
 * Convex hull (monotone chain) of screen points.
 * @param {number[][]} pts
 */
function hull(pts) {
  const p = pts.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (/** @type {number[]} */ o, /** @type {number[]} */ a, /** @type {number[]} */ b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  /** @type {number[][]} */
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

/**
 * @param {CanvasRenderingContext2D} ctx
 * @param {Camera} c the view's camera
 * @param {any[]} bodies `bodiesJson()`
 * @param {any[]} joints `jointsJson()`
 * @param {Float32Array} poses a copy of `bodyPoses()` (7 floats per body)
 */
export function drawBodies(ctx, c, bodies, joints, poses) {
  const k = c.ys < 0 ? 2 : 1;
  const X = (/** @type {number} */ x) => c.ox + x * c.scale;
  const Y = (/** @type {number} */ y) => c.oy - c.ys * y * c.scale;
  // Joints: a line where the two anchors are apart (distance and rope joints, a drag).
  ctx.strokeStyle = '#7ad0ff';
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (const j of joints) {
    ctx.moveTo(X(j.anchorA[0]), Y(j.anchorA[k]));
    ctx.lineTo(X(j.anchorB[0]), Y(j.anchorB[k]));
  }
  ctx.stroke();

  // Bodies: outlines of their shapes (the hull of a box's corners, a capsule's stadium).
  for (let i = 0; i < bodies.length && 7 * i + 6 < poses.length; i++) {
    const b = bodies[i], s = b.shape, o = 7 * i;
    const px = X(poses[o]), py = Y(poses[o + k]);
    ctx.strokeStyle = b.kind === 'static' ? '#8a8a8a' : '#e8c872';
    ctx.fillStyle = b.kind === 'static' ? 'rgba(138,138,138,0.12)' : 'rgba(232,200,114,0.12)';
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    if (s.type === 'sphere') {
      const r = s.radius * c.scale;
      const e = rotate(poses, o + 3, [s.radius, 0, 0]);
      ctx.arc(px, py, r, 0, 7);
      ctx.moveTo(px, py);
      ctx.lineTo(px + e[0] * c.scale, py - c.ys * e[k] * c.scale);
    } else {
      /** @type {number[][]} */
      const pts = [];
      const corners = s.type === 'box' ? [s.half[0], s.half[1], s.half[2]] : [s.halfLength, 0, 0];
      const ring = s.type === 'box' ? [[1, 1], [1, -1], [-1, -1], [-1, 1]] : [];
      for (const sx of [-1, 1]) {
        if (s.type === 'box') {
          for (const [sy, sz] of ring) {
            const q = rotate(poses, o + 3, [sx * corners[0], sy * corners[1], sz * corners[2]]);
            pts.push([px + q[0] * c.scale, py - c.ys * q[k] * c.scale]);
          }
        } else {
          const q = rotate(poses, o + 3, [sx * corners[0], 0, 0]);
          for (let a = 0; a < 12; a++) {
            const t = (a / 12) * 2 * Math.PI;
            pts.push([px + q[0] * c.scale + Math.cos(t) * s.radius * c.scale, py - c.ys * q[k] * c.scale + Math.sin(t) * s.radius * c.scale]);
          }
        }
      }
      hull(pts).forEach(([x, y], j) => (j ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
      ctx.closePath();
    }
    ctx.fill();
    ctx.stroke();
  }
}
