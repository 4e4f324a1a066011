// @ts-check
// Share strings (issue 12 §4): one string names a scene in a link fragment (`#s=…`), in the
// playground's `?scene=` and in the `<rope-lab scene="…">` attribute alike.
//
//   bridge          a preset, by name (www/scenes/<name>.json): links to presets stay short
//   z:<base64url>   a whole scene, `sim.exportScene()` text compressed with the browser's own
//                   deflate (CompressionStream 'deflate-raw', RFC 1951) and written in
//                   base64url (RFC 4648 §5, no padding): no server needed to share a scene
//                   someone built by hand
//   r:<base64url>   a recording (`sim.stopRecording()` JSON: the scene or its preset's name,
//                   and every input against its step; docs/recordings.md), packed the same
//                   way: the page plays it (`#s=r:…`)
//
// The packed form carries the exported text byte for byte (not a re-serialised copy), so a
// scene loaded from a link exports exactly the text that was shared. `z:` and `r:` cannot
// start a preset name (no colon) and no one fetches such a URL, so the kinds of `scene` value
// (preset, packed scene, recording, URL of a .json file) never overlap.
//
// Used by the playground (sceneio.js, main.js) and the web component (rope-lab.js); nothing
// here touches the page.

export const PACKED_PREFIX = 'z:';
export const RECORDING_PREFIX = 'r:';
const B64URL = /^[A-Za-z0-9_-]*$/;
/** Longest packed string unpacked (characters): 4 MB of link is no link anyone shares. */
const MAX_PACKED = 4 << 20;
/** Longest text unpacked (bytes): a deflate bomb stops here. */
const MAX_TEXT = 32 << 20;

/** Whether `ref` is a packed scene (`z:…`) rather than a preset name or a URL. */
export const isPacked = (/** @type {string} */ ref) => typeof ref === 'string' && ref.startsWith(PACKED_PREFIX);

/** Whether `ref` is a packed recording (`r:…`). */
export const isRecordingRef = (/** @type {string} */ ref) => typeof ref === 'string' && ref.startsWith(RECORDING_PREFIX);

/**
 * `prefix` + base64url of `text` deflated.
 * @param {string} prefix
 * @param {string} text
 * @returns {Promise<string>}
 */
async function pack(prefix, text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return prefix + btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * Packs scene text (normally `sim.exportScene()`) into `z:<base64url of deflate-raw>`.
 * @param {string} text
 */
export function packScene(text) {
  if (typeof text !== 'string' || !text) return Promise.reject(new Error('packScene: the scene text must be a non-empty string'));
  return pack(PACKED_PREFIX, text);
}

/**
 * Packs recording JSON text (`sim.stopRecording()`) into `r:<base64url of deflate-raw>`.
 * @param {string} text
 */
export function packRecording(text) {
  if (typeof text !== 'string' || !text) return Promise.reject(new Error('packRecording: the recording must be non-empty JSON text'));
  return pack(RECORDING_PREFIX, text);
}

/**
 * The text inside a packed string. Throws an Error that says what is wrong (bad characters,
 * cut short, not deflate data, not UTF-8) — a link copied only in part ends up here with
 * "damaged or cut short".
 * @param {string} ref
 * @param {string} prefix
 * @param {string} what 'scene' or 'recording', for the messages
 * @returns {Promise<string>}
 */
async function unpack(ref, prefix, what) {
  const b64 = ref.slice(prefix.length).replace(/=+$/, '');
  const damaged = (/** @type {string} */ why) => Object.assign(new Error(`the ${what} in this link is damaged or cut short (${why})`), { damaged: true });
  if (!b64) throw damaged(`no data after "${prefix}"`);
  if (b64.length > MAX_PACKED) throw damaged(`${b64.length} characters, more than ${MAX_PACKED}`);
  if (!B64URL.test(b64)) throw damaged('characters outside base64url');
  if (b64.length % 4 === 1) throw damaged('base64url of impossible length');
  let bin;
  try {
    bin = atob(b64.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    throw damaged('not base64url');
  }
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  /** @type {Uint8Array[]} */
  const parts = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > MAX_TEXT) {
        reader.cancel().catch(() => {});
        throw damaged(`unpacks to more than ${MAX_TEXT >> 20} MB`);
      }
      parts.push(value);
    }
  } catch (/** @type {any} */ e) {
    if (e?.damaged) throw e;
    throw damaged('the compressed data ends early or is not deflate');
  }
  const all = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(all);
  } catch {
    throw damaged('not UTF-8 text');
  }
}

/**
 * The scene text inside a packed scene string (`z:…`); rejects as `unpack` says.
 * @param {string} ref
 */
export async function unpackScene(ref) {
  if (!isPacked(ref)) throw new Error('not a packed scene (expected "z:" and base64url)');
  return unpack(ref, PACKED_PREFIX, 'scene');
}

/**
 * The recording JSON text inside a packed recording (`r:…`); rejects as `unpack` says.
 * @param {string} ref
 */
export async function unpackRecording(ref) {
  if (!isRecordingRef(ref)) throw new Error('not a packed recording (expected "r:" and base64url)');
  return unpack(ref, RECORDING_PREFIX, 'recording');
}

/**
 * The `s=` value of a URL fragment (`#s=bridge`, `#s=z:…`, `#s=r:…`), or null.
 * @param {string} hash `location.hash`
 */
export function fragmentScene(hash) {
  const h = hash.startsWith('#') ? hash.slice(1) : hash;
  const v = new URLSearchParams(h).get('s');
  return v ? v : null;
}
