// The API fuzzer in wasm (issue 13 §1): runs the built package (dist/, `make web`) in node and
// calls every method and getter of `Sim` — found by reflection on `Sim.prototype` and `Sim`, so
// a new method is fuzzed without touching this file — with random arguments: plausible ones
// (typed after www/types/ropelab.d.ts), nasty numbers (NaN, ±Infinity, -0, 1e38, 2^32, 0.5,
// -1) and wrong JS types (strings, undefined, null, objects, arrays, booleans, BigInt, Symbol,
// functions) where a number is expected.
//
// A failure is: a trap (`WebAssembly.RuntimeError`, e.g. `unreachable` after a Rust panic —
// the instance is poisoned after it, so the run stops and prints the case's call sequence), a
// throw that is not an `Error` with a message, a throw that changed the world (exportScene()
// and the positions before and after), or NaN/Infinity in the positions or the energy after a
// call that returned.
//
//   node tests/fuzz/wasm-fuzz.mjs                 # FUZZ_CALLS=20000 by default
//   FUZZ_CALLS=1000000 FUZZ_SEED=7 node tests/fuzz/wasm-fuzz.mjs
//   FUZZ_WASM=lite node tests/fuzz/wasm-fuzz.mjs        (the lite embed build)

import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO, loadBuiltWasm } from '../node/built-wasm.mjs';

// FUZZ_WASM=lite fuzzes the lite embed build (dist/pkg/ropelab-lite*, tools/package.mjs)
// instead of the page's: its surface is found by reflection as well (a subset of the full one).
async function loadLite() {
  const dir = join(REPO, 'target/fuzz-wasm-lite');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'ropelab-lite.mjs'), readFileSync(join(REPO, 'dist/pkg/ropelab-lite.js')));
  const glue = await import(pathToFileURL(join(dir, 'ropelab-lite.mjs')).href);
  glue.initSync({ module: readFileSync(join(REPO, 'dist/pkg/ropelab-lite_bg.wasm')) });
  return glue;
}
const bindings = process.env.FUZZ_WASM === 'lite' ? await loadLite() : (await loadBuiltWasm('fuzz-wasm')).bindings;
const { Sim } = bindings;

const CALLS = Number(process.env.FUZZ_CALLS ?? 20000);
const SEED = Number(process.env.FUZZ_SEED ?? 13);
const LEN = Number(process.env.FUZZ_LEN ?? 40);

// ---- random numbers (mulberry32) ---------------------------------------------------------
let state = SEED >>> 0;
const rand = () => {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const below = (n) => Math.floor(rand() * n);
const pick = (xs) => xs[below(xs.length)];
const chance = (p) => rand() < p;

const scenes = readdirSync(join(REPO, 'www/scenes')).filter((f) => f.endsWith('.json')).sort()
  .map((f) => [f.replace(/\.json$/, ''), readFileSync(join(REPO, 'www/scenes', f), 'utf8')]);
// (The lite build refuses the body presets: its runs start from the others; `loadScene` with a
// body preset mid-run is still fuzzed, as a refusal that must change nothing.)
const starts = scenes.filter(([, t]) => process.env.FUZZ_WASM !== 'lite' || !['bodies', 'joints', 'attachments'].some((k) => JSON.parse(t)[k]?.length));

// ---- the surface, by reflection, with parameter types from the committed declarations ---
const dts = readFileSync(join(REPO, 'www/types/ropelab.d.ts'), 'utf8');
const classBody = dts.slice(dts.indexOf('export class Sim {'), dts.indexOf('\n}', dts.indexOf('export class Sim {')));
const paramTypes = new Map();
for (const m of classBody.matchAll(/^\s+(?:static )?(\w+)\(([^)]*)\):/gm)) {
  paramTypes.set(m[1], m[2].trim() ? m[2].split(/,\s*/).map((p) => p.replace(/^\w+\??:\s*/, '')) : []);
}
const proto = Object.getOwnPropertyDescriptors(Sim.prototype);
const methods = Object.keys(proto).filter((k) => typeof proto[k].value === 'function' && k !== 'constructor' && !k.startsWith('__'));
const getters = Object.keys(proto).filter((k) => proto[k].get);
const statics = Object.getOwnPropertyNames(Sim).filter((k) => typeof Sim[k] === 'function' && !k.startsWith('__'));
const surface = [...methods.map((m) => ['method', m]), ...getters.map((g) => ['getter', g]), ...statics.map((s) => ['static', s])];
for (const m of [...methods, ...statics]) {
  if (!paramTypes.has(m) && m !== 'free' && typeof m === 'string') console.warn(`(no declared parameters for ${m}: wrong-typed arguments only)`);
}

