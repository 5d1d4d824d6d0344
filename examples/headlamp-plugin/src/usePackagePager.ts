// A small infinite-list hook over kubeapps-pager's public API (Pager, nextPage, a built-in fetcher).
//
// It stands in for `usePager` of the package's `kubeapps-pager/react` entry, which is being built
// apart: same arguments (`options`, a stable `fetchChunk`), and a result with the same field names
// (`items`, `done`, `loading`, `error`, `unreachable`, `loadMore`, `retryUnreachable`), so moving
// to it is a change of the import in PackageList.tsx and the deletion of this file.
//
// What it does not do (usePager will): keep the position in the URL (a reload starts over here:
// Headlamp's router owns its query string), PageWindow scroll-back, placing late items.
import init, {
  type ChunkResponse,
  type FetchChunk,
  type ItemOf,
  Pager,
  type PagerOptions,
  type UnreachableSource,
} from 'kubeapps-pager';
import { useCallback, useEffect, useRef, useState } from 'react';

// The wasm: `init()` compiles it once per page load (the package's web build hands every later
// call the first call's promise, and forgets a failed one). headlamp-plugin's bundler (Vite in
// library mode) inlines `kubeapps_pager_bg.wasm` into main.js as a `data:application/wasm;base64,…`
// URL, so `init()` needs no file beside the plugin (README.md says why that matters in Headlamp).

export interface PagedList<T> {
  /** Every item shown so far, in the pager's order, each once. */
  items: T[];
  /** Nothing more to come from the sources that answer. */
  done: boolean;
  /** A page is on its way. */
  loading: boolean;
  /** What the last call failed with (a `PagerError`: `code`, `details`, `cause`); `loadMore` retries. */
  error: Error | null;
  /** Sources that failed for good and are left out (AIP-217 `unreachable`), from the last page. */
  unreachable: UnreachableSource[];
  /** Asks for the next page; ignored while one is loading, after the end or before the wasm is ready. */
  loadMore: () => void;
  /** Asks the unreachable sources again, then loads the next page. */
  retryUnreachable: () => void;
}

interface Run {
  pager: Pager | null;
  controller: AbortController;
  busy: boolean;
  closed: boolean;
  done: boolean;
  /** retryUnreachable() was called since the current nextPage call began. */
  retried: boolean;
}

/**
 * Pages `options` with `fetchChunk` (stable: module scope or `useMemo`). A new `options` content
 * (another filter, other sources) is a new list: the call in flight is aborted and its pager freed.
 * Safe under StrictMode (the first mount's pager is aborted and freed).
 */
export function usePackagePager<R extends ChunkResponse>(
  options: PagerOptions,
  fetchChunk: FetchChunk<R>
): PagedList<ItemOf<R>> {
  const [items, setItems] = useState<ItemOf<R>[]>([]);
  const [done, setDone] = useState(false);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<Error | null>(null);
  const [unreachable, setUnreachable] = useState<UnreachableSource[]>([]);
  const current = useRef<Run | null>(null);
  const key = JSON.stringify(options);

  const loadMore = useCallback(async () => {
    const run = current.current;
    if (!run || !run.pager || run.busy || run.closed || run.done) return;
    run.busy = true;
    setLoading(true);
    try {
      run.retried = false;
      const page = await run.pager.nextPage(fetchChunk, { signal: run.controller.signal });
      if (run.closed) return;
      // A retry made while this call ran may come after the call looked at the sources: the
      // list is then not done, whatever this page says; the next call asks them.
      run.done = page.done && !run.retried;
      setItems(shown => shown.concat(page.items));
      setDone(run.done);
      setUnreachable(page.unreachable);
      setError(null);
    } catch (e) {
      // ABORTED comes only after close; anything else is shown, and loadMore asks again.
      if (!run.closed) setError(e instanceof Error ? e : new Error(String(e)));
    } finally {
      run.busy = false;
      if (run.closed) run.pager?.free();
      else setLoading(false);
    }
  }, [fetchChunk]);

  const retryUnreachable = useCallback(() => {
    const run = current.current;
    if (!run?.pager || run.closed) return;
    run.pager.retryUnreachable();
    run.retried = true;
    run.done = false;
    setDone(false);
    void loadMore();
  }, [loadMore]);

  useEffect(() => {
    const run: Run = {
      pager: null,
      controller: new AbortController(),
      busy: false,
      closed: false,
      done: false,
      retried: false,
    };
    current.current = run;
    setItems([]);
    setDone(false);
    setLoading(true);
    setError(null);
    setUnreachable([]);
    init().then(
      () => {
        if (run.closed) return;
        try {
          run.pager = new Pager(options);
        } catch (e) {
          setLoading(false);
          setError(e instanceof Error ? e : new Error(String(e)));
          return;
        }
        void loadMore();
      },
      (e: unknown) => {
        if (run.closed) return;
        setLoading(false);
        setError(e instanceof Error ? e : new Error(String(e)));
      }
    );
    return () => {
      run.closed = true;
      run.controller.abort(new Error('the list changed or was closed'));
      if (!run.busy) run.pager?.free(); // else loadMore frees it when the aborted call settles
    };
    // `key` stands for `options`: a new object with the same content is the same list.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, loadMore]);

  return {
    items,
    done,
    loading,
    error,
    unreachable,
    loadMore: () => void loadMore(),
    retryUnreachable,
  };
}
