// The token inspector page (www/inspector.html) in headless Chromium: type a token, read the fields.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, serve, openPage, screenshotPath } from "./support/browser.mjs";

let server, browser;
before(async () => {
  server = await serve();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function inspect(page, token) {
  await page.fill('[data-testid="token-input"]', token);
  await page.waitForFunction(() => document.querySelector('[data-testid="token-kind"]'));
  const field = async (name) => page.textContent(`[data-testid="field-${name}"]`);
  return { kind: await page.textContent('[data-testid="token-kind"]'), field };
}

test("decodes a Kubernetes continue token typed into it", async () => {
  const { page, errors } = await openPage(browser, `${server.url}inspector.html`);
  await page.waitForSelector('body[data-ready="1"]');
  // rv 100, start "kubeapps/pkg-c\u0000": the apiserver's format.
  const r = await inspect(page, "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTAwLCJzdGFydCI6Imt1YmVhcHBzL3BrZy1jXHUwMDAwIn0");
  assert.equal(r.kind, "continue");
  assert.equal(await r.field("resourceVersion"), '"100"');
  assert.equal(JSON.parse(await r.field("start")), "kubeapps/pkg-c\u0000");
  assert.equal(await r.field("consistent"), "true");
  assert.deepEqual(errors, []);
  await page.close();
});

test("decodes a Kubeapps core token typed into it", async () => {
  const { page, errors } = await openPage(browser, `${server.url}inspector.html`);
  await page.waitForSelector('body[data-ready="1"]');
  const r = await inspect(page, '{"helm.packages":40,"fluxv2.packages":-1}');
  assert.equal(r.kind, "kubeappsCore");
  const text = await page.textContent('[data-testid="token-result"]');
  assert.match(text, /helm\.packages/);
  assert.match(text, /40/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("decodes a pager token made by the example button, source by source", async () => {
  const { page, errors } = await openPage(browser, `${server.url}inspector.html`);
  await page.waitForSelector('body[data-ready="1"]');
  await page.click('[data-testid="example-page"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="token-kind"]')?.textContent === "page");
  assert.equal(await page.textContent('[data-testid="field-pageSize"]'), "20");
  assert.equal(await page.textContent('[data-testid="source0-plugin"]'), '"helm.packages"');
  assert.equal(await page.textContent('[data-testid="source1-exhausted"]'), "true");
  assert.equal(await page.textContent('[data-testid="source2-plugin"]'), '"kapp_controller.packages"');
  await page.screenshot({ path: screenshotPath("inspector"), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test("an altered token is shown as invalid with its reason, as text", async () => {
  const { page, errors } = await openPage(browser, `${server.url}inspector.html`);
  await page.waitForSelector('body[data-ready="1"]');
  const r = await inspect(page, "<img src=x onerror=alert(1)>");
  assert.equal(r.kind, "invalid");
  assert.equal(await page.locator("img").count(), 0, "token text is never HTML");
  assert.deepEqual(errors, []);
  await page.close();
});
