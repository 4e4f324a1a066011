// <rope-lab recording="…">, in headless Chromium against dist/ (`make web`): a recording made
// with the full build's Sim in the page (a drag of the rope's end, a fling) plays in the embed
// (the lite build) bit for bit, stops on its last step behind a replay button, plays again
// from that button and with `loop`; a reader's grab takes it over and Reset plays it again;
// like every embed it starts paused under prefers-reduced-motion and stops off screen.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkDist } from './serve.mjs';
import { useBrowser } from './helpers.mjs';

checkDist();

let browser;
let server;
useBrowser((b, s) => ([browser, server] = [b, s]));

const STEPS = 150;

/** A page of the package with the component loaded and a recording made in it. */
async function open(options = {}) {
  const context = await browser.newContext({ viewport: { width: 900, height: 700 }, ...options });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  await page.route('**/pkg/__rec.html', (r) => r.fulfill({
    contentType: 'text/html',
    body: '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><script type="module" src="./rope-lab.js"></script>' +
      '<style>body{margin:0} rope-lab{width:800px}</style><body></body>',
  }));
  await page.goto(`${server.url}pkg/__rec.html`);
  // The recording, made as the page's Record makes it: the full build, the rope preset, a
  // drag of its free end on a circle, a release (a fling), a swing.
  const made = await page.evaluate(async (steps) => {
    const glue = await import('./ropelab.js');
    await glue.default();
    const { packRecording } = await import('./sharelink.js');
    const text = await (await fetch('./scenes/rope.json')).text();
    const sim = new glue.Sim();
    sim.loadScene(text);
    sim.startRecording('rope', text, 0);
    const end = sim.pointCount - 1;
    const p = sim.positions();
    const [x0, y0] = [p[3 * end], p[3 * end + 1]];
    sim.grab(1, end);
    const frames = [];
    for (let k = 0; k < steps; k++) {
      if (k < 90) sim.dragTo(1, x0 - 0.6 + 0.6 * Math.cos(k / 12), y0 - 0.6 * Math.sin(k / 12));
      if (k === 90) sim.release(1);
      sim.step(1 / 60);
      frames.push(Array.from(sim.positions()));
    }
    const rec = sim.stopRecording();
    const report = JSON.parse(glue.replayRecording(rec, text));
    sim.free();
    return { packed: await packRecording(rec), last: frames[frames.length - 1], report };
  }, STEPS);
  return { context, page, errors, ...made };
}

/** Mounts `<rope-lab recording=…>` with `attrs`; resolves when its sim exists. */
const mount = (page, packed, attrs = '') => page.evaluate(async ([r, a]) => {
  document.body.innerHTML = `<rope-lab id="e" recording="${r}" ${a}></rope-lab>`;
  const e = document.getElementById('e');
  await new Promise((ok) => e.addEventListener('ready', ok, { once: true }));
}, [packed, attrs]);

const state = (page) => page.evaluate(() => {
  const e = document.getElementById('e');
  const btn = e.shadowRoot.querySelector('.play');
  return { steps: e.steps, paused: e.paused, playing: e.sim.playing, playback: JSON.parse(e.sim.playback()), button: btn.hidden ? '' : btn.textContent, pos: Array.from(e.sim.positions()) };
});

describe('<rope-lab recording>', () => {
  it('plays a recording bit for bit, stops on its last step and replays from the button', async () => {
    const { context, page, errors, packed, last, report } = await open();
    assert.ok(report.matches, report.message);
    assert.ok(packed.startsWith('r:') && packed.length < 4096, `a link of ${packed.length} characters`);
    await mount(page, packed);
    await page.waitForFunction(() => document.getElementById('e').paused, null, { timeout: 15000 });
    const s = await state(page);
    assert.equal(s.steps, STEPS, 'stopped on the last recorded step');
    assert.equal(s.playback.done, true);
    assert.equal(s.playback.matches, true, s.playback.message);
    assert.equal(s.button, '↻', 'the replay button shows');
    assert.deepEqual(s.pos, last, 'every position as recorded (the lite build replays the full build bit for bit)');
    // The replay button plays it again from the start.
    await page.evaluate(() => document.getElementById('e').shadowRoot.querySelector('.play').click());
    await page.waitForFunction(() => document.getElementById('e').steps > 10 && document.getElementById('e').sim.playing, null, { timeout: 10000 });
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('loops with `loop`', async () => {
    const { context, page, errors, packed } = await open();
    await mount(page, packed, 'loop');
    // Past the end twice: still playing, never paused.
    let restarts = 0;
    let prev = 0;
    const until = Date.now() + 15000;
    while (restarts < 2 && Date.now() < until) {
      const { steps, paused } = await page.evaluate(() => ({ steps: document.getElementById('e').steps, paused: document.getElementById('e').paused }));
      assert.equal(paused, false);
      if (steps < prev) restarts++;
      prev = steps;
      await page.waitForTimeout(50);
    }
    assert.equal(restarts, 2, 'played from the start again twice');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('a reader who grabs takes it over; Reset plays it again', async () => {
    const { context, page, errors, packed } = await open();
    await mount(page, packed);
    await page.waitForFunction(() => document.getElementById('e').steps > 20, null, { timeout: 10000 });
    // Grab the rope's middle point where the embed draws it (the view's camera maps it).
    const at = await page.evaluate(() => {
      const e = document.getElementById('e');
      const v = e.views[0], p = e.sim.positions(), i = Math.floor(e.sim.pointCount / 2);
      const s = v.cam.toScreen(p[3 * i], p[3 * i + 1]);
      const r = e.getBoundingClientRect();
      return { x: r.x + s[0], y: r.y + s[1] };
    });
    await page.mouse.move(at.x, at.y);
    await page.mouse.down();
    await page.mouse.move(at.x + 40, at.y + 30, { steps: 5 });
    const taken = await state(page);
    await page.mouse.up();
    assert.equal(taken.playing, false, 'the replay ended under the reader\'s hand');
    assert.equal(typeof taken.playback.takenOver, 'number', JSON.stringify(taken.playback));
    const again = await page.evaluate(() => {
      const e = document.getElementById('e');
      e.reset();
      return { playing: e.sim.playing, step: JSON.parse(e.sim.playback()).step };
    });
    assert.deepEqual(again, { playing: true, step: 0 }, 'Reset plays the recording again from its start');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('starts paused behind the play button under prefers-reduced-motion, and pauses off screen', async () => {
    const { context, page, errors, packed } = await open({ reducedMotion: 'reduce' });
    await mount(page, packed);
    await page.waitForTimeout(500);
    const s = await state(page);
    assert.equal(s.paused, true);
    assert.equal(s.steps, 0);
    assert.equal(s.button, '▶');
    assert.equal(s.playing, true, 'the replay waits at its first step');
    // Played, then scrolled away: the embed stops stepping.
    await page.evaluate(() => {
      document.body.style.height = '5000px';
      document.getElementById('e').play();
    });
    await page.waitForFunction(() => document.getElementById('e').steps > 5, null, { timeout: 10000 });
    await page.evaluate(() => window.scrollTo(0, 4000));
    await page.waitForTimeout(300);
    const off = await page.evaluate(() => document.getElementById('e').steps);
    await page.waitForTimeout(500);
    assert.equal(await page.evaluate(() => document.getElementById('e').steps), off, 'no steps off screen');
    assert.deepEqual(errors, []);
    await context.close();
  });
});
