// The app's entry, as in a CRA 5 app's src/index.js: import the package by name; init() fetches the
// wasm from the URL webpack gave `new URL("kubeapps_pager_bg.wasm", import.meta.url)`.
import init, { Pager, PagerError, encodeContinueToken, decodeContinueToken } from "kubeapps-pager";
import { pageAll } from "./catalog.mjs";
import { show, fail } from "./show.mjs";

init()
  .then(() => pageAll({ Pager, PagerError, encodeContinueToken, decodeContinueToken }))
  .then(show, fail);
