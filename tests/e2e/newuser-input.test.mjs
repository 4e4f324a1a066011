// Issue 8, points 1, 5, 6, 8 and 10 (and undo, slider names): input, embeds, phones and the
// comparison as a new user meets them. Each test failed against the page before the fix.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkDist } from './serve.mjs';
import { openPage, useBrowser, waitSteps } from './helpers.mjs';

checkDist();

let browser;
let server;
useBrowser((b, s) => { browser = b; server = s; });

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 };

/** A long blog page with the playground embedded (`query`) near its top. */
async function hostPage(query, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1000, height: 700 }, ...options });
  const page = await context.newPage();
  const src = `${server.url}${query}`;
  await page.setContent(`<!doctype html><body style="margin:0">
    <p style="height:100px">A blog post.</p>
    <iframe id="embed" src="${src}" style="width:640px;height:400px;border:0;display:block"></iframe>
    <p style="height:3000px">More text.</p></body>`);
  const frame = await (await page.$('#embed')).contentFrame();
  await frame.waitForFunction(() => window.ropelab?.ready === true, null, { timeout: 15000 });
  return { context, page, frame };
}

/** Frame-local CSS px of world point (x, y), as page coordinates. */
async function frameToPage(page, frame, x, y) {
  const box = await (await page.$('#embed')).boundingBox();
  const [px, py] = await frame.evaluate(([x, y]) => window.ropelab.toScreen(x, y), [x, y]);
  return [box.x + px, box.y + py];
}

async function touchSwipe(page, from, to, n = 10) {
  const cdp = await page.context().newCDPSession(page);
  const pt = (p) => [{ x: p[0], y: p[1], id: 1 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: pt(from) });
  for (let i = 1; i <= n; i++) {
    const t = i / n;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: pt([from[0] + (to[0] - from[0]) * t, from[1] + (to[1] - from[1]) * t]) });
    await page.waitForTimeout(16);
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

