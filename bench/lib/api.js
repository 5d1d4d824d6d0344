// The benchmark's steps, free of any DOM: `bench/browser/main.js` exposes them as `window.bench` for
// bench/run.mjs to call in Chromium, and `bench/smoke.mjs` calls the same steps in Node on a tiny
// catalog (npm test runs it: a contender that throws or disagrees fails there, not only here).
import { generateCatalog, backends, offsetBackend, pagerOptions, lazyBackends, lazyOptions } from "./workload.js";
import { runConfig, runAsync, runCodec, runFlatControl, runMemory, walk } from "./harness.js";
import { JsPager } from "../contenders/js-pager.js";

/** The configurations measured: page size, and the share of items the filter keeps. */
export const CONFIGS = [
  { pageSize: 20, selectivity: 1 },
  { pageSize: 100, selectivity: 1 },
  { pageSize: 20, selectivity: 0.1 },
  { pageSize: 100, selectivity: 0.1 },
];

/**
 * The steps over `pkg`: one object with the pager module's exports (Pager, wasmMemoryBytes) and
 * the codec module's (the token functions).
 */
export function benchSteps(pkg) {
  const state = {};
  return {
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
