// @ts-check
// The page's camera (main.js, compare.js): camera.js's, plus a portrait fit by the scene's
// subject. Kept out of camera.js, which <rope-lab> loads too (an embed fits its whole frame).
//
// A portrait screen (a phone) fitting the frame's whole width (the walls) draws a 10 × 6 m
// scene in a third of its height, and a frame fitted by height alone cuts what lies to the
// sides (the leash's first dog, the pyramid's ends). Here the width that has to fit is the
// subject's: its free points and dynamic bodies as loaded, with a margin; the view then moves
// sideways to hold it. The rest is a pinch away, and Fit (0) refits.

/** @import { Sim } from './types.js' */

import { Camera, frameScene } from './camera.js';

/** The fitted width: the subject's times this (a margin on either side). */
const PORTRAIT_MARGIN = 1.2;
/** Camera.update fits this share of the frame's least width on a portrait screen. */
const PORTRAIT_SHARE = 0.75;

export class PageCamera extends Camera {
  constructor() {
    super();
    /** @type {{ x0: number, x1: number } | null} the subject's horizontal span as loaded (view-plane m) */
    this.content = null;
  }

  /** On a portrait viewport with a known subject: the width (m) that has to fit, else null. */
  subjectWidth() {
    const c = this.content;
    const { w, h } = this.viewport;
    if (!this.portrait || !c || !(c.x1 > c.x0) || h <= 1.2 * w) return null;
    const subject = (c.x1 - c.x0) * PORTRAIT_MARGIN;
    const walls = this.frame.minWidth * PORTRAIT_SHARE;
    return walls > 0 ? Math.min(subject, walls) : subject;
  }

  update() {
    const width = this.subjectWidth();
    if (width == null) return super.update();
    // Camera.update fits PORTRAIT_SHARE of the frame's least width here: hand it the subject's.
    const f = this.frame;
    this.frame = { ...f, minWidth: width / PORTRAIT_SHARE };
    super.update();
    this.frame = f;
  }

  resetView() {
    super.resetView();
    const c = this.content;
    if (!c || this.subjectWidth() == null) return;
    const half = (this.viewport.w / 2 / this.scale) * 0.8; // a tenth of the width kept clear each side
    if (c.x1 - c.x0 <= 2 * half) this.cx = Math.min(Math.max(this.cx, c.x1 - half), c.x0 + half);
    else this.cx = (c.x0 + c.x1) / 2;
    this.update();
  }

  /** @param {Camera} other */
  follow(other) {
    this.content = other instanceof PageCamera ? other.content : null;
    super.follow(other);
  }
}

/**
 * Frames `sim`'s scene in `cam` (camera.js `frameScene`), knowing its subject.
 * @param {PageCamera} cam
 * @param {Sim} sim
 */
export function frameSubject(cam, sim) {
  cam.content = subjectSpan(sim);
  frameScene(cam, sim);
}

/**
 * The horizontal span (view-plane metres) of what the scene is about: its free points and its
 * dynamic bodies (their outlines), or null for an empty scene.
 * @param {Sim} sim
 * @returns {{ x0: number, x1: number } | null}
 */
export function subjectSpan(sim) {
  let x0 = Infinity, x1 = -Infinity;
  const pos = sim.positions();
  const flags = sim.pointFlags();
  for (let i = 0; 3 * i + 2 < pos.length; i++) {
    if (flags[i] & 1) continue; // locked: an anchor, not the subject
    x0 = Math.min(x0, pos[3 * i]);
    x1 = Math.max(x1, pos[3 * i]);
  }
  if (sim.bodyCount) {
    /** @type {{ kind: string, shape: { radius?: number, half?: number[] } }[]} */
    const info = JSON.parse(sim.bodiesJson());
    sim.refillBodyPoses(1);
    const poses = sim.bodyPoses(); // a view: no sim calls below
    info.forEach((b, i) => {
      if (b.kind !== 'dynamic' || 7 * i >= poses.length) return;
      const r = b.shape.radius ?? Math.hypot(b.shape.half?.[0] ?? 0, b.shape.half?.[1] ?? 0);
      x0 = Math.min(x0, poses[7 * i] - r);
      x1 = Math.max(x1, poses[7 * i] + r);
    });
  }
  return Number.isFinite(x0) ? { x0, x1 } : null;
}
