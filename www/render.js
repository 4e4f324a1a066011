// @ts-check
// Canvas drawing: one draw per frame through a camera (camera.js: world metres ↔ CSS pixels).
//
// World coordinates are the sim's *view plane* in metres, y up: (x, y) for side-on scenes,
// (x, z) for scenes seen from above (`sim.view === "top"`). Screen coordinates are CSS pixels
// from the canvas's top-left corner (the canvas fills the window, so also the page's).
//
// Zero-copy rule: `sim.positions()`, `sim.links()`, `sim.pointFlags()` and `sim.linkStrain()`
// are views of wasm memory that any call into the sim may detach. `draw` makes every sim
// call it needs first, then builds fresh views, reads them, and drops them; nothing here keeps
// a view across frames.
//
// Interpolation (main.js): the loop hands `keepPrevious(sim)` the positions before each
// frame's last step (a copy, reused), and the overlay's `frac` says how far past them the
// frame falls: points are drawn at prev + frac·(now − prev), bodies at the pose
// `refillBodyPoses(frac)` blends (bodies.js), so a rope end attached to a body stays on it.
// Held points are drawn where they are now (they follow the pointer without a step's lag).

/** @import { CapstanReport, DrawOptions, Overlay, Rect, Sim, Trail } from './types.js' */
/** @import { Camera } from './camera.js' */

import { LEASH_EXTRAS, drawLeashTop } from './leash.js';
import { drawObstacles, obstaclesOf } from './obstacles.js';
import { drawBodies } from './bodies.js';
import { linkPaths, pointPaths } from './points.js';

export { FLAG_HELD, FLAG_LOCKED } from './flags.js';
import { FLAG_HELD, FLAG_LOCKED } from './flags.js';

const COLORS = {
  background: '#141414',
  outside: '#0e0e0e',
  grid: '#1c1c1c',
  axis: '#262626',
  wall: '#4a4a4a',
  link: '#999',                 // the seed's Connection colour
  point: '#fff',                // the seed's free point
  locked: '#f55',               // the seed's locked point
  halo: 'rgba(255,255,255,0.13)', // the seed's "#fff2" drag halo
  hover: 'rgba(255,255,255,0.55)',
  source: '#4dd6ff',
  cut: '255,120,90',
  text: '#777',
};

// Link tint by relative stretch (d − L) / L: one path per bucket, drawn in this order.
// Stretched links go amber → yellow (not red: red means a locked point, as in the seed).
/** @type {{ color: string, test: (s: number) => boolean }[]} */
const STRAIN_BUCKETS = [
  { color: COLORS.link, test: (s) => Math.abs(s) < 0.01 },
  { color: '#6f8fc4', test: (s) => s <= -0.01 && s > -0.05 },
  { color: '#4f7bea', test: (s) => s <= -0.05 },
  { color: '#b39a62', test: (s) => s >= 0.01 && s < 0.03 },
  { color: '#e39a2e', test: (s) => s >= 0.03 && s < 0.08 },
  { color: '#ffe04a', test: (s) => s >= 0.08 },
];

/** @param {number} s */
function bucketOf(s) {
  if (!(Math.abs(s) >= 0.01)) return 0; // also NaN → neutral
  if (s < 0) return s > -0.05 ? 1 : 2;
  return s < 0.03 ? 3 : s < 0.08 ? 4 : 5;
}

export class Renderer {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {Camera} camera
   */
  constructor(canvas, camera) {
    this.canvas = canvas;
    this.ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d', { alpha: false }));
    this.camera = camera;
    this.dpr = 1;
    /** Bodies drawn in the last frame (for tests). */
    this.bodiesDrawn = 0;
    /** The `frac` of the last frame drawn (for tests). */
    this.lastFrac = 1;
    /**
     * Per sim: its positions before the last step (`keepPrevious`), the sim time then, and a
     * reused buffer for the interpolated positions.
     * @type {WeakMap<Sim, { prev: Float32Array, time: number, h: number, lerp: Float32Array }>}
     */
    this.previous = new WeakMap();
    this.cssW = 1;
    this.cssH = 1;
  }

