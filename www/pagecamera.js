// @ts-check
// The page's camera (main.js, compare.js): camera.js's, plus a fit by the scene's subject on
// views narrower than the stage (a phone held upright, a comparison's narrow column). Kept
// out of camera.js, which <rope-lab> loads too (an embed fits its whole frame).
//
// The stage is what the scene's frame shows on a desktop page: its camera's height at the
// desktop canvas's aspect (1.2: tests/presets_in_view.rs checks each preset's subject stays
// in that rectangle), or its walls. A view narrower than that fitting the frame by height alone
// cuts what lies to the sides (the pendulums' far swing, the leash's first dog, the pyramid's
// ends), and one fitting the whole stage draws a 10 × 6 m scene in a third of its height. Here
// the width that has to fit is the subject's reach: its free points and dynamic bodies as
// loaded, mirrored about the pivots they hang from (locked points, joints to the world: a
// pendulum swings as far to the other side), with the scene's small fixed parts (a crane's
// beam, a bridge's platforms, a post), inside the stage, with a margin. The view then moves
// sideways to hold it. The rest is a pinch away, and Fit (0) refits.

/** @import { Sim, BodyInfo, JointInfo } from './types.js' */

import { Camera, frameScene } from './camera.js';

/** A subject whose reach is this many times its span as loaded swings: the phone follows it. */
const SWING = 1.6;
/** The fitted width: the subject's times this (a margin on either side). */
const MARGIN = 1.2;
/** The desktop canvas beside the panel, width over height (1280 × 800 less the panel). */
export const STAGE_ASPECT = 1.2;

export class PageCamera extends Camera {
  constructor() {
    super();
    /** @type {{ x0: number, x1: number } | null} the subject's horizontal reach (view-plane m) */
    this.content = null;
    /** True from a reset of the view until the user zooms or pans it. */
    this.fresh = true;
    /** Room round the frame: 1 fits it exactly (the page), more leaves a margin (compare.js). */
    this.pad = 1;
    /**
     * Follow the subject sideways (`track`): the page's own camera, on a portrait screen.
     * There the width fitted is the subject's span as loaded, not its reach, and the view
     * moves with it while nobody touches it, so that a swinging rope is drawn at 60 % of the
     * height and stays whole.
     */
    this.tracks = false;
    /** @type {{ x0: number, x1: number } | null} the subject's span as loaded (tracking) */
    this.loaded = null;
    /** @type {number[]} the dynamic bodies' indices as loaded (tracking) */
    this.dynamic = [];
  }

  /**
   * The view is fitted to the subject's span as loaded, for following: a portrait viewport and
   * a subject that swings far. (A zoom or a pan keeps this fit and stops the following.)
   */
  tracking() {
    const { w, h } = this.viewport;
    return this.tracks && this.portrait && h > 1.2 * w && !!this.loaded;
  }

  /**
   * Moves the view sideways, as little as keeps the subject's points and dynamic bodies a
   * tenth of the width clear of the edges (or centres it when wider): once a frame, while
   * tracking and no pointer holds anything. No sim calls that allocate: the positions view and
   * the body poses the renderer refilled for this frame.
   * @param {Sim} sim
   */
  track(sim) {
    if (!this.fresh || !this.tracking()) return;
    let x0 = Infinity, x1 = -Infinity;
    const flags = sim.pointFlags();
    const pos = sim.positions(); // (the last call into the sim: the views stay valid)
    for (let i = 0; 3 * i + 2 < pos.length; i++) {
      if (flags[i] & 1) continue;
      x0 = Math.min(x0, pos[3 * i]);
      x1 = Math.max(x1, pos[3 * i]);
    }
    if (this.dynamic.length && sim.bodyCount >= this.dynamic.length) {
      const poses = sim.bodyPoses();
      for (const i of this.dynamic) {
        if (7 * i + 1 >= poses.length) continue;
        x0 = Math.min(x0, poses[7 * i]);
        x1 = Math.max(x1, poses[7 * i]);
      }
    }
    if (!Number.isFinite(x0)) return;
    const half = (this.viewport.w / 2 / this.scale) * 0.8;
    const cx = x1 - x0 <= 2 * half ? Math.min(Math.max(this.cx, x1 - half), x0 + half) : (x0 + x1) / 2;
    if (Math.abs(cx - this.cx) > 1e-6) {
      this.cx = cx;
      this.update();
    }
  }

