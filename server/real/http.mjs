// The request router of the real-service mode: the same paths as server/http.mjs (kubeapps-apis
// REST gateway, the core, the apiserver's PackageMetadata list, /demo control, static files),
// answered by the plugin services over PostgreSQL, etcd and the chart cache. The REST gateway
// only converts: query parameters → a GetAvailablePackageSummariesRequest (JSON), the service's
// response → JSON, a PluginError → grpc-gateway's error body. `latencyMs` delays every /apis/
// answer (the network benchmark's fixed latency per request).
import { parseSummariesRequest } from "../behaviours.mjs";
import { parseLimit } from "../kube-list.mjs";
import { k8sStatus } from "../errors.mjs";
import * as control from "../control.mjs";
import { serveStatic, sendText } from "../static.mjs";
import { StoreError } from "../store.mjs";
import { readJson, sendJson } from "../http.mjs";
import { pluginName } from "../app.mjs";
import { PluginError, gatewayError } from "./plugin-error.mjs";
import { coreList } from "./core.mjs";
import { listChunk, PACKAGE_METADATAS } from "./kube-etcd.mjs";

const PLUGIN_PATH = /^\/apis\/plugins\/(helm|fluxv2|kapp_controller)\/packages\/v1alpha1\/availablepackages$/;
const CORE_PATH = "/apis/core/packages/v1alpha1/availablepackages";
const PM_NS_PATH = /^\/apis\/data\.packaging\.carvel\.dev\/v1alpha1\/namespaces\/([^/]+)\/packagemetadatas$/;
const PM_ALL_PATH = "/apis/data.packaging.carvel.dev/v1alpha1/packagemetadatas";
const ICON_PATH = /^\/demo\/icon\/([^/]+)\.svg$/;

