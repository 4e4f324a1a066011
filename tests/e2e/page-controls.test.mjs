// Issue 31 (the playground's part of §2–§4): time controls, the on-screen view buttons, the
// phone layout, tap-to-add bodies with undo, the panel at 1280 × 800 (description, help, edit
// pauses), the comparison's solvers after a preset change and body scenes' numbers, and a
// solver switch mid-run. Each test failed against the page before the change.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { checkDist } from './serve.mjs';
import { ARTIFACTS, DESKTOP, PHONE, openPage, useBrowser, waitSteps } from './helpers.mjs';

checkDist();

let browser;
let server;
useBrowser((b, s) => { browser = b; server = s; });

const open = (query = '', options = DESKTOP) => openPage(browser, `${server.url}${query}`, options);

/** Two-finger touch gesture through CDP: each finger from `a[i]` to `b[i]`, in `n` moves. */
async function pinch(page, a, b, n = 12) {
  const cdp = await page.context().newCDPSession(page);
  const at = (t) => a.map((p, i) => ({ x: p[0] + (b[i][0] - p[0]) * t, y: p[1] + (b[i][1] - p[1]) * t, id: i + 1 }));
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(0).slice(0, 1) });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(0) });
  for (let i = 1; i <= n; i++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(i / n) });
    await page.waitForTimeout(16);
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

/**
 * The share of the free particles and dynamic bodies drawn inside the canvas and outside the
 * panel's box (the camera's viewport).
 */
const inView = (page) => page.evaluate(() => {
  const r = window.ropelab;
  const sim = r.sim;
  const v = r.camera.viewport;
  const pts = [];
  const p = sim.positions();
  const flags = sim.pointFlags();
  for (let i = 0; i < sim.pointCount; i++) if (!(flags[i] & 1)) pts.push([p[3 * i], p[3 * i + (sim.view === 'top' ? 2 : 1)]]);
  if (sim.bodyCount) {
    const info = JSON.parse(sim.bodiesJson());
    sim.refillBodyPoses(1);
    const poses = sim.bodyPoses();
    info.forEach((b, i) => { if (b.kind === 'dynamic') pts.push([poses[7 * i], poses[7 * i + 1]]); });
  }
  const inside = pts.filter(([x, y]) => {
    const [px, py] = r.toScreen(x, y);
    return px >= v.x && px <= v.x + v.w && py >= v.y && py <= v.y + v.h;
  }).length;
  return inside / Math.max(pts.length, 1);
});

