//! The `Pager` class for JS: the core pager over the caller's own item objects.
//!
//! Items are carried as (chunk array, index) references, so a chunk crosses into wasm once (its
//! key fields as one JSON string, see `chunk.js`) and pages hand back the very objects that were fed.

use crate::prelude::*;
use alloc::rc::Rc;
use core::cell::RefCell;

use wasm_bindgen::prelude::*;

use super::convert::write_js;
use super::errors::{boundary_error, js, string_arg, to_js as error_to_js, JsResult};
use crate::error::PagerError;
use crate::json::Writer;
use crate::pager::{Chunk, ChunkRequest, Failure, FeedOutcome, Page, Pager, Stats};
use crate::view::{read_item_keys, write_source_stats_fields};

#[wasm_bindgen(module = "/src/wasm/chunk.js")]
extern "C" {
    #[wasm_bindgen(js_name = readChunk)]
    fn read_chunk(response: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = pickItems)]
    fn pick_items(chunks: &js_sys::Array, which: &[u32], indices: &[u32]) -> js_sys::Array;
}

/// An item as the pager carries it: its chunk's `items` array and its index there.
#[derive(Clone)]
pub(crate) struct ItemRef {
    chunk: Rc<JsValue>,
    index: u32,
}

pub(crate) type CorePager = Pager<ItemRef>;

/// `PagerStats`: totals, `itemsEmitted`, and one entry per source (labelled).
fn write_stats(w: &mut Writer, stats: &Stats, labels: &[String]) {
    w.begin_object();
    write_source_stats_fields(w, &stats.total());
    w.u64_field("itemsEmitted", stats.items_emitted);
    w.key("sources");
    w.begin_array();
    for (s, label) in stats.sources.iter().zip(labels) {
        w.begin_object();
        w.str_field("source", label);
        write_source_stats_fields(w, s);
        w.end_object();
    }
    w.end_array();
    w.end_object();
}

fn stats_to_js(stats: &Stats, labels: &[String]) -> JsValue {
    write_js(|w| write_stats(w, stats, labels))
}

/// A page for JS: `{ items, nextPageToken, done, inconsistent, truncated, stats }`.
pub(crate) fn page_to_js(page: Page<ItemRef>, labels: &[String]) -> JsResult<JsValue> {
    // One array entry per distinct chunk; `which` points each item at its chunk.
    let chunks = js_sys::Array::new();
    let mut seen: Vec<*const JsValue> = Vec::new();
    let mut which = Vec::with_capacity(page.items.len());
    let mut indices = Vec::with_capacity(page.items.len());
    for item in &page.items {
        let ptr = Rc::as_ptr(&item.chunk);
        let slot = match seen.iter().position(|p| *p == ptr) {
            Some(slot) => slot,
            None => {
                seen.push(ptr);
                chunks.push(&item.chunk);
                seen.len() - 1
            }
        };
        which.push(slot as u32);
        indices.push(item.index);
    }
    let items = pick_items(&chunks, &which, &indices);
    let out = js_sys::Object::new();
    let set =
        |k: &str, v: &JsValue| js_sys::Reflect::set(&out, &JsValue::from_str(k), v).map(|_| ());
    set("items", &items)?;
    set("nextPageToken", &JsValue::from_str(&page.next_page_token))?;
    set("done", &JsValue::from_bool(page.done))?;
    set("inconsistent", &JsValue::from_bool(page.inconsistent))?;
    set("truncated", &JsValue::from_bool(page.truncated))?;
    set("stats", &stats_to_js(&page.stats, labels))?;
    Ok(out.into())
}

/// Reads a response into a core chunk (one crossing for the key fields). `INVALID_RESPONSE` names the source.
pub(crate) fn chunk_from_js(response: &JsValue, source: &str) -> crate::Result<Chunk<ItemRef>> {
    let invalid = |message: String| PagerError::InvalidResponse {
        source_name: source.to_owned(),
        message,
    };
    let read = read_chunk(response);
    let get =
        |k: &str| js_sys::Reflect::get(&read, &JsValue::from_str(k)).unwrap_or(JsValue::UNDEFINED);
    if let Some(error) = get("error").as_string() {
        return Err(invalid(error));
    }
    let keys = get("keys")
        .as_string()
        .ok_or_else(|| invalid("unreadable response".into()))?;
    let fields = read_item_keys(&keys).map_err(|e| invalid(text!("item fields: ", e)))?;
    let chunk = Rc::new(get("items"));
    let items = fields
        .into_iter()
        .enumerate()
        .map(|(i, fields)| {
            let item = ItemRef {
                chunk: chunk.clone(),
                index: i as u32,
            };
            (fields, item)
        })
        .collect();
    let next = get("next").as_string().filter(|s| !s.is_empty());
    let resource_version = get("resourceVersion").as_string();
    let remaining_item_count = get("remaining").as_f64().map(|n| n as u64);
    Ok(Chunk {
        items,
        next_token: next,
        resource_version,
        remaining_item_count,
    })
}

