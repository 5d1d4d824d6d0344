// Starts and stops the real services of the real-service mode: a PostgreSQL cluster (the helm
// plugin's database) and an etcd (the apiserver's store), each in a temporary folder on a free
// loopback port, never a service the machine happened to have. PostgreSQL runs as the
// `postgres` user when we are root (it refuses root), etcd as a plain child process.
// Everything started is stopped by stop(), and also, synchronously, when the process exits
// (a failed test, Ctrl-C): see stopAllSync().
import { spawn, spawnSync, execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const HOST = "127.0.0.1";

/** Collations a database can be created under: glibc's en_US.UTF-8 (the default) or C (bytes). */
export const COLLATIONS = ["en_US.UTF-8", "C"];

/** The database name for a collation: `kubeapps_en_us` or `kubeapps_c`. */
export function databaseFor(collation) {
  if (!COLLATIONS.includes(collation)) throw new RangeError(`unknown collation ${JSON.stringify(collation)} (${COLLATIONS.join(", ")})`);
  return collation === "C" ? "kubeapps_c" : "kubeapps_en_us";
}

/** A free TCP port on 127.0.0.1 (bound then released: the caller binds it next). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, HOST, () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** The newest /usr/lib/postgresql/<major>/bin, where Debian puts initdb and pg_ctl (not on PATH). */
export function postgresBinDir() {
  const base = "/usr/lib/postgresql";
  let majors = [];
  try {
    majors = fs.readdirSync(base).filter((d) => /^\d+$/.test(d)).sort((a, b) => Number(b) - Number(a));
  } catch {
    // none installed
  }
  for (const m of majors) {
    const bin = path.join(base, m, "bin");
    if (fs.existsSync(path.join(bin, "pg_ctl"))) return bin;
  }
  return null;
}

/** True when this machine has what the real services need (PostgreSQL, etcd, the en_US.UTF-8 locale). */
export function servicesInstalled() {
  if (!postgresBinDir()) return false;
  if (spawnSync("etcd", ["--version"], { stdio: "ignore" }).status !== 0) return false;
  const locales = spawnSync("locale", ["-a"], { encoding: "utf8" }).stdout ?? "";
  return /^en_US\.utf-?8$/im.test(locales);
}

/** Runs scripts/services/install.sh (apt-get what is missing, generate the locale). Throws on failure. */
export function installServices() {
  execFileSync("bash", [path.join(ROOT, "scripts/services/install.sh")], { stdio: "inherit" });
}

const running = new Set(); // {stopSync()} of every service started and not yet stopped

/** Stops every service this process started, synchronously (for exit handlers). */
export function stopAllSync() {
  for (const s of [...running]) {
    try {
      s.stopSync();
    } catch {
      // best effort at exit
    }
  }
}

let exitHooked = false;
function hookExit() {
  if (exitHooked) return;
  exitHooked = true;
  process.once("exit", stopAllSync);
  // A signal ends the process without "exit" unless someone handles it: stop, then die of it.
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.once(sig, () => {
      stopAllSync();
      if (process.listenerCount(sig) === 0) process.kill(process.pid, sig);
    });
  }
}

function asPostgres(args, { uid, gid } = {}) {
  // PostgreSQL refuses to run as root: as root, run its tools as the postgres user.
  if (process.getuid?.() === 0) return ["runuser", ["-u", "postgres", "--", ...args], {}];
  return [args[0], args.slice(1), { uid, gid }];
}

function run(args, what) {
  const [cmd, argv] = asPostgres(args);
  const r = spawnSync(cmd, argv, { encoding: "utf8" });
  if (r.status !== 0) {
    throw new Error(`${what} failed (${r.error?.message ?? `exit ${r.status}`}): ${(r.stderr || r.stdout || "").trim().slice(-2000)}`);
  }
  return r.stdout;
}

function makeTempDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    fs.chownSync(dir, uid, gid);
  }
  return dir;
}

/**
 * startPostgres initialises a cluster (locale en_US.UTF-8, encoding UTF8, trust on loopback)
 * in a temporary folder and starts it on a free port, then creates one database per
 * collation (`databaseFor`). Resolves to `{host, port, user, dir, connection(collation),
 * stop(), restart(), stopServer(), startServer()}`. Throws with initdb's or pg_ctl's output.
 */
