// @ts-check
// The page's keyboard (KEY_HELP lists it; help.js shows that list on `?`). Keys typed into a
// text field or a menu are theirs.

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
 * @property {(factor: number) => void} zoom zooms the view about its centre
 * @property {(faster: boolean) => void} timeScale one slow-motion step faster or slower
 * @property {() => void} help opens the list of keys
 * @property {() => void} endChain edit mode: ends the chain of connected points
 * @property {() => void} record starts or stops a recording (or stops a replay)
 * @property {() => void} play replays the recording from its start
 */

/** The zoom factor of one +/− press (key or button). */
export const ZOOM_STEP = 1.25;

/** Every key, as the help overlay lists it: [keys, what they do]. */
export const KEY_HELP = [
  ['Space', 'pause / run'],
  ['S or .', 'one step of 1/60 s (pauses)'],
  ['[ and ]', 'slow motion: slower / faster (1, ½, ¼, ⅒ of real time)'],
  ['R', 'reset the scene, keeping the settings'],
  ['D · C · E', 'drag, cut and edit mode (edit mode pauses)'],
  ['0', 'fit the scene in view'],
  ['+ and −', 'zoom in / out'],
  ['H', 'hide / show the panel'],
  ['Esc', 'edit mode: end a chain of connected points'],
  ['Ctrl+Z / ⌘Z', 'undo an edit, cut, lock or added body'],
  ['Ctrl+Shift+Z / Ctrl+Y', 'redo'],
  ['Ctrl+V / ⌘V', 'paste a scene as JSON'],
  ['Shift+R', 'record / stop (every input, against its step)'],
  ['P', 'play the recording from its start (a grab takes over)'],
  ['?', 'this list'],
];

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
    if (t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement || (t instanceof HTMLInputElement && t.type !== 'checkbox' && t.type !== 'range')) return;
    if (document.querySelector('dialog[open]') && e.key !== '?') return; // a dialog has the keys ('?' closes the help)
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
      case 'R': a.record(); break; // (Shift+R; r alone resets)
      case 'p': a.play(); break;
      case 'd': a.mode('drag'); break;
      case 'c': a.mode('cut'); break;
      case 'e': a.mode('edit'); break;
      case 'h': a.panel(); break;
      case '0': a.resetView(); break;
      case '+': case '=': a.zoom(ZOOM_STEP); break;
      case '-': case '_': a.zoom(1 / ZOOM_STEP); break;
      case '[': a.timeScale(false); break;
      case ']': a.timeScale(true); break;
      case '?': a.help(); break;
      case 'Escape': a.endChain(); break;
      default: return;
    }
    e.preventDefault();
    if (t instanceof HTMLButtonElement) t.blur();
  });
}
