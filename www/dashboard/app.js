// The dashboard view (www/dashboard.html): kubeapps-pager as a Kubeapps dashboard uses it.
//  - A hash router (`#/catalog`, `#/installed`), as Kubeapps' HashRouter: only a hash change (a link,
//    back/forward) renders a route. The page position goes into the hash's query with the package's
//    writePageToken (history.replaceState), which fires no hashchange: writing it renders nothing.
//  - The package is loaded lazily, in the route's render (its "effect"): `import()` then `init()`,
//    on every render; init() fetches and instantiates the wasm once.
//  - A PageWindow of at most N pages: scrolling down loads the next page and drops the top one
//    from memory and from the page; scrolling up re-fetches earlier pages from their tokens. After a
//    reload the earlier tokens come from history.state; a shared link walks from the start once.
//  - Transport: the REST gateway (kubeappsFetcher) or the plugins' Connect services over gRPC-web or
//    Connect (connectFetcher over @connectrpc/connect-web clients, bundled at /demo/connect-web.js).
//  - The categories sidebar reads `page.categories`; an error shows its `userMessage`, the
//    developer's `message` and the transport's own error (`cause`) in a details box.

const $ = (id) => document.getElementById(id);
const el = { transport: $("transport"), maxPages: $("max-pages"), info: $("window-info"), cats: $("categories"),
  pages: $("pages"), top: $("top-status"), bottom: $("bottom-status"), error: $("error"), fail: $("fail") };

/** What the current route shows: `{ win, controller, busy, list, requests, generation }`. */
let view = null;
let generation = 0;
let scrolled = false;

function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "dataset") Object.assign(e.dataset, v);
    else if (v !== undefined && v !== null) e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

/** The route and its query, from the hash (`#/catalog?transport=grpc-web&category=Database`). */
function parseHash() {
  const hash = location.hash.startsWith("#/") ? location.hash.slice(1) : "/catalog";
  const q = hash.indexOf("?");
  return { path: q < 0 ? hash : hash.slice(0, q), params: new URLSearchParams(q < 0 ? "" : hash.slice(q + 1)) };
}

/** A new hash for the route with these query changes (`page` dropped: a new list). */
function hashWith(path, params, changes) {
  const p = new URLSearchParams(params);
  p.delete("page");
  for (const [k, v] of Object.entries(changes)) {
    p.delete(k);
    for (const x of [].concat(v ?? [])) p.append(k, x);
  }
  const s = p.toString();
  return `#${path}${s ? `?${s}` : ""}`;
}

async function fetcherFor(pkg, transport, list) {
  if (transport === "rest") return pkg.kubeappsFetcher({ baseUrl: new URL("/apis", location.href).href, list });
  const c = await import("/demo/connect-web.js");
  const make = transport === "connect" ? c.createConnectTransport : c.createGrpcWebTransport;
  const t = make({ baseUrl: new URL("/apis", location.href).href });
  const clients = {
    "helm.packages": c.createPromiseClient(c.HelmPackagesService, t),
    "fluxv2.packages": c.createPromiseClient(c.FluxV2PackagesService, t),
    "kapp_controller.packages": c.createPromiseClient(c.KappControllerPackagesService, t),
  };
  return pkg.connectFetcher({ clients, list });
}

const KIND = { kubernetes: "kubernetes", "kubeapps-offset": "kubeapps", unordered: "unordered" };

