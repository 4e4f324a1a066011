// The comparison view (issue 3 §4): ?compare=… runs one sim per solver in lockstep; the table
// shows each one's max stretch, energy and µs/step with sparklines; a mouse drag moves the same
// point in every sim; per-solver iterations; side-by-side and overlaid layouts; the panel
// switch; ?embed=1 without the panel. Screenshots of both layouts go to tests/e2e/artifacts/.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { checkDist } from './serve.mjs';
import { ARTIFACTS, assertFinite, expectedCounts, openPage, useBrowser, waitSteps } from './helpers.mjs';

checkDist();

let browser;
let server;
useBrowser((b, s) => ([browser, server] = [b, s]));

/** Every comparison sim's solver, time, counts, positions (copies) and held point. */
const sims = (page) => page.evaluate(() => window.ropelab.compare.slots.map((s) => ({
  solver: s.solver,
  time: s.sim.time,
  points: s.sim.pointCount,
  links: s.sim.linkCount,
  iterations: s.sim.iterations,
  substeps: s.sim.substeps,
  stretch: s.sim.maxStretch(),
  held: s.sim.heldBy(1), // the mouse's pointerId
  positions: Array.from(s.sim.positions()),
})));

const SOLVERS = ['classic', 'pbd', 'xpbd', 'exact'];

