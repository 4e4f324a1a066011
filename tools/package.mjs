// The npm package of the <rope-lab> component (issue 12 §3): assembled from what trunk has
// just built (the full wasm, no second compile of it), plus the lite embed wasm compiled here.
//
// Run by trunk as a post_build hook (Trunk.toml): every `trunk build` / `trunk serve` writes
// the package into the build as dist/pkg/ (so the page's www/embed-demo.html loads
// ../pkg/rope-lab.js), and `make package` copies dist/pkg to ./pkg, the folder to `npm pack`.
// Run by hand: `node tools/package.mjs [<dir with trunk's ropelab-<hash>.js>] [<out dir>]`
// (default: dist/ → dist/pkg).
//
// What goes in (names stable, so the component finds its files next to `import.meta.url`):
//   rope-lab.js, sharelink.js   the component (bundled with the www/ modules it imports) and the
//                               share-string codec (www/), minified
//   leash.js, embed-bodies.js   the leash's drawing (www/leash.js) and the bodies' outlines
//                               (www/embed-bodies.js), loaded by the component for a leash scene
//                               and with the full build only
//   embed-world.js              links, bodies and points (www/embed-world.js), loaded for every
//                               scene but the leash seen from above
//   embed-presets.js            the presets' tables (written here), loaded for a preset scene
//   embed-unpack.js             the share-string decoder (www/embed-unpack.js), for a `z:` scene
//   embed-recording.js          the recording reader (www/embed-recording.js), for a `recording`
//   ropelab.js                  wasm-bindgen's glue (trunk's ropelab-<hash>.js), minified
//   ropelab_bg.wasm             trunk's wasm-opt'ed module, as is (the full build)
//   ropelab-lite.js, ropelab-lite_bg.wasm, ropelab-lite.d.ts   the lite embed build (below)
//   ropelab.d.ts                wasm-bindgen's declarations of `Sim`
//   rope-lab.d.ts, sharelink.d.ts, shapes.d.ts   the element, the codec, the JSON shapes
//   scenes/*.json, scenes/*.png (the presets' posters, package/posters/), embed.html,
//   README.md, package.json (version from Cargo.toml)
//
// The JavaScript an embed loads (the component and both glues) is minified by esbuild (a dev
// dependency of the repository, `npm ci`; the component is also bundled by it): comments and
// white space dropped, local names shortened; exported names, property names and strings are
// kept. It is what keeps the embed within its 15.5 KiB gzipped budget (tests/e2e/embed.test.mjs;
// docs/embedding.md, "Budgets"). The result
// is then parsed by node (`--check`) and the package refuses to build if it fails.

import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { build, transformSync } from 'esbuild';

const REPO = resolve(fileURLToPath(new URL('..', import.meta.url)));
const staging = process.env.TRUNK_STAGING_DIR;
const from = resolve(process.argv[2] ?? staging ?? join(REPO, 'dist'));
const out = resolve(process.argv[3] ?? join(from, 'pkg'));

const glue = readdirSync(from).filter((f) => /^ropelab-[0-9a-f]+\.js$/.test(f));
if (glue.length !== 1) throw new Error(`package: expected one ropelab-<hash>.js in ${from}, found ${glue.length}`);
const base = glue[0].replace(/\.js$/, '');

/**
 * Minifies an ES module (esbuild: syntax, white space and local identifiers).
 * @param {string} src
 */
function minify(src) {
  return transformSync(src, { minify: true, format: 'esm', target: 'es2022', legalComments: 'none' }).code;
}

// wasm-bindgen's `init` (the glue's default export) returns early only once a load has
// finished: a second call while the first is in flight instantiates the wasm again and swaps
// the module's memory under the objects the first one made ("memory access out of bounds",
// "recursive use of an object detected"). A page that imports the element and also awaits
// `init()` from `ropelab/sim` makes exactly those two calls, so the package's glues export an
// `init` that keeps the first call's promise for the page (as <rope-lab> keeps its loads: a
// failed load is not retried). `initSync` is wasm-bindgen's: not for a page with the element.
// (No initSync guard and no retry: each costs about 40 bytes gzipped of the embed's JS budget.)
const GLUE_EXPORTS = 'export { initSync };\nexport default __wbg_init;';
const SHARED_INIT = `let __wbg_shared;
const __wbg_init_shared = (arg) => (__wbg_shared ??= __wbg_init(arg));
export { initSync };
export default __wbg_init_shared;`;
/** The glue's source with the shared init (throws if wasm-bindgen's footer has changed). @param {string} src @param {string} name */
function sharedInit(src, name) {
  if (!src.includes(GLUE_EXPORTS)) throw new Error(`package: ${name} does not end with wasm-bindgen's \`${GLUE_EXPORTS}\` (see sharedInit)`);
  return src.replace(GLUE_EXPORTS, SHARED_INIT);
}

