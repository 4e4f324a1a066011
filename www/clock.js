// @ts-check
// The fixed-step clock of the page's loop (main.js) and of <rope-lab> (rope-lab.js): one
// definition of the step H, the catch-up cap MAX_STEPS and the accumulator.
//
// Each animation frame hands `advance` the real time since the previous frame (`elapsed`
// measures it from requestAnimationFrame's timestamps); `advance` answers how many fixed
// steps of H are due. At most MAX_STEPS per frame: a frame that owes more (a background tab, a
// debugger pause) drops the rest (counted in `dropped`) instead of spiralling. The 5 % slack
// lets a 60 Hz display's jittery ~16.7 ms frames take one step each rather than alternating 0
// and 2; the accumulator keeps the small debt, so time stays exact. What is left in the
// accumulator over H (`alpha`) says how far between the last two steps the frame falls (the
// drawing interpolates there).
//
// Why not the engine's `Sim.advance()` (src/clock.rs FixedClock): it steps one sim inside
// wasm, while both loops step several sims in lockstep (the comparison's, an embed's views)
// and copy the positions before a frame's last step for the interpolation; the counting is
// the same idea, this is the one the browser code uses.

export const H = 1 / 60;
export const MAX_STEPS = 5;
/**
 * Slow motion: the fractions of real time the clock can run at. Slower runs fewer steps of
 * the same H per second (never a shorter step), so a slowed run is the same run, step for step.
 */
export const TIME_SCALES = [1, 1 / 2, 1 / 4, 1 / 10];

export class FixedClock {
  constructor(h = H, maxSteps = MAX_STEPS) {
    this.h = h;
    this.maxSteps = maxSteps;
    /** Real time (s) not yet simulated. */
    this.acc = 0;
    /** Steps dropped by the catch-up cap, in total. */
    this.dropped = 0;
    /** @type {number | null} the previous frame's timestamp (ms); null: the next frame measures no time */
    this.last = null;
  }

  /**
   * Seconds since the previous frame's timestamp (0 for the first frame after `restart`).
   * @param {number} now requestAnimationFrame's timestamp (ms)
   */
  elapsed(now) {
    const dt = this.last == null ? 0 : (now - this.last) / 1000;
    this.last = now;
    return dt;
  }

  /**
   * Adds `dt` seconds of real time (at most 1 s); returns how many fixed steps are due now.
   * @param {number} dt
   */
  advance(dt) {
    this.acc += Math.min(dt, 1);
    let n = Math.floor(this.acc / this.h + 0.05);
    if (n > this.maxSteps) {
      this.dropped += n - this.maxSteps;
      n = this.maxSteps;
      this.acc = 0;
    } else {
      this.acc -= n * this.h;
    }
    return n;
  }

  /** How far between the last two steps this frame falls, 0–1. */
  get alpha() {
    return Math.min(Math.max(this.acc / this.h, 0), 1);
  }

  /** Forgets the accumulated time (a new scene, a pause). */
  clear() {
    this.acc = 0;
  }

  /** Forgets the time and the last frame: the next frame measures no time (no catch-up jump). */
  restart() {
    this.acc = 0;
    this.last = null;
  }
}
