// The pager module's own declarations ("kubeapps-pager").

/** How a source pages. */
export type SourceKind =
  /** A Kubernetes list: apiserver continue tokens, resourceVersion snapshots, 410 Expired. */
  | "kubernetes"
  /** A Kubeapps plugin today: decimal item offsets, no snapshot (the default). */
  | "kubeapps"
  /**
   * Like `kubeapps`, but the order changes between requests: read whole, asked for in one request
   * (`maxSourceItems + 1`); a server that caps its answers is followed by its next tokens (an item
   * given twice then, a sign of skipped ones, starts the whole read over; the third time in a row
   * sets the source aside, `"no-progress"`).
   */
  | "unordered";

/** One source: a Kubeapps plugin in a cluster and namespace. */
export interface SourceOptions {
  /** Kubeapps plugin name, e.g. `"helm.packages"`. */
  plugin: string;
  /** Cluster; default `""`. */
  cluster?: string;
  /** Namespace; default `""` (all namespaces). */
  namespace?: string;
  /**
   * How the source pages. Default by plugin: `"unordered"` for `fluxv2.packages` (a Go map walk:
   * read whole), `"kubeapps"` (decimal offsets) for every other plugin, `helm.packages` and
   * `kapp_controller.packages` included. Leave it out: a declaration the source contradicts is
   * detected (decimal tokens from a `"kubernetes"` source page it by offsets; items out of the
   * merge order switch it to one whole read), never trusted to lose items.
   */
  kind?: SourceKind;
  /**
   * The order the source streams in: `"name"` (by name in the merge's order of names: byte order,
   * or under a `collation` with `sort: "name"` that collation's order, as a Kubeapps plugin on a
   * database in a natural collation returns it) or `"none"` (read whole, then sorted).
   * Default: `"name"` for `kubernetes` and `kubeapps`, `"none"` for `unordered` and for a
   * `kubernetes` source over all namespaces (its list is in namespace/name order). A `kubernetes`
   * source is read whole under a `collation` (the apiserver lists in byte order).
   */
  order?: "name" | "none";
  /**
   * Who applies the filter. `"source"`: each request carries it ({@link ChunkRequest.filterOptions},
   * which the built-in fetcher sends as `filterOptions.*`) and the pager keeps every item the
   * source answers (the plugin's search is the search; only `plugins` stays the pager's).
   * `"pager"`: the requests carry none and the pager applies {@link FilterOptions}' rules, or the
   * custom {@link PagerOptions.predicate} instead.
   * Default: `"source"` for `helm.packages`, `fluxv2.packages` and `kapp_controller.packages`
   * of any kind but `kubernetes`; `"pager"` otherwise. Page tokens are bound to it whenever the
   * filter sends something (`FILTER_MISMATCH`).
   */
  filter?: "source" | "pager";
}

/**
 * An API resource: `{ group, version, resource }` (`group` `""` or left out: the core group, as
 * `/api/v1`), or a string: kubectl's fully qualified name `resource.version.group`
 * (`"deployments.v1.apps"`, `"pods.v1"`) or the list path (`"/apis/apps/v1/deployments"`,
 * `"/api/v1/pods"`).
 */
export type KubernetesResource = { group?: string; version: string; resource: string } | string;

/**
 * One source: any Kubernetes resource, listed by an apiserver in a cluster, over one namespace or
 * all of them (issue 25). The pager reads it as a `kubernetes` source whose `plugin` is the list's
 * name, `resource.version.group` and its selectors as a URL query (`pods.v1?labelSelector=app%3Dweb`:
 * what the page's `unreachable`, stats and errors name it by, with its cluster and namespace, and
 * what each {@link ChunkRequest.source} carries for {@link kubernetesFetcher}). Its items are the
 * objects (`metadata.namespace`, `metadata.name`): identity cluster/namespace/name. Under
 * `sort: "apiserver"` it streams with its continue tokens over all namespaces too; under
 * `sort: "name"` one over all namespaces is read whole. `labelSelector` and `fieldSelector` go to
 * the apiserver, which filters (a selector it refuses, 400, sets the source aside).
 */
export interface ResourceSourceOptions {
  /** The cluster: a key of {@link KubernetesFetcherOptions.clusters}. Default `""`. */
  cluster?: string;
  resource: KubernetesResource;
  /** Namespace; default `""`: all namespaces (and a cluster-scoped resource's only list). */
  namespace?: string;
  /** A label selector, as `kubectl -l` takes it (`app=web,tier!=db`). */
  labelSelector?: string;
  /** A field selector, as `kubectl --field-selector` takes it (`status.phase=Running`). */
  fieldSelector?: string;
  /** As {@link SourceOptions.order}. */
  order?: "name" | "none";
  /** As {@link SourceOptions.filter} (default `"pager"`: the pager's own `filter`, if any, applies besides the selectors). */
  filter?: "source" | "pager";
  /** Only `"kubernetes"`, if given. */
  kind?: "kubernetes";
}

/**
 * Kubeapps `FilterOptions` plus `plugins`. Empty = everything. Every field but `plugins` is sent to
 * the sources that filter (see {@link SourceOptions.filter}), which apply their own rules; for the
 * sources the pager filters, the rules below apply to every item.
 */
