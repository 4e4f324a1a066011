// @ts-check
// Rigid bodies and joints on the canvas: bodies as outlines with their orientation visible
// (spheres with a radius line, capsules as stadiums with their axis, boxes as wireframes),
// projected like the particles; joints as anchors, hinge axes, limit arcs, springs and rope
// lines, and, when paused, each joint's reaction force.
//
// Poses come from `sim.refillBodyPoses(alpha)` + `sim.bodyPoses()` (a fresh Float32Array
// view of wasm memory every frame, 7 floats per body, interpolated between the last two
// fixed steps), so a 120 Hz display draws bodies between physics steps instead of
// repeating them. `bodiesJson()` / `jointsJson()` allocate a string each call: fine for the
// tens of bodies of a playground scene at 60 Hz.

/** @typedef {import('./types/ropelab').Sim} Sim */
/** @typedef {{ ox: number, oy: number, ys: number, scale: number, zoom: number }} BodyCamera */
/** @typedef {{ type: 'sphere', radius: number } | { type: 'capsule', radius: number, halfLength: number } | { type: 'box', half: number[] }} BodyShape */
/** @typedef {{ id: number, kind: string, shape: BodyShape, mass: number, planar: boolean }} BodyInfo */
/** @typedef {{ id: number, type: string, a: number | null, b: number | null, anchorA: number[], anchorB: number[], axis: number[], limit: number[] | null, soft: { hertz: number } | null, force: number[], mouse: boolean, angle: number | null }} JointInfo */

const COLOR = { body: '#e8c872', bodyStatic: '#8a8a8a', axis: '#ffd98a', joint: '#7ad0ff', limit: 'rgba(122,208,255,0.35)', spring: '#b6f0a0', mouse: 'rgba(255,255,255,0.45)', force: '#ffb0b0' };

/**
 * Rotates v by the unit quaternion q = [x, y, z, w].
 * @param {number[]} q
 * @param {number[]} v
 * @returns {number[]}
 */
function rotate(q, v) {
  const [x, y, z, w] = q;
  // v' = v + 2w (u × v) + 2 u × (u × v), u = (x, y, z)
  const cx = y * v[2] - z * v[1], cy = z * v[0] - x * v[2], cz = x * v[1] - y * v[0];
  const dx = y * cz - z * cy, dy = z * cx - x * cz, dz = x * cy - y * cx;
  return [v[0] + 2 * (w * cx + dx), v[1] + 2 * (w * cy + dy), v[2] + 2 * (w * cz + dz)];
}

/**
 * Draws every body and joint of `sim` through `cam` (side view x–y, or top view x–z).
 * Call after the particle views are no longer used: it calls into the sim.
 * @param {CanvasRenderingContext2D} ctx
 * @param {Sim} sim
 * @param {BodyCamera} cam
 * @param {{ paused?: boolean, top?: boolean }} o
 * @returns {number} bodies drawn
 */
