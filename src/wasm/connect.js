// `connectFetcher`, an export of the package: a `fetchChunk` over a dashboard's own Connect
// clients. The request's `filterOptions` is the core's (what a source that filters is sent); a
// failure becomes the `SOURCE_FAILED` the REST fetchers give for the same failure.
// Keep the import lines and the export line as they are: scripts/package.mjs rewrites them to
// CommonJS for the nodejs build.

import { makeError } from "./errors.js";
import { isObject } from "./json.js";
import { field, stringField, causeText, readInput, CONNECT_FETCHER } from "./inputs.js";
import { limitOf, signalOf, retryAfterOf } from "./fetchers.js";

/**
 * The HTTP status of each Connect / gRPC code (index: the code's number, 1 canceled … 16
 * unauthenticated), as grpc-gateway maps them (runtime.HTTPStatusFromCode), which is what the
 * kubeapps-apis REST gateway answers for the same failure: a source fails alike over either.
 */
const CONNECT_STATUS = [200, 499, 500, 400, 504, 404, 409, 403, 429, 400, 409, 400, 501, 500, 503, 500, 401];
const CONNECT_CODES = "ok canceled unknown invalid_argument deadline_exceeded not_found already_exists permission_denied resource_exhausted failed_precondition aborted out_of_range unimplemented internal unavailable data_loss unauthenticated".split(" ");

/**
 * `connectFetcher(options)`, an export of the package: a `fetchChunk` over a dashboard's own
 * Connect clients (`createPromiseClient(HelmPackagesService, transport)`, @connectrpc/connect v1,
 * any transport: Connect, gRPC-web, gRPC). `options.clients` maps a plugin name to its client;
 * each request calls the client's `getAvailablePackageSummaries` (`getInstalledPackageSummaries`
 * with `list: "installed"`) with `{ context, paginationOptions: { pageToken, pageSize } }` and
 * `{ signal }` plus `callOptions`, and resolves with the response message as it is. A failure
 * rejects with `SOURCE_FAILED`: `details.status` the code's HTTP status (`CONNECT_STATUS`),
 * `details.connectCode` its name, `cause` the ConnectError itself. An abort passes through as it
 * is (nextPage reports `ABORTED`). Throws `INVALID_OPTIONS` for a client without the method.
 */
function connectFetcher(options) {
  const clients = field(options, "clients");
  // The plain-data options read as JSON (the clients and callOptions hold functions and signals).
  const rest = {};
  for (const key of Object.keys(isObject(options) ? options : {})) if (key !== "clients" && key !== "callOptions") rest[key] = options[key];
  const [[cluster = "", namespace = ""] = [], list = 0] = readInput(rest, CONNECT_FETCHER);
  const method = list ? "getInstalledPackageSummaries" : "getAvailablePackageSummaries";
  const callOptions = field(options, "callOptions");
  if (!isObject(clients)) throw makeError("INVALID_OPTIONS", "invalid options: clients: expected an object of plugin name → Connect client", { field: "clients" });
  for (const plugin of Object.keys(clients)) {
    if (typeof field(clients[plugin], method) !== "function") {
      const at = `clients[${JSON.stringify(plugin)}]`;
      throw makeError("INVALID_OPTIONS", `invalid options: ${at}: a Connect client with ${method}()`, { field: at });
    }
  }
  return async (request, init) => {
    const plugin = stringField(request, ["source", "plugin"]);
    const client = Object.hasOwn(clients, plugin) ? clients[plugin] : undefined;
    const at = `${plugin} ${method}`;
    if (client === undefined) throw makeError("SOURCE_FAILED", `${at}: no client for plugin ${JSON.stringify(plugin)} in options.clients`, { status: 0 });
    const signal = signalOf(init);
    const call = { ...(isObject(callOptions) ? callOptions : {}) };
    if (isObject(signal)) call.signal = signal;
    const message = {
      context: { cluster: stringField(request, ["source", "cluster"]) || cluster, namespace: stringField(request, ["source", "namespace"]) || namespace },
      paginationOptions: { pageToken: stringField(request, ["pageToken"]), pageSize: limitOf(request) },
    };
    // The filter, for a source that filters (Kubeapps' FilterOptions: the message field's init).
    const filter = field(request, "filterOptions");
    if (isObject(filter)) message.filterOptions = filter;
    try {
      return await client[method](message, call);
    } catch (e) {
      if (isObject(signal) && field(signal, "aborted")) throw e;
      const code = field(e, "code");
      const name = typeof code === "number" ? CONNECT_CODES[code] : undefined;
      const status = name ? CONNECT_STATUS[code] : 0;
      const text = field(e, "rawMessage") ?? causeText(e);
      const details = { status, cause: e };
      if (name) details.connectCode = name;
      const after = retryAfterOf(field(e, "metadata"));
      if (after !== undefined) details.retryAfterMs = after;
      throw makeError("SOURCE_FAILED", `${at}: ${name ? `${name} (HTTP ${status})` : "no answer"}${text ? `: ${text}` : ""}`, details);
    }
  };
}


export { connectFetcher };
