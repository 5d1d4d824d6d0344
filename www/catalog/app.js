// The demo catalog: kubeapps-pager paging the demo backend's plugins into cards, with infinite
// scroll, filters, the page token in the URL, the pager's counters, backend controls, and a
// comparison with the way Kubeapps pages today. Plain ES modules; the package is /pkg/web/ (and
// /pkg/codec/web/ for the token panel; /pkg/collation/web/, loaded only when the natural order is
// chosen).
import init, { Pager, kubeappsFetcher } from "/pkg/web/index.js";
// The codec entry ("kubeapps-pager/codec"), for the token panel's inspectToken (panels.js).
import initCodec from "/pkg/codec/web/index.js";
import { $, h, fill, kv, num } from "./dom.js";
import { Feed } from "./feed.js";
import { PagerSource } from "./pager-source.js";
import { CoreSource } from "./core-source.js";
import { renderStats, renderToken, RequestLog } from "./panels.js";
import { BackendPanel } from "./controls.js";
import { renderChecks, pluginOptions, repositoryOptions, categoryOptions } from "./filters.js";
import { fetchTruth, extraCopies, missedInRange } from "./truth.js";
import { readState, writeState, filterOf } from "./url.js";

/** The pager's source kind for each backend behaviour (server/README.md). */
const KIND = { kubernetes: "kubernetes", "kubeapps-offset": "kubeapps", unordered: "unordered" };
const SIZES = [12, 24, 48, 96];
const CHUNKS = [10, 20, 50, 100, 250, 500];

const el = {
  form: $("filter-form"), q: $("q"), sort: $("sort"), size: $("size"), chunk: $("chunk"),
  plugins: $("f-plugins"), categories: $("f-categories"), repositories: $("f-repositories"),
  compare: $("compare"), columns: $("columns"), summary: $("summary"),
  notice: $("notice"), noticeText: $("notice-text"),
  pagerColumn: $("pager-column"), pagerScroller: $("pager-scroller"), pagerCards: $("pager-cards"),
  pagerStatus: $("pager-status"), pagerSentinel: $("pager-sentinel"), pagerTallies: $("pager-tallies"),
  coreColumn: $("core-column"), coreScroller: $("core-scroller"), coreCards: $("core-cards"),
  coreStatus: $("core-status"), coreSentinel: $("core-sentinel"), coreTallies: $("core-tallies"), coreCapped: $("core-capped"),
  flagInconsistent: $("flag-inconsistent"), flagTruncated: $("flag-truncated"), flagResumed: $("flag-resumed"),
  facts: $("list-facts"), listAside: $("list-aside"), stats: $("stats"), token: $("token"),
};

let state = readState();
let config = null;
let generation = 0;
/** The pager column: `{feed, source, startRevision, kinds, truthCount, missed, checkError}`. */
let list = null;
/** The comparison column: `{feed, source, startRevision, missed}`. */
let core = null;
const facets = { categories: [], repositories: [] };

/**
 * The Pager class for a sort: the plain entry's, or for the natural order the collation entry's
 * ("kubeapps-pager/collation": the pager with a collator, about twice its size), imported and
 * initialised on first use only.
 */
let collationEntry = null;
async function pagerClassFor(sort) {
  if (sort !== "natural") return Pager;
  collationEntry ??= import("/pkg/collation/web/index.js").then(async (m) => {
    await m.default();
    return m;
  });
  return (await collationEntry).Pager;
}

/**
 * The pager's options for the page's state. The natural order is `sort: "name"` with a collation;
 * the demo's offset plugins order by name bytes (a database in the C collation), not by the
 * collation, so they are declared read whole (`order: "none"`) there: streamed, each would be
 * found out of order on its first chunks and switched to a whole read anyway (issue 11's order
 * learning), after requests that bring nothing.
 */
