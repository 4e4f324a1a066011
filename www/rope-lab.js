// @ts-check
// <rope-lab>: the simulation as a web component for pages that are not ours (issue 12).
//
//   <script type="module" src=".../rope-lab.js"></script>
//   <rope-lab scene="bridge" solver="xpbd" compare="classic,exact" controls="minimal"></rope-lab>
//
// Attributes (all live but `poster`; the properties of the same names reflect them; the full
// table, with what each accepts, is docs/embedding.md's):
//   scene     a preset name, a packed share string (`z:…`) or a scene URL; else an inline
//             `<script type="application/json">` child; else the default
//   solver, compare   the (first) view's solver; more solvers, one view each, in lockstep
//   controls  "minimal" (play/pause, reset, solver) or "none"; aspect "16/9", "4:3", …; label
//   poster    an image shown until the first frame (a preset: its own scenes/<name>.png);
//             where scripts do not run, an <img> child shows instead
//   wasm      "full", else the lite build unless the scene or a solver needs the full one
//   recording a recording to play in place of `scene` (`r:…` or a URL; docs/recordings.md):
//             a reader's grab takes over, Reset plays it again; at its end a replay button,
//   loop      or, with `loop`, it plays again
//   time-scale  slow motion, 0.1–1: the same 1/60 s steps, fewer per second
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
import { FixedClock } from './clock.js';
import { Camera, frameScene } from './camera.js';
import { drawView, loadBodies, loadLeash, loadWorld } from './embed-draw.js';
import { bindInput } from './embed-input.js';
import { layoutViews, resizeCanvas, zoomViews } from './embed-layout.js';
import { live, onScreen, resized, wake } from './embed-loop.js';
import { CSS, MIN_TIME_SCALE } from './embed-style.js';
import { DEFAULT_SCENE, aspectOf, errText, hasBodies, loadWasm, needsFull, parseScene, posterOf, fetchText, presetText, sceneText } from './embed-scenes.js';

export { DEFAULT_SCENE, loadWasm, sceneText };
/** @typedef {import('./embed-scenes.js').SimClass} SimClass */

const reducedMotion = () => matchMedia('(prefers-reduced-motion: reduce)').matches;

/** @typedef {{ x: number, y: number, w: number, h: number }} Rect */
/** @typedef {{ sim: Sim, solver: string, note: string, obstacles: any[], rect: Rect, cam: Camera,
 *   prev: Float32Array | null, minWidth: number, cross?: any[] }} View */

