// The public-path model test's world: generated runs (sources, options, the steps between pages)
// and the backends that answer them, with churn and failures, in the shapes the real services
// answer (kubeapps-apis REST through grpc-gateway, the apiserver's chunked LIST). The same world
// answers both transports: a plain `fetchChunk` (model-transports.mjs) and a local HTTP server
// that `kubeappsFetcher` and `kubernetesListFetcher` talk to. Deterministic for a seed.
//
// Sources (as tests/support/model.rs generates them for the Rust model test):
// - `offset`: a Kubeapps plugin on a database (helm.packages): decimal item offsets, no snapshot,
//   equal names (ties) in another order for every (offset, limit) when `pgTies`, sorted by bytes
//   or like glibc's en_US (`ci`: case and hyphens ignored first, a database collation); an offset
//   past the end answers an empty chunk; a full last chunk may still carry a next offset.
// - `kapp`: kapp_controller.packages: offsets over the names in byte order, 400 InvalidArgument
//   "Invalid pagination arguments" for an offset past the end of a non-empty list, nextPageToken
//   only on a full chunk (server/real/kapp.mjs).
// - `kubernetes`: an apiserver list: continue tokens (base64url JSON {v, rv, start}), every chunk
//   of a list from its resourceVersion's snapshot, 410 Expired once compacted (with or without an
//   inconsistent continue token), names unique. A few are broken as proxies and plugins break
//   them (issue 22): a continue token that cycles once (b → c → b: one answer hands back the
//   token of the request before it), or `continue` dropped (every continuation answers the first
//   chunk again).
// - `unordered`: fluxv2.packages: a Go map walk, another order on every request (read whole).
// Failures: a next request failing with 0 (no answer), 429, 500, 502, 503 or 504; a source down
// for good (403, 404, 501) until it is up again; a request that never settles until the call's
// signal aborts (a hang); a call aborted while its request is in flight.

import { mulberry32 } from "../../../server/rng.mjs";

export const PLUGINS = ["helm.packages", "fluxv2.packages", "kapp_controller.packages"];
const CLUSTERS = ["default", "prod"];
const NAMESPACES = ["kubeapps", "team-1", "team-2"];
const REPOS = ["repo-a", "repo-b", "x"];
const CATEGORIES = ["Database", "Monitoring", "Web"];
const DESCRIPTIONS = ["", "a database", "Web UI", "ÉB"];
/** Name characters: ASCII with a case pair, a hyphen, an accented letter, an astral one. */
const NAME_CHARS = ["a", "b", "B", "é", "-", "z", "😀"];
/** Query characters: lowercase ASCII only, so "case-insensitive" means one thing everywhere. */
const QUERY_CHARS = ["a", "b", "z"];
/** Statuses of a transient failure: a nextPage call may reject with these (and then goes on). */
export const TRANSIENT = [0, 429, 500, 502, 503, 504];
/** Statuses of a source down for good: it is set aside (`page.unreachable`), never a rejection. */
const FOR_GOOD = [403, 404, 501];

// ---------------------------------------------------------------------------------------------
// Order

const enc = new TextEncoder();
/** UTF-8 byte order of two strings (the pager's). */
export function bytesOrder(a, b) {
  if (a === b) return 0;
  return Buffer.compare(Buffer.from(enc.encode(a)), Buffer.from(enc.encode(b)));
}
/** glibc en_US-like: lowercased without hyphens first, then bytes (a database collation). */
function ciOrder(a, b) {
  return bytesOrder(a.toLowerCase().replace(/-/g, ""), b.toLowerCase().replace(/-/g, "")) || bytesOrder(a, b);
}

/**
 * The root collation's order (docs/DESIGN.md, "Collation": UCA with CLDR root, tertiary strength,
 * alternate shifted, no numeric ordering), as Node's ICU has it: for the names generated here it
 * orders exactly as the package's icu_collator (checked when this test was written: 200 random
 * sets of 12 names, no difference). `en` is the root order.
 */
const ROOT_COLLATION = new Intl.Collator("und", { sensitivity: "variant", ignorePunctuation: true, numeric: false });

