// Every preset keeps its subject on stage in the page (issue 31 §1), on a desktop (1280 × 800,
// the panel on the right) and a phone (390 × 844 with touch, the panel collapsed at the
// bottom): the page loads `?scene=<name>`, is paused and stepped at 1/60 s for 20 s inside the
// browser, and every second the share of its free points (not locked) and dynamic bodies
// inside what the page's own camera shows is taken: its viewport (the canvas less the panel,
// main.js layout → camera.setViewport) through its world → screen transform. At least 80 % at
// every sample, and no dynamic body may have left for good (far outside at 20 s and still
// moving away). tests/presets_in_view.rs is the native check of the presets' desktop cameras; this one
// runs the page's framing (pagecamera.js), so it fails when the page frames a preset wrongly.
// Prints the least share of every preset on both devices.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, checkDist } from './serve.mjs';
import { DESKTOP, PHONE, useBrowser } from './helpers.mjs';

checkDist();

const PRESETS = readdirSync(join(REPO, 'www/scenes')).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
const SHARE = 0.8;
const SECONDS = 20;

let browser;
let server;
useBrowser((b, s) => ([browser, server] = [b, s]));

/**
 * In the page: steps the paused preset for `seconds` at 1/60 s and samples, every second, the
 * share of free points and dynamic bodies the page's camera shows; then the dynamic bodies
 * still leaving at the end (outside the view and farther from it than a second earlier).
 */
function runInPage(seconds) {
  const { ropelab } = window;
  const sim = ropelab.sim;
  const cam = ropelab.camera;
  const canvas = document.getElementById('view').getBoundingClientRect();
  const panel = document.getElementById('panel').getBoundingClientRect();
  const vp = cam.viewport;
  // What is visible: the camera's viewport, inside the canvas.
  const box = {
    x0: Math.max(vp.x, 0), y0: Math.max(vp.y, 0),
    x1: Math.min(vp.x + vp.w, canvas.width), y1: Math.min(vp.y + vp.h, canvas.height),
  };
  // The panel (when shown) must not cover it.
  const overlap = panel.width > 0 && panel.height > 0
    && Math.min(box.x1, panel.right - canvas.left) - Math.max(box.x0, panel.left - canvas.left) > 1
    && Math.min(box.y1, panel.bottom - canvas.top) - Math.max(box.y0, panel.top - canvas.top) > 1;
  const top = sim.view === 'top';
  const yOff = top ? 2 : 1;
  const bodies = sim.bodyCount ? JSON.parse(sim.bodiesJson()) : [];
  /** Distance (CSS px) of world (x, y) outside the visible box, 0 inside. */
  const outside = (x, y) => {
    const [px, py] = cam.toScreen(x, y);
    const dx = Math.max(box.x0 - px, 0, px - box.x1);
    const dy = Math.max(box.y0 - py, 0, py - box.y1);
    return Number.isFinite(px + py) ? Math.hypot(dx, dy) : Infinity;
  };
  const sample = () => {
    sim.refreshRender();
    const pos = sim.positions();
    const flags = sim.pointFlags();
    let n = 0;
    let k = 0;
    for (let i = 0; 3 * i + 2 < pos.length; i++) {
      if (flags[i] & 1) continue; // locked: an anchor
      n++;
      if (outside(pos[3 * i], pos[3 * i + yOff]) === 0) k++;
    }
    /** @type {number[]} per dynamic body: its distance outside the view (px) */
    const far = [];
    if (bodies.length) {
      sim.refillBodyPoses(1);
      const poses = sim.bodyPoses();
      bodies.forEach((b, i) => {
        if (b.kind !== 'dynamic') return;
        n++;
        const d = outside(poses[7 * i], poses[7 * i + yOff]);
        far.push(d);
        if (d === 0) k++;
      });
    }
    return { share: n ? k / n : 1, n, far };
  };
  const shares = [];
  let prev = null;
  let last = sample();
  for (let s = 1; s <= seconds; s++) {
    for (let j = 0; j < 60; j++) sim.step(1 / 60);
    // What the frame loop does before it draws: a phone's camera follows its subject.
    if (sim.bodyCount) sim.refillBodyPoses(1);
    cam.track(sim);
    prev = last;
    last = sample();
    shares.push(last.share);
  }
  // A body far outside at the end (more than a quarter of the view's diagonal) and farther
  // than a second before: leaving for good (a pendulum just past the edge swings back).
  const farOut = 0.25 * Math.hypot(box.x1 - box.x0, box.y1 - box.y0);
  const leaving = last.far.filter((d, i) => d > farOut && d > prev.far[i] + 2).length;
  return {
    shares, n: last.n, leaving, overlap,
    viewport: [vp.x, vp.y, vp.w, vp.h].map(Math.round), scale: cam.scale,
  };
}

const devices = { desktop: DESKTOP, phone: PHONE };
/** @type {Record<string, Record<string, string>>} preset → device → least share */
const table = {};
const failures = [];

for (const [device, options] of Object.entries(devices)) {
  describe(`presets in view, ${device}`, () => {
    let context;
    let page;
    before(async () => {
      context = await browser.newContext(options);
      page = await context.newPage();
    });
    after(async () => context?.close());

    for (const name of PRESETS) {
      it(`${name}: ≥ ${SHARE * 100} % of the subject in view for ${SECONDS} s, nothing leaving`, async () => {
        await page.goto(`${server.url}?scene=${name}`);
        await page.waitForFunction(() => window.ropelab?.ready === true, null, { timeout: 15000 });
        await page.evaluate(() => window.ropelab.pause(true));
        const r = await page.evaluate(runInPage, SECONDS);
        const worst = Math.min(...r.shares);
        const at = r.shares.indexOf(worst) + 1;
        (table[name] ??= {})[device] = `${(worst * 100).toFixed(0)} % (${at} s)${r.leaving ? `, ${r.leaving} leaving` : ''}`;
        const problems = [];
        if (r.overlap) problems.push(`the panel covers the view ${r.viewport}`);
        if (worst < SHARE) problems.push(`${(worst * 100).toFixed(0)} % of ${r.n} in view at ${at} s (shares ${r.shares.map((s) => Math.round(s * 100)).join(' ')})`);
        if (r.leaving) problems.push(`${r.leaving} dynamic bodies outside and moving away at ${SECONDS} s`);
        if (problems.length) failures.push(`${name} / ${device}: ${problems.join('; ')}`);
        assert.deepEqual(problems, [], `${name} on ${device}`);
      });
    }
  });
}

after(() => {
  const rows = PRESETS.map((n) => `  ${n.padEnd(14)} ${(table[n]?.desktop ?? '–').padEnd(24)} ${table[n]?.phone ?? '–'}`);
  console.log(`least share in view over ${SECONDS} s (at):\n  ${'preset'.padEnd(14)} ${'desktop'.padEnd(24)} phone\n${rows.join('\n')}`);
  if (failures.length) console.log(`failing:\n  ${failures.join('\n  ')}`);
});