async function render() {
  const my = ++generation;
  view?.controller.abort(new DOMException("route changed", "AbortError"));
  view?.win.free();
  view = null;
  const { path, params } = parseHash();
  const list = path === "/installed" ? "installed" : "available";
  for (const a of document.querySelectorAll(".dash-tabs a")) {
    a.toggleAttribute("aria-current", a.getAttribute("href") === `#${path}`);
    if (a.hasAttribute("aria-current")) a.setAttribute("aria-current", "page");
  }
  const transport = ["rest", "connect", "grpc-web"].includes(params.get("transport")) ? params.get("transport") : "rest";
  const maxPages = Math.max(1, Math.min(10, Number(params.get("max")) || 3));
  el.transport.value = transport;
  el.maxPages.value = String(maxPages);
  el.pages.replaceChildren();
  el.cats.replaceChildren();
  el.error.hidden = true;
  el.top.textContent = "";
  el.bottom.textContent = "Loading…";
  scrolled = false;

  // The route's effect: load the package and init it (idempotent: the wasm is fetched once).
  const pkg = await import("/pkg/web/index.js");
  await pkg.init();
  const config = await (await fetch("/demo/config")).json();
  if (my !== generation) return;
  const sources = config.plugins.flatMap((p) => Object.keys(p.namespaces).sort().map((namespace) =>
    ({ plugin: p.name, cluster: config.cluster, namespace, kind: list === "installed" ? "kubeapps" : KIND[p.behaviour] ?? "kubeapps" })));
  const categories = params.getAll("category");
  const options = { sources, pageSize: 20, chunkLimit: 50, filter: { categories } };
  const inner = await fetcherFor(pkg, transport, list);
  if (my !== generation) return;
  const v = { list, requests: 0, busy: false, controller: new AbortController(), params, path, categories, transport };
  const fetchChunk = (request, init) => {
    v.requests++;
    return inner(request, init);
  };
  const open = (token) => (token ? pkg.Pager.resume(token, options) : new pkg.Pager(options));
  let at = pkg.readPageToken();
  try {
    if (at) open(at.token).free(); // a token for other filters: start over
  } catch {
    at = null;
    pkg.writePageToken({ token: "" });
  }
  v.win = new pkg.PageWindow({ open, fetchChunk, maxPages, at });
  view = v;
  await step("next");
}

function itemNode(item, list) {
  if (list === "installed") {
    const ref = item.installedPackageRef;
    const id = `${ref.plugin.name}/${ref.context.cluster}/${ref.context.namespace}/${ref.identifier}`;
    const status = item.status?.ready ? "ready" : (item.status?.userReason || "not ready");
    return h("li", { class: "dash-item", dataset: { identity: id } },
      h("strong", {}, item.name), " ", h("span", {}, item.pkgDisplayName || ""),
      h("div", { class: "id" }, `${ref.plugin.name} · ${ref.context.namespace} · ${item.currentVersion?.pkgVersion ?? ""} · ${status}`));
  }
  const ref = item.availablePackageRef;
  const id = `${ref.plugin.name}/${ref.context.cluster}/${ref.context.namespace}/${ref.identifier}`;
  return h("li", { class: "dash-item", dataset: { identity: id } },
    h("strong", {}, item.displayName || item.name),
    h("div", { class: "id" }, `${ref.identifier} · ${ref.plugin.name} · ${(item.categories ?? []).join(", ")}`));
}

function pageNode({ index, page }, list) {
  return h("section", { class: "dash-page", dataset: { pageIndex: String(index) } },
    h("h3", {}, `Page ${index + 1}`),
    h("ul", {}, ...page.items.map((item) => itemNode(item, list))));
}

/** Loads the next or the previous page into the window and the DOM, keeping what is on screen still. */
async function step(direction) {
  const v = view;
  if (!v || v.busy) return;
  v.busy = true;
  const status = direction === "next" ? el.bottom : el.top;
  status.textContent = "Loading…";
  try {
    const w = direction === "next" ? await v.win.next({ signal: v.controller.signal }) : await v.win.previous({ signal: v.controller.signal });
    if (v !== view) return;
    el.error.hidden = true;
    if (w) {
      const node = pageNode(w, v.list);
      if (direction === "next") el.pages.append(node);
      else {
        const before = document.documentElement.scrollHeight;
        el.pages.prepend(node);
        window.scrollBy(0, document.documentElement.scrollHeight - before);
      }
      // The pages the window dropped leave the DOM too (bounded memory); one dropped above the
      // viewport moves what is shown up by its height: scroll by as much to keep it still.
      const kept = new Set(v.win.pages.map((p) => String(p.index)));
      for (const section of [...el.pages.children]) {
        if (kept.has(section.dataset.pageIndex)) continue;
        const height = section.offsetHeight;
        section.remove();
        if (direction === "next") window.scrollBy(0, -height); // it was above: the top one
      }
      renderCategories(w.page, v);
    }
    pkgWrite(v);
    renderInfo(v);
  } catch (e) {
    if (v === view && e?.code !== "ABORTED") showError(e);
  } finally {
    v.busy = false;
    if (v === view) {
      el.bottom.textContent = v.win.done ? "End of the list" : "";
      el.top.textContent = v.win.atStart ? "Top of the list" : v.win.pages.length ? "Scroll up for earlier pages" : "";
      requestAnimationFrame(check);
    }
  }
}

