// The JSON shapes of ropelab: what the `Sim` methods return as strings (schemas from the doc
// comments of src/wasm/ and src/report.rs) and the scene file format (src/scene/,
// www/scenes/*.json). Pure declarations with no imports: the page's type check reads them
// through www/types.d.ts, and the npm package (`make package`) ships this file as
// `shapes.d.ts`. `make test-types` checks them against what the built wasm returns
// (tests/types/json-shapes.mjs).
//
// Conventions (src/report.rs): points are world `[x, y, z]` in metres, y up; `top` points are
// the top view's `[x, z]`; rope, point, link and segment indices are 0-based; angles in
// radians, forces in newtons. serde_json writes a non-finite f32 as `null`; the fields that
// can be infinite by design say so (`| null`).

export type Vec3 = [x: number, y: number, z: number];
/** A top-view point `[x, z]`. */
export type Top = [x: number, z: number];

// ---- solvers ----------------------------------------------------------------------------

/** `Sim.solverInfo()`: one entry per solver, in `Sim.solvers()` order. */
export interface SolverInfo {
  /** The solver's name (`setSolver(name)`). */
  name: string;
  /** Its menu label. */
  label: string;
  /** One paragraph about it. */
  about: string;
}

/** `sim.solverSupport()`: whether each solver can run the current scene. */
export interface SolverSupport {
  name: string;
  ok: boolean;
  /** What the scene needs that the solver lacks (`setSolver` throws it too); null when ok. */
  reason: string | null;
}

/** `Sim.pointFlagBits()`: the bits of `pointFlags()` (www/flags.js holds the same values). */
export interface PointFlagBits {
  locked: number;
  held: number;
}

// ---- the capstan ------------------------------------------------------------------------

/** One end of the rope over an obstacle: its last point and that point's mass (kg). */
export interface WrapEnd {
  point: number;
  mass: number;
}

/** One entry of `sim.winchesJson()`: a winch paying a rope out or reeling it in. */
export interface WinchInfo {
  /** The rope's index in the rope order (-1: its rope is gone). */
  rope: number;
  /** m/s; negative reels in. */
  speed: number;
  /** N: the tension it reels in against before it stalls. */
  maxForce: number;
  /** The rope's rest length now (m). */
  length: number;
}

/** `sim.capstanReport()`: the rope lying over an obstacle (or `null`: none does). */
export interface CapstanReport {
  /** Index of the obstacle the rope lies on. */
  obstacle: number;
  /** Its static friction coefficient μs. */
  mu: number;
  /** Wrap angle θ (rad). */
  wrap: number;
  /** e^{μθ}: the largest tension ratio friction can hold. */
  limit: number;
  /** Tension (N) on the harder-pulling side, just off the obstacle. */
  tensionLoad: number;
  /** Tension (N) on the other side. */
  tensionHold: number;
  /** The tensions are the solver's link forces (else hanging weights). */
  fromSolver: boolean;
  /** T_load / T_hold; null when the hold side is slack (an infinite ratio). */
  ratio: number | null;
  /** Mean speed (m/s) of the rope's points on the obstacle. */
  slipSpeed: number;
  /** The rope is not sliding over the obstacle. */
  holds: boolean;
  load: WrapEnd;
  hold: WrapEnd;
  /** The first and last rope points on the obstacle (load side first). */
  contactFrom: Vec3;
  contactTo: Vec3;
}

// ---- ropes, the leash, tangles, the braid -----------------------------------------------

/** One dog of `sim.leash()`. Dog k is strand k of the braid and leash k. */
export interface LeashDog {
  /** The dog's (collar) point. */
  point: number;
  /** Its leash: rope index, −1 if it has none. */
  rope: number;
  /** Collar height (m). */
  height: number;
  /** Radius (m) of the dog's body. */
  bodyRadius: number;
}

/** `sim.leash()`: the leash scene's structure, or `null` (no leash in this world). */
export interface LeashInfo {
  /** The hand: the shared first point of every leash. */
  hand: number;
  /** Every dog's leash still runs from the hand to the dog (false after an edit broke one). */
  valid: boolean;
  /** Horizontal direction the handler faces, `[fx, fz]`. */
  front: Top;
  /** Horizontal radius (m) of the hand region. */
  handRadius: number;
  /** The dogs wander. */
  wander: boolean;
  /** Seed of the dogs' random walk. */
  seed: number;
  dogs: LeashDog[];
}

