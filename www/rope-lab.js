// @ts-check
// <rope-lab>: the simulation as a web component for pages that are not ours (issue 12).
//
//   <script type="module" src=".../rope-lab.js"></script>
//   <rope-lab scene="bridge" solver="xpbd" compare="classic,exact" controls="minimal"></rope-lab>
//
// Attributes (all live; the properties of the same names reflect them):
//   scene     a preset name (scenes/<name>.json beside this file), a packed share string
//             (`z:…`, sharelink.js), or the URL of a scene .json (relative to the page). Without
//             it: a `<script type="application/json">` child holds the scene, else the default.
//   solver    the solver of the (first) view; a solver that cannot run the scene says why
//   compare   more solvers, comma-separated: one view each, side by side, in lockstep; the
//             pointer acts on every view (the same point in each)
//   controls  "minimal" (play/pause, reset, solver) or "none" (the default)
//   aspect    width/height of the box when CSS sets no height: "16/9" (default), "4:3", "1.5"
//   label     the accessible name (default: "rope simulation: <scene name>")
//   wasm      "full": always load the full wasm; otherwise the lite one unless the scene has
//             bodies, joints or attachments or a view's solver is impulse
//
// Manners: the wasm module loads once per page (every instance has its own `Sim`s); one
// requestAnimationFrame loop serves every instance that is on screen, in a visible tab and
// not paused, and stops when none is (no CPU use); instances resume where they were. A wheel
// or a one-finger swipe over an embed scrolls the page unless it starts on a point or a body
// (a drag); the wheel zooms only with Ctrl (a trackpad pinch) or after a click into the embed
// (Esc or leaving it ends that). A two-finger pinch zooms the page (touch-action lets the
// browser) until a tap into the embed; then it zooms the embed and pans it with the midpoint.
// prefers-reduced-motion: starts paused behind a play button.
// Keyboard: focusable, Space plays/pauses, R resets, + / − / 0 zoom, Esc. Shadow DOM: no CSS
// in or out. Events: the sim's (`tangleformed`, `tanglestatechanged`, `tanglebroken`,
// `linktorn`, `jointbroken`, `dogsswapped`, `braidresync`, `contactbegin`, `contactend`, the
// JSON object as `detail`), `ready` after the first frame of a scene, `error` (detail: message).

/** @typedef {import('./ropelab.js').Sim} Sim */
import { isPacked, unpackScene } from './sharelink.js';

const H = 1 / 60;
const MAX_STEPS = 5;
const PRESET = /^[A-Za-z0-9_-]+$/;
export const DEFAULT_SCENE = 'rope';
const PICK_PX = 16;
const FLAG_LOCKED = 1;
const FLAG_HELD = 2;
const reducedMotion = () => matchMedia('(prefers-reduced-motion: reduce)').matches;
const errText = (/** @type {any} */ e) => (e && e.message) || String(e);

/** @typedef {typeof import('./ropelab.js').Sim} SimClass */
/** @type {Promise<SimClass>[]} */
const wasm = [];
/**
 * A wasm build, loaded once for every instance on the page: 0 the lite one (ropes only, a
 * third of the size), 1 the full one (rigid bodies, joints, the impulse solver). The wasm's
 * download starts together with the glue's (a dynamic import), not after it.
 * @param {number} full
 */
export const loadWasm = (full = 0) => (wasm[full] ??= Promise.all(full
  ? [import('./ropelab.js'), fetch(new URL('./ropelab_bg.wasm', import.meta.url))]
  : [import('./ropelab-lite.js'), fetch(new URL('./ropelab-lite_bg.wasm', import.meta.url))])
  .then(async ([glue, res]) => (await glue.default({ module_or_path: res }), glue.Sim)));
/**
 * Whether a scene needs the full build (the lite one refuses it, naming what it lacks).
 * @param {string} text @param {string[]} solvers
 */
const needsFull = (text, solvers) => {
  try {
    const s = JSON.parse(text);
    return ['bodies', 'joints', 'attachments'].some((k) => s[k]?.length) || [s.settings?.solver, ...solvers].includes('impulse');
  } catch {
    return false;
  }
};

