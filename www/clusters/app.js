// The Cluster view: pods of the real-service mode's three clusters, one pager over
// `kubernetesFetcher` with `sort: "apiserver"`, and the truth check (shown twice, missed) against
// GET /demo/clusters/truth. State for the e2e test is on `window.clusterView`.
import init, { Pager, kubernetesFetcher } from "/pkg/web/index.js";

const $ = (id) => document.getElementById(id);
const CLUSTERS = ["east", "north", "west"];
const fetchChunk = kubernetesFetcher({
  clusters: Object.fromEntries(CLUSTERS.map((c) => [c, { baseUrl: `/clusters/${c}` }])),
});

const getJson = async (url, body) => {
  const r = await fetch(url, body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return r.json();
};

/** `cluster/namespace/name#uid` of a pod shown. */
const shownId = (o) => `${o.cluster}/${o.metadata.namespace}/${o.metadata.name}#${o.metadata.uid}`;
/** The apiserver order's key of `cluster/ns/name`: (ns/name, cluster). */
const keyOf = (id) => {
  const [cluster, ns, name] = id.split("#")[0].split("/");
  return [`${ns}/${name}`, cluster];
};
const before = (a, b) => a[0] < b[0] || (a[0] === b[0] && a[1] <= b[1]);

const view = (window.clusterView = { shown: [], pages: 0, done: false, since: 0, busy: false, error: null, check: null });
let pager;

function render(page) {
  const rows = $("rows");
  const frag = document.createDocumentFragment();
  for (const o of page.items) {
    const tr = document.createElement("tr");
    for (const text of [String(view.shown.length - page.items.length + frag.childNodes.length + 1), o.cluster, o.metadata.namespace, o.metadata.name, o.status?.phase ?? "", o.spec?.nodeName ?? ""]) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.append(td);
    }
    frag.append(tr);
  }
  rows.append(frag);
  const s = page.stats;
  $("status").textContent =
    `${view.shown.length} pods in ${view.pages} pages${view.done ? " (done)" : ""} · ${s.requests} requests · ` +
    s.sources.map((x) => `${x.source.split("/")[1]}: ${x.requests} req${x.streamed ? ", streamed" : ""}`).join(" · ") +
    (page.inconsistent ? " · inconsistent (a 410 Expired was recovered from)" : "");
  const ul = $("unreachable");
  ul.replaceChildren(...page.unreachable.map((u) => {
    const li = document.createElement("li");
    li.textContent = `${u.source} unreachable (${u.status}${u.reason ? ` ${u.reason}` : ""}): ${u.error?.message ?? ""}`;
    return li;
  }));
}

async function start() {
  pager?.free();
  view.shown = [];
  view.pages = 0;
  view.done = false;
  view.check = null;
  $("rows").replaceChildren();
  $("truth").textContent = "";
  const labelSelector = $("selector").value.trim();
  const namespace = $("namespace").value.trim();
  pager = new Pager({
    sources: CLUSTERS.map((cluster) => ({ cluster, resource: "pods.v1", namespace, ...(labelSelector ? { labelSelector } : {}) })),
    sort: "apiserver",
    pageSize: Number($("page-size").value),
    chunkLimit: 500,
  });
  view.since = (await getJson("/demo/clusters/truth")).revision;
  await next();
}

async function next() {
  if (view.done || view.busy) return;
  view.busy = true;
  try {
    const page = await pager.nextPage(fetchChunk);
    view.pages += 1;
    view.done = page.done;
    view.shown.push(...page.items.map(shownId));
    view.unreachable = page.unreachable.map((u) => u.source);
    render(page);
  } catch (e) {
    view.error = String(e?.message ?? e);
    $("status").textContent = `error: ${view.error}`;
  } finally {
    view.busy = false;
  }
}

/** Shown twice: an object (same uid) more than once. Missed: a pod present throughout since the list started, in the range shown, not shown. */
async function check() {
  const truth = await getJson(`/demo/clusters/truth?since=${view.since}`);
  const seen = new Map();
  for (const id of view.shown) seen.set(id, (seen.get(id) ?? 0) + 1);
  const twice = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
  const last = view.shown.length ? keyOf(view.shown[view.shown.length - 1]) : null;
  const inRange = (id) => view.done || (last !== null && before(keyOf(id), last));
  const missed = truth.since.uids.filter((id) => inRange(id) && !seen.has(id));
  view.check = { twice, missed, throughout: truth.since.uids.length, shown: view.shown.length };
  $("truth").textContent =
    `Truth since revision ${view.since}: ${truth.since.uids.length} pods present throughout (${truth.count} now). ` +
    `Shown twice: ${twice.length}. Missed${view.done ? "" : " in the range shown"}: ${missed.length}.` +
    (twice.length + missed.length ? ` ${[...twice, ...missed].slice(0, 5).join(", ")}` : "");
  return view.check;
}

await init();
$("restart").addEventListener("click", () => start());
$("more").addEventListener("click", () => next());
$("all").addEventListener("click", async () => {
  while (!view.done && !view.error) await next();
});
$("check").addEventListener("click", () => check());
$("churn").addEventListener("change", (e) => getJson("/demo/clusters/churn", { ratePerSecond: e.target.checked ? 20 : 0 }));
$("compact").addEventListener("click", () => getJson("/demo/compact", {}));
window.addEventListener("scroll", () => {
  if (window.innerHeight + window.scrollY >= document.body.offsetHeight - 400) next();
});
view.check = null;
view.next = next;
view.runCheck = check;
// The default backend (`npm start`) serves no clusters: a notice instead of an empty table. Its
// /demo/config says which backend runs (`backend: "real"` only there), without a 404 to log.
const config = await getJson("/demo/config").catch(() => null);
if (config !== null && config.backend !== "real") {
  view.unavailable = true;
  $("status").textContent =
    "No clusters on this backend: the Cluster view needs the real services (PostgreSQL and etcd). Run npm start -- --backend real.";
  for (const c of document.querySelectorAll(".dash-controls button, .dash-controls input, .dash-controls select")) c.disabled = true;
} else {
  await start().catch((e) => {
    view.error = String(e?.message ?? e);
    $("status").textContent = `error: ${view.error}`;
  });
}
view.ready = true;
