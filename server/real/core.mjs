// Today's Kubeapps core fan-in (core/packages/v1alpha1 packages.go, packages_fan_in.go) over the
// real plugin services: the same steps as server/core-merge.mjs (which runs them over the
// simulated store, synchronously), here awaiting each plugin: a raw JSON token
// `{"<plugin>": nextItemOffset}` (-1 = finished) holding only the plugins that gave an item
// or finished in this page; each plugin asked `pageSize / (n-1)` items and read one ahead;
// items merged by `name` only (byte order), ties to the first plugin. Each plugin is read
// with its plugin's own paging (kapp_controller: offsets, as the real core reads it).
import { goJsonString } from "../continue-token.mjs";
import { compareUtf8 } from "../order.mjs";
import { PLUGINS } from "../summary.mjs";
import { PluginError } from "./plugin-error.mjs";

const COMPLETE = -1;

class PluginStream {
  constructor(app, plugin, offset, pageSize, request) {
    Object.assign(this, { app, plugin, pageSize, request, queue: [], itemOffset: offset, token: String(offset) });
    this.done = offset === COMPLETE;
  }

  async fetch() {
    const request = { ...this.request, paginationOptions: { pageSize: this.pageSize, pageToken: this.token } };
    let r;
    try {
      r = await this.app.pluginPage(this.plugin, request, { via: "viaCore", behaviour: "kubeapps-offset" });
    } catch (e) {
      this.queue.push({ err: e });
      this.done = true;
      return;
    }
    let categories = r.response.categories ?? [];
    for (const s of r.response.availablePackageSummaries ?? []) {
      this.itemOffset += 1;
      this.queue.push({ s, categories, nextItemOffset: this.itemOffset });
      categories = [];
    }
    const next = r.response.nextPageToken ?? "";
    if (next === "") this.done = true;
    else if (next !== String(this.itemOffset)) {
      this.queue.push({ err: new PluginError("internal", `inconsistent item offset: got: ${JSON.stringify(next)}, expected: ${this.itemOffset}`) });
      this.done = true;
    } else this.token = next;
  }

  async recv() {
    while (this.queue.length === 0) {
      if (this.done) return undefined;
      await this.fetch();
    }
    const item = this.queue.shift();
    if (this.queue.length === 0 && !this.done && !item.err) await this.fetch();
    return item;
  }
}

/**
 * coreList answers GetAvailablePackageSummaries of the core for `request` (kubeapps-apis JSON):
 * resolves to the response, or rejects with a PluginError (a bad token is internal, as Kubeapps
 * answers; a plugin's error passes through).
 */
export async function coreList(app, request, plugins = PLUGINS) {
  const token = request.paginationOptions?.pageToken ?? "";
  let start = {};
  try {
    const v = token === "" ? {} : JSON.parse(token);
    if (v !== null && (typeof v !== "object" || Array.isArray(v) || Object.values(v).some((n) => !Number.isSafeInteger(n)))) throw new Error("json: cannot unmarshal into Go value of type map[string]int");
    start = v ?? {};
  } catch (e) {
    throw new PluginError("internal", `Unable to request results from registered plugins: unable to unmarshal ${JSON.stringify(token)}: ${e.message}`);
  }
  const pageSize = Number(request.paginationOptions?.pageSize ?? 0) | 0;
  const n = plugins.length;
  const per = n > 1 ? Math.trunc(pageSize / (n - 1)) : pageSize;
  // A request without a namespace reads each plugin where the demo's user sees it (helm:
  // team-a and the global rows; the others: every namespace).
  const ctx = (p) => ({ cluster: request.context?.cluster ?? "", namespace: request.context?.namespace || app.defaultNamespace(p) });
  const streams = plugins.map((p) => new PluginStream(app, p, start[p] ?? 0, per, { context: ctx(p), filterOptions: request.filterOptions }));
  const offsets = new Map();
  const next = new Array(n).fill(null);
  const out = [];
  const categories = new Set();
  for (;;) {
    for (let i = 0; i < n; i++) {
      if (next[i]) continue;
      const v = await streams[i].recv();
      if (v === undefined) offsets.set(plugins[i], COMPLETE);
      else if (v.err) throw v.err;
      else next[i] = v;
    }
    let min = next.findIndex(Boolean);
    if (min < 0) break;
    for (let i = 0; i < n; i++) if (next[i] && compareUtf8(next[i].s.name, next[min].s.name) < 0) min = i;
    const item = next[min];
    offsets.set(plugins[min], item.nextItemOffset);
    out.push(item.s);
    for (const c of item.categories) if (c) categories.add(c);
    next[min] = null;
    if (out.length === pageSize) break;
  }
  const open = [...offsets.values()].some((v) => v !== COMPLETE);
  const keys = [...offsets.keys()].sort(compareUtf8);
  const res = {};
  if (out.length) res.availablePackageSummaries = out;
  if (open) res.nextPageToken = `{${keys.map((k) => `${goJsonString(k)}:${offsets.get(k)}`).join(",")}}`;
  if (categories.size) res.categories = [...categories].sort(compareUtf8);
  return res;
}
