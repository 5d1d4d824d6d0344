// The codec module's JS half: builds a page token state on the JS side in one call, from what the
// wasm packed (no JSON text, no JSON.parse), and writes its inputs as JSON text for the crate's
// reader (src/wasm/view.rs). Never throws. Keep the export line the file's last
// line (scripts/package.mjs rewrites it to CommonJS for the nodejs build).

/**
 * `PageTokenState` from `pack_page_token` (src/wasm/view.rs): the fingerprint (16 hex digits), then
 * numbers (3 characters of 15 bits each, low first) and strings (a number, their length in UTF-16
 * units, then the string) in the order the object holds them. The keys in the order the JSON view
 * writes them. With `page`, inspectToken's `TokenInfo` of kind "page": `kind`, then version,
 * byteLength and textLength (3 more numbers at the end), then the state's keys.
 */
function makeTokenState(t, page) {
  let at = 16;
  const num = () => t.charCodeAt(at++) + t.charCodeAt(at++) * 32768 + t.charCodeAt(at++) * 1073741824;
  // A string: its length (read first, as the default argument), then its units.
  const s = (n = num()) => t.slice(at, (at += n));
  const state = { fingerprint: t.slice(0, 16), pageSize: num(), sources: [] };
  for (let n = num(); n--; ) {
    const flags = num(), offset = num();
    const plugin = s(), cluster = s(), namespace = s(), chunkToken = s();
    const mark = () => ({ sortKey: s(), identity: { plugin: s(), cluster: s(), namespace: s(), identifier: s() } });
    const watermark = flags & 1 ? mark() : null;
    const source = { plugin, cluster, namespace, chunkToken, offset, watermark, resourceVersion: s(), exhausted: !!(flags & 2), inconsistent: !!(flags & 4), behind: !!(flags & 8) };
    // Only when the position holds them, as the serde view writes them.
    if (flags & 16) for (let k = num(), a = (source.anchors = []); k--; ) a.push(s());
    if (flags & 32) source.lateWatermark = mark();
    state.sources.push(source);
  }
  return page ? { kind: "page", version: num(), byteLength: num(), textLength: num(), ...state } : state;
}

/**
 * JSON text of a value, or `{ error }` for what JSON cannot hold (cycles, BigInt, throwing getters,
 * NaN and ±Infinity: JSON would write them as `null`, which reads as an absent field).
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

export { makeTokenState, toJson };
