// Body contacts on the page (issue 11 §3, §5): the "contacts" presets are in the menu, load and
// play; the wrecking ball on its cable knocks the wall of boxes down (boxes moved, drawn, the
// cable drawn); the contact events reach JS (drainContactEvents and the zero-copy views).
// Screenshots in tests/e2e/artifacts.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { ARTIFACTS, openPage, useBrowser, waitSteps } from './helpers.mjs';

let browser;
let base;
useBrowser((b, s) => { browser = b; base = s.url; });

const CONTACT_PRESETS = ['pyramid', 'wall', 'plank-bridge', 'cradle'];

/** Body centres now (x, y per body), how many the renderer drew, and the rope's drawn links. */
const state = (page) => page.evaluate(() => {
  const rl = window.ropelab;
  const sim = rl.sim;
  sim.refillBodyPoses(1);
  const p = Array.from(sim.bodyPoses());
  const centres = [];
  for (let k = 0; k < sim.bodyCount; k++) centres.push([p[7 * k], p[7 * k + 1]]);
  return { count: sim.bodyCount, centres, drawn: rl.app.renderer.bodiesDrawn, links: sim.linkCount, steps: rl.stats.steps };
});

test('the contacts group lists the contact presets', async () => {
  const { context, page, errors } = await openPage(browser, base);
  const groups = await page.evaluate(() => [...document.querySelectorAll('#preset optgroup')]
    .map((g) => ({ label: g.label, names: [...g.querySelectorAll('option')].map((o) => o.value) })));
  const contacts = groups.find((g) => g.label === 'contacts');
  assert.deepEqual(contacts?.names, CONTACT_PRESETS);
  await page.selectOption('#preset', 'wall');
  await page.waitForFunction(() => window.ropelab.preset === 'wall');
  assert.deepEqual(errors, []);
  await context.close();
});

for (const name of CONTACT_PRESETS) {
  test(`the ${name} preset plays and draws its bodies`, async () => {
    const { context, page, errors } = await openPage(browser, `${base}?scene=${name}`);
    await waitSteps(page, 60);
    const s = await state(page);
    assert.ok(s.count >= 5, `${name}: ${s.count} bodies`);
    assert.equal(s.drawn, s.count, `${name}: the renderer drew every body`);
    assert.ok(s.centres.flat().every(Number.isFinite), `${name}: non-finite pose`);
    assert.equal(await page.inputValue('#preset'), name);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('the wrecking ball knocks the wall down on the page, with contact events', async () => {
  const { context, page, errors } = await openPage(browser, `${base}?scene=wall`);
  const before = await state(page);
  const info = await page.evaluate(() => JSON.parse(window.ropelab.sim.bodiesJson()));
  const ball = info.findIndex((b) => b.shape.type === 'sphere');
  const boxes = info.map((b, k) => (b.shape.type === 'box' && b.kind === 'dynamic' ? k : -1)).filter((k) => k >= 0);
  assert.equal(boxes.length, 18);
  assert.ok(before.links > 0, 'the cable has links');
  // The wall's pose at load: every box where the scene put it (the page may have stepped a little).
  const start = boxes.map((k) => before.centres[k]);
  await page.mouse.move(5, 5);
  await waitSteps(page, 45);
  await page.screenshot({ path: join(ARTIFACTS, 'contacts-wall-swing.png') });
  // The ball reaches the wall about 1.1 s in; by 4 s the wall is down.
  await waitSteps(page, 200);
  const after = await state(page);
  const moved = boxes.map((k, i) => Math.hypot(after.centres[k][0] - start[i][0], after.centres[k][1] - start[i][1]));
  const knocked = moved.filter((d) => d > 0.5).length;
  await page.screenshot({ path: join(ARTIFACTS, 'contacts-wall-down.png') });
  assert.ok(knocked >= 12, `only ${knocked} of 18 boxes moved > 0.5 m: ${moved.map((d) => d.toFixed(2))}`);
  assert.ok(after.centres[ball].every(Number.isFinite), 'the ball is still there');
  assert.equal(after.drawn, after.count, 'every body drawn');
  // Contact events: the boxes' hits, read as JSON and as zero-copy views.
  const ev = await page.evaluate(() => {
    const sim = window.ropelab.sim;
    const n = sim.contactEventCount;
    const ids = Array.from(sim.contactEventIds());
    const imp = Array.from(sim.contactEventImpulses());
    const json = JSON.parse(sim.drainContactEvents());
    return { n, ids, imp, json, after: sim.contactEventCount };
  });
  assert.ok(ev.n > 0, 'contact events were queued');
  assert.equal(ev.ids.length, 3 * ev.n);
  assert.equal(ev.imp.length, ev.n);
  assert.equal(ev.json.length, ev.n);
  assert.equal(ev.after, 0, 'drained');
  ev.json.forEach((e, k) => {
    assert.equal(e.type, ev.ids[3 * k] === 1 ? 'begin' : 'end');
    assert.deepEqual([e.a, e.b], [ev.ids[3 * k + 1], ev.ids[3 * k + 2]]);
    assert.ok(e.a < e.b && e.impulse >= 0);
  });
  const ballId = info[ball].id;
  assert.ok(ev.json.some((e) => e.type === 'begin' && (e.a === ballId || e.b === ballId) && e.impulse > 1),
    'the ball hit a box (a begin with an impulse)');
  assert.deepEqual(errors, []);
  await context.close();
});

// Issue 11's "watch the Atwood machine run": the heavier weight goes down, the lighter up,
// the wheel turns with the rope (rope–body friction), and the drum pays its rope out under
// the load against its brake. Screenshots of both.
for (const [name, a, b] of [['atwood', 1, 2], ['drum', 1, null]]) {
  test(`the ${name} preset runs on the page`, async () => {
    const { context, page, errors } = await openPage(browser, `${base}?scene=${name}`);
    await page.mouse.move(5, 5);
    await waitSteps(page, 5);
    const quat = () => page.evaluate(() => {
      const sim = window.ropelab.sim;
      sim.refillBodyPoses(1);
      return Array.from(sim.bodyPoses()).slice(3, 7);
    });
    // Paused and stepped by hand: the 40 steps are counted in physics, not in frames. On a
    // slow machine a real-time wait could span Atwood's landing and its restart.
    await page.evaluate(() => window.ropelab.pause(true));
    const before = await state(page);
    const q0 = await quat();
    await page.evaluate(() => window.ropelab.step(40));
    await page.waitForFunction(() => window.ropelab.app.pendingSteps === 0);
    const after = await state(page);
    const q1 = await quat();
    await page.screenshot({ path: join(ARTIFACTS, `contacts-${name}.png`) });
    const dot = Math.min(1, Math.abs(q0.reduce((s, x, k) => s + x * q1[k], 0)));
    const turned = 2 * Math.acos(dot);
    const dy = (k) => after.centres[k][1] - before.centres[k][1];
    assert.ok(dy(a) < -0.02, `${name}: the load went down (${dy(a)})`);
    if (b !== null) assert.ok(dy(b) > 0.02, `${name}: the light weight went up (${dy(b)})`);
    assert.ok(turned > 0.05, `${name}: the wheel turned ${turned} rad`);
    assert.equal(after.drawn, after.count, 'every body drawn');
    assert.ok(after.links > 0, 'the rope is drawn');
    assert.deepEqual(errors, []);
    await context.close();
  });
}
