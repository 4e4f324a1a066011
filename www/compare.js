// @ts-check
// Comparison view (issue 3 §4): the same scene under several solvers at once.
//
// One `Sim` per slot, each loaded from the same scene text and then given its solver and its own
// iterations / substeps. The page's loop (main.js) decides how many fixed steps of H are due
// and calls `step(n)`: every sim takes the same n steps, so they stay in lockstep (equal
// `sim.time`); `performance.now()` around each sim's steps gives its physics µs/step. After the
// steps each sim's max stretch and energy are sampled into ring buffers (plot.js) for
// sparklines of the last PLOT_SECONDS of sim time.
//
// Layouts: "side" (small multiples: one canvas region per sim, the regions in the grid of
// columns that shows the scene largest, one shared camera) or "overlay" (one region, every sim
// drawn in its solver's colour). A table below the view (the HUD, outside the panel so it stays
// in embeds) is the legend: colour, solver, iterations and substeps inputs, live max stretch,
// energy, µs/step and the two sparklines (shared scales down each column, stretch on a log
// scale).
//
// Input: ui.js asks `viewAt(px, py)` for the camera and the sim to pick in, and sends grab /
// dragTo / release / cut / lock to `group`, which applies each to every sim with the same point
// index, so all solvers get the same input.
//
// URL: ?compare=classic,pbd,xpbd:1i5s,exact&layout=side|overlay — per slot `name[:<n>i][<n>s]`
// sets iterations (i) and substeps (s); omitted values come from the scene.

/** @import { DrawOptions, InputSim, Overlay, Rect, Sim } from './types.js' */
/** @import { CompareSpec } from './compare-spec.js' */
/** @import { App } from './main.js' */

import { PageCamera as Camera } from './pagecamera.js'; // (the page's: the portrait fit)
import { SimGroup } from './compare-group.js';
import { EXACT_PASS_CAP, SOLVER_COLORS, SPARE_COLORS, fmtEnergy, fmtExp, fmtStretch, fmtUs } from './compare-spec.js';
import { Series, drawSparkline, logStretch, sharedRange } from './plot.js';
import { bodyFigures, fmtLength, showColumns } from './compare-bodies.js';
import { sameText } from './compare-same.js';

/**
 * A slot's row in the HUD table.
 * @typedef {object} SlotEls
 * @property {HTMLTableRowElement} row
 * @property {HTMLInputElement} it
 * @property {HTMLInputElement} sub
 * @property {HTMLElement} stretch
 * @property {HTMLElement} energy
 * @property {HTMLElement} overlap
 * @property {HTMLElement} joints
 * @property {HTMLElement} us
 * @property {HTMLCanvasElement} sparkS
 * @property {HTMLCanvasElement} sparkE
 */
/**
 * One sim of the comparison.
 * @typedef {object} Slot
 * @property {string} solver
 * @property {number | null} iterations null = the scene's
 * @property {number | null} substeps
 * @property {string} color
 * @property {Sim | null} sim null until `load`, and after `destroy`
 * @property {Camera} camera
 * @property {number} us mean physics µs per step
 * @property {number} steps
 * @property {Series} timing per frame: (steps, ms)
 * @property {string | null} error why its sim stopped
 * @property {Series} stretch
 * @property {Series} energy
 * @property {SlotEls} el
 */
/** @typedef {Rect & { slot: Slot | null }} Region a region of the view (overlaid: one, slot null) */
/** @typedef {{ cols: number, rows: number, s: number }} Grid */
/**
 * The HUD's cells above the rows (`buildHud` sets `Compare.el`).
 * @typedef {{ time: HTMLElement, rangeS: HTMLElement, rangeE: HTMLElement, same: HTMLElement }} CompareEls
 */

/** Line dash per slot in the overlaid layout (solid first). */
const DASHES = [null, [9, 6], [2, 5], [14, 4, 3, 4], [5, 3]];

