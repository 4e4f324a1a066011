// @ts-check
// <rope-lab>'s input (rope-lab.js): a press on a point or a body grabs it in every view, a
// swipe on empty space cuts, a click on a point locks it; wheel and pinch zoom only once the
// embed is activated (a click into it); the keys. Picking and the pointer → world mapping are
// camera.js's, shared with the page.

/** @import { RopeLab, View } from './rope-lab.js' */

import { localPx, pickBody, pickPoint } from './camera.js';

const PICK_PX = 16;


/**
 * The view of `el` under CSS point (px, py) and the world point there.
 * @param {RopeLab} el
 * @param {number} px
 * @param {number} py
 */
export function at(el, px, py) {
  const v = el.views.find((w) => px >= w.rect.x && px < w.rect.x + w.rect.w && py >= w.rect.y && py < w.rect.y + w.rect.h) ?? el.views[0];
  const [x, y] = v.cam.toWorld(px, py);
  return { v, x, y };
}

/**
 * What a press at (px, py) would take: a point (index), a body (id), or nothing.
 * @param {RopeLab} el
 * @param {number} px
 * @param {number} py
 * @returns {{ kind: 'point' | 'body' | 'cut', index: number, v: View, x: number, y: number }}
 */
export function hit(el, px, py) {
  const { v, x, y } = at(el, px, py);
  const i = pickPoint(v.sim, v.cam, x, y, PICK_PX);
  if (i >= 0) return { kind: 'point', index: i, v, x, y };
  const b = pickBody(v.sim, v.cam, x, y, 6);
  return { kind: b >= 0 ? 'body' : 'cut', index: b, v, x, y };
}

/**
 * The embed's pointer, wheel and keys (see rope-lab.js for what they do).
 * @param {RopeLab} el
 */
export function bindInput(el) {
  const c = el.canvas;
  const local = (/** @type {PointerEvent | WheelEvent} */ e) => localPx(c, e);
  let touchOnTarget = false;
  /** Fingers on an activated embed (CSS px), and the pinch: [distance, midpoint x, y]. */
  /** @type {Map<number, number[]>} */
  const fingers = new Map();
  /** @type {number[]} */
  let pinch = [];
  const span = () => {
    const [[ax, ay], [bx, by]] = fingers.values();
    return [Math.max(Math.hypot(bx - ax, by - ay), 1), (ax + bx) / 2, (ay + by) / 2];
  };
  c.addEventListener('pointerdown', (e) => {
    if (!el.views.length || e.button > 0 || el.gestures.has(e.pointerId)) return;
    const [px, py] = local(e);
    const h = hit(el, px, py);
    const touch = e.pointerType === 'touch';
    // A second finger on an activated embed: a pinch (zoom and pan), not a drag or a cut.
    if (touch && el.active && fingers.set(e.pointerId, [px, py]).size > 1) {
      el.releaseAll();
      pinch = span();
      return;
    }
    touchOnTarget = h.kind !== 'cut';
    // A finger on empty space scrolls the page, unless the user clicked into the embed.
    if (h.kind === 'cut' && touch && !el.active) return;
    const g = { kind: h.kind, index: h.index, view: h.v, x: h.x, y: h.y, sx: px, sy: py, moved: false };
    el.guard(() => {
      for (const v of el.views) {
        if (h.kind === 'point') v.sim.grab(e.pointerId, h.index);
        else if (h.kind === 'body') v.sim.grabBody(e.pointerId, h.index, h.x, h.y);
      }
    });
    el.gestures.set(e.pointerId, g);
    c.setPointerCapture(e.pointerId);
    if (h.kind !== 'cut') e.preventDefault();
    el.schedule();
  });
  // Touch: a finger that lands on a point or body drags it instead of scrolling the page.
  c.addEventListener('touchstart', (e) => { if (touchOnTarget || el.active) e.preventDefault(); }, { passive: false });
  c.addEventListener('pointermove', (e) => {
    const [px, py] = local(e);
    if (fingers.has(e.pointerId) && fingers.set(e.pointerId, [px, py]).size > 1) {
      // Zoom about the last midpoint, then move with the midpoint: the world point between
      // the fingers stays between them.
      const [d, mx, my] = span();
      el.zoomBy(d / pinch[0], pinch[1], pinch[2]);
      for (const v of el.views) v.cam.panBy(mx - pinch[1], my - pinch[2]);
      pinch = [d, mx, my];
      return;
    }
    const g = el.gestures.get(e.pointerId);
    if (!g) return;
    const [x, y] = g.view.cam.toWorld(px, py);
    if (Math.hypot(px - g.sx, py - g.sy) > 4) g.moved = true;
    el.guard(() => {
      if (g.kind === 'cut') {
        if (!g.moved) return;
        for (const v of el.views) v.sim.cut(g.x, g.y, x, y);
        const [ax, ay] = g.view.cam.toScreen(g.x, g.y);
        el.trails.push({ x0: ax, y0: ay, x1: px, y1: py, t: performance.now() });
        g.x = x;
        g.y = y;
      } else {
        for (const v of el.views) g.kind === 'point' ? v.sim.dragTo(e.pointerId, x, y) : v.sim.dragBody(e.pointerId, x, y);
      }
    });
    el.dirty = true;
    el.schedule();
  });
  const end = (/** @type {PointerEvent} */ e) => {
    fingers.delete(e.pointerId);
    const g = el.gestures.get(e.pointerId);
    if (!g) return;
    el.gestures.delete(e.pointerId);
    el.dragged = g.moved; // a drag is not the click that lets the wheel zoom
    el.guard(() => {
      for (const v of el.views) {
        if (g.kind === 'point') v.sim.release(e.pointerId);
        if (g.kind === 'body') v.sim.releaseBody(e.pointerId);
      }
      // A click on a point (no drag) locks or unlocks it.
      if (g.kind === 'point' && !g.moved && e.type === 'pointerup') for (const v of el.views) v.sim.toggleLock(g.index);
    });
    el.dirty = true;
    el.schedule();
  };
  c.addEventListener('pointerup', end);
  c.addEventListener('pointercancel', end);
  // A click (not a scroll) into the embed: the wheel zooms and one finger cuts until Esc or focus leaves.
  c.addEventListener('click', () => el.dragged || el.setActive(true));
  el.addEventListener('focusout', () => setTimeout(() => {
    if (/** @type {Document | ShadowRoot} */ (el.getRootNode()).activeElement !== el) el.setActive(false);
  }));
  c.addEventListener('wheel', (e) => {
    if (!(e.ctrlKey || el.active) || !el.views.length) return; // the page scrolls
    e.preventDefault();
    const [px, py] = local(e);
    el.zoomBy(Math.exp(-Math.max(Math.min(e.deltaY, 100), -100) * (e.ctrlKey ? 0.01 : 0.002)), px, py);
  }, { passive: false });
  el.addEventListener('keydown', (e) => {
    if (e.composedPath()[0] !== el || e.ctrlKey || e.metaKey || e.altKey) return;
    /** @type {Record<string, () => void>} */
    const keys = {
      ' ': () => (el.isPaused ? el.play() : el.pause()),
      r: () => el.reset(),
      '+': () => el.zoomBy(1.25),
      '=': () => el.zoomBy(1.25),
      '-': () => el.zoomBy(0.8),
      0: () => el.zoomBy(0),
      Escape: () => el.setActive(false),
    };
    const act = keys[e.key];
    if (act) {
      act();
      e.preventDefault();
    }
  });
}
