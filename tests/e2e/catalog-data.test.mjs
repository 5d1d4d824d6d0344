// The catalog over the real data in ../shared/data, beside the repository (skipped when it is absent): Bitnami's and
// k8s-at-home's Helm indexes (312 charts) and TCE's Carvel packages (39), scrolled to the end.
// External icons are not fetched (no network in tests): they fall back to placeholders.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { launch, serve, screenshotPath } from "./support/browser.mjs";
import { api, truth, openCatalog, scrollToEnd, identities, checkedMissed, duplicates } from "./support/catalog.mjs";

// Beside the repository, as the README and CI have it (not a fixed path: a clone may be anywhere).
const DATA = fileURLToPath(new URL("../../../shared/data", import.meta.url));
const present = existsSync(DATA);

let browser;
before(async () => {
  if (present) browser = await launch();
});
after(async () => {
  await browser?.close();
});

test("scrolls the real catalog: 312 Helm charts and 39 Carvel packages, once each, in order", { skip: present ? false : `${DATA} is absent` }, async () => {
  const server = await serve({ dataDir: DATA });
  try {
    const config = await api(server, "/demo/config");
    const counts = Object.fromEntries(config.plugins.map((p) => [p.name, p.count]));
    assert.equal(counts["helm.packages"], 312);
    assert.equal(counts["kapp_controller.packages"], 39);
    // Only the demo server answers: logos stay where they are hosted (and tests have no network).
    const offline = (page) => page.route((url) => !url.href.startsWith(server.url), (route) => route.abort());
    const { page, errors, dialogs } = await openCatalog(browser, server, "?size=60&chunk=50", { width: 1440, height: 900, before: offline });
    const end = await scrollToEnd(page);
    assert.equal(end.state, "done");
    const shown = await identities(page);
    const expected = await truth(server, { sort: "name" });
    assert.deepEqual(duplicates(shown), []);
    assert.deepEqual(shown, expected.identities);
    const byPlugin = (p) => shown.filter((id) => id.startsWith(`${p}/`)).length;
    assert.equal(byPlugin("helm.packages"), 312);
    assert.equal(byPlugin("kapp_controller.packages"), 39);
    assert.equal(await checkedMissed(page), 0);
    // Names shared by the two Helm repositories are two packages each (common, dokuwiki, ghost, oauth2-proxy).
    for (const name of ["common", "dokuwiki", "ghost", "oauth2-proxy"]) {
      assert.ok(shown.filter((id) => id.startsWith("helm.packages/") && id.endsWith(`/${name}`)).length >= 2, name);
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(200);
    await page.screenshot({ path: screenshotPath("catalog-data") });
    // Aborted logo requests are logged as failed resources; nothing else may be.
    assert.deepEqual(errors.filter((e) => !/Failed to load resource/.test(e)), []);
    assert.deepEqual(dialogs, []);
    await page.close();
  } finally {
    await server.close();
  }
});
