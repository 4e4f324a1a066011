// The README's screenshot (not a test): node tests/e2e/shots-docs.mjs [out.png]
// Needs `make web` (dist/). Writes docs/img/playground.png by default: the playground on the
// net preset with a corner pulled aside, at a size that keeps the PNG small.
import { chromium } from 'playwright-core';
import { join } from 'node:path';
import { REPO, serve } from './serve.mjs';
import { ARGS, CHROMIUM } from './helpers.mjs';

const out = process.argv[2] ?? join(REPO, 'docs/img/playground.png');
const server = await serve();
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
const page = await browser.newPage({ viewport: { width: 1100, height: 640 } });
page.on('console', (m) => { if (m.type() === 'error') console.log('console', m.text()); });
await page.goto(`${server.url}?scene=net`);
await page.waitForFunction(() => window.ropelab?.ready === true);
await page.waitForTimeout(2000);
// Pull the net's bottom-right corner out to the side, so the picture shows a rope under load.
const at = await page.evaluate(() => {
  const { sim, toScreen } = window.ropelab;
  const p = sim.positions();
  let best = 0;
  for (let i = 0; i < sim.pointCount; i++) if (p[3 * i] - p[3 * i + 1] > p[3 * best] - p[3 * best + 1]) best = i;
  return toScreen(p[3 * best], p[3 * best + 1]);
});
const [x, y] = Array.isArray(at) ? at : [at.x, at.y];
await page.mouse.move(x, y);
await page.mouse.down();
await page.mouse.move(x + 150, y + 60, { steps: 20 });
await page.waitForTimeout(1500);
await page.screenshot({ path: out });
await page.mouse.up();
console.log(`wrote ${out}`);
await browser.close();
await server.close();
