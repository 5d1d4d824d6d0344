//! Conversions between JS values and core types, as JSON text: `JSON.stringify` / `JSON.parse` on the
//! JS side (see `json.js`) and serde_json here. One crossing per value, and one serializer in the wasm
//! (serde_json, which the token codecs need anyway) instead of a second, per-type one.

use serde::{de::DeserializeOwned, Serialize};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/wasm/json.js")]
extern "C" {
    #[wasm_bindgen(js_name = toJson)]
    fn to_json(value: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = fromJson)]
    fn from_json(text: &str) -> JsValue;
}

/// A plain JS value (objects, not `Map`s; `null` for `None`) for a serializable core value.
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, String> {
    serde_json::to_string(value)
        .map(|text| from_json(&text))
        .map_err(|e| e.to_string())
}

/// A core value from a JS value; the error message says what did not fit, and where.
pub(crate) fn from_js<T: DeserializeOwned>(value: JsValue) -> Result<T, String> {
    let text = to_json(&value);
    match text.as_string() {
        Some(text) => serde_json::from_str(&text).map_err(|e| e.to_string()),
        None => Err(js_sys::Reflect::get(&text, &"error".into())
            .ok()
            .and_then(|e| e.as_string())
            .unwrap_or_else(|| "the value cannot be read".into())),
    }
}