/** A GetAvailablePackageSummariesRequest (kubeapps-apis JSON) from grpc-gateway query parameters, or `{reply}`. */
export function requestFromQuery(params) {
  const parsed = parseSummariesRequest(params);
  if (parsed.reply) return parsed;
  const r = parsed.req;
  return {
    request: {
      context: { cluster: params.get("context.cluster") ?? "", namespace: r.namespace },
      paginationOptions: { pageSize: r.pageSize, pageToken: r.pageToken },
      filterOptions: {
        query: r.filter.query, categories: r.filter.categories, repositories: r.filter.repositories,
        pkgVersion: params.get("filterOptions.pkgVersion") ?? "", appVersion: params.get("filterOptions.appVersion") ?? "",
      },
    },
  };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The `node:http` listener of the real-service mode; `ctx` = `{app, churn, wwwDir, pkgDir}`. */
export function createRealHandler(ctx) {
  const { app, churn, fleet } = ctx;

  async function apis(p, params) {
    const m = PLUGIN_PATH.exec(p);
    if (m || p === CORE_PATH) {
      const parsed = requestFromQuery(params);
      if (parsed.reply) return parsed.reply;
      try {
        if (p === CORE_PATH) {
          app.requests.core += 1;
          return { status: 200, body: await coreList(app, parsed.request) };
        }
        const r = await app.pluginPage(`${m[1]}.packages`, parsed.request);
        return r.ok ? { status: 200, body: r.response } : r.reply;
      } catch (e) {
        if (e instanceof PluginError) return gatewayError(e);
        throw e;
      }
    }
    const ns = PM_NS_PATH.exec(p);
    if (ns || p === PM_ALL_PATH) {
      app.requests.plugins["kapp_controller.packages"].kubernetesList += 1;
      const limit = parseLimit(params.get("limit"));
      if (limit === null) return k8sStatus(400, `invalid limit ${JSON.stringify(params.get("limit"))}`);
      const r = await listChunk(app.etcd, PACKAGE_METADATAS, {
        namespace: ns ? decodeURIComponent(ns[1]) : "", limit,
        continueToken: params.get("continue") ?? "", resourceVersion: params.get("resourceVersion") ?? "",
      });
      if (!r.ok) return r.reply;
      const metadata = { resourceVersion: String(r.resourceVersion) };
      if (r.continueToken) metadata.continue = r.continueToken;
      if (r.remaining !== undefined) metadata.remainingItemCount = r.remaining;
      return {
        status: 200,
        body: { kind: "PackageMetadataList", apiVersion: "data.packaging.carvel.dev/v1alpha1", metadata, items: r.items.map((i) => i.object) },
      };
    }
    return null;
  }

  const gets = {
    "/demo/config": () => app.config(churn),
    "/demo/truth": (q) => app.truth(q),
    "/demo/requests": () => control.requests(app),
    "/demo/clusters": () => fleet.status(),
    "/demo/clusters/truth": (q) => fleet.truth(q),
  };
  const posts = {
    "/demo/behaviour": (b) => {
      const plugin = pluginName(b?.plugin);
      if (!plugin) throw new StoreError(400, "BadRequest", `unknown plugin ${JSON.stringify(b?.plugin)}`);
      return { plugin: app.setBehaviour(plugin, b.behaviour), behaviour: b.behaviour };
    },
    "/demo/churn": (b) => churn.configure(b),
    "/demo/compact": () => app.compact(),
    "/demo/clusters/churn": async (b) => {
      const rate = b?.ratePerSecond ?? 0;
      if (typeof rate !== "number" || !(rate >= 0 && rate <= 1000)) throw new StoreError(400, "BadRequest", "ratePerSecond must be a number from 0 to 1000");
      const steps = b?.steps ?? 0;
      if (!Number.isSafeInteger(steps) || steps < 0 || steps > 10_000) throw new StoreError(400, "BadRequest", "steps must be an integer from 0 to 10000");
      for (let i = 0; i < steps; i++) await fleet.write();
      fleet.startChurn(rate);
      return fleet.status();
    },
    "/demo/clusters/reset": async () => {
      await fleet.load();
      return fleet.status();
    },
    "/demo/reset": async () => {
      await app.reset();
      return { revision: app.revision };
    },
    "/demo/fail": (b) => {
      const plugin = pluginName(b?.plugin);
      if (!plugin) throw new StoreError(400, "BadRequest", `unknown plugin ${JSON.stringify(b?.plugin)}`);
      app.faults[plugin].push({ message: typeof b.message === "string" ? b.message : undefined });
      return { plugin, pending: app.faults[plugin].length };
    },
    "/demo/expire": () => {
      throw new StoreError(400, "BadRequest", "with --backend real, continue tokens expire by etcd's own compaction: POST /demo/compact");
    },
    "/demo/mutate": () => {
      throw new StoreError(501, "NotImplemented", "with --backend real, the data changes through /demo/churn (real writes)");
    },
    "/demo/requests/reset": () => {
      app.requests.core = 0;
      for (const c of Object.values(app.requests.plugins)) c.direct = c.viaCore = c.kubernetesList = 0;
      return control.requests(app);
    },
  };

  async function route(req, res) {
    const url = new URL(req.url, "http://127.0.0.1");
    const p = url.pathname;
    const isGet = req.method === "GET" || req.method === "HEAD";
    if (p.startsWith("/apis/")) {
      if (!isGet) return sendJson(res, 405, { error: "use GET" });
      if (app.latencyMs > 0) await sleep(app.latencyMs);
      const reply = await apis(p, url.searchParams);
      if (reply) return sendJson(res, reply.status, reply.body);
      return sendJson(res, 404, { error: `no route ${p}` });
    }
    if (p.startsWith("/clusters/") && fleet) {
      if (!isGet) return sendJson(res, 405, { error: "use GET" });
      if (app.latencyMs > 0) await sleep(app.latencyMs);
      const reply = await fleet.route(p, url.searchParams);
      if (reply) return sendJson(res, reply.status, reply.body);
    }
    if (gets[p]) {
      if (!isGet) return sendJson(res, 405, { error: "use GET" });
      return sendJson(res, 200, await gets[p](url.searchParams));
    }
    if (posts[p]) {
      if (req.method !== "POST") return sendJson(res, 405, { error: "use POST" });
      return sendJson(res, 200, await posts[p](await readJson(req)));
    }
    const icon = ICON_PATH.exec(p);
    if (icon && isGet) {
      res.writeHead(200, { "content-type": "image/svg+xml", "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'", "cache-control": "max-age=3600" });
      let name = "?";
      try {
        name = decodeURIComponent(icon[1]);
      } catch {
        // keep "?"
      }
      return res.end(control.icon(name));
    }
    if (p.startsWith("/demo/")) return sendJson(res, 404, { error: `no route ${p}` });
    if (!isGet) return sendText(res, 405, "method not allowed\n");
    if (p === "/pkg" || p.startsWith("/pkg/")) return serveStatic(req, res, ctx.pkgDir, p.slice(4));
    return serveStatic(req, res, ctx.wwwDir, p);
  }

  return (req, res) => {
    route(req, res).catch((e) => {
      if (res.headersSent) return res.destroy();
      if (e instanceof StoreError) return sendJson(res, e.status, { error: e.message, reason: e.reason });
      if (e instanceof PluginError) return sendJson(res, gatewayError(e).status, { error: e.message });
      sendJson(res, 500, { error: String(e?.message ?? e) });
    });
  };
}
