// The benchmark page: loads the package (the module URL in ?pkg=, default the shipped web build),
// times init(), then exposes the harness as `window.bench` for bench/run.mjs to call step by step.
import { benchSteps } from "../lib/api.js";

const params = new URLSearchParams(location.search);
const pkgUrl = params.get("pkg") ?? "/pkg/web/index.js";
// The token functions are the package's codec entry, a wasm module of its own (its shipped build:
// the profiling variants of ?pkg= are builds of the pager module only).
const codecUrl = params.get("codec") ?? "/pkg/codec/web/index.js";

async function boot() {
  const pager = await import(pkgUrl);
  const t0 = performance.now();
  await pager.default();
  const initMs = performance.now() - t0;
  const codec = await import(codecUrl);
  await codec.default();
  // One object with both entries' exports, as the harness expects (the Pager and
  // wasmMemoryBytes of the pager module, the token functions of the codec module).
  const pkg = { ...codec, ...pager };
  window.bench = {
    initMs,
    memoryAtInit: pkg.wasmMemoryBytes(),
    env: { crossOriginIsolated: globalThis.crossOriginIsolated, userAgent: navigator.userAgent, gc: typeof globalThis.gc === "function" },
    ...benchSteps(pkg),
  };
}

boot().then(
  () => { window.benchReady = true; },
  (e) => { window.benchError = String(e?.stack ?? e); },
);
