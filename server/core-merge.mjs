// GET /apis/core/packages/v1alpha1/availablepackages: the Kubeapps core's fan-in of the
// plugins as it is today (kubeapps-apis core/packages/v1alpha1 packages.go and
// packages_fan_in.go), rewritten here step for step so that it keeps its faults:
// - the page token is raw JSON `{"<plugin>": nextItemOffset}`, -1 for a finished plugin;
//   it only holds plugins that gave an item in this page or finished, so a plugin that
//   was idle for a page starts again from 0 (duplicates);
// - each plugin is asked `pageSize / (n-1)` items from its offset and read one item ahead
//   (its next chunk is fetched as soon as its current one is drained);
// - items merge by `name` only, ties going to the first plugin in registration order;
// - offsets are positions in lists that change (inserts, deletes, unordered sources).
// A plugin whose behaviour is `kubernetes` is read here through decimal offsets over its
// current list, as today's kapp_controller plugin slices the PackageMetadatas it lists.
import { pluginPage, parseSummariesRequest } from "./behaviours.mjs";
import { grpcError } from "./errors.mjs";
import { compareUtf8 } from "./order.mjs";
import { goJsonString } from "./continue-token.mjs";
import { toSummariesResponse, PLUGINS } from "./summary.mjs";

const COMPLETE = -1;

// One plugin's stream of items with their next offsets (sendAvailablePackageSummariesForPlugin).
class PluginStream {
  constructor(app, plugin, offset, pageSize, req) {
    this.app = app;
    this.plugin = plugin;
    this.req = req;
    this.pageSize = pageSize;
    this.queue = [];
    this.done = offset === COMPLETE; // exhausted in an earlier page: nothing is asked
    this.itemOffset = offset;
    this.token = String(offset);
    if (!this.done) this.#fetch();
  }

  #fetch() {
    const behaviour = this.app.behaviours[this.plugin] === "unordered" ? "unordered" : "kubeapps-offset";
    const r = pluginPage(this.app, this.plugin, { ...this.req, pageSize: this.pageSize, pageToken: this.token },
      { via: "viaCore", behaviour });
    if (!r.ok) {
      this.queue.push({ err: r.reply });
      this.done = true;
      return;
    }
    let categories = r.categories;
    for (const rec of r.records) {
      this.itemOffset += 1;
      this.queue.push({ rec, categories, nextItemOffset: this.itemOffset });
      categories = []; // sent once per response
    }
    if (r.nextPageToken === "") {
      this.done = true;
    } else if (r.nextPageToken !== String(this.itemOffset)) {
      this.queue.push({ err: grpcError("Internal", `inconsistent item offset: got: ${JSON.stringify(r.nextPageToken)}, expected: ${this.itemOffset}`) });
      this.done = true;
    } else {
      this.token = r.nextPageToken;
    }
  }

  // The next item, an {err}, or undefined once closed. Like the Go goroutine, the next
  // chunk is requested as soon as the last buffered item has been taken.
  recv() {
    while (this.queue.length === 0) {
      if (this.done) return undefined;
      this.#fetch();
    }
    const item = this.queue.shift();
    if (this.queue.length === 0 && !this.done && !item.err) this.#fetch();
    return item;
  }
}

// Go's json.Unmarshal of the token into map[string]int.
function parseCoreToken(token) {
  if (token === "") return {};
  const v = JSON.parse(token);
  if (v === null) return {};
  if (typeof v !== "object" || Array.isArray(v)) throw new Error("json: cannot unmarshal into Go value of type map[string]int");
  for (const [k, n] of Object.entries(v)) {
    if (!Number.isSafeInteger(n)) throw new Error(`json: cannot unmarshal ${JSON.stringify(n)} into Go value of type int (key ${k})`);
  }
  return v;
}

// Go's json.Marshal of map[string]int: keys sorted by bytes.
function marshalOffsets(offsets) {
  const keys = [...offsets.keys()].sort(compareUtf8);
  return `{${keys.map((k) => `${goJsonString(k)}:${offsets.get(k)}`).join(",")}}`;
}

/**
 * coreList merges the plugins (in `plugins` order) for one request; returns
 * `{ok: true, records, nextPageToken, categories}` or `{ok: false, reply}` (a bad token is
 * 500 Internal, as Kubeapps answers; a plugin's error is passed through).
 */
export function coreList(app, req, plugins = PLUGINS) {
  let start;
  try {
    start = parseCoreToken(req.pageToken);
  } catch (e) {
    return {
      ok: false,
      reply: grpcError("Internal", `Unable to request results from registered plugins: unable to unmarshal ${JSON.stringify(req.pageToken)}: ${e.message}`),
    };
  }
  const n = plugins.length;
  const pluginPageSize = n > 1 ? Math.trunc(req.pageSize / (n - 1)) : req.pageSize;
  const streams = plugins.map((p) => new PluginStream(app, p, start[p] ?? 0, pluginPageSize, req));
  const offsets = new Map();
  const next = new Array(n).fill(null);
  const records = [];
  const categories = new Set();
  for (;;) {
    for (let i = 0; i < n; i++) {
      if (next[i]) continue;
      const v = streams[i].recv();
      if (v === undefined) offsets.set(plugins[i], COMPLETE);
      else if (v.err) return { ok: false, reply: v.err };
      else next[i] = v;
    }
    let min = next.findIndex(Boolean);
    if (min < 0) break;
    for (let i = 0; i < n; i++) {
      if (next[i] && compareUtf8(next[i].rec.name, next[min].rec.name) < 0) min = i;
    }
    const item = next[min];
    offsets.set(item.rec.plugin, item.nextItemOffset);
    records.push(item.rec);
    for (const c of item.categories) if (c) categories.add(c);
    next[min] = null;
    if (records.length === req.pageSize) break;
  }
  const open = [...offsets.values()].some((v) => v !== COMPLETE);
  return {
    ok: true,
    records,
    nextPageToken: open ? marshalOffsets(offsets) : "",
    categories: [...categories].sort(compareUtf8),
  };
}

/** GET /apis/core/packages/v1alpha1/availablepackages as a reply `{status, body}`. */
export function handleCoreList(app, params) {
  app.requests.core += 1;
  const parsed = parseSummariesRequest(params);
  if (parsed.reply) return parsed.reply;
  const r = coreList(app, parsed.req);
  if (!r.ok) return r.reply;
  return { status: 200, body: toSummariesResponse(r.records, r.nextPageToken, r.categories) };
}
