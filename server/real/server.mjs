// `node server/main.mjs --backend real`: starts PostgreSQL and etcd (services.mjs), loads the
// catalog into them, and serves the demo over the real plugin services.
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadCatalog } from "../catalog/load.mjs";
import { startServices } from "./services.mjs";
import { readIndexExtras } from "./catalog.mjs";
import { RealApp } from "./app.mjs";
import { RealChurn } from "./churn.mjs";
import { createRealHandler } from "./http.mjs";
import { ClusterFleet } from "./clusters.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const HOST = "127.0.0.1";

/**
 * startRealServer: options `port` (0 = any), `dataDir`, `helmIndexUrls`, `fluxRepos`, `hostile`
 * (as startServer's; else the generated catalog, `seed`),
 * `records` (instead of loading), `collation` (`en_US.UTF-8` | `C`), `latencyMs` (added to
 * every /apis/ answer), `services` (already started ones, kept running on close; default:
 * start them here, installing what is missing when `install`), `wwwDir`, `pkgDir`, `clusterPods`
 * (the Cluster view's pods in etcd, over three clusters: server/real/clusters.mjs).
 * Resolves to `{server, url, app, churn, services, close()}`; close() stops what it started.
 * Rejects (after stopping what it started) when a service or the catalog fails.
 */
export async function startRealServer(options = {}) {
  const {
    port = 8080, dataDir, helmIndexUrls = [], fluxRepos, seed = 1, records, collation = "en_US.UTF-8", latencyMs = 0, install = true,
    wwwDir = path.join(ROOT, "www"), pkgDir = path.join(ROOT, "pkg"), hostile = false, clusterPods = 10_000,
  } = options;
  const catalog = records ? { records, info: { source: "records" } } : await loadCatalog({ dataDir, helmIndexUrls, fluxRepos, seed, hostile });
  const extras = await readIndexExtras(records ? undefined : dataDir);
  const owned = !options.services;
  const services = options.services ?? (await startServices({ install }));
  let app;
  let server;
  try {
    app = new RealApp({ services, records: catalog.records, info: catalog.info, extras, collation, seed, latencyMs });
    await app.load();
    const churn = new RealChurn(app);
    const fleet = new ClusterFleet({ etcd: app.etcd, pods: clusterPods, seed });
    await fleet.load();
    server = http.createServer(createRealHandler({ app, churn, fleet, wwwDir, pkgDir }));
    await new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, HOST, () => {
        server.off("error", reject);
        resolve();
      });
    });
    let closed;
    const close = () => {
      closed ??= (async () => {
        churn.stop();
        fleet.stopChurn();
        await new Promise((r) => {
          server.close(() => r());
          server.closeAllConnections();
        });
        await churn.chain.catch(() => {});
        await app.close();
        if (owned) await services.stop();
      })();
      return closed;
    };
    return { server, url: `http://${HOST}:${server.address().port}/`, app, churn, fleet, services, close };
  } catch (e) {
    server?.close();
    await app?.close();
    if (owned) await services.stop();
    throw e;
  }
}
