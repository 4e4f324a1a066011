// Rigid bodies on the page (issue 10 §5): the body presets are in the menu, load, and their
// bodies and joints are drawn (between fixed steps: a rope's end stays on the body it is
// attached to); a body is dragged at the point grabbed (mouse, two fingers, the comparison);
// the impulse solver runs them and the classic one is off for them; screenshots in
// tests/e2e/artifacts.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { ARTIFACTS, openPage, useBrowser, waitSteps } from './helpers.mjs';

let browser;
let base;
useBrowser((b, s) => { browser = b; base = s.url; });

const BODY_PRESETS = ['wrecking-ball', 'hinge-chain', 'door', 'ragdoll', 'crane'];

/** Poses (7 floats per body, now), static info, and what the renderer drew last frame. */
const bodyState = (page) => page.evaluate(() => {
  const sim = window.ropelab.sim;
  const info = JSON.parse(sim.bodiesJson());
  const joints = JSON.parse(sim.jointsJson());
  sim.refillBodyPoses(1);
  const pose = Array.from(sim.bodyPoses());
  return { count: sim.bodyCount, info, joints, drawn: window.ropelab.app.renderer.bodiesDrawn, pose, solver: sim.solver };
});

/** Screen position (page CSS px) of body k's centre, its world position, with the loop paused. */
const bodyOnScreen = (page, k) => page.evaluate((k) => {
  const rl = window.ropelab;
  rl.pause(true);
  const sim = rl.sim;
  sim.refillBodyPoses(1);
  const p = Array.from(sim.bodyPoses());
  const [x, y] = rl.toScreen(p[7 * k], p[7 * k + 1]);
  const r = document.querySelector('canvas').getBoundingClientRect();
  return { x: r.left + x, y: r.top + y, p0: [p[7 * k], p[7 * k + 1]] };
}, k);

/** Quiet status line and no focus ring, for the pictures. */
const quiet = async (page) => {
  await page.evaluate(() => { document.activeElement?.blur(); window.ropelab.app.ui.status('', 'info', 1); });
  await page.waitForTimeout(400); // the status line's fade-out
};

test('the preset menu lists the rigid-body presets in their own group', async () => {
  const { context, page, errors } = await openPage(browser, base);
  const groups = await page.evaluate(() => [...document.querySelectorAll('#preset optgroup')]
    .map((g) => ({ label: g.label, names: [...g.querySelectorAll('option')].map((o) => o.value) })));
  assert.deepEqual(groups.map((g) => g.label), ['ropes', 'rigid bodies', 'contacts', 'ropes on bodies']);
  assert.deepEqual(groups[1].names, BODY_PRESETS);
  assert.deepEqual(groups.flatMap((g) => g.names), await page.evaluate(() => window.ropelab.presets));
  await page.selectOption('#preset', 'door');
  await page.waitForFunction(() => window.ropelab.preset === 'door');
  assert.equal(await page.inputValue('#preset'), 'door', 'the menu shows the preset, not "(file)"');
  assert.deepEqual(errors, []);
  await context.close();
});

