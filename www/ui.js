// @ts-check
// Controls panel, pointer input (mouse, touch, pen) and keyboard.
//
// Pointer gestures (each pointerId is independent, so every finger drags its own point):
//   Drag mode  down on a point: grab it, moves drag it, up releases (it keeps the pointer's
//              velocity). A click (mouse/pen: little motion, short) toggles its lock; on touch
//              a long-press (500 ms, still) toggles it. Down on empty space: a cut swipe.
//   Cut mode   every swipe cuts (also: right mouse button or Alt in any mode).
//   View       wheel zooms, middle button pans; on touch two fingers on empty space pinch.
//   Edit mode  click empty space: add a point (connected to the selected point, if any);
//              click a point: select it, then click another to connect them (the chain goes on
//              from there; Esc or clicking the selected point ends it); click a link: subdivide
//              it; Shift-click (touch: long-press) a point: remove it. Points can still be dragged.
//
// Every sim call from here goes through `app.guard`, which shows a thrown JS Error in the status
// line. Views of wasm memory are built, used and dropped within one handler.
//
// Comparison view (compare.js): `app.viewAt(px, py)` gives the camera and the sim to pick in
// (the region under the pointer), and gestures act on `app.inputSim()`, which then applies
// grab / drag / release / cut / lock to every sim of the comparison. Edit mode is off there.