// ---- argument distributions --------------------------------------------------------------
const NASTY = [NaN, Infinity, -Infinity, 0, -0, 1e38, -1e38, 3.5e38, 1e300, -1, -0.5, 0.5, 1.5, 2, 1, 1000, 1001,
  1e6, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 53 + 1, 1e20, 1e-45, Number.MIN_VALUE];
const WRONG = [undefined, null, '', 'abc', '3', '[]', true, false, {}, [], [1, 2, 3], { valueOf: () => 4 },
  () => 1, 1n, Symbol('s'), new Float32Array(3), NaN];
const num = () => (chance(0.5) ? pick(NASTY) : chance(0.5) ? (rand() - 0.5) * 20 : below(6) - 1);
const coord = () => (chance(0.75) ? (rand() - 0.5) * 10 : num());
const jnum = () => { const x = num(); return Number.isFinite(x) ? x : pick([1e300, -1e300, 1e39]); };
const vec = (s) => (chance(0.8) ? [(rand() - 0.5) * 2 * s, (rand() - 0.5) * 2 * s, chance(0.5) ? 0 : rand() - 0.5] : [jnum(), jnum(), jnum()]);

function mutate(v, depth = 0) {
  if (v && typeof v === 'object' && (depth === 0 || chance(0.75))) {
    const keys = Object.keys(v);
    if (keys.length) {
      const k = pick(keys);
      if (chance(0.1)) { if (Array.isArray(v)) v.pop(); else delete v[k]; } else v[k] = mutate(v[k], depth + 1);
      return v;
    }
  }
  return pick([null, 'text', true, [], {}, 1e6, 20001, 4294967296, 1e38, -1e38, 1e300, -1, 0, 0.5, [1e300, 0, 0], -0]);
}

function sceneText() {
  const [, text] = pick(scenes);
  if (chance(0.5)) return text;
  const v = JSON.parse(text);
  for (let i = 0; i < 1 + below(3); i++) mutate(v);
  if (chance(0.05)) return `{"version":1,"name":${'['.repeat(200)}${']'.repeat(200)}}`;
  return JSON.stringify(v);
}

function bodyJson(sim) {
  const shape = pick([{ type: 'sphere', radius: chance(0.7) ? 0.1 + rand() : jnum() },
    { type: 'capsule', radius: 0.05, half_length: chance(0.7) ? rand() : jnum() },
    { type: 'box', half: chance(0.7) ? [0.2, 0.2, 0.2] : vec(1) }, { type: 'cone' }]);
  const b = { shape, pos: vec(4) };
  if (chance(0.5)) b.mass = chance(0.7) ? 1 + rand() * 10 : jnum();
  if (chance(0.3)) b.kind = pick(['dynamic', 'static', 'kinematic', 'ghost']);
  if (chance(0.3)) b.planar = chance(0.5);
  if (chance(0.2)) b.vel = vec(10);
  if (chance(0.1)) b.rot = [jnum(), jnum(), jnum(), jnum()];
  return JSON.stringify(b);
}

function bodyIds(sim) {
  try { return JSON.parse(sim.bodiesJson()).map((b) => b.id); } catch { return []; }
}

function jointJson(sim) {
  const ids = bodyIds(sim);
  const body = () => (ids.length && chance(0.7) ? pick(ids) : pick([null, 99999, -1, 'ghost', 0]));
  const type = pick(['ballSocket', 'hinge', 'prismatic', 'fixed', 'distance', 'rope', 'angularMotor', 'swingTwist', 'glue']);
  const j = { type, a: body(), b: body(), anchor: vec(3) };
  if (chance(0.3)) j.axis = vec(1);
  if (chance(0.3) && (type === 'hinge' || type === 'prismatic')) j.limit = [chance(0.8) ? -1 : jnum(), chance(0.8) ? 1 : jnum()];
  if (chance(0.3) && (type === 'hinge' || type === 'prismatic' || type === 'angularMotor')) j.motor = { speed: jnum(), max_force: jnum() };
  if (chance(0.2)) j.soft = { hertz: chance(0.7) ? 5 : jnum(), damping_ratio: chance(0.7) ? 0.7 : jnum() };
  if (chance(0.2)) j.break_force = jnum();
  if (type === 'distance' && chance(0.5)) j.length = jnum();
  if (type === 'rope' && chance(0.7)) j.max_length = chance(0.7) ? 1 : jnum();
  return JSON.stringify(j);
}

