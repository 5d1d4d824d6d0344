//! Conversions to JS values from JSON text: `JSON.parse` on the JS side (see `json.js`),
//! [`crate::view`]'s writers here. One crossing per value, and no serde in the wasm.

use crate::prelude::*;
use wasm_bindgen::prelude::*;

use crate::json::Writer;

#[wasm_bindgen(module = "/src/wasm/json.js")]
extern "C" {
    #[wasm_bindgen(js_name = fromJson)]
    fn from_json(text: &str) -> JsValue;
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

/// The plain JS value (objects, arrays, `null`) of the JSON text written.
pub(crate) fn to_js(written: Writer) -> JsValue {
    from_json(&written.finish())
}

/// Writes a value with `write` and gives its JS value.
pub(crate) fn write_js(write: impl FnOnce(&mut Writer)) -> JsValue {
    let mut w = Writer::new();
    write(&mut w);
    to_js(w)
}
