// @ts-check
// <rope-lab>'s drawing of a view (rope-lab.js): walls and obstacles, then the leash seen from
// above as the page draws it (leash.js, loaded when a leash scene is shown), else links
// (tinted by stretch), joints, bodies (outlines) and points, interpolated `frac` of the way
// between the last two steps. Every sim call comes before the views of wasm memory are built.

/** @import { RopeLab, View } from './rope-lab.js' */

import { FLAG_HELD } from './flags.js';
import { drawObstacles } from './obstacles.js';
import { linkPaths, pointPaths } from './points.js';

/** @type {Promise<unknown> | undefined} */
let leashLoad;
/** @type {typeof import('./leash.js') | null} the leash's drawing (www/leash.js, the page's), once loaded */
let leashDrawing = null;
/**
 * The leash scene's drawing, loaded once for the page when a leash scene is shown: the package
 * ships it as its own file (leash.js), so an embed of any other scene loads none of its code.
 */
export const loadLeash = () => (leashLoad ??= import('./leash.js').then((m) => (leashDrawing = m)));

/** @type {Promise<unknown> | undefined} */
let bodiesLoad;
/** @type {typeof import('./embed-bodies.js') | null} the bodies' drawing, once loaded */
let bodyDrawing = null;
/** The bodies' drawing, loaded once for the page with the full build (scenes with bodies). */
export const loadBodies = () => (bodiesLoad ??= import('./embed-bodies.js').then((m) => (bodyDrawing = m)));

/**
 * One view of an embed, clipped to its region.
 * @param {RopeLab} el
 * @param {View} v
 * @param {number} frac
 */
export function drawView(el, v, frac) {
  const ctx = el.ctx;
  const sim = v.sim;
  const { x: rx, y: ry, w: rw, h: rh } = v.rect;
  const c = v.cam;
  const k = c.ys < 0 ? 2 : 1;
  const X = (/** @type {number} */ x) => c.ox + x * c.scale;
  const Y = (/** @type {number} */ y) => c.oy - c.ys * y * c.scale;
  // The leash scene seen from above: the page's knot diagram (leash.js), without its side inset.
  const leash = k > 1 && sim.ropeCount > 0 && sim.leash() !== 'null';
  const walls = sim.walls();
  ctx.save();
  ctx.beginPath();
  ctx.rect(rx, ry, rw, rh);
  ctx.clip();
  if (walls.length === 4) {
    ctx.strokeStyle = '#4a4a4a';
    ctx.lineWidth = 2;
    const x0 = X(walls[0]), y0 = Y(walls[3]);
    ctx.strokeRect(x0, y0, X(walls[2]) - x0, Y(walls[1]) - y0);
  }
  drawObstacles(ctx, v.obstacles, c, v.rect, k > 1); // (the page's, obstacles.js)

  if (leash && !leashDrawing) loadLeash().then(() => { el.dirty = true; el.schedule(); });
  // (until it has loaded, the leash is drawn as any other scene)
  if (leash && leashDrawing) v.cross = leashDrawing.drawLeashTop(el, sim, c, { hover: -1 }, v.rect) || [];
  else drawWorld(el, v, frac);
  if (el.views.length > 1) {
    ctx.fillStyle = '#aaa';
    ctx.fillText(v.solver + (v.note ? ' (cannot run this scene)' : ''), rx + 8, ry + 16);
    ctx.fillStyle = '#333';
    if (rx > 0) ctx.fillRect(rx, ry, 1, rh);
    if (ry > 0) ctx.fillRect(rx, ry, rw, 1);
  }
  ctx.restore();
}

/**
 * Links, joints, bodies and points (every scene but the leash from above).
 * @param {RopeLab} el
 * @param {View} v
 * @param {number} frac
 */
export function drawWorld(el, v, frac) {
  const ctx = el.ctx;
  const sim = v.sim;
  const c = v.cam;
  const k = c.ys < 0 ? 2 : 1;
  // Every sim call before the views of wasm memory are built.
  const nb = sim.bodyCount;
  const bodies = nb ? JSON.parse(sim.bodiesJson()) : [];
  const joints = nb ? JSON.parse(sim.jointsJson()) : [];
  if (nb) sim.refillBodyPoses(frac);
  sim.refreshRender();
  const poses = nb ? Float32Array.from(sim.bodyPoses()) : null;
  const now = sim.positions();
  const flags = sim.pointFlags();
  const links = sim.links();
  const strain = sim.linkStrain();
  const pos = v.prev && v.prev.length === now.length && frac < 1 ? v.prev.map((p, i) => p + (now[i] - p) * frac) : now;
  if (pos !== now) for (let i = 0; i < flags.length; i++) if (flags[i] & FLAG_HELD) for (let c = 0; c < 3; c++) pos[3 * i + c] = now[3 * i + c];

  // Links (points.js): neutral, stretched (≥ 3 %), compressed (≤ −3 %): one path each.
  const n = flags.length;
  const paths = linkPaths(c, pos, links, k, (j) => {
    const s = strain[j] ?? 0;
    return s >= 0.03 ? 1 : s <= -0.03 ? 2 : 0;
  });
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  ctx.lineWidth = Math.min(Math.max(2 * Math.sqrt(c.zoom), 1), 4);
  ['#999', '#e39a2e', '#4f7bea'].forEach((c, i) => {
    ctx.strokeStyle = c;
    const p = paths[i];
    if (p) ctx.stroke(p);
  });

  // Joints and bodies: embed-bodies.js, loaded with the full build (it has the bodies).
  if (poses) {
    if (bodyDrawing) bodyDrawing.drawBodies(ctx, c, bodies, joints, poses);
    else loadBodies().then(() => { el.dirty = true; el.schedule(); });
  }

  // Points: free white, locked red, a halo around held ones.
  let typical = 12;
  if (links.length >= 2 && links[0] < n && links[1] < n) typical = Math.hypot(pos[3 * links[0]] - pos[3 * links[1]], pos[3 * links[0] + k] - pos[3 * links[1] + k]) * c.scale;
  const r = Math.min(Math.max(Math.min(3.5 * Math.sqrt(c.zoom), typical / 3), 1.5), 7);
  const dots = pointPaths(c, pos, flags, k, v.rect, r, 16, 20);
  [[dots.free, '#fff'], [dots.locked, '#f55'], [dots.halo, 'rgba(255,255,255,0.15)']].forEach(([p, color]) => {
    ctx.fillStyle = /** @type {string} */ (color);
    ctx.fill(/** @type {Path2D} */ (p));
  });
}