export interface FilterOptions {
  /** Case-insensitive substring of name, displayName, shortDescription or identifier (trimmed). */
  query?: string;
  /** Any of these categories (exact). */
  categories?: readonly string[];
  /** Any of these repositories: the identifier's part before the first `/` (exact). */
  repositories?: readonly string[];
  /** Any of these plugin names (exact). Always the pager's; never sent. */
  plugins?: readonly string[];
  /** Kubeapps `pkgVersion`. Only a source can match a version: with a source the pager filters, `INVALID_OPTIONS`. */
  pkgVersion?: string;
  /** Kubeapps `appVersion`; as `pkgVersion`. */
  appVersion?: string;
}

/**
 * Kubeapps' own `FilterOptions` (packages.proto), as sent to a source that filters: JSON field
 * names, empty fields left out.
 */
export interface KubeappsFilterOptions {
  query?: string;
  categories?: string[];
  repositories?: string[];
  pkgVersion?: string;
  appVersion?: string;
}

/** The source a {@link PagerPredicate} is given with each item: as {@link ChunkRequest.source}. */
export interface PredicateSource {
  plugin: string;
  cluster: string;
  namespace: string;
}

/**
 * A custom predicate: for every source the pager filters (see {@link SourceOptions.filter}), it
 * replaces the pager's rules of {@link FilterOptions} (`query`, `categories`, `repositories`):
 * an item is shown when `matches` returns a truthy value (as with `Array.prototype.filter`) and
 * its plugin passes `filter.plugins`. Sources that filter themselves are still sent the filter and
 * keep what they answer; the predicate is not called for them. `T` is the items' type: a `Pager`
 * made with a predicate over `T` pages only fetchers whose items are `T`s (`nextPage`).
 */
export interface PagerPredicate<T = any> {
  /**
   * Names the rule, 1 to 1,024 characters of well-formed text. Page tokens are bound to it: a
   * token made under another id, or without a predicate, is `FILTER_MISMATCH` (and one made under
   * this id, without). Give a changed rule a new id (`"hide-deprecated-v2"`).
   */
  id: string;
  /**
   * Called with each item of every chunk of a source the pager filters, as the fetcher returned it
   * (the very object: a JSON summary, a protobuf-es message), re-read and changed items included,
   * and that item's source (the same object on every call). Decides at once: a promise (or any
   * thenable) is `PREDICATE_FAILED`, as is a throw (`cause`: what it threw); the chunk is then not
   * taken and the pager is unchanged (`nextPage` rejects; the next call asks again).
   */
  matches: (item: T, source: PredicateSource) => unknown;
}

/**
 * Options of a {@link Pager}. Unknown fields are rejected (`INVALID_OPTIONS`), as are values JSON
 * would not keep (functions, symbols, BigInts, NaN, ±Infinity; a Map, Set or Headers) and options
 * longer than 1,048,576 characters as `JSON.stringify` writes them (`field: "options"`; the same
 * holds for the fetchers' options), but for `predicate`'s function. `T`: the items' type, for
 * the `predicate`.
 */
export interface PagerOptions<T = any> {
  /**
   * 0 to 64 sources, identities unique (none: an empty list, whose first page is empty and
   * `done`, as a dashboard with no packages plugin configured has). Every page token holds every source's identity: together
   * (plugin, cluster and namespace names, about 3 bytes per source besides) they may take at most
   * half of one (3,072 bytes), else `INVALID_OPTIONS` (`field: "sources"`). The number of sources
   * also sets the longest item key a pager takes: see {@link ChunkResponse}.
   */
  sources: readonly (SourceOptions | ResourceSourceOptions)[];
  /** Items per page, 1 to 10,000; default 20. May differ from the token's on resume. */
  pageSize?: number;
  /**
   * The largest chunk: items per backend request (`limit`), 1 to 10,000; default 500. A streamed
   * source starts small (slow start): its first chunk asks 2 × ceil(pageSize / streamed sources)
   * (at least 4), each further chunk twice the one before, up to this; a resume starts small again.
   * A `kubernetes` source read whole asks this; a `kubeapps` or `unordered` one read whole asks
   * `maxSourceItems + 1` (all of it in one answer), then, when the server caps its answers and
   * gives a next token, what is left of that. Rescan probes ask this + 1, tie-group re-reads the
   * group and this more.
   */
  chunkLimit?: number;
  /**
   * The field the merge orders by: `"name"` (Kubeapps core) or `"displayName"` (the dashboard;
   * an empty one sorts as the name). Without a `collation`: `name` by bytes, `displayName`
   * case-insensitively (Unicode's default lowercase), then by bytes. Default `"name"`.
   * `"apiserver"`: the order an apiserver lists in, `namespace/name` by bytes (its storage keys,
   * `/registry/<resource>/<namespace>/<name>`; an item without a namespace by its name): every
   * `kubernetes` source streams under it, over all namespaces too, and the clusters' lists merge
   * in it (ties across clusters by cluster). No `collation` with it (`INVALID_OPTIONS`).
   */
  sort?: "name" | "displayName" | "apiserver";
  /**
   * Orders the sort field in a natural, locale-aware order instead: see {@link CollationOptions}.
   * Only the `"kubeapps-pager/collation"` entry has the collator; the others throw
   * `INVALID_OPTIONS` with `details` `{ field: "collation", entry: "kubeapps-pager/collation" }`.
   * Part of the page token's fingerprint: a token made under another collation (or none) is
   * `FILTER_MISMATCH`.
   */
  collation?: CollationOptions;
  filter?: FilterOptions;
  /**
   * Cap for a source read whole (unordered, any source under `displayName`, a `kubernetes` one
   * under a `collation`); default 10,000. `SOURCE_TOO_LARGE` once the items read go over it,
   * however many answers (short ones, next tokens followed) they came in.
   */
  maxSourceItems?: number;
  /** Chunks in a row with nothing new before `NO_PROGRESS`; default 256. */
  maxChunksWithoutProgress?: number;
  /**
   * A custom predicate that replaces the pager's filter rules for the sources it filters:
   * {@link PagerPredicate}. `null` or absent: none. A bad one is `INVALID_OPTIONS` (`field`:
   * `predicate`, `predicate.id`, `predicate.matches`). `filter.pkgVersion` and `appVersion` still
   * need every source to filter.
   */
  predicate?: PagerPredicate<T> | null;
}

