#!/usr/bin/env node
// `node bench/network.mjs [--quick] [--no-write] [--first-page | --targets]` (run by `npm run bench` after the browser
// benchmarks): the network cost of paging, on the real backends (server/real/: helm on
// PostgreSQL, kapp_controller on etcd, fluxv2 as its plugin pages), with a fixed latency added
// to every /apis/ answer in the server (20 ms). For each catalog — the real data
// (../shared/data) and a generated 20,000-chart one — and each client — kubeapps-pager over the
// plugins (chunk limits 500 and 50) and today's Kubeapps core path (one request per page, token
// `{"plugin": offset}`) — it scrolls the whole list page by page (page size 20, no think time)
// and counts: HTTP requests, response bytes (bodies as received, uncompressed), time to the
// first page, time to the end, and what was shown twice or missed against the stores. Writes
// the table between the network markers of BENCHMARKS.md.
//
// `--first-page` (run by hand, not by `npm run bench`): the real data only, and only the first
// pages (page size 20): HTTP requests and response bytes for page 1 and for pages 1–3 together,
// for today's core path, kubeapps-pager (`sort: "name"`, the plain entry) and
// kubeapps-pager/collation (`sort: "name"`, `collation: { locale: "root" }`, the natural order),
// each pager with chunk limits 7 (about the page size over the 3 sources), 20, 50 and 500, and
// which sources streamed (page.stats.sources[i].streamed, wholeReadSwitches). Writes its table between the first-page
// markers of BENCHMARKS.md (section "Collation"). Needs pkg/ and pkg/collation/ built.
//
// `--targets` (run by hand, not by `npm run bench`; with `--quick`: the 5,000-chart catalog, 3
// repetitions, 10 reader pages): issue 24's targets (bench/lib/targets.mjs), on the real data and
// the generated catalog, `sort: "name"` and `sort: "displayName"`, side by side with the core path
// in one run: page 1's requests (one per source) and bytes (≤ 1.1× the least, measured in the run),
// time to page 1 against the core's, the next page at a reader's pace with `nextPage`'s `prefetch`
// (a page every 500 ms, 50 pages: ≤ 5 ms for 45 of them; "not available" in a build without it),
// and a reload from the page token at pages 5 and 25 against the core's offset token. Prints a
// table with each target, the figure, met or not and the measured reason, and writes it between
// the targets markers of BENCHMARKS.md (after the network section). Needs pkg/ built.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { startServices } from "../server/real/services.mjs";
import { startRealServer } from "../server/real/server.mjs";
import { mulberry32, pick } from "../server/rng.mjs";
import { measureTargets, renderTargets } from "./lib/targets.mjs";
import { replaceBetween } from "./lib/report.mjs";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const args = new Set(process.argv.slice(2));
for (const a of args) if (!["--quick", "--no-write", "--first-page", "--targets"].includes(a)) throw new Error(`unknown option ${a}`);
const QUICK = args.has("--quick");
const FIRST_PAGE = args.has("--first-page");
const TARGETS = args.has("--targets");
if (FIRST_PAGE && TARGETS) throw new Error("--first-page and --targets are separate runs: give one");
const LATENCY_MS = 20;
const PAGE_SIZE = 20;
const GENERATED = QUICK ? 5_000 : 20_000;
const BEGIN = "<!-- network:begin -->";
const END = "<!-- network:end -->";
const started = Date.now();
const log = (m) => process.stderr.write(`[network ${((Date.now() - started) / 1000).toFixed(0).padStart(3)} s] ${m}\n`);

/** A generated helm catalog of `n` charts in 4 global repositories (~5% of names in two of them). */
function generatedRecords(n) {
  const rand = mulberry32(20_000);
  const words = ["nginx", "redis", "mysql", "kafka", "grafana", "prom", "vault", "consul", "etcd", "mongo", "spark", "flink", "minio", "harbor", "argo", "tekton", "istio", "linkerd", "jaeger", "loki"];
  const repos = ["bitnami", "community", "internal", "mirror"];
  const cats = ["Database", "Analytics", "Monitoring", "Networking", "Security", "CI/CD", ""];
  const records = [];
  const names = [];
  for (let i = 0; i < n; i++) {
    const repo = repos[i % repos.length];
    const name = i > 20 && rand() < 0.05 ? pick(rand, names) : `${pick(rand, words)}-${pick(rand, words)}-${i.toString(36)}`;
    names.push(name);
    records.push({
      plugin: "helm.packages", cluster: "default", namespace: "kubeapps", repo, name,
      identifier: `${repo}/${name}`, displayName: name, shortDescription: `${name} chart`, categories: [pick(rand, cats)],
      latestVersion: { pkgVersion: `1.${i % 10}.0`, appVersion: "1.0" },
    });
  }
  // One row per chart per repository: a name drawn twice in one repository keeps the first.
  const seen = new Set();
  return records.filter((r) => !seen.has(r.identifier) && seen.add(r.identifier));
}

