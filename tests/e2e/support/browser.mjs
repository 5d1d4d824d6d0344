// Headless Debian Chromium driven by playwright-core (no browser download), and the demo server.
import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";
import { startServer } from "../../../server/main.mjs";

export const CHROMIUM = process.env.CHROMIUM_BIN ?? "/usr/bin/chromium";
// Flags measured to work here (docs/toolchain notes): no sandbox as root, no background networking.
export const CHROMIUM_ARGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];
export const ARTIFACTS = new URL("../../../artifacts/", import.meta.url).pathname;

export async function launch() {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 60_000 });
}

/** Starts the demo server on a free port; returns `{ url, close, ... }`. */
export async function serve(options = {}) {
  return startServer({ port: 0, ...options });
}

/** A new page that records console errors and page errors into `errors`. */
export async function openPage(browser, url) {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(`pageerror: ${e}`));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`console: ${m.text()}`);
  });
  await page.goto(url);
  return { page, errors };
}

export function screenshotPath(name) {
  mkdirSync(ARTIFACTS, { recursive: true });
  return `${ARTIFACTS}${name}.png`;
}
