// A window of pages over a pager (scroll back with bounded memory) and the page token in the URL
// without going through a router. Plain JS over the pager's public API: `PageWindow` only calls
// `open(token)` (a Pager at that token) and `nextPage`. Exported by the package next to the
// fetchers (scripts/package.mjs copies this file beside the snippets). Keep the import line and
// the export line as they are: scripts/package.mjs rewrites them to CommonJS for the nodejs build.

import { makeError } from "./errors.js";

/**
 * Pages of one list, at most `maxPages` of them in memory, each with its index from the start of
 * the list (0) and its start token (the `nextPageToken` of the page before it; `""` for page 0).
 * `next()` loads the page after the last one, `previous()` the page before the first one,
 * dropping pages at the other end past `maxPages` (their tokens are kept: a dropped page is
 * fetched again from its token when scrolled back to; memory grows by one token a page, the items
 * stay bounded).
 *
 * `at` starts the window at a page other than the first (a reload, a deep link:
 * `readPageToken()`): `{ index, token, earlier? }`. `earlier` are the start tokens of the pages
 * before it (from `history.state`, which `writePageToken` keeps); without them, the first
 * `previous()` walks the list again from the start up to `index` (one `nextPage` a page, keeping
 * only tokens), because a page token only leads forward.
 *
 * A page fetched again shows the list as it is now: under writes it may differ from the first
 * time. Calls run one at a time (a call waits for the one before it).
 */
class PageWindow {
  constructor({ open, fetchChunk, maxPages = 5, at } = {}) {
    if (typeof open !== "function") throw invalid("open", "a function (token) => Pager");
    if (typeof fetchChunk !== "function") throw invalid("fetchChunk", "a function");
    if (!Number.isInteger(maxPages) || maxPages < 1) throw invalid("maxPages", "a whole number from 1");
    const index = at?.index ?? 0;
    if (!Number.isInteger(index) || index < 0) throw invalid("at.index", "a whole number from 0");
    if (index > 0 && !at?.token) throw invalid("at.token", "the start token of page at.index (a page after the first has one)");
    const earlier = at?.earlier ?? [];
    if (!Array.isArray(earlier) || earlier.length > index || earlier.some((t) => typeof t !== "string")) {
      throw invalid("at.earlier", `at most ${index} strings (the start tokens of the pages before at.index)`);
    }
    this.open = open;
    this.fetchChunk = fetchChunk;
    this.maxPages = maxPages;
    /** Start tokens by page index, from `base` on; `tokens[0]` is page `base`'s. */
    this.base = index - earlier.length;
    // A token at index 0 (a bare token in the URL, its index unknown) starts the window's list.
    this.tokens = [...earlier, String(at?.token ?? "")];
    /** The loaded pages, ascending: `{ index, page }`. */
    this.pages = [];
    /** A pager standing right after the last loaded page (reused by `next()`), and its page index. */
    this.forward = null;
    this.end = false;
    this.queue = Promise.resolve();
  }

  /** The index of the first loaded page (or of the start page, when none is loaded yet). */
  get first() {
    return this.pages[0]?.index ?? this.base + this.tokens.length - 1;
  }

  /** Whether the last loaded page is the list's last. */
  get done() {
    return this.end;
  }

  /** Whether the first loaded page is page 0. */
  get atStart() {
    return this.pages.length > 0 && this.pages[0].index === 0;
  }

  /** The start token of page `index`, if known. */
  tokenOf(index) {
    return index >= this.base ? this.tokens[index - this.base] : undefined;
  }

  /**
   * What to save to come back to the first loaded page: `{ index, token, earlier }`, for
   * `writePageToken` (`index` and `token` go in the URL, `earlier` in `history.state`).
   */
  position() {
    const index = this.first;
    const earlier = this.base === 0 ? this.tokens.slice(0, index) : [];
    return { index, token: this.tokenOf(index) ?? "", earlier };
  }