async function pkgWrite(v) {
  const pkg = await import("/pkg/web/index.js");
  if (v === view && v.win.pages.length) pkg.writePageToken(v.win.position());
}

function renderCategories(page, v) {
  const items = page.categories.map((c) => {
    const on = v.categories.includes(c);
    const next = on ? v.categories.filter((x) => x !== c) : [...v.categories, c];
    return h("li", {}, h("a", { href: hashWith(v.path, v.params, { category: next }), "aria-current": on ? "true" : undefined, dataset: { category: c } }, c));
  });
  el.cats.replaceChildren(...items);
}

function renderInfo(v) {
  const wasm = performance.getEntriesByType("resource").filter((e) => /kubeapps_pager_bg\.wasm/.test(e.name)).length;
  const shown = v.win.pages.map((p) => p.index + 1);
  el.info.dataset.pagesInMemory = String(v.win.pages.length);
  el.info.dataset.first = String(v.win.first);
  el.info.dataset.requests = String(v.requests);
  el.info.dataset.wasmFetches = String(wasm);
  el.info.dataset.knowsStart = String(v.win.tokenOf(0) !== undefined);
  el.info.textContent = `Pages in memory: ${v.win.pages.length} (pages ${shown[0] ?? "–"}–${shown.at(-1) ?? "–"}) · chunk requests: ${v.requests} · wasm fetched ${wasm}×`;
}

function showError(e) {
  const cause = e?.cause;
  const causeText = cause === undefined ? "none"
    : cause instanceof Response ? `Response ${cause.status} ${cause.url}`
    : `${cause?.name ?? cause?.constructor?.name ?? typeof cause}${cause?.code !== undefined ? ` (code ${cause.code})` : ""}: ${cause?.message ?? ""}`;
  el.error.replaceChildren(
    h("p", { dataset: { testid: "error-user" } }, e?.userMessage ?? String(e)),
    h("details", {}, h("summary", {}, "Details for developers"),
      h("p", { dataset: { testid: "error-dev" } }, `${e?.code ?? e?.name}: ${e?.message}`),
      h("p", { dataset: { testid: "error-cause" } }, `cause: ${causeText}`)),
    h("button", { type: "button", class: "btn small", dataset: { testid: "retry" } }, "Retry"));
  el.error.querySelector("button").onclick = () => {
    el.error.hidden = true;
    step("next");
  };
  el.error.hidden = false;
}

/** Loads a page when an edge of the list shows: below, or above once the user has scrolled. */
function check() {
  const v = view;
  if (!v || v.busy || !el.error.hidden) return;
  const viewport = window.innerHeight;
  if (!v.win.done && el.bottom.getBoundingClientRect().top < viewport + 200) step("next");
  else if (scrolled && !v.win.atStart && el.top.getBoundingClientRect().bottom > -200) step("previous");
}

/**
 * The user scrolled, or tried to: at the top of the page (a resumed page shows first, at 0) a
 * scroll up moves nothing and fires no scroll event, so a wheel, touch or key going up counts
 * too. Any scroll event counts, wherever it ends (a scroll down and back up before the next frame
 * fires one event, at 0).
 */
function userScrolled() {
  scrolled = true;
  check();
}
window.addEventListener("scroll", userScrolled, { passive: true });
window.addEventListener("wheel", (e) => e.deltaY < 0 && userScrolled(), { passive: true });
window.addEventListener("touchmove", userScrolled, { passive: true });
window.addEventListener("keydown", (e) => ["ArrowUp", "PageUp", "Home"].includes(e.key) && userScrolled());
window.addEventListener("hashchange", render);
el.transport.onchange = () => (location.hash = hashWith(parseHash().path, parseHash().params, { transport: el.transport.value }));
el.maxPages.onchange = () => (location.hash = hashWith(parseHash().path, parseHash().params, { max: el.maxPages.value }));
// Four failures in a row: nextPage retries a transient failure 3 times itself (its default
// policy, with backoff), so the fourth is the one the user sees.
el.fail.onclick = async () => {
  for (let i = 0; i < 4; i++) await fetch("/demo/fail", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ plugin: "helm" }) });
};
render();
