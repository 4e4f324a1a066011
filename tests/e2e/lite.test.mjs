// The lite embed wasm (dist/pkg/ropelab-lite_bg.wasm, built by tools/package.mjs without the
// crate's `full` feature) against the full one (the page's, dist/pkg/ropelab_bg.wasm), both in
// node: every preset without bodies steps to the same bits under every solver both can run
// (the lite build compiles the same rope arithmetic; only the body stages are left out), and
// the lite build refuses what it lacks — a scene with bodies, joints or attachments, the
// impulse solver — with an error naming it, changing nothing.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIST, checkDist } from './serve.mjs';
import { REPO } from '../node/built-wasm.mjs';

checkDist();
const PKG = join(DIST, 'pkg');

/** Loads `<name>.js` + `<name>_bg.wasm` of dist/pkg into node (the glue copied as .mjs). */
async function load(name) {
  const dir = join(REPO, 'target', 'lite-test');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.mjs`), readFileSync(join(PKG, `${name}.js`)));
  const glue = await import(pathToFileURL(join(dir, `${name}.mjs`)).href);
  glue.initSync({ module: readFileSync(join(PKG, `${name}_bg.wasm`)) });
  return glue.Sim;
}
const Full = await load('ropelab');
const Lite = await load('ropelab-lite');
const scenes = Object.fromEntries(readdirSync(join(PKG, 'scenes')).filter((f) => f.endsWith('.json'))
  .map((f) => [f.replace(/\.json$/, ''), readFileSync(join(PKG, 'scenes', f), 'utf8')]));
const hasBodies = (text) => ['bodies', 'joints', 'attachments'].some((k) => JSON.parse(text)[k]?.length);

test('the lite wasm is the lite build: no body methods, no playground reports', () => {
  for (const m of ['bodyCount', 'addBody', 'pickBody', 'jointsJson', 'drainContactEvents', 'braid', 'braidCrossings', 'crossings', 'stageTimes', 'setSettings']) {
    assert.ok(m in Full.prototype || m in Full, `full has ${m}`);
    assert.ok(!(m in Lite.prototype), `lite has no ${m}`);
  }
  for (const m of ['loadScene', 'exportScene', 'step', 'positions', 'pick', 'grab', 'cut', 'setSolver', 'drainEvents', 'obstacles', 'leash', 'tangles', 'ropePoints']) {
    assert.ok(m in Lite.prototype, `lite has ${m}`);
  }
});

test('the lite build reports the leash (hand, dogs, their ropes) as the full one does: <rope-lab> draws it', () => {
  const [f, l] = [new Full(), new Lite()];
  try {
    f.loadScene(scenes.leash);
    l.loadScene(scenes.leash);
    for (let k = 0; k < 700; k++) {
      f.step(1 / 60);
      l.step(1 / 60);
    }
    const leash = JSON.parse(l.leash());
    assert.equal(leash.dogs.length, 3, l.leash());
    assert.equal(l.leash(), f.leash());
    assert.equal(l.tangles(), f.tangles());
    assert.ok(JSON.parse(l.tangles()).length > 0, 'a tangle after 700 steps (the drawing has one to show)');
    const rope = new Lite();
    rope.loadScene(scenes.rope);
    assert.equal(rope.leash(), 'null', 'no leash in the rope scene');
    rope.free();
  } finally {
    f.free();
    l.free();
  }
});

test('every rope preset steps to the same bits in the lite and the full wasm, under every solver', () => {
  let compared = 0;
  for (const [name, text] of Object.entries(scenes)) {
    if (hasBodies(text)) continue;
    for (const solver of Full.solvers()) {
      const [f, l] = [new Full(), new Lite()];
      try {
        f.loadScene(text);
        l.loadScene(text);
        try {
          f.setSolver(solver);
        } catch {
          continue; // (a solver that cannot run the scene, e.g. classic and the leash)
        }
        if (solver === 'impulse') {
          assert.throws(() => l.setSolver(solver), /lite build.*impulse|impulse.*lite build/);
          continue;
        }
        l.setSolver(solver);
        for (let k = 0; k < 120; k++) {
          f.step(1 / 60);
          l.step(1 / 60);
        }
        const [a, b] = [new Uint32Array(Float32Array.from(f.positions()).buffer), new Uint32Array(Float32Array.from(l.positions()).buffer)];
        assert.equal(a.length, b.length, `${name}/${solver}: point counts`);
        assert.ok(a.every((x, i) => x === b[i]), `${name}/${solver}: positions differ after 120 steps`);
        assert.equal(l.exportScene(), f.exportScene(), `${name}/${solver}: exportScene`);
        compared++;
      } finally {
        f.free();
        l.free();
      }
    }
  }
  console.log(`lite = full, bit for bit, in ${compared} (preset, solver) runs of 120 steps`);
  assert.ok(compared >= 20, `compared only ${compared} runs`);
});

test('the lite wasm refuses a scene with bodies, joints or attachments, naming what it lacks, and keeps its world', () => {
  const body = Object.entries(scenes).filter(([, t]) => hasBodies(t));
  assert.ok(body.length >= 3, 'presets with bodies');
  const l = new Lite();
  l.loadScene(scenes.bridge);
  l.step(1 / 60);
  const before = l.exportScene();
  for (const [name, text] of body) {
    assert.throws(() => l.loadScene(text), (e) => {
      assert.match(e.message, /^scene error at `(bodies|joints|attachments)`: .*lite build.*no rigid bodies, joints or impulse solver.*full build \(ropelab_bg\.wasm\)/, `${name}: ${e.message}`);
      return true;
    });
    assert.equal(l.exportScene(), before, `${name}: the refused scene changed nothing`);
  }
  const impulse = JSON.stringify({ ...JSON.parse(scenes.rope), settings: { ...JSON.parse(scenes.rope).settings, solver: 'impulse' } });
  assert.throws(() => l.loadScene(impulse), /settings\.solver.*lite build/);
  assert.throws(() => l.setSolver('impulse'), /impulse solver: this is ropelab's lite build/);
  assert.equal(l.exportScene(), before);
  // An empty list is no body: it loads.
  l.loadScene(JSON.stringify({ ...JSON.parse(scenes.rope), bodies: [], joints: [] }));
  l.free();
});

// The lite wasm reads and writes JSON with its own text layer (`crate::json`, not serde_json):
// a broken scene is refused with the same JSON path as the full wasm names (the words may
// differ: no "at line L column C"), the world kept; an exported scene reloads to itself; the
// obstacles print as the full wasm prints them.
test('the lite wasm refuses broken scenes at the same JSON path as the full one, and round-trips its exports', () => {
  const rope = JSON.parse(scenes.rope);
  const broken = [
    ['{"version": 1, "ropes": [{"from": [0, 1, 0], "to": [1, 1, 0], "points": "x"}]}', 'ropes[0].points'],
    ['{"version": 1, "particles": [{"pos": [0, 1]}]}', 'particles[0].pos'],
    ['{"version": 1, "particles": [{"pos": [0, 1, 0], "mass": null}]}', 'particles[0].mass'],
    ['{"version": 1, "settings": {"solver": "nope"}}', 'settings.solver'],
    ['{"version": 1, "obstacles": [{"shape": {"type": "circle", "center": [0, 0, 0]}}]}', 'obstacles[0].shape'],
    ['{"version": 1, "grids": [{"origin": [0, 0, 0], "cols": 3, "rows": 3, "spacing": 0.1, "lock": "top"}]}', 'grids[0].lock'],
    [JSON.stringify({ ...rope, surprise: 1 }), 'surprise'],
    ['{"version": 1, "name": "x", "links": [{"a": 0, "b": 1}]', null],
    ['{"version": 1, "name": "\\ud800"}', null],
  ];
  const [f, l] = [new Full(), new Lite()];
  try {
    f.loadScene(scenes.net);
    l.loadScene(scenes.net);
    const before = l.exportScene();
    for (const [text, path] of broken) {
      const pathOf = (sim) => {
        try {
          sim.loadScene(text);
        } catch (e) {
          return /^scene error at `([^`]*)`/.exec(e.message)?.[1] ?? `(no path) ${e.message}`;
        }
        return '(loaded)';
      };
      const [pf, pl] = [pathOf(f), pathOf(l)];
      if (path) {
        assert.ok(pl === path || pl.startsWith(`${path}.`), `lite: ${text} → ${pl}, expected ${path}`);
        // (The full wasm names the obstacle for a fault inside its `shape` when `shape` is its
        // last key: `scene::json_path`'s documented limit.)
        assert.ok(pf === path || path.startsWith(`${pf}`), `full: ${text} → ${pf}, expected ${path}`);
      } else {
        assert.ok(pl !== '(loaded)' && !pl.startsWith('(no path)'), `lite: ${text} → ${pl}`);
      }
      assert.equal(l.exportScene(), before, `${text}: the refused scene changed nothing`);
    }
    for (const [name, text] of Object.entries(scenes)) {
      if (hasBodies(text)) continue;
      l.loadScene(text);
      for (let k = 0; k < 30; k++) l.step(1 / 60);
      const out = l.exportScene();
      l.loadScene(out);
      assert.equal(l.exportScene(), out, `${name}: exportScene reloads to itself`);
      f.loadScene(text);
      assert.equal(l.obstacles(), f.obstacles(), `${name}: obstacles()`);
    }
  } finally {
    f.free();
    l.free();
  }
});
