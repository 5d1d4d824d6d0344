// A plugin service's error, named by its Connect / gRPC code, and how the REST gateway
// (grpc-gateway) writes it: HTTP status from the code, body `{code, message, details: []}`.

/** Connect code names with their gRPC number and grpc-gateway's HTTP status. */
export const CODES = {
  invalid_argument: { grpc: 3, http: 400 },
  not_found: { grpc: 5, http: 404 },
  failed_precondition: { grpc: 9, http: 400 },
  unimplemented: { grpc: 12, http: 501 },
  internal: { grpc: 13, http: 500 },
  unavailable: { grpc: 14, http: 503 },
  unknown: { grpc: 2, http: 500 },
};

/** An error a plugin service answers: `code` is a Connect code name (`invalid_argument`, …). */
export class PluginError extends Error {
  constructor(code, message, cause) {
    super(message, cause === undefined ? undefined : { cause });
    this.code = CODES[code] ? code : "unknown";
  }
}

/** The grpc-gateway reply `{status, body}` of a PluginError. */
export function gatewayError(e) {
  const c = CODES[e.code] ?? CODES.unknown;
  return { status: c.http, body: { code: c.grpc, message: e.message, details: [] } };
}
