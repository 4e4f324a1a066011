// Issue 31 §1: every preset that states a number shows it on screen, measured beside the
// prediction (sim.measure(), src/measure.rs; the read-out over the view's top-left), within
// its stated tolerance, on desktop and phone. Atwood's machine, whose story ends when the
// heavy weight lands, starts again by itself until it is touched (its `restart_after`).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkDist } from './serve.mjs';
import { DESKTOP, PHONE, openPage, useBrowser } from './helpers.mjs';
import { REPO } from '../node/built-wasm.mjs';

checkDist();

let browser;
let server;
useBrowser((b, s) => { browser = b; server = s; });

const measured = readdirSync(join(REPO, 'www/scenes'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => [f.slice(0, -5), JSON.parse(readFileSync(join(REPO, 'www/scenes', f), 'utf8'))])
  .filter(([, s]) => s.measure)
  .sort();

/** Steps the paused page `seconds` of scene time at 1/60 s. */
const stepFor = (page, seconds) => page.evaluate((n) => {
  for (let k = 0; k < n; k++) window.ropelab.sim.step(1 / 60);
}, Math.ceil(seconds * 60));

/** The read-out as shown: its text, status and value (readout.js sets them). */
async function shown(page) {
  const el = page.locator('#measure');
  await page.waitForFunction(() => document.querySelector('#measure')?.dataset.status === 'done', null, { timeout: 5000 });
  return {
    visible: await el.isVisible(),
    text: await el.innerText(),
    value: Number(await el.getAttribute('data-value')),
    box: await el.boundingBox(),
  };
}

describe('a preset states its number, measured beside the prediction', () => {
  it('lists the presets that state a number', () => {
    assert.ok(measured.length >= 7, `${measured.length} presets carry a measure`);
  });
  for (const [device, options] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    it(`shows each one within its tolerance (${device})`, { timeout: 180_000 }, async () => {
      const table = [];
      const failed = [];
      for (const [name, scene] of measured) {
        const { context, page, errors } = await openPage(browser, `${server.url}?scene=${name}`, options);
        try {
          await page.evaluate(() => window.ropelab.pause(true));
          await page.waitForFunction(() => !!document.querySelector('#measure')?.textContent, null, { timeout: 5000 });
          const first = await page.locator('#measure').innerText();
          assert.match(first, new RegExp(scene.measure.label.replace(/[()^]/g, '.')), `${name}: the label is up before the window`);
          await stepFor(page, scene.measure.to + 0.05);
          const r = await shown(page);
          const { predicted, tolerance, unit } = scene.measure;
          const err = (r.value - predicted) / predicted;
          table.push(`${name.padEnd(14)} ${device.padEnd(7)} measured ${r.value.toFixed(4)} ${unit} predicted ${predicted} (${(100 * err).toFixed(2)} %, ± ${100 * tolerance} %)`);
          if (!r.visible) failed.push(`${name}: the read-out is hidden`);
          if (!(Math.abs(err) <= tolerance)) failed.push(`${name}: ${r.value} against ${predicted} ± ${100 * tolerance} %`);
          if (!r.text.includes('✓')) failed.push(`${name}: no ✓ in "${r.text}"`);
          if (!r.text.includes(String(predicted).replace(/\.?0+$/, ''))) failed.push(`${name}: the prediction is not shown in "${r.text}"`);
          const vw = options.viewport.width;
          if (r.box && r.box.x + r.box.width > vw) failed.push(`${name}: the read-out runs off the screen (${r.box.x + r.box.width} px of ${vw})`);
          assert.deepEqual(errors, [], `${name}: page errors`);
        } finally {
          await context.close();
        }
      }
      console.log(table.join('\n'));
      assert.deepEqual(failed, []);
    });
  }

  it('voids the reading when the scene is touched in its window, and Reset measures again', async () => {
    const { context, page } = await openPage(browser, `${server.url}?scene=cradle`, DESKTOP);
    try {
      await page.evaluate(() => window.ropelab.pause(true));
      await stepFor(page, 0.5);
      await page.evaluate(() => window.ropelab.sim.setGravity(0, -5, 0));
      await stepFor(page, 2);
      await page.waitForFunction(() => document.querySelector('#measure')?.dataset.status === 'disturbed');
      assert.match(await page.locator('#measure').innerText(), /Reset to measure again/);
      await page.evaluate(() => window.ropelab.reset());
      await page.evaluate(() => window.ropelab.pause(true));
      await stepFor(page, 2.05);
      const r = await shown(page);
      assert.ok(Math.abs(r.value - 3.03) < 0.02 * 3.03, `after Reset: ${r.value}`);
    } finally {
      await context.close();
    }
  });

  it("restarts Atwood's machine when its story has ended, until it is touched", async () => {
    const { context, page } = await openPage(browser, `${server.url}?scene=atwood`, DESKTOP);
    try {
      await page.evaluate(() => window.ropelab.pause(true));
      await stepFor(page, 1.7);
      assert.ok(await page.evaluate(() => window.ropelab.sim.time) >= 1.6);
      await page.evaluate(() => window.ropelab.pause(false));
      await page.waitForFunction(() => window.ropelab.sim.time < 1.0, null, { timeout: 5000 });
      // The last run's reading stays up while the new run waits for its window.
      await page.evaluate(() => window.ropelab.pause(true));
      await page.waitForTimeout(400);
      assert.match(await page.locator('#measure').innerText(), /measured \d/);
      // Touched (a rope point grabbed and let go): it runs on past its restart time.
      await page.evaluate(() => {
        const sim = window.ropelab.sim;
        sim.grab(7, 20);
        sim.step(1 / 60);
        sim.release(7);
        for (let k = 0; k < 110; k++) sim.step(1 / 60);
      });
      await page.evaluate(() => window.ropelab.pause(false));
      await page.waitForTimeout(600);
      assert.ok(await page.evaluate(() => window.ropelab.sim.time) > 1.7, 'a touched scene runs on');
    } finally {
      await context.close();
    }
  });
});