describe('comparison view', () => {
  let page, context, errors;
  before(async () => ({ page, context, errors } = await openPage(browser, `${server.url}?scene=rope&compare=${SOLVERS.join(',')}`)));
  after(async () => context?.close());

  it('runs one sim per solver in lockstep from the same scene', async () => {
    await waitSteps(page, 30);
    const s = await sims(page);
    assert.deepEqual(s.map((x) => x.solver), SOLVERS);
    const exp = expectedCounts('rope');
    for (const x of s) {
      assert.equal(x.points, exp.points, `${x.solver} points`);
      assert.equal(x.links, exp.links, `${x.solver} links`);
      assertFinite(x.positions, x.solver);
      assert.ok(x.time > 0.4, `${x.solver} ran (t = ${x.time})`);
      assert.equal(x.time, s[0].time, `${x.solver} in lockstep`);
    }
    const layout = await page.evaluate(() => ({
      mode: window.ropelab.compare.layoutMode,
      regions: window.ropelab.compare.regions.length,
      comparing: document.body.classList.contains('comparing'),
      singleHidden: getComputedStyle(document.getElementById('sliders')).display === 'none',
      compareChecked: document.getElementById('compare').checked,
    }));
    assert.deepEqual(layout, { mode: 'side', regions: 4, comparing: true, singleHidden: true, compareChecked: true });
  });

  it('shows live max stretch, energy and µs/step per solver, with sparklines', async () => {
    await page.waitForTimeout(400);
    const rows = await page.evaluate(() => [...document.querySelectorAll('#compare-hud tbody tr')].map((tr) => ({
      solver: tr.dataset.solver,
      text: tr.innerText,
      sparks: [...tr.querySelectorAll('canvas')].map((c) => {
        // Some pixels drawn: the line is there.
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let lit = 0;
        for (let i = 3; i < d.length; i += 4) if (d[i] > 0) lit++;
        return lit;
      }),
    })));
    assert.deepEqual(rows.map((r) => r.solver), SOLVERS);
    for (const r of rows) {
      assert.match(r.text, /\d %/, `${r.solver}: max stretch`);
      assert.match(r.text, /-?\d+\.\d J/, `${r.solver}: energy`);
      assert.match(r.text, /\d µs/, `${r.solver}: µs/step`);
      assert.equal(r.sparks.length, 2);
      for (const lit of r.sparks) assert.ok(lit > 20, `${r.solver}: sparkline drawn (${lit} px)`);
    }
    const stats = await page.evaluate(() => window.ropelab.compare.stats());
    for (const st of stats) {
      assert.ok(st.usPerStep > 0 && Number.isFinite(st.usPerStep), `${st.solver} µs/step ${st.usPerStep}`);
      assert.ok(Number.isFinite(st.energy));
    }
  });

  it('a drag moves the same point in every sim; the stiffest solver stretches less than classic', async () => {
    // Start from rest, straight ropes, paused while the mouse goes down on region 0's free end.
    await page.evaluate(async () => { await window.ropelab.reset(); window.ropelab.pause(true); });
    const s0 = await sims(page);
    const end = s0[0].points - 1;
    const cam0 = (x, y) => page.evaluate(([x, y]) => window.ropelab.compare.slots[0].camera.toScreen(x, y), [x, y]);
    const from = await cam0(s0[0].positions[3 * end], s0[0].positions[3 * end + 1]);
    const target = [0.5, 2.0];
    const to = await cam0(...target);
    await page.mouse.move(...from);
    await page.mouse.down();
    await page.evaluate(() => window.ropelab.pause(false));
    for (let i = 1; i <= 20; i++) {
      await page.mouse.move(from[0] + ((to[0] - from[0]) * i) / 20, from[1] + ((to[1] - from[1]) * i) / 20);
      await page.waitForTimeout(20);
    }
    await page.waitForTimeout(300);
    await waitSteps(page, 2);
    const held = await sims(page);
    for (const x of held) {
      assert.equal(x.held, end, `${x.solver} holds point ${end}`);
      const p = [x.positions[3 * end], x.positions[3 * end + 1]];
      assert.ok(Math.hypot(p[0] - target[0], p[1] - target[1]) < 0.03, `${x.solver}: held point at ${p}, pointer at ${target}`);
      assertFinite(x.positions, `${x.solver} while held`);
    }
    await page.screenshot({ path: join(ARTIFACTS, 'compare-side-drag.png') });
    await page.mouse.up();
    await waitSteps(page, 20);
    const after = await sims(page);
    const by = Object.fromEntries(after.map((x) => [x.solver, x]));
    for (const x of after) {
      assert.equal(x.held, -1, `${x.solver} released`);
      assertFinite(x.positions, `${x.solver} after release`);
    }
    // The stiffest solver stretches less than the seed's classic one under the same input
    // (xpbd at 3 iterations × 1 substep and 0 compliance is PBD, about as stretchy as classic).
    const stiffest = Math.min(by.exact.stretch, by.xpbd.stretch);
    assert.ok(stiffest < by.classic.stretch / 10, `stiffest ${stiffest} vs classic ${by.classic.stretch}`);
    assert.ok(by.exact.stretch < 1e-3, `exact stays inextensible: ${by.exact.stretch}`);
  });

  it('each solver has its own iterations and substeps (the URL follows)', async () => {
    await page.fill('#compare-hud tr[data-solver="classic"] input.it', '20');
    await page.press('#compare-hud tr[data-solver="classic"] input.it', 'Enter');
    await page.fill('#compare-hud tr[data-solver="xpbd"] input.sub', '4');
    await page.press('#compare-hud tr[data-solver="xpbd"] input.sub', 'Enter');
    const s = await sims(page);
    const by = Object.fromEntries(s.map((x) => [x.solver, x]));
    assert.equal(by.classic.iterations, 20);
    assert.equal(by.xpbd.substeps, 4);
    assert.equal(by.pbd.iterations, 3, 'the others keep theirs');
    assert.match(decodeURIComponent(page.url()), /compare=classic:20i,pbd,xpbd:4s,exact/);
    // An out-of-range value is refused with the sim's error; the setting stays.
    await page.fill('#compare-hud tr[data-solver="pbd"] input.it', '0');
    await page.press('#compare-hud tr[data-solver="pbd"] input.it', 'Enter');
    assert.equal((await sims(page))[1].iterations, 3);
    assert.match(await page.locator('#status').innerText(), /iterations/);
    assert.equal(await page.inputValue('#compare-hud tr[data-solver="pbd"] input.it'), '3');
  });

  it('overlaid: one view, one colour per solver; screenshots of both layouts', async () => {
    await page.evaluate(async () => { await window.ropelab.reset(); });
    await waitSteps(page, 40);
    await page.mouse.move(5, 5); // no hover ring in the pictures
    await page.evaluate(() => { document.activeElement?.blur(); window.ropelab.app.ui.status('', 'info', 1); });
    await page.waitForTimeout(400); // the status line's fade-out
    await page.screenshot({ path: join(ARTIFACTS, 'compare-side.png') });
    await page.click('[data-layout="overlay"]');
    const o = await page.evaluate(() => ({
      mode: window.ropelab.compare.layoutMode,
      regions: window.ropelab.compare.regions.length,
      colors: window.ropelab.compare.slots.map((s) => s.color),
    }));
    assert.equal(o.mode, 'overlay');
    assert.equal(o.regions, 1);
    assert.equal(new Set(o.colors).size, o.colors.length, 'a colour per solver');
    assert.match(page.url(), /layout=overlay/);
    await waitSteps(page, 20);
    // Each solver's colour is on the canvas.
    const found = await page.evaluate((colors) => {
      const c = document.getElementById('view');
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      const rgb = colors.map((h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16)));
      const hits = rgb.map(() => 0);
      for (let i = 0; i < d.length; i += 4 * 3) {
        rgb.forEach((q, k) => {
          if (Math.abs(d[i] - q[0]) + Math.abs(d[i + 1] - q[1]) + Math.abs(d[i + 2] - q[2]) < 30) hits[k]++;
        });
      }
      return hits;
    }, o.colors);
    const slots = await page.evaluate(() => window.ropelab.compare.slots.map((s) => s.solver));
    // pbd and xpbd at 0 compliance are the same algorithm, so one may hide the other.
    found.forEach((n, k) => { if (slots[k] !== 'pbd') assert.ok(n > 10, `${slots[k]} drawn in its colour (${n} px)`); });
    await page.screenshot({ path: join(ARTIFACTS, 'compare-overlay.png') });
    await page.click('[data-layout="side"]');
    assert.equal(await page.evaluate(() => window.ropelab.compare.regions.length), 4);
  });

  it('the panel switch leaves and re-enters the comparison', async () => {
    await page.uncheck('#compare');
    assert.equal(await page.evaluate(() => window.ropelab.compare), null);
    assert.equal(await page.evaluate(() => document.getElementById('compare-hud')), null, 'the table is gone');
    assert.doesNotMatch(page.url(), /compare=/);
    await waitSteps(page, 5); // the single view runs again
    await page.check('#compare');
    const c = await page.evaluate(() => window.ropelab.compare.slots.map((s) => [s.solver, s.sim.iterations, s.sim.substeps]));
    assert.deepEqual(c.map((x) => x[0]), SOLVERS, 'the default solvers');
    assert.deepEqual(c[2].slice(1), [1, 3], 'xpbd joins as substeps × 1 iteration');
    // Unticking a solver drops it.
    await page.uncheck('#compare-solvers input[value="pbd"]');
    assert.deepEqual(await page.evaluate(() => window.ropelab.compare.slots.map((s) => s.solver)), ['classic', 'xpbd', 'exact']);
    await waitSteps(page, 5);
    assert.deepEqual(errors, [], 'no console errors');
  });
});

describe('?embed=1', () => {
  it('hides the panel; the view and the table use the whole window', async () => {
    const { page, context, errors } = await openPage(browser, `${server.url}?scene=bridge&compare=classic,xpbd:1i8s,exact&layout=overlay&embed=1`);
    try {
      await waitSteps(page, 30);
      const e = await page.evaluate(() => ({
        panel: getComputedStyle(document.getElementById('panel')).display,
        hud: document.getElementById('compare-hud').getBoundingClientRect().width > 0,
        region: window.ropelab.compare.regions[0],
        slots: window.ropelab.compare.slots.map((s) => [s.solver, s.sim.iterations, s.sim.substeps]),
        link: document.getElementById('open-full').href,
      }));
      assert.equal(e.panel, 'none');
      assert.ok(e.hud);
      assert.equal(e.region.w, 1280, 'the view spans the window');
      assert.deepEqual(e.slots[1], ['xpbd', 1, 8]);
      assert.doesNotMatch(e.link, /embed/, 'the corner link opens the full page');
      assert.match(e.link, /compare=classic,xpbd:1i8s,exact/);
      for (const s of await sims(page)) assertFinite(s.positions, s.solver);
      await page.screenshot({ path: join(ARTIFACTS, 'compare-embed.png') });
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});
