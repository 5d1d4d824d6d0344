// The request router: kubeapps-apis REST paths, the apiserver's PackageMetadata list,
// the /demo control endpoints and static files.
import { handlePluginList } from "./behaviours.mjs";
import { handleCoreList } from "./core-merge.mjs";
import { packageMetadataList } from "./kube-list.mjs";
import * as control from "./control.mjs";
import { serveStatic, sendText } from "./static.mjs";
import { StoreError } from "./store.mjs";
import { parseSummariesRequest } from "./behaviours.mjs";
import { installedPage } from "./installed.mjs";
import { connectHandler, demoServices } from "./connect.mjs";
import { connectWebBundle } from "./connect-web.mjs";

const MAX_BODY = 1 << 20;

const PLUGIN_PATH = /^\/apis\/plugins\/(helm|fluxv2|kapp_controller)\/packages\/v1alpha1\/availablepackages$/;
const INSTALLED_PATH = /^\/apis\/plugins\/(helm|fluxv2|kapp_controller)\/packages\/v1alpha1\/installedpackages$/;
/** The packages services over Connect / gRPC-web / gRPC (server/connect.mjs): `/apis/<service>/<method>`. */
const CONNECT_PATH = /^\/apis\/kubeappsapis\.[\w.]+\/\w+$/;
const PM_NS_PATH = /^\/apis\/data\.packaging\.carvel\.dev\/v1alpha1\/namespaces\/([^/]+)\/packagemetadatas$/;
const PM_ALL_PATH = "/apis/data.packaging.carvel.dev/v1alpha1/packagemetadatas";
const ICON_PATH = /^\/demo\/icon\/([^/]+)\.svg$/;

/** Writes `body` as a JSON answer (no caching, no sniffing). */
export function sendJson(res, status, body, headers = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    ...headers,
  });
  res.end(text);
}

/** Reads a JSON request body (`{}` when empty); StoreError 413 over 1 MiB, 400 when not JSON. */
export async function readJson(req) {
  const chunks = [];
  let size = 0;
  for await (const c of req) {
    size += c.length;
    if (size > MAX_BODY) throw new StoreError(413, "RequestEntityTooLarge", "body over 1 MiB");
    chunks.push(c);
  }
  const text = Buffer.concat(chunks).toString("utf8").trim();
  if (text === "") return {};
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new StoreError(400, "BadRequest", `body is not JSON: ${e.message}`);
  }
}

/**
 * createHandler returns the `node:http` request listener. `ctx` = `{app, churn, wwwDir,
 * pkgDir}`. Control errors answer `{error, reason}` with their status; any other
 * exception answers 500.
 */
export function createHandler(ctx) {
  const { app, churn } = ctx;
  const connect = connectHandler(demoServices(app));
  const gets = {
    "/apis/core/packages/v1alpha1/availablepackages": (p) => handleCoreList(app, p),
    [PM_ALL_PATH]: (p) => packageMetadataList(app, "", p),
    "/demo/config": () => ({ status: 200, body: control.config(app, churn) }),
    "/demo/truth": (p) => ({ status: 200, body: control.truth(app, p) }),
    "/demo/requests": () => ({ status: 200, body: control.requests(app) }),
  };
  const posts = {
    "/demo/behaviour": (b) => ({ plugin: app.setBehaviour(b?.plugin, b?.behaviour), behaviour: b.behaviour }),
    "/demo/churn": (b) => churn.configure(b),
    "/demo/mutate": (b) => control.mutate(app, b),
    "/demo/compact": (b) => {
      const rev = b?.revision ?? app.store.revision;
      if (!Number.isSafeInteger(rev) || rev < 0) throw new StoreError(400, "BadRequest", "revision must be a non-negative integer");
      return { compactedRevision: app.store.compact(rev), revision: app.store.revision };
    },
    "/demo/reset": () => {
      app.reset();
      return { revision: app.store.revision, compactedRevision: app.store.compactedRevision };
    },
    "/demo/expire": (b) => control.expire(app, b),
    "/demo/fail": (b) => control.fail(app, b),
    "/demo/down": (b) => control.down(app, b),
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
    if (CONNECT_PATH.test(p)) return connect(req, res);
    const installed = INSTALLED_PATH.exec(p);
    if (installed && isGet) {
      const plugin = `${installed[1]}.packages`;
      const parsed = parseSummariesRequest(url.searchParams);
      const reply = parsed.reply ?? installedPage(app, plugin, parsed.req);
      return sendJson(res, reply.status, reply.body);
    }
    const m = PLUGIN_PATH.exec(p) ?? PM_NS_PATH.exec(p);
    if (m || gets[p]) {
      if (!isGet) return sendJson(res, 405, { error: "use GET" }, { allow: "GET, HEAD" });
      let reply;
      if (!m) reply = gets[p](url.searchParams);
      else if (m[0].startsWith("/apis/plugins/")) reply = handlePluginList(app, `${m[1]}.packages`, url.searchParams);
      else reply = packageMetadataList(app, decodeURIComponent(m[1]), url.searchParams);
      return sendJson(res, reply.status, reply.body);
    }
    if (posts[p]) {
      if (req.method !== "POST") return sendJson(res, 405, { error: "use POST" }, { allow: "POST" });
      return sendJson(res, 200, await posts[p](await readJson(req)));
    }
    if (p === "/demo/connect-web.js" && isGet) {
      const text = await connectWebBundle();
      res.writeHead(200, { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-cache", "x-content-type-options": "nosniff" });
      return res.end(text);
    }
    const icon = ICON_PATH.exec(p);
    if (icon && isGet) {
      let name;
      try {
        name = decodeURIComponent(icon[1]);
      } catch {
        return sendText(res, 400, "bad icon name\n");
      }
      res.writeHead(200, {
        "content-type": "image/svg+xml",
        "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
        "cache-control": "max-age=3600",
        "x-content-type-options": "nosniff",
      });
      return res.end(control.icon(name));
    }
    if (p.startsWith("/apis/") || p.startsWith("/demo/")) return sendJson(res, 404, { error: `no route ${p}` });
    if (!isGet) return sendText(res, 405, "method not allowed\n");
    if (p === "/pkg" || p.startsWith("/pkg/")) return serveStatic(req, res, ctx.pkgDir, p.slice(4));
    return serveStatic(req, res, ctx.wwwDir, p);
  }

  return (req, res) => {
    route(req, res).catch((e) => {
      if (res.headersSent) return res.destroy();
      if (e instanceof StoreError) return sendJson(res, e.status, { error: e.message, reason: e.reason });
      sendJson(res, 500, { error: String(e?.message ?? e) });
    });
  };
}