/// Reads a failure `{ status, reason?, continue? }` (or an `Error` carrying them, or in its `details`).
pub(crate) fn failure_from_js(value: &JsValue) -> Failure {
    let field = |obj: &JsValue, k: &str| {
        js_sys::Reflect::get(obj, &JsValue::from_str(k)).unwrap_or(JsValue::UNDEFINED)
    };
    let details = field(value, "details");
    let pick = |k: &str| {
        let v = field(value, k);
        if v.is_undefined() && details.is_object() {
            field(&details, k)
        } else {
            v
        }
    };
    let status = pick("status")
        .as_f64()
        .filter(|s| s.is_finite() && *s >= 0.0 && *s < 1000.0)
        .map(|s| s as u16)
        .unwrap_or(0);
    Failure {
        status,
        reason: pick("reason").as_string(),
        continue_token: pick("continue").as_string().filter(|s| !s.is_empty()),
    }
}

fn outcome(o: FeedOutcome) -> String {
    match o {
        FeedOutcome::Accepted => "accepted".into(),
        FeedOutcome::Stale => "stale".into(),
    }
}

fn to_request_id(id: &JsValue) -> JsResult<u64> {
    match id.as_f64() {
        Some(n)
            // Whole (the cast back gives the same number; `fract` is std-only) and in 0..=2^53-1.
            if (0.0..=9_007_199_254_740_991.0).contains(&n) && n == n as u64 as f64 =>
        {
            Ok(n as u64)
        }
        _ => Err(boundary_error(
            "INVALID_RESPONSE",
            "requestId must be a request id given by nextRequests()",
        )),
    }
}

/// `ChunkRequest[]`.
pub(crate) fn requests_to_js(requests: &[ChunkRequest]) -> JsValue {
    write_js(|w| {
        w.begin_array();
        for r in requests {
            w.begin_object();
            w.u64_field("requestId", r.request_id);
            w.u64_field("sourceIndex", r.source_index as u64);
            w.key("source");
            w.begin_object();
            w.str_field("plugin", &r.source.plugin);
            w.str_field("cluster", &r.source.cluster);
            w.str_field("namespace", &r.source.namespace);
            w.end_object();
            w.str_field("pageToken", &r.page_token);
            w.u64_field("limit", r.limit.into());
            w.end_object();
        }
        w.end_array();
    })
}

/// Merges pages from several Kubeapps or Kubernetes sources in one total order; see the `.d.ts`.
///
/// Call `free()` (or `[Symbol.dispose]()`) when done: its state lives in wasm memory. After that
/// every method throws `PAGER_FREED` (`nextPage` rejects with it, also a call running then);
/// calling `free()` again does nothing.
#[wasm_bindgen(js_name = Pager)]
pub struct JsPager {
    pub(crate) core: Rc<RefCell<CorePager>>,
    pub(crate) labels: Rc<Vec<String>>,
    /// The last `nextPage` promise: the next call starts after it settles.
    pub(crate) running: RefCell<Option<js_sys::Promise>>,
}

impl JsPager {
    fn wrap(core: CorePager) -> JsPager {
        let labels = core
            .options()
            .sources
            .iter()
            .map(|s| s.id.label())
            .collect();
        let pager = JsPager {
            core: Rc::new(RefCell::new(core)),
            labels: Rc::new(labels),
            running: RefCell::new(None),
        };
        super::driver::guard(&pager);
        pager
    }

    /// Another JS `Pager` over the same state, for `nextPage`'s driver (which frees it when done).
    pub(crate) fn driver_handle(&self) -> JsPager {
        JsPager {
            core: self.core.clone(),
            labels: self.labels.clone(),
            running: RefCell::new(None),
        }
    }

    /// Runs `f` on the core; never panics, even if JS re-enters (it cannot while `f` runs: `f` calls no JS).
    pub(crate) fn with<R>(
        core: &RefCell<CorePager>,
        f: impl FnOnce(&mut CorePager) -> R,
    ) -> JsResult<R> {
        let mut guard = core.try_borrow_mut().map_err(|_| {
            boundary_error(
                "REENTRANT_CALL",
                "the pager is busy: called from inside one of its own callbacks",
            )
        })?;
        Ok(f(&mut guard))
    }
}