for (const name of BODY_PRESETS) {
  test(`the ${name} preset plays and draws its bodies`, async () => {
    const { context, page, errors } = await openPage(browser, `${base}?scene=${name}`);
    await waitSteps(page, 90);
    const s = await bodyState(page);
    assert.ok(s.count > 0, `${name}: no bodies`);
    assert.equal(s.drawn, s.count, `${name}: the renderer drew every body`);
    assert.ok(s.pose.every(Number.isFinite), `${name}: non-finite pose`);
    assert.equal(await page.inputValue('#preset'), name);
    // The classic solver cannot run bodies: it is off in the menu, with the reason.
    const classic = await page.evaluate(() => document.querySelector('#solver option[value="classic"]').disabled);
    assert.equal(classic, true, 'classic is off for a scene with bodies');
    await page.mouse.move(5, 5);
    await quiet(page);
    await page.screenshot({ path: join(ARTIFACTS, `bodies-${name}.png`) });
    await page.evaluate(() => window.ropelab.pause(true));
    await page.waitForTimeout(100); // a frame drawn paused: the reaction forces
    await page.screenshot({ path: join(ARTIFACTS, `bodies-${name}-paused.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('bodies are drawn between fixed steps, with the points: the wrecking ball keeps its rope end', async () => {
  const { context, page, errors } = await openPage(browser, `${base}?scene=wrecking-ball`);
  await waitSteps(page, 20); // swinging fast by now
  // Between frames: the fraction the last frame was drawn at, the rope's end drawn there (the
  // copy before the last step blended with now) and the ball's pose blended the same way.
  const samples = [];
  for (let k = 0; k < 30; k++) {
    samples.push(await page.evaluate(() => {
      const { app, sim } = window.ropelab;
      const r = app.renderer;
      const frac = r.lastFrac;
      const rec = r.previous.get(sim);
      const pos = Array.from(sim.positions());
      const prev = rec ? Array.from(rec.prev) : pos;
      const e = pos.length - 3;
      const end = [0, 1, 2].map((c) => prev[e + c] + (pos[e + c] - prev[e + c]) * frac);
      const now = pos.slice(e, e + 3);
      sim.refillBodyPoses(frac);
      const ball = Array.from(sim.bodyPoses()).slice(0, 3);
      sim.refillBodyPoses(1);
      const ballNow = Array.from(sim.bodyPoses()).slice(0, 3);
      const d = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
      const radius = JSON.parse(sim.bodiesJson())[0].shape.radius;
      return { frac, radius, drawnGap: d(end, ball), naiveGap: d(now, ball), speed: d(ballNow, ball), sameTime: !!rec };
    }));
    await page.waitForTimeout(23);
  }
  assert.ok(samples.every((s) => s.frac >= 0 && s.frac <= 1), 'frac in [0, 1]');
  assert.ok(samples.some((s) => s.frac < 0.9), 'some frames fall between steps');
  assert.ok(samples.every((s) => s.sameTime), 'the loop keeps the positions before its last step');
  // The rope's end is a point of the ball, on its surface, in the drawing too.
  const worst = Math.max(...samples.map((s) => Math.abs(s.drawnGap - s.radius)));
  assert.ok(worst < 0.005, `the drawn rope end is ${worst.toFixed(4)} m off the drawn ball's surface`);
  // Without interpolating the points it would be off by up to a step of motion.
  const naive = Math.max(...samples.map((s) => Math.abs(s.naiveGap - s.radius)));
  assert.ok(naive > worst, `naive ${naive.toFixed(4)} m vs interpolated ${worst.toFixed(4)} m`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a new user drags the wrecking ball at the point grabbed, and lets go', async () => {
  const { context, page, errors } = await openPage(browser, `${base}?scene=wrecking-ball`);
  // Pause so the ball stays where it starts, then find it on screen: below its centre (the
  // rope's end is on its other side, and a point within the pick radius would win).
  const at = await bodyOnScreen(page, 0);
  const grab = { x: at.x, y: at.y + 20 };
  await page.mouse.move(grab.x, grab.y);
  await page.waitForFunction(() => window.ropelab.app.ui.gestures.hoverBody >= 0);
  assert.equal(await page.evaluate(() => document.getElementById('view').classList.contains('over-point')), true, 'the cursor says grab');
  await page.evaluate(() => window.ropelab.pause(false));
  await page.mouse.down();
  const grabbed = await page.evaluate(() => JSON.parse(window.ropelab.sim.jointsJson()).find((j) => j.mouse));
  assert.ok(grabbed, 'a mouse joint holds the ball');
  const world = await page.evaluate(([x, y]) => {
    const r = document.querySelector('canvas').getBoundingClientRect();
    return window.ropelab.toWorld(x - r.left, y - r.top);
  }, [grab.x, grab.y]);
  assert.ok(Math.hypot(grabbed.anchorB[0] - world[0], grabbed.anchorB[1] - world[1]) < 0.05,
    `held at the point grabbed (${grabbed.anchorB.slice(0, 2).map((v) => v.toFixed(2))} vs ${world.map((v) => v.toFixed(2))})`);
  for (let k = 1; k <= 20; k++) {
    await page.mouse.move(grab.x - 8 * k, grab.y - 4 * k);
    await page.waitForTimeout(16);
  }
  await waitSteps(page, 20);
  const dragging = await bodyState(page);
  assert.equal(dragging.joints.filter((j) => j.mouse).length, 1, 'one mouse joint while dragging');
  await quiet(page);
  await page.screenshot({ path: join(ARTIFACTS, 'bodies-drag.png') });
  await page.mouse.up();
  const after = await bodyState(page);
  assert.equal(after.joints.some((j) => j.mouse), false, 'released');
  const moved = Math.hypot(after.pose[0] - at.p0[0], after.pose[1] - at.p0[1]);
  assert.ok(moved > 0.3, `the ball moved with the pointer (${moved.toFixed(2)} m)`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the ragdoll is dragged by its torso, and by two fingers at once', async () => {
  const { context, page, errors } = await openPage(browser, `${base}?scene=ragdoll`, { hasTouch: true });
  await waitSteps(page, 10);
  const info = await page.evaluate(() => JSON.parse(window.ropelab.sim.bodiesJson()));
  const torso = info.findIndex((b) => b.shape.type === 'capsule' && b.mass === 25);
  assert.ok(torso >= 0, 'the torso');
  const at = await bodyOnScreen(page, torso);
  await page.mouse.move(at.x, at.y);
  await page.evaluate(() => window.ropelab.pause(false));
  await page.mouse.down();
  for (let k = 1; k <= 25; k++) {
    await page.mouse.move(at.x + 8 * k, at.y - 2 * k);
    await page.waitForTimeout(16);
  }
  await waitSteps(page, 30);
  const held = await bodyState(page);
  assert.ok(held.joints.some((j) => j.mouse && j.b === info[torso].id), 'the torso is held');
  await quiet(page);
  await page.screenshot({ path: join(ARTIFACTS, 'bodies-ragdoll-drag.png') });
  await page.mouse.up();
  const s = await bodyState(page);
  const moved = Math.hypot(s.pose[7 * torso] - at.p0[0], s.pose[7 * torso + 1] - at.p0[1]);
  assert.ok(moved > 0.3, `the torso moved with the pointer (${moved.toFixed(2)} m)`);
  assert.ok(s.pose.every(Number.isFinite), 'finite after the drag');
  assert.equal(s.joints.some((j) => j.mouse), false, 'released');

  // Two fingers, one on each lower leg, pulled apart.
  await page.evaluate(() => window.ropelab.reset());
  await waitSteps(page, 5);
  const legs = info.map((b, k) => [b, k]).filter(([b]) => b.shape.type === 'capsule' && b.mass === 4).map(([, k]) => k);
  assert.equal(legs.length, 2, 'two lower legs');
  const a = await bodyOnScreen(page, legs[0]);
  const b = await bodyOnScreen(page, legs[1]);
  const cdp = await context.newCDPSession(page);
  const touch = (type, points) => cdp.send('Input.dispatchTouchEvent', {
    type, touchPoints: points.map(([x, y], id) => ({ x, y, id, radiusX: 2, radiusY: 2, force: 1 })),
  });
  await touch('touchStart', [[a.x, a.y], [b.x, b.y]]);
  await page.evaluate(() => window.ropelab.pause(false));
  for (let k = 1; k <= 15; k++) {
    await touch('touchMove', [[a.x - 6 * k, a.y], [b.x + 6 * k, b.y]]);
    await page.waitForTimeout(20);
  }
  const two = await bodyState(page);
  const heldLegs = two.joints.filter((j) => j.mouse).map((j) => j.b).sort();
  assert.deepEqual(heldLegs, legs.map((k) => info[k].id).sort(), 'each finger holds its leg');
  await touch('touchEnd', []);
  await waitSteps(page, 2);
  assert.equal((await bodyState(page)).joints.some((j) => j.mouse), false, 'both released');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the solver menu switches the wrecking ball to impulse and back', async () => {
  const { context, page, errors } = await openPage(browser, `${base}?scene=wrecking-ball`);
  const options = await page.evaluate(() => [...document.querySelectorAll('#solver option')].map((o) => o.value));
  assert.deepEqual(options, await page.evaluate(() => window.ropelab.Sim.solvers()), 'the menu is Sim.solvers()');
  assert.ok(options.includes('impulse'));
  const start = (await bodyState(page)).solver;
  await page.selectOption('#solver', 'impulse');
  assert.equal((await bodyState(page)).solver, 'impulse');
  await waitSteps(page, 60);
  let s = await bodyState(page);
  assert.equal(s.drawn, 1, 'the ball is drawn under impulse');
  assert.ok(s.pose.every(Number.isFinite));
  assert.match(await page.evaluate(() => document.getElementById('solver-about').textContent), /./);
  await page.selectOption('#solver', start);
  await waitSteps(page, 30);
  s = await bodyState(page);
  assert.equal(s.solver, start);
  assert.ok(s.pose.every(Number.isFinite));
  // Classic cannot take the scene: the sim keeps its solver.
  await page.evaluate(() => window.ropelab.sim.setSolver('classic')).catch(() => {});
  assert.equal((await bodyState(page)).solver, start);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the crane\'s winch slider reels the hook in and pays it out; other scenes have no winch row', async () => {
  const { context, page, errors } = await openPage(browser, `${base}?scene=crane`);
  assert.equal(await page.isVisible('#winch'), true, 'the crane has a winch');
  const hookY = () => bodyState(page).then((s) => s.pose[7 * 2 + 1]);
  const length = () => page.evaluate(() => JSON.parse(window.ropelab.sim.winchesJson())[0].length);
  const slide = (v) => page.evaluate((v) => {
    const el = /** @type {HTMLInputElement} */ (document.getElementById('winch'));
    el.value = v;
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, v);
  await waitSteps(page, 30);
  const [y0, l0] = [await hookY(), await length()];
  await slide('-0.5');
  await waitSteps(page, 60);
  const [y1, l1] = [await hookY(), await length()];
  assert.ok(l0 - l1 > 0.3, `the rope shortened (${l0} → ${l1})`);
  assert.ok(y1 - y0 > 0.2, `the hook rose (${y0} → ${y1})`);
  assert.match(await page.textContent('#winch-out'), /-0\.50 · rope \d\.\d\d m/);
  await slide('0.5');
  await waitSteps(page, 60);
  assert.ok((await length()) > l1 + 0.3, 'paid out again');
  await quiet(page);
  await page.screenshot({ path: join(ARTIFACTS, 'crane-winch.png') });
  await page.selectOption('#preset', 'door');
  await page.waitForFunction(() => window.ropelab.preset === 'door');
  assert.equal(await page.isVisible('#winch'), false, 'the door has no winch');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the comparison runs the bodies under every solver that can, draws them, and drags them', async () => {
  const { context, page, errors } = await openPage(browser, `${base}?scene=wrecking-ball`);
  await page.check('#compare');
  const slots = await page.evaluate(() => window.ropelab.compare.slots.map((s) => s.solver));
  assert.ok(!slots.includes('classic'), 'classic is not ticked for a scene with bodies');
  assert.ok(slots.includes('impulse'), 'impulse is');
  await waitSteps(page, 30);
  const drawn = await page.evaluate(() => window.ropelab.app.renderer.bodiesDrawn);
  assert.equal(drawn, 1, 'the last region drew its ball');
  // Overlaid: grab the ball where every sim has it (paused, at the start) and pull.
  await page.click('[data-layout="overlay"]');
  await page.evaluate(() => window.ropelab.reset());
  const at = await page.evaluate(() => {
    const rl = window.ropelab;
    rl.pause(true);
    const cam = rl.compare.slots[0].camera;
    const sim = rl.compare.slots[0].sim;
    sim.refillBodyPoses(1);
    const p = sim.bodyPoses();
    const [x, y] = cam.toScreen(p[0], p[1] - 0.15);
    const r = document.querySelector('canvas').getBoundingClientRect();
    return { x: r.left + x, y: r.top + y };
  });
  await page.mouse.move(at.x, at.y);
  await page.mouse.down();
  await page.evaluate(() => window.ropelab.pause(false));
  for (let k = 1; k <= 10; k++) {
    await page.mouse.move(at.x - 10 * k, at.y);
    await page.waitForTimeout(16);
  }
  const held = await page.evaluate(() => window.ropelab.compare.slots
    .map((s) => JSON.parse(s.sim.jointsJson()).some((j) => j.mouse)));
  assert.ok(held.every(Boolean), `every sim holds the ball (${held})`);
  await quiet(page);
  await page.screenshot({ path: join(ARTIFACTS, 'bodies-compare-overlay.png') });
  await page.mouse.up();
  const released = await page.evaluate(() => window.ropelab.compare.slots
    .map((s) => JSON.parse(s.sim.jointsJson()).some((j) => j.mouse)));
  assert.ok(released.every((h) => !h), 'released in every sim');
  // A comparison naming classic keeps it, stopped, with the reason.
  await page.evaluate(() => window.ropelab.setCompare('classic,impulse'));
  const rows = await page.evaluate(() => window.ropelab.compare.slots.map((s) => [s.solver, s.error]));
  assert.match(rows[0][1], /not for this scene/);
  assert.equal(rows[1][1], null);
  await waitSteps(page, 10);
  assert.deepEqual(errors, []);
  await context.close();
});
