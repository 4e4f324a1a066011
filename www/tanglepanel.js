// @ts-check
// The leash scene's panel (issue 4 §3, §4): the braid of the leashes, the untangle hint, the
// live tangles and an event log. Shown while the loaded world has a leash (`sim.leash()`).
//
// Everything comes from the sim, ~4× a second:
//   - `sim.braid(swivel)`: word, reduced form, crossings, trivial / only full twists, hint;
//   - `sim.tangles()`: per tangle id, ropes (over / under), tensions, wrap, state;
//   - `sim.drainEvents()`: formed / state changed / broken / dogs swapped / resync, each
//     taken once from the sim's queue and appended to the log once.
// Rope indices are shown as leash numbers (leash k ends at dog k, both 1-based on the page).

/** @import { Braid, LeashInfo, SimEvent, Tangle } from './types.js' */
/** @import { App } from './main.js' */

import { dogColor, dogOfRope, idText } from './leash.js';

const REFRESH_MS = 250;
const LOG_KEEP = 40;  // entries kept
const LOG_SHOW = 12;  // entries shown (newest first)

const esc = (/** @type {unknown} */ s) => String(s).replace(/[&<>"]/g, (c) => (/** @type {Record<string, string>} */ ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]));

/**
 * @param {string} text
 * @param {unknown} fallback
 * @returns {any} (the callers declare what they expect)
 */
function parse(text, fallback) {
  try {
    return JSON.parse(text) ?? fallback;
  } catch {
    return fallback;
  }
}

const letterText = (/** @type {number} */ g) => (g > 0 ? `σ${g}` : `σ${-g}⁻¹`);

const HTML = `
  <div class="tangle-head">
    <b>Braid · tangles</b>
    <span class="checks">
      <label title="A swivel coupler at the hand: full twists of all the leashes (Δ² = (σ1σ2)³, central) come undone by themselves, so the hint may leave them"><input id="swivel" type="checkbox"> swivel</label>
      <label title="The dogs walk about at random (seeded); off: they stand still"><input id="wander" type="checkbox"> wander</label>
    </span>
  </div>
  <dl class="stats braid-stats">
    <dt>word</dt><dd id="braid-word" class="braid-word"></dd>
    <dt>reduced</dt><dd id="braid-reduced" class="braid-word"></dd>
    <dt>crossings</dt><dd id="braid-crossings"></dd>
  </dl>
  <p id="braid-status" class="braid-status"></p>
  <details class="braid-notation">
    <summary>What the word means</summary>
    <p>Number the places at the hand 1, 2, 3 from the handler's right. <b>σ1</b>: the dogs in places 1 and 2 swapped, the one from place 1 crossing <i>over</i>; <b>σ1⁻¹</b>: the same swap, crossing under (σ2: places 2 and 3). The <b>word</b> lists every swap since the start, oldest first; <b>reduced</b> cancels swaps that undo each other. <b>Crossings</b> counts where leashes cross in the drawing now. The word can be longer than the drawing shows: a dog that walks a full circle twists the leashes round each other right at the hand, too close to draw (the hand then shows “twist at hand”).</p>
  </details>
  <div class="braid-hint-box"><span class="dim">to untangle:</span> <ol id="braid-hint" class="braid-hint"></ol></div>
  <table id="tangle-table" class="tangle-table">
    <thead><tr><th>#</th><th title="rope on top / underneath (leash numbers)">leashes</th><th title="highest rope tension at the tangle">T (N)</th><th title="wrap angle Θ used in the lock test T_high/T_low ≤ e^{μΘ}">wrap</th><th>state</th></tr></thead>
    <tbody id="tangle-list"></tbody>
  </table>
  <ol id="tangle-log" class="tangle-log" aria-live="polite"></ol>
`;

export class TanglePanel {
  /** @param {App} app */
  constructor(app) {
    this.app = app;
    this.swivel = false;
    /** @type {{ t: number, text: string, kind: SimEvent['type'], id: number | undefined, n?: number }[]} */
    this.log = [];       // { t, text, kind, id } oldest first
    this.eventCount = 0; // events taken from the sim since the scene loaded
    /** @type {number[]} */
    this.formed = [];    // tangle ids, in the order their tangleFormed events came
    /** @type {number[]} */
    this.broken = [];    // tangle ids, in the order their tangleBroken events came
    this.lastRefresh = 0;
    /** @type {LeashInfo | null} */
    this.leash = null;
    /** @type {Braid | null} */
    this.braid = null;
    /** @type {Tangle[]} */
    this.tangles = [];
    const section = document.createElement('section');
    section.id = 'tangle-section';
    section.className = 'single-only tangle-section';
    section.hidden = true;
    section.innerHTML = HTML;
    // After the sliders and switches, before the stats: at 800 px tall the panel above the
    // braid used to push the sliders below the fold; this way both stay in reach (the
    // section is compact: a short log, the notation folded).
    const body = document.querySelector('#panel .body');
    const after = body?.querySelector('section.checks');
    if (after) after.after(section);
    else body?.append(section);
    this.section = section;
    const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (section.querySelector(`#${id}`));
    this.el = {
      swivel: /** @type {HTMLInputElement} */ ($('swivel')), wander: /** @type {HTMLInputElement} */ ($('wander')), word: $('braid-word'), reduced: $('braid-reduced'),
      crossings: $('braid-crossings'), status: $('braid-status'), hint: $('braid-hint'),
      table: $('tangle-table'), list: $('tangle-list'), log: $('tangle-log'),
    };
    this.el.swivel.addEventListener('change', () => {
      this.swivel = this.el.swivel.checked;
      this.refresh();
    });
    this.el.wander.addEventListener('change', () => {
      app.guard('wander', () => app.sim.setWander(this.el.wander.checked));
      this.el.wander.checked = app.sim.wander;
    });
  }

  /**
   * After a scene loaded: show the panel if it has a leash, start a fresh log. On Reset
   * (`keepSettings`) the user's wander choice is applied to the reloaded scene.
   */
  sceneLoaded({ keepSettings = false } = {}) {
    const sim = this.app.sim;
    this.leash = parse(sim.leash(), null);
    this.section.hidden = !this.leash;
    this.log = [];
    this.eventCount = 0;
    this.formed = [];
    this.broken = [];
    this.drain(); // whatever the load queued belongs to the new world's start
    if (this.leash && keepSettings) this.app.guard('wander', () => sim.setWander(this.el.wander.checked));
    if (this.leash) this.el.wander.checked = sim.wander;
    this.refresh();
  }

  /**
   * Called once per frame by the loop.
   * @param {number} now
   */
  tick(now) {
    if (now - this.lastRefresh < REFRESH_MS) return;
    this.lastRefresh = now;
    this.drain();
    if (this.leash) this.refresh();
  }

  /** The reduced word to mark at the hand when the braid is tangled but the drawing shows no crossing. */
  handTwist() {
    const b = this.leash ? this.braid : null;
    return b && !b.trivial && b.crossings === 0 && b.reducedLetters?.length ? b.reduced : null;
  }

  /**
   * Leash number (1-based) of the rope with stable id `id`.
   * @param {number} id
   */
  leashName(id) {
    // Tangles and events name ropes by stable id; the leash map is by current index.
    const r = this.app.sim.ropeIndex(id);
    if (r < 0) return `rope ${idText(id)} (gone)`;
    const map = dogOfRope(this.leash, Math.max(r + 1, 0));
    return map[r] >= 0 ? String(map[r] + 1) : `rope ${r}`;
  }

  /** Takes the sim's queued events into the log (each once). */
  drain() {
    const sim = this.app.sim;
    /** @type {SimEvent[]} */
    const events = parse(sim.drainEvents(), []);
    if (!events.length) return;
    const t = sim.time;
    for (const e of events) {
      this.eventCount++;
      if (e.type === 'tangleFormed') this.formed.push(e.id);
      if (e.type === 'tangleBroken') this.broken.push(e.id);
      const text = this.eventText(e);
      if (!text) continue;
      // The log is the leash panel's; a broken joint is news in any scene.
      if (e.type === 'jointBroken') this.app.ui.status(text, 'info', 4000);
      // A tangle slipping and holding in turn flips tight ↔ locked often: its state changes
      // since the last other event of that tangle share one line (latest state, a count).
      if (e.type === 'tangleStateChanged') {
        let j = this.log.length - 1;
        while (j >= 0 && this.log[j].id !== e.id) j--;
        const prev = j >= 0 ? this.log[j] : null;
        if (prev?.kind === e.type) {
          this.log.splice(j, 1);
          prev.n = (prev.n ?? 1) + 1;
          prev.t = t;
          prev.text = `${text} (state changed ${prev.n}×)`;
          this.log.push(prev);
          continue;
        }
      }
      this.log.push({ t, text, kind: e.type, id: /** @type {{ id?: number }} */ (e).id });
    }
    if (this.log.length > LOG_KEEP) this.log.splice(0, this.log.length - LOG_KEEP);
    this.renderLog();
  }

  /**
   * @param {SimEvent} e
   * @returns {string | null}
   */
  eventText(e) {
    const L = (/** @type {number} */ r) => this.leashName(r);
    switch (e.type) {
      case 'tangleFormed': return `tangle #${idText(e.id)} formed: leash ${L(e.over)} over leash ${L(e.under)}`;
      case 'tangleStateChanged': return e.state === 'locked'
        ? `tangle #${idText(e.id)} locked: friction holds the leashes together`
        : `tangle #${idText(e.id)} pulled tight: the leashes slide over each other`;
      case 'tangleBroken': return `tangle #${idText(e.id)} released (leash ${L(e.over)} / ${L(e.under)})`;
      case 'dogsSwapped': return `dogs ${e.dogs.map((d) => d + 1).join(' and ')} swapped (${letterText(e.gen)})`;
      case 'braidResync': return 'braid recounted from where the leashes lie now (dogs swapped faster than one step could follow)';
      case 'linkTorn': return `link ${e.a}–${e.b} tore at ${(e.stretch * 100).toFixed(0)} %`;
      case 'jointBroken': return `joint #${idText(e.id)} broke at ${e.force.toFixed(0)} N`;
      default: return null;
    }
  }

  renderLog() {
    const rows = this.log.slice(-LOG_SHOW).reverse()
      .map((r) => `<li class="ev-${esc(r.kind)}"><span class="dim">${r.t.toFixed(1)} s</span> ${esc(r.text)}</li>`);
    this.el.log.innerHTML = rows.join('') || '<li class="dim">no events yet</li>';
  }

  /** Braid and tangles → panel. */
  refresh() {
    if (!this.leash) return;
    const sim = this.app.sim;
    /** @type {Braid | null} */
    const b = parse(sim.braid(this.swivel), null);
    /** @type {Tangle[]} */
    const tangles = parse(sim.tangles(), []);
    this.braid = b;
    this.tangles = tangles;
    const { el } = this;
    /** @type {(node: HTMLElement, text: string) => void} */
    const set = (node, text) => { if (node.textContent !== text) node.textContent = text; };
    if (!b) {
      set(el.word, '—');
      set(el.reduced, '—');
      set(el.crossings, '—');
      set(el.status, 'no braid: a leash was cut or edited');
      el.hint.innerHTML = '';
    } else {
      set(el.word, b.letters.length ? b.word : 'e (empty)');
      set(el.reduced, b.reducedLetters.length ? b.reduced : 'e');
      set(el.crossings, String(b.crossings));
      let status;
      let cls;
      if (b.trivial) {
        status = 'untangled: the identity braid';
        cls = 'ok';
      } else if (b.fullTwists != null && b.fullTwists !== 0) {
        const k = b.fullTwists;
        const dir = k > 0 ? 'counter-clockwise' : 'clockwise';
        status = `only ${Math.abs(k)} full twist${Math.abs(k) > 1 ? 's' : ''} Δ${k > 0 ? '' : '⁻'}${Math.abs(k) > 1 ? `^${2 * Math.abs(k)}` : '²'} (${dir}): a swivel coupler sheds ${Math.abs(k) > 1 ? 'them' : 'it'}`;
        cls = 'twist';
      } else if (b.crossings === 0) {
        // The word says tangled, the drawing shows no crossing: the twist sits at the hand.
        status = 'tangled at the hand: the leashes twist round each other where they meet the hand, too close to draw';
        cls = 'tangled';
      } else {
        status = `tangled: ${b.crossings} crossing${b.crossings > 1 ? 's' : ''} in the drawing`;
        cls = 'tangled';
      }
      set(el.status, status);
      el.status.className = `braid-status ${cls}`;
      const steps = b.hint?.steps ?? [];
      const items = steps.map((s) => `<li>${esc(s.text)}</li>`);
      const left = b.hint?.twistsLeft ?? 0;
      if (b.trivial) items.push('<li class="dim">nothing to undo</li>');
      else if (left) items.push(`<li class="dim">then the swivel sheds ${Math.abs(left)} full twist${Math.abs(left) > 1 ? 's' : ''}</li>`);
      if (b.hint && !b.hint.optimal && !b.trivial) items.push('<li class="dim">(shortest found within the search limit)</li>');
      const html = items.join('');
      if (el.hint.innerHTML !== html) el.hint.innerHTML = html;
    }
    el.table.hidden = tangles.length === 0;
    const rows = tangles.map((t) => {
      const T = Math.max(...(t.tension ?? [0]).map((v) => (Number.isFinite(v) ? v : 0)));
      const tip = `tensions over ${t.tension.map((v) => v.toFixed(1)).join(' / ')} N · holding ratio e^{μΘ} = ${t.holdingRatio.toFixed(2)} · slip ratio ${t.slipRatio == null ? 'slack' : t.slipRatio.toFixed(2)} · normal force ${t.normalForce.toFixed(1)} N · age ${t.age} steps`;
      const over = this.leashName(t.over), under = this.leashName(t.under);
      const sw = (/** @type {string} */ name) => `<i class="sw" style="background:${dogColor(Number(name) - 1, 55)}"></i>${esc(name)}`;
      return `<tr data-id="${t.id}" title="${esc(tip)}"><td>${idText(t.id)}</td><td>${sw(over)} over ${sw(under)}</td><td>${T.toFixed(1)}</td><td>${((t.wrap * 180) / Math.PI).toFixed(0)}°</td><td class="st-${esc(t.state)}">${esc(t.state)}</td></tr>`;
    });
    const html = rows.join('');
    if (el.list.innerHTML !== html) el.list.innerHTML = html;
    if (!this.log.length) this.renderLog();
  }
}
