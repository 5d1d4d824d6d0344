//! The kinds of token this crate knows, and telling them apart by their shape alone.
//!
//! Contract of [`kind_by_shape`]: a Kubeapps core token is JSON (`{` after optional white space),
//! a plugin's token a decimal offset (digits, optionally signed), a Kubernetes continue token
//! base64 of JSON (`eyJ`, the base64 of `{"`, which no page token's frame starts with: version 1
//! page tokens start with `A`); anything else is taken for a page token (`None`). No decoding:
//! the pager's entry names a pasted token of another kind without linking that kind's decoder.

use serde::Serialize;

/// The kinds of token [`inspect_token`](super::inspect_token) knows. Serde: `"page"`,
/// `"continue"`, `"kubeappsCore"`, `"kubeappsOffset"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum TokenKind {
    /// The pager's NextPageToken.
    Page,
    /// A Kubernetes continue token.
    Continue,
    /// A Kubeapps core API token.
    KubeappsCore,
    /// A Kubeapps plugin offset.
    KubeappsOffset,
}

/// A token's kind by its shape alone (see the module docs); `None` for anything else (a page
/// token).
pub(crate) fn kind_by_shape(text: &str) -> Option<TokenKind> {
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    if text.trim_start().starts_with('{') {
        Some(TokenKind::KubeappsCore)
    } else if !unsigned.is_empty() && unsigned.bytes().all(|b| b.is_ascii_digit()) {
        Some(TokenKind::KubeappsOffset)
    } else if text.starts_with("eyJ") {
        Some(TokenKind::Continue)
    } else {
        None
    }
}

/// What `text` looks like when its shape is that of a token of another kind than a page token
/// ([`kind_by_shape`]), for a page token error to say so: such a token pasted where a
/// NextPageToken belongs fails with an unrelated-looking reason.
pub(crate) fn other_kind(text: &str) -> Option<&'static str> {
    match kind_by_shape(text)? {
        TokenKind::KubeappsCore => {
            Some("a Kubeapps core API page token (JSON of per-plugin offsets)")
        }
        TokenKind::KubeappsOffset => Some("a Kubeapps plugin's page token (a decimal item offset)"),
        TokenKind::Continue => {
            Some("a Kubernetes continue token (base64 of JSON, k8s.io/apiserver/pkg/storage)")
        }
        TokenKind::Page => None,
    }
}