const nativeFetch = globalThis.fetch;

/** Which plugin a request went to (the URL's path), for the per-plugin bytes. */
const pluginOf = (url) => /\/(core|helm|kapp_controller|fluxv2)\//.exec(String(url))?.[1] ?? "other";

/** fetch that counts requests, body bytes and items, in all and per plugin. */
function counting() {
  const c = { requests: 0, bytes: 0, items: 0, byPlugin: {} };
  c.fetch = async (url, init) => {
    c.requests += 1;
    const res = await nativeFetch(url, init);
    const text = await res.text();
    const bytes = Buffer.byteLength(text);
    c.bytes += bytes;
    // Per plugin too (each request's own body: for the first page's split by plugin).
    const b = (c.byPlugin[pluginOf(url)] ??= { requests: 0, bytes: 0 });
    b.requests += 1;
    b.bytes += bytes;
    try {
      const body = JSON.parse(text);
      c.items += (body.availablePackageSummaries ?? body.items ?? []).length;
    } catch {
      // not JSON: counted as bytes only
    }
    return new Response(text, { status: res.status, headers: res.headers });
  };
  return c;
}

const identity = (s) => {
  const r = s.availablePackageRef;
  return `${r.plugin.name}/${r.context.cluster}/${r.context.namespace}/${r.identifier}`;
};

/** The pager's sources: one per plugin and namespace the server has, of the plugin's behaviour. */
async function pagerSources(server) {
  const cfg = await (await fetch(`${server.url}demo/config`)).json();
  const KIND = { kubernetes: "kubernetes", "kubeapps-offset": "kubeapps", unordered: "unordered" };
  return cfg.plugins.flatMap((p) => Object.keys(p.namespaces).sort().map((namespace) => ({
    plugin: p.name, cluster: "default", namespace, kind: KIND[p.behaviour],
  })));
}

async function runPager(server, pkgMod, chunkLimit) {
  const sources = await pagerSources(server);
  const c = counting();
  globalThis.fetch = c.fetch; // the package's fetcher calls the global fetch
  const pager = new pkgMod.Pager({ sources, pageSize: PAGE_SIZE, chunkLimit });
  const fetchChunk = pkgMod.kubeappsFetcher({ baseUrl: `${server.url}apis` });
  const shown = [];
  const t0 = performance.now();
  let first = null;
  let pages = 0;
  try {
    for (;;) {
      const page = await pager.nextPage(fetchChunk);
      pages += 1;
      first ??= performance.now() - t0;
      for (const it of page.items) shown.push(identity(it));
      if (page.done) break;
    }
  } finally {
    pager.free();
    globalThis.fetch = nativeFetch;
  }
  return { requests: c.requests, bytes: c.bytes, items: c.items, firstMs: first, endMs: performance.now() - t0, pages, shown, ended: true };
}

async function runCore(server, expected) {
  const c = counting();
  const shown = [];
  const t0 = performance.now();
  let first = null;
  let token = "";
  let pages = 0;
  let ended = false;
  const cap = Math.ceil((expected * 3) / PAGE_SIZE) + 10; // today's path can loop on its token
  while (pages < cap) {
    const u = new URL(`${server.url}apis/core/packages/v1alpha1/availablepackages`);
    u.searchParams.set("paginationOptions.pageSize", String(PAGE_SIZE));
    if (token) u.searchParams.set("paginationOptions.pageToken", token);
    const res = await c.fetch(u);
    const body = await res.json();
    if (!res.ok) throw new Error(`core: HTTP ${res.status}: ${body.message}`);
    pages += 1;
    first ??= performance.now() - t0;
    for (const s of body.availablePackageSummaries ?? []) shown.push(identity(s));
    token = body.nextPageToken ?? "";
    if (!token) {
      ended = true;
      break;
    }
  }
  return { requests: c.requests, bytes: c.bytes, items: c.items, firstMs: first, endMs: performance.now() - t0, pages, shown, ended };
}

