// kubeapps-pager/react: a React hook over the pager entry. React >= 18 (an optional peer
// dependency of the package: install it yourself).
import type { ChunkResponse, FetchChunk, ItemOf, PagePosition, PagerError, PagerOptions, PrefetchOptions, UnreachableSource } from "kubeapps-pager";

/** Where {@link usePager} keeps the position of the last page loaded (a reload or a shared link reopens it). */
export interface UsePagerUrlOptions {
  /** The URL parameter, `<index>.<token>`; default `"page"`. */
  param?: string;
  /**
   * `"search"` (default): the URL's search, before any `#`: under a hash router (React Router's
   * HashRouter, as the Kubeapps dashboard) the part the router never reads, so the token never
   * becomes one of its query parameters (a filter chip). `"auto"`: the hash's query under a hash
   * route, else the search (`writePageToken`'s default).
   */
  place?: "search" | "auto";
  /** Reads the position instead (e.g. from your router's state); null: start at page 0. */
  read?: () => PagePosition | null;
  /** Writes the position instead. `{ index: 0, token: "" }`: the start (nothing to keep). */
  write?: (position: Required<PagePosition>) => void;
}

/** Options of {@link usePager}. */
export interface UsePagerOptions {
  /**
   * Pages kept in memory (`PageWindow`'s `maxPages`); default: all (the list only grows). With a
   * bound, `loadMore` drops the first page past it and `loadPrevious` fetches earlier pages again
   * from their saved start tokens (dropping the last).
   */
  maxPages?: number;
  /** Where the position is kept; `false`: nowhere (every mount starts at page 0). */
  url?: UsePagerUrlOptions | false;
  /**
   * `nextPage`'s `prefetch` for each `loadMore` ({@link PrefetchOptions}); default `true` (the
   * default budget): once a page is shown, the requests the page after it needs first go ahead,
   * and the next `loadMore` awaits them instead of asking. `false`: none. Not a new list when it
   * changes.
   */
  prefetch?: boolean | PrefetchOptions;
}

/** What {@link usePager} returns. `T`: the items' type (the fetchChunk's, as `Pager<T>` pages it). */
export interface UsePagerResult<T> {
  /**
   * The loaded pages' items, in the list's order (the very objects the fetchChunk returned),
   * without the late ones. Each item once: its identity `plugin/cluster/namespace/identifier` is
   * a safe React key.
   */
  items: T[];
  /**
   * Items that came late: never shown before, yet sorting before items already shown (a source
   * back after being unreachable, or found out of order). The hook never splices them into
   * `items` (the list the user is reading does not move): they collect here, in the order they
   * came, each once. Announce them ("12 more packages arrived"), show them apart, or call
   * `reset()`: the list read again from the top has them in their place. (With `maxPages`, a
   * page fetched again by `loadPrevious` shows the list as it is now, where a late item may
   * stand in its place too.)
   */
  late: T[];
  /** Every category the sources reported (the latest page's `categories`): a filter sidebar. */
  categories: string[];
  /** The sources the list lacks (the latest page's `unreachable`): show them, offer `retryUnreachable`. */
  unreachable: UnreachableSource[];
  /** A page is being fetched (the first one from mount on). */
  loading: boolean;
  /** The last call's failure (a `PagerError`, `SOURCE_FAILED` and the like); null after a page. The list is where it was: `loadMore()` asks again. */
  error: PagerError | Error | null;
  /** The last loaded page is the list's last (of the sources that answer). */
  done: boolean;
  /** The first loaded page is page 0 (false after a reload at a later page, or with `maxPages` once pages were dropped). */
  atStart: boolean;
  /** The index of the first loaded page. */
  firstIndex: number;
  /** Loads the next page; ignored while a page loads, when done, or before the pager is ready. */
  loadMore(): Promise<void>;
  /** Loads the page before the first loaded one (fetched again from its token); ignored at page 0 or while loading. */
  loadPrevious(): Promise<void>;
  /** Asks the unreachable sources again and loads the next page; returns how many sources were retried. Their items the list went past come in `late`. */
  retryUnreachable(): number;
  /** Starts the list over from page 0 (a new pager; the position in the URL is cleared). */
  reset(): void;
}

/**
 * Pages `options` with `fetchChunk` in a React component (items typed by the fetchChunk's
 * response `R`, as `nextPage` types its pages; a custom predicate's `matches` must take them): an infinite list (call `loadMore()`
 * when its end comes into view), scroll back with `maxPages`, the position kept in the URL.
 *
 * - One list per `options` content (compared as `JSON.stringify` writes them: a new object with
 *   the same content is the same list), `fetchChunk` (keep it stable: module scope or `useMemo`),
 *   `maxPages` and URL setting. A change starts a new list; the old one's call in flight is
 *   aborted (its `AbortController`) and its pager freed, also on unmount.
 * - StrictMode: the pager is made only after `init()` has settled, in a later task than the
 *   effect, so the double mount makes one pager, never two.
 * - A link of another list (`FILTER_MISMATCH`) or a mangled token (`INVALID_PAGE_TOKEN`) in the
 *   URL starts the list over; other failures land in `error`.
 * - Prefetch, on by default (`prefetch`): once a page is shown, the page after it is fetched
 *   ahead (its first requests, within the budget); a new list or unmount cancels them.
 */
export function usePager<R extends ChunkResponse, O extends PagerOptions<ItemOf<R>> = PagerOptions<ItemOf<R>>>(
  options: O,
  fetchChunk: FetchChunk<R>,
  hookOptions?: UsePagerOptions,
): UsePagerResult<ItemOf<R>>;
