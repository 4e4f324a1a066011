// @ts-check
// The leash scene seen from above, drawn like a knot diagram (issue 4 §1, §3).
//
// The top view maps the view plane (x, y) to world (x, z); the camera draws +z DOWN on screen
// (render.js `Camera.ys = -1`) so that clockwise seen from above is clockwise on the page and
// the handler, facing +z, faces down the page: dog 1 (the handler's right, −x) is on the left.
//
// What is drawn, back to front:
//   - leashes as thick strokes, one colour per leash (the dog's colour), lighter and wider
//     where they are higher; the strand underneath is broken (a gap) where another passes
//     over it — the gaps come from `sim.crossings()` (every top-view crossing of two rope
//     segments with the rope on top), so they follow the physics' heights, not a heuristic;
//   - the hand (with the direction the handler faces) and the dogs as labelled discs 1, 2, 3
//     (slightly see-through);
//   - the braid reading's crossings (`sim.braidCrossings()`) as small generator labels σᵢ^±1;
//   - tangles (`sim.tangles()`) as rings coloured by state (tight: amber, locked: magenta);
//   - a side-view inset (x across, height up) in the bottom-right corner of the view.
//
// Zero-copy rule as in render.js: every sim call first, then the wasm-memory views.

/** @import { BraidCrossing, LeashInfo, Overlay, Rect, Sim, Tangle, TopCrossing } from './types.js' */
/** @import { Camera } from './camera.js' */

import { FLAG_HELD } from './flags.js';

/** One colour per leash / dog (hue; lightness follows the height). */
export const DOG_HUES = [18, 200, 100, 280, 50, 330];
export const dogColor = (/** @type {number} */ k, l = 62) => `hsl(${DOG_HUES[k % DOG_HUES.length]} 85% ${l}%)`;

export const TANGLE_COLORS = { tight: '#ffb02e', locked: '#ff4fd8' };

/**
 * A stable id (tangle or rope: slot in the low 16 bits, generation in the high 16, as
 * src/ids.rs) as text: `3`, or `3′2` once slot 3 has been reused twice.
 * @param {number} id
 */
export function idText(id) {
  const slot = id & 0xffff, gen = id >>> 16;
  return gen ? `${slot}′${gen}` : String(slot);
}

const MAX_LEASH_HEIGHT = 1.0; // m: the hand's height in the preset; the shading saturates above

/**
 * Parses a JSON string from the sim, tolerating "null".
 * @param {string} text
 * @param {unknown} fallback
 * @returns {any} (the callers declare what they expect)
 */
function parse(text, fallback) {
  try {
    const v = JSON.parse(text);
    return v ?? fallback;
  } catch {
    return fallback;
  }
}

/**
 * Formats a braid letter (+i = σᵢ, −i = σᵢ⁻¹).
 * @param {number} g
 */
export function letterText(g) {
  return g > 0 ? `σ${g}` : `σ${-g}⁻¹`;
}

/**
 * Per-sim cache of what changes only with edits: the rope point lists. Keyed on the point and
 * link counts (every edit that can change a rope changes one of them, or the scene reloads:
 * `invalidate`).
 */
/** @type {WeakMap<Sim, { key: string, ropes: Uint32Array[] }>} */
const ropeCache = new WeakMap();
/** @param {Sim} sim */
export function ropesOf(sim) {
  const key = `${sim.pointCount}/${sim.linkCount}/${sim.ropeCount}`;
  let c = ropeCache.get(sim);
  if (!c || c.key !== key) {
    const ropes = [];
    for (let i = 0; i < sim.ropeCount; i++) ropes.push(Uint32Array.from(sim.ropePoints(i)));
    c = { key, ropes };
    ropeCache.set(sim, c);
  }
  return c.ropes;
}
/** @param {Sim} sim */
export function invalidateRopes(sim) {
  ropeCache.delete(sim);
}

/**
 * Rope index → dog index (leash k is rope dogs[k].rope), −1 for ropes that are no leash.
 * @param {LeashInfo | null} leash
 * @param {number} ropeCount
 */
export function dogOfRope(leash, ropeCount) {
  const m = new Int32Array(ropeCount).fill(-1);
  for (let k = 0; k < (leash?.dogs?.length ?? 0); k++) {
    const r = /** @type {LeashInfo} */ (leash).dogs[k].rope; // (no leash: no iteration)
    if (r >= 0 && r < ropeCount) m[r] = k;
  }
  return m;
}

