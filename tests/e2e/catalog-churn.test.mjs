// The catalog under churn, side by side with Kubeapps' paging of today: writes land between
// scrolls (POST /demo/churn with `steps`, so the run is deterministic). The pager column shows no
// package twice and every package present the whole time once; the Kubeapps column does not.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, serve, screenshotPath } from "./support/browser.mjs";
import { api, truth, openCatalog, scrollOnce, columnState, identities, checkedMissed, textOf, duplicates } from "./support/catalog.mjs";

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const finished = (s) => ["done", "capped", "error"].includes(s.state);

test("churn while scrolling: the pager shows each package once; the core path's faults are real", async () => {
  const server = await serve();
  try {
    const start = (await api(server, "/demo/config")).revision;
    const { page, errors, dialogs } = await openCatalog(browser, server, "?compare=1&size=60&chunk=30", { width: 1440, height: 900 });
    let writes = 0;
    for (let round = 0; round < 200; round++) {
      const pager = await columnState(page, "pager");
      const core = await columnState(page, "core");
      if (finished(pager) && finished(core)) break;
      await api(server, "/demo/churn", { steps: 6 });
      writes += 6;
      if (!finished(pager)) await scrollOnce(page, "pager");
      if (!finished(core)) await scrollOnce(page, "core");
    }
    const pagerEnd = await columnState(page, "pager");
    const coreEnd = await columnState(page, "core");
    assert.equal(pagerEnd.state, "done");
    assert.ok(["done", "capped"].includes(coreEnd.state), `core column ended (${coreEnd.state})`);
    const now = await api(server, "/demo/config");
    assert.ok(now.churn.applied.insert + now.churn.applied.delete > 0, "the catalog really changed");

    // The pager: no duplicates; every package present the whole time is shown once.
    const shown = await identities(page, "pager");
    const present = (await truth(server, { sort: "name", since: start })).since.identities;
    assert.ok(present.length > 900);
    assert.deepEqual(duplicates(shown), []);
    const shownSet = new Set(shown);
    assert.deepEqual(present.filter((id) => !shownSet.has(id)), [], "nothing present the whole time is missing");
    assert.equal(await checkedMissed(page), 0);
    assert.ok(Number(await textOf(page, "stat-rescans")) > 0, "offsets drifted and the pager re-read (rescans)");

    // Kubeapps today: what it shows twice or misses, computed here from its cards.
    const coreShown = await identities(page, "core");
    const coreSet = new Set(coreShown);
    const coreMissed = present.filter((id) => !coreSet.has(id));
    const coreTwice = coreShown.length - coreSet.size;
    assert.ok(coreMissed.length + coreTwice > 0, "the core path shows duplicates or misses");
    // Not only packages that share an identifier (the dashboard's uniqBy): paging itself lost some.
    const byIdentifier = new Map();
    for (const id of present) {
      const identifier = id.split("/").slice(3).join("/");
      byIdentifier.set(identifier, (byIdentifier.get(identifier) ?? 0) + 1);
    }
    const lostByPaging = coreMissed.filter((id) => byIdentifier.get(id.split("/").slice(3).join("/")) === 1);
    assert.ok(lostByPaging.length > 0, "the core path lost packages whose identifier is unique");
    // The column's own tallies say the same.
    await page.waitForFunction(() => /^\d/.test(document.querySelector('[data-testid="core-column"] [data-testid="tally-missed"]').textContent));
    assert.equal(Number((await textOf(page, "tally-missed", '[data-testid="core-column"]')).replace(/,/g, "")), coreMissed.length);
    assert.equal(Number(await textOf(page, "tally-twice", '[data-testid="core-column"]')), coreTwice);
    console.log(`# ${writes} writes; pager ${shown.length} shown, 0 missed; core ${coreShown.length} shown, ${coreMissed.length} missed (${lostByPaging.length} with a unique identifier), ${coreTwice} twice, fetched twice ${await textOf(page, "tally-fetched-twice", '[data-testid="core-column"]')}, ${coreEnd.state}`);
    await page.evaluate(() => document.querySelectorAll(".scroller").forEach((s) => (s.scrollTop = 0)));
    await page.screenshot({ path: screenshotPath("catalog-compare") });
    assert.deepEqual(errors, []);
    assert.deepEqual(dialogs, []);
    await page.close();
  } finally {
    await server.close();
  }
});
