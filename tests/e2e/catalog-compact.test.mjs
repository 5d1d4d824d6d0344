// A compaction mid-scroll, forced from the page's own Backend panel: the Kubernetes sources'
// continue tokens expire (410), the pager goes on from the inconsistent tokens the apiserver hands
// back, flags the list inconsistent, and still shows every package present the whole time, once.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, serve } from "./support/browser.mjs";
import { api, truth, openCatalog, scrollOnce, scrollToEnd, settle, identities, textOf, checkedMissed, duplicates } from "./support/catalog.mjs";

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test("a forced compaction mid-scroll recovers and shows the inconsistent flag", async () => {
  const server = await serve({ behaviours: { helm: "kubernetes", fluxv2: "kubernetes", kapp_controller: "kubernetes" } });
  try {
    const start = (await api(server, "/demo/config")).revision;
    const { page, errors } = await openCatalog(browser, server, "?size=60&chunk=40");
    await scrollOnce(page);
    assert.equal(await page.getAttribute('[data-testid="flag-inconsistent"]', "data-on"), "0");
    // Writes, then a compaction up to now: every snapshot the sources page through is gone.
    await page.fill('[data-testid="churn-steps-input"]', "12");
    await page.click('[data-testid="churn-steps"]');
    await page.waitForFunction((rev) => Number(document.querySelector('[data-testid="revision"]').textContent.replace(/,/g, "")) > rev, start);
    await page.click('[data-testid="compact"]');
    await page.waitForFunction(() => /Compacted up to revision/.test(document.querySelector('[data-testid="backend-result"]').textContent));
    const config = await api(server, "/demo/config");
    assert.ok(config.compactedRevision > start, "compacted past the lists' snapshots");

    await scrollToEnd(page);
    assert.equal(await page.getAttribute('[data-testid="flag-inconsistent"]', "data-on"), "1");
    assert.match(await textOf(page, "flag-inconsistent"), /inconsistent/);
    assert.ok(Number(await textOf(page, "stat-expiredRecoveries")) >= 1, "410 recoveries are counted");
    // The token panel marks the sources that went on inconsistently.
    assert.match(await textOf(page, "token-panel"), /inconsistent/);

    const shown = await identities(page);
    assert.deepEqual(duplicates(shown), []);
    const present = (await truth(server, { sort: "name", since: start })).since.identities;
    const shownSet = new Set(shown);
    assert.deepEqual(present.filter((id) => !shownSet.has(id)), []);
    assert.equal(await checkedMissed(page), 0);
    // Chromium logs each 410 answer as a failed resource; nothing else may be logged.
    assert.deepEqual(errors.filter((e) => !/status of 410/.test(e)), []);
    await page.close();
  } finally {
    await server.close();
  }
});

test("an expired continue token (the Expire button) is recovered from in the same way", async () => {
  const server = await serve();
  try {
    const { page, errors } = await openCatalog(browser, server, "?size=40&chunk=30&plugin=kapp_controller.packages");
    await settle(page);
    await page.selectOption('[data-testid="expire-plugin"]', "kapp_controller.packages");
    await page.click('[data-testid="expire"]');
    await page.waitForFunction(() => /410 Expired/.test(document.querySelector('[data-testid="backend-result"]').textContent));
    await scrollToEnd(page);
    assert.equal(await page.getAttribute('[data-testid="flag-inconsistent"]', "data-on"), "1");
    assert.ok(Number(await textOf(page, "stat-expiredRecoveries")) >= 1);
    assert.deepEqual(await identities(page), (await truth(server, { sort: "name", plugins: ["kapp_controller.packages"] })).identities);
    assert.deepEqual(errors.filter((e) => !/status of 410/.test(e)), []);
    await page.close();
  } finally {
    await server.close();
  }
});