export async function startPostgres() {
  const bin = postgresBinDir();
  if (!bin) throw new Error("PostgreSQL is not installed (bash scripts/services/install.sh)");
  hookExit();
  const dir = makeTempDir("kubeapps-pager-pg-");
  const data = path.join(dir, "data");
  const log = path.join(dir, "postgres.log");
  const port = await freePort();
  try {
    run([path.join(bin, "initdb"), "-D", data, "--locale=en_US.UTF-8", "-E", "UTF8", "-A", "trust", "-U", "postgres"], "initdb");
  } catch (e) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  // fsync off: a throw-away cluster, nothing to keep across a crash; it makes the loads fast.
  const opts = `-p ${port} -k ${dir} -c listen_addresses=${HOST} -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const pgCtl = (action, extra = []) => run([path.join(bin, "pg_ctl"), "-D", data, "-l", log, "-w", "-t", "60", ...extra, action], `pg_ctl ${action}`);
  const startServer = () => pgCtl("start", ["-o", opts]);
  const stopServer = (mode = "fast") => pgCtl("stop", ["-m", mode]);
  let stopped = false;
  const entry = {
    stopSync() {
      if (stopped) return;
      stopped = true;
      running.delete(entry);
      try {
        stopServer("immediate");
      } catch {
        // already down
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  running.add(entry);
  try {
    startServer();
  } catch (e) {
    entry.stopSync();
    throw e;
  }
  const psql = (sql, db = "postgres") => run([path.join(bin, "psql"), "-h", HOST, "-p", String(port), "-U", "postgres", "-d", db, "-v", "ON_ERROR_STOP=1", "-qAtc", sql], "psql");
  try {
    psql(`CREATE DATABASE kubeapps_en_us LC_COLLATE 'en_US.UTF-8' LC_CTYPE 'en_US.UTF-8' TEMPLATE template0 ENCODING 'UTF8'`);
    psql(`CREATE DATABASE kubeapps_c LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0 ENCODING 'UTF8'`);
  } catch (e) {
    entry.stopSync();
    throw e;
  }
  return {
    host: HOST, port, user: "postgres", dir, log,
    /** `pg` connection settings for the database of a collation. */
    connection: (collation = "en_US.UTF-8") => ({ host: HOST, port, user: "postgres", database: databaseFor(collation) }),
    /** Stops the server (mode `fast`: connections are cut) and starts it again on the same port. */
    stopServer: () => stopServer("fast"),
    startServer,
    async stop() {
      entry.stopSync();
    },
  };
}

async function waitFor(check, { timeoutMs, what }) {
  const t0 = Date.now();
  let last;
  for (;;) {
    try {
      if (await check()) return;
    } catch (e) {
      last = e;
    }
    if (Date.now() - t0 > timeoutMs) throw new Error(`${what} did not come up in ${timeoutMs} ms${last ? `: ${last.message}` : ""}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * startEtcd runs `etcd` (Debian's etcd-server, 3.4) as a single-member cluster in a temporary
 * folder, its client and peer URLs on free loopback ports. Resolves to `{url, dir, stop()}`
 * once its JSON gateway answers. Throws with etcd's output when it does not start.
 */
export async function startEtcd() {
  hookExit();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kubeapps-pager-etcd-"));
  const clientPort = await freePort();
  const peerPort = await freePort();
  const url = `http://${HOST}:${clientPort}`;
  const peer = `http://${HOST}:${peerPort}`;
  const out = fs.openSync(path.join(dir, "etcd.log"), "a");
  const child = spawn("etcd", [
    "--name", "kubeapps-pager", "--data-dir", path.join(dir, "data"),
    "--listen-client-urls", url, "--advertise-client-urls", url,
    "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
    "--initial-cluster", `kubeapps-pager=${peer}`, "--initial-cluster-state", "new",
    "--logger", "zap", "--log-level", "warn",
  ], { stdio: ["ignore", out, out] });
  fs.closeSync(out);
  let exited = null;
  child.once("exit", (code, signal) => (exited = { code, signal }));
  let stopped = false;
  const entry = {
    stopSync() {
      if (stopped) return;
      stopped = true;
      running.delete(entry);
      if (exited === null) child.kill("SIGKILL");
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  running.add(entry);
  try {
    await waitFor(async () => {
      if (exited) throw new Error(`etcd exited (${exited.code ?? exited.signal})`);
      const r = await fetch(`${url}/v3/kv/range`, { method: "POST", body: JSON.stringify({ key: "AA==" }) });
      return r.ok;
    }, { timeoutMs: 30_000, what: "etcd" });
  } catch (e) {
    const text = fs.readFileSync(path.join(dir, "etcd.log"), "utf8").slice(-2000);
    entry.stopSync();
    throw new Error(`${e.message}\n${text}`);
  }
  return {
    url, dir, pid: child.pid,
    async stop() {
      if (stopped) return;
      if (exited === null) {
        const gone = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await Promise.race([gone, new Promise((r) => setTimeout(r, 5000))]);
      }
      entry.stopSync();
    },
  };
}

/**
 * startServices installs what is missing when `install` (scripts/services/install.sh), then
 * starts PostgreSQL and etcd. Resolves to `{pg, etcd, stop()}`; stops what it started when
 * one of them fails.
 */
export async function startServices({ install = true } = {}) {
  if (!servicesInstalled()) {
    if (!install) throw new Error("PostgreSQL, etcd or the en_US.UTF-8 locale is missing: run bash scripts/services/install.sh");
    installServices();
  }
  const [pg, etcd] = await Promise.allSettled([startPostgres(), startEtcd()]);
  if (pg.status === "rejected" || etcd.status === "rejected") {
    if (pg.status === "fulfilled") await pg.value.stop();
    if (etcd.status === "fulfilled") await etcd.value.stop();
    throw pg.status === "rejected" ? pg.reason : etcd.reason;
  }
  return {
    pg: pg.value,
    etcd: etcd.value,
    async stop() {
      await Promise.all([pg.value.stop(), etcd.value.stop()]);
    },
  };
}
