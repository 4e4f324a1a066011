// A TypeScript user of the npm package (`make package`): tests/types/package-consumer.mjs
// installs the built package as node_modules/ropelab beside a copy of this file and runs
// `tsc --noEmit` (strict, no skipLibCheck, so the package's own .d.ts files are checked too).
// The @ts-expect-error lines fail the check if the declarations grow too loose.

import 'ropelab';
import type { RopeLab, RopeLabAttributes } from 'ropelab';
import init, { Sim } from 'ropelab/sim';
import initLite, { Sim as LiteSim } from 'ropelab/sim-lite';
import type { BodyInfo, Scene, SimEvent, Tangle } from 'ropelab/shapes';
import { isPacked, packScene, unpackScene } from 'ropelab/sharelink';

// The element, typed through HTMLElementTagNameMap.
const el = document.createElement('rope-lab');
el.scene = 'bridge';
el.solver = 'xpbd';
el.compare = 'classic,exact';
el.controls = 'minimal';
el.aspect = '4/3';
el.addEventListener('linktorn', (e) => {
  const stretch: number = e.detail.stretch;
  console.log(stretch, e.detail.a, e.detail.b);
});
el.addEventListener('tangleformed', (e) => console.log(e.detail.over, e.detail.under));
el.addEventListener('ready', (e) => console.log(e.detail.scene));
el.addEventListener('error', (e) => console.log(e.detail.toUpperCase()));
el.addEventListener('contactbegin', (e) => console.log(e.detail.impulse));
const found: RopeLab | null = document.querySelector('rope-lab');
const steps: number = el.steps + (found?.frames ?? 0);
el.pause();
el.play();
el.reset();
const sim0: Sim | null = el.sim;
const exported: string = el.exportScene();

const attrs: RopeLabAttributes = { scene: 'net', solver: 'exact', compare: 'classic,xpbd', controls: 'none', aspect: '16/9', label: 'a net' };
// @ts-expect-error: not a solver
const badSolver: RopeLabAttributes = { solver: 'verlet' };
// @ts-expect-error: controls are "minimal" or "none"
el.controls = 'full';

// The Sim and the JSON it returns.
async function main(): Promise<void> {
  await init();
  const sim = new Sim();
  const packed = await packScene(exported);
  if (isPacked(packed)) sim.loadScene(await unpackScene(packed));
  sim.step(1 / 60);
  const pos: Float32Array = sim.positions();
  const tangles: Tangle[] = JSON.parse(sim.tangles());
  const events: SimEvent[] = JSON.parse(sim.drainEvents());
  const bodies: BodyInfo[] = JSON.parse(sim.bodiesJson());
  const scene: Scene = JSON.parse(sim.exportScene());
  console.log(pos.length, tangles.length, events.length, bodies.length, scene.version, steps, sim0, attrs, badSolver);
  // @ts-expect-error: step takes a number
  sim.step('1/60');
}
void main();

// The lite build (`ropelab/sim-lite`, what <rope-lab> loads for rope scenes): its own
// declarations, wasm-bindgen's for the crate without `full`.
async function lite(): Promise<number> {
  await initLite();
  const s = new LiteSim();
  s.loadScene('{"version": 1}');
  // @ts-expect-error: the lite Sim has no rigid bodies
  s.addBody('{}');
  return s.pointCount;
}
console.log(lite);