function pagerOptions(sources) {
  const natural = state.sort === "natural";
  return {
    sources: natural ? sources.map((s) => (s.kind === "kubernetes" ? s : { ...s, order: "none" })) : sources,
    pageSize: state.size,
    chunkLimit: state.chunk,
    sort: natural ? "name" : state.sort,
    ...(natural && { collation: { locale: "en" } }),
    filter: { query: state.query, categories: state.categories, repositories: state.repositories },
  };
}

/** The package's fetcher for the kubeapps-apis REST paths (made once the wasm is initialised). */
let fetchChunk = null;
const log = new RequestLog($("request-log"), { onCount: (n) => ($("log-count").textContent = n ? String(n) : "") });
const backend = new BackendPanel($("backend"), {
  onRestart: (why) => startList({ why }),
  onData: () => loadFacets(),
});

// ---- notices ----

function showNotice(text, tone = "info") {
  el.noticeText.textContent = text;
  el.notice.classList.toggle("warn", tone === "warn");
  el.notice.dataset.tone = tone;
  el.notice.hidden = false;
}

function hideNotice() {
  el.notice.hidden = true;
  el.noticeText.textContent = "";
}

// ---- the lists ----

/** One source per plugin and namespace, of the kind the plugin's behaviour calls for. */
function sourcesFor(cfg, plugins) {
  const out = [];
  for (const p of cfg.plugins) {
    if (plugins.length && !plugins.includes(p.name)) continue;
    for (const namespace of Object.keys(p.namespaces).sort()) {
      // Every source is a plugin's REST endpoint, which filters (its own search is the search),
      // whatever its paging: also `kubernetes`, whose default would be the pager's filter.
      out.push({ plugin: p.name, cluster: cfg.cluster, namespace, kind: KIND[p.behaviour] ?? "kubeapps", filter: "source" });
    }
  }
  return out;
}

function stopFeeds() {
  $("unreachable").hidden = true;
  if (list) {
    const { feed, source } = list;
    // Free the wasm pager once its last call has settled (aborting makes it settle at once).
    feed.stop().then(() => source.dispose());
    list = null;
  }
  if (core) {
    core.feed.stop();
    core = null;
  }
}

/**
 * startList starts the pager column afresh (a new Pager) or, given `token`, from that token
 * (`Pager.resume`); a token that does not fit (FILTER_MISMATCH, INVALID_PAGE_TOKEN, …) starts over
 * and says so. `why` is shown as a notice. In comparison mode the Kubeapps column starts too.
 */
async function startList({ token = null, why = "" } = {}) {
  const gen = ++generation;
  stopFeeds();
  hideNotice();
  if (why) showNotice(why);
  el.pagerCards.replaceChildren();
  el.coreCards.replaceChildren();
  for (const [column, status] of [[el.pagerColumn, el.pagerStatus], [el.coreColumn, el.coreStatus]]) {
    column.dataset.state = "idle";
    column.dataset.pages = "0";
    status.replaceChildren();
  }
  // A new list starts at the top of the window (and of each column's scroller).
  window.scrollTo(0, 0);
  el.pagerScroller.scrollTop = 0;
  el.coreScroller.scrollTop = 0;
  el.coreCapped.hidden = true;
  $("core-missed").hidden = true;
  log.clear();
  renderStats(el.stats, null);
  renderToken(el.token, null);
  const cfg = await backend.refresh();
  if (gen !== generation) return;
  if (!cfg) {
    showNotice("The demo backend does not answer (GET /demo/config failed).", "warn");
    return;
  }
  config = cfg;
  const sources = sourcesFor(cfg, state.plugins);
  if (sources.length === 0) {
    showNotice(`No source matches the package type filter (${state.plugins.join(", ")}).`, "warn");
    renderFacts();
    return;
  }
  const options = pagerOptions(sources);
  let Pager;
  try {
    Pager = await pagerClassFor(state.sort);
  } catch (e) {
    showNotice(`Cannot load the pager for this order (${e?.code ?? e?.name}: ${e?.message}).`, "warn");
    return;
  }
  if (gen !== generation) return;
  let pager = null;
  let resumed = false;
  if (token) {
    try {
      pager = Pager.resume(token, options);
      resumed = true;
    } catch (e) {
      showNotice(`The page token in this link does not fit this list (${e?.code ?? e?.name}: ${e?.message}). Started over from the top.`, "warn");
    }
  }
  if (!pager) {
    try {
      pager = new Pager(options);
    } catch (e) {
      showNotice(`Cannot page with these settings (${e?.code ?? e?.name}: ${e?.message}).`, "warn");
      return;
    }
  }
  state = { ...state, page: resumed ? token : null };
  writeState(state);
  const kinds = Object.fromEntries(sources.map((s) => [`${s.plugin}/${s.cluster}/${s.namespace}`, s.kind]));
  const entry = { feed: null, source: null, startRevision: cfg.revision, kinds, truthCount: null, missed: null, checkError: "", checkedPages: -1 };
  const source = new PagerSource({
    pager, fetchChunk, log, resumed, list: el.pagerCards, sort: state.sort,
    onPage: (page) => onPagerPage(entry, page),
  });
  const feed = new Feed({
    column: el.pagerColumn, list: el.pagerCards, status: el.pagerStatus, sentinel: el.pagerSentinel, source,
    onState: () => renderFacts(),
  });
  source.feed = feed;
  Object.assign(entry, { feed, source });
  list = entry;
  renderToken(el.token, resumed ? token : null);
  renderFacts();
  if (state.compare) await startCore(gen, cfg);
  if (gen !== generation) return;
  feed.observe(state.compare ? el.pagerScroller : null);
}

