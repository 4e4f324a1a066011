// @ts-check
// The read-outs over the view's top-left. The scene's number (`sim.measure()`, src/measure.rs):
// what the preset demonstrates, measured beside the closed form's prediction, and whether it
// lies within the stated tolerance. And the capstan read-out over the view's top-left (the capstan preset): for a rope lying over an
// obstacle, the load and hold ends with their tensions, the wrap angle θ, the friction limit
// e^{μθ} and whether the rope holds, from `sim.capstanReport()`. The renderer labels the ends
// and the arc.

/** @import { CapstanReport, Reading } from './types.js' */

/**
 * Decimals of `p` as the scene file writes it (0.6 → 1, 1.246 → 3; an f32 read back).
 * @param {number} p
 */
function decimals(p) {
  const s = String(+p.toPrecision(6));
  return s.includes('.') ? Math.min(s.length - s.indexOf('.') - 1, 4) : 0;
}

/**
 * @param {HTMLElement} el
 * @param {Reading | null} r
 */
export function renderMeasure(el, r) {
  el.hidden = !r;
  if (!r) return;
  const unit = r.unit ? ` ${r.unit}` : '';
  const tol = `± ${+(r.tolerance * 100).toFixed(1)} %`;
  const window = `${+r.from.toFixed(2)}–${+r.to.toFixed(2)} s`;
  let measured;
  if (r.status === 'disturbed') {
    measured = `<span class="dim">touched during the measurement (${window}): Reset to measure again</span>`;
  } else if (r.value == null || r.status !== 'done') {
    // (A fit over part of its window says little: the value shows when the window is over.)
    measured = `<span class="dim">${r.status === 'measuring' ? 'measuring' : 'measured'} over ${window}…</span>`;
  } else {
    const mark = r.within ? ' <span class="ok">✓</span>' : ' <span class="bad">✗</span>';
    measured = `measured <span class="num">${r.value.toFixed(decimals(r.predicted) + 1)}</span>${unit}${mark}`;
  }
  const html = `<div><b>${r.label}</b></div>`
    + `<div>${measured} <span class="dim">·</span> predicted <span class="num">${+r.predicted.toPrecision(6)}</span>${unit} <span class="dim">${tol}</span></div>`
    + (r.formula ? `<div class="formula dim">${r.formula}</div>` : '');
  if (el.innerHTML !== html) el.innerHTML = html;
  el.dataset.status = r.status;
  el.dataset.value = r.value == null ? '' : String(r.value);
}

/**
 * @param {HTMLElement} el
 * @param {CapstanReport | null} r
 */
export function renderCapstan(el, r) {
  el.hidden = !r;
  if (!r) return;
  const deg = (r.wrap * 180) / Math.PI;
  const ratio = r.ratio == null ? '∞ (hold side slack)' : r.ratio.toFixed(2);
  const src = r.fromSolver ? 'link forces' : 'hanging weight';
  const verdict = r.holds
    ? (r.ratio != null && r.ratio <= r.limit ? 'holds: friction grips (ratio ≤ limit)' : 'holds')
    : `slips at ${(r.slipSpeed * 100).toFixed(1)} cm/s${r.ratio != null && r.ratio > r.limit ? ' (ratio > limit)' : ''}`;
  const html = [
    '<b>Capstan</b> <span class="dim">T_load / T_hold ≤ e<sup>μθ</sup></span>',
    `load ${r.load.mass.toFixed(2)} kg · T<sub>load</sub> ${r.tensionLoad.toFixed(1)} N`,
    `hold ${r.hold.mass.toFixed(2)} kg · T<sub>hold</sub> ${r.tensionHold.toFixed(1)} N`,
    `wrap θ ${deg.toFixed(0)}° (${r.wrap.toFixed(2)} rad) · μ ${r.mu.toFixed(2)}`,
    `ratio ${ratio} · limit e<sup>μθ</sup> ${r.limit.toFixed(2)}`,
    `<span class="${r.holds ? 'ok' : 'bad'}">${verdict}</span> <span class="dim">(tensions from ${src})</span>`,
  ].map((l) => `<div>${l}</div>`).join('');
  if (el.innerHTML !== html) el.innerHTML = html;
}
