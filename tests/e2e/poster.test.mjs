// <rope-lab>'s poster, in headless Chromium against dist/ (`make web`): the still it shows
// from the moment it connects until its first frame (the `poster` attribute, else a preset's
// own scenes/<name>.png), the presets' posters themselves (committed in package/posters/ by
// tools/posters.mjs, checked here against what the current build draws), and the light-DOM
// <img> fallback for pages where scripts do not run.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIST, checkDist } from './serve.mjs';
import { ARTIFACTS, useBrowser } from './helpers.mjs';
import { CONTEXT, HEIGHT, WIDTH, firstFrame, presetNames } from '../../tools/posters.mjs';

checkDist();
const PKG = join(DIST, 'pkg');

let browser;
let server;
useBrowser((b, s) => ([browser, server] = [b, s]));

/** A page of the package (served beside rope-lab.js) with `body` in it. */
const pageOf = (body, script = true) => `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
${script ? '<script type="module" src="./rope-lab.js"></script>' : ''}
<style>body { margin: 0; } rope-lab { width: 640px; }</style>
<body>${body}</body>`;

/**
 * A fresh page at pkg/__test.html serving `html`; the lite wasm is held back until the
 * returned `release()` is called.
 */
async function open(html, options = {}) {
  const context = await browser.newContext({ viewport: { width: 800, height: 600 }, ...options });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  let release;
  const held = new Promise((ok) => (release = ok));
  await page.route('**/pkg/__test.html', (r) => r.fulfill({ contentType: 'text/html', body: html }));
  await page.route('**/ropelab-lite_bg.wasm', async (r) => { await held; await r.continue(); });
  await page.goto(`${server.url}pkg/__test.html`);
  return { context, page, errors, release };
}

/**
 * In the page: how many pixels of a screenshot of the (640×360) element, a base64 PNG, differ
 * from the poster <img> in its shadow root by more than 8 in a channel, leaving out the
 * rounded corners (6 px).
 * @param {string} b64
 */
const diff = async (b64) => {
  const el = document.querySelector('rope-lab');
  const shot = new Image();
  shot.src = `data:image/png;base64,${b64}`;
  await shot.decode();
  const pixels = (/** @type {CanvasImageSource} */ src) => {
    const g = new OffscreenCanvas(640, 360).getContext('2d');
    g.drawImage(src, 0, 0, 640, 360);
    return g.getImageData(0, 0, 640, 360).data;
  };
  const a = pixels(shot), b = pixels(el.shadowRoot.querySelector('img'));
  let off = 0;
  for (let y = 0; y < 360; y++) {
    for (let x = 0; x < 640; x++) {
      if ((x < 6 || x >= 634) && (y < 6 || y >= 354)) continue;
      const i = 4 * (640 * y + x);
      if (Math.max(Math.abs(a[i] - b[i]), Math.abs(a[i + 1] - b[i + 1]), Math.abs(a[i + 2] - b[i + 2])) > 8) off++;
    }
  }
  return off;
};

/** Waits until the poster <img> of `sel` has its src (set once the presets' table is in) and has loaded it. */
const posterLoaded = (page, sel = 'rope-lab') => page.waitForFunction((s) => {
  const img = document.querySelector(s)?.shadowRoot?.querySelector('img[part="poster"]');
  return img?.getAttribute('src') && img.complete && img.naturalWidth > 0;
}, sel, { timeout: 10000 });

/** The shadow root's poster <img>: null once removed, else its state. */
const posterOf = (page, sel = 'rope-lab') => page.evaluate((s) => {
  const el = document.querySelector(s);
  const img = el.shadowRoot?.querySelector('img[part="poster"]');
  if (!img) return null;
  const r = img.getBoundingClientRect(), h = el.getBoundingClientRect();
  return {
    src: img.getAttribute('src') && new URL(img.getAttribute('src'), location.href).href, complete: img.complete, natural: [img.naturalWidth, img.naturalHeight],
    visible: img.checkVisibility(), box: [r.x, r.y, r.width, r.height], host: [h.x, h.y, h.width, h.height],
  };
}, sel);

