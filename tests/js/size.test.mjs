// The shipped size of each entry's web build: its wasm + all its JS (index.js: the glue and the
// snippets bundled into one file by scripts/build.sh), each file gzip -9 (node:zlib level 9),
// summed. The pager entry ("kubeapps-pager", pkg/web) is what a dashboard paging lists downloads;
// the codec entry ("kubeapps-pager/codec", pkg/codec/web: the token functions) only tools such as
// the token inspector load; the collation entry ("kubeapps-pager/collation", pkg/collation/web: the
// pager with the collator and CLDR's root collation data) only a page that sorts naturally.
//
// The pager and codec entries' budget is 128 KB gzip each, read as 128,000 B (the stricter
// reading; 128 KiB would be 131,072 B): the test fails over it. The collation entry has no budget
// of its own; its ceiling guards the size reached (lower it when the size drops). Figures:
// BENCHMARKS.md, "Size" and "Collation".
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const BUDGET = 128_000;
// The collation entry is the pager entry plus the collator and its data (ICU4X: 98.3 to 98.8 KB gzip
// of wasm, BENCHMARKS.md "Collation"). Its ceiling is what the collator may add over the pager
// entry, so the pager's own growth is held once, by BUDGET: 224,656 - 126,585 = 98,071 B with
// issue 24 merged (slow start, displayName streaming, prefetch), + about 0.9 KB.
const COLLATOR_CEILING = 99_000;

const pkg = new URL("../../pkg/", import.meta.url).pathname;

/** Every .wasm and .js file under `dir`, recursively. */
function shipped(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? shipped(path) : /\.(wasm|js)$/.test(name) ? [path] : [];
  });
}

/** The entry's files and their gzip -9 total, each file reported. */
function measure(t, dir, name) {
  const files = shipped(join(pkg, dir));
  let total = 0;
  for (const file of files) {
    const gzip = gzipSync(readFileSync(file), { level: 9 }).length;
    t.diagnostic(`${file.slice(pkg.length)}: ${gzip} B gzip`);
    total += gzip;
  }
  assert.ok(files.some((f) => f.endsWith(`${name}_bg.wasm`)), `${dir}: the wasm`);
  assert.ok(files.some((f) => f.endsWith("index.js")), `${dir}: index.js`);
  // What index.js must carry, so that the sum above covers all the JS the entry runs.
  const js = readFileSync(join(pkg, dir, "index.js"), "utf8");
  assert.ok(/new URL\("[\w.]+_bg\.wasm",import\.meta\.url\)/.test(js), `${dir}/index.js: the glue, bundled`);
  assert.ok(js.includes('"kubeapps-pager.PagerError"'), `${dir}/index.js: errors.js, bundled`);
  assert.ok(!/^import|[;}]import[\s{*]/m.test(js), `${dir}/index.js: no import left (one file)`);
  return total;
}

test("the pager entry (web build: wasm + all its JS) is within its 128 KB budget (gzip -9)", (t) => {
  const total = measure(t, "web", "kubeapps_pager");
  t.diagnostic(`pager entry total: ${total} B gzip (budget ${BUDGET} B)`);
  assert.ok(total <= BUDGET, `${total} B gzip is over the budget of ${BUDGET} B`);
});

test("the codec entry (web build: wasm + all its JS) is within its 128 KB budget (gzip -9)", (t) => {
  const total = measure(t, "codec/web", "kubeapps_pager_codec");
  t.diagnostic(`codec entry total: ${total} B gzip (budget ${BUDGET} B)`);
  assert.ok(total <= BUDGET, `${total} B gzip is over the budget of ${BUDGET} B`);
});

test("the collation entry (web build: wasm + all its JS) stays under its own ceiling (gzip -9)", (t) => {
  const total = measure(t, "collation/web", "kubeapps_pager_collation");
  const pagerEntry = measure(t, "web", "kubeapps_pager");
  t.diagnostic(`collation entry total: ${total} B gzip (${total - pagerEntry} B over the pager entry; ceiling ${COLLATOR_CEILING} B over it)`);
  assert.ok(total - pagerEntry <= COLLATOR_CEILING, `the collation entry is ${total - pagerEntry} B gzip over the pager entry, over the ceiling of ${COLLATOR_CEILING} B`);
  assert.ok(total <= BUDGET + COLLATOR_CEILING, `${total} B gzip is over ${BUDGET + COLLATOR_CEILING} B`);
  // The collator is in this entry alone: the collator and its data are 98.3 to 98.8 KB gzip of
  // wasm (BENCHMARKS.md "Collation"), the difference between the two entries; a pager entry that
  // linked them too would be about this one's size.
  assert.ok(total - pagerEntry > 90_000, `the collator is not in the pager entry: ${total} - ${pagerEntry} B`);
});
