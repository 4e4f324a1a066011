// @ts-check
// The recording reader, as <rope-lab> loads it: only for the `recording` attribute. The package
// bundles it with the codec it needs from sharelink.js into a file of its own, so no other
// embed loads it.
import { unpackRecording } from './sharelink.js';

/**
 * A `recording` value (a packed `r:…` string or the URL of a recording .json): the recording's
 * text, the scene text the views load, and what `playRecording` needs besides (the named
 * preset's text, or '' when the recording carries its scene). The component passes its own
 * fetch and preset readers (embed-scenes.js), which this file would otherwise carry a copy of.
 * @param {string} ref
 * @param {(url: string) => Promise<string>} fetchText
 * @param {(name: string) => Promise<string>} presetText
 */
export async function recordingSource(ref, fetchText, presetText) {
  const rec = ref.startsWith('r:') ? await unpackRecording(ref) : await fetchText(new URL(ref, document.baseURI).href);
  let s;
  try {
    s = JSON.parse(rec).scene;
  } catch {
    throw new Error('the recording is not JSON');
  }
  const text = typeof s === 'string' ? await presetText(s) : JSON.stringify(s);
  return { rec, text, play: typeof s === 'string' ? text : '' };
}
