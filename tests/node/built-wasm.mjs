// The page's built wasm (dist/, `make web`) loaded into node, for the scripts that run it
// outside a browser (tests/types/json-shapes.mjs, tests/fuzz/wasm-fuzz.mjs,
// tests/soak/wasm-soak.mjs). trunk's glue is an ES module named `.js`, which node would read
// as CommonJS, so it is copied to `<out>/ropelab.mjs` and imported from there.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const REPO = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/**
 * Loads dist's wasm (or `dist`'s), with the glue copied under `target/<out>`; resolves with
 * the glue's exports (`Sim`, …) and the wasm's own exports (`memory`, …).
 * @param {string} out a folder name under target/
 * @param {string} [dist]
 */
export async function loadBuiltWasm(out, dist = join(REPO, 'dist')) {
  const js = readdirSync(dist).filter((f) => /^ropelab-[0-9a-f]+\.js$/.test(f));
  if (js.length !== 1) throw new Error(`expected one ropelab-<hash>.js in ${dist} (make web), found ${js.length}`);
  const dir = join(REPO, 'target', out);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'ropelab.mjs'), readFileSync(join(dist, js[0])));
  const bindings = await import(pathToFileURL(join(dir, 'ropelab.mjs')).href);
  const wasm = bindings.initSync({ module: readFileSync(join(dist, js[0].replace(/\.js$/, '_bg.wasm'))) });
  return { bindings, wasm };
}
