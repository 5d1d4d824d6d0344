import test from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { parseArgs, startServer } from "../../server/main.mjs";

const MAIN = fileURLToPath(new URL("../../server/main.mjs", import.meta.url));

test("parseArgs: flags, PORT, defaults and mistakes", () => {
  assert.equal(parseArgs([], {}).port, 8080);
  assert.equal(parseArgs([], { PORT: "9000" }).port, 9000);
  const o = parseArgs(["--port", "0", "--seed=7", "--behaviour", "helm=kubernetes,kapp=unordered", "--hostile", "--helm-index", "u1", "--helm-index=u2", "--compact-after-ms", "500"], { PORT: "1" });
  assert.equal(o.port, 0);
  assert.equal(o.seed, 7);
  assert.deepEqual(o.behaviours, { "helm.packages": "kubernetes", "kapp_controller.packages": "unordered" });
  assert.equal(o.hostile, true);
  assert.deepEqual(o.helmIndexUrls, ["u1", "u2"]);
  assert.equal(o.compactAfterMs, 500);
  assert.throws(() => parseArgs(["--port", "x"], {}), /--port must be an integer/);
  assert.throws(() => parseArgs(["--behaviour", "helm=fast"], {}), /unknown behaviour/);
  assert.throws(() => parseArgs(["--seed"], {}), /needs a value/);
  assert.throws(() => parseArgs(["--what"], {}), /unknown option/);
});

test("node server/main.mjs prints its URL, serves, and stops cleanly on SIGTERM", async () => {
  const child = spawn(process.execPath, [MAIN, "--port", "0", "--seed", "2"], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.setEncoding("utf8");
  const line = await new Promise((resolve, reject) => {
    child.stdout.on("data", (d) => {
      out += d;
      if (out.includes("\n")) resolve(out.split("\n")[0]);
    });
    child.once("exit", (code) => reject(new Error(`exited ${code} before printing`)));
  });
  const m = /^kubeapps-pager demo: (http:\/\/127\.0\.0\.1:\d+\/)$/.exec(line);
  assert.ok(m, line);
  const config = await (await fetch(`${m[1]}demo/config`)).json();
  assert.equal(config.seed, 2);
  child.kill("SIGTERM");
  const [code] = await once(child, "exit");
  assert.equal(code, 0);
});

test("a catalog that cannot load stops the CLI with a message", async () => {
  const child = spawn(process.execPath, [MAIN, "--port", "0", "--data", "/nonexistent/kp-data"], { stdio: ["ignore", "pipe", "pipe"] });
  let err = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (d) => { err += d; });
  const [code] = await once(child, "exit");
  assert.equal(code, 1);
  assert.match(err, /cannot start: .*ENOENT/);
});

test("startServer takes short plugin names and refuses unknown behaviours", async () => {
  const s = await startServer({ port: 0, behaviours: { helm: "unordered", kapp_controller: "kubeapps-offset" } });
  try {
    assert.equal(s.app.behaviours["helm.packages"], "unordered");
    assert.equal(s.app.behaviours["kapp_controller.packages"], "kubeapps-offset");
    assert.equal(s.app.behaviours["fluxv2.packages"], "unordered");
    assert.equal(s.store, s.app.store);
  } finally {
    await s.close();
  }
  await assert.rejects(startServer({ port: 0, behaviours: { helm: "fast" } }), /unknown behaviour/);
});
