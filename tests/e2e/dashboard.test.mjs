// The dashboard view (www/dashboard.html) in Chromium: the pager as a Kubeapps dashboard uses it.
// Over each transport (REST; the plugins' Connect services over gRPC-web and Connect, with
// @connectrpc/connect-web in the browser): scroll to the end with at most 3 pages in memory and in
// the DOM, every package once in order; scroll back to the top, each page fetched again the same;
// the position in the hash's query (written without the router); a reload and a shared link
// resume there and scroll back; the wasm fetched once across routes; installed packages paged;
// the categories sidebar from the pages; a failure shown in words for users, with the transport's
// own error for developers.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, serve, openPage } from "./support/browser.mjs";
import { truth } from "./support/catalog.mjs";
import { installedReleases } from "../../server/installed.mjs";

let browser, server;
before(async () => {
  browser = await launch();
  server = await serve();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

const info = (page) => page.$eval('[data-testid="window-info"]', (e) => ({ ...e.dataset }));
const shownPages = (page) => page.$$eval("[data-page-index]", (s) => s.map((e) => Number(e.dataset.pageIndex)));
const shownIds = (page) =>
  page.$$eval("[data-page-index]", (s) => s.map((e) => [Number(e.dataset.pageIndex), [...e.querySelectorAll("[data-identity]")].map((i) => i.dataset.identity)]));

/** Waits until no page is loading (the info line updated, nothing "Loading…"). */
async function idle(page) {
  await page.waitForFunction(() => {
    const busy = [...document.querySelectorAll(".dash-status")].some((e) => e.textContent === "Loading…");
    return !busy && document.querySelector('[data-testid="window-info"]').dataset.requests !== undefined;
  });
  await page.waitForTimeout(50);
}

/** Scrolls to the bottom until the end; returns every page's identities by index, as first seen. */
async function scrollDown(page, max = 200) {
  const byIndex = new Map();
  for (let i = 0; i < max; i++) {
    await idle(page);
    for (const [index, ids] of await shownIds(page)) if (!byIndex.has(index)) byIndex.set(index, ids);
    const pages = await shownPages(page);
    assert.ok(pages.length <= 3, `at most 3 pages in the DOM: ${pages}`);
    assert.ok(Number((await info(page)).pagesInMemory) <= 3);
    if ((await page.textContent('[data-testid="bottom-status"]')) === "End of the list") return byIndex;
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  }
  throw new Error("no end");
}

/** Scrolls to the top until page 0 shows; checks each page shown again against `byIndex`. */
async function scrollUp(page, byIndex, max = 200) {
  for (let i = 0; i < max; i++) {
    await idle(page);
    for (const [index, ids] of await shownIds(page)) assert.deepEqual(ids, byIndex.get(index), `page ${index} fetched again is the same`);
    assert.ok((await shownPages(page)).length <= 3);
    if ((await shownPages(page))[0] === 0) return;
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.evaluate(() => window.dispatchEvent(new Event("scroll")));
  }
  throw new Error("never back at the top");
}

for (const transport of ["rest", "grpc-web", "connect"]) {
  test(`over ${transport}: a window of 3 pages scrolls to the end and back to the top, every package once, in order`, async () => {
    const { page, errors } = await openPage(browser, `${server.url}dashboard.html#/catalog?transport=${transport}`);
    const requests = [];
    page.on("request", (r) => requests.push(new URL(r.url()).pathname));
    try {
      await page.waitForSelector("[data-page-index]");
      await page.evaluate(() => window.scrollBy(0, 1));
      const byIndex = await scrollDown(page);
      const all = [...byIndex.keys()].sort((a, b) => a - b).flatMap((i) => byIndex.get(i));
      const expected = await truth(server, { sort: "name" });
      assert.deepEqual(all, expected.identities, "every package once, in the pager's order");
      const hash = new URL(page.url()).hash;
      assert.match(hash, /^#\/catalog\?transport=[\w-]+&page=\d+\.[\w-]+$/, "the position in the hash's query");
      await scrollUp(page, byIndex);
      assert.equal(new URL(page.url()).hash, `#/catalog?transport=${transport}`, "back at the top: no token");
      if (transport === "rest") assert.ok(requests.some((p) => p.startsWith("/apis/plugins/helm/")), "REST gateway paths");
      else {
        assert.ok(requests.some((p) => p === "/apis/kubeappsapis.plugins.helm.packages.v1alpha1.HelmPackagesService/GetAvailablePackageSummaries"));
        assert.ok(!requests.some((p) => p.startsWith("/apis/plugins/")), "no REST request");
      }
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
}

test("a reload resumes at the page in the URL and scrolls back from history.state's tokens; a shared link walks back from the start", async () => {
  const { page, errors } = await openPage(browser, `${server.url}dashboard.html#/catalog?transport=grpc-web`);
  try {
    await page.waitForSelector("[data-page-index]");
    await page.evaluate(() => window.scrollBy(0, 1));
    for (let i = 0; i < 6; i++) {
      await idle(page);
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    }
    await idle(page);
    const first = (await shownPages(page))[0];
    assert.ok(first >= 3, `scrolled on: first page shown ${first}`);
    const url = page.url();
    const before = await shownIds(page);
    await page.reload();
    await page.waitForSelector(`[data-page-index="${first}"]`);
    await idle(page);
    assert.deepEqual((await shownIds(page))[0], before[0], "the same page first after the reload");
    assert.equal((await info(page)).knowsStart, "true", "history.state gave the earlier pages' tokens");
    // The user scrolls up at the top of the resumed page: that moves nothing and fires no scroll
    // event (the wheel is what says so). It loads the page before.
    assert.equal(await page.evaluate(() => window.scrollY), 0);
    await page.mouse.move(300, 300);
    await page.mouse.wheel(0, -400);
    await page.waitForSelector(`[data-page-index="${first - 1}"]`);
    await idle(page);
    const all = await truth(server, { sort: "name" });
    const joined = (await shownIds(page)).flatMap(([, ids]) => ids);
    const from = all.identities.indexOf(joined[0]);
    assert.deepEqual(joined, all.identities.slice(from, from + joined.length), "the page before joins without a gap or a repeat");

    // The same URL in a new tab: no history.state.
    const shared = await browser.newPage();
    await shared.goto(url);
    await shared.waitForSelector(`[data-page-index="${first}"]`);
    await idle(shared);
    assert.equal((await info(shared)).knowsStart, "false", "a shared link has no earlier tokens");
    // A scroll down and back up within one frame: one scroll event, at 0, still the user's.
    await shared.evaluate(() => {
      window.scrollBy(0, 1);
      window.scrollTo(0, 0);
    });
    await shared.waitForSelector(`[data-page-index="${first - 1}"]`);
    await idle(shared);
    assert.equal((await info(shared)).knowsStart, "true", "the first step back walked from the start");
    const shown = (await shownIds(shared)).flatMap(([, ids]) => ids);
    const at = all.identities.indexOf(shown[0]);
    assert.deepEqual(shown, all.identities.slice(at, at + shown.length), "the pages before and after join without a gap or a repeat");
    await shared.close();
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test("routes: the wasm is fetched once; installed packages page with the same pager; the categories come from the pages", async () => {
  const { page, errors } = await openPage(browser, `${server.url}dashboard.html#/catalog`);
  try {
    await page.waitForSelector("[data-page-index]");
    await page.waitForSelector("[data-category]");
    const categories = await page.$$eval("[data-category]", (a) => a.map((e) => e.dataset.category));
    const records = ["helm.packages", "fluxv2.packages", "kapp_controller.packages"].flatMap((p) => server.store.liveSorted(p));
    assert.deepEqual(categories, [...new Set(records.flatMap((r) => r.categories ?? []).filter(Boolean))].sort());
    await page.click('[data-testid="tab-installed"]');
    await page.waitForFunction(() => document.querySelector("[data-identity]")?.dataset.identity.includes("-"));
    await page.evaluate(() => window.scrollBy(0, 1));
    const byIndex = await scrollDown(page);
    const shown = [...byIndex.keys()].sort((a, b) => a - b).flatMap((i) => byIndex.get(i));
    const config = await (await fetch(`${server.url}demo/config`)).json();
    const expected = config.plugins.flatMap((p) => Object.keys(p.namespaces).flatMap((ns) =>
      installedReleases(server.app, p.name, ns).map((x) => ({ id: `${p.name}/${config.cluster}/${ns}/${x.release}`, name: x.release }))));
    expected.sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)) || (a.id < b.id ? -1 : 1));
    assert.deepEqual([...shown].sort(), expected.map((x) => x.id).sort(), "every release once");
    await page.click('[data-testid="tab-catalog"]');
    await page.waitForSelector("[data-page-index]");
    await idle(page);
    assert.equal((await info(page)).wasmFetches, "1", "init() on every route, the wasm fetched once");
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test("a plugin failure shows a message for users; the developer details name the ConnectError; retry goes on", async () => {
  const { page, errors } = await openPage(browser, `${server.url}dashboard.html#/catalog?transport=grpc-web`);
  try {
    await page.waitForSelector("[data-page-index]");
    await idle(page);
    await page.click('[data-testid="fail"]');
    await page.waitForTimeout(100);
    // The next helm request fails: scroll on until one is made.
    for (let i = 0; i < 30 && (await page.$('[data-testid="error"][hidden]')); i++) {
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await page.waitForTimeout(150);
    }
    await page.waitForSelector('[data-testid="error"]:not([hidden])');
    const user = await page.textContent('[data-testid="error-user"]');
    assert.match(user, /unavailable right now/i);
    assert.doesNotMatch(user, /helm|apis|503/);
    assert.match(await page.textContent('[data-testid="error-dev"]'), /^SOURCE_FAILED: source helm\.packages\//);
    assert.match(await page.textContent('[data-testid="error-cause"]'), /ConnectError \(code 14\)/);
    const pagesBefore = Math.max(...(await shownPages(page)));
    await page.click('[data-testid="retry"]');
    await page.waitForSelector(`[data-page-index="${pagesBefore + 1}"]`);
    // The browser logs the failed request (a 503 answer) itself; nothing else.
    assert.deepEqual(errors.filter((e) => !/status of 503/.test(e)), []);
  } finally {
    await page.close();
  }
});
