import test from "node:test";
import assert from "node:assert/strict";
import { goJsonString, encodeContinue, decodeContinue, InvalidContinueError } from "../../server/continue-token.mjs";

test("goJsonString escapes as Go's encoding/json does", () => {
  // Expected texts are what Go 1.22+ json.Marshal writes for these strings.
  assert.equal(goJsonString("<a href=\"x\">&</a>"), '"\\u003ca href=\\"x\\"\\u003e\\u0026\\u003c/a\\u003e"');
  assert.equal(goJsonString("\b\f\n\r\t\u0001\u001f\u0000"), '"\\b\\f\\n\\r\\t\\u0001\\u001f\\u0000"');
  assert.equal(goJsonString("a\u2028b\u2029c\u007f"), '"a\\u2028b\\u2029c\u007f"');
  assert.equal(goJsonString("é日𝔘🚀\\/"), '"é日𝔘🚀\\\\/"');
  assert.equal(goJsonString("x\uD800y\uDC00"), '"x\\ufffdy\\ufffd"');
});

test("encodeContinue writes the apiserver's token byte for byte", () => {
  const token = encodeContinue("kubeapps/pkg-b\u0000", "kubeapps/", 5);
  assert.equal(Buffer.from(token, "base64url").toString(), '{"v":"meta.k8s.io/v1","rv":5,"start":"pkg-b\\u0000"}');
  assert.match(token, /^[A-Za-z0-9_-]+$/);
  assert.equal(token, "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NSwic3RhcnQiOiJwa2ctYlx1MDAwMCJ9");
  const all = encodeContinue("team-a/<x>\u0000", "", -1);
  assert.equal(Buffer.from(all, "base64url").toString(), '{"v":"meta.k8s.io/v1","rv":-1,"start":"team-a/\\u003cx\\u003e\\u0000"}');
});

test("decodeContinue round-trips and resolves against the list prefix", () => {
  const t = encodeContinue("kubeapps/ｆｕｌｌ🚀\u0000", "kubeapps/", 42);
  assert.deepEqual(decodeContinue(t, "kubeapps/"), { fromKey: "kubeapps/ｆｕｌｌ🚀\u0000", rv: 42 });
  const raw = (o) => Buffer.from(JSON.stringify(o)).toString("base64url");
  assert.deepEqual(decodeContinue(raw({ v: "meta.k8s.io/v1", RV: 3, Start: "a" }), "ns/"), { fromKey: "ns/a", rv: 3 });
  assert.deepEqual(decodeContinue(raw({ v: "meta.k8s.io/v1", rv: -1, start: "/a" }), "ns/"), { fromKey: "ns/a", rv: -1 });
});

test("decodeContinue refuses what the apiserver refuses", () => {
  const raw = (o) => Buffer.from(typeof o === "string" ? o : JSON.stringify(o)).toString("base64url");
  const bad = {
    "one char": "a",
    "standard alphabet": "ab+/",
    padding: `${raw({ v: "meta.k8s.io/v1", rv: 1, start: "a" })}==`,
    "not JSON": raw("{nope"),
    "an array": raw("[1]"),
    "unknown version": raw({ v: "meta.k8s.io/v2", rv: 1, start: "a" }),
    "rv 0": raw({ v: "meta.k8s.io/v1", rv: 0, start: "a" }),
    "rv a string": raw({ v: "meta.k8s.io/v1", rv: "5", start: "a" }),
    "empty start": raw({ v: "meta.k8s.io/v1", rv: 1, start: "" }),
    "dot-dot": raw({ v: "meta.k8s.io/v1", rv: 1, start: "../other/x" }),
    "double slash": raw({ v: "meta.k8s.io/v1", rv: 1, start: "a//b" }),
  };
  for (const [why, token] of Object.entries(bad)) {
    assert.throws(() => decodeContinue(token, "kubeapps/"), InvalidContinueError, why);
  }
});
