# ropelab — two commands: `make serve` and `make test`. Both install what is missing.
# Only the package registries are reachable: see docs/toolchain.md for why each tool
# comes from where it does (trunk and wasm-bindgen-cli from crates.io, wasm-opt from npm's
# binaryen, Chromium from Debian).
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
PORT ?= 8080
WASM_BINDGEN_VERSION := 0.2.106
TRUNK_VERSION := 0.21.14
CARGO_BIN := $(HOME)/.cargo/bin
export PATH := $(CURDIR)/node_modules/.bin:$(CARGO_BIN):$(PATH)
export CHROMEDRIVER ?= /usr/bin/chromedriver

.PHONY: serve test goldens setup-rust setup-trunk setup-node setup-chromium web package types \
        test-native test-wasm test-types test-e2e bench bench-wasm clean

serve: setup-rust setup-trunk setup-node
	trunk serve --release --port $(PORT)

test: setup-rust setup-trunk setup-node setup-chromium
	$(MAKE) --no-print-directory test-native
	$(MAKE) --no-print-directory test-wasm
	$(MAKE) --no-print-directory web test-types
	$(MAKE) --no-print-directory test-e2e

# --- set-up (each step is skipped when already done) -----------------------------------
setup-rust:
	@rustup target list --installed | grep -qx wasm32-unknown-unknown \
	  || rustup target add wasm32-unknown-unknown
	@wasm-bindgen --version 2>/dev/null | grep -q " $(WASM_BINDGEN_VERSION)$$" \
	  || cargo install --locked wasm-bindgen-cli --version $(WASM_BINDGEN_VERSION)

setup-trunk:
	@trunk --version 2>/dev/null | grep -q " $(TRUNK_VERSION)$$" \
	  || cargo install --locked trunk --version $(TRUNK_VERSION)

setup-node: node_modules/.package-lock.json
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

setup-chromium:
	@if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver; \
	  else \
	    echo "Chromium and chromedriver are missing: run 'sudo apt-get install chromium chromium-driver'"; exit 1; \
	  fi; \
	fi

# --- build and test ---------------------------------------------------------------------
# The page the end-to-end tests load is built exactly as `make serve` builds it.
web: setup-rust setup-trunk setup-node
	trunk build --release

# The npm package of the <rope-lab> web component (issue 12): trunk's post_build hook
# (Trunk.toml → tools/package.mjs) assembles it in every build as dist/pkg/ from that build's
# wasm and glue (the full build) plus the lite embed wasm it compiles (cargo profile `embed`,
# no `full` feature); this copies it to ./pkg (gitignored) for `cd pkg && npm pack`.
package: web
	rm -rf pkg
	cp -r dist/pkg pkg
	@echo "pkg/: the npm package (cd pkg && npm pack)"

# Then the lite embed build (`--no-default-features`): its own JSON text layer against
# serde_json (tests/json_text.rs), its fuzzing on the rope presets, its unit tests (those
# that need rigid bodies are the full build's only).
test-native:
	cargo test --all-targets
	cargo test --doc
	cargo test --release --no-default-features --lib --test json_text --test fuzz

# At opt-level 1: tests/web.rs's determinism test (every preset under every solver, 600 steps
# each, against tests/determinism_hashes.txt) runs in 7 s instead of 2 min unoptimised; the
# hashes are the same bits at every opt-level (no fast-math: Rust never reassociates or fuses).
test-wasm: setup-rust setup-chromium
	CARGO_PROFILE_TEST_OPT_LEVEL=1 cargo test --target wasm32-unknown-unknown --test web

