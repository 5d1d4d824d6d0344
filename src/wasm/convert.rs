//! Conversions between JS values and JSON text: `JSON.stringify` / `JSON.parse` on the JS side
//! (see `json.js`), [`crate::view`]'s readers and writers here. One crossing per value, and no
//! serde in the wasm.

use crate::prelude::*;
use wasm_bindgen::prelude::*;

use crate::json::Writer;

#[wasm_bindgen(module = "/src/wasm/json.js")]
extern "C" {
    #[wasm_bindgen(js_name = toJson)]
    fn to_json(value: &JsValue) -> JsValue;
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

/// The JSON text of a JS value (`undefined` reads as `null`), or why it has none (a cycle, a
/// BigInt, a throwing getter).
pub(crate) fn json_text(value: &JsValue) -> Result<String, String> {
    let text = to_json(value);
    match text.as_string() {
        Some(text) => Ok(text),
        None => Err(js_sys::Reflect::get(&text, &"error".into())
            .ok()
            .and_then(|e| e.as_string())
            .unwrap_or_else(|| "the value cannot be read".into())),
    }
}
