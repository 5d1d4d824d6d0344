// `node server/main.mjs --backend real`: starts PostgreSQL and etcd, serves the demo over them,
// and stops both on Ctrl-C (SIGINT), leaving no process listening and no temporary folder.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "../../server/main.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

const listening = (host, port) => new Promise((resolve) => {
  const s = net.connect({ host, port }, () => {
    s.destroy();
    resolve(true);
  });
  s.on("error", () => resolve(false));
});

/**
 * Whether nothing listens at host:port within `ms`: a service sent SIGTERM by the exiting server
 * (or by its exit hook, when stopping took longer than the server's 3 s grace) closes its port a
 * moment after the server itself has gone.
 */
async function closedWithin(host, port, ms) {
  const until = Date.now() + ms;
  while (await listening(host, port)) {
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 200));
  }
  return true;
}

test("--backend real serves over PostgreSQL and etcd and stops them on SIGINT", { timeout: 120_000 }, async () => {
  const child = spawn(process.execPath, [path.join(ROOT, "server/main.mjs"), "--backend", "real", "--collation", "C", "--port", "0"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  try {
    const url = await new Promise((resolve, reject) => {
      const t = setInterval(() => {
        const m = /demo: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
        if (m) {
          clearInterval(t);
          resolve(m[1]);
        }
        if (child.exitCode !== null) {
          clearInterval(t);
          reject(new Error(`exited: ${out}`));
        }
      }, 100);
    });
    const cfg = await (await fetch(`${url}demo/config`)).json();
    assert.equal(cfg.backend, "real");
    assert.equal(cfg.collation.database, "C");
    const [pgHost, pgPort] = cfg.services.postgres.split(":");
    const etcd = new URL(cfg.services.etcd);
    assert.ok(await listening(pgHost, Number(pgPort)), "PostgreSQL listens");
    assert.ok(await listening(etcd.hostname, Number(etcd.port)), "etcd listens");
    const page = await (await fetch(`${url}apis/plugins/helm/packages/v1alpha1/availablepackages?context.namespace=team-a&paginationOptions.pageSize=5`)).json();
    assert.equal(page.availablePackageSummaries.length, 5);
    const folders = cfg.services.folders;
    assert.equal(folders.length, 2);
    assert.ok(folders.every((d) => fs.existsSync(d)), "its temporary folders exist");
    child.kill("SIGINT");
    const { code, signal } = await exited;
    assert.ok(code === 0 || code === 130 || signal === "SIGINT", `exit ${code} ${signal}`);
    assert.ok(await closedWithin(pgHost, Number(pgPort), 10_000), "PostgreSQL stopped");
    assert.ok(await closedWithin(etcd.hostname, Number(etcd.port), 10_000), "etcd stopped");
    assert.deepEqual(folders.filter((d) => fs.existsSync(d)), [], "its temporary folders are removed");
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
  }
});

test("the command line: --backend real with its options; theirs refused without it, the simulated ones refused with it", () => {
  assert.deepEqual(
    (({ backend, collation, latencyMs }) => ({ backend, collation, latencyMs }))(parseArgs(["--backend", "real", "--collation=C", "--latency-ms", "20"], {})),
    { backend: "real", collation: "C", latencyMs: 20 });
  assert.equal(parseArgs([], {}).backend, undefined, "the embedded store stays the default");
  assert.throws(() => parseArgs(["--backend", "postgres"], {}), /--backend must be simulated or real/);
  assert.throws(() => parseArgs(["--collation", "fr_FR"], {}), /--collation must be en_US.UTF-8 or C/);
  assert.throws(() => parseArgs(["--collation", "C"], {}), /needs --backend real/);
  assert.throws(() => parseArgs(["--backend", "real", "--behaviour", "helm=kubernetes"], {}), /simulated backend/);
});
