// The catalog's URL and its filters: a filter change starts a new list from the top; a reload of
// the URL resumes exactly where the token says; a token that does not fit starts over and says so;
// a failed request shows its code and a retry that loses nothing.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, serve } from "./support/browser.mjs";
import { api, truth, openCatalog, scrollOnce, scrollToEnd, settle, columnState, identities, textOf, duplicates } from "./support/catalog.mjs";

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Waits until the pager column shows exactly `expected` (a fresh list's first page). */
async function waitForCards(page, expected) {
  await page.waitForFunction((want) => {
    const c = document.querySelector('[data-testid="pager-column"]');
    if (c.dataset.state === "loading") return false;
    const ids = [...c.querySelectorAll("[data-identity]")].map((e) => e.dataset.identity);
    return ids.length === want.length && ids.every((id, i) => id === want[i]);
  }, expected);
}

test("a filter, a search or a sort change starts a new list from the top", async () => {
  const server = await serve();
  try {
    const { page, errors } = await openCatalog(browser, server, "?size=20");
    await scrollOnce(page);
    await scrollOnce(page);
    assert.equal((await settle(page)).count, 60);
    const requestsBefore = Number(await textOf(page, "stat-requests"));

    await page.check('input[data-testid="filter-category"][value="Database"]');
    const databases = await truth(server, { sort: "name", categories: ["Database"] });
    await waitForCards(page, databases.identities.slice(0, 20));
    let url = new URL(page.url());
    assert.deepEqual(url.searchParams.getAll("category"), ["Database"]);
    assert.ok(url.searchParams.get("page"), "the new list's token is in the URL");
    assert.equal(await page.getAttribute('[data-testid="pager-column"]', "data-pages"), "1");
    assert.ok(Number(await textOf(page, "stat-requests")) < requestsBefore + 10, "the stats restarted with the list");

    await page.fill('[data-testid="search"]', "sql");
    const sql = await truth(server, { sort: "name", categories: ["Database"], query: "sql" });
    assert.ok(sql.count > 0 && sql.count < databases.count);
    await waitForCards(page, sql.identities.slice(0, 20));
    url = new URL(page.url());
    assert.equal(url.searchParams.get("q"), "sql");

    await page.selectOption('[data-testid="sort"]', "displayName");
    const byDisplay = await truth(server, { sort: "displayName", categories: ["Database"], query: "sql" });
    await waitForCards(page, byDisplay.identities.slice(0, 20));
    assert.equal(new URL(page.url()).searchParams.get("sort"), "displayName");

    await page.check('input[data-testid="filter-plugin"][value="kapp_controller.packages"]');
    const carvel = await truth(server, { sort: "displayName", categories: ["Database"], query: "sql", plugins: ["kapp_controller.packages"] });
    await waitForCards(page, carvel.identities.slice(0, 20));
    const end = await scrollToEnd(page);
    assert.equal(end.state, "done");
    assert.deepEqual(await identities(page), carvel.identities);
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    await server.close();
  }
});

test("a reload of the URL resumes exactly: its first page is the page the original shows next", async () => {
  const server = await serve();
  try {
    const search = "?size=20&chunk=20&q=ma";
    const { page, errors } = await openCatalog(browser, server, search);
    await scrollOnce(page);
    await scrollOnce(page);
    const before = await identities(page);
    assert.equal(before.length, 60);
    const link = new URL(page.url());
    assert.ok(link.searchParams.get("page"), "the page token is in the URL");
    assert.equal(link.searchParams.get("q"), "ma");
    // The original goes on by one page...
    await scrollOnce(page);
    const next = (await identities(page)).slice(60);
    assert.equal(next.length, 20);
    // ...and a fresh page at the link shows that very page first.
    const { page: again, errors: errors2 } = await openCatalog(browser, server, link.search);
    await settle(again);
    assert.deepEqual((await identities(again)).slice(0, 20), next);
    assert.equal(await again.isVisible('[data-testid="flag-resumed"]'), true);
    // The two halves together are the whole list, once.
    await scrollToEnd(again);
    const all = [...before, ...(await identities(again))];
    const expected = await truth(server, { sort: "name", query: "ma" });
    assert.deepEqual(duplicates(all), []);
    assert.deepEqual(all, expected.identities);
    assert.deepEqual(errors, []);
    assert.deepEqual(errors2, []);
    await page.close();
    await again.close();
  } finally {
    await server.close();
  }
});

test("a link whose token does not fit starts over from the top and says why", async () => {
  const server = await serve();
  try {
    const { page } = await openCatalog(browser, server, "?size=20&q=e");
    await scrollOnce(page);
    const link = new URL(page.url());
    await page.close();

    // Same token, another filter: FILTER_MISMATCH.
    link.searchParams.set("q", "o");
    const { page: other, errors } = await openCatalog(browser, server, link.search);
    await settle(other);
    const notice = await textOf(other, "notice");
    assert.match(notice, /FILTER_MISMATCH/);
    assert.match(notice, /[Ss]tarted over/);
    const expected = await truth(server, { sort: "name", query: "o" });
    assert.deepEqual(await identities(other), expected.identities.slice(0, 20));
    assert.equal(await other.isVisible('[data-testid="flag-resumed"]'), false);
    assert.notEqual(new URL(other.url()).searchParams.get("page"), link.searchParams.get("page"));
    assert.deepEqual(errors, []);
    await other.close();

    // A token that is not one: INVALID_PAGE_TOKEN.
    const { page: bad, errors: errors2 } = await openCatalog(browser, server, "?size=20&page=not-a-token");
    await settle(bad);
    assert.match(await textOf(bad, "notice"), /INVALID_PAGE_TOKEN/);
    assert.deepEqual(await identities(bad), (await truth(server, { sort: "name" })).identities.slice(0, 20));
    assert.deepEqual(errors2, []);
    await bad.close();
  } finally {
    await server.close();
  }
});

test("a failed request shows its code and a retry button; the retry loses nothing", async () => {
  const server = await serve();
  try {
    const { page, errors } = await openCatalog(browser, server, "?size=30&chunk=20&q=ma");
    await settle(page);
    // Four 503s in a row: nextPage retries a transient failure 3 times (its default policy), the
    // fourth reaches the user.
    for (let i = 0; i < 4; i++) await api(server, "/demo/fail", { plugin: "helm", status: 503 });
    let state;
    for (let i = 0; i < 10; i++) {
      state = await scrollOnce(page);
      if (state.state === "error") break;
    }
    assert.equal(state.state, "error");
    assert.equal(await textOf(page, "error-code"), "SOURCE_FAILED");
    assert.match(await textOf(page, "feed-error"), /503/);
    const count = state.count;
    await page.click('[data-testid="retry"]');
    await page.waitForFunction((n) => {
      const c = document.querySelector('[data-testid="pager-column"]');
      return c.dataset.state !== "loading" && c.dataset.state !== "error" && c.querySelectorAll("[data-identity]").length > n;
    }, count);
    await scrollToEnd(page);
    assert.deepEqual(await identities(page), (await truth(server, { sort: "name", query: "ma" })).identities);
    // The failed request is in the request log, with its status.
    assert.match(await textOf(page, "request-log"), /SOURCE_FAILED 503/);
    assert.deepEqual(errors.filter((e) => !/503/.test(e)), []);
    await page.close();
  } finally {
    await server.close();
  }
});

test("a filter change while a page loads aborts that page: its requests are cancelled, its items never show", async () => {
  const server = await serve();
  try {
    const { page, errors } = await openCatalog(browser, server, "?size=20&chunk=20");
    await settle(page);
    // Hold every plugin request from now on, until released.
    let hold = true;
    const held = [];
    const failed = [];
    page.on("requestfailed", (r) => failed.push(`${r.url()} ${r.failure()?.errorText}`));
    await page.route("**/apis/plugins/**", (route) => (hold ? held.push(route) : route.continue()));
    // Scroll until a page waits for the backend (a page can come from chunks already read).
    for (let i = 0; i < 20 && held.length === 0; i++) {
      const { pages } = await columnState(page);
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await page.waitForFunction((n) => {
        const c = document.querySelector('[data-testid="pager-column"]');
        return Number(c.dataset.pages) > n || c.dataset.state === "loading";
      }, pages);
      await page.waitForTimeout(50);
    }
    assert.ok(held.length > 0, "a page is waiting for the backend");
    assert.equal((await columnState(page)).state, "loading");
    const stale = [...held];
    hold = false;
    await page.check('input[data-testid="filter-category"][value="Database"]');
    const databases = await truth(server, { sort: "name", categories: ["Database"] });
    await waitForCards(page, databases.identities.slice(0, 20));
    // The old page's requests were cancelled by the browser.
    for (const route of stale) {
      assert.ok(failed.some((f) => f.startsWith(route.request().url()) && /ABORTED/.test(f)), `aborted: ${route.request().url()}`);
      await route.continue().catch(() => {});
    }
    await settle(page);
    assert.deepEqual(await identities(page), databases.identities.slice(0, 20), "nothing of the old list came in late");
    assert.equal(await page.isVisible('[data-testid="feed-error"]'), false);
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    await server.close();
  }
});
