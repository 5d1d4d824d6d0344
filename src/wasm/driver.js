// `pager.nextPage(fetchChunk, { signal, retry, prefetch })`, in JS: the asynchronous loop that awaits the
// caller's promises and calls the pager's own sans-IO methods (docs/DESIGN.md, "What runs in
// JS, and why"). It acts on what the core says it did with each answer (`feed`: accepted, stale,
// unreachable) and each failure (`fail`: recovered, retry, unreachable, failed) and decides
// nothing of its own about a failure: which failures recover, which are transient, how long to
// wait before a retry (`Pager.__retryDelay`: the core's `RetryPolicy`) and when to give up are
// the core's. What is JS's: waiting (a timer racing the abort), the one-call-at-a-time queue, the
// errors it rejects with, and the clock of the core's wait before an unreachable source is asked again.
// Prefetch: after a page, it sends the requests the core picks (`prefetchRequests`) and keeps
// them for the pager's next call, which takes them as its own requests in flight.
// Never throws synchronously. Keep the import lines and the export line as they are:
// scripts/package.mjs rewrites them to CommonJS for the nodejs build.

import { makeError } from "./errors.js";
import { isObject } from "./json.js";
import { field, failureOf, readRetry, readPrefetch, readSignal, sourceFailedError, isPassThrough } from "./inputs.js";
import { takeCaller, whileFetching, onFree, takeAhead, park, abortAll } from "./guard.js";

/**
 * Pager → Map(source index → { since, at, cause }): when each unreachable source was set aside,
 * when nextPage asks it again (`since` plus the core's wait, the page's
 * `unreachable[i].retryAfterMs`: 5 s doubling with each set-aside in a row, at most 5 minutes;
 * known once a page names it) and the failure that set it aside.
 */
const backoffs = new WeakMap();

const ignore = () => {};

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
  let policy, prefetch;
  try {
    if (typeof fetchChunk !== "function") {
      throw makeError("INVALID_OPTIONS", "fetchChunk must be a function", { field: "fetchChunk" });
    }
    policy = readRetry(isObject(options) ? field(options, "retry") : undefined);
    prefetch = readPrefetch(isObject(options) ? field(options, "prefetch") : undefined);
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
  const start = (request, init = fetchOptions) =>
    whileFetching(owner, () => {
      const promise = new Promise((resolve) => resolve(Reflect.apply(fetchChunk, undefined, [request, init])));
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
  const sourceFailed = (index, failure, answer) => sourceFailedError(labels[index] ?? "", failure, answer);

  // Each unreachable source's backoff, kept with the caller's Pager (the handle is this call's).
  const key = owner ?? pager;
  const retry = backoffs.get(key) ?? new Map();
  backoffs.set(key, retry);
  // Set aside by the core: the page goes on from the other sources and names it. Asked again
  // once the core's wait has passed.
  const setAside = (index, cause) => {
    retry.set(index, { since: Date.now(), cause });
  };
  // Transient failures of each source retried in this call (the core's `retry` outcomes).
  const attempts = new Map();
  // The first error of the round being settled; the requests sent ahead that this call took and
  // has not settled yet (aborted when it ends without them: an abort, a free).
  let firstError, taken = [];
  // Hands the core an answer or a failure (`act`), and returns its outcome; `undefined` when the
  // core threw (the request is cleared, so the next call asks again) or said `"stale"` (answered
  // or failed by someone else): either is the round's error, unless one came before.
  const settle = (id, act) => {
    let outcome;
    try {
      outcome = act();
    } catch (e) {
      clear(id);
      firstError ??= e;
      return;
    }
    if (outcome !== "stale") return outcome;
    firstError ??= outside(id);
  };
  const Pager = pager.constructor;

  async function run() {
    // Start once the previous calls have settled (in a microtask when there are none), or stop
    // waiting for them at once when this call is aborted or the pager freed.
    await (previous && Promise.race([previous, ...stops]));
    // The requests the last call sent ahead: this call's own now (awaited, not sent again).
    let early = takeAhead(owner);
    taken = early;
    if (freedNow) throw freedError();
    if (isAborted()) {
      for (const [id] of early) cancel(id);
      throw aborted();
    }
    // Unreachable sources whose backoff has passed are asked again (their items come back).
    const now = Date.now();
    for (const [index, b] of retry) if (now >= b.at) pager.retryUnreachable(index);
    for (;;) {
      // Also after a round: the pager may have been freed while its answers were fed (by a getter).
      if (freedNow) throw freedError();
      const page = pager.takePage();
      if (page !== null) {
        // Requests sent ahead that this page did not need stay in flight for the next call; the
        // requests the next page needs first go ahead now, within the budget (the core's pick).
        taken = [];
        if (owner && prefetch) {
          const fresh = Array.from(pager.prefetchRequests(prefetch[0], prefetch[1]), (r) => {
            const controller = new AbortController();
            return [r.requestId, r.sourceIndex, start(r, { signal: controller.signal }), controller];
          });
          park(owner, early.concat(fresh));
        } else park(owner, early);
        // Each source set aside carries the failure that did it (the transport's own error).
        // Each is asked again once the core's wait has passed.
        for (const u of page.unreachable) {
          const b = retry.get(u.sourceIndex);
          if (!b) continue;
          b.at = b.since + u.retryAfterMs;
          if (b.cause !== undefined) u.error = b.cause;
        }
        return page;
      }
      const requests = pager.nextRequests();
      if (requests.length === 0 && early.length === 0) {
        // nextPage settles every request of a round and calls run one at a time, so only
        // requests taken with nextRequests() and never answered can leave it nothing to ask.
        throw makeError(
          "NO_PROGRESS",
          "the pager has no page and nothing to ask: requests from nextRequests() are still unanswered",
          {},
        );
      }
      const pending = early.concat(requests.map((r) => [r.requestId, r.sourceIndex, start(r)]));
      early = [];
      firstError = undefined;
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
          for (const [rest, , , controller] of pending.slice(k)) {
            cancel(rest);
            controller?.abort();
          }
          throw aborted();
        }
        if (ok) {
          const outcome = settle(id, () => pager.feed(id, answer));
          if (outcome === undefined) continue;
          attempts.delete(index);
          if (outcome === "unreachable") setAside(index, undefined);
          else retry.delete(index);
          continue;
        }
        // Read once: a getter may answer differently each time, and the core and this loop must
        // agree on the failure. A failure the pager cannot read (a status that is no HTTP status, a
        // lone surrogate in its reason or continue) leaves the request open: `settle` clears it.
        let failure;
        const outcome = settle(id, () => pager.fail(id, (failure = failureOf(answer, labels[index] ?? ""))));
        if (outcome === "unreachable") {
          setAside(index, answer);
        } else if (outcome === "retry" || outcome === "failed") {
          if (isPassThrough(answer)) {
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
    abortAll(taken);
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
