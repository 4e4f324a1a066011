// @ts-check
// The bits of `sim.pointFlags()` (src/wasm/mod.rs FLAG_LOCKED / FLAG_HELD), defined once for the
// page; tests/e2e/newuser-panels.test.mjs checks them against `Sim.pointFlagBits()`.
export const FLAG_LOCKED = 1;
export const FLAG_HELD = 2;
