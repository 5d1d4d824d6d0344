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
# -ocimfs 30: inline a function into its only caller only when small (binaryen inlines any
# single-caller function by default; the huge merged functions compress worse: -3.9 KB gzip,
# measured, see BENCHMARKS.md "Size"). The two custom sections stripped are metadata that no
# runtime reads (the tool versions; the features the module was built for).
for t in web bundler nodejs; do
  "$WASM_OPT" -Oz -ocimfs 30 --strip-producers --strip-target-features \
    --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-reference-types \
    "pkg/$t/kubeapps_pager_bg.wasm" -o "pkg/$t/kubeapps_pager_bg.wasm"
done
# Ship the JS without its comments: the glue's JSDoc (the .d.ts files keep the docs) and the
# snippets' own comments are ~3.5 KB gzip. Only whole comment lines go: `// ...` lines, and
# `/* ... */` blocks that start a line and whose first `*/` ends one; no code or string is touched,
# and each file must still parse. The sources (src/wasm/*.js) keep their comments.
for f in pkg/*/kubeapps_pager.js pkg/*/snippets/*/src/wasm/*.js; do
  node -e '
    const fs = require("node:fs");
    const file = process.argv[1];
    const text = fs.readFileSync(file, "utf8")
      .replace(/^[ \t]*\/\*(?:(?!\*\/)[\s\S])*\*\/[ \t]*\n/gm, "")
      .replace(/^[ \t]*\/\/.*\n/gm, "");
    fs.writeFileSync(file, text);
  ' "$f"
  # The nodejs glue is CommonJS; every other file an ES module (until package.mjs converts snippets).
  type=module; [ "$f" = pkg/nodejs/kubeapps_pager.js ] && type=commonjs
  node --input-type=$type --check < "$f"
done
node scripts/package.mjs
echo "$stamp" > pkg/.build-stamp
