// Recordings on the page (recorder.js, docs/recordings.md): a real mouse drag recorded on the
// rope preset replays bit for bit at every step; a grab mid-replay takes over; a 30 s drag's
// link fits in 4 KB and plays, matching, in a fresh page; Save video makes a webm; the Atwood
// preset does not restart itself while recording. Screenshots of the page recording and
// playing, desktop and phone, go to tests/e2e/artifacts/. Against dist/ (`make web`).

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkDist } from './serve.mjs';
import { ARTIFACTS, DESKTOP, PHONE, openPage, statusLine, useBrowser } from './helpers.mjs';

checkDist();

let browser;
let server;
useBrowser((b, s) => ([browser, server] = [b, s]));

/**
 * Wraps the page's `sim.step` so that the positions' bits after every step are kept: while
 * recording under `rec[recordedSteps]`, while replaying under `play[playback step]`.
 */
const hookSteps = (page) => page.evaluate(() => {
  const sim = window.ropelab.sim;
  const proto = Object.getPrototypeOf(sim);
  const log = { rec: [], play: [] };
  window.stepLog = log;
  sim.step = function step(h) {
    const playing = this.playing;
    proto.step.call(this, h);
    const bits = Array.from(new Uint32Array(new Float32Array(this.positions()).buffer));
    if (this.recording) log.rec[this.recordedSteps] = bits;
    else if (playing) log.play[JSON.parse(this.playback()).step] = bits;
  };
});

/** The screen position (CSS px) of point `i` of the page's world. */
const pointOnScreen = (page, i) => page.evaluate((k) => {
  const p = window.ropelab.sim.positions();
  return window.ropelab.toScreen(p[3 * k], p[3 * k + 1]);
}, i);

/** Moves the pressed mouse along a hand-like loop around (x0, y0) for `ms`, a move per ~16 ms. */
async function dragAround(page, x0, y0, ms, r = 90) {
  const t0 = Date.now();
  for (let t = 0; Date.now() - t0 < ms; t = Date.now() - t0) {
    await page.mouse.move(...pathAt(x0, y0, r, t / 1000));
    await page.waitForTimeout(16);
  }
}

/**
 * dragAround's path at time `s` (seconds) around (x0, y0), radius `r`: two incommensurate
 * frequencies and a slow drift, so no step of it repeats the last.
 * @returns {[number, number]}
 */
function pathAt(x0, y0, r, s) {
  const x = x0 + r * Math.sin(2.1 * s) + 0.3 * r * Math.sin(5.3 * s + 1);
  const y = y0 + 0.6 * r * Math.sin(3.4 * s + 0.5) - 0.2 * r * Math.cos(0.7 * s);
  return [x, y];
}

const playback = (page) => page.evaluate(() => JSON.parse(window.ropelab.sim.playback()));

