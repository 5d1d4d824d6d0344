// A small in-memory backend for the JS-level tests: Kubeapps offset paging and Kubernetes-style
// continue paging over a fixed catalog, answering ChunkRequests the way the real servers would.

/** A Kubeapps AvailablePackageSummary as the REST gateway sends it. */
export function summary(plugin, name, { repo = "repo", cluster = "default", namespace = "kubeapps", ...rest } = {}) {
  return {
    availablePackageRef: {
      context: { cluster, namespace },
      identifier: `${repo}/${name}`,
      plugin: { name: plugin, version: "v1alpha1" },
    },
    name,
    displayName: rest.displayName ?? name,
    shortDescription: rest.shortDescription ?? `${name} package`,
    categories: rest.categories ?? [],
    latestVersion: { pkgVersion: "1.0.0" },
  };
}

const b64url = (s) => Buffer.from(s, "utf8").toString("base64url");

/** A catalog source paging by decimal offsets (Kubeapps plugins today), sorted by name. */
export function offsetSource(items) {
  const list = [...items].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    list,
    answer(request) {
      const offset = request.pageToken === "" ? 0 : Number(request.pageToken);
      const page = list.slice(offset, offset + request.limit);
      const next = offset + request.limit < list.length ? String(offset + request.limit) : "";
      return { availablePackageSummaries: page, nextPageToken: next };
    },
  };
}

/** A catalog source paging with apiserver-format continue tokens, keyed namespace/name. */
export function continueSource(items, { rv = 100 } = {}) {
  const key = (s) => `${s.availablePackageRef.context.namespace}/${s.name}`;
  const list = [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return {
    list,
    answer(request) {
      let start = 0;
      if (request.pageToken) {
        const token = JSON.parse(Buffer.from(request.pageToken, "base64url").toString("utf8"));
        start = list.findIndex((s) => key(s) >= token.start);
        if (start < 0) start = list.length;
      }
      const page = list.slice(start, start + request.limit);
      const last = page[page.length - 1];
      const more = start + request.limit < list.length;
      const cont = more ? b64url(JSON.stringify({ v: "meta.k8s.io/v1", rv, start: `${key(last)}\u0000` })) : "";
      return { availablePackageSummaries: page, nextPageToken: cont };
    },
  };
}

/** Drives a pager synchronously against sources (by index) until a page is ready; returns it. */
export function drivePage(pager, sources, { deliver = (reqs) => reqs } = {}) {
  for (let round = 0; round < 10_000; round++) {
    if (pager.pageReady()) return pager.takePage();
    const requests = pager.nextRequests();
    if (requests.length === 0) throw new Error("pager asked for nothing and has no page");
    for (const r of deliver(requests)) pager.feed(r.requestId, sources[r.sourceIndex].answer(r));
  }
  throw new Error("no page after 10,000 rounds");
}

/** The identity string of a summary: plugin/cluster/namespace/identifier. */
export const identity = (s) =>
  `${s.availablePackageRef.plugin.name}/${s.availablePackageRef.context.cluster}/${s.availablePackageRef.context.namespace}/${s.availablePackageRef.identifier}`;
