// Helpers for the recordings of tests/recordings/ (not a test file: `node --test` only runs
// *.test.mjs): where they are, the scene a recording plays on, and a step-by-step replay in
// the page's own wasm (dist/, loaded into node) that reports what happened in it — the
// events (tangles formed, links torn), the links and the bodies before and after — so the
// corpus script (recordings-corpus.mjs) and the test (recordings.test.mjs) can both check
// that a recording shows what its name says.

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../node/built-wasm.mjs';

export const RECORDINGS = join(REPO, 'tests/recordings');

/** The recordings' paths (tests/recordings/*.json), sorted. */
export function recordingFiles() {
  return readdirSync(RECORDINGS).filter((f) => f.endsWith('.json')).sort().map((f) => join(RECORDINGS, f));
}

/**
 * The scene text `replayRecording` / `playRecording` take for a recording: the preset's file
 * (www/scenes/<name>.json, as `ropelab replay` reads it) when `scene` names one, else "" (the
 * recording carries its scene).
 * @param {string} recText
 */
export function sceneTextFor(recText) {
  const { scene } = JSON.parse(recText);
  return typeof scene === 'string' ? readFileSync(join(REPO, 'www/scenes', `${scene}.json`), 'utf8') : '';
}

/** Bodies' positions (x, y, z) by id, from a sim's pose buffer. */
function bodyPositions(sim) {
  const bodies = JSON.parse(sim.bodiesJson());
  sim.refillBodyPoses(1);
  const poses = Array.from(sim.bodyPoses());
  return Object.fromEntries(bodies.map((b, k) => [b.id, { kind: b.kind, pos: poses.slice(7 * k, 7 * k + 3) }]));
}

/**
 * Plays a recording step by step as the page does (`playRecording`, then `step` until it
 * ends), draining the events after every step. Returns the playback status at the end and
 * what happened: `{ playback, steps, events: {type: count}, tangleIds, formed: [{id, over,
 * under, step}], held: [grab step, release step] of pointer 1, marks: {what: first step},
 * contacts: [{a, b, step}] (body contacts begun), maxTangles, torn,
 * links: [before, after], points: [before, after], bodies: {id: {kind, from, to}},
 * inputs: {op: count} }`.
 * @param {any} Sim the wasm glue's `Sim`
 * @param {string} recText
 * @param {string} sceneText
 */
export function playFacts(Sim, recText, sceneText) {
  const sim = new Sim();
  try {
    sim.playRecording(recText, sceneText);
    const links0 = sim.linkCount;
    const points0 = sim.pointCount;
    const bodies0 = bodyPositions(sim);
    /** @type {Record<string, number>} */
    const events = {};
    const tangleIds = new Set();
    const torn = [];
    const formed = [];
    const contacts = [];
    let maxTangles = 0;
    let steps = 0;
    const collect = () => {
      for (const e of JSON.parse(sim.drainEvents())) {
        events[e.type] = (events[e.type] ?? 0) + 1;
        if (e.type === 'tangleFormed') {
          tangleIds.add(e.id);
          formed.push({ id: e.id, over: e.over, under: e.under, step: steps });
        }
        if (e.type === 'linkTorn') torn.push({ a: e.a, b: e.b, stretch: e.stretch, step: steps });
      }
      maxTangles = Math.max(maxTangles, JSON.parse(sim.tangles()).length);
      if (sim.bodyCount) for (const c of JSON.parse(sim.drainContactEvents())) if (c.type === 'begin') contacts.push({ a: c.a, b: c.b, step: steps });
    };
    collect();
    while (sim.playing) {
      sim.step(1 / 60); // the recorded step length applies, whatever is passed
      steps++;
      collect();
      if (steps > 300000) throw new Error('the replay does not end');
    }
    const bodies1 = bodyPositions(sim);
    const bodies = Object.fromEntries(Object.entries(bodies0).map(([id, b]) => [id, { kind: b.kind, from: b.pos, to: bodies1[id]?.pos ?? null }]));
    /** @type {Record<string, number>} */
    const inputs = {};
    for (const e of JSON.parse(recText).inputs) inputs[e[1]] = (inputs[e[1]] ?? 0) + 1;
    // When the mouse (pointer 1) held something: [grab step, release step]; the marks' steps.
    const held = [null, null];
    /** @type {Record<string, number>} */
    const marks = {};
    for (const e of JSON.parse(recText).inputs) {
      if (e[1] === 'mark') marks[e[2]] ??= e[0];
      if ((e[1] === 'grab' || e[1] === 'grabbody') && e[2] === 1 && held[0] === null) held[0] = e[0];
      if ((e[1] === 'release' || e[1] === 'releasebody') && e[2] === 1) held[1] = e[0];
    }
    return {
      playback: JSON.parse(sim.playback()),
      steps,
      events,
      tangleIds: [...tangleIds],
      formed,
      held,
      marks,
      contacts,
      maxTangles,
      torn,
      links: [links0, sim.linkCount],
      points: [points0, sim.pointCount],
      bodies,
      inputs,
    };
  } finally {
    sim.free();
  }
}

