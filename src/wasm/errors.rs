//! Maps [`PagerError`] to the JS `PagerError` class (defined in `errors.js`).

use crate::prelude::*;
use wasm_bindgen::prelude::*;

use crate::error::PagerError;

#[wasm_bindgen(module = "/src/wasm/errors.js")]
extern "C" {
    #[wasm_bindgen(js_name = makeError)]
    fn make_error(code: &str, message: &str, details: JsValue) -> JsValue;
    /// `makeError` itself, for the other snippets (they cannot import this module).
    #[wasm_bindgen(js_name = errorMaker)]
    pub(crate) fn error_maker() -> JsValue;
}

/// The JS `PagerError` for a core error: `code`, `message`, and `details` as a plain object.
pub(crate) fn to_js(err: &PagerError) -> JsValue {
    let details = super::convert::write_js(|w| crate::view::write_error_details(w, err));
    make_error(err.code(), &err.message(), details)
}

/// `Result<T, JsValue>` with the error already a JS `PagerError`.
pub(crate) type JsResult<T> = Result<T, JsValue>;

/// Converts a core result for returning to JS.
pub(crate) fn js<T>(r: crate::Result<T>) -> JsResult<T> {
    r.map_err(|e| to_js(&e))
}

/// A JS `PagerError` for a failure only the boundary sees (`ABORTED`, `SOURCE_FAILED`, `REENTRANT_CALL`, ...).
pub(crate) fn boundary_error(code: &str, message: &str) -> JsValue {
    make_error(code, message, js_sys::Object::new().into())
}

/// A string argument, or the error for `code` (wasm-bindgen's own conversion would throw a TypeError).
pub(crate) fn string_arg(value: &JsValue, what: &str, code: &str) -> JsResult<String> {
    value
        .as_string()
        .ok_or_else(|| boundary_error(code, &text!(what, " must be a string")))
}
