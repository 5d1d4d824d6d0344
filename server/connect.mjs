// The plugins' packages services over Connect, gRPC-web and gRPC (@connectrpc/connect-node v1,
// as kubeapps-apis serves them to the dashboard), at Kubeapps' own paths under `/apis`:
// /apis/kubeappsapis.plugins.helm.packages.v1alpha1.HelmPackagesService/GetAvailablePackageSummaries.
// The messages and service descriptors are the generated ones (tests/proto/gen). The handler
// takes plain service objects, one per plugin, that speak kubeapps-apis JSON:
// `getAvailablePackageSummaries(request)` and `getInstalledPackageSummaries(request)`, each given
// the request as proto3 JSON (every field, defaults included) and resolving with the response as
// proto3 JSON (the REST gateway's body); a rejection is a ConnectError, an error whose `code` names
// a Connect code (server/real's PluginError), or an error carrying the REST answer (`status` and a
// grpc-gateway `{ code, message }` body, or a Kubernetes Status), mapped to its Connect code. `demoServices(app)` are the demo backend's; any other backend (a real
// PostgreSQL one) fits the same shape.
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { Code, ConnectError } from "@connectrpc/connect";
import { HelmPackagesService } from "../tests/proto/gen/helm_connect.js";
import { FluxV2PackagesService } from "../tests/proto/gen/fluxv2_connect.js";
import { KappControllerPackagesService } from "../tests/proto/gen/kapp_controller_connect.js";
import { GetAvailablePackageSummariesResponse, GetInstalledPackageSummariesResponse } from "../tests/proto/gen/kubeapps_pb.js";
import { pluginPage } from "./behaviours.mjs";
import { toSummariesResponse } from "./summary.mjs";
import { installedPage } from "./installed.mjs";
import { CLUSTER } from "./store.mjs";

/** Each plugin's generated service descriptor. */
export const SERVICES = {
  "helm.packages": HelmPackagesService,
  "fluxv2.packages": FluxV2PackagesService,
  "kapp_controller.packages": KappControllerPackagesService,
};

/** The Connect code of an HTTP status, the inverse of grpc-gateway's HTTPStatusFromCode. */
const CODE_OF_STATUS = {
  400: Code.InvalidArgument, 401: Code.Unauthenticated, 403: Code.PermissionDenied, 404: Code.NotFound,
  409: Code.Aborted, 410: Code.FailedPrecondition, 429: Code.ResourceExhausted, 499: Code.Canceled,
  501: Code.Unimplemented, 503: Code.Unavailable, 504: Code.DeadlineExceeded,
};

/** Connect's code names (`invalid_argument`, …: the protocol's spelling) → codes. */
const CODE_OF_NAME = Object.fromEntries(
  Object.entries(Code).filter(([, v]) => typeof v === "number").map(([k, v]) => [k.replace(/[A-Z]/g, (c, i) => (i ? "_" : "") + c.toLowerCase()), v]),
);

/**
 * A service object's rejection as a ConnectError (see the header): a ConnectError as it is; an
 * error whose `code` names a Connect code (server/real's PluginError: `"unavailable"`); a REST
 * answer (`status` and its body).
 */
export function toConnectError(e) {
  if (e instanceof ConnectError) return e;
  if (typeof e?.code === "string" && CODE_OF_NAME[e.code] !== undefined) return new ConnectError(String(e.message), CODE_OF_NAME[e.code]);
  const body = e?.body;
  const message = String(body?.message ?? e?.message ?? e);
  // A grpc-gateway body carries the gRPC code itself; a Kubernetes Status its HTTP status.
  if (body?.kind !== "Status" && Number.isInteger(body?.code) && body.code > 0 && body.code <= 16) return new ConnectError(message, body.code);
  const status = e?.status;
  const code = CODE_OF_STATUS[status] ?? (Number.isInteger(status) && status >= 500 ? Code.Internal : Code.Unknown);
  return new ConnectError(message, code);
}

/**
 * The `node:http` handler of the packages services of `services` (plugin name → service object),
 * under `prefix`; `fallback(req, res)` answers any other path.
 */
export function connectHandler(services, { prefix = "/apis", fallback } = {}) {
  return connectNodeAdapter({
    requestPathPrefix: prefix,
    fallback,
    routes(router) {
      for (const [plugin, impl] of Object.entries(services)) {
        const service = SERVICES[plugin];
        if (!service) throw new RangeError(`no service for plugin ${JSON.stringify(plugin)}`);
        const method = (name, Response) => async (request) => {
          if (typeof impl[name] !== "function") throw new ConnectError(`${plugin} does not implement ${name}`, Code.Unimplemented);
          let json;
          try {
            json = await impl[name](request.toJson({ emitDefaultValues: true }));
          } catch (e) {
            throw toConnectError(e);
          }
          return Response.fromJson(json, { ignoreUnknownFields: true });
        };
        router.service(service, {
          getAvailablePackageSummaries: method("getAvailablePackageSummaries", GetAvailablePackageSummariesResponse),
          getInstalledPackageSummaries: method("getInstalledPackageSummaries", GetInstalledPackageSummariesResponse),
        });
      }
    },
  });
}

/** Throws a demo reply `{ status, body }` as an error the handler maps. */
function raise(reply) {
  throw Object.assign(new Error(reply.body?.message ?? `status ${reply.status}`), reply);
}

/** The demo backend's services: the same plugin behaviours, faults and counters as its REST paths. */
export function demoServices(app) {
  const services = {};
  for (const plugin of Object.keys(SERVICES)) {
    const read = (request) => {
      const cluster = request.context?.cluster ?? "";
      if (cluster !== "" && cluster !== CLUSTER) raise({ status: 400, body: { code: Code.InvalidArgument, message: `not supported yet: request.Context.Cluster: [${cluster}]` } });
      const f = request.filterOptions ?? {};
      return {
        namespace: request.context?.namespace ?? "",
        pageSize: request.paginationOptions?.pageSize ?? 0,
        pageToken: request.paginationOptions?.pageToken ?? "",
        filter: { query: f.query ?? "", categories: f.categories ?? [], repositories: f.repositories ?? [] },
      };
    };
    services[plugin] = {
      getAvailablePackageSummaries(request) {
        const r = pluginPage(app, plugin, read(request));
        if (!r.ok) raise(r.reply);
        return toSummariesResponse(r.records, r.nextPageToken, r.categories);
      },
      getInstalledPackageSummaries(request) {
        const reply = installedPage(app, plugin, read(request));
        if (reply.status !== 200) raise(reply);
        return reply.body;
      },
    };
  }
  return services;
}
