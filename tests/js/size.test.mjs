// The shipped size of the web build: wasm + JS glue (kubeapps_pager_bg.wasm, kubeapps_pager.js,
// index.js and snippets/**/*.js under pkg/web), each gzip -9 (node:zlib level 9), summed.
//
// The budget is 50 KB; the size now is 71.2 KB (BENCHMARKS.md, "Size"). Until the budget is met
// this test guards the size reached: CEILING is what it may not exceed. Lower it when the
// size drops, and set it to BUDGET once the build fits.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const BUDGET = 50 * 1024;
const CEILING = 72 * 1024;

const web = new URL("../../pkg/web/", import.meta.url).pathname;

/** Every .js file under `dir`, recursively. */
function scripts(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? scripts(path) : name.endsWith(".js") ? [path] : [];
  });
}

test("wasm + glue of the web build stay under the size ceiling (gzip -9)", (t) => {
  const files = [
    join(web, "kubeapps_pager_bg.wasm"),
    join(web, "kubeapps_pager.js"),
    join(web, "index.js"),
    ...scripts(join(web, "snippets")),
  ];
  let total = 0;
  for (const file of files) {
    const gzip = gzipSync(readFileSync(file), { level: 9 }).length;
    t.diagnostic(`${file.slice(web.length)}: ${gzip} B gzip`);
    total += gzip;
  }
  t.diagnostic(`total: ${total} B gzip (budget ${BUDGET} B, ceiling ${CEILING} B)`);
  assert.ok(files.length >= 4, "the wasm, the glue, index.js and at least one snippet");
  assert.ok(total <= CEILING, `${total} B gzip is over the ceiling of ${CEILING} B`);
});