// wasm-bindgen declares `Sim`'s `[Symbol.dispose]()`, which TypeScript knows only with lib
// `esnext.disposable` (or es2025): with `skipLibCheck: false` on lib ES2022/ES2023 the
// package's types would not compile. The published declarations leave it out; at run time
// `using sim = new Sim()` still works where the browser has Symbol.dispose.
/** @param {string} dts @param {string} name */
function withoutDispose(dts, name) {
  const out = dts.replace(/^[ \t]*\[Symbol\.dispose\]\(\): void;\n/gm, '');
  if (out.includes('Symbol.dispose')) throw new Error(`package: ${name} still names Symbol.dispose`);
  return out;
}

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'scenes'), { recursive: true });

// The lite embed wasm (issue 12 §5): the crate without its `full` feature (no rigid bodies,
// joints, body contacts, impulse solver or the playground's reports), built with cargo's
// `embed` profile (the release settings, its own target folder), then wasm-bindgen and
// wasm-opt as trunk runs them for the page (index.html's flags). <rope-lab> loads it unless a
// scene needs the full build.
const WASM_OPT_FLAGS = ['--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext',
  '--enable-reference-types', '--enable-multivalue', '--enable-mutable-globals', '--enable-simd'];
const run = (/** @type {string} */ cmd, /** @type {string[]} */ args) => {
  const r = spawnSync(cmd, args, { cwd: REPO, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`package: ${cmd} ${args.join(' ')} failed (${r.error?.message ?? `exit ${r.status}`})`);
};
{
  const index = readFileSync(join(REPO, 'index.html'), 'utf8');
  for (const f of WASM_OPT_FLAGS) if (!index.includes(f)) throw new Error(`package: index.html no longer passes ${f} to wasm-opt`);
  run('cargo', ['build', '--lib', '--profile', 'embed', '--target', 'wasm32-unknown-unknown', '--no-default-features']);
  const lite = join(tmpdir(), `ropelab-lite-${process.pid}`);
  rmSync(lite, { recursive: true, force: true });
  run('wasm-bindgen', ['--target', 'web', '--out-name', 'ropelab-lite', '--out-dir', lite,
    join(REPO, 'target/wasm32-unknown-unknown/embed/ropelab.wasm')]);
  const wasmOpt = join(REPO, 'node_modules/.bin/wasm-opt');
  // Without the producers and target-features custom sections (tool metadata a browser never
  // reads): 545 bytes, 217 gzipped (2026-11-27). The -Oz pipeline twice: the second pass finds
  // what the first one's inlining exposed, 1.0 KB gzipped for about 2 s more (2026-11-27;
  // `--converge` after one -Oz took 0.3 KB less for 6 s more, and after -Oz -Oz nothing more).
  run(wasmOpt, ['-Oz', '-Oz', ...WASM_OPT_FLAGS, '--strip-producers', '--strip-target-features',
    join(lite, 'ropelab-lite_bg.wasm'), '-o', join(out, 'ropelab-lite_bg.wasm')]);
  writeFileSync(join(out, 'ropelab-lite.js'), minify(sharedInit(readFileSync(join(lite, 'ropelab-lite.js'), 'utf8'), 'ropelab-lite.js')));
  writeFileSync(join(out, 'ropelab-lite.d.ts'), withoutDispose(readFileSync(join(lite, 'ropelab-lite.d.ts'), 'utf8'), 'ropelab-lite.d.ts'));
  rmSync(lite, { recursive: true, force: true });
}

const glueText = minify(sharedInit(readFileSync(join(from, glue[0]), 'utf8').replaceAll(`${base}_bg.wasm`, 'ropelab_bg.wasm'), glue[0]));
writeFileSync(join(out, 'ropelab.js'), glueText);
cpSync(join(from, `${base}_bg.wasm`), join(out, 'ropelab_bg.wasm'));
const dts = join(from, `${base}.d.ts`);
writeFileSync(join(out, 'ropelab.d.ts'), withoutDispose(readFileSync(readdirSync(from).includes(`${base}.d.ts`) ? dts : join(REPO, 'www/types/ropelab.d.ts'), 'utf8'), 'ropelab.d.ts'));
// The component is bundled by esbuild from www/rope-lab.js and the page's modules it imports
// (the clock, the flags, the drawing of each scene kind): one request and one gzip stream for
// an embed, and only what it uses of them (esbuild drops the unused exports). The wasm-bindgen
// glues stay separate files (the component imports one or the other when a scene needs it).
// sharelink.js is also shipped alone for pages that want the codec without the element.
const codec = readFileSync(join(REPO, 'www/sharelink.js'), 'utf8');
// The leash's knot-diagram drawing (www/leash.js, the page's) is its own file, leash.js, which
// the component imports only when it shows a leash scene; every other scene's drawing (links,
// points) is embed-world.js, which a leash embed does not load; the bodies' outlines are
// embed-bodies.js, imported with the full build: an embed of a rope scene loads neither
// leash.js nor embed-bodies.js. Likewise the presets' table (embed-presets.js, below) is
// loaded for a preset only and the share-string decoder (embed-unpack.js) for a `z:` scene
// only: an embed of a body scene loads the component, embed-world.js, embed-bodies.js and the
// full glue, and has no bytes to spare for either (tests/e2e/embed.test.mjs holds what each
// kind of scene loads to 15.5 KiB gzipped).
const SEPARATE = /^\.\/(?:ropelab|ropelab-lite|leash|embed-bodies|embed-world|embed-presets|embed-unpack|embed-recording)\.js$/;
// The presets the component can name, written here from www/scenes/ (the one list of them):
// one literal `new URL('./scenes/<name>.json', import.meta.url)` each, the form bundlers
// follow (www/embed-presets.d.ts says why), and the same for each preset's poster
// (package/posters/<name>.png, tools/posters.mjs; shipped as scenes/<name>.png). A preset
// without a poster is left out of POSTERS, so the package still builds (and
// tests/e2e/poster.test.mjs fails) until tools/posters.mjs has made it.
const SCENES = readdirSync(join(REPO, 'www/scenes')).filter((n) => n.endsWith('.json')).sort();
const NAMES = SCENES.map((f) => {
  const name = f.slice(0, -'.json'.length);
  if (!/^[A-Za-z0-9_-]+$/.test(name)) throw new Error(`package: www/scenes/${f}: a preset's name is letters, digits, - and _`);
  return name;
});
const POSTERS = NAMES.filter((n) => existsSync(join(REPO, 'package/posters', `${n}.png`)));
const table = (/** @type {string} */ id, /** @type {string[]} */ names, /** @type {string} */ ext) => `export const ${id} = {\n${names.map((name) => (
  `  ${JSON.stringify(name)}: () => new URL(${JSON.stringify(`./scenes/${name}.${ext}`)}, import.meta.url),\n`)).join('')}};\n`;
const PRESETS_MODULE = table('PRESETS', NAMES, 'json') + table('POSTERS', POSTERS, 'png');
/** @param {string} entry a file of www/ @param {string[]} [only] the exports to keep (default: all) */
const bundleOf = async (entry, only) => (await build({
  ...(only
    ? { stdin: { contents: `export { ${only.join(', ')} } from './www/${entry}';`, resolveDir: REPO, loader: 'js' } }
    : { entryPoints: [join(REPO, 'www', entry)] }),
  bundle: true, write: false, minify: true, format: 'esm', target: 'es2022', legalComments: 'none',
  plugins: [{
    name: 'separate',
    setup(b) { b.onResolve({ filter: SEPARATE }, (a) => (a.kind === 'dynamic-import' ? { path: a.path, external: true } : undefined)); },
  }],
})).outputFiles[0].text;
writeFileSync(join(out, 'rope-lab.js'), await bundleOf('rope-lab.js'));
// (only what the component calls: not the page's braid marks and side inset, LEASH_EXTRAS)
writeFileSync(join(out, 'leash.js'), await bundleOf('leash.js', ['drawLeashTop']));
writeFileSync(join(out, 'embed-bodies.js'), await bundleOf('embed-bodies.js'));
writeFileSync(join(out, 'embed-world.js'), await bundleOf('embed-world.js'));
writeFileSync(join(out, 'embed-unpack.js'), await bundleOf('embed-unpack.js'));
writeFileSync(join(out, 'embed-recording.js'), await bundleOf('embed-recording.js'));
writeFileSync(join(out, 'embed-presets.js'), minify(PRESETS_MODULE));
writeFileSync(join(out, 'sharelink.js'), minify(codec));
cpSync(join(REPO, 'www/types/shapes.d.ts'), join(out, 'shapes.d.ts'));
for (const f of ['rope-lab.d.ts', 'sharelink.d.ts', 'embed.html', 'README.md']) cpSync(join(REPO, 'package', f), join(out, f));
for (const f of SCENES) {
  cpSync(join(REPO, 'www/scenes', f), join(out, 'scenes', f));
}
for (const name of POSTERS) cpSync(join(REPO, 'package/posters', `${name}.png`), join(out, 'scenes', `${name}.png`));
const version = /^version\s*=\s*"([^"]+)"/m.exec(readFileSync(join(REPO, 'Cargo.toml'), 'utf8'))?.[1];
if (!version) throw new Error('package: no version in Cargo.toml');
const pkg = JSON.parse(readFileSync(join(REPO, 'package/package.json'), 'utf8'));
pkg.version = version;
writeFileSync(join(out, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);

// The stripped modules must still parse.
const check = join(tmpdir(), `ropelab-package-check-${process.pid}`);
mkdirSync(check, { recursive: true });
try {
  for (const f of ['ropelab.js', 'rope-lab.js', 'leash.js', 'embed-bodies.js', 'embed-world.js', 'embed-presets.js', 'embed-unpack.js', 'embed-recording.js', 'sharelink.js', 'ropelab-lite.js']) {
    const file = join(check, f.replace(/\.js$/, '.mjs'));
    writeFileSync(file, readFileSync(join(out, f)));
    const r = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`package: ${f} does not parse after stripping comments:\n${r.stderr}`);
  }
} finally {
  rmSync(check, { recursive: true, force: true });
}
console.log(`package: ${out} (ropelab ${version})`);