export const PLOT_SECONDS = 10;
const LABEL_H = 24; // px: the label strip above each region (side by side)
/** Room round each region's frame: a solver that stretches a rope more than the scene's own
 * (impulse on the wrecking ball) swings its load a little past the scene's stage. */
const PAD = 1.12;
// µs/step is the mean over the last TIMING_FRAMES frames, not a per-frame reading: outside a
// cross-origin isolated page Chromium coarsens performance.now() to 100 µs (with jitter that
// averages out), far coarser than one step of a small scene.
const TIMING_FRAMES = 240;

const fmtError = (/** @type {any} */ e) => (e && e.message) || String(e);


export class Compare {
  /**
   * @param {App} app the page's App (main.js): `Sim`, `renderer`, `camera` (the scene's framing),
   *   `ui` (panelInset, status), `guard`
   * @param {CompareSpec[]} specs from `parseCompare`
   * @param {string} [layout] "side" or "overlay"
   */
  constructor(app, specs, layout = 'side') {
    this.app = app;
    this.layoutMode = layout === 'overlay' ? 'overlay' : 'side';
    this.group = new SimGroup(this);
    this.master = new Camera(); // the shared view (zoom, centre); each region's camera follows it
    this.master.pad = PAD;
    /** @type {Region[]} */
    this.regions = [];
    /** @type {string | null} */
    this.text = null;
    this.lastNumbers = 0;
    this.lastPlots = 0;
    const used = new Set();
    /** @type {Slot[]} */
    this.slots = specs.map((sp) => {
      let color = SOLVER_COLORS[sp.solver];
      if (!color || used.has(color)) color = SPARE_COLORS.find((c) => !used.has(c)) ?? '#bbb';
      used.add(color);
      return {
        solver: sp.solver,
        iterations: sp.iterations, // null = the scene's
        substeps: sp.substeps,
        color,
        sim: null,
        camera: Object.assign(new Camera(), { pad: PAD }),
        us: 0,
        steps: 0,
        timing: new Series(TIMING_FRAMES), // per frame: (steps, ms)
        error: null,
        stretch: new Series(),
        energy: new Series(),
        el: /** @type {any} */ (null), // buildHud (below) fills it
      };
    });
    this.hud = this.buildHud();
    document.body.append(this.hud);
  }

  /** The specs of the current slots (for the URL). */
  specs() {
    return this.slots.map(({ solver, iterations, substeps }) => ({ solver, iterations, substeps }));
  }

  /**
   * (Re)creates every sim from `text`. All or nothing: if any sim rejects the scene, the new
   * sims are freed, the old ones kept, and the error is thrown. A solver that cannot run the
   * scene (the classic one has no bodies) keeps its sim at the start, stopped, with the
   * reason in its row.
   */
  /** @param {string} text */
  load(text) {
    /** @type {Sim[]} */
    const created = [];
    /** @type {(string | null)[]} */
    const refused = [];
    try {
      for (const slot of this.slots) {
        const sim = new this.app.Sim();
        created.push(sim);
        sim.loadScene(text);
        try {
          sim.setSolver(slot.solver);
          refused.push(null);
        } catch (e) {
          refused.push(`not for this scene: ${fmtError(e)}`);
          continue;
        }
        if (slot.iterations != null) sim.setIterations(slot.iterations);
        // The exact solver's iterations are a cap on Newton passes (it stops once every link
        // is within 8e-5 of its length, ~3 passes a step): a scene's sweep count made for the
        // iterative solvers (the rope preset's 3) would cut it short, so it gets its own cap.
        else if (slot.solver === 'exact') sim.setIterations(Math.max(sim.iterations, EXACT_PASS_CAP));
        if (slot.substeps != null) sim.setSubsteps(slot.substeps);
      }
    } catch (e) {
      for (const sim of created) sim.free();
      throw e;
    }
    this.slots.forEach((slot, k) => {
      slot.sim?.free();
      slot.sim = created[k];
      slot.us = 0;
      slot.steps = 0;
      slot.timing.clear();
      slot.error = refused[k];
      slot.stretch.clear();
      slot.energy.clear();
      slot.el.row.classList.toggle('failed', !!slot.error);
      slot.el.row.title = slot.error ? `stopped: ${slot.error}` : '';
    });
    this.text = text;
    showColumns(this.hud, created[0]); // the body columns where the scene has what they measure
    this.sample();
    this.syncInputs();
    this.refreshHud(true);
  }

