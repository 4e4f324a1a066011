// The presets <rope-lab> can name (`scene="bridge"`), as `import('./embed-presets.js')` in
// www/embed-scenes.js sees them. The module itself is written by tools/package.mjs from the
// files in www/scenes/ and package/posters/, as a file of its own beside the bundled
// rope-lab.js (loaded only for a preset): one literal
// `name: () => new URL('./scenes/<name>.json', import.meta.url)` per preset, and the same for
// its poster, so a bundler sees every file the package has (a URL made from a template string
// is a glob to Vite, which its dependency optimizer leaves empty).

/** Each preset's JSON, beside the bundled rope-lab.js. */
export declare const PRESETS: Record<string, () => URL>;
/** Each preset's poster (scenes/<name>.png: its first frame, tools/posters.mjs). */
export declare const POSTERS: Record<string, () => URL>;
