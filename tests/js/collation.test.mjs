// Zero-config sources ({ plugin, cluster, namespace }) through the built package, over backends
// whose order is not the pager's byte order: the real Bitnami chart names sorted as PostgreSQL
// under glibc's en_US.UTF-8 sorts them (`kubeapps` before `kube-prometheus`), and a Go-map walk
// (fluxv2). Every chart once, nothing lost; the page says `reordered` and counts late items.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { pkg } from "./support/package.mjs";
import { summary, drivePage, identity } from "./support/backend.mjs";

const { Pager } = pkg;

// Beside the repository, as the README and CI have it.
const INDEX = fileURLToPath(new URL("../../../shared/data/bitnami/index.yaml", import.meta.url));
const present = existsSync(INDEX);

/**
 * glibc en_US's first level, which PostgreSQL's `ORDER BY name` follows under that locale:
 * punctuation (the hyphen) ignored, letters without case; byte order breaks what is left equal.
 * (Enough for chart names: lowercase ASCII letters, digits, hyphens.)
 */
function enUs(a, b) {
  const primary = (s) => s.replaceAll("-", "").toLowerCase();
  const [pa, pb] = [primary(a), primary(b)];
  if (pa !== pb) return pa < pb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A plugin paging by decimal offsets over `items` in `compare` order (`nextPageToken` on a full page). */
function collatedSource(items, compare) {
  const list = [...items].sort((a, b) => compare(a.name, b.name));
  let wholeReads = 0;
  return {
    list,
    /** Requests for the whole list at once (`maxSourceItems + 1`, the default 10,000 + 1). */
    get wholeReads() {
      return wholeReads;
    },
    answer(request) {
      if (request.limit === 10_001) wholeReads++;
      const offset = request.pageToken === "" ? 0 : Number(request.pageToken);
      const page = list.slice(offset, offset + request.limit);
      const next = offset + request.limit < list.length ? String(offset + request.limit) : "";
      return { availablePackageSummaries: page, nextPageToken: next };
    },
  };
}

/** A Go map walk: another order on every request (seeded). */
function mapSource(items, seed) {
  let s = seed;
  const rand = (n) => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s % n;
  };
  return {
    answer(request) {
      const list = [...items];
      for (let i = list.length - 1; i > 0; i--) {
        const j = rand(i + 1);
        [list[i], list[j]] = [list[j], list[i]];
      }
      const offset = request.pageToken === "" ? 0 : Number(request.pageToken);
      const page = list.slice(offset, offset + request.limit);
      const next = offset + request.limit < list.length ? String(offset + request.limit) : "";
      return { availablePackageSummaries: page, nextPageToken: next };
    },
  };
}

function bitnamiNames() {
  const index = parse(readFileSync(INDEX, "utf8"));
  return Object.keys(index.entries);
}

/** Byte order of the merge key for sort "name" (name, plugin, cluster, namespace, identifier). */
function keyOf(s) {
  const r = s.availablePackageRef;
  return [s.name, r.plugin.name, r.context.cluster, r.context.namespace, r.identifier].map((p) => Buffer.from(p, "utf8"));
}
function compareKeys(a, b) {
  for (let i = 0; i < a.length; i++) {
    const c = Buffer.compare(a[i], b[i]);
    if (c !== 0) return c;
  }
  return 0;
}

/**
 * Pages to the end (resuming from the token after page `resumeAfter`) and checks the order: an
 * item at or below the largest key shown before must be one its page counts as late.
 */
function pageAll(options, sources, resumeAfter) {
  let pager = new Pager(options);
  const shown = [];
  let late = 0;
  let reordered = false;
  let max = null;
  for (let i = 0; i < 1000; i++) {
    const page = drivePage(pager, sources);
    let below = 0;
    for (const item of page.items) {
      const key = keyOf(item);
      if (max && compareKeys(key, max) <= 0) below++;
      else max = key;
      shown.push(identity(item));
    }
    assert.ok(below <= page.stats.lateItems, `page ${i}: ${below} items out of order, ${page.stats.lateItems} reported late`);
    late += page.stats.lateItems;
    reordered ||= page.reordered;
    if (page.done) break;
    if (i === resumeAfter) {
      pager.free();
      pager = Pager.resume(page.nextPageToken, options);
    }
  }
  pager.free();
  return { shown, late, reordered };
}

test("the real Bitnami names in en_US order, zero-config: every chart once, late ones flagged", { skip: present ? false : `${INDEX} is absent` }, () => {
  const names = bitnamiNames();
  // The en_US order is not byte order here (the failing case).
  assert.ok(names.includes("kubeapps") && names.includes("kube-prometheus"));
  assert.ok(enUs("kubeapps", "kube-prometheus") < 0 && "kube-prometheus" < "kubeapps");
  const charts = names.map((n) => summary("helm.packages", n, { repo: "bitnami" }));
  const flux = ["podinfo", "grafana", "redis", "nginx"].map((n) => summary("fluxv2.packages", n, { repo: "podinfo" }));
  for (const [pageSize, chunkLimit, resumeAfter] of [[20, 20, -1], [7, 5, 3], [50, 100, 1]]) {
    const sources = [collatedSource(charts, enUs), mapSource(flux, pageSize)];
    const options = {
      sources: [
        { plugin: "helm.packages", cluster: "default", namespace: "kubeapps" },
        { plugin: "fluxv2.packages", cluster: "default", namespace: "kubeapps" },
      ],
      pageSize,
      chunkLimit,
    };
    const { shown, reordered } = pageAll(options, sources, resumeAfter);
    const want = [...charts, ...flux].map(identity).sort();
    assert.equal(new Set(shown).size, shown.length, `page ${pageSize}: nothing repeated`);
    assert.deepEqual([...shown].sort(), want, `page ${pageSize}: nothing lost`);
    assert.ok(reordered, "the helm source was found out of order");
    // One whole read of the switched source (a resume reads it whole again), not one per page.
    const most = resumeAfter >= 0 ? 2 : 1;
    assert.ok(sources[0].wholeReads >= 1 && sources[0].wholeReads <= most, `page ${pageSize}: ${sources[0].wholeReads} whole reads`);
  }
});
