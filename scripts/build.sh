#!/usr/bin/env bash
# Builds the npm package into pkg/: release wasm → wasm-bindgen (web, bundler, nodejs) → wasm-opt -Oz
# (npm binaryen) → entry points, types and package.json (scripts/package.mjs). No tests.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
WASM_OPT=node_modules/.bin/wasm-opt   # binaryen 132 from npm; never Debian's 108 (corrupts externref tables)
WASM=target/wasm32-unknown-unknown/release/kubeapps_pager.wasm

# Without the `std` feature: the shipped wasm brings its own panic handler and allocator (see
# src/wasm/runtime.rs); the tests build with std (the default).
cargo build --locked --release --target wasm32-unknown-unknown --no-default-features
rm -rf pkg
for t in web bundler nodejs; do
  wasm-bindgen "$WASM" --target "$t" --out-dir "pkg/$t"
done
# Each target's wasm differs (its imports name the target's JS modules): optimise each one.
for t in web bundler nodejs; do
  "$WASM_OPT" -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-reference-types \
    "pkg/$t/kubeapps_pager_bg.wasm" -o "pkg/$t/kubeapps_pager_bg.wasm"
done
node scripts/package.mjs
