// @ts-check
// <rope-lab>'s drawing of a view (rope-lab.js): walls and obstacles, then the leash seen from
// above as the page draws it (leash.js, loaded when a leash scene is shown), else links
// (tinted by stretch), joints, bodies (outlines) and points (embed-world.js, loaded for every
// other scene), interpolated `frac` of the way between the last two steps.

/** @import { RopeLab, View } from './rope-lab.js' */

import { drawObstacles } from './obstacles.js';

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
let worldLoad;
/** @type {typeof import('./embed-world.js') | null} links, bodies and points, once loaded */
let worldDrawing = null;
/**
 * The drawing of every scene but the leash from above: the package ships it as its own file
 * (embed-world.js), so that a leash embed, which draws with leash.js, loads none of it.
 */
export const loadWorld = () => (worldLoad ??= import('./embed-world.js').then((m) => (worldDrawing = m)));

/** @param {RopeLab} el */
const redraw = (el) => { el.dirty = true; el.schedule(); };

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

  if (leash && !leashDrawing) loadLeash().then(() => redraw(el));
  // (until it has loaded, the leash is drawn as any other scene)
  if (leash && leashDrawing) v.cross = leashDrawing.drawLeashTop(el, sim, c, { hover: -1 }, v.rect) || [];
  else if (worldDrawing) {
    // Joints and bodies: embed-bodies.js, loaded with the full build (it has the bodies).
    worldDrawing.drawWorld(el, v, frac, (...a) => (bodyDrawing ? bodyDrawing.drawBodies(...a) : void loadBodies().then(() => redraw(el))));
  } else loadWorld().then(() => redraw(el));
  if (el.views.length > 1) {
    ctx.fillStyle = '#aaa';
    ctx.fillText(v.solver + (v.note ? ' (cannot run this scene)' : ''), rx + 8, ry + 16);
    ctx.fillStyle = '#333';
    if (rx > 0) ctx.fillRect(rx, ry, 1, rh);
    if (ry > 0) ctx.fillRect(rx, ry, rw, 1);
  }
  ctx.restore();
}

