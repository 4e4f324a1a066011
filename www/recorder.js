// @ts-check
// Recordings on the page (docs/recordings.md): Record, Stop, Play, a recording link, a video.
//
// The sim does the recording itself (src/wasm/recording.rs): `startRecording` restarts the
// world from a scene and from then on logs every input (grabs, drags, cuts, locks, edits,
// settings, solver, scene loads) against the step it applied to; `playRecording` replays
// them on the next steps, bit for bit, and any input from outside ends the replay there (the
// user takes over). What the page adds:
//   - which scene a recording starts from: an untouched preset by name (the world restarts
//     from the preset's start, and a link stays short), else the world as it is now
//     (`exportScene()`, which continues exactly), carried in the recording;
//   - the page's own time: a pause (its length in ms) and a slow-motion change are marks in
//     the recording (`recordMark`), shown again during the replay (`takeMarks`);
//   - the badge over the view (a red dot and the recorded time; the replay's progress), the
//     panel's buttons, Shift+R and P;
//   - the link (`#s=r:…`, sharelink.js), and a .webm of one replay (MediaRecorder on the
//     canvas's stream) for places that cannot embed the page.

/** @import { App } from './main.js' */

import { H } from './clock.js';
import { packRecording, unpackRecording } from './sharelink.js';
import { pageUrl } from './sceneio.js';

