// The model test through the public path: generated runs (tests/js/support/model-world.mjs:
// Kubeapps offset sources with ties and database orders, kapp_controller's 400 past the end,
// Kubernetes lists with snapshots and 410 Expired, fluxv2's unordered lists; churn, transient and
// permanent failures, hangs, aborts, resumes from page tokens) played through `pager.nextPage` of
// the built package, with a plain fetchChunk and with `kubeappsFetcher`/`kubernetesListFetcher`
// over a local HTTP server (tests/js/support/model-run.mjs says what is checked).
//
// MODEL_JS_RUNS: runs (default 2,000); MODEL_JS_SEED: the first seed (default 1; runs take the
// seeds from it on). MODEL_JS_KEEP_GOING=1 plays every run and lists every failing seed (a sweep);
// MODEL_JS_TRACE=1 prints every page (with MODEL_JS_RUNS=1, to read one seed).
import { test } from "node:test";
import assert from "node:assert/strict";
import { pkg, collation } from "./support/package.mjs";
import { generate } from "./support/model-world.mjs";
import { playRun, startServer } from "./support/model-run.mjs";

const RUNS = Number(process.env.MODEL_JS_RUNS ?? 2000);
const FIRST = Number(process.env.MODEL_JS_SEED ?? 1);
const KEEP_GOING = process.env.MODEL_JS_KEEP_GOING === "1";
const TRACE = process.env.MODEL_JS_TRACE === "1";

test(`nextPage keeps every invariant over ${RUNS} generated runs (seeds ${FIRST}…${FIRST + RUNS - 1})`, async () => {
  const state = { id: 0 };
  const server = await startServer(state);
  const totals = {};
  const failures = [];
  const t0 = performance.now();
  try {
    for (let seed = FIRST; seed < FIRST + RUNS; seed++) {
      const run = generate(seed);
      try {
        const f = await playRun({ pager: pkg, collation }, run, { server, state, trace: TRACE });
        totals[run.collation ? "collated" : run.entry] = (totals[run.collation ? "collated" : run.entry] ?? 0) + 1;
        for (const [k, v] of Object.entries(f)) totals[k] = (totals[k] ?? 0) + v;
        totals[run.transport] = (totals[run.transport] ?? 0) + 1;
      } catch (e) {
        if (!e.run) throw e;
        failures.push({ seed, message: e.message.split("\n")[0] });
        if (!KEEP_GOING) {
          console.error(`model-public: seed ${seed} failed:\n${e.message}\nrun: ${JSON.stringify(run)}`);
          throw e;
        }
      }
    }
  } finally {
    await server.close();
  }
  console.error(`model-public: ${RUNS} runs from seed ${FIRST} in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${JSON.stringify(totals)}`);
  if (failures.length > 0) {
    const byMessage = new Map();
    for (const f of failures) {
      // One line per kind of failure: numbers and parenthesized details left out.
      const kind = f.message.replace(/\([^)]*\)/g, "(…)").replace(/\d+/g, "N").split(":")[0].slice(0, 120);
      byMessage.set(kind, [...(byMessage.get(kind) ?? []), f.seed]);
    }
    for (const [kind, seeds] of byMessage) console.error(`  ${seeds.length} × ${kind} seeds ${seeds.slice(0, 20).join(", ")}`);
    assert.fail(`${failures.length} of ${RUNS} runs failed; first: seed ${failures[0].seed}: ${failures[0].message}`);
  }
  // The runs played what they are for, not only passed.
  if (RUNS >= 500) {
    for (const k of ["late", "rejections", "aborts", "hangs", "inconsistent", "unreachable", "http", "plain", "pager", "collation", "collated", "prefetched"]) {
      assert.ok(totals[k] > 0, `no run played ${k}: ${JSON.stringify(totals)}`);
    }
  }
});