describe('issue 31: the page', () => {
  // Before: no time scale at all (only pause and step).
  it('slow motion runs fewer fixed steps per second, the same steps; Step advances one while paused', async () => {
    const { context, page, errors } = await open();
    await page.click('[data-scale="0.1"]');
    assert.equal(await page.evaluate(() => window.ropelab.timeScale), 0.1);
    assert.equal(await page.getAttribute('[data-scale="0.1"]', 'aria-checked'), 'true');
    assert.equal(await page.isVisible('#slowmo'), true, 'the view says it is slowed');
    const rate = async () => {
      const t0 = await page.evaluate(() => [window.ropelab.stats.steps, performance.now()]);
      await page.waitForTimeout(1500);
      const t1 = await page.evaluate(() => [window.ropelab.stats.steps, performance.now()]);
      return (t1[0] - t0[0]) / ((t1[1] - t0[1]) / 1000);
    };
    const slow = await rate();
    assert.ok(slow > 2 && slow < 12, `${slow.toFixed(1)} steps/s at 1/10 (60 at real time)`);
    await page.keyboard.press(']');
    assert.equal(await page.evaluate(() => window.ropelab.timeScale), 0.25, '] is one step faster');
    await page.keyboard.press('[');
    await page.keyboard.press('[');
    assert.equal(await page.evaluate(() => window.ropelab.timeScale), 0.1, '[ is one step slower, down to 1/10');
    // The slowed run is the real-time run: a fresh sim stepped as many times by H matches it bit for bit.
    const same = await page.evaluate(async () => {
      const r = window.ropelab;
      r.pause(true);
      const sim = r.sim;
      const n = Math.round(sim.time / r.H);
      const fresh = new r.Sim();
      fresh.loadScene(r.scene.text);
      for (let i = 0; i < n; i++) fresh.step(r.H);
      const a = Array.from(sim.positions()), b = Array.from(fresh.positions());
      fresh.free();
      return { n, equal: a.length === b.length && a.every((v, i) => Object.is(v, b[i])), dt: sim.time - n * r.H };
    });
    assert.ok(same.n > 5, `${same.n} steps ran`);
    assert.ok(same.equal, 'the slowed run matches plain steps of H');
    assert.ok(Math.abs(same.dt) < 1e-4, 'the time is a whole number of steps (f32)');
    const t0 = await page.evaluate(() => window.ropelab.sim.time);
    await page.click('#step');
    await page.waitForFunction((t) => window.ropelab.sim.time > t, t0, { polling: 16 });
    await page.waitForTimeout(300); // (and no more steps follow)
    const t1 = await page.evaluate(() => window.ropelab.sim.time);
    assert.ok(Math.abs(t1 - t0 - 1 / 60) < 1e-5, `Step advanced ${t1 - t0} s`);
    assert.deepEqual(errors, []);
    await context.close();
  });

  // Before: on touch only Reset refitted the view; a pinch could lose the scene for good.
  it('phone: a pinch that loses the scene, then Fit brings it back; + and − zoom', async () => {
    const { context, page, errors } = await open('', PHONE);
    await page.evaluate(() => window.ropelab.pause(true));
    // Two fingers close together on empty space near the top, spread far apart: zoomed far in
    // on empty space, the rope is off-screen.
    await pinch(page, [[300, 100], [320, 100]], [[240, 20], [385, 780]]);
    await page.waitForTimeout(100);
    const lost = await inView(page);
    assert.ok(lost < 0.5, `the pinch moved the scene away (${(100 * lost).toFixed(0)} % in view)`);
    await page.tap('#fit');
    assert.equal(await page.evaluate(() => window.ropelab.camera.zoom), 1);
    const back = await inView(page);
    assert.equal(back, 1, `after Fit ${(100 * back).toFixed(0)} % of the points are in view`);
    await page.tap('#zoom-in');
    const zin = await page.evaluate(() => window.ropelab.camera.zoom);
    assert.ok(zin > 1.2, `zoomed in to ${zin}`);
    await page.tap('#zoom-out');
    await page.tap('#zoom-out');
    const zout = await page.evaluate(() => window.ropelab.camera.zoom);
    assert.ok(zout < 1, `zoomed out to ${zout}`);
    for (const id of ['fit', 'zoom-in', 'zoom-out', 'undo', 'help-button']) {
      const b = await page.locator(`#${id}`).boundingBox();
      assert.ok(b.width >= 44 && b.height >= 44, `#${id} is ${b.width}×${b.height} px`);
    }
    await page.screenshot({ path: join(ARTIFACTS, 'issue31-phone-fit.png') });
    assert.deepEqual(errors, []);
    await context.close();
  });

  // Before: a tap on empty space did nothing in the body scenes.
  it('a tap on empty space drops a box (or a ball) in a body scene; Ctrl+Z and ↶ undo it', async () => {
    const { context, page, errors } = await open('?scene=pyramid');
    assert.equal(await page.isVisible('#add-row'), true);
    const count = () => page.evaluate(() => window.ropelab.sim.bodyCount);
    const n0 = await count();
    const [px, py] = await page.evaluate(() => window.ropelab.toScreen(-6, 8));
    await page.mouse.click(px, py);
    assert.equal(await count(), n0 + 1, 'a click added a body');
    const added = await page.evaluate(() => JSON.parse(window.ropelab.sim.bodiesJson()).at(-1));
    assert.equal(added.kind, 'dynamic');
    assert.equal(added.shape.type, 'box');
    await waitSteps(page, 30);
    await page.keyboard.press('Control+z');
    assert.equal(await count(), n0, 'Ctrl+Z took it back');
    await page.click('[data-add="ball"]');
    await page.mouse.click(px, py);
    assert.equal(await page.evaluate(() => JSON.parse(window.ropelab.sim.bodiesJson()).at(-1).shape.type), 'sphere');
    await page.click('#undo');
    assert.equal(await count(), n0, 'the ↶ button took it back');
    await page.click('[data-add="none"]');
    await page.mouse.click(px, py);
    assert.equal(await count(), n0, 'off: a click adds nothing');
    // A rope scene: a click on empty space adds nothing, and the row is not offered.
    await page.selectOption('#preset', 'rope');
    await page.waitForFunction(() => window.ropelab.preset === 'rope');
    assert.equal(await page.isVisible('#add-row'), false);
    assert.deepEqual(errors, []);
    await context.close();

    // On a phone, a tap.
    const phone = await open('?scene=wall', PHONE);
    const m0 = await phone.page.evaluate(() => window.ropelab.sim.bodyCount);
    const [qx, qy] = await phone.page.evaluate(() => {
      const v = window.ropelab.camera.viewport;
      return [v.x + v.w * 0.5, v.y + v.h * 0.15];
    });
    await phone.page.touchscreen.tap(qx, qy);
    assert.equal(await phone.page.evaluate(() => window.ropelab.sim.bodyCount), m0 + 1, 'a tap added a body');
    await phone.page.tap('#undo');
    assert.equal(await phone.page.evaluate(() => window.ropelab.sim.bodyCount), m0);
    assert.deepEqual(phone.errors, []);
    await phone.context.close();
  });

  // Before: body scenes showed "points · links 0 · 0" and the hint "drag the points".
  it('a body-only scene counts bodies and says to drag them', async () => {
    const { context, page } = await open('?scene=hinge-chain');
    await waitSteps(page, 30);
    await page.waitForTimeout(300);
    const stats = await page.locator('#stats').innerText();
    assert.doesNotMatch(stats, /points · links/);
    assert.match(stats, /bodies · joints\s+\d+ · \d+/);
    const energy = await page.evaluate(() => window.ropelab.sim.energy());
    assert.ok(Math.abs(energy) > 0.01, `energy ${energy} J`);
    assert.match(await page.locator('#hint').innerText(), /Drag a body/);
    assert.doesNotMatch(await page.locator('#status').innerText(), /drag the points/);
    await context.close();
  });
});