/** @import { CapstanReport, InputSim, LoadedScene, Overlay, Sim, SolverInfo, SolverSupport, Trail, WinchInfo } from './types.js' */
/** @import { App } from './main.js' */
/** @import { Camera } from './render.js' */

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
function buildSliders(SimClass, section) {
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

/**
 * The view under the pointer (App `viewAt`): its camera, and the sim to pick in.
 * @typedef {{ camera: Camera, sim: InputSim }} View
 */
/**
 * A pointer position: CSS px relative to the canvas, world (view-plane) metres, its view.
 * @typedef {{ px: number, py: number, x: number, y: number, view: View }} Where
 */
/**
 * One pointer's gesture (`Ui.pointers`, by pointerId).
 * @typedef {object} Gesture
 * @property {number} id pointerId
 * @property {string} type pointerType
 * @property {'press' | 'grab' | 'grabBody' | 'cut' | 'pan' | 'pinch' | 'none'} kind
 * @property {number} index the grabbed point, or -1
 * @property {number} downPx
 * @property {number} downPy
 * @property {number} downT the pointerdown event's timeStamp (ms)
 * @property {Where} last
 * @property {boolean} moved
 * @property {boolean} consumed
 * @property {boolean} shift
 * @property {number} timer long-press timeout
 * @property {View} view the view it started in
 * @property {number} [link] edit mode: the link a press subdivides
 * @property {Where} [cur] pinch: the latest position
 * @property {boolean} [remembered] cut: the undo step is taken
 * @property {number} [cuts] cut: links cut so far
 */

const PICK_PX = 20;       // pick radius in CSS px
const BODY_PICK_PX = 6;   // a body is picked this close to its outline (CSS px)
const LINK_PICK_PX = 10;  // link pick distance in CSS px (edit mode)
const CLICK_PX = 6;       // more motion than this is a drag, not a click
const CLICK_MS = 400;     // a longer press is not a click
const LONG_PRESS_MS = 500;
const UNDO_KEEP = 50;     // undo steps kept

/** @type {Record<string, string>} */
const HINTS = {
  drag: 'Drag points. Click one to lock it (touch: long-press). Swipe empty space to cut.',
  cut: 'Every swipe cuts the links it crosses.',
  edit: 'Click empty space: add a point. Click two points: connect. Click a link: subdivide. Shift-click / long-press a point: remove.',
};

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * Distance-nearest link to (x, y) in the view plane within `radius` m, or -1.
 * @param {Sim} sim
 * @param {number} x
 * @param {number} y
 * @param {number} radius
 */
export function nearestLink(sim, x, y, radius) {
  const top = sim.view === 'top';
  const pos = sim.positions();
  const links = sim.links();
  const yOff = top ? 2 : 1;
  const n = pos.length / 3;
  let best = -1;
  let bestD2 = radius * radius;
  for (let k = 0; 2 * k + 1 < links.length; k++) {
    const a = links[2 * k];
    const b = links[2 * k + 1];
    if (a >= n || b >= n) continue;
    const ax = pos[3 * a], ay = pos[3 * a + yOff];
    const bx = pos[3 * b], by = pos[3 * b + yOff];
    const dx = bx - ax, dy = by - ay;
    const len2 = dx * dx + dy * dy;
    let t = len2 > 0 ? ((x - ax) * dx + (y - ay) * dy) / len2 : 0;
    t = Math.min(Math.max(t, 0), 1);
    const ex = ax + t * dx - x, ey = ay + t * dy - y;
    const d2 = ex * ex + ey * ey;
    if (d2 <= bestD2) {
      bestD2 = d2;
      best = k;
    }
  }
  return best;
}

export class Ui {
  /** @param {App} app */
  constructor(app) {
    this.app = app;
    this.canvas = app.canvas;
    this.mode = 'drag';
    /** @type {Map<number, Gesture>} */
    this.pointers = new Map(); // pointerId → gesture state
    this.hover = -1;
    this.hoverLink = -1;
    this.hoverBody = -1;
    this.source = -1;          // edit mode: the selected point
    /** @type {{ a: Gesture, b: Gesture, d: number, mx: number, my: number } | null} */
    this.pinch = null;         // two touch pointers zooming / panning the view
    /** @type {[number, number] | null} */
    this.cursor = null;        // last mouse position (CSS px)
    /** @type {Trail[]} */
    this.trails = [];          // cut swipe segments, fading
    this.statusTimer = 0;
    this.lastStats = 0;
    /** @type {string[]} */
    this.undoStack = [];       // exportScene() texts before each edit, cut or lock
    /** @type {string[]} */
    this.redoStack = [];
    /** @type {Record<string, Slider>} */
    this.sliders = buildSliders(app.Sim, /** @type {HTMLElement} */ ($('sliders')));
    this.el = {
      panel: $('panel'), collapse: $('collapse'),
      preset: /** @type {HTMLSelectElement} */ ($('preset')), solver: /** @type {HTMLSelectElement} */ ($('solver')),
      pause: $('pause'), step: $('step'), reset: $('reset'), hint: $('hint'),
      subdiv: /** @type {HTMLInputElement} */ ($('subdiv')), subdivOut: $('subdiv-out'), subdivRow: $('subdiv-row'),
      massWeighted: /** @type {HTMLInputElement} */ ($('mass-weighted')), walls: /** @type {HTMLInputElement} */ ($('walls')),
      strain: /** @type {HTMLInputElement} */ ($('strain')),
      stats: $('stats'), status: $('status'), sceneAbout: $('scene-about'), solverAbout: $('solver-about'),
      frictionRow: $('friction-row'), dampingRow: $('damping-row'), readout: $('readout'),
      winch: /** @type {HTMLInputElement} */ ($('winch')), winchOut: $('winch-out'), winchRow: $('winch-row'),
    };
    /** @type {SolverInfo[]} */
    this.solverInfo = JSON.parse(app.Sim.solverInfo()); // [{ name, label, about }]
    this.support = '';     // last solverSupport() JSON, to redo the menu only when it changes
    /** @type {CapstanReport | null} */
    this.capstan = null;   // last capstanReport(), refreshed with the stats
    // Phones start with the panel folded away (it would cover half the scene).
    if (window.innerWidth <= 640) this.el.panel.classList.add('collapsed');
    this.bindControls();
    this.bindPointer();
    this.bindKeys();
    this.setMode('drag');
  }

  // ---- panel ---------------------------------------------------------------------------

  bindControls() {
    const { app, el } = this;
    const sim = () => app.sim;

    for (const { name, label } of this.solverInfo) {
      const o = document.createElement('option');
      o.value = name;
      o.textContent = label;
      el.solver.append(o);
    }
    el.solver.addEventListener('change', () => {
      app.guard('solver', () => sim().setSolver(el.solver.value));
      el.solver.value = sim().solver;
      this.refreshSolverMenu();
    });

    // The preset menu, by group (main.js PRESET_GROUPS).
    el.preset.replaceChildren(...app.presetGroups.map(({ label, names }) => {
      const g = document.createElement('optgroup');
      g.label = label;
      for (const name of names) {
        const o = document.createElement('option');
        o.value = name;
        o.textContent = name;
        g.append(o);
      }
      return g;
    }));
    el.preset.addEventListener('change', () => {
      el.preset.blur();
      if (!el.preset.value) return; // the imported scene's entry
      app.loadPreset(el.preset.value).catch((e) => this.status(`preset: ${e.message}`, 'error'));
    });
    el.reset.addEventListener('click', () => this.resetScene());
    el.pause.addEventListener('click', () => app.setPaused(!app.paused));
    el.step.addEventListener('click', () => app.stepOnce());
    el.collapse.addEventListener('click', () => this.togglePanel());
    for (const p of [el.sceneAbout, el.solverAbout]) {
      p.title = 'Click for the whole text';
      p.addEventListener('click', () => p.classList.toggle('open'));
    }

    for (const [name, s] of Object.entries(this.sliders)) {
      const input = /** @type {HTMLInputElement} */ ($(name));
      const out = $(`${name}-out`);
      s.input = input;
      s.out = out;
      // The label's text also holds the live value; the slider's name is the setting alone.
      if (!input.hasAttribute('aria-label')) {
        input.setAttribute('aria-label', input.closest('label')?.querySelector('span')?.textContent ?? name);
      }
      input.addEventListener('input', () => {
        const v = Number(input.value);
        app.guard(name, () => s.set(sim(), v));
        out.textContent = s.fmt(s.get(sim()));
      });
    }
    // "physics / step" opens into the per-stage breakdown (timers run only while open).
    this.stagesOpen = false;
    /** @type {{ steps: number, stages: { name: string, perSubstep: boolean, us: number }[] } | null} */
    this.lastStages = null;
    el.stats.addEventListener('click', (ev) => {
      if (!(ev.target instanceof Element) || !ev.target.closest('#stage-toggle')) return;
      this.stagesOpen = !this.stagesOpen;
      this.lastStages = null;
      app.sim.setProfiling(this.stagesOpen);
      this.renderStats();
      /** @type {HTMLElement | null} */ (el.stats.querySelector('#stage-toggle'))?.focus();
    });
    el.subdiv.addEventListener('input', () => { el.subdivOut.textContent = `${el.subdiv.value} new`; });
    el.subdivOut.textContent = `${el.subdiv.value} new`;
    el.winch.addEventListener('input', () => this.setWinch(Number(el.winch.value)));

    el.massWeighted.addEventListener('change', () => {
      app.guard('mass-weighted', () => sim().setMassWeighted(el.massWeighted.checked));
      el.massWeighted.checked = sim().massWeighted;
      this.refreshSolverMenu();
    });
    el.walls.addEventListener('change', () => this.applyWalls());

    for (const b of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('.seg [data-mode]'))) {
      b.addEventListener('click', () => this.setMode(/** @type {string} */ (b.dataset.mode)));
    }
  }

  /**
   * The panel's footprint the camera should avoid (CSS px): right on wide screens, bottom on narrow.
   * @param {number} W the canvas width (CSS px)
   */
  panelInset(W) {
    const p = this.el.panel;
    const none = { left: 0, right: 0, top: 0, bottom: 0 };
    if (this.app.embed || getComputedStyle(p).display === 'none') return none; // ?embed=1: no panel
    if (W <= 640) return { ...none, bottom: p.offsetHeight + 16 };
    if (p.classList.contains('collapsed')) return none;
    return { ...none, right: p.offsetWidth + 20 };
  }

  togglePanel() {
    const c = this.el.panel.classList.toggle('collapsed');
    if (!c) this.renderStats();
    this.el.collapse.setAttribute('aria-expanded', String(!c));
    this.app.layout();
  }

  applyWalls() {
    const { app, el } = this;
    app.guard('walls', () => {
      if (!el.walls.checked) {
        app.sim.clearWalls();
        return;
      }
      let w = app.sceneWalls;
      if (w.length !== 4) {
        // The scene has none: use what is on screen.
        const [x0, ya] = app.camera.toWorld(0, 0);
        const [x1, yb] = app.camera.toWorld(app.renderer.cssW, app.renderer.cssH);
        w = [x0, Math.min(ya, yb), x1, Math.max(ya, yb)]; // the top view's y axis points down
      }
      app.sim.setWalls(w[0], w[1], w[2], w[3]);
    });
  }

  /** Controls ← sim (after a preset brings its own settings). */
  syncFromSim() {
    const sim = this.app.sim;
    for (const s of Object.values(this.sliders)) {
      const v = s.get(sim);
      /** @type {HTMLInputElement} */ (s.input).value = String(v);
      /** @type {HTMLElement} */ (s.out).textContent = s.fmt(v);
    }
    this.el.massWeighted.checked = sim.massWeighted;
    this.el.walls.checked = sim.walls().length === 4;
    this.el.solver.value = sim.solver;
    this.refreshSolverMenu();
  }

  /**
   * The solver menu follows what the scene allows: a solver that cannot run it (the classic
   * seed solver has no dogs, rope–rope contacts or pins, and ignores mass) is disabled, with
   * the reason in its tooltip and under the menu; the current one's description is shown.
   */
  refreshSolverMenu() {
    const sim = this.app.sim;
    const text = sim.solverSupport();
    const current = sim.solver;
    const key = `${text}|${current}`;
    if (key === this.support) return;
    this.support = key;
    /** @type {SolverSupport[]} */
    const support = JSON.parse(text);
    const why = [];
    for (const o of this.el.solver.options) {
      const s = support.find((v) => v.name === o.value);
      // (every option was made from solverInfo)
      const info = /** @type {SolverInfo} */ (this.solverInfo.find((v) => v.name === o.value));
      o.disabled = !!s && !s.ok;
      o.title = s && !s.ok ? `Not for this scene: ${s.reason}` : info?.about ?? '';
      o.textContent = s && !s.ok ? `${info.label} (not for this scene)` : info.label;
      if (s && !s.ok) why.push(`${o.value} is off here: ${s.reason}.`);
    }
    this.el.solver.value = current;
    const about = this.solverInfo.find((v) => v.name === current)?.about ?? '';
    this.el.solverAbout.textContent = [about, ...why].join(' ');
    const classic = current === 'classic';
    // The seed's friction is the classic solver's; the others damp by a rate.
    this.el.frictionRow.hidden = !classic;
    this.el.dampingRow.hidden = classic;
  }

  /** Sim ← controls (Reset keeps what the user set). */
  applyControls() {
    const { app, el } = this;
    const sim = app.sim;
    for (const [name, s] of Object.entries(this.sliders)) {
      app.guard(name, () => s.set(sim, Number(/** @type {HTMLInputElement} */ (s.input).value)));
    }
    app.guard('mass-weighted', () => sim.setMassWeighted(el.massWeighted.checked));
    app.guard('solver', () => sim.setSolver(el.solver.value));
    this.applyWalls();
    this.syncFromSim();
  }

  /**
   * The scene's first winch runs at `speed` m/s (negative reels in); the readout shows the
   * rope's length.
   * @param {number} speed
   */
  setWinch(speed) {
    const sim = this.app.sim;
    this.app.guard('winch', () => sim.setWinchSpeed(0, speed));
    this.showWinch(false);
  }

  /**
   * The winch row: shown when the scene has a winch, with its speed and rope length (the
   * slider is set from the sim only when a scene loads, not while the user holds it).
   * @param {boolean} [slider]
   */
  showWinch(slider = true) {
    const { el } = this;
    /** @type {WinchInfo[]} */
    const winches = this.app.compare ? [] : JSON.parse(this.app.sim.winchesJson());
    el.winchRow.hidden = winches.length === 0;
    if (!winches.length) return;
    const w = winches[0];
    if (slider) el.winch.value = String(w.speed);
    el.winchOut.textContent = `${w.speed.toFixed(2)} · rope ${w.length.toFixed(2)} m`;
  }

  /** After a scene loaded: the preset select shows it (or the imported scene's name). */
  /** @param {LoadedScene} scene */
  sceneLoaded(scene) {
    const sel = this.el.preset;
    let custom = /** @type {HTMLOptionElement | null} */ (sel.querySelector('option[data-custom]'));
    if (scene.preset && sel.querySelector(`option[value="${CSS.escape(scene.preset)}"]`)) {
      custom?.remove();
      sel.value = scene.preset;
    } else {
      if (!custom) {
        custom = document.createElement('option');
        custom.dataset.custom = '1';
        custom.value = '';
        sel.append(custom);
      }
      custom.textContent = `${scene.name} (file)`;
      sel.value = '';
    }
    this.el.sceneAbout.textContent = scene.description ?? '';
    this.el.sceneAbout.hidden = !scene.description;
    this.showWinch();
    this.capstan = null;
    this.source = -1;
    this.hover = -1;
    this.hoverLink = -1;
    this.hoverBody = -1;
    this.lastStats = 0;
    this.undoStack.length = 0;
    this.redoStack.length = 0;
  }

  resetScene() {
    this.app.reset().then(() => this.status('reset', 'info', 1500)).catch((e) => this.status(`reset: ${e.message}`, 'error'));
  }

  pausedChanged() {
    const p = this.app.paused;
    this.el.pause.textContent = p ? 'Run' : 'Pause';
    this.el.pause.classList.toggle('paused', p);
  }

  /** @param {string} mode 'drag', 'cut' or 'edit' */
  setMode(mode) {
    if (!HINTS[mode]) throw new Error(`unknown mode ${mode}`);
    if (mode === 'edit' && this.app.compare) mode = 'drag'; // no editing across a comparison
    this.mode = mode;
    this.source = -1;
    this.hoverLink = -1;
    for (const b of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('.seg [data-mode]'))) {
      b.classList.toggle('on', b.dataset.mode === mode);
      b.setAttribute('aria-checked', String(b.dataset.mode === mode));
    }
    this.el.hint.textContent = HINTS[mode];
    this.el.subdivRow.hidden = mode !== 'edit';
    this.canvas.classList.toggle('mode-cut', mode === 'cut');
    this.canvas.classList.toggle('mode-edit', mode === 'edit');
  }

  /**
   * Shows a message in the status line; errors stay 8 s, info `ms`.
   * @param {string} msg
   * @param {string} [kind] 'info' or 'error'
   * @param {number} [ms]
   */
  status(msg, kind = 'info', ms) {
    const s = this.el.status;
    s.textContent = msg;
    s.className = `status ${kind}`;
    clearTimeout(this.statusTimer);
    this.statusTimer = setTimeout(() => { s.textContent = ''; }, ms ?? (kind === 'error' ? 8000 : 3000));
  }

  /**
   * Called once per frame by the loop.
   * @param {number} now
   */
  tick(now) {
    const cut = now - 450;
    if (this.trails.length && this.trails[0].t < cut) this.trails = this.trails.filter((t) => t.t >= cut);
    if (now - this.lastStats > 250) {
      this.lastStats = now;
      this.renderStats();
      if (!this.el.winchRow.hidden) this.showWinch(false);
    }
  }

  /**
   * The step's stages with their mean time per step since the last refresh (Sim.stageTimes,
   * timed in Rust, one row per stage of src/step.rs in order), when the breakdown is open.
   * @returns {[string, string][]}
   */
  stageRows() {
    if (!this.stagesOpen) return [];
    const sim = this.app.sim;
    /** @type {{ steps: number, stages: { name: string, perSubstep: boolean, us: number }[] } | null} */
    const t = JSON.parse(sim.stageTimes());
    if (!t) {
      sim.setProfiling(true); // a new sim (scene loaded): start timing it
      return [];
    }
    // Browsers coarsen performance.now() (100 µs without cross-origin isolation): keep
    // accumulating for 240 steps (4 s) before starting a new window, so the means are not
    // one clock tick divided by a handful of steps.
    if (t.steps >= 240) {
      this.lastStages = t;
      sim.resetStageTimes();
    }
    // The last full window; until there is one, the first window as it fills.
    const last = this.lastStages ?? (t.steps > 0 ? t : null);
    if (!last) return [['', 'timing…']];
    return last.stages.map((g) => [
      `<span class="stage" title="${g.perSubstep ? 'runs once per substep; summed over them' : 'runs once per step'}">${g.perSubstep ? '· ' : ''}${g.name}</span>`,
      `${g.us.toFixed(2)} µs`,
    ]);
  }

  renderStats() {
    if (this.app.compare) return; // the comparison has its own table (compare.js)
    this.refreshSolverMenu(); // an edit can change what the solvers can run
    this.renderReadout();
    const st = this.app.refreshStats();
    /** @type {[string, string | number][]} */
    const rows = [
      ['points · links', `${st.points} · ${st.links}`],
      ['max stretch', `${(st.maxStretch * 100).toFixed(2)} %`],
      ['energy', `${st.energy.toFixed(2)} J`],
      ['sim time', `${st.time.toFixed(2)} s`],
      ['frame', `${st.frameMs.toFixed(1)} ms (${st.frameMs > 0 ? Math.round(1000 / st.frameMs) : 0} fps)`],
      ['script / frame', `${st.cpuMs.toFixed(2)} ms`],
      [`<button type="button" id="stage-toggle" class="disclosure" aria-expanded="${this.stagesOpen}" title="Time per stage of the step (src/step.rs)">physics / step ${this.stagesOpen ? '▾' : '▸'}</button>`,
        `${st.physicsUsPerStep.toFixed(1)} µs`],
      ...this.stageRows(),
    ];
    if (st.droppedSteps) rows.push(['dropped steps', st.droppedSteps]);
    const html = rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('');
    if (html !== this.el.stats.innerHTML) this.el.stats.innerHTML = html;
  }

  /**
   * The capstan on screen: for a rope lying over an obstacle (the capstan preset), the load
   * and hold ends with their tensions, the wrap angle θ, the friction limit e^{μθ} and whether
   * the rope holds, from `sim.capstanReport()`. The renderer labels the ends and the arc.
   */
  renderReadout() {
    const el = this.el.readout;
    /** @type {CapstanReport | null} */
    const r = this.app.compare ? null : JSON.parse(this.app.sim.capstanReport());
    this.capstan = r;
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

  /** @returns {Overlay} */
  overlay() {
    return {
      capstan: this.capstan,
      handTwist: this.app.tanglePanel?.handTwist() ?? null,
      tintStrain: this.el.strain.checked,
      hover: this.hover,
      hoverLink: this.mode === 'edit' ? this.hoverLink : -1,
      source: this.mode === 'edit' ? this.source : -1,
      cursor: this.cursor,
      trails: this.trails,
      paused: this.app.paused,
      hoverBody: this.hoverBody,
      frac: this.app.stepFraction(),
    };
  }

  // ---- pointer -------------------------------------------------------------------------

  /**
   * Event → CSS px relative to the canvas and world coordinates, through the view under the
   * pointer (`view`: camera and sim), or through the gesture's view `s.view` once it started.
   * @param {{ clientX: number, clientY: number }} e a pointer event or a touch
   * @param {Gesture | null} [s]
   * @returns {Where}
   */
  where(e, s = null) {
    const r = this.canvas.getBoundingClientRect();
    const px = e.clientX - r.left;
    const py = e.clientY - r.top;
    const view = s?.view ?? this.app.viewAt(px, py);
    const [x, y] = view.camera.toWorld(px, py);
    return { px, py, x, y, view };
  }

  /** The sim pointer actions go to (every sim of a comparison). */
  target() {
    return this.app.inputSim();
  }

  /**
   * Id of the movable body under the pointer (within a few px of its outline), or -1. Not in
   * edit mode (it edits points and links).
   * @param {Where} w
   */
  pickBodyAt(w) {
    if (this.mode === 'edit' || w.view.sim.bodyCount === 0) return -1;
    const margin = BODY_PICK_PX / w.view.camera.scale;
    return this.app.guard('pickBody', () => w.view.sim.pickBody(w.x, w.y, margin)) ?? -1;
  }

  /**
   * Grabs the body under the pointer, if any, at the point grabbed (a soft mouse joint pulls
   * that point of the body to the pointer; in the comparison, the same body in every sim).
   * Returns whether a body was grabbed.
   * @param {PointerEvent} e
   * @param {Gesture} s
   * @param {Where} w
   * @returns {boolean}
   */
  grabBodyAt(e, s, w) {
    const id = this.pickBodyAt(w);
    if (id < 0) return false;
    const ok = this.app.guard('grabBody', () => { this.target().grabBody(e.pointerId, id, w.x, w.y); return true; });
    if (!ok) return false;
    s.kind = 'grabBody';
    this.hoverBody = -1;
    this.canvas.classList.add('dragging');
    return true;
  }

  /** @param {Where} w */
  pickAt(w) {
    const radius = PICK_PX / w.view.camera.scale;
    return this.app.guard('pick', () => w.view.sim.pick(w.x, w.y, radius)) ?? -1;
  }

  bindPointer() {
    const c = this.canvas;
    c.addEventListener('pointerdown', (e) => this.onDown(e));
    c.addEventListener('pointermove', (e) => this.onMove(e));
    c.addEventListener('pointerup', (e) => this.onUp(e, false));
    c.addEventListener('pointercancel', (e) => this.onUp(e, true));
    c.addEventListener('lostpointercapture', (e) => { if (this.pointers.has(e.pointerId)) this.onUp(e, true); });
    c.addEventListener('pointerleave', (e) => { if (e.pointerType === 'mouse') { this.hover = -1; this.hoverLink = -1; this.hoverBody = -1; this.cursor = null; } });
    c.addEventListener('contextmenu', (e) => e.preventDefault());
    // Embedded in a page (?embed=1) the view must not trap the reader: the canvas lets the
    // browser pan vertically (CSS touch-action: pan-y), a touch that starts on a point or a
    // body stops that scroll here (so it drags it), and the wheel zooms only with Ctrl (a pinch
    // on a touchpad sends ctrl+wheel) or after a click into the view, until the pointer leaves.
    c.addEventListener('touchstart', (e) => {
      if (!this.app.embed || e.touches.length !== 1) return;
      const t = e.touches[0];
      const w = this.where(t);
      if (this.mode === 'cut' || this.pickAt(w) >= 0 || this.pickBodyAt(w) >= 0) e.preventDefault();
    }, { passive: false });
    c.addEventListener('pointerleave', (e) => { if (e.pointerType === 'mouse') this.wheelActive = false; });
    window.addEventListener('blur', () => { this.wheelActive = false; });
    c.addEventListener('wheel', (e) => {
      if (this.app.embed && !e.ctrlKey && !this.wheelActive) return; // the page scrolls
      e.preventDefault();
      const { px, py, view } = this.where(e);
      view.camera.zoomAt(px, py, Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.0015)));
      this.app.viewChanged(view.camera);
    }, { passive: false });
  }

  /** @param {PointerEvent} e */
  onDown(e) {
    if (e.pointerType === 'mouse' && e.button > 2) return;
    if (e.pointerType === 'mouse') this.wheelActive = true; // a click into an embed lets the wheel zoom
    e.preventDefault();
    try { this.canvas.setPointerCapture(e.pointerId); } catch { /* synthetic events */ }
    const w = this.where(e);
    /** @type {Gesture} */
    const s = {
      id: e.pointerId, type: e.pointerType, kind: 'press', index: -1,
      downPx: w.px, downPy: w.py, downT: e.timeStamp, last: w,
      moved: false, consumed: false, shift: e.shiftKey, timer: 0, view: w.view,
    };
    this.pointers.set(e.pointerId, s);
    if (e.button === 1) {
      s.kind = 'pan'; // middle button pans the view
      return;
    }
    const cutGesture = this.mode === 'cut' || e.button === 2 || e.altKey;
    if (cutGesture) {
      s.kind = 'cut';
      return;
    }
    const i = this.pickAt(w);
    const link = this.mode === 'edit' && i >= 0 ? this.preferredLink(w) : -1;
    if (link >= 0) {
      s.kind = 'press'; // a click nearer a link's middle than its ends subdivides it
      s.link = link;
    } else if (i < 0 && this.grabBodyAt(e, s, w)) {
      // A body under the pointer and no point within the pick radius (a rope's end on a
      // body is grabbed as the point): dragged by a soft mouse joint.
    } else if (i >= 0) {
      const ok = this.app.guard('grab', () => { this.target().grab(e.pointerId, i); return true; });
      if (ok) {
        s.kind = 'grab';
        s.index = i;
        this.canvas.classList.add('dragging');
        if (e.pointerType === 'touch') s.timer = setTimeout(() => this.onLongPress(s), LONG_PRESS_MS);
      } else {
        s.kind = 'none'; // e.g. held by another finger
      }
    } else {
      // In an embed, a swipe on empty space does not cut (it is the reader scrolling the
      // page): only Cut mode, the right button or Alt cut there.
      s.kind = this.mode === 'edit' ? 'press' : this.app.embed ? 'none' : 'cut';
      // A second finger on empty space while another rests there (not cutting yet): pinch.
      const other = e.pointerType === 'touch' && !this.pinch
        ? [...this.pointers.values()].find((p) => p !== s && p.type === 'touch' && !p.moved && (p.kind === 'cut' || p.kind === 'press' || (this.app.embed && p.kind === 'none')))
        : null;
      if (other) {
        other.kind = s.kind = 'pinch';
        other.cur = other.last;
        s.cur = w;
        this.pinch = { a: other, b: s, ...this.pinchFrame(other.cur, s.cur) };
      }
    }
  }

  /**
   * @param {Where} p
   * @param {Where} q
   */
  pinchFrame(p, q) {
    return { d: Math.max(Math.hypot(q.px - p.px, q.py - p.py), 1), mx: (p.px + q.px) / 2, my: (p.py + q.py) / 2 };
  }

  /**
   * Two-finger zoom and pan.
   * @param {Gesture} s
   * @param {Where} w
   */
  onPinchMove(s, w) {
    s.cur = w;
    const pinch = this.pinch;
    if (!pinch || (pinch.a !== s && pinch.b !== s)) return;
    const f = this.pinchFrame(/** @type {Where} */ (pinch.a.cur), /** @type {Where} */ (pinch.b.cur)); // (set as the pinch began)
    const cam = pinch.a.view.camera;
    cam.panBy(f.mx - pinch.mx, f.my - pinch.my);
    cam.zoomAt(f.mx, f.my, f.d / pinch.d);
    this.app.viewChanged(cam);
    Object.assign(pinch, f);
  }

  /** @param {PointerEvent} e */
  onMove(e) {
    const s = this.pointers.get(e.pointerId);
    const w = this.where(e, s);
    if (e.pointerType === 'mouse' || e.pointerType === 'pen') {
      this.cursor = [w.px, w.py];
      if (!s) this.updateHover(w);
    }
    if (!s) return;
    if (s.kind === 'pinch') {
      this.onPinchMove(s, w);
      return;
    }
    if (!s.moved && Math.hypot(w.px - s.downPx, w.py - s.downPy) > CLICK_PX) {
      s.moved = true;
      clearTimeout(s.timer);
      if (s.kind === 'press' && !this.app.embed) s.kind = 'cut'; // edit mode: a drag on empty space cuts too
    }
    // Coalesced events give the full path of fast swipes (cuts) on browsers that have them.
    const events = s.kind === 'cut' && e.getCoalescedEvents ? e.getCoalescedEvents() : [];
    if (s.kind === 'grabBody') {
      this.app.guard('drag', () => this.target().dragBody(e.pointerId, w.x, w.y));
    } else if (s.kind === 'grab') {
      this.app.guard('drag', () => this.target().dragTo(e.pointerId, w.x, w.y));
    } else if (s.kind === 'pan') {
      s.view.camera.panBy(w.px - s.last.px, w.py - s.last.py);
      this.app.viewChanged(s.view.camera);
      s.last = this.where(e, s);
    } else if (s.kind === 'cut' && s.moved) {
      const pts = events.length ? events.map((ce) => this.where(ce, s)) : [w];
      for (const p of pts) this.cutSegment(s, p);
    }
  }

  /**
   * @param {Gesture} s
   * @param {Where} w
   */
  cutSegment(s, w) {
    const a = s.last;
    if (a.px === w.px && a.py === w.py) return;
    const before = this.app.compare || s.remembered ? null : this.app.sim.exportScene();
    const n = this.app.guard('cut', () => this.target().cut(a.x, a.y, w.x, w.y)) ?? 0;
    if (n > 0 && before && !s.remembered) {
      // One undo step per swipe, taken before its first cut.
      s.remembered = true;
      this.undoStack.push(before);
      if (this.undoStack.length > UNDO_KEEP) this.undoStack.shift();
      this.redoStack.length = 0;
    }
    s.cuts = (s.cuts ?? 0) + n;
    this.trails.push({ x0: a.px, y0: a.py, x1: w.px, y1: w.py, t: performance.now() });
    s.last = w;
  }

  /** @param {Gesture} s */
  onLongPress(s) {
    if (!this.pointers.has(s.id) || s.moved || s.kind !== 'grab') return;
    s.consumed = true;
    if (navigator.vibrate) navigator.vibrate(15);
    if (this.mode === 'edit') {
      this.removePoint(s.index);
    } else {
      this.remember();
      const locked = this.app.guard('lock', () => this.target().toggleLock(s.index));
      if (locked !== undefined) this.status(`point ${s.index} ${locked ? 'locked' : 'unlocked'}`, 'info', 1500);
    }
  }

  /**
   * @param {PointerEvent} e
   * @param {boolean} cancelled
   */
  onUp(e, cancelled) {
    const s = this.pointers.get(e.pointerId);
    if (!s) return;
    this.pointers.delete(e.pointerId);
    clearTimeout(s.timer);
    try { this.canvas.releasePointerCapture(e.pointerId); } catch { /* already released */ }
    if (![...this.pointers.values()].some((p) => p.kind === 'grab' || p.kind === 'grabBody')) this.canvas.classList.remove('dragging');
    const sim = this.target();
    if (s.kind === 'grab') sim.release(e.pointerId);
    if (s.kind === 'grabBody') sim.releaseBody(e.pointerId);
    if (s.kind === 'pinch') {
      // The other finger does nothing more until it lifts.
      if (this.pinch) for (const p of [this.pinch.a, this.pinch.b]) if (p !== s) p.kind = 'none';
      this.pinch = null;
      return;
    }
    if (cancelled || s.consumed) return;

    const w = this.where(e, s);
    if (s.kind === 'cut') {
      if (s.moved) this.cutSegment(s, w);
      if (s.cuts) this.status(`cut ${s.cuts} link${s.cuts === 1 ? '' : 's'}`, 'info', 1500);
      return;
    }
    // The events' own times, not when they were handled: on a busy page the handlers can
    // run hundreds of ms late, and a quick click must stay a click (a fresh-clone CI run on
    // a loaded machine lost an edit-mode click this way).
    const click = !s.moved && e.timeStamp - s.downT < CLICK_MS;
    if (!click) return;
    if (s.kind === 'grab') {
      if (this.mode === 'edit') this.editClickPoint(s.index, s.shift || e.shiftKey);
      else if (s.type !== 'touch') {
        this.remember();
        this.app.guard('lock', () => sim.toggleLock(s.index));
      }
    } else if (s.kind === 'press') {
      this.editClickEmpty(w, s.link ?? -1);
    }
    if (s.type !== 'touch') this.updateHover(w);
  }

  /**
   * @param {number} i
   * @param {boolean} remove
   */
  editClickPoint(i, remove) {
    const sim = this.app.sim;
    if (remove) {
      this.removePoint(i);
    } else if (this.source < 0) {
      this.source = i;
    } else if (this.source === i) {
      this.source = -1;
    } else {
      this.remember();
      const k = this.app.guard('connect', () => sim.connect(this.source, i));
      if (k !== undefined) this.source = i;
    }
  }

  /**
   * Edit mode, a click that also picked a point: the link under it if the click is nearer
   * that link's middle than either of its ends (on screen), else -1. At normal zoom links are
   * 17–29 px long and the 20 px point radius covers them whole; this rule works at any zoom.
   * @param {Where} w
   */
  preferredLink(w) {
    if (this.source >= 0) return -1; // connecting: points win
    const sim = /** @type {Sim} */ (w.view.sim); // (edit mode: never a comparison's group)
    const k = nearestLink(sim, w.x, w.y, LINK_PICK_PX / w.view.camera.scale);
    if (k < 0) return -1;
    const pos = sim.positions();
    const links = sim.links();
    const yOff = sim.view === 'top' ? 2 : 1;
    const a = links[2 * k], b = links[2 * k + 1];
    const ax = pos[3 * a], ay = pos[3 * a + yOff], bx = pos[3 * b], by = pos[3 * b + yOff];
    const d = (/** @type {number} */ x, /** @type {number} */ y) => Math.hypot(w.x - x, w.y - y);
    return d((ax + bx) / 2, (ay + by) / 2) < Math.min(d(ax, ay), d(bx, by)) ? k : -1;
  }

  /**
   * @param {Where} w
   * @param {number} [link]
   */
  editClickEmpty(w, link = -1) {
    const sim = this.app.sim;
    if (this.source < 0) {
      const k = link >= 0 ? link : nearestLink(sim, w.x, w.y, LINK_PICK_PX / this.app.camera.scale);
      if (k >= 0) {
        const n = Number(this.el.subdiv.value);
        this.remember();
        this.app.guard('subdivide', () => sim.subdivide(k, n));
        return;
      }
    }
    this.remember();
    const i = this.app.guard('add point', () => sim.addPoint(w.x, w.y, false));
    if (i === undefined) return;
    if (this.source >= 0) {
      this.app.guard('connect', () => sim.connect(this.source, i));
    }
    this.source = i;
  }

  /** @param {number} i */
  removePoint(i) {
    this.remember();
    const ok = this.app.guard('remove', () => { this.app.sim.removePoint(i); return true; });
    if (!ok) return;
    // Indices above i shift down by one.
    const shift = (/** @type {number} */ j) => (j === i ? -1 : j > i ? j - 1 : j);
    this.source = shift(this.source);
    this.hover = -1;
    for (const s of this.pointers.values()) {
      s.index = shift(s.index);
      if (s.index < 0 && s.kind === 'grab') s.kind = 'none';
    }
  }

  /** @param {Where} w */
  updateHover(w) {
    let i = this.pickAt(w);
    const link = this.mode === 'edit' && i >= 0 ? this.preferredLink(w) : -1;
    if (link >= 0) i = -1;
    this.hover = i;
    this.hoverLink = link >= 0 ? link : this.mode === 'edit' && i < 0 && this.source < 0
      ? nearestLink(this.app.sim, w.x, w.y, LINK_PICK_PX / this.app.camera.scale)
      : -1;
    this.hoverBody = i < 0 && link < 0 ? this.pickBodyAt(w) : -1;
    this.canvas.classList.toggle('over-point', i >= 0 || this.hoverBody >= 0);
  }

  /** Drops every gesture (before a scene replaces the world). */
  releaseAll() {
    for (const s of this.pointers.values()) {
      clearTimeout(s.timer);
      if (s.kind === 'grab') this.target().release(s.id);
      if (s.kind === 'grabBody') this.target().releaseBody(s.id);
    }
    this.pointers.clear();
    this.pinch = null;
    this.canvas.classList.remove('dragging');
  }

  // ---- keyboard ------------------------------------------------------------------------

  /**
   * Undo for edits, cuts and locks: the scene as it was before each (exportScene), up to
   * UNDO_KEEP of them; Ctrl+Z / ⌘Z restores the last, Ctrl+Shift+Z / Ctrl+Y redoes. A new
   * scene clears both stacks. Not in the comparison (its sims share the input, not an editor).
   */
  remember() {
    if (this.app.compare) return;
    this.undoStack.push(this.app.sim.exportScene());
    if (this.undoStack.length > UNDO_KEEP) this.undoStack.shift();
    this.redoStack.length = 0;
  }

  undo(redo = false) {
    const [from, to] = redo ? [this.redoStack, this.undoStack] : [this.undoStack, this.redoStack];
    if (this.app.compare || !from.length) return false;
    const sim = this.app.sim;
    const now = sim.exportScene();
    this.releaseAll();
    const ok = this.app.guard(redo ? 'redo' : 'undo', () => { sim.loadScene(from[from.length - 1]); return true; });
    if (!ok) return false;
    from.pop();
    to.push(now);
    this.source = -1;
    this.hover = -1;
    this.hoverLink = -1;
    this.hoverBody = -1;
    this.status(`${redo ? 'redone' : 'undone'} (${from.length} more)`, 'info', 1500);
    return true;
  }

  bindKeys() {
    addEventListener('keydown', (e) => {
      const t = e.target;
      if ((e.ctrlKey || e.metaKey) && !(t instanceof HTMLInputElement && t.type !== 'checkbox' && t.type !== 'range') && !(t instanceof HTMLTextAreaElement)) {
        const k = e.key.toLowerCase();
        if (k === 'z' || k === 'y') {
          e.preventDefault();
          this.undo(k === 'y' || e.shiftKey);
        }
        return;
      }
      if (e.ctrlKey || e.metaKey) return;
      if (t instanceof HTMLSelectElement || (t instanceof HTMLInputElement && t.type !== 'checkbox' && t.type !== 'range')) return;
      const app = this.app;
      switch (e.key) {
        case ' ':
          app.setPaused(!app.paused);
          break;
        case 's': case '.':
          app.stepOnce();
          break;
        case 'r':
          this.resetScene();
          break;
        case 'd': this.setMode('drag'); break;
        case 'c': this.setMode('cut'); break;
        case 'e': this.setMode('edit'); break;
        case 'h': this.togglePanel(); break;
        case '0': app.resetView(); break;
        case 'Escape': this.source = -1; break;
        default: return;
      }
      e.preventDefault();
      if (t instanceof HTMLButtonElement) t.blur();
    });
  }
}
