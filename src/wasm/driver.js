// `pager.nextPage(fetchChunk, { signal, retry })`, in JS: the asynchronous loop that awaits the
// caller's promises and calls the pager's own sans-IO methods (docs/DESIGN.md, "What runs in
// JS, and why"). It acts on what the core says it did with each answer (`feed`: accepted, stale,
// unreachable) and each failure (`fail`: recovered, retry, unreachable, failed) and decides
// nothing of its own about a failure: which failures recover, which are transient, how long to
// wait before a retry (`Pager.__retryDelay`: the core's `RetryPolicy`) and when to give up are
// the core's. What is JS's: waiting (a timer racing the abort), the one-call-at-a-time queue, the
// errors it rejects with, and when an unreachable source is asked again across calls.
// Never throws synchronously. Keep the import lines and the export line as they are:
// scripts/package.mjs rewrites them to CommonJS for the nodejs build.

import { makeError } from "./errors.js";
import { isObject } from "./json.js";
import { field, failureOf, causeText, readRetry, readSignal } from "./inputs.js";
import { takeCaller, whileFetching, onFree } from "./guard.js";

/**
 * The automatic retry of an unreachable source: a nextPage call asks it again once this long has
 * passed since it was set aside, 5 s the first time, doubling each time it is set aside again
 * without having answered in between, at most 5 minutes.
 */
const RETRY_FIRST_MS = 5000;
const RETRY_MAX_MS = 300000;

/** Pager → Map(source index → { at, delay, cause }): when nextPage retries each unreachable source. */
const backoffs = new WeakMap();

const ignore = () => {};

/** Codes a rejected fetchChunk passes through as they are, not as the source's SOURCE_FAILED. */
const PASS_THROUGH = ["REENTRANT_CALL", "PAGER_FREED"];

/** The brand every PagerError carries (errors.js), read safely: any entry's copy of the class. */
const PAGER_ERROR = Symbol.for("kubeapps-pager.PagerError");

/** Whether `e` is a PagerError of one of `codes`. */
const isPagerError = (e, codes) => field(e, PAGER_ERROR) === true && codes.includes(field(e, "code"));

/**
 * Pager → a promise (never rejected) that settles once its last nextPage call and every call
 * before it have settled: the next call starts then. A call aborted (or freed) while it waits
 * settles at once, but the calls after it still wait for the ones before it.
 */
const lastCall = new WeakMap();

/**
 * Drives `pager` (a handle sharing the caller's pager) until a page is ready: nextRequests,
 * `fetchChunk` (a function, else `INVALID_OPTIONS`) for each request (concurrently), feed or fail
 * each answer in request order, acting on the core's outcome; a round with transient failures
 * (`"retry"`) waits the core's delay, then asks again (`options.retry`: `false` or
 * `{ retries?, baseDelayMs?, maxDelayMs? }`, read by `readRetry`). `labels[i]` is source i's
 * label. Starts once the caller's previous call, if any, has settled. Every request of a round is
 * settled (fed, failed or, after an abort, cleared) before the promise settles; the handle is
 * freed then.
 */