/**
 * The merge key of a summary in a run's order (docs/DESIGN.md, "One total order"): strings
 * compared as UTF-8 bytes, but for a collated run's first component (`collated`), compared by the
 * collation.
 */
export function keyOf(s, run) {
  const r = s.availablePackageRef;
  const rest = [r.plugin.name, r.context.cluster, r.context.namespace, r.identifier];
  const field = run.sort === "displayName" ? s.displayName || s.name : s.name;
  if (run.collation) return { collated: true, parts: [field, field, ...rest] };
  if (run.sort === "displayName") return { collated: false, parts: [field.toLowerCase(), field, ...rest] };
  return { collated: false, parts: [field, ...rest] };
}
export function compareKeys(a, b) {
  for (let i = 0; i < a.parts.length; i++) {
    const d = i === 0 && a.collated ? ROOT_COLLATION.compare(a.parts[0], b.parts[0]) : bytesOrder(a.parts[i], b.parts[i]);
    if (d !== 0) return d;
  }
  return 0;
}

/** plugin/cluster/namespace/identifier. */
export function identity(s) {
  const r = s.availablePackageRef;
  return `${r.plugin.name}/${r.context.cluster}/${r.context.namespace}/${r.identifier}`;
}

// ---------------------------------------------------------------------------------------------
// Filter: FilterOptions' rules (src/filter.rs), which the simulated plugins apply too.

