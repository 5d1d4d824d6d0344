//! Pager options from JS: the `PagerOptions` shape of the `.d.ts`, read by [`crate::view`].

use crate::error::{PagerError, Result};
use crate::options::PagerOptions;

/// Checked core options from a JS value; `INVALID_OPTIONS` names what did not fit.
pub(crate) fn options_from_js(value: wasm_bindgen::JsValue) -> Result<PagerOptions> {
    let text = super::convert::json_text(&value).map_err(|m| PagerError::options("options", m))?;
    crate::view::read_options(&text)
}
