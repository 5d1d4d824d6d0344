// Loads the built npm package (pkg/, made by scripts/build.sh) the way Node users get it.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
/** The package's CommonJS face (`require("kubeapps-pager")` in Node): the pager module. */
export const pkg = require("../../../pkg/nodejs/index.js");
/** `require("kubeapps-pager/codec")`: the token functions, a wasm module of their own. */
export const codec = require("../../../pkg/codec/nodejs/index.js");
export const { PagerError } = pkg;
/** `require("kubeapps-pager/collation")`: the pager module with the collator (collated orders). */
export const collation = require("../../../pkg/collation/nodejs/index.js");
