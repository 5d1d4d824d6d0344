// Builds the codec's results on the JS side in one call each, from what the wasm packed (no JSON
// text, no JSON.parse). Never throws. Keep the export line the file's last line
// (scripts/package.mjs rewrites it to CommonJS for the nodejs build).

/**
 * `PageTokenState` from `pack_page_token` (src/view.rs): `text` is the fingerprint then every
 * string of the state back to back, `data` (a Uint32Array) pageSize, the source count, then per
 * source flags (bit 0 watermark, 1 exhausted, 2 inconsistent), offset and its strings' lengths
 * (UTF-16 units). The keys in the order the JSON view writes them. With `page`, inspectToken's
 * `TokenInfo` of kind "page": `kind`, then version, byteLength and textLength (`data`'s last 3).
 */
function makeTokenState(text, data, page) {
  let at = 16, k = 2;
  const s = () => text.slice(at, (at += data[k++]));
  const sources = [];
  for (let i = 0; i < data[1]; i++) {
    const flags = data[k++], offset = data[k++];
    const plugin = s(), cluster = s(), namespace = s(), chunkToken = s();
    const watermark = flags & 1 ? { sortKey: s(), identity: { plugin: s(), cluster: s(), namespace: s(), identifier: s() } } : null;
    sources.push({ plugin, cluster, namespace, chunkToken, offset, watermark, resourceVersion: s(), exhausted: !!(flags & 2), inconsistent: !!(flags & 4) });
  }
  const state = { fingerprint: text.slice(0, 16), pageSize: data[0], sources };
  return page ? { kind: "page", version: data[k], byteLength: data[k + 1], textLength: data[k + 2], ...state } : state;
}

export { makeTokenState };
