// Issue 8, points 2, 3, 7 and 9 (and the preload warning and the stats label): what a new
// user meets in the panel. Each test failed against the page before the fix (noted per test).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkDist, DIST } from './serve.mjs';
import { openPage, useBrowser, waitSteps } from './helpers.mjs';

checkDist();

let browser;
let server;
useBrowser((b, s) => { browser = b; server = s; });

const open = (query = '', options = {}) => openPage(browser, `${server.url}${query}`, { viewport: { width: 1280, height: 800 }, ...options });
const scene = (name) => JSON.parse(readFileSync(join(DIST, 'www/scenes', `${name}.json`), 'utf8'));

describe('new user: panels', () => {
  // Before: every solver was enabled; classic collapsed the dogs and dropped the capstan rope.
  it('the solver menu disables what a scene cannot run, with the reason, and Reset keeps a working solver', async () => {
    const { context, page, errors } = await open('?scene=leash');
    const classic = await page.evaluate(() => {
      const o = document.querySelector('#solver option[value="classic"]');
      return { disabled: o.disabled, title: o.title, about: document.querySelector('#solver-about').textContent };
    });
    assert.equal(classic.disabled, true);
    assert.match(classic.title, /dogs/);
    assert.match(classic.about, /classic is off here/);
    // Forcing it through the API is refused and changes nothing.
    const err = await page.evaluate(() => { try { window.ropelab.sim.setSolver('classic'); return null; } catch (e) { return e.message; } });
    assert.match(err, /classic cannot run this scene/);
    assert.equal(await page.evaluate(() => window.ropelab.sim.solver), 'xpbd');
    await page.click('#reset');
    await waitSteps(page, 120);
    const apart = await page.evaluate(() => {
      const sim = window.ropelab.sim;
      const l = JSON.parse(sim.leash());
      const p = sim.positions();
      const h = l.hand;
      return l.dogs.map((d) => Math.hypot(p[3 * d.point] - p[3 * h], p[3 * d.point + 2] - p[3 * h + 2]));
    });
    for (const d of apart) assert.ok(d > 0.5, `a dog ${d.toFixed(2)} m from the hand`);

    await page.selectOption('#preset', 'capstan');
    await page.waitForFunction(() => window.ropelab.sim.pointCount === 98);
    assert.equal(await page.evaluate(() => document.querySelector('#solver option[value="classic"]').disabled), true);
    // Mass weighting makes the seed's solver able to run it: the option comes back.
    await page.check('#mass-weighted');
    assert.equal(await page.evaluate(() => document.querySelector('#solver option[value="classic"]').disabled), false);
    await page.selectOption('#preset', 'rope');
    await page.waitForFunction(() => window.ropelab.sim.pointCount === 24);
    const disabled = await page.evaluate(() => [...document.querySelectorAll('#solver option')].filter((o) => o.disabled).length);
    assert.equal(disabled, 0, 'every solver runs the rope');
    assert.deepEqual(errors, []);
    await context.close();
  });

  // Before: classic with 3 iterations, links alternating 28.5 % / 0 % stretch (stripes).
  it('the default rope looks like a rope, and the seed-faithful solver is one click away, labelled', async () => {
    const { context, page } = await open();
    assert.equal(await page.evaluate(() => window.ropelab.sim.solver), 'exact');
    await waitSteps(page, 240);
    const stretch = await page.evaluate(() => window.ropelab.sim.maxStretch());
    assert.ok(stretch < 0.005, `max stretch ${stretch}`);
    const label = await page.evaluate(() => document.querySelector('#solver option[value="classic"]').textContent);
    assert.match(label, /002 seed/);
    await page.selectOption('#solver', 'classic');
    assert.equal(await page.evaluate(() => window.ropelab.sim.solver), 'classic');
    assert.match(await page.locator('#solver-about').textContent(), /Verlet rope/);
    // The scene's description is on screen.
    assert.equal(await page.locator('#scene-about').textContent(), scene('rope').description);
    await context.close();
  });

  // Before: 200 fast back-and-forth drags left the classic rope frozen mid-air at 2e9 J, rising.
  it('a violent drag under classic leaves a rope that settles (energy bounded)', async () => {
    const { context, page } = await open();
    await page.selectOption('#solver', 'classic');
    const r = await page.evaluate(() => {
      const app = window.ropelab;
      app.pause(true);
      const sim = app.sim;
      const i = Math.floor(sim.pointCount / 2);
      const y = sim.positions()[3 * i + 1];
      sim.grab(7, i);
      for (let k = 0; k < 200; k++) {
        sim.dragTo(7, k % 2 ? 4.5 : -4.5, y);
        sim.step(1 / 60);
      }
      sim.release(7);
      let early = 0, late = 0;
      for (let t = 0; t < 1200; t++) {
        sim.step(1 / 60);
        if (t >= 60 && t < 360) early += sim.energy() / 300;
        if (t >= 900) late += sim.energy() / 300;
      }
      return { early, late, stretch: sim.maxStretch(), e: sim.energy() };
    });
    assert.ok(r.late <= r.early, `energy grew: ${r.early.toFixed(1)} → ${r.late.toFixed(1)} J`);
    assert.ok(r.e < 1000, `the rope hangs again (${r.e.toFixed(1)} J; at rest ≈ 110 J)`);
    assert.ok(r.stretch < 0.35, `stretch ${r.stretch}`);
    await context.close();
  });

  // Before: no explanation of σ; the resync line said "an event was missed"; Reset turned
  // wander back on; at 800 px tall the braid section pushed the sliders below the fold.
  it('the leash panel explains itself, keeps wander on Reset and leaves the sliders in view', async () => {
    const { context, page } = await open('?scene=leash');
    const notation = await page.locator('.braid-notation').textContent();
    assert.match(notation, /σ1/);
    assert.match(notation, /crossing over/);
    assert.match(notation, /twist/);
    const resync = await page.evaluate(() => window.ropelab.eventText({ type: 'braidResync' }));
    assert.doesNotMatch(resync, /event was missed/);
    assert.match(resync, /swapped faster/);
    await page.uncheck('#wander');
    assert.equal(await page.evaluate(() => window.ropelab.sim.wander), false);
    await page.click('#reset');
    await waitSteps(page, 5);
    assert.equal(await page.evaluate(() => window.ropelab.sim.wander), false, 'Reset keeps wander off');
    assert.equal(await page.isChecked('#wander'), false);
    const box = await page.locator('#iterations').boundingBox();
    assert.ok(box && box.y + box.height <= 800, `iterations slider at y ${box?.y} in an 800 px window`);
    // A tangled word with no crossing drawn says where the twist is.
    const status = await page.evaluate(() => {
      const p = window.ropelab;
      return p.eventText({ type: 'tangleStateChanged', id: 1, state: 'locked' });
    });
    assert.match(status, /friction holds/);
    await context.close();
  });

  // Before: the capstan showed nothing but a rope over a circle; substeps 30 sat on a slider
  // that stopped at 20; descriptions were never shown.
  it('the capstan scene shows load, hold, tensions, wrap, e^μθ and whether it holds', async () => {
    const { context, page } = await open('?scene=capstan');
    await waitSteps(page, 90);
    await page.waitForFunction(() => !document.querySelector('#readout').hidden);
    const text = await page.locator('#readout').innerText();
    assert.match(text, /load 1\.50 kg/);
    assert.match(text, /hold 0\.20 kg/);
    assert.match(text, /wrap θ 18\d°/);
    assert.match(text, /limit eμθ 4\.8\d/);
    assert.match(text, /holds/);
    const t = await page.evaluate(() => JSON.parse(window.ropelab.sim.capstanReport()));
    assert.ok(t.tensionLoad > t.tensionHold, JSON.stringify(t));
    assert.equal(await page.locator('#substeps').inputValue(), '30');
    assert.equal(await page.locator('#substeps-out').textContent(), '30');
    assert.equal(await page.locator('#scene-about').textContent(), scene('capstan').description);
    await page.selectOption('#preset', 'rope');
    await page.waitForFunction(() => window.ropelab.sim.pointCount === 24);
    await waitSteps(page, 5);
    assert.equal(await page.locator('#readout').isHidden(), true, 'no read-out without a wrapped rope');
    await context.close();
  });

  // Before: "integrity attribute is currently ignored for preload" on every load; "cpu / frame"
  // counted JavaScript only but said cpu.
  it('loads without a preload warning and labels the script time honestly', async () => {
    const warnings = [];
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.on('console', (m) => { if (m.type() === 'warning' || m.type() === 'error') warnings.push(m.text()); });
    await page.goto(server.url);
    await page.waitForFunction(() => window.ropelab?.ready === true);
    await waitSteps(page, 30);
    assert.deepEqual(warnings.filter((w) => /integrity/.test(w)), []);
    // The point-flag bits are defined once for the page (www/flags.js) and agree with Rust's.
    const bits = await page.evaluate(async () => {
      const f = await import('./www/flags.js');
      return [JSON.parse(window.ropelab.Sim.pointFlagBits()), { locked: f.FLAG_LOCKED, held: f.FLAG_HELD }];
    });
    assert.deepEqual(bits[0], bits[1]);
    await page.waitForTimeout(300);
    const stats = await page.locator('#stats').innerText();
    assert.match(stats, /script \/ frame/);
    assert.doesNotMatch(stats, /cpu \/ frame/);
    await context.close();
  });
});
