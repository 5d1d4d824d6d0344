// kubeapps-pager/tanstack: the options of TanStack Query v5's `useInfiniteQuery` over a pager
// (@tanstack/react-query 5, an optional peer dependency; no React or TanStack import here).
import type { ChunkResponse, FetchChunk, ItemOf, Page, PagePosition, PagerOptions, PrefetchOptions } from "kubeapps-pager";

/** A page position as TanStack's `pageParam`: the page's index from the start (0) and its start token (`""` for page 0). */
export interface PagerPageParam {
  index: number;
  token: string;
}

/** A page of the query's `data.pages`: the pager's `Page`, with its index and start token. */
export interface PagerQueryPage<T> extends Page<T> {
  index: number;
  startToken: string;
}

/** Options of {@link pagerInfiniteQuery}. */
export interface PagerInfiniteQueryOptions<R extends ChunkResponse, O extends PagerOptions<ItemOf<R>> = PagerOptions<ItemOf<R>>> {
  /** The pager's options: one query per list (a new filter is a new call, with a new key). */
  options: O;
  fetchChunk: FetchChunk<R>;
  /** Default `["kubeapps-pager", options]` (as JSON keeps them). */
  queryKey?: readonly unknown[];
  /** TanStack's `maxPages`: pages kept in the cache; `fetchPreviousPage` re-fetches earlier ones from their saved tokens. */
  maxPages?: number;
  /** Start at this page (`readPageToken()`); its `earlier` tokens let `fetchPreviousPage` go back before it. */
  at?: PagePosition | null;
  /**
   * `nextPage`'s `prefetch` for forward pages on the live pager ({@link PrefetchOptions});
   * default `true`: the next `fetchNextPage` awaits the requests sent ahead instead of asking.
   * `free()` (or a page at another position) cancels them. `false`: none.
   */
  prefetch?: boolean | PrefetchOptions;
}

/**
 * What {@link pagerInfiniteQuery} returns: `useInfiniteQuery`'s options, plus `free` and `stats`
 * (TanStack ignores both).
 */
export interface PagerInfiniteQuery<T> {
  queryKey: readonly unknown[];
  queryFn(context: { pageParam: PagerPageParam; signal: AbortSignal; direction?: "forward" | "backward" }): Promise<PagerQueryPage<T>>;
  initialPageParam: PagerPageParam;
  getNextPageParam(lastPage: PagerQueryPage<T>): PagerPageParam | undefined;
  getPreviousPageParam(firstPage: PagerQueryPage<T>): PagerPageParam | undefined;
  maxPages?: number;
  /** Frees the live pager (call it when the list goes away: an effect's cleanup). A later page opens another. */
  free(): void;
  /** `pagersOpened`: pagers made or resumed so far (one per list when nothing is re-read). */
  readonly stats: { readonly pagersOpened: number };
}

/**
 * `useInfiniteQuery(pagerInfiniteQuery({ options, fetchChunk }))`: pages one list, each page's
 * `pageParam` its position `{ index, token }` (`getNextPageParam` gives the page token).
 *
 * - **No re-reads.** The live pager is kept between consecutive pages: a forward page whose
 *   `pageParam` is the live pager's position is its next `nextPage` (nothing fetched twice); any
 *   other (a refetch from the first page, a page after one `maxPages` dropped) resumes a pager at
 *   its token, which then becomes the live one.
 * - **`maxPages`** with `fetchPreviousPage`: an earlier page is fetched again from its saved start
 *   token by a pager of its own (the live one stays where it is). Before a deep link's page
 *   without its earlier tokens there is no previous page.
 * - **`refetch` under churn**: TanStack refetches the kept pages in order from the first kept
 *   one's `pageParam`, each next `pageParam` from the page just refetched. So the refetched pages
 *   show the list as it is now, as one forward read from that page: an item added since shows in
 *   its place, one deleted is gone, none twice and none skipped across the refetched pages. The
 *   pages may hold other items than before (page boundaries move with the data).
 * - **`signal`**: TanStack's (a cancelled query, an unmounted component) aborts the request in
 *   flight; the page rejects with `ABORTED` and the pager stays where it was.
 * - Call `free()` when the list goes away; `queryFn` awaits `init()` itself.
 */
export function pagerInfiniteQuery<R extends ChunkResponse, O extends PagerOptions<ItemOf<R>> = PagerOptions<ItemOf<R>>>(
  options: PagerInfiniteQueryOptions<R, O>,
): PagerInfiniteQuery<ItemOf<R>>;