function drive(pager, fetchChunk, options, labels) {
  // The caller's own Pager: when it is freed, this call rejects with PAGER_FREED at once.
  const owner = takeCaller();
  let policy;
  try {
    if (typeof fetchChunk !== "function") {
      throw makeError("INVALID_OPTIONS", "fetchChunk must be a function", { field: "fetchChunk" });
    }
    policy = readRetry(isObject(options) ? field(options, "retry") : undefined);
    readSignal(options);
  } catch (e) {
    pager.free();
    return Promise.reject(e);
  }
  // One call at a time: a second call waits for the first to settle (React StrictMode and eager
  // scroll handlers do call twice), then asks for the page after it.
  const previous = owner && lastCall.get(owner);
  let freedNow = false;
  let unhook;
  const freedStop =
    owner &&
    new Promise((resolve) => {
      unhook = onFree(owner, () => {
        freedNow = true;
        resolve(null);
      });
    });
  const freedError = () =>
    makeError("PAGER_FREED", "Pager.nextPage: the pager was freed while it ran", { method: "nextPage" });
  const candidate = isObject(options) ? field(options, "signal") : undefined;
  const signal = isObject(candidate) && field(candidate, "aborted") !== undefined ? candidate : undefined;
  // Read through `field`: a signal-like object's getters may throw.
  const isAborted = () => signal !== undefined && !!field(signal, "aborted");
  let listener;
  const abort =
    signal &&
    new Promise((resolve) => {
      if (isAborted()) return resolve(null);
      listener = () => resolve(null);
      try {
        signal.addEventListener("abort", listener);
      } catch {
        listener = undefined;
      }
    });
  const stops = [abort, freedStop].filter(Boolean);
  const fetchOptions = {};
  if (signal) fetchOptions.signal = signal;
  const aborted = () => {
    const details = {};
    details.reason = field(signal, "reason");
    return makeError("ABORTED", "nextPage() was aborted; the pager is where it was", details);
  };
  const clear = (id) => pager.fail(id, { status: 0 });
  // After an abort: the caller gave up on the request, no failure of its source (nothing counted).
  const cancel = (id) => pager.cancel(id);
  // A synchronous throw becomes a rejected promise. The promise is marked handled: after an abort
  // or a failure nobody awaits it, and its late rejection must not surface as unhandled.
  // A promise of our own (a fresh one, not fetchChunk's: its own `then` or `catch` may throw).
  const start = (request) =>
    whileFetching(owner, () => {
      const promise = new Promise((resolve) => resolve(Reflect.apply(fetchChunk, undefined, [request, fetchOptions])));
      promise.catch(ignore);
      return promise;
    });
  // Waits `ms` (the core's retry delay), or until the call is aborted or the pager freed.
  const sleep = async (ms) => {
    let timer;
    try {
      await Promise.race([new Promise((resolve) => (timer = setTimeout(resolve, ms))), ...stops]);
    } finally {
      clearTimeout(timer);
    }
  };
  // A request of this call answered or failed by someone else (from inside fetchChunk, say): going
  // on would ask for it again and again, so stop with an error instead.
  const outside = (id) =>
    makeError(
      "REENTRANT_CALL",
      `request ${id} was answered or failed outside nextPage (by fetchChunk?); drive a pager one way at a time`,
      {},
    );
  const sourceFailed = (index, { status, reason }, answer) => {
    const label = labels[index] ?? "";
    // A built-in fetcher's own SOURCE_FAILED: its details (url, status, body, connectCode…) and
    // its cause (the Response, the network error, the ConnectError) become this error's, so the
    // transport's own error is one step away (`error.cause`), not two.
    const own = field(answer, PAGER_ERROR) === true && field(answer, "code") === "SOURCE_FAILED";
    const details = own ? { ...field(answer, "details") } : {};
    const cause = own ? details.cause : answer;
    details.source = label;
    details.status = status;
    if (typeof reason === "string") details.reason = reason;
    if (cause === undefined) delete details.cause;
    else details.cause = cause;
    const why = own ? field(answer, "message") : causeText(cause);
    const message = `source ${label} failed (status ${status}${why ? `: ${why}` : ""}); the pager is unchanged, call again to retry`;
    return makeError("SOURCE_FAILED", message, details);
  };

  // Each unreachable source's backoff, kept with the caller's Pager (the handle is this call's).
  const key = owner ?? pager;
  const retry = backoffs.get(key) ?? new Map();
  backoffs.set(key, retry);
  // Set aside by the core: the page goes on from the other sources and names it. Retried later.
  const setAside = (index, cause) => {
    const delay = Math.min(2 * (retry.get(index)?.delay ?? RETRY_FIRST_MS / 2), RETRY_MAX_MS);
    retry.set(index, { at: Date.now() + delay, delay, cause });
  };
  // Transient failures of each source retried in this call (the core's `retry` outcomes).
  const attempts = new Map();
  const Pager = pager.constructor;

  async function run() {
    // Start once the previous calls have settled (in a microtask when there are none), or stop
    // waiting for them at once when this call is aborted or the pager freed.
    await (previous && Promise.race([previous, ...stops]));
    if (freedNow) throw freedError();
    if (isAborted()) throw aborted();
    // Unreachable sources whose backoff has passed are asked again (their items come back).
    const now = Date.now();
    for (const [index, b] of retry) if (now >= b.at) pager.retryUnreachable(index);
    for (;;) {
      // Also after a round: the pager may have been freed while its answers were fed (by a getter).
      if (freedNow) throw freedError();
      const page = pager.takePage();
      if (page !== null) {
        // Each source set aside carries the failure that did it (the transport's own error).
        for (const u of page.unreachable) {
          const cause = retry.get(u.sourceIndex)?.cause;
          if (cause !== undefined) u.error = cause;
        }
        return page;
      }
      const requests = pager.nextRequests();
      if (requests.length === 0) {
        // nextPage settles every request of a round and calls run one at a time, so only
        // requests taken with nextRequests() and never answered can leave it nothing to ask.
        throw makeError(
          "NO_PROGRESS",
          "the pager has no page and nothing to ask: requests from nextRequests() are still unanswered",
          {},
        );
      }
      const pending = requests.map((r) => [r.requestId, r.sourceIndex, start(r)]);
      let firstError;
      // The longest retry delay the core asked for in this round (-1: none).
      let wait = -1;
      for (let k = 0; k < pending.length; k++) {
        const [id, index, promise] = pending[k];
        let ok = true;
        let answer;
        try {
          answer = await (stops.length > 0 ? Promise.race([promise, ...stops]) : promise);
        } catch (e) {
          ok = false;
          answer = e;
        }
        if (freedNow) throw freedError();
        if (isAborted()) {
          // Late answers to these requests will be ignored as stale.
          for (const [rest] of pending.slice(k)) cancel(rest);
          throw aborted();
        }
        if (ok) {
          let outcome;
          try {
            outcome = pager.feed(id, answer);
          } catch (e) {
            // The core left its state as it was; clear the request so the next call asks again.
            clear(id);
            firstError ??= e;
            continue;
          }
          if (outcome === "stale") {
            firstError ??= outside(id);
            continue;
          }
          attempts.delete(index);
          if (outcome === "unreachable") setAside(index, undefined);
          else retry.delete(index);
          continue;
        }
        // Read once: a getter may answer differently each time, and the core and this loop must
        // agree on the failure.
        let failure;
        let outcome;
        try {
          failure = failureOf(answer, labels[index] ?? "");
          outcome = pager.fail(id, failure);
        } catch (e) {
          // A failure the pager cannot read (a status that is no HTTP status, a lone surrogate in
          // its reason or continue): the request is still open; clear it, or every later call
          // would find it unanswered.
          clear(id);
          firstError ??= e;
          continue;
        }
        if (outcome === "stale") {
          firstError ??= outside(id);
        } else if (outcome === "unreachable") {
          setAside(index, answer);
        } else if (outcome === "retry" || outcome === "failed") {
          if (isPagerError(answer, PASS_THROUGH)) {
            // Not the source's failure but the caller's (e.g. nextPage awaited inside fetchChunk).
            firstError ??= answer;
            continue;
          }
          const n = (attempts.get(index) ?? 0) + 1;
          attempts.set(index, n);
          const [retries, baseDelayMs, maxDelayMs] = policy;
          const ms = outcome === "retry" ? Pager.__retryDelay(n, failure.retryAfterMs, retries, baseDelayMs, maxDelayMs, Math.random()) : undefined;
          if (ms === undefined) firstError ??= sourceFailed(index, failure, answer);
          else wait = Math.max(wait, ms);
        }
        // "recovered": the core goes on from another position; nothing to do.
      }
      if (firstError !== undefined) throw firstError;
      if (wait >= 0) {
        await sleep(wait);
        if (freedNow) throw freedError();
        if (isAborted()) throw aborted();
      }
    }
  }

  const promise = run().finally(() => {
    unhook?.();
    try {
      if (listener) signal.removeEventListener("abort", listener);
    } catch {
      // A signal-like object without removeEventListener: nothing to remove.
    }
    pager.free();
  });
  // Resolves with undefined (not this call's page: no chain of pages kept alive).
  if (owner) lastCall.set(owner, promise.catch(ignore).then(() => previous));
  return promise;
}

export { drive };
