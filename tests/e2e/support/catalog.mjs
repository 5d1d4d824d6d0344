// Helpers for the catalog page's browser tests (www/index.html): the backend's JSON endpoints,
// opening the page, scrolling a column one page at a time, reading what the cards show.
import { openPage } from "./browser.mjs";

/** GET (no body) or POST (a body) a JSON endpoint of the demo server; throws on a non-2xx answer. */
export async function api(server, path, body) {
  const init = body === undefined
    ? { headers: { accept: "application/json" } }
    : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  const res = await fetch(new URL(path.replace(/^\//, ""), server.url), init);
  const json = await res.json();
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

/** GET /demo/truth with these parameters (`{sort, query, categories: [], plugins: [], since}`). */
export function truth(server, params = {}) {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (Array.isArray(v)) for (const x of v) p.append(k, x);
    else if (v !== undefined && v !== null) p.set(k, String(v));
  }
  return api(server, `/demo/truth?${p}`);
}

/**
 * Opens the catalog at `search` (e.g. `?size=50`) and waits until it is ready. Records console
 * errors, page errors and dialogs (which it dismisses). `before(page)` runs before the page loads
 * (e.g. to route requests). Returns `{page, errors, dialogs}`.
 */
export async function openCatalog(browser, server, search = "", { width = 1280, height = 800, before } = {}) {
  const { page, errors } = await openPage(browser, "about:blank");
  await before?.(page);
  const dialogs = [];
  page.on("dialog", (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    d.dismiss().catch(() => {});
  });
  await page.setViewportSize({ width, height });
  await page.goto(`${server.url}${search}`);
  await waitReady(page);
  return { page, errors, dialogs };
}

/** Waits for the page's start-up (wasm loaded, list started, facets loaded) and its first page. */
export async function waitReady(page) {
  await page.waitForSelector('body[data-ready="1"]', { state: "attached", timeout: 30_000 });
  await page.waitForFunction(() => {
    const c = document.querySelector('[data-testid="pager-column"]');
    return c.dataset.state !== "loading" && (Number(c.dataset.pages) >= 1 || ["done", "error"].includes(c.dataset.state));
  });
}

const TERMINAL = ["done", "capped", "error"];

/** A column's `{state, pages, count}` ("pager" or "core"). */
export function columnState(page, which = "pager") {
  return page.$eval(`[data-testid="${which}-column"]`, (c) => ({
    state: c.dataset.state,
    pages: Number(c.dataset.pages),
    count: c.querySelectorAll("[data-identity]").length,
  }));
}

/** Waits until a column has no page loading; returns its state. */
export async function settle(page, which = "pager") {
  await page.waitForFunction((w) => document.querySelector(`[data-testid="${w}-column"]`).dataset.state !== "loading", which);
  return columnState(page, which);
}

/**
 * Scrolls a column to its end (the window, or its own scroller in comparison mode) and waits
 * for one more page, or for the column to end or fail. Returns its state after.
 */
export async function scrollOnce(page, which = "pager") {
  const before = await settle(page, which);
  if (TERMINAL.includes(before.state)) return before;
  await page.evaluate((w) => {
    const column = document.querySelector(`[data-testid="${w}-column"]`);
    const scroller = column.querySelector(".scroller");
    if (scroller.scrollHeight > scroller.clientHeight + 1 && getComputedStyle(scroller).overflowY !== "visible") {
      scroller.scrollTop = scroller.scrollHeight;
    } else {
      window.scrollTo(0, document.documentElement.scrollHeight);
    }
  }, which);
  await page.waitForFunction(([w, pages, terminal]) => {
    const c = document.querySelector(`[data-testid="${w}-column"]`);
    return c.dataset.state !== "loading" && (Number(c.dataset.pages) > pages || terminal.includes(c.dataset.state));
  }, [which, before.pages, TERMINAL]);
  return columnState(page, which);
}

/** Scrolls until the column ends (`between()` runs before each scroll). Throws on an error state. */
export async function scrollToEnd(page, which = "pager", { between, maxPages = 400 } = {}) {
  for (let i = 0; i < maxPages; i++) {
    const s = await columnState(page, which);
    if (s.state === "error") throw new Error(`${which} column failed: ${await page.textContent(`[data-testid="${which}-column"] [data-testid="feed-error"]`)}`);
    if (s.state === "done" || s.state === "capped") return s;
    if (between) await between(i);
    await scrollOnce(page, which);
  }
  throw new Error(`${which} column did not end within ${maxPages} pages`);
}

/** The identities of a column's cards, in screen order. */
export function identities(page, which = "pager") {
  return page.$$eval(`[data-testid="${which}-column"] [data-identity]`, (cards) => cards.map((c) => c.dataset.identity));
}

/** The text of an element by data-testid (inside `scope` when given). */
export function textOf(page, testid, scope = "") {
  return page.textContent(`${scope ? `${scope} ` : ""}[data-testid="${testid}"]`);
}

/**
 * Waits until the page's own truth check has covered every page the pager column shows, then
 * returns its count of packages missed (`fact-missed`).
 */
export async function checkedMissed(page) {
  await page.waitForFunction(() => {
    const pages = document.querySelector('[data-testid="pager-column"]').dataset.pages;
    return document.querySelector('[data-testid="fact-checked-pages"]')?.textContent === `after page ${pages}`;
  });
  const text = await textOf(page, "fact-missed");
  assertNumber(text);
  return Number(text.replace(/,/g, ""));
}

function assertNumber(text) {
  if (!/^\d[\d,]*$/.test(text)) throw new Error(`fact-missed is not a number: ${JSON.stringify(text)}`);
}

/** Identities that occur more than once. */
export function duplicates(list) {
  const seen = new Set();
  const dup = new Set();
  for (const id of list) (seen.has(id) ? dup : seen).add(id);
  return [...dup];
}