/** The comparison column: the core path from the top, capped at twice the catalog. */
async function startCore(gen, cfg) {
  const filter = filterOf(state);
  let truth;
  try {
    truth = await fetchTruth({ ...filter, plugins: [] }, "name");
  } catch {
    truth = { count: 0, revision: cfg.revision };
  }
  if (gen !== generation) return;
  const entry = { feed: null, source: null, startRevision: truth.revision, missed: null };
  const source = new CoreSource({
    filter, size: state.size, cluster: cfg.cluster, list: el.coreCards,
    cap: Math.max(2 * truth.count, 2 * state.size),
    onPage: () => {
      renderFacts();
      scheduleCheck();
    },
  });
  const feed = new Feed({
    column: el.coreColumn, list: el.coreCards, status: el.coreStatus, sentinel: el.coreSentinel, source,
    onState: (f) => {
      renderFacts();
      if (f.state === "done" || f.state === "capped") scheduleCheck();
    },
  });
  source.feed = feed;
  Object.assign(entry, { feed, source });
  core = entry;
  feed.observe(el.coreScroller);
}

/**
 * The banner naming the sources a page lacks (`page.unreachable`, AIP-217 style), with a Retry
 * that asks them again (`pager.retryUnreachable()`) and reopens a list that had ended without them.
 */
function renderUnreachable(entry, page) {
  const banner = $("unreachable");
  const missing = page?.unreachable ?? [];
  banner.hidden = missing.length === 0;
  if (missing.length === 0) return;
  const why = (u) => `${u.source} (HTTP ${u.status}${u.reason ? ` ${u.reason}` : ""}, ${u.cause === "failed-for-good" ? "fails for good" : "failed 5 times in a row"})`;
  $("unreachable-text").textContent =
    `Not shown: ${missing.map(why).join("; ")}. The catalog goes on with the other plugins; ` +
    "its packages come back, none twice, once it answers again: Retry asks it now (loading more pages also does, after a few seconds).";
  $("unreachable-retry").onclick = () => {
    if (entry !== list) return;
    entry.source.pager.retryUnreachable();
    banner.hidden = true;
    entry.feed.reopen();
  };
}

function onPagerPage(entry, page) {
  if (entry !== list) return;
  renderUnreachable(entry, page);
  state = { ...state, page: page.nextPageToken };
  writeState(state);
  renderStats(el.stats, entry.source.pager.stats, entry.kinds);
  renderToken(el.token, page.nextPageToken);
  renderFacts();
  scheduleCheck({ now: page.done });
  refreshBackendSoon();
}

