// The npm package in the tools people build blogs with (issue 31 §6): a small Vite app
// (TypeScript, no vite config) against the packed package, as a web developer would set it up
// from the README: `import 'ropelab'`, `await init()` from `ropelab/sim`, two `<rope-lab>`
// elements (a rope scene on the lite wasm, a body scene on the full one, the same glue the
// page's `init()` loads) and a third naming an unknown preset. The same page is also served
// without a bundler (the package's files as they are, script tags): 20 page loads each under
// `vite` (the dev server, its dependency optimizer on), the `vite build` output and the plain
// files, and on every one both embeds must start and the unknown preset must say so without a
// request for it. The app's TypeScript is checked by tsc with `skipLibCheck: false` and lib
// ES2022 (the package's .d.ts files must compile there).
//
// "Packed": `npm pack` of dist/pkg (what `make package` publishes), unpacked into the app's
// node_modules/ropelab, so only the files the package lists are there. Vite is the
// repository's dev dependency (package.json); nothing is fetched.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transformSync } from 'esbuild';
import { chromium } from 'playwright-core';
import { DIST, REPO, checkDist, serve } from './serve.mjs';
import { ARGS, CHROMIUM } from './helpers.mjs';

checkDist();
const RELOADS = 20;

const HTML = `<!doctype html>
<meta charset="utf-8">
<title>a blog post with two embeds</title>
<link rel="icon" href="data:,">
<h1>Ropes</h1>
<rope-lab id="rope" scene="rope" controls="minimal"></rope-lab>
<p>A rigid body on a rope:</p>
<rope-lab id="body" scene="wrecking-ball"></rope-lab>
<rope-lab id="nosuch" scene="nosuch"></rope-lab>
<script type="module" src="./main.ts"></script>
`;