export type TangleState = 'tight' | 'locked';

/** One entry of `sim.tangles()` (the live tangles, oldest first). */
export interface Tangle {
  id: number;
  /** Rope on top (rope index). */
  over: number;
  /** Rope underneath. */
  under: number;
  /** Where they cross. */
  point: Vec3;
  top: Top;
  /** Arc length (m) along the over and the under rope from its start. */
  along: [over: number, under: number];
  /** N, each rope before / after the crossing. */
  tension: [overIn: number, overOut: number, underIn: number, underOut: number];
  /** Θ (rad) used for the lock test. */
  wrap: number;
  /** Wrap (rad) of the over and the under rope around each other. */
  wraps: [over: number, under: number];
  /** e^{μΘ}, with the optional cap (`setTangleCap`). */
  holdingRatio: number;
  /** Max over the two ropes of (T_high / T_low) / e^{μΘ} (< 1 holds); null = one side slack. */
  slipRatio: number | null;
  /** N pressing the ropes together. */
  normalForce: number;
  state: TangleState;
  /** Steps since it formed. */
  age: number;
}

/** One step of the untangle hint: a run of equal generators, in words. */
export interface HintStep {
  /** The dogs at positions i and i+1 when the move starts (left, right). */
  dogs: [left: number, right: number];
  /** Half-turns, positive = counter-clockwise seen from above. */
  halfTurns: number;
  text: string;
}

/** `sim.braid(swivel)`: the leash braid, or `null` (no valid leash). */
export interface Braid {
  strands: number;
  /** The braid (freely reduced), hand → dogs, as text ("σ1⁻¹ σ1⁻¹"). */
  word: string;
  /** The same as letters: +i = σᵢ, −i = σᵢ⁻¹. */
  letters: number[];
  /** A shortest equivalent word, as text and letters. */
  reduced: string;
  reducedLetters: number[];
  /** Left Garside normal form ("Δ⁻¹ · σ1σ2 · …"). */
  normalForm: string;
  /** Top-view crossings in the current geometry. */
  crossings: number;
  /** Exactly the identity braid. */
  trivial: boolean;
  /** k when the braid is only k full twists (a swivel sheds them), else null. */
  fullTwists: number | null;
  /** Leashes by position at the hand / at the dogs. */
  handOrder: number[];
  dogOrder: number[];
  hint: {
    /** Letters to append so that the braid becomes the identity (or Δ²ᵏ with a swivel). */
    moves: number[];
    /** Full twists left after the moves (0 without a swivel). */
    twistsLeft: number;
    /** The search proved no shorter sequence exists. */
    optimal: boolean;
    steps: HintStep[];
  };
}

/** One entry of `sim.braidCrossings()`: the braid reading's crossings, hand outwards. */
export interface BraidCrossing {
  kind: 'leash' | 'dogRay' | 'seam';
  point: Vec3;
  top: Top;
  /** Horizontal distance from the hand (m). */
  radius: number;
  /** Strand on top (for the seam: the strand that crosses it). */
  over: number;
  /** Strand underneath, −1 for the seam. */
  under: number;
  /** The generators this crossing contributes to the word. */
  letters: number[];
}

/** One side of a `sim.crossings()` entry. */
export interface CrossingSide {
  rope: number;
  /** Segment index within the rope (`ropePoints(rope)[segment]` → `[segment + 1]`). */
  segment: number;
  /** The world's link index (`links()`). */
  link: number;
  /** Position along the segment from its first point, in [0, 1). */
  t: number;
  /** Height there (m). */
  y: number;
}

/** One entry of `sim.crossings()`: a top-view crossing of two rope segments. */
export interface TopCrossing {
  top: Top;
  over: CrossingSide;
  /** The segment to draw broken around `top`. */
  under: CrossingSide;
}

/** One entry of `sim.ropeContacts()`: a rope–rope contact pressing in the last substep. */
export interface RopeContact {
  ropes: [a: number, b: number];
  /** Segment indices within each rope. */
  segments: [i: number, j: number];
  point: Vec3;
  /** N. */
  force: number;
}

// ---- events (`sim.drainEvents()`, oldest first) -----------------------------------------

