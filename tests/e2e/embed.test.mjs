// The <rope-lab> web component and the share links (issue 12), in headless Chromium against
// dist/ (`make web`: trunk's post_build hook writes the npm package to dist/pkg/). The blog
// page is www/embed-demo.html: three embeds (a preset with the control strip, a comparison of
// three solvers, an inline JSON scene) between long text.
//
// Budget checked here: the JS an embed loads, gzipped, at most 15.5 KiB. The time budgets (the
// first frame at most 300 ms after the script loaded, ten embeds' frame interval) are
// tests/bench/embed-budgets.mjs's (`make bench-wasm`): a test asserts no time.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DIST, checkDist } from './serve.mjs';
import { ARTIFACTS, expectedCounts, openPage, statusLine, useBrowser } from './helpers.mjs';

checkDist();
const PKG = join(DIST, 'pkg');
// 15 KiB until 2026-11-29; 15.5 KiB since recordings: the glues declare the recording calls
// (+~200 B gzipped) and the component plays a `recording` (+~350 B), which took a preset body
// scene to 15,667 B. The reading of a recording itself is embed-recording.js, loaded only for one.
const JS_BUDGET = 15.5 * 1024;

let browser;
let server;
useBrowser((b, s) => ([browser, server] = [b, s]));

/** Opens the blog page (or `path`) in a fresh context; waits until every embed drew a frame. */
async function openBlog(path = 'www/embed-demo.html', options = {}) {
  const context = await browser.newContext({ viewport: { width: 900, height: 800 }, ...options });
  const page = await context.newPage();
  const errors = [];
  const scripts = [];
  const wasm = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (r.resourceType() === 'script') scripts.push(path);
    if (path.endsWith('.wasm')) wasm.push(path);
  });
  await page.goto(`${server.url}${path}`);
  await page.waitForFunction(() => customElements.get('rope-lab') && [...document.querySelectorAll('rope-lab')].every((e) => e.sim), null, { timeout: 15000 });
  return { context, page, errors, scripts, wasm };
}

/** Per embed (by id): steps, frames, points, links, paused, the message shown. */
const embeds = (page) => page.evaluate(() => Object.fromEntries([...document.querySelectorAll('rope-lab')].map((e) => [e.id, {
  steps: e.steps, frames: e.frames, points: e.sim?.pointCount ?? 0, links: e.sim?.linkCount ?? 0, views: e.sims.length,
  paused: e.paused, time: e.sim?.time ?? 0, msg: e.shadowRoot.querySelector('.msg').textContent,
}])));

const scrollTo = (page, y) => page.evaluate((t) => window.scrollTo(0, t), y);
/** Scrolls so that the embed `id` is in the middle of the viewport. */
const show = (page, id) => page.evaluate((i) => document.getElementById(i).scrollIntoView({ block: 'center' }), id);
/** The embed's box in the viewport (CSS px). */
const box = (page, id) => page.evaluate((i) => {
  const r = document.getElementById(i).getBoundingClientRect();
  return { x: r.x, y: r.y, w: r.width, h: r.height };
}, id);
const stepsOf = (page, id) => page.evaluate((i) => document.getElementById(i).steps, id);
async function waitSteps(page, id, n) {
  const s0 = await stepsOf(page, id);
  await page.waitForFunction(([i, t]) => document.getElementById(i).steps >= t, [id, s0 + n], { timeout: 10000, polling: 16 });
}

describe('budgets', () => {
  it('the JS an embed loads is at most 15.5 KiB gzipped (the component, the drawing its scene needs and the wasm-bindgen glue)', async () => {
    // What the blog page actually requests: its scripts are the component and the glue.
    const { context, scripts, wasm, errors } = await openBlog();
    await context.close();
    // (Rope scenes: the lite build's glue and wasm; tests below load the full build.)
    assert.deepEqual([...new Set(scripts)].sort(), ['/pkg/embed-presets.js', '/pkg/embed-world.js', '/pkg/rope-lab.js', '/pkg/ropelab-lite.js'], 'the scripts an embed loads');
    assert.deepEqual(wasm, ['/pkg/ropelab-lite_bg.wasm'], 'the lite wasm, fetched once for three embeds');
    // Every kind of scene is held to the budget with what it loads: a rope scene the component,
    // its drawing (embed-world.js) and the lite glue (or the full one, e.g. for the impulse
    // solver), the leash its own drawing (leash.js) instead, a body scene the full glue, the
    // drawing and the bodies' outlines (embed-bodies.js). A preset also loads the presets'
    // table (embed-presets.js), a share string (`z:…`) the decoder (embed-unpack.js); a scene
    // by URL or inline neither.
    const files = ['rope-lab.js', 'ropelab-lite.js', 'ropelab.js', 'leash.js', 'embed-bodies.js', 'embed-world.js', 'embed-presets.js', 'embed-unpack.js', 'embed-recording.js'];
    const sizes = Object.fromEntries(files.map((f) => {
      const raw = readFileSync(join(PKG, f));
      return [f, { raw: raw.length, gzip: gzipSync(raw).length }];
    }));
    const total = (/** @type {string[]} */ all) => all.reduce((t, f) => t + sizes[f].gzip, 0);
    const line = (/** @type {string[]} */ all) => `embed JS: ${all.map((f) => `${f} ${sizes[f].raw} B (${sizes[f].gzip} B gzipped)`).join(' + ')} = ${total(all)} B gzipped, budget ${JS_BUDGET} B`;
    for (const scene of [['embed-world.js', 'ropelab-lite.js'], ['embed-world.js', 'ropelab.js'], ['embed-world.js', 'embed-bodies.js', 'ropelab.js']]) {
      for (const source of [[], ['embed-presets.js']]) {
        const all = ['rope-lab.js', ...source, ...scene];
        console.log(line(all));
        assert.ok(total(all) <= JS_BUDGET, `embed JS with ${all.slice(1).join(', ')} is ${total(all)} B gzipped, over the ${JS_BUDGET} B budget`);
      }
    }
    for (const all of [['rope-lab.js', 'embed-presets.js', 'leash.js', 'ropelab-lite.js'], ['rope-lab.js', 'embed-unpack.js', 'leash.js', 'ropelab-lite.js'],
      ['rope-lab.js', 'embed-unpack.js', 'embed-world.js', 'ropelab-lite.js'], ['rope-lab.js', 'embed-unpack.js', 'embed-world.js', 'ropelab.js'],
      // a recording on a rope preset (<rope-lab recording>)
      ['rope-lab.js', 'embed-recording.js', 'embed-presets.js', 'embed-world.js', 'ropelab-lite.js']]) {
      console.log(line(all));
      assert.ok(total(all) <= JS_BUDGET, `embed JS with ${all.slice(1).join(', ')} is ${total(all)} B gzipped, over the ${JS_BUDGET} B budget`);
    }
    // Not held: a share string of a body scene (the decoder, the drawing, the bodies' outlines
    // and the full glue) is over the budget (docs/embedding.md, "Budgets"); printed so that
    // its figure is seen.
    console.log(`${line(['rope-lab.js', 'embed-unpack.js', 'embed-world.js', 'embed-bodies.js', 'ropelab.js'])} (not held)`);
    assert.deepEqual(errors, []);
  });

  it('the first frame of an embed is drawn, with its scene loaded', async () => {
    const context = await browser.newContext({ viewport: { width: 900, height: 800 } });
    const page = await context.newPage();
    try {
      await page.goto(`${server.url}www/embed-demo.html`);
      await page.waitForFunction(() => document.getElementById('bridge')?.firstFrameAt > 0, null, { timeout: 15000 });
      const r = await page.evaluate(() => {
        const script = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/pkg/rope-lab.js'));
        const wasm = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/pkg/ropelab-lite_bg.wasm'));
        const e = document.getElementById('bridge');
        return { script: script?.responseEnd, wasm: wasm?.responseEnd, first: e.firstFrameAt, frames: e.frames, points: e.sim?.pointCount ?? 0 };
      });
      assert.ok(r.script > 0 && r.wasm > 0, `the script and the wasm loaded: ${JSON.stringify(r)}`);
      assert.ok(r.first >= r.script && r.frames >= 1, `a frame was drawn: ${JSON.stringify(r)}`);
      assert.equal(r.points, expectedCounts('bridge').points, `the bridge is loaded: ${JSON.stringify(r)}`);
    } finally {
      await context.close();
    }
  });
});