function tally(r, truth) {
  const seen = new Set();
  let twice = 0;
  for (const id of r.shown) {
    if (seen.has(id)) twice += 1;
    seen.add(id);
  }
  return { ...r, twice, missed: truth.filter((id) => !seen.has(id)).length, distinct: seen.size };
}

async function measure(label, serverOptions, services, pkgMod) {
  log(`${label}: loading`);
  // No Cluster view pods (clusterPods: 0): nothing here reads them, and loading them takes time.
  const server = await startRealServer({ port: 0, services, latencyMs: LATENCY_MS, clusterPods: 0, ...serverOptions });
  try {
    // kapp_controller with its plugin's own paging on both sides (the core reads it so).
    await fetch(`${server.url}demo/behaviour`, { method: "POST", body: JSON.stringify({ plugin: "kapp_controller", behaviour: "kubeapps-offset" }) });
    const truth = (await server.app.truth(new URLSearchParams())).identities;
    const rows = [];
    for (const chunkLimit of [500, 50]) {
      // Since issue 11 the pager streams a source whose order is not bytes (helm under
      // en_US.UTF-8) and switches it to a whole read where an answer shows it: any error here is
      // a broken pager and fails the run (no retry with the source read whole, as before).
      log(`${label}: kubeapps-pager, chunk limit ${chunkLimit}`);
      rows.push({ client: `kubeapps-pager (chunk ${chunkLimit})`, ...tally(await runPager(server, pkgMod, chunkLimit), truth) });
    }
    log(`${label}: today's core path`);
    rows.push({ client: "Kubeapps core today", ...tally(await runCore(server, truth.length), truth) });
    return { label, count: truth.length, rows };
  } finally {
    await server.close();
  }
}

// --- `--first-page`: the first pages only, on the real data ---------------------------------

const FIRST_PAGES = 3;
const FIRST_BEGIN = "<!-- first-page:begin -->";
const FIRST_END = "<!-- first-page:end -->";


const snap = (c) => ({ requests: c.requests, bytes: c.bytes, items: c.items, byPlugin: structuredClone(c.byPlugin) });

