// A/B of decodePageToken (codec entry) and Pager.resume (pager entry) of two builds in one Node
// process, interleaved round by round (see ab-node.mjs). The token: a 3-source token mid-walk (with
// a continue token for the kapp_controller source), as the bench's codec run uses. Also checks that
// both builds decode it to the same state.
//
//   node bench/ab-codec.mjs <baseline pkg dir> [candidate pkg dir, default pkg] [rounds]
import { createRequire } from "node:module";
import path from "node:path";
import assert from "node:assert/strict";
import { drivePage } from "./lib/harness.js";
import { generateCatalog, backends, pagerOptions } from "./lib/workload.js";

const require = createRequire(import.meta.url);
const [base, cand = "pkg", rounds = "9"] = process.argv.slice(2);
if (!base) throw new Error("usage: node bench/ab-codec.mjs <baseline pkg dir> [candidate pkg dir] [rounds]");
const load = (dir) => ({ pager: require(path.resolve(dir, "nodejs/index.js")), codec: require(path.resolve(dir, "codec/nodejs/index.js")) });
const A = load(base), B = load(cand);
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];

// A token from deep in a walk: every source has a chunk token (one a continue token), a watermark.
const catalog = generateCatalog(3000);
const options = pagerOptions(20, 1);
const pager = new B.pager.Pager(options), answerers = backends(catalog);
let token;
for (let p = 0; p < 200; p++) token = drivePage(pager, answerers).nextPageToken;
pager.free();
assert.deepEqual(B.codec.decodePageToken(token), A.codec.decodePageToken(token));
assert.equal(B.codec.encodePageToken(B.codec.decodePageToken(token)), token);
console.log(`token: ${token.length} characters, ${A.codec.decodePageToken(token).sources.length} sources; same state: yes`);

const N = 20000;
const time = (f) => { const t0 = performance.now(); for (let i = 0; i < N; i++) f(); return ((performance.now() - t0) * 1000) / N; };
const cases = {
  decode: (m) => () => m.codec.decodePageToken(token).pageSize,
  resume: (m) => () => m.pager.Pager.resume(token, options).free(),
};
for (const [name, make] of Object.entries(cases)) {
  const fa = make(A), fb = make(B), ta = [], tb = [];
  for (let r = 0; r <= Number(rounds); r++) {
    const a = time(fa), b = time(fb);
    if (r > 0) ta.push(a), tb.push(b);
  }
  console.log(`${name}: base ${med(ta).toFixed(2)} µs, cand ${med(tb).toFixed(2)} µs; cand ÷ base ${med(tb.map((v, i) => v / ta[i])).toFixed(2)}×`);
}
