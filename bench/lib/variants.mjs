// Two builds of the same wasm for the profile (never shipped; kept under target/, which git ignores):
//  - `named`: wasm-bindgen + wasm-opt -Oz -g (build.sh's passes, keeping the "name" section), whose
//    function names label the shipped build's wasm-function[N] frames;
//  - `counted`: the named build with its JS glue patched to count every boundary crossing
//    (each wasm→JS import call and each JS→wasm export call) in globalThis.__benchCrossings.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { readWasm } from "./wasm-sections.mjs";


/** Hash of a module's code section: equal hashes mean the same functions at the same indices. */
function codeHash(bytes) {
  const code = readWasm(bytes).sections.find((s) => s.id === 10);
  return code ? createHash("sha256").update(bytes.subarray(code.start, code.start + code.size)).digest("hex") : null;
}

/**
 * Both variants of cargo's release artefact, built once per artefact into
 * `target/bench-variants/<hash>/` (about 15 s) and reused after. Returns `{ dir, names, sameCode }`:
 * the directory, the function names (index → name) and whether the named build's code is the
 * shipped build's (then the shipped build's wasm-function[N] frames can be named).
 */
export function variants(repo, shippedWasm, log = () => {}) {
  const artefact = path.join(repo, "target/wasm32-unknown-unknown/release/kubeapps_pager.wasm");
  const hash = createHash("sha256").update(readFileSync(artefact)).digest("hex").slice(0, 16);
  const dir = path.join(repo, "target/bench-variants", hash);
  if (!existsSync(path.join(dir, "counted/kubeapps_pager.js"))) {
    log(`building the names-kept and crossing-counting variants into ${path.relative(repo, dir)}`);
    rmSync(path.dirname(dir), { recursive: true, force: true }); // older artefacts' variants
    build(repo, artefact, dir);
  }
  const { names } = readWasm(readFileSync(path.join(dir, "named/kubeapps_pager_bg.wasm")));
  const sameCode = codeHash(readFileSync(path.join(dir, "named/kubeapps_pager_bg.wasm"))) === codeHash(readFileSync(shippedWasm));
  return { dir, names, sameCode };
}

function build(repo, artefact, dir) {
  const named = path.join(dir, "named");
  mkdirSync(named, { recursive: true });
  execFileSync("wasm-bindgen", [artefact, "--target", "web", "--out-dir", named, "--out-name", "kubeapps_pager"], { stdio: "inherit" });
  const wasm = path.join(named, "kubeapps_pager_bg.wasm");
  execFileSync(path.join(repo, "node_modules/.bin/wasm-opt"), ["-Oz", "-g", wasm, "-o", wasm], { stdio: "inherit" });

  const counted = path.join(dir, "counted");
  cpSync(named, counted, { recursive: true });
  const glue = path.join(counted, "kubeapps_pager.js");
  writeFileSync(glue, countingGlue(readFileSync(glue, "utf8")));
}

const COUNTER = `
globalThis.__benchCrossings = {};
function __benchCount(name, f) {
  return function (...args) {
    const c = globalThis.__benchCrossings;
    c[name] = (c[name] ?? 0) + 1;
    return f.apply(this, args);
  };
}
function __benchCountImports(imports) {
  const out = { __proto__: null };
  for (const [mod, ns] of Object.entries(imports)) {
    const o = {};
    for (const [k, v] of Object.entries(ns)) {
      const name = __benchCasts[k] ? "cast " + __benchCasts[k] : k.replace(/^__wbg_/, "").replace(/_[0-9a-f]{16}$/, "");
      o[k] = typeof v === "function" ? __benchCount("wasm→JS " + name, v) : v;
    }
    out[mod] = o;
  }
  return out;
}
function __benchCountExports(exports) {
  const o = {};
  for (const [k, v] of Object.entries(exports)) o[k] = typeof v === "function" ? __benchCount("JS→wasm " + k, v) : v;
  return o;
}
`;

/** The wasm-bindgen glue with every import and export wrapped in a counter. Throws if its shape changed. */
function countingGlue(js) {
  const getImports = "function __wbg_get_imports() {";
  const exportsLine = "wasm = instance.exports;";
  if (!js.includes(getImports) || !js.includes(exportsLine)) throw new Error("unexpected wasm-bindgen glue: cannot add the crossing counters");
  // Name wasm-bindgen's cast intrinsics by what they convert (from the comment the glue carries).
  const casts = {};
  for (const m of js.matchAll(/(__wbindgen_generic_[0-9a-f]+): function\([^)]*\) \{\s*\/\/ Cast intrinsic for `([^`]+)`/g)) {
    casts[m[1]] = m[2].startsWith("Closure(") ? "closure → JsValue" : m[2].replace(/ -> Externref$/, " → JsValue");
  }
  return (
    `const __benchCasts = ${JSON.stringify(casts)};\n` +
    COUNTER +
    js
      .replace(getImports, "function __wbg_get_imports() { return __benchCountImports(__wbg_get_imports_inner()); }\nfunction __wbg_get_imports_inner() {")
      .replace(exportsLine, "wasm = __benchCountExports(instance.exports);")
  );
}
