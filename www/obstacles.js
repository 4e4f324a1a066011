// @ts-check
// Static obstacles (the scene format's `obstacles`, from `sim.obstacles()`), projected to the
// view plane: side view (x, y), top view (x, z). Circles (spheres) and capsules are filled
// with a rim; a capsule whose axis points along the view's normal (the capstan's bollard,
// along z in the side view) projects to a disc. Planes are drawn as a ground line with the
// solid side shaded, except where they are the view plane itself (the ground seen from above:
// the grid already stands for it). Boxes are rotated about z (side view).

/** @import { Obstacle, Rect, Sim, Vec3 } from './types.js' */
/** @import { Camera } from './camera.js' */

const FILL = 'rgba(120,140,160,0.22)';
const RIM = '#8fa3b8';

/** @type {string | null} */
let lastText = null;
/** @type {Obstacle[]} */
let lastParsed = [];

/**
 * The obstacles as parsed JSON (the last string is cached: the list rarely changes).
 * @param {Sim} sim
 * @returns {Obstacle[]}
 */
export function obstaclesOf(sim) {
  const text = sim.obstacles();
  if (text !== lastText) {
    lastText = text;
    try {
      lastParsed = JSON.parse(text) ?? [];
    } catch {
      lastParsed = [];
    }
  }
  return lastParsed;
}

/**
 * Draws `list` (from `obstaclesOf`) through `cam` inside rectangle `R` (CSS px).
 * `top`: the view plane is x–z (else x–y).
 * @param {CanvasRenderingContext2D} ctx
 * @param {Obstacle[]} list
 * @param {Camera} cam
 * @param {Rect} R
 * @param {boolean} top
 */
export function drawObstacles(ctx, list, cam, R, top) {
  if (!list.length) return;
  /** @type {(v: Vec3) => [number, number]} */
  const P = (v) => (top ? [v[0], v[2]] : [v[0], v[1]]); // 3D → view plane
  const S = (/** @type {Vec3} */ v) => cam.toScreen(...P(v));
  ctx.save();
  ctx.lineWidth = 2;
  ctx.strokeStyle = RIM;
  ctx.fillStyle = FILL;
  for (const o of list) {
    const s = o?.shape;
    if (!s) continue;
    if (s.type === 'circle' || s.type === 'sphere') {
      const [x, y] = S(s.center);
      ctx.beginPath();
      ctx.arc(x, y, s.radius * cam.scale, 0, 2 * Math.PI);
      ctx.fill();
      ctx.stroke();
    } else if (s.type === 'capsule') {
      const [ax, ay] = S(s.a);
      const [bx, by] = S(s.b);
      const r = s.radius * cam.scale;
      const dx = bx - ax, dy = by - ay;
      const len = Math.hypot(dx, dy);
      ctx.beginPath();
      if (len < 0.5) {
        ctx.arc(ax, ay, r, 0, 2 * Math.PI);
      } else {
        const ang = Math.atan2(dy, dx);
        ctx.arc(ax, ay, r, ang + Math.PI / 2, ang + (3 * Math.PI) / 2);
        ctx.arc(bx, by, r, ang - Math.PI / 2, ang + Math.PI / 2);
        ctx.closePath();
      }
      ctx.fill();
      ctx.stroke();
      if (len < 0.5) {
        // An axle seen end-on: a centre mark.
        ctx.beginPath();
        ctx.arc(ax, ay, Math.max(r * 0.15, 1.5), 0, 2 * Math.PI);
        ctx.fillStyle = RIM;
        ctx.fill();
        ctx.fillStyle = FILL;
      }
    } else if (s.type === 'plane') {
      const [nx, ny] = P(s.normal);
      const nl = Math.hypot(nx, ny);
      if (nl < 1e-6) continue; // the view plane itself (ground seen from above)
      const [px, py] = S(s.point);
      // Screen normal (y down; the camera's vertical sign), and the line along it.
      const ux = nx / nl, uy = (-cam.ys * ny) / nl;
      const far = 4 * (R.w + R.h);
      const tx = -uy, ty = ux;
      ctx.beginPath();
      ctx.moveTo(px + tx * far, py + ty * far);
      ctx.lineTo(px - tx * far, py - ty * far);
      ctx.lineTo(px - tx * far - ux * far, py - ty * far - uy * far);
      ctx.lineTo(px + tx * far - ux * far, py + ty * far - uy * far);
      ctx.closePath();
      ctx.fillStyle = 'rgba(120,140,160,0.08)';
      ctx.fill();
      ctx.fillStyle = FILL;
      ctx.beginPath();
      ctx.moveTo(px + tx * far, py + ty * far);
      ctx.lineTo(px - tx * far, py - ty * far);
      ctx.stroke();
    } else if (s.type === 'box' && !top) {
      const [cx, cy] = S(s.center);
      const hx = s.half[0] * cam.scale, hy = s.half[1] * cam.scale;
      ctx.save();
      ctx.translate(cx, cy);
      ctx.rotate(-cam.ys * (s.angle ?? 0));
      ctx.beginPath();
      ctx.rect(-hx, -hy, 2 * hx, 2 * hy);
      ctx.fill();
      ctx.stroke();
      ctx.restore();
    } else if (s.type === 'box' && top) {
      const [cx, cy] = S(s.center);
      const hx = s.half[0] * cam.scale, hz = s.half[2] * cam.scale;
      ctx.beginPath();
      ctx.rect(cx - hx, cy - hz, 2 * hx, 2 * hz);
      ctx.fill();
      ctx.stroke();
    }
  }
  ctx.restore();
}
