// The leash scene on the page (issue 4 §1, §3, §4): the top view drawn as a knot diagram,
// the braid / tangle panel, the event log, and mouse drags of the dogs; the capstan preset in
// side view.
//
// What it checks: the leash preset loads (3 ropes, top view, +z pointing down on screen so
// that clockwise seen from above is clockwise on the page); the braid panel shows a word and
// agrees with `sim.braid()`; the wander toggle stops the dogs; a mouse drag moves a dog; a
// scripted mouse walk of dog 1 once clockwise (on screen) around dog 2 gives σ1⁻¹ halfway and
// σ1⁻² at the end, with the hint "dog 1 walks once all the way around dog 2,
// counter-clockwise" (not mirrored), and walking back gives the identity; the crossings JSON
// has a crossing where the canvas shows one; events reach the log, formed once per tangle;
// no coordinate is NaN; the console stays free of errors. Screenshots (tests/e2e/artifacts/,
// gitignored): leash-crossing.png (+ -zoom), leash-tangle.png, leash-twisted.png (σ1⁻² and its
// hint), leash-untangled.png, capstan.png.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { checkDist } from './serve.mjs';
import { ARTIFACTS, assertFinite, openPage, useBrowser, waitSteps } from './helpers.mjs';

checkDist();

/** Tolerances, stated once. */
const TOL = {
  follow: 0.06, // m: a dragged dog sits near the pointer (the leash and the ground pull on it)
};

const WALK_SPEED = 0.5; // m/s along the circle (as the Rust test tests/leash.rs)
const R = 0.3;          // m: dog 1 circles dog 2 at this radius
const DOG2 = [0.0, 1.35]; // top view (x, z)

/**
 * Dog 1's collar after walking θ clockwise seen from above around dog 2, starting on dog 2's
 * right (−x): tests/leash.rs `circle`. With +z down on screen this is clockwise on screen.
 */
function circle(theta) {
  const a = -Math.PI / 2 - theta; // in the handler's frame (front = +z, left = +x)
  return [DOG2[0] + R * Math.sin(a), DOG2[1] + R * Math.cos(a)];
}

/** The preset with the dogs placed for the scripted walk and the wander off. */
async function scriptedScene(page) {
  const text = await page.evaluate(async () => (await fetch('www/scenes/leash.json')).text());
  const s = JSON.parse(text);
  s.leash.dogs[0].at = [-0.3, 0.4, 1.35];
  s.leash.dogs[1].at = [0.0, 0.4, 1.35];
  s.leash.dogs[2].at = [0.9, 0.4, 1.0];
  s.leash.wander.enabled = false;
  return JSON.stringify(s);
}

const toScreen = (page, x, y) => page.evaluate(([x, y]) => window.ropelab.toScreen(x, y), [x, y]);

/** Leash info, dog positions (x, y, z) and the braid, straight from the sim. */
const leashState = (page, swivel = false) => page.evaluate((swivel) => {
  const sim = window.ropelab.sim;
  const leash = JSON.parse(sim.leash());
  const braid = JSON.parse(sim.braid(swivel));
  const pos = Array.from(sim.positions());
  const dogs = leash.dogs.map((d) => [pos[3 * d.point], pos[3 * d.point + 1], pos[3 * d.point + 2]]);
  const hand = [pos[3 * leash.hand], pos[3 * leash.hand + 1], pos[3 * leash.hand + 2]];
  return { leash, braid, dogs, hand, positions: pos };
}, swivel);

/** What the braid panel shows. */
const panel = (page) => page.evaluate(() => {
  const t = (id) => document.getElementById(id)?.textContent ?? null;
  return {
    visible: !document.getElementById('tangle-section').hidden,
    word: t('braid-word'),
    reduced: t('braid-reduced'),
    crossings: t('braid-crossings'),
    status: t('braid-status'),
    hint: [...document.querySelectorAll('#braid-hint li')].map((li) => li.textContent),
    tangles: document.querySelectorAll('#tangle-list tr').length,
    log: [...document.querySelectorAll('#tangle-log li')].map((li) => li.textContent),
    eventCount: window.ropelab.app.tanglePanel.eventCount,
    formed: window.ropelab.app.tanglePanel.formed,
    broken: window.ropelab.app.tanglePanel.broken,
    fullLog: window.ropelab.app.tanglePanel.log.map((e) => e.text),
  };
});

