// @ts-check
// The capstan read-out over the view's top-left (the capstan preset): for a rope lying over an
// obstacle, the load and hold ends with their tensions, the wrap angle θ, the friction limit
// e^{μθ} and whether the rope holds, from `sim.capstanReport()`. The renderer labels the ends
// and the arc.

/** @import { CapstanReport } from './types.js' */

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
