// The embed's time budgets in headless Chromium against dist/ (`make bench-wasm`, after
// `make web`): times, so they are measured here and not asserted by the end-to-end tests, which
// check only that the first frame is drawn and that off-screen embeds take no step
// (tests/e2e/embed.test.mjs).
//
// - First frame: an embed on the blog page (www/embed-demo.html, the `bridge` embed) draws its
//   first frame at most FIRST_FRAME_MS (300) after its script has loaded; the median of RUNS (3)
//   fresh page loads.
// - Ten embeds on one long page, the fifth centred: the page's frame interval
//   (requestAnimationFrame over 2 s) has a median under FRAME_MS (25).
//
// Prints each figure with its budget; exits non-zero when one is over. Options (environment):
// RUNS (3), FIRST_FRAME_MS (300), FRAME_MS (25), CHROMIUM (/usr/bin/chromium).

import { chromium } from 'playwright-core';
import { loadavg } from 'node:os';
import { serve } from '../e2e/serve.mjs';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const ARGS = [
  '--no-sandbox', '--headless', '--disable-gpu', '--disable-dev-shm-usage',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--no-first-run', '--disable-quic',
];
const RUNS = Number(process.env.RUNS ?? 3);
const FIRST_FRAME_MS = Number(process.env.FIRST_FRAME_MS ?? 300);
const FRAME_MS = Number(process.env.FRAME_MS ?? 25);

const server = await serve();
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
const over = [];
try {
  console.log(`load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);

  // The first frame after the script loaded.
  const runs = [];
  for (let k = 0; k < RUNS; k++) {
    const context = await browser.newContext({ viewport: { width: 900, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${server.url}www/embed-demo.html`);
    await page.waitForFunction(() => document.getElementById('bridge')?.firstFrameAt > 0, null, { timeout: 15000 });
    runs.push(await page.evaluate(() => {
      const script = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/pkg/rope-lab.js'));
      const wasm = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/pkg/ropelab-lite_bg.wasm'));
      const first = document.getElementById('bridge').firstFrameAt;
      return { scriptLoaded: script.responseEnd, wasmLoaded: wasm?.responseEnd ?? NaN, first, ms: first - script.responseEnd };
    }));
    await context.close();
  }
  const ms = runs.map((r) => r.ms).sort((a, b) => a - b);
  const first = ms[ms.length >> 1];
  console.log(`first frame after the script loaded: ${runs.map((r) => `${r.ms.toFixed(0)} ms (script at ${r.scriptLoaded.toFixed(0)}, wasm at ${r.wasmLoaded.toFixed(0)}, frame at ${r.first.toFixed(0)})`).join('; ')}; median ${first.toFixed(0)} ms, budget ${FIRST_FRAME_MS} ms`);
  if (!(first <= FIRST_FRAME_MS)) over.push(`first frame ${first.toFixed(0)} ms (median of ${RUNS}) > ${FIRST_FRAME_MS} ms`);

  // Ten embeds on one long page.
  const context = await browser.newContext({ viewport: { width: 900, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${server.url}www/embed-demo.html`);
  await page.waitForFunction(() => customElements.get('rope-lab') && [...document.querySelectorAll('rope-lab')].every((e) => e.sim), null, { timeout: 15000 });
  await page.evaluate(() => {
    document.body.innerHTML = Array.from({ length: 10 }, (_, k) => `<p style="height:700px">text ${k}</p><rope-lab id="e${k}" scene="${['bridge', 'net', 'rope', 'capstan', 'wrecking-ball'][k % 5]}"></rope-lab>`).join('');
  });
  await page.waitForFunction(() => [...document.querySelectorAll('rope-lab')].every((e) => e.sim), null, { timeout: 15000 });
  await page.evaluate(() => document.getElementById('e4').scrollIntoView({ block: 'center' }));
  await page.waitForTimeout(500);
  const gaps = await page.evaluate(() => new Promise((ok) => {
    const t = [];
    const f = (now) => { t.push(now); if (t.length < 121) requestAnimationFrame(f); else ok(t.slice(1).map((v, i) => v - t[i])); };
    requestAnimationFrame(f);
  }));
  await context.close();
  const sorted = gaps.slice().sort((a, b) => a - b);
  const median = sorted[sorted.length >> 1], p95 = sorted[Math.floor(sorted.length * 0.95)];
  console.log(`ten embeds, e4 centred: frame interval median ${median.toFixed(1)} ms, 95th percentile ${p95.toFixed(1)} ms, budget (median) ${FRAME_MS} ms`);
  if (!(median < FRAME_MS)) over.push(`ten embeds: frame interval median ${median.toFixed(1)} ms >= ${FRAME_MS} ms`);
} finally {
  await browser.close();
  await server.close();
}
if (over.length) {
  console.error(`over budget:\n  ${over.join('\n  ')}`);
  process.exit(1);
}
console.log('every figure within its budget');
