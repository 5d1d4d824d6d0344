// Issue 15 in the browser: the search is served by the backend (each plugin's own matching, so
// a package found only by a keyword or a source URL shows), and a plugin switched to fail for
// good leaves the catalog paging, with a banner naming it; Back and Retry bring its packages,
// none twice, none missed.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, serve } from "./support/browser.mjs";
import { api, truth, openCatalog, scrollToEnd, settle, identities, textOf, checkedMissed, duplicates } from "./support/catalog.mjs";

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test("a search is the plugins' own: what they match, found by keywords and sources too", async () => {
  const server = await serve();
  try {
    // "jetstack" is in some generated charts' source URLs only (github.com/jetstack/<name>),
    // "\"database\"" in keywords' JSON text: the pager's own rules read neither field.
    for (const q of ["jetstack", "\"database\""]) {
      const { page, errors } = await openCatalog(browser, server, `?size=48&q=${encodeURIComponent(q)}`);
      await scrollToEnd(page);
      const shown = await identities(page);
      const want = (await truth(server, { sort: "name", query: q })).identities;
      assert.ok(want.length > 0, q);
      assert.deepEqual(shown, want, `${q}: exactly what the backend matches, in order`);
      const names = await page.$$eval('[data-testid="pager-column"] [data-identity]', (cards) => cards.map((c) => c.textContent));
      // Most "jetstack" matches are by their source URL alone (a few are in the jetstack repository).
      if (q === "jetstack") assert.ok(names.filter((t) => !t.toLowerCase().includes(q)).length > 50, "found by a field the cards do not show");
      assert.equal(await checkedMissed(page), 0);
      assert.deepEqual(errors, []);
      await page.close();
    }
  } finally {
    await server.close();
  }
});

test("a plugin down for good: the catalog goes on, a banner names it, Back and Retry bring its packages", async () => {
  const server = await serve();
  try {
    const all = (await truth(server, { sort: "name" })).identities;
    await api(server, "/demo/down", { plugin: "fluxv2.packages", down: true });
    const { page, errors } = await openCatalog(browser, server, "?size=96&chunk=100");
    await page.waitForSelector('[data-testid="unreachable-banner"]:not([hidden])');
    assert.match(await textOf(page, "unreachable-banner"), /fluxv2\.packages.*HTTP 501.*fails for good/);
    await scrollToEnd(page);
    let shown = await identities(page);
    assert.ok(shown.length > 0 && shown.every((id) => !id.startsWith("fluxv2.packages/")), "the others, without flux");
    assert.deepEqual(shown, all.filter((id) => !id.startsWith("fluxv2.packages/")), "in the same order");
    assert.match(await textOf(page, "unreachable-banner"), /fluxv2\.packages/, "still named at the end");

    // Back, from the Backend panel; then the banner's Retry.
    await page.selectOption('[data-testid="down-plugin"]', "fluxv2.packages");
    await page.click('[data-testid="up"]');
    await page.waitForFunction(() => /answers again/.test(document.querySelector('[data-testid="backend-result"]').textContent));
    await page.click('[data-testid="retry-unreachable"]');
    await settle(page);
    await scrollToEnd(page);
    assert.ok(await page.$eval('[data-testid="unreachable-banner"]', (b) => b.hidden));
    shown = await identities(page);
    assert.deepEqual(duplicates(shown), []);
    assert.deepEqual([...shown].sort(), [...all].sort(), "every package, flux's too");
    // All of flux's packages sort among the others, which were all shown: they came late.
    assert.ok(Number((await textOf(page, "stat-lateItems")).replace(/,/g, "")) > 0);
    assert.ok(Number(await textOf(page, "stat-unreachable")) >= 1);
    assert.equal(await checkedMissed(page), 0);
    // Chromium logs each 501 answer as a failed resource; nothing else may be logged.
    assert.deepEqual(errors.filter((e) => !/status of 501/.test(e)), []);
    await page.close();
  } finally {
    await server.close();
  }
});

test("the Down button mid-scroll: the banner names the plugin and the list goes on", async () => {
  const server = await serve();
  try {
    const { page, errors } = await openCatalog(browser, server, "?size=24&chunk=20");
    await page.selectOption('[data-testid="down-plugin"]', "helm.packages");
    await page.click('[data-testid="down"]');
    await page.waitForFunction(() => /now answers Unimplemented/.test(document.querySelector('[data-testid="backend-result"]').textContent));
    await scrollToEnd(page);
    assert.match(await textOf(page, "unreachable-banner"), /helm\.packages/);
    const shown = await identities(page);
    assert.deepEqual(duplicates(shown), []);
    assert.ok(shown.some((id) => id.startsWith("kapp_controller.packages/")), "kapp's packages after helm went down");
    assert.deepEqual(errors.filter((e) => !/status of 501/.test(e)), []);
    await page.close();
  } finally {
    await server.close();
  }
});
