// @ts-check
// Tap to add a body (the page, in scenes with rigid bodies): a tap or click on empty space in
// Drag mode drops a box or a ball there, as Matter.js's demos do, so a body scene can be
// played with, not only watched. The panel's "tap adds" row chooses the shape; undo covers it
// (the editor remembers the scene before each body, like any edit).
//
// Size and mass follow the scene: the median of its dynamic bodies' (a 1 m box in the pyramid,
// a 0.5 m one in the wall), so a new body fits the scene it lands in.

/** @import { Sim } from './types.js' */

/** The shapes a tap can add; 'none' turns taps off. */
export const ADD_SHAPES = ['box', 'ball', 'none'];

/**
 * @param {number[]} v
 * @param {number} fallback
 */
const median = (v, fallback) => {
  if (!v.length) return fallback;
  const s = v.slice().sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

/**
 * How many dynamic bodies the scene has (0: not a body scene).
 * @param {Sim} sim
 */
export function dynamicBodies(sim) {
  if (!sim.bodyCount) return 0;
  /** @type {{ kind: string }[]} */
  const bodies = JSON.parse(sim.bodiesJson());
  return bodies.filter((b) => b.kind === 'dynamic').length;
}

/**
 * Whether taps can add bodies to this world: a side view with dynamic bodies.
 * @param {Sim} sim
 */
export function canAddBodies(sim) {
  return sim.view !== 'top' && dynamicBodies(sim) > 0;
}

/**
 * The scene file's entry (`bodies[i]`) for a new body of `shape` centred at view point (x, y):
 * the median size and mass of the scene's dynamic bodies.
 * @param {Sim} sim
 * @param {string} shape 'box' or 'ball'
 * @param {number} x
 * @param {number} y
 */
export function bodyEntry(sim, shape, x, y) {
  /** @type {{ kind: string, mass: number, shape: { type: string, half?: number[], radius?: number } }[]} */
  const bodies = JSON.parse(sim.bodiesJson()).filter((/** @type {{ kind: string }} */ b) => b.kind === 'dynamic');
  const size = median(bodies.map((b) => b.shape.radius ?? Math.max(...(b.shape.half ?? [0.25]).slice(0, 2))), 0.25);
  const r = Math.min(Math.max(size, 0.08), 0.6);
  const mass = Math.min(Math.max(median(bodies.map((b) => b.mass), 1), 0.1), 20);
  return {
    shape: shape === 'ball' ? { type: 'sphere', radius: r } : { type: 'box', half: [r, r, r] },
    mass,
    pos: [x, y, 0],
    planar: true, // stays in the view plane
  };
}

/**
 * Adds a body of `shape` at view point (x, y); returns its id. Throws what the sim throws
 * (the classic solver cannot run bodies).
 * @param {Sim} sim
 * @param {string} shape
 * @param {number} x
 * @param {number} y
 */
export function addBodyAt(sim, shape, x, y) {
  return sim.addBody(JSON.stringify(bodyEntry(sim, shape, x, y)));
}
