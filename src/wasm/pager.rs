//! The `Pager` class for JS: the core pager over the caller's own item objects.
//!
//! Items are carried as (chunk array, index) references, so a chunk crosses into wasm once (its
//! key fields as one string and their lengths, see `chunk.js` and [`ChunkFields`]) and pages hand
//! back the very objects that were fed. A page crosses back in one call (`makePage`).

use crate::prelude::*;
use alloc::rc::Rc;
use core::cell::RefCell;

use wasm_bindgen::prelude::*;

use super::convert::to_js;
use super::errors::{boundary_error, js, string_arg, to_js as error_to_js, JsResult};
use super::view::ChunkFields;
use crate::error::PagerError;
use crate::filter::FilterOptions;
use crate::pager::{
    ChunkOf, ChunkRequest, FailOutcome, FeedOutcome, Page, Pager, PrefetchBudget, Recovery,
    RetryPolicy, SourceStats, Stats, UnreachableSource,
};

use super::predicate::Predicate;

#[wasm_bindgen(module = "/src/wasm/chunk.js")]
extern "C" {
    #[wasm_bindgen(catch, js_name = readChunk)]
    fn read_chunk(response: &JsValue, judges: &JsValue, index: u32, need: u32)
        -> JsResult<JsValue>;
    #[wasm_bindgen(js_name = copyChunk)]
    fn copy_chunk(bytes: &mut [u8], lens: &mut [u32]) -> i32;
    #[wasm_bindgen(js_name = pageChunk)]
    fn page_chunk(items: &JsValue);
    #[wasm_bindgen(js_name = makePage)]
    fn make_page(
        data: &[u32],
        token: Option<&str>,
        labels: &JsValue,
        unreachable: &JsValue,
        names: &JsValue,
    ) -> JsValue;
    #[wasm_bindgen(js_name = keepCategories)]
    fn keep_categories(labels: &JsValue, index: u32);
}

/// An item as the pager carries it: its chunk's `items` array and its index there.
#[derive(Clone)]
pub(crate) struct ItemRef {
    chunk: Rc<JsValue>,
    index: u32,
}

pub(crate) type CorePager = Pager<ItemRef>;

/// Appends the counters `makeStats` reads: the totals, `itemsEmitted`, then each source's,
/// whether it streamed (1 or 0) and its estimates (each 1 + it, 0 for none); each u64 as its low
/// and high u32. The counters go in the order of [`SourceStats::COUNTER_NAMES`], the estimates in
/// that of [`SourceStats::ESTIMATE_NAMES`], which JS gets with them (`Sources::names`).
fn push_counters(out: &mut Vec<u32>, stats: &Stats) {
    let mut push = |n: u64| out.extend([n as u32, (n >> 32) as u32]);
    let total = stats.total();
    for s in core::iter::once(&total).chain(&stats.sources) {
        for n in s.counters() {
            push(n);
        }
        if core::ptr::eq(s, &total) {
            push(stats.items_emitted);
        } else {
            push(s.streamed.into());
            for e in s.estimates() {
                push(e.map_or(0, |r| r.saturating_add(1)));
            }
        }
    }
}

/// `UnreachableSource`: `{ sourceIndex, source, cause, status, reason? }` (`source`: its label).
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct UnreachableView<'a> {
    source_index: usize,
    source: String,
    cause: &'static str,
    status: u16,
    retry_after_ms: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
}

/// `UnreachableSource[]`.
fn unreachable_to_js(list: &[UnreachableSource]) -> JsValue {
    let views: Vec<UnreachableView> = list
        .iter()
        .map(|u| UnreachableView {
            source_index: u.source_index,
            source: u.source.label(),
            cause: u.cause.as_str(),
            status: u.status,
            retry_after_ms: u.retry_after_ms,
            reason: u.reason.as_deref(),
        })
        .collect();
    to_js(&views)
}

/// The names of a page's flags, in the order of their bits in `makePage`'s data (`page_to_js`).
const PAGE_FLAGS: [&str; 5] = ["done", "inconsistent", "truncated", "reordered", "late"];

