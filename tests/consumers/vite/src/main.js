// The app's entry: import the package by name; Vite emits the wasm that
// `new URL("kubeapps_pager_bg.wasm", import.meta.url)` names as an asset.
import init, { Pager, PagerError, encodeContinueToken, decodeContinueToken } from "kubeapps-pager";
import { pageAll } from "./catalog.mjs";
import { show, fail } from "./show.mjs";

await init();
pageAll({ Pager, PagerError, encodeContinueToken, decodeContinueToken }).then(show, fail);