function obstacleJson() {
  return JSON.stringify(pick([
    { shape: { type: 'circle', center: vec(2), radius: chance(0.7) ? 0.5 : jnum() } },
    { shape: { type: 'plane', point: vec(2), normal: vec(1) } },
    { shape: { type: 'box', center: vec(2), half: vec(1), angle: jnum() }, friction: jnum() },
    { shape: { type: 'capsule', a: vec(2), b: vec(2), radius: jnum() } },
    { shape: { type: 'torus' } },
  ]));
}

// (The lite build has no settingsSchema, nor setSettings that takes these names.)
const SETTING_NAMES = (Sim.settingsSchema ? JSON.parse(Sim.settingsSchema()).flatMap((s) => [s.key, s.js]) : []).concat(['colour']);
const settingValue = () => pick([num(), chance(0.5), pick(['classic', 'pbd', 'xpbd', 'exact', 'impulse', 'jacobi', 'top', '']),
  [num(), num(), num()], [num(), num(), num(), num()], { min: [num(), num()], max: [num(), num()] }, null, undefined,
  pick([1, 2, 3, 8, 20, 0.5]), 'x', {}, [1, 'a']]);

/** A plausible argument for a parameter of declared type `type` of method `name`. */
function typedArg(sim, name, type, i) {
  if (type.startsWith('number')) {
    if (/^(grab|setLocked|isLocked|toggleLock|removePoint|connect|disconnect|pin|unpin|attach|detach)$/.test(name) && !(name === 'grab' && i === 0)) {
      return chance(0.7) ? below(Math.max(1, sim.pointCount + 1)) : num();
    }
    if (name === 'subdivide') return i === 0 ? (chance(0.7) ? below(Math.max(1, sim.linkCount)) : num()) : (chance(0.6) ? 1 + below(4) : num());
    if (/Body|Joint/.test(name) && !/pick|drag|release/.test(name)) {
      const ids = bodyIds(sim);
      return i <= 1 && ids.length && chance(0.6) ? pick(ids) : i >= 2 ? coord() : num();
    }
    if (name === 'step') return chance(0.7) ? 1 / 60 : num();
    if (name === 'advance') return chance(0.6) ? 0.016 * below(10) : num();
    if (/^(setIterations|setSubsteps)$/.test(name)) return chance(0.6) ? 1 + below(20) : num();
    if (/^(grab|dragTo|release|heldBy)$/.test(name) && i === 0) return pick([0, 1, 2, -1, 2 ** 32 - 1]);
    return chance(0.6) ? coord() : num();
  }
  if (type.startsWith('boolean')) return chance(0.5);
  if (type.startsWith('string')) {
    if (name === 'loadScene') return sceneText();
    if (name === 'addBody') return bodyJson(sim);
    if (name === 'addJoint') return jointJson(sim);
    if (name === 'addObstacle') return obstacleJson();
    if (name === 'setSolver') return pick(['classic', 'pbd', 'jacobi', 'xpbd', 'exact', 'impulse', 'Exact', '']);
    return pick(['', 'abc', '{}', sceneText()]);
  }
  if (type.startsWith('any')) {
    const patch = {};
    for (let k = 0; k < below(4); k++) patch[pick(SETTING_NAMES)] = settingValue();
    return chance(0.2) ? JSON.stringify(patch) : chance(0.1) ? pick(WRONG) : patch;
  }
  if (type.startsWith('Function')) return () => 0;
  return pick(WRONG);
}

function args(sim, name) {
  const types = paramTypes.get(name) ?? [];
  const n = types.length + (chance(0.05) ? 1 : 0);
  const out = [];
  for (let i = 0; i < n; i++) {
    const t = types[i] ?? 'extra';
    out.push(chance(0.12) ? pick(WRONG) : chance(0.08) ? pick(NASTY) : typedArg(sim, name, t, i));
  }
  if (chance(0.04) && out.length) out.pop(); // a missing argument
  return out;
}

// ---- checks ----------------------------------------------------------------------------
function snapshot(sim) {
  return `${sim.exportScene()}|${Array.from(sim.positions(), (x) => Object.is(x, -0) ? '-0' : String(x)).join(',')}|${sim.time}`;
}

function nonFinite(sim) {
  const p = sim.positions();
  for (let i = 0; i < p.length; i++) if (!Number.isFinite(p[i])) return `positions()[${i}] = ${p[i]}`;
  const e = sim.energy();
  if (!Number.isFinite(e)) return `energy() = ${e}`;
  return null;
}

