// The comparison column: the catalog paged the way Kubeapps' dashboard does it today, through the
// core fan-in (GET /apis/core/packages/v1alpha1/availablepackages, token `{"plugin": offset}`).
// The dashboard appends each page to what it has, keeps the first item of each
// `availablePackageRef.identifier` (lodash uniqBy on the identifier alone: dashboard
// src/reducers/availablepackages.ts) and shows them sorted by lower-cased displayName.
import { packageCard, summaryFields, identityOf } from "./cards.js";
import { num } from "./dom.js";

/** Lower-cased display name, as the dashboard sorts. */
const displayKey = (item) => {
  const f = summaryFields(item);
  return (f.displayName || f.name).toLowerCase();
};

/**
 * CoreSource pages the core path into `list` with the dashboard's rules. It stops (state `capped`)
 * when a token comes back (the core path would cycle for ever) or once it has received `cap` items.
 * `filter` = `{query, categories, repositories, plugins}`: the first three go to the server as
 * filterOptions, `plugins` is applied in the browser (as the dashboard's package-type filter).
 */
export class CoreSource {
  constructor({ filter, size, cluster, cap, list, onPage }) {
    Object.assign(this, { filter, size, cluster, cap, list, onPage });
    this.feed = null;
    this.token = "";
    this.tokens = new Set();
    this.pages = 0;
    this.items = []; // the dashboard's state.items: uniqBy identifier, in the order received
    this.received = 0;
    this.receivedIds = new Set();
    this.keptIds = new Set();
    this.shown = []; // identities on screen, in screen order
    this.cards = new Map(); // identity → its card: the kept item of an identity never changes
    this.done = false;
    this.capReason = "";
  }

  /** Received again after it had been received once (uniqBy hides these). */
  get fetchedTwice() {
    return this.received - this.receivedIds.size;
  }

  /** Distinct packages dropped because another package had the same identifier. */
  get hiddenByIdentifier() {
    return this.receivedIds.size - this.keptIds.size;
  }

  #url() {
    const p = new URLSearchParams();
    p.set("context.cluster", this.cluster);
    p.set("paginationOptions.pageSize", String(this.size));
    if (this.token) p.set("paginationOptions.pageToken", this.token);
    if (this.filter.query) p.set("filterOptions.query", this.filter.query);
    for (const c of this.filter.categories) p.append("filterOptions.categories", c);
    for (const r of this.filter.repositories) p.append("filterOptions.repositories", r);
    return `/apis/core/packages/v1alpha1/availablepackages?${p}`;
  }

  async loadPage(signal) {
    const url = this.#url();
    const res = await fetch(url, { signal, headers: { accept: "application/json" } });
    let body = null;
    try {
      body = await res.json();
    } catch {
      body = null;
    }
    if (!res.ok || !body || typeof body !== "object") {
      const message = typeof body?.message === "string" ? body.message : res.statusText;
      throw Object.assign(new Error(`GET ${url}: ${message}`), { code: `HTTP ${res.status}` });
    }
    const page = Array.isArray(body.availablePackageSummaries) ? body.availablePackageSummaries : [];
    for (const item of page) {
      const f = summaryFields(item);
      this.received += 1;
      this.receivedIds.add(identityOf(f));
    }
    // uniqBy([...state.items, ...page], "availablePackageRef.identifier"): the first one wins.
    const byIdentifier = new Set(this.items.map((i) => summaryFields(i).identifier));
    for (const item of page) {
      const f = summaryFields(item);
      if (byIdentifier.has(f.identifier)) continue;
      byIdentifier.add(f.identifier);
      this.items.push(item);
      this.keptIds.add(identityOf(f));
    }
    this.#render();
    this.pages += 1;
    const next = typeof body.nextPageToken === "string" ? body.nextPageToken : "";
    let result = {};
    if (next === "") {
      this.done = true;
      result = { done: true };
    } else if (this.tokens.has(next) || next === this.token) {
      this.capReason = `Stopped: the core path handed back a token it gave before (${next}); the dashboard would loop here for ever.`;
      result = { capped: true };
    } else if (this.received >= this.cap) {
      this.capReason = `Stopped after receiving ${num(this.received)} items, ${num(this.cap)} being the cap (twice what exists): the core path had not ended.`;
      result = { capped: true };
    }
    this.tokens.add(this.token);
    this.token = next;
    this.onPage?.(this);
    return result;
  }

  #render() {
    const plugins = this.filter.plugins;
    const visible = plugins.length ? this.items.filter((i) => plugins.includes(summaryFields(i).plugin)) : this.items;
    // The dashboard's sort: by lower-cased displayName (stable: ties keep the order received).
    const sorted = visible.map((item) => [displayKey(item), item]).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    // Like the dashboard, the whole list is re-sorted; in the DOM only the new cards are inserted
    // (the cards already there keep their relative order: their keys do not change).
    this.shown = [];
    let cursor = this.list.firstElementChild;
    for (const [, item] of sorted) {
      const id = identityOf(summaryFields(item));
      let card = this.cards.get(id);
      if (!card) {
        card = packageCard(item, { testid: "core-card" });
        this.cards.set(id, card);
      }
      this.shown.push(id);
      if (card === cursor) cursor = cursor.nextElementSibling;
      else this.list.insertBefore(card, cursor);
    }
    while (cursor) {
      const next = cursor.nextElementSibling;
      cursor.remove();
      cursor = next;
    }
  }

  progress() {
    return { text: `Loading core page ${this.pages + 1}…` };
  }

  endText() {
    if (this.capReason) return this.capReason;
    return `The core path ended · ${num(this.shown.length)} shown`;
  }

  dispose() {}
}
