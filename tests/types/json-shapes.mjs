// The JSON the `Sim` methods return, checked against www/types.d.ts (`make test-types`).
//
// wasm-bindgen's declarations say `tangles(): string`: the shape inside is only written down
// in www/types.d.ts, by hand, after src/report.rs. This runs the built wasm (dist/, `make web`)
// in node, drives every preset (the leash scene: dog 1 walks once around dog 2, so the braid,
// crossings, contacts, tangles and events are not empty), and writes what each JSON method
// returned into a TypeScript file as typed constants — `const tangles: Tangle[] = [<the JSON>]`
// — then runs tsc on it: a field the page's types lack, miss, or type differently (also a
// number that came out as null) fails the check, as does a scene file that is not a `Scene`.

import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, loadBuiltWasm } from '../node/built-wasm.mjs';

const OUT = join(REPO, 'target/types-check');
const { bindings } = await loadBuiltWasm('types-check');
const { Sim } = bindings;

const H = 1 / 60;
const scenes = Object.fromEntries(readdirSync(join(REPO, 'www/scenes')).filter((f) => f.endsWith('.json'))
  .map((f) => [f.replace(/\.json$/, ''), readFileSync(join(REPO, 'www/scenes', f), 'utf8')]));

/** Every sample, by the type it must have: [type, label, JSON text] (repeats dropped). */
const checks = [];
const texts = new Set();
const take = (type, label, text) => {
  if (texts.has(`${type}\n${text}`)) return;
  texts.add(`${type}\n${text}`);
  checks.push([type, label, text]);
};
/** Array-valued outputs: the first and the last non-empty reading per preset and method. */
const lists = new Map();
const takeList = (type, label, text) => {
  if (!JSON.parse(text).length) return;
  const key = `${type}/${label}`;
  if (!lists.has(key)) take(type, `${label}, first non-empty`, text);
  lists.set(key, text);
};
/** Events are taken once: all of them, per preset. */
const events = new Map();
const contactEvents = new Map();

take('SolverInfo[]', 'Sim.solverInfo()', Sim.solverInfo());
take('PointFlagBits', 'Sim.pointFlagBits()', Sim.pointFlagBits());

/** Everything a sim reports now. */
function sample(sim, label) {
  take('SolverSupport[]', `${label}: solverSupport()`, sim.solverSupport());
  take('CapstanReport | null', `${label}: capstanReport()`, sim.capstanReport());
  take('Reading | null', `${label}: measure()`, sim.measure());
  take('LeashInfo | null', `${label}: leash()`, sim.leash());
  take('Braid | null', `${label}: braid(false)`, sim.braid(false));
  take('Braid | null', `${label}: braid(true)`, sim.braid(true));
  take('Obstacle[]', `${label}: obstacles()`, sim.obstacles());
  takeList('Tangle[]', `${label}: tangles()`, sim.tangles());
  takeList('BraidCrossing[]', `${label}: braidCrossings()`, sim.braidCrossings());
  takeList('TopCrossing[]', `${label}: crossings()`, sim.crossings());
  takeList('RopeContact[]', `${label}: ropeContacts()`, sim.ropeContacts());
  takeList('BodyInfo[]', `${label}: bodiesJson()`, sim.bodiesJson());
  takeList('JointInfo[]', `${label}: jointsJson()`, sim.jointsJson());
  takeList('WinchInfo[]', `${label}: winchesJson()`, sim.winchesJson());
  events.set(label, [...(events.get(label) ?? []), ...JSON.parse(sim.drainEvents())]);
  contactEvents.set(label, [...(contactEvents.get(label) ?? []), ...JSON.parse(sim.drainContactEvents())]);
}

for (const [name, text] of Object.entries(scenes)) {
  take('Scene', `www/scenes/${name}.json`, text);
  const sim = new Sim();
  sim.loadScene(text);
  for (let i = 0; i < 120; i++) {
    sim.step(H);
    if (i % 20 === 0) sample(sim, name);
  }
  sample(sim, name);
  take('Scene', `${name}: exportScene()`, sim.exportScene());
  sim.free();
}