/**
 * A collation of the sort field: the Unicode Collation Algorithm (UTS #10) with CLDR's data, from
 * ICU4X's `icu_collator` 2.4.0 compiled into the wasm (not `Intl.Collator`: the order, and with it
 * every page token, is the same in every browser and version). Settings: strength tertiary,
 * alternate `shifted`: spaces and punctuation are ignored but for ties (`kubeapps` sorts before
 * `kube-prometheus`, read as `kubeprometheus`), letters compare case-insensitively and without
 * accents first (`Zeta-Board` under Z, `école` among the e's), then accents, then case (lowercase
 * first); names the collation ties are ordered by their bytes, then by identity.
 */
export interface CollationOptions {
  /** `"root"` (CLDR's root collation, the default) or `"en"` (English: the same order, CLDR has no English tailoring). */
  locale?: "root" | "en";
}

/** A backend request to make. */
export interface ChunkRequest {
  /** Give it back to `feed` or `fail`. */
  requestId: number;
  /** Index of the source in `options.sources`. */
  sourceIndex: number;
  source: { plugin: string; cluster: string; namespace: string };
  /** Token to send: a continue token (kubernetes) or an item offset (kubeapps); `""` = from the start. */
  pageToken: string;
  /** `limit` / `paginationOptions.pageSize`. */
  limit: number;
  /**
   * For a source that filters, when the filter sends something: the filter to send
   * (`GetAvailablePackageSummariesRequest.filterOptions`). Absent: send none.
   */
  filterOptions?: KubeappsFilterOptions;
}

/**
 * A chunk response, as the backend sent it: a Kubeapps `GetAvailablePackageSummariesResponse` or
 * `GetInstalledPackageSummariesResponse` (JSON, or a @bufbuild/protobuf v1 message: the generated
 * classes are accepted as they are, no cast), or a Kubernetes List. Items are handed back in pages
 * as the very same objects. `T` is the items' type (`any` unless given).
 *
 * Each item's key must fit a page token (it may become its source's watermark): its sort field's
 * value (`name`, or `displayName` under that sort) plus its identifier, plus its plugin, cluster and
 * namespace when they are not its source's, at most `floor(3072 / sources) - 16` UTF-8 bytes
 * (3,056 with one source, 1,008 with three, 368 with eight, 32 with 64). A chunk holding a longer
 * key is refused whole with `INVALID_RESPONSE` naming the source, the item's index and the limit;
 * the pager is unchanged.
 */
export type ChunkResponse<T = any> = KubeappsSummariesResponse<T> | KubernetesList<T>;

/**
 * Kubeapps' summaries response (fields at their default value may be omitted). No index
 * signature: a protobuf-es message class (which has none) is assignable. `categories`: every
 * category of the source's packages (the pages carry them: {@link Page.categories}).
 */
export interface KubeappsSummariesResponse<T = any> {
  availablePackageSummaries?: T[];
  installedPackageSummaries?: T[];
  nextPageToken?: string;
  categories?: string[];
}

/** A Kubernetes List. */
export interface KubernetesList<T = any> {
  items: T[];
  metadata?: { continue?: string; resourceVersion?: string; remainingItemCount?: number | string | bigint };
}

/** The element type of an array type (`unknown` for anything else). */
type ElementOf<A> = NonNullable<A> extends readonly (infer E)[] ? E : unknown;

/**
 * The item type of a chunk response type: its `availablePackageSummaries`', else its
 * `installedPackageSummaries`', else its `items`' element type (distributes over a union). So a
 * fetchChunk resolving with protobuf-es `GetAvailablePackageSummariesResponse` messages gives
 * pages of `AvailablePackageSummary` messages.
 */
export type ItemOf<R> = R extends unknown
  ? "availablePackageSummaries" extends keyof R
    ? ElementOf<R["availablePackageSummaries" & keyof R]>
    : "installedPackageSummaries" extends keyof R
      ? ElementOf<R["installedPackageSummaries" & keyof R]>
      : "items" extends keyof R
        ? ElementOf<R["items" & keyof R]>
        : any
  : never;

/**
 * A failed request: HTTP status (0 = no answer), and for a Kubernetes `Status` its `reason` and
 * `metadata.continue`. `status`: an integer from 0 to 599; absent (`undefined`, `null`, or a
 * failure that is no object, as a network error's) it is 0; anything else (NaN, -1, 1e20, 503.5,
 * `"503"`) is `INVALID_RESPONSE` (`details.field: "status"`), in `Pager.fail` and in `nextPage`
 * alike. A `reason` or `continue` with a lone surrogate is `INVALID_RESPONSE`.
 * `Pager.fail` also takes the `Status` itself ({@link KubernetesStatus}).
 */
