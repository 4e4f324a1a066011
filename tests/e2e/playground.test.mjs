// End-to-end test of the playground (issue 2 §5): playwright-core drives the system Chromium
// against the trunk build in dist/ (`make web`), served by a tiny static server.
//
// What it checks: the page boots with the rope preset; a mouse drag of the rope's free end
// moves that point to the pointer and the rope follows (neighbours moved, links near rest);
// a click locks a point; a swipe on empty space cuts links; edit mode adds, connects,
// subdivides and removes; two fingers drag two points at once and a long-press locks; the
// presets switch; no coordinate is NaN; the console stays free of errors. Screenshots go to
// tests/e2e/artifacts/ (gitignored).

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { checkDist } from './serve.mjs';
import { ARTIFACTS, assertFinite, expectedCounts, openPage, useBrowser, waitSteps } from './helpers.mjs';

/** Tolerances, stated once. */
const TOL = {
  follow: 0.03,      // m: a held point sits at the pointer (within 3 cm)
  // Relative |d − L| / L of every link while the rope is held and swinging. The seed's solver
  // with the preset's 3 passes is stretchy (10–31 % measured here, depending on the swing and
  // the sweep order), so that bound only catches a blow-up; the real check is with 40 passes
  // (set through the iterations slider): 0.7–1.7 % measured at first; 0.2–3.2 % after the
  // solver changes of 2026-11-22 (it depends on where the swing is when sampled), so 5 %.
  link3: 0.50,
  link40: 0.05,
};

checkDist();

/** Positions, links and flags (copies) plus counts. */
const snap = (page) => page.evaluate(() => ({
  ...window.ropelab.snapshot(),
  points: window.ropelab.sim.pointCount,
  linkCount: window.ropelab.sim.linkCount,
}));
const pt = (s, i) => [s.positions[3 * i], s.positions[3 * i + 1]];
const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1]);
const toScreen = (page, x, y) => page.evaluate(([x, y]) => window.ropelab.toScreen(x, y), [x, y]);

/** Relative stretch |d − L| / L of every link, with rest lengths from the exported scene. */
async function linkStretches(page) {
  return page.evaluate(() => {
    const sim = window.ropelab.sim;
    const scene = JSON.parse(sim.exportScene());
    const pos = Array.from(sim.positions());
    const links = Array.from(sim.links());
    const out = [];
    for (let k = 0; k < links.length / 2; k++) {
      const a = links[2 * k], b = links[2 * k + 1];
      const d = Math.hypot(pos[3 * a] - pos[3 * b], pos[3 * a + 1] - pos[3 * b + 1], pos[3 * a + 2] - pos[3 * b + 2]);
      const rest = scene.links?.[k]?.rest;
      out.push(rest ? Math.abs(d - rest) / rest : NaN);
    }
    return out;
  });
}

/** Mouse drag in `n` steps with a pause between, so the loop runs while it moves. */
async function mouseDrag(page, from, to, { n = 20, pauseMs = 25, up = true } = {}) {
  await page.mouse.move(from[0], from[1]);
  await page.mouse.down();
  for (let i = 1; i <= n; i++) {
    const t = i / n;
    await page.mouse.move(from[0] + (to[0] - from[0]) * t, from[1] + (to[1] - from[1]) * t);
    await page.waitForTimeout(pauseMs);
  }
  if (up) await page.mouse.up();
}

let browser;
let server;
useBrowser((b, s) => ([browser, server] = [b, s]));

