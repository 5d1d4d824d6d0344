// The pager column's source: one `pager.nextPage(fetchChunk, { signal })` per page, each page's
// items appended as cards in the order the pager gives them.
import { packageCard, summaryFields, identityOf } from "./cards.js";
import { sortKey } from "./truth.js";
import { num } from "./dom.js";

/**
 * PagerSource pages `pager` (a kubeapps-pager `Pager`) through `fetchChunk` into `list`.
 * `log` (a RequestLog) records each chunk request; `onPage(page, source)` runs after a page is shown.
 * `resumed` is true when the pager came from a page token (cards before it are not shown).
 */
export class PagerSource {
  constructor({ pager, fetchChunk, list, log, sort, resumed, onPage }) {
    this.pager = pager;
    this.list = list;
    this.sort = sort;
    this.resumed = resumed;
    this.onPage = onPage;
    this.feed = null;
    this.pages = 0;
    this.identities = [];
    this.seen = new Set();
    this.firstKey = null;
    this.lastKey = null;
    this.done = false;
    this.sawInconsistent = 0; // pages flagged inconsistent
    this.sawTruncated = 0;
    this.lastPage = null;
    this.inPage = { sent: 0, answered: 0 };
    this.fetch = (request, init) => {
      this.inPage.sent += 1;
      this.feed?.progressChanged();
      const entry = log?.start(request);
      return fetchChunk(request, init).then(
        (response) => {
          this.inPage.answered += 1;
          entry?.ok(response);
          this.feed?.progressChanged();
          return response;
        },
        (error) => {
          this.inPage.answered += 1;
          entry?.fail(error);
          this.feed?.progressChanged();
          throw error;
        });
    };
  }

  async loadPage(signal) {
    this.inPage = { sent: 0, answered: 0 };
    const page = await this.pager.nextPage(this.fetch, { signal });
    const fragment = document.createDocumentFragment();
    for (const item of page.items) {
      const f = summaryFields(item);
      const id = identityOf(f);
      const li = packageCard(item);
      li.firstChild.dataset.page = String(this.pages + 1);
      if (this.seen.has(id)) li.firstChild.classList.add("twice");
      this.seen.add(id);
      this.identities.push(id);
      const key = sortKey(f, this.sort);
      this.firstKey ??= key;
      this.lastKey = key;
      fragment.append(li);
    }
    this.list.append(fragment);
    this.pages += 1;
    this.done = page.done;
    if (page.inconsistent) this.sawInconsistent += 1;
    if (page.truncated) this.sawTruncated += 1;
    this.lastPage = page;
    this.onPage?.(page, this);
    return { done: page.done };
  }

  progress() {
    const { sent, answered } = this.inPage;
    const text = sent === 0
      ? `Loading page ${this.pages + 1}…`
      : `Loading page ${this.pages + 1}: ${answered} of ${sent} chunk request${sent === 1 ? "" : "s"} answered`;
    return { text, fraction: sent === 0 ? 0 : answered / sent };
  }

  endText() {
    return `End of the list · ${num(this.identities.length)} package${this.identities.length === 1 ? "" : "s"} shown`;
  }

  /** Releases the wasm memory of the pager (call once no nextPage is in flight). */
  dispose() {
    try {
      this.pager.free();
    } catch {
      // Already freed: nothing to release.
    }
  }
}