/**
 * Merges intervals [a, b] (sorted by a) in place; returns the merged list.
 * @param {[number, number][]} iv
 */
function merge(iv) {
  iv.sort((p, q) => p[0] - q[0]);
  /** @type {[number, number][]} */
  const out = [];
  for (const v of iv) {
    const last = out[out.length - 1];
    if (last && v[0] <= last[1]) last[1] = Math.max(last[1], v[1]);
    else out.push([v[0], v[1]]);
  }
  return out;
}

/**
 * The top-view crossings of the ropes' segments, as `sim.crossings()` finds them, from the
 * positions: for the lite build (<rope-lab>), which has no `crossings()`. Segments that share
 * a point do not cross; `over` is the strand that is higher there (`link` is not known: -1).
 * @param {ArrayLike<number>} pos
 * @param {ArrayLike<number>[]} ropes
 * @param {number} n the point count
 * @returns {TopCrossing[]}
 */
export function findCrossings(pos, ropes, n) {
  const P = (/** @type {number} */ i, /** @type {number} */ c) => pos[3 * i + c];
  /** @type {number[][]} [rope, segment, a, b] */
  const segs = [];
  ropes.forEach((p, r) => {
    for (let j = 1; j < p.length; j++) if (p[j - 1] < n && p[j] < n) segs.push([r, j - 1, p[j - 1], p[j]]);
  });
  /** @type {TopCrossing[]} */
  const out = [];
  segs.forEach((S, i) => {
    for (const T of segs.slice(i + 1)) {
      const [, , a, b] = S, [, , c, d] = T;
      if (a === c || a === d || b === c || b === d) continue;
      const dx = P(b, 0) - P(a, 0), dz = P(b, 2) - P(a, 2), ex = P(d, 0) - P(c, 0), ez = P(d, 2) - P(c, 2);
      const wx = P(c, 0) - P(a, 0), wz = P(c, 2) - P(a, 2), den = dx * ez - dz * ex;
      const f = (wx * ez - wz * ex) / den, g = (wx * dz - wz * dx) / den;
      if (!(f >= 0 && f < 1 && g >= 0 && g < 1)) continue;
      const s = { rope: S[0], segment: S[1], link: -1, t: f, y: P(a, 1) + (P(b, 1) - P(a, 1)) * f };
      const t = { rope: T[0], segment: T[1], link: -1, t: g, y: P(c, 1) + (P(d, 1) - P(c, 1)) * g };
      out.push({ top: [P(a, 0) + dx * f, P(a, 2) + dz * f], over: s.y >= t.y ? s : t, under: s.y >= t.y ? t : s });
    }
  });
  return out;
}

/**
 * Draws the leash scene from above into `renderer`'s context through `cam`, clipped to `R`
 * (the grid is already drawn): the page's single and compared views and <rope-lab>'s. `o`:
 * the hover (render.js overlay) and the twist to mark at the hand. `extras`: the page's
 * braid marks and side inset (LEASH_EXTRAS; <rope-lab> leaves them out, and so its bundle
 * carries none of their code). In the lite build (no `crossings()`) the crossings are found
 * here (`findCrossings`). Returns the crossings drawn, or false (drawing nothing) if the world
 * has no leash, so the caller can fall back to the plain drawing.
 * @param {{ ctx: CanvasRenderingContext2D }} renderer
 * @param {Sim} sim
 * @param {Camera} cam
 * @param {{ hover: number, handTwist?: string | null }} o
 * @param {Rect} R
 * @param {typeof LEASH_EXTRAS | null} [extras]
 */
