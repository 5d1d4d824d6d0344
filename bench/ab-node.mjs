// A/B of two builds of the package in one Node process (the same V8 as Chromium, no browser): whole
// walks of the bench's workload, the two builds and the hand-written JS pager interleaved round by
// round, so machine load hits all three alike. Also checks that both builds give the same pages,
// tokens and stats. Not part of `npm run bench`; for comparing a change against a baseline:
//
//   node bench/ab-node.mjs <baseline pkg/nodejs dir> [candidate dir, default pkg/nodejs] [items per source] [rounds]
//
// AB_CLOCK=cpu times each walk by the process's CPU time (user + system, `process.cpuUsage`)
// instead of the wall clock: on a shared machine the time spent waiting for a core then does not
// count (V8's GC helper threads do). The feed/rest split stays on the wall clock (not shown then).
import { createRequire } from "node:module";
import path from "node:path";
import assert from "node:assert/strict";
import { walk, drivePage } from "./lib/harness.js";
import { generateCatalog, backends, pagerOptions } from "./lib/workload.js";
import { JsPager } from "./contenders/js-pager.js";

const require = createRequire(import.meta.url);
const [base, cand = "pkg/nodejs", per = "40000", rounds = "5"] = process.argv.slice(2);
if (!base) throw new Error("usage: node bench/ab-node.mjs <baseline pkg/nodejs dir> [candidate dir] [items per source] [rounds]");
const A = require(path.resolve(base, "index.js"));
const B = require(path.resolve(cand, "index.js"));
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const cpuClock = process.env.AB_CLOCK === "cpu";

// Same pages, tokens and stats (a small catalog, small chunks: continue tokens, ties, filtering).
const small = generateCatalog(3000);
for (const [ps, sel] of [[20, 1], [7, 0.1]]) {
  const a = new A.Pager(pagerOptions(ps, sel, 97)), b = new B.Pager(pagerOptions(ps, sel, 97));
  const ba = backends(small), bb = backends(small);
  for (;;) {
    const pa = drivePage(a, ba), pb = drivePage(b, bb);
    assert.equal(pb.nextPageToken, pa.nextPageToken);
    assert.equal(JSON.stringify({ ...pb, items: pb.items.map((i) => i.name) }), JSON.stringify({ ...pa, items: pa.items.map((i) => i.name) }));
    if (pa.done) break;
  }
}
console.log("same pages, tokens and stats: yes");

const catalog = generateCatalog(Number(per));
const scanned = Number(per) * 3;
for (const [pageSize, sel] of [[20, 1], [100, 1], [20, 0.1], [100, 0.1]]) {
  const options = pagerOptions(pageSize, sel);
  const answerers = backends(catalog);
  const makers = { base: () => new A.Pager(options), cand: () => new B.Pager(options), js: () => new JsPager(options) };
  const rate = { base: [], cand: [], js: [] }, split = { base: [], cand: [], js: [] };
  for (let r = 0; r <= Number(rounds); r++) {
    for (const k of Object.keys(makers)) {
      const acc = { feedMs: 0, backendMs: 0, feeds: 0 };
      const cpu0 = process.cpuUsage();
      const w = walk(makers[k], answerers, { split: acc, gc: false });
      if (cpuClock) {
        const { user, system } = process.cpuUsage(cpu0);
        w.ms = (user + system) / 1000;
      }
      if (r === 0) continue; // warm-up
      rate[k].push(scanned / (w.ms / 1000));
      split[k].push([(acc.feedMs * 1000) / scanned, ((w.ms - acc.feedMs - acc.backendMs) * 1000) / w.pages, acc.feedMs / (w.ms - acc.backendMs)]);
    }
  }
  const show = (k) =>
    cpuClock ? `${(med(rate[k]) / 1e3).toFixed(0)} k/s (CPU time)` : `${(med(rate[k]) / 1e3).toFixed(0)} k/s, feed ${med(split[k].map((s) => s[0])).toFixed(2)} µs/item, ` +
    `rest ${med(split[k].map((s) => s[1])).toFixed(1)} µs/page, feed ${(100 * med(split[k].map((s) => s[2]))).toFixed(0)}%`;
  const ratio = (k, to) => med(rate[k].map((v, i) => v / rate[to][i])).toFixed(2);
  console.log(`page ${pageSize}, ${sel * 100}%: base ${show("base")} | cand ${show("cand")} | JS pager ${show("js")}`);
  console.log(`  ÷ JS pager: base ${ratio("base", "js")}×, cand ${ratio("cand", "js")}×; cand ÷ base ${ratio("cand", "base")}×`);
}
