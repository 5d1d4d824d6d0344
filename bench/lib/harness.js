// The measuring loops, shared by every contender and free of any DOM (they run in Node too): the
// browser page hands them the package module and the answerers.

import { JsPager, decodeToken as jsDecodeToken, encodeToken as jsEncodeToken } from "../contenders/js-pager.js";
import { Dashboard } from "../contenders/dashboard.js";
import { bareLoop } from "../contenders/bare-loop.js";
import { median, p99 } from "./stats.js";

const now = () => performance.now();
const BARE_PASSES = 5;
const collect = () => globalThis.gc?.(); // Chromium runs with --expose-gc: start each walk with a clean heap

/**
 * Drives a sans-IO pager (the package's `Pager` or the JS one: same methods) synchronously until a
 * page is ready, answering every request from the in-memory backends; returns the page.
 */
export function drivePage(pager, answerers) {
  for (;;) {
    if (pager.pageReady()) return pager.takePage();
    const requests = pager.nextRequests();
    if (requests.length === 0) throw new Error("the pager asked for nothing and has no page");
    for (let k = 0; k < requests.length; k++) {
      const r = requests[k];
      pager.feed(r.requestId, answerers[r.sourceIndex](r));
    }
  }
}

/** `drivePage` that also adds the time spent in `feed` and in the backend to `acc`. */
function drivePageSplit(pager, answerers, acc) {
  for (;;) {
    if (pager.pageReady()) return pager.takePage();
    const requests = pager.nextRequests();
    if (requests.length === 0) throw new Error("the pager asked for nothing and has no page");
    for (let k = 0; k < requests.length; k++) {
      const r = requests[k];
      const a = now();
      const response = answerers[r.sourceIndex](r);
      const b = now();
      pager.feed(r.requestId, response);
      acc.feedMs += now() - b;
      acc.backendMs += b - a;
      acc.feeds++;
    }
  }
}

/**
 * Pages through the whole list with a fresh pager. Returns `{ ms, pages, emitted }`. `onPage(page,
 * k)` (optional) sees every page; `gc: false` skips the forced collection before the walk; `split`
 * (`{ feedMs, backendMs, feeds }`) collects where the time went (a few timer reads per chunk).
 */
export function walk(makePager, answerers, { onPage, gc = true, split = null } = {}) {
  if (gc) collect();
  const pager = makePager();
  let pages = 0;
  let emitted = 0;
  const t0 = now();
  for (;;) {
    const page = split ? drivePageSplit(pager, answerers, split) : drivePage(pager, answerers);
    pages++;
    emitted += page.items.length;
    if (onPage) onPage(page, pages - 1);
    if (page.done) break;
  }
  const ms = now() - t0;
  pager.free?.();
  return { ms, pages, emitted };
}

/**
 * Per-page times of pages 1..`upTo`, by lockstep replicas: `replicas` identical pagers over the
 * same backends take page k one after the other, and sample k is that time / replicas. The walk is
 * deterministic, so every replica does the same work on page k (chunk feeds included): this is one
 * page's time at 1/replicas of the timer's 5 µs tick, without averaging different pages together.
 */
export function lockstep(makePager, answerers, replicas, upTo) {
  collect();
  const pagers = Array.from({ length: replicas }, makePager);
  const pageMs = [];
  let done = false;
  for (let k = 0; k < upTo && !done; k++) {
    const t = now();
    for (let r = 0; r < replicas; r++) done = drivePage(pagers[r], answerers).done;
    pageMs.push((now() - t) / replicas);
  }
  for (const p of pagers) p.free?.();
  return pageMs;
}

/** The identity of a summary, as a string (for the cross-check). */
const identity = (s) => {
  const r = s.availablePackageRef;
  return `${r.plugin.name}/${r.context.cluster}/${r.context.namespace}/${r.identifier}`;
};

/** Depths reported, and the window of pages measured around each (page 1: the first `w` pages). */
export const DEPTHS = [1, 100, 1000, 5000];
export function windowOf(depth, w) {
  return depth === 1 ? [0, w] : [depth - 1 - w / 2, depth - 1 + w / 2];
}

/**
 * Runs one workload configuration. `ctx`: `{ pkg, catalog, answerers, options, reps, window,
 * depthReps, replicas, dashboardWindow, dashboardPrefix, tokenAt }`. Returns the figures of every contender.
 */
