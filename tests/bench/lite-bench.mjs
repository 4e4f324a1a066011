// The lite embed wasm against the full one on rope scenes (issue 12 §5; they measured equal
// while both were at opt-level 3; since 2026-11-27 the lite build is at "z" and up to 2.4x
// slower by choice, docs/benchmarks.md "The lite build's speed at each opt-level", tests/bench/embed-speed.mjs): the same JS loop times `sim.step(1/60)` in node (V8, as Chromium) on preset
// scenes under a few solvers, the two builds alternated round by round. Not part of `make
// test` (timings); `make web` first, then `node tests/bench/lite-bench.mjs`.
//
// Options (environment): ROUNDS (5), STEPS (500 timed steps per run, after 200 warm-up steps),
// WARMUP (3 untimed passes over everything first),
// SCENES ("rope,net,bridge,leash"), SOLVERS ("xpbd,exact,classic").

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadavg } from 'node:os';
import { REPO } from '../node/built-wasm.mjs';

const PKG = join(REPO, 'dist/pkg');
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const STEPS = Number(process.env.STEPS ?? 500);
const SCENES = (process.env.SCENES ?? 'rope,net,bridge,leash').split(',');
const SOLVERS = (process.env.SOLVERS ?? 'xpbd,exact,classic').split(',');

async function load(name) {
  const dir = join(REPO, 'target', 'lite-bench');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.mjs`), readFileSync(join(PKG, `${name}.js`)));
  const glue = await import(pathToFileURL(join(dir, `${name}.mjs`)).href);
  glue.initSync({ module: readFileSync(join(PKG, `${name}_bg.wasm`)) });
  return glue.Sim;
}
const builds = { full: await load('ropelab'), lite: await load('ropelab-lite') };

/** µs per step of `scene` under `solver` in `Sim`, or null if the solver cannot run it. */
function time(Sim, text, solver) {
  const sim = new Sim();
  try {
    sim.loadScene(text);
    try {
      sim.setSolver(solver);
    } catch {
      return null;
    }
    for (let k = 0; k < 200; k++) sim.step(1 / 60);
    const t0 = performance.now();
    for (let k = 0; k < STEPS; k++) sim.step(1 / 60);
    return ((performance.now() - t0) * 1e3) / STEPS;
  } finally {
    sim.free();
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
// V8 runs wasm as baseline code first and tiers hot functions up in the background: every
// (build, scene, solver) once, untimed, WARMUP times before the timed rounds.
const WARMUP = Number(process.env.WARMUP ?? 3);
for (let w = 0; w < WARMUP; w++) {
  for (const scene of SCENES) {
    const text = readFileSync(join(PKG, 'scenes', `${scene}.json`), 'utf8');
    for (const solver of SOLVERS) for (const Sim of Object.values(builds)) time(Sim, text, solver);
  }
}
console.log(`lite-bench: ${ROUNDS} rounds × ${STEPS} steps, load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
for (const scene of SCENES) {
  const text = readFileSync(join(PKG, 'scenes', `${scene}.json`), 'utf8');
  for (const solver of SOLVERS) {
    const runs = { full: [], lite: [] };
    for (let r = 0; r < ROUNDS; r++) {
      for (const b of r % 2 ? ['lite', 'full'] : ['full', 'lite']) {
        const us = time(builds[b], text, solver);
        if (us !== null) runs[b].push(us);
      }
    }
    if (!runs.full.length) continue;
    const [f, l] = [median(runs.full), median(runs.lite)];
    console.log(`${scene.padEnd(7)} ${solver.padEnd(8)} full ${f.toFixed(1).padStart(7)} µs/step  lite ${l.toFixed(1).padStart(7)} µs/step  lite/full ${(l / f).toFixed(3)}`);
  }
}