/** `helm.packages/default/team-a` → `helm/team-a`. */
const shortSource = (s) => s.replace(/\.packages\//, "/").replace("/default/", "/").replace("kapp_controller", "kapp");

/** The first FIRST_PAGES pages through the pager: counters after page 1 and after the last. */
async function firstPagesPager(server, pkgMod, chunkLimit, extra) {
  const sources = await pagerSources(server);
  const c = counting();
  globalThis.fetch = c.fetch;
  const pager = new pkgMod.Pager({ sources, pageSize: PAGE_SIZE, chunkLimit, sort: "name", ...extra });
  const fetchChunk = pkgMod.kubeappsFetcher({ baseUrl: `${server.url}apis` });
  const after = [];
  try {
    for (let i = 0; i < FIRST_PAGES; i++) {
      const page = await pager.nextPage(fetchChunk);
      after.push({
        ...snap(c),
        shown: page.items.length,
        sources: page.stats.sources.map((s) => ({ source: shortSource(s.source), streamed: s.streamed, switches: s.wholeReadSwitches, late: s.lateItems, requests: s.requests, scanned: s.itemsScanned })),
        names: page.items.map((it) => it.name ?? it.metadata?.name),
      });
      if (page.done) break;
    }
  } finally {
    pager.free();
    globalThis.fetch = nativeFetch;
  }
  return after;
}

/** The first FIRST_PAGES pages through today's core path (one request per page). */
async function firstPagesCore(server) {
  const c = counting();
  const after = [];
  let token = "";
  for (let i = 0; i < FIRST_PAGES; i++) {
    const u = new URL(`${server.url}apis/core/packages/v1alpha1/availablepackages`);
    u.searchParams.set("paginationOptions.pageSize", String(PAGE_SIZE));
    if (token) u.searchParams.set("paginationOptions.pageToken", token);
    const res = await c.fetch(u);
    const body = await res.json();
    if (!res.ok) throw new Error(`core: HTTP ${res.status}: ${body.message}`);
    after.push({ ...snap(c), shown: (body.availablePackageSummaries ?? []).length, sources: null, names: (body.availablePackageSummaries ?? []).map((s) => s.name) });
    token = body.nextPageToken ?? "";
    if (!token) break;
  }
  return after;
}

async function measureFirstPages(data, services, pkgMod, collationMod) {
  log("first pages: loading the real data");
  const server = await startRealServer({ port: 0, services, latencyMs: LATENCY_MS, dataDir: data, clusterPods: 0 });
  try {
    await fetch(`${server.url}demo/behaviour`, { method: "POST", body: JSON.stringify({ plugin: "kapp_controller", behaviour: "kubeapps-offset" }) });
    const count = (await server.app.truth(new URLSearchParams())).identities.length;
    const rows = [];
    log("first pages: today's core path");
    rows.push({ client: "Kubeapps core today", chunk: "–", after: await firstPagesCore(server) });
    for (const [client, mod, extra] of [
      ["kubeapps-pager, `sort: \"name\"` (bytes)", pkgMod, {}],
      ["kubeapps-pager/collation, `sort: \"name\"`, `collation: { locale: \"root\" }`", collationMod, { collation: { locale: "root" } }],
    ]) {
      for (const chunkLimit of [7, 20, 50, 500]) {
        log(`first pages: ${client}, chunk limit ${chunkLimit}`);
        rows.push({ client, chunk: String(chunkLimit), after: await firstPagesPager(server, mod, chunkLimit, extra) });
      }
    }
    return { count, rows };
  } finally {
    await server.close();
  }
}

function renderFirst({ count, rows }, m, seconds) {
  const date = new Date().toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC");
  const plugins = (a) => Object.entries(a.byPlugin).sort().map(([p, b]) => `${p} ${b.requests} / ${kb(b.bytes)}`).join(", ");
  // page.stats counts per page: switches and late items are summed over the pages read.
  const streams = (after) => (after[0].sources === null ? "– (the core merges in the server)"
    : after[after.length - 1].sources.map((s, i) => {
      const switches = after.reduce((n, a) => n + a.sources[i].switches, 0);
      const late = after.reduce((n, a) => n + a.sources[i].late, 0);
      return `${s.source} ${s.streamed ? "streamed" : "whole"}${switches ? ` (switched ${switches})` : ""}${late ? `, ${late} late` : ""}`;
    }).join("; "));
  let s = "### First page on the real-service mode\n\n";
  s += `\`node bench/network.mjs --first-page\`: ${date}, ${m.nproc} cores, ${m.cpu}, Node ${m.node}, commit ${m.commit}, ` +
    `load average ${m.load.toFixed(2)} at the start, ${seconds.toFixed(0)} s. Same backends as "Network (real backends)" ` +
    `(helm on PostgreSQL under en_US.UTF-8, kapp_controller on etcd by offsets, fluxv2 as its plugin pages, ${LATENCY_MS} ms per answer), ` +
    `the real data only (${count} packages for a user in \`team-a\`), page size ${PAGE_SIZE}; requests and bytes (response bodies, ` +
    `uncompressed) as the client sees them: the core's one request per page hides the plugin reads it makes in the server.\n\n`;
  s += "| client | chunk limit | page 1: requests | page 1: bytes | pages 1–3: requests | pages 1–3: bytes | page 1 by plugin (requests / bytes) | sources after page 3 |\n|---|---:|---:|---:|---:|---:|---|---|\n";
  for (const r of rows) {
    const p1 = r.after[0];
    const p3 = r.after[r.after.length - 1];
    s += `| ${r.client} | ${r.chunk} | ${p1.requests} | ${kb(p1.bytes)} | ${p3.requests} | ${kb(p3.bytes)} | ${plugins(p1)} | ${streams(r.after)} |\n`;
  }
  return s;
}

function machine() {
  let commit = "unknown";
  try {
    commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: REPO, encoding: "utf8" }).trim();
  } catch {}
  const cpu = /model name\s*:\s*(.*)/.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? os.cpus()[0]?.model;
  return { commit, cpu, nproc: os.availableParallelism?.() ?? os.cpus().length, node: process.version, load: os.loadavg()[0] };
}

