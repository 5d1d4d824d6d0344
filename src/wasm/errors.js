// PagerError: the one error class kubeapps-pager throws. Lives in JS so that errors are real
// `Error`s (stack, `instanceof Error`) and `instanceof PagerError` works; the Rust boundary
// builds them through `makeError`. Shipped as ESM, and as CommonJS for the nodejs build
// (scripts/package.mjs rewrites the export line below; keep it the file's last line).

/** Thrown by every kubeapps-pager function. `code` is stable; `details` holds structured fields. */
class PagerError extends Error {
  constructor(code, message, details) {
    super(message);
    this.name = "PagerError";
    this.code = code;
    this.details = details ?? {};
  }
}

function makeError(code, message, details) {
  return new PagerError(code, message, details);
}

/** `makeError` as a value, for driver.js (snippets cannot import each other in the CommonJS build). */
function errorMaker() {
  return makeError;
}

export { PagerError, makeError, errorMaker };
