// @ts-check
// Scene files on the page (issue 3 §3): URL parameters, export, import.
//
// URL (all optional; the page keeps them current with history.replaceState, so the address bar
// can be copied):
//   ?scene=bridge          a preset by name (www/scenes/<name>.json)
//   ?scene=<url>           a JSON scene fetched from a URL (relative to the page, or absolute)
//   #s=bridge, #s=z:…      a share string (sharelink.js): a preset by name, or the whole scene
//                          and its settings deflated into the link ("Copy link"; wins over ?scene=)
//   #s=r:…                 a recording deflated into the link (recorder.js): it plays
//   ?compare=classic,pbd,xpbd:1i5s,exact   the comparison view (www/compare.js)
//   &layout=side|overlay   its layout
//   &embed=1               no panel (for embedding in a blog post)
//   #rope                  (older links) a preset by name
//
// Export downloads the current world as `<name>.json` (`sim.exportScene()`). Import: the file
// picker, the paste dialog, a paste (Ctrl/Cmd+V) anywhere outside a text field, or a .json file
// (or JSON text) dropped onto the canvas. A bad scene shows the sim's error (it names the JSON
// path) in the status line and the current world stays.

/** @import { App } from './main.js' */

import { fragmentScene, isPacked, isRecordingRef } from './sharelink.js';

const PRESET_NAME = /^[A-Za-z0-9_-]+$/;

/** The page's URL parameters. */
export function readParams(search = location.search, hash = location.hash) {
  const q = new URLSearchParams(search);
  const flag = (/** @type {string | null} */ v) => v != null && !['0', 'false', 'no', 'off'].includes(v.toLowerCase());
  return {
    scene: fragmentScene(hash) || q.get('scene') || (hash.includes('=') ? '' : decodeURIComponent(hash.slice(1))) || null,
    compare: q.get('compare'),
    layout: q.get('layout'),
    embed: flag(q.get('embed')),
  };
}

/** Query-string value escaping that leaves `, : /` readable. */
const enc = (/** @type {string} */ v) => encodeURIComponent(v).replace(/%2C/gi, ',').replace(/%3A/gi, ':').replace(/%2F/gi, '/');

/**
 * A page URL with `params` (null/undefined/false values are left out); a packed `scene`
 * (`z:…`, or a recording `r:…`) goes into the fragment as `#s=…`, anything else leaves the URL without a hash.
 * @param {Record<string, string | boolean | null | undefined>} params
 * @param {string} [base]
 */
export function pageUrl(params, base = location.href) {
  const u = new URL(base);
  const order = ['scene', 'compare', 'layout', 'embed'];
  const keys = [...order.filter((k) => k in params), ...Object.keys(params).filter((k) => !order.includes(k))];
  const parts = [];
  let hash = '';
  for (const k of keys) {
    const v = params[k];
    if (v == null || v === false || v === '') continue;
    if (k === 'scene' && typeof v === 'string' && (isPacked(v) || isRecordingRef(v))) {
      hash = `#s=${v}`;
      continue;
    }
    parts.push(v === true ? `${k}=1` : `${k}=${enc(String(v))}`);
  }
  u.search = parts.length ? `?${parts.join('&')}` : '';
  u.hash = hash;
  return u.href;
}

/** Whether a `?scene=` value names a preset rather than a URL. */
export const isPresetName = (/** @type {string} */ ref) => PRESET_NAME.test(ref);

/**
 * Fetches scene text from a URL (relative to the page).
 * @param {string} ref
 */
export async function fetchScene(ref) {
  const url = new URL(ref, location.href);
  let res;
  try {
    res = await fetch(url);
  } catch (/** @type {any} */ e) {
    throw new Error(`scene ${ref}: ${e.message}`);
  }
  if (!res.ok) throw new Error(`scene ${ref}: ${res.status} ${res.statusText}`);
  return res.text();
}

/**
 * The `name` field of scene JSON text, or `fallback`.
 * @param {string} text
 */
export function sceneName(text, fallback = 'scene') {
  try {
    const n = JSON.parse(text)?.name;
    return typeof n === 'string' && n.trim() ? n.trim() : fallback;
  } catch {
    return fallback;
  }
}

/**
 * The `description` field of scene JSON text (shown under the preset menu), or null.
 * @param {string} text
 * @returns {string | null}
 */
export function sceneDescription(text) {
  try {
    const d = JSON.parse(text)?.description;
    return typeof d === 'string' && d.trim() ? d.trim() : null;
  } catch {
    return null;
  }
}

