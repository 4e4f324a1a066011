// @ts-check
// <rope-lab>'s joints and bodies (embed-draw.js): a line between each joint's anchors, each
// body's outline (a sphere's circle with a radius line, the hull of a box's corners, a
// capsule's stadium), seen from the side or from above as the view's camera says. Its own file
// in the package, loaded with the full build (the lite one has no bodies): an embed of a rope
// scene loads none of it. (The page draws bodies with bodies.js: joints' axes, limits and
// forces, which an embed leaves out.)

import { hull, rotate } from './bodyshape.js';

/** @import { Camera } from './camera.js' */

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
      const e = rotate(poses, [s.radius, 0, 0], o + 3);
      ctx.arc(px, py, r, 0, 7);
      ctx.moveTo(px, py);
      ctx.lineTo(px + e[0] * c.scale, py - c.ys * e[k] * c.scale);
    } else {
      /** @type {number[][]} */
      /** @type {[number, number][]} */
      const pts = [];
      const corners = s.type === 'box' ? [s.half[0], s.half[1], s.half[2]] : [s.halfLength, 0, 0];
      const ring = s.type === 'box' ? [[1, 1], [1, -1], [-1, -1], [-1, 1]] : [];
      for (const sx of [-1, 1]) {
        if (s.type === 'box') {
          for (const [sy, sz] of ring) {
            const q = rotate(poses, [sx * corners[0], sy * corners[1], sz * corners[2]], o + 3);
            pts.push([px + q[0] * c.scale, py - c.ys * q[k] * c.scale]);
          }
        } else {
          const q = rotate(poses, [sx * corners[0], 0, 0], o + 3);
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
