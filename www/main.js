// @ts-check
// Boot and the frame loop.
//
// Boot: trunk's injected module script runs wasm-bindgen's `init()`, then sets
// `window.wasmBindings` (the generated module's exports, among them `Sim`) and dispatches
// `TrunkApplicationStarted`. We take the bindings from whichever comes first (the global may
// already be set when this module runs), create one `Sim`, load the first preset and start
// the loop.
//
// Loop: requestAnimationFrame with the fixed-step clock of clock.js (shared with <rope-lab>):
// the real elapsed time is run in fixed steps of H (1/60 s) by `sim.step(H)`, at most
// MAX_STEPS per frame. In the comparison view (compare.js) the same step count goes to every
// sim of the comparison instead.
// Drawing interpolates: what is left in the clock's accumulator after the steps, over H
// (`stepFraction`), says how far between the last two steps the frame falls, and points
// (render.js, from a copy of the positions taken before the frame's last step) and bodies
// (`refillBodyPoses(alpha)`) are drawn there, so a 120 or 144 Hz display, which steps on
// only some of its frames, shows motion on every frame instead of repeating it. The price:
// the picture is up to one step (16.7 ms) behind the physics.
//
// Scenes: `loadSceneText` is the one way a world is replaced (presets, ?scene= URLs, import,
// paste, drop: see sceneio.js); a bad scene throws and the current world stays.

/** @import { AppStats, InputSim, LoadedScene, Ropelab, SimClass, WasmBindings } from './types.js' */
/** @import { CompareSpec } from './compare-spec.js' */

import { Renderer } from './render.js';
import { PageCamera, frameSubject } from './pagecamera.js';
import { Ui } from './ui.js';
import { Compare } from './compare.js';
import { bindComparePanel } from './compare-panel.js';
import { formatCompare, parseCompare } from './compare-spec.js';
import { SceneIo, fetchScene, isPresetName, pageUrl, readParams, sceneDescription, sceneName } from './sceneio.js';
import { isPacked, isRecordingRef, packScene, unpackScene } from './sharelink.js';
import { Recorder } from './recorder.js';
import { TanglePanel } from './tanglepanel.js';
import { FixedClock, H, MAX_STEPS, TIME_SCALES } from './clock.js';
import { pageApi } from './api.js';

/** The preset menu (www/scenes/<name>.json), by group; the first preset loads by default. */
export const PRESET_GROUPS = [
  { label: 'ropes', names: ['rope', 'bridge', 'net', 'leash', 'capstan'] },
  { label: 'rigid bodies', names: ['wrecking-ball', 'hinge-chain', 'door', 'ragdoll', 'crane'] },
  { label: 'contacts', names: ['pyramid', 'wall', 'plank-bridge', 'cradle'] },
  { label: 'ropes on bodies', names: ['atwood', 'drum'] },
];
const PRESETS = PRESET_GROUPS.flatMap((g) => g.names);

/**
 * Resolves with trunk's wasm-bindgen exports once the module is initialised.
 * @returns {Promise<WasmBindings>}
 */
function wasmBindings(timeoutMs = 30000) {
  return new Promise((resolve, reject) => {
    let timer = 0;
    let poll = 0;
    const done = () => {
      if (!window.wasmBindings) return;
      clearTimeout(timer);
      clearInterval(poll);
      removeEventListener('TrunkApplicationStarted', done);
      resolve(window.wasmBindings);
    };
    addEventListener('TrunkApplicationStarted', done);
    poll = setInterval(done, 50); // belt and braces: the event may have fired before we listened
    timer = setTimeout(() => {
      clearInterval(poll);
      removeEventListener('TrunkApplicationStarted', done);
      reject(new Error('the wasm module did not start (no TrunkApplicationStarted); is this the page trunk built?'));
    }, timeoutMs);
    done();
  });
}

const fmtError = (/** @type {any} */ e) => (e && e.message) || String(e);

