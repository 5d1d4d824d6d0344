// `--hostile` data (markup in every text field, a `javascript:` icon) renders as text in every part
// of the catalog page: cards, both columns, facets, the token panel. No script runs, no dialog
// opens, no <img> comes from the data, nothing is logged.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, serve } from "./support/browser.mjs";
import { openCatalog, scrollToEnd, settle } from "./support/catalog.mjs";

const HOSTILE = "<img src=x onerror=alert(1)>";
const IDENTITY = `helm.packages/default/kubeapps/hostile/${HOSTILE}`;

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Every <img> on the page: its src and whether it has any on* attribute. */
const images = (page) => page.$$eval("img", (imgs) => imgs.map((i) => ({
  src: i.getAttribute("src"),
  handlers: [...i.attributes].filter((a) => a.name.startsWith("on")).map((a) => a.name),
})));

test("hostile package data is shown as text and runs nothing", async () => {
  const server = await serve({ hostile: true });
  try {
    const { page, errors, dialogs } = await openCatalog(browser, server, "?compare=1&q=onerror&size=20", { width: 1440, height: 900 });
    await scrollToEnd(page, "pager");
    await scrollToEnd(page, "core");
    // Give any injected handler the time to fire.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 300))));
    for (const which of ["pager", "core"]) {
      const card = page.locator(`[data-testid="${which}-column"] [data-identity]`);
      assert.equal(await card.count(), 1, `${which}: the hostile package is the only match`);
      assert.equal(await card.getAttribute("data-identity"), IDENTITY);
      assert.equal(await card.locator('[data-testid="card-title"]').textContent(), HOSTILE);
      assert.equal(await card.locator('[data-testid="card-description"]').textContent(), "\"><script>alert(2)</script> served as data, never as markup");
      assert.equal(await card.locator(".chip").textContent(), "<b>Security</b>");
      assert.equal(await card.locator('[data-testid="card-version"]').textContent(), "1.0.0");
      // The `javascript:` icon is not an image: a placeholder stands in.
      assert.equal(await card.locator("img").count(), 0);
      assert.equal(await card.locator('[data-testid="icon-placeholder"]').count(), 1);
      assert.equal(await card.locator("b, script, i").count(), 0, "no element made from the data");
    }
    // Facets: the category is listed as text.
    const facet = page.locator('input[data-testid="filter-category"][value="<b>Security</b>"]');
    assert.equal(await facet.count(), 1);
    assert.match(await page.textContent("#f-categories"), /<b>Security<\/b>/);
    // Nowhere on the page did the data make an element.
    assert.equal(await page.locator("b, i, script:not([src])").count(), 0);
    // No image from the data anywhere; the only images are the backend's icons.
    for (const img of await images(page)) {
      assert.deepEqual(img.handlers, []);
      assert.ok(img.src.startsWith(`${server.url}demo/icon/`) || img.src.startsWith("data:image/"), `unexpected img src ${img.src}`);
    }
    assert.equal(await page.locator("script").count(), 1, "only the page's own module script");
    assert.deepEqual(dialogs, []);
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    await server.close();
  }
});

test("the first page of a hostile catalog, unfiltered, renders its icons safely", async () => {
  const server = await serve({ hostile: true });
  try {
    const { page, errors, dialogs } = await openCatalog(browser, server, "?size=24");
    await settle(page);
    // The hostile name sorts first by bytes ("<" is 0x3C).
    const first = page.locator('[data-testid="package-card"]').first();
    assert.equal(await first.getAttribute("data-identity"), IDENTITY);
    const imgs = await images(page);
    assert.ok(imgs.length > 0, "the other cards have their icons");
    for (const img of imgs) {
      assert.deepEqual(img.handlers, []);
      assert.ok(img.src.startsWith(`${server.url}demo/icon/`) || img.src.startsWith("data:image/"), `unexpected img src ${img.src}`);
    }
    await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
    assert.deepEqual(dialogs, []);
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    await server.close();
  }
});
