// The Cluster view (www/clusters.html) on the default backend (`npm start`), which serves no
// clusters: a notice that it needs `--backend real`, its controls disabled, and no page error
// (it used to throw on GET /demo/clusters/truth's 404 and show an empty table).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, serve, openPage } from "./support/browser.mjs";

let server, browser;
before(async () => {
  server = await serve();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test("on the default backend (no clusters) the Cluster view shows a notice, no page error", { timeout: 60_000 }, async () => {
  const { page, errors } = await openPage(browser, `${server.url}clusters.html`);
  await page.waitForFunction(() => window.clusterView?.ready === true, null, { timeout: 30_000 });
  assert.equal(await page.evaluate(() => window.clusterView.unavailable), true);
  assert.match(await page.textContent('[data-testid="status"]'), /needs the real services.*--backend real/);
  assert.equal(await page.isDisabled('[data-testid="more"]'), true);
  assert.deepEqual(errors, []);
});
