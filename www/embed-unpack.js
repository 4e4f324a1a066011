// @ts-check
// The share-string decoder, as <rope-lab> loads it: only for a packed scene (`z:…`,
// embed-scenes.js). The package bundles it from sharelink.js into a file of its own, so an
// embed of a preset or a URL loads none of the codec.
export { unpackScene } from './sharelink.js';
