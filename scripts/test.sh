#!/usr/bin/env bash
# Runs every test layer against the built package (scripts/build.sh first). Exits non-zero on any failure.
# Layers: host cargo tests · model-based test (release) · wasm-bindgen-test in Node and headless Chromium ·
# node --test on the package · consumers of the packed tarball (webpack 5, Vite, ESM, CommonJS, CRA 5's Jest 27;
# a React app on the react and tanstack entries, React 18 and 19, webpack 5 and Vite) ·
# demo server tests · real services (PostgreSQL, etcd) · tsc --strict over TypeScript consumers
# (nodenext, bundler, node10, a dashboard's protobuf-es/Connect code, React and TanStack Query,
# docs/USAGE.md's snippets) · the Headlamp plugin example (headlamp-plugin tsc, lint, build) · browser e2e.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
# The wasm tests run through scripts/wasm-node-runner.mjs (Node) and wasm-browser-runner.mjs (Chromium).
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER="node $PWD/scripts/wasm-node-runner.mjs"
export CHROMEDRIVER=${CHROMEDRIVER:-/usr/bin/chromedriver}
export WASM_BINDGEN_TEST_TIMEOUT=${WASM_BINDGEN_TEST_TIMEOUT:-120}
TO=${STEP_TIMEOUT:-1200}   # per-step hang guard, seconds
T0=$(date +%s)
# The Headlamp plugin example's npm ci (≈4 min the first time, mostly network and disk) runs in the
# background from the start, beside the CPU-bound layers; its step below waits for it.
HP_LOG=$(mktemp)
bash scripts/headlamp-plugin.sh install >"$HP_LOG" 2>&1 &
HP_INSTALL=$!
trap 'kill "$HP_INSTALL" 2>/dev/null || true' EXIT
step() {
  local name=$1; shift
  local s=$(date +%s)
  printf '\n== [%s] %s\n' "$(date +%T)" "$name"
  if [ "$(type -t "$1")" = function ]; then "$@"; else timeout "$TO" "$@"; fi   # a function bounds itself
  printf '== %s: %ss\n' "$name" "$(( $(date +%s) - s ))"
}

step "cargo test (host: unit, table, property, field cases)" cargo test --locked
if [ -f tests/model.rs ]; then
  step "model-based test (release, ${MODEL_RUNS:=10000} runs)" env MODEL_RUNS="$MODEL_RUNS" cargo test --locked --release --test model
fi
# Only the wasm test binaries: the host suites are not meant for wasm32. Never pass -q (the runner rejects it).
step "wasm-bindgen-test (Node)" cargo test --locked --target wasm32-unknown-unknown --test wasm_node
# In Chromium, the tests are served by wasm-bindgen-test-runner and driven by playwright-core
# (scripts/wasm-browser-runner.mjs, which says why): run as the runner's headless mode does it,
# about one page load in two stalled here. (webdriver.json is for running that mode by hand.)
browser_tests() {
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER="node $PWD/scripts/wasm-browser-runner.mjs" \
    timeout "$TO" cargo test --locked --target wasm32-unknown-unknown --test wasm_browser
}
step "wasm-bindgen-test (headless Chromium)" browser_tests
step "node --test: the npm package" node --test --test-timeout=120000 tests/js/
step "package consumers: webpack 5, Vite, ESM, CommonJS, Jest 27, React 18/19" node --test --test-concurrency=1 --test-timeout=300000 tests/consumers/
if [ -d tests/server ]; then
  step "node --test: demo server" node --test --test-timeout=120000 tests/server/
fi
# The real services: install what is missing (Debian's postgresql, etcd-server, the en_US.UTF-8
# locale), then each test file starts PostgreSQL and etcd in temporary folders on free ports and
# stops them (also on failure). One file at a time: each runs its own pair.
real_tests() {
  timeout "$TO" bash scripts/services/install.sh
  timeout "$TO" node --test --test-concurrency=1 --test-timeout=300000 tests/real/
}
if [ -d tests/real ]; then
  step "real services: helm on PostgreSQL, lists from etcd, fluxv2, kapp_controller" real_tests
fi
# The consumer imports "kubeapps-pager" as a user would: resolve it to the built package.
mkdir -p tests/ts/node_modules && ln -sfn ../../../pkg tests/ts/node_modules/kubeapps-pager
# One run per documented setting: nodenext (Node ESM and CommonJS), bundler, node10, skipLibCheck;
# a dashboard's protobuf-es/Connect code under bundler, skipLibCheck off (tsconfig.protobuf.json);
# the react and tanstack entries with React 19's and 18's and TanStack Query's types (tsconfig.react*.json); and
# every snippet of docs/USAGE.md (tsconfig.usage.json, over the files usage-snippets.mjs writes).
node tests/ts/usage-snippets.mjs
for config in tests/ts/tsconfig*.json; do
  step "tsc --noEmit --strict: TypeScript consumer ($(basename "$config"))" node_modules/.bin/tsc -p "$config"
done
# The Headlamp plugin example with headlamp-plugin's own toolchain: npm ci in the example folder
# when its lock changed (≈4 min and ≈850 MB the first time), its type check and lint, its Vite build into
# one dist/main.js with the wasm inlined. The browser e2e step then runs that main.js in Chromium.
headlamp_plugin() {
  local rc=0
  wait "$HP_INSTALL" || rc=$?
  cat "$HP_LOG"
  [ "$rc" -eq 0 ] || return "$rc"
  timeout "$TO" bash scripts/headlamp-plugin.sh
}
step "Headlamp plugin: headlamp-plugin tsc, lint, build (examples/headlamp-plugin)" headlamp_plugin
step "browser e2e (playwright-core + Chromium)" node --test --test-concurrency=1 --test-timeout=300000 tests/e2e/
printf '\n== all test layers passed in %ss\n' "$(( $(date +%s) - T0 ))"