describe('the blog page', () => {
  let page, context, errors;
  before(async () => ({ page, context, errors } = await openBlog()));
  after(async () => context?.close());

  it('runs three embeds with their own scenes, and no page CSS gets in or out', async () => {
    for (const id of ['bridge', 'compare', 'inline']) {
      await show(page, id);
      await waitSteps(page, id, 10);
    }
    const e = await embeds(page);
    const bridge = expectedCounts('bridge');
    assert.equal(e.bridge.points, bridge.points);
    assert.equal(e.bridge.links, bridge.links);
    assert.equal(e.compare.points, expectedCounts('rope').points);
    assert.equal(e.compare.views, 3, 'solver + compare = three views');
    assert.deepEqual(await page.evaluate(() => document.getElementById('compare').sims.map((s) => s.solver)), ['exact', 'classic', 'xpbd']);
    assert.equal(e.inline.points, 17, 'the inline <script type="application/json"> scene');
    assert.notEqual(e.bridge.points, e.inline.points, 'two instances, two scenes');
    for (const id of ['bridge', 'compare', 'inline']) assert.equal(e[id].msg, '', `${id}: no message`);
    // The page styles every canvas with a magenta dashed border: not the embeds' (shadow DOM).
    const inner = await page.evaluate(() => getComputedStyle(document.getElementById('bridge').shadowRoot.querySelector('canvas')).borderStyle);
    assert.equal(inner, 'none', 'the page CSS stays out');
    // …and the embeds' CSS stays in: the page's own buttons keep the browser's look.
    const globals = await page.evaluate(() => Object.keys(window).filter((k) => /rope|sim|wasm/i.test(k)));
    assert.deepEqual(globals, [], 'no globals');
    // HiDPI-ready: the backing store is the CSS size × devicePixelRatio.
    const hi = await page.evaluate(() => {
      const el = document.getElementById('bridge');
      const c = el.shadowRoot.querySelector('canvas');
      return { w: c.width, cssW: el.clientWidth, dpr: devicePixelRatio };
    });
    assert.equal(hi.w, Math.round(hi.cssW * hi.dpr));
    for (const id of ['bridge', 'compare', 'inline']) await page.locator(`#${id}`).screenshot({ path: join(ARTIFACTS, `embed-${id}.png`) });
    await scrollTo(page, 0);
    await page.screenshot({ path: join(ARTIFACTS, 'embed-blog.png'), fullPage: true });
    assert.deepEqual(errors, []);
  });

  it('the wheel over an embed scrolls the page; Ctrl+wheel or a click into it zooms instead', async () => {
    await show(page, 'bridge');
    await page.waitForTimeout(100);
    const b = await box(page, 'bridge');
    await page.mouse.move(b.x + b.w / 2, b.y + 20);
    const zoom0 = await page.evaluate(() => document.getElementById('bridge').zoom);
    const y0 = await page.evaluate(() => scrollY);
    await page.mouse.wheel(0, 300);
    await page.waitForFunction((y) => scrollY > y, y0, { timeout: 3000 });
    assert.ok((await page.evaluate(() => scrollY)) > y0 + 100, 'the page scrolled');
    assert.equal(await page.evaluate(() => document.getElementById('bridge').zoom), zoom0, 'the embed did not zoom');

    // Ctrl+wheel (a trackpad pinch) zooms and does not scroll.
    await show(page, 'bridge');
    await page.waitForTimeout(100);
    const c = await box(page, 'bridge');
    await page.mouse.move(c.x + c.w / 2, c.y + 20);
    const y1 = await page.evaluate(() => scrollY);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -200);
    await page.keyboard.up('Control');
    await page.waitForTimeout(200);
    assert.ok((await page.evaluate(() => document.getElementById('bridge').zoom)) > zoom0, 'Ctrl+wheel zoomed in');
    assert.equal(await page.evaluate(() => scrollY), y1, 'Ctrl+wheel did not scroll the page');

    // After a click into the embed (on empty space, top left: no point there) the wheel zooms…
    await page.mouse.click(c.x + 12, c.y + 12);
    const z1 = await page.evaluate(() => document.getElementById('bridge').zoom);
    await page.mouse.wheel(0, 200);
    await page.waitForTimeout(200);
    assert.ok((await page.evaluate(() => document.getElementById('bridge').zoom)) < z1, 'the wheel zoomed out after a click into the embed');
    assert.equal(await page.evaluate(() => scrollY), y1, 'and did not scroll');
    // …until Esc: then it scrolls the page again.
    await page.keyboard.press('Escape');
    await page.mouse.wheel(0, 200);
    await page.waitForFunction((y) => scrollY > y, y1, { timeout: 3000 });
    await page.keyboard.press('0');
  });

  it('an embed scrolled out of view stops stepping and drawing, then resumes where it was', async () => {
    await show(page, 'bridge');
    await waitSteps(page, 'bridge', 10);
    await scrollTo(page, await page.evaluate(() => document.body.scrollHeight));
    await page.waitForTimeout(300); // the IntersectionObserver reports
    const a = (await embeds(page)).bridge;
    await page.waitForTimeout(700);
    const b = (await embeds(page)).bridge;
    assert.equal(b.steps, a.steps, 'the step counter froze off-screen');
    assert.equal(b.frames, a.frames, 'no frames drawn off-screen');
    assert.equal(b.time, a.time, 'the sim did not advance');
    // No animation frame runs for it: the shared loop holds only on-screen embeds.
    await show(page, 'bridge');
    await waitSteps(page, 'bridge', 10);
    const c = (await embeds(page)).bridge;
    assert.ok(c.steps > b.steps, 'it resumed');
    assert.ok(c.time > b.time && c.time < b.time + 2, `it resumed where it was (time ${b.time} → ${c.time}), no catch-up jump, no reload`);
    assert.ok(c.steps - b.steps < 60 * 2, 'no catch-up of the time spent off-screen');
  });

  it('a hidden tab stops every embed and a visible one resumes it', async () => {
    await show(page, 'bridge');
    await waitSteps(page, 'bridge', 5);
    const setHidden = (h) => page.evaluate((hidden) => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (hidden ? 'hidden' : 'visible') });
      document.dispatchEvent(new Event('visibilitychange'));
    }, h);
    await setHidden(true);
    const a = (await embeds(page)).bridge;
    await page.waitForTimeout(500);
    const b = (await embeds(page)).bridge;
    assert.equal(b.steps, a.steps, 'frozen while hidden');
    assert.equal(b.frames, a.frames);
    await setHidden(false);
    await waitSteps(page, 'bridge', 5);
  });

  it('pointer input: drag a point, click one to lock it, swipe to cut', async () => {
    await show(page, 'inline');
    await page.evaluate(() => document.getElementById('inline').pause());
    await page.waitForTimeout(50);
    const pt = (i) => page.evaluate((k) => {
      const el = document.getElementById('inline');
      const v = el.views[0].cam;
      const p = el.sim.positions();
      const r = el.getBoundingClientRect();
      return [r.x + v.ox + p[3 * k] * v.scale, r.y + v.oy - p[3 * k + 1] * v.scale];
    }, i);
    const [x, y] = await pt(8);
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + 10, y + 30, { steps: 4 });
    await page.mouse.move(x + 20, y + 60, { steps: 4 });
    const held = await page.evaluate(() => document.getElementById('inline').sim.heldBy(1));
    assert.equal(held, 8, 'the mouse holds point 8');
    const [x2, y2] = await pt(8);
    assert.ok(Math.hypot(x2 - x - 20, y2 - y - 60) < 3, `point 8 followed the pointer (${x2 - x}, ${y2 - y})`);
    await page.mouse.up();
    // A click on a point locks it.
    const [x3, y3] = await pt(4);
    assert.equal(await page.evaluate(() => document.getElementById('inline').sim.isLocked(4)), false);
    await page.mouse.click(x3, y3);
    assert.equal(await page.evaluate(() => document.getElementById('inline').sim.isLocked(4)), true, 'a click locked point 4');
    // A swipe across the rope between points 11 and 12 on empty space cuts a link.
    const links0 = (await embeds(page)).inline.links;
    const [ax, ay] = await pt(11);
    const [bx, by] = await pt(12);
    const mx = (ax + bx) / 2, my = (ay + by) / 2;
    await page.mouse.move(mx - 30, my - 40);
    await page.mouse.down();
    await page.mouse.move(mx + 30, my + 40, { steps: 6 });
    await page.mouse.up();
    assert.equal((await embeds(page)).inline.links, links0 - 1, 'one link cut');
    await page.evaluate(() => document.getElementById('inline').reset());
    assert.equal((await embeds(page)).inline.links, 16, 'reset restores the scene');
    await page.evaluate(() => document.getElementById('inline').play());
  });

  it('keyboard: focusable with an accessible name and a focus ring; Space pauses, R resets', async () => {
    await scrollTo(page, 0);
    await page.click('h1'); // the focus navigation starts at the top of the page
    await page.keyboard.press('Tab');
    const f = await page.evaluate(() => {
      const el = document.activeElement;
      return { id: el?.id, label: el?.getAttribute('aria-label'), role: el?.getAttribute('role'), outline: el && getComputedStyle(el).outlineStyle };
    });
    assert.equal(f.id, 'bridge', 'Tab reaches the first embed');
    assert.match(f.label, /rope simulation: bridge/);
    assert.equal(f.role, 'group');
    assert.equal(f.outline, 'solid', 'a visible focus ring');
    assert.equal((await embeds(page)).bridge.paused, false);
    const y0 = await page.evaluate(() => scrollY);
    await page.keyboard.press(' ');
    assert.equal((await embeds(page)).bridge.paused, true, 'Space paused');
    assert.equal(await page.evaluate(() => scrollY), y0, 'Space did not scroll the page');
    await page.keyboard.press(' ');
    assert.equal((await embeds(page)).bridge.paused, false, 'Space played');
    await waitSteps(page, 'bridge', 30);
    await page.keyboard.press('r');
    assert.ok((await embeds(page)).bridge.steps < 10, 'R reset the scene');
    assert.equal(await page.getAttribute('#inline', 'aria-label'), 'A hand-made rope: drag it', 'the label attribute names it');
  });

  it('attributes are reflected and live: solver, scene, aspect', async () => {
    await show(page, 'bridge');
    await page.evaluate(() => { document.getElementById('bridge').solver = 'xpbd'; });
    assert.equal(await page.getAttribute('#bridge', 'solver'), 'xpbd', 'the property reflects to the attribute');
    assert.equal(await page.evaluate(() => document.getElementById('bridge').sim.solver), 'xpbd');
    assert.equal(await page.evaluate(() => document.getElementById('bridge').shadowRoot.querySelector('select').value), 'xpbd', 'the control strip follows');
    // A solver that cannot run the scene says why and keeps the current one.
    await page.evaluate(() => document.getElementById('bridge').setAttribute('solver', 'nonsense'));
    assert.match((await embeds(page)).bridge.msg, /solver nonsense/);
    assert.equal(await page.evaluate(() => document.getElementById('bridge').sim.solver), 'xpbd');
    // Changing the scene reloads.
    await page.evaluate(() => document.getElementById('bridge').setAttribute('scene', 'net'));
    await page.waitForFunction((n) => document.getElementById('bridge').sim.pointCount === n, expectedCounts('net').points);
    await page.evaluate(() => { document.getElementById('bridge').aspect = '2/1'; });
    const r = await box(page, 'bridge');
    assert.ok(Math.abs(r.w / r.h - 2) < 0.02, `aspect 2/1: ${r.w}×${r.h}`);
    await page.evaluate(() => { document.getElementById('bridge').scene = 'bridge'; });
    await page.waitForFunction((n) => document.getElementById('bridge').sim.pointCount === n, expectedCounts('bridge').points);
  });

  it('a scene by URL, and the sim\'s events as DOM events (contactbegin)', async () => {
    await show(page, 'inline');
    const got = await page.evaluate(async () => {
      const el = document.getElementById('inline');
      const seen = [];
      el.addEventListener('contactbegin', (e) => seen.push(e.detail), { once: true });
      el.play();
      el.scene = 'scenes/wall.json'; // relative to the page (www/embed-demo.html)
      await new Promise((ok, no) => { el.addEventListener('ready', ok, { once: true }); setTimeout(() => no(new Error('no ready event within 10 s')), 10000); });
      const t0 = performance.now();
      while (!seen.length && performance.now() - t0 < 8000) await new Promise((ok) => setTimeout(ok, 50));
      return { bodies: el.sim.bodyCount, msg: el.shadowRoot.querySelector('.msg').textContent, seen };
    });
    assert.equal(got.msg, '');
    assert.ok(got.bodies > 10, `the wall scene from its URL (${got.bodies} bodies)`);
    assert.equal(got.seen.length, 1, 'a contactbegin event');
    assert.equal(got.seen[0].type, 'contactbegin');
    assert.ok(Number.isFinite(got.seen[0].impulse) && got.seen[0].a >= 0, JSON.stringify(got.seen[0]));
  });

  it('a bad scene shows a message and the default scene', async () => {
    await show(page, 'inline');
    const got = await page.evaluate(async () => {
      const el = document.getElementById('inline');
      const errors = [];
      el.addEventListener('error', (e) => errors.push(e.detail));
      el.scene = 'z:AAAAthis-is-not-deflate';
      await new Promise((ok, no) => { el.addEventListener('ready', ok, { once: true }); setTimeout(() => no(new Error('no ready event within 10 s')), 10000); });
      return { errors, msg: el.shadowRoot.querySelector('.msg').textContent, points: el.sim.pointCount };
    });
    assert.match(got.msg, /damaged or cut short.*default scene/, got.msg);
    assert.equal(got.errors.length, 1, 'one error event');
    assert.equal(got.points, expectedCounts('rope').points, 'the default scene (rope)');
    const missing = await page.evaluate(async () => {
      const el = document.getElementById('inline');
      el.scene = 'no-such-preset';
      await new Promise((ok, no) => { el.addEventListener('ready', ok, { once: true }); setTimeout(() => no(new Error('no ready event within 10 s')), 10000); });
      return el.shadowRoot.querySelector('.msg').textContent;
    });
    assert.match(missing, /no preset "no-such-preset"/);
  });
});

