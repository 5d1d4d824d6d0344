//! Maps [`PagerError`] to the JS `PagerError` class (defined in `errors.js`).

use crate::prelude::*;
use wasm_bindgen::prelude::*;

use crate::error::{PagerError, TokenFault};

#[wasm_bindgen(module = "/src/wasm/errors.js")]
extern "C" {
    #[wasm_bindgen(js_name = makeError)]
    fn make_error(code: &str, message: &str, details: JsValue) -> JsValue;
}

/// The JS `PagerError` for a core error: `code`, `message`, and `details` as a plain object.
pub(crate) fn to_js(err: &PagerError) -> JsValue {
    let details = super::convert::to_js(&err.details());
    make_error(err.code(), &err.message(), details)
}

/// `Result<T, JsValue>` with the error already a JS `PagerError`.
pub(crate) type JsResult<T> = Result<T, JsValue>;

/// Converts a core result for returning to JS.
pub(crate) fn js<T>(r: crate::Result<T>) -> JsResult<T> {
    r.map_err(|e| to_js(&e))
}

/// A JS `PagerError` for a failure only the boundary sees (`REENTRANT_CALL`, `INVALID_RESPONSE`
/// for a request id it never gave), with empty `details` (`makeError` fills in `{}`).
pub(crate) fn boundary_error(code: &str, message: &str) -> JsValue {
    make_error(code, message, JsValue::UNDEFINED)
}

/// A token argument: a string of well-formed text, or the token error for `code` (with a
/// `details.reason`: `malformed` for a non-string, `not-utf8` for a lone surrogate, which
/// wasm-bindgen's own conversion would turn into U+FFFD).
pub(crate) fn string_arg(value: &JsValue, what: &str, code: &str) -> JsResult<String> {
    let (reason, message) = match super::convert::exact_string(value) {
        Some(Ok(s)) => return Ok(s),
        Some(Err(())) => (
            TokenFault::NotUtf8,
            format!("{what} is not well-formed text (a lone surrogate)"),
        ),
        None => (TokenFault::Malformed, format!("{what} must be a string")),
    };
    let err = match code {
        "INVALID_CONTINUE_TOKEN" => PagerError::continue_token(reason, message),
        "INVALID_KUBEAPPS_TOKEN" => PagerError::kubeapps_token(reason, message),
        _ => PagerError::page_token(reason, message),
    };
    Err(to_js(&err))
}
