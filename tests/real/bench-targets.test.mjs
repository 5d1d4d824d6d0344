// The smoke of `node bench/network.mjs --targets` (bench/lib/targets.mjs): every step of the
// targets mode once over PostgreSQL and etcd, on a small catalog of the three plugins (1
// repetition, 3 reader pages, no pace, no added latency), so that the benchmark cannot break
// silently. Nothing here asserts a
// time or a target met: those are the benchmark's figures. What it asserts: each target has its
// row under both sorts, the least is measured from the sources' own answers, page 1 and the
// reloads went through the pager, and a reload from a page token gives the page the walk gave.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useServices, pkg } from "./support.mjs";
import { measureTargets, targetRows, renderTargets, SORTS, RELOAD_PAGES } from "../../bench/lib/targets.mjs";

const svc = useServices();
const PAGE_SIZE = 20;

/**
 * 250 global helm charts (synced into `team-a` too: 500 for the user), 40 fluxv2 charts (read
 * whole: unordered) and 30 Carvel packages whose display names are not their names: 570 items,
 * 29 pages, so both reload pages (5, 25) exist.
 */
function records() {
  const words = ["nginx", "redis", "mysql", "kafka", "grafana", "vault", "consul", "etcd", "mongo", "spark"];
  const base = () => ({ cluster: "default", namespace: "kubeapps", shortDescription: "a chart", categories: ["Database"], latestVersion: { pkgVersion: "1.0.0", appVersion: "1.0" } });
  const out = [];
  for (let i = 0; i < 250; i++) {
    const name = `${words[i % words.length]}-${i.toString(36)}`;
    out.push({ ...base(i), plugin: "helm.packages", repo: "bitnami", name, identifier: `bitnami/${name}`, displayName: name });
  }
  for (let i = 0; i < 40; i++) {
    const name = `${words[(i * 3) % words.length]}-f${i.toString(36)}`;
    out.push({ ...base(i), plugin: "fluxv2.packages", repo: "bitnami", name, identifier: `bitnami/${name}`, displayName: name });
  }
  for (let i = 0; i < 30; i++) {
    const name = `${words[(i * 7) % words.length]}-${i}.community.example.com`;
    out.push({ ...base(i), plugin: "kapp_controller.packages", repo: "", name, identifier: name, displayName: `${words[(i * 7) % words.length].toUpperCase()} ${i}` });
  }
  return out;
}

test("bench targets smoke: every target measured under both sorts, reloads give the walk's pages", { timeout: 120_000 }, async () => {
  const server = await svc.server({ records: records() });
  await server.post("/demo/behaviour", { plugin: "kapp_controller", behaviour: "kubeapps-offset" });
  const cfg = (await server.get("/demo/config")).json;
  const KIND = { kubernetes: "kubernetes", "kubeapps-offset": "kubeapps", unordered: "unordered" };
  const sources = cfg.plugins.flatMap((p) => Object.keys(p.namespaces).sort().map((namespace) => ({ plugin: p.name, cluster: "default", namespace, kind: KIND[p.behaviour] })));
  assert.equal(sources.length, 3, JSON.stringify(sources));

  const m = await measureTargets({ server, pkgMod: pkg, sources, pageSize: PAGE_SIZE, reps: 1, readerPages: 3, paceMs: 0 });

  for (const sort of SORTS) {
    // The least: fluxv2 (unordered) whole, every source's first chunk one page.
    const least = m.least[sort];
    assert.equal(least.rows.length, 3);
    const flux = least.rows.find((r) => r.source === "fluxv2/kubeapps");
    assert.equal(flux.streams, false);
    assert.equal(flux.least, flux.wholeBytes);
    for (const r of least.rows) {
      assert.ok(r.firstItems === PAGE_SIZE && r.firstBytes > 0 && r.wholeBytes > r.firstBytes, JSON.stringify(r));
    }
    assert.equal(least.bytes, least.rows.reduce((n, r) => n + r.least, 0));
    // Page 1 through the pager: every source asked, the bytes counted per source.
    const p1 = m.pager[sort].page1[0];
    assert.equal(p1.error, undefined, p1.error);
    assert.equal(p1.ids.length, PAGE_SIZE);
    assert.deepEqual(Object.keys(p1.bySource).sort(), least.rows.map((r) => r.source).sort());
    // A reload from the page token gives the page the walk gave (both reload pages exist).
    for (const n of RELOAD_PAGES) {
      const r = m.pager[sort].reload[n][0];
      assert.equal(r.error, undefined, r.error);
      assert.deepEqual(r.ids, m.walks[sort].ids[n], `${sort}: page ${n} resumed from its token`);
      assert.equal(m.core.reload[n][0].ids.length, PAGE_SIZE);
    }
    // The reader: pages 2–4 without prefetch; with it, measured or said to be absent.
    assert.equal(m.readers[sort].without.waits.length, 3);
    const w = m.readers[sort].with;
    assert.equal(w.error, undefined, w.error);
    assert.ok(w.available === false || w.waits.length === 3, JSON.stringify(w));
    const rows = targetRows(m, sort, PAGE_SIZE, 3);
    assert.equal(rows.length, 4 + RELOAD_PAGES.length);
    for (const row of rows) {
      assert.ok(["yes", "no", "not available"].includes(row.met), JSON.stringify(row));
      assert.ok(row.met !== "no" || row.reason, `a target missed says why: ${JSON.stringify(row)}`);
      assert.doesNotMatch(`${row.measured} ${row.core} ${row.reason}`, /undefined|NaN/);
    }
  }
  const md = renderTargets([{ label: "small", count: 570, m }], {
    m: { nproc: 2, cpu: "cpu", node: process.version, commit: "x", load: 0 }, seconds: 1, pageSize: PAGE_SIZE, reps: 1, readerPages: 3, latencyMs: 0, loadEnd: 0, quick: true,
  });
  assert.match(md, /\| time to page 1 ≤ the core's \| `displayName` \|/);
  assert.doesNotMatch(md, /undefined|NaN/);
});
