// Error bodies in the two dialects the backend speaks: grpc-gateway (kubeapps-apis) and
// Kubernetes `Status` (the apiserver).

/** gRPC codes used here, with the HTTP status grpc-gateway maps each to. */
export const GRPC = {
  InvalidArgument: { code: 3, http: 400 },
  NotFound: { code: 5, http: 404 },
  PermissionDenied: { code: 7, http: 403 },
  AlreadyExists: { code: 6, http: 409 },
  FailedPrecondition: { code: 9, http: 400 },
  Unimplemented: { code: 12, http: 501 },
  Internal: { code: 13, http: 500 },
  Unavailable: { code: 14, http: 503 },
};

/** A reply `{status, body}` with grpc-gateway's error body `{code, message, details: []}`. */
export function grpcError(kind, message) {
  const k = GRPC[kind] ?? GRPC.Internal;
  return { status: k.http, body: { code: k.code, message, details: [] } };
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