  /** Frees every sim and removes the HUD. */
  destroy() {
    for (const slot of this.slots) {
      slot.sim?.free();
      slot.sim = null;
    }
    this.hud.remove();
  }

  // ---- stepping ------------------------------------------------------------------------

  /**
   * Advances every sim by `n` fixed steps of `h`; returns n. A sim that throws stops alone.
   * The order rotates frame by frame so no solver is always the one stepped first (cold caches
   * after drawing) in the timings.
   */
  /**
   * @param {number} n
   * @param {number} h
   */
  step(n, h) {
    const N = this.slots.length;
    this.turn = ((this.turn ?? -1) + 1) % N;
    for (let j = 0; j < N; j++) {
      const slot = this.slots[(this.turn + j) % N];
      if (!slot.sim || slot.error) continue;
      const t0 = performance.now();
      let done = 0;
      try {
        for (; done < n; done++) {
          if (done === n - 1) this.app.renderer.keepPrevious(slot.sim, h); // interpolation's start
          slot.sim.step(h);
        }
      } catch (e) {
        slot.error = fmtError(e);
        slot.el.row.classList.add('failed');
        slot.el.row.title = `stopped: ${slot.error}`;
        this.app.ui.status(`${slot.solver}: step failed, that sim stopped: ${slot.error}`, 'error');
      }
      if (done) {
        slot.timing.push(done, performance.now() - t0);
        let steps = 0;
        let ms = 0;
        slot.timing.forEach((n, t) => { steps += n; ms += t; });
        slot.us = (ms * 1000) / steps;
        slot.steps += done;
      }
    }
    this.sample();
    return n;
  }

  /** Records each sim's max stretch and energy at its current time. */
  sample() {
    for (const slot of this.slots) {
      if (!slot.sim) continue;
      const t = slot.sim.time;
      slot.stretch.push(t, slot.sim.maxStretch());
      slot.energy.push(t, slot.sim.energy());
    }
  }

  /** Live numbers per slot (tests and the console). */
  stats() {
    return this.slots.map((s) => ({
      solver: s.solver,
      color: s.color,
      iterations: s.sim?.iterations,
      substeps: s.sim?.substeps,
      time: s.sim?.time,
      maxStretch: s.sim?.maxStretch(),
      energy: s.sim?.energy(),
      usPerStep: s.us,
      steps: s.steps,
      error: s.error,
    }));
  }

  // ---- layout and camera ---------------------------------------------------------------

  /** @param {string} mode */
  setLayout(mode) {
    this.layoutMode = mode === 'overlay' ? 'overlay' : 'side';
    this.layout();
  }

