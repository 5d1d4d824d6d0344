// Drops the hash wasm-bindgen appends to the names of a module's JS imports
// (`__wbg_copyChunk_2dbf160d8de553c8` → `__wbg_copyChunk`), in the wasm and in its glue alike:
// `node scripts/unhash-imports.mjs DIR NAME` for wasm-bindgen's output in DIR (NAME_bg.wasm and
// the JS files beside it: NAME.js, and NAME_bg.js for the bundler target).
//
// Why: the hashes are 16 random hex digits per import, once in the wasm's import section and once
// in the glue, which gzip cannot compress: about 0.5 KB gzip of the pager entry (BENCHMARKS.md
// "Size"). wasm-bindgen hashes the names so that two imports of the same name (from different
// modules, or with different signatures) stay apart: a name is only unhashed when no other
// import (or the glue) has the shorter name already; otherwise it is left as it is. Each renamed
// import must be found in the glue, or the script fails: a module whose imports and glue
// disagreed would fail to instantiate. Written against wasm-bindgen 0.2.130's names
// (`__wbg_<name>_<16 hex digits>`), the version Cargo.lock pins: another scheme leaves the names
// as they are (nothing matches) or fails the build, never a broken module.
import { readFileSync, writeFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { leb128, reader, sections, skipImportDescription } from "./lib/wasm-binary.mjs";

/** Renames the hashed imports of `dir`/`name`_bg.wasm and its glue; returns how many. */
export function unhashImports(dir, name) {
  const wasmPath = join(dir, `${name}_bg.wasm`);
  const bytes = readFileSync(wasmPath);
  const glueFiles = readdirSync(dir).filter((f) => f === `${name}.js` || f === `${name}_bg.js`).map((f) => join(dir, f));
  const glue = new Map(glueFiles.map((f) => [f, readFileSync(f, "utf8")]));
  const out = [bytes.subarray(0, 8)];
  const renames = new Map();
  for (const { id, start, content, end } of sections(bytes, wasmPath)) {
    if (id !== 2) {
      out.push(bytes.subarray(start, end));
      continue;
    }
    const r = reader(bytes, content);
    const imports = [];
    for (let count = r.u32(); count > 0; count--) {
      const module = r.name();
      const field = r.name();
      const description = r.pos;
      skipImportDescription(bytes, r);
      imports.push([module, field, bytes.subarray(description, r.pos)]);
    }
    if (r.pos !== end) throw new Error(`${wasmPath}: the import section does not end where its size says`);
    const taken = new Set(imports.map(([, field]) => field));
    const shortened = new Map();
    for (const [, field] of imports) {
      const m = /^(__wbg_\w+?)_[0-9a-f]{16}$/.exec(field);
      if (m) shortened.set(m[1], shortened.has(m[1]) ? null : field);
    }
    for (const [short, field] of shortened) {
      const inGlue = [...glue.values()].some((js) => new RegExp(`\\b${short}\\b`).test(js));
      if (field !== null && !taken.has(short) && !inGlue) renames.set(field, short);
    }
    const body = [leb128(imports.length)];
    for (const [module, field, desc] of imports) {
      const renamed = Buffer.from(renames.get(field) ?? field);
      const moduleBytes = Buffer.from(module);
      body.push(leb128(moduleBytes.length), moduleBytes, leb128(renamed.length), renamed, desc);
    }
    const section = Buffer.concat(body);
    out.push(Buffer.from([2]), leb128(section.length), section);
  }
  for (const [file, js] of glue) {
    let renamed = js;
    for (const [from, to] of renames) renamed = renamed.split(from).join(to);
    glue.set(file, renamed);
  }
  for (const from of renames.keys()) {
    if (![...glue.keys()].some((f) => readFileSync(f, "utf8").includes(from))) throw new Error(`${dir}: import ${from} is not in the glue`);
  }
  for (const [file, js] of glue) writeFileSync(file, js);
  writeFileSync(wasmPath, Buffer.concat(out));
  return renames.size;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dir, name] = process.argv.slice(2);
  console.log(`${dir}: ${unhashImports(dir, name)} imports unhashed`);
}