describe('recordings on the page', () => {
  let page, context, errors;
  before(async () => ({ page, context, errors } = await openPage(browser, `${server.url}?scene=rope`, DESKTOP)));
  after(async () => context?.close());

  it('a mouse drag recorded on the rope replays bit for bit at every step', async () => {
    await hookSteps(page);
    // Paused first, so the grab lands on a still rope; the pause is recorded as a mark.
    await page.evaluate(() => window.ropelab.pause(true));
    await page.click('#rec');
    assert.equal(await page.evaluate(() => window.ropelab.sim.recording), true, 'Record started a recording');
    assert.equal(await page.isVisible('#rec-badge'), true, 'the badge shows while recording');
    assert.match(await page.textContent('#rec-badge'), /^● 0\.0 s ■$/);
    const [x, y] = await pointOnScreen(page, 23); // the rope's free end
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.waitForTimeout(150);
    await page.evaluate(() => window.ropelab.pause(false));
    await dragAround(page, x - 60, y + 40, 1500);
    await page.screenshot({ path: join(ARTIFACTS, 'recording-desktop.png') });
    await dragAround(page, x - 60, y + 40, 1500);
    await page.mouse.up(); // mid-swing: a fling
    await page.waitForTimeout(600);
    await page.click('#rec');
    const rec = await page.evaluate(() => {
      const r = window.ropelab.app.recorder;
      return { text: r.text, recording: window.ropelab.sim.recording };
    });
    assert.equal(rec.recording, false, 'Stop ended the recording');
    const json = JSON.parse(rec.text);
    assert.equal(json.scene, 'rope', 'an untouched preset is named, not carried');
    assert.ok(json.steps > 150, `about 3.5 s recorded (${json.steps} steps)`);
    const ops = new Set(json.inputs.map((e) => e[1]));
    assert.ok(ops.has('grab') && ops.has('release'), `the grab and the release are in it (${[...ops].join(', ')})`);
    assert.ok(json.inputs.some((e) => e[1] === 'mark' && e[2] === 'pause'), 'the pause is marked');

    await page.click('#rec-play');
    await page.waitForFunction(() => window.ropelab.sim.playing && JSON.parse(window.ropelab.sim.playback()).step > 60, null, { timeout: 15000 });
    assert.equal(await page.isVisible('#rec-badge'), true, 'the badge shows while playing');
    assert.match(await page.textContent('#rec-badge'), /^▶ \d\.\d \/ \d\.\d s ■$/);
    await page.screenshot({ path: join(ARTIFACTS, 'playing-desktop.png') });
    await page.waitForFunction(() => JSON.parse(window.ropelab.sim.playback())?.done === true, null, { timeout: 20000 });
    const p = await playback(page);
    assert.equal(p.matches, true, `the replay matches: ${p.message}`);
    assert.equal(p.takenOver, null);
    assert.equal(p.steps, json.steps);
    await page.waitForFunction(() => /✓ replays it exactly/.test(document.getElementById('rec-info').textContent), null, { timeout: 5000 })
      .catch(async (e) => { throw new Error(`${e.message}: the line says "${await page.textContent('#rec-info')}"`); });
    assert.ok((await page.textContent('#rec-info')).includes(json.hash), 'the line shows the state at the last step, the recorded one');

    const log = await page.evaluate(() => window.stepLog);
    let compared = 0;
    for (let k = 1; k <= json.steps; k++) {
      assert.ok(log.rec[k], `step ${k} was seen while recording`);
      assert.ok(log.play[k], `step ${k} was seen while replaying`);
      assert.deepEqual(log.play[k], log.rec[k], `step ${k}: the replay's positions differ from the recording's`);
      compared++;
    }
    assert.equal(compared, json.steps);
    console.log(`recorded ${json.steps} steps (${json.inputs.length} entries), every step's ${log.rec[1].length} coordinates equal bit for bit in the replay`);
  });

  it('a grab during the replay takes over: the replay ends there and the world follows the grab', async () => {
    await page.click('#rec-play');
    await page.waitForFunction(() => JSON.parse(window.ropelab.sim.playback()).step > 40, null, { timeout: 15000 });
    // Paused (which does not end a replay), so the point is where it was read when grabbed.
    await page.evaluate(() => window.ropelab.pause(true));
    assert.equal(await page.evaluate(() => window.ropelab.sim.playing), true, 'a pause does not end the replay');
    const [x, y] = await pointOnScreen(page, 12); // the rope's middle
    await page.mouse.move(x, y);
    await page.mouse.down();
    const p = await playback(page);
    assert.equal(p.playing, false, 'the replay ended');
    assert.equal(typeof p.takenOver, 'number', 'and says where it was taken over');
    assert.ok(p.takenOver > 40 && p.takenOver < p.steps, `taken over mid-way (step ${p.takenOver} of ${p.steps})`);
    const [tx, ty] = [x + 120, y - 80];
    await page.mouse.move(tx, ty, { steps: 5 });
    await page.evaluate(() => window.ropelab.pause(false));
    await page.waitForTimeout(500);
    const held = await page.evaluate(([px, py]) => {
      const r = window.ropelab;
      r.sim.refreshRender();
      const pos = r.sim.positions();
      const [wx, wy] = r.toWorld(px, py);
      return { flag: r.sim.pointFlags()[12], d: Math.hypot(pos[36] - wx, pos[37] - wy) };
    }, [tx, ty]);
    await page.mouse.up();
    assert.equal(held.flag & 2, 2, 'the grabbed point is held');
    assert.ok(held.d < 0.1, `the grabbed point followed the pointer (${held.d.toFixed(3)} m off)`);
    await page.waitForFunction(() => /taken over at step \d+/.test(document.getElementById('rec-info').textContent));
    assert.equal(await page.isVisible('#rec-badge'), false, 'the badge is gone');
  });

  it('Save video replays the recording into a webm download', async () => {
    const type = await page.evaluate(() => window.ropelab.app.recorder.videoType());
    assert.match(type ?? '', /^video\/webm/, 'headless Chromium has MediaRecorder with webm');
    const steps = await page.evaluate(() => window.ropelab.app.recorder.steps);
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 30000 }),
      page.click('#rec-video'),
    ]);
    assert.match(download.suggestedFilename(), /\.webm$/);
    const file = join(ARTIFACTS, 'recording.webm');
    await download.saveAs(file);
    const bytes = await readFile(file);
    assert.ok(bytes.length > 10000, `a video of some size (${bytes.length} B)`);
    assert.deepEqual([...bytes.subarray(0, 4)], [0x1a, 0x45, 0xdf, 0xa3], 'a Matroska/WebM file (EBML header)');
    console.log(`video of a ${(steps / 60).toFixed(1)} s recording: ${bytes.length} bytes (${type})`);
    assert.match((await statusLine(page)).text, /saved .*\.webm/);
  });

  it('a damaged recording link says so and shows the default scene', async () => {
    const { page: p2, context: c2 } = await openPage(browser, `${server.url}#s=r:____`, DESKTOP);
    try {
      const s = await statusLine(p2);
      assert.match(s.text, /link: the recording in this link is damaged or cut short/);
      assert.equal(s.cls, 'status error');
      assert.equal(await p2.evaluate(() => window.ropelab.preset), 'rope');
    } finally {
      await c2.close();
    }
  });

  it('no page errors', () => assert.deepEqual(errors, []));
});

