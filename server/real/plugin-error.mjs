// A plugin service's error, named by its Connect / gRPC code, and how the REST gateway
// (grpc-gateway) writes it: HTTP status from the code, body `{code, message, details: []}`.

import { Code } from "@connectrpc/connect";
import { codeFromString } from "@connectrpc/connect/protocol-connect";
import { gatewayReply } from "../errors.mjs";

/** An error a plugin service answers: `code` is a Connect code name (`invalid_argument`, …). */
export class PluginError extends Error {
  constructor(code, message, cause) {
    super(message, cause === undefined ? undefined : { cause });
    this.code = codeFromString(code) === undefined ? "unknown" : code;
  }
}

/** The grpc-gateway reply `{status, body}` of a PluginError. */
export function gatewayError(e) {
  return gatewayReply(codeFromString(e.code) ?? Code.Unknown, e.message);
}
