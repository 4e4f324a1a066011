// Rigid bodies on the page (issue 10 §5): the body presets load, bodies and joints are
// drawn, a body is dragged with the pointer through its mouse joint, and the impulse solver
// runs them; screenshots in tests/e2e/artifacts.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { ARTIFACTS, openPage, useBrowser, waitSteps } from './helpers.mjs';

let browser;
let base;
useBrowser((b, s) => { browser = b; base = s.url; });

/** The ball's pose and the number of bodies the renderer drew last frame. */
const bodyState = (page) => page.evaluate(() => {
  const sim = window.ropelab.sim;
  sim.refillBodyPoses(1);
  const p = Array.from(sim.bodyPoses());
  return { count: sim.bodyCount, drawn: window.ropelab.app.renderer.bodiesDrawn, pose: p };
});

for (const name of ['wrecking-ball', 'hinge-chain', 'door', 'ragdoll', 'crane']) {
  test(`the ${name} preset plays and draws its bodies`, async () => {
    const { context, page, errors } = await openPage(browser, `${base}?scene=${name}`);
    await waitSteps(page, 90);
    const s = await bodyState(page);
    assert.ok(s.count > 0, `${name}: no bodies`);
    assert.equal(s.drawn, s.count, `${name}: the renderer drew every body`);
    assert.ok(s.pose.every(Number.isFinite), `${name}: non-finite pose`);
    await page.screenshot({ path: join(ARTIFACTS, `bodies-${name}.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('a new user drags the wrecking ball and the ragdoll', async () => {
  const { context, page, errors } = await openPage(browser, `${base}?scene=wrecking-ball`);
  // Pause so the ball stays where it starts, then find it on screen.
  const at = await page.evaluate(() => {
    const rl = window.ropelab;
    rl.pause(true);
    const sim = rl.sim;
    sim.refillBodyPoses(1);
    const p = Array.from(sim.bodyPoses());
    const [x, y] = rl.toScreen(p[0], p[1]);
    const r = document.querySelector('canvas').getBoundingClientRect();
    return { x: r.left + x, y: r.top + y, p0: [p[0], p[1]] };
  });
  await page.mouse.move(at.x, at.y);
  await page.evaluate(() => window.ropelab.pause(false));
  await page.mouse.down();
  for (let k = 1; k <= 20; k++) {
    await page.mouse.move(at.x - 8 * k, at.y - 4 * k);
    await page.waitForTimeout(16);
  }
  await waitSteps(page, 20);
  const held = await page.evaluate(() => JSON.parse(window.ropelab.sim.jointsJson()).some((j) => j.mouse));
  assert.ok(held, 'a mouse joint holds the ball while dragging');
  await page.screenshot({ path: join(ARTIFACTS, 'bodies-drag.png') });
  await page.mouse.up();
  const after = await page.evaluate(() => JSON.parse(window.ropelab.sim.jointsJson()).some((j) => j.mouse));
  assert.equal(after, false, 'released');
  const s = await bodyState(page);
  const moved = Math.hypot(s.pose[0] - at.p0[0], s.pose[1] - at.p0[1]);
  assert.ok(moved > 0.3, `the ball moved with the pointer (${moved.toFixed(2)} m)`);
  assert.deepEqual(errors, []);
  await context.close();
});