export function drawLeashTop(renderer, sim, cam, o, R, extras = null) {
  const ctx = renderer.ctx;
  // ---- every call into the sim first --------------------------------------------------
  /** @type {LeashInfo | null} */
  const leash = parse(sim.leash(), null);
  if (!leash) return false;
  const ropes = ropesOf(sim);
  /** @type {TopCrossing[] | null} */
  const found = sim.crossings ? parse(sim.crossings(), []) : null;
  /** @type {BraidCrossing[]} */
  const braidCrossings = extras && sim.braidCrossings ? parse(sim.braidCrossings(), []) : [];
  /** @type {Tangle[]} */
  const tangles = parse(sim.tangles(), []);
  sim.refreshRender();
  const pos = sim.positions();
  const flags = sim.pointFlags();
  const n = (pos.length / 3) | 0;
  const crossings = found ?? findCrossings(pos, ropes, n);

  const dogOf = dogOfRope(leash, ropes.length);
  const { scale } = cam;
  const sx = (/** @type {number} */ i) => cam.ox + pos[3 * i] * scale;
  const sy = (/** @type {number} */ i) => cam.oy - cam.ys * pos[3 * i + 2] * scale;
  const height = (/** @type {number} */ i) => pos[3 * i + 1];
  const base = Math.min(Math.max(0.022 * scale, 3), 9); // leash stroke width (px) at 0 m
  const widthAt = (/** @type {number} */ y) => base * (0.75 + 0.6 * Math.min(Math.max(y / MAX_LEASH_HEIGHT, 0), 1.3));
  const lightAt = (/** @type {number} */ y) => 38 + 30 * Math.min(Math.max(y / MAX_LEASH_HEIGHT, 0), 1);

  // ---- gaps in the under-strands, in screen arc length per rope ------------------------
  const arc = ropes.map((pts) => {
    const s = new Float64Array(pts.length);
    for (let k = 1; k < pts.length; k++) {
      const a = pts[k - 1], b = pts[k];
      s[k] = s[k - 1] + (a < n && b < n ? Math.hypot(sx(b) - sx(a), sy(b) - sy(a)) : 0);
    }
    return s;
  });
  /** @type {[number, number][][]} */
  const gaps = ropes.map(() => []);
  for (const c of crossings) {
    const u = c.under, v = c.over;
    if (!u || !v || u.rope >= ropes.length || v.rope >= ropes.length) continue;
    const s = arc[u.rope];
    if (u.segment + 1 >= s.length) continue;
    const at = s[u.segment] + u.t * (s[u.segment + 1] - s[u.segment]);
    // Half a gap: the over-strand's half width, the under-strand's round cap and a margin,
    // measured across the over strand, so lengthened by 1/sin of the crossing angle (a shallow
    // crossing runs under the over strand's stroke for longer).
    let sin = 1;
    const pu = ropes[u.rope], pv = ropes[v.rope];
    if (v.segment + 1 < pv.length) {
      const a0 = pu[u.segment], a1 = pu[u.segment + 1], b0 = pv[v.segment], b1 = pv[v.segment + 1];
      if (Math.max(a0, a1, b0, b1) < n) {
        const ux = sx(a1) - sx(a0), uy = sy(a1) - sy(a0), vx = sx(b1) - sx(b0), vy = sy(b1) - sy(b0);
        const l = Math.hypot(ux, uy) * Math.hypot(vx, vy);
        if (l > 0) sin = Math.abs(ux * vy - uy * vx) / l;
      }
    }
    const half = (widthAt(v.y) / 2 + widthAt(u.y) / 2 + 3) / Math.max(sin, 0.5);
    gaps[u.rope].push([at - half, at + half]);
  }

  ctx.save();
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';

  // ---- leashes: per segment (width and lightness follow the height), minus the gaps ----
  // Drawn lowest rope-segments first, so a higher strand is painted over a lower one even
  // where a crossing was missed (e.g. at a shared end).
  /** @type {{ y: number, k: number, x0: number, y0: number, x1: number, y1: number }[]} */
  const pieces = [];
  ropes.forEach((pts, r) => {
    const s = arc[r];
    const iv = merge(gaps[r]);
    const k0 = dogOf[r] >= 0 ? dogOf[r] : r;
    for (let k = 1; k < pts.length; k++) {
      const a = pts[k - 1], b = pts[k];
      if (a >= n || b >= n) continue;
      let lo = s[k - 1], hi = s[k];
      if (hi - lo <= 1e-9) continue;
      // Cut [lo, hi] by the gaps: visible sub-intervals.
      let parts = [[lo, hi]];
      for (const [g0, g1] of iv) {
        if (g1 <= lo || g0 >= hi) continue;
        const next = [];
        for (const [p0, p1] of parts) {
          if (g1 <= p0 || g0 >= p1) next.push([p0, p1]);
          else {
            if (g0 > p0) next.push([p0, g0]);
            if (g1 < p1) next.push([g1, p1]);
          }
        }
        parts = next;
      }
      const ax = sx(a), ay = sy(a), bx = sx(b), by = sy(b);
      const ya = height(a), yb = height(b);
      for (const [p0, p1] of parts) {
        const t0 = (p0 - lo) / (hi - lo), t1 = (p1 - lo) / (hi - lo);
        const y = ya + (yb - ya) * (t0 + t1) / 2;
        pieces.push({
          y,
          k: k0,
          x0: ax + (bx - ax) * t0, y0: ay + (by - ay) * t0,
          x1: ax + (bx - ax) * t1, y1: ay + (by - ay) * t1,
          // Pieces that end at a gap get a butt end there (a clean break); others round.
        });
      }
    }
  });
  pieces.sort((p, q) => p.y - q.y);
  for (const p of pieces) {
    // A thin dark rim first: separates strands that lie side by side.
    ctx.strokeStyle = 'rgba(10,10,10,0.85)';
    ctx.lineWidth = widthAt(p.y) + 2;
    ctx.beginPath();
    ctx.moveTo(p.x0, p.y0);
    ctx.lineTo(p.x1, p.y1);
    ctx.stroke();
  }
  for (const p of pieces) {
    ctx.strokeStyle = dogColor(p.k, lightAt(p.y));
    ctx.lineWidth = widthAt(p.y);
    ctx.beginPath();
    ctx.moveTo(p.x0, p.y0);
    ctx.lineTo(p.x1, p.y1);
    ctx.stroke();
  }

  // ---- hand and dogs -----------------------------------------------------------------
  /** @type {(x: number, y: number, r: number) => void} */
  const halo = (x, y, r) => {
    ctx.fillStyle = 'rgba(255,255,255,0.13)';
    ctx.beginPath();
    ctx.arc(x, y, r, 0, 2 * Math.PI);
    ctx.fill();
  };
  const hand = leash.hand;
  if (hand >= 0 && hand < n) {
    const hx = sx(hand), hy = sy(hand);
    if (flags[hand] & FLAG_HELD) halo(hx, hy, 22);
    // Facing: an arrow along `front` (top view [fx, fz]).
    const [fx, fz] = leash.front ?? [0, 1];
    const fl = Math.hypot(fx, fz) || 1;
    const ax = fx / fl, ay = (-cam.ys * fz) / fl; // screen direction
    ctx.strokeStyle = '#ddd';
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(hx + ax * 12, hy + ay * 12);
    ctx.lineTo(hx + ax * 30, hy + ay * 30);
    ctx.lineTo(hx + ax * 24 - ay * 5, hy + ay * 24 + ax * 5);
    ctx.moveTo(hx + ax * 30, hy + ay * 30);
    ctx.lineTo(hx + ax * 24 + ay * 5, hy + ay * 24 - ax * 5);
    ctx.stroke();
    ctx.fillStyle = '#f55';
    ctx.strokeStyle = '#fff';
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.arc(hx, hy, 8, 0, 2 * Math.PI);
    ctx.fill();
    ctx.stroke();
    ctx.fillStyle = '#bbb';
    ctx.font = '11px system-ui, sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'bottom';
    ctx.fillText('hand', hx, hy - 11);
  }
  ctx.textBaseline = 'middle';
  leash.dogs.forEach((d, k) => {
    const p = d.point;
    if (p < 0 || p >= n) return;
    const x = sx(p), y = sy(p);
    const r = Math.max(d.bodyRadius * scale, 11);
    if (flags[p] & FLAG_HELD) halo(x, y, r + 12);
    // Slightly see-through: the leashes' crossings and gaps under a dog stay visible.
    ctx.fillStyle = dogColor(k, 55);
    ctx.strokeStyle = '#111';
    ctx.lineWidth = 2;
    ctx.globalAlpha = 0.72;
    ctx.beginPath();
    ctx.arc(x, y, r, 0, 2 * Math.PI);
    ctx.fill();
    ctx.globalAlpha = 1;
    ctx.stroke();
    ctx.fillStyle = '#111';
    ctx.font = `700 ${Math.round(Math.min(Math.max(r * 1.1, 12), 22))}px system-ui, sans-serif`;
    ctx.textAlign = 'center';
    ctx.fillText(String(k + 1), x, y + 1);
  });
  // ---- the page's braid marks (leash.js LEASH_EXTRAS; not in <rope-lab>) -----------
  extras?.marks(ctx, cam, braidCrossings, o.handTwist && hand >= 0 && hand < n ? [sx(hand), sy(hand), o.handTwist] : null, base);

  // ---- tangles -----------------------------------------------------------------------
  for (const t of tangles) {
    const [px, py] = cam.toScreen(t.top[0], t.top[1]);
    if (!Number.isFinite(px) || !Number.isFinite(py)) continue;
    const col = TANGLE_COLORS[t.state] ?? '#fff';
    ctx.strokeStyle = col;
    ctx.lineWidth = 2.5;
    ctx.setLineDash(t.state === 'locked' ? [] : [4, 3]);
    ctx.beginPath();
    ctx.arc(px, py, base * 2.4 + 6, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = col;
    ctx.font = '600 11px system-ui, sans-serif';
    ctx.textAlign = 'right';
    ctx.fillText(`#${idText(t.id)}`, px - base * 2.4 - 9, py);
  }

  if (o.hover >= 0 && o.hover < n) {
    const dog = leash.dogs.find((d) => d.point === o.hover);
    ctx.strokeStyle = 'rgba(255,255,255,0.55)';
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.arc(sx(o.hover), sy(o.hover), dog ? Math.max(dog.bodyRadius * scale, 11) + 5 : 14, 0, 2 * Math.PI);
    ctx.stroke();
  }

  extras?.inset(ctx, pos, n, ropes, leash, dogOf, crossings, cam.viewport);
  ctx.restore();
  return crossings;
}

/**
 * A small side view in the bottom-right corner of `vp`: x across (as in the top view),
 * height up, the ground at y = 0; leashes in their colours, dogs and hand, and a tick on the
 * ground under every top-view crossing (dashed line up to the over strand's height).
 * @param {CanvasRenderingContext2D} ctx
 * @param {Float32Array} pos
 * @param {number} n
 * @param {Uint32Array[]} ropes
 * @param {LeashInfo} leash
 * @param {Int32Array} dogOf
 * @param {TopCrossing[]} crossings
 * @param {Rect} vp
 */
function drawSideInset(ctx, pos, n, ropes, leash, dogOf, crossings, vp) {
  const W = Math.min(300, Math.max(180, vp.w * 0.3));
  const Hh = Math.round(W * 0.42);
  const x0 = vp.x + vp.w - W - 12; // bottom-right: the status line is bottom-left
  const y0 = vp.y + vp.h - Hh - 12;
  let xmin = Infinity, xmax = -Infinity, ymax = 0.2;
  for (const pts of ropes) {
    for (const i of pts) {
      if (i >= n) continue;
      xmin = Math.min(xmin, pos[3 * i]);
      xmax = Math.max(xmax, pos[3 * i]);
      ymax = Math.max(ymax, pos[3 * i + 1]);
    }
  }
  if (!Number.isFinite(xmin)) return;
  const pad = 14;
  const spanX = Math.max(xmax - xmin, 0.5);
  const s = Math.min((W - 2 * pad) / spanX, (Hh - 2 * pad - 8) / (ymax * 1.05));
  const cx = (xmin + xmax) / 2;
  const X = (/** @type {number} */ x) => x0 + W / 2 + (x - cx) * s;
  const Y = (/** @type {number} */ y) => y0 + Hh - pad - y * s;

  ctx.save();
  ctx.beginPath();
  ctx.rect(x0, y0, W, Hh);
  ctx.fillStyle = 'rgba(12,12,12,0.88)';
  ctx.fill();
  ctx.strokeStyle = '#3a3a3a';
  ctx.lineWidth = 1;
  ctx.stroke();
  ctx.clip();
  ctx.fillStyle = '#888';
  ctx.font = '10px system-ui, sans-serif';
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  ctx.fillText('side view · x across, height up', x0 + 6, y0 + 4);
  // Ground.
  ctx.strokeStyle = '#555';
  ctx.beginPath();
  ctx.moveTo(x0, Y(0) + 0.5);
  ctx.lineTo(x0 + W, Y(0) + 0.5);
  ctx.stroke();
  // Crossings: where the strands cross in the top view.
  ctx.setLineDash([2, 3]);
  ctx.strokeStyle = 'rgba(255,255,255,0.35)';
  for (const c of crossings) {
    if (!c.top || !c.over) continue;
    ctx.beginPath();
    ctx.moveTo(X(c.top[0]), Y(0));
    ctx.lineTo(X(c.top[0]), Y(c.over.y));
    ctx.stroke();
  }
  ctx.setLineDash([]);
  // Leashes.
  ctx.lineWidth = 2;
  ctx.lineJoin = 'round';
  ropes.forEach((pts, r) => {
    ctx.strokeStyle = dogColor(dogOf[r] >= 0 ? dogOf[r] : r, 60);
    ctx.beginPath();
    let first = true;
    for (const i of pts) {
      if (i >= n) continue;
      if (first) ctx.moveTo(X(pos[3 * i]), Y(pos[3 * i + 1]));
      else ctx.lineTo(X(pos[3 * i]), Y(pos[3 * i + 1]));
      first = false;
    }
    ctx.stroke();
  });
  // Dogs and hand.
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  leash.dogs.forEach((d, k) => {
    if (d.point < 0 || d.point >= n) return;
    const x = X(pos[3 * d.point]), y = Y(pos[3 * d.point + 1]);
    ctx.fillStyle = dogColor(k, 55);
    ctx.beginPath();
    ctx.arc(x, y, 6, 0, 2 * Math.PI);
    ctx.fill();
    ctx.fillStyle = '#111';
    ctx.font = '700 9px system-ui, sans-serif';
    ctx.fillText(String(k + 1), x, y + 0.5);
  });
  if (leash.hand >= 0 && leash.hand < n) {
    ctx.fillStyle = '#f55';
    ctx.beginPath();
    ctx.arc(X(pos[3 * leash.hand]), Y(pos[3 * leash.hand + 1]), 4, 0, 2 * Math.PI);
    ctx.fill();
  }
  ctx.restore();
}

/**
 * The braid reading's marks: the twist bunched at the hand (the braid is tangled but no
 * crossing shows this frame) and the generators σᵢ^±1 at the reading's crossings.
 * @param {CanvasRenderingContext2D} ctx
 * @param {Camera} cam
 * @param {BraidCrossing[]} braidCrossings
 * @param {[number, number, string] | null} twist the hand on screen and the word, or null
 * @param {number} base the leash stroke width (px) at 0 m
 */
function drawBraidMarks(ctx, cam, braidCrossings, twist, base) {
  if (twist && !braidCrossings.some((c) => c.letters?.length)) {
    const [hx, hy, word] = twist;
    // The braid is tangled but no crossing shows (this frame): the twist is bunched at the hand.
    ctx.strokeStyle = '#ffb02e';
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    for (let k = 0; k <= 48; k++) {
      const t = (k / 48) * 4 * Math.PI;
      const rr = 12 + k * 0.25;
      const px = hx + rr * Math.cos(t), py = hy + rr * Math.sin(t);
      if (k) ctx.lineTo(px, py);
      else ctx.moveTo(px, py);
    }
    ctx.stroke();
    ctx.fillStyle = '#ffb02e';
    ctx.font = '11px system-ui, sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    ctx.fillText(`twist at hand: ${word}`, hx, hy + 26);
  }
  ctx.font = '600 11px system-ui, sans-serif';
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  for (const c of braidCrossings) {
    if (!c.letters?.length || !c.top) continue;
    const [px, py] = cam.toScreen(c.top[0], c.top[1]);
    if (!Number.isFinite(px) || !Number.isFinite(py)) continue;
    ctx.strokeStyle = 'rgba(255,255,255,0.55)';
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.arc(px, py, base * 1.6 + 3, 0, 2 * Math.PI);
    ctx.stroke();
    const label = c.letters.map(letterText).join('');
    ctx.fillStyle = 'rgba(20,20,20,0.75)';
    const w = ctx.measureText(label).width;
    ctx.fillRect(px + base * 1.6 + 5, py - 8, w + 6, 16);
    ctx.fillStyle = '#e8e8e8';
    ctx.fillText(label, px + base * 1.6 + 8, py);
  }
}

/** What the page adds to the knot diagram (render.js passes it; <rope-lab> does not). */
export const LEASH_EXTRAS = { marks: drawBraidMarks, inset: drawSideInset };