export function matches(filter, s) {
  const r = s.availablePackageRef;
  if (filter.plugins?.length && !filter.plugins.includes(r.plugin.name)) return false;
  const slash = r.identifier.indexOf("/");
  const repo = slash < 0 ? r.identifier : r.identifier.slice(0, slash);
  if (filter.repositories?.length && !filter.repositories.includes(repo)) return false;
  if (filter.categories?.length && !(s.categories ?? []).some((c) => filter.categories.includes(c))) return false;
  const q = (filter.query ?? "").trim().toLowerCase();
  if (q) {
    const fields = [s.name, s.displayName, s.shortDescription, r.identifier];
    if (!fields.some((f) => typeof f === "string" && f.toLowerCase().includes(q))) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Generation

/** A generated run for `seed`: sources, options, steps. Plain data (printed on failure). */
export function generate(seed) {
  const rnd = mulberry32(seed);
  const int = (n) => Math.floor(rnd() * n);
  const pick = (a) => a[int(a.length)];
  const chance = (p) => rnd() < p;
  const name = (min) => {
    let s = "";
    for (let k = 0, n = min + int(4 - min); k < n; k++) s += pick(NAME_CHARS);
    return s;
  };
  const item = (minName) => ({
    name: name(minName),
    display: chance(0.6) ? "" : name(1),
    repo: int(REPOS.length),
    cats: int(8),
    desc: int(DESCRIPTIONS.length),
  });
  const used = new Set();
  const sources = [];
  for (let i = 0, n = 1 + int(4); i < n; i++) {
    const kind = pick(["offset", "offset", "kapp", "kapp", "kubernetes", "kubernetes", "unordered"]);
    const plugin = kind === "offset" ? "helm.packages" : kind === "kapp" ? "kapp_controller.packages" : kind === "unordered" ? "fluxv2.packages" : pick(PLUGINS);
    let cluster = pick(CLUSTERS), namespace = pick(NAMESPACES);
    if (used.has(`${plugin}/${cluster}/${namespace}`)) namespace = `ns-${i}`;
    used.add(`${plugin}/${cluster}/${namespace}`);
    sources.push({
      kind, plugin, cluster, namespace,
      // Left to the plugin's default (the README's declaration) or declared.
      declared: kind === "kubernetes" || chance(0.5),
      order: kind === "offset" && chance(0.3) ? "ci" : "bytes",
      pgTies: kind === "offset" && chance(0.5),
      fullPageToken: kind === "offset" && chance(0.5),
      missingEnd: chance(0.5),
      // A broken Kubernetes list (see the file's head): "cycle" or "dropContinue", rarely.
      quirk: kind === "kubernetes" ? (chance(0.1) ? "cycle" : chance(0.06) ? "dropContinue" : undefined) : undefined,
      items: Array.from({ length: int(11) }, () => item(kind === "kubernetes" ? 1 : 0)),
    });
  }
  const filter = {};
  if (chance(0.15)) filter.query = pick(QUERY_CHARS);
  if (chance(0.15)) filter.categories = CATEGORIES.filter(() => chance(0.5));
  if (chance(0.1)) filter.repositories = REPOS.filter(() => chance(0.5));
  if (chance(0.1)) filter.plugins = PLUGINS.filter(() => chance(0.6));
  const src = () => int(sources.length);
  const steps = [];
  const weighted = [
    [10, () => ({ op: "page" })],
    [2, () => ({ op: "insert", src: src(), item: item(1) })],
    [2, () => ({ op: "delete", src: src(), pick: int(1000) })],
    [1, () => ({ op: "update", src: src(), pick: int(1000), cats: int(8), desc: int(4) })],
    [2, () => ({ op: "shrink", src: src(), n: 2 + int(6) })],
    [2, () => ({ op: "meanwhile", src: src(), change: chance(0.5) ? { op: "insert", item: item(1) } : { op: "delete", pick: int(1000) } })],
    [1, () => ({ op: "expire", src: src(), inconsistent: chance(0.5) })],
    [2, () => ({ op: "fail", src: src(), status: pick(TRANSIENT) })],
    [1, () => ({ op: "down", src: src(), status: pick(FOR_GOOD) })],
    [1, () => ({ op: "up", src: src() })],
    [1, () => ({ op: "hang", src: src() })],
    [1, () => ({ op: "abort", src: src() })],
    [2, () => ({ op: "resume" })],
    [1, () => ({ op: "resize", pageSize: 1 + int(7) })],
  ];
  const total = weighted.reduce((n, [w]) => n + w, 0);
  for (let k = 0, n = int(41); k < n; k++) {
    let r = int(total);
    for (const [w, make] of weighted) {
      if (r < w) {
        steps.push(make());
        break;
      }
      r -= w;
    }
  }
  return {
    seed,
    transport: chance(0.5) ? "http" : "plain",
    sources,
    pageSize: 1 + int(6),
    chunkLimit: 1 + int(6),
    sort: chance(0.2) ? "displayName" : "name",
    // The pager entry, or "kubeapps-pager/collation" (another wasm module) in byte order or collated.
    ...(chance(0.25) ? { entry: "collation", collation: chance(0.5) ? { locale: pick(["root", "en"]) } : undefined } : { entry: "pager" }),
    filter,
    // Transient failures retried inside nextPage (a build that has the option) or not at all.
    retry: chance(0.5) ? { retries: 0 } : { retries: 1 + int(3), baseDelayMs: 1, maxDelayMs: 2 },
    steps,
    shuffleSeed: int(2 ** 31),
    // nextPage's `prefetch` on half the runs (drawn last: the rest of a seed's run is as before).
    prefetch: chance(0.5),
  };
}

/** The PagerOptions of a run. */
export function pagerOptions(run, pageSize = run.pageSize) {
  const options = {
    sources: run.sources.map((s) => ({
      plugin: s.plugin, cluster: s.cluster, namespace: s.namespace,
      ...(s.declared ? { kind: s.kind === "kubernetes" ? "kubernetes" : s.kind === "unordered" ? "unordered" : "kubeapps" } : {}),
    })),
    pageSize,
    chunkLimit: run.chunkLimit,
    sort: run.sort,
  };
  if (run.collation) options.collation = run.collation;
  if (Object.keys(run.filter).length > 0) options.filter = run.filter;
  return options;
}

// ---------------------------------------------------------------------------------------------
// The world: every source's items over time, and the answers.

const b64url = (s) => Buffer.from(s, "utf8").toString("base64url");

/** A Kubeapps AvailablePackageSummary, as the REST gateway sends it. */
function summaryOf(src, g) {
  const identifier = `${REPOS[g.repo]}/${g.name}`;
  const s = {
    availablePackageRef: {
      context: { cluster: src.cluster, namespace: src.namespace },
      identifier,
      plugin: { name: src.plugin, version: "v1alpha1" },
    },
    name: g.name,
    shortDescription: DESCRIPTIONS[g.desc],
    categories: CATEGORIES.filter((_, i) => g.cats & (1 << i)),
    latestVersion: { pkgVersion: "1.0.0" },
  };
  if (g.display) s.displayName = g.display;
  return s;
}

/** grpc-gateway's error body for a gRPC code (runtime.HTTPStatusFromCode's statuses). */
const GATEWAY = { 400: [3, "InvalidArgument"], 403: [7, "PermissionDenied"], 404: [5, "NotFound"], 429: [8, "ResourceExhausted"], 500: [13, "Internal"], 501: [12, "Unimplemented"], 503: [14, "Unavailable"], 504: [4, "DeadlineExceeded"] };
const STATUS_REASON = { 403: "Forbidden", 404: "NotFound", 429: "TooManyRequests", 500: "InternalError", 501: "NotImplemented", 503: "ServiceUnavailable", 504: "Timeout" };

/**
 * The state of one run's sources. `answer(index, request)` gives a reply: `{ status, body }`
 * (`status` 0: no answer at all), `{ hang: true }` or `{ abortThen: reply }` (abort the call, then
 * answer). Items are tracked by identity: when they were present, and whether every version
 * matched the filter, for the "nothing lost" check.
 */
export class World {
  constructor(run) {
    this.run = run;
    this.sources = run.sources.map((g, i) => {
      const live = [];
      const names = new Set();
      const ids = new Set();
      for (const it of g.items) {
        const s = summaryOf(g, it);
        const id = identity(s);
        if (ids.has(id) || (g.kind === "kubernetes" && names.has(s.name))) continue;
        ids.add(id);
        names.add(s.name);
        live.push(s);
      }
      const src = {
        spec: g, live, ever: new Map(), sortLive: null, injections: [], deferred: [], down: 0,
        history: [], compacted: 0,
        // Identities answered (a broken source can only be asked for what it serves), requests
        // since the pager was made or resumed, the continuation tokens asked, the cycle played.
        served: new Set(), requests: 0, asked: [], cycled: false, continued: false,
        // Each source's own resourceVersion and shuffles: a source's answers depend on its own
        // requests alone (one at a time), not on the order concurrent requests of others arrive.
        rv: 1, rnd: mulberry32(run.shuffleSeed + i),
      };
      this.sort(src);
      for (const s of live) src.ever.set(identity(s), { initial: true, deleted: false, alwaysMatches: matches(run.filter, s), versions: [s] });
      src.history.push({ rv: src.rv, items: live.slice() });
      return src;
    });
    this.requests = 0;
  }

  sort(src) {
    const order = src.spec.order === "ci" ? ciOrder : bytesOrder;
    src.live.sort((a, b) => order(a.name, b.name) || bytesOrder(a.availablePackageRef.identifier, b.availablePackageRef.identifier));
  }

  /** Records a new state of source `src` (a new resourceVersion for a Kubernetes list). */
  commit(src) {
    this.sort(src);
    src.rv++;
    src.history.push({ rv: src.rv, items: src.live.slice() });
  }

  insert(i, g) {
    const src = this.sources[i];
    const s = summaryOf(src.spec, g);
    const id = identity(s);
    // An identity never comes back once gone (a new object with an old key would be another item
    // with the same identity: the checks could not tell it from a repeat).
    if (src.ever.has(id) || (src.spec.kind === "kubernetes" && [...src.ever.values()].some((e) => e.versions[0].name === s.name))) return;
    src.ever.set(id, { initial: false, deleted: false, alwaysMatches: matches(this.run.filter, s), versions: [s] });
    src.live.push(s);
    this.commit(src);
  }

  delete(i, pick) {
    const src = this.sources[i];
    if (src.live.length === 0) return;
    const [s] = src.live.splice(pick % src.live.length, 1);
    src.ever.get(identity(s)).deleted = true;
    this.commit(src);
  }

  update(i, pick, cats, desc) {
    const src = this.sources[i];
    if (src.live.length === 0) return;
    const k = pick % src.live.length;
    const old = src.live[k];
    // A new version: another description and categories, never another sort key.
    const s = structuredClone(old);
    s.categories = CATEGORIES.filter((_, c) => cats & (1 << c));
    s.shortDescription = DESCRIPTIONS[desc];
    src.live[k] = s;
    const e = src.ever.get(identity(s));
    e.versions.push(s);
    e.alwaysMatches &&= matches(this.run.filter, s);
    this.commit(src);
  }

  apply(i, change) {
    if (change.op === "insert") this.insert(i, change.item);
    else if (change.op === "delete") this.delete(i, change.pick);
    else if (change.op === "update") this.update(i, change.pick, change.cats, change.desc);
    else if (change.op === "shrink") {
      const src = this.sources[i];
      for (let k = 0; k < change.n && src.live.length > 0; k++) this.delete(i, 0);
    }
  }

  /**
   * Identities that must be shown: present from the start to the end, matching in every version;
   * of a source whose token cycled, only those it answered the last pager (`served`, cleared on a
   * resume: what stands after the cycle no client can read); of one whose proxy dropped a
   * continue token, none (it is set aside: what it answered may be a part of a whole read that
   * never ends).
   */
  required() {
    const out = [];
    for (const src of this.sources) {
      if (src.continued) continue;
      for (const [id, e] of src.ever) {
        if (e.initial && !e.deleted && e.alwaysMatches && (src.spec.quirk !== "cycle" || src.served.has(id))) out.push(id);
      }
    }
    return out;
  }

  /** Whether `s` is a version of an item its source held at some time. */
  existed(index, s) {
    const e = this.sources[index]?.ever.get(identity(s));
    return e !== undefined && e.versions.some((v) => v.name === s.name && v.shortDescription === s.shortDescription && JSON.stringify(v.categories) === JSON.stringify(s.categories));
  }

  /**
   * The answer to `request` of source `index`, as `{ status, body }` (the body a response or an
   * error body), `{ hang: true }` or `{ abortThen: answer }`. `request`: `{ pageToken, limit,
   * filterOptions }` (the REST fetchers' query read back, or the ChunkRequest itself).
   */
  answer(index, request) {
    const src = this.sources[index];
    this.requests++;
    src.requests++;
    for (const change of src.deferred.splice(0)) this.apply(index, change);
    const kube = src.spec.kind === "kubernetes";
    if (src.down) return this.failure(src, src.down);
    let injected = src.injections.shift();
    // A broken source's answers are all fed (its `served` set is what the pager must show): no
    // hang or abort there.
    if (src.spec.quirk && (injected?.op === "hang" || injected?.op === "abort")) injected = undefined;
    if (injected?.op === "fail") return this.failure(src, injected.status);
    if (injected?.op === "hang") return { hang: true };
    const reply = kube ? this.listChunk(src, request) : this.offsetChunk(src, request);
    if (reply.status === 200) for (const s of reply.body.items ?? reply.body.availablePackageSummaries ?? []) src.served.add(identity(s));
    return injected?.op === "abort" ? { abortThen: reply } : reply;
  }

  failure(src, status) {
    if (status === 0) return { status: 0 };
    if (src.spec.kind === "kubernetes") {
      return { status, body: { kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message: `injected ${status}`, reason: STATUS_REASON[status] ?? "", code: status } };
    }
    const [code] = GATEWAY[status] ?? [2];
    return { status, body: status === 502 ? "Bad Gateway" : { code, message: `injected ${status}`, details: [] } };
  }

  /** The source's items a request sees: its filter applied when it sent one (a source that filters). */
  visible(items, filterOptions) {
    return filterOptions ? items.filter((s) => matches(filterOptions, s)) : items;
  }

  offsetChunk(src, { pageToken, limit, filterOptions }) {
    const g = src.spec;
    if (pageToken !== "" && !/^\d+$/.test(pageToken)) {
      return { status: 400, body: { code: 3, message: `Unable to interpret page token ${JSON.stringify(pageToken)}`, details: [] } };
    }
    const offset = pageToken === "" ? 0 : Number(pageToken);
    let list = this.visible(src.live, filterOptions);
    if (g.kind === "unordered") {
      list = list.slice();
      for (let i = list.length - 1; i > 0; i--) {
        const j = Math.floor(src.rnd() * (i + 1));
        [list[i], list[j]] = [list[j], list[i]];
      }
    } else if (g.pgTies) {
      // Equal names in another order for this (offset, limit): shuffle every run of equal names.
      list = list.slice();
      for (let a = 0; a < list.length; ) {
        let b = a + 1;
        while (b < list.length && list[b].name === list[a].name) b++;
        for (let i = b - 1; i > a; i--) {
          const j = a + Math.floor(src.rnd() * (i - a + 1));
          [list[i], list[j]] = [list[j], list[i]];
        }
        a = b;
      }
    }
    if (g.kind === "kapp") {
      // server/real/kapp.mjs: an offset past the end of a non-empty list is refused.
      if (list.length > 0 && limit > 0 && offset > list.length) {
        return { status: 400, body: { code: 3, message: `Invalid pagination arguments page_token:"${pageToken}" page_size:${limit}`, details: [] } };
      }
      const page = limit > 0 ? list.slice(offset, offset + limit) : list;
      const body = {};
      if (page.length) body.availablePackageSummaries = page;
      if (limit > 0 && page.length === limit) body.nextPageToken = String(offset + limit);
      return { status: 200, body };
    }
    const page = list.slice(offset, offset + limit);
    const end = offset + limit;
    const more = end < list.length || (g.fullPageToken && page.length === limit && limit > 0);
    const body = { availablePackageSummaries: page };
    if (more) body.nextPageToken = String(end);
    else if (!g.missingEnd) body.nextPageToken = "";
    const categories = [...new Set(page.flatMap((s) => s.categories))];
    if (categories.length) body.categories = categories;
    return { status: 200, body };
  }

  listChunk(src, { pageToken, limit }) {
    const quirk = src.spec.quirk;
    // A proxy that drops `continue`: every request is a first one (`continued`: it dropped one).
    if (quirk === "dropContinue" && pageToken) {
      src.continued = true;
      pageToken = "";
    }
    // The token this answer hands back instead of its own: the one asked before it (b → c → b).
    const cycleTo = quirk === "cycle" && pageToken && !src.cycled && src.asked.length > 0 ? src.asked.at(-1) : undefined;
    if (pageToken) src.asked.push(pageToken);
    let rv = src.rv;
    let start = "";
    let items;
    if (pageToken) {
      let t;
      try {
        t = JSON.parse(Buffer.from(pageToken, "base64url").toString("utf8"));
      } catch {
        return { status: 400, body: { kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message: "invalid continue token", reason: "BadRequest", code: 400 } };
      }
      start = t.start;
      if (t.rv > 0 && t.rv < src.compacted) {
        const metadata = {};
        if (src.inconsistentToken) metadata.continue = b64url(JSON.stringify({ v: "meta.k8s.io/v1", rv: -1, start }));
        return { status: 410, body: { kind: "Status", apiVersion: "v1", metadata, status: "Failure", message: "The provided continue parameter is too old to display a consistent list result.", reason: "Expired", code: 410 } };
      }
      if (t.rv > 0) {
        rv = t.rv;
        // The snapshot of that resourceVersion: the last state recorded at or before it.
        items = src.history.filter((h) => h.rv <= rv).at(-1)?.items ?? [];
      }
    }
    items ??= src.live;
    const from = items.filter((s) => bytesOrder(s.name, start) >= 0);
    const page = limit > 0 ? from.slice(0, limit) : from;
    const more = page.length < from.length;
    const metadata = { resourceVersion: String(rv) };
    if (more) {
      metadata.continue = b64url(JSON.stringify({ v: "meta.k8s.io/v1", rv, start: `${page.at(-1).name}\u0000` }));
      metadata.remainingItemCount = from.length - page.length;
    } else if (!src.spec.missingEnd) metadata.continue = "";
    if (cycleTo !== undefined && more) {
      src.cycled = true;
      metadata.continue = cycleTo;
      delete metadata.remainingItemCount;
    }
    return { status: 200, body: { kind: "List", apiVersion: "v1", metadata, items: page } };
  }

  /** Compacts a Kubernetes source: continue tokens of earlier revisions answer 410. */
  expire(i, inconsistent) {
    const src = this.sources[i];
    if (src.spec.kind !== "kubernetes" || src.spec.quirk) return;
    src.rv++;
    src.history.push({ rv: src.rv, items: src.live.slice() });
    src.compacted = src.rv;
    src.inconsistentToken = inconsistent;
  }
}
