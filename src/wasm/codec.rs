//! Token codecs for JS: page tokens, Kubernetes continue tokens, Kubeapps tokens, the inspector.

use crate::prelude::*;
use wasm_bindgen::prelude::*;

use super::convert::to_js;
use super::errors::{js, string_arg, to_js as error_to_js, JsResult};
use super::view::{self, ResourceVersion};
use crate::error::{PagerError, TokenFault};
use crate::token::inspect::TokenKind;
use crate::token::{inspect_token, ContinueToken, CoreToken, PageToken, PluginOffset, TokenInfo};

#[wasm_bindgen(module = "/src/wasm/codec.js")]
extern "C" {
    #[wasm_bindgen(js_name = makeTokenState)]
    fn make_token_state(packed: &str, page: bool) -> JsValue;
    #[wasm_bindgen(js_name = toJson)]
    fn to_json(value: &JsValue) -> JsValue;
}

/// The JSON text of a JS value (`undefined` reads as `null`), or why it has none (a cycle, a
/// BigInt, a throwing getter).
fn json_text(value: &JsValue) -> Result<String, String> {
    let text = to_json(value);
    match text.as_string() {
        Some(text) => Ok(text),
        None => Err(js_sys::Reflect::get(&text, &"error".into())
            .ok()
            .and_then(|e| e.as_string())
            .unwrap_or_else(|| "the value cannot be read".into())),
    }
}

fn string(token: &JsValue, code: &str) -> JsResult<String> {
    string_arg(token, "token", code)
}

/// Encodes a page token state as an URL-safe NextPageToken. Throws `INVALID_PAGE_TOKEN`.
#[wasm_bindgen(js_name = encodePageToken, unchecked_return_type = "string")]
pub fn encode_page_token(
    #[wasm_bindgen(unchecked_param_type = "PageTokenState")] state: JsValue,
) -> JsResult<String> {
    let state = json_text(&state)
        .and_then(|text| view::read_page_token(&text))
        .map_err(|m| error_to_js(&PagerError::page_token(TokenFault::Malformed, m)))?;
    js(state.encode())
}

/// Decodes a NextPageToken. Throws `INVALID_PAGE_TOKEN` with `details.reason`.
#[wasm_bindgen(js_name = decodePageToken, unchecked_return_type = "PageTokenState")]
pub fn decode_page_token(
    #[wasm_bindgen(unchecked_param_type = "string")] token: JsValue,
) -> JsResult<JsValue> {
    let token = js(PageToken::decode(&string(&token, "INVALID_PAGE_TOKEN")?))?;
    // Built in JS in one call (no JSON text to write and parse: a third of the time, measured).
    Ok(make_token_state(&view::pack_page_token(&token), false))
}

/// Encodes a Kubernetes continue token (apiserver format). Throws `INVALID_CONTINUE_TOKEN`.
#[wasm_bindgen(js_name = encodeContinueToken, unchecked_return_type = "string")]
pub fn encode_continue_token(
    #[wasm_bindgen(unchecked_param_type = "ContinueTokenInput")] input: JsValue,
) -> JsResult<String> {
    let (rv, start) = json_text(&input)
        .and_then(|text| view::read_continue_input(&text))
        .map_err(|m| error_to_js(&PagerError::continue_token(TokenFault::Malformed, m)))?;
    let rv = match rv {
        ResourceVersion::Number(n) => n,
        ResourceVersion::Text(t) => t.parse().map_err(|_| {
            error_to_js(&PagerError::continue_token(
                TokenFault::InvalidField,
                "resourceVersion is not a 64-bit integer",
            ))
        })?,
    };
    js(ContinueToken::new(rv, start).encode())
}

/// Decodes a Kubernetes continue token. Throws `INVALID_CONTINUE_TOKEN` with `details.reason`.
#[wasm_bindgen(js_name = decodeContinueToken, unchecked_return_type = "ContinueTokenFields")]
pub fn decode_continue_token(
    #[wasm_bindgen(unchecked_param_type = "string")] token: JsValue,
) -> JsResult<JsValue> {
    let token = js(ContinueToken::decode(&string(
        &token,
        "INVALID_CONTINUE_TOKEN",
    )?))?;
    Ok(to_js(&token))
}

/// Decodes a Kubeapps token: the core API's `{"plugin": offset}` map or a plugin's decimal offset.
/// Throws `INVALID_KUBEAPPS_TOKEN`.
#[wasm_bindgen(js_name = decodeKubeappsToken, unchecked_return_type = "KubeappsToken")]
pub fn decode_kubeapps_token(
    #[wasm_bindgen(unchecked_param_type = "string")] token: JsValue,
) -> JsResult<JsValue> {
    let token = string(&token, "INVALID_KUBEAPPS_TOKEN")?;
    if token.trim_start().starts_with('{') {
        let core = js(CoreToken::decode(&token))?;
        Ok(to_js(&view::KubeappsToken::Core(core)))
    } else {
        let offset = js(PluginOffset::decode(&token))?;
        Ok(to_js(&view::KubeappsToken::Offset { offset }))
    }
}

/// Tells which kind a token is and returns its fields, or why it is invalid. Never throws.
#[wasm_bindgen(js_name = inspectToken, unchecked_return_type = "TokenInfo")]
pub fn inspect(
    #[wasm_bindgen(unchecked_param_type = "string")] token: JsValue,
) -> JsResult<JsValue> {
    // A non-string is an invalid token, not a throw: the inspector never throws.
    let info = match super::convert::exact_string(&token) {
        Some(Ok(token)) => inspect_token(&token),
        // A lone surrogate (read as U+FFFD it could decode): invalid, for the kind it looks like.
        Some(Err(())) => {
            let likely_kind = match inspect_token(&token.as_string().unwrap_or_default()) {
                TokenInfo::Page { .. } => TokenKind::Page,
                TokenInfo::Continue(_) => TokenKind::Continue,
                TokenInfo::KubeappsCore(_) => TokenKind::KubeappsCore,
                TokenInfo::KubeappsOffset { .. } => TokenKind::KubeappsOffset,
                TokenInfo::Invalid { likely_kind, .. } => likely_kind,
            };
            let code = match likely_kind {
                TokenKind::Page => "INVALID_PAGE_TOKEN",
                TokenKind::Continue => "INVALID_CONTINUE_TOKEN",
                _ => "INVALID_KUBEAPPS_TOKEN",
            };
            TokenInfo::Invalid {
                likely_kind,
                code,
                reason: TokenFault::NotUtf8.as_str(),
                message: "the token is not well-formed text (a lone surrogate)".into(),
            }
        }
        None => TokenInfo::Invalid {
            likely_kind: TokenKind::Page,
            code: "INVALID_PAGE_TOKEN",
            reason: TokenFault::Malformed.as_str(),
            message: "a token is a string".into(),
        },
    };
    // A page token's fields as `decodePageToken` builds them, after its four members.
    if let TokenInfo::Page {
        version,
        byte_length,
        text_length,
        token,
    } = &info
    {
        let mut packed = view::pack_page_token(token);
        for n in [(*version).into(), *byte_length as u32, *text_length as u32] {
            view::push_number(&mut packed, n);
        }
        return Ok(make_token_state(&packed, true));
    }
    Ok(to_js(&info))
}
