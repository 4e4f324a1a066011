// @ts-check
// Pointer input of the page (mouse, touch, pen): each pointerId is its own gesture, so every
// finger drags its own point.
//   Drag mode  down on a point: grab it, moves drag it, up releases (it keeps the pointer's
//              velocity). A click (mouse/pen: little motion, short) toggles its lock; on touch
//              a long-press (500 ms, still) toggles it. Down on empty space: a cut swipe.
//   Cut mode   every swipe cuts (also: right mouse button or Alt in any mode).
//   View       wheel zooms, middle button pans; on touch two fingers on empty space pinch.
//   Edit mode  clicks go to the editor (editing.js); points can still be dragged.
//
// What it needs from the page is `UiHost` (ui.js builds it from the App): the sim, the view
// under a point and the sim(s) input acts on, `guard` for sim calls (a thrown error goes to the
// status line), the mode. Picking and the pointer → world mapping are camera.js's (shared with
// <rope-lab>). Views of wasm memory are built, used and dropped within one handler.
//
// Comparison view (compare.js): `viewAt(px, py)` gives the camera and the sim to pick in (the
// region under the pointer), and gestures act on `inputSim()`, which then applies grab / drag /
// release / cut / lock to every sim of the comparison. Edit mode is off there.

/** @import { InputSim, Sim, Trail } from './types.js' */
/** @import { Camera } from './camera.js' */
/** @import { Editor } from './editing.js' */

import { localPx, pickBody, pickPoint } from './camera.js';
import { LINK_PICK_PX, nearestLink } from './editing.js';

/**
 * What the pointer input and the editor need from the page (ui.js makes it from the App).
 * @typedef {object} UiHost
 * @property {() => Sim} sim the world (the single view's)
 * @property {() => Camera} camera the single view's camera
 * @property {() => boolean} comparing whether the comparison view is on
 * @property {() => boolean} embed ?embed=1: the page is embedded in another
 * @property {() => string} mode 'drag', 'cut' or 'edit'
 * @property {(px: number, py: number) => View} viewAt the view under a CSS point
 * @property {() => InputSim} inputSim the sim, or every sim of the comparison
 * @property {(cam: Camera) => void} viewChanged a camera was zoomed or panned by the user
 * @property {<T>(label: string, fn: () => T) => T | undefined} guard a sim call; errors to the status line
 * @property {(msg: string, kind?: string, ms?: number) => void} status
 * @property {() => number} subdivisions edit mode: how many pieces a clicked link is cut into
 * @property {() => void} releaseAll drop every gesture (before the world is replaced)
 * @property {(shift: (j: number) => number) => void} pointRemoved edit: indices above a removed point shift
 * @property {() => void} cleared the world was replaced (undo): nothing is hovered
 * @property {(w: Where) => void} tapEmpty drag mode: a tap or click on empty space (adds a body in body scenes)
 */
/**
 * The view under the pointer (App `viewAt`): its camera, and the sim to pick in.
 * @typedef {{ camera: Camera, sim: InputSim }} View
 */
/**
 * A pointer position: CSS px relative to the canvas, world (view-plane) metres, its view.
 * @typedef {{ px: number, py: number, x: number, y: number, view: View }} Where
 */
/**
 * One pointer's gesture (`Gestures.pointers`, by pointerId).
 * @typedef {object} Gesture
 * @property {number} id pointerId
 * @property {string} type pointerType
 * @property {'press' | 'grab' | 'grabBody' | 'cut' | 'pan' | 'pinch' | 'none'} kind
 * @property {number} index the grabbed point, or -1
 * @property {number} downPx
 * @property {number} downPy
 * @property {number} downT the pointerdown event's timeStamp (ms)
 * @property {Where} last
 * @property {boolean} moved
 * @property {boolean} consumed
 * @property {boolean} shift
 * @property {number} timer long-press timeout
 * @property {View} view the view it started in
 * @property {number} [link] edit mode: the link a press subdivides
 * @property {Where} [cur] pinch: the latest position
 * @property {boolean} [remembered] cut: the undo step is taken
 * @property {number} [cuts] cut: links cut so far
 * @property {boolean} [tap] cut: begun on empty space in drag mode (a tap there is `tapEmpty`)
 */


