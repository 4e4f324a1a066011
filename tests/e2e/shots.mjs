// Screenshots for looking at (not a test): node tests/e2e/shots.mjs [preset...]
import { chromium } from 'playwright-core';
import { join } from 'node:path';
import { serve } from './serve.mjs';
import { ARGS, ARTIFACTS } from './helpers.mjs';
const server = await serve();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
const names = process.argv.slice(2).length ? process.argv.slice(2) : ['rope', 'capstan', 'leash'];
for (const name of names) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('console', (m) => { if (m.type() !== 'log') console.log(name, m.type(), m.text()); });
  await page.goto(`${server.url}?scene=${name}`);
  await page.waitForFunction(() => window.ropelab?.ready === true);
  await page.waitForTimeout(3000);
  await page.screenshot({ path: join(ARTIFACTS, `shot-${name}.png`) });
  await page.close();
}
await browser.close();
await server.close();
