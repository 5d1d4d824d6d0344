// Plays one generated run (model-world.mjs) through the package's public path: `pager.nextPage`
// with a plain `fetchChunk`, or with the built-in `kubeappsFetcher` (Kubeapps plugins) and
// `kubernetesListFetcher` (apiserver lists) over a local node:http server. Checks the invariants of
// the Rust model test (tests/support/harness.rs) on every page, and at the end:
// - nothing lost: every item present from the start to the end, matching the filter in every
//   version, is shown;
// - nothing twice, except on a page flagged `inconsistent` (it says it may repeat one item);
// - merge order within and across pages, except items the page counts late (`stats.lateItems`);
// - every item shown existed in its source and matches the filter;
// - termination: done within a bounded number of calls; a call rejects only for a transient
//   failure (status 0, 429, 5xx) or an abort, and the next calls go on, a bounded number in a
//   row; a 400 past the end of a shrunken list, a 410 or a failure for good never rejects;
// - a broken source (model-world.mjs): one whose continue token cycles is read up to the cycle
//   (every item it answered shown, nothing rejected); one whose proxy drops `continue` is found
//   out within MAX_DROPPED_REQUESTS requests of a pager and set aside (the last page names it in
//   `page.unreachable`: it never ends silently; never retried here) while the others go on, or
//   named by a typed rejection (which ends the run).
// Throws an Error naming the broken invariant.

import { createServer } from "node:http";
import { World, TRANSIENT, compareKeys, identity, keyOf, matches, pagerOptions } from "./model-world.mjs";

/** Most nextPage calls a run may make (pages, rejections and aborts together). */
const MAX_CALLS = 400;
/** Most rejected calls in a row (each followed by another call) before the run fails. */
const MAX_REJECTIONS_IN_A_ROW = 12;
/** Most requests a pager may send a source whose proxy drops `continue` ("a few"; today 261). */
const MAX_DROPPED_REQUESTS = 20;

// ---------------------------------------------------------------------------------------------
// Transports

/** A failure as a plain fetchChunk rejects with it: a Kubernetes Status as it is, else an Error with `status`. */
function rejection(reply) {
  if (reply.status === 0) return new TypeError("fetch failed");
  if (reply.body?.kind === "Status") return reply.body;
  const e = new Error(typeof reply.body === "string" ? reply.body : reply.body?.message ?? `HTTP ${reply.status}`);
  e.status = reply.status;
  return e;
}