describe('two wasm builds: lite for ropes, full for bodies', () => {
  it('the blog page\'s rope embeds run on the lite wasm', async () => {
    const { page, context, wasm, errors } = await openBlog();
    for (const id of ['bridge', 'compare', 'inline']) {
      await show(page, id);
      await waitSteps(page, id, 5);
    }
    const got = await page.evaluate(() => [...document.querySelectorAll('rope-lab')].map((e) => ({
      id: e.id, lite: e.sims.every((s) => !('bodyCount' in s)), steps: e.steps, msg: e.shadowRoot.querySelector('.msg').textContent,
    })));
    await context.close();
    assert.deepEqual(wasm, ['/pkg/ropelab-lite_bg.wasm'], 'only the lite wasm is fetched');
    for (const e of got) {
      assert.ok(e.lite, `${e.id}: its sims are the lite build's (no bodyCount)`);
      assert.ok(e.steps >= 5 && e.msg === '', `${e.id}: steps ${e.steps}, message "${e.msg}"`);
    }
    assert.deepEqual(errors, []);
  });

  it('a body preset (wrecking-ball) in an embed loads the full wasm; wasm="full" forces it', async () => {
    const { page, context, wasm, errors } = await openBlog();
    const got = await page.evaluate(async () => {
      const ready = (/** @type {Element} */ el) => new Promise((ok, no) => { el.addEventListener('ready', ok, { once: true }); setTimeout(() => no(new Error('no ready event within 10 s')), 10000); });
      const ball = document.createElement('rope-lab');
      ball.setAttribute('scene', 'wrecking-ball');
      const forced = document.createElement('rope-lab');
      forced.setAttribute('scene', 'rope');
      forced.setAttribute('wasm', 'full');
      document.body.prepend(ball, forced);
      await Promise.all([ready(ball), ready(forced)]);
      const s0 = ball.steps;
      const t0 = performance.now();
      while (ball.steps < s0 + 10 && performance.now() - t0 < 8000) await new Promise((ok) => setTimeout(ok, 50));
      return {
        bodies: ball.sim.bodyCount, steps: ball.steps - s0, msg: ball.shadowRoot.querySelector('.msg').textContent,
        forced: 'bodyCount' in forced.sim, forcedMsg: forced.shadowRoot.querySelector('.msg').textContent,
      };
    });
    await context.close();
    assert.ok(wasm.includes('/pkg/ropelab_bg.wasm'), `the full wasm is fetched (${wasm.join(', ')})`);
    assert.equal(wasm.filter((w) => w === '/pkg/ropelab_bg.wasm').length, 1, 'once');
    assert.ok(got.bodies >= 1, `the wrecking ball's body (${got.bodies})`);
    assert.ok(got.steps >= 10, `it runs (${got.steps} steps)`);
    assert.equal(got.msg, '');
    assert.ok(got.forced, 'wasm="full": a rope scene on the full build');
    assert.equal(got.forcedMsg, '');
    assert.deepEqual(errors, []);
  });
});