export class App {
  /** @param {SimClass} Sim */
  constructor(Sim) {
    this.Sim = Sim;
    this.presetGroups = PRESET_GROUPS;
    this.sim = new Sim();
    this.canvas = /** @type {HTMLCanvasElement} */ (document.getElementById('view'));
    this.camera = new PageCamera();
    this.camera.tracks = true; // (a comparison's columns frame the reach instead)
    this.renderer = new Renderer(this.canvas, this.camera);
    this.paused = false;
    this.pendingSteps = 0;
    /** Slow motion: the fraction of real time the clock runs at (one of TIME_SCALES). */
    this.timeScale = 1;
    /** The fixed-step clock (clock.js). */
    this.clock = new FixedClock(H, MAX_STEPS);
    /** @type {string | null} */
    this.preset = null;
    /** @type {LoadedScene | null} */
    this.scene = null; // { text, name, preset, source }: what Reset reloads
    this.restarts = 0; // times the scene restarted itself (restartScene)
    /** @type {Compare | null} */
    this.compare = null; // the comparison view, when on
    this.compareLayout = 'side';
    this.embed = false;
    /** @type {string | null} the loaded preset's `signature()`, null for other scenes */
    this.pristine = null;
    /** @type {Map<string, string>} */
    this.sceneTexts = new Map();
    /** @type {ArrayLike<number>} */
    this.sceneWalls = []; // the loaded scene's walls, for the walls toggle
    /** @type {AppStats} */
    this.stats = {
      frameMs: 0,         // smoothed interval between animation frames
      cpuMs: 0,           // smoothed work per frame (physics + drawing)
      physicsUsPerStep: 0, // smoothed time of one sim.step(H)
      stepsLastFrame: 0,
      droppedSteps: 0,
      steps: 0,
      frames: 0,
      points: 0,
      links: 0,
      maxStretch: 0,
      energy: 0,
      time: 0,
    };
    this.ui = new Ui(this);
    this.sceneIo = new SceneIo(this);
    this.comparePanel = bindComparePanel(this);
    this.tanglePanel = new TanglePanel(this);
    this.recorder = new Recorder(this);
    this.layout();
    addEventListener('resize', () => this.layout());
  }

  /**
   * Calls `fn`, reporting a thrown error in the status line instead of propagating it.
   * @template T
   * @param {string} label
   * @param {() => T} fn
   * @returns {T | undefined}
   */
  guard(label, fn) {
    try {
      return fn();
    } catch (e) {
      this.ui.status(`${label}: ${fmtError(e)}`, 'error');
      return undefined;
    }
  }

  /** Fits the canvas to the window and the scene into the part the panel leaves free. */
  layout() {
    this.renderer.resize();
    const W = this.renderer.cssW;
    const Hh = this.renderer.cssH;
    const side = this.ui.panelInset(W);
    this.camera.setViewport(side.left, side.top, W - side.left - side.right, Hh - side.top - side.bottom);
    // The view bar sits above a phone's panel (style.css .viewbar).
    document.body.style.setProperty('--inset-bottom', `${side.bottom}px`);
    this.compare?.layout();
  }

  /**
   * The camera and the sim (or the comparison's group of sims) under (px, py) CSS px.
   * @param {number} px
   * @param {number} py
   */
  viewAt(px, py) {
    return this.compare ? this.compare.viewAt(px, py) : { camera: this.camera, sim: this.sim };
  }

  /**
   * What pointer input acts on: the sim, or every sim of the comparison.
   * @returns {InputSim}
   */
  inputSim() {
    return this.compare ? this.compare.group : this.sim;
  }

  /**
   * A camera was zoomed or panned by the user (the comparison's regions move together).
   * @param {import("./camera.js").Camera} cam
   */
  viewChanged(cam) {
    this.compare?.viewChanged(/** @type {PageCamera} */ (cam)); // (every camera of the page is one)
  }

  resetView() {
    this.camera.resetView();
    this.compare?.resetView();
  }

  /** Frames the scene: its camera, else its walls, else the bounding box of its points. */
  frameScene() {
    frameSubject(this.camera, this.sim);
  }