export interface ChunkFailure {
  status: number;
  reason?: string;
  continue?: string;
  /**
   * The answer's `Retry-After` (RFC 9110 §10.2.3), in milliseconds from when it came: `nextPage`
   * waits at least this long before retrying a transient failure. The built-in fetchers set it.
   */
  retryAfterMs?: number;
}

/**
 * A Kubernetes `Status` as the apiserver sends it, e.g. the body of a 410 Expired (meta/v1
 * `Status`, k8s.io/apimachinery/pkg/apis/meta/v1): `code` is the HTTP status, `reason` e.g.
 * `"Expired"`, `metadata.continue` the token to go on with (an inconsistent one, `rv` -1).
 */
export interface KubernetesStatus {
  kind: "Status";
  code: number;
  reason?: string;
  metadata?: { continue?: string; [key: string]: unknown };
  [key: string]: unknown;
}

/**
 * What `feed` did: `"accepted"`; `"stale"`: the answer's request was superseded, answered
 * already or never made (ignored, counted); `"unreachable"`: the answer set its source aside
 * (`cause: "no-progress"`: its continuations answer the list's start again), see
 * {@link UnreachableSource}.
 */
export type FeedOutcome = "accepted" | "stale" | "unreachable";

/**
 * What `fail` did, the pager's one decision on a failure (`nextPage` acts on it alone):
 * - `"recovered"`: the source goes on by itself: a 410 Expired of a `kubernetes` source (from the
 *   failure's continue token, or a relist), or an offset refused past the end of a shrunken list
 *   (HTTP 400 or reason `InvalidArgument`: re-read from earlier); at most 16 in a row, then
 *   `"failed"`;
 * - `"unreachable"`: the source is set aside (see {@link UnreachableSource});
 * - `"retry"`: a transient failure (HTTP 429, 502, 503, 504, or 0: no answer); the request is
 *   cleared and asked again (`nextPage` waits a backoff first, see {@link RetryOptions});
 * - `"failed"`: any other; the request is cleared (`nextPage` rejects with `SOURCE_FAILED`);
 * - `"stale"`: as for `feed`.
 */
export type FailOutcome = "recovered" | "unreachable" | "retry" | "failed" | "stale";

/**
 * A source a page lacks, and why (AIP-217's `unreachable`). A source is set aside when a request
 * fails for good (HTTP 403, 404 or 501, or a `reason` naming PermissionDenied, NotFound,
 * Unimplemented or Forbidden in any of the gRPC, Connect or Kubernetes spellings:
 * `"failed-for-good"`), fails 5 times in a row (`"repeated-failures"`; a 410 a `kubernetes`
 * source recovers from does not count), or its continuations answer the list's first chunk
 * again with nothing new, 3 times in a row (`"no-progress"`: a proxy that drops `continue`, or a
 * source read whole by offsets in pieces that gives an item twice on 3 whole reads in a row: its
 * order changes between requests, so pieces would skip items; its `status` is then 200). The other sources go on in the same order; once it is
 * retried (`retryUnreachable()`, or `nextPage` on its own after a backoff of 5 s doubling to 5 min)
 * and answers, its items come back: those the list went past meanwhile late (`Page.late`), none
 * twice, none skipped.
 */
export interface UnreachableSource {
  /** Index of the source in `options.sources`. */
  sourceIndex: number;
  /** `plugin/cluster/namespace`. */
  source: string;
  cause: "failed-for-good" | "repeated-failures" | "no-progress";
  /** The last failure's HTTP status (0: no answer). */
  status: number;
  /**
   * How long `nextPage` waits, in ms from when the source was set aside, before it asks it again
   * on its own: 5,000 the first time, doubling with each set-aside in a row (none answered in
   * between), at most 300,000.
   */
  retryAfterMs: number;
  /** The last failure's reason, when it gave one. */
  reason?: string;
  /** From `nextPage`: what the fetchChunk rejected with (a built-in fetcher's `SOURCE_FAILED`, whose own `cause` is the transport's error). */
  error?: unknown;
}

