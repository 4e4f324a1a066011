// The docs/benchmarks.md workloads (W1–W7) for every solver, in Chromium wasm (issue 3 §6).
// W4 (a chain of 100 sphere bodies) and W5 (W1's rope holding a 100 kg ball) have rigid bodies,
// which the classic solver refuses: they run under every other solver. W6 `pyramid20` (210
// boxes on the ground, contacts) runs under `impulse` only, the body contact solver; its line
// reads `drift=… peak_drift=…` (box centre displacement, m) in place of the stretch figures.
// W7 `large_pyramid` (Box2D v3's benchmark scene, 5,050 boxes) runs under `impulse` only, in
// Box2D's loop (one untimed step, 499 timed); its line is the Box2D peer's. It is not in the
// default list (about 10 s a run): WORKLOADS=W6,W7.
//
//   make bench-wasm            (= make web, then node tests/bench/wasm-bench.mjs)
//
// Serves dist/ (the trunk build `make serve` serves) with the e2e tests' static server,
// opens it in the system Chromium through playwright-core (the e2e launch arguments), and calls
// the wasm export `benchmarkLine(workload, solver, now)` — reachable as
// `window.wasmBindings.benchmarkLine`, which trunk's injected module script sets — that runs
// the docs/benchmarks.md protocol (build, 100 warm-up steps, 1,000 timed steps in 100 chunks of 10)
// inside wasm and returns the result line (W4's stretch over the body centres, W5's over the
// rope's links up to the ball's centre). Per (workload, solver): 5 fresh calls, the median
// line by us_per_step is printed with the engine renamed `ropelab-<solver>-wasm`.
//
// Two browser details matter for the figures:
// - Clock resolution. Chromium coarsens `performance.now()` to 100 µs unless the page is
//   cross-origin isolated; a 10-step chunk of W1 takes ~50 µs, so the server here sends
//   COOP/COEP headers (the page then has 5 µs resolution). The script checks it.
// - Tiering. V8 first runs wasm as baseline (Liftoff) code and tiers hot functions up to
//   TurboFan in the background; docs/benchmarks.md asks a browser harness to warm up longer. Here:
//   WARMUP_W1 untimed W1 runs per solver up front, then untimed runs of every (workload,
//   solver) pair right before its timed runs (3 for W1, W3, W4 and W5, which take ~5–200 ms
//   each; 1 for W2 and W6, which take ~0.5–4 s).
//
// Options (environment): RUNS (5), WARMUP_W1 (10), WORKLOADS ("W1,W2,W3,W4,W5,W6"), SOLVERS (all
// of Sim.solvers(), then xpbd+tethers; classic is skipped for W4 and W5, W6 runs impulse only), CHROMIUM (/usr/bin/chromium). Progress goes to stderr,
// result lines to stdout.

import { chromium } from 'playwright-core';
import { loadavg, cpus } from 'node:os';
import { serve } from '../e2e/serve.mjs';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const ARGS = [
  '--no-sandbox', '--headless', '--disable-gpu', '--disable-dev-shm-usage',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--no-first-run', '--disable-quic',
];
const RUNS = Number(process.env.RUNS ?? 5);
const WARMUP_W1 = Number(process.env.WARMUP_W1 ?? 10);
const WORKLOADS = (process.env.WORKLOADS ?? 'W1,W2,W3,W4,W5,W6').split(',').map((s) => s.trim()).filter(Boolean);
// Workloads with rigid bodies, and whether a solver (name, optionally `+tethers`) has bodies.
const BODY_WORKLOADS = new Set(['W4', 'W5']);
// W6 (pyramid20) measures the body contact solver: impulse, without tethers (no ropes).
const CONTACT_WORKLOADS = new Set(['W6', 'PYRAMID20', 'W7', 'LARGE_PYRAMID']);
const runsUnder = (w, s) => CONTACT_WORKLOADS.has(w.toUpperCase())
  ? s === 'impulse'
  : !BODY_WORKLOADS.has(w.toUpperCase()) || s.split('+')[0] !== 'classic';
const ISOLATION = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

const log = (...a) => console.error(...a);

/** Parses `<engine> <workload> us_per_step=<f> stretch=<e> peak_stretch=<e>` (W6:
 * `drift=<e> peak_drift=<e>`; W7: the Box2D peer's `large_pyramid` line). */
