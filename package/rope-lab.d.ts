// <rope-lab>: the element, its attributes and its events (rope-lab.js). `import 'ropelab'`
// defines the element; the `Sim` class is `ropelab/sim`, the JSON shapes `ropelab/shapes`.

import type { Sim } from './ropelab.js';
import type {
  BraidResyncEvent, ContactEvent, DogsSwappedEvent, JointBrokenEvent, LinkTornEvent, SolverName,
  TangleBrokenEvent, TangleFormedEvent, TangleStateChangedEvent,
} from './shapes.js';

export type { Sim } from './ropelab.js';
export type * from './shapes.js';

/** The element's attributes (every one live; the properties of the same names reflect them). */
export interface RopeLabAttributes {
  /** A preset name (`bridge`), a share string (`z:…`) or the URL of a scene .json. Default: an
   *  inline `<script type="application/json">` child, else the `rope` preset. */
  scene?: string;
  /** The solver of the first view. */
  solver?: SolverName;
  /** More solvers, comma-separated ("classic,exact"): one view each, side by side, in lockstep. */
  compare?: string;
  /** "minimal": play/pause, reset, solver; "none" (default): no control strip. */
  controls?: 'minimal' | 'none';
  /** Width/height when CSS sets no height: "16/9" (default), "4:3", "1.5". */
  aspect?: string;
  /** The accessible name (default: "rope simulation: <scene name> — …"). */
  label?: string;
  /** The URL of an image shown, filling the box, from the moment the element connects until
   *  its first frame is drawn (read then: a later change shows nothing). Default: for a preset
   *  `scene`, the preset's own still (`scenes/<name>.png` in the package); else none. */
  poster?: string;
  /** "full": always load the full wasm (`ropelab_bg.wasm`). Otherwise the lite one
   *  (`ropelab-lite_bg.wasm`, a third smaller) unless the scene has bodies, joints or
   *  attachments or a view's solver is `impulse`, which need the full one. */
  wasm?: 'full' | 'lite';
  /** Slow motion: simulated seconds per real second, "0.1" to "1" (default). The steps stay
   *  1/60 s, fewer of them per second, so the motion is the same step for step. */
  'time-scale'?: string;
  /** A recording to play in place of `scene`: a packed `r:…` string (a recording link's) or the
   *  URL of a recording .json (the playground's Record; docs/recordings.md). A reader's grab
   *  takes over; Reset plays it again. */
  recording?: string;
  /** With `recording`: play it again and again (else it stops behind a replay button). */
  loop?: boolean | '';
}

/** The element's events: the sim's events (the JSON object as `detail`), `ready`, `error`. */
export interface RopeLabEventMap extends Omit<HTMLElementEventMap, 'error'> {
  tangleformed: CustomEvent<TangleFormedEvent>;
  tanglestatechanged: CustomEvent<TangleStateChangedEvent>;
  tanglebroken: CustomEvent<TangleBrokenEvent>;
  dogsswapped: CustomEvent<DogsSwappedEvent>;
  braidresync: CustomEvent<BraidResyncEvent>;
  linktorn: CustomEvent<LinkTornEvent>;
  jointbroken: CustomEvent<JointBrokenEvent>;
  contactbegin: CustomEvent<Omit<ContactEvent, 'type'> & { type: 'contactbegin' }>;
  contactend: CustomEvent<Omit<ContactEvent, 'type'> & { type: 'contactend' }>;
  /** After the first frame of each scene loaded. */
  ready: CustomEvent<{ scene: string }>;
  /** A bad attribute or scene (the default scene is shown), or a failed step: the message. */
  error: CustomEvent<string>;
}

export declare class RopeLab extends HTMLElement {
  static readonly observedAttributes: string[];
  scene: string;
  solver: string;
  compare: string;
  controls: 'minimal' | 'none';
  aspect: string;
  label: string;
  /** The `poster` attribute (the still shown until the first frame). */
  poster: string;
  /** The `time-scale` attribute as a number (1 when it is missing or not 0.1–1). */
  timeScale: number;
  /** The `recording` attribute. */
  recording: string;
  /** The `loop` attribute. */
  loop: boolean;
  paused: boolean;
  /** The first view's `Sim` (null before the first scene is loaded). */
  readonly sim: Sim | null;
  /** Every view's `Sim` (one per solver of `solver` + `compare`). */
  readonly sims: Sim[];
  /** Fixed steps of 1/60 s taken since the scene loaded (frozen while off-screen or paused). */
  readonly steps: number;
  /** Frames drawn. */
  readonly frames: number;
  /** `performance.now()` when the first frame was drawn (0 before). */
  readonly firstFrameAt: number;
  play(): void;
  pause(): void;
  /** Reloads the scene the views started from. */
  reset(): void;
  /** Reloads the `scene` attribute's scene. */
  reload(): Promise<void>;
  /** The first view's world as scene JSON (`sim.exportScene()`); throws before a scene loaded. */
  exportScene(): string;
  addEventListener<K extends keyof RopeLabEventMap>(type: K, listener: (this: RopeLab, ev: RopeLabEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof RopeLabEventMap>(type: K, listener: (this: RopeLab, ev: RopeLabEventMap[K]) => unknown, options?: boolean | EventListenerOptions): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
}

/** The scene shown when none is given or the given one fails: "rope". */
export declare const DEFAULT_SCENE: string;
/** Loads a wasm build (once per page; every element shares it) and resolves with its `Sim`
 *  class: 0 (default) the lite build `ropelab-lite_bg.wasm` (ropes: no rigid bodies, joints
 *  or impulse solver), 1 the full build `ropelab_bg.wasm`. */
export declare function loadWasm(full?: 0 | 1): Promise<typeof Sim>;
/** Scene JSON text for a `scene` value (preset name, share string or URL). */
export declare function sceneText(ref: string): Promise<string>;

declare global {
  interface HTMLElementTagNameMap {
    'rope-lab': RopeLab;
  }
}