/// What `makePage` names the page's flags, counters and each source's estimates by:
/// `{ flags, counters, estimates }`.
#[derive(serde::Serialize)]
struct Names {
    flags: &'static [&'static str],
    counters: &'static [&'static str],
    estimates: &'static [&'static str],
}

/// A page for JS: `{ items, nextPageToken, done, inconsistent, truncated, reordered, late,
/// unreachable, stats }`, in one call.
pub(crate) fn page_to_js(page: Page<ItemRef>, sources: &Sources) -> JsValue {
    let labels = &sources.labels_js;
    let n = page.items.len();
    // `makePage`'s data: flags, n, each item's chunk slot, each item's index, the counters.
    let mut data = Vec::with_capacity(2 + 2 * n + 30 * (1 + page.stats.sources.len()));
    let flags = [
        page.done,
        page.inconsistent,
        page.truncated,
        page.reordered,
        page.late,
    ];
    let mut bits = 0;
    for (k, flag) in flags.into_iter().enumerate() {
        bits |= u32::from(flag) << k;
    }
    data.push(bits);
    data.push(n as u32);
    // One `pageChunk` call per distinct chunk; each item's slot points at its chunk. chunk.js
    // keeps the slots until `makePage` takes them: nothing may return between the two.
    let mut seen: Vec<*const JsValue> = Vec::new();
    for item in &page.items {
        let ptr = Rc::as_ptr(&item.chunk);
        let slot = match seen.iter().position(|p| *p == ptr) {
            Some(slot) => slot,
            None => {
                seen.push(ptr);
                page_chunk(&item.chunk);
                seen.len() - 1
            }
        };
        data.push(slot as u32);
    }
    for item in &page.items {
        data.push(item.index);
    }
    push_counters(&mut data, &page.stats);
    let unreachable = unreachable_to_js(&page.unreachable);
    make_page(
        &data,
        Some(&page.next_page_token),
        labels,
        &unreachable,
        &sources.names,
    )
}

/// `copyChunk`'s header, the first u32s of its `lens`: the item count, the UTF-16 units to copy,
/// the number of key lengths, whether there is a remaining item count, its low and high halves;
/// then the UTF-8 bytes of the next token and of the resourceVersion (written by the copy). After
/// the header: the key lengths, then, for a chunk the custom predicate judged, its verdicts.
const HEADER: usize = 8;

