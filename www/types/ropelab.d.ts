/* tslint:disable */
/* eslint-disable */

export class Sim {
  free(): void;
  [Symbol.dispose](): void;
  /**
   * Current index of the rope with stable id `id` (tangles and events name ropes by id),
   * or -1 when that rope is gone.
   */
  ropeIndex(id: number): number;
  /**
   * Dogs wander (true) or stand still (false). Throws without a leash scene.
   */
  setWander(on: boolean): void;
  /**
   * Rope `i`'s point indices in order (a copy). Leash k runs from the hand to dog k.
   */
  ropePoints(i: number): Uint32Array;
  /**
   * Takes the queued events as a JSON array, oldest first: `{"type": "tangleFormed", "id",
   * "over", "under", "point"}`, `{"type": "tangleStateChanged", "id", "state": "locked" |
   * "tight"}`, `{"type": "tangleBroken", "id", "over", "under"}`, `{"type": "dogsSwapped",
   * "gen", "dogs"}`, `{"type": "braidResync"}`, `{"type": "linkTorn", "a", "b", "stretch"}`.
   * Formed and broken fire exactly once per tangle.
   */
  drainEvents(): string;
  /**
   * Per link: the rope it belongs to, or -1 (an `Int32Array` copy, one entry per link).
   */
  ropeOfLink(): Int32Array;
  /**
   * Rope–rope contacts pressing in the last substep: `[{"ropes": [a, b], "segments": [i,
   * j], "point": [x, y, z], "force": N}]`.
   */
  ropeContacts(): string;
  /**
   * The rope lying over an obstacle with the capstan relation: JSON `{obstacle, mu, wrap,
   * limit, tensionLoad, tensionHold, fromSolver, ratio, slipSpeed, holds, load: {point,
   * mass}, hold: {point, mass}, contactFrom: [x, y, z], contactTo: [x, y, z]}` or `null`.
   * Allocates: call it a few times a second, not per frame of a hot loop.
   */
  capstanReport(): string;
  /**
   * The braid reading's crossings, hand outwards: `[{"kind": "leash" | "dogRay" | "seam",
   * "point", "top", "radius", "over", "under" (-1 for the seam), "letters"}]`.
   */
  braidCrossings(): string;
  /**
   * Wander strength: random acceleration (m/s²) and damping rate (1/s).
   */
  setWanderParams(accel: number, damping: number): void;
  /**
   * The leash braid as JSON, or `"null"`: `{"strands", "word", "letters", "reduced",
   * "reducedLetters", "normalForm", "crossings", "trivial", "fullTwists" (null | k),
   * "handOrder", "dogOrder", "hint": {"moves", "twistsLeft", "optimal", "steps": [{"dogs",
   * "halfTurns", "text"}]}}`. Letters: +i = σᵢ, -i = σᵢ⁻¹. `swivel`: a swivel coupler at
   * the hand sheds full twists (the hint may leave them).
   */
  braid(swivel: boolean): string;
  /**
   * The leash scene as JSON, or `"null"`: `{"hand": point, "valid": bool, "front": [fx, fz],
   * "handRadius": m, "wander": bool, "seed": n, "dogs": [{"point", "rope", "height",
   * "bodyRadius"}]}` (see `report::leash_json`). In the lite build too: `<rope-lab>` draws
   * the hand and the dogs from it.
   */
  leash(): string;
  /**
   * Stable id of rope `index` (stays valid while other ropes are cut or removed).
   */
  ropeId(index: number): number;
  /**
   * The live tangles as a JSON array: `{"id", "over", "under", "point": [x, y, z], "top":
   * [x, z], "along": [m, m], "tension": [overIn, overOut, underIn, underOut] (N), "wrap"
   * (rad), "wraps": [over, under], "holdingRatio" (e^{μΘ}), "slipRatio" (the tension
   * ratio over the static limit e^{μ_s Θ}: a locked tangle slips past 1; null = one side
   * slack), "normalForce" (N), "state": "tight" | "locked", "age" (steps)}`.
   */
  tangles(): string;
  /**
   * Every top-view crossing of two rope segments, for the knot diagram: `[{"top": [x, z],
   * "over": {"rope", "segment", "link", "t", "y"}, "under": {…}}]` — break the `under`
   * segment around `top`.
   */
  crossings(): string;
  /**
   * `[{id, kind, shape, mass, planar}]` per body, in pose-buffer order (JSON text).
   */
  bodiesJson(): string;
  /**
   * Every joint's world anchors, axis, limits, motor, softness and reaction force and
   * torque over the last step (JSON text; the fields are listed on `joints_json_string`).
   */
  jointsJson(): string;
  /**
   * Removes a body, its joints (a drag on it too) and its attachments.
   */
  removeBody(id: number): void;
  /**
   * Lets go of the body the pointer holds (its joint is removed); false if it held none.
   */
  releaseBody(pointer: number): boolean;
  removeJoint(id: number): void;
  /**
   * `[{rope, speed, maxForce, length}]` per winch (JSON text).
   */
  winchesJson(): string;
  /**
   * Length of the pose buffer in floats (7 per body after `refillBodyPoses`).
   */
  bodyPosesLen(): number;
  /**
   * Pointer to the pose buffer in wasm memory (f32s; `bodyPosesLen()` of them).
   */
  bodyPosesPtr(): number;
  /**
   * The pose buffer as a view of wasm memory (7 floats per body), valid until the next
   * call into the sim: refill it, view it, draw, every frame.
   */
  bodyPoses(): Float32Array;
  /**
   * Winch `i` (its index in `winchesJson()`) pays its rope out at `speed` m/s
   * (negative reels in, |speed| ≤ 100).
   */
  setWinchSpeed(i: number, speed: number): void;
  /**
   * The queued contact events' ids as a view of wasm memory, 3 per event: kind (1 begin,
   * 0 end), body id a, body id b. Valid until the next call into the sim; read it, then
   * `clearContactEvents()`.
   */
  contactEventIds(): Uint32Array;
  /**
   * Forgets the queued contact events (after reading the views).
   */
  clearContactEvents(): void;
  /**
   * Body contact events of every step since the last drain or clear (like the tangle
   * events of `drainEvents`), oldest first, as JSON: `[{type: "begin" | "end", a, b,
   * impulse}]` — body ids (a < b) and, for a begin, the normal impulse (N·s) the pair took
   * in its first step (0 for an end). Drains the queue (at most 1,024 events wait; the
   * oldest are dropped first).
   */
  drainContactEvents(): string;
  /**
   * Refills the pose buffer (7 floats per body: px, py, pz, qx, qy, qz, qw), each pose
   * `alpha` of the way from the start of the last step to its end (dual-quaternion
   * blend; pass `sim.alpha` from the fixed-step clock, 0 ≤ alpha ≤ 1). Returns the
   * buffer's length in floats. No allocation once the buffer has grown to the bodies.
   */
  refillBodyPoses(alpha: number): number;
  /**
   * The queued contact events' impulses (N·s, one per event, 0 for an end) as a view of
   * wasm memory, like `contactEventIds()`.
   */
  contactEventImpulses(): Float32Array;
  /**
   * Makes point `point` the point of body `bodyId` where it lies now (it moves with the
   * body; its mass is the body's until `detach`).
   */
  attach(point: number, body_id: number): void;
  /**
   * Frees an attached point (it keeps its place and gets its own mass back).
   */
  detach(point: number): void;
  /**
   * Adds a body (a scene file's `bodies[i]` as JSON: `{shape, mass, pos, angle | rot,
   * kind, vel, angular_velocity, linear_damping, angular_damping, gravity_scale,
   * planar}`); returns its id. Throws under the classic solver (it cannot run bodies).
   */
  addBody(json: string): number;
  /**
   * Adds a joint (a scene file's `joints[i]` as JSON, bodies as ids or null for the world:
   * `{type: "hinge", a: 0, b: 1, anchor: [x, y, z], axis, limit, motor: {speed,
   * max_force}, soft: {hertz, damping_ratio}, break_force, …}`); returns its id.
   */
  addJoint(json: string): number;
  /**
   * Moves the pointer's end of its drag joint to the view point `(x, y)`.
   */
  dragBody(pointer: number, x: number, y: number): void;
  /**
   * Pointer `pointer` grabs body `id` at the view point `(x, y)`: a soft ball-socket (5 Hz,
   * damping ratio 0.7) from the pointer to that point of the body, until `releaseBody`.
   * A pointer holding a body already lets go of it first.
   */
  grabBody(pointer: number, id: number, x: number, y: number): void;
  /**
   * Id of the dynamic body whose projected outline is under `(x, y)` (view coordinates,
   * m, as `pick`), or within `margin` m of it (default 0); -1 for none.
   */
  pickBody(x: number, y: number, margin?: number | null): number;
  /**
   * Replaces the world with a JSON scene. Throws (naming the JSON path) and keeps the
   * current world if the scene is invalid.
   */
  loadScene(json: string): void;
  /**
   * The current world as a scene file (JSON text).
   */
  exportScene(): string;
  /**
   * The scene's camera as `[centerX, centerY, height]`, or an empty array.
   */
  camera(): Float32Array;
  /**
   * Removes the link between `a` and `b`; returns whether there was one.
   */
  disconnect(a: number, b: number): boolean;
  setLocked(index: number, locked: boolean): void;
  /**
   * Flips the lock of point `index`; returns the new state.
   */
  toggleLock(index: number): boolean;
  /**
   * Adds an obstacle from JSON, e.g. `{"shape": {"type": "circle", "center": [0, 1, 0],
   * "radius": 0.5}, "friction": 0.6}`; returns its index.
   */
  addObstacle(json: string): number;
  /**
   * Removes point `index` and its links; higher indices shift down by one.
   */
  removePoint(index: number): void;
  clearObstacles(): void;
  /**
   * Removes every link crossed by the swipe (x0, y0)–(x1, y1); returns how many.
   */
  cut(x0: number, y0: number, x1: number, y1: number): number;
  /**
   * Pins point `index` to `(x, y)` (view plane) with `compliance` m/N (0 = rigid).
   */
  pin(index: number, x: number, y: number, compliance: number): void;
  /**
   * Pointer `pointerId` grabs point `index`; it follows `dragTo` until `release`.
   */
  grab(pointer_id: number, index: number): void;
  /**
   * Index of the point nearest `(x, y)` within `radius` (view plane, metres), or -1.
   */
  pick(x: number, y: number, radius: number): number;
  /**
   * Removes point `index`'s pin; returns whether it had one.
   */
  unpin(index: number): boolean;
  /**
   * Links points `a` and `b` at their current distance; returns the link index.
   */
  connect(a: number, b: number): number;
  dragTo(pointer_id: number, x: number, y: number): void;
  /**
   * Index of the point `pointerId` holds, or -1.
   */
  heldBy(pointer_id: number): number;
  /**
   * Lets go; the point keeps the pointer's recent velocity. Returns whether it held one.
   */
  release(pointer_id: number): boolean;
  /**
   * Adds a point at `(x, y)`; returns its index.
   */
  addPoint(x: number, y: number, locked: boolean): number;
  isLocked(index: number): boolean;
  /**
   * The obstacles as a JSON array (scene format), for drawing.
   */
  obstacles(): string;
  /**
   * Inserts `count` points evenly along link `link`; returns the first new point's index.
   */
  subdivide(link: number, count: number): number;
  /**
   * The number the scene demonstrates, measured: JSON `{label, unit, predicted,
   * tolerance, formula, from, to, status ("waiting" | "measuring" | "done" |
   * "disturbed"), value (null until read), within (null, or whether the value is within
   * the tolerance of the prediction)}`, or `null` for a scene without one. Allocates:
   * call it a few times a second.
   */
  measure(): string;
  setSolver(name: string): void;
  clearWalls(): void;
  /**
   * PBD-family solvers: bending stiffness along ropes on/off.
   */
  setBending(on: boolean): void;
  /**
   * PBD-family solvers: velocity damping rate in 1/s (0 = none).
   */
  setDamping(rate: number): void;
  setGravity(x: number, y: number, z: number): void;
  /**
   * Iterative solvers: long-range attachments (tethers) to anchored points.
   */
  setTethers(on: boolean): void;
  /**
   * Every solver's name, menu label and description: JSON `[{name, label, about}]`.
   */
  static solverInfo(): string;
  /**
   * The seed's friction: fraction of velocity kept per classic step (1 = none lost).
   */
  setFriction(f: number): void;
  /**
   * Sets several settings at once, all or nothing: `patch` is an object (or its JSON)
   * `{name: value}` with scene keys or JS names (`settingsSchema()` lists them), e.g.
   * `sim.setSettings({iterations: 8, damping: 0.5})`. Each value is checked exactly as a
   * scene file's `settings` are; on any error nothing changes.
   */
  setSettings(patch: any): void;
  setSubsteps(n: number): void;
  /**
   * `[muS, muK]`.
   */
  ropeFriction(): Float32Array;
  setIterations(n: number): void;
  /**
   * Optional cap (≥ 1) on the tangles' holding ratio e^{μΘ} (the seed's 3); `undefined`
   * removes it (the default: the physics).
   */
  setTangleCap(cap?: number | null): void;
  /**
   * Which solvers can run the current scene: JSON `[{name, ok, reason}]` (`reason` says
   * what the scene needs that the solver lacks; `setSolver` throws it too).
   */
  solverSupport(): string;
  /**
   * Fraction of normal speed kept in a bounce off the walls.
   */
  setRestitution(e: number): void;
  /**
   * The settings table as JSON: `[{key, js, label, unit, doc, kind, range, min, max,
   * default, slider?}]` — the page builds its sliders from it.
   */
  static settingsSchema(): string;
  /**
   * Every setting's current value, as JSON `{jsName: value}`.
   */
  settings(): string;
  /**
   * Classic solver: inverse-mass-weighted projection instead of the seed's centre split.
   * Throws (and changes nothing) when the classic solver could not then run the scene.
   */
  setMassWeighted(on: boolean): void;
  /**
   * Rope–rope Coulomb friction: static `muS`, dynamic `muK` (both ≥ 0).
   */
  setRopeFriction(mu_s: number, mu_k: number): void;
  /**
   * Coulomb friction of the walls (PBD-family solvers).
   */
  setWallFriction(mu: number): void;
  /**
   * Mouse constraint: 0 = held points follow the pointer exactly; > 0 (m/N) = a soft
   * pin pulls them (PBD-family solvers), so dragging feels the rope's weight.
   */
  setDragCompliance(c: number): void;
  /**
   * Rope–rope collisions on/off (PBD-family solvers).
   */
  setRopeCollisions(on: boolean): void;
  /**
   * Bending compliance in rad/(N·m) (0 = rigid).
   */
  setBendingCompliance(c: number): void;
  /**
   * Walls as `[minX, minY, maxX, maxY]`, or an empty array when there are none.
   */
  walls(): Float32Array;
  /**
   * Gravity as `[x, y, z]` (m/s²).
   */
  gravity(): Float32Array;
  /**
   * Names of every available solver.
   */
  static solvers(): string[];
  setGive(give: number): void;
  /**
   * Jacobi solver: over-relaxation factor ω (0 < ω < 2).
   */
  setOmega(omega: number): void;
  setWalls(min_x: number, min_y: number, max_x: number, max_y: number): void;
  /**
   * Per link: relative stretch (d - L) / L. Refilled by `refreshRender()`.
   */
  linkStrain(): Float32Array;
  /**
   * Largest relative link stretch |d − L| / L.
   */
  maxStretch(): number;
  /**
   * Per point: bit 0 locked, bit 1 held. Refilled by `refreshRender()`.
   */
  pointFlags(): Uint8Array;
  /**
   * Mean µs per step of every stage since profiling began or was reset, as JSON
   * `{steps, stages: [{name, perSubstep, us}]}` in step order; `null` when off.
   */
  stageTimes(): string;
  /**
   * Per link: tension in newtons over the last substep. Refilled by `refreshRender()`.
   */
  linkTension(): Float32Array;
  /**
   * Per-stage timers on or off (off costs nothing; on, two `performance.now()` reads per
   * stage, whose resolution the browser may coarsen: read means over many steps).
   */
  setProfiling(on: boolean): void;
  /**
   * Refills the per-frame render buffers (`pointFlags`, `linkStrain`) in place.
   */
  refreshRender(): void;
  /**
   * Sets the fixed step `h` (s) and the catch-up cap used by `advance`.
   */
  setFixedStep(h: number, max_steps: number): void;
  /**
   * The bits of `pointFlags()`: `{locked, held}` as JSON (www/flags.js holds the same
   * values for the page, checked against this by the browser tests).
   */
  static pointFlagBits(): string;
  /**
   * Restarts the per-stage means from zero.
   */
  resetStageTimes(): void;
  /**
   * An empty world with default settings (classic solver, SI units, y up).
   */
  constructor();
  /**
   * Advances exactly `dt` seconds (1e-6 ≤ dt ≤ 1); during a replay, one recorded step.
   */
  step(dt: number): void;
  /**
   * Link end indices as pairs (a0, b0, a1, b1, …): a view of wasm memory.
   */
  links(): Uint32Array;
  /**
   * Kinetic plus gravitational potential energy (J) of the free particles and the dynamic
   * bodies (translation and rotation); an attached particle counts as part of its body
   * (see `World::energy`).
   */
  energy(): number;
  /**
   * Adds a frame's real elapsed time (s) to the fixed-step accumulator and runs the
   * steps that are due (at most `maxSteps`, the backlog beyond that is dropped).
   * Returns the number of steps run. Negative or non-finite elapsed time counts as 0.
   */
  advance(elapsed: number): number;
  /**
   * Rest length (m) per link: a view of wasm memory, like `links()`.
   */
  linkRest(): Float32Array;
  /**
   * x, y, z per point: a view of wasm memory, valid until the next call into the sim.
   */
  positions(): Float32Array;
  /**
   * The marks the replay passed since the last call: `[[what, value], …]` (JSON).
   */
  takeMarks(): string;
  /**
   * Adds a mark to the open recording (`what`: 1–32 characters, `value` finite); nothing
   * for the physics. Does nothing when not recording.
   */
  recordMark(what: string, value: number): void;
  /**
   * Ends the replay where it is; the world goes on from there.
   */
  stopPlayback(): void;
  /**
   * Loads a recording to play from its first step (`sceneText`: the preset's scene when
   * the recording names one, else ""). Throws, keeping the world, when the recording is
   * malformed or its scene is not the one it was recorded on.
   */
  playRecording(recording: string, scene_text: string): void;
  /**
   * Ends the recording; returns it (JSON text).
   */
  stopRecording(): string;
  /**
   * Restarts from `sceneText` and records every input from its first step (the settings
   * the world has now carry over). `sceneRef`: the preset's name the recording names
   * instead of carrying the scene ("" to carry it). `quantum`: the drag grid in m, a power
   * of two (0: 2⁻⁹ m); drags while recording move to the grid.
   */
  startRecording(scene_ref: string, scene_text: string, quantum: number): void;
  /**
   * The replay's state: `{playing, step, steps, done, takenOver, divergedAt, matches,
   * engine, recordedEngine, message}` (JSON), or `null`.
   */
  playback(): string;
  /**
   * Number of ropes (ordered point lists; the leashes of the leash scene are ropes).
   */
  readonly ropeCount: number;
  readonly wander: boolean;
  /**
   * Number of rigid bodies.
   */
  readonly bodyCount: number;
  /**
   * Number of queued contact events (the zero-copy views below have 3 ids and 1 impulse
   * per event).
   */
  readonly contactEventCount: number;
  /**
   * The scene states a `restart_after` time and has run that long since it was loaded
   * with nobody touching it (no grab, edit or settings change): the page loads it again,
   * so that an experiment that ends is shown again and again.
   */
  readonly restartDue: boolean;
  readonly iterations: number;
  readonly restitution: number;
  readonly massWeighted: boolean;
  readonly wallFriction: number;
  readonly dragCompliance: number;
  readonly ropeCollisions: boolean;
  readonly bendingCompliance: number;
  readonly give: number;
  /**
   * `"side"` (x–y) or `"top"` (x–z): the plane the page draws and edits.
   */
  readonly view: string;
  readonly omega: number;
  readonly solver: string;
  readonly bending: boolean;
  readonly damping: number;
  readonly tethers: boolean;
  readonly friction: number;
  readonly substeps: number;
  /**
   * The fixed step `h` (s) used by `advance`.
   */
  readonly fixedStep: number;
  readonly linkCount: number;
  readonly pointCount: number;
  readonly time: number;
  /**
   * Fraction of a fixed step the clock has accumulated (for interpolated drawing).
   */
  readonly alpha: number;
  /**
   * Steps recorded so far.
   */
  readonly recordedSteps: number;
  /**
   * Whether a replay is running (not finished, not taken over).
   */
  readonly playing: boolean;
  /**
   * Whether a recording is open.
   */
  readonly recording: boolean;
}

