// The guard around wasm-bindgen's `Pager` class (installed once per module, by the first Pager
// made; src/wasm/driver.rs): a freed pager throws `PAGER_FREED`, `free()` may be called twice, a
// Proxy's `free()` frees the pager itself, a copy of a pager holds no pointer, a `nextPage`
// running when its pager is freed rejects at once, and a `nextPage` from inside its own
// pager's fetchChunk rejects with `REENTRANT_CALL`. Also the state the drive loop (driver.js)
// shares with it: which pager called `nextPage` (`takeCaller`), which pager's fetchChunk runs
// (`whileFetching`), the hooks to run when a pager is freed (`onFree`), and the requests a
// pager's last call sent ahead (`prefetch`), kept for its next call (`park`, `takeAhead`).
// Keep the import lines and the export line as they are: scripts/package.mjs rewrites them to
// CommonJS for the nodejs build.

import { makeError } from "./errors.js";
import { isObject } from "./json.js";
import { field } from "./inputs.js";

/** Pager → the hooks of the nextPage calls running on it, called when it is freed. */
const freeHooks = new WeakMap();
/** The Pager whose nextPage() is calling drive() right now (set by the guard around nextPage). */
let caller;
/** The Pager whose fetchChunk is running right now (synchronously), if any. */
let fetching;

/** Whether `pager` is a Pager that has not been freed (wasm-bindgen zeroes the pointer on free). */
function live(pager) {
  return isObject(pager) && typeof pager.__wbg_ptr === "number" && pager.__wbg_ptr !== 0;
}

/** wasm pointer → a WeakRef of the Pager object that holds it (the one wasm-bindgen registered). */
const owners = new Map();

/**
 * The Pager object itself when `pager` is a Proxy of it (Vue's `reactive`, MobX): freed through a
 * Proxy, wasm-bindgen cannot unregister the object from its FinalizationRegistry, and when the
 * object is collected it frees the pointer a second time, corrupting another pager that uses that
 * memory since. The pointer, a number, reads through any Proxy.
 */
function selfOf(pager) {
  return (live(pager) && owners.get(pager.__wbg_ptr)?.deref()) || pager;
}

/**
 * Wraps the methods of the Pager class (the prototype of `probe`, which is freed) so that a freed
 * pager throws `PAGER_FREED` instead of wasm-bindgen's "null pointer passed to rust", `free()` and
 * `[Symbol.dispose]()` may be called again, a nextPage running when its pager is freed rejects with
 * `PAGER_FREED` at once, and a nextPage made from inside its own pager's fetchChunk (it would wait
 * for itself) rejects with `REENTRANT_CALL`. Called once per module, by the first Pager made.
 */
