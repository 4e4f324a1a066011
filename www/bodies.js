// @ts-check
// Rigid bodies and joints on the canvas, projected like the particles (side view x–y, top
// view x–z; render.js's camera): bodies as outlines with their orientation visible (spheres
// with a radius line, capsules as stadiums around their axis, boxes as wireframes with a tick
// along local x), joints as anchors, hinge axes (a ring when the axis points out of the view,
// a short line when it lies in it), hinge limit arcs, swing-twist cones, prismatic tracks,
// springs (soft distance joints, zig-zag) and rope joints (dashed); when paused, each joint's
// reaction force on its body B as an arrow and a label in newtons.
//
// Poses: `sim.refillBodyPoses(frac)` then `sim.bodyPoses()`, a fresh Float32Array view of
// wasm memory every frame (7 floats per body: px, py, pz, qx, qy, qz, qw), blended `frac` of
// the way between the last two fixed steps (main.js `stepFraction`). Any call into the sim
// may grow its memory and detach a view, so the view is built after the last sim call here
// and never kept. Joint anchors come from `jointsJson()` at the bodies' current poses: each is
// carried to its body's drawn pose (the pose buffer refilled at 1 gives the current one).
//
// Cost: `bodiesJson()` and `jointsJson()` each allocate a JSON string per call (tens of
// bodies and joints: a few kB per frame, fine at 60 Hz); nothing is called when the scene
// has no bodies (every joint has at least one body).

import { hull, rotate } from './bodyshape.js';

/** @import { BodyInfo, JointInfo, Sim, Vec3 } from './types.js' */
/** @typedef {{ ox: number, oy: number, ys: number, scale: number, zoom: number }} BodyCamera */
/** @typedef {{ paused?: boolean, top?: boolean, frac?: number, hover?: number, color?: string | null }} BodyDrawOptions */

const COLOR = {
  body: '#e8c872',
  bodyFill: 'rgba(232,200,114,0.10)',
  bodyHover: '#fff0b8',
  bodyHoverFill: 'rgba(255,240,184,0.22)',
  bodyStatic: '#8a8a8a',
  staticFill: 'rgba(138,138,138,0.10)',
  tick: '#ffd98a',
  joint: '#7ad0ff',
  limit: 'rgba(122,208,255,0.22)',
  limitEdge: 'rgba(122,208,255,0.7)',
  spring: '#b6f0a0',
  mouse: 'rgba(255,255,255,0.6)',
  force: '#ffb0b0',
};

/** The current poses (refilled at alpha 1), copied out of wasm memory; reused. */
let current = new Float32Array(0);

/**
 * Rotates v by angle `a` (rad, right-handed) about the unit axis `k` (Rodrigues).
 * @param {Vec3} v
 * @param {Vec3} k
 * @param {number} a
 * @returns {Vec3}
 */
function rotateAbout(v, k, a) {
  const c = Math.cos(a), s = Math.sin(a);
  const kv = k[0] * v[0] + k[1] * v[1] + k[2] * v[2];
  const x = [k[1] * v[2] - k[2] * v[1], k[2] * v[0] - k[0] * v[2], k[0] * v[1] - k[1] * v[0]];
  const at = (/** @type {number} */ i) => v[i] * c + x[i] * s + k[i] * kv * (1 - c);
  return [at(0), at(1), at(2)];
}

/** A pose from a 7-float buffer. */
class Pose {
  /**
   * @param {ArrayLike<number>} buf
   * @param {number} i body index
   */
  constructor(buf, i) {
    const o = 7 * i;
    /** @type {Vec3} */
    this.c = [buf[o], buf[o + 1], buf[o + 2]];
    /** @type {[number, number, number, number]} */
    this.q = [buf[o + 3], buf[o + 4], buf[o + 5], buf[o + 6]];
  }

  /**
   * Body-frame point → world.
   * @param {ArrayLike<number>} l
   * @returns {Vec3}
   */
  at(l) {
    const r = rotate(this.q, l);
    return [this.c[0] + r[0], this.c[1] + r[1], this.c[2] + r[2]];
  }

  /**
   * World point → body frame.
   * @param {ArrayLike<number>} p
   * @returns {Vec3}
   */
  local(p) {
    const inv = [-this.q[0], -this.q[1], -this.q[2], this.q[3]];
    return rotate(inv, [p[0] - this.c[0], p[1] - this.c[1], p[2] - this.c[2]]);
  }
}

