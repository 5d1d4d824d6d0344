// kubeapps-pager/tanstack: the options of TanStack Query's `useInfiniteQuery` (v5) over a pager.
// Imports "kubeapps-pager" only (neither React nor TanStack Query: the object it returns is what
// `useInfiniteQuery` takes). Plain JS with a hand-written tanstack.d.ts; scripts/package.mjs copies
// it into pkg/react/ beside the hook.

import init, { Pager } from "kubeapps-pager";

/** A query key part for `options`: what JSON keeps of them (a predicate's `matches` is left out; its `id` is kept). */
const keyOf = (options) => JSON.parse(JSON.stringify(options));

/**
 * The `useInfiniteQuery` options of one list (see tanstack.d.ts for the contract). `pageParam` is
 * a page position `{ index, token }` (`token` the page's start token, `""` for page 0). The live
 * pager stands after the last page it fetched forward; a forward `pageParam` equal to its position
 * is fetched by it (nothing re-read), any other by a pager resumed at that token.
 */
export function pagerInfiniteQuery({ options, fetchChunk, queryKey, maxPages, at, prefetch = true } = {}) {
  if (typeof fetchChunk !== "function") throw new TypeError("pagerInfiniteQuery: fetchChunk must be a function");
  if (options === null || typeof options !== "object") throw new TypeError("pagerInfiniteQuery: options must be the pager's options");
  /** Start tokens by page index, as far as known (`at.earlier` and every page fetched). */
  const tokens = [];
  const start = { index: at?.index ?? 0, token: at?.token ?? "" };
  (at?.earlier ?? []).forEach((t, i) => (tokens[i] = t));
  tokens[start.index] = start.token;
  /** `{ pager, position, queue }`: the pager kept between forward pages, and where it stands. */
  let live = null;
  const stats = { pagersOpened: 0 };

  const open = (token) => {
    stats.pagersOpened++;
    return token ? Pager.resume(token, options) : new Pager(options);
  };
  const dropLive = () => {
    live?.pager.free();
    live = null;
  };

  async function queryFn({ pageParam, signal, direction }) {
    await init();
    const { index, token } = pageParam;
    let pager;
    const keep = direction !== "backward";
    if (keep) {
      // One call at a time on the live pager: a call TanStack cancelled may still be settling.
      if (live) await live.queue;
      if (live && live.position.index === index && live.position.token === token) pager = live.pager;
      else {
        dropLive();
        pager = open(token);
        live = { pager, position: { index, token }, queue: Promise.resolve() };
      }
    } else {
      pager = open(token); // scroll back: a pager of its own, the live one stays where it is
    }
    // Forward on the live pager, the next page's first requests go ahead (`prefetch`): the next
    // fetchNextPage awaits them; dropping the live pager (`free`, another position) cancels them.
    const call = pager.nextPage(fetchChunk, keep ? { signal, prefetch } : { signal });
    if (keep) live.queue = call.then(() => {}, () => {});
    try {
      const page = await call; // a failed or aborted call leaves the pager where it was
      if (keep) {
        // The list as read now: a refetch under churn may find other start tokens than before.
        tokens[index] = token;
        tokens[index + 1] = page.nextPageToken;
        if (live?.pager === pager) live.position = { index: index + 1, token: page.nextPageToken };
      }
      return { ...page, index, startToken: token };
    } finally {
      if (!keep) pager.free();
    }
  }

  return {
    queryKey: queryKey ?? ["kubeapps-pager", keyOf(options)],
    queryFn,
    initialPageParam: start,
    getNextPageParam: (lastPage) => (lastPage.done ? undefined : { index: lastPage.index + 1, token: lastPage.nextPageToken }),
    getPreviousPageParam: (firstPage) => {
      if (firstPage.index === 0) return undefined;
      const token = tokens[firstPage.index - 1];
      return token === undefined ? undefined : { index: firstPage.index - 1, token };
    },
    ...(maxPages !== undefined && { maxPages }),
    /** Frees the live pager (when the list goes away); a later page opens another. */
    free: dropLive,
    /** Counters: `pagersOpened`, the pagers made or resumed (one per list when nothing re-reads). */
    stats,
  };
}