function guardPager(probe) {
  const proto = Object.getPrototypeOf(probe);
  probe.free();
  const freed = (method) =>
    makeError(
      "PAGER_FREED",
      `Pager.${method}: the pager was freed`,
      { method },
    );
  for (const name of Object.getOwnPropertyNames(proto)) {
    const d = Object.getOwnPropertyDescriptor(proto, name);
    const f = d.value;
    if (name === "constructor" || name.startsWith("__")) continue;
    if (name === "free") {
      d.value = function free() {
        const self = selfOf(this);
        if (!live(self)) return; // freed already: nothing to do
        owners.delete(self.__wbg_ptr);
        const hooks = freeHooks.get(self);
        try {
          f.call(self);
        } catch (e) {
          // Freed from inside one of its own calls (a getter of an item being fed): wasm-bindgen
          // has let go of it already (the pointer is 0), and frees it when that call returns, but
          // says so by throwing.
          if (live(self)) throw e;
        }
        freeHooks.delete(self);
        for (const hook of hooks ?? []) hook();
      };
    } else if (name === "nextPage") {
      d.value = function nextPage(fetchChunk, options) {
        const self = selfOf(this);
        if (!live(self)) return Promise.reject(freed(name));
        if (fetching === self) {
          return Promise.reject(makeError("REENTRANT_CALL", "nextPage() from inside its own fetchChunk would wait for itself", {}));
        }
        // The caller's getter of `signal` runs now, before the call takes its place in line: a
        // nextPage made from inside it is then a call before this one, not one beside it.
        const signal = isObject(options) ? field(options, "signal") : undefined;
        const retry = isObject(options) ? field(options, "retry") : undefined;
        const prefetch = isObject(options) ? field(options, "prefetch") : undefined;
        caller = self;
        try {
          // Options that are no object go as they are: the driver rejects them (INVALID_OPTIONS).
          return f.call(self, fetchChunk, options == null || isObject(options) ? { signal, retry, prefetch } : options);
        } finally {
          caller = undefined;
        }
      };
    } else if (typeof f === "function") {
      d.value = function (...args) {
        if (!live(this)) throw freed(name);
        return f.apply(this, args);
      };
    } else if (typeof d.get === "function") {
      const get = d.get;
      d.get = function () {
        if (!live(this)) throw freed(name);
        return get.call(this);
      };
    } else {
      continue;
    }
    Object.defineProperty(proto, name, d);
  }
  if (typeof Symbol.dispose === "symbol") proto[Symbol.dispose] = proto.free;
  // wasm-bindgen keeps the wasm pointer in an own, enumerable `__wbg_ptr`, so a copy of a Pager
  // (`Object.assign(Object.create(proto), pager)`, which is how lodash's cloneDeep copies class
  // instances) got the pointer too: it read the pager's memory after the pager was freed (garbage),
  // and freed it a second time. Made a non-enumerable accessor when first set (this setter runs for
  // the first assignment, in the constructor or `__wrap`), a copy has no pointer: it is not a live
  // pager. A Proxy of a pager (Vue's `reactive`) still reads and sets the pointer of its target,
  // and `Object.freeze` cannot keep `free()` from zeroing it (a frozen pager could not be freed).
  Object.defineProperty(proto, "__wbg_ptr", {
    get: () => 0,
    set(ptr) {
      Object.defineProperty(this, "__wbg_ptr", { get: () => ptr, set: (p) => (ptr = p), configurable: true });
      if (ptr && typeof WeakRef === "function") owners.set(ptr, new WeakRef(this));
    },
  });
}


/** The Pager whose nextPage() is calling drive() right now, once (the next call finds none). */
function takeCaller() {
  const c = caller;
  caller = undefined;
  return c;
}

/** Runs `f()` as `owner`'s fetchChunk: a nextPage of `owner` from inside it is `REENTRANT_CALL`. */
function whileFetching(owner, f) {
  const outer = fetching;
  fetching = owner;
  try {
    return f();
  } finally {
    fetching = outer;
  }
}

/** Calls `hook` once when `owner` is freed; returns the function that removes it. */
function onFree(owner, hook) {
  const hooks = freeHooks.get(owner) ?? new Set();
  hooks.add(hook);
  freeHooks.set(owner, hooks);
  return () => freeHooks.get(owner)?.delete(hook);
}

/**
 * Pager → the requests sent ahead after its last page (`prefetch`), each
 * `[requestId, sourceIndex, promise, controller]`, and the hook that aborts them when the pager
 * is freed: the next call takes them as requests of its own.
 */
const ahead = new WeakMap();

/** Aborts the fetches of `entries` (requests sent ahead): their answers are of no use now. */
const abortAll = (entries) => {
  for (const e of entries) e[3]?.abort();
};

/** Takes the requests `owner` sent ahead (none: `[]`); a free no longer aborts them. */
function takeAhead(owner) {
  const parked = owner && ahead.get(owner);
  if (!parked) return [];
  ahead.delete(owner);
  parked.unhook();
  return parked.entries;
}

/** Keeps `entries` (requests in flight) for `owner`'s next call; a free aborts them. */
function park(owner, entries) {
  if (entries.length === 0) return;
  ahead.set(owner, { entries, unhook: onFree(owner, () => abortAll(entries)) });
}

export { guardPager, takeCaller, whileFetching, onFree, takeAhead, park, abortAll };
