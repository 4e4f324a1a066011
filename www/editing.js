// @ts-check
// Edit mode and undo (the page; ui.js wires them to the pointer and the keys).
//
// Edit mode: click empty space to add a point (connected to the selected point, if any);
// click a point to select it, then another to connect them (the chain goes on from there; Esc
// or clicking the selected point ends it); click a link to subdivide it; Shift-click (touch:
// long-press) a point to remove it. Undo: the scene as it was before each edit, cut or lock
// (`exportScene`), Ctrl+Z / ⌘Z, Ctrl+Shift+Z / Ctrl+Y (keys.js).
//
// What it needs from the page is gestures.js's `UiHost`.

/** @import { Sim } from './types.js' */
/** @import { UiHost, Where } from './gestures.js' */

export const LINK_PICK_PX = 10; // link pick distance in CSS px (edit mode)
const UNDO_KEEP = 50;            // undo steps kept

/**
 * Distance-nearest link to (x, y) in the view plane within `radius` m, or -1.
 * @param {Sim} sim
 * @param {number} x
 * @param {number} y
 * @param {number} radius
 */
export function nearestLink(sim, x, y, radius) {
  const top = sim.view === 'top';
  const pos = sim.positions();
  const links = sim.links();
  const yOff = top ? 2 : 1;
  const n = pos.length / 3;
  let best = -1;
  let bestD2 = radius * radius;
  for (let k = 0; 2 * k + 1 < links.length; k++) {
    const a = links[2 * k];
    const b = links[2 * k + 1];
    if (a >= n || b >= n) continue;
    const ax = pos[3 * a], ay = pos[3 * a + yOff];
    const bx = pos[3 * b], by = pos[3 * b + yOff];
    const dx = bx - ax, dy = by - ay;
    const len2 = dx * dx + dy * dy;
    let t = len2 > 0 ? ((x - ax) * dx + (y - ay) * dy) / len2 : 0;
    t = Math.min(Math.max(t, 0), 1);
    const ex = ax + t * dx - x, ey = ay + t * dy - y;
    const d2 = ex * ex + ey * ey;
    if (d2 <= bestD2) {
      bestD2 = d2;
      best = k;
    }
  }
  return best;
}

export class Editor {
  /** @param {UiHost} host */
  constructor(host) {
    this.host = host;
    this.source = -1;          // the selected point
    /** @type {string[]} */
    this.undoStack = [];       // exportScene() texts before each edit, cut or lock
    /** @type {string[]} */
    this.redoStack = [];
  }

  /** A new scene: nothing selected, nothing to undo. */
  clear() {
    this.source = -1;
    this.undoStack.length = 0;
    this.redoStack.length = 0;
  }

  /**
   * An undo step taken by the caller (a cut swipe remembers the scene before its first cut).
   * @param {string} text
   */
  push(text) {
    this.undoStack.push(text);
    if (this.undoStack.length > UNDO_KEEP) this.undoStack.shift();
    this.redoStack.length = 0;
  }

  /**
   * @param {number} i
   * @param {boolean} remove
   */
  clickPoint(i, remove) {
    const sim = this.host.sim();
    if (remove) {
      this.removePoint(i);
    } else if (this.source < 0) {
      this.source = i;
    } else if (this.source === i) {
      this.source = -1;
    } else {
      this.remember();
      const k = this.host.guard('connect', () => sim.connect(this.source, i));
      if (k !== undefined) this.source = i;
    }
  }

  /**
   * Edit mode, a click that also picked a point: the link under it if the click is nearer
   * that link's middle than either of its ends (on screen), else -1. At normal zoom links are
   * 17–29 px long and the 20 px point radius covers them whole; this rule works at any zoom.
   * @param {Where} w
   */
  preferredLink(w) {
    if (this.source >= 0) return -1; // connecting: points win
    const sim = /** @type {Sim} */ (w.view.sim); // (edit mode: never a comparison's group)
    const k = nearestLink(sim, w.x, w.y, LINK_PICK_PX / w.view.camera.scale);
    if (k < 0) return -1;
    const pos = sim.positions();
    const links = sim.links();
    const yOff = sim.view === 'top' ? 2 : 1;
    const a = links[2 * k], b = links[2 * k + 1];
    const ax = pos[3 * a], ay = pos[3 * a + yOff], bx = pos[3 * b], by = pos[3 * b + yOff];
    const d = (/** @type {number} */ x, /** @type {number} */ y) => Math.hypot(w.x - x, w.y - y);
    return d((ax + bx) / 2, (ay + by) / 2) < Math.min(d(ax, ay), d(bx, by)) ? k : -1;
  }

  /**
   * @param {Where} w
   * @param {number} [link]
   */
  clickEmpty(w, link = -1) {
    const sim = this.host.sim();
    if (this.source < 0) {
      const k = link >= 0 ? link : nearestLink(sim, w.x, w.y, LINK_PICK_PX / this.host.camera().scale);
      if (k >= 0) {
        const n = this.host.subdivisions();
        this.remember();
        this.host.guard('subdivide', () => sim.subdivide(k, n));
        return;
      }
    }
    this.remember();
    const i = this.host.guard('add point', () => sim.addPoint(w.x, w.y, false));
    if (i === undefined) return;
    if (this.source >= 0) {
      this.host.guard('connect', () => sim.connect(this.source, i));
    }
    this.source = i;
  }

  /** @param {number} i */
  removePoint(i) {
    this.remember();
    const ok = this.host.guard('remove', () => { this.host.sim().removePoint(i); return true; });
    if (!ok) return;
    // Indices above i shift down by one.
    const shift = (/** @type {number} */ j) => (j === i ? -1 : j > i ? j - 1 : j);
    this.source = shift(this.source);
    this.host.pointRemoved(shift);
  }

  /**
   * Undo for edits, cuts and locks: the scene as it was before each (exportScene), up to
   * UNDO_KEEP of them; Ctrl+Z / ⌘Z restores the last, Ctrl+Shift+Z / Ctrl+Y redoes. A new
   * scene clears both stacks. Not in the comparison (its sims share the input, not an editor).
   */
  remember() {
    if (this.host.comparing()) return;
    this.push(this.host.sim().exportScene());
  }

  undo(redo = false) {
    const [from, to] = redo ? [this.redoStack, this.undoStack] : [this.undoStack, this.redoStack];
    if (this.host.comparing() || !from.length) return false;
    const sim = this.host.sim();
    const now = sim.exportScene();
    this.host.releaseAll();
    const ok = this.host.guard(redo ? 'redo' : 'undo', () => { sim.loadScene(from[from.length - 1]); return true; });
    if (!ok) return false;
    from.pop();
    to.push(now);
    this.source = -1;
    this.host.cleared();
    this.host.status(`${redo ? 'redone' : 'undone'} (${from.length} more)`, 'info', 1500);
    return true;
  }
}