export interface TangleFormedEvent {
  type: 'tangleFormed';
  id: number;
  over: number;
  under: number;
  point: Vec3;
}
export interface TangleStateChangedEvent {
  type: 'tangleStateChanged';
  id: number;
  state: TangleState;
}
export interface TangleBrokenEvent {
  type: 'tangleBroken';
  id: number;
  over: number;
  under: number;
}
export interface DogsSwappedEvent {
  type: 'dogsSwapped';
  /** +i = σᵢ, −i = σᵢ⁻¹. */
  gen: number;
  dogs: [number, number];
}
export interface BraidResyncEvent {
  type: 'braidResync';
}
export interface LinkTornEvent {
  type: 'linkTorn';
  a: number;
  b: number;
  stretch: number;
}
/** A joint pulled past its `break_force` was removed (it no longer appears in `jointsJson()`). */
export interface JointBrokenEvent {
  type: 'jointBroken';
  /** The joint's id (as `addJoint` returned it and `jointsJson()` listed it). */
  id: number;
  /** The reaction force (N) that broke it. */
  force: number;
}
/** One entry of `sim.drainEvents()`. Formed and broken fire exactly once per tangle. */
export type SimEvent =
  | TangleFormedEvent
  | TangleStateChangedEvent
  | TangleBrokenEvent
  | DogsSwappedEvent
  | BraidResyncEvent
  | LinkTornEvent
  | JointBrokenEvent;

// ---- body contact events (`sim.drainContactEvents()`, oldest first) --------------------
//
// Like the tangle events, queued across steps (every step of an `advance`) until drained; at
// most 1,024 wait, the oldest dropped first. Zero-copy alternative: `contactEventCount`,
// `contactEventIds()` (a Uint32Array view: kind 1 begin / 0 end, a, b per event),
// `contactEventImpulses()` (a Float32Array view, one per event), then `clearContactEvents()`.

/** Two bodies began or stopped touching in a step (a point within 5 mm, or rows that pushed). */
export interface ContactEvent {
  type: 'begin' | 'end';
  /** Body ids (as `bodiesJson()` lists them), a < b. */
  a: number;
  b: number;
  /** N·s: the normal impulse the pair took over the step it began (summed over substeps); 0 for an end. */
  impulse: number;
}

// ---- rigid bodies and joints (src/wasm/bodies.rs) ---------------------------------------
//
// `sim.bodiesJson()` and `sim.jointsJson()`; JS-side names are camelCase (scene files use
// snake_case: `BodySpec`, `JointSpec` below). Body and joint ids are stable (they survive
// other bodies' removal); `bodiesJson()` lists the bodies in the order of the pose buffer
// (`refillBodyPoses(alpha)`, then `bodyPoses()` or `bodyPosesPtr()`/`bodyPosesLen()`: 7
// floats per body, px, py, pz, qx, qy, qz, qw).

export type BodyKind = 'dynamic' | 'kinematic' | 'static';
export type JointType =
  | 'ballSocket'
  | 'hinge'
  | 'prismatic'
  | 'fixed'
  | 'distance'
  | 'rope'
  | 'angularMotor'
  | 'swingTwist';

/** A body's shape in its own frame (m): capsules lie along local x. */
export type BodyShapeInfo =
  | { type: 'sphere'; radius: number }
  | { type: 'capsule'; radius: number; halfLength: number }
  | { type: 'box'; half: Vec3 };

/** One entry of `sim.bodiesJson()`. */
export interface BodyInfo {
  id: number;
  kind: BodyKind;
  shape: BodyShapeInfo;
  /** kg; 0 for static and kinematic bodies. */
  mass: number;
  /** Held in the z = 0 plane, turning about z only. */
  planar: boolean;
}

/** One entry of `sim.jointsJson()`. */
export interface JointInfo {
  id: number;
  type: JointType;
  /** Body ids; null = the world. */
  a: number | null;
  b: number | null;
  /** The joint's anchor on A and on B, world coordinates now (m). */
  anchorA: Vec3;
  anchorB: Vec3;
  /** The joint's axis (A's), world coordinates now. */
  axis: Vec3;
  /** Hinge (rad) or prismatic (m) limits. */
  limit: [lo: number, hi: number] | null;
  /** Hinge, prismatic or angular motor: speed (rad/s or m/s) and force or torque cap (N, N·m). */
  motor: { speed: number; maxForce: number } | null;
  soft: { hertz: number; dampingRatio: number } | null;
  /** Reaction force (N) and torque (N·m, about B's centre) on B over the last step. */
  force: Vec3;
  torque: Vec3;
  /** N; null = unbreakable. */
  breakForce: number | null;
  /** A pointer's drag (`grabBody`), not part of the scene. */
  mouse: boolean;
  /** Hinges: B's angle about the axis from the reference pose (rad); else null. */
  angle: number | null;
  /** Distance joints: rest length and range (m). */
  length?: number;
  min?: number;
  max?: number;
  /** Rope joints (m). */
  maxLength?: number;
  /** Swing-twist joints: cone half-angle and twist range (rad). */
  maxSwing?: number;
  twist?: [lo: number, hi: number];
}

