//! Conversions to JS values: the serde views of the crate's values, by serde-wasm-bindgen.

use crate::prelude::*;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/wasm/json.js")]
extern "C" {
    #[wasm_bindgen(js_name = wellFormed)]
    fn well_formed(value: &JsValue) -> bool;
}

/// A JS string as it is: `None` for a non-string, `Some(Err(()))` for a string with a lone
/// surrogate (wasm-bindgen's `as_string` would give U+FFFD in its place). Only a string whose
/// conversion holds U+FFFD is checked again on the JS side (one more crossing, rarely).
pub(crate) fn exact_string(value: &JsValue) -> Option<Result<String, ()>> {
    let s = value.as_string()?;
    if s.as_bytes().windows(3).any(|w| w == [0xEF, 0xBF, 0xBD]) && !well_formed(value) {
        return Some(Err(()));
    }
    Some(Ok(s))
}

/// The plain JS value of `value`'s serde view, as `JSON.parse` would give its JSON: objects (not
/// `Map`s) for maps and structs, numbers for integers (every one handed out is below 2^53).
pub(crate) fn to_js<T: serde::Serialize + ?Sized>(value: &T) -> JsValue {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or(JsValue::NULL)
}
