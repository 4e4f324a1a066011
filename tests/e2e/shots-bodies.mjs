// Screenshots of the rigid-body presets for looking at (not a test):
//   node tests/e2e/shots-bodies.mjs [preset...]
// Each preset running (after 2 s), and paused with the joints' reaction forces; the ragdoll
// also mid-drag, and the wrecking ball in the comparison view. Written to tests/e2e/artifacts.
import { chromium } from 'playwright-core';
import { join } from 'node:path';
import { serve } from './serve.mjs';
import { ARGS, ARTIFACTS, CHROMIUM } from './helpers.mjs';

const server = await serve();
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
const names = process.argv.slice(2).length ? process.argv.slice(2)
  : ['wrecking-ball', 'hinge-chain', 'door', 'ragdoll', 'crane', 'pyramid', 'wall', 'plank-bridge', 'cradle'];
const quiet = async (page) => {
  await page.evaluate(() => { document.activeElement?.blur(); window.ropelab.app.ui.status('', 'info', 1); });
  await page.waitForTimeout(400); // the status line's fade-out
};
for (const name of names) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('console', (m) => { if (m.type() !== 'log') console.log(name, m.type(), m.text()); });
  page.on('pageerror', (e) => console.log(name, 'pageerror', e.message));
  await page.goto(`${server.url}?scene=${name}`);
  await page.waitForFunction(() => window.ropelab?.ready === true);
  await page.mouse.move(5, 5);
  await quiet(page);
  await page.waitForTimeout(2000);
  await page.screenshot({ path: join(ARTIFACTS, `shot-${name}.png`) });
  await page.evaluate(() => window.ropelab.pause(true));
  await page.waitForTimeout(100);
  await page.screenshot({ path: join(ARTIFACTS, `shot-${name}-paused.png`) });
  if (name === 'ragdoll') {
    // Grab the torso and pull it to the right.
    const at = await page.evaluate(() => {
      const rl = window.ropelab;
      const sim = rl.sim;
      const info = JSON.parse(sim.bodiesJson());
      sim.refillBodyPoses(1);
      const p = sim.bodyPoses();
      const k = info.findIndex((b) => b.shape.type === 'capsule' && b.mass === 25);
      const [x, y] = rl.toScreen(p[7 * k], p[7 * k + 1]);
      rl.pause(false);
      return [x, y];
    });
    await page.mouse.move(at[0], at[1]);
    await page.mouse.down();
    for (let k = 1; k <= 30; k++) {
      await page.mouse.move(at[0] + 6 * k, at[1] - 2 * k);
      await page.waitForTimeout(16);
    }
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(ARTIFACTS, `shot-${name}-drag.png`) });
    await page.mouse.up();
  }
  if (name === 'wrecking-ball') {
    await page.evaluate(() => { window.ropelab.pause(false); });
    await page.check('#compare');
    await quiet(page);
    await page.waitForTimeout(1500);
    await page.screenshot({ path: join(ARTIFACTS, `shot-${name}-compare.png`) });
    await page.click('[data-layout="overlay"]');
    await page.waitForTimeout(800);
    await page.screenshot({ path: join(ARTIFACTS, `shot-${name}-overlay.png`) });
  }
  await page.close();
}
await browser.close();
await server.close();
