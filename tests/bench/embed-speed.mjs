// The lite embed wasm's speed in headless Chromium, build against build (issue 12 §5: what
// opt-level "z" for the `embed` profile costs): µs per `step(1/60)` (one embed frame at 60 Hz)
// on the presets <rope-lab> demos, the builds alternated round by round, medians, and whether
// every build ends at the same positions. Not part of `make test` (timings).
//
//   node tests/bench/embed-speed.mjs O3=DIR z=DIR ...
//
// Each DIR holds wasm-bindgen's `ropelab-lite.js` and the wasm-opt'ed `opt.wasm` of one build
// (`cargo build --lib --profile embed --target wasm32-unknown-unknown --no-default-features`,
// with CARGO_PROFILE_EMBED_OPT_LEVEL=3|s|z to compare, then wasm-bindgen --target web
// --out-name ropelab-lite and wasm-opt -Oz with tools/package.mjs's flags to DIR/opt.wasm).
// Options (environment): SCENES ("rope,bridge,net,leash"), SOLVERS ("own" = the scene's),
// ROUNDS (5), STEPS (600 timed steps after 200 untimed).
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join, extname } from 'node:path';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
import { chromium } from 'playwright-core';

const builds = process.argv.slice(2).map((a) => { const [label, dir] = a.split('='); return { label, dir }; });
const SCENES = (process.env.SCENES ?? 'rope,bridge,net,leash').split(',');
const SOLVERS = (process.env.SOLVERS ?? 'own').split(',');
const ROUNDS = Number(process.env.ROUNDS ?? 5), STEPS = Number(process.env.STEPS ?? 600);
const MIME = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json', '.html': 'text/html' };
const server = createServer(async (req, res) => {
  const u = decodeURIComponent(req.url.split('?')[0]);
  let file;
  if (u === '/') { res.writeHead(200, { 'content-type': 'text/html', 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' }); return res.end('<!doctype html><title>b</title>'); }
  if (u.startsWith('/scenes/')) file = join(REPO, 'www', u);
  else { const [, i, name] = u.split("/"); if (!builds[Number(i)]) { res.writeHead(404); return res.end(); } file = join(builds[Number(i)].dir, name); }
  try { const b = await readFile(file); res.writeHead(200, { 'content-type': MIME[extname(file)] ?? 'application/octet-stream', 'Cross-Origin-Resource-Policy': 'same-origin' }); res.end(b); }
  catch { res.writeHead(404); res.end(); }
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'] });
const page = await browser.newPage();
await page.goto(url);
await page.evaluate(async (n) => {
  window.B = [];
  for (let i = 0; i < n; i++) { const g = await import(`/${i}/ropelab-lite.js`); await g.default({ module_or_path: `/${i}/opt.wasm` }); window.B.push(g.Sim); }
  window.T = {};
  for (const s of ['rope', 'bridge', 'net', 'leash']) window.T[s] = await (await fetch(`/scenes/${s}.json`)).text();
  window.run = (i, scene, solver, steps) => {
    const sim = new window.B[i](); sim.loadScene(window.T[scene]); if (solver !== 'own') { try { sim.setSolver(solver); } catch { sim.free(); return { us: NaN, sum: 0 }; } }
    for (let k = 0; k < 200; k++) sim.step(1 / 60);
    const t0 = performance.now(); for (let k = 0; k < steps; k++) sim.step(1 / 60); const t = performance.now() - t0;
    const p = sim.positions(); const sum = Array.from(p).reduce((a, b) => a + b, 0); sim.free();
    return { us: (1000 * t) / steps, sum };
  };
}, builds.length);
const res = {};
for (let r = 0; r < ROUNDS + 1; r++) for (const scene of SCENES) for (const solver of SOLVERS) for (let i = 0; i < builds.length; i++) {
  const { us, sum } = await page.evaluate(([i, s, v, n]) => window.run(i, s, v, n), [i, scene, solver, STEPS]);
  if (r === 0) continue; // warm-up round
  const k = `${scene} ${solver}`; (res[k] ??= builds.map(() => ({ us: [], sum: null })))[i].us.push(us); res[k][i].sum = sum;
}
const med = (a) => { const s = [...a].sort((x, y) => x - y); return s[s.length >> 1]; };
console.log(`load ${loadavg().map((x) => x.toFixed(2)).join(' ')}; ${ROUNDS} rounds x ${STEPS} steps, median µs/step`);
console.log(['scene solver', ...builds.map((b) => b.label), ...builds.slice(1).map((b) => `${b.label}/${builds[0].label}`), 'same positions'].join(' | '));
for (const [k, v] of Object.entries(res)) console.log([k, ...v.map((x) => med(x.us).toFixed(1)), ...v.slice(1).map((x) => (med(x.us) / med(v[0].us)).toFixed(2)), v.every((x) => x.sum === v[0].sum)].join(' | '));
await browser.close(); server.close();
