// The browser code's shape (issue 30 §4), read from www/ (no build, no browser): the page and
// <rope-lab> share their constants (each defined in one module and imported everywhere), their
// clock (clock.js), camera (camera.js) and drawing (points.js, obstacles.js, leash.js); no www
// file is over 600 lines.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../node/built-wasm.mjs';

const WWW = join(REPO, 'www');
const files = readdirSync(WWW).filter((f) => f.endsWith('.js')).sort();
const text = Object.fromEntries(files.map((f) => [f, readFileSync(join(WWW, f), 'utf8')]));
const MAX_LINES = 600;

test(`no www/*.js file is over ${MAX_LINES} lines`, () => {
  const lines = Object.entries(text).map(([f, t]) => [f, t.split('\n').length - (t.endsWith('\n') ? 1 : 0)]);
  console.log(lines.map(([f, n]) => `${f} ${n}`).join(', '));
  const over = lines.filter(([, n]) => n > MAX_LINES);
  assert.deepEqual(over, [], `over ${MAX_LINES} lines: split them`);
});

test('H, MAX_STEPS, the point flags and the dogs\' hues are each defined once', () => {
  for (const [name, home] of [['H', 'clock.js'], ['MAX_STEPS', 'clock.js'], ['FLAG_LOCKED', 'flags.js'],
    ['FLAG_HELD', 'flags.js'], ['DOG_HUES', 'leash.js']]) {
    const where = files.filter((f) => new RegExp(`\\b(?:const|let|var)\\s+${name}\\s*=`).test(text[f]));
    assert.deepEqual(where, [home], `${name} is defined in ${home} only`);
  }
  // The literals themselves: no copied step or hue list.
  const copies = (re) => files.filter((f) => re.test(text[f]));
  assert.deepEqual(copies(/=\s*1\s*\/\s*60\b/), ['clock.js'], 'the step 1/60 is set in clock.js only');
  assert.deepEqual(copies(/\[\s*18\s*,\s*200\s*,\s*100\s*,\s*280/), ['leash.js'], 'the hue list is written in leash.js only');
});

test('the page and <rope-lab> share the clock, the camera and the drawing of links, points, obstacles and the leash', () => {
  for (const f of ['main.js', 'rope-lab.js']) assert.match(text[f], /from '\.\/clock\.js'/, `${f} uses clock.js`);
  assert.match(text['rope-lab.js'], /from '\.\/camera\.js'/, 'rope-lab.js uses camera.js');
  // The page's camera is camera.js's with a portrait fit by the scene's subject added (pagecamera.js).
  assert.match(text['pagecamera.js'], /from '\.\/camera\.js'/);
  assert.match(text['pagecamera.js'], /class PageCamera extends Camera\b/);
  for (const f of ['main.js', 'compare.js']) assert.match(text[f], /from '\.\/pagecamera\.js'/, `${f} uses camera.js through pagecamera.js`);
  assert.match(text['render.js'], /drawLeashTop/);
  assert.match(text['embed-draw.js'], /import\('\.\/leash\.js'\)/, '<rope-lab> draws the leash with leash.js');
  assert.match(text['embed-draw.js'], /\.drawLeashTop\(/);
  for (const f of ['render.js', 'embed-world.js']) {
    assert.match(text[f], /from '\.\/points\.js'/, `${f} draws links and points with points.js`);
  }
  assert.match(text['embed-draw.js'], /from '\.\/obstacles\.js'/, '<rope-lab> draws obstacles with obstacles.js');
  for (const f of files.filter((n) => /^(rope-lab|embed-)/.test(n))) {
    assert.doesNotMatch(text[f], /class \w*(Camera|Clock)\b|\bdrawLeash\b|ys\s*\*\s*\(\s*\w+\.oy/, `${f}: no second camera, clock or leash drawing in the component`);
  }
});

test('the page and <rope-lab> draw bodies with one geometry (bodyshape.js)', () => {
  for (const f of ['bodies.js', 'embed-bodies.js']) {
    assert.match(text[f], /from '\.\/bodyshape\.js'/, `${f} uses bodyshape.js`);
    assert.doesNotMatch(text[f], /function (rotate|hull)\(/, `${f} has no copy of rotate or hull`);
  }
});
