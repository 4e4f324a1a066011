// @ts-check
// <rope-lab>'s layout (rope-lab.js calls these): the canvas sized to the box, one region per
// view, and the views zoomed together.

/** @typedef {import('./rope-lab.js').RopeLab} RopeLab */
import { at } from './embed-input.js';

/**
 * Sizes the canvas to the element's box at the screen's pixel ratio (when either changed).
 * @param {RopeLab} el
 */
export function resizeCanvas(el) {
  const dpr = window.devicePixelRatio || 1;
  const w = el.clientWidth || 300, h = el.clientHeight || 150;
  if (w === el.cssW && h === el.cssH && dpr === el.dpr) return;
  [el.cssW, el.cssH, el.dpr] = [w, h, dpr];
  el.canvas.width = Math.round(w * dpr);
  el.canvas.height = Math.round(h * dpr);
  el.layout();
  el.dirty = true;
  el.schedule();
}

/**
 * Splits the box into one region per view, in the grid (columns × rows) that shows the scene
 * largest, and fits each. Every view keeps at least the width of the scene the embed shows
 * alone (a scene framed by its height only would otherwise be cropped to a narrow column,
 * the wrecking ball swinging out of it); more columns win a tie.
 * @param {RopeLab} el
 */
export function layoutViews(el) {
  const n = Math.max(el.views.length, 1);
  const W = el.cssW, H = el.cssH;
  for (const v of el.views) v.cam.frame.minWidth = v.minWidth || (v.cam.frame.height * W) / H;
  const fit = (/** @type {number} */ cols) => Math.min(...el.views.map(({ cam: { frame: f } }) => Math.min(H / Math.ceil(n / cols) / f.height, W / cols / f.minWidth)));
  let cols = n;
  for (let c = n - 1; c >= 1; c--) if (fit(c) > fit(cols) * 1.001) cols = c;
  const w = W / cols, h = H / Math.ceil(n / cols);
  el.views.forEach((v, k) => {
    v.rect = { x: (k % cols) * w, y: Math.floor(k / cols) * h, w, h };
    v.cam.setViewport(v.rect.x, v.rect.y, w, h);
  });
}

/**
 * Zooms every view by `f` (0: back to the scene's frame) about the CSS point (px, py) of the
 * view under it: the same spot of every view stays put (the pointer's, else the centre).
 * @param {RopeLab} el
 * @param {number} f
 * @param {number} [px]
 * @param {number} [py]
 */
export function zoomViews(el, f, px, py) {
  const under = px == null || py == null ? null : at(el, px, py).v;
  for (const v of el.views) {
    if (f === 0) v.cam.resetView();
    else v.cam.zoomAt(v.rect.x + (under && px != null ? px - under.rect.x : v.rect.w / 2), v.rect.y + (under && py != null ? py - under.rect.y : v.rect.h / 2), f);
  }
  el.dirty = true;
  el.schedule();
}
