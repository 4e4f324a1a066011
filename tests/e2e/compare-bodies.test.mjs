// The comparison view on body scenes (issue 31 §2), desktop and phone: each view frames its
// subject (the wrecking ball, the cradle, the pyramid, the wall stay in every solver's
// region while they swing, fall and scatter), the table's figures mean something for bodies
// (energy with the bodies, the bodies' overlap and joint error, no "0 %" stretch for a scene
// without links), and the note that two solvers move exactly alike names only solvers that
// moved (never one stopped or refused by the scene, nor two that have not stepped yet).

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { checkDist } from './serve.mjs';
import { ARTIFACTS, DESKTOP, PHONE, useBrowser } from './helpers.mjs';

checkDist();

let browser;
let server;
useBrowser((b, s) => ([browser, server] = [b, s]));

const BODY_PRESETS = ['wrecking-ball', 'cradle', 'pyramid', 'wall'];
/**
 * The least share of the subject in every view. The wall's top boxes fly over its stop and land
 * up to 12 m away, past its stage, under every solver (pbd flings them farthest): that is its
 * physics, not the framing (tests/e2e/presets-in-view.test.mjs: 82 % on the page), so there the
 * ball has to stay in every view and 75 % of the rest.
 */
const SHARE = { wall: 0.75 };
const share = (name) => SHARE[name] ?? 0.8;

/** Opens `?scene=name`, paused, with compare ticked (the panel's default solvers). */
async function openCompare(page, name, spec = null) {
  await page.goto(`${server.url}?scene=${name}${spec ? `&compare=${spec}` : ''}`);
  await page.waitForFunction(() => window.ropelab?.ready === true, null, { timeout: 15000 });
  await page.evaluate(() => window.ropelab.pause(true));
  if (!spec) {
    // The panel's switch (folded away on a phone: the same call it makes).
    const visible = await page.locator('#compare').isVisible();
    if (visible) await page.check('#compare');
    else await page.evaluate(() => window.ropelab.app.setCompare(window.ropelab.app.comparePanel.defaultSpecs()));
  }
  await page.waitForFunction(() => window.ropelab.compare?.slots.every((s) => s.sim));
}

/**
 * In the page: steps every sim of the comparison `seconds` in half-second hops and returns,
 * per slot, the least share of its free points and dynamic bodies inside its own region's
 * view (the region's camera through its world → screen transform).
 */
function shareInRegions(seconds) {
  const c = window.ropelab.compare;
  const canvas = document.getElementById('view').getBoundingClientRect();
  const worst = c.slots.map(() => 1);
  const balls = c.slots.map(() => 0); // samples with a sphere out of view
  const count = (slot) => {
    const { sim, camera: cam } = slot;
    const vp = cam.viewport;
    const x0 = Math.max(vp.x, 0), y0 = Math.max(vp.y, 0);
    const x1 = Math.min(vp.x + vp.w, canvas.width), y1 = Math.min(vp.y + vp.h, canvas.height);
    const inside = (x, y) => {
      const [px, py] = cam.toScreen(x, y);
      return px >= x0 && px <= x1 && py >= y0 && py <= y1;
    };
    let n = 0, k = 0;
    sim.refreshRender();
    const pos = sim.positions();
    const flags = sim.pointFlags();
    for (let i = 0; 3 * i + 2 < pos.length; i++) {
      if (flags[i] & 1) continue;
      n++;
      if (inside(pos[3 * i], pos[3 * i + 1])) k++;
    }
    const bodies = JSON.parse(sim.bodiesJson());
    sim.refillBodyPoses(1);
    const poses = sim.bodyPoses();
    let ballOut = 0;
    bodies.forEach((b, i) => {
      if (b.kind !== 'dynamic') return;
      n++;
      if (inside(poses[7 * i], poses[7 * i + 1])) k++;
      else if (b.shape.type === 'sphere') ballOut = 1;
    });
    return { share: n ? k / n : 1, ballOut };
  };
  for (let t = 0; t <= seconds * 2; t++) {
    if (t) c.step(30, 1 / 60);
    c.slots.forEach((s, j) => {
      const r = count(s);
      worst[j] = Math.min(worst[j], r.share);
      balls[j] += r.ballOut;
    });
  }
  return c.slots.map((s, j) => ({ solver: s.solver, error: s.error, worst: worst[j], ballOut: balls[j], viewport: s.camera.viewport }));
}

