//! `pager.nextPage(fetchChunk, { signal })`: drives nextRequests / feed / fail until a page is ready.
//!
//! The loop itself is JS (`driver.js`): it awaits the caller's promises and calls the pager's own
//! methods on a handle that shares this pager's state. Requests to different sources run
//! concurrently; calls on one pager run one after the other. Every request of a round is settled
//! (fed, failed or, after an abort, cleared) before the call returns, so no answer is left without
//! an owner and the next call asks again for whatever did not arrive.

use wasm_bindgen::prelude::*;

use super::pager::JsPager;

#[wasm_bindgen(module = "/src/wasm/driver.js")]
extern "C" {
    fn drive(
        pager: JsPager,
        fetch_chunk: JsValue,
        options: JsValue,
        labels: &JsValue,
    ) -> js_sys::Promise;
}

#[wasm_bindgen]
extern "C" {
    /// The options of `nextPage`, `NextPageOptions` in the `.d.ts` (`{ signal?, retry? }`). A type of its
    /// own so that the declaration keeps the parameter optional (`options?: NextPageOptions`).
    #[wasm_bindgen(typescript_type = "NextPageOptions")]
    pub type JsNextPageOptions;
}

#[wasm_bindgen(js_class = Pager)]
impl JsPager {
    /// Fetches what the next page needs with `fetchChunk(request, { signal })` and returns the page.
    ///
    /// Requests to different sources run concurrently; calls on one pager run one after the other.
    /// A call made from inside this pager's own `fetchChunk` rejects with `REENTRANT_CALL` (it would
    /// wait for itself); one made there after an `await` cannot be told apart and deadlocks: don't.
    /// Each failure goes as the core says (`fail`): recovered from (a 410 Expired of a kubernetes
    /// source, an offset refused past the end of a shrunken list), set aside (the page names the
    /// source in `unreachable`), retried within the call after a backoff (a transient failure:
    /// 429, 502, 503, 504, no answer; `retry` sets the policy, default 3 retries from 1 s, at most
    /// 30 s, honouring `Retry-After`), or failed.
    /// Rejects with `PAGER_FREED` at once when the pager is freed, `ABORTED` promptly when the
    /// signal aborts (also while waiting to retry), `SOURCE_FAILED` (naming the source) when a
    /// request fails or its retries are spent, `INVALID_OPTIONS` for a bad `fetchChunk`, `retry`
    /// or `signal` (not an AbortSignal: an AbortController, say) or options that are no object,
    /// `INVALID_RESPONSE` for a rejection whose `status` is no HTTP status (not an integer from 0
    /// to 599; none at all is 0, no answer), or the core's codes (`INVALID_RESPONSE`, `NO_PROGRESS`, `SOURCE_TOO_LARGE`), or
    /// `PREDICATE_FAILED` when the custom predicate throws; the pager's position is then unchanged
    /// and the next call retries.
    #[wasm_bindgen(js_name = nextPage, unchecked_return_type = "Promise<Page>")]
    pub fn next_page(
        &self,
        #[wasm_bindgen(js_name = fetchChunk, unchecked_param_type = "FetchChunk")]
        fetch_chunk: JsValue,
        options: Option<JsNextPageOptions>,
    ) -> js_sys::Promise {
        // The driver checks `fetchChunk` (`INVALID_OPTIONS`) and runs one call at a time per
        // pager: a second call waits for the first to settle (React StrictMode and eager scroll
        // handlers do call twice), then asks for the page after it.
        drive(
            self.driver_handle(),
            fetch_chunk,
            options.map_or(JsValue::UNDEFINED, Into::into),
            &self.sources.labels_js,
        )
    }
}
