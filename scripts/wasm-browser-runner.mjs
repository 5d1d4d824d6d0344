// Cargo's runner for the wasm-bindgen tests in headless Chromium (scripts/test.sh sets
// CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER to this for that step): `node wasm-browser-runner.mjs
// <test.wasm> [args]`.
//
// wasm-bindgen-test-runner serves the tests (its interactive mode, `NO_HEADLESS=1`: the page runs
// them on load and prints what the headless mode prints) and playwright-core drives Chromium, as
// in the e2e tests. Every request of the page is made from here, on a connection of its own that
// is closed after the answer: with Chromium's own connections, the runner's page load stalled in
// about one start in two on this kind of machine (through chromedriver, the runner's headless
// mode, as well as through playwright), for minutes; 18 starts in a row took 2–3 s each this way.
// Exit code 0 only on "test result: ok".
import { spawn } from "node:child_process";
import { request as httpRequest } from "node:http";
import { chromium } from "playwright-core";
import { CHROMIUM, CHROMIUM_ARGS } from "../tests/e2e/support/browser.mjs";

const [built, ...args] = process.argv.slice(2);
const wasm = built;
const timeoutMs = 1000 * Number(process.env.WASM_BINDGEN_TEST_TIMEOUT ?? 120);
const address = `127.0.0.1:${20000 + Math.floor(Math.random() * 20000)}`;
const runner = spawn("wasm-bindgen-test-runner", [wasm, ...args], {
  env: { ...process.env, NO_HEADLESS: "1", WASM_BINDGEN_TEST_ADDRESS: address },
  stdio: ["ignore", "pipe", "inherit"],
});
const stop = (code) => {
  runner.kill();
  process.exit(code);
};
runner.on("exit", (code) => {
  console.error(`wasm-bindgen-test-runner exited (${code}) before the tests finished`);
  process.exit(1);
});

// The runner prints the page's address once it serves it.
await new Promise((resolve, reject) => {
  let seen = "";
  runner.stdout.on("data", (chunk) => {
    seen += chunk;
    if (seen.includes(`http://${address}`)) resolve();
  });
  setTimeout(() => reject(new Error(`the runner did not serve ${address}: ${seen}`)), 60_000);
}).catch((e) => {
  console.error(e.message);
  stop(1);
});

let browser;
try {
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 60_000 });
  const page = await browser.newPage();
  page.on("pageerror", (e) => console.error(`page error: ${e.message}`));
  // Every request goes to the runner from here, one connection each, closed after the answer
  // (see the top of this file).
  await page.route("**/*", async (route) => {
    const r = route.request();
    try {
      const answer = await fetchClosed(r.url(), r.method(), r.postDataBuffer());
      await route.fulfill(answer);
    } catch (e) {
      await route.abort().catch(() => {});
    }
  });
  await page.goto(`http://${address}/`);
  // The page writes the tests' output into #output and ends it with the result line.
  await page.waitForFunction(() => /test result: /.test(document.getElementById("output")?.textContent ?? ""), null, {
    timeout: timeoutMs,
    polling: 200,
  });
  const output = await page.evaluate(() => document.getElementById("output").textContent);
  console.log(output.trim());
  await browser.close();
  stop(/test result: ok\./.test(output) ? 0 : 1);
} catch (e) {
  console.error(`wasm-bindgen tests in Chromium: ${e.message}`);
  await browser?.close().catch(() => {});
  stop(1);
}

/** `url` fetched on a connection of its own, closed after the answer: `{ status, headers, body }`. */
function fetchClosed(url, method, body) {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, agent: false, headers: { connection: "close" } }, (res) => {
      const parts = [];
      res.on("data", (part) => parts.push(part));
      res.on("end", () => {
        const headers = {};
        for (const [k, v] of Object.entries(res.headers)) headers[k] = Array.isArray(v) ? v.join(", ") : String(v);
        resolve({ status: res.statusCode, headers, body: Buffer.concat(parts) });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.setTimeout(30_000, () => req.destroy(new Error(`no answer from ${url}`)));
    if (body) req.write(body);
    req.end();
  });
}
