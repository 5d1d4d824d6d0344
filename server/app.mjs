// The backend's state: the store, each plugin's behaviour, request counters, one-shot
// faults and the seeded randomness of the unordered behaviour.
import { MvccStore, StoreError } from "./store.mjs";
import { PLUGINS } from "./summary.mjs";
import { mulberry32 } from "./rng.mjs";

/** The paging behaviours a plugin can have. */
export const BEHAVIOURS = ["kubernetes", "kubeapps-offset", "unordered"];

/** What each plugin does unless told otherwise. */
export const DEFAULT_BEHAVIOURS = {
  "helm.packages": "kubeapps-offset",
  "fluxv2.packages": "unordered",
  "kapp_controller.packages": "kubernetes",
};

const SHORT = { helm: "helm.packages", fluxv2: "fluxv2.packages", flux: "fluxv2.packages", kapp_controller: "kapp_controller.packages", kapp: "kapp_controller.packages" };

/** The full plugin name for `helm`, `fluxv2`, `kapp_controller` (or a full name); undefined if unknown. */
export function pluginName(s) {
  if (PLUGINS.includes(s)) return s;
  return SHORT[s];
}

/**
 * parseBehaviours reads `helm=kubeapps-offset,fluxv2=unordered,...` into
 * `{pluginName: behaviour}`; throws a RangeError naming the bad part.
 */
export function parseBehaviours(spec) {
  const out = {};
  for (const part of String(spec).split(",").map((s) => s.trim()).filter(Boolean)) {
    const [p, b] = part.split("=").map((s) => s.trim());
    const plugin = pluginName(p);
    if (!plugin) throw new RangeError(`unknown plugin ${JSON.stringify(p)} (helm, fluxv2, kapp_controller)`);
    if (!BEHAVIOURS.includes(b)) throw new RangeError(`unknown behaviour ${JSON.stringify(b)} (${BEHAVIOURS.join(", ")})`);
    out[plugin] = b;
  }
  return out;
}

/**
 * normalizeBehaviours accepts `{helm: "kubernetes", ...}` with short or full plugin names,
 * or a `helm=...,fluxv2=...` string; throws a RangeError on an unknown plugin or behaviour.
 */
export function normalizeBehaviours(behaviours = {}) {
  if (typeof behaviours === "string") return parseBehaviours(behaviours);
  const out = {};
  for (const [p, b] of Object.entries(behaviours)) {
    const plugin = pluginName(p);
    if (!plugin) throw new RangeError(`unknown plugin ${JSON.stringify(p)} (helm, fluxv2, kapp_controller)`);
    if (!BEHAVIOURS.includes(b)) throw new RangeError(`unknown behaviour ${JSON.stringify(b)} (${BEHAVIOURS.join(", ")})`);
    out[plugin] = b;
  }
  return out;
}

function zeroCounters() {
  const plugins = {};
  for (const p of PLUGINS) plugins[p] = { direct: 0, viaCore: 0, kubernetesList: 0 };
  return { core: 0, plugins };
}

/**
 * App holds everything a request can touch. `records` are loaded once; `reset()` brings
 * them back (at fresh revisions: tokens of before the reset answer 410).
 */
export class App {
  constructor({ records, info = {}, seed = 1, behaviours = {}, compactAfterMs = 0, clock = Date.now }) {
    this.records = records;
    this.info = info;
    this.seed = seed;
    this.initialBehaviours = { ...DEFAULT_BEHAVIOURS, ...normalizeBehaviours(behaviours) };
    this.compactAfterMs = compactAfterMs;
    this.clock = clock;
    this.onReset = [];
    this.#build(0);
  }

  #build(startRevision) {
    this.store = new MvccStore({ plugins: PLUGINS, clock: this.clock, compactAfterMs: this.compactAfterMs, startRevision });
    for (const r of this.records) this.store.create(r.plugin, r);
    this.initialRevision = this.store.revision;
    this.behaviours = { ...this.initialBehaviours };
    this.shuffleRand = mulberry32(this.seed ^ 0x5eed);
    this.requests = zeroCounters();
    this.faults = Object.fromEntries(PLUGINS.map((p) => [p, []]));
    /** Plugin → `{kind, message}` while it is down (fails every request for good), else absent. */
    this.down = {};
  }

  /** Restores the loaded catalog, behaviours, counters; the revision keeps growing. */
  reset() {
    const next = this.store.revision + 1;
    this.#build(next);
    for (const f of this.onReset) f();
  }

  /** Sets a plugin's behaviour; throws StoreError 400 on an unknown plugin or behaviour. */
  setBehaviour(plugin, behaviour) {
    const p = pluginName(plugin);
    if (!p) throw new StoreError(400, "BadRequest", `unknown plugin ${JSON.stringify(plugin)}`);
    if (!BEHAVIOURS.includes(behaviour)) {
      throw new StoreError(400, "BadRequest", `unknown behaviour ${JSON.stringify(behaviour)} (${BEHAVIOURS.join(", ")})`);
    }
    this.behaviours[p] = behaviour;
    return p;
  }

  /** Counts one request to `plugin` through `via` (`direct`, `viaCore`, `kubernetesList`). */
  count(plugin, via) {
    this.requests.plugins[plugin][via] += 1;
  }

  /** Adds a one-shot fault: `{kind: "expire", inconsistentToken}` or `{kind: "fail", status}`. */
  addFault(plugin, fault) {
    this.faults[plugin].push(fault);
  }

  /**
   * takeFault removes and returns the first pending fault of `plugin` that applies to a
   * request (`expire` only to requests that carry a continue token), or undefined.
   */
  takeFault(plugin, { continuing }) {
    const list = this.faults[plugin];
    const i = list.findIndex((f) => f.kind === "fail" || (f.kind === "expire" && continuing));
    return i < 0 ? undefined : list.splice(i, 1)[0];
  }
}