/** A promise that never settles until `signal` aborts (then rejects with its reason). */
function hang(signal) {
  return new Promise((_, reject) => {
    if (!signal) return;
    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

/** The plain transport: a fetchChunk over the world, answers copied as from a network. */
export function plainFetch(state) {
  return async (request, init) => {
    const signal = init?.signal;
    let reply = state.world.answer(request.sourceIndex, request);
    if (reply.hang) {
      state.onHang();
      return hang(signal);
    }
    if (reply.abortThen) {
      state.onAbort();
      reply = reply.abortThen;
    }
    await new Promise((r) => setImmediate(r));
    if (reply.status !== 200) throw rejection(reply);
    return structuredClone(reply.body);
  };
}

/**
 * The local HTTP server of the HTTP transport: kubeapps-apis REST
 * (`/r/{run}/apis/plugins/{plugin}/packages/v1alpha1/availablepackages?context.cluster=…`) and
 * apiserver lists (`/r/{run}/list/{index}?limit=…&continue=…`), answering from `state.world` while
 * `state.id` is the run's (a request of a run that has ended is dropped).
 */
export async function startServer(state) {
  const sockets = new Set();
  const server = createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    const m = /^\/r\/(\d+)\/(?:apis\/plugins\/([^/]+)\/packages\/v1alpha1\/availablepackages|list\/(\d+))$/.exec(url.pathname);
    if (!m || Number(m[1]) !== state.id) {
      res.writeHead(404).end();
      return;
    }
    let index, request;
    const q = url.searchParams;
    if (m[3] !== undefined) {
      index = Number(m[3]);
      request = { pageToken: q.get("continue") ?? "", limit: Number(q.get("limit") ?? 0) };
    } else {
      const plugin = decodeURIComponent(m[2]);
      const cluster = q.get("context.cluster") ?? "", namespace = q.get("context.namespace") ?? "";
      index = state.world.run.sources.findIndex((s) => s.plugin.split(".")[0] === plugin && s.cluster === cluster && s.namespace === namespace);
      const f = {};
      if (q.has("filterOptions.query")) f.query = q.get("filterOptions.query");
      for (const k of ["categories", "repositories"]) if (q.has(`filterOptions.${k}`)) f[k] = q.getAll(`filterOptions.${k}`);
      for (const k of ["pkgVersion", "appVersion"]) if (q.has(`filterOptions.${k}`)) f[k] = q.get(`filterOptions.${k}`);
      request = { pageToken: q.get("paginationOptions.pageToken") ?? "", limit: Number(q.get("paginationOptions.pageSize") ?? 0), filterOptions: Object.keys(f).length ? f : undefined };
    }
    if (index < 0) {
      res.writeHead(404).end();
      return;
    }
    let reply = state.world.answer(index, request);
    if (reply.hang) {
      // Never answered: the client aborts, and the connection goes with it.
      req.on("close", () => res.destroy());
      state.onHang();
      return;
    }
    if (reply.abortThen) {
      state.onAbort();
      reply = reply.abortThen;
    }
    if (reply.status === 0) {
      req.socket.destroy();
      return;
    }
    const text = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
    res.writeHead(reply.status, { "content-type": typeof reply.body === "string" ? "text/plain" : "application/json" });
    res.end(text);
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${server.address().port}`;
  return {
    base,
    close: () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        server.close(r);
      }),
  };
}

/** The HTTP transport's fetchChunk: the built-in fetchers, one per kind of source. */
export function httpFetch(pkg, state, base) {
  const prefix = `${base}/r/${state.id}`;
  const kubeapps = pkg.kubeappsFetcher({ baseUrl: `${prefix}/apis` });
  const lists = state.world.run.sources.map((s, i) => (s.kind === "kubernetes" ? pkg.kubernetesListFetcher({ url: `${prefix}/list/${i}` }) : null));
  return (request, init) => (lists[request.sourceIndex] ?? kubeapps)(request, init);
}

// ---------------------------------------------------------------------------------------------
// One run

/** A short description of a rejection, for messages. */
function describe(e) {
  const d = e?.details ?? {};
  return `${e?.code ?? e?.name}${d.status !== undefined ? ` status ${d.status}` : ""}: ${e?.message}`;
}

/**
 * Plays `run` with the package's entry `run.entry` of `entries` (`{ pager, collation }`: the
 * nodejs builds of "kubeapps-pager" and "kubeapps-pager/collation") and returns figures; throws on
 * a broken invariant. `server`: the HTTP transport's, when `run.transport` is "http".
 */
export async function playRun(entries, run, { server, state, trace = false } = {}) {
  const pkg = entries[run.entry ?? "pager"];
  const world = new World(run);
  state.world = world;
  state.id = (state.id ?? 0) + 1;
  const { Pager } = pkg;
  const fetchChunk = run.transport === "http" ? httpFetch(pkg, state, server.base) : plainFetch(state);
  let options = pagerOptions(run);
  let pager = new Pager(options);
  let token = null;
  const shown = new Map(); // identity → page number
  let lastKey = null;
  let pages = 0, calls = 0, rejections = 0, inARow = 0, done = false;
  // The nextPage call in progress (`{ abort }`), if any; `owed`: a hang or an abort came while
  // none was (a request sent ahead, `run.prefetch`), for the next call to meet.
  let active = null, owed = false;
  // Sources whose proxy drops `continue`.
  const dropped = new Set(run.sources.flatMap((g, i) => (g.quirk === "dropContinue" ? [i] : [])));
  const label = (i) => `${run.sources[i].plugin}/${run.sources[i].cluster}/${run.sources[i].namespace}`;
  // Set aside for good once its proxy has dropped a continue token (before that, a normal source).
  const broken = (i) => dropped.has(i) && world.sources[i].continued;
  const retryable = (i) => !world.sources[i].down && !broken(i);
  const figures = { pages: 0, items: 0, late: 0, rejections: 0, aborts: 0, hangs: 0, inconsistent: 0, unreachable: 0, repeats: 0, requests: 0, typedEnds: 0, cycles: 0, dropped: 0, prefetched: 0 };
  const log = [];
  const fail = (what) => {
    const err = new Error(`${what}\n  seed ${run.seed} (MODEL_JS_SEED=${run.seed} MODEL_JS_RUNS=1), transport ${run.transport}; last calls:\n    ${log.slice(-12).join("\n    ")}`);
    err.run = run;
    throw err;
  };

  const checkPage = (page) => {
    const n = pages++;
    figures.pages++;
    if (page.stats.itemsEmitted !== page.items.length) fail(`page ${n}: stats.itemsEmitted ${page.stats.itemsEmitted}, ${page.items.length} items`);
    if (page.items.length > options.pageSize) fail(`page ${n} holds ${page.items.length} items, page size ${options.pageSize}`);
    if (!page.done && page.items.length !== options.pageSize) fail(`page-fill: page ${n} is not the last and holds ${page.items.length} of ${options.pageSize}`);
    if (done && (page.items.length > 0 || !page.done)) fail(`page ${n} after done is not empty and done`);
    if (done === "clean" && page.unreachable.length > 0) fail(`page ${n} after done names a source unreachable`);
    const late = page.stats.sources.reduce((k, s) => k + s.lateItems, 0);
    figures.late += late;
    if (late > 0 && !page.late) fail(`page ${n} has ${late} late items and does not say late`);
    let below = 0;
    for (const s of page.items) {
      const id = identity(s);
      const index = options.sources.findIndex((o) => o.plugin === s.availablePackageRef.plugin.name && (o.cluster ?? "") === s.availablePackageRef.context.cluster && (o.namespace ?? "") === s.availablePackageRef.context.namespace);
      if (index < 0 || !world.existed(index, s)) fail(`page ${n} shows ${id}, which never existed in its source`);
      if (!matches(run.filter, s)) fail(`live-filter: page ${n} shows ${id}, which the filter ${JSON.stringify(run.filter)} drops`);
      if (shown.has(id)) {
        if (!page.inconsistent) fail(`nothing twice: ${id} shown on page ${shown.get(id)} and again on page ${n}, which is not flagged inconsistent`);
        figures.repeats++;
      } else shown.set(id, n);
      const key = keyOf(s, run);
      if (lastKey && compareKeys(key, lastKey) <= 0) below++;
      else lastKey = key;
    }
    if (below > late) fail(`merge order: page ${n} shows ${below} items out of order and counts ${late} late: ${page.items.map(identity).join(", ")}`);
    if (page.inconsistent) figures.inconsistent++;
    figures.items += page.items.length;
    figures.unreachable += page.unreachable.length;
    figures.prefetched += page.stats.prefetchedRequests;
    token = page.nextPageToken;
    // Done, but for the sources set aside for good (whose proxy dropped a continue token): the end
    // of this pager's list. A resume asks them again (a page token does not hold who was set aside).
    if (page.done && page.unreachable.every((u) => broken(u.sourceIndex))) {
      done = page.unreachable.length === 0 ? "clean" : "set-aside";
      // A source whose proxy dropped a continue token cannot have ended while it owes items: it is
      // named unreachable. (When every item left sorts after the token's start, the proxy's answer
      // from the list's start is the right continuation: no client can tell, and nothing is owed.)
      const owed = (i) => [...world.sources[i].ever].some(([id, e]) => e.initial && !e.deleted && e.alwaysMatches && !shown.has(id));
      for (const i of dropped) {
        if (world.sources[i].continued && !page.unreachable.some((u) => u.sourceIndex === i) && owed(i)) {
          fail(`page ${n} is the last, and the source that drops continue tokens (${label(i)}) ended silently: not in page.unreachable`);
        }
      }
    }
    // A source set aside for a failure that has passed is asked again (nextPage's own backoff is
    // seconds long; a dashboard's "retry" button calls this).
    for (const u of page.unreachable) if (retryable(u.sourceIndex)) pager.retryUnreachable(u.sourceIndex);
  };

  /** One page: calls nextPage until it resolves, a rejection allowed only for a transient failure or an abort. */
  const page = async () => {
    for (;;) {
      if (++calls > MAX_CALLS) fail(`termination: more than ${MAX_CALLS} nextPage calls`);
      const controller = new AbortController();
      let aborted = false;
      const call = { abort: () => ((aborted = true), controller.abort()) };
      active = call;
      // A hang or an abort met by a request sent ahead after the last call settled: the user
      // gives up on this call (its abort cancels the requests sent ahead).
      if (owed) {
        owed = false;
        setTimeout(call.abort, 1);
      }
      state.onHang = () => {
        figures.hangs++;
        // The user gives up on a call that hangs: abort it (after the request is on its way), or
        // the next one when the request went ahead of it (`prefetch`).
        setTimeout(() => (active ? active.abort() : (owed = true)), 1);
      };
      state.onAbort = () => {
        figures.aborts++;
        if (active) active.abort();
        else owed = true;
      };
      try {
        const p = await pager.nextPage(fetchChunk, { signal: controller.signal, retry: run.retry, prefetch: run.prefetch });
        active = null;
        for (const i of dropped) {
          if (world.sources[i].requests > MAX_DROPPED_REQUESTS) fail(`a source that drops continue tokens (${label(i)}) was asked ${world.sources[i].requests} times by one pager`);
        }
        log.push(`page ${pages}: ${p.items.length} items${p.done ? ", done" : ""}${p.inconsistent ? ", inconsistent" : ""}${p.late ? ", late" : ""}${p.unreachable.length ? `, unreachable ${p.unreachable.map((u) => `${u.sourceIndex}:${u.status}`).join(",")}` : ""}`);
        if (trace) console.error(log.at(-1), p.items.map(identity));
        inARow = 0;
        // The page's token is the pager's position once the page is taken (what a reload resumes).
        if (pager.pageToken() !== p.nextPageToken) fail(`page ${pages}: its nextPageToken is not pager.pageToken()`);
        checkPage(p);
        return p;
      } catch (e) {
        active = null;
        if (e?.run) throw e;
        log.push(`rejected: ${describe(e)}`);
        if (trace) console.error(log.at(-1));
        const status = e?.details?.status;
        const named = run.sources.findIndex((_, i) => e?.details?.source === label(i));
        if (dropped.has(named) && e?.code !== "SOURCE_FAILED" && e?.code !== "ABORTED") {
          // A typed error naming the source whose proxy drops `continue`: an answer too.
          if (world.sources[named].requests > MAX_DROPPED_REQUESTS) fail(`a source that drops continue tokens (${label(named)}) was asked ${world.sources[named].requests} times before ${describe(e)}`);
          figures.typedEnds = 1;
          return null;
        }
        if (e?.code === "ABORTED") {
          if (!aborted) fail(`nextPage rejected with ABORTED, and the call was not aborted`);
        } else if (e?.code === "SOURCE_FAILED" && status === 400) {
          fail(`a 400 (an offset past the end of a shrunken list) rejected the call: ${describe(e)}`);
        } else if (e?.code !== "SOURCE_FAILED" || !TRANSIENT.includes(status)) {
          fail(`nextPage rejected for no transient failure: ${describe(e)}`);
        }
        figures.rejections++;
        rejections++;
        if (++inARow > MAX_REJECTIONS_IN_A_ROW) fail(`termination: ${inARow} rejected calls in a row`);
      }
    }
  };

  const resume = (pageSize) => {
    options = pagerOptions(run, pageSize);
    if (done === "set-aside") done = false;
    // Counted per pager: what a source answered the pager before is not what this one read (a
    // source whose token cycles need not answer it again), and a source whose proxy drops
    // `continue` is broken for this pager only once it asks a continuation.
    for (const src of world.sources) {
      src.requests = 0;
      src.served.clear();
      src.continued = false;
    }
    pager.free();
    pager = token === null ? new Pager(options) : Pager.resume(token, options);
    log.push(`resume${pageSize !== run.pageSize ? ` (page size ${pageSize})` : ""}`);
  };

  try {
    for (const step of run.steps) {
      const i = step.src === undefined ? 0 : step.src % world.sources.length;
      switch (step.op) {
        case "page":
          if ((await page()) === null) return figures;
          break;
        case "insert":
        case "delete":
        case "update":
        case "shrink":
          world.apply(i, step);
          break;
        case "meanwhile":
          world.sources[i].deferred.push(step.change);
          break;
        case "expire":
          world.expire(i, step.inconsistent);
          break;
        case "fail":
        case "hang":
        case "abort":
          world.sources[i].injections.push(step);
          break;
        case "down":
          world.sources[i].down = step.status;
          break;
        case "up":
          world.sources[i].down = 0;
          if (retryable(i)) pager.retryUnreachable(i);
          break;
        case "resume":
          resume(options.pageSize);
          break;
        case "resize":
          resume(step.pageSize);
          break;
        default:
          throw new Error(`unknown step ${step.op}`);
      }
    }
    // Every source up again; page to the end.
    for (const src of world.sources) src.down = 0;
    for (let i = 0; i < world.sources.length; i++) if (retryable(i)) pager.retryUnreachable(i);
    while (!done) if ((await page()) === null) return figures;
    // After the end: an empty page, done, and no request.
    const before = world.requests;
    if ((await page()) === null) return figures;
    if (world.requests !== before) fail(`the page after done sent ${world.requests - before} requests`);
    const missing = world.required().filter((id) => !shown.has(id));
    if (missing.length > 0) fail(`nothing lost: never shown: ${missing.join(", ")}`);
    figures.requests = world.requests;
    figures.cycles = world.sources.filter((src) => src.cycled).length;
    figures.dropped = dropped.size;
    return figures;
  } finally {
    pager.free();
    state.id++;
  }
}
