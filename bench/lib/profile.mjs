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

/**
 * Inclusive time of labelled stacks: a sample counts for a label when `test(stack)` holds, where
 * `stack` is the sample's frames root first, each `{ name, url }` (wasm frames named). Returns
 * [{ label, ms, share }] in input order; share of the non-idle total.
 */
export function inclusive(profile, names, labels) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stacks = new Map();
  const stackOf = (id) => {
    if (stacks.has(id)) return stacks.get(id);
    const node = byId.get(id);
    let name = node.callFrame.functionName || "";
    const m = /^wasm-function\[(\d+)\]$/.exec(name) ?? /^\$?func(\d+)$/.exec(name);
    if (m && names.has(Number(m[1]))) name = names.get(Number(m[1]));
    const up = parent.has(id) ? stackOf(parent.get(id)) : [];
    const stack = [...up, { name: tidy(name), url: node.callFrame.url || "" }];
    stacks.set(id, stack);
    return stack;
  };
  const ms = labels.map(() => 0);
  let total = 0;
  const { samples, timeDeltas } = profile;
  const verdicts = new Map();
  for (let i = 0; i < samples.length; i++) {
    const id = samples[i];
    if (byId.get(id).callFrame.functionName === "(idle)") continue;
    const dt = (i + 1 < timeDeltas.length ? timeDeltas[i + 1] : timeDeltas[i]) / 1000;
    total += dt;
    if (!verdicts.has(id)) verdicts.set(id, labels.map((l) => l.test(stackOf(id))));
    verdicts.get(id).forEach((hit, k) => { if (hit) ms[k] += dt; });
  }
  return labels.map((l, i) => ({ label: l.label, ms: ms[i], share: ms[i] / total }));
}

/** Stack tests for `inclusive`: a frame whose name matches `re` (and, optionally, whose URL matches `url`). */
export const has = (re, url) => (stack) => stack.some((f) => re.test(f.name) && (!url || url.test(f.url)));
/** A frame matching `inner` below one matching `outer`. */
export const under = (outer, inner) => (stack) => {
  const k = stack.findIndex(outer);
  return k >= 0 && stack.slice(k + 1).some(inner);
};
export const frame = (re, url) => (f) => re.test(f.name) && (!url || url.test(f.url));

/** Prints the call tree (inclusive ≥ `min` share) for exploring a profile. */
export function tree(profile, names, min = 0.01) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const { samples, timeDeltas } = profile;
  let total = 0;
  for (let i = 0; i < samples.length; i++) {
    const dt = (i + 1 < timeDeltas.length ? timeDeltas[i + 1] : timeDeltas[i]) / 1000;
    self.set(samples[i], (self.get(samples[i]) ?? 0) + dt);
    total += dt;
  }
  const incl = new Map();
  const sum = (id) => {
    const n = byId.get(id);
    let t = self.get(id) ?? 0;
    for (const c of n.children ?? []) t += sum(c);
    incl.set(id, t);
    return t;
  };
  const root = profile.nodes[0].id;
  sum(root);
  const lines = [];
  const visit = (id, depth) => {
    const n = byId.get(id);
    let fn = n.callFrame.functionName || "(anonymous)";
    const m = /^wasm-function\[(\d+)\]$/.exec(fn);
    if (m && names.has(Number(m[1]))) fn = names.get(Number(m[1]));
    lines.push(`${"  ".repeat(depth)}${((incl.get(id) / total) * 100).toFixed(1)}% ${tidy(fn)}`);
    for (const c of [...(n.children ?? [])].sort((a, b) => incl.get(b) - incl.get(a))) if (incl.get(c) / total >= min) visit(c, depth + 1);
  };
  visit(root, 0);
  return lines.join("\n");
}
