// @ts-check
// The comparison's solvers (compare.js): their colours, the default set, the URL form
// `?compare=classic,pbd,xpbd:1i5s,exact` (per slot `name[:<n>i][<n>s]`: iterations, substeps),
// and how the table writes its numbers.

/**
 * One solver of the comparison (`parseCompare`); null iterations / substeps: the scene's.
 * @typedef {{ solver: string, iterations: number | null, substeps: number | null }} CompareSpec
 */

/** A fixed colour per solver, so the same solver looks the same in every embed. */
/** @type {Record<string, string>} */
export const SOLVER_COLORS = {
  classic: '#d6d6d6',
  pbd: '#4dd6ff',
  jacobi: '#a3e635',
  xpbd: '#ff9f43',
  exact: '#f472b6',
  impulse: '#c084fc',
};
export const SPARE_COLORS = ['#facc15', '#34d399', '#fb7185', '#60a5fa', '#fdba74'];
export const DEFAULT_SOLVERS = ['classic', 'pbd', 'xpbd', 'exact'];


/** Newton-pass cap the exact solver gets unless the URL or the table sets one (as in the
 * native benchmarks: `workloads::settings_for`). */
export const EXACT_PASS_CAP = 20;
export const MAX_SLOTS = 8;

/**
 * Parses a comparison spec, `classic,pbd:10i,xpbd:1i5s`, into
 * `[{ solver, iterations, substeps }]` (null = the scene's value). Throws on unknown names.
 * @param {string} text
 * @param {string[]} known the solver names (`Sim.solvers()`)
 * @returns {CompareSpec[]}
 */
export function parseCompare(text, known) {
  /** @type {CompareSpec[]} */
  const specs = [];
  for (const part of String(text).split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^([a-z][a-z0-9_-]*)(?::(?:(\d+)i)?(?:(\d+)s)?)?$/i.exec(part);
    const solver = /** @type {string} */ (m?.[1].toLowerCase()); // (no match: thrown below)
    if (!m || !known.includes(solver)) {
      throw new Error(`compare: "${part}" is not a solver spec (solvers: ${known.join(', ')}; settings as xpbd:10i, xpbd:1i5s)`);
    }
    specs.push({
      solver,
      iterations: m[2] != null ? Number(m[2]) : null,
      substeps: m[3] != null ? Number(m[3]) : null,
    });
  }
  if (!specs.length) throw new Error('compare: no solvers given');
  if (specs.length > MAX_SLOTS) throw new Error(`compare: at most ${MAX_SLOTS} solvers`);
  return specs;
}

/**
 * The inverse of `parseCompare`.
 * @param {CompareSpec[]} specs
 */
export function formatCompare(specs) {
  return specs.map((s) => {
    const it = s.iterations != null ? `${s.iterations}i` : '';
    const sub = s.substeps != null ? `${s.substeps}s` : '';
    return it || sub ? `${s.solver}:${it}${sub}` : s.solver;
  }).join(',');
}

// ---- the table's numbers ----

/**
 * Relative stretch as a percentage, readable from 1e-7 to 1e3.
 * @param {number} s
 */
export function fmtStretch(s) {
  if (!Number.isFinite(s)) return String(s);
  const p = s * 100;
  if (p === 0) return '0 %';
  if (p >= 10) return `${p.toFixed(1)} %`;
  if (p >= 0.01) return `${p.toFixed(2)} %`;
  return `${p.toExponential(1)} %`;
}

export const fmtEnergy = (/** @type {number} */ e) => (Number.isFinite(e) ? `${Math.abs(e) >= 1000 ? e.toFixed(0) : e.toFixed(1)} J` : String(e));
export const fmtUs = (/** @type {number} */ us) => `${us >= 100 ? us.toFixed(0) : us.toFixed(1)} µs`;
export const fmtExp = (/** @type {number} */ x) => {
  const e = Math.round(x);
  return e === 0 ? '1' : `1e${e}`;
};