const PICK_PX = 20;       // pick radius in CSS px
const BODY_PICK_PX = 6;   // a body is picked this close to its outline (CSS px)
const CLICK_PX = 6;       // more motion than this is a drag, not a click
const CLICK_MS = 400;     // a longer press is not a click
const LONG_PRESS_MS = 500;

export class Gestures {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {UiHost} host
   * @param {Editor} editor
   */
  constructor(canvas, host, editor) {
    this.canvas = canvas;
    this.host = host;
    this.editor = editor;
    /** @type {Map<number, Gesture>} */
    this.pointers = new Map(); // pointerId → gesture state
    this.hover = -1;
    this.hoverLink = -1;
    this.hoverBody = -1;
    /** @type {{ a: Gesture, b: Gesture, d: number, mx: number, my: number } | null} */
    this.pinch = null;         // two touch pointers zooming / panning the view
    /** @type {[number, number] | null} */
    this.cursor = null;        // last mouse position (CSS px)
    /** @type {Trail[]} */
    this.trails = [];          // cut swipe segments, fading
    this.wheelActive = false;
    this.bindPointer();
  }

  /**
   * Event → CSS px relative to the canvas and world coordinates, through the view under the
   * pointer (`view`: camera and sim), or through the gesture's view `s.view` once it started.
   * @param {{ clientX: number, clientY: number }} e a pointer event or a touch
   * @param {Gesture | null} [s]
   * @returns {Where}
   */
  where(e, s = null) {
    const [px, py] = localPx(this.canvas, e);
    const view = s?.view ?? this.host.viewAt(px, py);
    const [x, y] = view.camera.toWorld(px, py);
    return { px, py, x, y, view };
  }

  /** The sim pointer actions go to (every sim of a comparison). */
  target() {
    return this.host.inputSim();
  }

  /**
   * Id of the movable body under the pointer (within a few px of its outline), or -1. Not in
   * edit mode (it edits points and links).
   * @param {Where} w
   */
  pickBodyAt(w) {
    if (this.host.mode() === 'edit' || w.view.sim.bodyCount === 0) return -1;
    return this.host.guard('pickBody', () => pickBody(w.view.sim, w.view.camera, w.x, w.y, BODY_PICK_PX)) ?? -1;
  }

  /**
   * Grabs the body under the pointer, if any, at the point grabbed (a soft mouse joint pulls
   * that point of the body to the pointer; in the comparison, the same body in every sim).
   * Returns whether a body was grabbed.
   * @param {PointerEvent} e
   * @param {Gesture} s
   * @param {Where} w
   * @returns {boolean}
   */
  grabBodyAt(e, s, w) {
    const id = this.pickBodyAt(w);
    if (id < 0) return false;
    const ok = this.host.guard('grabBody', () => { this.target().grabBody(e.pointerId, id, w.x, w.y); return true; });
    if (!ok) return false;
    s.kind = 'grabBody';
    this.hoverBody = -1;
    this.canvas.classList.add('dragging');
    return true;
  }

  /** @param {Where} w */
  pickAt(w) {
    return this.host.guard('pick', () => pickPoint(w.view.sim, w.view.camera, w.x, w.y, PICK_PX)) ?? -1;
  }

