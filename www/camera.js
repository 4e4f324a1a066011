// @ts-check
// The camera and the pointer's way into the world, shared by the page (main.js, ui.js,
// compare.js) and <rope-lab> (rope-lab.js): world (view-plane metres, y up) ↔ CSS pixels
// (y down), the frame a scene is fitted to, zoom and pan, and what a press picks.
//
// World coordinates are the sim's *view plane* in metres, y up: (x, y) for side-on scenes,
// (x, z) for scenes seen from above (`sim.view === "top"`). Screen coordinates are CSS pixels
// from the canvas's top-left corner.

/** @import { InputSim, Sim } from './types.js' */

/** World (view-plane metres, y up) ↔ CSS pixels (y down). */
export class Camera {
  /**
   * `portrait`: on a portrait viewport (a phone) only the middle three quarters of the frame's
   * width have to fit (the page; an embed fits all of it). `minZoom`, `maxZoom`: the zoom's range.
   * @param {{ portrait?: boolean, minZoom?: number, maxZoom?: number }} [options]
   */
  constructor({ portrait = true, minZoom = 0.05, maxZoom = 40 } = {}) {
    this.portrait = portrait;
    this.minZoom = minZoom;
    this.maxZoom = maxZoom;
    this.frame = { cx: 0, cy: 0, height: 10, minWidth: 10 };
    this.viewport = { x: 0, y: 0, w: 1, h: 1 };
    this.zoom = 1;
    this.cx = 0;
    this.cy = 0;
    this.scale = 1; // CSS px per metre
    this.ox = 0;
    this.oy = 0;
    // Top view (x–z seen from above): +z points DOWN on screen, so that "clockwise seen from
    // above" looks clockwise on the page (y up, looking down −y, x to the right ⇒ z down).
    // `ys` is the sign of the view's vertical axis on screen: 1 = up (side view), −1 = down.
    this.ys = 1;
  }

  /**
   * The top view flips the vertical axis (+z down on screen); the side view keeps y up.
   * @param {boolean} flip
   */
  setFlip(flip) {
    this.ys = flip ? -1 : 1;
    this.update();
  }

  /**
   * What to show: centre, height (m) and the least width (m) that must stay visible.
   * @param {number} cx
   * @param {number} cy
   * @param {number} height
   * @param {number} minWidth
   */
  setFrame(cx, cy, height, minWidth) {
    this.frame = { cx, cy, height: Math.max(height, 1e-3), minWidth: Math.max(minWidth, 0) };
    this.resetView();
  }

  /** The frame again, without zoom or pan. */
  resetView() {
    this.zoom = 1;
    this.cx = this.frame.cx;
    this.cy = this.frame.cy;
    this.update();
  }

  /**
   * The CSS-pixel rectangle the frame is fitted into (the canvas minus a side panel).
   * @param {number} x
   * @param {number} y
   * @param {number} w
   * @param {number} h
   */
  setViewport(x, y, w, h) {
    this.viewport = { x, y, w: Math.max(w, 1), h: Math.max(h, 1) };
    this.update();
  }

  update() {
    const { w, h } = this.viewport;
    const f = this.frame;
    // A portrait screen (a phone) fitting the whole width would use a quarter of its height
    // for a 10 × 6 m scene: there only the middle three quarters of the width have to fit (the walls
    // are a pinch away; 0 refits).
    const minWidth = this.portrait && h > 1.2 * w ? f.minWidth * 0.75 : f.minWidth;
    const fit = Math.min(h / f.height, minWidth > 0 ? w / minWidth : Infinity);
    this.scale = fit * this.zoom;
    this.ox = this.viewport.x + w / 2 - this.cx * this.scale;
    this.oy = this.viewport.y + h / 2 + this.ys * this.cy * this.scale;
  }

  /**
   * @param {number} x
   * @param {number} y
   * @returns {[number, number]}
   */
  toScreen(x, y) {
    return [this.ox + x * this.scale, this.oy - this.ys * y * this.scale];
  }