describe('the poster', () => {
  it('a preset\'s own poster shows, filling the box, until the wasm arrives; it is gone after the first frame', async () => {
    const { context, page, errors, release } = await open(pageOf('<rope-lab scene="bridge"></rope-lab>'));
    try {
      await posterLoaded(page);
      const p = await posterOf(page);
      assert.ok(p, 'a poster <img> in the shadow root');
      assert.equal(new URL(p.src).pathname, '/pkg/scenes/bridge.png', 'the preset\'s poster, beside its JSON');
      assert.deepEqual(p.natural, [WIDTH, HEIGHT], 'it loaded');
      assert.ok(p.visible, 'it is shown');
      assert.deepEqual(p.box, p.host, 'it fills the element\'s box');
      assert.equal(await page.evaluate(() => document.querySelector('rope-lab').firstFrameAt), 0, 'no frame yet: the wasm is held back');
      // What the page shows is the poster: the element's screenshot against the PNG, pixel by
      // pixel (but the rounded corners, where the page shows through).
      const shot = await page.locator('rope-lab').screenshot({ path: join(ARTIFACTS, 'poster-before-wasm.png') });
      assert.equal(await page.evaluate(diff, shot.toString('base64')), 0, 'pixels of the element that differ from bridge.png');
      release();
      await page.waitForFunction(() => document.querySelector('rope-lab').firstFrameAt > 0, null, { timeout: 15000 });
      assert.equal(await posterOf(page), null, 'the poster is gone once the first frame is drawn');
      await page.locator('rope-lab').screenshot({ path: join(ARTIFACTS, 'poster-after-first-frame.png') });
      assert.deepEqual(errors, []);
    } finally {
      release();
      await context.close();
    }
  });

  it('the poster attribute (reflected as a property) wins over the preset\'s; a scene by URL has none', async () => {
    const { context, page, errors, release } = await open(pageOf(
      '<rope-lab id="a" scene="bridge" poster="scenes/net.png"></rope-lab><rope-lab id="b" scene="scenes/rope.json"></rope-lab>'));
    try {
      await posterLoaded(page, '#a');
      const a = await posterOf(page, '#a');
      assert.equal(new URL(a.src).pathname, '/pkg/scenes/net.png', 'the attribute\'s image');
      assert.deepEqual(a.natural, [WIDTH, HEIGHT]);
      assert.ok(a.visible);
      const b = await posterOf(page, '#b');
      assert.ok(!b.src, `no poster for a scene by URL (src ${JSON.stringify(b.src)})`);
      const prop = await page.evaluate(() => {
        const el = document.getElementById('a');
        const before = el.poster;
        el.poster = 'x.png';
        return { before, attr: el.getAttribute('poster'), after: el.poster };
      });
      assert.deepEqual(prop, { before: 'scenes/net.png', attr: 'x.png', after: 'x.png' });
      release();
      await page.waitForFunction(() => [...document.querySelectorAll('rope-lab')].every((e) => e.firstFrameAt > 0), null, { timeout: 15000 });
      assert.equal(await posterOf(page, '#a'), null);
      assert.equal(await posterOf(page, '#b'), null);
      assert.deepEqual(errors, []);
    } finally {
      release();
      await context.close();
    }
  });
});