  /**
   * Copies `sim`'s positions before a step of `h` (the start of the frame's interpolation).
   * @param {Sim} sim
   * @param {number} h
   */
  keepPrevious(sim, h) {
    const time = sim.time;
    const pos = sim.positions(); // a view: copied, then dropped
    let rec = this.previous.get(sim);
    if (!rec || rec.prev.length !== pos.length) {
      rec = { prev: new Float32Array(pos.length), time, h, lerp: new Float32Array(pos.length) };
      this.previous.set(sim, rec);
    }
    rec.prev.set(pos);
    rec.time = time;
    rec.h = h;
  }

  /**
   * Drops `sim`'s copy (a new world was loaded into it).
   * @param {Sim} sim
   */
  forgetPrevious(sim) {
    this.previous.delete(sim);
  }

  /**
   * The positions to draw: interpolated `frac` of the way from the copy before the last step
   * to `pos`, when that copy is of the step just taken (same point count, the sim one step
   * further: not after a load, an undo or an edit that added or removed points); else `pos`.
   * Held points stay where they are now.
   * @param {Sim} sim
   * @param {Float32Array} pos the view of the positions now
   * @param {Uint8Array} flags
   * @param {number} frac
   * @param {number} time `sim.time` (read before the views were built)
   * @returns {Float32Array}
   */
  interpolated(sim, pos, flags, frac, time) {
    const rec = this.previous.get(sim);
    if (!(frac < 1) || !rec || rec.prev.length !== pos.length || Math.abs(time - rec.time - rec.h) > rec.h * 1e-3) return pos;
    const { prev, lerp } = rec;
    const t = Math.max(frac, 0);
    for (let k = 0; k < pos.length; k++) lerp[k] = prev[k] + (pos[k] - prev[k]) * t;
    for (let i = 0; i < flags.length; i++) {
      if (flags[i] & FLAG_HELD) {
        lerp[3 * i] = pos[3 * i];
        lerp[3 * i + 1] = pos[3 * i + 1];
        lerp[3 * i + 2] = pos[3 * i + 2];
      }
    }
    return lerp;
  }

  /** Matches the backing store to the CSS size × devicePixelRatio. Returns whether it changed. */
  resize() {
    const dpr = window.devicePixelRatio || 1;
    const cssW = this.canvas.clientWidth || window.innerWidth;
    const cssH = this.canvas.clientHeight || window.innerHeight;
    const w = Math.max(1, Math.round(cssW * dpr));
    const h = Math.max(1, Math.round(cssH * dpr));
    if (w === this.canvas.width && h === this.canvas.height && dpr === this.dpr) return false;
    this.canvas.width = w;
    this.canvas.height = h;
    this.dpr = dpr;
    this.cssW = cssW;
    this.cssH = cssH;
    return true;
  }

  /**
   * Draws one frame of the single view.
   * @param {Sim} sim the wasm `Sim`
   * @param {Overlay} o overlay: { tintStrain, hover, hoverLink, source, cursor, trails, paused, mode }
   */
  draw(sim, o) {
    this.clear();
    this.drawSim(sim, this.camera, o, null);
    if (o.capstan) this.drawCapstan(sim, this.camera, o.capstan);
    this.drawTrails(o.trails);
    this.drawScaleBar(this.camera, 16, 24);
    if (o.paused) this.drawPaused(16, 56);
  }

  /** Resets the transform to CSS pixels and paints the background. */
  clear() {
    const ctx = this.ctx;
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.fillStyle = COLORS.background;
    ctx.fillRect(0, 0, this.cssW, this.cssH);
  }

