// PagerError: the one error class kubeapps-pager throws. Lives in JS so that errors are real
// `Error`s (stack, `instanceof Error`) and `instanceof PagerError` works; the Rust boundary
// builds them through `makeError`. Shipped as ESM, and as CommonJS for the nodejs build
// (scripts/package.mjs rewrites the export line below; keep it the file's last line).
//
// Each wasm module of the package (the pager, "kubeapps-pager"; the codec, "kubeapps-pager/codec")
// carries its own copy of this file, so there are two PagerError classes. Both mark their
// prototype with one registered symbol, and `instanceof` checks that mark: an error of either
// module is `instanceof` the PagerError of both.

const BRAND = Symbol.for("kubeapps-pager.PagerError");

/** Thrown by every kubeapps-pager function. `code` is stable; `details` holds structured fields. */
class PagerError extends Error {
  constructor(code, message, details) {
    // The standard `cause` too (ES2022), so consoles and loggers show what lies beneath.
    super(message, details != null && details.cause !== undefined ? { cause: details.cause } : undefined);
    this.name = "PagerError";
    this.code = code;
    this.details = details ?? {};
  }

  /** A PagerError of any copy of this class (an `Error` carrying the brand); subclasses test as usual. */
  static [Symbol.hasInstance](value) {
    if (this !== PagerError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return value instanceof Error && value[BRAND] === true;
  }
}
Object.defineProperty(PagerError.prototype, BRAND, { value: true });

/**
 * Texts fit to show a user, by HTTP status (a SOURCE_FAILED's `details.status`: the REST answer's,
 * or the Connect code's HTTP equivalent, see driver.js) and else by code. English; a dashboard that
 * localises maps `code` and `details.status` itself. Never names a URL, a token or an internal.
 */
const BY_STATUS = {
  0: "The server could not be reached. Check your connection and try again.",
  400: "The server did not accept the request for this list.",
  401: "Your session has expired or you are not signed in. Sign in and try again.",
  403: "You do not have permission to list these packages.",
  404: "This list was not found on the server.",
  408: "The server took too long to answer. Try again.",
  429: "The server is busy. Try again in a moment.",
  501: "This list is not available on this server.",
  503: "The service is unavailable right now. Try again later.",
  504: "The server took too long to answer. Try again.",
};
const BY_CODE = {
  INVALID_PAGE_TOKEN: "This link to a page of the list is not valid any more. Start from the beginning.",
  FILTER_MISMATCH: "This link was made for other filters. Start from the beginning.",
  ABORTED: "Loading was cancelled.",
};

// A getter, not a field: `message` stays the developer's text (what failed, where, the status).
Object.defineProperty(PagerError.prototype, "userMessage", {
  get() {
    const status = this.details.status;
    if (this.code === "SOURCE_FAILED" && typeof status === "number") {
      return BY_STATUS[status] ?? (status >= 500 ? "The server had a problem. Try again later." : BY_STATUS[400]);
    }
    return BY_CODE[this.code] ?? "The list could not be loaded. Try again, or start from the beginning.";
  },
});
// The shipped JS is minified (scripts/build.sh), which renames classes: keep this one's name.
Object.defineProperty(PagerError, "name", { value: "PagerError" });

function makeError(code, message, details) {
  return new PagerError(code, message, details);
}

export { PagerError, makeError };
