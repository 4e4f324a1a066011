// @ts-check
// Every sim of the comparison (compare.js) behind the one-sim input API the page's pointer
// input uses (gestures.js): each call goes to every sim, with the same point index.

/** @import { InputSim, Sim } from './types.js' */
/** @import { Compare } from './compare.js' */

/**
 * Every sim of the comparison behind the one-sim input API ui.js uses.
 * @implements {InputSim}
 */
export class SimGroup {
  /** @param {Compare} compare */
  constructor(compare) {
    this.compare = compare;
  }

  get sims() {
    return /** @type {Sim[]} */ (this.compare.slots.map((s) => s.sim).filter(Boolean));
  }

  get view() {
    return this.sims[0]?.view ?? 'side';
  }

  /**
   * The nearest point to (x, y) over all sims (overlaid view), or -1.
   * @param {number} x
   * @param {number} y
   * @param {number} radius
   */
  pick(x, y, radius) {
    let best = -1;
    let bestD = Infinity;
    for (const sim of this.sims) {
      const i = sim.pick(x, y, radius);
      if (i < 0) continue;
      const yOff = sim.view === 'top' ? 2 : 1; // (a call into the sim: before the view is built)
      const pos = sim.positions();
      const d = Math.hypot(pos[3 * i] - x, pos[3 * i + yOff] - y);
      if (d < bestD) {
        bestD = d;
        best = i;
      }
    }
    return best;
  }

  /**
   * Grabs point `index` in every sim; throws only if no sim could take it.
   * @param {number} pointerId
   * @param {number} index
   */
  grab(pointerId, index) {
    let first = null;
    let ok = 0;
    for (const sim of this.sims) {
      try {
        sim.grab(pointerId, index);
        ok++;
      } catch (e) {
        first ??= e;
      }
    }
    if (!ok && first) throw first;
  }

  /**
   * @param {number} pointerId
   * @param {number} x
   * @param {number} y
   */
  dragTo(pointerId, x, y) {
    for (const sim of this.sims) if (sim.heldBy(pointerId) >= 0) sim.dragTo(pointerId, x, y);
  }

  /** @param {number} pointerId */
  release(pointerId) {
    let any = false;
    for (const sim of this.sims) any = sim.release(pointerId) || any;
    return any;
  }

  /**
   * Cuts the same swipe in every sim; returns the most links any one sim lost.
   * @param {number} x0
   * @param {number} y0
   * @param {number} x1
   * @param {number} y1
   */
  cut(x0, y0, x1, y1) {
    let most = 0;
    for (const sim of this.sims) most = Math.max(most, sim.cut(x0, y0, x1, y1));
    return most;
  }

  /** Bodies in the first sim (every sim loads the same scene). */
  get bodyCount() {
    return this.sims[0]?.bodyCount ?? 0;
  }

  /**
   * The body under (x, y) in any sim (overlaid view; ids are the same in every sim), or -1.
   * @param {number} x
   * @param {number} y
   * @param {number} margin
   */
  pickBody(x, y, margin) {
    for (const sim of this.sims) {
      const id = sim.pickBody(x, y, margin);
      if (id >= 0) return id;
    }
    return -1;
  }

  /**
   * Grabs body `id` at (x, y) in every sim; throws only if no sim could.
   * @param {number} pointerId
   * @param {number} id
   * @param {number} x
   * @param {number} y
   */
  grabBody(pointerId, id, x, y) {
    let first = null;
    let ok = 0;
    for (const sim of this.sims) {
      try {
        sim.grabBody(pointerId, id, x, y);
        ok++;
      } catch (e) {
        first ??= e;
      }
    }
    if (!ok && first) throw first;
  }

  /**
   * @param {number} pointerId
   * @param {number} x
   * @param {number} y
   */
  dragBody(pointerId, x, y) {
    for (const sim of this.sims) {
      try {
        sim.dragBody(pointerId, x, y);
      } catch {
        // this sim did not take the grab
      }
    }
  }

  /** @param {number} pointerId */
  releaseBody(pointerId) {
    let any = false;
    for (const sim of this.sims) any = sim.releaseBody(pointerId) || any;
    return any;
  }

  /** @param {number} index */
  isLocked(index) {
    return this.sims[0].isLocked(index);
  }

  /**
   * Flips the lock of point `index` in every sim to the same new state.
   * @param {number} index
   */
  toggleLock(index) {
    const locked = !this.isLocked(index);
    for (const sim of this.sims) sim.setLocked(index, locked);
    return locked;
  }
}
