#!/usr/bin/env node
// kubeapps-pager demo backend: `node server/main.mjs [--port N] [--data DIR]
// [--helm-index URL] [--seed N] [--behaviour helm=kubeapps-offset,...]
// [--compact-after-ms N] [--hostile] [--backend real [--collation C] [--latency-ms N]]`.
// Serves www/, pkg/, the kubeapps-apis REST paths, the apiserver's PackageMetadata list and
// /demo control endpoints on 127.0.0.1 only; with `--backend real`, over PostgreSQL and etcd
// (server/real/).
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { App, parseBehaviours } from "./app.mjs";
import { Churn } from "./churn.mjs";
import { createHandler } from "./http.mjs";
import { loadCatalog } from "./catalog/load.mjs";
import { collationWarning } from "./order.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const HOST = "127.0.0.1";

/**
 * startServer loads the catalog and listens on 127.0.0.1.
 * Options: `port` (0 = any free port), `dataDir`, `helmIndexUrls`, `seed`, `behaviours`
 * (`{plugin: behaviour}`), `compactAfterMs`, `hostile`, `records` (use these instead of
 * loading), `clock`, `wwwDir`, `pkgDir`, `fetchImpl`.
 * Resolves to `{server, url, store, app, churn, close()}` (`store` is a getter: a reset
 * replaces the store). Rejects when the catalog cannot be loaded or the port cannot be
 * bound.
 */
