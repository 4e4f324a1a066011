// The lite embed build's wasm-bindgen module as rope-lab.js imports it (`./ropelab-lite.js`,
// built by tools/package.mjs without the crate's `full` feature). Its `Sim` is the full one
// minus the body, joint, contact and report methods (the component checks `bodyCount` before
// using those); for the page's type check it is declared as the full `Sim`.
export * from './types/ropelab.js';
export { default } from './types/ropelab.js';