describe('the presets\' posters', () => {
  it('every preset has scenes/<name>.png in the package: a 640×360 PNG of the first frame the current build draws', async () => {
    const context = await browser.newContext(CONTEXT);
    const page = await context.newPage();
    const stale = [];
    try {
      for (const name of presetNames()) {
        const file = join(PKG, 'scenes', `${name}.png`);
        let png;
        try {
          png = readFileSync(file);
        } catch {
          stale.push(`${name}: no poster`);
          continue;
        }
        assert.equal(png.subarray(0, 8).toString('hex'), '89504e470d0a1a0a', `${name}.png: the PNG signature`);
        assert.equal(png.subarray(12, 16).toString('latin1'), 'IHDR', `${name}.png: IHDR first`);
        assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [WIDTH, HEIGHT], `${name}.png: 640×360`);
        const { rgba } = await firstFrame(page, server.url, name);
        // The committed poster, decoded by the browser, against the canvas just drawn.
        const poster = await page.evaluate(async (n) => {
          const img = new Image();
          img.src = `scenes/${n}.png`;
          await img.decode();
          const c = new OffscreenCanvas(img.naturalWidth, img.naturalHeight);
          const g = c.getContext('2d');
          g.drawImage(img, 0, 0);
          const d = g.getImageData(0, 0, c.width, c.height).data;
          let bin = '';
          for (let i = 0; i < d.length; i += 0x8000) bin += String.fromCharCode(...d.subarray(i, i + 0x8000));
          return btoa(bin);
        }, name);
        const committed = Buffer.from(poster, 'base64');
        assert.equal(committed.length, rgba.length, `${name}.png decodes to 640×360`);
        // (exact on the machine that made them; a little antialiasing slack for another
        // Chromium, while a moved point or a changed colour differs in far more pixels)
        let off = 0;
        for (let i = 0; i < rgba.length; i += 4) {
          if (Math.max(Math.abs(rgba[i] - committed[i]), Math.abs(rgba[i + 1] - committed[i + 1]), Math.abs(rgba[i + 2] - committed[i + 2])) > 24) off++;
        }
        if (off > (WIDTH * HEIGHT) / 1000) stale.push(`${name}: ${off} pixels differ`);
      }
    } finally {
      await context.close();
    }
    assert.deepEqual(stale, [], 'posters out of date: run `make posters` (or `node tools/posters.mjs` after `make web`), look at package/posters/, and commit them');
  });
});

describe('where scripts do not run', () => {
  const fallback = '<rope-lab scene="bridge"><img src="scenes/bridge.png" alt="A rope bridge between two fixed points" width="640" height="360"></rope-lab>';

  it('the light-DOM <img> shows when the element is never defined (scripts off)', async () => {
    const { context, page, errors, release } = await open(pageOf(fallback), { javaScriptEnabled: false });
    try {
      const img = page.locator('rope-lab img');
      await img.waitFor();
      assert.equal(await img.evaluate((e) => e.complete && e.naturalWidth), WIDTH, 'it loaded');
      assert.ok(await img.isVisible(), 'the fallback image is shown');
      const box = await img.boundingBox();
      assert.deepEqual([box.width, box.height], [WIDTH, HEIGHT]);
      await page.screenshot({ path: join(ARTIFACTS, 'poster-noscript.png'), clip: { x: 0, y: 0, width: WIDTH, height: HEIGHT } });
      assert.deepEqual(errors, []);
    } finally {
      release();
      await context.close();
    }
  });

  it('…and is hidden by the shadow root once the element is upgraded', async () => {
    const { context, page, errors, release } = await open(pageOf(fallback));
    try {
      await posterLoaded(page);
      const light = await page.evaluate(() => {
        const img = document.querySelector('rope-lab > img');
        return { visible: img.checkVisibility(), rects: img.getClientRects().length };
      });
      assert.deepEqual(light, { visible: false, rects: 0 }, 'the light-DOM image is not rendered');
      const p = await posterOf(page);
      assert.equal(new URL(p.src).pathname, '/pkg/scenes/bridge.png', 'the component shows the same still itself');
      release();
      await page.waitForFunction(() => document.querySelector('rope-lab').firstFrameAt > 0, null, { timeout: 15000 });
      assert.equal(await page.evaluate(() => document.querySelector('rope-lab').sim.pointCount > 0), true, 'the <img> child is not taken for a scene');
      assert.deepEqual(errors, []);
    } finally {
      release();
      await context.close();
    }
  });
});
