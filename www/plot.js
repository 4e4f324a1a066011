// @ts-check
// Small plots over time: a ring buffer of (t, value) samples and a sparkline drawn on a small
// canvas. Used by the comparison view (www/compare.js) for max stretch and energy of each
// solver over the last ~10 s of sim time. No dependencies.

/** A fixed-capacity ring buffer of (t, v) samples, oldest first. */
export class Series {
  constructor(capacity = 1500) {
    this.t = new Float64Array(capacity);
    this.v = new Float64Array(capacity);
    this.start = 0;
    this.length = 0;
  }

  clear() {
    this.start = 0;
    this.length = 0;
  }

  /** @param {number} t @param {number} v */
  push(t, v) {
    const cap = this.t.length;
    const i = (this.start + this.length) % cap;
    this.t[i] = t;
    this.v[i] = v;
    if (this.length < cap) this.length++;
    else this.start = (this.start + 1) % cap;
  }

  /**
   * Calls fn(t, v) for each sample with t ≥ t0, oldest first.
   * @param {(t: number, v: number) => void} fn
   * @param {number} [t0]
   */
  forEach(fn, t0 = -Infinity) {
    const cap = this.t.length;
    for (let k = 0; k < this.length; k++) {
      const i = (this.start + k) % cap;
      if (this.t[i] >= t0) fn(this.t[i], this.v[i]);
    }
  }

  /**
   * [min, max] of f(v) over samples with t ≥ t0 (finite values only), or null.
   * @param {number} [t0]
   * @param {(v: number) => number} [f]
   * @returns {[number, number] | null}
   */
  range(t0 = -Infinity, f = (v) => v) {
    let lo = Infinity;
    let hi = -Infinity;
    this.forEach((_, v) => {
      const y = f(v);
      if (Number.isFinite(y)) {
        if (y < lo) lo = y;
        if (y > hi) hi = y;
      }
    }, t0);
    return lo <= hi ? [lo, hi] : null;
  }

  /**
   * A range that ignores spikes: the 5th–95th percentile of f(v) over samples with t ≥ t0,
   * widened by half its span each way and clamped to [min, max]. A drag that sends the energy
   * to 10 kJ for a moment no longer stretches the plot of a 100 J rope flat; the spike is
   * drawn clipped at the edge. null if there are no finite samples.
   * @param {number} [t0]
   * @param {(v: number) => number} [f]
   * @returns {[number, number] | null}
   */
  robustRange(t0 = -Infinity, f = (v) => v) {
    const full = this.range(t0, f);
    if (!full) return null;
    if (!this.scratch || this.scratch.length < this.t.length) this.scratch = new Float64Array(this.t.length);
    let n = 0;
    this.forEach((_, v) => {
      const y = f(v);
      if (Number.isFinite(y)) /** @type {Float64Array} */ (this.scratch)[n++] = y;
    }, t0);
    const a = this.scratch.subarray(0, n).sort();
    const lo = a[Math.floor(0.05 * (n - 1))];
    const hi = a[Math.ceil(0.95 * (n - 1))];
    const span = hi - lo;
    return [Math.max(full[0], lo - 0.5 * span), Math.min(full[1], hi + 0.5 * span)];
  }

  last() {
    if (!this.length) return null;
    const i = (this.start + this.length - 1) % this.t.length;
    return { t: this.t[i], v: this.v[i] };
  }
}

/** Stretch is plotted on a log scale: log10 of the value, floored at 1e-7. */
export const logStretch = (/** @type {number} */ v) => Math.log10(Math.max(v, 1e-7));

/**
 * Union of ranges (nulls skipped), padded and at least `minSpan` wide; null if all empty.
 * @param {([number, number] | null)[]} ranges
 * @param {number} minSpan
 * @returns {[number, number] | null}
 */
export function sharedRange(ranges, minSpan) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const r of ranges) {
    if (!r) continue;
    lo = Math.min(lo, r[0]);
    hi = Math.max(hi, r[1]);
  }
  if (!(lo <= hi)) return null;
  if (hi - lo < minSpan) {
    const mid = (lo + hi) / 2;
    lo = mid - minSpan / 2;
    hi = mid + minSpan / 2;
  }
  const pad = (hi - lo) * 0.08;
  return [lo - pad, hi + pad];
}

/**
 * Fits a canvas's backing store to its CSS size × devicePixelRatio; returns the 2D context.
 * @param {HTMLCanvasElement} canvas
 */
function fit(canvas) {
  const dpr = window.devicePixelRatio || 1;
  const w = canvas.clientWidth;
  const h = canvas.clientHeight;
  const bw = Math.max(1, Math.round(w * dpr));
  const bh = Math.max(1, Math.round(h * dpr));
  if (canvas.width !== bw || canvas.height !== bh) {
    canvas.width = bw;
    canvas.height = bh;
  }
  const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  return { ctx, w, h };
}

/**
 * Draws `series` as a sparkline on `canvas`: time runs over [t0, t1] left to right, values
 * (after `f`, e.g. `logStretch`) over `[y0, y1]` bottom to top. `zero` draws a faint line at
 * f-value 0 when it is in range. The latest sample gets a dot.
 * @param {HTMLCanvasElement} canvas
 * @param {Series} series
 * @param {{ t0: number, t1: number, y0: number, y1: number, color: string,
 *   f?: (v: number) => number, zero?: boolean }} options
 */
export function drawSparkline(canvas, series, { t0, t1, y0, y1, color, f = (v) => v, zero = false }) {
  const { ctx, w, h } = fit(canvas);
  ctx.clearRect(0, 0, w, h);
  if (!(y1 > y0) || !(t1 > t0)) return;
  const pad = 2;
  const X = (/** @type {number} */ t) => pad + ((t - t0) / (t1 - t0)) * (w - 2 * pad);
  const Y = (/** @type {number} */ y) => h - pad - ((y - y0) / (y1 - y0)) * (h - 2 * pad);
  if (zero && y0 < 0 && y1 > 0) {
    ctx.strokeStyle = 'rgba(255,255,255,0.12)';
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(0, Math.round(Y(0)) + 0.5);
    ctx.lineTo(w, Math.round(Y(0)) + 0.5);
    ctx.stroke();
  }
  ctx.strokeStyle = color;
  ctx.lineWidth = 1.25;
  ctx.lineJoin = 'round';
  ctx.beginPath();
  let started = false;
  let lx = 0;
  let ly = 0;
  series.forEach((t, v) => {
    const y = f(v);
    if (!Number.isFinite(y)) return;
    lx = X(t);
    ly = Y(Math.min(Math.max(y, y0), y1));
    if (started) ctx.lineTo(lx, ly);
    else ctx.moveTo(lx, ly);
    started = true;
  }, t0);
  if (!started) return;
  ctx.stroke();
  ctx.fillStyle = color;
  ctx.beginPath();
  ctx.arc(lx, ly, 2, 0, 2 * Math.PI);
  ctx.fill();
}
