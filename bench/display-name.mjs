#!/usr/bin/env node
// `node bench/display-name.mjs [--no-write]` (run by hand, like `network.mjs --first-page`):
// issue 24's figures, `sort: "displayName"` on the real-service mode (server/real/: helm on
// PostgreSQL under en_US.UTF-8, kapp_controller on etcd by offsets, fluxv2 as its plugin pages,
// 20 ms per answer; the real data of ../shared/data), page size 20. For each sort (plain
// `displayName`, and `displayName` under `collation: { locale: "root" }` from the collation entry)
// and chunk limits 20, 50 and 500 it pages to the end twice: *before* (every source read whole
// before page 1, as until issue 24: the helm source declared `order: "none"`, which is exactly
// that read) and *after* (the zero-config sources: helm streams while its answers agree). It
// counts HTTP requests and response bytes (bodies, uncompressed) to page 1 and to the end, which
// sources streamed, switches and late items, and what was shown twice or missed against the
// stores. Writes its table between the display-name markers of BENCHMARKS.md (its own section,
// "displayName"). Needs pkg/ and pkg/collation/ built. Kept apart from network.mjs on purpose.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { startServices } from "../server/real/services.mjs";
import { startRealServer } from "../server/real/server.mjs";
import { replaceBetween } from "./lib/report.mjs";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const args = new Set(process.argv.slice(2));
for (const a of args) if (a !== "--no-write") throw new Error(`unknown option ${a}`);
const LATENCY_MS = 20;
const PAGE_SIZE = 20;
const BEGIN = "<!-- display-name:begin -->";
const END = "<!-- display-name:end -->";
const started = Date.now();
const log = (m) => process.stderr.write(`[display-name ${((Date.now() - started) / 1000).toFixed(0).padStart(3)} s] ${m}\n`);
const nativeFetch = globalThis.fetch;

/** fetch that counts requests and body bytes. */
function counting() {
  const c = { requests: 0, bytes: 0 };
  c.fetch = async (url, init) => {
    c.requests += 1;
    const res = await nativeFetch(url, init);
    const text = await res.text();
    c.bytes += Buffer.byteLength(text);
    return new Response(text, { status: res.status, headers: res.headers });
  };
  return c;
}

const identity = (s) => {
  const r = s.availablePackageRef;
  return `${r.plugin.name}/${r.context.cluster}/${r.context.namespace}/${r.identifier}`;
};
const shortSource = (s) => s.replace(/\.packages\//, "/").replace("/default/", "/").replace("kapp_controller", "kapp");

async function sources(server, before) {
  const cfg = await (await nativeFetch(`${server.url}demo/config`)).json();
  // Zero-config sources (each plugin's default kind), as a dashboard declares them.
  return cfg.plugins.flatMap((p) => Object.keys(p.namespaces).sort().map((namespace) => ({
    plugin: p.name, cluster: "default", namespace,
    ...(before && p.name === "helm.packages" ? { order: "none" } : {}),
  })));
}

/** A generated helm catalog of `n` charts in one namespace's two repositories: more than `maxSourceItems` (10,000) when n is. */
function generatedRecords(n) {
  const words = ["nginx", "redis", "mysql", "kafka", "grafana", "prom", "vault", "consul", "etcd", "mongo", "spark", "flink", "minio", "harbor", "argo"];
  const records = [];
  for (let i = 0; i < n; i++) {
    const repo = i % 2 ? "bitnami" : "community";
    const name = `${words[(i * 7) % words.length]}-${words[(i * 11 + 3) % words.length]}-${i.toString(36)}`;
    records.push({
      plugin: "helm.packages", cluster: "default", namespace: "kubeapps", repo, name,
      identifier: `${repo}/${name}`, displayName: name, shortDescription: `${name} chart`, categories: ["Database"],
      latestVersion: { pkgVersion: "1.0.0", appVersion: "1.0" },
    });
  }
  return records;
}

async function scrollOrError(server, mod, opts) {
  try {
    return await scroll(server, mod, opts);
  } catch (e) {
    if (!e?.code) throw e;
    return { error: e.code };
  }
}

async function scroll(server, mod, { chunkLimit, before, extra }) {
  const c = counting();
  globalThis.fetch = c.fetch;
  const pager = new mod.Pager({ sources: await sources(server, before), pageSize: PAGE_SIZE, chunkLimit, sort: "displayName", ...extra });
  const fetchChunk = mod.kubeappsFetcher({ baseUrl: `${server.url}apis` });
  const shown = [];
  let first = null;
  let pages = 0;
  const per = new Map();
  try {
    for (;;) {
      const page = await pager.nextPage(fetchChunk);
      pages += 1;
      first ??= { requests: c.requests, bytes: c.bytes };
      for (const it of page.items) shown.push(identity(it));
      page.stats.sources.forEach((s) => {
        const p = per.get(s.source) ?? { streamed: s.streamed, switches: 0, late: 0 };
        p.switches += s.wholeReadSwitches;
        p.late += s.lateItems;
        per.set(s.source, p);
      });
      if (page.done) break;
    }
  } finally {
    pager.free();
    globalThis.fetch = nativeFetch;
  }
  return { first, end: { requests: c.requests, bytes: c.bytes }, pages, shown, per };
}

function tally(r, truth) {
  if (r.error) return r;
  const seen = new Set();
  let twice = 0;
  for (const id of r.shown) {
    if (seen.has(id)) twice += 1;
    seen.add(id);
  }
  return { ...r, twice, missed: truth.filter((id) => !seen.has(id)).length };
}

const kb = (b) => `${(b / 1024).toLocaleString("en-US", { maximumFractionDigits: 0 })} KiB`;

function render(rows, count, seconds) {
  let commit = "unknown";
  try {
    commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: REPO, encoding: "utf8" }).trim();
  } catch {}
  const cpu = /model name\s*:\s*(.*)/.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? os.cpus()[0]?.model;
  const date = new Date().toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC");
  let s = "### `sort: \"displayName\"` on the real-service mode, before and after issue 24\n\n";
  s += `\`node bench/display-name.mjs\`: ${date}, ${os.availableParallelism?.() ?? os.cpus().length} cores, ${cpu}, Node ${process.version}, commit ${commit}, ` +
    `load average ${os.loadavg()[0].toFixed(2)} at the start, ${seconds.toFixed(0)} s. helm on PostgreSQL under en_US.UTF-8 (or \`C\`, byte order, where the catalog says), kapp_controller on etcd ` +
    `by offsets, fluxv2 as its plugin pages, ${LATENCY_MS} ms per answer; the real data (${count} packages for a user in \`team-a\`) and a generated ` +
    "catalog of 12,000 helm charts in one namespace (over `maxSourceItems`, 10,000: it cannot be read whole), " +
    `page size ${PAGE_SIZE}, zero-config sources. *Before*: every source read whole before page 1, as until issue 24 (helm declared ` +
    "`order: \"none\"`, which is that read); *after*: helm streams while its answers agree with the display-name order. " +
    "Bytes: response bodies, uncompressed. Twice / missed: against the stores.\n\n";
  s += "| catalog | sort | chunk limit | | page 1: requests | page 1: bytes | to the end: requests | to the end: bytes | pages | twice | missed | sources |\n|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|\n";
  for (const r of rows) {
    if (r.error) {
      s += `| ${r.catalog} | ${r.sort} | ${r.chunkLimit} | ${r.before ? "before" : "after"} | \`${r.error}\` | | | | | | | a source over maxSourceItems: no page |\n`;
      continue;
    }
    const src = [...r.per].map(([k, v]) => `${shortSource(k)} ${v.streamed || v.switches ? "streamed" : "whole"}${v.switches ? ` (switched ${v.switches}${v.late ? `, ${v.late} late` : ""})` : ""}`).join("; ");
    s += `| ${r.catalog} | ${r.sort} | ${r.chunkLimit} | ${r.before ? "before" : "after"} | ${r.first.requests} | ${kb(r.first.bytes)} | ${r.end.requests} | ${kb(r.end.bytes)} | ${r.pages} | ${r.twice} | ${r.missed} | ${src} |\n`;
  }
  return s;
}

