// kubeapps-pager/react: `usePager`, a React hook over the pager entry (this module imports
// "kubeapps-pager" and "react"; the wasm entries import nothing of React). Plain JS with a
// hand-written index.d.ts; scripts/package.mjs copies it into pkg/react/ (ESM) and writes a
// CommonJS copy beside it.

import { useCallback, useEffect, useRef, useState } from "react";
import init, { Pager, PagerError, PageWindow, readPageToken, writePageToken } from "kubeapps-pager";

/** `maxPages` when none is given: every page loaded stays (an infinite list that only grows). */
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

const IDLE = Object.freeze({
  items: [],
  late: [],
  categories: [],
  unreachable: [],
  loading: false,
  error: null,
  done: false,
  atStart: true,
  firstIndex: 0,
});

/**
 * Where the hook keeps the position: `url: false` nowhere; else `read()`/`write(position)` of the
 * caller, or the URL's `param` (default `"page"`) through `readPageToken`/`writePageToken` with
 * `place` (default `"search"`: the URL's search, before any `#`, which a hash router never reads).
 */
function positionStore(url) {
  if (url === false) return { read: () => null, write: () => {} };
  const { param = "page", place = "search", read, write } = url ?? {};
  return {
    read: read ?? (() => readPageToken({ param, place })),
    write: write ?? ((position) => writePageToken(position, { param, place })),
  };
}

/** The position of page `index` of `win` (its start token, and the earlier pages' when known). */
function positionOf(win, index) {
  const earlier = [];
  for (let i = 0; i < index; i++) {
    const token = win.tokenOf(i);
    if (token === undefined) return { index, token: win.tokenOf(index) ?? "", earlier: [] };
    earlier.push(token);
  }
  return { index, token: win.tokenOf(index) ?? "", earlier };
}

/** The items a window page shows: its late items (first on the page, `stats.lateItems`) apart. */
const shown = (page) => (page.stats.lateItems > 0 ? page.items.slice(page.stats.lateItems) : page.items);

/**
 * Pages `options` with `fetchChunk` (see index.d.ts for the contract). One pager per list: a new
 * `options` content (compared as `JSON.stringify` writes it), `fetchChunk`, `maxPages` or URL
 * setting is a new list; the old one's call in flight is aborted and its pager freed.
 */
export function usePager(options, fetchChunk, hookOptions = {}) {
  const { maxPages, url, prefetch = true } = hookOptions;
  const key = JSON.stringify(options);
  const urlKey = url === false ? "off" : JSON.stringify([url?.param, url?.place]);
  const [state, setState] = useState(IDLE);
  const [generation, setGeneration] = useState(0);
  const run = useRef(null);
  // The latest read/write functions (a caller's may be inline closures: not a new list each render).
  const store = useRef(positionStore(url));
  store.current = positionStore(url);
  const latestOptions = useRef(options);
  latestOptions.current = options;
  // The latest prefetch setting: read by each loadMore (a change is no new list).
  const latestPrefetch = useRef(prefetch);
  latestPrefetch.current = prefetch;

  const step = useCallback(async (direction) => {
    const r = run.current;
    if (!r?.win || r.busy || r.closed) return;
    const win = r.win;
    if (direction === "next" ? win.done : win.atStart) return;
    r.busy = true;
    setState((s) => ({ ...s, loading: true }));
    let restart = false;
    try {
      // Forward, the requests the page after this one needs go ahead once it is here (`prefetch`):
      // the next loadMore awaits them; a new list or unmount cancels them (the pager is freed).
      const got = await win[direction](
        direction === "next" ? { signal: r.controller.signal, prefetch: latestPrefetch.current } : { signal: r.controller.signal },
      );
      if (r.closed) return;
      if (got && direction === "next") {
        const { page } = got;
        // Late items: kept apart, in the order they came (never spliced into what is shown).
        if (page.stats.lateItems > 0) r.late = r.late.concat(page.items.slice(0, page.stats.lateItems));
        r.categories = page.categories;
        r.unreachable = page.unreachable;
        store.current.write(positionOf(win, got.index));
      }
      r.started = true;
      publish(r, null);
    } catch (e) {
      if (r.closed) return; // aborted or freed: this list is gone
      if (!r.started && r.fromUrl && e instanceof PagerError && (e.code === "FILTER_MISMATCH" || e.code === "INVALID_PAGE_TOKEN")) {
        // Another list's link (another filter) or a mangled one: start this list over.
        r.fromUrl = false;
        store.current.write({ index: 0, token: "", earlier: [] });
        r.win.free();
        r.win = new PageWindow({ open: r.open, fetchChunk, maxPages: r.maxPages });
        restart = true;
      } else {
        publish(r, e); // the window (and its pager) is where it was: loadMore() asks again
      }
    } finally {
      r.busy = false;
    }
    if (restart) return step("next");

    function publish(r, error) {
      setState({
        items: r.win.pages.flatMap((p) => shown(p.page)),
        late: r.late,
        categories: r.categories,
        unreachable: r.unreachable,
        loading: false,
        error,
        done: r.win.done,
        atStart: r.win.atStart,
        firstIndex: r.win.first,
      });
    }
  }, [fetchChunk]);

  useEffect(() => {
    const r = {
      win: null,
      open: null,
      maxPages: maxPages ?? UNBOUNDED,
      controller: new AbortController(),
      busy: false,
      closed: false,
      started: false,
      fromUrl: false,
      late: [],
      categories: [],
      unreachable: [],
    };
    run.current = r;
    setState({ ...IDLE, loading: true });
    const options = latestOptions.current;
    // The pager is made only once init() has settled, in a later task than this effect: under
    // StrictMode the first mount's cleanup has run by then, so only the second mount makes one.
    init()
      .then(() => {
        if (r.closed) return;
        r.open = (token) => (token ? Pager.resume(token, options) : new Pager(options));
        const at = store.current.read();
        r.fromUrl = at != null;
        r.win = new PageWindow({ open: r.open, fetchChunk, maxPages: r.maxPages, at });
        return step("next");
      })
      .catch((e) => {
        if (!r.closed) setState((s) => ({ ...s, loading: false, error: e }));
      });
    return () => {
      r.closed = true;
      r.controller.abort(new PagerError("ABORTED", "the list changed or was closed", {}));
      r.win?.free(); // a call still running rejects at once (PAGER_FREED), and is ignored
    };
    // `key` stands for `options`: a new object with the same content is the same list.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, fetchChunk, maxPages, urlKey, generation, step]);

  const loadMore = useCallback(() => step("next"), [step]);
  const loadPrevious = useCallback(() => step("previous"), [step]);
  const retryUnreachable = useCallback(() => {
    const r = run.current;
    if (!r?.win || r.closed) return 0;
    const retried = r.win.retryUnreachable();
    if (retried > 0) {
      setState((s) => ({ ...s, done: false }));
      void step("next");
    }
    return retried;
  }, [step]);
  const reset = useCallback(() => {
    store.current.write({ index: 0, token: "", earlier: [] });
    setGeneration((g) => g + 1);
  }, []);

  return { ...state, loadMore, loadPrevious, retryUnreachable, reset };
}