# The page's type check: tsc over www/*.js (// @ts-check, tsconfig.json) against the `Sim`
# declarations wasm-bindgen emits (index.html's data-typescript: dist/ropelab-<hash>.d.ts) and
# the JSON shapes in www/types.d.ts. The declarations are committed as $(SIM_DTS), so editors
# and a bare `tsc` see them; test-types fails while that copy differs from the fresh build's,
# and `make types` refreshes it. tests/types/json-shapes.mjs then runs the built wasm in node
# and type-checks what its JSON methods return (and the scene files) against www/types.d.ts;
# tests/types/package-consumer.mjs type-checks a TypeScript user of the npm package (dist/pkg).
SIM_DTS := www/types/ropelab.d.ts
FRESH_DTS = set -- dist/ropelab-*.d.ts; \
  if [ $$\# -ne 1 ] || [ ! -f "$$1" ]; then \
    echo "expected one dist/ropelab-*.d.ts from trunk (data-typescript in index.html), found: $$*"; exit 1; \
  fi

types: web
	@$(FRESH_DTS); cp "$$1" $(SIM_DTS); echo "$(SIM_DTS) ← $$1"

test-types: web
	@$(FRESH_DTS); \
	if ! cmp -s "$$1" $(SIM_DTS); then \
	  diff -u $(SIM_DTS) "$$1" | head -60 || true; \
	  echo "$(SIM_DTS) is not what wasm-bindgen emits for src/wasm/ now: run 'make types' and commit it"; \
	  exit 1; \
	fi
	tsc --noEmit -p .
	node tests/types/json-shapes.mjs
	node tests/types/package-consumer.mjs
	node tests/fuzz/wasm-fuzz.mjs
	FUZZ_WASM=lite FUZZ_CALLS=10000 node tests/fuzz/wasm-fuzz.mjs

test-e2e: setup-node setup-chromium
	node --test tests/e2e/

# The workloads (criterion, then the docs/benchmarks.md lines), the step-time budgets at the
# caps (benches/limits.rs: fails when a step is over limits::MAX_STEP_MS) and the narrow
# phase's time per pair. Timings live here, not in `make test`: the machine is shared.
bench:
	cargo bench --bench workloads --bench limits --bench narrow_phase

# Re-makes the presets' posters (package/posters/<name>.png, tools/posters.mjs) from the
# build's own first frames, in headless Chromium: when a preset or the drawing changed
# (tests/e2e/poster.test.mjs fails until then); look at them, then commit them.
.PHONY: posters
posters: web setup-chromium
	node tools/posters.mjs

# Re-records the determinism table and the golden trajectories (examples/goldens.rs): only
# when a trajectory is meant to change; the commit says which lines changed and why. The
# tests compare against the files and never write them.
goldens: setup-rust
	cargo run --release --example goldens

# The API fuzzers (issue 13 §1) with a large budget: the native one (tests/fuzz.rs; random
# call sequences, then mutated scene files) in release, the wasm one in node against dist/
# (tests/fuzz/wasm-fuzz.mjs), then the step-time budgets at the caps (benches/limits.rs) and
# the leash's braid word over 60,000 steps (tests/leash.rs, ignored in `cargo test`).
# FUZZ_TIMING=1 makes the native fuzzer also fail a call over 1 s or a scene's step over
# 4 × limits::MAX_STEP_MS (a freeze). `make test` runs the same fuzzers with small budgets
# and no timing (test-native, test-types). FUZZ_SEED defaults to the clock, so each run
# explores new cases; a failure prints its seed and minimised calls.
FUZZ_CALLS ?= 1000000
.PHONY: fuzz
fuzz: web
	@seed=$${FUZZ_SEED:-$$(date +%s)}; echo "FUZZ_SEED=$$seed FUZZ_CALLS=$(FUZZ_CALLS)"; \
	FUZZ_SEED=$$seed FUZZ_CALLS=$(FUZZ_CALLS) FUZZ_SCENES=$${FUZZ_SCENES:-5000} FUZZ_TIMING=1 \
	  cargo test --release --test fuzz -- --nocapture --test-threads 1; \
	FUZZ_SEED=$$seed FUZZ_CALLS=$(FUZZ_CALLS) node tests/fuzz/wasm-fuzz.mjs
	cargo bench --bench limits
	cargo test --release --test leash -- --ignored --nocapture

# W1–W5 for every solver in Chromium wasm (tests/bench/wasm-bench.mjs; classic skips W4 and W5,
# which have rigid bodies): median of 5 lines each. Then the embed's time budgets
# (tests/bench/embed-budgets.mjs: the first frame, ten embeds' frame interval), which fail it.
bench-wasm: web
	node tests/bench/wasm-bench.mjs
	node tests/bench/embed-budgets.mjs

# Issue 13 §3, not part of `make test` (about 10 min on 2 cores): the net, leash and capstan
# presets for 10⁶ steps natively and a point of the net held still for an hour of simulated
# time (`ropelab soak`), then 10⁵ steps of each in wasm under node (tests/soak/wasm-soak.mjs):
# NaN, energy growth, queue bounds and memory after warm-up. Both print their figures (and
# both run when the first fails).
.PHONY: soak
soak: web
	@rc=0; cargo run --release --bin ropelab -- soak || rc=1; \
	node tests/soak/wasm-soak.mjs || rc=1; exit $$rc

clean:
	cargo clean
	rm -rf dist pkg node_modules
