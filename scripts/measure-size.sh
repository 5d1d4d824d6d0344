#!/usr/bin/env bash
# Measures the shipped size for each release opt-level (after wasm-bindgen and wasm-opt -Oz), and
# prints the package's sizes raw and gzip. Figures go to BENCHMARKS.md ("Build profile", "Size").
set -euo pipefail
cd "$(dirname "$0")/.."
WASM=target/wasm32-unknown-unknown/release/kubeapps_pager.wasm
OPT=node_modules/.bin/wasm-opt
# The flags of scripts/build.sh.
FEATURES=(-ocimfs 30 --strip-producers --strip-target-features --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-reference-types)
tmp=$(mktemp -d)
gz() { gzip -9c "$1" | wc -c; }
printf '| opt-level | wasm after wasm-opt -Oz | gzip |\n|---|---|---|\n'
for level in s z 3; do
  CARGO_PROFILE_RELEASE_OPT_LEVEL=$level cargo build --locked --release --target wasm32-unknown-unknown --no-default-features -q 2>/dev/null
  wasm-bindgen "$WASM" --target web --out-dir "$tmp/$level"
  "$OPT" -Oz "${FEATURES[@]}" "$tmp/$level/kubeapps_pager_bg.wasm" -o "$tmp/$level/opt.wasm"
  printf '| %s | %s | %s |\n' "$level" "$(wc -c <"$tmp/$level/opt.wasm")" "$(gz "$tmp/$level/opt.wasm")"
done
cargo build --locked --release --target wasm32-unknown-unknown --no-default-features -q 2>/dev/null   # back to the profile's own level
echo
printf '| file | raw | gzip |\n|---|---|---|\n'
for f in pkg/web/kubeapps_pager_bg.wasm pkg/web/kubeapps_pager.js pkg/web/index.js pkg/web/snippets/*/src/wasm/*.js; do
  [ -f "$f" ] && printf '| %s | %s | %s |\n' "${f#pkg/}" "$(wc -c <"$f")" "$(gz "$f")"
done
rm -rf "$tmp"