describe('desktop, mouse', () => {
  let page, context, errors;
  before(async () => ({ page, context, errors } = await openPage(browser, server.url)));
  after(async () => context?.close());

  it('boots with the rope preset, a HiDPI canvas and the solver list', async () => {
    const exp = expectedCounts('rope');
    const info = await page.evaluate(() => {
      const c = document.getElementById('view');
      return {
        preset: window.ropelab.preset,
        points: window.ropelab.sim.pointCount,
        links: window.ropelab.sim.linkCount,
        locked: window.ropelab.snapshot().flags.filter((f) => f & 1).length,
        solvers: window.ropelab.Sim.solvers(),
        options: [...document.querySelectorAll('#solver option')].map((o) => o.value),
        canvas: [c.width, c.height, c.clientWidth, c.clientHeight, devicePixelRatio],
        touchAction: getComputedStyle(c).touchAction,
      };
    });
    assert.equal(info.preset, 'rope');
    assert.equal(info.points, exp.points);
    assert.equal(info.links, exp.links);
    assert.equal(info.locked, exp.locked);
    assert.ok(info.solvers.length >= 1);
    assert.deepEqual(info.options, info.solvers, 'the solver select lists Sim.solvers()');
    const [w, h, cw, ch, dpr] = info.canvas;
    assert.equal(cw, 1280);
    assert.equal(ch, 720);
    assert.equal(w, Math.round(cw * dpr));
    assert.equal(h, Math.round(ch * dpr));
    assert.equal(info.touchAction, 'none');
    // The loop runs.
    await waitSteps(page, 10);
    // toWorld inverts toScreen.
    const back = await page.evaluate(() => window.ropelab.toWorld(...window.ropelab.toScreen(1.25, 2.5)));
    assert.ok(dist(back, [1.25, 2.5]) < 1e-9);
  });

  it('drags the free end with the mouse: the point follows the pointer and the rope follows it', async () => {
    // A fresh rope, paused: straight from the locked anchor (-2, 5) to the free end (2, 5).
    await page.evaluate(async () => { await window.ropelab.reset(); window.ropelab.pause(true); });
    const before = await snap(page);
    const end = before.points - 1; // the rope's free end
    assert.equal(before.flags[end] & 1, 0, 'the free end is not locked');
    const start = await toScreen(page, ...pt(before, end));
    // Down and round, then up above the anchor's height: 3.5 m from the anchor, within the
    // 4 m rope. Gravity alone would never lift the end's neighbours above y = 5.
    const via = [2.2, 2.0];
    const target = [1.5, 5.5];
    const a = await toScreen(page, ...via);
    const b = await toScreen(page, ...target);

    await page.mouse.move(start[0], start[1]);
    await page.mouse.down();
    await page.evaluate(() => window.ropelab.pause(false));
    await waitSteps(page, 2);
    assert.equal((await snap(page)).flags[end] & 2, 2, 'the free end is held');
    for (const [p, q] of [[start, a], [a, b]]) {
      for (let i = 1; i <= 15; i++) {
        const t = i / 15;
        await page.mouse.move(p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t);
        await page.waitForTimeout(25);
      }
    }
    await page.waitForTimeout(600); // hold still while the rope swings after the pointer
    await waitSteps(page, 2);

    const held = await snap(page);
    assertFinite(held.positions, 'while held');
    const p = pt(held, end);
    assert.ok(dist(p, target) < TOL.follow, `held point at ${p}, pointer at ${target}`);
    const rest = dist(pt(before, 0), pt(before, 1));
    for (const k of [end - 1, end - 2]) {
      const q = pt(held, k);
      assert.ok(q[1] > 5.0, `neighbour ${k} was lifted with the end: y = ${q[1].toFixed(3)}`);
      assert.ok(dist(q, target) < (end - k) * rest * (1 + TOL.link3), `neighbour ${k} is near the pointer`);
    }
    // Further along, the rope moved too. (One point alone may by chance swing back near where
    // it started — that made this flaky in busy runs — so the largest move of five counts.)
    const moves = [3, 4, 5, 6, 7].map((k) => dist(pt(held, end - k), pt(before, end - k)));
    assert.ok(Math.max(...moves) > 0.3, `the rope further along moved too: ${moves.map((m) => m.toFixed(2))} m`);
    const anchor = held.flags.findIndex((f) => f & 1);
    assert.ok(dist(pt(held, anchor), pt(before, anchor)) < 1e-6, 'the locked anchor did not move');
    const worst = Math.max(...(await linkStretches(page)));
    assert.ok(worst < TOL.link3, `3 passes: a link is ${(worst * 100).toFixed(1)} % off its rest length`);
    await page.screenshot({ path: join(ARTIFACTS, 'rope-held.png') });

    // More passes through the slider (still holding): the rope gets close to its rest lengths.
    await page.locator('#iterations').fill('40');
    assert.equal(await page.evaluate(() => window.ropelab.sim.iterations), 40, 'the slider set the iterations');
    await waitSteps(page, 40);
    const stiff = Math.max(...(await linkStretches(page)));
    assert.ok(stiff < TOL.link40, `40 passes: a link is ${(stiff * 100).toFixed(1)} % off its rest length`);
    assert.ok(dist(pt(await snap(page), end), target) < TOL.follow, 'still at the pointer');
    await page.mouse.up();
    await waitSteps(page, 2);
    const released = await snap(page);
    assert.equal(released.flags[end] & 2, 0, 'released');
    assertFinite(released.positions, 'after release');
  });

  it('a click on a point locks it, and a locked point stays put', async () => {
    await page.evaluate(() => window.ropelab.pause(true));
    const s = await snap(page);
    const i = 12;
    assert.equal(s.flags[i] & 1, 0);
    const [x, y] = await toScreen(page, ...pt(s, i));
    await page.mouse.click(x, y);
    assert.equal(await page.evaluate((i) => window.ropelab.sim.isLocked(i), i), true, 'click locked the point');
    const at = pt(await snap(page), i);
    await page.evaluate(() => window.ropelab.pause(false));
    await waitSteps(page, 30);
    const later = await snap(page);
    assert.equal(later.flags[i] & 1, 1, 'pointFlags bit 0 is set');
    assert.ok(dist(pt(later, i), at) < 1e-6, 'the locked point did not move');
    // Clicking again unlocks it.
    await page.evaluate(() => window.ropelab.pause(true));
    const [x2, y2] = await toScreen(page, ...pt(later, i));
    await page.mouse.click(x2, y2);
    assert.equal(await page.evaluate((i) => window.ropelab.sim.isLocked(i), i), false, 'second click unlocked it');
    await page.mouse.click(x2, y2); // and lock it again for the screenshot
    await page.evaluate(() => window.ropelab.pause(false));
  });

  it('a swipe across the rope on empty space cuts links', async () => {
    await page.evaluate(() => window.ropelab.pause(true));
    const s = await snap(page);
    // Swipe perpendicular to the link between points 5 and 6, starting 0.6 m away from it.
    const a = pt(s, 5), b = pt(s, 6);
    const m = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
    const len = dist(a, b);
    const n = [-(b[1] - a[1]) / len, (b[0] - a[0]) / len];
    const w0 = [m[0] + 0.6 * n[0], m[1] + 0.6 * n[1]];
    const w1 = [m[0] - 0.6 * n[0], m[1] - 0.6 * n[1]];
    const empty = await page.evaluate(([x, y]) => window.ropelab.sim.pick(x, y, 20 / window.ropelab.camera.scale), w0);
    assert.equal(empty, -1, 'the swipe starts on empty space');
    await mouseDrag(page, await toScreen(page, ...w0), await toScreen(page, ...w1), { n: 12, pauseMs: 10 });
    const cut = await snap(page);
    assert.ok(cut.linkCount < s.linkCount, `links ${s.linkCount} → ${cut.linkCount}`);
    assert.ok(s.linkCount - cut.linkCount <= 2, 'only the crossed links were cut');
    assert.equal(cut.points, s.points, 'cutting removes links, not points');
    await page.evaluate(() => window.ropelab.pause(false));
    await waitSteps(page, 45); // the cut-off part falls away from the rest
    const fallen = await snap(page);
    assertFinite(fallen.positions, 'after the cut');
    const gap = dist(pt(fallen, 5), pt(fallen, 6));
    assert.ok(gap > 3 * len, `the cut link's ends separated: ${gap.toFixed(3)} m vs ${len.toFixed(3)} m`);
    await page.screenshot({ path: join(ARTIFACTS, 'rope-cut.png') });
  });

  it('edit mode adds, connects, subdivides and removes points', async () => {
    await page.keyboard.press('e');
    await page.evaluate(() => window.ropelab.pause(true));
    const s0 = await snap(page);
    // Empty space well away from the rope (which hangs left of x = 1).
    const p1 = await toScreen(page, 3.0, 4.5);
    const p2 = await toScreen(page, 4.0, 4.5);
    await page.mouse.click(...p1); // add (becomes the selection)
    await page.mouse.click(...p2); // add and connect to the selection
    await page.mouse.move(...(await toScreen(page, 4.2, 3.5))); // rubber band from the selection
    await page.waitForTimeout(50);
    await page.screenshot({ path: join(ARTIFACTS, 'rope-edit.png') });
    await page.keyboard.press('Escape');
    let s = await snap(page);
    assert.equal(s.points, s0.points + 2, 'two points added');
    assert.equal(s.linkCount, s0.linkCount + 1, 'and connected');
    // Click the middle of the new link: subdivide into the slider's count (2).
    const mid = await toScreen(page, 3.5, 4.5);
    await page.mouse.click(...mid);
    s = await snap(page);
    assert.equal(s.points, s0.points + 4, 'subdivide adds 2 points');
    assert.equal(s.linkCount, s0.linkCount + 3, 'the link became 3');
    // Shift-click the first new point: removed with its link.
    await page.keyboard.down('Shift');
    await page.mouse.click(...p1);
    await page.keyboard.up('Shift');
    s = await snap(page);
    assert.equal(s.points, s0.points + 3);
    assert.equal(s.linkCount, s0.linkCount + 2);
    await page.keyboard.press('d');
    await page.evaluate(() => window.ropelab.pause(false));
  });

  it('reports a sim error in the status line without stopping the loop', async () => {
    const msg = await page.evaluate(() => {
      window.ropelab.app.guard('iterations', () => window.ropelab.sim.setIterations(0));
      const el = document.getElementById('status');
      return { text: el.textContent, cls: el.className };
    });
    assert.match(msg.text, /iterations/);
    assert.match(msg.cls, /error/);
    await waitSteps(page, 5);
    // The bad value was rejected: the world is unchanged.
    assert.ok(await page.evaluate(() => window.ropelab.sim.iterations) >= 1);
  });

  it('controls: pause, single step, solver, mass-weighted, walls, reset keeps settings', async () => {
    // Space pauses; "s" advances exactly one fixed step.
    await page.locator('#view').focus().catch(() => {});
    await page.keyboard.press(' ');
    assert.equal(await page.evaluate(() => window.ropelab.paused), true, 'space paused');
    const t0 = await page.evaluate(() => window.ropelab.sim.time);
    await page.waitForTimeout(100);
    assert.equal(await page.evaluate(() => window.ropelab.sim.time), t0, 'paused: time stands still');
    await page.keyboard.press('s');
    await page.waitForFunction((t) => window.ropelab.sim.time > t, t0);
    await page.waitForTimeout(100);
    const t1 = await page.evaluate(() => window.ropelab.sim.time);
    assert.ok(Math.abs(t1 - t0 - 1 / 60) < 1e-6, `one step of 1/60 s (got ${t1 - t0})`);
    await page.click('#pause');
    assert.equal(await page.evaluate(() => window.ropelab.paused), false, 'the Run button resumes');

    // Every solver in the select can be chosen.
    const solvers = await page.evaluate(() => window.ropelab.Sim.solvers());
    for (const name of solvers) {
      await page.selectOption('#solver', name);
      assert.equal(await page.evaluate(() => window.ropelab.sim.solver), name);
      await waitSteps(page, 3);
      assertFinite((await snap(page)).positions, `solver ${name}`);
    }
    await page.selectOption('#solver', solvers[0]);

    await page.check('#mass-weighted');
    assert.equal(await page.evaluate(() => window.ropelab.sim.massWeighted), true);
    const walls = await page.evaluate(() => Array.from(window.ropelab.sim.walls()));
    assert.equal(walls.length, 4, 'the rope scene has walls');
    await page.uncheck('#walls');
    assert.equal(await page.evaluate(() => window.ropelab.sim.walls().length), 0, 'walls off');
    await page.check('#walls');
    assert.deepEqual(await page.evaluate(() => Array.from(window.ropelab.sim.walls())), walls, 'walls back');

    // Reset reloads the scene (all links back) and keeps the controls.
    await page.locator('#iterations').fill('12');
    await page.click('#reset');
    await page.waitForFunction(() => window.ropelab.sim.linkCount === window.ropelab.sim.pointCount - 1);
    const after = await page.evaluate(() => [window.ropelab.sim.iterations, window.ropelab.sim.massWeighted, window.ropelab.sim.pointCount]);
    assert.deepEqual(after, [12, true, expectedCounts('rope').points]);

    // Stats show frame time and physics time per step.
    await page.waitForTimeout(300);
    const stats = await page.locator('#stats').innerText();
    assert.match(stats, /frame\s+\d+\.\d ms/);
    assert.match(stats, /physics \/ step ▸\s+\d+\.\d µs/);

    // "physics / step" opens into the stage list of src/step.rs, timed in Rust.
    await page.locator('#stage-toggle').click();
    await page.waitForFunction(() => /integrate\s+\d+\.\d\d µs/.test(document.getElementById('stats').innerText),
      null, { timeout: 5000 });
    const open = await page.locator('#stats').innerText();
    const names = ['ropes', 'wander', 'holdMasses', 'prepare', 'collide', 'winches', 'holds', 'integrate', 'broadPhase', 'solve',
      'velocities', 'forces', 'tearing', 'tangles', 'braid'];
    let at = -1;
    for (const n of names) {
      const k = open.indexOf(n);
      assert.ok(k > at, `stage ${n} listed in step order in:\n${open}`);
      at = k;
    }
    assert.equal(await page.locator('#stage-toggle').getAttribute('aria-expanded'), 'true');
    const solveUs = await page.evaluate(() => JSON.parse(window.ropelab.sim.stageTimes()) !== null);
    assert.ok(solveUs, 'profiling is on while the breakdown is open');
    await page.locator('#stage-toggle').click();
    assert.equal(await page.evaluate(() => window.ropelab.sim.stageTimes()), 'null', 'closed: timers off');
  });

  it('caps catch-up after a stall instead of spiralling', async () => {
    const before = await page.evaluate(() => ({ ...window.ropelab.stats }));
    // Block the main thread for 1 s (a stalled tab), then let frames run again.
    await page.evaluate(() => { const t = performance.now(); while (performance.now() - t < 1000); });
    await waitSteps(page, 10);
    const after = await page.evaluate(() => ({ ...window.ropelab.stats }));
    assert.ok(after.droppedSteps > before.droppedSteps + 30, `dropped ${after.droppedSteps - before.droppedSteps} steps`);
    const simTime = after.time - before.time;
    assert.ok(simTime < 0.8, `sim time advanced ${simTime.toFixed(3)} s for ~1.1 s of wall time with a 1 s stall`);
  });

  for (const name of ['bridge', 'net']) {
    it(`switches to the ${name} preset`, async () => {
      await page.selectOption('#preset', name);
      await page.waitForFunction((n) => window.ropelab.preset === n, name);
      const exp = expectedCounts(name);
      await waitSteps(page, 60);
      const s = await snap(page);
      assert.equal(s.points, exp.points);
      assert.equal(s.linkCount, exp.links);
      assert.equal(s.flags.filter((f) => f & 1).length, exp.locked);
      assertFinite(s.positions, name);
      const iters = await page.evaluate(() => [window.ropelab.sim.iterations, Number(document.getElementById('iterations').value)]);
      assert.equal(iters[1], iters[0], 'the iterations slider follows the preset');
      if (name === 'net') {
        // Drag a bottom corner down and sideways, and cut through the middle (right button).
        const corner = exp.points - 1;
        const from = await toScreen(page, ...pt(s, corner));
        const to = await toScreen(page, pt(s, corner)[0] + 0.8, pt(s, corner)[1] - 0.5);
        await mouseDrag(page, from, to, { n: 10, pauseMs: 20, up: false });
        await page.mouse.up();
        // Paused for the swipe, so the net cannot swing out of its path between the pointer's
        // moves (under a loaded CI machine frames come late: a swipe once cut only 4 links
        // where 8-13 is usual). Through the middle, top to bottom.
        await page.evaluate(() => window.ropelab.pause(true));
        const mid = await snap(page);
        const [x0, y0, x1, y1] = [-0.1, 6.0, 0.1, 0.5];
        const a = await toScreen(page, x0, y0);
        const b = await toScreen(page, x1, y1);
        await page.mouse.move(...a);
        await page.mouse.down({ button: 'right' });
        for (let i = 1; i <= 24; i++) await page.mouse.move(a[0] + (b[0] - a[0]) * i / 24, a[1] + (b[1] - a[1]) * i / 24);
        await page.mouse.up({ button: 'right' });
        await page.evaluate(() => window.ropelab.pause(false));
        const after = await snap(page);
        assert.equal(mid.linkCount, s.linkCount, 'the drag cut nothing');
        assert.ok(after.linkCount < s.linkCount - 5, `right-button swipe cut the net: ${s.linkCount} → ${after.linkCount}`);
        await waitSteps(page, 30);
      }
      await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
    });
  }

  it('has no NaN coordinate and no console errors', async () => {
    assertFinite((await snap(page)).positions, 'at the end');
    assert.deepEqual(errors, []);
  });
});