// ---- scene files (src/scene/; `sim.exportScene()`, `loadScene(text)`, www/scenes/) -----
//
// What a file may hold; optional fields have defaults. `exportScene()` always writes
// `version`, `name` and every setting except the optional ones, and lists the world's points
// and links one by one (`particles`, `links`, `rope_points`, `leash_points`) rather than the
// builders (`ropes`, `grids`, `leash`) that made them.

export type Vec2 = [x: number, y: number];
export type SolverName = 'classic' | 'pbd' | 'jacobi' | 'xpbd' | 'exact' | 'impulse';
export type LinkKind = 'distance' | 'rope';

export interface Walls {
  min: Vec2;
  max: Vec2;
}

/** `settings` (src/settings/table.rs); every field defaults. */
export interface SceneSettings {
  /** m/s² (default [0, −9.81, 0]). */
  gravity?: Vec3;
  solver?: SolverName;
  iterations?: number;
  substeps?: number;
  /** Classic solver: fraction of velocity kept per step. */
  friction?: number;
  give?: number;
  mass_weighted?: boolean;
  walls?: Walls;
  restitution?: number;
  /** Classic solver: fraction of the whole velocity kept when touching a wall (default 0.5). */
  bounce_friction?: number;
  view?: 'side' | 'top';
  /** 1/s. */
  damping?: number;
  omega?: number;
  tethers?: boolean;
  bending?: boolean;
  bending_compliance?: number;
  wall_friction?: number;
  drag_compliance?: number;
  rope_collisions?: boolean;
  rope_friction?: number;
  rope_dynamic_friction?: number;
  tangle_cap?: number;
  warm_starting?: boolean;
  contact_hertz?: number;
  contact_damping_ratio?: number;
}

export interface SceneCamera {
  center: Vec2;
  height: number;
}

export interface ParticleSpec {
  pos: Vec3;
  vel?: Vec3;
  mass?: number;
  radius?: number;
  locked?: boolean;
}

export interface LinkSpec {
  a: number;
  b: number;
  /** Omitted = the distance at load time. */
  rest?: number;
  give?: number;
  compliance?: number;
  kind?: LinkKind;
  tear_stretch?: number;
  tear_force?: number;
}

export interface RopeSpec {
  from: Vec3;
  to: Vec3;
  points: number;
  mass_per_meter?: number;
  slack?: number;
  lock_start?: boolean;
  lock_end?: boolean;
  give?: number;
  compliance?: number;
  kind?: LinkKind;
  radius?: number;
  tear_stretch?: number;
  tear_force?: number;
  start_mass?: number;
  end_mass?: number;
}

export interface GridSpec {
  origin: Vec3;
  cols: number;
  rows: number;
  spacing: number;
  point_mass?: number;
  lock?: 'none' | 'top-corners' | 'top-row';
  give?: number;
  compliance?: number;
  radius?: number;
}

export type ObstacleShape =
  | { type: 'plane'; point: Vec3; normal: Vec3 }
  | { type: 'circle' | 'sphere'; center: Vec3; radius: number }
  | { type: 'capsule'; a: Vec3; b: Vec3; radius: number }
  | { type: 'box'; center: Vec3; half: Vec3; angle?: number };

/** A static obstacle (also `sim.obstacles()`, an array of these, and `sim.addObstacle(json)`). */
export interface Obstacle {
  shape: ObstacleShape;
  friction?: number;
  dynamic_friction?: number;
  restitution?: number;
}

export interface PinSpec {
  point: number;
  /** Omitted = where the point is when the scene loads. */
  target?: Vec3;
  compliance?: number;
}

export interface WanderSpec {
  enabled?: boolean;
  accel?: number;
  damping?: number;
  seed?: number;
  home_pull?: number;
}

export interface DogSpec {
  at: Vec3;
  mass?: number;
  body_radius?: number;
  grip?: number;
}