// The README's setup, typed: the element's types, the typed element from the tag map, `Sim`.
const MAIN = `import { sceneText } from 'ropelab';
import type { RopeLab } from 'ropelab';
import init, { Sim } from 'ropelab/sim';

const body: RopeLab = document.querySelector('#body')!;
const tagged: HTMLElementTagNameMap['rope-lab'] = document.querySelector('rope-lab')!;
tagged.addEventListener('ready', (e) => console.log('ready', e.detail.scene));

type Api = { y: number, steps: number, error: string, body: RopeLab };
const api: Api = { y: NaN, steps: 0, error: '', body };
(window as unknown as { api: Api }).api = api;

// The page's own Sim, stepped every frame beside the embeds (as a page that plots something
// would): it must keep working whichever of the two wasm requests comes back first.
init().then(async () => {
  const sim = new Sim();
  sim.loadScene(await sceneText('rope'));
  const frame = () => {
    try {
      sim.step(1 / 60);
      api.y = sim.positions()[3 * 23 + 1];
      api.steps++;
      requestAnimationFrame(frame);
    } catch (e) {
      api.error = String(e);
    }
  };
  frame();
}).catch((e) => { api.error = String(e); });
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022', module: 'ESNext', moduleResolution: 'bundler', lib: ['ES2022', 'DOM', 'DOM.Iterable'],
    strict: true, noEmit: true, skipLibCheck: false, types: [],
  },
  include: ['main.ts'],
};

let dir;
let app;
let browser;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ropelab-vite-'));
  app = join(dir, 'app');
  const pack = spawnSync('npm', ['pack', join(DIST, 'pkg'), '--pack-destination', dir, '--silent'], { encoding: 'utf8' });
  assert.equal(pack.status, 0, `npm pack dist/pkg: ${pack.stderr}`);
  const tgz = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  const into = join(app, 'node_modules', 'ropelab');
  mkdirSync(into, { recursive: true });
  const tar = spawnSync('tar', ['xzf', join(dir, tgz), '-C', into, '--strip-components=1'], { encoding: 'utf8' });
  assert.equal(tar.status, 0, `unpacking ${tgz}: ${tar.stderr}`);
  writeFileSync(join(app, 'index.html'), HTML);
  writeFileSync(join(app, 'main.ts'), MAIN);
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  // The same page without a bundler: the package's files, the app's main.ts without its types
  // (esbuild's) importing them by path.
  const plain = join(dir, 'plain');
  cpSync(into, plain, { recursive: true });
  const js = transformSync(MAIN, { loader: 'ts', format: 'esm' }).code
    .replace(/from "ropelab"/, 'from "./rope-lab.js"').replace(/from "ropelab\/sim"/, 'from "./ropelab.js"');
  writeFileSync(join(plain, 'main.js'), js);
  writeFileSync(join(plain, 'index.html'), HTML.replace('./main.ts', './main.js'));
  writeFileSync(join(plain, 'missing.html'), '<!doctype html><link rel="icon" href="data:,"><script type="module" src="./rope-lab.js"></script><rope-lab id="e" scene="bridge"></rope-lab>');
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
});
after(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/**
 * Loads `url` RELOADS times in one tab; on each load waits until the rope and body embeds have
 * stepped and the unknown preset's embed shows the default scene, and collects what went wrong
 * (it stops after 3 loads that did not start at all). The full wasm's responses are held back 0–275 ms, by other
 * times on each load, so that the page's `init()` is still in flight when the body embed asks
 * for the same build, and (with the package before the shared init, which fetched it twice)
 * either request could come back first. Resolves with the failures (one line each) and
 * the wasm requests of each load.
 */
async function reloads(url) {
  const context = await browser.newContext({ viewport: { width: 900, height: 1400 } });
  const page = await context.newPage();
  let delays = [0, 0];
  let nth = 0;
  await page.route(/ropelab_bg[^/]*\.wasm/, async (route) => {
    await new Promise((ok) => setTimeout(ok, delays[Math.min(nth++, 1)]));
    await route.continue();
  });
  let errors = [];
  let wasm = [];
  let asked = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    asked.push(path);
    if (path.endsWith('.wasm')) wasm.push(path.replace(/^.*\//, ''));
  });
  page.on('response', (r) => { if (r.status() >= 400) errors.push(`${r.status()}: ${r.url()}`); });
  const failures = [];
  const perLoad = [];
  try {
    for (let k = 0, timeouts = 0; k < RELOADS && timeouts < 3; k++) {
      // (the first request for the full wasm and any later one held back by different times)
      delays = [25 * (k % 12), 25 * ((7 * k) % 12)];
      nth = 0;
      errors = [];
      wasm = [];
      asked = [];
      await page.goto(url);
      const state = await page.waitForFunction(() => {
        const els = ['rope', 'body', 'nosuch'].map((id) => document.getElementById(id));
        const msg = (e) => e?.shadowRoot?.querySelector('.msg')?.textContent ?? '';
        const started = (e) => e?.steps > 2 || msg(e).includes('could not start') || msg(e).startsWith('step failed') || msg(e).startsWith('paused');
        const done = window.api && (window.api.error || (window.api.steps > 2 && els.every(started)));
        return done && {
          api: { error: window.api.error, y: window.api.y, steps: window.api.steps },
          embeds: Object.fromEntries(els.map((e) => [e.id, { steps: e.steps, points: e.sim?.pointCount ?? 0, bodies: e.sim?.bodyCount ?? 0, msg: msg(e) }])),
        };
      }, null, { timeout: 20000, polling: 50 }).then((h) => h.jsonValue()).catch((e) => ({ timeout: e.message.split('\n')[0] }));
      await page.waitForTimeout(150); // (a late error: steps that fail after starting)
      const e = state.embeds ?? {};
      const bad = [];
      if (state.timeout) bad.push(`not started within 20 s: ${state.timeout}`), timeouts++;
      if (!(e.rope?.steps > 2 && e.rope.points > 0 && !e.rope.msg)) bad.push(`rope: ${JSON.stringify(e.rope)}`);
      if (!(e.body?.steps > 2 && e.body.bodies > 0 && !e.body.msg)) bad.push(`body: ${JSON.stringify(e.body)}`);
      if (!/^scene: no preset "nosuch"/.test(e.nosuch?.msg ?? '') || !(e.nosuch?.steps > 2)) bad.push(`nosuch: ${JSON.stringify(e.nosuch)}`);
      if (state.api?.error || !(state.api?.y > 0 && state.api.y < 5)) bad.push(`the page's own Sim: ${JSON.stringify(state.api)}`);
      const full = wasm.filter((f) => f.startsWith('ropelab_bg'));
      if (full.length !== 1) bad.push(`the full wasm was fetched ${full.length} times (one load per page: the page's init() and the body embed share it)`);
      const stray = asked.filter((p) => /undefined|nosuch/.test(p));
      if (stray.length) bad.push(`requested ${stray.join(', ')}`);
      const others = errors.filter((m) => !/404: .*favicon/.test(m));
      if (others.length) bad.push(others.join(' | '));
      if (bad.length) failures.push(`load ${k + 1}: ${bad.join('; ')}`);
      perLoad.push(wasm.slice().sort().join('+'));
    }
  } finally {
    await context.close();
  }
  return { failures, wasm: [...new Set(perLoad)] };
}

