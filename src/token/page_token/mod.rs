//! The pager's NextPageToken: every source's position, in one URL-safe string.
//!
//! # Text and frame
//!
//! The token is base64url without padding (RFC 4648 §5, alphabet
//! `A-Z a-z 0-9 - _`) of the frame
//!
//! ```text
//! frame := version:u8  payload  check:u32-LE
//! ```
//!
//! where `check` is the CRC-32 (IEEE, see [`crc32`](super::crc32)) of `version` and
//! `payload`. The frame is the same for every version; this build writes and
//! reads version 1 ([`PAGE_TOKEN_VERSION`]). A token is at most
//! [`MAX_TOKEN_LEN`] (8 KiB) of text and holds at most [`MAX_SOURCES`] (64)
//! sources.
//!
//! # Payload, version 1
//!
//! The payload is the [postcard](https://postcard.jamesmunns.com/wire-format)
//! encoding of the private `WireToken` struct of the writer (written by hand;
//! a test checks it against postcard itself), that is:
//!
//! ```text
//! payload   := fingerprint:[u8;8] (u64, little-endian)  page_size:varint  count:varint  source{count}
//! source    := plugin:Plugin  cluster:str  namespace:str  chunk_token:Text  offset:varint
//!              watermark:Option<Mark>  resource_version:Text  exhausted:bool  flags:u8
//!              [anchors]  [late]
//! flags     := bit 0 inconsistent, bit 1 behind, bit 2 `anchors` follows, bit 3 `late` follows
//!              (other bits set: malformed; a token written before `behind` existed has 0 or 1
//!              here, the bool it was; one written before `anchors` and `late` has at most 3)
//! anchors   := n:varint (1 or 2)  hash:[u8;8]{n} (u64, little-endian: xxh64 of an item's merge
//!              key, see SourceState::anchors)
//! late      := 0 (= the watermark) | 1 Mark      (see SourceState::late_watermark)
//! Plugin    := 0 name:str | 1 (= "helm.packages") | 2 (= "fluxv2.packages")
//!            | 3 (= "kapp_controller.packages")
//! Text      := 0 (= "") | 1 text:str | 2 n:varint-u64 (= n in decimal)
//!            | 3 bytes:str (= base64url of the bytes, unpadded)
//!            | 4 rv:zigzag-varint-i64 start:str (= the apiserver's continue token
//!              {"v":"meta.k8s.io/v1","rv":rv,"start":start}, see ContinueToken::encode)
//! Mark      := sort_key:str  plugin:Option<Plugin>  cluster:Option<str>  namespace:Option<str>  Identifier
//!              (an absent plugin, cluster or namespace = the source's own)
//! Identifier:= 0 identifier:str | 1 repo:str (= repo + "/" + sort_key)
//! Option<T> := 0 | 1 T          bool := 0 | 1
//! str       := len:varint  UTF-8 bytes
//! varint    := unsigned LEB128, at most 5 bytes for u32, 10 for u64 (postcard's varint)
//! ```
//!
//! Every compact form is chosen by the encoder only when it writes the
//! original text back byte for byte: `Text 2` only for canonical decimals
//! (`0`, or no leading zero, fitting u64); `Text 4` only when the token
//! decodes as a continue token and re-encodes to the same text; `Text 3` only
//! for canonical unpadded base64url; `Identifier 1` only when the identifier is
//! exactly `repo/sort_key`. Decoding rebuilds the original strings.
//!
//! # Decoding
//!
//! [`PageToken::decode`] fails with `INVALID_PAGE_TOKEN` and a reason
//! ([`TokenFault`](crate::TokenFault)), in this order: `empty`; `too-long` (over 8 KiB of text,
//! before any decoding); the base64 faults of
//! [`base64url`](super::base64url); `truncated` (fewer than 5 bytes, or a check
//! that fails on a frame cut short); `integrity` (the check fails);
//! `unknown-version`; then, in the payload: `too-many-sources` (a count over 64,
//! before allocating anything for it), `overflow` (a varint too long for its
//! field), `not-utf8`, `truncated` (the payload ends inside a field),
//! `malformed` (an unknown tag, a bool or option byte other than 0 or 1, a
//! continue-token form that is not a valid continue token, trailing bytes).
//! Allocation is bounded by the input: see `examples/fuzz_decoders.rs`.
//!
//! # Modules
//!
//! Each imports only the ones listed before it: `wire` (the format's constants), `view` (the
//! decoded values and their serde view), `writer` and `reader` (the payload), `frame` (version,
//! check and text around the payload). This module holds [`PageToken::encode`] and
//! [`PageToken::decode`] over them.

use crate::prelude::*;

mod frame;
mod reader;
mod view;
mod wire;
mod writer;

#[cfg(test)]
mod tests;

pub(crate) use frame::{decode_frame, encode_position};
pub use view::{PageToken, SourceState, Watermark};
pub use wire::{MAX_ANCHORS, MAX_SOURCES, MAX_TOKEN_LEN, PAGE_TOKEN_VERSION};
pub(crate) use writer::{text_wire, SourceRef};

use crate::error::{PagerError, Result};
use crate::token::kind::other_kind;

impl PageToken {
    /// Encodes the token: base64url without padding. See the module docs for the layout.
    ///
    /// The text matches `^[A-Za-z0-9_-]*$` and decodes back to `self`
    /// exactly. Errors: `INVALID_PAGE_TOKEN` with `too-many-sources` (over 64
    /// sources) or `too-long` (a text over 8 KiB, e.g. from very long keys or
    /// source tokens).
    pub fn encode(&self) -> Result<String> {
        encode_position(self.fingerprint, self.page_size, self.sources.len(), &|i| {
            self.sources.get(i).map(SourceState::borrowed)
        })
    }

    /// Decodes a token written by this or an earlier version.
    ///
    /// Errors: `INVALID_PAGE_TOKEN` with the reasons listed in the module docs; for a token of
    /// another kind's shape (a Kubernetes continue token, a Kubeapps core or plugin token) the
    /// message begins by naming that kind.
    pub fn decode(token: &str) -> Result<PageToken> {
        decode_frame(token)
            .map(|(token, _)| token)
            .map_err(|e| match (e, other_kind(token)) {
                (PagerError::InvalidPageToken { reason, message }, Some(kind)) => {
                    PagerError::InvalidPageToken {
                        reason,
                        message: format!(
                            "this looks like {kind}, not a page token of this pager; {message}"
                        ),
                    }
                }
                (e, _) => e,
            })
    }
}
