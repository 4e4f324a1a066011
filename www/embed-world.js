// @ts-check
// <rope-lab>'s drawing of every scene but the leash from above (embed-draw.js calls it): links
// tinted by stretch, joints and bodies (through embed-bodies.js), points, interpolated `frac`
// of the way between the last two steps. Every sim call comes before the views of wasm memory
// are built. The package ships it as its own file, loaded with such a scene.

/** @import { RopeLab, View } from './rope-lab.js' */

import { FLAG_HELD } from './flags.js';
import { linkPaths, pointPaths } from './points.js';

/**
 * Links, joints, bodies and points (every scene but the leash from above).
 * @param {RopeLab} el
 * @param {View} v
 * @param {number} frac
 * @param {(...a: Parameters<typeof import('./embed-bodies.js').drawBodies>) => void} drawBodies the bodies' outlines (embed-bodies.js, loaded by embed-draw.js)
 */
export function drawWorld(el, v, frac, drawBodies) {
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

  if (poses) drawBodies(ctx, c, bodies, joints, poses);

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
