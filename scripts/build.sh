#!/usr/bin/env bash
# Builds the npm package into pkg/: three release wasm modules (features `pager`, `codec` and
# `pager,collation`) →
# wasm-bindgen (web, bundler, nodejs) → wasm-opt -Oz (npm binaryen) → entry points, types and
# package.json (scripts/package.mjs) → esbuild: the web builds bundled into one index.js, the others
# minified file by file. No tests.
#
# pkg/{web,bundler,nodejs}/        the pager module: `import … from "kubeapps-pager"`
# pkg/codec/{web,bundler,nodejs}/  the codec module: `import … from "kubeapps-pager/codec"`
# pkg/collation/{web,bundler,nodejs}/  the pager module with the collator (collated merge orders):
#                                  `import … from "kubeapps-pager/collation"`
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
WASM_OPT=node_modules/.bin/wasm-opt   # binaryen 132 from npm; never Debian's 108 (corrupts externref tables)
ESBUILD=node_modules/.bin/esbuild     # pinned in package.json
# Each module alone (features `pager`, `codec`, `pager,collation`; the tests build all three into
# one module). The codec and collation modules have target dirs of their own: a cdylib's file name
# carries no feature hash, so in one dir each build would overwrite (and recompile) the other's.
PAGER_WASM=target/wasm32-unknown-unknown/release/kubeapps_pager.wasm
CODEC_WASM=target/codec/wasm32-unknown-unknown/release/kubeapps_pager.wasm
COLLATION_WASM=target/collation/wasm32-unknown-unknown/release/kubeapps_pager.wasm
cargo build --locked --release --target wasm32-unknown-unknown --no-default-features --features pager
cargo build --locked --release --target wasm32-unknown-unknown --no-default-features --features codec \
  --target-dir target/codec
cargo build --locked --release --target wasm32-unknown-unknown --no-default-features --features pager,collation \
  --target-dir target/collation

# Skip the rest (≈1 min of wasm-bindgen, wasm-opt and esbuild) when nothing it reads has changed.
# wasm-bindgen copies the JS snippets (src/wasm/*.js) from the source tree: they count too, as do
# the plain-JS entries package.mjs copies (src/react/).
stamp=$(cat "$PAGER_WASM" "$CODEC_WASM" "$COLLATION_WASM" src/wasm/*.js src/react/* scripts/build.sh scripts/package.mjs docs/PACKAGE.md LICENSE \
  node_modules/esbuild/package.json | sha256sum | cut -c1-64)
if [ -f pkg/.build-stamp ] && [ "$(cat pkg/.build-stamp)" = "$stamp" ]; then
  echo "pkg/ is up to date"
  exit 0
fi
rm -rf pkg
# module wasm-file out-dir out-name
for m in "$PAGER_WASM pkg kubeapps_pager" "$CODEC_WASM pkg/codec kubeapps_pager_codec" \
  "$COLLATION_WASM pkg/collation kubeapps_pager_collation"; do
  read -r wasm dir name <<<"$m"
  for t in web bundler nodejs; do
    wasm-bindgen "$wasm" --target "$t" --out-dir "$dir/$t" --out-name "$name"
    # Each target's wasm differs (its imports name the target's JS modules): optimise each one,
    # as wasm-pack does (binaryen's size preset; the features come from the module's
    # target_features section).
    "$WASM_OPT" -Oz "$dir/$t/${name}_bg.wasm" -o "$dir/$t/${name}_bg.wasm"
  done
done
node scripts/package.mjs
# The web builds ship one JS file: index.js, the entry bundled with the glue and the snippets and
# minified (esbuild). A browser then fetches two files (index.js, the wasm), and one gzip stream
# compresses the JS 1.1 KB smaller than five (measured on the pager entry). Bundling keeps
# wasm-bindgen's `new URL("…_bg.wasm", import.meta.url)` as it is, so the wasm is still found next
# to index.js, and leaves one copy of errors.js (one PagerError class per module). The declarations
# (index.d.ts → the glue's .d.ts) stay: they describe index.js's exports.
# duplicate-object-key: wasm-bindgen's glue lists a snippet imported both through shims and
# directly (json.js in the codec module) twice in its imports object, with the same namespace.
QUIET=(--log-level=warning --log-override:duplicate-object-key=silent)
for m in "pkg/web kubeapps_pager" "pkg/codec/web kubeapps_pager_codec" "pkg/collation/web kubeapps_pager_collation"; do
  read -r dir name <<<"$m"
  "$ESBUILD" "$dir/index.js" --bundle --format=esm --minify "${QUIET[@]}" --outfile="$dir/index.bundle.js"
  rm -r "$dir/index.js" "$dir/$name.js" "$dir/snippets"
  mv "$dir/index.bundle.js" "$dir/index.js"
  node --input-type=module --check < "$dir/index.js"
done
# The bundler and nodejs builds: each file minified on its own (a transform, not a bundle). Each
# keeps its own imports, exports and `require`s: the bundler build's `import * as wasm from
# "./…_bg.wasm"`, which bundlers look for (the wasm imports the glue and the snippets by their
# file names, so they must stay files), and the nodejs build's CommonJS (`require`, `__dirname`,
# `exports.x =`). It runs after package.mjs, which reads the glue and rewrites the nodejs
# snippets' export lines. Each file must still parse. No --keep-names (+0.8 KB gzip): functions
# and classes lose their names, except PagerError, which errors.js names itself (`Pager.name` is
# minified; `error.name` is set on every error). The entry points package.mjs writes (index.js,
# index.mjs: a few re-export lines) are left as they are: esbuild's rewrite of `export … from`
# lines is longer (+21 B gzip).
for f in $(find pkg -name '*.js' ! -name 'index.js' ! -path '*/web/*' | sort); do
  case "$f" in
    */nodejs/*.js) format=cjs; type=commonjs ;;
    *) format=esm; type=module ;;
  esac
  "$ESBUILD" "$f" --minify --format=$format "${QUIET[@]}" --outfile="$f" --allow-overwrite
  node --input-type=$type --check < "$f"
done
echo "$stamp" > pkg/.build-stamp
