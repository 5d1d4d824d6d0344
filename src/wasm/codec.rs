//! Token codecs for JS: page tokens, Kubernetes continue tokens, Kubeapps tokens, the inspector.

use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use super::convert::{from_js, to_js};
use super::errors::{js, to_js as error_to_js, JsResult};
use crate::error::{PagerError, TokenFault};
use crate::token::inspect::TokenKind;
use crate::token::{inspect_token, ContinueToken, CoreToken, PageToken, PluginOffset, TokenInfo};

/// Input of `encodeContinueToken`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ContinueInput {
    resource_version: Rv,
    start: String,
}

/// A resourceVersion as JS may give it: a whole number, or the decimal string Kubernetes writes.
#[derive(Deserialize)]
#[serde(untagged)]
enum Rv {
    Number(i64),
    Text(String),
}

/// `decodeKubeappsToken`'s answer: `{ kind: "core", entries }` or `{ kind: "offset", offset }`.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
enum KubeappsToken {
    Core(CoreToken),
    Offset { offset: PluginOffset },
}

fn serialize<T: Serialize>(value: &T, code: &str) -> JsResult<JsValue> {
    to_js(value).map_err(|m| super::errors::boundary_error(code, &m))
}

fn string(token: &JsValue, code: &str) -> JsResult<String> {
    super::pager::string_arg(token, "token", code)
}

/// Encodes a page token state as an URL-safe NextPageToken. Throws `INVALID_PAGE_TOKEN`.
#[wasm_bindgen(js_name = encodePageToken, unchecked_return_type = "string")]
pub fn encode_page_token(
    #[wasm_bindgen(unchecked_param_type = "PageTokenState")] state: JsValue,
) -> JsResult<String> {
    let state: PageToken = from_js(state)
        .map_err(|m| error_to_js(&PagerError::page_token(TokenFault::Malformed, m)))?;
    js(state.encode())
}

/// Decodes a NextPageToken. Throws `INVALID_PAGE_TOKEN` with `details.reason`.
#[wasm_bindgen(js_name = decodePageToken, unchecked_return_type = "PageTokenState")]
pub fn decode_page_token(
    #[wasm_bindgen(unchecked_param_type = "string")] token: JsValue,
) -> JsResult<JsValue> {
    let token = string(&token, "INVALID_PAGE_TOKEN")?;
    serialize(&js(PageToken::decode(&token))?, "INVALID_PAGE_TOKEN")
}

/// Encodes a Kubernetes continue token (apiserver format). Throws `INVALID_CONTINUE_TOKEN`.
#[wasm_bindgen(js_name = encodeContinueToken, unchecked_return_type = "string")]
pub fn encode_continue_token(
    #[wasm_bindgen(unchecked_param_type = "ContinueTokenInput")] input: JsValue,
) -> JsResult<String> {
    let input: ContinueInput = from_js(input)
        .map_err(|m| error_to_js(&PagerError::continue_token(TokenFault::Malformed, m)))?;
    let rv = match input.resource_version {
        Rv::Number(n) => n,
        Rv::Text(t) => t.parse().map_err(|_| {
            error_to_js(&PagerError::continue_token(
                TokenFault::InvalidField,
                "resourceVersion is not a 64-bit integer",
            ))
        })?,
    };
    js(ContinueToken::new(rv, input.start).encode())
}

/// Decodes a Kubernetes continue token. Throws `INVALID_CONTINUE_TOKEN` with `details.reason`.
#[wasm_bindgen(js_name = decodeContinueToken, unchecked_return_type = "ContinueTokenFields")]
pub fn decode_continue_token(
    #[wasm_bindgen(unchecked_param_type = "string")] token: JsValue,
) -> JsResult<JsValue> {
    let token = string(&token, "INVALID_CONTINUE_TOKEN")?;
    serialize(
        &js(ContinueToken::decode(&token))?,
        "INVALID_CONTINUE_TOKEN",
    )
}

/// Decodes a Kubeapps token: the core API's `{"plugin": offset}` map or a plugin's decimal offset.
/// Throws `INVALID_KUBEAPPS_TOKEN`.
#[wasm_bindgen(js_name = decodeKubeappsToken, unchecked_return_type = "KubeappsToken")]
pub fn decode_kubeapps_token(
    #[wasm_bindgen(unchecked_param_type = "string")] token: JsValue,
) -> JsResult<JsValue> {
    let token = string(&token, "INVALID_KUBEAPPS_TOKEN")?;
    let decoded = if token.trim_start().starts_with('{') {
        KubeappsToken::Core(js(CoreToken::decode(&token))?)
    } else {
        KubeappsToken::Offset {
            offset: js(PluginOffset::decode(&token))?,
        }
    };
    serialize(&decoded, "INVALID_KUBEAPPS_TOKEN")
}

/// Tells which kind a token is and returns its fields, or why it is invalid. Never throws.
#[wasm_bindgen(js_name = inspectToken, unchecked_return_type = "TokenInfo")]
pub fn inspect(
    #[wasm_bindgen(unchecked_param_type = "string")] token: JsValue,
) -> JsResult<JsValue> {
    // A non-string is an invalid token, not a throw: the inspector never throws.
    let info = match token.as_string() {
        Some(token) => inspect_token(&token),
        None => TokenInfo::Invalid {
            likely_kind: TokenKind::Page,
            code: "INVALID_PAGE_TOKEN",
            reason: TokenFault::Malformed.as_str(),
            message: "a token is a string".into(),
        },
    };
    serialize(&info, "INVALID_PAGE_TOKEN")
}
