// "Under the hood" panels: the pager's counters, the current NextPageToken decoded, the chunk
// requests as they go. All values are rendered as text.
import { inspectToken } from "/pkg/codec/web/index.js"; // the codec entry; app.js initialises it
import { h, fill, kv, num, abbreviate } from "./dom.js";
import { pluginLabel } from "./cards.js";

const COLUMNS = [
  ["requests", "req", "Requests made"],
  ["itemsScanned", "scan", "Items scanned"],
  ["filteredOut", "filt", "Filtered out"],
  ["duplicatesDropped", "dup", "Duplicates dropped"],
  ["rescans", "resc", "Rescans (offset drift)"],
  ["expiredRecoveries", "410", "410 Expired recoveries"],
  ["staleResponses", "stale", "Stale answers ignored"],
  ["unreachable", "down", "Times set aside as unreachable (failed for good)"],
  ["lateItems", "late", "Items shown late (a plugin set aside came back)"],
];

/** A short name for `plugin/cluster/namespace`: `Helm · kubeapps`. */
function sourceName(label) {
  const [plugin, , namespace] = label.split("/");
  return `${pluginLabel(plugin)} · ${namespace || "all"}`;
}

/**
 * renderStats fills `el` with a table of `stats` (PagerStats: totals plus one row per source);
 * `kinds` maps `plugin/cluster/namespace` to the source's kind, shown as a tooltip.
 */
export function renderStats(el, stats, kinds = {}) {
  if (!stats) {
    fill(el, h("p", { class: "hint" }, "No page yet."));
    return;
  }
  const cell = (value, key, testid) => h("td", { class: value > 0 && ["rescans", "expiredRecoveries", "staleResponses", "duplicatesDropped", "unreachable", "lateItems"].includes(key) ? "hot" : "", dataset: testid ? { testid } : undefined }, num(value));
  const table = h("table", { class: "stats", dataset: { testid: "stats-table" } },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "source"), COLUMNS.map(([, short, long]) => h("th", { scope: "col", title: long, "aria-label": long }, short)))),
    h("tbody", {}, stats.sources.map((s) => h("tr", {},
      h("th", { scope: "row", title: `${s.source} (${kinds[s.source] ?? "?"}; ${s.streamed ? "streamed in the merge order" : "read whole, then sorted"})`, dataset: { streamed: s.streamed ? "1" : "0" } },
        sourceName(s.source), s.streamed ? "" : h("span", { class: "k" }, " · whole")),
      COLUMNS.map(([key]) => cell(s[key], key))))),
    h("tfoot", {}, h("tr", {}, h("td", {}, "total"), COLUMNS.map(([key]) => cell(stats[key], key, `stat-${key}`)))));
  // Not `itemsEmitted`: the pager counts there the items it has already merged into the next page.
  fill(el, h("div", { class: "table-wrap" }, table));
}

/** What a source's chunk token is, in words. */
function describeChunkToken(token) {
  if (token === "") return "(the list's start)";
  const info = inspectToken(token);
  if (info.kind === "continue") {
    return `continue: rv ${info.resourceVersion}${info.consistent ? "" : " (inconsistent)"}, start ${JSON.stringify(info.start)}`;
  }
  if (info.kind === "kubeappsOffset") return `offset ${info.offset}`;
  return abbreviate(token, 40);
}

/**
 * renderToken fills `el` with the current NextPageToken and what `inspectToken` reads in it:
 * length, page size, fingerprint and each source's chunk token, offset, watermark, snapshot,
 * exhausted and inconsistent flags.
 */
export function renderToken(el, token) {
  if (!token) {
    fill(el, h("p", { class: "hint" }, "No token yet: the list is at its start."));
    return;
  }
  const info = inspectToken(token);
  const link = h("a", { href: `inspector.html?token=${encodeURIComponent(token)}`, target: "_blank", rel: "noopener" }, "open in the token inspector");
  const box = h("pre", { class: "tokenbox", dataset: { testid: "token-text" } }, token);
  if (info.kind !== "page") {
    fill(el, box, h("p", { class: "result bad" }, `${info.kind}: ${info.code ?? ""} ${info.reason ?? ""} ${info.message ?? ""}`));
    return;
  }
  const sources = info.sources.map((s, i) => h("div", { class: "srcstate", dataset: { testid: `token-source-${i}` } },
    h("div", { class: "name" },
      `${pluginLabel(s.plugin)} · ${s.namespace || "all"}`,
      s.exhausted ? h("span", { class: "flag ok" }, "exhausted") : null,
      s.inconsistent ? h("span", { class: "flag on" }, "inconsistent") : null),
    h("div", { class: "line", title: s.watermark ? `watermark: ${s.watermark.identity.plugin}/${s.watermark.identity.cluster}/${s.watermark.identity.namespace}/${s.watermark.identity.identifier}` : "" },
      h("span", { class: "k" }, "chunk "), describeChunkToken(s.chunkToken),
      h("span", { class: "k" }, " · offset "), String(s.offset),
      s.resourceVersion ? [h("span", { class: "k" }, " · rv "), s.resourceVersion] : null,
      h("span", { class: "k" }, " · after "), s.watermark ? JSON.stringify(s.watermark.sortKey) : "nothing yet")));
  fill(el,
    box,
    kv([
      ["length", `${num(info.textLength)} chars (${num(info.byteLength)} bytes)`, "token-length"],
      ["format", `v${info.version}, page size ${info.pageSize}`],
      ["fingerprint", info.fingerprint, "token-fingerprint"],
    ]),
    h("p", { class: "row" }, link),
    sources);
}

/** A short description of a chunk request's token. */
function requestToken(request) {
  return request.pageToken === "" ? "start" : describeChunkToken(request.pageToken);
}

/** Items in a chunk response (Kubeapps summaries or a Kubernetes list). */
function itemsIn(response) {
  if (Array.isArray(response?.availablePackageSummaries)) return response.availablePackageSummaries.length;
  if (Array.isArray(response?.items)) return response.items.length;
  return 0;
}

/** The chunk requests the pager made, newest first (at most `max`). */
export class RequestLog {
  constructor(el, { max = 60, onCount } = {}) {
    this.el = el;
    this.max = max;
    this.count = 0;
    this.onCount = onCount;
  }

  clear() {
    this.count = 0;
    this.el.replaceChildren();
    this.onCount?.(0);
  }

  /** Records a request; returns `{ok(response), fail(error)}` to complete its line. */
  start(request) {
    this.count += 1;
    this.onCount?.(this.count);
    const what = `#${this.count} ${sourceName(`${request.source.plugin}/${request.source.cluster}/${request.source.namespace}`)} · ${requestToken(request)} · limit ${request.limit}`;
    const outcome = h("span", { class: "pending" }, " → …");
    const li = h("li", {}, what, outcome);
    this.el.prepend(li);
    while (this.el.childElementCount > this.max) this.el.lastElementChild.remove();
    return {
      ok: (response) => {
        outcome.className = "";
        outcome.textContent = ` → ${itemsIn(response)} items`;
      },
      fail: (error) => {
        outcome.className = "err";
        const status = error?.details?.status ?? error?.status;
        outcome.textContent = ` → ${error?.code ?? error?.name ?? "error"}${status !== undefined ? ` ${status}` : ""}${error?.details?.reason ? ` ${error.details.reason}` : ""}`;
      },
    };
  }
}