export function drawBodies(ctx, sim, cam, o) {
  const count = sim.bodyCount;
  const joints = /** @type {JointInfo[]} */ (JSON.parse(sim.jointsJson()));
  if (count === 0 && joints.length === 0) return 0;
  const info = /** @type {BodyInfo[]} */ (JSON.parse(sim.bodiesJson()));
  sim.refillBodyPoses(sim.alpha);
  const poses = sim.bodyPoses(); // a view: no sim calls below
  const yi = o.top ? 2 : 1;
  const { scale } = cam;
  const X = (/** @type {number[]} */ p) => cam.ox + p[0] * scale;
  const Y = (/** @type {number[]} */ p) => cam.oy - cam.ys * p[yi] * scale;
  ctx.save();
  ctx.lineJoin = 'round';
  ctx.lineCap = 'round';
  for (let i = 0; i < count && i < info.length; i++) {
    const c = [poses[7 * i], poses[7 * i + 1], poses[7 * i + 2]];
    const q = [poses[7 * i + 3], poses[7 * i + 4], poses[7 * i + 5], poses[7 * i + 6]];
    const at = (/** @type {number[]} */ l) => { const r = rotate(q, l); return [c[0] + r[0], c[1] + r[1], c[2] + r[2]]; };
    const s = info[i].shape;
    ctx.strokeStyle = info[i].kind === 'static' ? COLOR.bodyStatic : COLOR.body;
    ctx.fillStyle = 'rgba(232,200,114,0.10)';
    ctx.lineWidth = 2;
    ctx.beginPath();
    if (s.type === 'sphere') {
      ctx.arc(X(c), Y(c), s.radius * scale, 0, 2 * Math.PI);
      ctx.fill();
      ctx.stroke();
      const e = at([s.radius, 0, 0]);
      ctx.strokeStyle = COLOR.axis;
      ctx.beginPath();
      ctx.moveTo(X(c), Y(c));
      ctx.lineTo(X(e), Y(e));
      ctx.stroke();
    } else if (s.type === 'capsule') {
      const a = at([-s.halfLength, 0, 0]), b = at([s.halfLength, 0, 0]);
      const ang = Math.atan2(Y(b) - Y(a), X(b) - X(a));
      const r = s.radius * scale;
      ctx.arc(X(b), Y(b), r, ang - Math.PI / 2, ang + Math.PI / 2);
      ctx.arc(X(a), Y(a), r, ang + Math.PI / 2, ang + 3 * Math.PI / 2);
      ctx.closePath();
      ctx.fill();
      ctx.stroke();
      ctx.strokeStyle = COLOR.axis;
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.moveTo(X(a), Y(a));
      ctx.lineTo(X(b), Y(b));
      ctx.stroke();
    } else {
      const [hx, hy, hz] = s.half;
      const corners = [];
      for (const sx of [-1, 1]) for (const sy of [-1, 1]) for (const sz of [-1, 1]) corners.push(at([sx * hx, sy * hy, sz * hz]));
      // The 12 edges: corners differing in one sign.
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
      const e = at([hx, 0, 0]);
      ctx.strokeStyle = COLOR.axis;
      ctx.beginPath();
      ctx.moveTo(X(c), Y(c));
      ctx.lineTo(X(e), Y(e));
      ctx.stroke();
    }
  }
  // Joints.
  const dot = Math.max(3, Math.min(6, 3 * Math.sqrt(cam.zoom)));
  for (const j of joints) {
    const A = j.anchorA, B = j.anchorB;
    if (j.mouse) {
      ctx.strokeStyle = COLOR.mouse;
      ctx.lineWidth = 1;
      ctx.setLineDash([4, 4]);
      ctx.beginPath();
      ctx.moveTo(X(A), Y(A));
      ctx.lineTo(X(B), Y(B));
      ctx.stroke();
      ctx.setLineDash([]);
      continue;
    }
    ctx.strokeStyle = COLOR.joint;
    ctx.lineWidth = 1.5;
    if (j.type === 'distance' || j.type === 'rope') {
      if (j.type === 'rope') ctx.setLineDash([6, 4]);
      ctx.strokeStyle = j.soft ? COLOR.spring : COLOR.joint;
      ctx.beginPath();
      if (j.soft) zigzag(ctx, X(A), Y(A), X(B), Y(B));
      else { ctx.moveTo(X(A), Y(A)); ctx.lineTo(X(B), Y(B)); }
      ctx.stroke();
      ctx.setLineDash([]);
    }
    if ((j.type === 'hinge' || j.type === 'angularMotor') && j.limit && j.angle != null && j.b != null) {
      // The limit arc: the range of B's angle, drawn from B's current direction back by its
      // angle (the creation pose's direction), in the view plane.
      const bi = info.findIndex((b) => b.id === j.b);
      if (bi >= 0) {
        const bc = [poses[7 * bi], poses[7 * bi + 1], poses[7 * bi + 2]];
        const phi = Math.atan2(Y(bc) - Y(A), X(bc) - X(A));
        const base = phi + j.angle * cam.ys;
        ctx.fillStyle = COLOR.limit;
        ctx.beginPath();
        ctx.moveTo(X(A), Y(A));
        const r = Math.max(14, Math.min(0.08 * scale, 40));
        const a0 = base - j.limit[1], a1 = base - j.limit[0];
        ctx.arc(X(A), Y(A), r, Math.min(a0, a1), Math.max(a0, a1));
        ctx.closePath();
        ctx.fill();
      }
    }
    // The axis: a ring when it points out of the view, a short line when it lies in it.
    const out = Math.abs(j.axis[o.top ? 1 : 2]);
    if (j.type === 'hinge' || j.type === 'prismatic' || j.type === 'angularMotor' || j.type === 'swingTwist') {
      ctx.strokeStyle = COLOR.axis;
      ctx.beginPath();
      if (out > 0.9 && j.type !== 'prismatic') {
        ctx.arc(X(A), Y(A), dot + 3, 0, 2 * Math.PI);
      } else {
        // A short line (about 12 px each way) along the axis as it projects.
        const L = 12 / scale;
        const e = [A[0] + j.axis[0] * L, A[1] + j.axis[1] * L, A[2] + j.axis[2] * L];
        const f = [A[0] - j.axis[0] * L, A[1] - j.axis[1] * L, A[2] - j.axis[2] * L];
        ctx.moveTo(X(f), Y(f));
        ctx.lineTo(X(e), Y(e));
      }
      ctx.stroke();
    }
    ctx.fillStyle = COLOR.joint;
    ctx.beginPath();
    ctx.arc(X(A), Y(A), dot, 0, 2 * Math.PI);
    if (j.type === 'distance' || j.type === 'rope' || j.type === 'prismatic') {
      ctx.moveTo(X(B) + dot, Y(B));
      ctx.arc(X(B), Y(B), dot, 0, 2 * Math.PI);
    }
    ctx.fill();
    if (o.paused) {
      const f = Math.hypot(j.force[0], j.force[1], j.force[2]);
      ctx.fillStyle = COLOR.force;
      ctx.font = '11px system-ui, sans-serif';
      ctx.fillText(`${f < 10 ? f.toFixed(1) : f.toFixed(0)} N`, X(B) + 8, Y(B) - 8);
    }
  }
  ctx.restore();
  return count;
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
