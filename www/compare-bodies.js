// @ts-check
// The comparison table's figures for rigid bodies (compare.js), from what the wasm API
// already gives (bodiesJson, jointsJson, the pose buffer): how far the bodies overlap (the
// contacts' penetration, as the view shows it) and how far the joints are from holding (the
// joint error). Max stretch and energy say little about a box stack: these are what its
// solvers differ in.
//
// Overlap: every pair of bodies that may touch (at least one dynamic, not joined by a joint,
// overlapping in depth) is tested in the view plane as two convex outlines (boxes: the hull
// of their projected corners; spheres and capsules: a point or a segment with a radius) by
// separating axes: the edge normals of both outlines and the directions between their
// vertices, which covers the rounded ones. The figure is the largest depth.
// Joint error: ball-socket, hinge, fixed and swing-twist joints hold their two anchors
// together (the gap between them); a prismatic one holds B's anchor on A's axis (the distance
// off it); a distance joint its length or range; a rope joint at most its length. Drag joints
// and angular motors have no error to show.

/** @import { BodyInfo, JointInfo, Sim } from './types.js' */

import { hull, rotate } from './bodyshape.js';

/** @typedef {{ pts: [number, number][], r: number, z0: number, z1: number, x0: number, x1: number, y0: number, y1: number }} Outline */

/**
 * A body's outline in the view plane (x and y, or x and z seen from above).
 * @param {BodyInfo} b
 * @param {ArrayLike<number>} poses
 * @param {number} i
 * @param {number} yOff 1 (side view) or 2 (top view)
 * @returns {Outline}
 */
function outline(b, poses, i, yOff) {
  const o = 7 * i;
  const c = [poses[o], poses[o + 1], poses[o + 2]];
  const zOff = yOff === 1 ? 2 : 1;
  /** @type {(v: number[]) => [number, number, number]} */
  const at = (v) => {
    const w = rotate(poses, v, o + 3);
    return [c[0] + w[0], c[1] + w[1], c[2] + w[2]];
  };
  /** @type {[number, number][]} */
  let pts;
  let r = 0;
  let depth;
  const s = b.shape;
  if (s.type === 'box') {
    /** @type {[number, number, number][]} */
    const corners = [];
    for (let k = 0; k < 8; k++) corners.push(at([k & 1 ? s.half[0] : -s.half[0], k & 2 ? s.half[1] : -s.half[1], k & 4 ? s.half[2] : -s.half[2]]));
    pts = hull(corners.map((p) => [p[0], p[yOff]]));
    const zs = corners.map((p) => p[zOff]);
    depth = [Math.min(...zs), Math.max(...zs)];
  } else {
    r = s.radius;
    const ends = s.type === 'capsule' ? [at([-s.halfLength, 0, 0]), at([s.halfLength, 0, 0])] : [c];
    pts = ends.map((p) => /** @type {[number, number]} */ ([p[0], p[yOff]]));
    const zs = ends.map((p) => p[zOff]);
    depth = [Math.min(...zs) - r, Math.max(...zs) + r];
  }
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  return {
    pts, r, z0: depth[0], z1: depth[1],
    x0: Math.min(...xs) - r, x1: Math.max(...xs) + r, y0: Math.min(...ys) - r, y1: Math.max(...ys) + r,
  };
}

/**
 * How deep two outlines overlap (m), 0 if they do not.
 * @param {Outline} a
 * @param {Outline} b
 */
export function overlapDepth(a, b) {
  /** @type {[number, number][]} */
  const axes = [];
  for (const o of [a, b]) {
    const n = o.pts.length;
    if (n < 2) continue;
    for (let k = 0; k < (n === 2 ? 1 : n); k++) {
      const p = o.pts[k], q = o.pts[(k + 1) % n];
      axes.push([p[1] - q[1], q[0] - p[0]]);
    }
  }
  for (const p of a.pts) for (const q of b.pts) axes.push([q[0] - p[0], q[1] - p[1]]);
  let depth = Infinity;
  for (const [ax, ay] of axes) {
    const len = Math.hypot(ax, ay);
    if (!(len > 1e-9)) continue;
    const nx = ax / len, ny = ay / len;
    let a0 = Infinity, a1 = -Infinity, b0 = Infinity, b1 = -Infinity;
    for (const p of a.pts) { const d = p[0] * nx + p[1] * ny; a0 = Math.min(a0, d); a1 = Math.max(a1, d); }
    for (const p of b.pts) { const d = p[0] * nx + p[1] * ny; b0 = Math.min(b0, d); b1 = Math.max(b1, d); }
    const o = Math.min(a1 + a.r - (b0 - b.r), b1 + b.r - (a0 - a.r));
    if (o <= 0) return 0;
    depth = Math.min(depth, o);
  }
  return Number.isFinite(depth) ? depth : 0;
}