/// Feeds a response to the core: its key fields (and the custom predicate's verdicts, when it
/// judges the source: `judges`) read in one crossing, as borrowed slices. `INVALID_RESPONSE`
/// names the source, as does the predicate's `PREDICATE_FAILED`; the pager is then unchanged.
fn feed_js(
    core: &RefCell<CorePager>,
    id: u64,
    response: &JsValue,
    source: &str,
    labels: &JsValue,
    judges: &JsValue,
) -> JsResult<FeedOutcome> {
    let invalid = |message: String| {
        error_to_js(&PagerError::InvalidResponse {
            source_name: source.to_owned(),
            message,
        })
    };
    // Judged only when the answer would be taken (a stale one is not: nothing to judge), and
    // read before borrowing the core: reading runs the caller's getters, and the predicate.
    let index = CorePager::request_source(id);
    // `need`: the optional key fields the core reads of this source's items, as `readChunk`'s
    // bits (displayName 1, shortDescription 2, categories 4); the others cross empty.
    let (judged, need) = JsPager::with(core, |p| {
        let read = p.fields_read(index);
        let need = u32::from(read.display_name)
            | u32::from(read.short_description) << 1
            | u32::from(read.categories) << 2;
        (p.judges(index) && p.awaits(id), need)
    })?;
    let judges = if judged { judges } else { &JsValue::UNDEFINED };
    let items = read_chunk(response, judges, index as u32, need)?;
    if let Some(error) = items.as_string() {
        return Err(invalid(error));
    }
    // The sizes first (a copy into nothing fills the header), then the next token, the
    // resourceVersion and the key text as UTF-8, written by the platform's encoder straight into
    // wasm memory (a `&str` would be copied by a JS loop, a character at a time): as many bytes as
    // UTF-16 units for ASCII, at most 3 per unit for anything.
    let mut head = [0u32; HEADER];
    copy_chunk(&mut [], &mut head);
    let [n, units, keys, more, low, high, ..] = head;
    let n = n as usize;
    let remaining = (more != 0).then(|| u64::from(high) << 32 | u64::from(low));
    let verdicts = if judged { n } else { 0 };
    let mut lens = vec![
        0u32;
        HEADER
            .saturating_add(keys as usize)
            .saturating_add(verdicts)
    ];
    let mut text = Vec::new();
    for bytes in [units as usize, (units as usize).saturating_mul(3)] {
        text = vec![0u8; bytes];
        if let Ok(written) = usize::try_from(copy_chunk(&mut text, &mut lens)) {
            text.truncate(written);
            break;
        }
        text.clear();
    }
    // `lens` holds at least the header: no index panics.
    let (head, rest) = lens.split_at_checked(HEADER).unwrap_or_default();
    let (key_lens, verdicts) = rest.split_at_checked(keys as usize).unwrap_or_default();
    let next_end = head.get(6).map_or(0, |&l| l as usize);
    let keys_start = next_end.saturating_add(head.get(7).map_or(0, |&l| l as usize));
    let part = |from: usize, to: usize| {
        let bytes = text.get(from..to).unwrap_or_default();
        core::str::from_utf8(bytes).unwrap_or_default()
    };
    let owned = |s: &str| (!s.is_empty()).then(|| s.to_owned());
    let fields = ChunkFields::read(part(keys_start, text.len()), key_lens)
        .ok()
        .filter(|f| f.len() == n)
        .ok_or_else(|| invalid("unreadable response".into()))?;
    let chunk = Rc::new(items);
    // A loop, not `map().collect()`: std's collect code for this one call site is 0.1 KB gzip.
    let mut refs = Vec::with_capacity(n);
    for (f, index) in fields.iter().zip(0..) {
        let chunk = chunk.clone();
        refs.push((f, ItemRef { chunk, index }));
    }
    let chunk = ChunkOf {
        items: refs,
        next_token: owned(part(0, next_end)),
        resource_version: owned(part(next_end, keys_start)),
        remaining_item_count: remaining,
    };
    let outcome = if judged {
        let verdicts: Vec<bool> = verdicts.iter().map(|&v| v != 0).collect();
        js(JsPager::with(core, |p| {
            p.feed_judged(id, chunk, &verdicts)
        })?)?
    } else {
        js(JsPager::with(core, |p| p.feed(id, chunk))?)?
    };
    // The response's `categories` become its source's once the chunk is accepted (`keepCategories`).
    if outcome == FeedOutcome::Accepted {
        keep_categories(labels, CorePager::request_source(id) as u32);
    }
    Ok(outcome)
}

fn outcome(o: FeedOutcome) -> String {
    match o {
        FeedOutcome::Accepted => "accepted".into(),
        FeedOutcome::Stale => "stale".into(),
        FeedOutcome::Unreachable => "unreachable".into(),
    }
}

/// `FailOutcome` in JS: `"stale"`, `"recovered"`, `"retry"`, `"unreachable"` (set aside) or
/// `"failed"`.
fn fail_outcome(o: FailOutcome) -> String {
    match o {
        FailOutcome::Stale => "stale",
        FailOutcome::Recovered(Recovery::Expired | Recovery::RefusedPosition) => "recovered",
        FailOutcome::Retry => "retry",
        FailOutcome::SetAside(_) => "unreachable",
        FailOutcome::Failed => "failed",
    }
    .into()
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

/// `ChunkRequest`: `{ requestId, sourceIndex, source: { plugin, cluster, namespace }, pageToken,
/// limit, filterOptions? }`; `filterOptions` only for a source that filters.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct RequestView<'a> {
    request_id: u64,
    source_index: usize,
    source: &'a crate::SourceId,
    page_token: &'a str,
    limit: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    filter_options: Option<FilterOptionsView<'a>>,
}