/** Counters for one source. */
export interface SourceStats {
  /** `plugin/cluster/namespace`. */
  source: string;
  requests: number;
  itemsScanned: number;
  filteredOut: number;
  duplicatesDropped: number;
  /** Extra requests made to recover from offset drift. */
  rescans: number;
  /** 410 Expired answers recovered from. */
  expiredRecoveries: number;
  staleResponses: number;
  /** Times the source was found out of the merge order (another collation, a map walk, a continuation going back) and switched to one whole read (`maxSourceItems` at most). */
  wholeReadSwitches: number;
  /** Late items shown: never shown before, yet sorting before items already shown (their source was found out of order, or was unreachable and came back). */
  lateItems: number;
  /** Times the source was set aside as unreachable. */
  unreachable: number;
  /**
   * Items that may have been shown before, taken as not consumed: the source's whole read held
   * none of the items its page token knows by identity, so an item consumed before could not be
   * told from one never read (docs/DESIGN.md, the known limit). Counted when that read lands, then
   * shown late (`lateItems`) rather than dropped; the pages say `inconsistent` from then on.
   */
  possibleRepeats: number;
  /**
   * Times the source's continue token cycled (`b → c → b`, a token it gave before in the same
   * pass): that answer's items were kept and the source ended there (`Page.truncated`).
   */
  cycledTokens: number;
  /**
   * Requests sent ahead by `nextPage`'s `prefetch` (or `prefetchRequests`), counted once
   * answered or failed (then also in `requests`) or cancelled (`prefetchesCancelled`).
   */
  prefetchedRequests: number;
  /** Items that answers to requests sent ahead brought (also in `itemsScanned`). */
  prefetchedItems: number;
  /**
   * Requests sent ahead and withdrawn unanswered (the next call was aborted): of no use.
   * `prefetchedRequests` less these were used.
   */
  prefetchesCancelled: number;
  /**
   * The source is streamed: read chunk by chunk in the merge order (its own order is the merge
   * order). `false`: read whole, then sorted (an `unordered` source, `order: "none"`, any source
   * under `displayName`, a `kubernetes` one under a `collation`, or one switched to a whole read
   * after it was found out of order: `wholeReadSwitches`).
   */
  streamed: boolean;
  /**
   * An estimate of the items the source has not sent yet, as of the page: the
   * `metadata.remainingItemCount` of its last answer (the apiserver's count of keys after that
   * chunk; a selector does not narrow it) less the items read since; `null` when its last answer
   * had none (a list's last chunk, a plugin, a list under a selector). The list may change
   * meanwhile: a list that ends short of it is `page.truncated`. E.g. "about 41,000 more pods":
   * the sum over the sources.
   */
  remainingItems: number | null;
}

/** Counters: totals plus one entry per source. */
export interface PagerStats extends Omit<SourceStats, "source" | "streamed" | "remainingItems"> {
  itemsEmitted: number;
  sources: SourceStats[];
}

/**
 * A Kubeapps `AvailablePackageSummary` as the kubeapps-apis REST gateway sends it (JSON), the
 * fields the pager reads and a dashboard shows; others pass through untouched. For
 * `Page<AvailablePackageSummary>`; a protobuf-es message or a Kubernetes object is typed with
 * its own type (`Page<T>` takes any).
 */
export interface AvailablePackageSummary {
  availablePackageRef: {
    context?: { cluster?: string; namespace?: string };
    /** e.g. `"bitnami/apache"`. */
    identifier: string;
    plugin?: { name: string; version?: string };
  };
  name: string;
  displayName?: string;
  shortDescription?: string;
  iconUrl?: string;
  categories?: string[];
  latestVersion?: { pkgVersion?: string; appVersion?: string };
  [key: string]: unknown;
}

/**
 * A Kubeapps `InstalledPackageSummary` as the REST gateway sends it (JSON): the fields the pager
 * reads and a dashboard shows (the pager sorts it by `name`, the release name, or by
 * `pkgDisplayName` under `sort: "displayName"`); others pass through untouched.
 */
export interface InstalledPackageSummary {
  installedPackageRef: {
    context?: { cluster?: string; namespace?: string };
    /** The release name. */
    identifier: string;
    plugin?: { name: string; version?: string };
  };
  name: string;
  pkgDisplayName?: string;
  shortDescription?: string;
  iconUrl?: string;
  pkgVersionReference?: { version?: string };
  currentVersion?: { pkgVersion?: string; appVersion?: string };
  latestVersion?: { pkgVersion?: string; appVersion?: string };
  status?: { ready?: boolean; reason?: string | number; userReason?: string };
  [key: string]: unknown;
}

/**
 * A page. `T` is the type of the items, which are the objects fed as they came, so the pager
 * cannot check it: `const page: Page<AvailablePackageSummary> = await pager.nextPage(fetchChunk)`.
 */
export interface Page<T = any> {
  /** The items in merge order: the very objects that were fed. */
  items: T[];
  /** Resumes right after this page (URL-safe). */
  nextPageToken: string;
  /**
   * Nothing more to come from the sources that answer. With `unreachable` not empty, the list is
   * complete but for those sources: a retry opens it again.
   */
  done: boolean;
  /** The sources this page lacks, and why: empty when every source answered. */
  unreachable: UnreachableSource[];
  /** Some item of this page came late (see {@link UnreachableSource}); counted in `stats.lateItems`. */
  late: boolean;
  /** A source's list is not one snapshot any more: it went on after a 410 Expired, or a continuation came from another resourceVersion, or an item may come twice (`stats.possibleRepeats`). */
  inconsistent: boolean;
  /** A source ended before giving the items it said remained. */
  truncated: boolean;
  /**
   * A source was found out of the merge order and is read whole (sticky). Items of it never
   * shown before that sort before items already shown come late, first on the page where the
   * switch lands (`stats.lateItems` counts them): pages are in order except those.
   */
  reordered: boolean;
  /** Counters for this page alone. */
  stats: PagerStats;
  /**
   * Every category the sources reported (the Kubeapps responses' `categories`: each source's
   * latest, merged), sorted by UTF-16 code units, each once: for a filter sidebar. `[]` before any
   * source reported one (Kubernetes Lists and installed-package lists report none).
   */
  categories: string[];
  /** Each reporting source's own latest `categories`, by its label (`plugin/cluster/namespace`, as in `stats.sources`). */
  sourceCategories: Record<string, string[]>;
}

/**
 * Fetches one chunk; rejects with something carrying `status` (and `reason`, `continue`) on failure.
 * `R` is the response type it resolves with (a protobuf-es message class, a JSON shape): `nextPage`
 * types its pages by it (`Page<ItemOf<R>>`).
 */