function parseLine(line) {
  const big = /^(\S+) (large_pyramid) us_per_step=(\S+) us_per_box_step=\S+ drift=(\S+) /.exec(line.trim());
  if (big) return { engine: big[1], workload: big[2], us: Number(big[3]), stretch: big[4], peak: big[4], line: line.trim() };
  const m = /^(\S+) (\S+) us_per_step=(\S+) (?:stretch|drift)=(\S+) (?:peak_stretch|peak_drift)=(\S+)$/.exec(line.trim());
  if (!m) throw new Error(`benchmarkLine returned an unexpected line: ${JSON.stringify(line)}`);
  return { engine: m[1], workload: m[2], us: Number(m[3]), stretch: m[4], peak: m[5], line: line.trim() };
}

async function main() {
  const load = loadavg().map((x) => x.toFixed(2)).join(' ');
  log(`# load average ${load} on ${cpus().length} cores`);
  const server = await serve(undefined, { headers: ISOLATION });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.goto(server.url);
    await page.waitForFunction(() => window.ropelab?.ready === true, null, { timeout: 30000 });
    const info = await page.evaluate(() => {
      // Stop the playground's frame loop (its next requestAnimationFrame becomes a no-op) and
      // hide the canvas, so no drawing or compositing competes with the timed calls.
      window.ropelab.pause(true);
      window.requestAnimationFrame = () => 0;
      document.body.style.visibility = 'hidden';
      let last = performance.now();
      let tick = Infinity;
      for (let i = 0; i < 100000 && tick > 0.006; i++) {
        const t = performance.now();
        if (t !== last) { tick = Math.min(tick, t - last); last = t; }
      }
      return {
        isolated: window.crossOriginIsolated,
        tickUs: tick * 1000,
        hasBench: typeof window.wasmBindings?.benchmarkLine === 'function',
        solvers: window.wasmBindings.Sim.solvers(),
        ua: navigator.userAgent,
      };
    });
    if (!info.hasBench) throw new Error('window.wasmBindings.benchmarkLine is missing: is dist/ a current `make web` build?');
    log(`# ${info.ua.match(/(Headless)?Chrome\/[\d.]+/)?.[0] ?? 'Chromium'}; cross-origin isolated: ${info.isolated}; performance.now() tick ≈ ${info.tickUs.toFixed(1)} µs`);
    if (!info.isolated) log('# warning: not cross-origin isolated, the clock is coarse (100 µs)');
    const solvers = process.env.SOLVERS ? process.env.SOLVERS.split(',').map((s) => s.trim()) : [...info.solvers, 'xpbd+tethers'];

    const bench = (w, s) => page.evaluate(([w, s]) => {
      const t0 = performance.now();
      const line = window.wasmBindings.benchmarkLine(w, s, () => performance.now());
      return { line, ms: performance.now() - t0 };
    }, [w, s]);

    // Warm-up: let V8 tier every solver's hot loops up from Liftoff.
    for (const s of solvers) {
      const times = [];
      for (let i = 0; i < WARMUP_W1; i++) times.push(parseLine((await bench('W1', s)).line).us.toFixed(1));
      log(`# warm-up ${s}: W1 us_per_step ${times.join(' ')}`);
    }

    const results = [];
    for (const w of WORKLOADS) {
      for (const s of solvers.filter((s) => runsUnder(w, s))) {
        let warm;
        const heavy = w.toUpperCase() === 'W2' || CONTACT_WORKLOADS.has(w.toUpperCase());
        for (let i = 0; i < (heavy ? 1 : 3); i++) warm = await bench(w, s);
        const runs = [];
        for (let i = 0; i < RUNS; i++) runs.push(parseLine((await bench(w, s)).line));
        const sorted = [...runs].sort((a, b) => a.us - b.us);
        const med = sorted[(sorted.length - 1) >> 1];
        const line = med.line.replace(/^ropelab-(\S+)/, 'ropelab-$1-wasm');
        log(`# ${w} ${s}: warm-up ${parseLine(warm.line).us.toFixed(1)}, runs ${runs.map((r) => r.us.toFixed(1)).join(' ')} µs/step (${warm.ms.toFixed(0)} ms per run)`);
        console.log(line);
        results.push(line);
      }
    }
    if (errors.length) throw new Error(`page errors during the benchmark:\n${errors.join('\n')}`);
    log(`# load average at the end ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
