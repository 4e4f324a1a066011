// The README's JavaScript example works when copied (issue 30 §1). The test does what the
// README tells a reader: take the ```html block after the `readme-example` marker, save it as
// example.html in a copy of the npm package (dist/pkg/, which `make package` copies to pkg/),
// serve that folder, and open the page. The example must load its glue, wasm and scene from
// the paths it names (a 404 fails the test), step the rope, draw it, and let a pointer drag a
// point.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { DIST, REPO, checkDist, serve } from './serve.mjs';
import { ARGS, CHROMIUM } from './helpers.mjs';

checkDist();

/** The README's example page: the ```html block after the marker comment. */
export function readmeExample() {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const at = readme.indexOf('<!-- readme-example');
  assert.ok(at >= 0, 'README.md has no <!-- readme-example --> marker before its JS example');
  const block = /```html\n([\s\S]*?)\n```/.exec(readme.slice(at));
  assert.ok(block, 'no ```html block after the readme-example marker');
  return block[1];
}

let dir;
let server;
let browser;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ropelab-readme-'));
  cpSync(join(DIST, 'pkg'), join(dir, 'pkg'), { recursive: true });
  writeFileSync(join(dir, 'pkg', 'example.html'), readmeExample());
  server = await serve(join(dir, 'pkg'));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("the README's example names files that are in the package", () => {
  const page = readmeExample();
  const named = [...page.matchAll(/(?:from|fetch\()\s*'(\.\/[^']+)'/g)].map((m) => m[1]);
  assert.deepEqual(named.sort(), ['./ropelab.js', './scenes/rope.json']);
  for (const f of [...named, './ropelab_bg.wasm']) {
    assert.doesNotThrow(() => readFileSync(join(DIST, 'pkg', f)), `dist/pkg/${f} is missing`);
  }
});

test("the README's example runs: it loads, steps, draws the rope and drags a point", async () => {
  const context = await browser.newContext({ viewport: { width: 800, height: 600 } });
  const page = await context.newPage();
  const errors = [];
  const logs = [];
  page.on('console', (m) => (m.type() === 'error' ? errors.push(m.text()) : logs.push(m.text())));
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => errors.push(`requestfailed: ${r.url()}`));
  page.on('response', (r) => { if (r.status() >= 400) errors.push(`${r.status()}: ${r.url()}`); });
  await page.goto(`${server.url}example.html`);
  await page.waitForFunction(() => window.example?.sim?.time > 0.5, null, { timeout: 15000 });
  assert.deepEqual(errors, []);
  assert.ok(logs.some((l) => /finite/.test(l)), `step(NaN)'s message logged: ${JSON.stringify(logs)}`);

  const state = await page.evaluate(() => {
    const { sim } = window.example;
    const canvas = document.getElementById('view');
    const px = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let inked = 0;
    for (let i = 3; i < px.length; i += 4) if (px[i] > 0) inked++;
    return { points: sim.pointCount, links: sim.linkCount, inked };
  });
  assert.equal(state.points, 24);
  assert.equal(state.links, 23);
  assert.ok(state.inked > 200, `the rope is drawn (${state.inked} pixels)`);

  // Drag a point near the locked end (it moves slowly, so it is still under the pointer when
  // pressed): find it with the example's own transform, press, and pull it up to the anchor.
  const box = await page.locator('#view').boundingBox();
  const toPx = (x, y) => ({ x: box.x + 1 + 320 + x * 75, y: box.y + 1 + 240 - (y - 3) * 75 }); // 1 px border
  const grab = await page.evaluate(() => {
    const p = window.example.sim.positions();
    return { x: p[9], y: p[10], ax: p[0], ay: p[1] };
  });
  const at = toPx(grab.x, grab.y);
  await page.mouse.move(at.x, at.y);
  await page.mouse.down();
  const held = await page.evaluate(() => [0, 1, 2, 3].map((id) => window.example.sim.heldBy(id)).find((i) => i >= 0) ?? -1);
  const to = toPx(grab.ax, grab.ay + 0.45);
  await page.mouse.move(to.x, to.y, { steps: 10 });
  await page.waitForTimeout(300);
  const y = await page.evaluate((i) => window.example.sim.positions()[3 * i + 1], Math.max(held, 0));
  await page.mouse.up();
  assert.ok(held >= 0, 'pressing on the rope grabs a point');
  assert.ok(y > grab.ay + 0.2, `the held point follows the pointer up, above the anchor (y = ${y} m, anchor ${grab.ay} m)`);
  assert.deepEqual(errors, []);
  await context.close();
});
