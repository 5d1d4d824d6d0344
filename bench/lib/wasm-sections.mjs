// Reads a wasm binary's sections (Node side): section sizes, the number of defined functions, and
// the function names of the "name" custom section. Used to check that the names-kept profiling
// build has the same code as the shipped one (so wasm-function[N] maps to a name) and to name them.

function reader(bytes) {
  let pos = 0;
  const u32 = () => {
    let result = 0, shift = 0, b;
    do {
      b = bytes[pos++];
      result |= (b & 0x7f) << shift;
      shift += 7;
    } while (b & 0x80);
    return result >>> 0;
  };
  const name = () => {
    const len = u32();
    const s = new TextDecoder().decode(bytes.subarray(pos, pos + len));
    pos += len;
    return s;
  };
  return { u32, name, get pos() { return pos; }, set pos(p) { pos = p; } };
}

/** `{ sections: [{ id, name?, size, start }] (start: offset of the section's content), codeBytes, functions, importedFunctions, names: Map<index, name> }`. */
export function readWasm(bytes) {
  const r = reader(bytes);
  r.pos = 8;
  const sections = [];
  const names = new Map();
  let codeBytes = 0, functions = 0, importedFunctions = 0;
  while (r.pos < bytes.length) {
    const id = bytes[r.pos++];
    const size = r.u32();
    const start = r.pos;
    const entry = { id, size, start };
    if (id === 0) {
      entry.name = r.name();
      if (entry.name === "name") {
        while (r.pos < start + size) {
          const sub = bytes[r.pos++];
          const subSize = r.u32();
          const subEnd = r.pos + subSize;
          if (sub === 1) {
            const count = r.u32();
            for (let i = 0; i < count; i++) {
              const index = r.u32();
              names.set(index, r.name());
            }
          }
          r.pos = subEnd;
        }
      }
    } else if (id === 2) {
      const count = r.u32();
      for (let i = 0; i < count; i++) {
        r.name();
        r.name();
        const kind = bytes[r.pos++];
        if (kind === 0) { r.u32(); importedFunctions++; }
        else if (kind === 1) { bytes[r.pos++]; const flags = r.u32(); r.u32(); if (flags & 1) r.u32(); }
        else if (kind === 2) { const flags = r.u32(); r.u32(); if (flags & 1) r.u32(); }
        else if (kind === 3) { r.pos += 2; }
      }
    } else if (id === 10) {
      codeBytes = size;
      functions = r.u32();
    }
    r.pos = start + size;
    sections.push(entry);
  }
  return { sections, codeBytes, functions, importedFunctions, names };
}
