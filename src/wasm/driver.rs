//! `pager.nextPage(fetchChunk, { signal })`: drives nextRequests / feed / fail until a page is ready.
//!
//! Requests to different sources run concurrently. Every request of a round is settled (fed, failed
//! or, after an abort, cleared) before the call returns, so no answer is left without an owner and
//! the next call asks again for whatever did not arrive.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{future_to_promise, JsFuture};

use super::errors::{boundary_error, boundary_error_with, to_js as error_to_js, JsResult};
use super::pager::{
    chunk_from_js, failure_from_js, page_to_js, requests_to_js, CorePager, JsPager,
};
use crate::options::SourceKind;
use crate::pager::Failure;

#[wasm_bindgen(module = "/src/wasm/settle.js")]
extern "C" {
    fn quiet(promise: &js_sys::Promise) -> js_sys::Promise;
}

/// 410 answers in a row within one call before the driver gives up (`SOURCE_FAILED`).
const MAX_EXPIRED_IN_A_ROW: u32 = 8;

/// A failure that clears an in-flight request without any other effect (status 0: no answer).
fn cleared() -> Failure {
    Failure {
        status: 0,
        reason: None,
        continue_token: None,
    }
}

fn get(obj: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(obj, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// The `signal` of the options, if it looks like an AbortSignal.
fn signal_of(options: &JsValue) -> Option<web_sys::AbortSignal> {
    let signal = if options.is_object() {
        get(options, "signal")
    } else {
        JsValue::UNDEFINED
    };
    (signal.is_object() && !get(&signal, "aborted").is_undefined()).then(|| signal.unchecked_into())
}

fn aborted_error(signal: &web_sys::AbortSignal) -> JsValue {
    let details = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&details, &"reason".into(), &signal.reason());
    boundary_error_with(
        "ABORTED",
        "nextPage() was aborted; the pager is where it was",
        details.into(),
    )
}

/// A promise that settles when the signal aborts (at once if it already has), plus the listener to
/// remove afterwards. It resolves rather than rejects, so an abort after the call ended is no
/// unhandled rejection; the driver checks `signal.aborted` after every await.
fn abort_promise(signal: &web_sys::AbortSignal) -> (js_sys::Promise, Option<js_sys::Function>) {
    let mut listener = None;
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        if signal.aborted() {
            let _ = resolve.call0(&JsValue::NULL);
            return;
        }
        let f: js_sys::Function = Closure::once_into_js(move || {
            let _ = resolve.call0(&JsValue::NULL);
        })
        .unchecked_into();
        let _ = signal.add_event_listener_with_callback("abort", &f);
        listener = Some(f);
    });
    (promise, listener)
}

struct Driver {
    core: Rc<RefCell<CorePager>>,
    labels: Rc<Vec<String>>,
    kinds: Vec<SourceKind>,
    fetch: js_sys::Function,
    signal: Option<web_sys::AbortSignal>,
    abort: Option<js_sys::Promise>,
    fetch_options: JsValue,
}

impl Driver {
    fn clear(&self, ids: &[u64]) -> JsResult<()> {
        for id in ids {
            JsPager::with(&self.core, |p| p.fail(*id, cleared()))?.map_err(|e| error_to_js(&e))?;
        }
        Ok(())
    }

    /// Calls the caller's fetchChunk; a synchronous throw becomes a rejected promise. The promise is
    /// marked handled: after an abort nobody awaits it, and its late rejection must not surface.
    fn start(&self, request: &JsValue) -> js_sys::Promise {
        let promise = match self
            .fetch
            .call2(&JsValue::NULL, request, &self.fetch_options)
        {
            Ok(v) => js_sys::Promise::resolve(&v),
            Err(e) => js_sys::Promise::reject(&e),
        };
        quiet(&promise)
    }

    fn source_failed(&self, index: usize, failure: &Failure, cause: JsValue) -> JsValue {
        let label = self.labels.get(index).cloned().unwrap_or_default();
        let details = js_sys::Object::new();
        let set = |k: &str, v: JsValue| {
            let _ = js_sys::Reflect::set(&details, &JsValue::from_str(k), &v);
        };
        set("source", JsValue::from_str(&label));
        set("status", JsValue::from(failure.status));
        if let Some(reason) = &failure.reason {
            set("reason", JsValue::from_str(reason));
        }
        set("cause", cause);
        let message = format!(
            "source {label} failed (status {}); the pager is unchanged, call again to retry",
            failure.status
        );
        boundary_error_with("SOURCE_FAILED", &message, details.into())
    }

    async fn run(self) -> JsResult<JsValue> {
        if let Some(signal) = &self.signal {
            if signal.aborted() {
                return Err(aborted_error(signal));
            }
        }
        let mut expired_in_a_row = 0u32;
        loop {
            if let Some(page) =
                JsPager::with(&self.core, |p| p.take_page())?.map_err(|e| error_to_js(&e))?
            {
                return page_to_js(page, &self.labels);
            }
            let requests = JsPager::with(&self.core, |p| p.next_requests())?;
            if requests.is_empty() {
                // nextPage settles every request of a round and calls run one at a time, so only
                // requests taken with nextRequests() and never answered can leave it nothing to ask.
                return Err(boundary_error(
                    "NO_PROGRESS",
                    "the pager has no page and nothing to ask: requests from nextRequests() are still unanswered",
                ));
            }
            let views = requests_to_js(&requests)?;
            let views: js_sys::Array = views.unchecked_into();
            let pending: Vec<(u64, usize, js_sys::Promise)> = requests
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    (
                        r.request_id,
                        r.source_index,
                        self.start(&views.get(i as u32)),
                    )
                })
                .collect();

