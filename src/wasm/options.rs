//! The pager's JS inputs: `PagerOptions` and `fail()`'s failure, read against their `.d.ts`
//! shapes by `inputs.js` (which throws the `PagerError`s of what does not fit) and handed over
//! packed in the order [`super::view`] hands them (its `*_ORDER`), for it to unpack.

use crate::prelude::*;
use wasm_bindgen::prelude::*;

use super::errors::{js, JsResult};
use crate::filter::FilterOptions;
use crate::options::PagerOptions;
use crate::pager::Failure;

#[wasm_bindgen(module = "/src/wasm/inputs.js")]
extern "C" {
    #[wasm_bindgen(catch, js_name = readOptions)]
    fn read_options(options: &JsValue, order: &str) -> JsResult<String>;
    #[wasm_bindgen(catch, js_name = readFailure)]
    fn read_failure(failure: &JsValue, source: &str, order: &str) -> JsResult<String>;
    #[wasm_bindgen(catch, js_name = readFilter)]
    fn read_filter(filter: &JsValue, order: &str) -> JsResult<String>;
}

/// A `FilterOptions` from a JS value (`undefined` or `null`: none); `INVALID_OPTIONS` names what
/// did not fit.
pub(crate) fn filter_from_js(value: &JsValue) -> JsResult<FilterOptions> {
    Ok(super::view::unpack_filter(&read_filter(
        value,
        super::view::FILTER_ORDER,
    )?))
}

// kube.js (a resource source read into a `kubernetes` one, the multi-cluster fetcher) is imported
// by inputs.js, not called by the wasm: declared here so that wasm-bindgen copies it beside the
// other snippets (it copies every module a binding names, called or not).
#[wasm_bindgen(module = "/src/wasm/kube.js")]
extern "C" {
    #[wasm_bindgen(js_name = resourceKey)]
    #[allow(dead_code)]
    fn resource_key(resource: &JsValue, field: &str) -> String;
}

/// Checked core options from a JS value; `INVALID_OPTIONS` names what did not fit.
pub(crate) fn options_from_js(value: &JsValue) -> JsResult<PagerOptions> {
    let options = super::view::unpack_options(&read_options(value, super::view::OPTIONS_ORDER)?);
    js(options.validate())?;
    Ok(options)
}

/// A failure `{ status, reason?, continue? }` (or an `Error` carrying them, or in its `details`).
/// `INVALID_RESPONSE` naming `source` when `reason` or `continue` holds a lone surrogate (it would
/// reach the core as U+FFFD: a recovery would continue from another token than the server's).
pub(crate) fn failure_from_js(value: &JsValue, source: &str) -> JsResult<Failure> {
    Ok(super::view::unpack_failure(&read_failure(
        value,
        source,
        super::view::FAILURE_ORDER,
    )?))
}