describe('the leash in an embed', () => {
  it('draws the knot diagram from the lite wasm: leashes broken where the full build\'s crossings() has them, the hand, the dogs and the tangles', async () => {
    const { page, context, wasm, errors } = await openBlog();
    try {
      // Two leash embeds, paused from the start and stepped by hand the same number of steps:
      // one on the lite wasm (the default for the leash), one on the full (wasm="full"), which
      // has `crossings()`. The dogs' wander is seeded, and lite = full bit for bit. After 680
      // steps the leash preset has 2 crossings and a locked tangle near dog 2; after 7,500
      // steps, 4 crossings and a locked tangle.
      const results = await page.evaluate(async (ns) => {
        const ready = (el) => new Promise((ok, no) => { el.addEventListener('ready', ok, { once: true }); setTimeout(() => no(new Error('no ready event within 10 s')), 10000); });
        const make = (full) => {
          const el = document.createElement('rope-lab');
          el.setAttribute('scene', 'leash');
          if (full) el.setAttribute('wasm', 'full');
          el.style.width = '800px';
          return el;
        };
        const lite = make(false), full = make(true);
        document.body.prepend(lite, full);
        await Promise.all([ready(lite), ready(full)]);
        for (const el of [lite, full]) {
          el.pause();
          el.reset();
        }
        /** What the lite embed drew: its crossings, and the canvas's pixels on the dogs and the tangles' rings. */
        const sample = (n) => {
          const v = lite.views[0].cam;
          const pos = lite.sim.positions();
          const leash = JSON.parse(lite.sim.leash());
          const ctx = lite.shadowRoot.querySelector('canvas').getContext('2d');
          const pixel = (x, y) => Array.from(ctx.getImageData(Math.round(x * devicePixelRatio), Math.round(y * devicePixelRatio), 1, 1).data);
          const X = (x) => v.ox + x * v.scale, Y = (z) => v.oy + z * v.scale;
          const around = (x, y, r, k) => Array.from({ length: k }, (_, j) => pixel(x + r * Math.cos((2 * Math.PI * j) / k), y + r * Math.sin((2 * Math.PI * j) / k)));
          return {
            n,
            liteIsLite: !('bodyCount' in lite.sim), fullIsFull: 'bodyCount' in full.sim,
            samePositions: Array.from(pos).every((p, i) => Object.is(p, full.sim.positions()[i])),
            msg: lite.shadowRoot.querySelector('.msg').textContent,
            leash,
            ropes: Array.from({ length: lite.sim.ropeCount }, (_, i) => Array.from(lite.sim.ropePoints(i))),
            // (leash.js findCrossings: the lite build has no crossings())
            embedCrossings: lite.views[0].cross.map((c) => {
              const r = lite.sim.ropePoints(c.over.rope);
              return { h: c.over.y, x: c.top[0], z: c.top[1], a: r[c.over.segment], b: r[c.over.segment + 1] };
            }),
            fullCrossings: JSON.parse(full.sim.crossings()),
            dogs: leash.dogs.map((d) => around(X(pos[3 * d.point]), Y(pos[3 * d.point + 2]), 0.6 * Math.max(d.bodyRadius * v.scale, 11), 8)),
            tangles: JSON.parse(lite.sim.tangles()).map((t) => ({
              state: t.state, ring: around(X(t.top[0]), Y(t.top[1]), Math.min(Math.max(0.022 * v.scale, 3), 9) * 2.4 + 6, 12),
            })),
          };
        };
        const out = [];
        let done = 0;
        for (const n of ns) {
          for (const el of [lite, full]) {
            for (let i = done; i < n; i++) el.sim.step(1 / 60);
            el.draw(1);
          }
          done = n;
          out.push(sample(n));
        }
        return out;
      }, [680, 7500]);

      const hue = ([r, g, b]) => {
        const M = Math.max(r, g, b), m = Math.min(r, g, b), d = M - m;
        if (!d) return NaN;
        const h = M === r ? ((g - b) / d) % 6 : M === g ? (b - r) / d + 2 : (r - g) / d + 4;
        return (h * 60 + 360) % 360;
      };
      const near = (h, want, tol) => Math.abs(((h - want + 540) % 360) - 180) < tol;
      assert.ok(wasm.includes('/pkg/ropelab-lite_bg.wasm'));
      for (const got of results) {
        const N = got.n;
        assert.ok(got.liteIsLite && got.fullIsFull, 'one embed on each build');
        assert.ok(got.samePositions, `lite and full at the same positions after ${N} steps`);
        assert.equal(got.msg, '', 'the lite build runs the leash');
        assert.equal(got.leash.dogs.length, 3, 'the lite build reports the leash (hand and dogs)');

        // The crossings the embed breaks the leashes at are the full build's crossings(): the
        // same places, the same strand on top (the segment of the rope that is higher there).
        console.log(`leash embed after ${N} steps: ${got.embedCrossings.length} crossings (full build's crossings(): ${got.fullCrossings.length}), tangles ${got.tangles.map((t) => t.state).join(', ')}`);
        assert.ok(got.fullCrossings.length >= 2, `the leashes cross (${got.fullCrossings.length})`);
        assert.equal(got.embedCrossings.length, got.fullCrossings.length, 'as many crossings as the full build finds');
        for (const c of got.fullCrossings) {
          const seg = got.ropes[c.over.rope];
          const m = got.embedCrossings.find((e) => Math.hypot(e.x - c.top[0], e.z - c.top[1]) < 1e-4);
          assert.ok(m, `the crossing at (${c.top}) is found`);
          assert.deepEqual([m.a, m.b], [seg[c.over.segment], seg[c.over.segment + 1]], 'with the same strand on top');
          assert.ok(Math.abs(m.h - c.over.y) < 1e-4, `at its height (${m.h} vs ${c.over.y})`);
        }

        // The dogs in their colours (hue of dog 1 18°, dog 2 200°, dog 3 100°, as the
        // playground): at least three of eight samples inside each disc (a tangle's ring or
        // another dog may cover part of it; without the disc they would be the background's grey
        // or a leash).
        got.dogs.forEach((disc, k) => {
          const hues = disc.map(hue);
          assert.ok(hues.filter((h) => near(h, [18, 200, 100][k], 20)).length >= 3, `dog ${k + 1} drawn in its colour (hues ${hues.map((h) => h.toFixed(0))})`);
        });
        // The tangles as rings: magenta (locked, solid) or amber (tight, dashed).
        assert.ok(got.tangles.some((t) => t.state === 'locked'), 'a locked tangle at this step');
        for (const t of got.tangles) {
          const on = t.ring.filter((p) => near(hue(p), t.state === 'locked' ? 312 : 37, 15) && p[0] > 180).length;
          assert.ok(on >= (t.state === 'locked' ? 8 : 4), `a ${t.state} tangle's ring (${on} of 12 samples on it)`);
        }
      }
      await page.locator('rope-lab').first().screenshot({ path: join(ARTIFACTS, 'embed-leash.png') });
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});

/** Where two texts part ('' when equal): the line and both versions of it (a long text's own diff is cut before it). */
function firstDiff(a, b) {
  if (a === b) return '';
  const [la, lb] = [a.split('\n'), b.split('\n')];
  const k = la.findIndex((l, i) => l !== lb[i]);
  return k < 0 ? `${la.length} against ${lb.length} lines` : `line ${k + 1} of ${la.length}: ${JSON.stringify(la[k])} against ${JSON.stringify(lb[k])}`;
}

describe('share links', () => {
  it('Copy link: a preset is a name; a hand-edited scene round-trips exactly (same exportScene()), in the playground and in <rope-lab scene>', async () => {
    const { page, context, errors } = await openPage(browser, `${server.url}?scene=bridge`);
    let shared;
    try {
      const presetLink = await page.evaluate(() => window.ropelab.shareLink());
      assert.match(presetLink, /#s=bridge$/, `an untouched preset links by name: ${presetLink}`);
      // Edit by hand: cut a link, add a locked point, lock another, change a setting.
      const edited = await page.evaluate(() => {
        const r = window.ropelab;
        r.pause(true);
        const sim = r.sim;
        sim.cut(0, 100, 0, -100);
        sim.addPoint(1.5, 4.5, true);
        sim.toggleLock(3);
        sim.setIterations(7);
        return sim.exportScene();
      });
      await page.click('#copy-link');
      await page.waitForFunction(() => window.ropelab.app.sceneIo.lastLink != null);
      shared = await page.evaluate(() => window.ropelab.app.sceneIo.lastLink);
      assert.match(shared, /#s=z:[A-Za-z0-9_-]+$/, 'an edited scene is packed into the fragment');
      console.log(`share link: ${presetLink.length} characters for a preset, ${shared.length} for the edited bridge (${edited.length} characters of JSON)`);
      assert.match((await statusLine(page)).text, /link copied|http/);

      // Open the link: the scene it loads exports exactly what was shared.
      const other = await openPage(browser, shared);
      try {
        const back = await other.page.evaluate(() => {
          const s = new window.ropelab.Sim();
          s.loadScene(window.ropelab.scene.text);
          return { text: s.exportScene(), iterations: window.ropelab.sim.iterations, status: document.getElementById('status').className };
        });
        assert.equal(firstDiff(back.text, edited), '', 'same exportScene() after the round trip');
        assert.equal(back.iterations, 7, 'settings travel with the scene');
        assert.doesNotMatch(back.status, /error/);
        assert.match(other.page.url(), /#s=z:/, 'the address keeps the shared scene');
        assert.deepEqual(other.errors, []);
      } finally {
        await other.context.close();
      }

      // The same string as a component's scene attribute.
      const ref = new URL(shared).hash.slice('#s='.length);
      const blog = await openBlog();
      try {
        await show(blog.page, 'inline'); // (an embed draws, and announces `ready`, on screen only)
        const fromEmbed = await blog.page.evaluate(async (s) => {
          const el = document.getElementById('inline');
          // Its own scene's first frame (and `ready`) first: under load the embed may not
          // have drawn yet, and that `ready` would be taken for the shared scene's.
          if (!el.frames) {
            await new Promise((ok, no) => { el.addEventListener('ready', ok, { once: true }); setTimeout(() => no(new Error('the inline embed drew nothing within 10 s')), 10000); });
          }
          el.pause();
          el.scene = s;
          await new Promise((ok, no) => { el.addEventListener('ready', ok, { once: true }); setTimeout(() => no(new Error('no ready event within 10 s')), 10000); });
          return { text: el.exportScene(), msg: el.shadowRoot.querySelector('.msg').textContent };
        }, ref);
        assert.equal(fromEmbed.msg, '');
        assert.equal(firstDiff(fromEmbed.text, edited), '', 'the component loads the share string to the same exportScene()');
      } finally {
        await blog.context.close();
      }
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }

    // A link cut short: a clear message and the default scene.
    const cut = shared.slice(0, shared.length - Math.floor((shared.length - shared.indexOf('#s=')) / 2));
    const bad = await openPage(browser, cut);
    try {
      const st = await statusLine(bad.page);
      assert.match(st.text, /link: the scene in this link is damaged or cut short.*default scene/, st.text);
      assert.match(st.cls, /error/);
      assert.equal(await bad.page.evaluate(() => window.ropelab.preset), 'rope', 'the default scene');
    } finally {
      await bad.context.close();
    }
  });
});

describe('manners', () => {
  it('prefers-reduced-motion: starts paused with a play button', async () => {
    const { page, context, errors } = await openBlog('www/embed-demo.html', { reducedMotion: 'reduce' });
    try {
      await page.waitForTimeout(500);
      const e = await embeds(page);
      for (const id of ['bridge', 'compare', 'inline']) {
        assert.equal(e[id].paused, true, `${id} paused`);
        assert.equal(e[id].steps, 0, `${id} took no step`);
      }
      const play = page.locator('#bridge').locator('button.play');
      assert.equal(await play.isVisible(), true, 'a play button');
      assert.equal(await play.getAttribute('aria-label'), 'Play');
      await play.click();
      await waitSteps(page, 'bridge', 5);
      assert.equal(await play.isVisible(), false);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  it('touch: a one-finger swipe on empty space scrolls the page; one that starts on a point drags it', async () => {
    const context = await browser.newContext({ viewport: { width: 400, height: 700 }, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    try {
      await page.goto(`${server.url}www/embed-demo.html`);
      await page.waitForFunction(() => document.getElementById('inline')?.sim);
      await show(page, 'inline');
      await page.evaluate(() => document.getElementById('inline').pause());
      await page.waitForTimeout(300);
      const cdp = await context.newCDPSession(page);
      const touch = (type, x, y) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
      const r = await box(page, 'inline');
      // Empty space (bottom left): the page scrolls, nothing is cut.
      const y0 = await page.evaluate(() => scrollY);
      await touch('touchStart', r.x + 15, r.y + r.h - 15);
      for (let k = 1; k <= 10; k++) {
        await touch('touchMove', r.x + 15, r.y + r.h - 15 - 15 * k);
        await page.waitForTimeout(16);
      }
      await touch('touchEnd');
      await page.waitForFunction((y) => scrollY > y + 50, y0, { timeout: 3000 });
      assert.equal((await embeds(page)).inline.links, 16, 'a scrolling swipe cuts nothing');
      // On point 8: the finger drags it and the page stays.
      await page.waitForTimeout(300);
      const [px, py] = await page.evaluate(() => {
        const el = document.getElementById('inline');
        const v = el.views[0].cam;
        const p = el.sim.positions();
        const b = el.getBoundingClientRect();
        return [b.x + v.ox + p[24] * v.scale, b.y + v.oy - p[25] * v.scale];
      });
      const y1 = await page.evaluate(() => scrollY);
      await touch('touchStart', px, py);
      for (let k = 1; k <= 10; k++) {
        await touch('touchMove', px, py - 6 * k);
        await page.waitForTimeout(16);
      }
      const held = await page.evaluate(() => Array.from({ length: 32 }, (_, id) => document.getElementById('inline').sim.heldBy(id)).filter((i) => i >= 0));
      await touch('touchEnd');
      await page.waitForTimeout(200);
      assert.deepEqual(held, [8], 'the finger held point 8');
      assert.equal(await page.evaluate(() => scrollY), y1, 'the page did not scroll under the drag');
    } finally {
      await context.close();
    }
  });

  it('touch: two fingers pinch-zoom the page over an embed until a tap into it; then they zoom and pan the embed', async () => {
    // Issue 12 §2: zoom only with ctrl/pinch or after a click into the embed. A pinch over an
    // embed nobody tapped is the page's (the browser zooms the page: touch-action lets it);
    // after a tap into it, the pinch is the embed's: its camera zooms by the fingers' spread
    // and follows their midpoint, and the page neither zooms nor scrolls.
    const open = async () => {
      const context = await browser.newContext({ viewport: { width: 400, height: 700 }, hasTouch: true, isMobile: true });
      const page = await context.newPage();
      await page.goto(`${server.url}www/embed-demo.html`);
      await page.waitForFunction(() => document.getElementById('inline')?.sim);
      await show(page, 'inline');
      await page.evaluate(() => document.getElementById('inline').pause());
      await page.waitForTimeout(300);
      const cdp = await context.newCDPSession(page);
      const touch = (type, pts) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: pts.map(([x, y], id) => ({ x, y, id })) });
      const r = await box(page, 'inline');
      return { context, page, touch, r };
    };
    const state = (page) => page.evaluate(() => {
      const el = document.getElementById('inline');
      return { zoom: el.zoom, active: el.active, frame: [el.views[0].cam.cx, el.views[0].cam.cy], scrollY, pageZoom: visualViewport.scale, links: el.sim.linkCount, held: el.gestures.size };
    });
    /** Two fingers 40 px apart at (cx, cy) spread to 160 px apart while their midpoint moves by (dx, dy). */
    const pinch = async (page, touch, cx, cy, dx, dy) => {
      await touch('touchStart', [[cx - 20, cy], [cx + 20, cy]]);
      for (let k = 1; k <= 10; k++) {
        await touch('touchMove', [[cx - 20 - 6 * k + (dx * k) / 10, cy + (dy * k) / 10], [cx + 20 + 6 * k + (dx * k) / 10, cy + (dy * k) / 10]]);
        await page.waitForTimeout(16);
      }
      await touch('touchEnd', []);
      await page.waitForTimeout(300);
    };

    // Not activated: the page zooms, the embed's camera does not move.
    {
      const { context, page, touch, r } = await open();
      try {
        const s0 = await state(page);
        assert.equal(s0.active, false);
        await pinch(page, touch, r.x + r.w / 2, r.y + r.h - 40, 0, 0);
        const s1 = await state(page);
        assert.equal(s1.zoom, s0.zoom, 'the embed did not zoom');
        assert.deepEqual(s1.frame, s0.frame, 'nor pan');
        assert.equal(s1.links, s0.links, 'nothing was cut');
        console.log(`pinch on an embed nobody tapped: page zoom (visual viewport scale) ${s0.pageZoom} → ${s1.pageZoom.toFixed(3)}, embed zoom ${s0.zoom} → ${s1.zoom}`);
        assert.ok(s1.pageZoom > 1.2, `the browser zoomed the page (visual viewport scale ${s1.pageZoom})`);
      } finally {
        await context.close();
      }
    }

    // After a tap into it (top left: empty space), the pinch is the embed's.
    const { context, page, touch, r } = await open();
    try {
      await touch('touchStart', [[r.x + 15, r.y + 15]]);
      await touch('touchEnd', []);
      await page.waitForTimeout(300);
      const s0 = await state(page);
      assert.equal(s0.active, true, 'a tap activates the embed');
      const cx = r.x + r.w / 2, cy = r.y + r.h - 40, dx = 30, dy = -50;
      // The world point under the fingers' midpoint when they land…
      const toWorld = (x, y) => page.evaluate(([px, py]) => {
        const el = document.getElementById('inline');
        const b = el.getBoundingClientRect();
        return el.views[0].cam.toWorld(px - b.x, py - b.y);
      }, [x, y]);
      const w0 = await toWorld(cx, cy);
      await pinch(page, touch, cx, cy, dx, dy);
      const s1 = await state(page);
      // …is under their midpoint when they lift, the view 4× (the spread 40 → 160 px) larger.
      const w1 = await toWorld(cx + dx, cy + dy);
      console.log(`pinch on an activated embed: zoom ${s0.zoom} → ${s1.zoom.toFixed(3)}, world point under the midpoint (${w0.map((x) => x.toFixed(3))}) → (${w1.map((x) => x.toFixed(3))}); page zoom ${s1.pageZoom}, scrollY ${s0.scrollY} → ${s1.scrollY}`);
      assert.ok(Math.abs(s1.zoom / s0.zoom - 4) < 0.05, `the embed zoomed by the fingers' spread (${s0.zoom} → ${s1.zoom})`);
      const px = 1 / (await page.evaluate(() => document.getElementById('inline').views[0].cam.scale)); // one CSS px in metres
      assert.ok(Math.hypot(w1[0] - w0[0], w1[1] - w0[1]) < 1.5 * px, `the camera followed the midpoint (${w0} → ${w1})`);
      assert.equal(s1.pageZoom, 1, 'the page did not zoom');
      assert.equal(s1.scrollY, s0.scrollY, 'the page did not scroll');
      assert.equal(s1.links, s0.links, 'the fingers cut nothing');
      assert.equal(s1.held, 0, 'and hold nothing');
    } finally {
      await context.close();
    }
  });

  it('ten embeds on one long page: only the ones on screen run', async () => {
    const { page, context, errors } = await openBlog();
    try {
      await page.evaluate(() => {
        document.body.innerHTML = Array.from({ length: 10 }, (_, k) => `<p style="height:700px">text ${k}</p><rope-lab id="e${k}" scene="${['bridge', 'net', 'rope', 'capstan', 'wrecking-ball'][k % 5]}"></rope-lab>`).join('');
      });
      await page.waitForFunction(() => [...document.querySelectorAll('rope-lab')].every((e) => e.sim), null, { timeout: 15000 });
      await page.evaluate(() => document.getElementById('e4').scrollIntoView({ block: 'center' }));
      await page.waitForTimeout(500);
      const s0 = await page.evaluate(() => [...document.querySelectorAll('rope-lab')].map((e) => e.steps));
      // Frame intervals over 2 s, by requestAnimationFrame.
      const gaps = await page.evaluate(() => new Promise((ok) => {
        const t = [];
        const f = (now) => { t.push(now); if (t.length < 121) requestAnimationFrame(f); else ok(t.slice(1).map((v, i) => v - t[i])); };
        requestAnimationFrame(f);
      }));
      const s1 = await page.evaluate(() => [...document.querySelectorAll('rope-lab')].map((e) => e.steps));
      const ran = s1.map((v, i) => v - s0[i]);
      const sorted = gaps.slice().sort((a, b) => a - b);
      const median = sorted[sorted.length >> 1], p95 = sorted[Math.floor(sorted.length * 0.95)];
      console.log(`ten embeds: steps while e4 is centred ${ran.join(', ')}; frame interval median ${median.toFixed(1)} ms, 95th percentile ${p95.toFixed(1)} ms`);
      assert.ok(ran[4] > 60, 'the centred embed runs');
      for (const k of [0, 1, 2, 7, 8, 9]) assert.equal(ran[k], 0, `e${k} (off-screen) took no step`);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  it('works in an iframe (the package\'s embed.html) and in a cross-origin page', async () => {
    const context = await browser.newContext({ viewport: { width: 900, height: 700 } });
    const page = await context.newPage();
    try {
      // A page on another origin (127.0.0.1 vs localhost) frames embed.html.
      const framed = server.url.replace('127.0.0.1', 'localhost') + 'pkg/embed.html?scene=net&controls=minimal';
      await page.setContent(`<h1>host</h1><iframe src="${framed}" title="rope simulation" style="width:640px;height:360px;border:0"></iframe>`);
      const frame = page.frameLocator('iframe');
      const f = page.frames().find((x) => x.url().includes('embed.html')) ?? (await page.waitForEvent('frameattached'));
      await f.waitForFunction(() => document.querySelector('rope-lab')?.steps > 10, null, { timeout: 15000 });
      assert.equal(await f.evaluate(() => document.querySelector('rope-lab').sim.pointCount), expectedCounts('net').points);
      assert.equal(await frame.locator('rope-lab').getAttribute('controls'), 'minimal');
    } finally {
      await context.close();
    }
  });
});
