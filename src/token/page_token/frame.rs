//! The frame and its text: `version:u8 payload check:u32-LE`, the check the CRC-32 of version and
//! payload, sent as base64url without padding (the layout of [the module docs](super)).
//!
//! Contract: [`encode_position`] refuses more than [`MAX_SOURCES`] sources and a text over
//! [`MAX_TOKEN_LEN`] (`too-many-sources`, `too-long`) and otherwise writes the one text of the
//! position. [`decode_frame`] reads any text and either gives back the position with what the
//! frame said (its version and length) or an `INVALID_PAGE_TOKEN` whose reason is the first fault
//! in the order the module docs list them; a failed check is told apart as `truncated` (bytes
//! missing at the end) or `integrity` (bytes altered).

use crate::prelude::*;

use super::reader::{read_token, Reader, WireError};
use super::view::PageToken;
use super::wire::{MAX_SOURCES, MAX_TOKEN_LEN, PAGE_TOKEN_VERSION};
use super::writer::{write_payload, SourceRef, Writer};
use crate::error::{PagerError, Result, TokenFault};
use crate::token::base64url::{self, DecodeRules};
use crate::token::crc32;

/// What the frame said besides the token: for [`inspect_token`](crate::token::inspect_token).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FrameInfo {
    /// The format version byte.
    pub version: u8,
    /// Length of the decoded frame (version, payload and check), in bytes.
    pub byte_len: usize,
}

/// The page token of a position held as borrowed parts: byte for byte
/// [`PageToken::encode`](super::PageToken::encode) of the same state, without copying it first.
/// `source(i)` gives source `i` of `count`, each written as it comes (no list of them is built: a
/// `dyn` getter, so one copy of the code serves the pager and `PageToken::encode`).
pub(crate) fn encode_position<'a>(
    fingerprint: u64,
    page_size: u32,
    count: usize,
    source: &dyn Fn(usize) -> Option<SourceRef<'a>>,
) -> Result<String> {
    if count > MAX_SOURCES {
        return Err(PagerError::page_token(
            TokenFault::TooManySources,
            format!("{count} sources; a page token holds at most {MAX_SOURCES}"),
        ));
    }
    let mut frame = Writer(Vec::with_capacity(256));
    frame.0.push(PAGE_TOKEN_VERSION);
    write_payload(&mut frame, fingerprint, page_size, count, source);
    let mut frame = frame.0;
    let check = crc32::crc32(&frame);
    frame.extend_from_slice(&check.to_le_bytes());
    let text_len = base64url::encoded_len(frame.len());
    if text_len > MAX_TOKEN_LEN {
        return Err(PagerError::page_token(
            TokenFault::TooLong,
            format!("the token would be {text_len} characters; at most {MAX_TOKEN_LEN} are allowed: the sources' keys and tokens together are too long"),
        ));
    }
    Ok(base64url::encode(&frame))
}

/// Decodes a token and tells its frame's version and length.
pub(crate) fn decode_frame(token: &str) -> Result<(PageToken, FrameInfo)> {
    if token.is_empty() {
        return Err(PagerError::page_token(
            TokenFault::Empty,
            "the page token is empty (the first page needs no token)",
        ));
    }
    let rules = DecodeRules {
        max_len: Some(MAX_TOKEN_LEN),
        url_only: false,
    };
    let frame = base64url::decode_with(token, rules)
        .map_err(|e| PagerError::page_token(e.fault, e.message))?;
    let info = FrameInfo {
        version: frame.first().copied().unwrap_or(0),
        byte_len: frame.len(),
    };
    // `split_last_chunk`: no index or split panic paths (size).
    let Some((body, check)) = frame
        .split_last_chunk::<4>()
        .filter(|(body, _)| !body.is_empty())
    else {
        return Err(PagerError::page_token(
            TokenFault::Truncated,
            format!(
                "{} bytes: too short to be a page token (cut short?)",
                frame.len()
            ),
        ));
    };
    if crc32::crc32(body) != u32::from_le_bytes(*check) {
        return Err(diagnose_damage(&frame));
    }
    if info.version != PAGE_TOKEN_VERSION {
        return Err(PagerError::page_token(
            TokenFault::UnknownVersion,
            format!(
                "format version {}; this build reads version {PAGE_TOKEN_VERSION}",
                info.version
            ),
        ));
    }
    let mut reader = Reader::new(body.get(1..).unwrap_or_default());
    let token = read_token(&mut reader).map_err(WireError::into_pager)?;
    if reader.remaining() != 0 {
        return Err(PagerError::page_token(
            TokenFault::Malformed,
            format!("{} bytes after the last field", reader.remaining()),
        ));
    }
    Ok((token, info))
}

/// Tells a frame cut short from one altered, once its check has failed.
///
/// Reads everything after the version byte as a payload: when that runs out
/// inside a field, or leaves fewer than the 4 check bytes after it, bytes are
/// missing (`truncated`); otherwise the frame was altered (`integrity`).
fn diagnose_damage(frame: &[u8]) -> PagerError {
    let cut = "the token was cut short: its last characters are missing";
    if let Some((&PAGE_TOKEN_VERSION, payload)) = frame.split_first() {
        let mut reader = Reader::new(payload);
        match read_token(&mut reader) {
            Err(e) if e.fault == TokenFault::Truncated => {
                return PagerError::page_token(TokenFault::Truncated, cut);
            }
            Ok(_) if reader.remaining() < 4 => {
                return PagerError::page_token(TokenFault::Truncated, cut);
            }
            _ => {}
        }
    }
    PagerError::page_token(
        TokenFault::Integrity,
        "the integrity check does not match: the token was altered or mistyped",
    )
}