  /**
   * @param {number} px
   * @param {number} py
   * @returns {[number, number]}
   */
  toWorld(px, py) {
    return [(px - this.ox) / this.scale, (this.ys * (this.oy - py)) / this.scale];
  }

  /**
   * Zooms by `factor`, keeping the world point under (px, py) in place.
   * @param {number} px
   * @param {number} py
   * @param {number} factor
   */
  zoomAt(px, py, factor) {
    const [wx, wy] = this.toWorld(px, py);
    this.zoom = Math.min(Math.max(this.zoom * factor, this.minZoom), this.maxZoom);
    this.update();
    const [ax, ay] = this.toWorld(px, py);
    this.cx += wx - ax;
    this.cy += wy - ay;
    this.update();
  }

  /**
   * Takes `other`'s frame, zoom and centre, keeping this viewport (a shared camera).
   * @param {Camera} other
   */
  follow(other) {
    this.frame = { ...other.frame };
    this.ys = other.ys;
    this.zoom = other.zoom;
    this.cx = other.cx;
    this.cy = other.cy;
    this.update();
  }

  /**
   * Moves the view by (dx, dy) CSS pixels.
   * @param {number} dx
   * @param {number} dy
   */
  panBy(dx, dy) {
    this.cx -= dx / this.scale;
    this.cy += (this.ys * dy) / this.scale;
    this.update();
  }
}

/**
 * Frames `sim`'s scene in `cam`: its camera, else its walls, else the bounding box of its
 * points; the top view flips the vertical axis.
 * @param {Camera} cam
 * @param {Sim} sim
 */
export function frameScene(cam, sim) {
  cam.setFlip(sim.view === 'top'); // seen from above: +z down on screen
  const c = sim.camera();
  const walls = sim.walls();
  const wallW = walls.length === 4 ? walls[2] - walls[0] : 0;
  if (c.length === 3) return cam.setFrame(c[0], c[1], c[2], wallW ? Math.min(wallW * 1.02, c[2] * 2.5) : 0);
  if (walls.length === 4) return cam.setFrame((walls[0] + walls[2]) / 2, (walls[1] + walls[3]) / 2, (walls[3] - walls[1]) * 1.08, wallW * 1.04);
  const yOff = sim.view === 'top' ? 2 : 1; // (sim calls before the view is built)
  const pos = sim.positions();
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let i = 0; i + 2 < pos.length; i += 3) {
    x0 = Math.min(x0, pos[i]); x1 = Math.max(x1, pos[i]);
    y0 = Math.min(y0, pos[i + yOff]); y1 = Math.max(y1, pos[i + yOff]);
  }
  if (!Number.isFinite(x0)) cam.setFrame(0, 0, 10, 10);
  else cam.setFrame((x0 + x1) / 2, (y0 + y1) / 2, Math.max(y1 - y0, 1) * 1.6, Math.max(x1 - x0, 1) * 1.3);
}

/**
 * The point under world (x, y) within `pointPx` CSS px, or -1.
 * @param {Pick<InputSim, 'pick'>} sim @param {Camera} cam @param {number} x @param {number} y @param {number} pointPx
 */
export const pickPoint = (sim, cam, x, y, pointPx) => sim.pick(x, y, pointPx / cam.scale);

/**
 * The movable body under world (x, y) within `bodyPx` CSS px of its outline, or -1 (none in
 * a world without bodies, or in the lite build).
 * @param {Pick<InputSim, 'bodyCount' | 'pickBody'>} sim @param {Camera} cam @param {number} x @param {number} y @param {number} bodyPx
 */
export const pickBody = (sim, cam, x, y, bodyPx) => (sim.bodyCount ? sim.pickBody(x, y, bodyPx / cam.scale) : -1);

/**
 * A pointer or wheel event's position in CSS px from `el`'s top-left corner.
 * @param {Element} el @param {{ clientX: number, clientY: number }} e
 * @returns {[number, number]}
 */
export function localPx(el, e) {
  const r = el.getBoundingClientRect();
  return [e.clientX - r.left, e.clientY - r.top];
}
