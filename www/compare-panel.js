// @ts-check
// The panel's compare section (index.html): the on/off switch, the layout buttons, the solver
// checkboxes and "copy embed link" (the App owns the state: `app.setCompare`).

/** @import { App } from './main.js' */

import { DEFAULT_SOLVERS, MAX_SLOTS, SOLVER_COLORS } from './compare-spec.js';

/**
 * Wires the panel's compare section (index.html): the on/off switch, layout buttons, the
 * solver checkboxes and "copy embed link". The app owns the state (`app.setCompare`).
 */
/** @param {App} app */
export function bindComparePanel(app) {
  const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
  const toggle = /** @type {HTMLInputElement} */ ($('compare'));
  const box = $('compare-solvers');
  const solvers = app.Sim.solvers();
  for (const name of solvers) {
    const label = document.createElement('label');
    label.innerHTML = `<input type="checkbox" value="${name}"><i class="swatch" style="background:${SOLVER_COLORS[name] ?? '#bbb'}"></i>${name}`;
    box.append(label);
  }
  const checks = [...box.querySelectorAll('input')];
  const layoutButtons = /** @type {HTMLElement[]} */ ([...document.querySelectorAll('[data-layout]')]);

  const chosen = () => checks.filter((c) => c.checked).map((c) => c.value);
  const apply = () => {
    const names = chosen();
    if (!toggle.checked) {
      app.setCompare(null);
      return;
    }
    if (!names.length) {
      app.ui.status('compare: choose at least one solver', 'error');
      return;
    }
    // Keep the settings of solvers that stay; new ones take the scene's.
    const old = app.compare ? app.compare.specs() : [];
    const specs = names.map((solver) => old.find((s) => s.solver === solver) ?? fresh(solver));
    app.guard('compare', () => app.setCompare(specs, app.compare?.layoutMode ?? app.compareLayout));
  };
  toggle.addEventListener('change', apply);
  for (const c of checks) c.addEventListener('change', apply);
  for (const b of layoutButtons) {
    b.addEventListener('click', () => {
      app.compareLayout = /** @type {string} */ (b.dataset.layout);
      if (app.compare) app.setCompareLayout(/** @type {string} */ (b.dataset.layout));
      sync();
    });
  }
  $('embed-link').addEventListener('click', () => {
    const url = app.shareUrl({ embed: true });
    const done = () => app.ui.status(`embed link copied: ${url}`, 'info', 6000);
    if (navigator.clipboard?.writeText) navigator.clipboard.writeText(url).then(done, () => app.ui.status(url, 'info', 10000));
    else app.ui.status(url, 'info', 10000);
  });

  /**
   * A solver joining the comparison with the loaded scene's settings. XPBD gets "n substeps ×
   * 1 iteration" with the scene's pass count (Macklin et al. 2019), so it does not merely
   * repeat PBD (which it equals at 0 compliance).
   * @param {string} solver
   * @returns {import('./compare-spec.js').CompareSpec}
   */
  function fresh(solver) {
    const passes = app.sim.iterations;
    return solver === 'xpbd' && passes > 1
      ? { solver, iterations: 1, substeps: passes }
      : { solver, iterations: null, substeps: null };
  }

  /**
   * The solvers ticked when the comparison is off: the default ones that can run the loaded
   * scene, and the impulse solver when it has rigid bodies.
   */
  function defaults() {
    /** @type {{ name: string, ok: boolean }[]} */
    const support = JSON.parse(app.sim.solverSupport());
    const ok = (/** @type {string} */ n) => solvers.includes(n) && support.find((v) => v.name === n)?.ok !== false;
    const names = DEFAULT_SOLVERS.filter(ok);
    if (app.sim.bodyCount > 0 && ok('impulse')) names.push('impulse');
    return names;
  }

  /** Panel ← app state. */
  function sync() {
    const c = app.compare;
    toggle.checked = !!c;
    const names = c ? c.slots.map((s) => s.solver) : defaults();
    for (const ch of checks) ch.checked = names.includes(ch.value);
    const mode = c?.layoutMode ?? app.compareLayout;
    for (const b of layoutButtons) {
      b.classList.toggle('on', b.dataset.layout === mode);
      b.setAttribute('aria-checked', String(b.dataset.layout === mode));
    }
  }
  sync();
  /** What ticking compare gives the loaded scene (a preset chosen while comparing gets it too). */
  const defaultSpecs = () => defaults().map(fresh);
  return { sync, defaultSpecs };
}
