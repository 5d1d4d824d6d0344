// The pager module's own declarations ("kubeapps-pager").

/** How a source pages. */
export type SourceKind =
  /** A Kubernetes list: apiserver continue tokens, resourceVersion snapshots, 410 Expired. */
  | "kubernetes"
  /** A Kubeapps plugin today: decimal item offsets, no snapshot (the default). */
  | "kubeapps"
  /** Like `kubeapps`, but the order changes between requests: read whole in one request. */
  | "unordered";

/** One source: a Kubeapps plugin in a cluster and namespace. */
export interface SourceOptions {
  /** Kubeapps plugin name, e.g. `"helm.packages"`. */
  plugin: string;
  /** Cluster; default `""`. */
  cluster?: string;
  /** Namespace; default `""` (all namespaces). */
  namespace?: string;
  /** Default `"kubeapps"`. */
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
}

/** Kubeapps `FilterOptions` plus `plugins`, applied client-side to every item. Empty = everything. */
export interface FilterOptions {
  /** Case-insensitive substring of name, displayName, shortDescription or identifier. */
  query?: string;
  /** Any of these categories (exact). */
  categories?: string[];
  /** Any of these repositories: the identifier's part before the first `/` (exact). */
  repositories?: string[];
  /** Any of these plugin names (exact). */
  plugins?: string[];
}

/**
 * Options of a {@link Pager}. Unknown fields are rejected (`INVALID_OPTIONS`), as are values JSON
 * would not keep (functions, symbols, BigInts, NaN, ±Infinity; a Map, Set or Headers) and options
 * longer than 1,048,576 characters as `JSON.stringify` writes them (`field: "options"`; the same
 * holds for the fetchers' options).
 */
export interface PagerOptions {
  /**
   * 1 to 64 sources, identities unique. Every page token holds every source's identity: together
   * (plugin, cluster and namespace names, about 3 bytes per source besides) they may take at most
   * half of one (3,072 bytes), else `INVALID_OPTIONS` (`field: "sources"`). The number of sources
   * also sets the longest item key a pager takes: see {@link ChunkResponse}.
   */
  sources: SourceOptions[];
  /** Items per page, 1 to 10,000; default 20. May differ from the token's on resume. */
  pageSize?: number;
  /** Items per backend request (`limit`), 1 to 10,000; default 500. */
  chunkLimit?: number;
  /**
   * The field the merge orders by: `"name"` (Kubeapps core) or `"displayName"` (the dashboard;
   * an empty one sorts as the name). Without a `collation`: `name` by bytes, `displayName`
   * case-insensitively (Unicode's default lowercase), then by bytes. Default `"name"`.
   */
  sort?: "name" | "displayName";
  /**
   * Orders the sort field in a natural, locale-aware order instead: see {@link CollationOptions}.
   * Only the `"kubeapps-pager/collation"` entry has the collator; the others throw
   * `INVALID_OPTIONS` with `details` `{ field: "collation", entry: "kubeapps-pager/collation" }`.
   * Part of the page token's fingerprint: a token made under another collation (or none) is
   * `FILTER_MISMATCH`.
   */
  collation?: CollationOptions;
  filter?: FilterOptions;
  /** Cap for a source read whole (unordered, any source under `displayName`, a `kubernetes` one under a `collation`); default 10,000. */
  maxSourceItems?: number;
  /** Chunks in a row with nothing new before `NO_PROGRESS`; default 256. */
  maxChunksWithoutProgress?: number;
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
}

/**
 * A chunk response, as the backend sent it: a Kubeapps `GetAvailablePackageSummariesResponse` or
 * `GetInstalledPackageSummariesResponse` (JSON, or a @bufbuild/protobuf v1 message), or a Kubernetes
 * List. Items are handed back in pages as the very same objects.
 *
 * Each item's key must fit a page token (it may become its source's watermark): its sort field's
 * value (`name`, or `displayName` under that sort) plus its identifier, plus its plugin, cluster and
 * namespace when they are not its source's, at most `floor(3072 / sources) - 16` UTF-8 bytes
 * (3,056 with one source, 1,008 with three, 368 with eight, 32 with 64). A chunk holding a longer
 * key is refused whole with `INVALID_RESPONSE` naming the source, the item's index and the limit;
 * the pager is unchanged.
 */
export type ChunkResponse = KubeappsSummariesResponse | KubernetesList;

/** Kubeapps' summaries response (fields at their default value may be omitted). */
export interface KubeappsSummariesResponse {
  availablePackageSummaries?: object[];
  installedPackageSummaries?: object[];
  nextPageToken?: string;
  [key: string]: unknown;
}

/** A Kubernetes List. */
export interface KubernetesList {
  items: object[];
  metadata?: { continue?: string; resourceVersion?: string; remainingItemCount?: number | string | bigint };
  [key: string]: unknown;
}

/**
 * A failed request: HTTP status (0 = no answer), and for a Kubernetes `Status` its `reason` and
 * `metadata.continue`. A `reason` or `continue` with a lone surrogate is `INVALID_RESPONSE`.
 * `Pager.fail` also takes the `Status` itself ({@link KubernetesStatus}).
 */
export interface ChunkFailure {
  status: number;
  reason?: string;
  continue?: string;
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

/** `"accepted"`, or `"stale"`: the answer's request was superseded, answered already or never made (ignored, counted). */
export type FeedOutcome = "accepted" | "stale";

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
  /**
   * The source is streamed: read chunk by chunk in the merge order (its own order is the merge
   * order). `false`: read whole, then sorted (an `unordered` source, `order: "none"`, any source
   * under `displayName`, a `kubernetes` one under a `collation`).
   */
  streamed: boolean;
}

/** Counters: totals plus one entry per source. */
export interface PagerStats extends Omit<SourceStats, "source" | "streamed"> {
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
 * A page. `T` is the type of the items, which are the objects fed as they came, so the pager
 * cannot check it: `const page: Page<AvailablePackageSummary> = await pager.nextPage(fetchChunk)`.
 */
export interface Page<T = any> {
  /** The items in merge order: the very objects that were fed. */
  items: T[];
  /** Resumes right after this page (URL-safe). */
  nextPageToken: string;
  /** Nothing more to come. */
  done: boolean;
  /** A source's list is not one snapshot any more: it went on after a 410 Expired, or a continuation came from another resourceVersion. */
  inconsistent: boolean;
  /** A source ended before giving the items it said remained. */
  truncated: boolean;
  /** Counters for this page alone. */
  stats: PagerStats;
}

/** Fetches one chunk; rejects with something carrying `status` (and `reason`, `continue`) on failure. */
export type FetchChunk = (request: ChunkRequest, init: { signal?: AbortSignal }) => Promise<ChunkResponse>;

/** Options of `nextPage`. */
export interface NextPageOptions {
  signal?: AbortSignal;
}

/** Options of {@link kubeappsFetcher}. */
export interface KubeappsFetcherOptions {
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

/**
 * A `fetchChunk` for the kubeapps-apis REST gateway. `options`: `{ baseUrl, context?, headers? }`;
 * each request's source gives the plugin, cluster and namespace (`context` fills empty ones).
 * Throws `INVALID_OPTIONS`.
 */
export function kubeappsFetcher(options: KubeappsFetcherOptions): FetchChunk;

/**
 * A `fetchChunk` for a plain Kubernetes list endpoint. `options`: `{ url, headers? }`; each request
 * adds `limit` and, when it has one, `continue`. Throws `INVALID_OPTIONS`.
 */
export function kubernetesListFetcher(options: KubernetesListFetcherOptions): FetchChunk;
