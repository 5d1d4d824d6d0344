// The Cluster view (www/clusters.html) in Chromium over the real services (`--backend real`:
// pods of three clusters in etcd): scrolled to the end it shows every pod once, in the
// apiserver's order; with churn on and etcd compacted mid-scroll, the page's own truth check
// finds nothing shown twice and nothing missed. The view needs the real services: this file starts
// PostgreSQL and etcd as tests/real/ does (installed by scripts/services/install.sh, which the
// real-service layer runs before this one; startServices installs what is missing too).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, openPage, screenshotPath } from "./support/browser.mjs";
import { useServices } from "../real/support.mjs";

const svc = useServices();
let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const state = (page) => page.evaluate(() => {
  const v = window.clusterView;
  return { ready: !!v?.ready, pages: v?.pages ?? 0, done: !!v?.done, shown: v?.shown.length ?? 0, error: v?.error ?? null, busy: !!v?.busy };
});

async function open(server) {
  const { page, errors } = await openPage(browser, `${server.url}clusters.html`);
  await page.waitForFunction(() => window.clusterView?.ready === true, null, { timeout: 60_000 });
  return { page, errors };
}

async function toEnd(page, between) {
  for (let n = 0; n < 400; n++) {
    const s = await state(page);
    if (s.done || s.error) return s;
    await between?.(n);
    await page.evaluate(() => window.clusterView.next());
  }
  throw new Error("the view did not reach the end");
}

test("the Cluster view pages pods of three clusters, each once, in the apiserver's order", { timeout: 180_000 }, async () => {
  const server = await svc.server({ clusterPods: 3000 });
  const { page, errors } = await open(server);
  assert.equal((await state(page)).pages, 1);
  const end = await toEnd(page);
  assert.equal(end.error, null);
  assert.equal(end.shown, 3000);
  const rows = await page.$$eval('[data-testid="pods"] tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
  assert.equal(rows.length, 3000);
  const keys = rows.map(([, cluster, ns, name]) => [`${ns}/${name}`, cluster]);
  for (let i = 1; i < keys.length; i++) assert.ok(keys[i - 1][0] < keys[i][0] || (keys[i - 1][0] === keys[i][0] && keys[i - 1][1] < keys[i][1]), `order at ${i}`);
  assert.deepEqual(new Set(keys.map((k) => k[1])), new Set(["east", "north", "west"]));
  await page.click('[data-testid="check"]');
  await page.waitForFunction(() => window.clusterView.check !== null);
  const check = await page.evaluate(() => window.clusterView.check);
  assert.deepEqual([check.twice, check.missed, check.throughout], [[], [], 3000]);
  assert.match(await page.textContent('[data-testid="truth"]'), /Shown twice: 0\. Missed: 0\./);
  await page.screenshot({ path: screenshotPath("clusters-real") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("the Cluster view under churn and compaction: the truth check finds nothing twice, nothing missed", { timeout: 180_000 }, async () => {
  const server = await svc.server({ clusterPods: 4000 });
  const { page, errors } = await open(server);
  await page.check('[data-testid="churn"]');
  const end = await toEnd(page, async (n) => {
    if (n === 5) await page.click('[data-testid="compact"]');
    await page.waitForTimeout(20);
  });
  await page.uncheck('[data-testid="churn"]');
  assert.equal(end.error, null);
  const status = await server.get("/demo/clusters");
  assert.ok(status.json.churn.created + status.json.churn.deleted > 10, JSON.stringify(status.json.churn));
  await page.click('[data-testid="check"]');
  await page.waitForFunction(() => window.clusterView.check !== null);
  const check = await page.evaluate(() => window.clusterView.check);
  assert.deepEqual(check.twice, []);
  assert.deepEqual(check.missed, []);
  assert.ok(check.throughout > 3500, JSON.stringify(check));
  // The 410 Expired answers after the compaction are the browser's network log, recovered from.
  assert.deepEqual(errors.filter((e) => !/status of 410 \(Gone\)/.test(e)), []);
  assert.ok(errors.length > 0, "etcd's compaction expired a list");
  await page.close();
});
