// The playground embedded (?embed=1) comparing solvers (issue 31 §5): the "ropelab ↗" link
// back to the full page sat on the top-right view's label strip, over its stretch figure
// (pbd's, with classic,pbd,xpbd,exact). The link must clear every view's strip and the table,
// on a desktop, a square embed and a phone. Screenshots: tests/e2e/artifacts/compare-link-*.png.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { checkDist } from './serve.mjs';
import { ARTIFACTS, openPage, useBrowser, waitSteps } from './helpers.mjs';

checkDist();
const LABEL_H = 24; // px: compare.js's label strip above each view (side by side)

let browser;
let server;
useBrowser((b, s) => ([browser, server] = [b, s]));

const SIZES = [
  ['desktop', { viewport: { width: 1280, height: 720 } }],
  ['square', { viewport: { width: 700, height: 700 } }],
  ['phone', { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true }],
];

describe('?embed=1 comparing', () => {
  for (const [name, options] of SIZES) {
    it(`the "ropelab ↗" link covers no view's label strip (${name})`, async () => {
      const { context, page, errors } = await openPage(browser, `${server.url}?compare=classic,pbd,xpbd,exact&embed=1`, options);
      try {
        await waitSteps(page, 60);
        const got = await page.evaluate((h) => {
          const view = document.getElementById('view').getBoundingClientRect();
          const link = document.getElementById('open-full').getBoundingClientRect().toJSON();
          const hud = document.getElementById('compare-hud').getBoundingClientRect().toJSON();
          const strips = window.ropelab.compare.regions.map((r, k) => ({
            solver: window.ropelab.compare.slots[k]?.solver,
            left: view.x + r.x, top: view.y + r.y, right: view.x + r.x + r.w, bottom: view.y + r.y + h,
          }));
          return { link, hud, strips };
        }, LABEL_H);
        await page.screenshot({ path: join(ARTIFACTS, `compare-link-${name}.png`) });
        const hits = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
        assert.ok(got.link.width > 0, 'the link is shown');
        const covered = got.strips.filter((s) => hits(got.link, s)).map((s) => s.solver);
        assert.deepEqual(covered, [], `the link ${JSON.stringify(got.link)} covers the label strip of ${covered.join(', ')}`);
        assert.equal(hits(got.link, got.hud), false, 'the link is clear of the table');
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    });
  }
});
