// @ts-check
// `window.ropelab`: the page's handle for the console and the end-to-end tests (main.js sets
// it at boot). Not used by the page itself.

/** @import { Ropelab, SimClass } from './types.js' */
/** @import { App } from './main.js' */

import { parseCompare } from './compare-spec.js';
import { H, MAX_STEPS } from './clock.js';

/**
 * @param {App} app
 * @param {SimClass} Sim
 * @returns {Ropelab}
 */
export function pageApi(app, Sim) {
  const cam = app.camera;
  return {
    app,
    Sim,
    get sim() { return app.sim; },
    get stats() { return app.refreshStats(); },
    get preset() { return app.preset; },
    get scene() { return app.scene; },
    get paused() { return app.paused; },
    /** The comparison view (compare.js `Compare`: slots, stats(), group), or null. */
    get compare() { return app.compare; },
    camera: cam,
    H,
    MAX_STEPS,
    presets: app.presetGroups.flatMap((g) => g.names),
    /** World (view-plane metres) → CSS pixels from the canvas's top-left corner. */
    toScreen: (x, y) => cam.toScreen(x, y),
    /** CSS pixels from the canvas's top-left corner → world (view-plane metres). */
    toWorld: (px, py) => cam.toWorld(px, py),
    loadPreset: (name) => app.loadPreset(name),
    /** Loads scene JSON text (throws the sim's error, keeping the world, if it is bad). */
    loadSceneText: (text) => app.loadSceneText(text, { label: 'scene' }),
    exportScene: () => app.exportText(),
    /** The "Copy link" URL (a promise): #s=<preset> or #s=z:<the scene deflated>. */
    shareLink: (embed = false) => app.shareLink({ embed }),
    /** `spec`: "classic,pbd,xpbd:1i5s" or null to leave the comparison. */
    setCompare: (spec, layout) => app.setCompare(spec == null ? null : parseCompare(spec, Sim.solvers()), layout),
    setCompareLayout: (mode) => app.setCompareLayout(mode),
    reset: () => app.reset(),
    pause: (p = true) => app.setPaused(p),
    step: (n = 1) => app.stepOnce(n),
    setMode: (m) => app.ui.setMode(m),
    /** Slow motion: the fraction of real time the clock runs at (clock.js TIME_SCALES). */
    setTimeScale: (f) => app.setTimeScale(f),
    get timeScale() { return app.timeScale; },
    /** False while the view is off-screen or the tab hidden (the loop then idles). */
    get visible() { return app.visible !== false; },
    /** The leash panel's log line for a sim event (`drainEvents()` entry). */
    eventText: (e) => app.tanglePanel.eventText(e),
    /** A copy of the render data, for tests and the console (not used by the loop). */
    snapshot() {
      const sim = app.sim;
      sim.refreshRender();
      return {
        positions: Array.from(sim.positions()),
        links: Array.from(sim.links()),
        flags: Array.from(sim.pointFlags()),
      };
    },
  };
}
