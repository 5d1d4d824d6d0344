// JSON text across the boundary: JS's native JSON on this side, the crate's small writer (src/json.rs,
// src/view) on the Rust side: one crossing per value, no per-type code. Never throws. (The codec's
// inputs go the other way: `toJson` in codec.js.)
// Keep the export line the file's last line (scripts/package.mjs rewrites it for the nodejs build).

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

export { fromJson, wellFormed };