/** @type {Map<string, Promise<string>>} */
const presetTexts = new Map();
/** @param {string} url */
async function fetchText(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: ${res.status} ${res.statusText}`);
  return res.text();
}
/** @param {string} name */
function presetText(name) {
  let p = presetTexts.get(name);
  if (!p) {
    p = fetchText(new URL(`./scenes/${name}.json`, import.meta.url).href).catch((e) => {
      presetTexts.delete(name);
      throw new Error(`no preset "${name}" (${errText(e)})`);
    });
    presetTexts.set(name, p);
  }
  return p;
}

/**
 * Scene text for a `scene` value: a preset name, a packed share string or a URL.
 * @param {string} ref
 */
export function sceneText(ref) {
  if (PRESET.test(ref)) return presetText(ref);
  if (isPacked(ref)) return unpackScene(ref);
  return fetchText(new URL(ref, document.baseURI).href);
}

/** @param {string} v aspect attribute: "16/9", "4:3", "1.5" → "16 / 9", or null if invalid */
function aspectOf(v) {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(?:[/:]\s*(\d+(?:\.\d+)?)\s*)?$/.exec(v);
  if (!m) return null;
  const w = +m[1], h = m[2] ? +m[2] : 1;
  return w > 0 && h > 0 && w / h < 100 && h / w < 100 ? `${w} / ${h}` : null;
}

// ---- the shared loop and observers ----------------------------------------------------

/** @type {Set<RopeLab>} instances that want frames */
const live = new Set();
let raf = 0;
/** @param {number} now */
function tick(now) {
  raf = -1; // (wake() schedules nothing while the frame runs)
  for (const el of live) {
    try {
      el.frame(now);
    } catch (e) {
      // One broken embed must not stop the others: it pauses and says why.
      el.isPaused = true;
      live.delete(el);
      el.say(`paused: ${errText(e)}`);
    }
  }
  raf = live.size ? requestAnimationFrame(tick) : 0;
}
function wake() {
  if (!raf && live.size) raf = requestAnimationFrame(tick);
}
const onScreen = new IntersectionObserver((entries) => {
  for (const e of entries) {
    const el = /** @type {RopeLab} */ (e.target);
    el.onScreen = e.isIntersecting;
    el.schedule();
  }
});
const resized = new ResizeObserver((entries) => {
  for (const e of entries) /** @type {RopeLab} */ (e.target).resize();
});
document.addEventListener('visibilitychange', () => {
  for (const el of document.querySelectorAll('rope-lab')) if (el instanceof RopeLab) el.schedule();
});

// ---- drawing helpers ---------------------------------------------------------------------

/** @typedef {{ x: number, y: number, w: number, h: number }} Rect */
/** @typedef {{ sim: Sim, solver: string, note: string, obstacles: any[], rect: Rect, home: number[],
 *   frame: number[], scale: number, ox: number, oy: number, ys: number, prev: Float32Array | null, cross?: any[] }} View */

/**
 * Rotates v by the unit quaternion q = [x, y, z, w] (q at offset `o`).
 * @param {ArrayLike<number>} q
 * @param {number} o
 * @param {number[]} v
 */
function rotate(q, o, v) {
  const x = q[o], y = q[o + 1], z = q[o + 2], w = q[o + 3];
  const cx = y * v[2] - z * v[1], cy = z * v[0] - x * v[2], cz = x * v[1] - y * v[0];
  return [
    v[0] + 2 * (w * cx + y * cz - z * cy),
    v[1] + 2 * (w * cy + z * cx - x * cz),
    v[2] + 2 * (w * cz + x * cy - y * cx),
  ];
}

/**
 * Convex hull (monotone chain) of screen points.
 * @param {number[][]} pts
 */
function hull(pts) {
  const p = pts.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (/** @type {number[]} */ o, /** @type {number[]} */ a, /** @type {number[]} */ b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  /** @type {number[][]} */
  const out = [];
  for (const pass of [p, p.slice().reverse()]) {
    const start = out.length;
    for (const q of pass) {
      while (out.length >= start + 2 && cross(out[out.length - 2], out[out.length - 1], q) <= 0) out.pop();
      out.push(q);
    }
    out.pop();
  }
  return out;
}

const CSS = `
:host{display:block;position:relative;aspect-ratio:var(--aspect);min-height:120px;background:#141414;color:#ccc;
 font:12px/1.3 system-ui,sans-serif;border-radius:6px;overflow:hidden;contain:content;-webkit-tap-highlight-color:transparent}
:host([hidden]){display:none}
:host(:focus-visible){outline:2px solid #4dd6ff;outline-offset:2px}
canvas{display:block;position:absolute;inset:0;width:100%;height:100%;touch-action:pan-x pan-y pinch-zoom;cursor:crosshair}
canvas.active{touch-action:none}
.bar{position:absolute;left:6px;bottom:6px;display:flex;gap:4px}
button,select{font:inherit;color:#ddd;background:#1e1e1ee6;border:1px solid #555;border-radius:4px;padding:3px 8px;cursor:pointer}
button:focus-visible,select:focus-visible{outline:2px solid #4dd6ff}
.msg{position:absolute;left:8px;right:8px;top:6px;margin:0;color:#ff9c8a;pointer-events:none}
.msg:empty{display:none}
.play{position:absolute;left:50%;top:50%;width:56px;height:56px;margin:-28px;border-radius:50%;font-size:20px;padding:0}
[hidden]{display:none}`;

export class RopeLab extends HTMLElement {
  static observedAttributes = ['scene', 'solver', 'compare', 'controls', 'aspect', 'label', 'wasm'];

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.innerHTML = `<style>${CSS}</style><style></style><canvas part="canvas"></canvas><div class="bar" part="controls"></div>` +
      '<p class="msg" role="status" aria-live="polite"></p><button class="play" part="play" aria-label="Play" hidden>▶</button>';
    const $ = (/** @type {string} */ s) => /** @type {HTMLElement} */ (root.querySelector(s));
    this.aspectStyle = $('style:nth-of-type(2)');
    this.canvas = /** @type {HTMLCanvasElement} */ ($('canvas'));
    this.ctx = /** @type {CanvasRenderingContext2D} */ (this.canvas.getContext('2d', { alpha: false }));
    this.bar = $('.bar');
    this.msg = $('.msg');
    this.playBtn = $('.play');
    this.playBtn.onclick = () => this.play();
    /** @type {View[]} */
    this.views = [];
    /** The scene text the views were loaded from (Reset reloads it). */
    this.text = '';
    this.sceneName = '';
    this.loadToken = 0;
    /** @type {SimClass} the wasm build of the views (lite unless the scene needs full) */
    this.Sim = /** @type {any} */ (null);
    this.onScreen = false;
    /** prefers-reduced-motion: start paused, behind a play button. */
    this.isPaused = reducedMotion();
    /** Set by the first connectedCallback: attributes set before it load nothing twice. */
    this.started = false;
    this.dirty = true;
    this.acc = 0;
    /** @type {number | null} */
    this.last = null;
    this.cssW = 1;
    this.cssH = 1;
    this.dpr = 1;
    this.zoom = 1;
    /** Fixed steps taken (every view steps together), frames drawn. */
    this.steps = 0;
    this.frames = 0;
    /** performance.now() when the first frame of the first scene was drawn. */
    this.firstFrameAt = 0;
    /** Pointer gestures by pointerId: a held point/body, or a cut swipe. */
    /** @type {Map<number, { kind: 'point' | 'body' | 'cut', index: number, view: View, x: number, y: number, sx: number, sy: number, moved: boolean }>} */
    this.gestures = new Map();
    /** @type {{ x0: number, y0: number, x1: number, y1: number, t: number }[]} */
    this.trails = [];
    this.active = false;
    this.dragged = false;
    this.loading = false;
    /** A scene was (re)loaded: the next frame announces it (`ready`). */
    this.announce = false;
    this.setAspect();
    this.bindInput();
  }

  // ---- reflected attributes ----
  get scene() { return this.getAttribute('scene') ?? ''; }
  set scene(v) { this.setAttribute('scene', String(v)); }
  get solver() { return this.getAttribute('solver') ?? ''; }
  set solver(v) { this.setAttribute('solver', String(v)); }
  get compare() { return this.getAttribute('compare') ?? ''; }
  set compare(v) { this.setAttribute('compare', String(v)); }
  get controls() { return this.getAttribute('controls') === 'minimal' ? 'minimal' : 'none'; }
  set controls(v) { this.setAttribute('controls', String(v)); }
  get aspect() { return this.getAttribute('aspect') ?? '16/9'; }
  set aspect(v) { this.setAttribute('aspect', String(v)); }
  get label() { return this.getAttribute('label') ?? ''; }
  set label(v) { this.setAttribute('label', String(v)); }

  /** The first view's `Sim` (null before the first scene is loaded). */
  get sim() { return this.views[0]?.sim ?? null; }
  get sims() { return this.views.map((v) => v.sim); }
  get paused() { return this.isPaused; }
  set paused(p) { p ? this.pause() : this.play(); }

  connectedCallback() {
    if (!this.hasAttribute('tabindex')) this.tabIndex = 0;
    if (!this.hasAttribute('role')) this.setAttribute('role', 'group');
    this.setLabel();
    this.buildControls();
    onScreen.observe(this);
    resized.observe(this);
    this.resize();
    if (!this.started) {
      this.started = true;
      this.reload();
    }
    this.schedule();
  }

  disconnectedCallback() {
    onScreen.unobserve(this);
    resized.unobserve(this);
    this.releaseAll();
    live.delete(this);
  }

  /**
   * @param {string} name
   * @param {string | null} old
   * @param {string | null} value
   */
  attributeChangedCallback(name, old, value) {
    if (old === value || !this.started) {
      if (name === 'aspect') this.setAspect();
      return;
    }
    if (name === 'scene' || name === 'compare' || name === 'wasm') this.reload();
    else if (name === 'solver') this.applySolver();
    else if (name === 'controls') this.buildControls();
    else if (name === 'aspect') this.setAspect();
    else if (name === 'label') this.setLabel();
  }

  setAspect() {
    const a = aspectOf(this.aspect);
    if (!a) this.say(`aspect "${this.aspect}": expected width/height such as 16/9`);
    this.aspectStyle.textContent = `:host{--aspect:${a ?? '16 / 9'}}`;
  }

  setLabel() {
    this.setAttribute('aria-label', this.label || `rope simulation${this.sceneName ? `: ${this.sceneName}` : ''} — drag points, click one to lock it, swipe to cut`);
  }

  /** Shows `text` (an error, a warning) over the view; '' clears it. */
  say(text = '') {
    this.msg.textContent = text;
    if (text) this.dispatchEvent(new CustomEvent('error', { detail: text }));
  }

  // ---- scenes ----

  /** The solvers of the views: `solver`, then `compare`'s, without repeats. */
  solverList() {
    const names = [this.solver, ...this.compare.split(',')].map((s) => s.trim()).filter(Boolean);
    return [...new Set(names)].slice(0, 6);
  }

  /** The scene reference: the attribute, else an inline JSON child, else the default. */
  async sceneSource() {
    const ref = this.scene.trim();
    if (ref) return { text: await sceneText(ref), ref };
    const inline = this.querySelector('script[type="application/json"]');
    if (inline?.textContent?.trim()) return { text: inline.textContent, ref: '(inline)' };
    return { text: await presetText(DEFAULT_SCENE), ref: DEFAULT_SCENE };
  }

  /** (Re)loads the scene into fresh views. Bad scenes: a message and the default scene. */
  async reload() {
    const token = ++this.loadToken;
    this.loading = true;
    let warning = '';
    /** @type {string} */
    let text;
    try {
      const full = +(this.getAttribute('wasm') === 'full');
      [{ text }] = await Promise.all([this.sceneSource(), loadWasm(full)]);
      this.Sim = await loadWasm(full || +needsFull(text, this.solverList()));
      if (token !== this.loadToken) return;
      this.build(text);
    } catch (e) {
      if (token !== this.loadToken) return;
      warning = `scene: ${errText(e)} — showing the default scene`;
      try {
        this.Sim = await loadWasm();
        text = await presetText(DEFAULT_SCENE);
        if (token !== this.loadToken) return;
        this.build(text);
      } catch (e2) {
        this.loading = false;
        this.say(`rope-lab could not start: ${errText(e2)}`);
        return;
      }
    }
    this.loading = false;
    this.say([warning, ...this.views.map((v) => v.note)].filter(Boolean).join(' · '));
    this.buildControls();
    this.setLabel();
    // On screen: the first frame now, not at the next animation frame.
    if (this.onScreen && document.visibilityState !== 'hidden') {
      this.draw(1);
      this.dirty = false;
    }
    this.schedule();
  }

  /**
   * Replaces the views with fresh sims of `text` (throws, keeping the old ones, if it is bad).
   * @param {string} text
   */
  build(text) {
    const solvers = this.solverList();
    /** @type {View[]} */
    const views = [];
    try {
      for (const name of solvers.length ? solvers : ['']) {
        const sim = new this.Sim();
        views.push(this.makeView(sim, name));
        sim.loadScene(text);
      }
    } catch (e) {
      for (const v of views) v.sim.free();
      throw e;
    }
    for (const v of views) this.prepare(v);
    this.releaseAll();
    for (const v of this.views) v.sim.free();
    this.views = views;
    this.text = text;
    try {
      const n = JSON.parse(text).name;
      this.sceneName = typeof n === 'string' ? n : '';
    } catch {
      this.sceneName = '';
    }
    this.acc = 0;
    this.zoom = 1;
    this.announce = true;
    this.layout();
    this.dirty = true;
  }

  /**
   * @param {Sim} sim
   * @param {string} solver
   * @returns {View}
   */
  makeView(sim, solver) {
    return { sim, solver, note: '', obstacles: [], rect: { x: 0, y: 0, w: 1, h: 1 }, home: [], frame: [0, 0, 10, 10], scale: 1, ox: 0, oy: 0, ys: 1, prev: null };
  }

  /**
   * After a load: the view's solver, obstacles and frame.
   * @param {View} v
   */
  prepare(v) {
    const sim = v.sim;
    v.note = '';
    if (v.solver && v.solver !== sim.solver) {
      try {
        sim.setSolver(v.solver);
      } catch (e) {
        v.note = `${v.solver}: ${errText(e)}`;
      }
    }
    if (!v.solver) v.solver = sim.solver;
    try {
      v.obstacles = JSON.parse(sim.obstacles()) ?? [];
    } catch {
      v.obstacles = [];
    }
    v.prev = null;
    v.ys = sim.view === 'top' ? -1 : 1;
    const cam = sim.camera();
    const walls = sim.walls();
    const wallW = walls.length === 4 ? walls[2] - walls[0] : 0;
    if (cam.length === 3) v.frame = [cam[0], cam[1], cam[2], wallW ? Math.min(wallW * 1.02, cam[2] * 2.5) : 0];
    else if (walls.length === 4) v.frame = [(walls[0] + walls[2]) / 2, (walls[1] + walls[3]) / 2, (walls[3] - walls[1]) * 1.08, wallW * 1.04];
    else {
      const pos = sim.positions();
      const k = v.ys < 0 ? 2 : 1;
      let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      for (let i = 0; i + 2 < pos.length; i += 3) {
        x0 = Math.min(x0, pos[i]); x1 = Math.max(x1, pos[i]);
        y0 = Math.min(y0, pos[i + k]); y1 = Math.max(y1, pos[i + k]);
      }
      v.frame = Number.isFinite(x0) ? [(x0 + x1) / 2, (y0 + y1) / 2, Math.max(y1 - y0, 1) * 1.6, Math.max(x1 - x0, 1) * 1.3] : [0, 0, 10, 10];
    }
    v.home = v.frame.slice();
  }

  /** Applies the `solver` attribute to the first view (a refusal is shown, the solver stays). */
  applySolver() {
    const name = this.solver.trim();
    // (impulse: a reload, which loads the full build if this one is lite.)
    if (this.compare.trim() || name === 'impulse') return void this.reload();
    const v = this.views[0];
    if (!v) return;
    try {
      if (name) v.sim.setSolver(name);
      v.solver = v.sim.solver;
      this.say();
    } catch (e) {
      this.say(`solver ${name}: ${errText(e)}`);
    }
    this.buildControls();
    this.dirty = true;
    this.schedule();
  }

  /** Reloads the scene the views started from, keeping the solvers. */
  reset() {
    if (!this.text) return;
    this.releaseAll();
    for (const v of this.views) {
      v.sim.loadScene(this.text);
      this.prepare(v);
    }
    this.steps = 0;
    this.acc = 0;
    this.zoom = 1;
    this.dirty = true;
    this.layout();
    this.schedule();
  }

  /** The first view's world as scene JSON (`sim.exportScene()`). */
  exportScene() {
    const sim = this.sim;
    if (!sim) throw new Error('rope-lab: no scene is loaded yet');
    return sim.exportScene();
  }

  play() {
    this.isPaused = false;
    this.playBtn.hidden = true;
    this.last = null;
    this.syncPlayButton();
    this.schedule();
  }

  pause() {
    this.isPaused = true;
    this.syncPlayButton();
    this.dirty = true;
    this.schedule();
  }

  syncPlayButton() {
    const b = this.bar.querySelector('[data-act="play"]');
    if (b) b.textContent = this.isPaused ? '▶ Play' : '❚❚ Pause';
    this.playBtn.hidden = !(this.isPaused && this.steps === 0 && this.views.length > 0);
  }

  buildControls() {
    const bar = this.bar;
    bar.textContent = '';
    bar.hidden = this.controls !== 'minimal';
    if (bar.hidden) return this.syncPlayButton();
    /** @param {string} act @param {string} label @param {() => void} fn */
    const button = (act, label, fn) => {
      const b = document.createElement('button');
      b.dataset.act = act;
      b.textContent = label;
      b.onclick = fn;
      bar.append(b);
    };
    button('play', '', () => (this.isPaused ? this.play() : this.pause()));
    button('reset', '↺ Reset', () => this.reset());
    if (!this.compare.trim() && this.views.length) {
      const sel = document.createElement('select');
      sel.setAttribute('aria-label', 'solver');
      for (const s of this.Sim.solvers()) sel.add(new Option(s, s));
      sel.value = this.views[0]?.solver ?? this.solver;
      sel.onchange = () => (this.solver = sel.value);
      bar.append(sel);
    }
    this.syncPlayButton();
  }

  // ---- the loop ----

  /** Adds or removes this instance from the shared loop, by what it needs. */
  schedule() {
    const visible = this.isConnected && this.onScreen && document.visibilityState !== 'hidden';
    const wants = visible && this.views.length > 0 && (!this.isPaused || this.dirty || this.gestures.size > 0 || this.trails.length > 0);
    if (wants) {
      if (!live.has(this)) {
        this.last = null; // the first frame back measures no time: no catch-up jump
        live.add(this);
      }
      wake();
    } else {
      live.delete(this);
    }
  }

  /** @param {number} now */
  frame(now) {
    if ((window.devicePixelRatio || 1) !== this.dpr) this.resize(); // moved to another screen
    const dt = this.last == null ? 0 : (now - this.last) / 1000;
    this.last = now;
    let n = 0;
    if (!this.isPaused) {
      this.acc += Math.min(dt, 1);
      n = Math.floor(this.acc / H + 0.05);
      if (n > MAX_STEPS) {
        n = MAX_STEPS;
        this.acc = 0;
      } else this.acc -= n * H;
    }
    if (n > 0) {
      try {
        for (let k = 0; k < n; k++) {
          for (const v of this.views) {
            if (k === n - 1) v.prev = Float32Array.from(v.sim.positions());
            v.sim.step(H);
          }
        }
        this.steps += n;
        this.emitEvents();
      } catch (e) {
        this.pause();
        this.say(`step failed, paused: ${errText(e)}`);
      }
    }
    if (n > 0 || this.dirty || this.gestures.size || this.trails.length) this.draw(this.isPaused ? 1 : Math.min(Math.max(this.acc / H, 0), 1));
    this.dirty = false;
    this.schedule();
  }

  /** The first view's sim events as DOM events; the other views' are dropped. */
  emitEvents() {
    this.views.forEach((v, k) => {
      const events = v.sim.drainEvents();
      const contacts = v.sim.contactEventCount ? v.sim.drainContactEvents() : '[]';
      if (k > 0) return;
      for (const e of [...JSON.parse(events), ...JSON.parse(contacts).map((/** @type {any} */ c) => ({ ...c, type: `contact${c.type}` }))]) {
        this.dispatchEvent(new CustomEvent(String(e.type).toLowerCase(), { detail: e }));
      }
    });
  }

  // ---- layout and drawing ----

  resize() {
    const dpr = window.devicePixelRatio || 1;
    const w = this.clientWidth || 300, h = this.clientHeight || 150;
    if (w === this.cssW && h === this.cssH && dpr === this.dpr) return;
    [this.cssW, this.cssH, this.dpr] = [w, h, dpr];
    this.canvas.width = Math.round(w * dpr);
    this.canvas.height = Math.round(h * dpr);
    this.layout();
    this.dirty = true;
    this.schedule();
  }

  /** Splits the box into one region per view (columns when wide, rows when tall) and fits each. */
  layout() {
    const n = Math.max(this.views.length, 1);
    const cols = this.cssW >= this.cssH ? n : 1;
    const rows = cols === n ? 1 : n;
    const w = this.cssW / cols, h = this.cssH / rows;
    this.views.forEach((v, k) => {
      v.rect = { x: (k % cols) * w, y: Math.floor(k / cols) * h, w, h };
      this.fit(v);
    });
  }

  /** @param {View} v */
  fit(v) {
    const [cx, cy, fh, fw] = v.frame;
    const { x, y, w, h } = v.rect;
    v.scale = Math.min(h / fh, fw > 0 ? w / fw : Infinity) * this.zoom;
    v.ox = x + w / 2 - cx * v.scale;
    v.oy = y + h / 2 + v.ys * cy * v.scale;
  }

  /**
   * Zooms every view by `f` about the CSS point (px, py) of the view under it.
   * @param {number} f
   * @param {number} [px]
   * @param {number} [py]
   */
  zoomBy(f, px, py) {
    if (!this.views.length) return;
    if (f === 0) {
      this.zoom = 1;
      for (const v of this.views) v.frame = v.home.slice();
    } else {
      const z = Math.min(Math.max(this.zoom * f, 0.2), 20);
      const g = z / this.zoom;
      this.zoom = z;
      const under = px == null || py == null ? null : this.at(px, py).v;
      for (const v of this.views) {
        // The same spot of every view stays put (the pointer's, else the centre).
        const ax = v.rect.x + (under && px != null ? px - under.rect.x : v.rect.w / 2);
        const ay = v.rect.y + (under && py != null ? py - under.rect.y : v.rect.h / 2);
        const [wx, wy] = this.toWorld(v, ax, ay);
        v.frame[0] = wx + (v.frame[0] - wx) / g;
        v.frame[1] = wy + (v.frame[1] - wy) / g;
      }
    }
    for (const v of this.views) this.fit(v);
    this.dirty = true;
    this.schedule();
  }

  /** @param {View} v @param {number} px @param {number} py */
  toWorld(v, px, py) {
    return [(px - v.ox) / v.scale, (v.ys * (v.oy - py)) / v.scale];
  }

  /** @param {number} frac how far between the last two steps this frame falls */
  draw(frac) {
    const ctx = this.ctx;
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.fillStyle = '#141414';
    ctx.fillRect(0, 0, this.cssW, this.cssH);
    for (const v of this.views) this.drawView(v, frac);
    ctx.lineCap = 'round';
    ctx.lineWidth = 3;
    const t = performance.now();
    this.trails = this.trails.filter((s) => t - s.t < 400);
    for (const s of this.trails) {
      ctx.strokeStyle = `rgba(255,120,90,${(1 - (t - s.t) / 400).toFixed(2)})`;
      ctx.beginPath();
      ctx.moveTo(s.x0, s.y0);
      ctx.lineTo(s.x1, s.y1);
      ctx.stroke();
    }
    this.frames++;
    if (!this.firstFrameAt) this.firstFrameAt = performance.now();
    if (this.announce) {
      this.announce = false;
      this.dispatchEvent(new CustomEvent('ready', { detail: { scene: this.sceneName } }));
    }
  }

  /**
   * @param {View} v
   * @param {number} frac
   */
  drawView(v, frac) {
    const ctx = this.ctx;
    const sim = v.sim;
    const { x: rx, y: ry, w: rw, h: rh } = v.rect;
    const k = v.ys < 0 ? 2 : 1;
    const X = (/** @type {number} */ x) => v.ox + x * v.scale;
    const Y = (/** @type {number} */ y) => v.oy - v.ys * y * v.scale;
    // Every sim call before the views of wasm memory are built.
    const walls = sim.walls();
    const nb = sim.bodyCount;
    const bodies = nb ? JSON.parse(sim.bodiesJson()) : [];
    const joints = nb ? JSON.parse(sim.jointsJson()) : [];
    if (nb) sim.refillBodyPoses(frac);
    sim.refreshRender();
    const poses = nb ? Float32Array.from(sim.bodyPoses()) : null;
    // The leash scene (seen from above): its hand, dogs, leashes (ropes) and tangles.
    const leash = k > 1 && sim.ropeCount ? JSON.parse(sim.leash()) : null;
    const ropes = leash ? Array.from({ length: sim.ropeCount }, (_, i) => sim.ropePoints(i)) : [];
    const tangles = leash ? JSON.parse(sim.tangles()) : [];
    const now = sim.positions();
    const flags = sim.pointFlags();
    const links = sim.links();
    const strain = sim.linkStrain();
    const pos = v.prev && v.prev.length === now.length && frac < 1 ? v.prev.map((p, i) => p + (now[i] - p) * frac) : now;
    if (pos !== now) for (let i = 0; i < flags.length; i++) if (flags[i] & FLAG_HELD) for (let c = 0; c < 3; c++) pos[3 * i + c] = now[3 * i + c];

    ctx.save();
    ctx.beginPath();
    ctx.rect(rx, ry, rw, rh);
    ctx.clip();
    if (walls.length === 4) {
      ctx.strokeStyle = '#4a4a4a';
      ctx.lineWidth = 2;
      const x0 = X(walls[0]), y0 = Y(walls[3]);
      ctx.strokeRect(x0, y0, X(walls[2]) - x0, Y(walls[1]) - y0);
    }
    ctx.lineWidth = 2;
    ctx.strokeStyle = '#8fa3b8';
    ctx.fillStyle = 'rgba(120,140,160,0.22)';
    for (const o of v.obstacles) {
      const s = o?.shape;
      ctx.beginPath();
      if (s?.type === 'circle' || s?.type === 'sphere') ctx.arc(X(s.center[0]), Y(s.center[k]), s.radius * v.scale, 0, 7);
      else if (s?.type === 'capsule') {
        // The stadium as a thick round-capped stroke, then its rim.
        ctx.save();
        ctx.lineWidth = 2 * s.radius * v.scale;
        ctx.strokeStyle = 'rgba(120,140,160,0.35)';
        ctx.moveTo(X(s.a[0]), Y(s.a[k]));
        ctx.lineTo(X(s.b[0]) + 0.01, Y(s.b[k]));
        ctx.stroke();
        ctx.restore();
        continue;
      } else if (s?.type === 'box') {
        const hx = s.half[0] * v.scale, hy = s.half[k] * v.scale;
        ctx.save();
        ctx.translate(X(s.center[0]), Y(s.center[k]));
        if (k === 1) ctx.rotate(-(s.angle ?? 0));
        ctx.rect(-hx, -hy, 2 * hx, 2 * hy);
        ctx.restore();
      } else if (s?.type === 'plane' && Math.abs(s.normal[k]) > 1e-6 && k === 1) {
        const y = Y(s.point[1] - (s.normal[0] * (0 - s.point[0])) / s.normal[1]);
        ctx.moveTo(rx, y);
        ctx.lineTo(rx + rw, y);
        ctx.stroke();
        continue;
      } else continue;
      ctx.fill();
      ctx.stroke();
    }

    // Links: neutral, stretched (≥ 3 %), compressed (≤ −3 %): one path each.
    const n = flags.length;
    const paths = [new Path2D(), new Path2D(), new Path2D()];
    for (let j = 0; 2 * j + 1 < links.length; j++) {
      const a = links[2 * j], b = links[2 * j + 1];
      if (a >= n || b >= n) continue;
      const s = strain[j] ?? 0;
      const p = paths[s >= 0.03 ? 1 : s <= -0.03 ? 2 : 0];
      p.moveTo(X(pos[3 * a]), Y(pos[3 * a + k]));
      p.lineTo(X(pos[3 * b]), Y(pos[3 * b + k]));
    }
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    ctx.lineWidth = Math.min(Math.max(2 * Math.sqrt(this.zoom), 1), 4);
    if (!leash) {
      ['#999', '#e39a2e', '#4f7bea'].forEach((c, i) => {
        ctx.strokeStyle = c;
        ctx.stroke(paths[i]);
      });
    } else this.drawLeash(v, leash, ropes, tangles, pos, flags);

    // Joints: a line where the two anchors are apart (distance and rope joints, a drag).
    ctx.strokeStyle = '#7ad0ff';
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (const j of joints) {
      ctx.moveTo(X(j.anchorA[0]), Y(j.anchorA[k]));
      ctx.lineTo(X(j.anchorB[0]), Y(j.anchorB[k]));
    }
    ctx.stroke();

    // Bodies: outlines of their shapes (the hull of a box's corners, a capsule's stadium).
    if (poses) {
      for (let i = 0; i < bodies.length && 7 * i + 6 < poses.length; i++) {
        const b = bodies[i], s = b.shape, o = 7 * i;
        const px = X(poses[o]), py = Y(poses[o + k]);
        ctx.strokeStyle = b.kind === 'static' ? '#8a8a8a' : '#e8c872';
        ctx.fillStyle = b.kind === 'static' ? 'rgba(138,138,138,0.12)' : 'rgba(232,200,114,0.12)';
        ctx.lineWidth = 1.5;
        ctx.beginPath();
        if (s.type === 'sphere') {
          const r = s.radius * v.scale;
          const e = rotate(poses, o + 3, [s.radius, 0, 0]);
          ctx.arc(px, py, r, 0, 7);
          ctx.moveTo(px, py);
          ctx.lineTo(px + e[0] * v.scale, py - v.ys * e[k] * v.scale);
        } else {
          /** @type {number[][]} */
          const pts = [];
          const corners = s.type === 'box' ? [s.half[0], s.half[1], s.half[2]] : [s.halfLength, 0, 0];
          const ring = s.type === 'box' ? [[1, 1], [1, -1], [-1, -1], [-1, 1]] : [];
          for (const sx of [-1, 1]) {
            if (s.type === 'box') {
              for (const [sy, sz] of ring) {
                const q = rotate(poses, o + 3, [sx * corners[0], sy * corners[1], sz * corners[2]]);
                pts.push([px + q[0] * v.scale, py - v.ys * q[k] * v.scale]);
              }
            } else {
              const q = rotate(poses, o + 3, [sx * corners[0], 0, 0]);
              for (let a = 0; a < 12; a++) {
                const t = (a / 12) * 2 * Math.PI;
                pts.push([px + q[0] * v.scale + Math.cos(t) * s.radius * v.scale, py - v.ys * q[k] * v.scale + Math.sin(t) * s.radius * v.scale]);
              }
            }
          }
          hull(pts).forEach(([x, y], j) => (j ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
          ctx.closePath();
        }
        ctx.fill();
        ctx.stroke();
      }
    }

    // Points: free white, locked red, a halo around held ones.
    let typical = 12;
    if (links.length >= 2 && links[0] < n && links[1] < n) typical = Math.hypot(pos[3 * links[0]] - pos[3 * links[1]], pos[3 * links[0] + k] - pos[3 * links[1] + k]) * v.scale;
    const r = Math.min(Math.max(Math.min(3.5 * Math.sqrt(this.zoom), typical / 3), 1.5), 7);
    const dots = [new Path2D(), new Path2D(), new Path2D()];
    for (let i = 0; i < n; i++) {
      const x = X(pos[3 * i]), y = Y(pos[3 * i + k]);
      if (x < rx - 20 || x > rx + rw + 20 || y < ry - 20 || y > ry + rh + 20) continue;
      if (flags[i] & FLAG_HELD) {
        dots[2].moveTo(x + 16, y);
        dots[2].arc(x, y, 16, 0, 7);
      }
      const d = dots[flags[i] & FLAG_LOCKED ? 1 : 0];
      d.moveTo(x + r, y);
      d.arc(x, y, r, 0, 7);
    }
    ['#fff', '#f55', 'rgba(255,255,255,0.15)'].forEach((c, i) => {
      ctx.fillStyle = c;
      if (!leash || i > 1) ctx.fill(dots[i]);
    });
    if (this.views.length > 1) {
      ctx.fillStyle = '#aaa';
      ctx.fillText(v.solver + (v.note ? ' (cannot run this scene)' : ''), rx + 8, ry + 16);
      ctx.fillStyle = '#333';
      if (rx > 0) ctx.fillRect(rx, ry, 1, rh);
      if (ry > 0) ctx.fillRect(rx, ry, rw, 1);
    }
    ctx.restore();
  }

  /**
   * The leash scene from above as the playground draws it (www/leash.js), smaller: each leash
   * in its dog's colour, wider and lighter the higher it is, lowest segment first; where two
   * strands cross in the top view the lower one is broken around the higher one (a knot
   * diagram: the crossings are found here from the positions, as `crossings()` finds them in
   * the full build, which the lite one leaves out); the hand, the dogs 1, 2, 3 and the tangles
   * as rings (amber tight, dashed; magenta locked) with their ids. Not drawn: the braid's σ
   * labels (the lite build has no braid) and the side inset.
   * @param {View} v @param {any} leash @param {Uint32Array[]} ropes @param {any[]} tangles
   * @param {Float32Array} pos @param {Uint8Array} flags
   */
  drawLeash(v, leash, ropes, tangles, pos, flags) {
    const ctx = this.ctx, s = v.scale;
    const P = (/** @type {number} */ i, /** @type {number} */ c) => pos[3 * i + c];
    const X = (/** @type {number} */ i) => v.ox + P(i, 0) * s;
    const Y = (/** @type {number} */ i) => v.oy + P(i, 2) * s;
    const up = (/** @type {number} */ y) => Math.min(Math.max(y, 0), 1); // height (m; the hand is at 1)
    const base = Math.min(Math.max(0.022 * s, 3), 9);
    const width = (/** @type {number} */ y) => base * (0.75 + 0.6 * y);
    const hue = (/** @type {number} */ d, /** @type {number} */ l) => `hsl(${[18, 200, 100, 280, 50, 330][d % 6]} 85% ${l}%)`;
    /** @type {number[]} */
    const dogOf = [];
    leash.dogs.forEach((/** @type {any} */ d, /** @type {number} */ i) => (dogOf[d.rope] = i));
    /** Segments [height, a, b, dog], and the crossings [height, x, y, the segment on top]. */
    /** @type {number[][]} */
    const segs = [];
    ropes.forEach((p, r) => p.forEach((b, j) => j && segs.push([up((P(p[j - 1], 1) + P(b, 1)) / 2), p[j - 1], b, dogOf[r] ?? r])));
    /** @type {[number, number, number, number[]][]} */
    const cross = [];
    segs.forEach((S, i) => {
      for (const T of segs.slice(i + 1)) {
        const [, a, b] = S, [, c, d] = T;
        if (a === c || a === d || b === c || b === d) continue;
        const dx = P(b, 0) - P(a, 0), dz = P(b, 2) - P(a, 2), ex = P(d, 0) - P(c, 0), ez = P(d, 2) - P(c, 2);
        const wx = P(c, 0) - P(a, 0), wz = P(c, 2) - P(a, 2), den = dx * ez - dz * ex;
        const f = (wx * ez - wz * ex) / den, g = (wx * dz - wz * dx) / den;
        if (!(f >= 0 && f < 1 && g >= 0 && g < 1)) continue;
        const ya = P(a, 1) + (P(b, 1) - P(a, 1)) * f, yc = P(c, 1) + (P(d, 1) - P(c, 1)) * g;
        cross.push([Math.max(ya, yc), v.ox + (P(a, 0) + dx * f) * s, v.oy + (P(a, 2) + dz * f) * s, ya >= yc ? S : T]);
      }
    });
    segs.sort((p, q) => p[0] - q[0]);
    cross.sort((p, q) => p[0] - q[0]);
    v.cross = cross; // (for the tests)
    // A thin dark rim under every strand, then the strands, then each crossing's upper strand
    // again over a band of the background that breaks the lower one.
    ctx.strokeStyle = '#0a0a0ad9';
    for (const [y, a, b] of segs) {
      ctx.lineWidth = width(y) + 2;
      ctx.beginPath();
      ctx.moveTo(X(a), Y(a));
      ctx.lineTo(X(b), Y(b));
      ctx.stroke();
    }
    for (const [y, a, b, d] of segs) {
      ctx.strokeStyle = hue(d, 38 + 30 * y);
      ctx.lineWidth = width(y);
      ctx.beginPath();
      ctx.moveTo(X(a), Y(a));
      ctx.lineTo(X(b), Y(b));
      ctx.stroke();
    }
    ctx.lineCap = 'butt';
    for (const [, x, y, [h, a, b, d]] of cross) {
      const w = width(h), ux = X(b) - X(a), uy = Y(b) - Y(a), l = (2 * w + 4) / Math.hypot(ux, uy);
      ctx.beginPath();
      ctx.moveTo(x - ux * l, y - uy * l);
      ctx.lineTo(x + ux * l, y + uy * l);
      ctx.lineWidth = w + 6;
      ctx.strokeStyle = '#141414';
      ctx.stroke();
      ctx.lineWidth = w;
      ctx.strokeStyle = hue(d, 38 + 30 * h);
      ctx.stroke();
    }
    ctx.lineCap = 'round';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.lineWidth = 2;
    const disc = (/** @type {number} */ x, /** @type {number} */ y, /** @type {number} */ r, /** @type {string} */ fill, /** @type {string} */ rim, a = 1) => {
      ctx.beginPath();
      ctx.arc(x, y, r, 0, 7);
      ctx.fillStyle = fill;
      ctx.globalAlpha = a;
      ctx.fill();
      ctx.globalAlpha = 1;
      ctx.strokeStyle = rim;
      ctx.stroke();
    };
    const h = leash.hand;
    if (h >= 0 && h < flags.length) {
      disc(X(h), Y(h), 8, '#f55', '#fff');
      ctx.fillStyle = '#bbb';
      ctx.font = '11px system-ui';
      ctx.fillText('hand', X(h), Y(h) - 16);
    }
    leash.dogs.forEach((/** @type {any} */ d, /** @type {number} */ i) => {
      if (d.point < 0 || d.point >= flags.length) return;
      const x = X(d.point), y = Y(d.point), r = Math.max(d.bodyRadius * s, 11);
      // See-through: the leashes under a dog stay visible.
      disc(x, y, r, hue(i, 55), '#111', 0.72);
      ctx.fillStyle = '#111';
      ctx.font = `700 ${Math.round(Math.min(r * 1.1, 22))}px system-ui`;
      ctx.fillText(String(i + 1), x, y + 1);
    });
    ctx.font = '600 11px system-ui';
    ctx.textAlign = 'right';
    for (const t of tangles) {
      const x = v.ox + t.top[0] * s, y = v.oy + t.top[1] * s, r = base * 2.4 + 6;
      ctx.strokeStyle = ctx.fillStyle = t.state === 'locked' ? '#ff4fd8' : '#ffb02e';
      ctx.lineWidth = 2.5;
      ctx.setLineDash(t.state === 'locked' ? [] : [4, 3]);
      ctx.beginPath();
      ctx.arc(x, y, r, 0, 7);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.fillText(`#${t.id & 65535}${t.id >>> 16 ? `′${t.id >>> 16}` : ''}`, x - r - 3, y);
    }
  }

  // ---- input ----

  /**
   * The view under CSS point (px, py) and the world point there.
   * @param {number} px
   * @param {number} py
   */
  at(px, py) {
    const v = this.views.find((w) => px >= w.rect.x && px < w.rect.x + w.rect.w && py >= w.rect.y && py < w.rect.y + w.rect.h) ?? this.views[0];
    const [x, y] = this.toWorld(v, px, py);
    return { v, x, y };
  }

  /**
   * What a press at (px, py) would take: a point (index), a body (id), or nothing.
   * @param {number} px
   * @param {number} py
   * @returns {{ kind: 'point' | 'body' | 'cut', index: number, v: View, x: number, y: number }}
   */
  hit(px, py) {
    const { v, x, y } = this.at(px, py);
    const i = v.sim.pick(x, y, PICK_PX / v.scale);
    if (i >= 0) return { kind: 'point', index: i, v, x, y };
    const b = v.sim.bodyCount ? v.sim.pickBody(x, y, 6 / v.scale) : -1;
    return { kind: b >= 0 ? 'body' : 'cut', index: b, v, x, y };
  }

  bindInput() {
    const c = this.canvas;
    const local = (/** @type {PointerEvent | WheelEvent} */ e) => {
      const r = c.getBoundingClientRect();
      return [e.clientX - r.left, e.clientY - r.top];
    };
    let touchOnTarget = false;
    /** Fingers on an activated embed (CSS px), and the pinch: [distance, midpoint x, y]. */
    /** @type {Map<number, number[]>} */
    const fingers = new Map();
    /** @type {number[]} */
    let pinch = [];
    const span = () => {
      const [[ax, ay], [bx, by]] = fingers.values();
      return [Math.max(Math.hypot(bx - ax, by - ay), 1), (ax + bx) / 2, (ay + by) / 2];
    };
    c.addEventListener('pointerdown', (e) => {
      if (!this.views.length || e.button > 0 || this.gestures.has(e.pointerId)) return;
      const [px, py] = local(e);
      const h = this.hit(px, py);
      const touch = e.pointerType === 'touch';
      // A second finger on an activated embed: a pinch (zoom and pan), not a drag or a cut.
      if (touch && this.active && fingers.set(e.pointerId, [px, py]).size > 1) {
        this.releaseAll();
        pinch = span();
        return;
      }
      touchOnTarget = h.kind !== 'cut';
      // A finger on empty space scrolls the page, unless the user clicked into the embed.
      if (h.kind === 'cut' && touch && !this.active) return;
      const g = { kind: h.kind, index: h.index, view: h.v, x: h.x, y: h.y, sx: px, sy: py, moved: false };
      this.guard(() => {
        for (const v of this.views) {
          if (h.kind === 'point') v.sim.grab(e.pointerId, h.index);
          else if (h.kind === 'body') v.sim.grabBody(e.pointerId, h.index, h.x, h.y);
        }
      });
      this.gestures.set(e.pointerId, g);
      c.setPointerCapture(e.pointerId);
      if (h.kind !== 'cut') e.preventDefault();
      this.schedule();
    });
    // Touch: a finger that lands on a point or body drags it instead of scrolling the page.
    c.addEventListener('touchstart', (e) => { if (touchOnTarget || this.active) e.preventDefault(); }, { passive: false });
    c.addEventListener('pointermove', (e) => {
      const [px, py] = local(e);
      if (fingers.has(e.pointerId) && fingers.set(e.pointerId, [px, py]).size > 1) {
        // Zoom about the last midpoint, then move with the midpoint: the world point between
        // the fingers stays between them.
        const [d, mx, my] = span();
        this.zoomBy(d / pinch[0], pinch[1], pinch[2]);
        for (const v of this.views) {
          v.frame[0] -= (mx - pinch[1]) / v.scale;
          v.frame[1] += (v.ys * (my - pinch[2])) / v.scale;
          this.fit(v);
        }
        pinch = [d, mx, my];
        return;
      }
      const g = this.gestures.get(e.pointerId);
      if (!g) return;
      const [x, y] = this.toWorld(g.view, px, py);
      if (Math.hypot(px - g.sx, py - g.sy) > 4) g.moved = true;
      this.guard(() => {
        if (g.kind === 'cut') {
          if (!g.moved) return;
          for (const v of this.views) v.sim.cut(g.x, g.y, x, y);
          const [ax, ay] = [g.view.ox + g.x * g.view.scale, g.view.oy - g.view.ys * g.y * g.view.scale];
          this.trails.push({ x0: ax, y0: ay, x1: px, y1: py, t: performance.now() });
          g.x = x;
          g.y = y;
        } else {
          for (const v of this.views) g.kind === 'point' ? v.sim.dragTo(e.pointerId, x, y) : v.sim.dragBody(e.pointerId, x, y);
        }
      });
      this.dirty = true;
      this.schedule();
    });
    const end = (/** @type {PointerEvent} */ e) => {
      fingers.delete(e.pointerId);
      const g = this.gestures.get(e.pointerId);
      if (!g) return;
      this.gestures.delete(e.pointerId);
      this.dragged = g.moved; // a drag is not the click that lets the wheel zoom
      this.guard(() => {
        for (const v of this.views) {
          if (g.kind === 'point') v.sim.release(e.pointerId);
          if (g.kind === 'body') v.sim.releaseBody(e.pointerId);
        }
        // A click on a point (no drag) locks or unlocks it.
        if (g.kind === 'point' && !g.moved && e.type === 'pointerup') for (const v of this.views) v.sim.toggleLock(g.index);
      });
      this.dirty = true;
      this.schedule();
    };
    c.addEventListener('pointerup', end);
    c.addEventListener('pointercancel', end);
    // A click (not a scroll) into the embed: the wheel zooms and one finger cuts until Esc or focus leaves.
    c.addEventListener('click', () => this.dragged || this.setActive(true));
    this.addEventListener('focusout', () => setTimeout(() => {
      if (/** @type {Document | ShadowRoot} */ (this.getRootNode()).activeElement !== this) this.setActive(false);
    }));
    c.addEventListener('wheel', (e) => {
      if (!(e.ctrlKey || this.active) || !this.views.length) return; // the page scrolls
      e.preventDefault();
      const [px, py] = local(e);
      this.zoomBy(Math.exp(-Math.max(Math.min(e.deltaY, 100), -100) * (e.ctrlKey ? 0.01 : 0.002)), px, py);
    }, { passive: false });
    this.addEventListener('keydown', (e) => {
      if (e.composedPath()[0] !== this || e.ctrlKey || e.metaKey || e.altKey) return;
      /** @type {Record<string, () => void>} */
      const keys = {
        ' ': () => (this.isPaused ? this.play() : this.pause()),
        r: () => this.reset(),
        '+': () => this.zoomBy(1.25),
        '=': () => this.zoomBy(1.25),
        '-': () => this.zoomBy(0.8),
        0: () => this.zoomBy(0),
        Escape: () => this.setActive(false),
      };
      const act = keys[e.key];
      if (act) {
        act();
        e.preventDefault();
      }
    });
  }

  /** @param {boolean} on */
  setActive(on) {
    this.active = on;
    this.canvas.classList.toggle('active', on);
  }

  /** @param {() => void} fn */
  guard(fn) {
    try {
      fn();
    } catch (e) {
      this.say(errText(e));
    }
  }

  releaseAll() {
    for (const [id, g] of this.gestures) {
      for (const v of this.views) {
        try {
          if (g.kind === 'point') v.sim.release(id);
          if (g.kind === 'body') v.sim.releaseBody(id);
        } catch { /* a sim that never held it */ }
      }
    }
    this.gestures.clear();
  }
}

if (!customElements.get('rope-lab')) customElements.define('rope-lab', RopeLab);