  /**
   * @param {string} name
   * @returns {Promise<string>}
   */
  async sceneText(name) {
    if (!this.sceneTexts.has(name)) {
      const url = new URL(`scenes/${encodeURIComponent(name)}.json`, import.meta.url);
      const res = await fetch(url);
      if (!res.ok) throw new Error(`preset "${name}": ${res.status} ${res.statusText} (${url.pathname})`);
      this.sceneTexts.set(name, await res.text());
    }
    return /** @type {string} */ (this.sceneTexts.get(name));
  }

  /**
   * Loads preset `name` (www/scenes/<name>.json). A new preset brings its own settings and
   * the controls follow them; `keepSettings` (Reset) re-applies the controls instead.
   * @param {string} name
   * @param {{ keepSettings?: boolean }} [options]
   */
  async loadPreset(name, { keepSettings = false } = {}) {
    const text = await this.sceneText(name);
    this.loadSceneText(text, { preset: name, source: name, keepSettings });
    return name;
  }

  /**
   * `?scene=` values: a preset name, a packed scene or recording (`z:…`, `r:…`: it plays),
   * else a scene URL (relative to the page). Throws (keeping the world) if it cannot be
   * fetched or is not a valid scene.
   * @param {string} ref
   */
  async loadSceneRef(ref) {
    if (isPresetName(ref)) return this.loadPreset(ref);
    if (isRecordingRef(ref)) return this.recorder.openLink(ref);
    if (isPacked(ref)) {
      this.loadSceneText(await unpackScene(ref), { source: ref, label: 'shared scene' });
      return ref;
    }
    const text = await fetchScene(ref);
    this.loadSceneText(text, { source: ref, label: ref });
    return ref;
  }

  /**
   * Replaces the world (and every sim of the comparison) with the scene in `text`. Throws the
   * sim's error (naming the JSON path) and keeps the current world if the scene is bad.
   * `preset`: the preset it came from; `source`: what `?scene=` should say (null: the scene
   * has no address, e.g. an imported file).
   * @param {string} text
   * @param {{ preset?: string | null, source?: string | null, label?: string | null,
   *   keepSettings?: boolean }} [options]
   * @returns {LoadedScene}
   */
  loadSceneText(text, { preset = null, source = null, label = null, keepSettings = false } = {}) {
    this.ui.releaseAll();
    this.sim.loadScene(text); // throws (and keeps the old world) on a bad scene
    return this.sceneReplaced(text, { preset, source, label, keepSettings });
  }

  /**
   * The page follows a world the sim has just replaced with the scene in `text` (loaded, or a
   * recording's start: recorder.js): the panel, the view, the URL. Options as `loadSceneText`.
   * @param {string} text
   * @param {{ preset?: string | null, source?: string | null, label?: string | null,
   *   keepSettings?: boolean }} [options]
   * @returns {LoadedScene}
   */
  sceneReplaced(text, { preset = null, source = null, label = null, keepSettings = false } = {}) {
    this.scene = { text, name: sceneName(text, preset ?? 'scene'), description: sceneDescription(text), preset, source, label };
    this.preset = preset;
    this.pristine = preset ? this.signature() : null; // "Copy link" shares a preset by name while this holds
    this.sceneWalls = this.sim.walls();
    this.renderer.forgetPrevious(this.sim); // a new world: nothing to interpolate from
    this.clock.clear();
    if (keepSettings) this.ui.applyControls();
    else this.ui.syncFromSim();
    this.frameScene();
    if (this.compare && keepSettings) {
      this.guard('compare', () => /** @type {Compare} */ (this.compare).load(text));
      this.compare.frame();
    } else if (this.compare) {
      // A new scene gets the solvers ticking compare would give it, whichever came first.
      this.guard('compare', () => this.setCompare(this.comparePanel.defaultSpecs()));
    }
    this.ui.sceneLoaded(this.scene);
    if (!this.compare) this.comparePanel.sync(); // the default solvers follow the scene
    this.tanglePanel.sceneLoaded({ keepSettings });
    this.updateUrl();
    return this.scene;
  }