export interface LeashSpec {
  hand: Vec3;
  front?: Vec3;
  hand_radius?: number;
  dogs: DogSpec[];
  points?: number;
  length?: number;
  mass_per_meter?: number;
  radius?: number;
  compliance?: number;
  wander?: WanderSpec;
}

export interface DogPoint {
  particle: number;
  height: number;
  body_radius?: number;
  grip?: number;
}

export interface LeashPoints {
  hand: number;
  dogs: DogPoint[];
  front?: Vec3;
  hand_radius?: number;
  wander?: WanderSpec;
}

/** A scene file (versioned JSON; unknown fields are rejected). */
export interface Scene {
  version: 1;
  name?: string;
  description?: string;
  camera?: SceneCamera;
  settings?: SceneSettings;
  particles?: ParticleSpec[];
  links?: LinkSpec[];
  ropes?: RopeSpec[];
  grids?: GridSpec[];
  obstacles?: Obstacle[];
  pins?: PinSpec[];
  leash?: LeashSpec;
  rope_points?: number[][];
  leash_points?: LeashPoints;
  bodies?: BodySpec[];
  joints?: JointSpec[];
  attachments?: AttachSpec[];
  winches?: WinchSpec[];
  /** The number the scene demonstrates and how to read it (src/measure.rs). */
  measure?: MeasureSpec;
  /** Seconds after which the page starts the scene again while nobody has touched it. */
  restart_after?: number;
  /** What the step carries from one step to the next (docs/export.md): `exportScene()`
   * writes it, so that the export continues the same trajectory bit for bit. */
  state?: SceneState;
}

/** The quantity a `MeasureSpec` reads (src/measure.rs has how each is read): its kind and
 * the fields that kind reads. */
export type MeasureQuantity =
  | { kind: 'fall' | 'period' | 'peak_speed' | 'speed'; point: number; body?: never }
  | { kind: 'fall' | 'period' | 'peak_speed' | 'speed'; body: string; point?: never }
  | { kind: 'sag'; rope: number }
  | { kind: 'turn'; body: string; axis: Vec3 }
  | { kind: 'capstan_ratio' };

/** A scene's number: the closed form's value and its tolerance, read over a window. */
export type MeasureSpec = MeasureQuantity & {
  label: string;
  predicted: number;
  unit: string;
  /** Relative (0.03 = 3 %). */
  tolerance: number;
  formula?: string;
  /** The window, in seconds since the scene was loaded. */
  from: number;
  to: number;
  /** `fall`: k of ẍ = a₀ + k x (1/s²), a fall that speeds up as it goes. */
  growth?: number;
};

/** `measure()`: the scene's number as read so far. */
export interface Reading {
  label: string;
  unit: string;
  predicted: number;
  tolerance: number;
  formula: string;
  from: number;
  to: number;
  status: 'waiting' | 'measuring' | 'done' | 'disturbed';
  /** Null until there is a value (and when disturbed). */
  value: number | null;
  /** Whether the value lies within the tolerance of the prediction (null without one). */
  within: boolean | null;
}

/** An export's carried state (src/scene/state.rs; docs/export.md). Its lists follow the
 * world's own layout: edit the scene, and drop `state`. */
export interface SceneState {
  steps?: number;
  time?: number;
  last_h: number;
  /** The dogs' random walk's generator, 16 hex digits. */
  rng?: string;
  dogs?: { home: Vec3; walk: Vec3 }[];
  prev?: Vec3[];
  /** Per link, its tension in the last substep (N). */
  link_force?: number[];
  rows?: number[];
  /** [particle, shape, [normal, tangent, tangent impulses]]. */
  point_contacts?: [number, number, [number, number, number]][];
  joints?: number[][];
  joint_frames?: [number, number, number, number][][];
  /** [length, min, max (−1: none)], or null for a joint of another kind. */
  distance?: ([number, number, number] | null)[];
  attachments?: Vec3[];
  exact?: { step: number; lambda: number[]; converged: boolean[] };
  /** The exact solver's body forest: per directly solved joint, its last multiplier. */
  body_tree?: [number, number, number][];
  body_ids?: IdState;
  joint_ids?: IdState;
  contacts?: ContactsState;
}

export interface IdState {
  generation: number[];
  dense: number[];
  free: number[];
}

export interface ContactsState {
  sweep_back?: boolean;
  touching?: [number, number][];
  contacts?: WarmContact[];
  /** [segment, body and point, [normal, tangent, tangent impulses]]. */
  rope?: [number, number, [number, number, number]][];
}

