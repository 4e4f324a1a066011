// @ts-check
// Links and points on the canvas, for every scene but the leash from above: the geometry the
// page (render.js) and <rope-lab> (embed-draw.js) share. Each caller strokes and fills the
// paths in its own style (the page: six stretch tints, hover rings; an embed: three tints).
//
// `pos` is a view or a copy of `sim.positions()`, `yOff` the coordinate that is the view's
// vertical axis (1 side view, 2 top view); nothing here calls into the sim.

/** @import { Rect } from './types.js' */
/** @import { Camera } from './camera.js' */

import { FLAG_HELD, FLAG_LOCKED } from './flags.js';

/**
 * One path per bucket of links (`bucket(k)` for link k), built through `cam`; links to points
 * that do not exist (yet) are skipped. Buckets without links have no path.
 * @param {Camera} cam
 * @param {ArrayLike<number>} pos
 * @param {ArrayLike<number>} links pairs of point indices
 * @param {number} yOff
 * @param {(k: number) => number} bucket
 * @returns {(Path2D | undefined)[]}
 */
export function linkPaths(cam, pos, links, yOff, bucket) {
  const n = (pos.length / 3) | 0;
  /** @type {(Path2D | undefined)[]} */
  const paths = [];
  for (let k = 0; 2 * k + 1 < links.length; k++) {
    const a = links[2 * k], b = links[2 * k + 1];
    if (a >= n || b >= n) continue;
    const p = (paths[bucket(k)] ??= new Path2D());
    p.moveTo(cam.ox + pos[3 * a] * cam.scale, cam.oy - cam.ys * pos[3 * a + yOff] * cam.scale);
    p.lineTo(cam.ox + pos[3 * b] * cam.scale, cam.oy - cam.ys * pos[3 * b + yOff] * cam.scale);
  }
  return paths;
}

/**
 * The points inside `R` (give or take `margin` CSS px) as dots of radius `r`, free and locked
 * apart, and a halo of radius `halo` around each held one; `held`: how many are held.
 * @param {Camera} cam
 * @param {ArrayLike<number>} pos
 * @param {ArrayLike<number>} flags `sim.pointFlags()`
 * @param {number} yOff
 * @param {Rect} R
 * @param {number} r
 * @param {number} halo
 * @param {number} margin
 */
export function pointPaths(cam, pos, flags, yOff, R, r, halo, margin) {
  const n = (pos.length / 3) | 0;
  const out = { free: new Path2D(), locked: new Path2D(), halo: new Path2D(), held: 0 };
  for (let i = 0; i < n; i++) {
    const x = cam.ox + pos[3 * i] * cam.scale, y = cam.oy - cam.ys * pos[3 * i + yOff] * cam.scale;
    if (x < R.x - margin || y < R.y - margin || x > R.x + R.w + margin || y > R.y + R.h + margin) continue;
    const f = i < flags.length ? flags[i] : 0;
    if (f & FLAG_HELD) {
      out.halo.moveTo(x + halo, y);
      out.halo.arc(x, y, halo, 0, 2 * Math.PI);
      out.held++;
    }
    const p = f & FLAG_LOCKED ? out.locked : out.free;
    p.moveTo(x + r, y);
    p.arc(x, y, r, 0, 2 * Math.PI);
  }
  return out;
}