export type FetchChunk<R extends ChunkResponse = ChunkResponse> = (request: ChunkRequest, init: { signal?: AbortSignal }) => Promise<R>;

/**
 * How `nextPage` retries a transient failure (HTTP 429, 502, 503, 504, or no answer) within the
 * call before it rejects with `SOURCE_FAILED`: exponential backoff with full jitter, a wait drawn
 * in `[0, min(maxDelayMs, baseDelayMs × 2^(n-1)))` before retry n, at least the answer's
 * `Retry-After` (`ChunkFailure.retryAfterMs`), at most `maxDelayMs`. Defaults as TanStack Query's:
 * 3 retries, 1,000 ms, 30,000 ms. Each a whole number from 0 to 4294967295, else
 * `INVALID_OPTIONS`.
 */
export interface RetryOptions {
  /** Retries after the first failure (default 3; 0: none). */
  retries?: number;
  /** The first retry's backoff ceiling in ms, doubled for each later one (default 1000). */
  baseDelayMs?: number;
  /** The longest wait in ms, `Retry-After` included (default 30000). */
  maxDelayMs?: number;
}

/** Options of `nextPage`. */
export interface NextPageOptions {
  /**
   * Aborting rejects the call with `ABORTED` at once, also while it waits to retry; the pager is
   * unchanged. Anything but an AbortSignal (an AbortController instead of its `.signal`, say) is
   * `INVALID_OPTIONS` (`details.field: "signal"`); `undefined` or `null`: none.
   */
  signal?: AbortSignal | null;
  /** The retry policy for transient failures ({@link RetryOptions}); `false`: none. */
  retry?: false | RetryOptions;
  /**
   * Prefetch ({@link PrefetchOptions}): once this call has its page, send the requests the next
   * page needs first, so that the next call awaits them instead of asking (a next page served
   * from them makes no request). `true`: the default budget; `false` or absent (the default of
   * `nextPage`): none. Turn it on for a reader who pages on (the React hook does by default).
   */
  prefetch?: boolean | PrefetchOptions;
}

/**
 * The budget of `nextPage`'s `prefetch`. The core picks what goes ahead: the requests its next
 * call would make first, in their order, while they fit (the pages and tokens are then exactly
 * those without prefetch); never for a source set aside, a done
 * list, or a next page already buffered. The requests are in flight as any (one per source):
 * the next `nextPage` awaits them and meets a failure of one as its own request's (the same
 * recovery, retries and set-aside; never thrown outside a call). Aborting the next call, `free()`
 * or dropping the list (a new pager) cancels them (their fetch's `signal` aborts). Each a whole
 * number from 0 to 4294967295, else `INVALID_OPTIONS`.
 */
export interface PrefetchOptions {
  /** At most this many requests ahead (default 64: one per source the next page needs). */
  requests?: number;
  /**
   * At most this many bytes of answers ahead (default 1,048,576), by the core's estimate: each
   * request's `limit` times its source's mean item size so far, measured as the bytes of the key
   * fields the pager reads of each item (name, display name, identifier, description; not icons
   * or other fields it does not read), 1,024 per item before the source answered. A request over
   * what is left is not sent ahead (the next call asks for it).
   */
  bytes?: number;
}

/** Options of {@link kubeappsFetcher}. */
export interface KubeappsFetcherOptions {
  /** `"available"` (default): `GetAvailablePackageSummaries`; `"installed"`: `GetInstalledPackageSummaries` (`…/installedpackages`). */
  list?: "available" | "installed";
  /** e.g. `"https://kubeapps.example/apis"`; no query or fragment (`INVALID_OPTIONS`). */
  baseUrl: string;
  /** Fills a source's empty cluster or namespace. */
  context?: { cluster?: string; namespace?: string };
  /**
   * Extra request headers, e.g. `{ Authorization: "Bearer …" }`. A name or value that `new Headers()`
   * would refuse (not an HTTP token; a line break or NUL; a character above U+00FF) throws
   * `INVALID_OPTIONS` when the fetcher is made.
   */
  headers?: Record<string, string>;
}

/** Options of {@link kubernetesListFetcher}. */
export interface KubernetesListFetcherOptions {
  /**
   * The list URL, e.g. `"/apis/data.packaging.carvel.dev/v1alpha1/namespaces/kubeapps/packagemetadatas"`;
   * a query (`?labelSelector=…`) is kept, a fragment is `INVALID_OPTIONS`.
   */
  url: string;
  /** As {@link KubeappsFetcherOptions.headers}. */
  headers?: Record<string, string>;
}

/** One cluster of {@link kubernetesFetcher}: where its apiserver's paths go under. */
export interface KubernetesClusterOptions {
  /**
   * The URL the apiserver's paths go under, without a query or fragment: `kubectl proxy`'s
   * `"http://127.0.0.1:8001"`, a dashboard's proxy (Headlamp: `"/clusters/east"`), the apiserver.
   */
  baseUrl: string;
  /** As {@link KubeappsFetcherOptions.headers} (e.g. this cluster's `Authorization`). */
  headers?: Record<string, string>;
}

/** Options of {@link kubernetesFetcher}. */
export interface KubernetesFetcherOptions {
  /** Cluster name (a source's `cluster`) → where its lists are, at least one. */
  clusters: Record<string, KubernetesClusterOptions>;
}

