// The benchmark cannot break silently: its smoke mode (bench/smoke.mjs: every step of
// `npm run bench` on a tiny catalog, in Node, no timing) runs here, and fails when a contender
// throws or the JS pager and the package disagree on any configuration.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pkg, codec } from "./support/package.mjs";
import { smoke } from "../../bench/smoke.mjs";

test("bench smoke: every benchmark step runs and the contenders agree on every configuration", async () => {
  const out = await smoke({ ...codec, ...pkg });
  // Each configuration paged the whole tiny catalog (the filtered ones, a tenth of it).
  assert.equal(out.configs.length, 4);
  for (const c of out.configs) assert.ok(c.pages >= 1 && c.emitted > 0, JSON.stringify(out.configs));
  assert.ok(out.configs[2].emitted < out.configs[0].emitted / 5, "the 10% configurations filter");
});
