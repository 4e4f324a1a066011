// The wasm half of `make soak` (issue 13 §3): the net, leash and capstan presets for 10⁵ steps
// each through the JS API in node, loading the built page's wasm (dist/, `make web`) as
// tests/types/json-shapes.mjs does, then a rope's end held still for an hour of simulated
// time (216,000 steps). Nobody drains the event queues. Checks and prints:
//  - no NaN (every position, every 1,000 steps and at the end);
//  - wasm memory (`memory.buffer.byteLength`) the same at the end as after warm-up;
//  - the queues within their caps (drainEvents() and contactEventCount ≤ 1024 at the end);
//  - energy (`sim.energy()`: kinetic + gravitational, J) of the undriven scenes never rising
//    above its running minimum by more than 1e-3 of m g h after warm-up — src/soak.rs's
//    definition and tolerance, with m g h from the exported scene (free mass × |g| × height
//    span); the leash's dogs walk, so its energy is only printed;
//  - the held point exactly where it is held, every step of the hour.
// STEPS=… and HOLD_STEPS=… shorten it; DIST=… reads another build.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, loadBuiltWasm } from '../node/built-wasm.mjs';

const STEPS = Number(process.env.STEPS ?? 100_000);
const HOLD_STEPS = Number(process.env.HOLD_STEPS ?? 216_000);
const WARMUP = 3600; // energy figures and the warm memory figure start here (as `ropelab soak`)
const TOL = 1e-3;
const CAP = 1024;
const H = 1 / 60;

const { bindings, wasm } = await loadBuiltWasm('soak', process.env.DIST ?? join(REPO, 'dist'));
const { Sim } = bindings;
const memory = () => wasm.memory.buffer.byteLength;

const failures = [];
const scene = (name) => readFileSync(join(REPO, 'www/scenes', `${name}.json`), 'utf8');

/** m g h of the sim's current world: free mass × |g| × height span along -g (at least 1 m). */
function energyScale(sim) {
  const s = JSON.parse(sim.exportScene());
  const g = s.settings?.gravity ?? [0, -9.81, 0];
  const gl = Math.hypot(...g);
  const up = gl > 0 ? g.map((c) => -c / gl) : [0, 1, 0];
  let lo = Infinity, hi = -Infinity, m = 0;
  for (const p of s.particles ?? []) {
    const h = p.pos[0] * up[0] + p.pos[1] * up[1] + p.pos[2] * up[2];
    lo = Math.min(lo, h);
    hi = Math.max(hi, h);
    if (!p.locked) m += p.mass ?? 1;
  }
  return m * gl * Math.max(hi - lo, 1);
}

function finite(sim) {
  return sim.positions().every(Number.isFinite);
}

/** Steps `sim` `steps` times; `each(t)` after every step. Returns the soak figures. */
function soak(sim, steps, warmup, each = () => {}) {
  const r = { steps, nanAt: null, rise: 0, min: Infinity, max: -Infinity, start: NaN, memWarm: 0 };
  // (exportScene, read for m g h, allocates: memory is taken after it.)
  if (warmup === 0) { r.start = sim.energy(); r.min = r.max = r.start; r.scale = energyScale(sim); }
  const warmMem = Math.min(Math.max(1000, warmup), steps);
  const t0 = performance.now();
  for (let t = 0; t < steps; t++) {
    sim.step(H);
    each(t);
    if (t + 1 === warmup) { r.start = sim.energy(); r.min = r.max = r.start; r.scale = energyScale(sim); }
    if (t + 1 === warmMem) r.memWarm = memory();
    if (t + 1 > warmup) {
      const e = sim.energy();
      r.rise = Math.max(r.rise, e - r.min);
      r.min = Math.min(r.min, e);
      r.max = Math.max(r.max, e);
      if (!Number.isFinite(e) && r.nanAt === null) r.nanAt = t;
    }
    if (((t + 1) % 1000 === 0 || t + 1 === steps) && r.nanAt === null && !finite(sim)) r.nanAt = t;
  }
  r.wall = (performance.now() - t0) / 1000;
  r.end = sim.energy();
  r.memEnd = memory();
  r.events = JSON.parse(sim.drainEvents()).length;
  r.contactEvents = sim.contactEventCount;
  r.scale ??= energyScale(sim);
  return r;
}

function report(name, r, undriven) {
  const rel = r.rise / r.scale;
  console.log(
    `wasm soak ${name}: steps=${r.steps} wall_s=${r.wall.toFixed(1)} us_per_step=${(r.wall * 1e6 / r.steps).toFixed(2)} ` +
    `energy_start=${r.start.toFixed(4)} energy_end=${r.end.toFixed(4)} energy_min=${r.min.toFixed(4)} energy_max=${r.max.toFixed(4)} ` +
    `rise=${r.rise.toExponential(3)} J rise_rel=${rel.toExponential(3)} (m g h = ${r.scale.toFixed(3)} J, tol ${TOL}${undriven ? '' : ', driven: not checked'}) ` +
    `nan=${r.nanAt ?? 'none'} events=${r.events} contact_events=${r.contactEvents} (cap ${CAP}) ` +
    `memory_bytes warm=${r.memWarm} end=${r.memEnd}`,
  );
  if (r.nanAt !== null) failures.push(`${name}: NaN at step ${r.nanAt}`);
  if (undriven && rel > TOL) failures.push(`${name}: energy rose ${rel.toExponential(3)} of m g h`);
  if (r.events > CAP || r.contactEvents > CAP) failures.push(`${name}: queues ${r.events}, ${r.contactEvents}`);
  if (r.memEnd !== r.memWarm) failures.push(`${name}: wasm memory grew from ${r.memWarm} to ${r.memEnd} bytes`);
}

const scenes = (process.env.SCENES ?? 'net,leash,capstan').split(',').filter(Boolean);
for (const name of scenes) {
  const sim = new Sim();
  sim.loadScene(scene(name));
  report(name, soak(sim, STEPS, Math.min(WARMUP, STEPS)), name !== 'leash');
  sim.free();
}

if (HOLD_STEPS > 0) {
  const sim = new Sim();
  sim.loadScene(scene('rope'));
  for (let t = 0; t < 600; t++) sim.step(H);
  const last = sim.pointCount - 1;
  const p = sim.positions();
  const [x0, y0] = [p[3 * last], p[3 * last + 1]];
  sim.grab(1, last);
  for (let t = 1; t <= 120; t++) {
    sim.dragTo(1, x0 + 0.5 * t / 120, y0 + 0.3 * t / 120);
    sim.step(H);
  }
  const held = Array.from(sim.positions().subarray(3 * last, 3 * last + 3));
  let drift = 0;
  const r = soak(sim, HOLD_STEPS, 0, () => {
    const q = sim.positions();
    drift = Math.max(drift, Math.hypot(q[3 * last] - held[0], q[3 * last + 1] - held[1], q[3 * last + 2] - held[2]));
  });
  console.log(`wasm hold rope point ${last}: steps=${HOLD_STEPS} max_offset_m=${drift}`);
  if (drift !== 0) failures.push(`hold: the held point drifted ${drift} m`);
  report('hold(rope)', r, true);
}

if (failures.length) {
  console.log(`wasm soak failed:\n${failures.join('\n')}`);
  process.exit(1);
}
console.log('wasm soak: ok');
