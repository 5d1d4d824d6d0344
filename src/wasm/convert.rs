//! Serde conversions between JS values and core types.

use serde::{de::DeserializeOwned, Serialize};
use wasm_bindgen::JsValue;

/// A plain JS value (objects, not `Map`s; `null`, not `undefined`) for a serializable core value.
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, serde_wasm_bindgen::Error> {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
}

/// A core value from a JS value; the error message names the field that did not fit.
pub(crate) fn from_js<T: DeserializeOwned>(value: JsValue) -> Result<T, String> {
    serde_wasm_bindgen::from_value(value).map_err(|e| e.to_string())
}