/// Kubeapps `FilterOptions` as protojson writes it: empty fields left out (`plugins` is never
/// sent: it is the pager's rule).
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct FilterOptionsView<'a> {
    #[serde(skip_serializing_if = "str::is_empty")]
    query: &'a str,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    categories: &'a [String],
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    repositories: &'a [String],
    #[serde(skip_serializing_if = "str::is_empty")]
    pkg_version: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    app_version: &'a str,
}

/// Kubeapps `FilterOptions` as a source that filters is sent it.
fn filter_view(f: &FilterOptions) -> FilterOptionsView<'_> {
    FilterOptionsView {
        query: &f.query,
        categories: &f.categories,
        repositories: &f.repositories,
        pkg_version: &f.pkg_version,
        app_version: &f.app_version,
    }
}

/// `ChunkRequest[]`.
pub(crate) fn requests_to_js(requests: &[ChunkRequest]) -> JsValue {
    let views: Vec<RequestView> = requests
        .iter()
        .map(|r| RequestView {
            request_id: r.request_id,
            source_index: r.source_index,
            source: &r.source,
            page_token: &r.page_token,
            limit: r.limit,
            filter_options: r.filter.as_ref().map(filter_view),
        })
        .collect();
    to_js(&views)
}

/// `kubeappsFilterOptions(filter)`, an export of the package (declared in `types-pager.d.ts`):
/// the Kubeapps `FilterOptions` that the pager sends a source that filters for the pager's
/// `filter`: [`FilterOptions::for_source`], as a request's `filterOptions` carries it (protojson
/// field names, empty fields left out); `undefined` when nothing is left. Throws `INVALID_OPTIONS`
/// as `new Pager` does for a bad filter.
#[wasm_bindgen(js_name = kubeappsFilterOptions, skip_typescript)]
pub fn kubeapps_filter_options(filter: JsValue) -> JsResult<JsValue> {
    let filter = super::options::filter_from_js(&filter)?;
    Ok(filter
        .for_source()
        .map_or(JsValue::UNDEFINED, |f| to_js(&filter_view(&f))))
}

/// Merges pages from several Kubeapps or Kubernetes sources in one total order: {@link PagerOptions}
/// in, {@link Page}s out (`nextPage`, or the sans-IO `nextRequests`/`feed`/`fail`/`takePage`).
///
/// Call `free()` (or `[Symbol.dispose]()`) when done: its state lives in wasm memory. After that
/// every method throws `PAGER_FREED` (`nextPage` rejects with it, also a call running then);
/// calling `free()` again does nothing.
#[wasm_bindgen(js_name = Pager)]
pub struct JsPager {
    pub(crate) core: Rc<RefCell<CorePager>>,
    pub(crate) sources: Rc<Sources>,
}

/// What the boundary keeps of the sources, fixed for a pager's life.
pub(crate) struct Sources {
    /// Each source's label (`plugin/cluster/namespace`), for errors.
    labels: Vec<String>,
    /// The same labels as a JS array, for the pages' stats and `nextPage`'s errors.
    pub(crate) labels_js: JsValue,
    /// [`Names`] as JS: what `makePage` names the page's flags ([`PAGE_FLAGS`]), the counters
    /// ([`SourceStats::COUNTER_NAMES`]) and the estimates ([`SourceStats::ESTIMATE_NAMES`]) by.
    names: JsValue,
    /// The custom predicate's judges for `readChunk` (`super::predicate::judges`), or undefined.
    judges: JsValue,
}

impl JsPager {
    fn wrap(core: CorePager, predicate: Option<&Predicate>) -> JsPager {
        let mut labels = Vec::new();
        for s in &core.options().sources {
            labels.push(s.id.label());
        }
        let labels_js = to_js(&labels);
        let judges = super::predicate::judges(&core, predicate, &labels_js);
        let pager = JsPager {
            core: Rc::new(RefCell::new(core)),
            sources: Rc::new(Sources {
                labels,
                labels_js,
                names: to_js(&Names {
                    flags: &PAGE_FLAGS,
                    counters: &SourceStats::COUNTER_NAMES,
                    estimates: &SourceStats::ESTIMATE_NAMES,
                }),
                judges,
            }),
        };
        super::guard::guard(|| pager.driver_handle().into());
        pager
    }

