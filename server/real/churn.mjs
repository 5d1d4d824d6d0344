// Background churn of the real-service mode: random real writes (SQL INSERT/DELETE/UPDATE,
// repository resyncs, etcd puts and deletes, chart-cache changes) at a rate, or `steps` of
// them at once. Writes run one at a time (each awaits its store). A resync drawn for fluxv2 or
// kapp_controller is an update there (only helm repositories are synced into SQL).
import { StoreError } from "../store.mjs";
import { PLUGINS } from "../summary.mjs";
import { pluginName } from "../app.mjs";
import { pick } from "../rng.mjs";

const KINDS = ["insert", "delete", "update", "resync"];

function weight(v, name, dflt) {
  if (v === undefined) return dflt;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "number" && Number.isFinite(v) && v >= 0) return v;
  throw new StoreError(400, "BadRequest", `${name} must be a boolean or a non-negative number (a relative weight)`);
}

/**
 * RealChurn: `configure({ratePerSecond, insert, delete, update, resync, plugins, steps})`
 * (weights, default 1 each; resync, a helm repository's charts deleted and inserted again in
 * one transaction, 0.1);
 * resolves once the `steps` writes are applied; `ratePerSecond` > 0 keeps writing on a timer.
 */
export class RealChurn {
  constructor(app) {
    this.app = app;
    this.timer = null;
    this.chain = Promise.resolve();
    this.config = { ratePerSecond: 0, insert: 1, delete: 1, update: 1, resync: 0.1, plugins: [...PLUGINS] };
    this.applied = { insert: 0, delete: 0, update: 0, resync: 0 };
    this.errors = 0;
    app.onReset.push(() => {
      this.stop();
      this.applied = { insert: 0, delete: 0, update: 0, resync: 0 };
    });
  }

  async configure(body = {}) {
    const rate = body.ratePerSecond ?? 0;
    if (typeof rate !== "number" || !Number.isFinite(rate) || rate < 0 || rate > 1000) {
      throw new StoreError(400, "BadRequest", "ratePerSecond must be a number from 0 to 1000");
    }
    const plugins = (body.plugins ?? PLUGINS).map((p) => {
      const full = pluginName(p);
      if (!full) throw new StoreError(400, "BadRequest", `unknown plugin ${JSON.stringify(p)}`);
      return full;
    });
    const w = {
      insert: weight(body.insert, "insert", 1), delete: weight(body.delete, "delete", 1),
      update: weight(body.update, "update", 1), resync: weight(body.resync, "resync", 0.1),
    };
    const steps = body.steps ?? 0;
    if (!Number.isSafeInteger(steps) || steps < 0 || steps > 10_000) throw new StoreError(400, "BadRequest", "steps must be an integer from 0 to 10000");
    if ((rate > 0 || steps > 0) && KINDS.every((k) => w[k] === 0)) throw new StoreError(400, "BadRequest", "insert, delete, update and resync are all 0");
    this.stop();
    this.config = { ratePerSecond: rate, ...w, plugins };
    await this.step(steps);
    if (rate > 0) {
      const period = Math.max(20, Math.floor(1000 / rate));
      let due = 0;
      this.timer = setInterval(() => {
        due += (period / 1000) * rate;
        const n = Math.floor(due);
        due -= n;
        if (n > 0) this.step(n).catch(() => {});
      }, period);
      this.timer.unref?.();
    }
    return this.status();
  }

  status() {
    return { ...this.config, running: this.timer !== null, applied: { ...this.applied }, errors: this.errors, revision: this.app.revision };
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Applies `n` random writes (after those already queued); resolves to the counts applied. */
  step(n) {
    const run = async () => {
      const c = this.config;
      const total = KINDS.reduce((a, k) => a + c[k], 0);
      for (let i = 0; i < n && total > 0; i++) {
        const plugin = pick(this.app.rand, c.plugins);
        let x = this.app.rand() * total;
        let kind = KINDS.find((k) => (x -= c[k]) < 0) ?? "update";
        if (kind === "resync" && plugin !== "helm.packages") kind = "update";
        try {
          if (await this.app.write(plugin, kind)) this.applied[kind] += 1;
        } catch {
          this.errors += 1; // a store that is down (PostgreSQL restarting): the write is lost, as a syncer's would be
        }
      }
      return { ...this.applied };
    };
    this.chain = this.chain.then(run, run);
    return this.chain;
  }
}
