import test from "node:test";
import assert from "node:assert/strict";
import { compareUtf8, compareByName, compareByDisplayName, lowercase, comparatorFor } from "../../server/order.mjs";
import { makeFilter, repositoryOf } from "../../server/filter.mjs";
import { mulberry32, randInt } from "../../server/rng.mjs";

const POOL = ["a", "b", "Z", "é", "\u{D7FF}", "\u{E000}", "ｆ", "\u{FFFD}", "𝔘", "🚀", "-", "\u0000", "日"];

test("compareUtf8 orders like the UTF-8 bytes, not like UTF-16 code units", () => {
  const rand = mulberry32(7);
  const word = () => Array.from({ length: 1 + randInt(rand, 4) }, () => POOL[randInt(rand, POOL.length)]).join("");
  let disagreeWithJs = 0;
  for (let i = 0; i < 5000; i++) {
    const a = word();
    const b = word();
    const bytes = Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b)));
    assert.equal(Math.sign(compareUtf8(a, b)), bytes, `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
    if (Math.sign(a < b ? -1 : a > b ? 1 : 0) !== bytes) disagreeWithJs += 1;
  }
  // The pool holds U+FF46 and astral characters, where JS `<` gets it wrong.
  assert.ok(disagreeWithJs > 0);
});

const item = (o) => ({ plugin: "helm.packages", cluster: "default", namespace: "kubeapps", identifier: `r/${o.name}`, displayName: "", ...o });

test("name order breaks ties by plugin, cluster, namespace, identifier", () => {
  const xs = [
    item({ name: "redis", plugin: "helm.packages", namespace: "team-a" }),
    item({ name: "redis", plugin: "fluxv2.packages" }),
    item({ name: "redis", plugin: "helm.packages", namespace: "kubeapps", identifier: "z/redis" }),
    item({ name: "redis", plugin: "helm.packages", namespace: "kubeapps", identifier: "a/redis" }),
    item({ name: "Redis" }),
  ];
  const sorted = xs.slice().sort(compareByName).map((x) => `${x.name} ${x.plugin} ${x.namespace} ${x.identifier}`);
  assert.deepEqual(sorted, [
    "Redis helm.packages kubeapps r/Redis",
    "redis fluxv2.packages kubeapps r/redis",
    "redis helm.packages kubeapps a/redis",
    "redis helm.packages kubeapps z/redis",
    "redis helm.packages team-a r/redis",
  ]);
});

test("displayName order: case-insensitive first, then exact, empty displayName sorts as the name", () => {
  const xs = [
    item({ name: "b-pkg", displayName: "beta" }),
    item({ name: "a-pkg", displayName: "Beta" }),
    item({ name: "alpha", displayName: "" }),
    item({ name: "c-pkg", displayName: "ALPHA" }),
    item({ name: "istanbul", displayName: "İstanbul" }),
    item({ name: "ist", displayName: "ist" }),
  ];
  const sorted = xs.slice().sort(compareByDisplayName).map((x) => x.displayName || `(${x.name})`);
  // "ALPHA" < "alpha" on the exact bytes; "i̇stanbul" (i + U+0307) > "ist".
  assert.deepEqual(sorted, ["ALPHA", "(alpha)", "Beta", "beta", "ist", "İstanbul"]);
  assert.equal(comparatorFor("displayName"), compareByDisplayName);
  assert.throws(() => comparatorFor("size"), RangeError);
});

test("lowercase is Unicode's default full mapping with final sigma", () => {
  assert.equal(lowercase("ΣΟΦΙΑΣ"), "σοφιας");
  assert.equal(lowercase("İ"), "i\u0307");
  assert.equal(lowercase("ǅ"), "ǆ");
  assert.equal(lowercase("STRASSE ß"), "strasse ß");
});

test("filter: query over four fields, any-of categories, repositories and plugins", () => {
  const r = item({ name: "nginx", identifier: "bitnami/nginx", displayName: "NGINX Open Source", shortDescription: "Web server", categories: ["Infrastructure"] });
  assert.ok(makeFilter({ query: "open" })(r));
  assert.ok(makeFilter({ query: "WEB" })(r));
  assert.ok(makeFilter({ query: "bitnami/" })(r));
  assert.ok(!makeFilter({ query: "apache" })(r));
  assert.ok(makeFilter({ categories: ["Database", "Infrastructure"] })(r));
  assert.ok(!makeFilter({ categories: ["infrastructure"] })(r));
  assert.ok(makeFilter({ repositories: ["bitnami"] })(r));
  assert.ok(!makeFilter({ repositories: ["bitnami/nginx"] })(r));
  assert.ok(!makeFilter({ plugins: ["fluxv2.packages"] })(r));
  assert.equal(repositoryOf("no-slash"), "no-slash");
});
