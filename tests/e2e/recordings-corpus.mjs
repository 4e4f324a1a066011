// Makes the recordings of tests/recordings/ in the browser (a script, not a test: run it
// again after a change that moves trajectories — recording::ENGINE raised — or to add one):
//
//   node tests/e2e/recordings-corpus.mjs [name...]      (needs dist/: `make web`)
//
// Each recording is made on the page by its own input path: the preset is loaded, the page's
// sim starts recording (`sim.startRecording(preset, presetText, 0)`: the world restarts from
// the scene), the input is real pointer events (page.mouse down / move / up, so the page's
// gestures.js picks, grabs, drags, cuts and releases), the world runs on a while, and
// `stopRecording()` gives the file, written as tests/recordings/<name>.json. Then each file
// is replayed in node in the same wasm, at once (`replayRecording`) and step by step
// (`playRecording`, recordings-lib.mjs `playFacts`), and what it shows is printed and checked
// (`CLAIMS`): a tangle formed, a link torn, links cut, a box come down. The script exits 1
// if any replay differs or any claim fails (the file is written anyway, to look at).
//
//   leash-tangle   the leash preset (dogs wandering): the mouse grabs dog 1 and walks it twice
//                  around dog 2 (following dog 2 as it wanders), then lets go: the leashes
//                  tangle.
//   rope-tear      the rope preset hanging straight down, with `tear_force` on its rope (no
//                  preset tears, and tearing is per link, not a setting: the recording carries
//                  this scene inline): the
//                  mouse grabs the free end, lifts it beside the anchor and flings it down and
//                  away (the fling is marked in the recording, `recordMark('fling')`): links
//                  tear.
//   bridge-cut     the bridge preset: two swipes on empty space across the bridge (the page's
//                  cut gesture in drag mode, made with the page paused) cut it in two
//                  places; the middle piece falls.
//   pyramid-knock  the pyramid preset: the mouse grabs the top box, pushes it off sideways
//                  and lets go: it tumbles down the pyramid's stepped side to the ground.

import { chromium } from 'playwright-core';
import { writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serve } from './serve.mjs';
import { ARGS, CHROMIUM, DESKTOP } from './helpers.mjs';
import { REPO, loadBuiltWasm } from '../node/built-wasm.mjs';
import { RECORDINGS, failedClaims, playFacts, sceneTextFor } from './recordings-lib.mjs';

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

/** Resolves in the page once the loop has run at least `n` more fixed steps. */
const waitSteps = (page, n) => page.evaluate((n) => new Promise((resolve) => {
  const st = window.ropelab.app.stats;
  const s0 = st.steps;
  const poll = () => (st.steps >= s0 + n ? resolve() : requestAnimationFrame(poll));
  poll();
}), n);

const toScreen = (page, x, y) => page.evaluate(([x, y]) => window.ropelab.toScreen(x, y), [x, y]);

/** Point `i`'s view-plane coordinates (x, y; the top view's x, z). */
const pointAt = (page, i) => page.evaluate((i) => {
  const sim = window.ropelab.sim;
  const p = sim.positions();
  return sim.view === 'top' ? [p[3 * i], p[3 * i + 2]] : [p[3 * i], p[3 * i + 1]];
}, i);

/** Starts recording on the page's sim: the world restarts from `text`. */
async function startRecording(page, ref, text) {
  await page.evaluate(([ref, text]) => window.ropelab.sim.startRecording(ref, text, 0), [ref, text]);
  const on = await page.evaluate(() => window.ropelab.sim.recording);
  if (!on) throw new Error('startRecording did not start a recording');
}

/**
 * Presses the mouse on point `i` (as the user would after pausing to aim: the world stands
 * still between reading where the point is and the press) and runs on; returns the point's
 * position. `nudge(p)`: a first move (world point) made before the world runs on.
 */
async function pressOnPoint(page, i, nudge = null) {
  await page.evaluate(() => window.ropelab.pause(true));
  const p = await pointAt(page, i);
  const [px, py] = await toScreen(page, ...p);
  await page.mouse.move(px, py);
  await page.mouse.down();
  const held = await page.evaluate(() => window.ropelab.sim.heldBy(1));
  if (nudge) await page.mouse.move(...(await toScreen(page, ...nudge(p))));
  await page.evaluate(() => window.ropelab.pause(false));
  if (held !== i) throw new Error(`the mouse holds point ${held}, not point ${i}`);
  return p;
}