const ms = (x) => (x === null ? "–" : `${Math.round(x).toLocaleString("en-US")} ms`);
const kb = (b) => `${(b / 1024).toLocaleString("en-US", { maximumFractionDigits: 0 })} KiB`;

function render(results, m, seconds) {
  const date = new Date().toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC");
  let s = "## Network (real backends)\n\n";
  s += `\`npm run bench${QUICK ? " -- --quick" : ""}\` (\`bench/network.mjs\`): ${date}, ${m.nproc} cores, ${m.cpu}, Node ${m.node}, commit ${m.commit}, ` +
    `load average ${m.load.toFixed(2)} at the start; ${QUICK ? "**quick mode** (a 5,000-chart generated catalog)" : "full run"}, ${seconds.toFixed(0)} s.\n\n`;
  s += `Backends: \`node server/main.mjs --backend real --latency-ms ${LATENCY_MS}\` in-process: helm.packages on PostgreSQL (en_US.UTF-8), ` +
    "kapp_controller on etcd (offsets, as its plugin pages, on both sides), fluxv2 as its plugin pages; every `/apis/` answer delayed " +
    `${LATENCY_MS} ms in the server. A client scrolls the whole list, page size ${PAGE_SIZE}, pages back to back over loopback HTTP/1.1 ` +
    "(Node's fetch: up to several connections, so the pager's parallel chunk requests overlap). Bytes = response bodies as received " +
    "(JSON, no compression). Twice / missed = against the stores at the end (no writes during the runs). " +
    `Catalogs: the real data (../shared/data: Bitnami and k8s-at-home global, Bitnami also in \`team-a\`; TCE's Carvel packages; ` +
    `Bitnami again for fluxv2) and a generated one of ${GENERATED.toLocaleString("en-US")} helm charts in 4 global repositories ` +
    "(5% of names drawn twice), the first repository also synced into `team-a`: the count is what a user in `team-a` reads.\n\n";
  s += "| catalog | client | requests | items received | bytes | first page | to the end | pages | twice | missed |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const r of results) {
    for (const row of r.rows) {
      s += `| ${r.label} (${r.count.toLocaleString("en-US")}) | ${row.client} | ${row.requests.toLocaleString("en-US")} | ${row.items.toLocaleString("en-US")} | ${kb(row.bytes)} | ${ms(row.firstMs)} | ` +
        `${row.ended ? ms(row.endMs) : `no end (${ms(row.endMs)}, stopped)`} | ${row.pages} | ${row.twice} | ${row.missed} |\n`;
    }
  }
  const explain = path.join(REPO, "bench/NETWORK.md");
  if (existsSync(explain)) s += "\n" + readFileSync(explain, "utf8").trim() + "\n";
  return s;
}

async function mainFirstPage() {
  const pkgMod = require("../pkg/nodejs/index.js");
  const collationMod = require("../pkg/collation/nodejs/index.js");
  const m = machine();
  const data = path.resolve(REPO, "../shared/data");
  if (!existsSync(path.join(data, "bitnami/index.yaml"))) throw new Error("--first-page measures the real data: ../shared/data is missing");
  const services = await startServices();
  let result;
  try {
    result = await measureFirstPages(data, services, pkgMod, collationMod);
  } finally {
    await services.stop();
  }
  const text = renderFirst(result, m, (Date.now() - started) / 1000);
  process.stdout.write(`${text}\n`);
  for (const r of result.rows) {
    log(`${r.client} chunk ${r.chunk}: page 1 = ${r.after[0].names.join(" ")}`);
    r.after.forEach((a, i) => log(`  after page ${i + 1}: ${a.requests} requests, ${a.items} items received, ${JSON.stringify(a.byPlugin)}, sources ${JSON.stringify(a.sources)}`));
  }
  if (!args.has("--no-write")) {
    const file = path.join(REPO, "BENCHMARKS.md");
    const old = readFileSync(file, "utf8");
    // Where new: at the end of the "Collation" section, before the next level-2 heading after it.
    const next = replaceBetween(old, FIRST_BEGIN, FIRST_END, text, (doc, block) => {
      const section = doc.indexOf("\n## Collation");
      const at = section < 0 ? -1 : doc.indexOf("\n## ", section + 1);
      if (at < 0) throw new Error("BENCHMARKS.md has no \"Collation\" section followed by another");
      return `${doc.slice(0, at + 1)}${block}\n${doc.slice(at + 1)}`;
    });
    writeFileSync(file, next);
    log("written to BENCHMARKS.md (Collation: First page on the real-service mode)");
  }
}