  /**
   * The scene's story has ended with nobody touching it (`sim.restartDue`, the scene's
   * `restart_after`): it starts again, the view, the panel and the settings as they are.
   */
  restartScene() {
    if (!this.scene) return;
    // The run's final reading stays up while the next run measures (the read-out refreshes a
    // few times a second and may not have seen it yet).
    const m = /** @type {import('./types.js').Reading | null} */ (JSON.parse(this.sim.measure()));
    if (m?.status === 'done') this.ui.lastReading = m;
    this.ui.releaseAll();
    this.sim.loadScene(this.scene.text);
    this.renderer.forgetPrevious(this.sim);
    this.restarts++;
  }

  async reset() {
    if (!this.scene) return this.loadPreset(PRESETS[0]);
    const { text, preset, source, label } = this.scene;
    this.loadSceneText(text, { preset, source, label, keepSettings: true });
    return preset ?? source ?? label;
  }

  /** Scene text for Export: the world now, or in the comparison the scene it started from. */
  exportText() {
    // (a comparison's `text` is set as it loads, before it becomes `this.compare`)
    return this.compare ? /** @type {string} */ (this.compare.text) : this.sim.exportScene();
  }

  /**
   * Turns the comparison view on with `specs` (see compare.js `parseCompare`) or off (null).
   * Every sim starts from the loaded scene file.
   * @param {CompareSpec[] | null} specs
   * @param {string} [layout]
   */
  setCompare(specs, layout = this.compareLayout) {
    // The new comparison loads first: if that throws, the current view stays as it is.
    let next = null;
    if (specs) {
      next = new Compare(this, specs, layout);
      try {
        next.load(/** @type {LoadedScene} */ (this.scene).text); // a scene is loaded before any comparison
      } catch (e) {
        next.destroy();
        throw e;
      }
    }
    if (this.compare) {
      this.ui.releaseAll();
      this.compare.destroy();
    }
    this.compare = next;
    if (next) {
      this.compareLayout = next.layoutMode;
      this.ui.setMode('drag');
      next.frame();
    }
    document.body.classList.toggle('comparing', !!this.compare);
    this.clock.clear();
    this.layout();
    this.comparePanel.sync();
    this.updateUrl();
    return this.compare;
  }

  /** @param {string} mode */
  setCompareLayout(mode) {
    this.compareLayout = mode === 'overlay' ? 'overlay' : 'side';
    if (this.compare) {
      this.compare.setLayout(this.compareLayout);
      this.compare.frame();
    }
    this.comparePanel.sync();
    this.updateUrl();
  }

  /** Slot settings changed in the comparison (the URL follows). */
  compareChanged() {
    this.updateUrl();
  }

  /** URL parameters describing what is on screen. */
  urlParams() {
    return {
      scene: this.scene?.source ?? null,
      compare: this.compare ? formatCompare(this.compare.specs()) : null,
      layout: this.compare && this.compare.layoutMode !== 'side' ? this.compare.layoutMode : null,
      embed: this.embed,
    };
  }

  /**
   * What "Copy link" compares to tell an untouched preset from an edited one: the settings,
   * the links, which points are locked, the bodies, joints and obstacles (not the motion).
   * @param {import('./types.js').Sim} [sim]
   */
  signature(sim = this.sim) {
    sim.refreshRender();
    const locked = Array.from(sim.pointFlags(), (f) => f & 1).join('');
    return [sim.settings(), Array.from(sim.links()).join(), locked, sim.bodiesJson(), sim.obstacles(), sim.jointsJson().length].join('|');
  }

