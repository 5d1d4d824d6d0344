// A strict TypeScript consumer of the package's .d.ts: uses every export of both entries
// ("kubeapps-pager", "kubeapps-pager/codec"; and "kubeapps-pager/collation", the pager's API), the
// exports every build has. Checked with
// `tsc --noEmit --strict` (scripts/test.sh) under each tsconfig*.json here: moduleResolution
// nodenext (Node's declarations), bundler and node10 (the web build's); never run.
// `@ts-expect-error` lines prove the types bite.
import init, {
  init as namedInit,
  Pager,
  PagerError,
  kubeappsFetcher,
  kubernetesListFetcher,
  kubernetesFetcher,
  wasmMemoryBytes,
  type KubernetesList,
  type PagerOptions,
  type PagerErrorCode,
  type ChunkRequest,
  type ChunkResponse,
  type ChunkFailure,
  type KubernetesStatus,
  type FeedOutcome,
  type FailOutcome,
  type Page,
  type PagerStats,
  type FetchChunk,
  type AvailablePackageSummary,
  type NextPageOptions,
} from "kubeapps-pager";
import initCodec, {
  init as namedInitCodec,
  PagerError as CodecPagerError,
  encodePageToken,
  decodePageToken,
  encodeContinueToken,
  decodeContinueToken,
  decodeKubeappsToken,
  inspectToken,
  type PagerErrorCode as CodecPagerErrorCode,
  type PageTokenState,
  type ContinueTokenFields,
  type KubeappsToken,
  type TokenInfo,
} from "kubeapps-pager/codec";

interface Summary {
  name: string;
  availablePackageRef: { identifier: string };
}