let backendTimer = null;
function refreshBackendSoon() {
  if (backendTimer) return;
  backendTimer = setTimeout(() => {
    backendTimer = null;
    backend.refresh();
  }, 1500);
}

// ---- checks against the ground truth ----

let checking = null;
let checkAgain = false;
let lastCheck = 0;
let checkTimer = null;
/** Least time between two truth checks while pages come (ms): the truth is a whole-catalog answer. */
const CHECK_EVERY = 1000;

/**
 * scheduleCheck runs a truth check: at once when `now` (a list ended), else at most once per
 * CHECK_EVERY; one that comes while another runs makes that one run again after.
 */
function scheduleCheck({ now = false } = {}) {
  if (checking) {
    checkAgain = true;
    return;
  }
  const wait = now ? 0 : lastCheck + CHECK_EVERY - Date.now();
  if (wait > 0) {
    checkTimer ??= setTimeout(() => {
      checkTimer = null;
      scheduleCheck({ now: true });
    }, wait);
    return;
  }
  clearTimeout(checkTimer);
  checkTimer = null;
  lastCheck = Date.now();
  checking = runCheck().finally(() => {
    checking = null;
    if (checkAgain) {
      checkAgain = false;
      scheduleCheck({ now: true });
    }
  });
}

/**
 * runCheck compares each column with GET /demo/truth (same filter) since the revision it started
 * at: the pager column's misses are the packages present the whole time that sort inside the range
 * it has shown; the Kubeapps column's, once it has ended, those it never showed.
 */
async function runCheck() {
  const gen = generation;
  const l = list;
  const c = core;
  const filter = filterOf(state);
  if (l) {
    const s = l.source;
    const pages = s.pages;
    const seen = new Set(s.seen);
    const done = s.done;
    const lastKey = s.lastKey;
    try {
      // The backend's truth has no natural order: the set is the same as by name, and under the
      // natural order what was missed is counted once the list is done (a range needs the order).
      const natural = state.sort === "natural";
      const truth = await fetchTruth(filter, natural ? "name" : state.sort, l.startRevision);
      if (gen !== generation) return;
      l.truthCount = truth.count;
      const nothingYet = seen.size === 0 && (!done || s.resumed);
      l.missed = nothingYet || (natural && (!done || s.resumed))
        ? []
        : missedInRange(truth, seen, natural ? "name" : state.sort, natural ? null : s.resumed ? s.firstKey : null, done ? null : lastKey);
      l.checkError = "";
      l.checkedPages = pages;
    } catch (e) {
      l.checkError = String(e?.message ?? e);
    }
  }
  if (c && (c.source.done || c.source.capReason)) {
    try {
      const truth = await fetchTruth(filter, "name", c.startRevision);
      if (gen !== generation) return;
      const shown = new Set(c.source.shown);
      c.missed = (truth.since?.identities ?? []).filter((id) => !shown.has(id));
      showMissed(c.missed);
    } catch (e) {
      c.missed = null;
    }
  }
  renderFacts();
}

// ---- rendering of the facts, flags, tallies ----

function tallies(target, rows) {
  fill(target, rows.map(([label, value, testid, tone, title]) => h("div", { class: `tally ${tone ?? ""}`, title },
    h("dt", {}, label), h("dd", { dataset: { testid } }, value))));
}

const tone = (n) => (n === null || n === undefined ? "" : n > 0 ? "bad" : "good");

