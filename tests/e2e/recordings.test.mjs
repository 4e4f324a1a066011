// The recordings of tests/recordings/ (made in the browser by recordings-corpus.mjs, or a
// user's bug report pasted in) replayed in the page's wasm (dist/, `make web`, loaded into
// node) and natively, with equal hashes:
//
// - wasm, at once: `replayRecording(text, presetText)` (the preset's www/scenes/<name>.json
//   when the recording names one) matches, and its hash is the file's `hash`;
// - wasm, step by step as the page plays it (`playRecording`, `step`): the playback ends
//   matching, after the recorded number of steps; and the recordings of the corpus still show
//   what they were made to show (recordings-lib.mjs `CLAIMS`: a tangle formed, a link torn,
//   links cut, the top box come down);
// - natively: `ropelab replay <file> --hash` (target/debug/ropelab, built first by
//   `cargo build --bin ropelab`, which `make test-native` has left up to date; the debug build
//   replays the four in about 20 s, where building the release one would take minutes;
//   $CARGO_TARGET_DIR is honoured) prints the same hash as wasm and exits 0 (Rust does not
//   reorder or fuse float operations in either profile, so debug and release step alike).
//
// (tests/recording.rs `the_browser_recordings_replay_natively` checks every file natively
// against its recorded hash too.)

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { checkDist } from './serve.mjs';
import { REPO, loadBuiltWasm } from '../node/built-wasm.mjs';
import { CLAIMS, failedClaims, playFacts, recordingFiles, sceneTextFor } from './recordings-lib.mjs';

checkDist();
const { bindings } = await loadBuiltWasm('recordings-test');
const files = recordingFiles();

/** The native runner, built (or found up to date) once. */
let runner = null;
function nativeRunner() {
  if (runner) return runner;
  execFileSync('cargo', ['build', '--quiet', '--bin', 'ropelab'], { cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'] });
  const target = process.env.CARGO_TARGET_DIR ? process.env.CARGO_TARGET_DIR : join(REPO, 'target');
  runner = join(target, 'debug', process.platform === 'win32' ? 'ropelab.exe' : 'ropelab');
  return runner;
}

describe('tests/recordings', () => {
  it('holds the four recordings the corpus script makes', () => {
    const names = files.map((f) => basename(f, '.json'));
    for (const name of Object.keys(CLAIMS)) assert.ok(names.includes(name), `tests/recordings/${name}.json (node tests/e2e/recordings-corpus.mjs)`);
  });

  for (const file of files) {
    const name = basename(file, '.json');
    describe(name, () => {
      let text, rec, sceneText, wasm;
      before(() => {
        text = readFileSync(file, 'utf8');
        rec = JSON.parse(text);
        sceneText = sceneTextFor(text);
        wasm = JSON.parse(bindings.replayRecording(text, sceneText));
      });

      it('replays in wasm to its recorded hash', () => {
        assert.equal(wasm.matches, true, wasm.message);
        assert.equal(wasm.divergedAt, null, wasm.message);
        assert.equal(wasm.steps, rec.steps);
        assert.equal(wasm.hash, rec.hash, wasm.message);
        assert.equal(wasm.recordedHash, rec.hash);
      });

      it('plays step by step as the page plays it, and shows what it was made to show', () => {
        const facts = playFacts(bindings.Sim, text, sceneText);
        assert.equal(facts.playback.matches, true, facts.playback.message);
        assert.equal(facts.steps, rec.steps);
        assert.deepEqual(failedClaims(name, facts), [], JSON.stringify({ events: facts.events, links: facts.links, inputs: facts.inputs }));
      });

      it('replays natively (ropelab replay --hash) to the same hash as in wasm', { timeout: 900_000 }, () => {
        let out;
        try {
          out = execFileSync(nativeRunner(), ['replay', file, '--hash'], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
        } catch (e) {
          assert.fail(`ropelab replay ${file} --hash failed (exit ${e.status}): ${e.stdout}${e.stderr}`);
        }
        assert.equal(out.trim(), wasm.hash, 'native hash = wasm hash');
        assert.equal(out.trim(), rec.hash, 'native hash = recorded hash');
      });
    });
  }
});
