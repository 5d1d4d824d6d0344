// Cargo's runner for the wasm-bindgen tests in Node (scripts/test.sh sets
// CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER to this for that step): `node wasm-node-runner.mjs
// <test.wasm> [args]` runs wasm-bindgen-test-runner on the test module, with its exit code.
import { spawnSync } from "node:child_process";

const [built, ...args] = process.argv.slice(2);
const run = spawnSync("wasm-bindgen-test-runner", [built, ...args], { stdio: "inherit" });
if (run.error) throw run.error;
process.exit(run.status ?? 1);
