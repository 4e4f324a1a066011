// @ts-check
// The comparison table's note on solvers that move alike (compare.js): "xpbd, exact move
// exactly as pbd". Bit-for-bit equal points and body poses; only sims that have stepped count,
// so a solver that is stopped, or that the scene refuses (classic has no bodies), standing
// still at the start is never said to move as another, nor are all alike before the first step.

/** @import { Sim } from './types.js' */

/**
 * @typedef {{ solver: string, sim: Sim | null, error: string | null, steps: number }} SameSlot
 * (compare.js `Slot`: what the note reads of it)
 */

/**
 * Pairs [earlier, later] of solvers whose points and bodies are where an earlier one's are.
 * @param {SameSlot[]} slots
 * @returns {[string, string][]}
 */
export function coincident(slots) {
  /** @type {[string, string][]} */
  const out = [];
  const live = slots.filter((s) => s.sim && !s.error && s.steps > 0);
  const state = live.map((s) => {
    const sim = /** @type {Sim} */ (s.sim);
    const pos = Array.from(sim.positions());
    if (!sim.bodyCount) return pos;
    sim.refillBodyPoses(1);
    return pos.concat(Array.from(sim.bodyPoses()));
  });
  for (let j = 1; j < live.length; j++) {
    const pj = state[j];
    if (!pj.length) continue; // nothing to compare
    for (let i = 0; i < j; i++) {
      const pi = state[i];
      if (pi.length === pj.length && pi.every((v, k) => v === pj[k])) {
        out.push([live[i].solver, live[j].solver]);
        break;
      }
    }
  }
  return out;
}

/**
 * The note: "xpbd, exact move exactly as pbd · …", with why where it is known; '' if none.
 * @param {SameSlot[]} slots
 * @param {string} layoutMode "side" or "overlay" (overlaid, the later ones are dashed over it)
 */
export function sameText(slots, layoutMode) {
  /** @type {Map<string, string[]>} */
  const groups = new Map();
  for (const [a, b] of coincident(slots)) groups.set(a, [...(groups.get(a) ?? []), b]);
  const how = layoutMode === 'overlay' ? ': dashed over it' : '';
  const bodiesOnly = slots.every((s) => !s.sim || (s.sim.bodyCount > 0 && s.sim.pointCount === 0));
  return [...groups].map(([a, bs]) => {
    const why = bodiesOnly
      ? ' (bodies alone: the same impulse rows under each)'
      : (a === 'pbd' && bs.includes('xpbd')) || (a === 'xpbd' && bs.includes('pbd')) ? ' (xpbd at zero compliance is pbd)' : '';
    return `${bs.join(', ')} ${bs.length > 1 ? 'move' : 'moves'} exactly as ${a}${why}${how}`;
  }).join(' · ');
}
