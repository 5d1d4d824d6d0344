// Reads a wasm binary's sections (Node side): section sizes, the number of defined functions, and
// the function names of the "name" custom section. Used to check that the names-kept profiling
// build has the same code as the shipped one (so wasm-function[N] maps to a name) and to name them.
import { reader, sections as sectionsOf, skipImportDescription } from "../../scripts/lib/wasm-binary.mjs";

/** `{ sections: [{ id, name?, size, start }] (start: offset of the section's content), codeBytes, functions, importedFunctions, names: Map<index, name> }`. */
export function readWasm(data) {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.length);
  const sections = [];
  const names = new Map();
  let codeBytes = 0, functions = 0, importedFunctions = 0;
  for (const { id, name, content, end } of sectionsOf(bytes)) {
    const size = end - content;
    const r = reader(bytes, content);
    if (id === 0) {
      r.name();
      if (name === "name") {
        while (r.pos < end) {
          const sub = bytes[r.pos++];
          const subEnd = r.u32() + r.pos;
          if (sub === 1) {
            for (let count = r.u32(); count > 0; count--) {
              const index = r.u32();
              names.set(index, r.name());
            }
          }
          r.pos = subEnd;
        }
      }
    } else if (id === 2) {
      for (let count = r.u32(); count > 0; count--) {
        r.name();
        r.name();
        if (skipImportDescription(bytes, r) === 0) importedFunctions++;
      }
    } else if (id === 10) {
      codeBytes = size;
      functions = r.u32();
    }
    sections.push(name === undefined ? { id, size, start: content } : { id, name, size, start: content });
  }
  return { sections, codeBytes, functions, importedFunctions, names };
}
