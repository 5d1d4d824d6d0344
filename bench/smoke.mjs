#!/usr/bin/env node
// The benchmark's smoke mode: every step bench/run.mjs calls in Chromium (bench/lib/api.js), run in
// Node on a tiny catalog, one sample each, with no timing assertion. It fails when a contender
// throws or the hand-written JS pager and the package disagree (the cross-check of every
// configuration, lib/harness.js `runConfig`), so a broken benchmark fails `npm test`
// (tests/js/bench-smoke.test.mjs) instead of the next `npm run bench`.
//
//   node bench/smoke.mjs        # pkg/ built (scripts/build.sh); prints one line per step
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { benchSteps, CONFIGS } from "./lib/api.js";

/** The smoke's sizes: ~900 items, pages enough for a page token at page 10. */
const SMOKE = { perSource: 300, tokenAt: 10 };

/**
 * Runs every benchmark step once over `pkg` (the pager module's exports and the codec module's, in
 * one object, as the page builds it). Throws what a step throws; `log` sees one line per step.
 */
export async function smoke(pkg, log = () => {}) {
  const bench = benchSteps(pkg);
  const setup = bench.setup({ perSource: SMOKE.perSource });
  log(`catalog ${setup.items.join(" + ")}`);
  const configs = [];
  for (const config of CONFIGS) {
    const result = bench.config({
      ...config, reps: 1, window: 2, depthReps: 1, replicas: 1, dashboardWindow: 2, dashboardPrefix: 5, tokenAt: SMOKE.tokenAt,
    });
    configs.push(result);
    log(`page ${config.pageSize}, ${config.selectivity * 100}%: ${result.pages} pages, ${result.emitted} items, the contenders agree`);
  }
  const asyncRun = await bench.async({ ...CONFIGS[0], reps: 1 });
  log(`nextPage (async fetch): ${asyncRun.walkMs.length} walk`);
  bench.flatControl({ window: 2, replicas: 1 });
  const tokens = configs[0].tokens;
  if (!tokens.wasm || !tokens.js) throw new Error(`no page token at page ${SMOKE.tokenAt}`);
  bench.codec({ wasmToken: tokens.wasm, jsToken: tokens.js, n: 2, reps: 1 });
  bench.profileCodec({ token: tokens.wasm, n: 1 });
  log("codec: round trip");
  const memory = bench.memory({ total: 600, pageSize: 20 });
  if (memory.emitted < 600) throw new Error(`memory: ${memory.emitted} items emitted of 600`);
  const counted = bench.countedWalk(CONFIGS[0]);
  if (counted.emitted !== configs[0].emitted) throw new Error(`countedWalk: ${counted.emitted} items, the config's walk ${configs[0].emitted}`);
  for (const which of ["wasm", "js"]) bench.profileWalks({ which, ...CONFIGS[0], walks: 1 });
  log("memory, counted and profiled walks");
  return { configs: configs.map((r) => ({ pages: r.pages, emitted: r.emitted })) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const require = createRequire(import.meta.url);
  const pkg = { ...require("../pkg/codec/nodejs/index.js"), ...require("../pkg/nodejs/index.js") };
  await smoke(pkg, (line) => console.log(`[bench smoke] ${line}`));
  console.log("[bench smoke] passed");
}