  /** Places the HUD, then splits the rest of the free area into regions. */
  layout() {
    const { renderer, ui } = this.app;
    const W = renderer.cssW;
    const Hh = renderer.cssH;
    const inset = ui.panelInset(W);
    const hud = this.hud;
    hud.style.left = `${inset.left + 10}px`;
    hud.style.bottom = `${inset.bottom + 10}px`;
    hud.style.maxWidth = `${Math.max(W - inset.left - inset.right - 20, 100)}px`;
    const hudH = hud.offsetHeight ? hud.offsetHeight + 16 : 0;
    document.body.style.setProperty('--inset-bottom', `${inset.bottom + hudH + 22}px`); // the view bar above the table and the scale bar
    const area = {
      x: inset.left,
      y: inset.top,
      w: Math.max(W - inset.left - inset.right, 1),
      h: Math.max(Hh - inset.top - inset.bottom - hudH, 1),
    };
    const N = this.slots.length;
    this.regions = [];
    if (this.layoutMode === 'overlay') {
      this.grid = { cols: 1, rows: 1 };
      for (const slot of this.slots) slot.camera.setViewport(area.x, area.y, area.w, area.h);
      this.regions.push({ ...area, slot: null });
    } else {
      // The column count that shows the scene largest (ties: more columns), each region
      // fitted as the page camera fits it (pagecamera.js: by height, and by the width of the
      // subject's reach, so a swinging wrecking ball is not cut by a narrow column).
      /** @type {Grid | null} */
      let best = null;
      for (let cols = 1; cols <= N; cols++) {
        const rows = Math.ceil(N / cols);
        const s = this.master.fitFor(area.w / cols, Math.max(area.h / rows - LABEL_H, 1));
        if (!best || s >= best.s) best = { cols, rows, s };
      }
      this.grid = best;
      // (N ≥ 1: the loop set `best`)
      const cw = area.w / /** @type {Grid} */ (best).cols;
      const ch = area.h / /** @type {Grid} */ (best).rows;
      this.slots.forEach((slot, k) => {
        const r = { x: area.x + (k % /** @type {Grid} */ (best).cols) * cw, y: area.y + Math.floor(k / /** @type {Grid} */ (best).cols) * ch, w: cw, h: ch, slot };
        this.regions.push(r);
        slot.camera.setViewport(r.x, r.y + LABEL_H, r.w, Math.max(r.h - LABEL_H, 1));
      });
    }
    for (const slot of this.slots) slot.camera.follow(this.master);
  }

  /** Takes the scene's framing from the page camera (after a scene loads or on entry). */
  frame() {
    this.master.follow(this.app.camera);
    for (const slot of this.slots) slot.camera.follow(this.master);
  }

  /**
   * Every region follows `cam` (one was zoomed or panned).
   * @param {Camera} cam
   */
  viewChanged(cam) {
    this.master.follow(cam);
    for (const slot of this.slots) if (slot.camera !== cam) slot.camera.follow(this.master);
  }

  resetView() {
    this.master.resetView();
    for (const slot of this.slots) slot.camera.follow(this.master);
  }

  /**
   * The camera and the input target under (px, py) CSS px.
   * @param {number} px
   * @param {number} py
   * @returns {{ camera: Camera, sim: InputSim, slot: Slot | null }}
   */
  viewAt(px, py) {
    if (this.layoutMode === 'overlay' || !this.regions.length) {
      return { camera: this.slots[0].camera, sim: this.group, slot: null };
    }
    let best = this.regions[0];
    let bestD = Infinity;
    for (const r of this.regions) {
      const dx = Math.max(r.x - px, 0, px - (r.x + r.w));
      const dy = Math.max(r.y - py, 0, py - (r.y + r.h));
      const d = dx * dx + dy * dy;
      if (d < bestD) {
        bestD = d;
        best = r;
      }
    }
    // Side by side every region has its slot, and a loaded comparison every slot its sim.
    return { camera: /** @type {Slot} */ (best.slot).camera, sim: /** @type {Sim} */ (/** @type {Slot} */ (best.slot).sim), slot: best.slot };
  }

  // ---- drawing -------------------------------------------------------------------------

