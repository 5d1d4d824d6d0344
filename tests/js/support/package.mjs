// Loads the built npm package (pkg/, made by scripts/build.sh) the way Node users get it.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
/** The package's CommonJS face (`require("kubeapps-pager")` in Node). */
export const pkg = require("../../../pkg/nodejs/index.js");
export const { PagerError } = pkg;