describe('phone, touch', () => {
  let page, context, errors, cdp;
  before(async () => {
    ({ page, context, errors } = await openPage(browser, `${server.url}#rope`, {
      viewport: { width: 390, height: 780 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true,
    }));
    cdp = await context.newCDPSession(page);
  });
  after(async () => context?.close());

  const touch = (type, points) => cdp.send('Input.dispatchTouchEvent', {
    type, touchPoints: points.map(([x, y], id) => ({ x, y, id, radiusX: 4, radiusY: 4, force: 1 })),
  });

  it('two fingers drag two points at once', async () => {
    await page.evaluate(() => window.ropelab.pause(true));
    const s = await snap(page);
    const [i, j] = [s.points - 1, 10];
    const a0 = await toScreen(page, ...pt(s, i));
    const b0 = await toScreen(page, ...pt(s, j));
    const ta = [0.8, 2.0], tb = [-1.2, 2.5];
    const a1 = await toScreen(page, ...ta);
    const b1 = await toScreen(page, ...tb);
    await touch('touchStart', [a0, b0]);
    await page.evaluate(() => window.ropelab.pause(false));
    for (let k = 1; k <= 20; k++) {
      const t = k / 20;
      const lerp = (p, q) => [p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t];
      await touch('touchMove', [lerp(a0, a1), lerp(b0, b1)]);
      await page.waitForTimeout(20);
    }
    await page.waitForTimeout(300);
    await waitSteps(page, 2);
    const held = await snap(page);
    assert.equal(held.flags[i] & 2, 2, `point ${i} is held by finger 0`);
    assert.equal(held.flags[j] & 2, 2, `point ${j} is held by finger 1`);
    assert.ok(dist(pt(held, i), ta) < TOL.follow, `finger 0's point at ${pt(held, i)}, finger at ${ta}`);
    assert.ok(dist(pt(held, j), tb) < TOL.follow, `finger 1's point at ${pt(held, j)}, finger at ${tb}`);
    await page.screenshot({ path: join(ARTIFACTS, 'phone-two-fingers.png') });
    await touch('touchEnd', []);
    await waitSteps(page, 2);
    const released = await snap(page);
    assert.equal(released.flags.filter((f) => f & 2).length, 0, 'both released');
    assertFinite(released.positions, 'after the touch drag');
  });

  it('two fingers on empty space pinch-zoom the view', async () => {
    const s = await snap(page);
    const scale0 = await page.evaluate(() => window.ropelab.camera.scale);
    // Two spots on empty space: low in the view, right of the rope (which hangs from x = -2).
    // (A phone frames the rope itself, 4.6 m across, not the 10 m between its walls.)
    const c = await page.evaluate(() => {
      const v = window.ropelab.camera.viewport;
      return [v.x + 0.75 * v.w, v.y + 0.9 * v.h];
    });
    const empty = await page.evaluate(([x, y]) => window.ropelab.sim.pick(...window.ropelab.toWorld(x, y), 40 / window.ropelab.camera.scale), c);
    assert.equal(empty, -1, 'the pinch starts on empty space');
    await touch('touchStart', [[c[0] - 20, c[1]], [c[0] + 20, c[1]]]);
    for (let k = 1; k <= 10; k++) {
      await touch('touchMove', [[c[0] - 20 - 4 * k, c[1]], [c[0] + 20 + 4 * k, c[1]]]);
    }
    await touch('touchEnd', []);
    const scale1 = await page.evaluate(() => window.ropelab.camera.scale);
    assert.ok(Math.abs(scale1 / scale0 - 3) < 0.05, `zoomed ×${(scale1 / scale0).toFixed(3)} (fingers 40 → 120 px apart)`);
    assert.equal((await snap(page)).linkCount, s.linkCount, 'a pinch cuts nothing');
    await page.evaluate(() => window.ropelab.camera.resetView());
  });

  it('a long-press locks a point; a tap does not', async () => {
    await page.evaluate(() => window.ropelab.pause(true));
    const s = await snap(page);
    // The free point nearest the middle of the view (the swinging rope can be partly out of a
    // phone's view).
    const mid = await page.evaluate(() => {
      const v = window.ropelab.camera.viewport;
      return [v.x + v.w / 2, v.y + v.h / 2];
    });
    let i = -1, best = Infinity;
    for (let k = 0; k < s.points; k++) {
      if (s.flags[k] & 1) continue;
      const q = await toScreen(page, ...pt(s, k));
      const d = Math.hypot(q[0] - mid[0], q[1] - mid[1]);
      if (d < best) [i, best] = [k, d];
    }
    const p = await toScreen(page, ...pt(s, i));
    await touch('touchStart', [p]);
    await touch('touchEnd', []);
    assert.equal(await page.evaluate((i) => window.ropelab.sim.isLocked(i), i), false, 'a tap does not lock');
    await touch('touchStart', [p]);
    await page.waitForTimeout(700);
    await touch('touchEnd', []);
    assert.equal(await page.evaluate((i) => window.ropelab.sim.isLocked(i), i), true, 'a long-press locks');
    await page.evaluate(() => window.ropelab.pause(false));
    await waitSteps(page, 30);
    await page.screenshot({ path: join(ARTIFACTS, 'phone-locked.png') });
    assertFinite((await snap(page)).positions, 'phone');
    assert.deepEqual(errors, []);
  });
});
