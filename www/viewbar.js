// @ts-check
// The on-screen view and time controls (index.html): the bar over the view's top-left corner
// (Fit, zoom −/+, Undo, ?) for touch screens, where the wheel and the 0 key are missing and a
// pinch can lose the scene; the panel's slow-motion buttons; the help overlay listing the keys
// (keys.js KEY_HELP).

/** @import { App } from './main.js' */

import { KEY_HELP, ZOOM_STEP } from './keys.js';
import { TIME_SCALES } from './clock.js';

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** How a time scale is written on its button and in the status line. */
export const scaleLabel = (/** @type {number} */ f) => (f === 1 ? '1×' : `1/${Math.round(1 / f)}×`);

export class ViewControls {
  /** @param {App} app */
  constructor(app) {
    this.app = app;
    this.help = /** @type {HTMLDialogElement} */ ($('help-dialog'));
    $('fit').addEventListener('click', () => app.resetView());
    $('zoom-in').addEventListener('click', () => this.zoom(ZOOM_STEP));
    $('zoom-out').addEventListener('click', () => this.zoom(1 / ZOOM_STEP));
    $('undo').addEventListener('click', () => app.ui.editor.undo(false));
    $('help-button').addEventListener('click', () => this.toggleHelp());
    $('help-close').addEventListener('click', () => this.help.close());
    // A click on the backdrop (outside the dialog's box) closes it too.
    this.help.addEventListener('click', (e) => { if (e.target === this.help) this.help.close(); });
    /** @type {HTMLElement} */ ($('help-keys')).innerHTML = KEY_HELP
      .map(([k, what]) => `<dt>${k.split(' ').map((w) => (/^(or|and|\/|·)$/.test(w) ? w : `<kbd>${w}</kbd>`)).join(' ')}</dt><dd>${what}</dd>`)
      .join('');

    this.scaleButtons = /** @type {HTMLElement[]} */ ([...document.querySelectorAll('[data-scale]')]);
    for (const b of this.scaleButtons) {
      b.addEventListener('click', () => app.setTimeScale(Number(b.dataset.scale)));
    }
    this.timeScaleChanged();
  }

  /**
   * Zooms the view under the middle of the free canvas (every view of a comparison follows).
   * @param {number} factor
   */
  zoom(factor) {
    const app = this.app;
    const v = app.camera.viewport;
    const px = v.x + v.w / 2;
    const py = v.y + v.h / 2;
    const cam = app.viewAt(px, py).camera;
    cam.zoomAt(px, py, factor);
    app.viewChanged(cam);
  }

  toggleHelp() {
    if (this.help.open) this.help.close();
    else this.help.showModal();
  }

  /**
   * One step along TIME_SCALES.
   * @param {boolean} faster
   */
  stepTimeScale(faster) {
    const i = TIME_SCALES.indexOf(this.app.timeScale);
    const j = Math.min(Math.max(i + (faster ? -1 : 1), 0), TIME_SCALES.length - 1);
    this.app.setTimeScale(TIME_SCALES[j]);
  }

  /** Buttons and the badge over the view ← the app's time scale. */
  timeScaleChanged() {
    const f = this.app.timeScale;
    for (const b of this.scaleButtons) {
      const on = Number(b.dataset.scale) === f;
      b.classList.toggle('on', on);
      b.setAttribute('aria-checked', String(on));
    }
    const badge = $('slowmo');
    badge.hidden = f === 1;
    badge.textContent = `slow motion ${scaleLabel(f)}`;
  }
}