/** Runs `fn` with `vite`'s module from the repository's node_modules. */
const vite = () => import(join(REPO, 'node_modules/vite/dist/node/index.js'));

describe('the package in a Vite app (TypeScript, no config)', () => {
  it('its types compile with skipLibCheck: false on lib ES2022', () => {
    const r = spawnSync(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', app], { encoding: 'utf8' });
    assert.equal(r.status, 0, `tsc over the app:\n${r.stdout}${r.stderr}`);
  });

  it(`under the dev server (dependency optimizer on) both embeds start on every one of ${RELOADS} loads`, async () => {
    const { createServer } = await vite();
    const server = await createServer({ root: app, configFile: false, logLevel: 'silent', server: { host: '127.0.0.1', port: 0 } });
    await server.listen();
    try {
      const t0 = performance.now();
      const { failures, wasm } = await reloads(server.resolvedUrls.local[0]);
      console.log(`vite dev: ${RELOADS} loads in ${((performance.now() - t0) / 1000).toFixed(1)} s, ${failures.length} failed; wasm fetched per load: ${wasm.join(' / ')}`);
      assert.deepEqual(failures, []);
    } finally {
      await server.close();
    }
  });

  it(`built by \`vite build\`, both embeds start on every one of ${RELOADS} loads`, async () => {
    const { build } = await vite();
    const t0 = performance.now();
    await build({ root: app, configFile: false, logLevel: 'silent', build: { outDir: join(dir, 'out') } });
    const built = performance.now();
    const assets = readdirSync(join(dir, 'out', 'assets'));
    console.log(`vite build: ${((built - t0) / 1000).toFixed(1)} s; ${assets.filter((f) => f.endsWith('.json')).length} scene files, ${assets.filter((f) => f.endsWith('.wasm')).length} wasm files in assets/`);
    const server = await serve(join(dir, 'out'));
    try {
      const { failures, wasm } = await reloads(server.url);
      console.log(`vite build: ${RELOADS} loads in ${((performance.now() - built) / 1000).toFixed(1)} s, ${failures.length} failed; wasm fetched per load: ${wasm.join(' / ')}`);
      assert.deepEqual(failures, []);
    } finally {
      await server.close();
    }
  });
});

describe('the same page without a bundler (script tags, the package as it is)', () => {
  it(`both embeds start on every one of ${RELOADS} loads`, async () => {
    const server = await serve(join(dir, 'plain'));
    try {
      const { failures, wasm } = await reloads(server.url);
      console.log(`plain files: ${failures.length} of ${RELOADS} loads failed; wasm fetched per load: ${wasm.join(' / ')}`);
      assert.deepEqual(failures, []);
    } finally {
      await server.close();
    }
  });

  it('when the default scene fails too, the message names the scene that was asked for first', async () => {
    const server = await serve(join(dir, 'plain'));
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      // (both scene files answer 404, as under a bundler that did not emit them)
      await page.route(/\/scenes\/(bridge|rope)\.json$/, (route) => route.fulfill({ status: 404, body: 'not found' }));
      await page.goto(`${server.url}missing.html`);
      const msg = await page.waitForFunction(() => document.getElementById('e').shadowRoot?.querySelector('.msg')?.textContent, null, { timeout: 15000 }).then((h) => h.jsonValue());
      console.log(`both scenes missing: ${msg}`);
      assert.match(msg, /^rope-lab could not start: no preset "bridge" \(.*404.*\); the default scene: no preset "rope" \(/);
    } finally {
      await context.close();
      await server.close();
    }
  });
});