export function runConfig(ctx) {
  const { pkg, catalog, answerers, options, reps, window: w } = ctx;
  const catalogItems = catalog.reduce((n, list) => n + list.length, 0);
  const makeWasm = () => new pkg.Pager(options);
  const makeJs = () => new JsPager(options);

  // Warm-up and cross-check: the two pagers must emit the same items in the same pages.
  const wasmPages = [];
  const wasmItems = [];
  let wasmToken = null, jsToken = null;
  const w1 = walk(makeWasm, answerers, {
    onPage: (page, k) => {
      wasmPages.push(page.items.length);
      for (const it of page.items) wasmItems.push(it);
      if (k + 1 === ctx.tokenAt) wasmToken = page.nextPageToken;
    },
  });
  let mismatch = null;
  let at = 0;
  const j1 = walk(makeJs, answerers, {
    onPage: (page, k) => {
      if (k + 1 === ctx.tokenAt) jsToken = page.nextPageToken;
      if (mismatch) return;
      if (page.items.length !== wasmPages[k]) mismatch = `page ${k + 1}: ${page.items.length} items, the package gave ${wasmPages[k]}`;
      for (const it of page.items) {
        // The package hands back the very objects fed: the same object, not an equal one.
        if (!mismatch && it !== wasmItems[at]) mismatch = `item ${at}: ${identity(it)} vs ${wasmItems[at] ? identity(wasmItems[at]) : "nothing"}`;
        at++;
      }
    },
  });
  // The package may learn `done` one page later (a last empty page): see js-pager.js.
  const trailingEmpty = w1.pages === j1.pages + 1 && wasmPages[w1.pages - 1] === 0;
  if (!mismatch && j1.pages !== w1.pages && !trailingEmpty) mismatch = `${j1.pages} pages, the package gave ${w1.pages}`;
  if (!mismatch && at !== wasmItems.length) mismatch = `${at} items, the package gave ${wasmItems.length}`;
  if (mismatch) throw new Error(`the JS pager and the package disagree: ${mismatch}`);
  bareLoop(answerers, options.chunkLimit);

  // Throughput: whole walks, contenders interleaved (rotating which goes first) so drift hits all alike.
  const runs = { wasm: [], js: [], bare: [] };
  const contenders = [
    ["wasm", () => walk(makeWasm, answerers).ms],
    ["js", () => walk(makeJs, answerers).ms],
    // The bare loop is short (tens of ms): BARE_PASSES passes per turn, each a sample.
    ["bare", () => {
      collect();
      const out = [];
      for (let i = 0; i < BARE_PASSES; i++) {
        const t0 = now();
        bareLoop(answerers, options.chunkLimit);
        out.push(now() - t0);
      }
      return out;
    }],
  ];
  for (let r = 0; r < reps; r++) {
    for (let c = 0; c < contenders.length; c++) {
      const [name, run] = contenders[(c + r) % contenders.length];
      runs[name].push(...[run()].flat());
    }
  }

  // Per-page time: lockstep walks up to the deepest window that fits.
  const fits = DEPTHS.map((d) => windowOf(d, w)[1] <= w1.pages);
  const upTo = Math.max(0, ...DEPTHS.map((d, i) => (fits[i] ? windowOf(d, w)[1] : 0)));
  const pageSamples = { wasm: DEPTHS.map(() => []), js: DEPTHS.map(() => []) };
  for (let r = 0; r < ctx.depthReps; r++) {
    for (const [name, make] of r % 2 ? [["js", makeJs], ["wasm", makeWasm]] : [["wasm", makeWasm], ["js", makeJs]]) {
      const pageMs = lockstep(make, answerers, ctx.replicas, upTo);
      DEPTHS.forEach((d, i) => {
        const [from, to] = windowOf(d, w);
        if (fits[i]) pageSamples[name][i].push(...pageMs.slice(from, to));
      });
    }
  }

  const rate = (ms) => catalogItems / (ms / 1000);
  // Where a walk's time goes: feeding chunks (per item read) vs everything else (per page); one
  // more walk each, warm, with a few timer reads per chunk.
  const splitOf = (make) => {
    const sp = { feedMs: 0, backendMs: 0, feeds: 0 };
    const { ms, pages } = walk(make, answerers, { split: sp });
    return {
      feedUsPerItem: (sp.feedMs * 1000) / catalogItems,
      feedUsPerChunk: (sp.feedMs * 1000) / sp.feeds,
      restUsPerPage: ((ms - sp.feedMs - sp.backendMs) * 1000) / pages,
      backendUsPerItem: (sp.backendMs * 1000) / catalogItems,
      feedShare: sp.feedMs / ms,
    };
  };
  const splits = { wasm: splitOf(makeWasm), js: splitOf(makeJs) };
  const summarise = (name) => ({
    split: splits[name],
    itemsPerSec: rate(median(runs[name])),
    walkMs: runs[name],
    ...(pageSamples[name] && {
      depth: pageSamples[name].map((s) => (s.length ? { median: median(s), p99: p99(s), n: s.length } : null)),
    }),
  });

  const dashboard = runDashboard(wasmItems, options.pageSize, w1.pages, ctx);
  return {
    catalogItems,
    emitted: w1.emitted,
    pages: w1.pages,
    wasm: summarise("wasm"),
    js: summarise("js"),
    bare: summarise("bare"),
    dashboard,
    tokens: { wasm: wasmToken, js: jsToken },
  };
}