    /// Another JS `Pager` over the same state, for `nextPage`'s driver (which frees it when done).
    pub(crate) fn driver_handle(&self) -> JsPager {
        JsPager {
            core: self.core.clone(),
            sources: self.sources.clone(),
        }
    }

    /// The label of the source a request is for (request ids carry their source's index), for
    /// the errors of its answer.
    fn source_of(&self, id: u64) -> &str {
        self.sources
            .labels
            .get(CorePager::request_source(id))
            .map_or("response", String::as_str)
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
        let (options, predicate) = super::predicate::options_from_js(&options)?;
        Ok(JsPager::wrap(js(Pager::new(options))?, predicate.as_ref()))
    }

    /// A pager resumed from a NextPageToken (a reload, a deep link).
    /// Throws `INVALID_PAGE_TOKEN`, `FILTER_MISMATCH` or `INVALID_OPTIONS`.
    pub fn resume(
        #[wasm_bindgen(unchecked_param_type = "string")] token: JsValue,
        #[wasm_bindgen(unchecked_param_type = "PagerOptions")] options: JsValue,
    ) -> JsResult<JsPager> {
        let token = string_arg(&token, "token", "INVALID_PAGE_TOKEN")?;
        let (options, predicate) = super::predicate::options_from_js(&options)?;
        Ok(JsPager::wrap(
            js(Pager::resume(&token, options))?,
            predicate.as_ref(),
        ))
    }

    /// The chunk requests to make now.
    #[wasm_bindgen(js_name = nextRequests, unchecked_return_type = "ChunkRequest[]")]
    pub fn next_requests(&self) -> JsResult<JsValue> {
        let requests = JsPager::with(&self.core, |p| p.next_requests())?;
        Ok(requests_to_js(&requests))
    }

    /// The requests to send ahead of the next call, right after a page was taken (what
    /// `nextPage`'s `prefetch` sends): those the next page needs first, at most `requests` of
    /// them (default 64: one per source) and at most `bytes` of answers by the core's estimate
    /// (default 1 MiB; the request's `limit` times the source's mean key-field bytes per item so
    /// far, 1 KiB before it answered). Empty when the next page is ready from what is buffered,
    /// when done, for a source set aside. Feed, fail or cancel them as any request.
    #[wasm_bindgen(js_name = prefetchRequests, unchecked_return_type = "ChunkRequest[]")]
    pub fn prefetch_requests(
        &self,
        requests: Option<u32>,
        bytes: Option<u32>,
    ) -> JsResult<JsValue> {
        let d = PrefetchBudget::default();
        let budget = PrefetchBudget {
            requests: requests.unwrap_or(d.requests),
            bytes: bytes.map_or(d.bytes, u64::from),
        };
        let requests = JsPager::with(&self.core, |p| p.prefetch_requests(budget))?;
        Ok(requests_to_js(&requests))
    }

    /// Feeds a chunk response for a request. Returns `"accepted"` or `"stale"` (ignored, counted).
    /// Throws `INVALID_RESPONSE`, `NO_PROGRESS`, `SOURCE_TOO_LARGE` or `PREDICATE_FAILED` (the
    /// custom predicate threw on one of its items); the pager is then unchanged.
    #[wasm_bindgen(unchecked_return_type = "FeedOutcome")]
    pub fn feed(
        &self,
        #[wasm_bindgen(js_name = requestId, unchecked_param_type = "number")] request_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "ChunkResponse")] response: JsValue,
    ) -> JsResult<String> {
        let id = to_request_id(&request_id)?;
        Ok(outcome(feed_js(
            &self.core,
            id,
            &response,
            self.source_of(id),
            &self.sources.labels_js,
            &self.sources.judges,
        )?))
    }

