// Background churn: seeded inserts, deletes and updates at a given rate, so pages are read
// while the catalog changes. Updates keep name and displayName (a version bump).
import { mulberry32, randInt, pick } from "./rng.mjs";
import { newRecordFor } from "./catalog/generate.mjs";
import { StoreError } from "./store.mjs";
import { PLUGINS } from "./summary.mjs";
import { pluginName } from "./app.mjs";

function weight(v, name) {
  if (v === undefined) return 1;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "number" && Number.isFinite(v) && v >= 0) return v;
  throw new StoreError(400, "BadRequest", `${name} must be a boolean or a non-negative number (a relative weight)`);
}

function bump(v = "0.0.0") {
  const m = /^(v?)(\d+)\.(\d+)\.(\d+)(.*)$/.exec(v);
  return m ? `${m[1]}${m[2]}.${m[3]}.${Number(m[4]) + 1}` : `${v}-1`;
}

/**
 * Churn applies random writes to the store: `configure({ratePerSecond, insert, delete,
 * update, plugins, steps})` where insert/delete/update are relative weights (true = 1,
 * false = 0; default 1 each), `plugins` limits the plugins touched, `steps` applies that
 * many writes at once (deterministic, for tests) and `ratePerSecond` > 0 keeps going on
 * a timer (0 stops it).
 */
export class Churn {
  constructor(app) {
    this.app = app;
    this.timer = null;
    this.#init();
    app.onReset.push(() => {
      this.stop();
      this.#init();
    });
  }

  // The state at start and after a reset: same seed, same writes.
  #init() {
    this.rand = mulberry32(this.app.seed ^ 0xc0ffee);
    this.config = { ratePerSecond: 0, insert: 1, delete: 1, update: 1, plugins: [...PLUGINS] };
    this.applied = { insert: 0, delete: 0, update: 0 };
  }

  configure(body = {}) {
    const rate = body.ratePerSecond ?? 0;
    if (typeof rate !== "number" || !Number.isFinite(rate) || rate < 0 || rate > 10_000) {
      throw new StoreError(400, "BadRequest", "ratePerSecond must be a number from 0 to 10000");
    }
    const plugins = (body.plugins ?? PLUGINS).map((p) => {
      const full = pluginName(p);
      if (!full) throw new StoreError(400, "BadRequest", `unknown plugin ${JSON.stringify(p)}`);
      return full;
    });
    const w = { insert: weight(body.insert, "insert"), delete: weight(body.delete, "delete"), update: weight(body.update, "update") };
    const steps = body.steps ?? 0;
    if (!Number.isSafeInteger(steps) || steps < 0 || steps > 100_000) {
      throw new StoreError(400, "BadRequest", "steps must be an integer from 0 to 100000");
    }
    if ((rate > 0 || steps > 0) && w.insert + w.delete + w.update === 0) {
      throw new StoreError(400, "BadRequest", "insert, delete and update are all 0");
    }
    this.config = { ratePerSecond: rate, ...w, plugins };
    this.step(steps);
    this.stop();
    if (rate > 0) this.#start();
    return this.status();
  }

  status() {
    return { ...this.config, running: this.timer !== null, applied: { ...this.applied }, revision: this.app.store.revision };
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  #start() {
    const period = Math.max(20, Math.floor(1000 / this.config.ratePerSecond));
    let last = this.app.clock();
    let due = 0;
    this.timer = setInterval(() => {
      const now = this.app.clock();
      due += ((now - last) / 1000) * this.config.ratePerSecond;
      last = now;
      const n = Math.floor(due);
      due -= n;
      this.step(n);
    }, period);
    this.timer.unref?.();
  }

  /** Applies `n` random writes now; returns how many of each were applied. */
  step(n) {
    const { insert, delete: del, update, plugins } = this.config;
    const total = insert + del + update;
    for (let i = 0; i < n && total > 0; i++) {
      const plugin = pick(this.rand, plugins);
      const x = this.rand() * total;
      const kind = x < insert ? "insert" : x < insert + del ? "delete" : "update";
      if (this.#one(plugin, kind)) this.applied[kind] += 1;
    }
    return { ...this.applied };
  }

  #one(plugin, kind) {
    const store = this.app.store;
    const live = store.liveSorted(plugin);
    if (kind === "insert") {
      const namespace = live.length ? live[randInt(this.rand, live.length)].namespace : "kubeapps";
      const taken = new Set(store.liveSorted(plugin, namespace).map((r) => r.name));
      const rec = newRecordFor(plugin, namespace, this.rand, taken);
      if (store.get(plugin, namespace, rec.identifier)) return false;
      store.create(plugin, rec);
      return true;
    }
    if (live.length === 0) return false;
    const victim = live[randInt(this.rand, live.length)];
    if (kind === "delete") {
      store.delete(plugin, victim.namespace, victim.identifier);
    } else {
      const v = victim.latestVersion ?? { pkgVersion: "0.0.0", appVersion: "" };
      const pkgVersion = bump(v.pkgVersion);
      store.update(plugin, victim.namespace, victim.identifier, {
        latestVersion: { pkgVersion, appVersion: plugin === "kapp_controller.packages" ? pkgVersion : v.appVersion },
      });
    }
    return true;
  }
}
