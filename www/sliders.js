// @ts-check
// The panel's sliders, built from the settings table (`Sim.settingsSchema()`).

/** @import { Sim } from './types.js' */

/**
 * A slider of the panel: its value's text, and how it sets and reads the sim.
 * @typedef {object} Slider
 * @property {(v: number) => string} fmt
 * @property {(s: Sim, v: number) => void} set
 * @property {(s: Sim) => number} get
 * @property {HTMLInputElement} [input] set by bindControls
 * @property {HTMLElement} [out] set by bindControls
 */
/**
 * One entry of `Sim.settingsSchema()` (src/settings/table.rs), as far as the sliders read it.
 * @typedef {{ key: string, js: string, label: string, unit: string, doc: string, range: string,
 *   slider?: { min: number, max: number, step: number } }} SettingSchema
 */

/**
 * The panel's sliders, built from the settings table (`Sim.settingsSchema()`): one per
 * setting that has a slider, with its label, unit, doc (tooltip), range and step, so a
 * slider cannot offer what the setting rejects. Values go through `setSettings` and are
 * read back from `settings()`. Gravity's slider is its downward part.
 * @param {{ settingsSchema(): string }} SimClass
 * @param {HTMLElement} section
 * @returns {Record<string, Slider>}
 */
export function buildSliders(SimClass, section) {
  /** @type {SettingSchema[]} */
  const schema = JSON.parse(SimClass.settingsSchema());
  /** @type {Record<string, Slider>} */
  const out = {};
  section.replaceChildren();
  for (const e of schema) {
    if (!e.slider) continue;
    const { min, max, step } = e.slider;
    const digits = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
    const label = document.createElement('label');
    label.className = 'slider';
    label.id = `${e.key}-row`;
    label.title = `${e.doc} (accepts ${e.range})`;
    const span = document.createElement('span');
    span.textContent = e.unit ? `${e.label} · ${e.unit}` : e.label;
    const o = document.createElement('output');
    o.id = `${e.key}-out`;
    const input = document.createElement('input');
    Object.assign(input, { id: e.key, type: 'range', min: String(min), max: String(max), step: String(step) });
    input.setAttribute('aria-label', e.label); // the name without the live value or unit
    label.append(span, o, input);
    section.append(label);
    const gravity = e.key === 'gravity';
    /** @param {Sim} s */
    const values = (s) => JSON.parse(s.settings());
    out[e.key] = {
      fmt: (v) => v.toFixed(digits),
      set: (s, v) => {
        const g = gravity ? values(s).gravity : null;
        s.setSettings({ [e.js]: g ? [g[0], -v, g[2]] : v });
      },
      get: (s) => (gravity ? -values(s).gravity[1] : values(s)[e.js]),
    };
  }
  return out;
}