/** Export, import, paste and drop, wired to the panel and the canvas. */
export class SceneIo {
  /** @param {App} app */
  constructor(app) {
    this.app = app;
    /** @type {string | null} the last link "Copy link" made */
    this.lastLink = null;
    const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
    this.el = {
      exportBtn: $('export'),
      importBtn: $('import'),
      pasteBtn: $('paste'),
      copyLink: $('copy-link'),
      file: /** @type {HTMLInputElement} */ ($('import-file')),
      dialog: /** @type {HTMLDialogElement} */ ($('paste-dialog')),
      text: /** @type {HTMLTextAreaElement} */ ($('paste-text')),
      error: $('paste-error'),
      load: $('paste-load'),
      cancel: $('paste-cancel'),
    };
    const el = this.el;
    el.exportBtn.addEventListener('click', () => this.exportScene());
    el.importBtn.addEventListener('click', () => el.file.click());
    el.file.addEventListener('change', () => {
      const f = el.file.files?.[0];
      el.file.value = '';
      if (f) this.importFile(f);
    });
    el.pasteBtn.addEventListener('click', () => this.openPaste());
    el.copyLink.addEventListener('click', () => this.copyLink());
    el.load.addEventListener('click', (e) => {
      e.preventDefault();
      if (this.load(el.text.value, 'pasted scene', el.error)) el.dialog.close();
    });
    el.cancel.addEventListener('click', (e) => {
      e.preventDefault();
      el.dialog.close();
    });
    el.text.addEventListener('keydown', (e) => {
      e.stopPropagation(); // typing is not a shortcut
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) el.load.click();
    });

    // Ctrl/Cmd+V anywhere outside a text field: load pasted JSON.
    document.addEventListener('paste', (e) => {
      const t = e.target;
      if (t instanceof HTMLTextAreaElement || (t instanceof HTMLInputElement && t.type !== 'checkbox' && t.type !== 'range')) return;
      const text = e.clipboardData?.getData('text/plain') ?? '';
      if (!text.trim().startsWith('{')) return;
      e.preventDefault();
      this.load(text, 'pasted scene');
    });

    // A .json file (or JSON text) dropped onto the canvas.
    const canvas = app.canvas;
    let depth = 0;
    const over = (/** @type {boolean} */ on) => canvas.classList.toggle('drop-target', on);
    canvas.addEventListener('dragenter', (e) => { e.preventDefault(); depth++; over(true); });
    canvas.addEventListener('dragover', (e) => { e.preventDefault(); if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy'; });
    canvas.addEventListener('dragleave', () => { depth = Math.max(depth - 1, 0); if (!depth) over(false); });
    canvas.addEventListener('drop', (e) => {
      e.preventDefault();
      depth = 0;
      over(false);
      const f = e.dataTransfer?.files?.[0];
      if (f) this.importFile(f);
      else {
        const text = e.dataTransfer?.getData('text/plain') ?? '';
        if (text.trim()) this.load(text, 'dropped text');
      }
    });
  }

  /** Downloads the current scene as `<name>.json`. */
  exportScene() {
    const text = this.app.guard('export', () => this.app.exportText());
    if (text == null) return null;
    const name = sceneName(text).replace(/[^\w.-]+/g, '_');
    const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `${name}.json`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
    this.app.ui.status(`exported ${name}.json`, 'info', 2000);
    return text;
  }

  /**
   * "Copy link": a self-contained URL of the scene and its settings (main.js `shareLink`) to
   * the clipboard, or shown in the status line where the clipboard is refused.
   * @returns {Promise<string | null>}
   */
  async copyLink() {
    let url;
    try {
      url = await this.app.shareLink({ embed: false });
    } catch (/** @type {any} */ e) {
      this.app.ui.status(`copy link: ${(e && e.message) || e}`, 'error');
      return null;
    }
    this.lastLink = url;
    try {
      await navigator.clipboard.writeText(url);
      this.app.ui.status(`link copied (${url.length} characters)`, 'info', 3000);
    } catch {
      this.app.ui.status(url, 'info', 15000);
    }
    return url;
  }

  /** @param {File} file */
  async importFile(file) {
    let text;
    try {
      text = await file.text();
    } catch (/** @type {any} */ e) {
      this.app.ui.status(`import ${file.name}: ${e.message}`, 'error');
      return false;
    }
    return this.load(text, file.name);
  }

  openPaste() {
    const el = this.el;
    el.error.textContent = '';
    if (typeof el.dialog.showModal === 'function') el.dialog.showModal();
    else el.dialog.setAttribute('open', '');
    el.text.focus();
    el.text.select();
  }

  /**
   * Loads scene text; on error shows the sim's message (with the JSON path) in the status
   * line (and `errorEl`), keeping the current world. Returns whether it loaded.
   * @param {string} text
   * @param {string} label
   * @param {HTMLElement | null} [errorEl]
   */
  load(text, label, errorEl = null) {
    try {
      this.app.loadSceneText(text, { label });
    } catch (/** @type {any} */ e) {
      const msg = `${label}: ${(e && e.message) || e}`;
      this.app.ui.status(`${msg} — the current scene is kept`, 'error');
      if (errorEl) errorEl.textContent = msg;
      return false;
    }
    this.app.ui.status(`loaded ${label}`, 'info', 2000);
    return true;
  }
}
