// Posters for <rope-lab>: a PNG of a scene's first frame, as the component draws it at its
// default aspect (16/9) in a 640×360 CSS px box at devicePixelRatio 1. The component shows a
// preset's poster (scenes/<name>.png in the package) from the moment it connects until its
// first frame; authors show one where scripts do not run (docs/embedding.md, "Posters").
//
//   node tools/posters.mjs                         every preset → package/posters/<name>.png
//   node tools/posters.mjs <scene.json> [out.png]  one scene file (default: <scene>.png beside it)
//
// Needs a build (`make web`: the package in dist/pkg/) and Chromium (/usr/bin/chromium, or
// $CHROMIUM). The presets' posters are committed, not made by the build: the build then needs
// no browser (trunk's post_build hook, `make serve` on every change), and
// tests/e2e/poster.test.mjs fails, naming this command, when a committed poster no longer
// matches what the current build draws (a preset or the drawing changed).
//
// The frame is taken from the component's own canvas (getImageData, not a page screenshot:
// no rounded corners, no control strip) with prefers-reduced-motion set, so the component
// starts paused and the first frame is the scene as loaded, before any step. The PNG is
// written here, losslessly: indexed colour when the frame has at most 256 colours (most
// presets), else RGB, each row with the PNG filter that compresses best, deflated at level 9
// (about half the size of Chromium's own toBlob PNGs).

import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { serve } from '../tests/e2e/serve.mjs';

const REPO = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const POSTER_DIR = join(REPO, 'package/posters');
export const WIDTH = 640;
export const HEIGHT = 360;
/** A browser context in which <rope-lab> fills a 640×360 box (the package's embed.html). */
export const CONTEXT = { viewport: { width: WIDTH, height: HEIGHT }, deviceScaleFactor: 1, reducedMotion: /** @type {'reduce'} */ ('reduce') };

/** The presets, by name (www/scenes/<name>.json, the one list of them). */
export const presetNames = () => readdirSync(join(REPO, 'www/scenes')).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();

/**
 * Opens the package's embed.html showing `scene` (a preset name or a URL) and waits for the
 * component's first frame; resolves with the canvas's RGBA pixels.
 * @param {import('playwright-core').Page} page
 * @param {string} base the served dist/ ('http://…/')
 * @param {string} scene
 */
export async function firstFrame(page, base, scene) {
  await page.goto(`${base}pkg/embed.html?scene=${encodeURIComponent(scene)}`);
  await page.waitForFunction(() => /** @type {any} */ (document.querySelector('rope-lab'))?.firstFrameAt > 0, null, { timeout: 20000 });
  const { w, h, msg, data } = await page.evaluate(() => {
    const el = /** @type {any} */ (document.querySelector('rope-lab'));
    const c = el.shadowRoot.querySelector('canvas');
    const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let bin = '';
    for (let i = 0; i < px.length; i += 0x8000) bin += String.fromCharCode(...px.subarray(i, i + 0x8000));
    return { w: c.width, h: c.height, msg: el.shadowRoot.querySelector('.msg').textContent, data: btoa(bin) };
  });
  if (msg) throw new Error(`posters: ${scene}: the component says "${msg}"`);
  if (w !== WIDTH || h !== HEIGHT) throw new Error(`posters: ${scene}: the canvas is ${w}×${h}, not ${WIDTH}×${HEIGHT}`);
  return { width: w, height: h, rgba: Buffer.from(data, 'base64') };
}

const CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
/** @param {Buffer} buf */
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
/** @param {string} type @param {Buffer} body */
function chunk(type, body) {
  const out = Buffer.alloc(12 + body.length);
  out.writeUInt32BE(body.length, 0);
  out.write(type, 4, 'latin1');
  body.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + body.length)), 8 + body.length);
  return out;
}