  /**
   * Draws `sim` through `cam`, clipped to `rect` (CSS px `{ x, y, w, h }`, null = the whole
   * canvas). Options beyond the overlay's: `grid` (default true: grid, axes and walls first),
   * `color` (draw every link and free point in this one colour instead of the stretch tint:
   * the overlaid comparison), `alpha`.
   * @param {Sim} sim
   * @param {Camera} cam
   * @param {DrawOptions} o
   * @param {Rect | null} rect
   */
  drawSim(sim, cam, o, rect) {
    const ctx = this.ctx;
    const { scale } = cam;
    const R = rect ?? { x: 0, y: 0, w: this.cssW, h: this.cssH };

    // Every call into the sim comes before the views are built.
    const walls = o.grid === false ? null : sim.walls();
    const top = sim.view === 'top';
    const obstacles = o.grid === false ? [] : obstaclesOf(sim);
    // The leash scene from above: a knot diagram (leash.js) instead of points and links.
    // Both views: save, clip to the region, grid and obstacles underneath.
    const begin = () => {
      ctx.save();
      if (rect) {
        ctx.beginPath();
        ctx.rect(R.x, R.y, R.w, R.h);
        ctx.clip();
      }
      if (o.grid !== false) this.drawGrid(walls, cam, R);
      drawObstacles(ctx, obstacles, cam, R, top);
    };
    if (top && !o.color && sim.ropeCount > 0 && sim.leash() !== 'null') {
      begin();
      drawLeashTop(this, sim, cam, o, R, LEASH_EXTRAS);
      ctx.restore();
      return;
    }
    sim.refreshRender();
    const time = sim.time;
    const frac = o.frac ?? 1;
    this.lastFrac = frac;
    const flags = sim.pointFlags();
    const pos = this.interpolated(sim, sim.positions(), flags, frac, time);
    const links = sim.links();
    const strain = o.tintStrain && !o.color ? sim.linkStrain() : null;
    const n = (pos.length / 3) | 0;
    const yOff = top ? 2 : 1; // which coordinate is the view's vertical axis

    begin();
    if (o.alpha != null) ctx.globalAlpha = o.alpha;

    const sx = (/** @type {number} */ i) => cam.ox + pos[3 * i] * scale;
    const sy = (/** @type {number} */ i) => cam.oy - cam.ys * pos[3 * i + yOff] * scale;

    // Links: one path per style (points.js).
    const m = (links.length / 2) | 0;
    const paths = linkPaths(cam, pos, links, yOff, (k) => (strain && k < strain.length ? bucketOf(strain[k]) : 0));
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    ctx.lineWidth = Math.min(Math.max(2 * Math.sqrt(cam.zoom), 1), 4);
    if (o.dash) ctx.setLineDash(o.dash); // overlaid comparison: each solver its own pattern
    paths.forEach((p, s) => {
      if (!p) return;
      ctx.strokeStyle = o.color ?? STRAIN_BUCKETS[s].color;
      ctx.stroke(p);
    });
    if (o.dash) ctx.setLineDash([]);

    if (o.hoverLink >= 0 && o.hoverLink < m) {
      const a = links[2 * o.hoverLink];
      const b = links[2 * o.hoverLink + 1];
      if (a < n && b < n) {
        ctx.strokeStyle = COLORS.source;
        ctx.lineWidth = 4;
        ctx.beginPath();
        ctx.moveTo(sx(a), sy(a));
        ctx.lineTo(sx(b), sy(b));
        ctx.stroke();
      }
    }

    // Points: halos of held points, then free (white) and locked (red), one path each. The
    // dot radius follows the zoom but stays below a third of a typical link on screen.
    let typical = Infinity;
    if (m > 0) {
      let sum = 0;
      const probe = Math.min(m, 16);
      for (let k = 0; k < probe; k++) {
        const a = links[2 * k], b = links[2 * k + 1];
        if (a < n && b < n) sum += Math.hypot(sx(a) - sx(b), sy(a) - sy(b));
      }
      typical = sum / probe;
    }
    let r = Math.min(Math.max(Math.min(4 * Math.sqrt(cam.zoom), typical / 3), 1.5), 8);
    if (o.color) r = Math.max(r * 0.75 * (o.pointScale ?? 1), 1.2); // overlaid: smaller dots, each solver smaller than the one under it
    const { halo, free, locked, held } = pointPaths(cam, pos, flags, yOff, R, r, 20, 30);
    if (held) {
      ctx.fillStyle = COLORS.halo;
      ctx.fill(halo);
    }
    ctx.fillStyle = o.color ?? COLORS.point;
    ctx.fill(free);
    ctx.fillStyle = COLORS.locked;
    ctx.fill(locked);

    // Rings: hovered point, edit-mode source (and a rubber band to the cursor).
    ctx.lineWidth = 1.5;
    if (o.source >= 0 && o.source < n) {
      ctx.strokeStyle = COLORS.source;
      ctx.beginPath();
      ctx.arc(sx(o.source), sy(o.source), r + 5, 0, 2 * Math.PI);
      ctx.stroke();
      if (o.cursor) {
        ctx.setLineDash([5, 5]);
        ctx.beginPath();
        ctx.moveTo(sx(o.source), sy(o.source));
        ctx.lineTo(o.cursor[0], o.cursor[1]);
        ctx.stroke();
        ctx.setLineDash([]);
      }
    }
    if (o.hover >= 0 && o.hover < n) {
      ctx.strokeStyle = COLORS.hover;
      ctx.beginPath();
      ctx.arc(sx(o.hover), sy(o.hover), r + 4, 0, 2 * Math.PI);
      ctx.stroke();
    }
    // The views are not used past this point: bodies and joints (they call into the sim).
    this.bodiesDrawn = drawBodies(ctx, sim, cam, { paused: !!o.paused, top, frac, hover: o.hoverBody ?? -1, color: o.color ?? null });
    ctx.restore();
  }

