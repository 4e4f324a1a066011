// The wasm-bindgen module as rope-lab.js imports it (`./ropelab.js`): in the npm package
// (`make package`) the glue sits beside the component under that name. For the page's type
// check this re-exports the committed declarations (www/types/ropelab.d.ts, generated).
export * from './types/ropelab.js';
export { default } from './types/ropelab.js';
