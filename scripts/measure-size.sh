#!/usr/bin/env bash
# Measures the pager module's shipped wasm for each release opt-level (after wasm-bindgen and
# wasm-opt -Oz), and prints the sizes raw and gzip of the three entries' web builds as
# scripts/build.sh made them (pkg/web: "kubeapps-pager"; pkg/codec/web: "kubeapps-pager/codec";
# pkg/collation/web: "kubeapps-pager/collation": the wasm and index.js, the glue and snippets
# bundled), file by file and in total. Figures go to BENCHMARKS.md ("Build profile", "Size").
set -euo pipefail
cd "$(dirname "$0")/.."
WASM=target/wasm32-unknown-unknown/release/kubeapps_pager.wasm
OPT=node_modules/.bin/wasm-opt
tmp=$(mktemp -d)
gz() { gzip -9c "$1" | wc -c; }
printf '| opt-level | wasm after wasm-opt -Oz | gzip |\n|---|---|---|\n'
for level in s z 3; do
  CARGO_PROFILE_RELEASE_OPT_LEVEL=$level cargo build --locked --release --target wasm32-unknown-unknown --no-default-features --features pager -q 2>/dev/null
  wasm-bindgen "$WASM" --target web --out-dir "$tmp/$level" --out-name kubeapps_pager
  "$OPT" -Oz "$tmp/$level/kubeapps_pager_bg.wasm" -o "$tmp/$level/opt.wasm"
  printf '| %s | %s | %s |\n' "$level" "$(wc -c <"$tmp/$level/opt.wasm")" "$(gz "$tmp/$level/opt.wasm")"
done
cargo build --locked --release --target wasm32-unknown-unknown --no-default-features --features pager -q 2>/dev/null   # back to the profile's own level
for entry in web codec/web collation/web; do
  echo
  printf '| file | raw | gzip |\n|---|---|---|\n'
  raw=0 gzip=0
  for f in pkg/$entry/*_bg.wasm pkg/$entry/*.js; do
    [ -f "$f" ] || continue
    printf '| %s | %s | %s |\n' "${f#pkg/}" "$(wc -c <"$f")" "$(gz "$f")"
    raw=$((raw + $(wc -c <"$f"))) gzip=$((gzip + $(gz "$f")))
  done
  printf '| **%s total** | %s | **%s** |\n' "$entry" "$raw" "$gzip"
done
rm -rf "$tmp"
