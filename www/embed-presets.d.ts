// The presets <rope-lab> can name (`scene="bridge"`), as `import './embed-presets.js'` in
// www/embed-scenes.js sees them. The module itself is written by tools/package.mjs when it
// bundles the component, from the files in www/scenes/: one literal
// `name: () => new URL('./scenes/<name>.json', import.meta.url)` per preset, so a bundler sees
// every scene file the package has (a URL made from a template string is a glob to Vite,
// which its dependency optimizer leaves empty).

/** Each preset's JSON, beside the bundled rope-lab.js. */
export declare const PRESETS: Record<string, () => URL>;
