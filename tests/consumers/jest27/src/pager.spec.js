// A CRA 5 test file (.spec.js: CRA runs those too, and `node --test tests/consumers/` would take a .test.js for its own): the imports docs/USAGE.md shows, compiled by Babel's interop
// (`_interopRequireDefault(require("kubeapps-pager")).default`), in jsdom. Pages the shared
// catalog and writes the report where the outer test reads it (REPORT); checks the default
// import is init, and the URL helpers against jsdom's own location and history.
import init, { Pager, PagerError, PageWindow, readPageToken, writePageToken } from "kubeapps-pager";
import * as namespace from "kubeapps-pager";
import initCodec, { encodeContinueToken, decodeContinueToken, PagerError as CodecPagerError } from "kubeapps-pager/codec";
import { pageAll } from "./catalog.mjs";

const fs = require("fs");

test("the default import is init, the named imports are the package's", async () => {
  expect(typeof init).toBe("function");
  expect(init).toBe(namespace.init);
  expect(typeof initCodec).toBe("function");
  await expect(init()).resolves.toBeUndefined();
  expect(typeof Pager).toBe("function");
  expect(typeof PageWindow).toBe("function");
  expect(window.location.hash).toBe("#/c/default/ns/kubeapps/catalog?Search=sql");
});

test("pages the catalog to the end, resumed halfway", async () => {
  await Promise.all([init(), initCodec()]);
  const report = await pageAll({ Pager, PagerError, encodeContinueToken, decodeContinueToken, CodecPagerError });
  fs.writeFileSync(process.env.REPORT, JSON.stringify(report));
});

test("the token goes into the HashRouter URL through history.replaceState, and reads back", () => {
  window.history.replaceState({ key: "k", idx: 2, usr: null }, "");
  writePageToken({ index: 4, token: "abc_-9", earlier: ["", "a", "b", "c"] });
  expect(window.location.hash).toBe("#/c/default/ns/kubeapps/catalog?Search=sql&page=4.abc_-9");
  expect(window.history.state.idx).toBe(2);
  expect(readPageToken()).toEqual({ index: 4, token: "abc_-9", earlier: ["", "a", "b", "c"] });
});
