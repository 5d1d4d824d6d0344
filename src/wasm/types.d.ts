// Shared by both modules (pager and codec): the error class and its codes.

/** Stable error codes of {@link PagerError}. */
export type PagerErrorCode =
  | "INVALID_PAGE_TOKEN"
  | "INVALID_CONTINUE_TOKEN"
  | "INVALID_KUBEAPPS_TOKEN"
  | "INVALID_OPTIONS"
  | "INVALID_RESPONSE"
  | "FILTER_MISMATCH"
  | "NO_PROGRESS"
  | "SOURCE_TOO_LARGE"
  | "SOURCE_FAILED"
  | "ABORTED"
  | "REENTRANT_CALL"
  | "PAGER_FREED"
  | "PREDICATE_FAILED";

/** Why a token was rejected (`details.reason` of the `INVALID_*_TOKEN` codes). */
export type TokenFault =
  | "too-long"
  | "whitespace"
  | "mixed-alphabet"
  | "bad-character"
  | "bad-padding"
  | "truncated"
  | "integrity"
  | "unknown-version"
  | "too-many-sources"
  | "overflow"
  | "not-utf8" // text that is not UTF-8 in the token, or a token string with a lone surrogate
  | "malformed"
  | "invalid-field"
  | "empty";

/**
 * The one error class kubeapps-pager throws: a real `Error` with a stable `code`.
 *
 * Both entries export it ("kubeapps-pager" and "kubeapps-pager/codec", each a wasm module with its
 * own copy of the class); `instanceof` either one holds for the errors of both.
 *
 * `details` by code: token codes `{ reason: TokenFault }`; `INVALID_OPTIONS` `{ field }`;
 * `INVALID_RESPONSE`, `NO_PROGRESS` `{ source }`; `FILTER_MISMATCH` `{ expected, found }` (hex
 * fingerprints); `SOURCE_TOO_LARGE` `{ source, cap }`; `SOURCE_FAILED` `{ source?, status, reason?,
 * continue?, url?, body?, connectCode?, cause? }` (a built-in fetcher's own error has `url`, the
 * answer's JSON `body` and the `Response` or network error as `cause`, or `connectCode` and the
 * ConnectError; `nextPage`'s carries the same fields and the same `cause`, plus the `source` that
 * failed: `error.cause` is the transport's own error in one step); `ABORTED` `{ reason }` (the signal's reason); `PAGER_FREED` `{ method }`
 * (a method of a `Pager` called after its `free()` or `[Symbol.dispose]()`, or a `nextPage` running
 * when it was freed: that call rejects at once; also a copy of a `Pager`, such as lodash's `cloneDeep`
 * makes: only the object `new Pager` or `Pager.resume` gave, or a Proxy of it, is a pager); `REENTRANT_CALL` `{}` (a pager called from inside
 * its own callbacks, e.g. `nextPage` from inside its own `fetchChunk`); `PREDICATE_FAILED` `{ source, predicate,
 * index, cause }` (the custom predicate `predicate` (its id) threw, or returned a promise, on item `index` of a
 * chunk of `source`; `cause` what it threw; the chunk was not taken). The fetchers' `INVALID_OPTIONS`
 * for a header carries `{ field: 'headers["name"]' }`. Where `details.cause` is set (what a
 * failing `fetchChunk` rejected with, or the network error under a fetcher's status 0), the
 * standard `cause` is the same value. A `fetchChunk` that rejects with a `REENTRANT_CALL` or
 * `PAGER_FREED` PagerError makes `nextPage` reject with that error itself, not `SOURCE_FAILED`.
 *
 * @example
 * try { Pager.resume(token, options) } catch (e) {
 *   if (e instanceof PagerError && e.code === "FILTER_MISMATCH") startOver();
 * }
 */
export declare class PagerError extends Error {
  constructor(code: PagerErrorCode, message: string, details?: Record<string, unknown>);
  readonly name: "PagerError";
  readonly code: PagerErrorCode;
  readonly details: Record<string, unknown>;
  /**
   * The transport's own error, one step away: what a failing `fetchChunk` rejected with, or, for
   * a built-in fetcher's failure, the fetch `Response` (a non-2xx answer), the network error (no
   * answer) or the `ConnectError`; also a Kubernetes `Status` a fetchChunk rejected with.
   */
  readonly cause?: unknown;
  /**
   * A text fit to show a user (English; no URL, token or internal), chosen by `code` and, for
   * `SOURCE_FAILED`, `details.status` (401: sign in again, 403: no permission, 503: try later…).
   * `message` is the developer's text. To localise, map `code` and `details.status` yourself.
   */
  readonly userMessage: string;
}