// The leash scene as tests/e2e/leash.test.mjs scripts it: the wander off, dog 1 walks once
// clockwise (seen from above) around dog 2 at 0.5 m/s, r = 0.3 m, and stays there.
{
  const s = JSON.parse(scenes.leash);
  s.leash.dogs[0].at = [-0.3, 0.4, 1.35];
  s.leash.dogs[1].at = [0.0, 0.4, 1.35];
  s.leash.dogs[2].at = [0.9, 0.4, 1.0];
  s.leash.wander.enabled = false;
  const sim = new Sim();
  sim.loadScene(JSON.stringify(s));
  const dog = JSON.parse(sim.leash()).dogs[0].point;
  const circle = (theta) => {
    const a = -Math.PI / 2 - theta;
    return [0.3 * Math.sin(a), 1.35 + 0.3 * Math.cos(a)];
  };
  for (let i = 0; i < 30; i++) sim.step(H);
  sim.grab(1, dog);
  const steps = Math.ceil((2 * Math.PI * 0.3) / 0.5 / H);
  for (let i = 0; i <= steps + 120; i++) {
    const [x, z] = circle((2 * Math.PI * Math.min(i, steps)) / steps);
    sim.dragTo(1, x, z);
    sim.step(H);
    if (i % 10 === 0) sample(sim, 'leash walk');
  }
  sim.release(1);
  for (let i = 0; i < 60; i++) sim.step(H);
  sample(sim, 'leash walk');
  take('Scene', 'leash walk: exportScene()', sim.exportScene());
  sim.free();
}

// A body dragged by a pointer (its mouse joint in jointsJson) and a joint that breaks (the
// jointBroken event): the wrecking ball grabbed, a weak hinge added to the door.
{
  const sim = new Sim();
  sim.loadScene(scenes['wrecking-ball']);
  sim.grabBody(1, 0, 3.3, 4.5);
  for (let i = 0; i < 10; i++) {
    sim.dragBody(1, 3.3 - 0.05 * i, 4.5);
    sim.step(H);
  }
  sample(sim, 'wrecking-ball dragged');
  sim.releaseBody(1);
  sim.loadScene(scenes.door);
  const flap = JSON.parse(sim.bodiesJson()).find((b) => b.kind === 'dynamic').id;
  sim.addJoint(JSON.stringify({ type: 'ballSocket', a: null, b: flap, anchor: [1.2, 1.6, 0], break_force: 1 }));
  for (let i = 0; i < 10; i++) sim.step(H);
  sample(sim, 'door with a weak joint');
  sim.free();
}

// Rigid bodies through the API: every joint type (with its per-kind fields), a drag (a mouse
// joint), an attached point, and a joint that breaks at once (a jointBroken event).
{
  const sim = new Sim();
  sim.loadScene(JSON.stringify({
    version: 1, name: 'bodies', settings: { solver: 'impulse', substeps: 8, iterations: 2 },
    ropes: [{ from: [0, 2, 0], to: [1, 2, 0], points: 5, lock_start: true }],
  }));
  const body = (shape, pos, extra = {}) => sim.addBody(JSON.stringify({ shape, pos, mass: 1, ...extra }));
  const box = body({ type: 'box', half: [0.2, 0.1, 0.1] }, [1.2, 2, 0]);
  const cap = body({ type: 'capsule', radius: 0.05, half_length: 0.2 }, [1.6, 2, 0], { angle: 0.3 });
  const post = body({ type: 'sphere', radius: 0.1 }, [0, 3, 0], { kind: 'static' });
  const ball = body({ type: 'sphere', radius: 0.1 }, [3, 3, 0], { mass: 3 });
  const arm = body({ type: 'box', half: [0.3, 0.05, 0.05] }, [2.4, 3, 0], { planar: true });
  const joint = (spec) => sim.addJoint(JSON.stringify(spec));
  joint({ type: 'hinge', a: box, b: cap, anchor: [1.4, 2, 0], limit: [-1, 1], motor: { speed: 1, max_force: 5 },
    soft: { hertz: 30, damping_ratio: 1 } });
  joint({ type: 'distance', a: post, b: box, anchor: [0, 3, 0], anchor_b: [1.2, 2, 0], min: 0.5, max: 2 });
  joint({ type: 'rope', a: post, b: ball, anchor: [0, 3, 0], anchor_b: [3, 3, 0], max_length: 3.2 });
  joint({ type: 'prismatic', b: arm, anchor: [2.4, 3, 0], axis: [1, 0, 0], limit: [-0.5, 0.5],
    motor: { speed: -0.2, max_force: 50 } });
  joint({ type: 'swingTwist', a: arm, b: ball, anchor: [2.7, 3, 0], axis: [1, 0, 0], max_swing: 0.8, twist: [-0.3, 0.4] });
  joint({ type: 'ballSocket', a: post, b: cap, anchor: [1.6, 2, 0], break_force: 1 });
  const tag = body({ type: 'sphere', radius: 0.05 }, [1.2, 2.2, 0], { mass: 0.2 });
  joint({ type: 'fixed', a: box, b: tag, anchor: [1.2, 2.1, 0] });
  joint({ type: 'angularMotor', a: post, b: arm, anchor: [2.4, 3, 0], motor: { speed: 0.5, max_force: 1 } });
  joint({ type: 'ballSocket', b: ball, anchor: [3, 3.1, 0] });
  sim.attach(4, box);
  sim.grabBody(1, ball, 3, 3);
  for (let i = 0; i < 60; i++) {
    sim.dragBody(1, 3, 3 + i / 60);
    sim.step(H);
    if (i % 20 === 0) sample(sim, 'bodies');
  }
  sim.releaseBody(1);
  sample(sim, 'bodies');
  take('Scene', 'bodies: exportScene()', sim.exportScene());
  sim.free();
}

