// Phone and embed screenshots for looking at (not a test): node tests/e2e/shots-phone.mjs
import { chromium } from 'playwright-core';
import { join } from 'node:path';
import { serve } from './serve.mjs';
import { ARGS, ARTIFACTS } from './helpers.mjs';
const server = await serve();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const shots = [
  ['phone', '', phone],
  ['phone-panel', '', phone, async (p) => { await p.click('#collapse'); }],
  ['phone-compare', '?compare=classic,pbd,xpbd,exact', phone],
  ['embed-compare-700', '?compare=classic,pbd,xpbd,exact&layout=overlay&embed=1', { viewport: { width: 700, height: 700 } }],
];
for (const [name, q, opts, act] of shots) {
  const ctx = await browser.newContext(opts);
  const page = await ctx.newPage();
  await page.goto(`${server.url}${q}`);
  await page.waitForFunction(() => window.ropelab?.ready === true);
  if (act) await act(page);
  await page.waitForTimeout(2500);
  await page.screenshot({ path: join(ARTIFACTS, `shot-${name}.png`) });
  await ctx.close();
}
await browser.close();
await server.close();