  /**
   * @param {Overlay} o
   * @param {boolean} paused
   */
  draw(o, paused) {
    const r = this.app.renderer;
    const ctx = r.ctx;
    r.clear();
    if (this.layoutMode === 'overlay') {
      const reg = this.regions[0];
      const cam = this.slots[0].camera;
      this.slots.forEach((slot, k) => {
        if (!slot.sim) return;
        // Solvers that agree (pbd and xpbd at zero compliance are the same algorithm) draw
        // on top of each other: each slot has its own dash pattern, so both stay visible.
        r.drawSim(slot.sim, cam, { ...o, grid: k === 0, color: slot.color, alpha: 0.9, dash: DASHES[k % DASHES.length], pointScale: Math.max(1 - 0.22 * k, 0.4) }, reg);
      });
      r.drawScaleBar(cam, reg.x + 16, reg.y + 24);
      if (paused) r.drawPaused(reg.x + 16, reg.y + 52);
    } else {
      for (const reg of this.regions) {
        const slot = /** @type {Slot} */ (reg.slot); // side by side: every region has one
        if (slot.sim) r.drawSim(slot.sim, slot.camera, { ...o, tintStrain: true }, reg);
        this.drawLabel(ctx, reg, slot);
      }
      // Separators between regions.
      ctx.strokeStyle = '#2e2e2e';
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (const reg of this.regions) {
        ctx.rect(Math.round(reg.x) + 0.5, Math.round(reg.y) + 0.5, Math.round(reg.w) - 1, Math.round(reg.h) - 1);
      }
      ctx.stroke();
      const first = this.regions[0];
      if (first) {
        r.drawScaleBar(/** @type {Slot} */ (first.slot).camera, first.x + 14, first.y + first.h - 12);
        if (paused) r.drawPaused(first.x + 14, first.y + LABEL_H + 20);
      }
    }
    r.drawTrails(o.trails);
  }

  /**
   * The strip above a region: colour, solver, live max stretch (right) and the settings
   * between them when there is room (narrow regions drop the settings, then shorten the rest).
   */
  /**
   * @param {CanvasRenderingContext2D} ctx
   * @param {Region} reg
   * @param {Slot} slot
   */
  drawLabel(ctx, reg, slot) {
    const x = reg.x + 10;
    const y = reg.y + 16;
    const right = reg.x + reg.w - 10;
    ctx.save();
    ctx.beginPath();
    ctx.rect(reg.x, reg.y, reg.w, LABEL_H);
    ctx.clip();
    ctx.fillStyle = 'rgba(20,20,20,0.85)';
    ctx.fillRect(reg.x, reg.y, reg.w, LABEL_H);
    ctx.fillStyle = slot.color;
    ctx.fillRect(x, y - 9, 10, 10);
    ctx.font = '600 13px system-ui, sans-serif';
    ctx.textAlign = 'left';
    ctx.fillText(slot.solver, x + 16, y);
    const left = x + 16 + ctx.measureText(slot.solver).width + 8;
    ctx.font = '12px system-ui, sans-serif';
    let stretchW = 0;
    const last = slot.sim?.linkCount ? slot.stretch.last() : null; // bodies alone: no stretch
    if (last) {
      const long = `stretch ${fmtStretch(last.v)}`;
      const text = ctx.measureText(long).width <= right - left ? long : fmtStretch(last.v);
      stretchW = ctx.measureText(text).width;
      ctx.textAlign = 'right';
      ctx.fillStyle = slot.color;
      ctx.fillText(text, right, y);
      ctx.textAlign = 'left';
    }
    const sim = slot.sim;
    let settings = sim ? `${sim.iterations} it × ${sim.substeps} sub` : '';
    if (slot.error) settings += slot.error.startsWith('not for this scene') ? ' · not for this scene' : ' · stopped';
    if (settings && left + ctx.measureText(settings).width <= right - stretchW - 10) {
      ctx.fillStyle = '#8a8a8a';
      ctx.fillText(settings, left, y);
    }
    ctx.restore();
  }

  // ---- HUD (legend, numbers, sparklines) -----------------------------------------------

