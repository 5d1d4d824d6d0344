// Infinite scroll for one column: an IntersectionObserver on a sentinel below the list asks the
// column's source for one page at a time, only while the sentinel shows and no page is loading.
import { h, fill } from "./dom.js";

/** How far below the visible area the sentinel may be and still count as showing (px). */
const LOOKAHEAD = "0px 0px 240px 0px";

/**
 * Feed drives one column. `source` has `loadPage(signal)` → `{done?, capped?}` (it renders the
 * page itself), `progress()` → `{text, fraction?}` while a page loads, `endText()` for the end.
 * States (also in `column.dataset.state`): idle, loading, done, capped, error. `column.dataset.pages`
 * counts the pages loaded. After an error nothing loads until `retry()`.
 */
export class Feed {
  constructor({ column, list, status, sentinel, source, onState }) {
    Object.assign(this, { column, list, status, sentinel, source, onState });
    this.state = "idle";
    this.pages = 0;
    this.visible = false;
    this.stopped = false;
    this.error = null;
    this.controller = null;
    this.pending = Promise.resolve();
    this.io = null;
    this.#set("idle");
  }

  /** Starts watching the sentinel inside `root` (a scroll container, or null for the viewport). */
  observe(root) {
    if (this.stopped) return;
    this.io?.disconnect();
    this.io = new IntersectionObserver((entries) => {
      for (const entry of entries) this.visible = entry.isIntersecting;
      this.#maybeLoad();
    }, { root, rootMargin: LOOKAHEAD });
    this.io.observe(this.sentinel);
  }

  /** Stops for good: aborts the page in flight, stops watching. Resolves once that call has settled. */
  stop(reason = "the list was reset") {
    this.stopped = true;
    this.io?.disconnect();
    this.controller?.abort(new DOMException(reason, "AbortError"));
    return this.pending;
  }

  /** After an error: tries the same page again (the pager is where it was). */
  retry() {
    if (this.stopped || this.state !== "error") return;
    this.error = null;
    this.#load();
  }

  /** After a list ended without some sources, which were asked again: goes on loading. */
  reopen() {
    if (this.stopped || this.state !== "done") return;
    this.#set("idle");
    this.#load();
  }

  /** Loads the next page now (the "Load more" button: keyboard users need not scroll). */
  loadMore() {
    if (!this.stopped && this.state === "idle") this.#load();
  }

  /** Redraws the progress line (the source calls this as its requests come and go). */
  progressChanged() {
    if (this.state === "loading") this.#renderStatus();
  }

  #maybeLoad() {
    if (!this.stopped && this.state === "idle" && this.visible) this.#load();
  }

  #load() {
    this.#set("loading");
    const controller = new AbortController();
    this.controller = controller;
    this.pending = (async () => {
      let result;
      try {
        result = await this.source.loadPage(controller.signal);
      } catch (e) {
        if (this.stopped) return;
        this.error = e;
        this.#set("error");
        return;
      } finally {
        this.controller = null;
      }
      if (this.stopped) return;
      this.pages += 1;
      this.#set(result?.done ? "done" : result?.capped ? "capped" : "idle");
      this.#recheck();
    })();
  }

  // The new cards may have pushed the sentinel out of view, or not: observing it afresh makes the
  // observer report its current state once, which loads the next page only if it still shows.
  #recheck() {
    if (!this.io || this.state !== "idle") return;
    this.io.unobserve(this.sentinel);
    this.io.observe(this.sentinel);
  }

  #set(state) {
    this.state = state;
    this.column.dataset.state = state;
    this.column.dataset.pages = String(this.pages);
    this.list.setAttribute("aria-busy", state === "loading" ? "true" : "false");
    this.#renderStatus();
    this.onState?.(this);
  }

  #renderStatus() {
    const s = this.status;
    if (this.state === "loading") {
      const p = this.source.progress?.() ?? { text: "Loading…" };
      fill(s,
        h("span", { class: "spinner", "aria-hidden": "true" }),
        h("span", { dataset: { testid: "progress" } }, p.text),
        typeof p.fraction === "number"
          ? h("span", { class: "progress", "aria-hidden": "true" }, progressBar(p.fraction))
          : null);
    } else if (this.state === "error") {
      const e = this.error ?? {};
      const code = typeof e.code === "string" ? e.code : e.name ?? "Error";
      fill(s, h("div", { class: "feed-error", role: "alert", dataset: { testid: "feed-error" } },
        h("span", { class: "code", dataset: { testid: "error-code" } }, code),
        h("span", { class: "msg" }, String(e.message ?? e)),
        h("button", { type: "button", class: "btn small", dataset: { testid: "retry" }, onclick: () => this.retry() }, "Retry")));
    } else if (this.state === "done" || this.state === "capped") {
      fill(s, h("span", { class: "end", dataset: { testid: "feed-end" } }, this.source.endText?.() ?? "The end"));
    } else {
      fill(s, h("button", { type: "button", class: "btn small", dataset: { testid: "load-more" }, onclick: () => this.loadMore() }, "Load more"));
    }
  }
}

function progressBar(fraction) {
  const bar = h("span");
  bar.style.width = `${Math.round(Math.max(0, Math.min(1, fraction)) * 100)}%`;
  return bar;
}
