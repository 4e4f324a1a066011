// @ts-check
// Where <rope-lab>'s scenes and wasm come from (rope-lab.js): the wasm builds (lite, full),
// loaded once per page; scene texts for a `scene` value (a preset beside the package, a packed
// share string, a URL); whether a scene needs the full build; the `aspect` attribute.

import { isPacked } from './sharelink.js';

/** @typedef {typeof import('./ropelab.js').Sim} SimClass */

/** An error's message (or the thrown value as text). */
export const errText = (/** @type {any} */ e) => (e && e.message) || String(e);
const PRESET = /^[A-Za-z0-9_-]+$/;
export const DEFAULT_SCENE = 'rope';

/** @type {Promise<SimClass>[]} */
const wasm = [];
/**
 * A wasm build, loaded once for every instance on the page: 0 the lite one (ropes only, a
 * third of the size), 1 the full one (rigid bodies, joints, the impulse solver). Each glue's
 * `init` keeps one load per page (tools/package.mjs), shared with a page that also awaits
 * `init()` from `ropelab/sim`. The full build's init is given the wasm's URL, so that when the
 * page's own `init()` came first nothing is downloaded twice; the lite one's download starts
 * together with its glue's (a dynamic import), not after it, for the first frame of a rope
 * embed (the API rarely loads the lite build as well).
 * @param {number} full
 */
export const loadWasm = (full = 0) => (wasm[full] ??= full
  ? import('./ropelab.js').then(async (glue) => (await glue.default({ module_or_path: new URL('./ropelab_bg.wasm', import.meta.url) }), glue.Sim))
  : Promise.all([import('./ropelab-lite.js'), fetch(new URL('./ropelab-lite_bg.wasm', import.meta.url))])
    .then(async ([glue, res]) => (await glue.default({ module_or_path: res }), glue.Sim)));
/** Whether a (parsed) scene has rigid bodies, joints or attachments. @param {any} s */
export const hasBodies = (s) => ['bodies', 'joints', 'attachments'].some((k) => s?.[k]?.length);
/**
 * Whether a scene needs the full build (the lite one refuses it, naming what it lacks).
 * @param {any} s the parsed scene @param {string[]} solvers
 */
export const needsFull = (s, solvers) => hasBodies(s) || [s?.settings?.solver, ...solvers].includes('impulse');
/** @param {string} text */
export const parseScene = (text) => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/** @type {Map<string, Promise<string>>} */
const presetTexts = new Map();
/** @param {string} url */
export async function fetchText(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: ${res.status} ${res.statusText}`);
  return res.text();
}
/** The presets' tables (embed-presets.js): loaded once per page, and only for a preset. */
const presets = () => import('./embed-presets.js');
/**
 * A preset's text, fetched once per page. The URL is one of PRESETS' literal
 * `new URL('./scenes/<name>.json', import.meta.url)` expressions: bundlers (Vite, webpack 5)
 * emit or serve exactly the files named that way, while a name put together at run time
 * becomes a glob that Vite's dependency optimizer leaves empty. An unknown name fetches
 * nothing.
 * @param {string} name
 */
export function presetText(name) {
  let p = presetTexts.get(name);
  if (!p) {
    p = presets().then(({ PRESETS: table }) => {
      if (!Object.hasOwn(table, name)) throw new Error(`no preset "${name}"`);
      return fetchText(table[name]().href).catch((e) => {
        throw new Error(`no preset "${name}" (${errText(e)})`);
      });
    });
    p.catch(() => presetTexts.delete(name));
    presetTexts.set(name, p);
  }
  return p;
}

/**
 * The still of a preset's first frame (scenes/<name>.png beside its JSON, tools/posters.mjs),
 * or '' for any other scene (which loads no table).
 * @param {string} ref
 */
export const posterOf = async (ref) => {
  const table = PRESET.test(ref) ? (await presets()).POSTERS : {};
  return Object.hasOwn(table, ref) ? table[ref]().href : '';
};

/**
 * Scene text for a `scene` value: a preset name, a packed share string or a URL.
 * @param {string} ref
 */
export function sceneText(ref) {
  if (PRESET.test(ref)) return presetText(ref);
  if (isPacked(ref)) return import('./embed-unpack.js').then((m) => m.unpackScene(ref));
  return fetchText(new URL(ref, document.baseURI).href);
}

/** @param {string} v aspect attribute: "16/9", "4:3", "1.5" → "16 / 9", or null if invalid */
export function aspectOf(v) {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(?:[/:]\s*(\d+(?:\.\d+)?)\s*)?$/.exec(v);
  if (!m) return null;
  const w = +m[1], h = m[2] ? +m[2] : 1;
  return w > 0 && h > 0 && w / h < 100 && h / w < 100 ? `${w} / ${h}` : null;
}