/**
 * A capsule's half length (m): `half_length`, the scene format's snake_case, or `halfLength`,
 * the first spelling of the JSON.
 * @param {{ half_length?: number, halfLength?: number }} s
 */
const halfLengthOf = (s) => s.half_length ?? s.halfLength ?? 0;

/**
 * Whether the body-frame point `l` lies within `slack` (m) of `shape`.
 * @param {BodyInfo['shape']} shape
 * @param {Vec3} l
 * @param {number} slack
 */
function within(shape, l, slack) {
  if (shape.type === 'sphere') return Math.hypot(l[0], l[1], l[2]) <= shape.radius + slack;
  if (shape.type === 'capsule') {
    const h = halfLengthOf(shape);
    const x = Math.max(-h, Math.min(h, l[0]));
    return Math.hypot(l[0] - x, l[1], l[2]) <= shape.radius + slack;
  }
  return [0, 1, 2].every((c) => Math.abs(l[c]) <= shape.half[c] + slack);
}

/**
 * Draws every body and joint of `sim` through `cam` (side view x–y, or top view x–z).
 * Call after the particle views are no longer used: it calls into the sim.
 * @param {CanvasRenderingContext2D} ctx
 * @param {Sim} sim
 * @param {BodyCamera} cam
 * @param {BodyDrawOptions} o `frac`: how far between the last two steps (default 1: now);
 *   `hover`: the id of the body under the pointer; `color`: draw everything in this colour
 *   (the overlaid comparison)
 * @returns {number} bodies drawn
 */