/** Waits until the panel has refreshed (≥ 250 ms) and shows what `sim.braid()` says. */
async function panelMatchesSim(page) {
  await page.waitForFunction(() => {
    const b = JSON.parse(window.ropelab.sim.braid(window.ropelab.app.tanglePanel.swivel));
    const shown = document.getElementById('braid-word').textContent;
    return shown === (b.letters.length ? b.word : 'e (empty)');
  }, null, { timeout: 5000, polling: 50 });
}

/**
 * Pauses the sim, lets the panel refresh, and checks it shows exactly what `sim.braid()`
 * says (word, reduced form, crossing count); then runs again. Returns the braid.
 */
async function panelConsistent(page) {
  await page.evaluate(() => window.ropelab.pause(true));
  await page.waitForTimeout(350); // > one panel refresh (250 ms)
  const [b, p] = await Promise.all([
    page.evaluate(() => JSON.parse(window.ropelab.sim.braid(window.ropelab.app.tanglePanel.swivel))),
    panel(page),
  ]);
  await page.evaluate(() => window.ropelab.pause(false));
  assert.equal(p.word, b.letters.length ? b.word : 'e (empty)', 'panel word = sim.braid().word');
  assert.equal(p.reduced, b.reducedLetters.length ? b.reduced : 'e', 'panel reduced = sim.braid().reduced');
  assert.equal(p.crossings, String(b.crossings), 'panel crossings = sim.braid().crossings');
  return { b, p };
}

/** Resolves in the page once the loop has run at least one more fixed step. */
const nextStep = (page) => page.evaluate(() => new Promise((resolve) => {
  const st = window.ropelab.app.stats;
  const s0 = st.steps;
  const poll = () => (st.steps > s0 ? resolve() : requestAnimationFrame(poll));
  poll();
}));

/**
 * Moves the mouse (button down) along dog 1's circle from θ0 to θ1, one frame per move;
 * `onMove(θ)` after each.
 */
async function walk(page, from, to, onMove = null) {
  const moves = Math.ceil((Math.abs(to - from) * R) / (WALK_SPEED / 60));
  const ths = Array.from({ length: moves }, (_, k) => from + ((to - from) * (k + 1)) / moves);
  // The camera does not move during a walk: every pointer position at once.
  const pts = await page.evaluate((ws) => ws.map(([x, z]) => window.ropelab.toScreen(x, z)), ths.map(circle));
  for (let k = 0; k < moves; k++) {
    await page.mouse.move(pts[k][0], pts[k][1]);
    await nextStep(page);
    if (onMove) await onMove(ths[k]);
  }
}

let browser;
let server;
useBrowser((b, s) => ([browser, server] = [b, s]));