/**
 * Runs a docs/benchmarks.md workload (`"W1"` … `"W7"` (W6 = `"pyramid20"` and W7 =
 * `"large_pyramid"`, impulse only, their lines read `drift=…`; W7 runs in Box2D's loop), or `"leash"`: the leash scene preset
 * with collisions, tangles and the braid) with `solver` (a solver name, or
 * `"xpbd+tethers"`: see `workloads::BenchConfig`) under the shared measurement protocol,
 * with the workload's own stretch measure (W4: body centres; W5: the rope's links up to
 * the ball), and returns its line (`ropelab-<solver> W1 us_per_step=… …`). The classic
 * solver has no rigid bodies and is refused for W4 and W5. `now` is a monotonic clock in
 * milliseconds (pass `() => performance.now()`). For the browser harness; warm the page up
 * first so the timed steps run optimised code.
 */
export function benchmarkLine(workload: string, solver: string, now: Function): string;

/**
 * Plays a whole recording without drawing and reports `{steps, hash, recordedHash, engine,
 * recordedEngine, divergedAt, matches, message}` (JSON): what `ropelab replay` prints.
 * `sceneText`: the preset's scene when the recording names one, else "".
 */
export function replayRecording(recording: string, scene_text: string): string;

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

export interface InitOutput {
  readonly memory: WebAssembly.Memory;
  readonly __wbg_sim_free: (a: number, b: number) => void;
  readonly benchmarkLine: (a: any, b: any, c: any) => [number, number, number, number];
  readonly replayRecording: (a: any, b: any) => [number, number, number, number];
  readonly sim_addBody: (a: number, b: any) => [number, number, number];
  readonly sim_addJoint: (a: number, b: any) => [number, number, number];
  readonly sim_addObstacle: (a: number, b: any) => [number, number, number];
  readonly sim_addPoint: (a: number, b: number, c: number, d: number) => [number, number, number];
  readonly sim_advance: (a: number, b: number) => [number, number, number];
  readonly sim_alpha: (a: number) => number;
  readonly sim_attach: (a: number, b: number, c: number) => [number, number];
  readonly sim_bending: (a: number) => number;
  readonly sim_bendingCompliance: (a: number) => number;
  readonly sim_bodiesJson: (a: number) => [number, number];
  readonly sim_bodyCount: (a: number) => number;
  readonly sim_bodyPoses: (a: number) => any;
  readonly sim_bodyPosesLen: (a: number) => number;
  readonly sim_bodyPosesPtr: (a: number) => number;
  readonly sim_braid: (a: number, b: number) => [number, number];
  readonly sim_braidCrossings: (a: number) => [number, number];
  readonly sim_camera: (a: number) => [number, number];
  readonly sim_capstanReport: (a: number) => [number, number];
  readonly sim_clearContactEvents: (a: number) => void;
  readonly sim_clearObstacles: (a: number) => void;
  readonly sim_clearWalls: (a: number) => void;
  readonly sim_connect: (a: number, b: number, c: number) => [number, number, number];
  readonly sim_contactEventCount: (a: number) => number;
  readonly sim_contactEventIds: (a: number) => any;
  readonly sim_contactEventImpulses: (a: number) => any;
  readonly sim_crossings: (a: number) => [number, number];
  readonly sim_cut: (a: number, b: number, c: number, d: number, e: number) => [number, number, number];
  readonly sim_damping: (a: number) => number;
  readonly sim_detach: (a: number, b: number) => [number, number];
  readonly sim_disconnect: (a: number, b: number, c: number) => [number, number, number];
  readonly sim_dragBody: (a: number, b: number, c: number, d: number) => [number, number];
  readonly sim_dragCompliance: (a: number) => number;
  readonly sim_dragTo: (a: number, b: number, c: number, d: number) => [number, number];
  readonly sim_drainContactEvents: (a: number) => [number, number];
  readonly sim_drainEvents: (a: number) => [number, number];
  readonly sim_energy: (a: number) => number;
  readonly sim_exportScene: (a: number) => [number, number];
  readonly sim_fixedStep: (a: number) => number;
  readonly sim_friction: (a: number) => number;
  readonly sim_give: (a: number) => number;
  readonly sim_grab: (a: number, b: number, c: number) => [number, number];
  readonly sim_grabBody: (a: number, b: number, c: number, d: number, e: number) => [number, number];
  readonly sim_gravity: (a: number) => [number, number];
  readonly sim_heldBy: (a: number, b: number) => number;
  readonly sim_isLocked: (a: number, b: number) => [number, number, number];
  readonly sim_iterations: (a: number) => number;
  readonly sim_jointsJson: (a: number) => [number, number];
  readonly sim_leash: (a: number) => [number, number];
  readonly sim_linkCount: (a: number) => number;
  readonly sim_linkRest: (a: number) => any;
  readonly sim_linkStrain: (a: number) => any;
  readonly sim_linkTension: (a: number) => any;
  readonly sim_links: (a: number) => any;
  readonly sim_loadScene: (a: number, b: any) => [number, number];
  readonly sim_massWeighted: (a: number) => number;
  readonly sim_maxStretch: (a: number) => number;
  readonly sim_measure: (a: number) => [number, number];
  readonly sim_new: () => number;
  readonly sim_obstacles: (a: number) => [number, number];
  readonly sim_omega: (a: number) => number;
  readonly sim_pick: (a: number, b: number, c: number, d: number) => [number, number, number];
  readonly sim_pickBody: (a: number, b: number, c: number, d: number) => [number, number, number];
  readonly sim_pin: (a: number, b: number, c: number, d: number, e: number) => [number, number];
  readonly sim_playRecording: (a: number, b: any, c: any) => [number, number];
  readonly sim_playback: (a: number) => [number, number];
  readonly sim_playing: (a: number) => number;
  readonly sim_pointCount: (a: number) => number;
  readonly sim_pointFlagBits: () => [number, number];
  readonly sim_pointFlags: (a: number) => any;
  readonly sim_positions: (a: number) => any;
  readonly sim_recordMark: (a: number, b: any, c: number) => [number, number];
  readonly sim_recordedSteps: (a: number) => number;
  readonly sim_recording: (a: number) => number;
  readonly sim_refillBodyPoses: (a: number, b: number) => [number, number, number];
  readonly sim_refreshRender: (a: number) => void;
  readonly sim_release: (a: number, b: number) => number;
  readonly sim_releaseBody: (a: number, b: number) => [number, number, number];
  readonly sim_removeBody: (a: number, b: number) => [number, number];
  readonly sim_removeJoint: (a: number, b: number) => [number, number];
  readonly sim_removePoint: (a: number, b: number) => [number, number];
  readonly sim_resetStageTimes: (a: number) => void;
  readonly sim_restartDue: (a: number) => number;
  readonly sim_restitution: (a: number) => number;
  readonly sim_ropeCollisions: (a: number) => number;
  readonly sim_ropeContacts: (a: number) => [number, number];
  readonly sim_ropeCount: (a: number) => number;
  readonly sim_ropeFriction: (a: number) => [number, number];
  readonly sim_ropeId: (a: number, b: number) => [number, number, number];
  readonly sim_ropeIndex: (a: number, b: number) => number;
  readonly sim_ropeOfLink: (a: number) => [number, number];
  readonly sim_ropePoints: (a: number, b: number) => [number, number, number, number];
  readonly sim_setBending: (a: number, b: number) => [number, number];
  readonly sim_setBendingCompliance: (a: number, b: number) => [number, number];
  readonly sim_setDamping: (a: number, b: number) => [number, number];
  readonly sim_setDragCompliance: (a: number, b: number) => [number, number];
  readonly sim_setFixedStep: (a: number, b: number, c: number) => [number, number];
  readonly sim_setFriction: (a: number, b: number) => [number, number];
  readonly sim_setGive: (a: number, b: number) => [number, number];
  readonly sim_setGravity: (a: number, b: number, c: number, d: number) => [number, number];
  readonly sim_setIterations: (a: number, b: number) => [number, number];
  readonly sim_setLocked: (a: number, b: number, c: number) => [number, number];
  readonly sim_setMassWeighted: (a: number, b: number) => [number, number];
  readonly sim_setOmega: (a: number, b: number) => [number, number];
  readonly sim_setProfiling: (a: number, b: number) => void;
  readonly sim_setRestitution: (a: number, b: number) => [number, number];
  readonly sim_setRopeCollisions: (a: number, b: number) => [number, number];
  readonly sim_setRopeFriction: (a: number, b: number, c: number) => [number, number];
  readonly sim_setSettings: (a: number, b: any) => [number, number];
  readonly sim_setSolver: (a: number, b: any) => [number, number];
  readonly sim_setSubsteps: (a: number, b: number) => [number, number];
  readonly sim_setTangleCap: (a: number, b: number) => [number, number];
  readonly sim_setTethers: (a: number, b: number) => [number, number];
  readonly sim_setWallFriction: (a: number, b: number) => [number, number];
  readonly sim_setWalls: (a: number, b: number, c: number, d: number, e: number) => [number, number];
  readonly sim_setWander: (a: number, b: number) => [number, number];
  readonly sim_setWanderParams: (a: number, b: number, c: number) => [number, number];
  readonly sim_setWinchSpeed: (a: number, b: number, c: number) => [number, number];
  readonly sim_settings: (a: number) => [number, number];
  readonly sim_settingsSchema: () => [number, number];
  readonly sim_solver: (a: number) => [number, number];
  readonly sim_solverInfo: () => [number, number];
  readonly sim_solverSupport: (a: number) => [number, number];
  readonly sim_solvers: () => [number, number];
  readonly sim_stageTimes: (a: number) => [number, number];
  readonly sim_startRecording: (a: number, b: any, c: any, d: number) => [number, number];
  readonly sim_step: (a: number, b: number) => [number, number];
  readonly sim_stopPlayback: (a: number) => void;
  readonly sim_stopRecording: (a: number) => [number, number, number, number];
  readonly sim_subdivide: (a: number, b: number, c: number) => [number, number, number];
  readonly sim_substeps: (a: number) => number;
  readonly sim_takeMarks: (a: number) => [number, number];
  readonly sim_tangles: (a: number) => [number, number];
  readonly sim_tethers: (a: number) => number;
  readonly sim_time: (a: number) => number;
  readonly sim_toggleLock: (a: number, b: number) => [number, number, number];
  readonly sim_unpin: (a: number, b: number) => [number, number, number];
  readonly sim_view: (a: number) => [number, number];
  readonly sim_wallFriction: (a: number) => number;
  readonly sim_walls: (a: number) => [number, number];
  readonly sim_wander: (a: number) => number;
  readonly sim_winchesJson: (a: number) => [number, number];
  readonly __wbindgen_malloc: (a: number, b: number) => number;
  readonly __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
  readonly __wbindgen_exn_store: (a: number) => void;
  readonly __externref_table_alloc: () => number;
  readonly __wbindgen_externrefs: WebAssembly.Table;
  readonly __wbindgen_free: (a: number, b: number, c: number) => void;
  readonly __externref_table_dealloc: (a: number) => void;
  readonly __externref_drop_slice: (a: number, b: number) => void;
  readonly __wbindgen_start: () => void;
}

export type SyncInitInput = BufferSource | WebAssembly.Module;

/**
* Instantiates the given `module`, which can either be bytes or
* a precompiled `WebAssembly.Module`.
*
* @param {{ module: SyncInitInput }} module - Passing `SyncInitInput` directly is deprecated.
*
* @returns {InitOutput}
*/
export function initSync(module: { module: SyncInitInput } | SyncInitInput): InitOutput;

/**
* If `module_or_path` is {RequestInfo} or {URL}, makes a request and
* for everything else, calls `WebAssembly.instantiate` directly.
*
* @param {{ module_or_path: InitInput | Promise<InitInput> }} module_or_path - Passing `InitInput` directly is deprecated.
*
* @returns {Promise<InitOutput>}
*/
export default function __wbg_init (module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>): Promise<InitOutput>;