// --- `--targets`: issue 24's targets (bench/lib/targets.mjs) --------------------------------

const TARGETS_BEGIN = "<!-- targets:begin -->";
const TARGETS_END = "<!-- targets:end -->";

async function mainTargets() {
  const pkgMod = require("../pkg/nodejs/index.js");
  const m = machine();
  const data = path.resolve(REPO, "../shared/data");
  const catalogs = [];
  if (existsSync(path.join(data, "bitnami/index.yaml"))) catalogs.push({ label: "real data", serverOptions: { dataDir: data } });
  else log("../shared/data is missing: the real-data rows are skipped");
  catalogs.push({ label: `generated (${GENERATED.toLocaleString("en-US")} charts)`, serverOptions: { records: generatedRecords(GENERATED) } });
  const reps = QUICK ? 3 : 5;
  const readerPages = QUICK ? 10 : 50;
  const services = await startServices();
  const results = [];
  try {
    for (const c of catalogs) {
      log(`targets: ${c.label}: loading`);
      // No Cluster view pods (clusterPods: 0): nothing here reads them, and loading them takes time.
      const server = await startRealServer({ port: 0, services, latencyMs: LATENCY_MS, clusterPods: 0, ...c.serverOptions });
      try {
        // kapp_controller with its plugin's own paging on both sides (the core reads it so).
        await fetch(`${server.url}demo/behaviour`, { method: "POST", body: JSON.stringify({ plugin: "kapp_controller", behaviour: "kubeapps-offset" }) });
        const count = (await server.app.truth(new URLSearchParams())).identities.length;
        const sources = await pagerSources(server);
        const measured = await measureTargets({ server, pkgMod, sources, pageSize: PAGE_SIZE, reps, readerPages, log: (s) => log(`${c.label}: ${s}`) });
        results.push({ label: c.label, count, m: measured });
      } finally {
        await server.close();
      }
    }
  } finally {
    await services.stop();
  }
  const text = renderTargets(results, {
    m, seconds: (Date.now() - started) / 1000, pageSize: PAGE_SIZE, reps, readerPages, latencyMs: LATENCY_MS, loadEnd: os.loadavg()[0], quick: QUICK,
  });
  process.stdout.write(`${text}\n`);
  if (!args.has("--no-write")) {
    // After the network section (its own markers): "Network (real backends)", then this.
    const file = path.join(REPO, "BENCHMARKS.md");
    const old = readFileSync(file, "utf8");
    const next = replaceBetween(old, TARGETS_BEGIN, TARGETS_END, text, (doc, block) => {
      const at = doc.indexOf(END);
      if (at < 0) throw new Error(`BENCHMARKS.md has no ${END} marker to put the targets after`);
      const after = at + END.length + 1;
      return `${doc.slice(0, after)}\n${block}${doc.slice(after)}`;
    });
    writeFileSync(file, next);
    log("written to BENCHMARKS.md (Network: Targets)");
  }
}

async function main() {
  if (FIRST_PAGE) return mainFirstPage();
  if (TARGETS) return mainTargets();
  const pkgMod = require("../pkg/nodejs/index.js");
  const m = machine();
  const services = await startServices();
  const results = [];
  try {
    const data = path.resolve(REPO, "../shared/data");
    if (existsSync(path.join(data, "bitnami/index.yaml"))) results.push(await measure("real data", { dataDir: data }, services, pkgMod));
    else log("../shared/data is missing: the real-data rows are skipped");
    results.push(await measure("generated", { records: generatedRecords(GENERATED) }, services, pkgMod));
  } finally {
    await services.stop();
  }
  const text = render(results, m, (Date.now() - started) / 1000);
  process.stdout.write(`${text}\n`);
  if (!args.has("--no-write")) {
    const file = path.join(REPO, "BENCHMARKS.md");
    const old = readFileSync(file, "utf8");
    writeFileSync(file, replaceBetween(old, BEGIN, END, text));
    log("written to BENCHMARKS.md");
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