describe('leash scene', () => {
  let page, context, errors;
  before(async () => ({ page, context, errors } = await openPage(browser, `${server.url}?scene=leash`)));
  after(async () => context?.close());

  it('loads the leash preset: 3 ropes, top view with +z down, the braid panel', async () => {
    await waitSteps(page, 30);
    const info = await page.evaluate(() => ({
      preset: window.ropelab.preset,
      ropes: window.ropelab.sim.ropeCount,
      view: window.ropelab.sim.view,
      select: document.getElementById('preset').value,
      options: [...document.querySelectorAll('#preset option')].map((o) => o.value),
    }));
    assert.equal(info.preset, 'leash');
    assert.equal(info.ropes, 3);
    assert.equal(info.view, 'top');
    assert.equal(info.select, 'leash');
    assert.ok(info.options.includes('capstan'), 'capstan is a preset too');
    // The top view: the hand (z = 0) is above the dogs (z ≈ 1.2–1.45) on screen, and x runs
    // to the right; toWorld undoes toScreen.
    const st = await leashState(page);
    const hand = await toScreen(page, st.hand[0], st.hand[2]);
    const dog = await toScreen(page, st.dogs[1][0], st.dogs[1][2]);
    assert.ok(dog[1] > hand[1] + 100, `+z points down on screen: hand at ${hand[1]} px, dog 2 at ${dog[1]} px`);
    const d1 = await toScreen(page, st.dogs[0][0], st.dogs[0][2]);
    const d3 = await toScreen(page, st.dogs[2][0], st.dogs[2][2]);
    assert.ok(d1[0] < d3[0], 'dog 1 (the handler\'s right, −x) is on the left of the page');
    const back = await page.evaluate(([px, py]) => window.ropelab.toWorld(px, py), dog);
    assert.ok(Math.hypot(back[0] - st.dogs[1][0], back[1] - st.dogs[1][2]) < 1e-6, 'toWorld ∘ toScreen = id');
    await panelMatchesSim(page);
    const p = await panel(page);
    assert.ok(p.visible, 'the braid panel is shown for the leash scene');
    assert.ok(p.word && p.word.length > 0, 'the panel shows a braid word');
    assert.match(p.status, /untangled|twist|tangled/);
    assertFinite(st.positions, 'leash at boot');
  });

  it('the wander toggle stops the dogs, and a mouse drag moves a dog', async () => {
    if (await page.isChecked('#wander')) await page.click('#wander');
    assert.equal(await page.evaluate(() => window.ropelab.sim.wander), false, 'wander off');
    await waitSteps(page, 30);
    const st = await leashState(page);
    const [x, , z] = st.dogs[0];
    const target = [x - 0.25, z + 0.2];
    const from = await toScreen(page, x, z);
    const to = await toScreen(page, ...target);
    await page.mouse.move(from[0], from[1]);
    await page.mouse.down();
    for (let i = 1; i <= 20; i++) {
      await page.mouse.move(from[0] + ((to[0] - from[0]) * i) / 20, from[1] + ((to[1] - from[1]) * i) / 20);
      await waitSteps(page, 1);
    }
    await waitSteps(page, 20);
    const held = await page.evaluate(() => window.ropelab.sim.heldBy(1));
    const mid = await leashState(page);
    await page.mouse.up();
    assert.equal(held, st.leash.dogs[0].point, 'the mouse holds dog 1');
    const d = Math.hypot(mid.dogs[0][0] - target[0], mid.dogs[0][2] - target[1]);
    assert.ok(d < TOL.follow, `dog 1 follows the pointer: ${(d * 100).toFixed(1)} cm off`);
    assertFinite(mid.positions, 'after the drag');
  });

  it('dog 1 walked once clockwise around dog 2 gives σ1⁻², the hint undoes it, back gives e', async () => {
    const t0 = Date.now();
    await page.evaluate((text) => window.ropelab.loadSceneText(text), await scriptedScene(page));
    // Dogs 2 and 3 stay put (held by scripted pointers), dog 1 follows the mouse.
    await page.evaluate(() => {
      const sim = window.ropelab.sim;
      const l = JSON.parse(sim.leash());
      sim.grab(201, l.dogs[1].point);
      sim.grab(202, l.dogs[2].point);
    });
    await waitSteps(page, 60);
    let st = await leashState(page);
    assert.equal(st.braid.trivial, true, `starts untangled: ${st.braid.word}`);
    const start = await toScreen(page, st.dogs[0][0], st.dogs[0][2]);
    await page.mouse.move(start[0], start[1]);
    await page.mouse.down();
    assert.equal(await page.evaluate(() => window.ropelab.sim.heldBy(1)), st.leash.dogs[0].point, 'the mouse holds dog 1');

    // Clockwise on screen: from dog 2's left (−x) up toward the hand, over to its right, and
    // down behind it. Halfway, dog 1 is between the hand and dog 2 (leash 2 over it).
    // Two leashes crossing in the top view (one drawn broken under the other), at the moment
    // the crossing is farthest from the hand and every dog (whose discs would cover it), goes
    // to leash-crossing.png, and zoomed in 4× on it to leash-crossing-zoom.png.
    let crossingAt = null;
    let tangleShot = null;
    const shootCrossing = async (th) => {
      // The first live tangle that has lasted ½ s: leash-tangle.png (its ring on the canvas,
      // its row in the panel).
      if (!tangleShot) {
        const t = await page.evaluate(() => JSON.parse(window.ropelab.sim.tangles()).find((k) => k.age > 30) ?? null);
        if (t) {
          await page.waitForTimeout(300); // the panel's table catches up
          tangleShot = { th, t };
          await page.screenshot({ path: join(ARTIFACTS, 'leash-tangle.png') });
        }
      }
      const found = await page.evaluate(() => {
        const sim = window.ropelab.sim;
        const c = JSON.parse(sim.crossings()).filter((k) => k.over.rope !== k.under.rope);
        if (!c.length) return null;
        const l = JSON.parse(sim.leash());
        const pos = sim.positions();
        const at = (i) => [pos[3 * i], pos[3 * i + 2]];
        const discs = [at(l.hand), ...l.dogs.map((d) => at(d.point))];
        const clear = (k) => Math.min(...discs.map(([x, z]) => Math.hypot(k.top[0] - x, k.top[1] - z)));
        const best = c.reduce((a, b) => (clear(b) > clear(a) ? b : a));
        return { best, clear: clear(best), count: c.length };
      });
      if (!found || (crossingAt && found.clear < crossingAt.clear + 0.05)) return;
      crossingAt = { th, ...found };
      await page.screenshot({ path: join(ARTIFACTS, 'leash-crossing.png') });
      // Zoomed (no pointer move meanwhile, so the held dog stays put; paused for the shot).
      await page.evaluate(([x, z]) => {
        const cam = window.ropelab.camera;
        window.ropelab.pause(true);
        cam.zoomAt(...cam.toScreen(x, z), 4);
      }, found.best.top);
      await page.waitForTimeout(50);
      await page.screenshot({ path: join(ARTIFACTS, 'leash-crossing-zoom.png') });
      await page.evaluate(() => { window.ropelab.app.resetView(); window.ropelab.pause(false); });
    };
    await walk(page, 0, Math.PI, shootCrossing);
    await waitSteps(page, 30);
    st = await leashState(page);
    await panelMatchesSim(page);
    assert.deepEqual(st.braid.reducedLetters, [-1], `θ = π: ${st.braid.word}`);

    await walk(page, Math.PI, 2 * Math.PI, shootCrossing);
    assert.ok(tangleShot, 'a tangle formed during the walk and lasted ½ s');
    assert.ok(crossingAt, 'the walk made the leashes cross in the top view (a broken under-strand to draw)');
    console.log(`  screenshot crossing at θ = ${(crossingAt.th / Math.PI).toFixed(2)}π, ${crossingAt.clear.toFixed(2)} m clear of hand and dogs: ${JSON.stringify(crossingAt.best)}`);
    await waitSteps(page, 30);
    st = await leashState(page);
    await panelMatchesSim(page);
    assert.deepEqual(st.braid.reducedLetters, [-1, -1], `θ = 2π: ${st.braid.word} (reduced ${st.braid.reduced})`);
    assert.equal(st.braid.trivial, false);
    // Word, reduced form and crossing count compared while paused: the crossing count
    // moves while the leashes settle, so an unpaused comparison races the frame loop.
    let { p } = await panelConsistent(page);
    assert.match(p.status, /tangled/);
    assert.ok(
      p.hint.some((h) => h.includes('dog 1 walks once all the way around dog 2, counter-clockwise')),
      `the hint undoes the clockwise walk (not mirrored): ${JSON.stringify(p.hint)}`,
    );
    await page.screenshot({ path: join(ARTIFACTS, 'leash-twisted.png') });

    // And back, counter-clockwise.
    await walk(page, 2 * Math.PI, 0);
    await waitSteps(page, 60);
    st = await leashState(page);
    await panelMatchesSim(page);
    assert.equal(st.braid.trivial, true, `back to the identity: ${st.braid.word}`);
    p = await panel(page);
    assert.match(p.status, /untangled/);
    await page.mouse.up();
    await page.evaluate(() => { window.ropelab.sim.release(201); window.ropelab.sim.release(202); });
    await waitSteps(page, 30);
    await page.screenshot({ path: join(ARTIFACTS, 'leash-untangled.png') });
    assertFinite((await leashState(page)).positions, 'after the walk');

    // Events: the walk tangled the leashes; every tangle formed once in the log.
    await page.waitForTimeout(300); // a panel refresh drains the queue
    p = await panel(page);
    const { formed, broken } = p;
    assert.ok(p.eventCount > 0 && p.log.length > 0, `events reach the log: ${JSON.stringify(p.log)}`);
    assert.ok(formed.length > 0, `a tangle formed: ${JSON.stringify(p.fullLog)}`);
    assert.equal(new Set(formed).size, formed.length, `formed once per tangle: ${formed}`);
    assert.equal(new Set(broken).size, broken.length, `broken once per tangle: ${broken}`);
    for (const id of broken) assert.ok(formed.includes(id), `broken #${id} was formed`);
    // The log shows each formed tangle once (state flips are merged into one line per tangle).
    const shownFormed = p.fullLog.filter((t) => / formed: /.test(t)).length;
    assert.ok(shownFormed <= formed.length, 'no duplicate formed lines');
    console.log(`  scripted walk: ${((Date.now() - t0) / 1000).toFixed(1)} s; log: ${JSON.stringify(p.fullLog)}`);
  });

  it('no console errors', () => {
    assert.deepEqual(errors, []);
  });
});