/**
 * One `fetchChunk` for {@link ResourceSourceOptions} sources over many clusters: each request is
 * `GET {baseUrl}/api/<version>[/namespaces/<ns>]/<resource>` (the core group) or
 * `/apis/<group>/<version>[/namespaces/<ns>]/<resource>` of its source's cluster, with `limit`,
 * `continue`, `labelSelector` and `fieldSelector`, and resolves with the `KubernetesList`, each
 * item given `cluster`, its source's cluster name (unless it has one: a page's items then say
 * where each came from). Rejects
 * with `SOURCE_FAILED` naming the source (`details.source`, `url`, `status`, `reason`,
 * `continue`, `body`; `cause`: the `Response` or the network error): a non-2xx answer with its
 * status (a `Status` body's `reason` and `metadata.continue` too: 410 Expired recovers, 404 an
 * unknown resource and 400 a refused selector set the source aside, the page names it and the
 * other clusters go on); no answer, status 0 (retried, set aside after 5 in a row); an answer
 * that is no JSON (an HTML page: a `baseUrl` that is no apiserver), `reason: "NotFound"`, set
 * aside; a cluster not in `clusters`, 404. An abort rejects as `fetch` does. Uses the global
 * `fetch` (no `init()` needed). Throws `INVALID_OPTIONS` for bad options.
 */
export function kubernetesFetcher(options: KubernetesFetcherOptions): FetchChunk<KubernetesList>;

/**
 * A `fetchChunk` for the kubeapps-apis REST gateway. `options`: `{ baseUrl, context?, headers? }`;
 * each request's source gives the plugin, cluster and namespace (`context` fills empty ones).
 * Throws `INVALID_OPTIONS`. May be made before `init()`; its requests (the global `fetch`, called
 * from the wasm) need `init()` to have run, and one made before it rejects. A non-2xx answer, no
 * answer or a body that is not a JSON object rejects with `SOURCE_FAILED` (`details.status`, `url`;
 * `cause`: the `Response` or the network error); an abort with the `AbortError` itself.
 */
export function kubeappsFetcher(options: KubeappsFetcherOptions & { list: "installed" }): FetchChunk<KubeappsSummariesResponse<InstalledPackageSummary>>;
export function kubeappsFetcher(options: KubeappsFetcherOptions): FetchChunk<KubeappsSummariesResponse<AvailablePackageSummary>>;

/** The request {@link connectFetcher} sends: a `PartialMessage` of Kubeapps' request messages. */
export interface ConnectListRequest {
  context: { cluster: string; namespace: string };
  paginationOptions: { pageToken: string; pageSize: number };
  /**
   * The filter the plugin applies itself (Kubeapps' `FilterOptions`: `query`, `categories`,
   * `repositories`, `pkgVersion`, `appVersion`), the request's {@link ChunkRequest.filterOptions}:
   * sent to a source that filters itself when the filter asks something, absent otherwise.
   * A generated request message's `filterOptions` field takes it as it is.
   */
  filterOptions?: KubeappsFilterOptions;
}

/**
 * What {@link connectFetcher} passes as a Connect call's options: `callOptions` plus the signal.
 * (@connectrpc/connect v1's `CallOptions`.)
 */
export interface ConnectCallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  headers?: HeadersInit;
  [key: string]: unknown;
}

/** A Connect client (`createPromiseClient(HelmPackagesService, transport)`) of a plugin's packages service. */
export interface AvailablePackagesClient<R extends ChunkResponse = ChunkResponse> {
  getAvailablePackageSummaries(request: ConnectListRequest, options?: ConnectCallOptions): Promise<R>;
}
/** As {@link AvailablePackagesClient}, for the installed packages. */
export interface InstalledPackagesClient<R extends ChunkResponse = ChunkResponse> {
  getInstalledPackageSummaries(request: ConnectListRequest, options?: ConnectCallOptions): Promise<R>;
}

/** Options of {@link connectFetcher}. */
export interface ConnectFetcherOptions<C> {
  /** Plugin name (a source's `plugin`, e.g. `"helm.packages"`) → that plugin's Connect client. */
  clients: Record<string, C>;
  /** Fills a source's empty cluster or namespace. */
  context?: { cluster?: string; namespace?: string };
  /** `"available"` (default) or `"installed"`: which list method is called. */
  list?: "available" | "installed";
  /** Passed to every call (`headers`, `timeoutMs`…), with the request's `signal`. */
  callOptions?: ConnectCallOptions;
}

/**
 * A `fetchChunk` over a dashboard's own Connect clients (@connectrpc/connect v1, any transport:
 * Connect, gRPC-web). Resolves with the response messages as they are: pages are typed by them
 * (`Page<AvailablePackageSummary>` of the generated class). A failure rejects with `SOURCE_FAILED`,
 * `details.status` the Connect code's HTTP status as grpc-gateway maps it (unavailable 503,
 * not_found 404, unimplemented 501, permission_denied 403, unauthenticated 401, deadline_exceeded
 * 504, invalid_argument 400, canceled 499, resource_exhausted 429, internal 500…),
 * `details.connectCode` the code's name and `cause` the ConnectError. Throws `INVALID_OPTIONS`.
 */
