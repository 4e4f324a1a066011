// <rope-lab time-scale> (issue 31 §3): slow motion in an embed. The steps stay 1/60 s and
// fewer of them are taken per second, so an embed at 0.25 runs a quarter as many steps as one
// at 1 in the same time, and after N steps its world is bit for bit a fresh Sim's after N
// steps of 1/60 s. A value out of 0.1–1 is refused with a message (the embed runs at 1); the
// property reflects the attribute.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkDist } from './serve.mjs';
import { useBrowser } from './helpers.mjs';

checkDist();

let browser;
let server;
useBrowser((b, s) => ([browser, server] = [b, s]));

/** The blog page with its body replaced by `html`; waits until every embed has a sim. */
async function embeds(html) {
  const context = await browser.newContext({ viewport: { width: 900, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  await page.goto(`${server.url}www/embed-demo.html`);
  await page.evaluate((h) => { document.body.innerHTML = h; }, html);
  await page.waitForFunction(() => [...document.querySelectorAll('rope-lab')].every((e) => e.sim && e.steps > 0), null, { timeout: 15000 });
  return { context, page, errors };
}

describe('time-scale', () => {
  it('0.25 takes a quarter of the steps per second, each of 1/60 s: the same states as at 1, bit for bit', async () => {
    const { context, page, errors } = await embeds(
      '<rope-lab id="slow" scene="bridge" time-scale="0.25" style="width:420px;display:inline-block"></rope-lab>'
      + '<rope-lab id="real" scene="bridge" style="width:420px;display:inline-block"></rope-lab>');
    try {
      const steps = () => page.evaluate(() => ['slow', 'real'].map((id) => document.getElementById(id).steps));
      const s0 = await steps();
      await page.waitForTimeout(2000);
      const s1 = await steps();
      const [slow, real] = [s1[0] - s0[0], s1[1] - s0[1]];
      console.log(`time-scale 0.25: ${slow} steps in 2 s beside ${real} at 1 (ratio ${(slow / real).toFixed(3)})`);
      assert.ok(real > 60, `the embed at 1 runs (${real} steps in 2 s)`);
      assert.ok(Math.abs(slow / real - 0.25) < 0.04, `a quarter as many steps (${slow} vs ${real})`);

      const same = await page.evaluate(async () => {
        const el = document.getElementById('slow');
        el.pause();
        const n = el.steps;
        const got = Array.from(el.sim.positions());
        const { loadWasm, sceneText } = await import('/pkg/rope-lab.js');
        const Sim = await loadWasm(0);
        const sim = new Sim();
        sim.loadScene(await sceneText('bridge'));
        for (let k = 0; k < n; k++) sim.step(1 / 60);
        const want = Array.from(sim.positions());
        sim.free();
        return { n, length: got.length, differ: got.filter((v, i) => !Object.is(v, want[i])).length, timeScale: el.timeScale, h: el.clock.h };
      });
      assert.equal(same.timeScale, 0.25);
      assert.equal(same.h, 1 / 60, 'the step stays 1/60 s');
      assert.ok(same.n > 20 && same.length > 0, JSON.stringify(same));
      assert.equal(same.differ, 0, `after ${same.n} steps at 0.25 the world equals a fresh Sim's after ${same.n} steps of 1/60 s`);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  it('is live and reflected; a value out of 0.1–1 says so and runs at 1', async () => {
    const { context, page, errors } = await embeds('<rope-lab id="e" scene="rope"></rope-lab>');
    try {
      const got = await page.evaluate(async () => {
        const el = document.getElementById('e');
        const msg = () => el.shadowRoot.querySelector('.msg').textContent;
        const out = { initial: el.timeScale };
        el.timeScale = 0.5;
        out.attr = el.getAttribute('time-scale');
        out.half = el.timeScale;
        const rate = async () => {
          const s0 = el.steps;
          await new Promise((ok) => setTimeout(ok, 1000));
          return el.steps - s0;
        };
        out.halfRate = await rate();
        const events = [];
        el.addEventListener('error', (e) => events.push(e.detail));
        el.setAttribute('time-scale', '3');
        out.bad = { value: el.timeScale, msg: msg(), events };
        out.badRate = await rate();
        el.removeAttribute('time-scale');
        out.removed = el.timeScale;
        return out;
      });
      console.log(`time-scale live: 0.5 → ${got.halfRate} steps/s; "3" refused → ${got.badRate} steps/s; ${got.bad.msg}`);
      assert.equal(got.initial, 1);
      assert.equal(got.attr, '0.5');
      assert.equal(got.half, 0.5);
      assert.ok(got.halfRate > 20 && got.halfRate < 40, `about 30 steps a second at 0.5 (${got.halfRate})`);
      assert.equal(got.bad.value, 1);
      assert.match(got.bad.msg, /time-scale "3": expected a number from 0\.1 to 1/);
      assert.equal(got.bad.events.length, 1, 'one error event');
      assert.ok(got.badRate > 45, `runs at 1 (${got.badRate} steps/s)`);
      assert.equal(got.removed, 1);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});
