// Promise helpers for the nextPage driver.
// Keep the export line the file's last line (scripts/package.mjs rewrites it for the nodejs build).

/** Marks a promise's rejection as handled: a fetch still pending when nextPage returns (after an
 *  abort or a failure) may reject later, and nobody awaits it any more. Returns the promise. */
function quiet(promise) {
  promise.catch(() => {});
  return promise;
}

export { quiet };