  /** The stage's width (m): the frame's walls, else its height at the desktop aspect. */
  stageWidth() {
    const f = this.frame;
    return f.minWidth > 0 ? f.minWidth : f.height * STAGE_ASPECT;
  }

  /** The subject's reach clipped to the stage, or null (no subject known). */
  subjectSpan() {
    const c = this.content;
    if (!c || !(c.x1 >= c.x0)) return null;
    const half = this.stageWidth() / 2;
    const x0 = Math.max(c.x0, this.frame.cx - half);
    const x1 = Math.min(c.x1, this.frame.cx + half);
    return x1 > x0 ? { x0, x1 } : null;
  }

  /** The width (m) that has to fit: the subject's reach with a margin, at most the stage. */
  subjectWidth() {
    const s = this.subjectSpan();
    if (!s) return null;
    return Math.min(Math.max((s.x1 - s.x0) * MARGIN, 0.5), this.stageWidth());
  }

  /**
   * The scale (CSS px per m, zoom 1) that fits the frame in a w × h viewport: camera.js's fit,
   * then narrowed until the subject's width fits (which never narrows a desktop view: there
   * the stage, wider than the subject, fits already).
   * @param {number} w
   * @param {number} h
   */
  fitFor(w, h) {
    const f = this.frame;
    // Tracking, the subject's span as loaded fits and the view follows it (the walls need not).
    const l = this.tracking() ? this.loaded : null;
    if (l) return Math.min(h / (f.height * this.pad), w / (Math.min(Math.max((l.x1 - l.x0) * MARGIN, 0.5), this.stageWidth()) * this.pad));
    const minWidth = (this.portrait && h > 1.2 * w ? f.minWidth * 0.75 : f.minWidth) * this.pad;
    const fit = Math.min(h / (f.height * this.pad), minWidth > 0 ? w / minWidth : Infinity);
    const need = this.subjectWidth();
    return need ? Math.min(fit, w / (need * this.pad)) : fit;
  }

  update() {
    const { w, h } = this.viewport;
    this.scale = this.fitFor(w, h) * this.zoom;
    this.ox = this.viewport.x + w / 2 - this.cx * this.scale;
    this.oy = this.viewport.y + h / 2 + this.ys * this.cy * this.scale;
  }

  resetView() {
    super.resetView();
    this.fresh = true;
    const s = this.tracking() ? this.loaded : this.subjectSpan();
    const span = this.viewport.w / this.scale;
    if (!s || span >= this.stageWidth() * 0.999) return; // the whole stage shows: as framed
    const half = (span / 2) * 0.8; // a tenth of the width kept clear each side
    if (s.x1 - s.x0 <= 2 * half) this.cx = Math.min(Math.max(this.cx, s.x1 - half), s.x0 + half);
    else this.cx = (s.x0 + s.x1) / 2;
    this.update();
  }

  /** @param {number} px @param {number} py @param {number} factor */
  zoomAt(px, py, factor) {
    this.fresh = false;
    super.zoomAt(px, py, factor);
  }

  /** @param {number} dx @param {number} dy */
  panBy(dx, dy) {
    this.fresh = false;
    super.panBy(dx, dy);
  }

  /**
   * Takes `other`'s frame and subject; an untouched view is framed afresh for this viewport
   * (a comparison's column centres its subject), a zoomed or panned one is followed.
   * @param {Camera} other
   */
  follow(other) {
    const page = other instanceof PageCamera;
    this.content = page ? other.content : null;
    super.follow(other);
    this.fresh = page ? other.fresh : false;
    if (this.fresh) this.resetView();
  }
}

/**
 * Frames `sim`'s scene in `cam` (camera.js `frameScene`), knowing its subject.
 * @param {PageCamera} cam
 * @param {Sim} sim
 */
