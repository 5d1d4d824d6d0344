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

/** Writes `output`: the wasm module `input` without its `target_features` section(s). */
export function stripTargetFeatures(input, output) {
  const bytes = readFileSync(input);
  if (bytes.length < 8 || bytes.readUInt32LE(0) !== 0x6d736100) throw new Error(`${input}: not a wasm module`);
  /** The unsigned LEB128 at `at`: [value, the offset after it]. */
  const leb = (at) => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const b = bytes[at++];
      value += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return [value, at];
    }
  };
  const kept = [bytes.subarray(0, 8)]; // magic and version
  for (let at = 8; at < bytes.length; ) {
    const start = at;
    const [size, body] = leb(at + 1);
    at = body + size;
    if (bytes[start] === 0) {
      const [nameLength, name] = leb(body);
      if (bytes.subarray(name, name + nameLength).toString() === "target_features") continue;
    }
    kept.push(bytes.subarray(start, at));
  }
  writeFileSync(output, Buffer.concat(kept));
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
