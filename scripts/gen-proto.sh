#!/usr/bin/env bash
# Generates the protobuf-es v1 messages and Connect v1 service descriptors of tests/proto/*.proto
# into OUT (default tests/proto/gen, committed: the demo server and the tests import it, as the
# Kubeapps dashboard commits its own gen/). buf (npm @bufbuild/buf) with local plugins only, no
# network: protoc-gen-es 1.10.1 and protoc-gen-connect-es 1.7.0, target js+dts.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=$(realpath -m "${1:-tests/proto/gen}")
BIN=$PWD/node_modules/.bin
template=$(cat <<JSON
{"version":"v2","plugins":[
 {"local":"$BIN/protoc-gen-es","out":"$OUT","opt":["target=js+dts","import_extension=.js"]},
 {"local":"$BIN/protoc-gen-connect-es","out":"$OUT","opt":["target=js+dts","import_extension=.js"]}]}
JSON
)
rm -rf "$OUT"
BUF_CACHE_DIR=${BUF_CACHE_DIR:-$(mktemp -d)} "$BIN/buf" generate tests/proto --template "$template"