describe('a 30 s recording link', () => {
  let page, context, errors;
  before(async () => ({ page, context, errors } = await openPage(browser, `${server.url}?scene=rope`, DESKTOP)));
  after(async () => context?.close());

  let link;
  it('30 s of continuous dragging fits in a link of at most 4096 characters', { timeout: 180000 }, async () => {
    await page.evaluate(() => window.ropelab.pause(true));
    await page.click('#rec');
    const [x, y] = await pointOnScreen(page, 23);
    await page.mouse.move(x, y);
    await page.mouse.down();
    // Dragged on the paused page, one pointer move a step: the track recorded is the path's,
    // a move every 1/60 s. In real time it was the machine's: a busy machine's uneven frames
    // left steps without a move and others with two, a rough track (a fresh-clone run recorded
    // a 4,512-character link where the runs before gave about 3,530).
    for (let k = 0; k < 1800; k++) {
      await page.mouse.move(...pathAt(x - 80, y + 60, 110, k / 60));
      await page.evaluate(() => window.ropelab.step(1));
      await page.waitForFunction(() => window.ropelab.app.pendingSteps === 0);
    }
    await page.mouse.up();
    await page.click('#rec');
    await page.evaluate(() => window.ropelab.pause(false));
    const r = await page.evaluate(async () => {
      const rec = window.ropelab.app.recorder;
      return { steps: rec.steps, json: rec.text.length, link: await rec.shareLink() };
    });
    link = r.link;
    const json = JSON.parse(await page.evaluate(() => window.ropelab.app.recorder.text));
    const drags = json.inputs.filter((e) => e[1] !== 'mark' && e[1] !== 'grab' && e[1] !== 'release');
    console.log(`30 s drag: ${r.steps} steps, recording ${r.json} B of JSON, ${drags.length} drag entries; link ${link.length} characters`);
    assert.equal(r.steps, 1800, '30 s recorded');
    assert.match(link, /#s=r:[A-Za-z0-9_-]+$/);
    assert.ok(link.length <= 4096, `the link is ${link.length} characters`);
  });

  it('the link opened in a fresh page replays it, and the final state matches', { timeout: 60000 }, async () => {
    assert.ok(link, 'the link from the test before');
    const { page: p2, context: c2, errors: e2 } = await openPage(browser, link, DESKTOP);
    try {
      assert.equal(await p2.evaluate(() => window.ropelab.sim.playing), true, 'the link plays at once');
      assert.equal(await p2.evaluate(() => window.ropelab.preset), 'rope', 'on the preset it names');
      assert.match(p2.url(), /#s=r:/, 'the address keeps the recording');
      // The page's own loop runs the replay; single steps (600 a frame at most) skip the wait.
      await p2.evaluate(() => window.ropelab.pause(true));
      for (let i = 0; i < 4; i++) {
        await p2.evaluate(() => window.ropelab.step(600));
        await p2.waitForFunction(() => window.ropelab.app.pendingSteps === 0);
      }
      await p2.waitForFunction(() => JSON.parse(window.ropelab.sim.playback())?.done === true, null, { timeout: 20000 });
      const p = await playback(p2);
      assert.equal(p.matches, true, p.message);
      assert.equal(p.divergedAt, null);
      assert.deepEqual(e2, []);
    } finally {
      await c2.close();
    }
  });

  it("a scene's own restart (Atwood's) waits while recording and replaying", { timeout: 30000 }, async () => {
    await page.evaluate(() => window.ropelab.loadPreset('atwood'));
    // The sim's restartDue made true from here on: the page alone decides (a recorded or
    // replayed world carries no restart of its own: the report of this branch says so).
    const restarts = () => page.evaluate(() => window.ropelab.app.restarts);
    const due = () => page.evaluate(() => Object.defineProperty(window.ropelab.sim, 'restartDue', { get: () => true, configurable: true }));
    await page.click('#rec');
    await due();
    const r0 = await restarts();
    await page.waitForTimeout(1000); // (a second recorded: the replay below runs that long)
    assert.equal(await page.evaluate(() => window.ropelab.sim.recording), true);
    assert.equal(await restarts(), r0, 'no restart while recording');
    await page.click('#rec');
    await page.waitForFunction((n) => window.ropelab.app.restarts > n, r0, { timeout: 5000 });
    await page.evaluate(() => delete window.ropelab.sim.restartDue);

    await page.click('#rec-play');
    await due();
    const r1 = await restarts();
    await page.waitForTimeout(300);
    assert.equal(await page.evaluate(() => window.ropelab.sim.playing), true);
    assert.equal(await restarts(), r1, 'no restart while replaying');
    await page.evaluate(() => delete window.ropelab.sim.restartDue);
  });

  it('no page errors', () => assert.deepEqual(errors, []));
});

describe('recording on a phone', () => {
  let page, context, errors;
  before(async () => ({ page, context, errors } = await openPage(browser, `${server.url}?scene=rope`, PHONE)));
  after(async () => context?.close());

  it('the view bar records, shows the time, stops and plays', async () => {
    assert.equal(await page.isVisible('#rec-quick'), true, 'the record button is over the view');
    await page.tap('#rec-quick');
    assert.equal(await page.evaluate(() => window.ropelab.sim.recording), true);
    const [x, y] = await pointOnScreen(page, 12); // the middle: a phone shows less width
    await page.mouse.move(x, y);
    await page.mouse.down();
    await dragAround(page, x - 40, y + 60, 1500, 60);
    await page.mouse.up();
    assert.match(await page.textContent('#rec-badge'), /^● \d\.\d s ■$/);
    await page.screenshot({ path: join(ARTIFACTS, 'recording-phone.png') });
    await page.tap('#rec-badge');
    assert.equal(await page.evaluate(() => window.ropelab.sim.recording), false, 'the badge stops it');
    assert.equal(await page.isVisible('#rec-quick-play'), true);
    await page.tap('#rec-quick-play');
    await page.waitForFunction(() => JSON.parse(window.ropelab.sim.playback())?.step > 40, null, { timeout: 10000 });
    assert.match(await page.textContent('#rec-badge'), /^▶ /);
    await page.screenshot({ path: join(ARTIFACTS, 'playing-phone.png') });
    await page.waitForFunction(() => JSON.parse(window.ropelab.sim.playback())?.done === true, null, { timeout: 15000 });
    assert.equal((await playback(page)).matches, true);
  });

  it('no page errors', () => assert.deepEqual(errors, []));
});