export interface WarmContact {
  pair: [number, number];
  flat?: boolean;
  /** [feature id, world point, normal impulse]. */
  points: [number, Vec3, number][];
  normal: Vec3;
  tangents: [Vec3, Vec3];
  friction: [number, number, number];
  /** A 2D box pair's cached manifold (src/collide/narrow/box_box_2d.rs). */
  rect?: {
    valid: boolean;
    rel: [number, number, number, number];
    halves: [number, number, number, number];
    hands: [boolean, boolean];
    flip: boolean;
    k: number;
    sign: number;
    pts: [[Vec2, number], [Vec2, number]];
  };
  /** A 2D box pair's manifold as found, in the two boxes' frames, which the next steps keep
   * while the pair stays within `rect`'s limits (src/contacts/planar.rs, `Kept`). */
  kept?: {
    on_a: [Vec2, Vec2];
    on_b: [Vec2, Vec2];
    normal: Vec2;
    separation: [number, number];
    stands_for: [number, number];
    depth2: [number, number];
  };
}

/** A body's shape in a scene file (or `sim.addBody(json)`). */
export type BodyShapeSpec =
  | { type: 'sphere'; radius: number }
  | { type: 'capsule'; radius: number; half_length: number }
  | { type: 'box'; half: Vec3 };

/** `bodies[i]` (src/scene/bodies.rs), also `sim.addBody(JSON.stringify(spec))`. */
export interface BodySpec {
  /** What joints and attachments call it (unique in the file). */
  name?: string;
  kind?: BodyKind;
  shape: BodyShapeSpec;
  /** kg (dynamic bodies; default 1). */
  mass?: number;
  pos: Vec3;
  /** Quaternion [x, y, z, w]; or `angle` (rad) about z; not both. */
  rot?: [x: number, y: number, z: number, w: number];
  angle?: number;
  vel?: Vec3;
  angular_velocity?: Vec3;
  linear_damping?: number;
  angular_damping?: number;
  gravity_scale?: number;
  planar?: boolean;
  /** Surface (defaults: friction 0.6, restitution 0, rolling_friction 0 m). */
  friction?: number;
  restitution?: number;
  rolling_friction?: number;
  /** Collision filter bits (defaults: group 1, mask 0xFFFFFFFF). */
  group?: number;
  mask?: number;
}

/** `joints[i]`, also `sim.addJoint(JSON.stringify(spec))` (there bodies are ids). */
export interface JointSpec {
  type: JointType;
  /** A body's name, or id; null or absent = the world. */
  a?: string | number | null;
  b?: string | number | null;
  /** World anchor (on A; on B too unless `anchor_b`). */
  anchor: Vec3;
  anchor_b?: Vec3;
  /** World axis (default [0, 0, 1]). */
  axis?: Vec3;
  /** hinge, prismatic. */
  limit?: [lo: number, hi: number];
  /** hinge, prismatic, angularMotor. */
  motor?: { speed: number; max_force: number };
  soft?: { hertz: number; damping_ratio: number };
  break_force?: number;
  /** distance: the rod's length, or (with `soft`) the spring's rest length; default the
   *  anchors' distance. A soft distance joint is a two-sided spring at `length`. */
  length?: number;
  /** distance: rigid lower limit (default 0). */
  min?: number;
  /** distance: rigid upper limit (default `length` if rigid, none if soft). */
  max?: number;
  /** rope. */
  max_length?: number;
  /** swingTwist. */
  max_swing?: number;
  twist?: [lo: number, hi: number];
  /** A⁻¹·B at zero angle, [x, y, z, w] (exports write it). */
  ref_rotation?: [x: number, y: number, z: number, w: number];
  /** The joined bodies still collide with each other (default false). */
  collide_connected?: boolean;
}

/** `attachments[i]`: a particle (`point`, or the `end` of `rope`) becomes that point of `body`. */
export interface AttachSpec {
  point?: number;
  rope?: number;
  end?: 'start' | 'end';
  body: string | number;
}

/** `winches[i]` (src/scene/winches.rs): a winch on rope `rope` (its index in the file). */
export interface WinchSpec {
  rope: number;
  /** m/s; negative reels in (default 0). */
  speed?: number;
  /** N (default 1e9). */
  max_force?: number;
  /** The link rest length its range [¼, 4]× is measured from (exports carry it). */
  link_rest?: number;
}
