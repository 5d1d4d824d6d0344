// Cargo's runner for the wasm-bindgen tests in Node (scripts/test.sh sets
// CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER to this for that step): `node wasm-node-runner.mjs
// <test.wasm> [args]` runs wasm-bindgen-test-runner on a copy of the test module without its
// `target_features` section (scripts/strip-target-features.mjs says why), with its exit code.
import { spawnSync } from "node:child_process";
import { strippedCopy } from "./strip-target-features.mjs";

const [built, ...args] = process.argv.slice(2);
const run = spawnSync("wasm-bindgen-test-runner", [strippedCopy(built), ...args], { stdio: "inherit" });
if (run.error) throw run.error;
process.exit(run.status ?? 1);
