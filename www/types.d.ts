// Types for the page's type check (tsconfig.json, `make test-types`); the browser never
// loads this file.
//
// - `Sim` itself comes from www/types/ropelab.d.ts, the declarations wasm-bindgen emits for
//   src/wasm/ (trunk's `data-typescript`). That file is generated: `make types` refreshes
//   it and `make test-types` fails while it differs from a fresh build. Never edit it by hand.
// - This file and www/types/shapes.d.ts describe what that one cannot: the JSON the `Sim`
//   methods return as strings (schemas from the doc comments of src/wasm/ and
//   src/report.rs) and the scene file format (src/scene/, www/scenes/*.json), both in
//   shapes.d.ts (which the npm package ships too), and here the page's globals
//   (`window.wasmBindings`, `window.ropelab`). `make test-types` checks the JSON and scene types against what the
//   built wasm returns and the preset files (tests/types/json-shapes.mjs): an extra, missing
//   or retyped field on either side fails it.
//
// Conventions (src/report.rs): points are world `[x, y, z]` in metres, y up; `top` points are
// the top view's `[x, z]`; rope, point, link and segment indices are 0-based; angles in
// radians, forces in newtons. serde_json writes a non-finite f32 as `null`; the fields that
// can be infinite by design say so (`| null`).

import type * as Bindings from './types/ropelab.js';
import type { App } from './main.js';
import type { Camera } from './camera.js';
import type { Compare } from './compare.js';

// ---- the wasm module --------------------------------------------------------------------

/** The wasm-bindgen module's exports, as trunk publishes them on `window.wasmBindings`. */
export type WasmBindings = typeof Bindings;
/** One simulation world (src/wasm/). */
export type Sim = Bindings.Sim;
/** The `Sim` class itself (constructor and statics: `solvers()`, `solverInfo()`, …). */
export type SimClass = typeof Bindings.Sim;

/**
 * What pointer input acts on (ui.js): one `Sim`, or the comparison's `SimGroup` (compare.js),
 * which applies each call to every sim of the comparison.
 */
export type InputSim = Pick<Sim, 'view' | 'pick' | 'grab' | 'dragTo' | 'release' | 'cut' | 'isLocked' | 'toggleLock'
  | 'bodyCount' | 'pickBody' | 'grabBody' | 'dragBody' | 'releaseBody'>;

// The JSON shapes and the scene format live in www/types/shapes.d.ts (the npm package ships
// that file too); they are re-exported here for the page.
export * from './types/shapes.js';
import type { CapstanReport, SimEvent, Vec3 } from './types/shapes.js';

// ---- the page's globals -----------------------------------------------------------------

/** The scene the page has loaded (main.js `App.scene`: what Reset reloads). */
export interface LoadedScene {
  text: string;
  name: string;
  description: string | null;
  /** The preset it came from, or null. */
  preset: string | null;
  /** What `?scene=` says (null: the scene has no address, e.g. an imported file). */
  source: string | null;
  label: string | null;
}

/** `window.ropelab`: the page for the console and the tests (set by main.js once booted). */
export interface Ropelab {
  app: App;
  Sim: SimClass;
  readonly sim: Sim;
  /** Refreshes the numbers that come from the sim, then returns them. */
  readonly stats: AppStats;
  readonly preset: string | null;
  readonly scene: LoadedScene | null;
  readonly paused: boolean;
  /** The comparison view, or null. */
  readonly compare: Compare | null;
  camera: Camera;
  H: number;
  MAX_STEPS: number;
  presets: string[];
  /** World (view-plane metres) → CSS pixels from the canvas's top-left corner. */
  toScreen(x: number, y: number): [number, number];
  /** CSS pixels from the canvas's top-left corner → world (view-plane metres). */
  toWorld(px: number, py: number): [number, number];
  loadPreset(name: string): Promise<string>;
  /** Loads scene JSON text (throws the sim's error, keeping the world, if it is bad). */
  loadSceneText(text: string): LoadedScene;
  exportScene(): string;
  /** The "Copy link" URL: `#s=<preset>` while the preset is untouched, else `#s=z:<the scene deflated>`. */
  shareLink(embed?: boolean): Promise<string>;
  /** `spec`: "classic,pbd,xpbd:1i5s", or null to leave the comparison. */
  setCompare(spec: string | null | undefined, layout?: string): Compare | null;
  setCompareLayout(mode: string): void;
  reset(): Promise<string | null>;
  pause(p?: boolean): void;
  step(n?: number): void;
  setMode(m: string): void;
  /** Slow motion: runs the clock at `f` of real time (the nearest of clock.js TIME_SCALES). */
  setTimeScale(f: number): void;
  readonly timeScale: number;
  /** False while the view is off-screen or the tab hidden (the loop then idles). */
  readonly visible: boolean;
  /** The leash panel's log line for a `drainEvents()` entry. */
  eventText(e: SimEvent): string | null;
  /** A copy of the render data (not used by the loop). */
  snapshot(): { positions: number[]; links: number[]; flags: number[] };
  /** Set once the first scene is loaded and the loop runs (then `ropelab-ready` fires). */
  ready?: boolean;
}

declare global {
  interface Window {
    /** Set by trunk's injected module script once wasm-bindgen's `init()` has run. */
    wasmBindings?: WasmBindings;
    ropelab?: Ropelab;
  }
}

// ---- page-internal shapes ---------------------------------------------------------------

/** A rectangle in CSS pixels. */
export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A fading cut swipe (ui.js `trails`), CSS px; `t` = performance.now() when cut. */
export interface Trail {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  t: number;
}

/** What the UI draws over the sim (ui.js `Ui.overlay()`, read by render.js and leash.js). */
export interface Overlay {
  /** `sim.capstanReport()` as last read, or null. */
  capstan: CapstanReport | null;
  /** The reduced braid word to mark at the hand (tanglepanel.js `handTwist()`), or null. */
  handTwist: string | null;
  tintStrain: boolean;
  /** Point, link and edit-mode source point under the pointer, or −1. */
  hover: number;
  hoverLink: number;
  source: number;
  /** Last mouse position (CSS px), or null. */
  cursor: [number, number] | null;
  trails: Trail[];
  paused: boolean;
  /** Id of the body under the pointer, or −1. */
  hoverBody: number;
  /**
   * How far between the last two fixed steps to draw (0 = the state before the last step,
   * 1 = the state after it): the page's accumulator over the step, so a display faster than
   * the step rate draws motion between steps. 1 when paused.
   */
  frac: number;
}

/** render.js `drawSim` options: the overlay, plus the comparison's per-sim styling. */
export interface DrawOptions extends Overlay {
  /** Grid, axes and walls first (default true). */
  grid?: boolean;
  /** Every link and free point in this one colour (the overlaid comparison). */
  color?: string;
  alpha?: number;
  dash?: number[] | null;
  pointScale?: number;
}

/** main.js `App.stats` (also `window.ropelab.stats`). */
export interface AppStats {
  /** Smoothed interval between animation frames (ms). */
  frameMs: number;
  /** Smoothed work per frame, physics and drawing (ms). */
  cpuMs: number;
  /** Smoothed time of one `sim.step(H)` (µs). */
  physicsUsPerStep: number;
  stepsLastFrame: number;
  droppedSteps: number;
  steps: number;
  frames: number;
  points: number;
  links: number;
  maxStretch: number;
  energy: number;
  time: number;
  /** How often the view went off-screen or hidden and back (main.js `watchVisibility`). */
  hiddenChanges?: number;
}
