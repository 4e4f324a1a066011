// Issue 31 (the playground's part of §2 and §4): the panel at 1280 × 800 (what is above the
// fold, the description's "more", the help overlay, Edit mode pausing), the phone's portrait
// layout, the comparison's solvers after a preset change, and a solver switch mid-run. Each
// test failed against the page before the change.

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

/** Whether `sel`'s box lies inside the panel's visible box (no scrolling needed). */
const aboveFold = (page, sel) => page.evaluate((s) => {
  const el = document.querySelector(s);
  const body = document.querySelector('#panel .body');
  if (!el) return false;
  const r = el.getBoundingClientRect();
  const p = body.getBoundingClientRect();
  return body.scrollTop === 0 && r.height > 0 && r.top >= p.top && r.bottom <= p.bottom && r.bottom <= innerHeight;
}, sel);

describe('issue 31: the panel', () => {
  // Before: the frame / script / physics rows sat below the fold at 1280 × 800.
  it('1280 × 800: the numbers through "physics / step" are in view without scrolling', async () => {
    for (const scene of ['rope', 'leash', 'wrecking-ball']) {
      const { context, page } = await open(`?scene=${scene}`);
      await waitSteps(page, 30);
      await page.waitForTimeout(300);
      assert.ok(await aboveFold(page, '#stage-toggle'), `${scene}: "physics / step" is above the fold`);
      assert.ok(await aboveFold(page, '#iterations'), `${scene}: the iterations slider is above the fold`);
      await page.screenshot({ path: join(ARTIFACTS, `issue31-panel-${scene}.png`) });
      await context.close();
    }
  });

  // Before: a description cut to three lines with "…" and nothing saying a click opens it.
  it('a cut description has a "more" button that opens it whole', async () => {
    const { context, page } = await open('?scene=pyramid');
    const h0 = await page.evaluate(() => document.getElementById('scene-about').clientHeight);
    assert.equal(await page.isVisible('#about-more'), true, '"more" is shown');
    assert.match(await page.locator('#about-more').innerText(), /more/);
    await page.click('#about-more');
    const h1 = await page.evaluate(() => document.getElementById('scene-about').clientHeight);
    assert.ok(h1 > h0 + 10, `the text opened: ${h0} → ${h1} px`);
    assert.match(await page.locator('#about-more').innerText(), /less/);
    assert.equal(await page.getAttribute('#about-more', 'aria-expanded'), 'true');
    await context.close();
  });

  // Before: the keys were listed nowhere on screen.
  it('? and the ? button open a list of the keys', async () => {
    const { context, page } = await open();
    assert.equal(await page.isVisible('#help-dialog'), false);
    await page.keyboard.press('?');
    assert.equal(await page.isVisible('#help-dialog'), true, '? opens the help');
    const text = await page.locator('#help-keys').innerText();
    for (const k of ['Ctrl+Z', 'Space', '0', 'Esc', '[', 'H']) assert.ok(text.includes(k), `the list names ${k}`);
    await page.screenshot({ path: join(ARTIFACTS, 'issue31-help.png') });
    await page.keyboard.press('Escape');
    assert.equal(await page.isVisible('#help-dialog'), false, 'Esc closes it');
    await page.click('#help-button');
    assert.equal(await page.isVisible('#help-dialog'), true, 'the ? button opens it');
    await page.click('#help-close');
    assert.equal(await page.isVisible('#help-dialog'), false);
    await context.close();
  });

  // Before: points added in Edit mode fell at once (the sim kept running).
  it('Edit mode pauses while editing and leaving it runs the scene again', async () => {
    const { context, page } = await open();
    await waitSteps(page, 10);
    await page.keyboard.press('e');
    assert.equal(await page.evaluate(() => window.ropelab.paused), true, 'Edit mode paused');
    const n = await page.evaluate(() => window.ropelab.sim.pointCount);
    await page.mouse.click(80, 150);
    assert.equal(await page.evaluate(() => window.ropelab.sim.pointCount), n + 1);
    const y0 = await page.evaluate((i) => window.ropelab.sim.positions()[3 * i + 1], n);
    await page.waitForTimeout(500);
    const y1 = await page.evaluate((i) => window.ropelab.sim.positions()[3 * i + 1], n);
    assert.equal(y1, y0, 'the new point stays where it was put');
    await page.keyboard.press('d');
    assert.equal(await page.evaluate(() => window.ropelab.paused), false, 'leaving Edit mode runs again');
    // Paused before: leaving Edit mode keeps it paused.
    await page.keyboard.press(' ');
    await page.keyboard.press('e');
    await page.keyboard.press('d');
    assert.equal(await page.evaluate(() => window.ropelab.paused), true, 'paused before, paused after');
    await context.close();
  });

  // Before: the rope's frame drawn in the middle third of a portrait phone (fitted to the
  // walls' width), and the scenes without walls fitted by height alone, cutting the leash's
  // first dog and the pyramid's sides.
  it('phone portrait, panel folded: the view gets the height, the rope 60 % of it, every subject whole', async () => {
    for (const scene of ['rope', 'leash', 'pyramid', 'wall', 'crane']) {
      const { context, page } = await open(`?scene=${scene}`, PHONE);
      await page.evaluate(() => { window.ropelab.pause(true); window.ropelab.reset(); });
      await page.waitForTimeout(100);
      const m = await page.evaluate(() => {
        const r = window.ropelab;
        const c = r.camera;
        const H = document.getElementById('view').clientHeight;
        const v = c.viewport;
        const sim = r.sim;
        const pts = [];
        const p = sim.positions();
        for (let i = 0; i < sim.pointCount; i++) pts.push([p[3 * i], p[3 * i + (sim.view === 'top' ? 2 : 1)]]);
        if (sim.bodyCount) {
          const info = JSON.parse(sim.bodiesJson());
          sim.refillBodyPoses(1);
          const poses = sim.bodyPoses();
          info.forEach((b, i) => { if (b.kind === 'dynamic') pts.push([poses[7 * i], poses[7 * i + 1]]); });
        }
        const out = pts.map(([x, y]) => r.toScreen(x, y)).filter(([px, py]) => px < v.x || px > v.x + v.w || py < v.y || py > v.y + v.h);
        return { share: (c.frame.height * c.scale) / H, viewport: v.h / H, out: out.length, of: pts.length };
      });
      assert.ok(m.viewport >= 0.85, `${scene}: the folded panel leaves ${(100 * m.viewport).toFixed(0)} % of the height`);
      assert.equal(m.out, 0, `${scene}: ${m.out} of ${m.of} points and bodies outside the view`);
      if (scene === 'rope') assert.ok(m.share >= 0.6, `rope: the scene's frame is ${(100 * m.share).toFixed(0)} % of the height`);
      await page.screenshot({ path: join(ARTIFACTS, `issue31-phone-${scene}.png`) });
      await context.close();
    }
  });

  // Before: rope → compare → wrecking-ball kept the rope's solvers (classic "stopped", no impulse).
  it('a preset chosen while comparing gets the solvers compare would give it', async () => {
    const direct = await open('?scene=wrecking-ball');
    await direct.page.check('#compare');
    await direct.page.waitForFunction(() => !!window.ropelab.compare);
    const want = await direct.page.evaluate(() => new URLSearchParams(location.search).get('compare'));
    await direct.context.close();

    const { context, page, errors } = await open('?scene=rope');
    await page.check('#compare');
    await page.waitForFunction(() => !!window.ropelab.compare);
    await page.selectOption('#preset', 'wrecking-ball');
    await page.waitForFunction(() => window.ropelab.preset === 'wrecking-ball');
    const got = await page.evaluate(() => new URLSearchParams(location.search).get('compare'));
    assert.equal(got, want, 'the same solver set either way');
    assert.match(got, /impulse/);
    const failed = await page.evaluate(() => window.ropelab.compare.slots.filter((s) => s.error).map((s) => s.solver));
    assert.deepEqual(failed, [], 'no solver stopped');
    const checked = await page.evaluate(() => [...document.querySelectorAll('#compare-solvers input:checked')].map((c) => c.value).join(','));
    assert.equal(checked, got.split(',').map((s) => s.split(':')[0]).join(','), 'the checkboxes follow');
    assert.deepEqual(errors, []);
    await context.close();
  });

  // Before: the capstan rope fell within 1.5 s of a switch from xpbd to exact after 3 s, and
  // nothing said why.
  it('capstan: a switch from xpbd to exact after 3 s restarts the scene under exact, says so, and the rope holds', async () => {
    const { context, page, errors } = await open('?scene=capstan');
    assert.equal(await page.evaluate(() => window.ropelab.sim.solver), 'xpbd');
    await page.waitForFunction(() => window.ropelab.sim.time >= 3, null, { timeout: 30000, polling: 50 });
    const before = await page.evaluate(() => JSON.parse(window.ropelab.sim.capstanReport()));
    assert.ok(before?.holds, 'holds under xpbd');
    await page.selectOption('#solver', 'exact');
    await page.waitForFunction(() => window.ropelab.sim.solver === 'exact' && window.ropelab.sim.time < 1);
    assert.match(await page.locator('#status').innerText(), /solver exact: the scene restarted under it/);
    await page.waitForFunction(() => window.ropelab.sim.time >= 2, null, { timeout: 30000, polling: 50 });
    const after = await page.evaluate(() => JSON.parse(window.ropelab.sim.capstanReport()));
    assert.ok(after, 'the read-out is still there (the rope lies on the bollard)');
    assert.ok(after.holds, `holds under exact: ${JSON.stringify(after)}`);
    assert.equal(await page.inputValue('#solver'), 'exact');
    // Ctrl+Z goes back to the xpbd run as it was.
    await page.keyboard.press('Control+z');
    assert.equal(await page.evaluate(() => window.ropelab.sim.solver), 'xpbd');
    assert.ok(await page.evaluate(() => window.ropelab.sim.time) >= 3);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