const stopRecording = (page) => page.evaluate(() => window.ropelab.sim.stopRecording());

/** The preset's text as the page fetched it. */
const presetText = (page, name) => page.evaluate((name) => window.ropelab.app.sceneText(name), name);

const CASES = {
  /** Dog 1 dragged twice around dog 2 (which keeps wandering): the leashes tangle. */
  async 'leash-tangle'(page) {
    const text = await presetText(page, 'leash');
    await startRecording(page, 'leash', text);
    await waitSteps(page, 30);
    const leash = await page.evaluate(() => JSON.parse(window.ropelab.sim.leash()));
    const [d1, d2] = [leash.dogs[0].point, leash.dogs[1].point];
    const p0 = await pressOnPoint(page, d1);
    // From dog 1's side of dog 2, around it twice at 0.35 m, 0.5 m/s; the circle follows dog
    // 2 as it wanders (the camera stays put while a pointer is down).
    const R = 0.35;
    const c0 = await pointAt(page, d2);
    const a0 = Math.atan2(p0[0] - c0[0], p0[1] - c0[1]);
    const moves = Math.ceil((4 * Math.PI * R) / (0.5 / 60) / 2); // (a move about every other step)
    // Ease in from dog 1's place onto the circle over the first 30 moves.
    for (let k = 1; k <= moves; k++) {
      const a = a0 - (4 * Math.PI * k) / moves; // clockwise seen from above
      const ease = Math.min(1, k / 30);
      const [px, py] = await page.evaluate(([d2, a, ease, p0, R]) => {
        const pos = window.ropelab.sim.positions();
        const c = [pos[3 * d2], pos[3 * d2 + 2]];
        const on = [c[0] + R * Math.sin(a), c[1] + R * Math.cos(a)];
        return window.ropelab.toScreen(p0[0] + (on[0] - p0[0]) * ease, p0[1] + (on[1] - p0[1]) * ease);
      }, [d2, a, ease, p0, R]);
      await page.mouse.move(px, py);
      await waitSteps(page, 1);
    }
    await page.mouse.up();
    await waitSteps(page, 180);
    const tangles = await page.evaluate(() => JSON.parse(window.ropelab.sim.tangles()).length);
    console.log(`  on the page: ${tangles} live tangle(s) when it stopped`);
    return { text: await stopRecording(page), sceneText: text };
  },

  /** The rope with tearing links: its free end swung and flung away from the anchor. */
  async 'rope-tear'(page) {
    const s = JSON.parse(await presetText(page, 'rope'));
    s.name = 'rope-tear';
    s.description = 'The rope preset hanging straight down at rest, solved by XPBD, its links tearing past 150 N (tests/recordings/rope-tear.json: the mouse flings its free end).';
    s.settings.solver = 'xpbd';
    Object.assign(s.ropes[0], { from: [0, 5.5, 0], to: [0, 1.5, 0], tear_force: 150 });
    const text = JSON.stringify(s, null, 1);
    await page.evaluate((t) => window.ropelab.loadSceneText(t), text);
    await startRecording(page, '', text);
    await waitSteps(page, 60);
    const end = (await page.evaluate(() => window.ropelab.sim.pointCount)) - 1;
    const linkCount = await page.evaluate(() => window.ropelab.sim.linkCount);
    // Lift it to beside the anchor (slowly: at most 2 m/s, a move per step), then fling it down and away, fast. The first
    // move (up 3 cm) comes before the world runs on: held at both ends while it hangs
    // straight and taut, an exact (inextensible) rope's tension has no bound, and the links
    // would all tear at once at the press.
    const anchor = [0, 5.5];
    const lift = [anchor[0] + 0.6, anchor[1] - 0.3];
    const p = await pressOnPoint(page, end, (p) => [p[0] + (lift[0] - p[0]) / 120, p[1] + (lift[1] - p[1]) / 120]);
    const path = [];
    for (let k = 2; k <= 120; k++) path.push([p[0] + ((lift[0] - p[0]) * k) / 120, p[1] + ((lift[1] - p[1]) * k) / 120]);
    for (const q of path) {
      const [px, py] = await toScreen(page, ...q);
      await page.mouse.move(px, py);
      await waitSteps(page, 1);
    }
    await waitSteps(page, 30);
    // The fling: down and away in one quick stroke (marked in the recording: what tears
    // must tear from here on).
    await page.evaluate(() => window.ropelab.sim.recordMark('fling', 0));
    const [fx, fy] = await toScreen(page, 4.5, 1.0);
    await page.mouse.move(fx, fy, { steps: 6 });
    await waitSteps(page, 20);
    await page.mouse.up();
    await waitSteps(page, 120);
    const links = await page.evaluate(() => window.ropelab.sim.linkCount);
    console.log(`  on the page: links ${linkCount} → ${links}`);
    return { text: await stopRecording(page), sceneText: '' };
  },

  /** Two cut swipes across the bridge (the page's gesture: drag mode, empty space). */
  async 'bridge-cut'(page) {
    const text = await presetText(page, 'bridge');
    await startRecording(page, 'bridge', text);
    await waitSteps(page, 120); // it sags into its catenary
    const before = await page.evaluate(() => window.ropelab.sim.linkCount);
    // Two swipes across the links after points 12 and 24, each perpendicular to its link,
    // from 0.8 m on one side to 0.8 m on the other, made while the page is paused (Space):
    // once cut, the pieces swing away faster than a loaded machine's pointer events follow.
    await page.evaluate(() => window.ropelab.pause(true));
    const swipes = await page.evaluate((ids) => ids.map((i) => {
      const p = window.ropelab.sim.positions();
      const a = [p[3 * i], p[3 * i + 1]];
      const b = [p[3 * i + 3], p[3 * i + 4]];
      const m = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
      const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
      const n = [-(b[1] - a[1]) / len, (b[0] - a[0]) / len];
      const from = [m[0] + 0.8 * n[0], m[1] + 0.8 * n[1]];
      const to = [m[0] - 0.8 * n[0], m[1] - 0.8 * n[1]];
      const cam = window.ropelab.camera;
      return { from: cam.toScreen(...from), to: cam.toScreen(...to), empty: window.ropelab.sim.pick(from[0], from[1], 20 / cam.scale) === -1 };
    }), [12, 24]);
    for (const sw of swipes) {
      if (!sw.empty) throw new Error('the swipe does not start on empty space');
      await page.mouse.move(...sw.from);
      await page.mouse.down();
      await page.mouse.move(...sw.to, { steps: 10 });
      await page.mouse.up();
    }
    await page.evaluate(() => window.ropelab.pause(false));
    await waitSteps(page, 150);
    const after = await page.evaluate(() => window.ropelab.sim.linkCount);
    console.log(`  on the page: links ${before} → ${after}`);
    return { text: await stopRecording(page), sceneText: text };
  },

  /** The pyramid's top box pulled off sideways by the mouse and let go. */
  async 'pyramid-knock'(page) {
    const text = await presetText(page, 'pyramid');
    await startRecording(page, 'pyramid', text);
    await waitSteps(page, 30);
    // The top box: the highest dynamic body (paused while aiming, as in pressOnPoint).
    await page.evaluate(() => window.ropelab.pause(true));
    const top = await page.evaluate(() => {
      const sim = window.ropelab.sim;
      const bodies = JSON.parse(sim.bodiesJson());
      sim.refillBodyPoses(1);
      const poses = sim.bodyPoses();
      let best = null;
      bodies.forEach((b, k) => {
        if (b.kind !== 'static' && (!best || poses[7 * k + 1] > best.y)) best = { id: b.id, x: poses[7 * k], y: poses[7 * k + 1] };
      });
      return best;
    });
    // Grab it near its top-left corner (inside the box, a body is picked under the pointer).
    const grip = [top.x - 0.3, top.y + 0.3];
    const g = await toScreen(page, ...grip);
    await page.mouse.move(g[0], g[1]);
    await page.mouse.down();
    const kind = await page.evaluate(() => window.ropelab.app.ui.gestures.pointers.get(1)?.kind ?? null);
    await page.evaluate(() => window.ropelab.pause(false));
    if (kind !== 'grabBody') throw new Error(`the mouse did not grab the top box (gesture ${kind})`);
    // Pushed out to the left over 1.5 s, off the box under it, then let go: it tumbles down
    // the pyramid's stepped side.
    const path = [];
    for (let k = 1; k <= 90; k++) path.push([grip[0] - (1.2 * k) / 90, grip[1] + 0.1]);
    for (const q of path) {
      const [px, py] = await toScreen(page, ...q);
      await page.mouse.move(px, py);
      await waitSteps(page, 1);
    }
    await page.mouse.up();
    await waitSteps(page, 240);
    return { text: await stopRecording(page), sceneText: text };
  },
};

