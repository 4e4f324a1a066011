// @ts-check
// The controls panel (presets, solver, sliders, stats, the capstan readout, the status line),
// and the wiring of the page's input: the pointer (gestures.js), edit mode and undo
// (editing.js) and the keys (keys.js) reach the App only through the small `UiHost` and
// `KeyActions` made here.

/** @import { CapstanReport, LoadedScene, Overlay, Reading, SolverInfo, SolverSupport, WinchInfo } from './types.js' */
/** @import { Slider } from './sliders.js' */
/** @import { App } from './main.js' */
/** @import { UiHost } from './gestures.js' */

import { buildSliders } from './sliders.js';
import { Gestures } from './gestures.js';
import { Editor } from './editing.js';
import { bindKeys } from './keys.js';
import { renderCapstan, renderMeasure } from './readout.js';
import { ViewControls, scaleLabel } from './viewbar.js';
import { ADD_SHAPES, addBodyAt, canAddBodies, dynamicBodies } from './addbody.js';


/** @type {Record<string, string>} */
const HINTS = {
  drag: 'Drag points. Click one to lock it (touch: long-press). Swipe empty space to cut.',
  cut: 'Every swipe cuts the links it crosses.',
  edit: 'Edit mode pauses. Click empty space: add a point. Click two points: connect. Click a link: subdivide. Shift-click / long-press a point: remove.',
};
/** Drag mode's hint in a scene with bodies (and no points) instead of HINTS.drag. */
const BODY_HINT = 'Drag a body at any point of it. Tap empty space to drop one (↶ or Ctrl+Z undoes).';

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