const show = (v) => {
  if (typeof v === 'string') return v.length > 120 ? JSON.stringify(v.slice(0, 120)) + '…' : JSON.stringify(v);
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'symbol' || typeof v === 'function') return String(v);
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  try { return JSON.stringify(v) ?? String(v); } catch { return String(v); }
};

// ---- regressions: the defects this harness found, replayed first -------------------------
// wasm-bindgen's glue for `&str` parameters trapped (memory access out of bounds) on a number
// or an object (`loadScene(JSON.parse(text))`): every parameter declared `string` now takes a
// JsValue and throws an Error for anything but a string.
{
  const sim = new Sim();
  for (const [name, types] of paramTypes) {
    types.forEach((t, i) => {
      if (!t.startsWith('string')) return;
      for (const bad of [1.5, 7, {}, [1], undefined, null, true, 1n]) {
        const a = types.map((u) => (u.startsWith('string') ? 'rope' : u.startsWith('Function') ? () => 0 : 0));
        a[i] = bad;
        try {
          (typeof Sim[name] === 'function' ? Sim[name] : sim[name].bind(sim))(...a);
          throw new Error(`${name}(${a.map(show).join(', ')}) accepted a ${typeof bad} for a string`);
        } catch (e) {
          if (e instanceof WebAssembly.RuntimeError || !(e instanceof Error) || !e.message) {
            console.error(`FAILURE regression: ${name}(${a.map(show).join(', ')}) → ${e}`);
            process.exit(1);
          }
          if (e.message.includes('accepted a')) { console.error(`FAILURE ${e.message}`); process.exit(1); }
        }
      }
    });
  }
  sim.free();
}

// ---- the run ---------------------------------------------------------------------------
const t0 = performance.now();
let calls = 0, cases = 0, throws = 0, slowest = [0, ''];
const failures = [];
const called = new Set();
outer: while (calls < CALLS) {
  cases++;
  const start = pick(starts);
  let sim = new Sim();
  sim.loadScene(start[1]);
  const log = [`new Sim(); loadScene(${start[0]})`];
  for (let k = 0; k < LEN && calls < CALLS; k++) {
    const [kind, name] = chance(0.12) ? ['method', 'step'] : pick(surface);
    if (name === 'free' && !chance(0.05)) continue;
    const a = kind === 'getter' ? [] : args(sim, name);
    const label = kind === 'getter' ? `.${name}` : `${kind === 'static' ? 'Sim.' : ''}${name}(${a.map(show).join(', ')})`;
    log.push(label);
    calls++;
    called.add(name);
    const mutates = kind === 'method';
    const before = mutates ? snapshot(sim) : null;
    const t = performance.now();
    let threw = null;
    try {
      if (kind === 'getter') void sim[name];
      else if (kind === 'static') Sim[name](...a);
      else sim[name](...a);
    } catch (e) {
      threw = e;
    }
    const ms = performance.now() - t;
    if (ms > slowest[0]) slowest = [ms, label];
    if (name === 'free') {
      sim = new Sim();
      log.push('new Sim()');
      continue;
    }
    let why = null;
    if (threw) {
      throws++;
      if (threw instanceof WebAssembly.RuntimeError) why = `trap: ${threw.message}`;
      else if (!(threw instanceof Error)) why = `threw a non-Error: ${show(threw)}`;
      else if (!threw.message) why = `threw an Error without a message (${threw.name})`;
      else if (mutates && snapshot(sim) !== before) why = `a throw changed the world: ${threw.message}`;
    } else {
      const bad = nonFinite(sim);
      if (bad) why = `non-finite after a call that returned: ${bad}`;
    }
    if (why) {
      failures.push({ why, seed: SEED, case: cases, calls: log.slice() });
      console.error(`FAILURE ${why}\n  case ${cases} (seed ${SEED}):\n    ${log.join('\n    ')}`);
      if (why.startsWith('trap')) break outer; // the instance is poisoned
      continue outer;
    }
  }
  try { sim.free(); } catch { /* already freed */ }
}
const secs = (performance.now() - t0) / 1000;
const never = surface.map(([, n]) => n).filter((n) => !called.has(n));
console.log(`wasm fuzz: ${calls} calls (${throws} threw) in ${cases} sequences, seed ${SEED}, ${secs.toFixed(1)} s; ` +
  `${surface.length} entry points (${methods.length} methods, ${getters.length} getters, ${statics.length} static), ` +
  `slowest call ${slowest[0].toFixed(1)} ms: ${slowest[1].slice(0, 100)}; ${failures.length} failures`);
if (never.length) console.log(`  never called: ${never.join(', ')}`);
if (failures.length) process.exit(1);
