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
// The shipped JS is minified (scripts/build.sh), which renames classes: keep this one's name.
Object.defineProperty(PagerError, "name", { value: "PagerError" });

function makeError(code, message, details) {
  return new PagerError(code, message, details);
}

export { PagerError, makeError };