#[wasm_bindgen(js_class = Pager)]
impl JsPager {
    /// A pager at the start of every source. Throws `INVALID_OPTIONS`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "PagerOptions")] options: JsValue,
    ) -> JsResult<JsPager> {
        let options = js(super::options::options_from_js(options))?;
        Ok(JsPager::wrap(js(Pager::new(options))?))
    }

    /// A pager resumed from a NextPageToken (a reload, a deep link).
    /// Throws `INVALID_PAGE_TOKEN`, `FILTER_MISMATCH` or `INVALID_OPTIONS`.
    pub fn resume(
        #[wasm_bindgen(unchecked_param_type = "string")] token: JsValue,
        #[wasm_bindgen(unchecked_param_type = "PagerOptions")] options: JsValue,
    ) -> JsResult<JsPager> {
        let token = string_arg(&token, "token", "INVALID_PAGE_TOKEN")?;
        let options = js(super::options::options_from_js(options))?;
        Ok(JsPager::wrap(js(Pager::resume(&token, options))?))
    }

    /// The chunk requests to make now.
    #[wasm_bindgen(js_name = nextRequests, unchecked_return_type = "ChunkRequest[]")]
    pub fn next_requests(&self) -> JsResult<JsValue> {
        let requests = JsPager::with(&self.core, |p| p.next_requests())?;
        Ok(requests_to_js(&requests))
    }

    /// Feeds a chunk response for a request. Returns `"accepted"` or `"stale"` (ignored, counted).
    /// Throws `INVALID_RESPONSE`, `NO_PROGRESS` or `SOURCE_TOO_LARGE`; the pager is then unchanged.
    #[wasm_bindgen(unchecked_return_type = "FeedOutcome")]
    pub fn feed(
        &self,
        #[wasm_bindgen(js_name = requestId, unchecked_param_type = "number")] request_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "ChunkResponse")] response: JsValue,
    ) -> JsResult<String> {
        let id = to_request_id(&request_id)?;
        // Read the response before borrowing the core: reading may run the caller's getters.
        // Request ids carry their source's index, so errors name the source the answer is for.
        let source = self
            .labels
            .get(CorePager::request_source(id))
            .map_or("response", String::as_str);
        let chunk = chunk_from_js(&response, source);
        let chunk = chunk.map_err(|e| error_to_js(&e))?;
        let result = JsPager::with(&self.core, |p| p.feed(id, chunk))?;
        Ok(outcome(js(result)?))
    }

    /// Reports a failed request: `{ status, reason?, continue? }`. A 410 Expired on a kubernetes
    /// source recovers; any other failure only clears the request, so the same call is retried.
    #[wasm_bindgen(unchecked_return_type = "FeedOutcome")]
    pub fn fail(
        &self,
        #[wasm_bindgen(js_name = requestId, unchecked_param_type = "number")] request_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "ChunkFailure")] failure: JsValue,
    ) -> JsResult<String> {
        let id = to_request_id(&request_id)?;
        let failure = failure_from_js(&failure);
        let result = JsPager::with(&self.core, |p| p.fail(id, failure))?;
        Ok(outcome(js(result)?))
    }

    /// Whether `takePage()` has a page to give.
    #[wasm_bindgen(js_name = pageReady)]
    pub fn page_ready(&self) -> JsResult<bool> {
        JsPager::with(&self.core, |p| p.page_ready())
    }

    /// Takes the ready page, or returns `null` when none is ready. Throws `INVALID_PAGE_TOKEN`
    /// (`too-long`) when the position does not fit a page token; the page then stays ready.
    #[wasm_bindgen(js_name = takePage, unchecked_return_type = "Page | null")]
    pub fn take_page(&self) -> JsResult<JsValue> {
        match js(JsPager::with(&self.core, |p| p.take_page())?)? {
            Some(page) => page_to_js(page, &self.labels),
            None => Ok(JsValue::NULL),
        }
    }

    /// The NextPageToken for the current position (right after the last page taken).
    #[wasm_bindgen(js_name = pageToken)]
    pub fn page_token(&self) -> JsResult<String> {
        js(JsPager::with(&self.core, |p| p.page_token())?)
    }

    /// Cumulative counters.
    #[wasm_bindgen(getter, unchecked_return_type = "PagerStats")]
    pub fn stats(&self) -> JsResult<JsValue> {
        let stats = JsPager::with(&self.core, |p| p.stats().clone())?;
        Ok(stats_to_js(&stats, &self.labels))
    }
}