export function drawBodies(ctx, sim, cam, o) {
  const count = sim.bodyCount;
  if (count === 0) return 0;
  // Every sim call first; the pose view last.
  const info = /** @type {BodyInfo[]} */ (JSON.parse(sim.bodiesJson()));
  const joints = /** @type {JointInfo[]} */ (JSON.parse(sim.jointsJson()));
  const frac = o.frac ?? 1;
  sim.refillBodyPoses(1);
  const now = sim.bodyPoses();
  if (current.length !== now.length) current = new Float32Array(now.length);
  current.set(now);
  const blended = frac < 1 ? (sim.refillBodyPoses(frac), sim.bodyPoses()) : current; // a view: no sim calls below
  const n = Math.min(count, info.length, (blended.length / 7) | 0);
  /** @type {Map<number, number>} */
  const index = new Map();
  for (let i = 0; i < n; i++) index.set(info[i].id, i);
  const drawn = Array.from({ length: n }, (_, i) => new Pose(blended, i));
  const cur = Array.from({ length: n }, (_, i) => new Pose(current, i));

  const yi = o.top ? 2 : 1;
  const { scale } = cam;
  const X = (/** @type {ArrayLike<number>} */ p) => cam.ox + p[0] * scale;
  const Y = (/** @type {ArrayLike<number>} */ p) => cam.oy - cam.ys * p[yi] * scale;
  const normal = o.top ? 1 : 2; // the coordinate that points out of the view
  ctx.save();
  ctx.lineJoin = 'round';
  ctx.lineCap = 'round';

  // Bodies.
  for (let i = 0; i < n; i++) {
    const b = info[i];
    const P = drawn[i];
    const s = b.shape;
    const still = b.kind === 'static';
    const hover = b.id === o.hover && !still;
    ctx.strokeStyle = o.color ?? (hover ? COLOR.bodyHover : still ? COLOR.bodyStatic : COLOR.body);
    ctx.fillStyle = hover ? COLOR.bodyHoverFill : still ? COLOR.staticFill : COLOR.bodyFill;
    ctx.lineWidth = hover ? 2.5 : 2;
    const c = P.c;
    /** @type {Vec3 | null} the end of the orientation tick */
    let tick = null;
    ctx.beginPath();
    if (s.type === 'sphere') {
      ctx.arc(X(c), Y(c), s.radius * scale, 0, 2 * Math.PI);
      ctx.fill();
      ctx.stroke();
      tick = P.at([s.radius, 0, 0]);
    } else if (s.type === 'capsule') {
      const h = halfLengthOf(s);
      const a = P.at([-h, 0, 0]), e = P.at([h, 0, 0]);
      const ang = Math.atan2(Y(e) - Y(a), X(e) - X(a));
      const r = s.radius * scale;
      ctx.arc(X(e), Y(e), r, ang - Math.PI / 2, ang + Math.PI / 2);
      ctx.arc(X(a), Y(a), r, ang + Math.PI / 2, ang + 3 * Math.PI / 2);
      ctx.closePath();
      ctx.fill();
      ctx.stroke();
      // The axis (local x), from end to end.
      ctx.strokeStyle = o.color ?? COLOR.tick;
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.moveTo(X(a), Y(a));
      ctx.lineTo(X(e), Y(e));
      ctx.stroke();
    } else {
      const [hx, hy, hz] = s.half;
      /** @type {Vec3[]} */
      const corners = [];
      for (const sx of [-1, 1]) for (const sy of [-1, 1]) for (const sz of [-1, 1]) corners.push(P.at([sx * hx, sy * hy, sz * hz]));
      const outline = hull(corners.map((p) => [X(p), Y(p)]));
      outline.forEach(([x, y], k) => (k ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
      ctx.closePath();
      ctx.fill();
      // The 12 edges: corners differing in one sign.
      ctx.beginPath();
      for (let u = 0; u < 8; u++) {
        for (const bit of [1, 2, 4]) {
          const v = u ^ bit;
          if (v > u) {
            ctx.moveTo(X(corners[u]), Y(corners[u]));
            ctx.lineTo(X(corners[v]), Y(corners[v]));
          }
        }
      }
      ctx.stroke();
      // A tick along local x: to the +x face, at most 24 px.
      tick = P.at([Math.min(hx, 24 / scale), 0, 0]);
    }
    if (tick && !still) {
      ctx.strokeStyle = o.color ?? COLOR.tick;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.moveTo(X(c), Y(c));
      ctx.lineTo(X(tick), Y(tick));
      ctx.stroke();
    }
  }

  // Joints: anchors and axes carried from the current poses to the drawn ones.
  /**
   * @param {number | null} id
   * @param {Vec3} p world point at the current pose
   * @returns {Vec3}
   */
  const follow = (id, p) => {
    const k = id == null ? undefined : index.get(id);
    return k === undefined ? p : drawn[k].at(cur[k].local(p));
  };
  /**
   * @param {number | null} id
   * @param {Vec3} v world direction at the current pose
   * @returns {Vec3}
   */
  const turn = (id, v) => {
    const k = id == null ? undefined : index.get(id);
    if (k === undefined) return v;
    const q = cur[k].q;
    return rotate(drawn[k].q, rotate([-q[0], -q[1], -q[2], q[3]], v));
  };
  const dot = Math.max(3, Math.min(5, 3 * Math.sqrt(cam.zoom)));
  const jointColor = o.color ?? COLOR.joint;
  /** @type {number[][]} label boxes placed so far: [x0, y0, x1, y1] */
  const labels = [];
  for (const j of joints) {
    const A = follow(j.a, j.anchorA), B = follow(j.b, j.anchorB);
    const axis = turn(j.a, j.axis);
    // An anchor off its body (a ball-socket above a hanging box): a faint lever from the
    // body's centre, so the joint visibly holds it.
    for (const [id, world, P] of /** @type {[number | null, Vec3, Vec3][]} */ ([[j.a, j.anchorA, A], [j.b, j.anchorB, B]])) {
      const k = id == null ? undefined : index.get(id);
      if (k === undefined || within(info[k].shape, cur[k].local(world), 2 / scale)) continue;
      ctx.strokeStyle = o.color ?? COLOR.joint;
      ctx.globalAlpha = 0.5;
      ctx.lineWidth = 1;
      ctx.setLineDash([2, 3]);
      ctx.beginPath();
      ctx.moveTo(X(drawn[k].c), Y(drawn[k].c));
      ctx.lineTo(X(P), Y(P));
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.globalAlpha = 1;
    }
    if (j.mouse) {
      ctx.strokeStyle = COLOR.mouse;
      ctx.lineWidth = 1;
      ctx.setLineDash([4, 4]);
      ctx.beginPath();
      ctx.moveTo(X(A), Y(A));
      ctx.lineTo(X(B), Y(B));
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.beginPath();
      ctx.arc(X(B), Y(B), dot, 0, 2 * Math.PI);
      ctx.stroke();
      continue;
    }
    ctx.strokeStyle = jointColor;
    ctx.lineWidth = 1.5;
    if (j.type === 'distance' || j.type === 'rope') {
      ctx.strokeStyle = o.color ?? (j.soft ? COLOR.spring : COLOR.joint);
      ctx.beginPath();
      if (j.type === 'rope') ctx.setLineDash([6, 4]);
      if (j.soft && j.type === 'distance') zigzag(ctx, X(A), Y(A), X(B), Y(B));
      else { ctx.moveTo(X(A), Y(A)); ctx.lineTo(X(B), Y(B)); }
      ctx.stroke();
      ctx.setLineDash([]);
    }
    const out = Math.abs(axis[normal]); // 1: the axis points out of the view
    if (j.type === 'hinge' && j.limit && j.angle != null && j.b != null && out > 0.7) {
      // The limit arc: the directions B's centre may take about the anchor, from the
      // current one turned back by the angle (B's creation pose) then to each limit.
      const k = index.get(j.b);
      const d = k === undefined ? null : /** @type {Vec3} */ ([0, 1, 2].map((c) => drawn[k].c[c] - A[c]));
      if (d && Math.hypot(X(d) - X([0, 0, 0]), Y(d) - Y([0, 0, 0])) > 1) {
        const R = Math.max(16, Math.min(0.3 * Math.hypot(d[0], d[1], d[2]) * scale, 40));
        const [lo, hi] = j.limit;
        const steps = Math.max(2, Math.ceil(Math.abs(hi - lo) / 0.1));
        const ray = (/** @type {number} */ a) => {
          const v = rotateAbout(d, axis, a - /** @type {number} */ (j.angle));
          const sx = X(v) - X([0, 0, 0]), sy = Y(v) - Y([0, 0, 0]);
          const l = Math.hypot(sx, sy) || 1;
          return [X(A) + (sx / l) * R, Y(A) + (sy / l) * R];
        };
        ctx.fillStyle = o.color ? 'rgba(255,255,255,0.08)' : COLOR.limit;
        ctx.strokeStyle = o.color ?? COLOR.limitEdge;
        ctx.lineWidth = 1;
        ctx.beginPath();
        ctx.moveTo(X(A), Y(A));
        for (let s = 0; s <= steps; s++) {
          const [x, y] = ray(lo + ((hi - lo) * s) / steps);
          ctx.lineTo(x, y);
        }
        ctx.closePath();
        ctx.fill();
        ctx.stroke();
      }
    }
    if (j.type === 'swingTwist' && j.maxSwing != null && out < 0.7) {
      // The swing cone, seen from the side: the wedge of directions within maxSwing of the
      // twist axis (in the view plane), from the anchor.
      const R = 18;
      const ax = X(axis) - X([0, 0, 0]), ay = Y(axis) - Y([0, 0, 0]);
      const a0 = Math.atan2(ay, ax);
      const sw = Math.min(j.maxSwing, Math.PI);
      ctx.fillStyle = o.color ? 'rgba(255,255,255,0.06)' : COLOR.limit;
      ctx.strokeStyle = o.color ?? COLOR.limitEdge;
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.moveTo(X(A), Y(A));
      ctx.arc(X(A), Y(A), R, a0 - sw, a0 + sw);
      ctx.closePath();
      ctx.fill();
      ctx.stroke();
    }
    if (j.type === 'prismatic') {
      // The track: along the axis from the anchor on A, over the limits (or ±20 px).
      const [lo, hi] = j.limit ?? [-20 / scale, 20 / scale];
      const p0 = A.map((v, c) => v + axis[c] * lo), p1 = A.map((v, c) => v + axis[c] * hi);
      ctx.strokeStyle = jointColor;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.moveTo(X(p0), Y(p0));
      ctx.lineTo(X(p1), Y(p1));
      if (j.limit) {
        // Stops: short bars across the track.
        const sx = X(p1) - X(p0), sy = Y(p1) - Y(p0), l = Math.hypot(sx, sy) || 1;
        const nx = (-sy / l) * 6, ny = (sx / l) * 6;
        for (const p of [p0, p1]) {
          ctx.moveTo(X(p) - nx, Y(p) - ny);
          ctx.lineTo(X(p) + nx, Y(p) + ny);
        }
      }
      ctx.stroke();
    } else if (j.type === 'hinge' || j.type === 'angularMotor' || j.type === 'swingTwist') {
      // The axis: a ring when it points out of the view, a short line when it lies in it.
      ctx.strokeStyle = o.color ?? COLOR.tick;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      if (out > 0.7 && j.type !== 'swingTwist') {
        ctx.arc(X(A), Y(A), dot + 3, 0, 2 * Math.PI);
      } else {
        const L = 14 / scale;
        const e = A.map((v, c) => v + axis[c] * L), f = A.map((v, c) => v - axis[c] * L);
        ctx.moveTo(X(f), Y(f));
        ctx.lineTo(X(e), Y(e));
      }
      ctx.stroke();
    }
    // Anchors: A filled; B filled where it is meant to be apart (distance, rope, prismatic),
    // else a ring, visible only when the joint is pulled apart.
    ctx.fillStyle = jointColor;
    ctx.beginPath();
    ctx.arc(X(A), Y(A), dot, 0, 2 * Math.PI);
    const apart = j.type === 'distance' || j.type === 'rope' || j.type === 'prismatic';
    if (apart) {
      ctx.moveTo(X(B) + dot, Y(B));
      ctx.arc(X(B), Y(B), dot, 0, 2 * Math.PI);
    }
    ctx.fill();
    if (!apart && Math.hypot(X(B) - X(A), Y(B) - Y(A)) > dot) {
      ctx.strokeStyle = jointColor;
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.arc(X(B), Y(B), dot, 0, 2 * Math.PI);
      ctx.stroke();
    }
    if (o.paused && !o.color) drawForce(ctx, j, X(B), Y(B), cam.ys, o.top ?? false, labels);
  }
  ctx.restore();
  return n;
}

/**
 * The reaction force on B: an arrow from its anchor (screen direction of the force, 22 px)
 * and |F| in newtons beyond its tip.
 * @param {CanvasRenderingContext2D} ctx
 * @param {JointInfo} j
 * @param {number} x
 * @param {number} y
 * @param {number} ys the camera's vertical sign
 * @param {boolean} top
 * @param {number[][]} labels boxes of the labels drawn so far: one that would overlap them is
 *   left out (dense chains), the arrow stays
 */
function drawForce(ctx, j, x, y, ys, top, labels) {
  const f = Math.hypot(j.force[0], j.force[1], j.force[2]);
  const fx = j.force[0], fy = -ys * j.force[top ? 2 : 1];
  const l = Math.hypot(fx, fy);
  let ux = 0.7071, uy = -0.7071; // no force in the view plane: the label up and to the right
  ctx.strokeStyle = COLOR.force;
  ctx.fillStyle = COLOR.force;
  ctx.lineWidth = 1.5;
  if (l > 1e-3 * Math.max(f, 1e-9) && f > 1e-6) {
    ux = fx / l;
    uy = fy / l;
    const L = 22 * (l / f) + 4; // foreshortened when the force leaves the view plane
    const tx = x + ux * L, ty = y + uy * L;
    ctx.beginPath();
    ctx.moveTo(x, y);
    ctx.lineTo(tx, ty);
    ctx.moveTo(tx - ux * 6 - uy * 4, ty - uy * 6 + ux * 4);
    ctx.lineTo(tx, ty);
    ctx.lineTo(tx - ux * 6 + uy * 4, ty - uy * 6 - ux * 4);
    ctx.stroke();
  }
  ctx.font = '11px system-ui, sans-serif';
  ctx.textAlign = ux >= 0 ? 'left' : 'right';
  ctx.textBaseline = 'middle';
  const text = `${f < 10 ? f.toFixed(1) : f.toFixed(0)} N`;
  const tx = x + ux * 30 + (ux >= 0 ? 2 : -2), ty = y + uy * 30;
  const w = ctx.measureText(text).width;
  const box = [ux >= 0 ? tx : tx - w, ty - 7, ux >= 0 ? tx + w : tx, ty + 7];
  if (labels.some((b) => box[0] < b[2] && b[0] < box[2] && box[1] < b[3] && b[1] < box[3])) return;
  labels.push(box);
  ctx.fillText(text, tx, ty);
}

/**
 * A spring drawn as a zig-zag from (x0, y0) to (x1, y1).
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} x0 @param {number} y0 @param {number} x1 @param {number} y1
 */
function zigzag(ctx, x0, y0, x1, y1) {
  const n = 10, dx = x1 - x0, dy = y1 - y0, len = Math.hypot(dx, dy) || 1;
  const nx = -dy / len * 5, ny = dx / len * 5;
  ctx.moveTo(x0, y0);
  for (let k = 1; k < n; k++) {
    const t = k / n, s = k % 2 ? 1 : -1;
    ctx.lineTo(x0 + dx * t + nx * s, y0 + dy * t + ny * s);
  }
  ctx.lineTo(x1, y1);
}