  /**
   * A self-contained link to what is on screen (issue 12 §4): the preset's name while the
   * preset is untouched (same settings, links, locks and bodies as loaded), else the world as
   * `exportScene()` (in the comparison: the scene it started from) deflated into `#s=z:…`.
   * @param {{ embed?: boolean }} [options]
   */
  async shareLink({ embed = this.embed } = {}) {
    let ref;
    if (this.compare) ref = this.scene?.source ?? (await packScene(/** @type {string} */ (this.compare.text)));
    else if (this.preset && this.pristine === this.signature()) ref = this.preset;
    else ref = await packScene(this.sim.exportScene());
    return `${pageUrl({ ...this.urlParams(), scene: null, embed })}#s=${ref}`;
  }

  /**
   * A link to this view (`embed`: without the panel).
   * @param {{ embed?: boolean }} [options]
   */
  shareUrl({ embed = this.embed } = {}) {
    return pageUrl({ ...this.urlParams(), scene: this.scene?.source ?? this.preset ?? PRESETS[0], embed });
  }

  updateUrl() {
    const url = pageUrl(this.urlParams());
    if (url !== location.href) history.replaceState(null, '', url);
    const full = /** @type {HTMLAnchorElement | null} */ (document.getElementById('open-full'));
    if (full) full.href = this.shareUrl({ embed: false });
  }

  /**
   * How far between the last two fixed steps this frame falls (0–1): the accumulator's
   * remainder over H; 1 when paused (draw the state the physics is in).
   */
  stepFraction() {
    if (this.paused) return 1;
    return this.clock.alpha;
  }

  /** @param {boolean} p */
  setPaused(p) {
    this.paused = !!p;
    this.clock.clear();
    this.ui.pausedChanged();
    this.recorder?.pauseChanged(this.paused); // (the Ui, made first, may pause before it exists)
  }

  /**
   * Slow motion: runs the clock at `f` of real time (the nearest of TIME_SCALES).
   * @param {number} f
   */
  setTimeScale(f) {
    this.timeScale = TIME_SCALES.reduce((a, b) => (Math.abs(b - f) < Math.abs(a - f) ? b : a));
    this.ui.timeScaleChanged();
    this.recorder?.timeScaleChanged(this.timeScale);
  }

  /** Queues `n` single steps (they run on the next frame, paused or not). */
  stepOnce(n = 1) {
    if (!this.paused) this.setPaused(true);
    this.pendingSteps += n;
  }

  /**
   * Stops stepping and drawing while the canvas is off-screen (an embed scrolled away) or the
   * tab is hidden, and resumes where it was: the clock restarts, so no catch-up jump.
   */
  watchVisibility() {
    /** @type {boolean | undefined} */
    this.onScreen = true;
    const update = () => {
      const v = this.onScreen && document.visibilityState !== 'hidden';
      if (v === this.visible) return;
      /** @type {boolean | undefined} undefined until this runs; the loop runs while not false */
      this.visible = v;
      this.clock.restart(); // the first frame back measures no elapsed time
      this.stats.hiddenChanges = (this.stats.hiddenChanges ?? 0) + 1;
    };
    this.visible = true;
    document.addEventListener('visibilitychange', update);
    if ('IntersectionObserver' in window) {
      new IntersectionObserver((entries) => {
        for (const e of entries) this.onScreen = e.isIntersecting;
        update();
      }).observe(this.canvas);
    }
  }