  /**
   * The capstan report on the rope itself: the load and hold ends labelled with their mass
   * and tension, and the wrapped arc with θ (ui.js renderReadout has the numbers in full).
   * @param {Sim} sim
   * @param {Camera} cam
   * @param {CapstanReport} r
   */
  drawCapstan(sim, cam, r) {
    const ctx = this.ctx;
    const pos = sim.positions();
    const n = pos.length / 3;
    const at = (/** @type {number} */ i) => (i >= 0 && i < n ? cam.toScreen(pos[3 * i], pos[3 * i + 1]) : null);
    const load = at(r.load.point), hold = at(r.hold.point);
    ctx.save();
    ctx.font = '12px system-ui, sans-serif';
    ctx.textBaseline = 'top';
    ctx.textAlign = 'center';
    /** @type {(p: number[] | null, lines: string[], color: string) => void} */
    const label = (p, lines, color) => {
      if (!p) return;
      ctx.fillStyle = color;
      lines.forEach((l, k) => ctx.fillText(l, p[0], p[1] + 10 + 15 * k));
    };
    // Each label on the outer side of its end, so two ends hanging close do not overlap.
    const side = load && hold ? Math.sign(load[0] - hold[0]) || -1 : -1;
    ctx.textAlign = side < 0 ? 'right' : 'left';
    label(load && [load[0] + side * 8, load[1]], [`load ${r.load.mass.toFixed(2)} kg`, `T ${r.tensionLoad.toFixed(1)} N`], '#ffcf80');
    ctx.textAlign = side < 0 ? 'left' : 'right';
    label(hold && [hold[0] - side * 8, hold[1]], [`hold ${r.hold.mass.toFixed(2)} kg`, `T ${r.tensionHold.toFixed(1)} N`], '#9fd0ff');
    ctx.textAlign = 'center';
    const a = cam.toScreen(r.contactFrom[0], r.contactFrom[1]);
    const b = cam.toScreen(r.contactTo[0], r.contactTo[1]);
    ctx.fillStyle = r.holds ? '#7fd67f' : '#ff6b6b';
    ctx.textBaseline = 'bottom';
    const top = Math.min(a[1], b[1]) - Math.max(Math.hypot(b[0] - a[0], b[1] - a[1]), 40) * 0.9;
    ctx.fillText(`θ ${((r.wrap * 180) / Math.PI).toFixed(0)}° · e^μθ ${r.limit.toFixed(2)} · ${r.holds ? 'holds' : 'slips'}`, (a[0] + b[0]) / 2, top);
    ctx.restore();
  }

  /**
   * @param {number} x
   * @param {number} y
   */
  drawPaused(x, y) {
    const ctx = this.ctx;
    ctx.fillStyle = '#c8c8c8';
    ctx.font = '600 13px system-ui, sans-serif';
    ctx.textAlign = 'left';
    ctx.fillText('❚❚ paused', x, y);
  }

