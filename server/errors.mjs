// Error bodies in the two dialects the backend speaks: grpc-gateway (kubeapps-apis) and
// Kubernetes `Status` (the apiserver).

import { Code } from "@connectrpc/connect";

/**
 * grpc-gateway's HTTP status for each gRPC code (`runtime.HTTPStatusFromCode`,
 * github.com/grpc-ecosystem/grpc-gateway/v2/runtime/errors.go); the codes are connect-es' `Code`.
 */
const GATEWAY_STATUS = new Map([
  [Code.Canceled, 499], [Code.Unknown, 500], [Code.InvalidArgument, 400],
  [Code.DeadlineExceeded, 504], [Code.NotFound, 404], [Code.AlreadyExists, 409],
  [Code.PermissionDenied, 403], [Code.ResourceExhausted, 429], [Code.FailedPrecondition, 400],
  [Code.Aborted, 409], [Code.OutOfRange, 400], [Code.Unimplemented, 501], [Code.Internal, 500],
  [Code.Unavailable, 503], [Code.DataLoss, 500], [Code.Unauthenticated, 401],
]);

/** A reply `{status, body}` with grpc-gateway's error body `{code, message, details: []}` for `code` (a `Code`). */
export function gatewayReply(code, message) {
  return { status: GATEWAY_STATUS.get(code) ?? 500, body: { code, message, details: [] } };
}

/** The same for a code named as in `Code` (`"InvalidArgument"`); an unknown name is `Internal`. */
export function grpcError(kind, message) {
  const code = Code[kind];
  return gatewayReply(typeof code === "number" ? code : Code.Internal, message);
}

const REASON_BY_STATUS = {
  400: "BadRequest", 404: "NotFound", 409: "AlreadyExists", 410: "Expired",
  500: "InternalError", 503: "ServiceUnavailable",
};

/**
 * A reply with a Kubernetes `Status` body (k8s.io/apimachinery metav1.Status):
 * `{kind, apiVersion, metadata: {continue?}, status: "Failure", message, reason, code}`.
 */
export function k8sStatus(code, message, { reason = REASON_BY_STATUS[code] ?? "", continueToken } = {}) {
  const metadata = {};
  if (continueToken) metadata.continue = continueToken;
  return {
    status: code,
    body: { kind: "Status", apiVersion: "v1", metadata, status: "Failure", message, reason, code },
  };
}

/** The apiserver's message for an expired continue token with an inconsistent one attached. */
export const INCONSISTENT_CONTINUE =
  "The provided continue parameter is too old to display a consistent list result. You can " +
  "start a new list without the continue parameter, or use the continue token in this " +
  "response to retrieve the remainder of the results. Continuing with the provided token " +
  "results in an inconsistent list - objects that were created, modified, or deleted between " +
  "the time the first chunk was returned and now may show up in the list.";

/** The apiserver's message for an expired continue token without a way on. */
export const CONTINUE_EXPIRED =
  "The provided continue parameter is too old to display a consistent list result. You can " +
  "start a new list without the continue parameter.";
