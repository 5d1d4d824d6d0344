#!/usr/bin/env bash
# Builds the npm package into pkg/: release wasm → wasm-bindgen (web, bundler, nodejs) → wasm-opt -Oz
# (npm binaryen) → entry points, types and package.json (scripts/package.mjs). No tests.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
WASM_OPT=node_modules/.bin/wasm-opt   # binaryen 132 from npm; never Debian's 108 (corrupts externref tables)
WASM=target/wasm32-unknown-unknown/release/kubeapps_pager.wasm

cargo build --locked --release --target wasm32-unknown-unknown

# Skip the rest (≈40 s of wasm-bindgen and wasm-opt) when nothing it reads has changed.
stamp=$(cat "$WASM" scripts/build.sh scripts/package.mjs README.md LICENSE | sha256sum | cut -c1-64)
if [ -f pkg/.build-stamp ] && [ "$(cat pkg/.build-stamp)" = "$stamp" ]; then
  echo "pkg/ is up to date"
  exit 0
fi
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
echo "$stamp" > pkg/.build-stamp
