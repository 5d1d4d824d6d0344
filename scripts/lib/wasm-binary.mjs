// Reading and writing the wasm binary format (https://webassembly.github.io/spec/core/binary/):
// LEB128 numbers, names and the module's sections. Read by the bench's profile build
// (bench/lib/wasm-sections.mjs).

/** A cursor over `bytes` at `pos`: unsigned LEB128 numbers (`u32`) and names (`name`). */
export function reader(bytes, pos = 0) {
  return {
    pos,
    u32() {
      let value = 0;
      for (let shift = 0; ; shift += 7) {
        const b = bytes[this.pos++];
        value += (b & 0x7f) * 2 ** shift;
        if (b < 0x80) return value;
      }
    },
    name() {
      const n = this.u32();
      this.pos += n;
      return bytes.subarray(this.pos - n, this.pos).toString();
    },
  };
}

/** Unsigned LEB128 of `n`. */
export function leb128(n) {
  const out = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return Buffer.from(out);
}

/**
 * The sections of the module `bytes`, in order: `{ id, name, start, content, end }`, where `start`
 * is the offset of the section's id byte, `content` of its contents, `end` just past it, and
 * `name` the name of a custom section (id 0). Throws for bytes that are no wasm module.
 */
export function sections(bytes, what = "the input") {
  if (bytes.length < 8 || bytes.readUInt32LE(0) !== 0x6d736100) throw new Error(`${what}: not a wasm module`);
  const out = [];
  for (const r = reader(bytes, 8); r.pos < bytes.length; ) {
    const start = r.pos;
    const id = bytes[r.pos++];
    const size = r.u32();
    const content = r.pos;
    const name = id === 0 ? r.name() : undefined;
    r.pos = content + size;
    out.push({ id, name, start, content, end: r.pos });
  }
  return out;
}

/** Skips an import's description (after its module and field names) at `r.pos`. */
export function skipImportDescription(bytes, r) {
  const kind = bytes[r.pos++];
  if (kind === 0) r.u32(); // function: type index
  else if (kind === 1 || kind === 2) {
    if (kind === 1) r.pos++; // table: element type
    const flags = r.u32(); // limits
    r.u32();
    if (flags & 1) r.u32();
  } else if (kind === 3) r.pos += 2; // global: value type, mutability
  else if (kind === 4) (r.pos++, r.u32()); // tag: attribute, type index
  else throw new Error(`unknown import kind ${kind}`);
  return kind;
}