export function connectFetcher<C extends InstalledPackagesClient>(
  options: ConnectFetcherOptions<C> & { list: "installed" },
): FetchChunk<Awaited<ReturnType<C["getInstalledPackageSummaries"]>>>;
export function connectFetcher<C extends AvailablePackagesClient>(
  options: ConnectFetcherOptions<C> & { list?: "available" },
): FetchChunk<Awaited<ReturnType<C["getAvailablePackageSummaries"]>>>;

/** A page of a {@link PageWindow}, with its index from the start of the list (0). */
export interface WindowPage<T = any> {
  index: number;
  page: Page<T>;
}

/** Where a {@link PageWindow} stands: the first loaded page's index and start token, and the start tokens of the pages before it. */
export interface PagePosition {
  index: number;
  token: string;
  earlier?: string[];
}

/** Options of {@link PageWindow}. */
export interface PageWindowOptions<R extends ChunkResponse> {
  /** A pager at a start token (`""`: the start of the list), e.g. `(t) => t ? Pager.resume(t, options) : new Pager(options)`. */
  open(token: string): Pager;
  fetchChunk: FetchChunk<R>;
  /** Pages kept in memory, at least 1; default 5. */
  maxPages?: number;
  /** Start at this page (a reload, a deep link: {@link readPageToken}). */
  at?: PagePosition | null;
}

/**
 * At most `maxPages` pages of one list in memory, each with its index; `next()` loads the page
 * after the last one, `previous()` the one before the first one (fetched again from its saved
 * start token), dropping pages at the other end. Started `at` a deep link without the earlier
 * tokens, the first `previous()` walks the list from the start to learn them (one `nextPage` a
 * page, items dropped). A page fetched again shows the list as it is now. Calls run one at a time.
 * Throws `INVALID_OPTIONS`; `next` and `previous` reject as `nextPage` does (the window is then unchanged).
 */
export declare class PageWindow<R extends ChunkResponse = ChunkResponse> {
  constructor(options: PageWindowOptions<R>);
  /** The loaded pages, ascending by index. */
  readonly pages: WindowPage<ItemOf<R>>[];
  /** The index of the first loaded page. */
  readonly first: number;
  /** The last loaded page is the list's last. */
  readonly done: boolean;
  /** The first loaded page is page 0. */
  readonly atStart: boolean;
  /** The page after the last loaded one; null when the list is done. */
  next(options?: NextPageOptions): Promise<WindowPage<ItemOf<R>> | null>;
  /** The page before the first loaded one; null at page 0. */
  previous(options?: NextPageOptions): Promise<WindowPage<ItemOf<R>> | null>;
  /** The start token of page `index`, if known. */
  tokenOf(index: number): string | undefined;
  /** The first loaded page's position, for {@link writePageToken}. */
  position(): Required<PagePosition>;
  /**
   * Retries the sources set aside as unreachable (`Pager.retryUnreachable` of the pager kept for
   * `next()`): the next `next()` asks them, also after the last page (`done` is then false).
   * Returns how many sources it retried (0 when no pager is kept yet).
   */
  retryUnreachable(): number;
  /** Frees the pager it keeps for `next()`. */
  free(): void;
  [Symbol.dispose](): void;
}

/** Where {@link readPageToken} and {@link writePageToken} look: `param` (default `"page"`), and the page's `location` and `history` (default the globals). */
export interface UrlTokenOptions {
  param?: string;
  /**
   * `"auto"` (default): under a hash route (`#/…`) the hash's query, else the search.
   * `"search"`: always the URL's search, before any `#`: the part a hash router (React Router's
   * HashRouter) never reads, so it never shows the parameter as one of its own.
   */
  place?: "auto" | "search";
  location?: { href: string };
  history?: { state: unknown; replaceState(state: unknown, unused: string, url?: string | URL | null): void };
}

/**
 * The page position in the URL: the search's `param`, or under a hash route (`#/…`, React
 * Router's HashRouter) the hash's query's, as `<index>.<token>` (a bare token reads as index 0),
 * with the earlier tokens from `history.state`; null when absent.
 */
export function readPageToken(options?: UrlTokenOptions): Required<PagePosition> | null;

/**
 * Writes a page position into the URL with `history.replaceState`, not through the router (it
 * re-renders nothing; `history.state`'s other keys are kept); under a hash route into the hash's
 * query. `{ token: "" }` at index 0 removes it. Returns the new URL.
 */
export function writePageToken(position: PagePosition, options?: UrlTokenOptions): string;

/**
 * The Kubeapps `FilterOptions` a source that filters is sent for the pager's `filter`, as
 * {@link ChunkRequest.filterOptions} holds it: query trimmed, categories and repositories sorted
 * (UTF-8 byte order) without repeats, `plugins` left out, empty fields left out; `undefined` when
 * nothing is left. For fetchers of other transports (Connect, gRPC-web). The core's own rule
 * (`FilterOptions::for_source`): in the web build, after `init()`. Throws `INVALID_OPTIONS`.
 */
export function kubeappsFilterOptions(filter?: FilterOptions): KubeappsFilterOptions | undefined;

/**
 * A `fetchChunk` for a plain Kubernetes list endpoint. `options`: `{ url, headers? }`; each request
 * adds `limit` and, when it has one, `continue`. Throws `INVALID_OPTIONS`. Made and failing as
 * {@link kubeappsFetcher}'s (a 410 Expired's `Status` gives `details.reason` and `continue`).
 */
export function kubernetesListFetcher(options: KubernetesListFetcherOptions): FetchChunk;
