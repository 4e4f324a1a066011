// @ts-check
// <rope-lab>'s shared loop and observers (rope-lab.js): one requestAnimationFrame loop for
// every instance that wants frames (on screen, in a visible tab, running or with something to
// redraw), stopped when none does; the observers that tell an instance it is on screen or was
// resized, and the tab's visibility.

/** @import { RopeLab } from './rope-lab.js' */
import { errText } from './embed-scenes.js';

/** @type {Set<RopeLab>} instances that want frames */
export const live = new Set();
let raf = 0;
/** @param {number} now */
function tick(now) {
  raf = -1; // (wake() schedules nothing while the frame runs)
  for (const el of live) {
    try {
      el.frame(now);
    } catch (e) {
      // One broken embed must not stop the others: it pauses and says why.
      el.isPaused = true;
      live.delete(el);
      el.say(`paused: ${errText(e)}`);
    }
  }
  raf = live.size ? requestAnimationFrame(tick) : 0;
}
export function wake() {
  if (!raf && live.size) raf = requestAnimationFrame(tick);
}
export const onScreen = new IntersectionObserver((entries) => {
  for (const e of entries) {
    const el = /** @type {RopeLab} */ (e.target);
    el.onScreen = e.isIntersecting;
    el.schedule();
  }
});
export const resized = new ResizeObserver((entries) => {
  for (const e of entries) /** @type {RopeLab} */ (e.target).resize();
});
document.addEventListener('visibilitychange', () => {
  // (an element not upgraded yet has no schedule())
  for (const el of document.querySelectorAll('rope-lab')) if ('schedule' in el) /** @type {RopeLab} */ (el).schedule();
});
