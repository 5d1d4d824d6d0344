// JSON text across the boundary: JS's native JSON on this side, the crate's small reader and writer
// (src/json.rs, src/view) on the Rust side: one crossing per value, no per-type code. Never throws.
// Keep the export line the file's last line (scripts/package.mjs rewrites it for the nodejs build).

/**
 * JSON text of a value, or `{ error }` for what JSON cannot hold (cycles, BigInt, throwing getters,
 * NaN and ±Infinity: JSON would write them as `null`, which reads as an absent option, so that
 * `pageSize: NaN` would quietly be the default).
 */
function toJson(value) {
  try {
    const text = JSON.stringify(value === undefined ? null : value, finite);
    return text === undefined ? { error: "the value cannot be written as JSON" } : text;
  } catch (e) {
    // Never throw from here (a throw would unwind through the wasm that called us, whose shadow
    // stack is then never given back): a getter or toJSON may throw anything.
    try {
      return { error: e instanceof Error ? String(e.message) : String(e) };
    } catch {
      return { error: "a value that cannot be read" };
    }
  }
}

function finite(key, v) {
  if (typeof v === "number" && !Number.isFinite(v)) throw new TypeError(`${key || "value"}: ${v} is not a finite number`);
  return v;
}

/** The value of JSON text written by serde_json. */
function fromJson(text) {
  return JSON.parse(text);
}

/**
 * Whether a string is well-formed text (no lone surrogate): the UTF-8 encoder that takes a string
 * into wasm would replace a lone half with U+FFFD, so the wasm asks when it sees one.
 */
function wellFormed(s) {
  return typeof s === "string" && (s.isWellFormed ? s.isWellFormed() : !/\p{Cs}/u.test(s));
}

export { toJson, fromJson, wellFormed };
