// The "Backend" panel: the demo backend's control endpoints (behaviours, churn, compaction, expiry,
// injected failures, reset), so the pager can be watched coping with a catalog that changes.
import { h, fill, kv, num, postJson, getJson } from "./dom.js";
import { pluginLabel } from "./cards.js";

/**
 * BackendPanel renders the controls into `el`. `onRestart(reason)` runs after a change that needs
 * a new list (a behaviour changes the sources' kind; a reset replaces the data);
 * `onData()` after writes (the facets may have changed).
 */
export class BackendPanel {
  constructor(el, { onRestart, onData }) {
    this.el = el;
    this.onRestart = onRestart;
    this.onData = onData;
    this.config = null;
    this.facts = h("div");
    this.behaviours = h("div", { class: "behaviours" });
    this.result = h("div", { class: "result", role: "status", "aria-live": "polite", dataset: { testid: "backend-result" } });
    this.rate = h("input", { type: "number", id: "churn-rate", min: 0, max: 200, step: 1, value: 5, dataset: { testid: "churn-rate" } });
    this.steps = h("input", { type: "number", id: "churn-steps", min: 1, max: 1000, step: 1, value: 20, dataset: { testid: "churn-steps-input" } });
    this.expirePlugin = h("select", { id: "expire-plugin", "aria-label": "Plugin whose next continue request expires", dataset: { testid: "expire-plugin" } });
    this.downPlugin = h("select", { id: "down-plugin", "aria-label": "Plugin to switch down or back", dataset: { testid: "down-plugin" } });
    this.failPlugin = h("select", { id: "fail-plugin", "aria-label": "Plugin whose next request fails", dataset: { testid: "fail-plugin" } });
    this.startBtn = h("button", { type: "button", class: "btn small", dataset: { testid: "churn-start" }, onclick: () => this.#churn(Number(this.rate.value) || 0) }, "Start");
    this.stopBtn = h("button", { type: "button", class: "btn small", dataset: { testid: "churn-stop" }, onclick: () => this.#churn(0) }, "Stop");
    const btn = (text, testid, onclick, cls = "btn small") => h("button", { type: "button", class: cls, dataset: { testid }, onclick }, text);
    fill(el,
      this.facts,
      h("div", { class: "group" }, h("h3", {}, "Paging behaviour per plugin"),
        h("p", {}, "How each plugin's REST endpoint pages. The list restarts with the matching source kinds."),
        this.behaviours),
      h("div", { class: "group" }, h("h3", {}, "Churn"),
        h("p", {}, "Random inserts, deletes and version bumps while you scroll."),
        h("div", { class: "row" }, h("label", { for: "churn-rate" }, "writes/s"), this.rate, this.startBtn, this.stopBtn),
        h("div", { class: "row" }, btn("Apply", "churn-steps", () => this.#steps(Number(this.steps.value) || 0)), this.steps, h("label", { for: "churn-steps" }, "writes now"))),
      h("div", { class: "group" }, h("h3", {}, "Snapshots and faults"),
        h("p", {}, "Compaction makes older Kubernetes continue tokens answer 410 Expired."),
        h("div", { class: "row" }, btn("Compact now", "compact", () => this.#act("/demo/compact", {}, (r) => `Compacted up to revision ${r.compactedRevision}: older continue tokens now answer 410 Expired.`))),
        h("div", { class: "row" }, btn("Expire", "expire", () => this.#act("/demo/expire", { plugin: this.expirePlugin.value }, (r) => `The next continue request of ${r.plugin} answers 410 Expired.`)), h("span", {}, "next continue of"), this.expirePlugin),
        h("div", { class: "row" }, btn("Fail", "fail", () => this.#act("/demo/fail", { plugin: this.failPlugin.value }, (r) => `The next request of ${r.plugin} fails with 503.`)), h("span", {}, "next request of"), this.failPlugin),
        h("p", {}, "A plugin down fails every request for good (501 Unimplemented, as on a cluster without it): the catalog goes on without it and names it."),
        h("div", { class: "row" },
          btn("Down", "down", () => this.#act("/demo/down", { plugin: this.downPlugin.value, down: true }, (r) => `${r.plugin} now answers ${r.kind} to every request.`)),
          btn("Back", "up", () => this.#act("/demo/down", { plugin: this.downPlugin.value, down: false }, (r) => `${r.plugin} answers again.`)),
          this.downPlugin)),
      h("div", { class: "group" },
        h("div", { class: "row" }, btn("Reset the backend", "reset", () => this.#reset(), "btn small danger"))),
      this.result);
  }

  /** Shows a fresh /demo/config. */
  update(config) {
    this.config = config;
    const churn = config.churn ?? {};
    const applied = churn.applied ?? {};
    fill(this.facts, kv([
      ["revision", num(config.revision), "revision"],
      ["compacted up to", num(config.compactedRevision), "compacted"],
      ["churn", churn.running ? `${churn.ratePerSecond}/s` : "off", "churn-status"],
      ["writes so far", `+${num(applied.insert ?? 0)} −${num(applied.delete ?? 0)} ~${num(applied.update ?? 0)}`],
    ]));
    this.startBtn.disabled = Boolean(churn.running);
    this.stopBtn.disabled = !churn.running;
    const names = config.plugins.map((p) => p.name);
    const keep = (sel, fallback) => {
      const was = sel.value || fallback;
      fill(sel, names.map((n) => h("option", { value: n }, n.replace(/\.packages$/, ""))));
      sel.value = names.includes(was) ? was : names[0];
    };
    keep(this.expirePlugin, config.plugins.find((p) => p.behaviour === "kubernetes")?.name);
    keep(this.failPlugin, names[0]);
    keep(this.downPlugin, names.find((n) => n.startsWith("fluxv2")) ?? names[0]);
    fill(this.behaviours, config.plugins.flatMap((p) => {
      const id = `behaviour-${p.name.replace(/\W/g, "-")}`;
      const sel = h("select", { id, dataset: { testid: `behaviour-${p.name}` } },
        config.behaviours.map((b) => h("option", { value: b }, b)));
      sel.value = p.behaviour;
      sel.addEventListener("change", () => this.#behaviour(p.name, sel.value));
      return [h("label", { for: id }, pluginLabel(p.name)), sel];
    }));
  }

  /** Fetches /demo/config and shows it; resolves to it (or null when the backend is away). */
  async refresh() {
    try {
      const config = await getJson("/demo/config");
      this.update(config);
      return config;
    } catch (e) {
      this.#say(String(e.message ?? e), true);
      return null;
    }
  }

  #say(text, bad = false) {
    this.result.textContent = text;
    this.result.classList.toggle("bad", bad);
  }

  async #act(path, body, describe) {
    try {
      const r = await postJson(path, body);
      this.#say(describe(r));
    } catch (e) {
      this.#say(String(e.message ?? e), true);
    }
    await this.refresh();
  }

  async #churn(rate) {
    await this.#act("/demo/churn", { ratePerSecond: rate }, (r) => (r.running ? `Churning at ${r.ratePerSecond} writes/s.` : "Churn stopped."));
    this.onData?.();
  }

  async #steps(n) {
    const rate = this.config?.churn?.running ? this.config.churn.ratePerSecond : 0;
    await this.#act("/demo/churn", { ratePerSecond: rate, steps: n }, (r) => `Applied ${n} writes: now at revision ${r.revision}.`);
    this.onData?.();
  }

  async #behaviour(plugin, behaviour) {
    await this.#act("/demo/behaviour", { plugin, behaviour }, (r) => `${r.plugin} now pages as ${r.behaviour}.`);
    this.onRestart?.(`${plugin} now pages as ${behaviour}: the list started over with the matching source kind.`);
  }

  async #reset() {
    await this.#act("/demo/reset", {}, (r) => `Backend reset: catalog, behaviours and churn restored at revision ${r.revision}.`);
    this.onData?.();
    this.onRestart?.("The backend was reset: the list started over (tokens from before the reset answer 410).");
  }
}