/** @param {number[]} a @param {number[]} b */
const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

/**
 * A joint's error (m), or null for a joint that has none to show.
 * @param {JointInfo} j
 */
export function jointError(j) {
  const a = j.anchorA, b = j.anchorB;
  switch (j.type) {
    case 'ballSocket': case 'hinge': case 'fixed': case 'swingTwist':
      return dist(a, b);
    case 'prismatic': {
      const d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
      const n = Math.hypot(...j.axis) || 1;
      const t = (d[0] * j.axis[0] + d[1] * j.axis[1] + d[2] * j.axis[2]) / n;
      return Math.sqrt(Math.max(d[0] ** 2 + d[1] ** 2 + d[2] ** 2 - t * t, 0));
    }
    case 'distance': {
      const d = dist(a, b);
      const lo = j.min ?? j.length ?? d;
      const hi = j.max === null ? Infinity : (j.max ?? j.length ?? d);
      return Math.max(lo - d, d - hi, 0);
    }
    case 'rope':
      return Math.max(dist(a, b) - (j.maxLength ?? Infinity), 0);
    default:
      return null;
  }
}

/**
 * The body figures of `sim` now: the largest overlap of two bodies (null: no pair that can
 * touch) and the largest joint error (null: no joint with one), in metres; null without bodies.
 * @param {Sim} sim
 * @returns {{ overlap: number | null, joints: number | null } | null}
 */
export function bodyFigures(sim) {
  if (!sim.bodyCount) return null;
  /** @type {BodyInfo[]} */
  const info = JSON.parse(sim.bodiesJson());
  /** @type {JointInfo[]} */
  const joints = JSON.parse(sim.jointsJson()).filter((/** @type {JointInfo} */ j) => !j.mouse);
  let jointsMax = null;
  for (const j of joints) {
    const e = jointError(j);
    if (e != null) jointsMax = Math.max(jointsMax ?? 0, e);
  }
  /** @type {Set<string>} pairs joined by a joint (they may overlap by design) */
  const joined = new Set(joints.map((j) => `${Math.min(j.a ?? -1, j.b ?? -1)}:${Math.max(j.a ?? -1, j.b ?? -1)}`));
  const yOff = sim.view === 'top' ? 2 : 1;
  sim.refillBodyPoses(1);
  const poses = sim.bodyPoses(); // a view: no sim calls below
  const shapes = info.map((b, i) => outline(b, poses, i, yOff));
  let overlap = null;
  for (let i = 0; i < info.length; i++) {
    for (let k = i + 1; k < info.length; k++) {
      if (info[i].kind !== 'dynamic' && info[k].kind !== 'dynamic') continue;
      if (joined.has(`${Math.min(info[i].id, info[k].id)}:${Math.max(info[i].id, info[k].id)}`)) continue;
      overlap = Math.max(overlap ?? 0, 0);
      const a = shapes[i], b = shapes[k];
      if (a.x1 < b.x0 || b.x1 < a.x0 || a.y1 < b.y0 || b.y1 < a.y0 || a.z1 < b.z0 || b.z1 < a.z0) continue;
      overlap = Math.max(overlap, overlapDepth(a, b));
    }
  }
  return { overlap, joints: jointsMax };
}

/**
 * A length in the table: µm below a millimetre, mm below a metre's tenth, else cm.
 * @param {number | null | undefined} m
 */
export function fmtLength(m) {
  if (m == null) return '–';
  if (!Number.isFinite(m)) return String(m);
  const mm = m * 1000;
  if (mm === 0) return '0 mm';
  if (mm < 1) return `${(mm * 1000).toFixed(mm < 0.01 ? 2 : 1)} µm`;
  if (mm < 100) return `${mm.toFixed(mm < 10 ? 2 : 1)} mm`;
  return `${(mm / 10).toFixed(1)} cm`;
}

/**
 * Shows the table's columns that mean something for the scene `sim` holds: max stretch only
 * with links, overlap with bodies that can touch, joint error with joints that have one.
 * @param {HTMLElement} hud
 * @param {Sim | undefined} sim
 */
export function showColumns(hud, sim) {
  const figures = sim ? bodyFigures(sim) : null;
  /** @type {(sel: string, on: boolean) => void} */
  const show = (sel, on) => hud.querySelectorAll(sel).forEach((el) => { /** @type {HTMLElement} */ (el).hidden = !on; });
  show('.stretch', !sim || sim.linkCount > 0);
  show('.overlap', figures?.overlap != null);
  show('.joints', figures?.joints != null);
}