/**
 * `sim.playback()`, parsed.
 * @typedef {{ playing: boolean, step: number, steps: number, done: boolean, takenOver: number | null,
 *   divergedAt: number | null, matches: boolean | null, engine: number, recordedEngine: number, message: string }} Playback
 */

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** Seconds for the badge: `12.3 s`, and from a minute on `1:02.3` (short enough for a phone's bar). */
export const clockText = (/** @type {number} */ s) => (s < 59.95 ? `${s.toFixed(1)} s` : `${Math.floor(s / 60)}:${(s % 60).toFixed(1).padStart(4, '0')}`);

/** The webm types MediaRecorder is asked for, best first. */
const VIDEO_TYPES = ['video/webm;codecs=vp9', 'video/webm;codecs=vp8', 'video/webm'];

export class Recorder {
  /** @param {App} app */
  constructor(app) {
    this.app = app;
    /** @type {string | null} the last recording (JSON text) */
    this.text = null;
    /** @type {string | null} the link made for `text` (packRecording), once made */
    this.link = null;
    /** Steps in `text`. */
    this.steps = 0;
    /** When the page was paused during a recording (performance.now()), or null. */
    this.pausedAt = /** @type {number | null} */ (null);
    /** A replay's pause mark: when it runs on again (performance.now()), or 0. */
    this.resumeAt = 0;
    /** Whether a replay was started and its end not yet reported. */
    this.watching = false;
    /** @type {Playback | null} */
    this.last = null;
    /** Set while the page itself pauses or slows down (a mark), so that is not a user's change. */
    this.applying = false;
    /** @type {{ done: () => void } | null} the video being recorded */
    this.video = null;
    this.lastSync = 0;
    /** The state the buttons were last drawn for (`render`). */
    this.shown = '';
    this.el = {
      rec: $('rec'), play: $('rec-play'), link: $('rec-link'), video: $('rec-video'), info: $('rec-info'),
      badge: $('rec-badge'), quick: $('rec-quick'), quickPlay: $('rec-quick-play'),
    };
    const el = this.el;
    el.rec.addEventListener('click', () => this.toggle());
    el.quick.addEventListener('click', () => this.toggle());
    el.badge.addEventListener('click', () => this.stop());
    el.play.addEventListener('click', () => this.playLast());
    el.quickPlay.addEventListener('click', () => this.playLast());
    el.link.addEventListener('click', () => this.copyLink());
    el.video.addEventListener('click', () => this.saveVideo());
    this.render();
  }

  get sim() {
    return this.app.sim;
  }

  /** Whether a recording is open or a replay runs (the scene's own restart waits). */
  busy() {
    return this.sim.recording || this.sim.playing;
  }

  /** Record, or Stop (a recording or a replay): the button and Shift+R. */
  toggle() {
    if (this.busy()) this.stop();
    else this.start();
  }

  /** Play (P, ▶): the last recording from its start; while recording, stops and plays it. */
  playLast() {
    if (this.sim.recording) this.stop();
    if (!this.text) {
      this.app.ui.status('nothing recorded yet: ● Record (Shift+R) first', 'info', 3000);
      return;
    }
    this.play(this.text).catch((e) => this.app.ui.status(`play: ${e.message ?? e}`, 'error'));
  }

  /**
   * Starts recording. An untouched preset restarts from its start and the recording names it;
   * an edited world is recorded from where it is, and the recording carries it.
   */
  start() {
    const app = this.app;
    const sim = this.sim;
    if (app.compare) {
      app.ui.status('recordings are of one world: leave the comparison to record', 'info', 4000);
      return false;
    }
    if (sim.playing) sim.stopPlayback();
    const preset = app.preset && app.scene && app.pristine === app.signature() ? app.preset : null;
    const text = preset ? /** @type {import('./types.js').LoadedScene} */ (app.scene).text : sim.exportScene();
    app.ui.releaseAll();
    // The drag grid: one CSS pixel at the zoom when recording starts, rounded down to a power of
    // two (2⁻¹² to 2⁻⁵ m): a pointer does not resolve finer, and coarser quanta keep links short.
    const quantum = 2 ** Math.min(-5, Math.max(-12, Math.floor(Math.log2(1 / (app.camera.scale || 1)))));
    const ok = app.guard('record', () => { sim.startRecording(preset ?? '', text, quantum); return true; });
    if (!ok) return false;
    app.renderer.forgetPrevious(sim);
    app.clock.clear();
    app.ui.editor.clear(); // the states before the recording are not steps of it
    this.pausedAt = app.paused ? performance.now() : null;
    if (app.timeScale !== 1) sim.recordMark('timeScale', app.timeScale);
    this.last = null; // (a replay this ended is reported by the next tick: a video waits for it)
    app.ui.status(preset ? `recording from the start of ${preset} · Shift+R or ■ stops` : 'recording from the world as it is · Shift+R or ■ stops', 'info', 3000);
    this.render();
    return true;
  }

  /** Stops the recording (keeping it) or the replay (the world goes on from there). */
  stop() {
    const sim = this.sim;
    if (sim.recording) {
      if (this.pausedAt != null) sim.recordMark('pause', performance.now() - this.pausedAt);
      this.pausedAt = null;
      const text = this.app.guard('stop', () => sim.stopRecording());
      if (text) {
        this.keep(text);
        this.app.ui.status(`recorded ${(this.steps * H).toFixed(1)} s (${this.steps} steps) · ▶ Play replays it`, 'info', 4000);
      }
    } else if (sim.playing) {
      sim.stopPlayback();
    }
    this.render();
  }

  /**
   * The recording Play, the link and the video use from now on.
   * @param {string} text
   * @param {string | null} [link] its packed form, when known
   */
  keep(text, link = null) {
    if (text !== this.text) this.link = null;
    this.text = text;
    if (link) this.link = link;
    this.steps = JSON.parse(text).steps;
  }

  /**
   * Plays recording `text` from its start (its preset fetched when it names one). The scene
   * it starts from becomes the page's scene (what Reset reloads); `source` is what the URL
   * says (a link's `r:…`; else the preset's name).
   * @param {string} text
   * @param {{ source?: string | null }} [options]
   */
  async play(text, { source = null } = {}) {
    const app = this.app;
    /** @type {{ scene?: unknown }} */
    let rec;
    try {
      rec = JSON.parse(text);
    } catch {
      throw new Error('the recording is not JSON');
    }
    const preset = typeof rec?.scene === 'string' ? rec.scene : null;
    const sceneText = preset ? await app.sceneText(preset) : '';
    if (app.compare) app.setCompare(null);
    if (this.sim.recording) this.stop();
    app.ui.releaseAll();
    this.sim.playRecording(text, sceneText); // throws (keeping the world) when it cannot play
    this.keep(text, source);
    app.sceneReplaced(preset ? sceneText : JSON.stringify(rec.scene), { preset, source: source ?? preset, label: 'recording' });
    // The preset as a fresh load has it (the replay's step 0 may have changed settings), for
    // "Copy link" and the next Record to tell an untouched preset.
    if (preset) {
      const fresh = new app.Sim();
      try {
        fresh.loadScene(sceneText);
        app.pristine = app.signature(fresh);
      } finally {
        fresh.free();
      }
    }
    this.resumeAt = 0;
    this.watching = true;
    this.applying = true;
    if (app.paused) app.setPaused(false);
    if (app.timeScale !== 1) app.setTimeScale(1); // the recording's own marks say otherwise
    this.applying = false;
    this.takeMarks();
    app.ui.status('playing the recording · grab anything to take over', 'info', 4000);
    this.render();
  }

  /**
   * Opens a recording link (`#s=r:…`) and plays it.
   * @param {string} ref
   */
  async openLink(ref) {
    await this.play(await unpackRecording(ref), { source: ref });
    return ref;
  }

  /** The recording link (`#s=r:…`) of the last recording. */
  async shareLink() {
    if (!this.text) throw new Error('nothing recorded yet');
    this.link ??= await packRecording(this.text);
    return `${pageUrl({})}#s=${this.link}`;
  }

  async copyLink() {
    const ui = this.app.ui;
    let url;
    try {
      url = await this.shareLink();
    } catch (/** @type {any} */ e) {
      ui.status(`recording link: ${e.message ?? e}`, 'error');
      return null;
    }
    try {
      await navigator.clipboard.writeText(url);
      ui.status(`recording link copied (${url.length} characters)`, 'info', 3000);
    } catch {
      ui.status(url, 'info', 15000);
    }
    return url;
  }

  /** Whether this browser can record the canvas (MediaRecorder, captureStream, webm). */
  videoType() {
    if (typeof MediaRecorder === 'undefined' || typeof this.app.canvas.captureStream !== 'function') return null;
    return VIDEO_TYPES.find((t) => MediaRecorder.isTypeSupported(t)) ?? null;
  }

  /**
   * Plays the last recording from its start while MediaRecorder records the canvas, and
   * downloads the .webm when the replay ends (or is taken over, or stopped). Resolves with the
   * video, or null when there is none to make.
   * @returns {Promise<Blob | null>}
   */
  async saveVideo() {
    const app = this.app;
    const ui = app.ui;
    const type = this.videoType();
    if (!type) {
      ui.status('this browser cannot record the view (no MediaRecorder with webm on canvas.captureStream): no video', 'error');
      return null;
    }
    if (this.sim.recording) this.stop();
    if (!this.text || this.video) {
      ui.status(this.video ? 'a video is being made' : 'nothing recorded yet: ● Record (Shift+R) first', 'info', 3000);
      return null;
    }
    const stream = app.canvas.captureStream(60);
    const mr = new MediaRecorder(stream, { mimeType: type, videoBitsPerSecond: 4_000_000 });
    /** @type {Blob[]} */
    const chunks = [];
    mr.ondataavailable = (e) => { if (e.data.size) chunks.push(e.data); };
    const stopped = new Promise((resolve) => { mr.onstop = resolve; });
    /** @type {Promise<void>} */
    const ended = new Promise((resolve) => { this.video = { done: resolve }; });
    try {
      await this.play(this.text);
    } catch (/** @type {any} */ e) {
      this.video = null;
      stream.getTracks().forEach((t) => t.stop());
      ui.status(`video: ${e.message ?? e}`, 'error');
      return null;
    }
    mr.start(1000);
    this.render();
    await ended;
    // The last frames drawn reach the stream on the next animation frames.
    await new Promise((resolve) => setTimeout(resolve, 250));
    mr.stop();
    await stopped;
    stream.getTracks().forEach((t) => t.stop());
    this.video = null;
    const blob = new Blob(chunks, { type: 'video/webm' });
    const name = `${(app.scene?.name ?? 'recording').replace(/[^\w.-]+/g, '_')}-recording.webm`;
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 30000);
    ui.status(`saved ${name} (${(blob.size / 1024).toFixed(0)} KB)`, 'info', 4000);
    this.render();
    return blob;
  }

  /**
   * After each step of a replay (main.js's loop): applies the marks it passed. Returns true
   * when one paused the page (the frame's other steps wait).
   */
  afterStep() {
    if (!this.watching) return false;
    const paused = this.takeMarks();
    // The replay's report is read at its last step: `playback()` hashes the world as it is
    // when called, and the frame's remaining steps run on past the end.
    if (!this.sim.playing) this.finish();
    return paused;
  }

  /** Applies the replay's marks (pause, time scale); true if one paused. */
  takeMarks() {
    /** @type {[string, number][]} */
    const marks = JSON.parse(this.sim.takeMarks());
    let paused = false;
    this.applying = true;
    for (const [what, value] of marks) {
      if (what === 'pause') {
        this.app.setPaused(true);
        this.resumeAt = performance.now() + value;
        paused = true;
        this.app.ui.status(`paused here for ${(value / 1000).toFixed(1)} s, as recorded (space runs on)`, 'info', Math.max(value, 1500));
      } else if (what === 'timeScale') {
        this.app.setTimeScale(value);
      }
    }
    this.applying = false;
    return paused;
  }

  /**
   * The page was paused or run on (App.setPaused): a recording keeps the pause as a mark; a
   * user's own pause or run during a replay cancels the recorded pause's timer.
   * @param {boolean} paused
   */
  pauseChanged(paused) {
    if (this.applying) return;
    this.resumeAt = 0;
    if (!this.sim.recording) return;
    if (paused) this.pausedAt ??= performance.now();
    else if (this.pausedAt != null) {
      this.sim.recordMark('pause', performance.now() - this.pausedAt);
      this.pausedAt = null;
    }
  }

  /**
   * Slow motion changed (App.setTimeScale): a recording keeps it as a mark.
   * @param {number} f
   */
  timeScaleChanged(f) {
    if (!this.applying && this.sim.recording) this.sim.recordMark('timeScale', f);
  }

  /**
   * Once per frame: a recorded pause runs on when its time is up, the replay's end is
   * reported, the badge follows.
   * @param {number} now
   */
  tick(now) {
    const app = this.app;
    if (this.resumeAt && now >= this.resumeAt) {
      this.resumeAt = 0;
      this.applying = true;
      if (app.paused) app.setPaused(false);
      this.applying = false;
    }
    if (this.watching && !this.sim.playing) this.finish(); // taken over, or stopped
    else if (this.watching) {
      this.last = JSON.parse(this.sim.playback());
      // The sliders follow the settings the replay changes (a few times a second).
      if (now - this.lastSync > 250) {
        this.lastSync = now;
        app.ui.syncFromSim();
      }
    }
    this.render();
  }

  /** The replay has ended (its last step, a takeover, Stop): its report, and the page follows. */
  finish() {
    /** @type {Playback | null} */
    const p = JSON.parse(this.sim.playback());
    this.last = p;
    this.watching = false;
    this.resumeAt = 0;
    this.app.ui.syncFromSim();
    this.video?.done();
    if (p?.takenOver != null) this.app.ui.status(`taken over at step ${p.takenOver} of ${p.steps}: the world is yours`, 'info', 4000);
  }

  /** The buttons, the badge and the line under them ← the state. */
  render() {
    const { el, sim } = this;
    const recording = sim.recording;
    const playing = sim.playing;
    const comparing = !!this.app.compare;
    const has = !!this.text;
    const key = `${recording} ${playing} ${comparing} ${has} ${!!this.video} ${!!this.last}`;
    if (key !== this.shown) {
      this.shown = key;
      this.renderButtons(recording, playing, comparing, has);
    }
    let badge = '';
    if (recording) badge = `● ${clockText(sim.recordedSteps * H)}`;
    else if (playing && this.last) badge = `▶ ${clockText(this.last.step * H).replace(/ s$/, '')} / ${clockText(this.last.steps * H)}`;
    else if (playing) badge = '▶';
    badge += this.video ? ' · video' : '';
    if (el.badge.textContent !== `${badge} ■`) el.badge.textContent = `${badge} ■`;
    let info = '';
    const p = this.last;
    if (recording) info = `recording: ${sim.recordedSteps} steps`;
    else if (playing && p) info = `playing: step ${p.step} of ${p.steps}${this.video ? ' · making the video' : ''}`;
    else if (p?.takenOver != null) info = `taken over at step ${p.takenOver} of ${p.steps}`;
    else if (p?.done) info = `${p.matches ? '✓' : '✗'} ${p.message}`;
    else if (has) info = `recorded ${(this.steps * H).toFixed(1)} s · ▶ Play replays it`;
    if (el.info.textContent !== info) {
      el.info.textContent = info;
      el.info.classList.toggle('bad', !!p?.done && p.takenOver == null && !p.matches);
    }
  }

  /**
   * @param {boolean} recording
   * @param {boolean} playing
   * @param {boolean} comparing
   * @param {boolean} has whether there is a recording to play
   */
  renderButtons(recording, playing, comparing, has) {
    const el = this.el;
    el.rec.textContent = recording ? '■ Stop' : playing ? '■ Stop' : '● Record';
    el.rec.classList.toggle('on', recording);
    el.rec.title = recording ? 'Stop recording (Shift+R)' : playing ? 'Stop the replay here: the world goes on from this step (Shift+R)' : 'Record every input from now on, against the step it applied to (Shift+R)';
    /** @type {HTMLButtonElement} */ (el.rec).disabled = comparing;
    for (const b of [el.play, el.link, el.video]) /** @type {HTMLButtonElement} */ (b).disabled = !has || comparing || !!this.video;
    /** @type {HTMLButtonElement} */ (el.link).disabled = !has;
    el.quick.hidden = recording || playing || comparing;
    el.quickPlay.hidden = !has || recording || playing || comparing;
    el.badge.hidden = !recording && !playing;
    el.badge.classList.toggle('recording', recording);
  }
}
