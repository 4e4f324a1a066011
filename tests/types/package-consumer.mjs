// The npm package's declarations against a TypeScript consumer (issue 12 §6), and the package
// as `npm pack` would publish it. Part of `make test-types`, after `make web` (whose trunk
// hook assembles dist/pkg, the same folder `make package` copies to ./pkg).
//
// target/package-consumer/ gets tests/types/package-consumer/{consumer.ts,tsconfig.json} and
// node_modules/ropelab → dist/pkg (a symlink: resolution goes through the package's
// `exports` and `types` as it would for a user), then `tsc --noEmit -p` runs there.

import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, symlinkSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const PKG = process.env.ROPELAB_PKG ? resolve(process.env.ROPELAB_PKG) : join(REPO, 'dist/pkg');
const WORK = join(REPO, 'target/package-consumer');
if (!existsSync(join(PKG, 'package.json'))) throw new Error(`${PKG}/package.json is missing: build with \`make web\` (or \`make package\`)`);

rmSync(WORK, { recursive: true, force: true });
mkdirSync(join(WORK, 'node_modules'), { recursive: true });
for (const f of ['consumer.ts', 'tsconfig.json']) cpSync(join(REPO, 'tests/types/package-consumer', f), join(WORK, f));
symlinkSync(PKG, join(WORK, 'node_modules/ropelab'), 'dir');
const tsc = join(REPO, 'node_modules/typescript/bin/tsc');
try {
  execFileSync(process.execPath, [tsc, '--noEmit', '-p', WORK], { stdio: 'inherit' });
} catch {
  console.error('package-consumer: the npm package\'s declarations do not type-check a consumer (see above)');
  process.exit(1);
}

// What `npm pack` would put in the tarball: every file the exports name, nothing missing.
const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: PKG, encoding: 'utf8' }));
const files = new Set(packed.files.map((f) => f.path));
const need = ['package.json', 'README.md', 'rope-lab.js', 'rope-lab.d.ts', 'ropelab.js', 'ropelab.d.ts', 'ropelab_bg.wasm',
  'ropelab-lite.js', 'ropelab-lite.d.ts', 'ropelab-lite_bg.wasm',
  'leash.js', 'embed-bodies.js', // (rope-lab.js imports them for a leash scene, a scene with bodies)
  'sharelink.js', 'sharelink.d.ts', 'shapes.d.ts', 'embed.html', 'scenes/bridge.json', 'scenes/rope.json'];
const missing = need.filter((f) => !files.has(f));
if (missing.length) throw new Error(`package-consumer: npm pack would leave out ${missing.join(', ')}`);
console.log(`package-consumer: a TypeScript consumer type-checks against ${PKG}; npm pack: ${packed.filename}, ${packed.entryCount} files, ${packed.size} B packed, ${packed.unpackedSize} B unpacked`);
