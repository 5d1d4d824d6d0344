// Copies a wasm module without its `target_features` custom section:
// `node scripts/strip-target-features.mjs IN OUT`, or `stripTargetFeatures(IN, OUT)` from JS.
//
// Why: the crate is built for wasm32 without reference types and multi-value (.cargo/config.toml),
// which makes wasm-bindgen keep JS values in a JS-side heap instead of an externref table: 0.75 KB
// less to download (gzip, wasm and glue together; BENCHMARKS.md "Size"). wasm-bindgen picks that
// mode from this section, which the linker fills from every object file, the precompiled standard
// library's too, and that one is built with both features on: without the section, wasm-bindgen
// looks at what the crate's code really uses. Nothing else reads the section (wasm-opt strips it
// from the shipped module anyway).
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { sections } from "./lib/wasm-binary.mjs";

/** Writes `output`: the wasm module `input` without its `target_features` section(s). */
export function stripTargetFeatures(input, output) {
  const bytes = readFileSync(input);
  const kept = sections(bytes, input).filter((s) => s.name !== "target_features");
  writeFileSync(output, Buffer.concat([bytes.subarray(0, 8), ...kept.map((s) => bytes.subarray(s.start, s.end))]));
}

/** A stripped copy of `wasm` under the same name in a new temporary folder (for the test runners). */
export function strippedCopy(wasm) {
  const copy = join(mkdtempSync(join(tmpdir(), "kubeapps-pager-wasm-")), basename(wasm));
  stripTargetFeatures(wasm, copy);
  return copy;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [input, output] = process.argv.slice(2);
  if (!input || !output) throw new Error("usage: node scripts/strip-target-features.mjs IN.wasm OUT.wasm");
  stripTargetFeatures(input, output);
}