  /** Loads the page after the last loaded one: `{ index, page }`, or null when the list is done. */
  next(options) {
    return this.#serial(async () => {
      if (this.end) return null;
      const index = this.pages.length ? this.pages.at(-1).index + 1 : this.first;
      if (this.forward?.index !== index) {
        this.#dropForward();
        this.forward = { index, pager: this.open(this.tokenOf(index)) };
      }
      const page = await this.forward.pager.nextPage(this.fetchChunk, options);
      this.forward.index = index + 1;
      this.#learn(index + 1, page.nextPageToken);
      this.end = page.done;
      this.pages.push({ index, page });
      if (this.pages.length > this.maxPages) this.pages.shift();
      return this.pages.at(-1);
    });
  }

  /** Loads the page before the first loaded one: `{ index, page }`, or null at page 0. */
  previous(options) {
    return this.#serial(async () => {
      const index = this.first - 1;
      if (index < 0) return null;
      if (index < this.base) await this.#walk(options);
      const pager = this.open(this.tokenOf(index));
      let page;
      try {
        page = await pager.nextPage(this.fetchChunk, options);
      } finally {
        pager.free();
      }
      this.pages.unshift({ index, page });
      if (this.pages.length > this.maxPages) {
        this.pages.pop();
        this.end = false;
        this.#dropForward();
      }
      return this.pages[0];
    });
  }

  /**
   * Asks the sources set aside as unreachable again (`Pager.retryUnreachable` of the pager
   * `next()` keeps; none when no page is loaded yet or the window dropped it): the next `next()`
   * asks them, also after a last page (the list is then no longer done). Returns how many
   * sources it retried.
   */
  retryUnreachable() {
    const retried = this.forward?.pager.retryUnreachable() ?? 0;
    if (retried > 0) this.end = false;
    return retried;
  }

  /** Frees the pager `next()` keeps. The window can go on (it opens another one). */
  free() {
    this.#dropForward();
  }

  /**
   * Walks from the start of the list to learn the start tokens of pages 0 to `base - 1` (one
   * nextPage a page; the items are dropped as they come).
   */
  async #walk(options) {
    const learned = [""];
    const pager = this.open("");
    try {
      while (learned.length < this.base) learned.push((await pager.nextPage(this.fetchChunk, options)).nextPageToken);
    } finally {
      pager.free();
    }
    this.tokens = learned.concat(this.tokens);
    this.base = 0;
  }

  /** Records page `index`'s start token when it extends what is known. */
  #learn(index, token) {
    const at = index - this.base;
    if (at === this.tokens.length) this.tokens.push(token);
  }

  #dropForward() {
    this.forward?.pager.free();
    this.forward = null;
  }

  #serial(f) {
    const run = this.queue.then(f);
    this.queue = run.catch(() => {});
    return run;
  }
}

if (typeof Symbol.dispose === "symbol") PageWindow.prototype[Symbol.dispose] = PageWindow.prototype.free;

const invalid = (field, what) => makeError("INVALID_OPTIONS", `invalid options: ${field}: expected ${what}`, { field });

/** The key under which `writePageToken` keeps the earlier pages' tokens in `history.state`. */
const STATE_KEY = "kubeappsPager";

/**
 * Where the query sits. `place` `"auto"`: in the hash when the app routes by hash (`#/…`: React
 * Router's HashRouter), else in the URL's search. `"search"`: always the URL's search, before any
 * `#`, the part a hash router never reads (Kubeapps' dashboard turns every parameter of the
 * hash's query into a filter chip).
 */
function splitUrl(href, place = "auto") {
  if (place !== "auto" && place !== "search") throw invalid("place", '"auto" or "search"');
  const url = new URL(href);
  if (place === "auto" && url.hash.startsWith("#/")) {
    const hash = url.hash.slice(1);
    const q = hash.indexOf("?");
    return { url, inHash: true, path: q < 0 ? hash : hash.slice(0, q), params: new URLSearchParams(q < 0 ? "" : hash.slice(q)) };
  }
  return { url, inHash: false, params: url.searchParams };
}

/**
 * The page position in the URL, as `writePageToken` wrote it: `{ index, token, earlier }`
 * (`PageWindow`'s `at`), or null when the URL has none. `param` (default `"page"`) holds
 * `<index>.<token>`; a bare token (a URL of before, its index unknown) reads as index 0: the
 * window's list then starts at that token. `place` as for `writePageToken`. `earlier` comes from `history.state` when it was
 * written for this very position, else it is `[]`.
 */
function readPageToken({ param = "page", place = "auto", location = globalThis.location, history = globalThis.history } = {}) {
  const value = splitUrl(location.href, place).params.get(param);
  if (!value) return null;
  const m = /^(\d{1,9})\.(.*)$/s.exec(value);
  const index = m ? Number(m[1]) : 0;
  const token = m ? m[2] : value;
  const saved = history?.state?.[STATE_KEY];
  const earlier = saved?.token === token && saved.index === index && Array.isArray(saved.earlier) ? saved.earlier : [];
  return { index, token, earlier };
}

/**
 * Writes a page position (`PageWindow.position()`, or `{ token }`) into the URL with
 * `history.replaceState`: no router navigation, so a React Router (BrowserRouter or HashRouter)
 * re-renders nothing and keeps its own state (`history.state`'s other keys are kept as they
 * are). Under a hash route the parameter goes into the hash's query (`#/catalog?page=…`), else
 * into the search (`place: "search"`: always the search, where a hash router never reads it);
 * the other parameters are kept. `{ token: "" }` removes it. The earlier pages'
 * tokens go into `history.state` (they survive a reload and back/forward, not a shared link).
 */
function writePageToken(position, { param = "page", place = "auto", location = globalThis.location, history = globalThis.history } = {}) {
  const { index = 0, token = "", earlier = [] } = position ?? {};
  const { url, inHash, path, params } = splitUrl(location.href, place);
  if (token === "" && index === 0) params.delete(param);
  else params.set(param, `${index}.${token}`);
  if (inHash) {
    const query = params.toString();
    url.hash = path + (query ? `?${query}` : "");
  }
  const state = history.state !== null && typeof history.state === "object" ? { ...history.state } : {};
  state[STATE_KEY] = { index, token, earlier };
  history.replaceState(state, "", url.href);
  return url.href;
}

export { PageWindow, readPageToken, writePageToken };
