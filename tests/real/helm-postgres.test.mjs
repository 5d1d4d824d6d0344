// helm.packages on a real PostgreSQL, with the real data (../shared/data: Bitnami and k8s-at-home
// global, Bitnami also in team-a) under en_US.UTF-8 and under C: the plugin's SQL contract, then
// kubeapps-pager scrolling it to the end, checked against a direct query of the full set; under
// churn and repository resyncs; filters done by the backend; resume after writes; PostgreSQL
// restarted mid-scroll.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import {
  useServices, DATA, Pager, PagerError, kubeappsFetcher, qs, scroll, filteringFetcher,
  assertExactlyOnce, assertNoneTwiceNoneMissing, helmRowsDirect, identity,
} from "./support.mjs";

const NS = "team-a";
const HELM = { plugin: "helm.packages", cluster: "default", namespace: NS };
const svc = useServices();
const skip = DATA ? false : "../shared/data is not beside the repository";

const path = (p) => `/apis/plugins/helm/packages/v1alpha1/availablepackages?${qs({ "context.namespace": NS, ...p })}`;

async function present(app, since) {
  return (await app.truth(new URLSearchParams({ plugins: "helm.packages", since: String(since) }))).since.identities;
}

for (const collation of ["en_US.UTF-8", "C"]) {
  describe(`helm.packages on PostgreSQL, collation ${collation}`, { skip }, () => {
    let s;
    test("the server loads the real data into a database of that collation", { timeout: 180_000 }, async () => {
      s = await svc.server({ dataDir: DATA, collation });
      assert.equal(await s.app.helm.collation(), collation);
      assert.equal((await helmRowsDirect(s.app, NS)).length, 418); // 106 + 206 global, 106 in team-a
    });

    test("the plugin's contract: ORDER BY name under the collation, offsets, a token only on a full page", async () => {
      const all = (await s.get(path({}))).json.availablePackageSummaries;
      assert.equal(all.length, 418);
      const names = all.map((x) => x.name);
      const i = (n) => names.indexOf(n);
      if (collation === "C") {
        assert.deepEqual(names, [...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
      } else {
        // glibc weighs the hyphen after the letters: not byte order.
        assert.ok(i("kubeapps") < i("kube-prometheus"), "en_US.UTF-8: kubeapps sorts before kube-prometheus");
      }
      const p1 = (await s.get(path({ "paginationOptions.pageSize": 100 }))).json;
      assert.equal(p1.availablePackageSummaries.length, 100);
      assert.equal(p1.nextPageToken, "100");
      assert.ok(p1.categories.includes("Database"), "categories of the whole namespace");
      const p5 = (await s.get(path({ "paginationOptions.pageSize": 100, "paginationOptions.pageToken": "400" }))).json;
      assert.equal(p5.availablePackageSummaries.length, 18);
      assert.equal(p5.nextPageToken, undefined, "a short page ends the list");
      const exact = (await s.get(path({ "paginationOptions.pageSize": 209, "paginationOptions.pageToken": "209" }))).json;
      assert.equal(exact.nextPageToken, "418", "a full last page still gets a token");
      const after = (await s.get(path({ "paginationOptions.pageSize": 209, "paginationOptions.pageToken": "418" }))).json;
      assert.deepEqual(after.availablePackageSummaries, undefined, "past the end: an empty page");
      const bad = await s.get(path({ "paginationOptions.pageToken": "x" }));
      assert.equal(bad.status, 400);
      const noNs = await s.get(`/apis/plugins/helm/packages/v1alpha1/availablepackages`);
      assert.equal(noNs.status, 501);
    });

    test("the filters run in SQL: query (ILIKE over name, description, repo, keywords, sources), categories, repositories, versions", async () => {
      const cases = [
        [{ "filterOptions.query": "SQL" },
          "AND ((info->>'name' ILIKE '%SQL%') OR (info->>'description' ILIKE '%SQL%') OR (info->'repo'->>'name' ILIKE '%SQL%') OR (info->>'keywords' ILIKE '%SQL%') OR (info->>'sources' ILIKE '%SQL%'))"],
        [{ "filterOptions.categories": ["Database", "Analytics"] }, "AND info->>'category' IN ('Database', 'Analytics')"],
        [{ "filterOptions.repositories": "k8s-at-home" }, "AND repo_name = 'k8s-at-home'"],
        // A version pair: every chart that has it among its versions (not only as its newest).
        [{ "filterOptions.pkgVersion": "14.0.12", "filterOptions.appVersion": "2.5.1" },
          `AND EXISTS (SELECT 1 FROM jsonb_array_elements(info->'chartVersions') v WHERE v->>'version' = '14.0.12' AND v->>'app_version' = '2.5.1')`],
        [{ "filterOptions.query": "bitnami", "filterOptions.categories": "Database" },
          "AND info->>'category' = 'Database' AND ((info->>'name' ILIKE '%bitnami%') OR (info->>'description' ILIKE '%bitnami%') OR (info->'repo'->>'name' ILIKE '%bitnami%') OR (info->>'keywords' ILIKE '%bitnami%') OR (info->>'sources' ILIKE '%bitnami%'))"],
      ];
      for (const [params, where] of cases) {
        const got = (await s.get(path(params))).json.availablePackageSummaries ?? [];
        const want = await helmRowsDirect(s.app, NS, where);
        assert.ok(want.length > 0, `the case ${JSON.stringify(params)} matches something`);
        assertExactlyOnce(got.map(identity), want, JSON.stringify(params));
      }
      // keywords only: "dag" is one of airflow's keywords, in neither its name nor description.
      const dag = (await s.get(path({ "filterOptions.query": "dag" }))).json.availablePackageSummaries.map((x) => x.availablePackageRef.identifier);
      assert.ok(dag.includes("bitnami/airflow"));
    });

    test("kubeapps-pager scrolls to the end: every row once, checked against a direct query", { timeout: 120_000 }, async () => {
      const pager = new Pager({ sources: [HELM], pageSize: 20, chunkLimit: 25 });
      try {
        const { identities } = await scroll(pager, kubeappsFetcher({ baseUrl: `${s.base}/apis` }));
        assertExactlyOnce(identities, await helmRowsDirect(s.app, NS), `scroll under ${collation}`);
      } finally {
        pager.free();
      }
    });

    test("read whole (order \"none\", what today's pager says to do with an order it cannot follow): every row once", { timeout: 60_000 }, async () => {
      const pager = new Pager({ sources: [{ ...HELM, order: "none" }], pageSize: 50 });
      try {
        const { identities } = await scroll(pager, kubeappsFetcher({ baseUrl: `${s.base}/apis` }));
        assertExactlyOnce(identities, await helmRowsDirect(s.app, NS), `read whole under ${collation}`);
      } finally {
        pager.free();
      }
    });

    test("search, category and repository filters done by the backend, paged by kubeapps-pager", { timeout: 120_000 }, async () => {
      const filters = [
        [{ query: "sql" }, "AND ((info->>'name' ILIKE '%sql%') OR (info->>'description' ILIKE '%sql%') OR (info->'repo'->>'name' ILIKE '%sql%') OR (info->>'keywords' ILIKE '%sql%') OR (info->>'sources' ILIKE '%sql%'))"],
        [{ categories: ["Database"] }, "AND info->>'category' = 'Database'"],
        [{ repositories: ["bitnami"] }, "AND repo_name = 'bitnami'"],
      ];
      for (const [filter, where] of filters) {
        // The pager gets no filter of its own: what it shows is what the backend's SQL matched.
        const pager = new Pager({ sources: [HELM], pageSize: 7, chunkLimit: 9 });
        try {
          const { identities } = await scroll(pager, filteringFetcher(s.base, filter));
          assertExactlyOnce(identities, await helmRowsDirect(s.app, NS, where), JSON.stringify(filter));
        } finally {
          pager.free();
        }
      }
    });

    test("the pager's own filter on a Kubeapps source is the backend's: what the plugin's SQL matched (keywords and sources too), nothing narrowed", { timeout: 60_000 }, async () => {
      // "github" is in most charts' sources (URLs) and in few names or descriptions: the pager's
      // client-side rules (name, displayName, shortDescription, identifier) would drop those.
      const filter = { query: "github" };
      const where = "AND ((info->>'name' ILIKE '%github%') OR (info->>'description' ILIKE '%github%') OR (info->'repo'->>'name' ILIKE '%github%') OR (info->>'keywords' ILIKE '%github%') OR (info->>'sources' ILIKE '%github%'))";
      const source = collation === "C" ? HELM : { ...HELM, order: "none" };
      const pager = new Pager({ sources: [source], pageSize: 10, chunkLimit: 12, filter });
      try {
        const { identities } = await scroll(pager, filteringFetcher(s.base, filter));
        assertExactlyOnce(identities, await helmRowsDirect(s.app, NS, where), "the pager filtering with the backend");
      } finally {
        pager.free();
      }
    });

    test("under churn and repository resyncs between pages: nothing twice, nothing present throughout missed", { timeout: 120_000 }, async () => {
      await s.post("/demo/churn", { ratePerSecond: 0 });
      const start = s.app.revision;
      const pager = new Pager({ sources: [HELM], pageSize: 20, chunkLimit: 25 });
      try {
        await s.churn.configure({ plugins: ["helm"], insert: 1, delete: 1, update: 1, resync: 1 });
        const { identities } = await scroll(pager, kubeappsFetcher({ baseUrl: `${s.base}/apis` }), {
          between: () => s.churn.step(3),
        });
        assert.ok(s.churn.applied.resync > 0, "at least one repository resync happened");
        assertNoneTwiceNoneMissing(identities, await present(s.app, start), `churn under ${collation}`);
      } finally {
        pager.free();
      }
    });

    test("resume from a page token after writes: nothing twice, nothing present throughout missed", { timeout: 120_000 }, async () => {
      const start = s.app.revision;
      const fetchChunk = kubeappsFetcher({ baseUrl: `${s.base}/apis` });
      const first = new Pager({ sources: [HELM], pageSize: 30, chunkLimit: 40 });
      const shown = [];
      let token;
      try {
        for (let i = 0; i < 4; i++) {
          const page = await first.nextPage(fetchChunk);
          shown.push(...page.items.map(identity));
          token = page.nextPageToken;
        }
      } finally {
        first.free();
      }
      await s.churn.configure({ plugins: ["helm"], insert: 2, delete: 1, update: 1, resync: 1, steps: 15 });
      const resumed = Pager.resume(token, { sources: [HELM], pageSize: 30, chunkLimit: 40 });
      try {
        const { identities } = await scroll(resumed, fetchChunk);
        assertNoneTwiceNoneMissing([...shown, ...identities], await present(s.app, start), "resumed");
      } finally {
        resumed.free();
      }
    });

    test("PostgreSQL restarted mid-scroll: SOURCE_FAILED, then the retry goes on, nothing lost", { timeout: 120_000 }, async () => {
      const pager = new Pager({ sources: [HELM], pageSize: 25, chunkLimit: 30 });
      const fetchChunk = kubeappsFetcher({ baseUrl: `${s.base}/apis` });
      const failures = [];
      try {
        const { identities } = await scroll(pager, fetchChunk, {
          between: (n) => {
            if (n === 3) svc.services.pg.stopServer();
          },
          retry: async (e) => {
            assert.ok(e instanceof PagerError, `a PagerError, not ${e}`);
            assert.equal(e.code, "SOURCE_FAILED");
            failures.push(e);
            if (failures.length > 3) throw e;
            svc.services.pg.startServer();
          },
        });
        assert.equal(failures.length, 1, "one failed page while PostgreSQL was down");
        assert.equal(failures[0].details.status, 500, "the plugin answers Internal (its query failed)");
        assertExactlyOnce(identities, await helmRowsDirect(s.app, NS), "across the restart");
      } finally {
        pager.free();
      }
    });
  });
}