const PRESET = { 'leash-tangle': 'leash', 'rope-tear': 'rope', 'bridge-cut': 'bridge', 'pyramid-knock': 'pyramid' };

const names = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(CASES);
for (const n of names) if (!CASES[n]) throw new Error(`unknown recording ${n} (${Object.keys(CASES).join(', ')})`);
mkdirSync(RECORDINGS, { recursive: true });
const { bindings } = await loadBuiltWasm('recordings-corpus');
const server = await serve();
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
let failures = 0;
try {
  for (const name of names) {
    console.log(`${name}:`);
    const ctx = await browser.newContext(DESKTOP);
    const page = await ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.goto(`${server.url}?scene=${PRESET[name]}`);
    await page.waitForFunction(() => window.ropelab?.ready === true);
    await waitSteps(page, 10);
    const { text } = await CASES[name](page);
    if (errors.length) console.log(`  page errors: ${errors.join(' | ')}`);
    await ctx.close();
    // Written as the page returned it, re-indented (1 space) for diffs.
    const file = join(RECORDINGS, `${name}.json`);
    writeFileSync(file, `${JSON.stringify(JSON.parse(text), null, 1)}\n`);
    const written = readFileSync(file, 'utf8');
    const sceneText = sceneTextFor(written);
    const report = JSON.parse(bindings.replayRecording(written, sceneText));
    const facts = playFacts(bindings.Sim, written, sceneText);
    const rec = JSON.parse(written);
    console.log(`  ${file.slice(REPO.length + 1)}: ${rec.steps} steps, ${written.length} bytes, ${rec.inputs.length} input entries ${JSON.stringify(facts.inputs)}`);
    console.log(`  replayRecording: ${report.message} (recorded ${rec.hash})`);
    console.log(`  step by step: ${facts.playback.message}`);
    const during = facts.formed.filter((t) => t.step >= facts.held[0] && t.step <= facts.held[1]);
    console.log(`  mouse held from step ${facts.held[0]} to ${facts.held[1]}; tangles formed meanwhile: ${JSON.stringify(during.map((t) => [t.over, t.under, t.step]))}`);
    if (Object.keys(facts.marks).length) console.log(`  marks ${JSON.stringify(facts.marks)}; torn at steps ${JSON.stringify(facts.torn.map((t) => t.step))}`);
    console.log(`  events ${JSON.stringify(facts.events)}; tangles formed ${facts.tangleIds.length} (at most ${facts.maxTangles} live); torn ${facts.torn.length}${facts.torn.length ? ` (first at step ${facts.torn[0].step}, stretch ${facts.torn[0].stretch.toFixed(3)})` : ''}; links ${facts.links.join(' → ')}; points ${facts.points.join(' → ')}`);
    const movable = Object.entries(facts.bodies).filter(([, b]) => b.kind !== 'static');
    if (movable.length) {
      const top = movable.reduce((a, b) => (b[1].from[1] > a[1].from[1] ? b : a));
      const moved = movable.filter(([, b]) => Math.hypot(b.to[0] - b.from[0], b.to[1] - b.from[1]) > 0.05).length;
      const touched = new Set(facts.contacts.filter((c) => c.step > facts.held[1] && (c.a === +top[0] || c.b === +top[0])).map((c) => (c.a === +top[0] ? c.b : c.a)));
      console.log(`  after the release the top box touched bodies ${JSON.stringify([...touched])}`);
      console.log(`  top box #${top[0]}: (${top[1].from.slice(0, 2).map((v) => v.toFixed(2))}) → (${top[1].to.slice(0, 2).map((v) => v.toFixed(2))}); ${moved} of ${movable.length} boxes moved > 5 cm`);
    }
    const failed = failedClaims(name, facts);
    const ok = report.matches && report.hash === rec.hash && facts.playback.matches === true && failed.length === 0;
    if (!ok) {
      failures++;
      console.log(`  FAILED: ${[...(report.matches ? [] : ['replayRecording differs']), ...(facts.playback.matches ? [] : ['step-by-step replay differs']), ...failed].join('; ')}`);
    }
  }
} finally {
  await browser.close();
  await server.close();
}
process.exit(failures ? 1 : 0);