/**
 * Today's dashboard on the same page sequence (the package's pages, as the backend would send
 * them): items/s over the first `dashboardPrefix` pages from an empty list, and per-page time in a
 * window at each depth (the list loaded with every earlier page first).
 */
function runDashboard(items, pageSize, pageCount, ctx) {
  const page = (k) => items.slice(k * pageSize, (k + 1) * pageSize);
  const prefixPages = Math.min(ctx.dashboardPrefix, pageCount);
  collect();
  const d = new Dashboard();
  let shown = 0;
  const t0 = now();
  for (let k = 0; k < prefixPages; k++) {
    const p = page(k);
    d.addPage(p);
    shown += p.length;
  }
  const prefixMs = now() - t0;
  const w = ctx.dashboardWindow;
  const depth = DEPTHS.map((depthPage) => {
    const [from, to] = windowOf(depthPage, w);
    if (to > pageCount) return null;
    collect();
    const dash = new Dashboard(items.slice(0, from * pageSize));
    const samples = [];
    for (let k = from; k < to; k++) {
      const p = page(k);
      const a = now();
      dash.addPage(p);
      samples.push(now() - a);
    }
    return { median: median(samples), p99: p99(samples), n: samples.length, loaded: from * pageSize };
  });
  return { itemsPerSec: shown / (prefixMs / 1000), prefixPages, depth };
}

/** `nextPage` with an async fetch (a resolved promise per chunk): items/s over whole walks. */
export async function runAsync({ pkg, catalog, answerers, options, reps }) {
  const catalogItems = catalog.reduce((n, list) => n + list.length, 0);
  const fetchChunk = (request) => Promise.resolve(answerers[request.sourceIndex](request));
  const times = [];
  const pageMs = [];
  for (let r = 0; r < reps + 1; r++) {
    collect();
    const pager = new pkg.Pager(options);
    const t0 = now();
    for (;;) {
      const a = now();
      const page = await pager.nextPage(fetchChunk);
      if (r > 0) pageMs.push(now() - a);
      if (page.done) break;
    }
    if (r > 0) times.push(now() - t0); // r = 0 warms up
    pager.free();
  }
  return { itemsPerSec: catalogItems / (median(times) / 1000), pageMedian: median(pageMs), pageP99: p99(pageMs), walkMs: times };
}

/** Codec round trips of a 3-source page token: µs per call, median over `reps` loops of `n`. */
export function runCodec({ pkg, wasmToken, jsToken, n, reps }) {
  const loop = (f) => {
    const per = [];
    for (let r = 0; r < reps + 1; r++) {
      const t0 = now();
      for (let i = 0; i < n; i++) f();
      if (r > 0) per.push(((now() - t0) * 1000) / n);
    }
    return median(per);
  };
  const state = pkg.decodePageToken(wasmToken);
  if (pkg.encodePageToken(state) !== wasmToken) throw new Error("encodePageToken(decodePageToken(t)) is not t");
  const jsState = jsDecodeToken(jsToken);
  let sink = 0;
  const out = {
    wasm: {
      tokenChars: wasmToken.length,
      sources: state.sources.length,
      decodeUs: loop(() => { sink += pkg.decodePageToken(wasmToken).pageSize; }),
      encodeUs: loop(() => { sink += pkg.encodePageToken(state).length; }),
    },
    js: {
      tokenChars: jsToken.length,
      decodeUs: loop(() => { sink += jsDecodeToken(jsToken).p; }),
      encodeUs: loop(() => { sink += jsEncodeToken(jsState).length; }),
    },
  };
  out.sink = sink;
  return out;
}

/** One pager through `total` lazily generated items: wasm linear memory before and after. */
export function runMemory({ pkg, answerers, options, total }) {
  const before = pkg.wasmMemoryBytes();
  const pager = new pkg.Pager(options);
  let emitted = 0;
  const t0 = now();
  while (emitted < total) {
    const page = drivePage(pager, answerers);
    emitted += page.items.length;
    if (page.done) break;
  }
  const ms = now() - t0;
  const after = pkg.wasmMemoryBytes(); // linear memory never shrinks: this is the high-water mark
  pager.free();
  return { before, after, emitted, ms };
}

/**
 * The flatness control: per-page medians at page 1 and page 5,000 (page 20, 100%) with all three
 * lists paged by offsets, so no page token carries a continue token. Beside the main figure it
 * tells depth from token content.
 */
export function runFlatControl({ pkg, catalog, answerers, options, window: w, replicas }) {
  const offsets = { ...options, sources: options.sources.map((s) => ({ ...s, kind: "kubeapps" })) };
  const [, end] = windowOf(5000, w);
  const pageMs = lockstep(() => new pkg.Pager(offsets), answerers, replicas, end);
  if (pageMs.length < end) return null;
  const at = (d) => {
    const [from, to] = windowOf(d, w);
    return median(pageMs.slice(from, to));
  };
  return { page1: at(1), page5000: at(5000) };
}

