// Screenshots of every preset at 0, 5 and 20 s, desktop (1280 × 800) and phone (390 × 844),
// for looking at (not a test): node tests/e2e/shots-presets.mjs [preset...]
// The page is paused and stepped at 1/60 s to each time, so a shot shows the same state however
// loaded the machine is. Written to tests/e2e/artifacts/preset-<name>-<device>-<t>s.png.
import { chromium } from 'playwright-core';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { serve } from './serve.mjs';
import { ARGS, ARTIFACTS, CHROMIUM, DESKTOP, PHONE } from './helpers.mjs';
import { REPO } from '../node/built-wasm.mjs';

const all = readdirSync(join(REPO, 'www/scenes')).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
const names = process.argv.slice(2).length ? process.argv.slice(2) : all;
const devices = { desktop: DESKTOP, phone: PHONE };
const server = await serve();
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
for (const name of names) {
  for (const [device, opts] of Object.entries(devices)) {
    const ctx = await browser.newContext(opts);
    const page = await ctx.newPage();
    await page.goto(`${server.url}?scene=${name}`);
    await page.waitForFunction(() => window.ropelab?.ready === true);
    await page.evaluate(() => window.ropelab.pause(true));
    let t = 0;
    for (const at of [0, 5, 20]) {
      await page.evaluate((n) => { for (let k = 0; k < n; k++) window.ropelab.sim.step(1 / 60); }, (at - t) * 60);
      t = at;
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(ARTIFACTS, `preset-${name}-${device}-${at}s.png`) });
    }
    await ctx.close();
  }
}
await browser.close();
await server.close();
