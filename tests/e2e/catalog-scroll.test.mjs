// The catalog page (www/index.html) scrolled to its end in headless Chromium: the cards are the
// ground truth (same filter, same sort), in order, once each, whatever the plugins' paging.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, serve, screenshotPath } from "./support/browser.mjs";
import { api, truth, openCatalog, scrollToEnd, identities, columnState, settle, textOf, checkedMissed, duplicates } from "./support/catalog.mjs";

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const all = (behaviour) => ({ helm: behaviour, fluxv2: behaviour, kapp_controller: behaviour });

const CASES = [
  { name: "every plugin pages as kubernetes (continue tokens, snapshots)", behaviours: all("kubernetes"), search: "?size=100&chunk=40", sort: "name" },
  { name: "every plugin pages as kubeapps-offset, sorted by display name", behaviours: all("kubeapps-offset"), search: "?size=100&chunk=40&sort=displayName", sort: "displayName" },
  { name: "every plugin pages as unordered (order changes per request)", behaviours: all("unordered"), search: "?size=100", sort: "name" },
  {
    name: "the default mix of behaviours, with a query and two categories",
    behaviours: {},
    search: "?size=20&chunk=20&q=a&category=Database&category=Monitoring",
    sort: "name",
    filter: { query: "a", categories: ["Database", "Monitoring"] },
    // The search is each plugin's own (issue 15): helm and fluxv2 take a package in any of the
    // categories, kapp_controller only one in every category given (FilterMetadatas), and no
    // kapp package of the demo is in both.
    contributors: ["helm.packages", "fluxv2.packages"],
  },
];
const PLUGINS = ["helm.packages", "fluxv2.packages", "kapp_controller.packages"];

for (const c of CASES) {
  test(`scrolls the whole catalog: ${c.name}`, async () => {
    const server = await serve({ behaviours: c.behaviours });
    try {
      const config = await api(server, "/demo/config");
      for (const p of config.plugins) assert.equal(p.behaviour, c.behaviours[p.name.replace(".packages", "")] ?? p.behaviour);
      const { page, errors, dialogs } = await openCatalog(browser, server, c.search);
      const end = await scrollToEnd(page);
      assert.equal(end.state, "done");
      const shown = await identities(page);
      const expected = await truth(server, { sort: c.sort, ...c.filter });
      assert.ok(expected.count > 0);
      assert.deepEqual(duplicates(shown), [], "no package shown twice");
      assert.deepEqual(shown, expected.identities, "the cards are the truth, in its order");
      // The page's own check agrees, and the plugins whose search matches contributed, the
      // others did not.
      assert.equal(await checkedMissed(page), 0);
      assert.equal(await textOf(page, "fact-twice"), "0");
      const contributors = c.contributors ?? PLUGINS;
      for (const p of PLUGINS) {
        assert.equal(shown.some((id) => id.startsWith(`${p}/`)), contributors.includes(p), `${p} has cards: ${contributors.includes(p)}`);
      }
      assert.equal(await page.getAttribute('[data-testid="flag-inconsistent"]', "data-on"), "0");
      assert.deepEqual(errors, []);
      assert.deepEqual(dialogs, []);
      await page.close();
    } finally {
      await server.close();
    }
  });
}

test("asks for a page only while the sentinel shows: no runaway fetching", async () => {
  const server = await serve();
  try {
    const { page, errors } = await openCatalog(browser, server, "?size=24", { width: 1280, height: 720 });
    const first = await settle(page);
    assert.equal(first.pages, 1, "one page fills the window: no second page without a scroll");
    assert.equal(first.count, 24);
    const requests = Number(await textOf(page, "stat-requests"));
    // Give a runaway loop every chance to show itself, then look again.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 600)))));
    const later = await columnState(page);
    assert.equal(later.pages, 1);
    assert.equal(Number(await textOf(page, "stat-requests")), requests);
    assert.deepEqual(errors, []);
    await page.screenshot({ path: screenshotPath("catalog"), fullPage: false });
    await page.close();
  } finally {
    await server.close();
  }
});