  buildHud() {
    const hud = document.createElement('div');
    hud.id = 'compare-hud';
    hud.className = 'cmp-hud';
    hud.innerHTML = `<table>
      <thead><tr>
        <th class="name">solver <span class="time"></span></th>
        <th title="Constraint iterations per substep">it</th>
        <th title="Substeps per 1/60 s step">sub</th>
        <th class="num stretch" title="Largest relative link stretch |d − L| / L">max stretch</th>
        <th class="num" title="Kinetic plus gravitational potential energy of the particles and bodies">energy</th>
        <th class="num overlap" title="Bodies: the deepest overlap of two bodies' outlines in the view (contact penetration)">overlap</th>
        <th class="num joints" title="Bodies: the largest joint error (anchors apart, off a prismatic axis, outside a distance joint's length)">joint error</th>
        <th class="num" title="Physics time per 1/60 s step: performance.now() around the sim's steps, mean of the last ${TIMING_FRAMES} frames">physics</th>
        <th class="spark" title="Max stretch over the last ${PLOT_SECONDS} s, log scale, shared by every row">stretch · ${PLOT_SECONDS} s <span class="range" data-range="stretch"></span></th>
        <th class="spark" title="Energy over the last ${PLOT_SECONDS} s, shared scale">energy · ${PLOT_SECONDS} s <span class="range" data-range="energy"></span></th>
      </tr></thead><tbody></tbody></table><p class="same" hidden></p>`;
    const body = /** @type {HTMLElement} */ (hud.querySelector('tbody'));
    this.el = {
      time: /** @type {HTMLElement} */ (hud.querySelector('.time')),
      rangeS: /** @type {HTMLElement} */ (hud.querySelector('[data-range="stretch"]')),
      rangeE: /** @type {HTMLElement} */ (hud.querySelector('[data-range="energy"]')),
      same: /** @type {HTMLElement} */ (hud.querySelector('.same')),
    };
    for (const slot of this.slots) {
      const tr = document.createElement('tr');
      tr.dataset.solver = slot.solver;
      tr.innerHTML = `
        <td class="name"><i class="swatch" style="background:${slot.color}"></i>${slot.solver}</td>
        <td><input class="it" type="number" min="1" max="1000" step="1" aria-label="${slot.solver} iterations"></td>
        <td><input class="sub" type="number" min="1" max="1000" step="1" aria-label="${slot.solver} substeps"></td>
        <td class="num stretch"></td><td class="num energy"></td><td class="num overlap"></td><td class="num joints"></td><td class="num us"></td>
        <td class="spark"><canvas class="spark-stretch"></canvas></td>
        <td class="spark"><canvas class="spark-energy"></canvas></td>`;
      body.append(tr);
      slot.el = {
        row: tr,
        it: /** @type {HTMLInputElement} */ (tr.querySelector('.it')),
        sub: /** @type {HTMLInputElement} */ (tr.querySelector('.sub')),
        stretch: /** @type {HTMLElement} */ (tr.querySelector('.stretch')),
        energy: /** @type {HTMLElement} */ (tr.querySelector('.energy')),
        overlap: /** @type {HTMLElement} */ (tr.querySelector('.overlap')),
        joints: /** @type {HTMLElement} */ (tr.querySelector('.joints')),
        us: /** @type {HTMLElement} */ (tr.querySelector('.us')),
        sparkS: /** @type {HTMLCanvasElement} */ (tr.querySelector('.spark-stretch')),
        sparkE: /** @type {HTMLCanvasElement} */ (tr.querySelector('.spark-energy')),
      };
      /** @type {(input: HTMLInputElement, key: 'iterations' | 'substeps', set: (sim: Sim, v: number) => void) => void} */
      const bind = (input, key, set) => {
        input.addEventListener('change', () => {
          const v = Number(input.value);
          const ok = slot.sim && this.app.guard(`${slot.solver} ${key}`, () => { set(/** @type {Sim} */ (slot.sim), v); return true; });
          if (ok) slot[key] = v;
          if (slot.sim) input.value = String(slot.sim[key]); // refused: back to the sim's value
          this.syncInputs();
          this.app.compareChanged?.();
        });
        // Keys typed here are numbers, not shortcuts.
        input.addEventListener('keydown', (e) => e.stopPropagation());
      };
      bind(slot.el.it, 'iterations', (sim, v) => sim.setIterations(v));
      bind(slot.el.sub, 'substeps', (sim, v) => sim.setSubsteps(v));
    }
    return hud;
  }