export class Ui {
  /** @param {App} app */
  constructor(app) {
    this.app = app;
    this.canvas = app.canvas;
    this.mode = 'drag';
    this.statusTimer = 0;
    this.lastStats = 0;
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
      aboutMore: $('about-more'), addRow: $('add-row'),
      frictionRow: $('friction-row'), dampingRow: $('damping-row'), readout: $('readout'), measure: $('measure'),
      winch: /** @type {HTMLInputElement} */ ($('winch')), winchOut: $('winch-out'), winchRow: $('winch-row'),
    };
    /** @type {SolverInfo[]} */
    this.solverInfo = JSON.parse(app.Sim.solverInfo()); // [{ name, label, about }]
    this.support = '';     // last solverSupport() JSON, to redo the menu only when it changes
    /** @type {CapstanReport | null} */
    this.capstan = null;   // last capstanReport(), refreshed with the stats
    /** @type {Reading | null} the scene's last final reading (kept across its restarts) */
    this.lastReading = null;
    // Phones start with the panel folded away (it would cover half the scene).
    if (window.innerWidth <= 640) this.el.panel.classList.add('collapsed');
    this.bindControls();
    /** @type {UiHost} what the pointer input and the editor see of the page */
    const host = {
      sim: () => app.sim,
      camera: () => app.camera,
      comparing: () => !!app.compare,
      embed: () => app.embed,
      mode: () => this.mode,
      viewAt: (px, py) => app.viewAt(px, py),
      inputSim: () => app.inputSim(),
      viewChanged: (cam) => app.viewChanged(cam),
      guard: (label, fn) => app.guard(label, fn),
      status: (msg, kind, ms) => this.status(msg, kind, ms),
      subdivisions: () => Number(this.el.subdiv.value),
      releaseAll: () => this.gestures.releaseAll(),
      pointRemoved: (shift) => this.gestures.pointRemoved(shift),
      cleared: () => this.gestures.clearHover(),
      tapEmpty: (w) => this.tapEmpty(w),
    };
    this.editor = new Editor(host);
    this.gestures = new Gestures(this.canvas, host, this.editor);
    this.views = new ViewControls(app);
    /** What a tap on empty space adds in a body scene (ADD_SHAPES). */
    this.addShape = 'box';
    /** Whether the loaded scene takes added bodies (addbody.js `canAddBodies`). */
    this.bodyScene = false;
    /** Whether the sim ran when Edit mode paused it (leaving Edit mode runs it again). */
    this.runAfterEdit = false;
    bindKeys({
      undo: (redo) => this.editor.undo(redo),
      pause: () => app.setPaused(!app.paused),
      step: () => app.stepOnce(),
      reset: () => this.resetScene(),
      mode: (m) => this.setMode(m),
      panel: () => this.togglePanel(),
      resetView: () => app.resetView(),
      zoom: (f) => this.views.zoom(f),
      timeScale: (faster) => this.views.stepTimeScale(faster),
      help: () => this.views.toggleHelp(),
      endChain: () => { this.editor.source = -1; },
      record: () => app.recorder.toggle(),
      play: () => app.recorder.playLast(),
    });
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
    el.solver.addEventListener('change', () => this.switchSolver(el.solver.value));

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
      p.addEventListener('click', () => { p.classList.toggle('open'); this.showMore(); });
    }
    el.aboutMore.addEventListener('click', () => { el.sceneAbout.classList.toggle('open'); this.showMore(); });
    for (const b of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('[data-add]'))) {
      b.addEventListener('click', () => this.setAddShape(/** @type {string} */ (b.dataset.add)));
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
    this.el.sceneAbout.classList.remove('open');
    this.showMore();
    this.bodyScene = canAddBodies(this.app.sim);
    this.el.addRow.hidden = !this.bodyScene;
    this.setMode(this.mode);
    this.showWinch();
    this.capstan = null;
    this.lastReading = null;
    this.editor.clear();
    this.gestures.clearHover();
    this.lastStats = 0;
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
    // Edit mode pauses, as editors do: points added to a running world would fall at once.
    // Leaving it restores the run state it found.
    if (mode === 'edit' && this.mode !== 'edit') {
      this.runAfterEdit = !this.app.paused;
      if (this.runAfterEdit) this.app.setPaused(true);
    } else if (mode !== 'edit' && this.mode === 'edit' && this.runAfterEdit) {
      this.runAfterEdit = false;
      if (this.app.paused) this.app.setPaused(false);
    }
    this.mode = mode;
    this.editor.source = -1;
    this.gestures.hoverLink = -1;
    for (const b of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('.seg [data-mode]'))) {
      b.classList.toggle('on', b.dataset.mode === mode);
      b.setAttribute('aria-checked', String(b.dataset.mode === mode));
    }
    this.el.hint.textContent = mode === 'drag' && this.bodyScene && !this.app.sim.pointCount ? BODY_HINT : HINTS[mode];
    this.el.subdivRow.hidden = mode !== 'edit';
    this.canvas.classList.toggle('mode-cut', mode === 'cut');
    this.canvas.classList.toggle('mode-edit', mode === 'edit');
  }

  /**
   * A new solver. Mid-run the scene restarts under it from its start (as Reset, keeping the
   * settings) and the status line says so; Ctrl+Z brings back the world as it was. Carrying a
   * world across does not hold in general: a rope settled under xpbd is stretched a few per
   * cent, and the exact solver, loaded with it, snaps its links back at once and the capstan's
   * rope slips off the bollard.
   * @param {string} name
   */
  switchSolver(name) {
    const { app, el } = this;
    const sim = app.sim;
    const old = sim.solver;
    if (name === old || sim.time === 0 || app.compare || !app.scene) {
      app.guard('solver', () => sim.setSolver(name));
      el.solver.value = sim.solver;
      this.refreshSolverMenu();
      return;
    }
    const before = sim.exportScene();
    const t = sim.time;
    app.reset().then(() => {
      el.solver.value = app.sim.solver;
      this.refreshSolverMenu();
      if (app.sim.solver !== name) return; // refused (the status line says why)
      this.editor.push(before);
      this.status(`solver ${name}: the scene restarted under it (it ran ${t.toFixed(1)} s under ${old}; Ctrl+Z or ↶ goes back to that)`, 'info', 8000);
    }).catch((e) => this.status(`solver: ${e.message}`, 'error'));
  }

  /** The "more" button under the scene's description: shown while the text is cut. */
  showMore() {
    const p = this.el.sceneAbout;
    const open = p.classList.contains('open');
    const cut = !p.hidden && (open || p.scrollHeight > p.clientHeight + 1);
    this.el.aboutMore.hidden = !cut;
    this.el.aboutMore.textContent = open ? 'less ▴' : 'more ▾';
    this.el.aboutMore.setAttribute('aria-expanded', String(open));
  }

  /** @param {string} shape one of ADD_SHAPES */
  setAddShape(shape) {
    if (!ADD_SHAPES.includes(shape)) throw new Error(`unknown shape ${shape}`);
    this.addShape = shape;
    for (const b of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('[data-add]'))) {
      b.classList.toggle('on', b.dataset.add === shape);
      b.setAttribute('aria-checked', String(b.dataset.add === shape));
    }
  }

  /**
   * A tap or click on empty space in Drag mode: in a body scene, drops the chosen body there.
   * @param {{ x: number, y: number }} w
   */
  tapEmpty(w) {
    const { app } = this;
    if (!this.bodyScene || this.addShape === 'none' || this.mode !== 'drag' || app.compare) return;
    this.editor.remember();
    const id = app.guard('add body', () => addBodyAt(app.sim, this.addShape, w.x, w.y));
    if (id === undefined) this.editor.undoStack.pop();
    else this.status(`added a ${this.addShape} · Ctrl+Z or ↶ undoes`, 'info', 2000);
  }

  /** The first status line: what to do with this scene. */
  welcome() {
    const coarse = matchMedia('(pointer: coarse)').matches;
    if (this.bodyScene && !this.app.sim.pointCount) {
      this.status(coarse ? 'drag the bodies (a finger each) · tap empty space to drop a box' : 'drag the bodies · click empty space to drop a box · ? lists the keys', 'info', 6000);
    } else {
      this.status(coarse
        ? 'drag the points (a finger each) · long-press to lock · swipe empty space to cut'
        : 'drag the points · click one to lock it · swipe empty space to cut · ? lists the keys', 'info', 6000);
    }
  }

  timeScaleChanged() {
    this.views.timeScaleChanged();
    const f = this.app.timeScale;
    this.status(f === 1 ? 'real time' : `slow motion: ${scaleLabel(f)} of real time`, 'info', 1500);
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
    const g = this.gestures;
    if (g.trails.length && g.trails[0].t < cut) g.trails = g.trails.filter((t) => t.t >= cut);
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
    const bodies = this.bodyScene ? dynamicBodies(this.app.sim) : 0;
    /** @type {[string, string | number][]} */
    const rows = [
      ...(st.points || !bodies ? /** @type {[string, string][]} */ ([
        ['points · links', `${st.points} · ${st.links}`],
        ['max stretch', `${(st.maxStretch * 100).toFixed(2)} %`],
      ]) : []),
      ...(bodies ? /** @type {[string, string][]} */ ([['bodies · joints', `${bodies} · ${JSON.parse(this.app.sim.jointsJson()).length}`]]) : []),
      [bodies ? '<span title="Kinetic plus gravitational potential energy of the points and the moving bodies">energy</span>' : 'energy', `${st.energy.toFixed(2)} J`],
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
   * The read-outs over the view (readout.js): the scene's number, from `sim.measure()`, and
   * the capstan's, from the sim's report. While a restarted scene (`restart_after`) waits for
   * its window, the last run's final reading stays up.
   */
  renderReadout() {
    const r = this.app.compare ? null : /** @type {CapstanReport | null} */ (JSON.parse(this.app.sim.capstanReport()));
    this.capstan = r;
    renderCapstan(this.el.readout, r);
    let m = this.app.compare ? null : /** @type {Reading | null} */ (JSON.parse(this.app.sim.measure()));
    if (m?.status === 'done') this.lastReading = m;
    else if (m && m.status !== 'disturbed' && this.lastReading?.label === m.label) m = this.lastReading;
    renderMeasure(this.el.measure, m);
  }

  /** @returns {Overlay} */
  overlay() {
    return {
      capstan: this.capstan,
      handTwist: this.app.tanglePanel?.handTwist() ?? null,
      tintStrain: this.el.strain.checked,
      hover: this.gestures.hover,
      hoverLink: this.mode === 'edit' ? this.gestures.hoverLink : -1,
      source: this.mode === 'edit' ? this.editor.source : -1,
      cursor: this.gestures.cursor,
      trails: this.gestures.trails,
      paused: this.app.paused,
      hoverBody: this.gestures.hoverBody,
      frac: this.app.stepFraction(),
    };
  }

  /** Drops every gesture (before a scene replaces the world). */
  releaseAll() {
    this.gestures.releaseAll();
  }
}