  /**
   * Grid, axes and walls of `cam` inside the CSS-px rectangle `R` (default: the canvas).
   * @param {ArrayLike<number> | null} walls `[minX, minY, maxX, maxY]`, empty or null: none
   * @param {Camera} [cam]
   * @param {Rect} [R]
   */
  drawGrid(walls, cam = this.camera, R = { x: 0, y: 0, w: this.cssW, h: this.cssH }) {
    const ctx = this.ctx;
    // Spacing: the smallest "nice" step at least 40 px apart.
    const steps = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 50, 100];
    const step = steps.find((s) => s * cam.scale >= 40) ?? 100;
    const [x0, ya] = cam.toWorld(R.x, R.y);
    const [x1, yb] = cam.toWorld(R.x + R.w, R.y + R.h);
    const y0 = Math.min(ya, yb), y1 = Math.max(ya, yb); // the top view's y axis points down
    const grid = new Path2D();
    const axis = new Path2D();
    for (let x = Math.ceil(x0 / step) * step; x <= x1; x += step) {
      const px = Math.round(cam.toScreen(x, 0)[0]) + 0.5;
      const p = Math.abs(x) < step / 2 ? axis : grid;
      p.moveTo(px, R.y);
      p.lineTo(px, R.y + R.h);
    }
    for (let y = Math.ceil(y0 / step) * step; y <= y1; y += step) {
      const py = Math.round(cam.toScreen(0, y)[1]) + 0.5;
      const p = Math.abs(y) < step / 2 ? axis : grid;
      p.moveTo(R.x, py);
      p.lineTo(R.x + R.w, py);
    }
    ctx.lineWidth = 1;
    ctx.strokeStyle = COLORS.grid;
    ctx.stroke(grid);
    ctx.strokeStyle = COLORS.axis;
    ctx.stroke(axis);

    if (walls && walls.length === 4) {
      const [ax, ay] = cam.toScreen(walls[0], walls[3]);
      const [bx, by] = cam.toScreen(walls[2], walls[1]);
      // Shade outside the box, then outline it; the floor is the bottom wall.
      ctx.fillStyle = COLORS.outside;
      ctx.beginPath();
      ctx.rect(R.x, R.y, R.w, R.h);
      ctx.rect(ax, ay, bx - ax, by - ay);
      ctx.fill('evenodd');
      ctx.strokeStyle = COLORS.wall;
      ctx.lineWidth = 2;
      ctx.strokeRect(ax, ay, bx - ax, by - ay);
    }
  }

  /** @param {Trail[] | undefined} trails */
  drawTrails(trails) {
    if (!trails || !trails.length) return;
    const ctx = this.ctx;
    const now = performance.now();
    ctx.lineCap = 'round';
    ctx.lineWidth = 3;
    for (const t of trails) {
      const a = 1 - (now - t.t) / 450;
      if (a <= 0) continue;
      ctx.strokeStyle = `rgba(${COLORS.cut},${a.toFixed(3)})`;
      ctx.beginPath();
      ctx.moveTo(t.x0, t.y0);
      ctx.lineTo(t.x1, t.y1);
      ctx.stroke();
    }
  }

  /**
   * A "1 m"-style scale bar of `cam` at (x, y) CSS px (the single view: the top-left corner).
   * @param {Camera} [cam]
   * @param {number} [x]
   * @param {number} [y]
   */
  drawScaleBar(cam = this.camera, x = 16, y = 24) {
    const ctx = this.ctx;
    const s = cam.scale;
    const lengths = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100];
    const len = lengths.find((l) => l * s >= 60) ?? 100;
    const px = len * s;
    ctx.strokeStyle = COLORS.text;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.moveTo(x, y - 4);
    ctx.lineTo(x, y);
    ctx.lineTo(x + px, y);
    ctx.lineTo(x + px, y - 4);
    ctx.stroke();
    ctx.fillStyle = COLORS.text;
    ctx.font = '12px system-ui, sans-serif';
    ctx.textAlign = 'left';
    ctx.fillText(len >= 1 ? `${len} m` : `${Math.round(len * 100)} cm`, x + px + 6, y + 4);
  }
}