function renderFacts() {
  const l = list;
  const s = l?.source;
  const shown = s ? s.identities.length : 0;
  const twice = s ? extraCopies(s.identities) : 0;
  const missed = l?.missed ? l.missed.length : null;
  const done = s?.done ?? false;
  el.summary.textContent = s
    ? `${num(shown)} shown · ${s.pages} page${s.pages === 1 ? "" : "s"}${done ? " · the end" : ""}`
    : "";
  el.listAside.textContent = s ? `${l.feed?.state ?? ""}` : "";
  const stats = s?.lastPage?.stats;
  fill(el.facts, kv([
    ["pages", num(s?.pages ?? 0), "fact-pages"],
    ["shown", num(shown), "fact-shown"],
    ["shown twice", num(twice), "fact-twice"],
    ["in the catalog now", l?.truthCount === null || !l ? "…" : num(l.truthCount), "fact-truth-count"],
    ["missed so far", l?.checkError ? `check failed: ${l.checkError}` : missed === null ? "…" : num(missed), "fact-missed"],
    ["started", l ? (s.resumed ? `from the link's token, at revision ${num(l.startRevision)}` : `at revision ${num(l.startRevision)}`) : "—"],
    ["truth check", l && l.checkedPages >= 0 ? `after page ${l.checkedPages}` : "—", "fact-checked-pages"],
    ["last page", stats ? `${num(stats.requests)} requests, ${num(stats.itemsScanned)} scanned, ${num(stats.itemsEmitted)} shown` : "—", "fact-last-page"],
  ]));
  const inconsistent = s ? s.sawInconsistent : 0;
  const truncated = s ? s.sawTruncated : 0;
  const pl = (n) => `${n} page${n === 1 ? "" : "s"}`;
  setFlag(el.flagInconsistent, inconsistent > 0, inconsistent > 0 ? `⚠ inconsistent (${pl(inconsistent)})` : "✓ consistent");
  setFlag(el.flagTruncated, truncated > 0, truncated > 0 ? `⚠ truncated (${pl(truncated)})` : "✓ not truncated");
  el.flagResumed.hidden = !s?.resumed;
  tallies(el.pagerTallies, [
    ["shown", num(shown), "tally-shown"],
    ["shown twice", num(twice), "tally-twice", tone(twice)],
    ["missed", missed === null ? "…" : num(missed), "tally-missed", tone(missed), "Present the whole time, in the range shown, not shown"],
  ]);
  const c = core?.source;
  if (c) {
    const cTwice = extraCopies(c.shown);
    const cMissed = core.missed ? core.missed.length : null;
    tallies(el.coreTallies, [
      ["shown", num(c.shown.length), "tally-shown"],
      ["shown twice", num(cTwice), "tally-twice", tone(cTwice)],
      ["fetched twice", num(c.fetchedTwice), "tally-fetched-twice", tone(c.fetchedTwice), "Received again; the dashboard's uniqBy hides these"],
      ["hidden by uniqBy", num(c.hiddenByIdentifier), "tally-hidden", tone(c.hiddenByIdentifier), "Other packages with an identifier already shown"],
      ["missed", cMissed === null ? (c.done || c.capReason ? "…" : "at the end") : num(cMissed), "tally-missed", tone(cMissed), "Present the whole time, never shown"],
    ]);
    el.coreCapped.textContent = c.capReason;
    el.coreCapped.hidden = !c.capReason;
  } else {
    el.coreTallies.replaceChildren();
  }
}

/** Lists (up to 200 of) the packages the Kubeapps column never showed. */
function showMissed(missed) {
  const box = $("core-missed");
  box.hidden = missed.length === 0;
  const shown = missed.slice(0, 200).map((id) => h("li", {}, id));
  if (missed.length > 200) shown.push(h("li", {}, `… and ${num(missed.length - 200)} more`));
  fill($("core-missed-list"), shown);
}

function setFlag(flag, on, text) {
  flag.classList.toggle("on", on);
  flag.classList.toggle("ok", !on);
  flag.dataset.on = on ? "1" : "0";
  flag.textContent = text;
}

// ---- filters ----

const FILTER_KEYS = ["query", "categories", "repositories", "plugins", "sort", "size", "chunk"];

/** Applies a change of filter, sort or sizes: a new list from the top (a new Pager). */
function setFilter(patch) {
  const next = { ...state, ...patch };
  if (FILTER_KEYS.every((k) => JSON.stringify(next[k]) === JSON.stringify(state[k]))) return;
  state = { ...next, page: null };
  writeState(state);
  renderFacets();
  startList();
}

