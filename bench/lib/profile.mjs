// Chromium CPU profiles through the DevTools protocol (playwright's CDPSession): record one, and
// summarise self time by function, naming wasm-function[N] frames from a names-kept build.

/** Records a CPU profile of `run()` in `page`, sampling every `intervalUs` µs. */
export async function recordProfile(page, run, { intervalUs = 100 } = {}) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: intervalUs });
  await cdp.send("Profiler.start");
  let result, profile;
  try {
    result = await run();
  } finally {
    ({ profile } = await cdp.send("Profiler.stop"));
    await cdp.send("Profiler.disable");
    await cdp.detach();
  }
  return { profile, result };
}

/** A readable Rust symbol: no `::h<hash>` suffix, no `[crate-disambiguator]`. */
export function tidy(name) {
  return name.replace(/::h[0-9a-f]{16}$/, "").replace(/\[[0-9a-f]{16}\]/g, "");
}

/** Which layer a frame belongs to. */
function layer(fn, url) {
  if (fn === "(garbage collector)") return "GC";
  if (fn === "(program)" || fn === "(idle)" || fn === "(root)") return fn;
  if (url.startsWith("wasm://") || /^wasm-function\[/.test(fn) || /^\$/.test(fn)) return "wasm";
  if (url.includes("/snippets/")) return "glue (chunk.js, json.js)";
  if (/kubeapps_pager\.js$/.test(url)) return "glue (wasm-bindgen)";
  if (url.includes("/bench/contenders/")) return "JS pager";
  if (url.includes("/bench/")) return "harness + backend";
  if (url === "") return "V8 builtins / runtime";
  return "other";
}

/**
 * Self time by function and by layer. `names`: Map(function index → name) for wasm-function[N]
 * frames. Returns `{ totalMs, functions: [{ name, layer, ms, share }], layers: [{ layer, ms, share }] }`
 * (idle excluded from the total).
 */
export function summarise(profile, names = new Map()) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) {
    // A sample stands for the time until the next one.
    const dt = (i + 1 < timeDeltas.length ? timeDeltas[i + 1] : timeDeltas[i]) / 1000;
    self.set(samples[i], (self.get(samples[i]) ?? 0) + dt);
  }
  const functions = new Map();
  const layers = new Map();
  let total = 0;
  for (const [id, ms] of self) {
    const { callFrame } = byId.get(id);
    let fn = callFrame.functionName || "(anonymous)";
    const m = /^wasm-function\[(\d+)\]$/.exec(fn) ?? /^\$?func(\d+)$/.exec(fn);
    if (m && names.has(Number(m[1]))) fn = names.get(Number(m[1]));
    const l = layer(callFrame.functionName || "", callFrame.url || "");
    if (l === "(idle)") continue;
    fn = tidy(fn);
    const key = `${l}\u0000${fn}`;
    functions.set(key, (functions.get(key) ?? 0) + ms);
    layers.set(l, (layers.get(l) ?? 0) + ms);
    total += ms;
  }
  const rows = [...functions].map(([key, ms]) => {
    const [l, name] = key.split("\u0000");
    return { name, layer: l, ms, share: ms / total };
  });
  rows.sort((a, b) => b.ms - a.ms);
  const layerRows = [...layers].map(([l, ms]) => ({ layer: l, ms, share: ms / total })).sort((a, b) => b.ms - a.ms);
  return { totalMs: total, functions: rows, layers: layerRows };
}