            let mut first_error: Option<JsValue> = None;
            for (k, (id, index, promise)) in pending.iter().enumerate() {
                let raced = match &self.abort {
                    Some(abort) => js_sys::Promise::race(&js_sys::Array::of2(promise, abort)),
                    None => promise.clone(),
                };
                let answer = JsFuture::from(raced).await;
                if let Some(signal) = self.signal.as_ref().filter(|s| s.aborted()) {
                    // Late answers to these requests will be ignored as stale.
                    let rest: Vec<u64> = pending[k..].iter().map(|(id, _, _)| *id).collect();
                    self.clear(&rest)?;
                    return Err(aborted_error(signal));
                }
                let label = self
                    .labels
                    .get(*index)
                    .map(String::as_str)
                    .unwrap_or("source");
                match answer {
                    Ok(response) => {
                        let fed = match chunk_from_js(&response, label) {
                            Ok(chunk) => JsPager::with(&self.core, |p| p.feed(*id, chunk))?,
                            Err(e) => Err(e),
                        };
                        match fed {
                            Ok(_) => expired_in_a_row = 0,
                            Err(e) => {
                                // The core left its state as it was; clear the request so the next call asks again.
                                self.clear(&[*id])?;
                                first_error.get_or_insert_with(|| error_to_js(&e));
                            }
                        }
                    }
                    Err(cause) => {
                        let failure = failure_from_js(&cause);
                        JsPager::with(&self.core, |p| p.fail(*id, failure.clone()))?
                            .map_err(|e| error_to_js(&e))?;
                        let kind = self.kinds.get(*index).copied();
                        let recovers =
                            failure.status == 410 && kind == Some(SourceKind::Kubernetes);
                        if recovers && expired_in_a_row < MAX_EXPIRED_IN_A_ROW {
                            expired_in_a_row += 1;
                        } else {
                            first_error
                                .get_or_insert_with(|| self.source_failed(*index, &failure, cause));
                        }
                    }
                }
            }
            if let Some(e) = first_error {
                return Err(e);
            }
        }
    }
}

#[wasm_bindgen(js_class = Pager)]
impl JsPager {
    /// Fetches what the next page needs with `fetchChunk(request, { signal })` and returns the page.
    ///
    /// Requests to different sources run concurrently; calls on one pager run one after the other.
    /// Rejects with `ABORTED` promptly when the
    /// signal aborts, `SOURCE_FAILED` (naming the source) when a request fails, or the core's codes
    /// (`INVALID_RESPONSE`, `NO_PROGRESS`, `SOURCE_TOO_LARGE`); the pager's position is then unchanged
    /// and the next call retries. A 410 Expired from a kubernetes source is recovered from.
    #[wasm_bindgen(js_name = nextPage, unchecked_return_type = "Promise<Page>")]
    pub fn next_page(
        &self,
        #[wasm_bindgen(js_name = fetchChunk, unchecked_param_type = "FetchChunk")]
        fetch_chunk: JsValue,
        #[wasm_bindgen(unchecked_param_type = "NextPageOptions")] options: Option<js_sys::Object>,
    ) -> js_sys::Promise {
        let Some(fetch_chunk) = fetch_chunk.dyn_ref::<js_sys::Function>().cloned() else {
            return js_sys::Promise::reject(&boundary_error(
                "INVALID_OPTIONS",
                "fetchChunk must be a function",
            ));
        };
        let options: JsValue = options.map(Into::into).unwrap_or(JsValue::UNDEFINED);
        let signal = signal_of(&options);
        let (abort, listener) = match &signal {
            Some(s) => {
                let (p, l) = abort_promise(s);
                (Some(p), l)
            }
            None => (None, None),
        };
        let fetch_options = js_sys::Object::new();
        if let Some(s) = &signal {
            let _ = js_sys::Reflect::set(&fetch_options, &"signal".into(), s);
        }
        let kinds = match JsPager::with(&self.core, |p| {
            p.options().sources.iter().map(|s| s.kind).collect()
        }) {
            Ok(kinds) => kinds,
            Err(e) => return js_sys::Promise::reject(&e),
        };
        let driver = Driver {
            core: self.core.clone(),
            labels: self.labels.clone(),
            kinds,
            fetch: fetch_chunk,
            signal: signal.clone(),
            abort,
            fetch_options: fetch_options.into(),
        };
        // One call at a time: a second call waits for the first to settle (React StrictMode and
        // eager scroll handlers do call twice), then asks for the page after it.
        let previous = self.running.borrow_mut().take();
        let promise = future_to_promise(async move {
            if let Some(previous) = previous {
                let _ = JsFuture::from(previous).await;
            }
            let result = driver.run().await;
            if let (Some(s), Some(l)) = (&signal, &listener) {
                let _ = s.remove_event_listener_with_callback("abort", l);
            }
            result
        });
        *self.running.borrow_mut() = Some(promise.clone());
        promise
    }
}
