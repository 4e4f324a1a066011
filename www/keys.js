// @ts-check
// The page's keyboard: space pause / run, s or . one step, r reset, d / c / e modes, h the
// panel, 0 refits the view, Esc ends an edit chain; Ctrl+Z / ⌘Z undo, Ctrl+Shift+Z / Ctrl+Y
// redo. Keys typed into a text field or a menu are theirs.

/**
 * What the keys do (ui.js binds them to the App and the panel).
 * @typedef {object} KeyActions
 * @property {(redo: boolean) => void} undo
 * @property {() => void} pause toggles pause
 * @property {() => void} step
 * @property {() => void} reset
 * @property {(mode: string) => void} mode
 * @property {() => void} panel toggles the panel
 * @property {() => void} resetView
 * @property {() => void} endChain edit mode: ends the chain of connected points
 */

/** @param {KeyActions} a */
export function bindKeys(a) {
  addEventListener('keydown', (e) => {
    const t = e.target;
    if ((e.ctrlKey || e.metaKey) && !(t instanceof HTMLInputElement && t.type !== 'checkbox' && t.type !== 'range') && !(t instanceof HTMLTextAreaElement)) {
      const k = e.key.toLowerCase();
      if (k === 'z' || k === 'y') {
        e.preventDefault();
        a.undo(k === 'y' || e.shiftKey);
      }
      return;
    }
    if (e.ctrlKey || e.metaKey) return;
    if (t instanceof HTMLSelectElement || (t instanceof HTMLInputElement && t.type !== 'checkbox' && t.type !== 'range')) return;
    switch (e.key) {
      case ' ':
        a.pause();
        break;
      case 's': case '.':
        a.step();
        break;
      case 'r':
        a.reset();
        break;
      case 'd': a.mode('drag'); break;
      case 'c': a.mode('cut'); break;
      case 'e': a.mode('edit'); break;
      case 'h': a.panel(); break;
      case '0': a.resetView(); break;
      case 'Escape': a.endChain(); break;
      default: return;
    }
    e.preventDefault();
    if (t instanceof HTMLButtonElement) t.blur();
  });
}