/**
 * A lossless PNG of opaque RGBA pixels (the component's canvas has no alpha): indexed when
 * there are at most 256 colours, else RGB; each row filtered with whichever of the five PNG
 * filters leaves the smallest sum of absolute bytes (the usual heuristic).
 * @param {number} width @param {number} height @param {Buffer} rgba
 */
export function encodePng(width, height, rgba) {
  /** @type {Map<number, number>} */
  const palette = new Map();
  for (let i = 0; i < rgba.length && palette.size <= 256; i += 4) {
    const key = (rgba[i] << 16) | (rgba[i + 1] << 8) | rgba[i + 2];
    if (!palette.has(key)) palette.set(key, palette.size);
  }
  const indexed = palette.size <= 256;
  const bpp = indexed ? 1 : 3;
  const stride = width * bpp;
  const raw = Buffer.alloc(height * stride);
  for (let p = 0, o = 0; p < rgba.length; p += 4) {
    if (indexed) raw[o++] = /** @type {number} */ (palette.get((rgba[p] << 16) | (rgba[p + 1] << 8) | rgba[p + 2]));
    else { raw[o++] = rgba[p]; raw[o++] = rgba[p + 1]; raw[o++] = rgba[p + 2]; }
  }
  const filtered = Buffer.alloc(height * (stride + 1));
  const line = Buffer.alloc(stride);
  for (let y = 0; y < height; y++) {
    const row = raw.subarray(y * stride, (y + 1) * stride);
    const up = y > 0 ? raw.subarray((y - 1) * stride, y * stride) : Buffer.alloc(stride);
    let best = -1, bestSum = Infinity;
    for (let f = 0; f < 5; f++) {
      let sum = 0;
      for (let x = 0; x < stride; x++) {
        const a = x >= bpp ? row[x - bpp] : 0, b = up[x], c = x >= bpp ? up[x - bpp] : 0;
        const pa = Math.abs(b - c), pb = Math.abs(a - c), pc = Math.abs(a + b - 2 * c);
        const pred = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][f];
        const v = (row[x] - pred) & 0xff;
        line[x] = v;
        sum += v < 128 ? v : 256 - v;
      }
      if (sum < bestSum) {
        bestSum = sum;
        best = f;
        filtered[y * (stride + 1)] = f;
        line.copy(filtered, y * (stride + 1) + 1);
      }
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = indexed ? 3 : 2; // colour type: indexed, or truecolour
  const parts = [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header)];
  if (indexed) {
    const plte = Buffer.alloc(palette.size * 3);
    for (const [key, i] of palette) plte.writeUIntBE(key, 3 * i, 3);
    parts.push(chunk('PLTE', plte));
  }
  parts.push(chunk('IDAT', deflateSync(filtered, { level: 9, memLevel: 9 })), chunk('IEND', Buffer.alloc(0)));
  return Buffer.concat(parts);
}

/** Launches Chromium as the end-to-end tests do. */
export const launch = () => chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  headless: true,
});

async function main() {
  const [sceneFile, outFile] = process.argv.slice(2);
  const server = await serve();
  const browser = await launch();
  try {
    const page = await (await browser.newContext(CONTEXT)).newPage();
    /** @type {[string, string][]} scene reference, PNG file */
    let jobs;
    if (sceneFile) {
      // The scene file is served from this process under a fixed URL beside embed.html.
      const text = readFileSync(sceneFile, 'utf8');
      await page.route('**/pkg/__poster-scene.json', (r) => r.fulfill({ contentType: 'application/json', body: text }));
      jobs = [['__poster-scene.json', outFile ?? join(dirname(sceneFile), `${basename(sceneFile, '.json')}.png`)]];
    } else {
      jobs = presetNames().map((n) => [n, join(POSTER_DIR, `${n}.png`)]);
    }
    for (const [scene, file] of jobs) {
      const { width, height, rgba } = await firstFrame(page, server.url, scene);
      const png = encodePng(width, height, rgba);
      writeFileSync(file, png);
      console.log(`posters: ${file} (${png.length.toLocaleString('en')} bytes)`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