async function main() {
  const pkgMod = require("../pkg/nodejs/index.js");
  const collationMod = require("../pkg/collation/nodejs/index.js");
  const data = path.resolve(REPO, "../shared/data");
  if (!existsSync(path.join(data, "bitnami/index.yaml"))) throw new Error("needs the real data: ../shared/data is missing");
  const services = await startServices();
  const rows = [];
  let count = 0;
  const plain = ["`displayName`", pkgMod, {}];
  const collated = ["`displayName`, `collation: { locale: \"root\" }`", collationMod, { collation: { locale: "root" } }];
  // (catalog label, server options, [sort], chunk limits)
  const runs = [
    ["real, en_US.UTF-8", { dataDir: data }, [plain, collated], [20, 50, 500]],
    ["real, C", { dataDir: data, collation: "C" }, [plain], [20, 500]],
    ["12,000 generated, en_US.UTF-8", { records: generatedRecords(12_000) }, [plain, collated], [500]],
  ];
  try {
    for (const [catalog, serverOptions, sorts, chunks] of runs) {
      log(`${catalog}: loading`);
      const server = await startRealServer({ port: 0, services, latencyMs: LATENCY_MS, ...serverOptions });
      try {
        await nativeFetch(`${server.url}demo/behaviour`, { method: "POST", body: JSON.stringify({ plugin: "kapp_controller", behaviour: "kubeapps-offset" }) });
        const truth = (await server.app.truth(new URLSearchParams())).identities;
        if (serverOptions.dataDir && !serverOptions.collation) count = truth.length;
        for (const [sort, mod, extra] of sorts) {
          for (const chunkLimit of chunks) {
            for (const before of [true, false]) {
              log(`${catalog}: ${sort}, chunk ${chunkLimit}, ${before ? "before" : "after"}`);
              rows.push({ catalog: `${catalog} (${truth.length.toLocaleString("en-US")})`, sort, chunkLimit, before, ...tally(await scrollOrError(server, mod, { chunkLimit, before, extra }), truth) });
            }
          }
        }
      } finally {
        await server.close();
      }
    }
  } finally {
    await services.stop();
  }
  const text = render(rows, count, (Date.now() - started) / 1000);
  process.stdout.write(`${text}\n`);
  if (!args.has("--no-write")) {
    const file = path.join(REPO, "BENCHMARKS.md");
    const old = readFileSync(file, "utf8");
    const next = replaceBetween(old, BEGIN, END, text, (doc, block) => `${doc.replace(/\n*$/, "\n\n")}## displayName\n\n${block}`);
    writeFileSync(file, next);
    log("written to BENCHMARKS.md (displayName)");
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