export function frameSubject(cam, sim) {
  cam.content = null;
  cam.loaded = null;
  frameScene(cam, sim);
  cam.content = subjectSpan(sim, cam.stageWidth());
  // Followed when it swings far (its reach, mirrored about its pivots, at least 1.6 times its
  // span as loaded: a rope or a pendulum let go from the side); a scene that spreads rather
  // than swings (a wall knocked over) fits its reach.
  const loaded = cam.tracks ? subjectSpan(sim, cam.stageWidth(), false) : null;
  const r = cam.content;
  if (loaded && r && r.x1 - r.x0 >= SWING * (loaded.x1 - loaded.x0)) {
    cam.loaded = loaded;
    cam.dynamic = sim.bodyCount
      ? /** @type {BodyInfo[]} */ (JSON.parse(sim.bodiesJson())).flatMap((b, i) => (b.kind === 'dynamic' ? [i] : []))
      : [];
  }
  cam.resetView();
}

/**
 * The horizontal reach (view-plane metres) of what the scene is about: its free points and its
 * dynamic bodies (their outlines) as loaded, mirrored about each pivot they may swing round (a
 * locked point, a joint's anchor on the world or on a fixed body), and its fixed bodies but
 * the ground (those no wider than `wide` m, the stage); null for a scene with nothing free.
 * With `reach` false: the free points and dynamic bodies as loaded, nothing else.
 * @param {Sim} sim
 * @param {number} wide
 * @param {boolean} [reach]
 * @returns {{ x0: number, x1: number } | null}
 */
export function subjectSpan(sim, wide, reach = true) {
  let x0 = Infinity, x1 = -Infinity;
  /** @type {number[]} */
  const pivots = [];
  sim.refreshRender();
  const pos = sim.positions();
  const flags = sim.pointFlags();
  for (let i = 0; 3 * i + 2 < pos.length; i++) {
    if (flags[i] & 1) { // locked: an anchor, not the subject
      pivots.push(pos[3 * i]);
      continue;
    }
    x0 = Math.min(x0, pos[3 * i]);
    x1 = Math.max(x1, pos[3 * i]);
  }
  /** @type {[number, number][]} the fixed bodies' spans */
  const fixed = [];
  if (sim.bodyCount) {
    /** @type {BodyInfo[]} */
    const info = JSON.parse(sim.bodiesJson());
    /** @type {JointInfo[]} */
    const joints = JSON.parse(sim.jointsJson());
    /** @type {Set<number>} */
    const still = new Set(info.filter((b) => b.kind !== 'dynamic').map((b) => b.id));
    for (const j of joints) {
      if (j.mouse) continue;
      if (j.a == null || still.has(j.a)) pivots.push(j.anchorA[0]);
      else if (j.b == null || still.has(j.b)) pivots.push(j.anchorB[0]);
    }
    sim.refillBodyPoses(1);
    const poses = sim.bodyPoses(); // a view: no sim calls below
    info.forEach((b, i) => {
      if (7 * i >= poses.length) return;
      const s = b.shape;
      const r = s.type === 'box' ? Math.hypot(s.half[0], s.half[1]) : s.radius + (s.type === 'capsule' ? s.halfLength : 0);
      if (b.kind !== 'dynamic') {
        const hx = s.type === 'box' ? s.half[0] : r;
        if (2 * hx <= wide * 1.001) fixed.push([poses[7 * i] - hx, poses[7 * i] + hx]);
        return;
      }
      x0 = Math.min(x0, poses[7 * i] - r);
      x1 = Math.max(x1, poses[7 * i] + r);
    });
  }
  if (!Number.isFinite(x0)) return null;
  if (!reach) return { x0, x1 };
  // Mirrored about the pivots: what hangs to one side swings as far to the other.
  let m0 = x0, m1 = x1;
  for (const p of pivots) {
    m0 = Math.min(m0, 2 * p - x1);
    m1 = Math.max(m1, 2 * p - x0);
  }
  for (const [a, b] of fixed) {
    m0 = Math.min(m0, a);
    m1 = Math.max(m1, b);
  }
  return { x0: m0, x1: m1 };
}
