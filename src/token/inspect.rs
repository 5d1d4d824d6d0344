//! Tells what kind of token a string is and shows its fields.
//!
//! The kinds are told apart by their look, then by decoding:
//! - `{...}` is a Kubeapps core token (raw JSON);
//! - `-1` or decimal digits is a Kubeapps plugin offset;
//! - anything else is tried as a page token, then as a Kubernetes continue
//!   token. When both fail, text starting with `eyJ` (base64 of `{"`) is
//!   most plausibly a continue token, anything else a page token (version 1
//!   page tokens start with `A`).

use crate::prelude::*;
use serde::Serialize;

use super::continue_token::ContinueToken;
use super::kind::kind_by_shape;
pub use super::kind::TokenKind;
use super::kubeapps::{CoreToken, PluginOffset};
use super::page_token::{decode_frame, PageToken};
use crate::error::{PagerError, TokenFault};

/// What a token is, with its decoded fields; or why it is invalid.
///
/// Serde view (for JS), tagged by `kind`:
/// - `{ kind: "page", version, byteLength, textLength, fingerprint, pageSize, sources }`
///   (the [`PageToken`] view; `byteLength` = the decoded frame, in bytes);
/// - `{ kind: "continue", version, resourceVersion, start, consistent }`;
/// - `{ kind: "kubeappsCore", entries: [{ plugin, offset }] }`;
/// - `{ kind: "kubeappsOffset", offset }` (`-1` = finished);
/// - `{ kind: "invalid", likelyKind, code, reason, message }`: `likelyKind` is
///   the most plausible of the four kinds above, `code` the error code its
///   decoder gives (`INVALID_PAGE_TOKEN`, ...), `reason` the [`TokenFault`] string.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum TokenInfo {
    /// A pager page token.
    #[serde(rename_all = "camelCase")]
    Page {
        /// Format version of the frame.
        version: u8,
        /// Length of the decoded frame (version, payload, check), in bytes.
        byte_length: usize,
        /// Length of the token text, in bytes.
        text_length: usize,
        /// The decoded token.
        #[serde(flatten)]
        token: PageToken,
    },
    /// A Kubernetes continue token.
    Continue(ContinueToken),
    /// A Kubeapps core API token.
    KubeappsCore(CoreToken),
    /// A Kubeapps plugin offset.
    KubeappsOffset {
        /// The offset, or finished.
        offset: PluginOffset,
    },
    /// No kind decodes it.
    #[serde(rename_all = "camelCase")]
    Invalid {
        /// The most plausible kind.
        likely_kind: TokenKind,
        /// The error code that kind's decoder gives.
        code: &'static str,
        /// Why, as a [`TokenFault`] string.
        reason: &'static str,
        /// What is wrong, for people.
        message: String,
    },
}

/// Tells a token's kind and decodes it. Never fails and never panics: a
/// token no decoder accepts gives [`TokenInfo::Invalid`].
///
/// `""` is invalid (reason `empty`): in every format it means "from the
/// start", so there is nothing to show.
///
/// ```
/// use kubeapps_pager::token::{inspect_token, PluginOffset, TokenInfo};
///
/// assert_eq!(inspect_token("-1"), TokenInfo::KubeappsOffset { offset: PluginOffset::Finished });
/// assert!(matches!(inspect_token("not a token!"), TokenInfo::Invalid { reason: "whitespace", .. }));
/// ```
pub fn inspect_token(text: &str) -> TokenInfo {
    if text.is_empty() {
        return invalid(
            TokenKind::Page,
            PagerError::page_token(
                TokenFault::Empty,
                "an empty token means \"from the start\" in every format; there is nothing to inspect",
            ),
        );
    }
    let shape = kind_by_shape(text);
    if shape == Some(TokenKind::KubeappsCore) {
        return match CoreToken::decode(text) {
            Ok(token) => TokenInfo::KubeappsCore(token),
            Err(e) => invalid(TokenKind::KubeappsCore, e),
        };
    }
    if shape == Some(TokenKind::KubeappsOffset) {
        return match PluginOffset::decode(text) {
            Ok(offset) => TokenInfo::KubeappsOffset { offset },
            Err(e) => invalid(TokenKind::KubeappsOffset, e),
        };
    }
    let page_error = match decode_frame(text) {
        Ok((token, info)) => {
            return TokenInfo::Page {
                version: info.version,
                byte_length: info.byte_len,
                text_length: text.len(),
                token,
            }
        }
        Err(e) => e,
    };
    match ContinueToken::decode(text) {
        Ok(token) => TokenInfo::Continue(token),
        Err(e) if shape == Some(TokenKind::Continue) => invalid(TokenKind::Continue, e),
        Err(_) => invalid(TokenKind::Page, page_error),
    }
}

fn invalid(likely_kind: TokenKind, error: PagerError) -> TokenInfo {
    let code = error.code();
    let (reason, message) = match error {
        PagerError::InvalidPageToken { reason, message }
        | PagerError::InvalidContinueToken { reason, message }
        | PagerError::InvalidKubeappsToken { reason, message } => (reason.as_str(), message),
        other => (TokenFault::Malformed.as_str(), other.message()),
    };
    TokenInfo::Invalid {
        likely_kind,
        code,
        reason,
        message,
    }
}