/**
 * What each recording of the corpus shows, checked on its step-by-step replay (`playFacts`):
 * a message for every claim that does not hold (none: the recording shows what it says).
 * Recordings not named here (a user's, pasted in) are only replayed.
 */
export const CLAIMS = {
  /**
   * Dog 1 walked twice around dog 2 by the mouse: leashes 1 and 2 (ropes 0 and 1) tangle
   * while the mouse holds dog 1 (the wandering dogs tangle on their own too, now and then).
   */
  'leash-tangle': (f) => [
    f.inputs.drag > 0 || f.inputs.to > 0 ? null : 'no pointer drag in it',
    f.formed.some((t) => t.step >= f.held[0] && t.step <= f.held[1] && [t.over, t.under].sort().join() === '0,1')
      ? null
      : `no tangle of leashes 1 and 2 formed while the mouse held dog 1 (steps ${f.held.join('–')}; formed ${JSON.stringify(f.formed)})`,
  ],
  /**
   * The rope's free end flung by the mouse: a link tears (a tearing rope, inline scene), not
   * before the fling (the corpus script marks where it starts: `recordMark('fling')`).
   */
  'rope-tear': (f) => [
    f.inputs.drag > 0 || f.inputs.to > 0 ? null : 'no pointer drag in it',
    f.torn.length > 0 ? null : `no link tore (events ${JSON.stringify(f.events)})`,
    f.marks.fling !== undefined && f.torn.every((t) => t.step > f.marks.fling) ? null : `a link tore before the fling (step ${f.torn[0]?.step}, fling at ${f.marks.fling})`,
    f.links[1] < f.links[0] ? null : `links ${f.links[0]} → ${f.links[1]}`,
    f.inputs.cut ? 'it was cut, not torn' : null,
  ],
  /** Two cut swipes across the bridge: cut in two places (a piece falls free), none torn. */
  'bridge-cut': (f) => [
    f.inputs.cut > 0 ? null : 'no cut in it',
    f.links[0] - f.links[1] >= 2 ? null : `links ${f.links[0]} → ${f.links[1]}`,
    f.torn.length === 0 ? null : `${f.torn.length} links tore`,
  ],
  /**
   * The top box of the pyramid pushed off it by the mouse: once let go it comes down the
   * pyramid's stepped side (touching boxes of it on the way) by more than 3 m.
   */
  'pyramid-knock': (f) => {
    const dynamic = Object.entries(f.bodies).filter(([, b]) => b.kind !== 'static');
    const [id, top] = dynamic.reduce((a, b) => (b[1].from[1] > a[1].from[1] ? b : a));
    const drop = top.from[1] - top.to[1];
    const touched = new Set(f.contacts.filter((c) => c.step > f.held[1] && (c.a === +id || c.b === +id))
      .map((c) => (c.a === +id ? c.b : c.a)).filter((o) => f.bodies[o]?.kind !== 'static'));
    return [
      f.inputs.dragbody > 0 || f.inputs.bodyto > 0 ? null : 'no body drag in it',
      drop > 3 ? null : `the top box came down ${drop.toFixed(2)} m (from y ${top.from[1].toFixed(2)} to ${top.to[1].toFixed(2)})`,
      touched.size >= 2 ? null : `let go, the top box touched ${touched.size} box(es) of the pyramid`,
    ];
  },
};

/** The claims of `name` that fail on `facts` (empty: all hold, or none stated). */
export function failedClaims(name, facts) {
  return (CLAIMS[name]?.(facts) ?? []).filter(Boolean);
}