export class RopeLab extends HTMLElement {
  static observedAttributes = ['recording', 'scene', 'solver', 'compare', 'controls', 'aspect', 'label', 'wasm', 'time-scale'];

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.innerHTML = `<style>${CSS}</style><style></style><canvas part="canvas"></canvas><img part="poster" alt=""><div class="bar" part="controls"></div>` +
      '<p class="msg" role="status" aria-live="polite"></p><button class="play" part="play" aria-label="Play" hidden>▶</button>';
    const $ = (/** @type {string} */ s) => /** @type {HTMLElement} */ (root.querySelector(s));
    this.aspectStyle = $('style:nth-of-type(2)');
    this.canvas = /** @type {HTMLCanvasElement} */ ($('canvas'));
    this.img = /** @type {HTMLImageElement} */ ($('img'));
    this.ctx = /** @type {CanvasRenderingContext2D} */ (this.canvas.getContext('2d', { alpha: false }));
    this.bar = $('.bar');
    this.msg = $('.msg');
    this.playBtn = $('.play');
    this.playBtn.onclick = () => {
      if (this.rec?.over === 2) this.reset();
      this.play();
    };
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
    /** The fixed-step clock (clock.js, the page's too); every view steps together. */
    this.clock = new FixedClock();
    /** Simulated seconds per real second (`time-scale`). */
    this.scale = 1;
    this.cssW = 1;
    this.cssH = 1;
    this.dpr = 1;
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
    bindInput(this);
  }

  // ---- reflected attributes ----
  get recording() { return this.getAttribute('recording') ?? ''; }
  set recording(v) { this.setAttribute('recording', String(v)); }
  get loop() { return this.hasAttribute('loop'); }
  set loop(v) { this.toggleAttribute('loop', !!v); }
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
  get poster() { return this.getAttribute('poster') ?? ''; }
  set poster(v) { this.setAttribute('poster', String(v)); }
  get timeScale() { return this.scale; }
  set timeScale(v) { this.setAttribute('time-scale', String(v)); }

  /** The first view's `Sim` (null before the first scene is loaded). */
  get sim() { return this.views[0]?.sim ?? null; }
  get sims() { return this.views.map((v) => v.sim); }
  /** The views' zoom (they zoom together). */
  get zoom() { return this.views[0]?.cam.zoom ?? 1; }
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
      // (the poster <img> has alt="": the element's aria-label names it; a missing image shows nothing)
      Promise.resolve(this.poster || posterOf(this.scene.trim())).then((url) => (this.img.src = url));
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
    if (name === 'time-scale') return this.setTimeScale();
    if (old === value || !this.started) {
      if (name === 'aspect') this.setAspect();
      return;
    }
    if (name === 'scene' || name === 'recording' || name === 'compare' || name === 'wasm') this.reload();
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

  setTimeScale() {
    const v = this.getAttribute('time-scale')?.trim() || '1';
    const s = Number(v);
    const ok = s >= MIN_TIME_SCALE && s <= 1;
    if (!ok) this.say(`time-scale "${v}": expected a number from ${MIN_TIME_SCALE} to 1 (slow motion)`);
    else if (this.msg.textContent?.startsWith('time-scale')) this.say();
    this.scale = ok ? s : 1;
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
    /** @type {{ rec: string, text: string, play: string, over?: number } | null} the recording played; over: 1 taken over, 2 ended */
    this.rec = null;
    const r = this.recording.trim();
    if (r) {
      const rec = await import('./embed-recording.js').then((m) => m.recordingSource(r, fetchText, presetText));
      this.rec = rec;
      return { text: rec.text, ref: r };
    }
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
      // The drawing a scene kind needs (the leash's, else links and points; the bodies') comes
      // with it, its download started as soon as the scene is read, while the wasm's runs.
      const drawing = (/** @type {any} */ s) => Promise.all([s?.leash ? loadLeash() : loadWorld(), hasBodies(s) && loadBodies()]);
      const source = this.sceneSource();
      source.then(({ text }) => drawing(parseScene(text))).catch(() => {});
      [{ text }] = await Promise.all([source, loadWasm(full)]);
      const scene = parseScene(text);
      // (a recording that adds bodies or picks the impulse solver needs the full build)
      const more = /"(body|joint|grabbody|attach|impulse)"/.test(this.rec?.rec ?? '') ? ['impulse'] : [];
      [this.Sim] = await Promise.all([loadWasm(full || +needsFull(scene, [...this.solverList(), ...more])), drawing(scene)]);
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
        // (the requested scene's failure first: the default's alone would hide which was asked)
        const [asked, fallback] = [errText(e), errText(e2)];
        this.say(`rope-lab could not start: ${asked}${fallback === asked ? '' : `; the default scene: ${fallback}`}`);
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
        this.replay(sim);
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
    this.clock.clear();
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
    // (an embed fits the whole frame, also in a portrait box, and zooms 0.2–20×)
    return { sim, solver, note: '', obstacles: [], rect: { x: 0, y: 0, w: 1, h: 1 }, cam: new Camera({ portrait: false, minZoom: 0.2, maxZoom: 20 }), prev: null, minWidth: 0 };
  }

  /**
   * After a load: the view's solver, obstacles and frame.
   * @param {View} v
   */
  prepare(v) {
    const sim = v.sim;
    v.note = '';
    // (a recording sets its own solver: another would end its replay)
    if (v.solver && v.solver !== sim.solver && !this.rec) {
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
    frameScene(v.cam, sim);
    v.minWidth = v.cam.frame.minWidth; // (0: the scene is framed by its height; layout() widens it)
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
      this.replay(v.sim);
      this.prepare(v);
    }
    this.steps = 0;
    this.clock.clear();
    this.dirty = true;
    this.layout();
    this.schedule();
  }

  /** @param {Sim} sim starts the recording over in it (when there is one) */
  replay(sim) {
    if (this.rec) { sim.playRecording(this.rec.rec, this.rec.play); this.rec.over = 0; }
  }

  /**
   * After a frame's steps: a replay that ended plays again (`loop`) or waits behind the replay
   * button; one taken over is the reader's until Reset.
   */
  replayEnded() {
    const rec = this.rec, sim = this.sim;
    if (!rec || rec.over || !sim || sim.playing) return;
    rec.over = JSON.parse(sim.playback())?.done ? 2 : 1;
    if (rec.over === 2) this.loop ? this.reset() : this.pause();
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
    this.clock.last = null;
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
    const ended = this.rec?.over === 2;
    this.playBtn.hidden = !(this.isPaused && (this.steps === 0 || ended) && this.views.length > 0);
    this.playBtn.textContent = ended ? '↻' : '▶';
    this.playBtn.ariaLabel = ended ? 'Replay' : 'Play';
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
        this.clock.last = null; // the first frame back measures no time: no catch-up jump
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
    const dt = this.clock.elapsed(now);
    // (slow motion: less simulated time per frame, the same 1/60 s steps, fewer of them)
    let n = this.isPaused ? 0 : this.clock.advance(dt * this.scale);
    if (n > 0) {
      try {
        for (let k = 0; k < n; k++) {
          for (const v of this.views) {
            if (k === n - 1) v.prev = Float32Array.from(v.sim.positions());
            v.sim.step(this.clock.h);
          }
          // (a replay that just ended stops on its last step)
          if (this.rec?.over === 0 && !this.sim?.playing) n = k + 1;
        }
        this.steps += n;
        this.emitEvents();
        this.replayEnded();
      } catch (e) {
        this.pause();
        this.say(`step failed, paused: ${errText(e)}`);
      }
    }
    if (n > 0 || this.dirty || this.gestures.size || this.trails.length) this.draw(this.isPaused ? 1 : this.clock.alpha);
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
    resizeCanvas(this);
  }

  /** Splits the box into one region per view and fits each (embed-layout.js). */
  layout() {
    layoutViews(this);
  }

  /**
   * Zooms every view by `f` (0: back to the scene's frame) about the CSS point (px, py).
   * @param {number} f
   * @param {number} [px]
   * @param {number} [py]
   */
  zoomBy(f, px, py) {
    zoomViews(this, f, px, py);
  }

  /** @param {number} frac how far between the last two steps this frame falls */
  draw(frac) {
    const ctx = this.ctx;
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.fillStyle = '#141414';
    ctx.fillRect(0, 0, this.cssW, this.cssH);
    for (const v of this.views) drawView(this, v, frac);
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
    if (!this.firstFrameAt) {
      this.firstFrameAt = performance.now();
      this.img.remove(); // the poster: never needed again
    }
    if (this.announce) {
      this.announce = false;
      this.dispatchEvent(new CustomEvent('ready', { detail: { scene: this.sceneName } }));
    }
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
