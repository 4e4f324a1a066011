// The README's screenshot (not a test): node tests/e2e/shots-docs.mjs [out.png]
// Needs `make web` (dist/). Writes docs/img/playground.png by default: the playground on the
// net preset after a few seconds, at a size that keeps the PNG small.
import { chromium } from 'playwright-core';
import { join } from 'node:path';
import { REPO, serve } from './serve.mjs';
import { ARGS, CHROMIUM } from './helpers.mjs';

const out = process.argv[2] ?? join(REPO, 'docs/img/playground.png');
const server = await serve();
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
const page = await browser.newPage({ viewport: { width: 1100, height: 640 } });
page.on('console', (m) => { if (m.type() === 'error') console.log('console', m.text()); });
await page.goto(`${server.url}?scene=net`);
await page.waitForFunction(() => window.ropelab?.ready === true);
await page.waitForTimeout(4000);
await page.screenshot({ path: out });
console.log(`wrote ${out}`);
await browser.close();
await server.close();