function renderFacets() {
  if (config) renderChecks(el.plugins, pluginOptions(config), state.plugins, (v) => setFilter({ plugins: v }), "filter-plugin");
  if (facets.categories.length || state.categories.length) {
    renderChecks(el.categories, facets.categories, state.categories, (v) => setFilter({ categories: v }), "filter-category");
  }
  if (facets.repositories.length || state.repositories.length) {
    renderChecks(el.repositories, facets.repositories, state.repositories, (v) => setFilter({ repositories: v }), "filter-repository");
  }
}

/** Loads the category and repository lists (after a start, a reset or writes). */
async function loadFacets() {
  const cfg = config;
  if (!cfg) return;
  try {
    const empty = { query: "", categories: [], repositories: [], plugins: [] };
    const [truth, categories] = await Promise.all([fetchTruth(empty, "name"), categoryOptions(cfg)]);
    facets.repositories = repositoryOptions(truth);
    facets.categories = categories;
  } catch {
    // Facets are a convenience; the list works without them.
  }
  renderFacets();
}

function options(select, values, current, label = String) {
  const all = values.includes(current) ? values : [...values, current].sort((a, b) => a - b);
  fill(select, all.map((v) => h("option", { value: v }, label(v))));
  select.value = String(current);
}

function bindUi() {
  el.q.value = state.query;
  el.sort.value = state.sort;
  options(el.size, SIZES, state.size);
  options(el.chunk, CHUNKS, state.chunk);
  el.compare.checked = state.compare;
  let timer = null;
  const search = () => {
    clearTimeout(timer);
    setFilter({ query: el.q.value.trim() });
  };
  el.q.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(search, 300);
  });
  el.form.addEventListener("submit", (e) => {
    e.preventDefault();
    search();
  });
  el.sort.addEventListener("change", () => setFilter({ sort: el.sort.value }));
  el.size.addEventListener("change", () => setFilter({ size: Number(el.size.value) }));
  el.chunk.addEventListener("change", () => setFilter({ chunk: Number(el.chunk.value) }));
  $("clear-filters").addEventListener("click", () => {
    el.q.value = "";
    setFilter({ query: "", categories: [], repositories: [], plugins: [] });
  });
  el.compare.addEventListener("change", () => {
    state = { ...state, compare: el.compare.checked, page: null };
    writeState(state);
    applyMode();
    startList({ why: state.compare ? "Comparison on: both columns start from the top at the same revision." : "" });
  });
  $("notice-close").addEventListener("click", hideNotice);
  $("start-over").addEventListener("click", () => startList());
  $("check-truth").addEventListener("click", () => scheduleCheck({ now: true }));
  $("copy-link").addEventListener("click", async (e) => {
    const button = e.currentTarget;
    try {
      await navigator.clipboard.writeText(location.href);
      button.textContent = "Link copied";
    } catch {
      button.textContent = "Copy failed";
    }
    setTimeout(() => (button.textContent = "Copy link"), 1500);
  });
}

function applyMode() {
  el.columns.classList.toggle("compare", state.compare);
  el.coreColumn.hidden = !state.compare;
}

/** On narrow screens the panels start closed, so that the cards are in view. */
function fitPanels() {
  if (matchMedia("(max-width: 1240px)").matches) {
    for (const d of document.querySelectorAll('details[data-narrow="closed"]')) d.open = false;
  }
  if (matchMedia("(max-width: 760px)").matches) $("filters-box").open = false;
}

async function main() {
  fitPanels();
  await Promise.all([init(), initCodec()]);
  fetchChunk = kubeappsFetcher({ baseUrl: "/apis" });
  bindUi();
  applyMode();
  await startList({ token: state.page });
  renderFacets();
  await loadFacets();
  document.body.dataset.ready = "1";
}

main().catch((e) => {
  showNotice(`The demo failed to start: ${e?.message ?? e}`, "warn");
  document.body.dataset.ready = "error";
});