describe('new user: input, embeds, phones, comparison', () => {
  // Before: the wheel zoomed the embed and the page did not scroll.
  it('an embed lets the page scroll under the wheel; ctrl+wheel zooms', async () => {
    const { context, page, frame } = await hostPage('?embed=1');
    const box = await (await page.$('#embed')).boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const zoom0 = await frame.evaluate(() => window.ropelab.camera.zoom);
    await page.mouse.wheel(0, 400);
    await page.waitForTimeout(300);
    assert.ok(await page.evaluate(() => window.scrollY) > 100, 'the host page scrolled');
    assert.equal(await frame.evaluate(() => window.ropelab.camera.zoom), zoom0, 'the sim did not zoom');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -200);
    await page.keyboard.up('Control');
    await page.waitForTimeout(200);
    assert.notEqual(await frame.evaluate(() => window.ropelab.camera.zoom), zoom0, 'ctrl+wheel zooms');
    await context.close();
  });

  // Before: a one-finger swipe from empty space cut the rope inside an embed.
  it('a one-finger swipe on empty space in an embed does not cut; a touch on a point drags it', async () => {
    const { context, page, frame } = await hostPage('?embed=1', { hasTouch: true, isMobile: true, viewport: { width: 700, height: 700 } });
    await frame.evaluate(() => window.ropelab.pause(true));
    const links0 = await frame.evaluate(() => window.ropelab.sim.linkCount);
    const s = await frame.evaluate(() => Array.from(window.ropelab.sim.positions()));
    // Across the link between points 8 and 9, from 0.8 m to its right to 0.8 m to its left.
    const mx = (s[24] + s[27]) / 2, my = (s[25] + s[28]) / 2;
    const from = await frameToPage(page, frame, mx + 0.8, my + 0.1);
    const to = await frameToPage(page, frame, mx - 0.8, my - 0.1);
    await touchSwipe(page, from, to);
    await page.waitForTimeout(100);
    assert.equal(await frame.evaluate(() => window.ropelab.sim.linkCount), links0, 'no link was cut');
    // A touch that starts on a point still drags it.
    const last = await frame.evaluate(() => window.ropelab.sim.pointCount - 1);
    const p = await frame.evaluate((i) => Array.from(window.ropelab.sim.positions()).slice(3 * i, 3 * i + 2), last);
    await frame.evaluate(() => window.ropelab.pause(false));
    await touchSwipe(page, await frameToPage(page, frame, p[0], p[1]), await frameToPage(page, frame, p[0] + 1, p[1] + 0.5));
    const q = await frame.evaluate((i) => Array.from(window.ropelab.sim.positions()).slice(3 * i, 3 * i + 2), last);
    assert.ok(Math.hypot(q[0] - p[0], q[1] - p[1]) > 0.3, `the end point was dragged (${p} → ${q})`);
    await context.close();
  });

  // Before: off-screen embeds kept running at 60 fps.
  it('an embed scrolled off-screen stops stepping and resumes where it was', async () => {
    const { context, page, frame } = await hostPage('?embed=1');
    await waitSteps(frame, 10);
    await page.evaluate(() => window.scrollTo(0, 2000));
    // (Polled by timer: an off-screen frame gets no animation frames, which is the point.)
    await frame.waitForFunction(() => window.ropelab.visible === false, null, { polling: 100 });
    const s0 = await frame.evaluate(() => window.ropelab.stats.steps);
    const t0 = await frame.evaluate(() => window.ropelab.sim.time);
    await page.waitForTimeout(600);
    assert.equal(await frame.evaluate(() => window.ropelab.stats.steps), s0, 'no steps while off-screen');
    await page.evaluate(() => window.scrollTo(0, 0));
    await frame.waitForFunction(() => window.ropelab.visible === true, null, { polling: 100 });
    await waitSteps(frame, 5);
    const t1 = await frame.evaluate(() => window.ropelab.sim.time);
    assert.ok(t1 - t0 < 0.4, `resumed where it was: ${t0.toFixed(3)} → ${t1.toFixed(3)} s`);
    await context.close();
  });

  // Before: at normal zoom the 20 px point pick covered whole links, so a click picked a point.
  it('edit mode subdivides a link clicked at its middle, at the default zoom', async () => {
    const { context, page } = await openPage(browser, server.url);
    await waitSteps(page, 60);
    await page.evaluate(() => { window.ropelab.pause(true); window.ropelab.setMode('edit'); });
    const n0 = await page.evaluate(() => window.ropelab.sim.pointCount);
    const [a, b, len] = await page.evaluate(() => {
      const p = window.ropelab.sim.positions();
      const A = window.ropelab.toScreen(p[30], p[31]), B = window.ropelab.toScreen(p[33], p[34]);
      return [A, B, Math.hypot(B[0] - A[0], B[1] - A[1])];
    });
    assert.ok(len < 40, `links are short on screen (${len.toFixed(1)} px)`);
    await page.mouse.click((a[0] + b[0]) / 2, (a[1] + b[1]) / 2);
    const per = Number(await page.locator('#subdiv').inputValue());
    assert.equal(await page.evaluate(() => window.ropelab.sim.pointCount), n0 + per, 'the link was subdivided');
    // Undo (Ctrl+Z) takes it back; a click right on a point selects it instead.
    await page.keyboard.press('Control+z');
    assert.equal(await page.evaluate(() => window.ropelab.sim.pointCount), n0);
    await page.mouse.click(a[0], a[1]);
    assert.equal(await page.evaluate(() => window.ropelab.sim.pointCount), n0, 'a click on a point does not subdivide');
    await context.close();
  });

  // Before: Ctrl+Z did nothing.
  it('Ctrl+Z undoes a cut and an added point; Ctrl+Shift+Z redoes', async () => {
    const { context, page } = await openPage(browser, server.url);
    await waitSteps(page, 60);
    await page.evaluate(() => window.ropelab.pause(true));
    const links0 = await page.evaluate(() => window.ropelab.sim.linkCount);
    const p = await page.evaluate(() => Array.from(window.ropelab.sim.positions()));
    const mx = (p[30] + p[33]) / 2, my = (p[31] + p[34]) / 2;
    const from = await page.evaluate(([x, y]) => window.ropelab.toScreen(x, y), [mx + 0.7, my]);
    const to = await page.evaluate(([x, y]) => window.ropelab.toScreen(x, y), [mx - 0.7, my]);
    await page.mouse.move(...from);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(from[0] + ((to[0] - from[0]) * i) / 10, from[1] + ((to[1] - from[1]) * i) / 10);
    await page.mouse.up();
    const cut = await page.evaluate(() => window.ropelab.sim.linkCount);
    assert.ok(cut < links0, 'the swipe cut');
    await page.keyboard.press('Control+z');
    assert.equal(await page.evaluate(() => window.ropelab.sim.linkCount), links0, 'undo restores the links');
    await page.keyboard.press('Control+Shift+z');
    assert.equal(await page.evaluate(() => window.ropelab.sim.linkCount), cut, 'redo cuts again');
    await page.evaluate(() => window.ropelab.setMode('edit'));
    const n = await page.evaluate(() => window.ropelab.sim.pointCount);
    // An empty spot near (60, 400), clear of every point by 40 px (where the ropes hang
    // depends on when the pause came): a click there adds a point rather than grabbing one.
    const spot = await page.evaluate(() => {
      const q = Array.from(window.ropelab.sim.positions());
      const pts = [];
      for (let i = 0; i + 2 < q.length; i += 3) pts.push(window.ropelab.toScreen(q[i], q[i + 1]));
      let best = [60, 400], far = -1;
      for (let y = 400; y <= 480; y += 10) {
        for (let x = 60; x <= 200; x += 10) {
          const d = Math.min(...pts.map(([px, py]) => Math.hypot(px - x, py - y)));
          if (d > far) [best, far] = [[x, y], d];
          if (d > 40) return best;
        }
      }
      return best;
    });
    await page.mouse.click(...spot);
    assert.equal(await page.evaluate(() => window.ropelab.sim.pointCount), n + 1);
    await page.keyboard.press('Control+z');
    assert.equal(await page.evaluate(() => window.ropelab.sim.pointCount), n, 'undo removes the added point');
    await context.close();
  });

  it('every slider has an accessible name', async () => {
    const { context, page } = await openPage(browser, server.url);
    for (const name of ['iterations', 'give', 'gravity', 'substeps']) {
      assert.equal(await page.getByRole('slider', { name, exact: true }).count(), 1, name);
    }
    const unnamed = await page.evaluate(() => [...document.querySelectorAll('#panel input[type=range]')]
      .filter((i) => !i.getAttribute('aria-label') && !i.labels?.length).map((i) => i.id));
    assert.deepEqual(unnamed, []);
    await context.close();
  });

  // Before: the scene used 27 % of a portrait phone's height; targets were 13–28 px.
  it('a phone in portrait: the scene fills more of the height, touch targets are at least 44 px', async () => {
    const { context, page } = await openPage(browser, server.url, PHONE);
    const share = await page.evaluate(() => {
      const c = window.ropelab.camera;
      return (c.frame.height * c.scale) / document.getElementById('view').clientHeight;
    });
    assert.ok(share > 0.33, `the 6.4 m frame uses ${(100 * share).toFixed(0)} % of the height`);
    await page.tap('#collapse');
    await page.waitForFunction(() => !document.getElementById('panel').classList.contains('collapsed'));
    const small = await page.evaluate(() => {
      const out = [];
      const seen = (el) => el.offsetParent !== null && getComputedStyle(el).visibility !== 'hidden';
      for (const el of document.querySelectorAll('#panel button, #panel select, #panel input, #panel summary')) {
        if (!seen(el) || el.type === 'file') continue;
        const target = el.type === 'checkbox' ? el.closest('label') ?? el : el;
        const r = target.getBoundingClientRect();
        if (r.width < 44 || r.height < 44) out.push(`${el.id || el.textContent.trim() || el.type} ${r.width.toFixed(0)}×${r.height.toFixed(0)}`);
      }
      return out;
    });
    assert.deepEqual(small, []);
    await context.close();
  });

  it('the comparison on a phone fits the width; its table scrolls inside itself', async () => {
    const { context, page } = await openPage(browser, `${server.url}?compare=classic,pbd,xpbd,exact`, PHONE);
    await page.waitForSelector('#compare-hud');
    const fit = await page.evaluate(() => {
      const hud = document.getElementById('compare-hud').getBoundingClientRect();
      return { page: document.scrollingElement.scrollWidth, w: innerWidth, hudRight: hud.right, hudBottom: hud.bottom, h: innerHeight };
    });
    assert.ok(fit.page <= fit.w, `no sideways page scroll (${fit.page} > ${fit.w})`);
    assert.ok(fit.hudRight <= fit.w && fit.hudBottom <= fit.h, JSON.stringify(fit));
    await context.close();
  });

  // Before: pbd hid exactly under xpbd; one spike flattened the energy plot; in a 700 px embed
  // the table covered the "ropelab ↗" link; -5 in the table became 4294967291.
  it('the comparison: coinciding solvers are told apart, plots ignore spikes, the embed link is clear, -5 is refused', async () => {
    const { context, page } = await openPage(browser, `${server.url}?compare=classic,pbd,xpbd,exact&layout=overlay&embed=1`, { viewport: { width: 700, height: 700 } });
    await waitSteps(page, 60);
    await page.waitForFunction(() => !document.querySelector('#compare-hud .same').hidden);
    assert.match(await page.locator('#compare-hud .same').textContent(), /xpbd moves exactly as pbd.*dashed/);
    const robust = await page.evaluate(async () => {
      const { Series } = await import('./www/plot.js');
      const s = new Series();
      for (let k = 0; k < 600; k++) s.push(k / 60, 100 + 5 * Math.sin(k / 10) + (k >= 300 && k < 306 ? 9700 : 0) - (k === 400 ? 700 : 0));
      return { full: s.range(0), robust: s.robustRange(0) };
    });
    assert.ok(robust.full[1] > 9000, 'the spike is in the data');
    assert.ok(robust.robust[1] < 200 && robust.robust[0] > 0, `robust range ${robust.robust}`);
    const [link, hud] = await page.evaluate(() => ['open-full', 'compare-hud'].map((id) => document.getElementById(id).getBoundingClientRect().toJSON()));
    const overlap = link.left < hud.right && hud.left < link.right && link.top < hud.bottom && hud.top < link.bottom;
    assert.equal(overlap, false, 'the link is clear of the table');
    const clipped = await page.evaluate(() => { const h = document.getElementById('compare-hud'); return h.scrollWidth - h.clientWidth; });
    assert.ok(clipped <= 1, `the table fits (${clipped} px hidden)`);
    const it = page.locator('#compare-hud tr[data-solver="pbd"] input.it');
    await it.fill('-5');
    await it.press('Enter');
    await it.blur();
    const status = await page.locator('#status').textContent();
    assert.match(status, /-5/);
    assert.doesNotMatch(status, /4294967291/);
    assert.equal(await it.inputValue(), '3');
    await context.close();
  });
});
