// Share strings (sharelink.js): `bridge` (a preset by name) or `z:<base64url of the scene
// JSON deflated>` — the value of a `#s=` link fragment and of `<rope-lab scene="…">` — and
// `r:<base64url of a recording's JSON deflated>` (the playground plays it: `#s=r:…`).

/** "z:", the prefix of a packed scene. */
export declare const PACKED_PREFIX: 'z:';
/** Whether `ref` is a packed scene (`z:…`) rather than a preset name or a URL. */
export declare function isPacked(ref: string): boolean;
/** Packs scene JSON text (normally `sim.exportScene()`) into `z:<base64url>`, byte for byte. */
export declare function packScene(text: string): Promise<string>;
/** The scene text inside a packed string; rejects with a clear Error if it is damaged or cut short. */
export declare function unpackScene(ref: string): Promise<string>;
/** "r:", the prefix of a packed recording. */
export declare const RECORDING_PREFIX: 'r:';
/** Whether `ref` is a packed recording (`r:…`). */
export declare function isRecordingRef(ref: string): boolean;
/** Packs recording JSON text (`sim.stopRecording()`) into `r:<base64url>`, byte for byte. */
export declare function packRecording(text: string): Promise<string>;
/** The recording text inside a packed recording; rejects with a clear Error if it is damaged or cut short. */
export declare function unpackRecording(ref: string): Promise<string>;
/** The `s=` value of a URL fragment (`location.hash`), or null. */
export declare function fragmentScene(hash: string): string | null;