for (const [device, options] of Object.entries({ desktop: DESKTOP, phone: PHONE })) {
  describe(`compare on body scenes, ${device}`, () => {
    let context;
    let page;
    const errors = [];
    before(async () => {
      context = await browser.newContext(options);
      page = await context.newPage();
      page.on('pageerror', (e) => errors.push(e.message));
    });
    after(async () => context?.close());

    for (const name of BODY_PRESETS) {
      it(`${name}: every solver's view keeps its ball and ≥ ${share(name) * 100} % of the subject in it for 5 s`, async () => {
        await openCompare(page, name);
        const r = await page.evaluate(shareInRegions, 5);
        await page.evaluate(() => window.ropelab.app.compare.draw(window.ropelab.app.ui.overlay(), true));
        await page.screenshot({ path: join(ARTIFACTS, `compare-${name}-${device}.png`) });
        const bad = r.filter((s) => !s.error && (s.worst < share(name) || s.ballOut))
          .map((s) => `${s.solver} ${(s.worst * 100).toFixed(0)} %${s.ballOut ? `, a ball out of view in ${s.ballOut} of 11 samples` : ''} (view ${Math.round(s.viewport.w)} × ${Math.round(s.viewport.h)})`);
        assert.deepEqual(bad, [], `${name} on ${device}: solvers whose view loses the subject`);
        assert.deepEqual(errors, []);
      });
    }

    it('pyramid with classic ticked: no "moves exactly as" for the stopped solver, body figures in the table', async () => {
      await openCompare(page, 'pyramid', 'classic,pbd,xpbd,exact,impulse');
      const note0 = await page.evaluate(async () => {
        await window.ropelab.reset(); // every sim at its start (paused: none steps)
        window.ropelab.compare.refreshHud(); return document.querySelector('#compare-hud .same').hidden ? '' : document.querySelector('#compare-hud .same').textContent; });
      assert.equal(note0, '', 'nothing has moved yet: no claim that solvers move alike');
      await page.evaluate(() => { window.ropelab.compare.step(60, 1 / 60); window.ropelab.compare.refreshHud(); });
      const hud = await page.evaluate(() => ({
        note: document.querySelector('#compare-hud .same').textContent,
        head: [...document.querySelectorAll('#compare-hud thead th')].filter((th) => getComputedStyle(th).display !== 'none').map((th) => th.textContent.trim()),
        rows: [...document.querySelectorAll('#compare-hud tbody tr')].map((tr) => ({
          solver: tr.dataset.solver,
          cells: Object.fromEntries([...tr.querySelectorAll('td')].filter((td) => getComputedStyle(td).display !== 'none').map((td) => [td.className.replace('num ', ''), td.textContent.trim()])),
        })),
      }));
      assert.doesNotMatch(hud.note, /\bclassic\b/, `the note names the stopped classic solver: "${hud.note}"`);
      assert.match(hud.note, /pbd/, `the solvers that do move alike are named: "${hud.note}"`);
      assert.ok(hud.head.some((h) => /overlap/.test(h)), `an overlap column: ${hud.head}`);
      for (const r of hud.rows) {
        assert.doesNotMatch(r.cells.stretch ?? '', /^0 %$/, `${r.solver}: no stretch of a scene without links`);
        if (r.solver === 'classic') continue;
        assert.match(r.cells.energy, /^[1-9]\d*\.?\d* J$/, `${r.solver}: the bodies' energy (${r.cells.energy})`);
        assert.match(r.cells.overlap ?? '', /\d+(\.\d+)? (mm|µm|cm)/, `${r.solver}: the bodies' overlap (${JSON.stringify(r.cells)})`);
      }
    });

    it('cradle: the joint error column reads the distance joints', async () => {
      await openCompare(page, 'cradle');
      await page.evaluate(() => { window.ropelab.compare.step(90, 1 / 60); window.ropelab.compare.refreshHud(); });
      const rows = await page.evaluate(() => [...document.querySelectorAll('#compare-hud tbody tr')].map((tr) => ({
        solver: tr.dataset.solver,
        joints: tr.querySelector('.joints')?.textContent ?? null,
      })));
      for (const r of rows) assert.match(r.joints ?? '', /\d+(\.\d+)?(e-\d+)? (mm|µm|cm)/, `${r.solver}: joint error (${r.joints})`);
      assert.deepEqual(errors, []);
    });
  });
}