  bindPointer() {
    const c = this.canvas;
    c.addEventListener('pointerdown', (e) => this.onDown(e));
    c.addEventListener('pointermove', (e) => this.onMove(e));
    c.addEventListener('pointerup', (e) => this.onUp(e, false));
    c.addEventListener('pointercancel', (e) => this.onUp(e, true));
    c.addEventListener('lostpointercapture', (e) => { if (this.pointers.has(e.pointerId)) this.onUp(e, true); });
    c.addEventListener('pointerleave', (e) => { if (e.pointerType === 'mouse') { this.hover = -1; this.hoverLink = -1; this.hoverBody = -1; this.cursor = null; } });
    c.addEventListener('contextmenu', (e) => e.preventDefault());
    // Embedded in a page (?embed=1) the view must not trap the reader: the canvas lets the
    // browser pan vertically (CSS touch-action: pan-y), a touch that starts on a point or a
    // body stops that scroll here (so it drags it), and the wheel zooms only with Ctrl (a pinch
    // on a touchpad sends ctrl+wheel) or after a click into the view, until the pointer leaves.
    c.addEventListener('touchstart', (e) => {
      if (!this.host.embed() || e.touches.length !== 1) return;
      const t = e.touches[0];
      const w = this.where(t);
      if (this.host.mode() === 'cut' || this.pickAt(w) >= 0 || this.pickBodyAt(w) >= 0) e.preventDefault();
    }, { passive: false });
    c.addEventListener('pointerleave', (e) => { if (e.pointerType === 'mouse') this.wheelActive = false; });
    window.addEventListener('blur', () => { this.wheelActive = false; });
    c.addEventListener('wheel', (e) => {
      if (this.host.embed() && !e.ctrlKey && !this.wheelActive) return; // the page scrolls
      e.preventDefault();
      const { px, py, view } = this.where(e);
      view.camera.zoomAt(px, py, Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.0015)));
      this.host.viewChanged(view.camera);
    }, { passive: false });
  }

  /** @param {PointerEvent} e */
  onDown(e) {
    if (e.pointerType === 'mouse' && e.button > 2) return;
    if (e.pointerType === 'mouse') this.wheelActive = true; // a click into an embed lets the wheel zoom
    e.preventDefault();
    try { this.canvas.setPointerCapture(e.pointerId); } catch { /* synthetic events */ }
    const w = this.where(e);
    /** @type {Gesture} */
    const s = {
      id: e.pointerId, type: e.pointerType, kind: 'press', index: -1,
      downPx: w.px, downPy: w.py, downT: e.timeStamp, last: w,
      moved: false, consumed: false, shift: e.shiftKey, timer: 0, view: w.view,
    };
    this.pointers.set(e.pointerId, s);
    if (e.button === 1) {
      s.kind = 'pan'; // middle button pans the view
      return;
    }
    const cutGesture = this.host.mode() === 'cut' || e.button === 2 || e.altKey;
    if (cutGesture) {
      s.kind = 'cut';
      return;
    }
    const i = this.pickAt(w);
    const link = this.host.mode() === 'edit' && i >= 0 ? this.editor.preferredLink(w) : -1;
    if (link >= 0) {
      s.kind = 'press'; // a click nearer a link's middle than its ends subdivides it
      s.link = link;
    } else if (i < 0 && this.grabBodyAt(e, s, w)) {
      // A body under the pointer and no point within the pick radius (a rope's end on a
      // body is grabbed as the point): dragged by a soft mouse joint.
    } else if (i >= 0) {
      const ok = this.host.guard('grab', () => { this.target().grab(e.pointerId, i); return true; });
      if (ok) {
        s.kind = 'grab';
        s.index = i;
        this.canvas.classList.add('dragging');
        if (e.pointerType === 'touch') s.timer = setTimeout(() => this.onLongPress(s), LONG_PRESS_MS);
      } else {
        s.kind = 'none'; // e.g. held by another finger
      }
    } else {
      // In an embed, a swipe on empty space does not cut (it is the reader scrolling the
      // page): only Cut mode, the right button or Alt cut there.
      s.kind = this.host.mode() === 'edit' ? 'press' : this.host.embed() ? 'none' : 'cut';
      s.tap = s.kind === 'cut' && this.host.mode() === 'drag';
      // A second finger on empty space while another rests there (not cutting yet): pinch.
      const other = e.pointerType === 'touch' && !this.pinch
        ? [...this.pointers.values()].find((p) => p !== s && p.type === 'touch' && !p.moved && (p.kind === 'cut' || p.kind === 'press' || (this.host.embed() && p.kind === 'none')))
        : null;
      if (other) {
        other.kind = s.kind = 'pinch';
        other.cur = other.last;
        s.cur = w;
        this.pinch = { a: other, b: s, ...this.pinchFrame(other.cur, s.cur) };
      }
    }
  }

  /**
   * @param {Where} p
   * @param {Where} q
   */
  pinchFrame(p, q) {
    return { d: Math.max(Math.hypot(q.px - p.px, q.py - p.py), 1), mx: (p.px + q.px) / 2, my: (p.py + q.py) / 2 };
  }

  /**
   * Two-finger zoom and pan.
   * @param {Gesture} s
   * @param {Where} w
   */
  onPinchMove(s, w) {
    s.cur = w;
    const pinch = this.pinch;
    if (!pinch || (pinch.a !== s && pinch.b !== s)) return;
    const f = this.pinchFrame(/** @type {Where} */ (pinch.a.cur), /** @type {Where} */ (pinch.b.cur)); // (set as the pinch began)
    const cam = pinch.a.view.camera;
    cam.panBy(f.mx - pinch.mx, f.my - pinch.my);
    cam.zoomAt(f.mx, f.my, f.d / pinch.d);
    this.host.viewChanged(cam);
    Object.assign(pinch, f);
  }

  /** @param {PointerEvent} e */
  onMove(e) {
    const s = this.pointers.get(e.pointerId);
    const w = this.where(e, s);
    if (e.pointerType === 'mouse' || e.pointerType === 'pen') {
      this.cursor = [w.px, w.py];
      if (!s) this.updateHover(w);
    }
    if (!s) return;
    if (s.kind === 'pinch') {
      this.onPinchMove(s, w);
      return;
    }
    if (!s.moved && Math.hypot(w.px - s.downPx, w.py - s.downPy) > CLICK_PX) {
      s.moved = true;
      clearTimeout(s.timer);
      if (s.kind === 'press' && !this.host.embed()) s.kind = 'cut'; // edit mode: a drag on empty space cuts too
    }
    // Coalesced events give the full path of fast swipes (cuts) on browsers that have them.
    const events = s.kind === 'cut' && e.getCoalescedEvents ? e.getCoalescedEvents() : [];
    if (s.kind === 'grabBody') {
      this.host.guard('drag', () => this.target().dragBody(e.pointerId, w.x, w.y));
    } else if (s.kind === 'grab') {
      this.host.guard('drag', () => this.target().dragTo(e.pointerId, w.x, w.y));
    } else if (s.kind === 'pan') {
      s.view.camera.panBy(w.px - s.last.px, w.py - s.last.py);
      this.host.viewChanged(s.view.camera);
      s.last = this.where(e, s);
    } else if (s.kind === 'cut' && s.moved) {
      const pts = events.length ? events.map((ce) => this.where(ce, s)) : [w];
      for (const p of pts) this.cutSegment(s, p);
    }
  }

  /**
   * @param {Gesture} s
   * @param {Where} w
   */
  cutSegment(s, w) {
    const a = s.last;
    if (a.px === w.px && a.py === w.py) return;
    const before = this.host.comparing() || s.remembered ? null : this.host.sim().exportScene();
    const n = this.host.guard('cut', () => this.target().cut(a.x, a.y, w.x, w.y)) ?? 0;
    if (n > 0 && before && !s.remembered) {
      // One undo step per swipe, taken before its first cut.
      s.remembered = true;
      this.editor.push(before);
    }
    s.cuts = (s.cuts ?? 0) + n;
    this.trails.push({ x0: a.px, y0: a.py, x1: w.px, y1: w.py, t: performance.now() });
    s.last = w;
  }

  /** @param {Gesture} s */
  onLongPress(s) {
    if (!this.pointers.has(s.id) || s.moved || s.kind !== 'grab') return;
    s.consumed = true;
    if (navigator.vibrate) navigator.vibrate(15);
    if (this.host.mode() === 'edit') {
      this.editor.removePoint(s.index);
    } else {
      this.editor.remember();
      const locked = this.host.guard('lock', () => this.target().toggleLock(s.index));
      if (locked !== undefined) this.host.status(`point ${s.index} ${locked ? 'locked' : 'unlocked'}`, 'info', 1500);
    }
  }

  /**
   * @param {PointerEvent} e
   * @param {boolean} cancelled
   */
  onUp(e, cancelled) {
    const s = this.pointers.get(e.pointerId);
    if (!s) return;
    this.pointers.delete(e.pointerId);
    clearTimeout(s.timer);
    try { this.canvas.releasePointerCapture(e.pointerId); } catch { /* already released */ }
    if (![...this.pointers.values()].some((p) => p.kind === 'grab' || p.kind === 'grabBody')) this.canvas.classList.remove('dragging');
    const sim = this.target();
    if (s.kind === 'grab') sim.release(e.pointerId);
    if (s.kind === 'grabBody') sim.releaseBody(e.pointerId);
    if (s.kind === 'pinch') {
      // The other finger does nothing more until it lifts.
      if (this.pinch) for (const p of [this.pinch.a, this.pinch.b]) if (p !== s) p.kind = 'none';
      this.pinch = null;
      return;
    }
    if (cancelled || s.consumed) return;

    const w = this.where(e, s);
    // The events' own times, not when they were handled: on a busy page the handlers can
    // run hundreds of ms late, and a quick click must stay a click (a fresh-clone CI run on
    // a loaded machine lost an edit-mode click this way).
    const click = !s.moved && e.timeStamp - s.downT < CLICK_MS;
    if (s.kind === 'cut') {
      if (s.moved) this.cutSegment(s, w);
      if (s.cuts) this.host.status(`cut ${s.cuts} link${s.cuts === 1 ? '' : 's'}`, 'info', 1500);
      else if (click && s.tap) this.host.tapEmpty(w);
      return;
    }
    if (!click) return;
    if (s.kind === 'grab') {
      if (this.host.mode() === 'edit') this.editor.clickPoint(s.index, s.shift || e.shiftKey);
      else if (s.type !== 'touch') {
        this.editor.remember();
        this.host.guard('lock', () => sim.toggleLock(s.index));
      }
    } else if (s.kind === 'press') {
      this.editor.clickEmpty(w, s.link ?? -1);
    }
    if (s.type !== 'touch') this.updateHover(w);
  }

  /** @param {Where} w */
  updateHover(w) {
    let i = this.pickAt(w);
    const link = this.host.mode() === 'edit' && i >= 0 ? this.editor.preferredLink(w) : -1;
    if (link >= 0) i = -1;
    this.hover = i;
    this.hoverLink = link >= 0 ? link : this.host.mode() === 'edit' && i < 0 && this.editor.source < 0
      ? nearestLink(this.host.sim(), w.x, w.y, LINK_PICK_PX / this.host.camera().scale)
      : -1;
    this.hoverBody = i < 0 && link < 0 ? this.pickBodyAt(w) : -1;
    this.canvas.classList.toggle('over-point', i >= 0 || this.hoverBody >= 0);
  }

  /** Drops every gesture (before a scene replaces the world). */
  releaseAll() {
    for (const s of this.pointers.values()) {
      clearTimeout(s.timer);
      if (s.kind === 'grab') this.target().release(s.id);
      if (s.kind === 'grabBody') this.target().releaseBody(s.id);
    }
    this.pointers.clear();
    this.pinch = null;
    this.canvas.classList.remove('dragging');
  }

  /**
   * A point was removed (edit mode): indices above it shift down by one (`shift`).
   * @param {(j: number) => number} shift
   */
  pointRemoved(shift) {
    this.hover = -1;
    for (const s of this.pointers.values()) {
      s.index = shift(s.index);
      if (s.index < 0 && s.kind === 'grab') s.kind = 'none';
    }
  }

  /** Forgets what is under the pointer (a new world). */
  clearHover() {
    this.hover = -1;
    this.hoverLink = -1;
    this.hoverBody = -1;
  }
}
