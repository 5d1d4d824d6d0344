#!/usr/bin/env bash
# Idempotent setup: installs what the build and the tests need and is missing.
# Needs only the package registries (Debian, crates.io, npm, rustup dist); nothing from GitHub.
# First run on a fresh machine ≈ 2.5 min (mostly `cargo install wasm-bindgen-cli`); later runs ≈ 3 s.
set -euo pipefail
cd "$(dirname "$0")/.."
log() { printf '== [setup] %s\n' "$*"; }
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"

# 1. Debian's Chromium and its matching driver (chromium-driver depends on the same chromium version).
#    Not Debian's binaryen: its wasm-opt 108 corrupts wasm-bindgen output (wasm-opt comes from npm).
missing=()
for p in chromium chromium-driver; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  log "apt-get install ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# 2. The wasm target.
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  log "rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# 3. wasm-bindgen-cli at exactly the version Cargo.lock pins (the CLI refuses other versions' output).
WB_VERSION=$(awk -F'"' '/^name = "wasm-bindgen"$/ {getline; print $2; exit}' Cargo.lock)
[ -n "$WB_VERSION" ] || { echo "wasm-bindgen not found in Cargo.lock" >&2; exit 1; }
have_wb=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
have_tr=$(wasm-bindgen-test-runner --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have_wb" != "$WB_VERSION" ] || [ "$have_tr" != "$WB_VERSION" ]; then
  log "cargo install wasm-bindgen-cli $WB_VERSION (≈2 min on 2 cores)"
  # --locked first (reproducible); the registry mirror here may lack a crate its lockfile pins
  # (webpki-roots 1.0.11 was missing), so fall back to a fresh resolution.
  cargo install wasm-bindgen-cli --version "$WB_VERSION" --locked --force \
    || cargo install wasm-bindgen-cli --version "$WB_VERSION" --force
fi

# 4. JS tooling pinned by package-lock.json; `npm ci` again only when the lockfile changed.
lock_sum=$(sha256sum package-lock.json | cut -c1-64)
if [ "$(cat node_modules/.lock-sha256 2>/dev/null)" != "$lock_sum" ]; then
  log "npm ci"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$lock_sum" > node_modules/.lock-sha256
fi
