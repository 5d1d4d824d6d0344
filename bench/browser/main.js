// The benchmark page: loads the package (the module URL in ?pkg=, default the shipped web build),
// times init(), then exposes the harness as `window.bench` for bench/run.mjs to call step by step.
import { generateCatalog, backends, offsetBackend, pagerOptions, lazyBackends, lazyOptions } from "../lib/workload.js";
import { runConfig, runAsync, runCodec, runFlatControl, runMemory, walk } from "../lib/harness.js";
import { JsPager } from "../contenders/js-pager.js";

const params = new URLSearchParams(location.search);
const pkgUrl = params.get("pkg") ?? "/pkg/web/index.js";
// The token functions are the package's codec entry, a wasm module of its own (its shipped build:
// the profiling variants of ?pkg= are builds of the pager module only).
const codecUrl = params.get("codec") ?? "/pkg/codec/web/index.js";

const state = {};

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
  state.pkg = pkg;
  window.bench = {
    initMs,
    memoryAtInit: pkg.wasmMemoryBytes(),
    env: { crossOriginIsolated: globalThis.crossOriginIsolated, userAgent: navigator.userAgent, gc: typeof globalThis.gc === "function" },

    /** Generates the catalog (`perSource` items per source). */
    setup({ perSource }) {
      const t = performance.now();
      state.catalog = generateCatalog(perSource);
      state.answerers = backends(state.catalog);
      return { ms: performance.now() - t, items: state.catalog.map((l) => l.length) };
    },

    /** Every contender on one configuration (page size, selectivity). */
    config({ pageSize, selectivity, ...rest }) {
      const options = pagerOptions(pageSize, selectivity);
      return runConfig({ pkg, catalog: state.catalog, answerers: state.answerers, options, ...rest });
    },

    /** `nextPage` with an async fetch. */
    async async({ pageSize, selectivity, reps }) {
      const options = pagerOptions(pageSize, selectivity);
      return runAsync({ pkg, catalog: state.catalog, answerers: state.answerers, options, reps });
    },

    /** Per-page medians at pages 1 and 5,000 with every list paged by offsets. */
    flatControl({ window, replicas }) {
      const answerers = state.catalog.map(offsetBackend);
      return runFlatControl({ pkg, catalog: state.catalog, answerers, options: pagerOptions(20, 1), window, replicas });
    },

    codec(args) {
      return runCodec({ pkg, ...args });
    },

    memory({ total, pageSize }) {
      const answerers = lazyBackends(Math.ceil(total / 3));
      return runMemory({ pkg, answerers, options: lazyOptions(pageSize), total });
    },

    /** Whole walks for the profiler (`which`: "wasm" or "js"); returns the ms of each. */
    profileWalks({ which, pageSize, selectivity, walks }) {
      const options = pagerOptions(pageSize, selectivity);
      const make = which === "wasm" ? () => new pkg.Pager(options) : () => new JsPager(options);
      const out = [];
      for (let i = 0; i < walks; i++) out.push(walk(make, state.answerers, { gc: false }).ms);
      return out;
    },

    /** `decodePageToken(token)` `n` times, for the profiler. */
    profileCodec({ token, n }) {
      let sink = 0;
      for (let i = 0; i < n; i++) sink += pkg.decodePageToken(token).pageSize;
      return sink;
    },

    /** Boundary-crossing counts since the last call (only with the counting build). */
    takeCrossings() {
      const c = globalThis.__benchCrossings ?? null;
      globalThis.__benchCrossings = {};
      return c;
    },

    /** One walk with page and item counts, for per-page / per-item normalisation. */
    countedWalk({ pageSize, selectivity }) {
      const options = pagerOptions(pageSize, selectivity);
      const r = walk(() => new pkg.Pager(options), state.answerers);
      return { pages: r.pages, emitted: r.emitted, scanned: state.catalog.reduce((n, l) => n + l.length, 0) };
    },
  };
}

boot().then(
  () => { window.benchReady = true; },
  (e) => { window.benchError = String(e?.stack ?? e); },
);
