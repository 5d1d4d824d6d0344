// The demo catalog page in Chromium over the real services (`--backend real`, generated catalog):
// scrolled to the end it shows the stores' truth, in order, once; the same with real writes and
// etcd's compaction mid-scroll (everything present throughout shown once). Under the mode's
// default collation, en_US.UTF-8 (not byte order); C is helm-postgres.test.mjs's (the same pager
// in Node, against SQL), which keeps this file's time down.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, screenshotPath } from "../e2e/support/browser.mjs";
import { api, truth, openCatalog, scrollToEnd, identities, duplicates } from "../e2e/support/catalog.mjs";
import { useServices } from "./support.mjs";

const svc = useServices();
let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

for (const collation of ["en_US.UTF-8"]) {
  test(`the catalog scrolled to the end over PostgreSQL and etcd (${collation}): the stores' truth, in order, once`,
    { timeout: 180_000 }, async () => {
      const server = await svc.server({ collation });
      try {
        const config = await api(server, "/demo/config");
        assert.equal(config.backend, "real");
        assert.equal(config.collation.database, collation);
        const { page, errors, dialogs } = await openCatalog(browser, server, "?size=96&chunk=100", { width: 1280, height: 900 });
        const end = await scrollToEnd(page);
        assert.equal(end.state, "done");
        const shown = await identities(page);
        const expected = await truth(server, { sort: "name" });
        assert.deepEqual(duplicates(shown), []);
        assert.deepEqual(shown, expected.identities);
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: screenshotPath("catalog-real") });
        assert.deepEqual(errors, []);
        assert.deepEqual(dialogs, []);
        await page.close();
      } finally {
        await server.close();
      }
    });
}

test("the catalog over the real services with real writes and etcd's compaction mid-scroll: everything present throughout, once", { timeout: 180_000 }, async () => {
  const server = await svc.server({ collation: "en_US.UTF-8" });
  try {
    const start = (await api(server, "/demo/config")).revision;
    const { page, errors } = await openCatalog(browser, server, "?size=96&chunk=100", { width: 1280, height: 900 });
    let n = 0;
    const end = await scrollToEnd(page, "pager", {
      between: async () => {
        n += 1;
        await api(server, "/demo/churn", { steps: 4, resync: 1 });
        if (n % 3 === 1) await api(server, "/demo/compact", {});
      },
    });
    assert.equal(end.state, "done");
    assert.ok(n >= 2, "writes and a compaction happened mid-scroll");
    const shown = await identities(page);
    const t = await truth(server, { sort: "name", since: start });
    assert.deepEqual(duplicates(shown), []);
    const seen = new Set(shown);
    assert.deepEqual(t.since.identities.filter((id) => !seen.has(id)), [], "nothing present throughout missed");
    // The 410s the compactions caused are logged by the browser as failed resources; nothing else may be.
    assert.deepEqual(errors.filter((e) => !/status of 410/.test(e)), []);
    assert.ok(errors.some((e) => /status of 410/.test(e)), "a list met etcd's compaction (410 Gone)");
    await page.close();
  } finally {
    await server.close();
  }
});
