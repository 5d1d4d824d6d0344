#!/usr/bin/env bash
# The Headlamp plugin example (examples/headlamp-plugin/) with @kinvolk/headlamp-plugin's own
# toolchain: installs its dependencies when missing or when its package-lock.json changed (`npm ci`
# in the example folder, ≈850 MB and ≈4 min on 2 cores the first time; a lock-sha stamp as
# scripts/setup.sh keeps), then `headlamp-plugin tsc` (its type check: tsc --noEmit under its
# plugins-tsconfig, strict here), `lint` and `format --check` (Headlamp's ESLint and Prettier
# settings) and `headlamp-plugin build` (Vite in library mode → dist/main.js).
# Checks that the build is one file with the wasm inlined (Headlamp loads a plugin as main.js alone).
# Needs the package built into pkg/ (scripts/build.sh): the example depends on it as file:../../pkg.
# `scripts/headlamp-plugin.sh install` only installs (scripts/test.sh runs that in the background
# from its start, beside the CPU-bound layers, since it is mostly network and disk).
set -euo pipefail
cd "$(dirname "$0")/../examples/headlamp-plugin"
log() { printf '== [headlamp-plugin] %s\n' "$*"; }
[ -f ../../pkg/web/index.js ] || { echo "pkg/ is not built: run scripts/build.sh first" >&2; exit 1; }

lock_sum=$(sha256sum package-lock.json | cut -c1-64)
if [ "$(cat node_modules/.lock-sha256 2>/dev/null)" != "$lock_sum" ]; then
  log "npm ci (the first time ≈4 min: @kinvolk/headlamp-plugin brings Headlamp's whole toolchain)"
  s=$(date +%s)
  npm ci --no-audit --no-fund --loglevel=error
  echo "$lock_sum" > node_modules/.lock-sha256
  log "npm ci took $(( $(date +%s) - s ))s"
fi
[ "${1:-}" = install ] && exit 0

HP=node_modules/.bin/headlamp-plugin
log "headlamp-plugin tsc"
"$HP" tsc .
log "headlamp-plugin lint, format --check"
"$HP" lint .
"$HP" format . --check
log "headlamp-plugin build"
rm -rf dist
"$HP" build .

# One file, the wasm inside it: Headlamp fetches dist/main.js alone and runs its text.
[ -f dist/main.js ] || { echo "headlamp-plugin build wrote no dist/main.js" >&2; exit 1; }
if find dist -name '*.wasm' | grep -q .; then
  echo "the build emitted a separate .wasm file (Headlamp would not load it): $(find dist -name '*.wasm')" >&2
  exit 1
fi
grep -q 'data:application/wasm;base64,' dist/main.js \
  || { echo "dist/main.js has no inlined wasm (data:application/wasm;base64,…)" >&2; exit 1; }
# One React: Headlamp's. `react` (which kubeapps-pager/react imports) is external in
# headlamp-plugin's Vite config (pluginLib.React); a bundled copy would carry React's internals.
if grep -q -E '__SECRET_INTERNALS_DO_NOT_USE_OR_YOU_WILL_BE_FIRED|__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE' dist/main.js; then
  echo "dist/main.js bundles a React of its own (it must use Headlamp's, pluginLib.React)" >&2
  exit 1
fi
log "dist/main.js: $(wc -c < dist/main.js) B, $(gzip -9c dist/main.js | wc -c) B gzip"
