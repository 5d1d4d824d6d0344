// The generated protobuf-es / Connect code in tests/proto/gen (committed: the demo's Connect server
// and the tests import it) is what scripts/gen-proto.sh makes from tests/proto/*.proto now, byte
// for byte: a .proto changed without regenerating fails here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = new URL("../..", import.meta.url).pathname;

test("tests/proto/gen is up to date with tests/proto/*.proto (scripts/gen-proto.sh)", () => {
  const tmp = mkdtempSync(join(tmpdir(), "kubeapps-pager-gen-"));
  try {
    const out = join(tmp, "gen");
    execFileSync("bash", [join(ROOT, "scripts", "gen-proto.sh"), out], { cwd: ROOT, env: { ...process.env, BUF_CACHE_DIR: join(tmp, "cache") }, stdio: "pipe" });
    const committed = join(ROOT, "tests", "proto", "gen");
    const files = readdirSync(out).sort();
    assert.deepEqual(readdirSync(committed).sort(), files);
    assert.ok(files.includes("kubeapps_pb.js") && files.includes("helm_connect.d.ts"), files.join(", "));
    for (const f of files) assert.equal(readFileSync(join(committed, f), "utf8"), readFileSync(join(out, f), "utf8"), `${f}: run scripts/gen-proto.sh`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