describe('capstan scene', () => {
  let page, context, errors;
  before(async () => ({ page, context, errors } = await openPage(browser, `${server.url}?scene=capstan`)));
  after(async () => context?.close());

  it('renders in side view with the bollard drawn, and holds', async () => {
    await waitSteps(page, 120);
    const info = await page.evaluate(() => {
      const sim = window.ropelab.sim;
      return {
        view: sim.view,
        obstacles: JSON.parse(sim.obstacles()),
        panelHidden: document.getElementById('tangle-section').hidden,
        positions: Array.from(sim.positions()),
      };
    });
    assert.equal(info.view, 'side');
    assert.ok(info.panelHidden, 'no braid panel without a leash');
    const bollard = info.obstacles.find((o) => o.shape.type === 'capsule');
    assert.ok(bollard, 'the capstan scene has a bollard');
    assertFinite(info.positions, 'capstan');
    // The bollard's centre pixel is painted in the obstacle fill, not the background.
    const [cx, cy] = await toScreen(page, bollard.shape.a[0], bollard.shape.a[1]);
    await page.screenshot({ path: join(ARTIFACTS, 'capstan.png') });
    const rgb = await page.evaluate(([x, y]) => {
      const c = document.getElementById('view');
      const dpr = window.devicePixelRatio || 1;
      const g = document.createElement('canvas');
      g.width = 1; g.height = 1;
      const ctx = g.getContext('2d');
      ctx.drawImage(c, Math.round(x * dpr), Math.round(y * dpr), 1, 1, 0, 0, 1, 1);
      return Array.from(ctx.getImageData(0, 0, 1, 1).data.slice(0, 3));
    }, [cx + 0.05 * (await page.evaluate(() => window.ropelab.camera.scale)), cy]);
    assert.notDeepEqual(rgb, [20, 20, 20], `the bollard is drawn (pixel ${rgb})`);
    // The load hangs at the left, held: it has not slipped to the ground within 2 s.
    const y0 = info.positions[1];
    assert.ok(y0 > 0.3, `the load hangs (y = ${y0.toFixed(2)} m)`);
  });

  it('no console errors', () => {
    assert.deepEqual(errors, []);
  });
});
