// The app's entry: import the package by name; Vite emits the wasm that
// `new URL("kubeapps_pager_bg.wasm", import.meta.url)` names as an asset (and the codec entry's).
import init, { Pager, PagerError } from "kubeapps-pager";
import initCodec, { encodeContinueToken, decodeContinueToken, PagerError as CodecPagerError } from "kubeapps-pager/codec";
import { pageAll } from "./catalog.mjs";
import { show, fail } from "./show.mjs";

await Promise.all([init(), initCodec()]);
pageAll({ Pager, PagerError, encodeContinueToken, decodeContinueToken, CodecPagerError }).then(show, fail);