async function main(signal: AbortSignal): Promise<void> {
  await Promise.all([init(), initCodec(), namedInit(), namedInitCodec()]);
  const options: PagerOptions = {
    sources: [
      { plugin: "helm.packages", cluster: "default", namespace: "kubeapps", kind: "kubeapps" },
      { plugin: "kapp_controller.packages", kind: "kubernetes", order: "name" },
    ],
    pageSize: 20,
    chunkLimit: 100,
    sort: "displayName",
    filter: { query: "sql", categories: ["Database"], repositories: ["bitnami"], plugins: ["helm.packages"] },
    maxSourceItems: 5000,
    maxChunksWithoutProgress: 64,
  };
  // @ts-expect-error: sort is "name" | "displayName"
  const bad: PagerOptions = { sources: [], sort: "size" };
  void bad;

  const pager = new Pager(options);
  // Options written `as const` (readonly arrays, literal strings) or checked with `satisfies`
  // are taken as they are, without an annotation.
  const frozen = {
    sources: [{ plugin: "helm.packages" }, { plugin: "fluxv2.packages", namespace: "team-a" }],
    sort: "displayName",
    filter: { categories: ["Database"] },
  } as const;
  new Pager(frozen).free();
  new Pager({ sources: [{ plugin: "helm.packages" }], sort: "name" } satisfies PagerOptions).free();
  const requests: ChunkRequest[] = pager.nextRequests();
  for (const r of requests) {
    const id: number = r.requestId;
    const token: string = r.pageToken;
    const response: ChunkResponse = { availablePackageSummaries: [], nextPageToken: "" };
    const outcome: FeedOutcome = pager.feed(id, response);
    const failure: ChunkFailure = { status: 410, reason: "Expired", continue: token };
    const again: FailOutcome = pager.fail(id, failure);
    const status: KubernetesStatus = { kind: "Status", code: 410, reason: "Expired", metadata: { continue: token } };
    const asItCame: FailOutcome = pager.fail(id, status);
    const retried: FailOutcome = pager.fail(id, { status: 503, retryAfterMs: 2000 });
    const policies: NextPageOptions[] = [{ retry: false }, { retry: { retries: 5, baseDelayMs: 500, maxDelayMs: 10_000 } }, {}];
    const prefetches: NextPageOptions[] = [{ prefetch: true }, { prefetch: false }, { prefetch: { requests: 2, bytes: 262_144 } }, { prefetch: {} }];
    // @ts-expect-error: a budget is numbers
    const badPrefetch: NextPageOptions = { prefetch: { requests: "2" } };
    const ahead: ChunkRequest[] = pager.prefetchRequests(2, 1 << 20);
    const aheadStats: number = pager.stats.prefetchedRequests + pager.stats.prefetchedItems + pager.stats.prefetchesCancelled;
    void outcome, again, asItCame, retried, policies, prefetches, badPrefetch, ahead, aheadStats;
  }
  if (pager.pageReady()) {
    const page: Page | null = pager.takePage();
    if (page) {
      const next: string = page.nextPageToken;
      const flags: boolean = page.done || page.inconsistent || page.truncated;
      void next, flags;
    }
  }
  const fetchChunk: FetchChunk = kubeappsFetcher({ baseUrl: "/apis", context: { cluster: "default" }, headers: { Authorization: "Bearer x" } });
  const listFetch: FetchChunk = kubernetesListFetcher({ url: "/apis/x/v1/namespaces/kubeapps/things" });
  void listFetch;
  // Issue 25: any resource across clusters, merged in the apiserver's order.
  const clusterFetch: FetchChunk<KubernetesList> = kubernetesFetcher({ clusters: { east: { baseUrl: "/clusters/east", headers: { Authorization: "Bearer e" } }, west: { baseUrl: "http://127.0.0.1:8001" } } });
  const clusterOptions: PagerOptions = {
    sources: [
      { cluster: "east", resource: { version: "v1", resource: "pods" }, labelSelector: "app=web" },
      { cluster: "west", resource: "deployments.v1.apps", namespace: "shop", fieldSelector: "metadata.name!=x" },
      { cluster: "west", resource: "/api/v1/pods" },
    ],
    sort: "apiserver",
  };
  // @ts-expect-error: a resource source names its cluster's resource, not a plugin's shape
  const badResource: PagerOptions = { sources: [{ cluster: "east", resource: { group: "apps" } }] };
  void clusterFetch, clusterOptions, badResource;
  try {
    const page: Page<Summary> = await pager.nextPage(fetchChunk, { signal });
    const names: string[] = page.items.map((s) => s.name);
    void names;
    // `options` is optional; `T` of Page is the caller's to give.
    const summaries: Page<AvailablePackageSummary> = await pager.nextPage(fetchChunk);
    const ids: string[] = summaries.items.map((s) => `${s.availablePackageRef.identifier} ${s.displayName ?? s.name}`);
    const nextOptions: NextPageOptions = { signal };
    void ids, (await pager.nextPage(fetchChunk, nextOptions));
    // @ts-expect-error: an AvailablePackageSummary's name is a string
    const wrong: number = summaries.items[0].name;
    void wrong;
  } catch (e) {
    if (e instanceof PagerError) {
      const code: PagerErrorCode = e.code;
      switch (code) {
        case "ABORTED":
        case "SOURCE_FAILED":
        case "PAGER_FREED":
          break;
        default:
          break;
      }
      const details: Record<string, unknown> = e.details;
      void details;
    }
  }
  const stats: PagerStats = pager.stats;
  const scanned: number = stats.itemsScanned + stats.sources[0].requests;
  void scanned;
  const resumed = Pager.resume(pager.pageToken(), options);
  resumed.free();
  {
    using scoped = new Pager(options);
    void scoped;
  }

  const state: PageTokenState = decodePageToken(encodePageToken({
    fingerprint: "0123456789abcdef",
    pageSize: 20,
    sources: [{
      plugin: "helm.packages", cluster: "default", namespace: "kubeapps", chunkToken: "", offset: 0,
      watermark: null, resourceVersion: "", exhausted: false, inconsistent: false,
    }],
  }));
  const offset: number = state.sources[0].offset;
  void offset;
  const cont: ContinueTokenFields = decodeContinueToken(encodeContinueToken({ resourceVersion: 7, start: "ns/name\u0000" }));
  const consistent: boolean = cont.consistent;
  void consistent;
  const kubeapps: KubeappsToken = decodeKubeappsToken('{"helm.packages":3}');
  void kubeapps;
  try {
    decodePageToken("not a token!");
  } catch (e) {
    // One error class per entry, and `instanceof` either holds for errors of both.
    if (e instanceof CodecPagerError || e instanceof PagerError) {
      const code: CodecPagerErrorCode = e.code;
      const same: PagerErrorCode = code;
      void same;
    }
  }
  const info: TokenInfo = inspectToken("40");
  const kind: string = info.kind;
  const bytes: number = wasmMemoryBytes();
  void kind, bytes;
  // @ts-expect-error: the codec functions are not in the pager entry
  void (await import("kubeapps-pager")).inspectToken;
  // @ts-expect-error: the Pager is not in the codec entry
  void (await import("kubeapps-pager/codec")).Pager;
  // The collation entry: the pager's API, plus the `collation` option (its locales checked).
  const natural = await import("kubeapps-pager/collation");
  await natural.default();
  const collated: PagerOptions = { sources: options.sources, sort: "name", collation: { locale: "en" } };
  const naturalPager = new natural.Pager({ ...collated, collation: {} });
  const naturalPage: Page<Summary> = await naturalPager.nextPage(kubeappsFetcher({ baseUrl: "/apis" }));
  const streamed: boolean = naturalPage.stats.sources[0].streamed;
  void streamed;
  // @ts-expect-error: only the locales offered
  void ({ sources: [], collation: { locale: "fr" } } satisfies PagerOptions);
  naturalPager.free();
}

void main;
