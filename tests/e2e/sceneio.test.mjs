// Scene files on the page (issue 3 §3): `?scene=<preset>` and `?scene=<url>` at boot, export
// (a download) → import (the file picker) round trip, a bad pasted scene (the error names the
// JSON path, the world stays), a clipboard paste and a dropped file. Against dist/ (`make web`).

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DIST, checkDist } from './serve.mjs';
import {
  ARTIFACTS, assertFinite, expectedCounts, openPage, statusLine, useBrowser, waitSteps, world,
} from './helpers.mjs';

checkDist();

let browser;
let server;
useBrowser((b, s) => ([browser, server] = [b, s]));

describe('scene files', () => {
  let page, context, errors;
  before(async () => ({ page, context, errors } = await openPage(browser, `${server.url}?scene=bridge`)));
  after(async () => context?.close());

  it('?scene=bridge loads the bridge preset at boot', async () => {
    const w = await world(page);
    const exp = expectedCounts('bridge');
    assert.equal(w.preset, 'bridge');
    assert.equal(w.points, exp.points);
    assert.equal(w.links, exp.links);
    assert.equal(await page.inputValue('#preset'), 'bridge', 'the preset select follows');
    assert.match(new URL(page.url()).search, /^\?scene=bridge$/, 'the URL keeps the scene');
    await waitSteps(page, 10);
    assertFinite((await world(page)).positions, 'bridge');
  });

  it('export downloads the current world and import loads it back (file picker)', async () => {
    // Make the world differ from any preset: cut the bridge's middle link.
    await page.evaluate(() => {
      window.ropelab.pause(true);
      const sim = window.ropelab.sim;
      const pos = sim.positions();
      const k = (sim.pointCount / 2) | 0;
      const [x0, y0, x1, y1] = [pos[3 * k], pos[3 * k + 1], pos[3 * k + 3], pos[3 * k + 4]];
      const mx = (x0 + x1) / 2, my = (y0 + y1) / 2;
      sim.cut(mx, my + 0.5, mx, my - 0.5);
    });
    const before = await world(page);
    assert.equal(before.links, expectedCounts('bridge').links - 1, 'one link cut');

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export')]);
    assert.equal(download.suggestedFilename(), 'bridge.json');
    const file = join(ARTIFACTS, 'exported-bridge.json');
    await download.saveAs(file);
    const text = await readFile(file, 'utf8');
    const json = JSON.parse(text);
    assert.equal(json.version, 1);

    // Another scene, then import the exported file.
    await page.evaluate(() => window.ropelab.loadPreset('net'));
    assert.equal((await world(page)).points, expectedCounts('net').points);
    await page.setInputFiles('#import-file', file);
    await page.waitForFunction((n) => window.ropelab.sim.linkCount === n, before.links);
    const back = await world(page);
    assert.equal(back.points, before.points, 'points round-trip');
    assert.equal(back.links, before.links, 'links round-trip');
    const worst = Math.max(...back.positions.map((v, i) => Math.abs(v - before.positions[i])));
    assert.ok(worst < 1e-5, `positions round-trip (worst ${worst})`);
    assert.equal(back.preset, null, 'an imported scene is no preset');
    assert.match(await page.locator('#preset option:checked').innerText(), /bridge \(file\)/);
    assert.doesNotMatch(page.url(), /scene=/, 'an imported scene has no address');
    await page.evaluate(() => window.ropelab.pause(false));
  });

  it('a bad pasted scene shows the error with its JSON path and keeps the world', async () => {
    await page.evaluate(() => window.ropelab.pause(true));
    const before = await world(page);
    await page.click('#paste');
    assert.equal(await page.evaluate(() => document.getElementById('paste-dialog').open), true, 'the dialog opened');
    const bad = JSON.stringify({ version: 1, ropes: [{ from: [0, 5, 0], to: [2, 5, 0], points: 1 }] });
    await page.fill('#paste-text', bad);
    await page.screenshot({ path: join(ARTIFACTS, 'paste-dialog.png') });
    await page.click('#paste-load');
    const st = await statusLine(page);
    assert.match(st.text, /ropes\[0\]\.points/, `the status names the path: ${st.text}`);
    assert.match(st.cls, /error/);
    assert.match(await page.locator('#paste-error').innerText(), /ropes\[0\]\.points/);
    assert.equal(await page.evaluate(() => document.getElementById('paste-dialog').open), true, 'the dialog stays open to fix it');
    const after = await world(page);
    assert.equal(after.points, before.points);
    assert.equal(after.links, before.links);
    assert.deepEqual(after.positions, before.positions, 'the world did not change');

    // Fixed, it loads and the dialog closes.
    await page.fill('#paste-text', bad.replace('"points":1', '"points":7'));
    await page.click('#paste-load');
    assert.equal(await page.evaluate(() => document.getElementById('paste-dialog').open), false);
    assert.equal((await world(page)).points, 7);
    await page.evaluate(() => window.ropelab.pause(false));
  });

  it('a clipboard paste and a dropped .json file load scenes', async () => {
    const paste = JSON.stringify({ version: 1, name: 'pasted', ropes: [{ from: [-1, 5, 0], to: [1, 5, 0], points: 11, lock_start: true }] });
    await page.evaluate((text) => {
      const dt = new DataTransfer();
      dt.setData('text/plain', text);
      document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    }, paste);
    assert.equal((await world(page)).points, 11, 'Ctrl+V loaded the pasted scene');

    const netText = await readFile(join(DIST, 'www/scenes/net.json'), 'utf8');
    const dt = await page.evaluateHandle((text) => {
      const d = new DataTransfer();
      d.items.add(new File([text], 'net.json', { type: 'application/json' }));
      return d;
    }, netText);
    await page.dispatchEvent('#view', 'dragenter', { dataTransfer: dt });
    assert.equal(await page.evaluate(() => document.getElementById('view').classList.contains('drop-target')), true, 'drop highlight');
    await page.dispatchEvent('#view', 'drop', { dataTransfer: dt });
    await page.waitForFunction((n) => window.ropelab.sim.pointCount === n, expectedCounts('net').points);
    assert.equal(await page.evaluate(() => document.getElementById('view').classList.contains('drop-target')), false);
    assert.equal((await world(page)).links, expectedCounts('net').links);

    // A bad dropped file: error, world kept.
    const badDt = await page.evaluateHandle(() => {
      const d = new DataTransfer();
      d.items.add(new File(['{"version": 1, "grids": [{"origin": [0, 0, 0], "cols": "x"}]}'], 'bad.json'));
      return d;
    });
    await page.dispatchEvent('#view', 'drop', { dataTransfer: badDt });
    await page.waitForFunction(() => /grids\[0\]/.test(document.getElementById('status').textContent));
    assert.equal((await world(page)).points, expectedCounts('net').points, 'the net stays');
    await waitSteps(page, 5);
    assert.deepEqual(errors, []);
  });
});

describe('?scene=<url>', () => {
  it('loads a scene file from a URL at boot; a bad URL says why and falls back', async () => {
    const { page, context, errors } = await openPage(browser, `${server.url}?scene=www/scenes/net.json`);
    try {
      const w = await world(page);
      assert.equal(w.points, expectedCounts('net').points);
      assert.equal(w.preset, null, 'loaded by URL, not as a preset');
      assert.match(page.url(), /scene=www\/scenes\/net\.json/, 'the URL keeps the address');
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
    const bad = await openPage(browser, `${server.url}?scene=www/scenes/missing.json`);
    try {
      const st = await statusLine(bad.page);
      assert.match(st.text, /missing\.json.*404/, st.text);
      assert.equal(await bad.page.evaluate(() => window.ropelab.preset), 'rope', 'fell back to the first preset');
      // The 404 itself is the only console error.
      assert.ok(bad.errors.every((e) => /404|missing\.json/.test(e)), bad.errors.join('\n'));
    } finally {
      await bad.context.close();
    }
  });
});