  /** Inputs ← sims. */
  syncInputs() {
    for (const slot of this.slots) {
      if (!slot.sim) continue;
      if (document.activeElement !== slot.el.it) slot.el.it.value = String(slot.sim.iterations);
      if (document.activeElement !== slot.el.sub) slot.el.sub.value = String(slot.sim.substeps);
    }
  }

  /** Called once per frame: numbers ~4×/s, sparklines ~15×/s. */
  /** @param {number} now */
  tick(now) {
    if (now - this.lastPlots > 66) {
      this.lastPlots = now;
      this.drawPlots();
    }
    if (now - this.lastNumbers > 250) {
      this.lastNumbers = now;
      this.refreshHud();
    }
  }

  refreshHud(plots = false) {
    let time = 0;
    for (const slot of this.slots) {
      if (!slot.sim) continue;
      time = Math.max(time, slot.sim.time);
      const s = slot.stretch.last();
      const e = slot.energy.last();
      /** @type {(el: HTMLElement, text: string) => void} */
      const set = (el, text) => { if (el.textContent !== text) el.textContent = text; };
      set(slot.el.stretch, slot.sim.linkCount === 0 ? '–' : s ? fmtStretch(s.v) : ''); // no links: no stretch
      set(slot.el.energy, e ? fmtEnergy(e.v) : '');
      if (!slot.el.overlap.hidden || !slot.el.joints.hidden) {
        const f = bodyFigures(slot.sim);
        set(slot.el.overlap, fmtLength(f?.overlap));
        set(slot.el.joints, fmtLength(f?.joints));
      }
      set(slot.el.us, slot.error ? 'stopped' : slot.steps ? fmtUs(slot.us) : '–');
    }
    // (`this.el` is set by buildHud, from the constructor)
    /** @type {CompareEls} */ (this.el).time.textContent = `· t = ${time.toFixed(1)} s`;
    const text = sameText(this.slots, this.layoutMode);
    if (/** @type {CompareEls} */ (this.el).same.textContent !== text) /** @type {CompareEls} */ (this.el).same.textContent = text;
    /** @type {CompareEls} */ (this.el).same.hidden = !text;
    if (plots) this.drawPlots();
  }

  drawPlots() {
    const live = this.slots.filter((s) => s.sim);
    if (!live.length) return;
    const t1 = Math.max(...live.map((s) => s.stretch.last()?.t ?? 0), PLOT_SECONDS);
    const t0 = t1 - PLOT_SECONDS;
    // Robust ranges: one drag spike must not flatten every line (values outside are clipped
    // to the edge); see plot.js robustRange.
    const rs = sharedRange(live.map((s) => s.stretch.robustRange(t0, logStretch)), 1);
    const re = sharedRange(live.map((s) => s.energy.robustRange(t0)), 1);
    if (rs) /** @type {CompareEls} */ (this.el).rangeS.textContent = `${fmtExp(rs[0] + 0.04 * (rs[1] - rs[0]))}–${fmtExp(rs[1] - 0.04 * (rs[1] - rs[0]))}`;
    if (re) /** @type {CompareEls} */ (this.el).rangeE.textContent = `${Math.round(re[0])}…${Math.round(re[1])} J`;
    for (const slot of live) {
      if (rs) drawSparkline(slot.el.sparkS, slot.stretch, { t0, t1, y0: rs[0], y1: rs[1], color: slot.color, f: logStretch });
      if (re) drawSparkline(slot.el.sparkE, slot.energy, { t0, t1, y0: re[0], y1: re[1], color: slot.color, zero: true });
    }
  }
}