    /// Reports a failed request: `{ status, reason?, continue? }`, or a Kubernetes `Status` as it
    /// came (`code`, `reason`, `metadata.continue`). Returns what the pager did (`FailOutcome`):
    /// `"recovered"` (a 410 Expired on a kubernetes source, a refused offset past the end of a
    /// shrunken list), `"unreachable"` (the source is set aside), `"retry"` (a transient failure:
    /// 429, 502, 503, 504 or no answer) or `"failed"`; the last two clear the request, so the same
    /// request is asked again. Throws `INVALID_RESPONSE` (the request stays open) for a `reason`
    /// or `continue` that is not well-formed text.
    #[wasm_bindgen(unchecked_return_type = "FailOutcome")]
    pub fn fail(
        &self,
        #[wasm_bindgen(js_name = requestId, unchecked_param_type = "number")] request_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "ChunkFailure | KubernetesStatus")] failure: JsValue,
    ) -> JsResult<String> {
        let id = to_request_id(&request_id)?;
        let failure = super::options::failure_from_js(&failure, self.source_of(id))?;
        let result = JsPager::with(&self.core, |p| p.fail(id, failure))?;
        Ok(fail_outcome(js(result)?))
    }

    /// Withdraws request `requestId` unanswered because the caller gave up on it (an abort): the
    /// request is cleared and `nextRequests()` asks the same again, and nothing counts against its
    /// source (an abort is no failure: five in a row do not set it aside). A late answer to it is
    /// then stale. Returns whether it was an open request (`false`: nothing changed). Throws
    /// `INVALID_RESPONSE` for a `requestId` that is not a request id (as `feed` and `fail` do).
    pub fn cancel(
        &self,
        #[wasm_bindgen(js_name = requestId, unchecked_param_type = "number")] request_id: JsValue,
    ) -> JsResult<bool> {
        let id = to_request_id(&request_id)?;
        Ok(JsPager::with(&self.core, |p| p.cancel(id))?)
    }

    /// For `nextPage`'s driver alone: the wait before retry number `attempt` of a `"retry"`
    /// outcome, in milliseconds ([`RetryPolicy::delay_ms`]), or `undefined` when the policy's
    /// retries are spent (the call fails). `retries`, `baseDelayMs`, `maxDelayMs`: the call's
    /// `retry` option (`undefined`: the default's); `retryAfterMs`: the failure's `Retry-After`;
    /// `unit`: a uniform draw in [0, 1).
    #[wasm_bindgen(js_name = __retryDelay, skip_typescript)]
    pub fn retry_delay(
        attempt: u32,
        retry_after_ms: Option<f64>,
        retries: Option<u32>,
        base_delay_ms: Option<u32>,
        max_delay_ms: Option<u32>,
        unit: f64,
    ) -> Option<f64> {
        let d = RetryPolicy::default();
        let policy = RetryPolicy {
            retries: retries.unwrap_or(d.retries),
            base_delay_ms: base_delay_ms.unwrap_or(d.base_delay_ms),
            max_delay_ms: max_delay_ms.unwrap_or(d.max_delay_ms),
        };
        // A non-negative finite wait (NaN is not `>= 0`), in whole milliseconds.
        let after = retry_after_ms
            .filter(|ms| *ms >= 0.0)
            .map(|ms| ms.min(1e15) as u64);
        policy.delay_ms(attempt, after, unit).map(|ms| ms as f64)
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
            Some(page) => Ok(page_to_js(page, &self.sources)),
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
        let mut counters = Vec::new();
        JsPager::with(&self.core, |p| push_counters(&mut counters, p.stats()))?;
        Ok(make_page(
            &counters,
            None,
            &self.sources.labels_js,
            &JsValue::UNDEFINED,
            &self.sources.names,
        ))
    }

    /// Asks the unreachable sources again (`sourceIndex`: that one alone; an index that names no
    /// source retries none): the next page asks them what they failed to answer; their items the
    /// list went past come late, none twice. Returns how many sources it retried.
    #[wasm_bindgen(js_name = retryUnreachable)]
    pub fn retry_unreachable(
        &self,
        #[wasm_bindgen(js_name = sourceIndex)] source_index: Option<u32>,
    ) -> JsResult<u32> {
        let index = source_index.map(|i| i as usize);
        Ok(JsPager::with(&self.core, |p| {
            p.retry_unreachable(index).len() as u32
        })?)
    }
}
