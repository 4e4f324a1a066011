// Helpers shared by the end-to-end test files (not a test file itself: `node --test` only
// runs *.test.mjs): the browser set-up, opening the page, waiting for steps, preset counts.

import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';
import { DIST, REPO, serve } from './serve.mjs';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const ARGS = [
  '--no-sandbox', '--headless', '--disable-gpu', '--disable-dev-shm-usage',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--no-first-run', '--disable-quic',
];
/** The viewports the page's tests and screenshots use: a desktop, and a phone with touch. */
export const DESKTOP = { viewport: { width: 1280, height: 800 } };
export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
export const ARTIFACTS = join(REPO, 'tests/e2e/artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

/** Point, link and locked-point counts of a preset, from the JSON the page loads. */
export function expectedCounts(name) {
  const s = JSON.parse(readFileSync(join(DIST, 'www/scenes', `${name}.json`), 'utf8'));
  let points = s.particles?.length ?? 0;
  let links = s.links?.length ?? 0;
  let locked = s.particles?.filter((p) => p.locked).length ?? 0;
  for (const r of s.ropes ?? []) {
    points += r.points;
    links += r.points - 1;
    locked += (r.lock_start ? 1 : 0) + (r.lock_end ? 1 : 0);
  }
  for (const g of s.grids ?? []) {
    points += g.cols * g.rows;
    links += (g.cols - 1) * g.rows + g.cols * (g.rows - 1);
    locked += { 'top-corners': 2, 'top-row': g.cols }[g.lock] ?? 0;
  }
  return { points, links, locked };
}

/**
 * Registers the file's `before` / `after` hooks: the static server of dist/ and one headless
 * Chromium for all its tests. `ready(browser, server)` receives them once started.
 */
export function useBrowser(ready) {
  let browser;
  let server;
  before(async () => {
    server = await serve();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
    ready(browser, server);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
}

/** Opens `url` in a fresh context, collecting console errors, page errors and failed requests. */
export async function openPage(browser, url, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, ...options });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => errors.push(`requestfailed: ${r.url()} ${r.failure()?.errorText}`));
  await page.goto(url);
  await page.waitForFunction(() => window.ropelab?.ready === true, null, { timeout: 15000 });
  return { context, page, errors };
}

export const steps = (page) => page.evaluate(() => window.ropelab.stats.steps);

/** Waits until the loop has advanced `n` more fixed steps. */
export async function waitSteps(page, n) {
  const s0 = await steps(page);
  await page.waitForFunction((t) => window.ropelab.stats.steps >= t, s0 + n, { timeout: 10000, polling: 16 });
}

/** The single view's counts and a copy of its positions. */
export const world = (page) => page.evaluate(() => ({
  points: window.ropelab.sim.pointCount,
  links: window.ropelab.sim.linkCount,
  positions: Array.from(window.ropelab.sim.positions()),
  preset: window.ropelab.preset,
}));

export function assertFinite(positions, what) {
  const bad = positions.findIndex((v) => !Number.isFinite(v));
  assert.equal(bad, -1, `${what}: coordinate ${bad} is ${positions[bad]}`);
}

/** The status line's text and class. */
export const statusLine = (page) => page.evaluate(() => {
  const el = document.getElementById('status');
  return { text: el.textContent, cls: el.className };
});