for (const [key, text] of lists) take(key.split('/')[0], `${key.split('/')[1]}, last non-empty`, text);
for (const [label, list] of events) if (list.length) take('SimEvent[]', `${label}: drainEvents(), all`, JSON.stringify(list));
for (const [label, list] of contactEvents) {
  if (list.length) take('ContactEvent[]', `${label}: drainContactEvents(), all`, JSON.stringify(list));
}

// The check is only as good as its samples: these must have come out non-empty.
const need = ['Tangle[]', 'BraidCrossing[]', 'TopCrossing[]', 'RopeContact[]', 'SimEvent[]', 'BodyInfo[]', 'JointInfo[]', 'WinchInfo[]',
  'ContactEvent[]'];
const missing = need.filter((t) => !checks.some(([type]) => type === t));
const sampled = (type, pattern) => checks.some(([t, , text]) => t === type && pattern.test(text));
if (!sampled('SimEvent[]', /"type":"jointBroken"/)) missing.push('a jointBroken event');
if (!sampled('JointInfo[]', /"mouse":true/)) missing.push('a mouse joint');
if (!sampled('ContactEvent[]', /"type":"begin"/) || !sampled('ContactEvent[]', /"type":"end"/)) missing.push('contact begin and end events');
if (!sampled('BodyInfo[]', /"halfLength"/)) missing.push('a capsule');
for (const t of ['ballSocket', 'hinge', 'prismatic', 'fixed', 'distance', 'rope', 'angularMotor', 'swingTwist']) {
  if (!sampled('JointInfo[]', new RegExp(`"type":"${t}"`))) missing.push(`a ${t} joint`);
}
const nonNull = (type) => checks.some(([t, , text]) => t === type && text !== 'null');
for (const t of ['Reading | null', 'CapstanReport | null', 'LeashInfo | null', 'Braid | null']) if (!nonNull(t)) missing.push(t);
if (missing.length) throw new Error(`json-shapes: no sample of ${missing.join(', ')}: the check would prove nothing`);

const ts = [
  '// Generated by tests/types/json-shapes.mjs: what the built Sim returned, typed as the page reads it.',
  "import type * as T from '../../www/types.js';",
  '',
  ...checks.map(([type, label, text], k) =>
    `// ${label}\nexport const v${k}: ${type.replace(/\b([A-Z]\w*)/g, 'T.$1')} = ${text};\n`),
].join('\n');
writeFileSync(join(OUT, 'shapes.ts'), ts);
// The page's compiler options (www/types.d.ts pulls in the page modules for their types).
writeFileSync(join(OUT, 'tsconfig.json'), JSON.stringify({ extends: '../../tsconfig.json', include: [], files: ['shapes.ts'] }, null, 2));
const tsc = join(REPO, 'node_modules/.bin/tsc');
try {
  execFileSync(tsc, ['--noEmit', '-p', OUT], { stdio: 'inherit' });
} catch {
  console.error(`json-shapes: the Sim's JSON does not match www/types.d.ts (samples: ${join(OUT, 'shapes.ts')})`);
  process.exit(1);
}
console.log(`json-shapes: ${checks.length} JSON outputs and scene files match www/types.d.ts`);