  /** @param {number} now */
  frame(now) {
    requestAnimationFrame((t) => this.frame(t));
    if (this.visible === false) return; // off-screen or hidden: nothing to do
    const t0 = performance.now();
    const st = this.stats;
    if ((window.devicePixelRatio || 1) !== this.renderer.dpr) this.layout(); // moved to another screen
    const dt = this.clock.elapsed(now);
    if (dt > 0) st.frameMs += (dt * 1000 - st.frameMs) * 0.1;

    // Fixed steps with capped catch-up.
    let n = 0;
    if (this.paused) {
      n = Math.min(this.pendingSteps, 600);
      this.pendingSteps = 0;
    } else {
      n = this.clock.advance(dt * this.timeScale);
      st.droppedSteps = this.clock.dropped;
    }
    if (n > 0 && this.compare) {
      st.steps += this.compare.step(n, H);
    } else if (n > 0) {
      const p0 = performance.now();
      let done = 0;
      try {
        for (; done < n; done++) {
          if (done === n - 1) this.renderer.keepPrevious(this.sim, H); // interpolation's start
          this.sim.step(H);
          // A replay's recorded pause stops the frame's steps where it was made.
          if (this.recorder.afterStep()) {
            done++;
            break;
          }
        }
      } catch (e) {
        this.setPaused(true);
        this.ui.status(`step failed, paused: ${fmtError(e)}`, 'error');
      }
      const us = ((performance.now() - p0) * 1000) / Math.max(done, 1);
      if (done) st.physicsUsPerStep = st.steps === 0 ? us : st.physicsUsPerStep + (us - st.physicsUsPerStep) * 0.1;
      st.steps += done;
    }
    st.stepsLastFrame = n;
    // (not while recording or replaying: the restart is no input, and parts them)
    if (!this.compare && !this.paused && this.sim.restartDue && !this.recorder.busy()) this.restartScene();

    try {
      if (this.compare) this.compare.draw(this.ui.overlay(), this.paused);
      else {
        if (this.ui.gestures.pointers.size === 0) this.camera.track(this.sim);
        this.renderer.draw(this.sim, this.ui.overlay());
      }
    } catch (e) {
      this.ui.status(`draw: ${fmtError(e)}`, 'error');
    }
    this.compare?.tick(now);
    st.frames++;
    st.cpuMs += (performance.now() - t0 - st.cpuMs) * 0.1;
    this.ui.tick(now);
    this.tanglePanel.tick(now);
    this.recorder.tick(now);
  }

  /** Refreshes the numbers in `stats` that come from the sim (the UI does this ~4×/s). */
  refreshStats() {
    const st = this.stats;
    const sim = this.sim;
    st.points = sim.pointCount;
    st.links = sim.linkCount;
    st.maxStretch = sim.maxStretch();
    st.energy = sim.energy();
    st.time = sim.time;
    return st;
  }
}

async function boot() {
  const statusEl = /** @type {HTMLElement} */ (document.getElementById('status'));
  const params = readParams();
  if (params.embed) document.body.classList.add('embed');
  try {
    statusEl.textContent = 'loading the wasm module…';
    const bindings = await wasmBindings();
    const app = new App(bindings.Sim);
    app.embed = params.embed;
    if (params.layout) app.compareLayout = params.layout === 'overlay' ? 'overlay' : 'side';
    window.ropelab = pageApi(app, bindings.Sim);

    // The scene: ?scene= (a preset name or a URL), else #name, else the first preset. If it
    // fails, say why and fall back to the first preset.
    let sceneError = null;
    if (params.scene) {
      try {
        await app.loadSceneRef(params.scene);
      } catch (e) {
        const what = isPacked(params.scene) || isRecordingRef(params.scene) ? 'link' : `scene "${params.scene}"`;
        sceneError = `${what}: ${fmtError(e)} — showing the default scene`;
      }
    }
    if (!app.scene) await app.loadPreset(PRESETS[0]);
    if (params.compare) {
      try {
        app.setCompare(parseCompare(params.compare, bindings.Sim.solvers()), app.compareLayout);
      } catch (e) {
        sceneError = [sceneError, fmtError(e)].filter(Boolean).join(' · ');
      }
    }
    statusEl.textContent = '';
    if (sceneError) {
      app.ui.status(sceneError, 'error');
    } else if (!app.recorder.watching) { // (a recording link says how to take over instead)
      app.ui.welcome();
    }
    app.watchVisibility();
    requestAnimationFrame((t) => app.frame(t));
    /** @type {Ropelab} */ (window.ropelab).ready = true;
    dispatchEvent(new CustomEvent('ropelab-ready'));
  } catch (e) {
    statusEl.textContent = `ropelab failed to start: ${fmtError(e)}`;
    statusEl.className = 'status error';
    throw e;
  }
}

boot();
