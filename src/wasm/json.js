// The checks and `describe` the other snippets share. Never throws.
// Keep the export line the file's last line (scripts/package.mjs rewrites it for the nodejs build).

/** Whether `v` is an object (not null; arrays are objects). */
const isObject = (v) => typeof v === "object" && v !== null;

/**
 * Whether `s` is a string of well-formed text (no lone surrogate): the UTF-8 encoder that takes a
 * string into wasm would replace a lone half with U+FFFD, so strings are checked before they cross.
 * (In a `u` regex, a surrogate pair is one code point: `\p{Cs}` matches only lone halves.)
 */
const wellFormed = "".isWellFormed
  ? (s) => typeof s === "string" && s.isWellFormed()
  : (s) => typeof s === "string" && !/\p{Cs}/u.test(s);

/**
 * A thrown value's message. Never throws: a throw from here would unwind through the wasm frames
 * that called `readChunk` (an import the wasm does not catch; its shadow stack is never given
 * back: enough of those and the module traps), and a value thrown by a getter may be anything
 * (`Object.create(null)`, a Proxy).
 */
function describe(e) {
  try {
    return e instanceof Error ? String(e.message) : String(e);
  } catch {
    return "a value that cannot be read";
  }
}

export { wellFormed, isObject, describe };
