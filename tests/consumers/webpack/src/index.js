// The app's entry, as in a CRA 5 app's src/index.js: import the package by name; init() fetches the
// wasm from the URL webpack gave `new URL("kubeapps_pager_bg.wasm", import.meta.url)`; likewise the
// codec entry and its own wasm.
import init, { Pager, PagerError } from "kubeapps-pager";
import initCodec, { encodeContinueToken, decodeContinueToken, PagerError as CodecPagerError } from "kubeapps-pager/codec";
import { pageAll } from "./catalog.mjs";
import { show, fail } from "./show.mjs";

Promise.all([init(), initCodec()])
  .then(() => pageAll({ Pager, PagerError, encodeContinueToken, decodeContinueToken, CodecPagerError }))
  .then(show, fail);
