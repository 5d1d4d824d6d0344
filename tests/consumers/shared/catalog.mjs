// The one thing every consumer app does with the package, copied into each app beside its entry:
// page a small in-app backend to the end and report what came out. Takes the package's exports as
// an argument so that each app loads the package its own way (bundler, ESM import, require).
//
// Two sources, answered from arrays:
//  - helm.packages, kind "kubeapps": decimal item offsets (`nextPageToken: "8"`), the response shape
//    of Kubeapps' GetAvailablePackageSummaries;
//  - kapp_controller.packages, kind "kubernetes": a Kubernetes List with apiserver continue tokens
//    (made and read with the package's own encodeContinueToken / decodeContinueToken, from the
//    "kubeapps-pager/codec" entry), keyed namespace/name, one resourceVersion.
// No Node or browser API beyond the language: the same file runs in Chromium and in Node.

export const CLUSTER = "default";
export const NAMESPACE = "kubeapps";
export const PAGE_SIZE = 5;
export const CHUNK_LIMIT = 4;
export const RESUME_AFTER_PAGE = 2;

export const OPTIONS = {
  sources: [
    { plugin: "helm.packages", cluster: CLUSTER, namespace: NAMESPACE, kind: "kubeapps" },
    { plugin: "kapp_controller.packages", cluster: CLUSTER, namespace: NAMESPACE, kind: "kubernetes" },
  ],
  pageSize: PAGE_SIZE,
  chunkLimit: CHUNK_LIMIT,
};

const HELM = [
  "airflow", "apache", "argo-cd", "cassandra", "consul", "contour", "elasticsearch", "etcd", "grafana",
  "harbor", "jenkins", "kafka", "keycloak", "mariadb", "minio", "mongodb", "nginx", "postgresql",
  "rabbitmq", "redis", "spark", "tomcat", "wordpress", "zookeeper",
];
// Some names also in HELM: the same name from another plugin is another package (both shown).
const KAPP = [
  "cert-manager", "contour", "external-dns", "fluent-bit", "grafana", "harbor", "multus-cni",
  "prometheus", "velero", "whereabouts", "zookeeper",
];

function summary(plugin, repo, name) {
  return {
    availablePackageRef: {
      context: { cluster: CLUSTER, namespace: NAMESPACE },
      identifier: `${repo}/${name}`,
      plugin: { name: plugin, version: "v1alpha1" },
    },
    name,
    displayName: name,
    shortDescription: `${name} from ${repo}`,
    categories: [],
    latestVersion: { pkgVersion: "1.0.0", appVersion: "1.0.0" },
  };
}

/** The two sources' items, each in the order its backend streams it (name order). */
export function catalog() {
  return {
    helm: HELM.map((n) => summary("helm.packages", "bitnami", n)),
    kapp: KAPP.map((n) => summary("kapp_controller.packages", "tce", n)),
  };
}

/** plugin/cluster/namespace/identifier of a summary. */
export function identity(s) {
  const ref = s.availablePackageRef;
  return `${ref.plugin.name}/${ref.context.cluster}/${ref.context.namespace}/${ref.identifier}`;
}

/** A FetchChunk answering from the catalog; counts requests per source in `log`. */
export function makeFetchChunk(lib, { helm, kapp }, log) {
  const key = (s) => `${s.availablePackageRef.context.namespace}/${s.name}`;
  const answers = [
    (request) => {
      const offset = request.pageToken === "" ? 0 : Number(request.pageToken);
      const end = offset + request.limit;
      return {
        availablePackageSummaries: helm.slice(offset, end),
        nextPageToken: end < helm.length ? String(end) : "",
      };
    },
    (request) => {
      let start = 0;
      if (request.pageToken !== "") {
        const from = lib.decodeContinueToken(request.pageToken).start;
        start = kapp.findIndex((s) => key(s) >= from);
        if (start < 0) start = kapp.length;
      }
      const items = kapp.slice(start, start + request.limit);
      const remaining = kapp.length - start - items.length;
      const last = items[items.length - 1];
      const cont = remaining > 0 ? lib.encodeContinueToken({ resourceVersion: 100, start: `${key(last)}\u0000` }) : "";
      const metadata = { resourceVersion: "100", continue: cont };
      if (remaining > 0) metadata.remainingItemCount = remaining;
      return { apiVersion: "v1", kind: "List", items, metadata };
    },
  ];
  return async (request, { signal } = {}) => {
    if (signal?.aborted) throw signal.reason;
    log.push(request.sourceIndex);
    await Promise.resolve();
    return answers[request.sourceIndex](request);
  };
}

/**
 * Pages everything: a fresh Pager for the first pages, then a Pager resumed from the last
 * NextPageToken (as a reload would) to the end. Also provokes one error to check `instanceof`.
 * Returns a plain, JSON-able report.
 */
export async function pageAll(lib) {
  const data = catalog();
  const requests = [];
  const fetchChunk = makeFetchChunk(lib, data, requests);
  const fed = new Set([...data.helm, ...data.kapp]);
  const identities = [];
  const pageSizes = [];
  let sameObjects = true;
  let tokensUrlSafe = true;
  let pager = new lib.Pager(OPTIONS);
  let resumed = false;
  for (let n = 1; n <= 100; n++) {
    const page = await pager.nextPage(fetchChunk, {});
    pageSizes.push(page.items.length);
    for (const item of page.items) {
      identities.push(identity(item));
      if (!fed.has(item)) sameObjects = false;
    }
    if (!/^[A-Za-z0-9_-]*$/.test(page.nextPageToken)) tokensUrlSafe = false;
    if (page.done) break;
    if (n === RESUME_AFTER_PAGE) {
      pager.free();
      pager = lib.Pager.resume(page.nextPageToken, OPTIONS);
      resumed = true;
    }
  }
  pager.free();

  // One error thrown synchronously (a bad token), one rejected across the async boundary (a source
  // answering 503), one thrown by the codec entry: each must be the package's PagerError class,
  // whichever way it was loaded, and the codec entry's (`lib.CodecPagerError`) as well.
  const errors = [];
  const describe = (e) => ({
    instanceofPagerError: e instanceof lib.PagerError,
    instanceofCodecPagerError: e instanceof lib.CodecPagerError,
    instanceofError: e instanceof Error,
    name: e.name,
    code: e.code,
    details: JSON.parse(JSON.stringify(e.details ?? null)),
  });
  try {
    lib.Pager.resume("not a token!", OPTIONS);
    errors.push(null);
  } catch (e) {
    errors.push(describe(e));
  }
  const failing = new lib.Pager(OPTIONS);
  try {
    await failing.nextPage(async () => Promise.reject(Object.assign(new Error("unavailable"), { status: 503 })), {});
    errors.push(null);
  } catch (e) {
    errors.push(describe(e));
  }
  failing.free();
  try {
    lib.decodeContinueToken("not a token!");
    errors.push(null);
  } catch (e) {
    errors.push(describe(e));
  }
  return { identities, pageSizes, sameObjects, tokensUrlSafe, resumed, requests: requests.length, errors };
}