export async function startServer(options = {}) {
  const {
    port = 8080, dataDir, helmIndexUrls = [], seed = 1, behaviours = {}, compactAfterMs = 0,
    hostile = false, records, clock = Date.now, wwwDir = path.join(ROOT, "www"),
    pkgDir = path.join(ROOT, "pkg"), fetchImpl, fluxRepos,
  } = options;
  const catalog = records
    ? { records, info: { source: "records" } }
    : await loadCatalog({ dataDir, helmIndexUrls, seed, hostile, fluxRepos, fetchImpl });
  const app = new App({ records: catalog.records, info: catalog.info, seed, behaviours, compactAfterMs, clock });
  const churn = new Churn(app);
  const server = http.createServer(createHandler({ app, churn, wwwDir, pkgDir }));
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, HOST, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const url = `http://${HOST}:${server.address().port}/`;
  let closed;
  const close = () => {
    closed ??= new Promise((resolve) => {
      churn.stop();
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closed;
  };
  return {
    server, url, app, churn, close,
    get store() {
      return app.store;
    },
  };
}

const USAGE = `usage: node server/main.mjs [options]
  --port N                 port on 127.0.0.1 (default: $PORT or 8080; 0 = any)
  --data DIR               real catalog: DIR/<repo>/index.yaml (Helm), DIR/**/metadata.yaml,
                           package.yaml (Carvel); default: the generated catalog
  --helm-index URL         also load a live Helm index.yaml (repeatable; NAME=URL names the repo)
  --flux-repos A,B         Helm repositories also served by fluxv2 (default: the first)
  --seed N                 seed of the generated catalog, shuffles and churn (default 1)
  --behaviour P=B,...      plugin behaviours: helm, fluxv2, kapp_controller =
                           kubernetes | kubeapps-offset | unordered
                           (default helm=kubeapps-offset,fluxv2=unordered,kapp_controller=kubernetes)
  --compact-after-ms N     compact revisions older than N ms (default: off)
  --hostile                add a package named <img src=x onerror=alert(1)>
  --backend B              simulated (default: the embedded store, nothing to install) or real:
                           helm on PostgreSQL, kapp_controller on etcd, fluxv2 as its plugin
                           pages; starts both (installing them when missing) and stops them
  --collation C            with --backend real: the helm database's collation,
                           en_US.UTF-8 (default) or C
  --latency-ms N           with --backend real: delay every /apis/ answer by N ms
  --cluster-pods N         with --backend real: pods of the Cluster view's three clusters in
                           etcd (default 10000, at most 200000)
`;

/** Parses the command line into startServer options; throws a RangeError with the problem. */
export function parseArgs(argv, env = process.env) {
  const opts = { helmIndexUrls: [] };
  const need = (i, flag) => {
    if (i + 1 >= argv.length) throw new RangeError(`${flag} needs a value`);
    return argv[i + 1];
  };
  const int = (v, flag, min, max) => {
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) throw new RangeError(`${flag} must be an integer from ${min} to ${max}`);
    return Number(v);
  };
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i];
    let inline;
    if (a.startsWith("--") && a.includes("=")) {
      inline = a.slice(a.indexOf("=") + 1);
      a = a.slice(0, a.indexOf("="));
    }
    const value = () => {
      if (inline !== undefined) return inline;
      i += 1;
      return need(i - 1, a);
    };
    switch (a) {
      case "--port": opts.port = int(value(), a, 0, 65535); break;
      case "--data": opts.dataDir = path.resolve(value()); break;
      case "--helm-index": opts.helmIndexUrls.push(value()); break;
      case "--flux-repos": opts.fluxRepos = value().split(",").map((s) => s.trim()).filter(Boolean); break;
      case "--seed": opts.seed = int(value(), a, 0, 0xffffffff); break;
      case "--behaviour": case "--behaviours": opts.behaviours = parseBehaviours(value()); break;
      case "--compact-after-ms": opts.compactAfterMs = int(value(), a, 0, 86_400_000); break;
      case "--hostile": opts.hostile = true; break;
      case "--backend": {
        const b = value();
        if (b !== "real" && b !== "simulated") throw new RangeError("--backend must be simulated or real");
        opts.backend = b;
        break;
      }
      case "--collation": {
        const c = value();
        if (c !== "en_US.UTF-8" && c !== "C") throw new RangeError("--collation must be en_US.UTF-8 or C");
        opts.collation = c;
        break;
      }
      case "--latency-ms": opts.latencyMs = int(value(), a, 0, 10_000); break;
      case "--cluster-pods": opts.clusterPods = int(value(), a, 0, 200_000); break;
      case "--help": case "-h": opts.help = true; break;
      default: throw new RangeError(`unknown option ${a}`);
    }
  }
  if (opts.port === undefined) opts.port = env.PORT ? int(env.PORT, "PORT", 0, 65535) : 8080;
  if (opts.backend !== "real") {
    for (const [k, flag] of [["collation", "--collation"], ["latencyMs", "--latency-ms"], ["clusterPods", "--cluster-pods"]]) {
      if (opts[k] !== undefined) throw new RangeError(`${flag} needs --backend real`);
    }
  } else {
    // The real services page as their plugins do: no behaviour to choose, etcd compacts on request.
    for (const [k, flag] of [["behaviours", "--behaviour"], ["compactAfterMs", "--compact-after-ms"]]) {
      if (opts[k] !== undefined) throw new RangeError(`${flag} is for the simulated backend, not --backend real`);
    }
  }
  return opts;
}

async function main() {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${e.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (opts.help) {
    process.stdout.write(USAGE);
    return;
  }
  let s;
  try {
    if (opts.backend === "real") {
      const { startRealServer } = await import("./real/server.mjs");
      process.stderr.write("kubeapps-pager demo: starting PostgreSQL and etcd (--backend real)…\n");
      s = await startRealServer(opts);
    } else {
      s = await startServer(opts);
    }
  } catch (e) {
    process.stderr.write(`kubeapps-pager demo: cannot start: ${e.message}\n`);
    process.exit(1);
  }
  const warning = collationWarning();
  if (warning) process.stderr.write(`warning: ${warning}\n`);
  process.stdout.write(`kubeapps-pager demo: ${s.url}\n`);
  const stop = (signal) => {
    s.close().then(() => process.exit(0));
    setTimeout(() => process.exit(signal === "SIGINT" ? 130 : 143), 3000).unref();
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
