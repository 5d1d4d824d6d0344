//! The pager's NextPageToken: every source's position, in one URL-safe string.
//!
//! (Types fixed here; codec implemented by the token-codec work.)

use crate::error::Result;
use crate::item::{Identity, SourceId};

/// Format version written by this build.
pub const PAGE_TOKEN_VERSION: u8 = 1;
/// Most sources one token may hold.
pub const MAX_SOURCES: usize = 64;
/// Longest token text the decoder reads, in bytes (8 KiB).
pub const MAX_TOKEN_LEN: usize = 8 * 1024;

/// The decoded NextPageToken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageToken {
    /// Fingerprint of (filter, sort order, source set) the token was minted under.
    pub fingerprint: u64,
    /// Items per page when the token was minted.
    pub page_size: u32,
    /// One entry per source, idle and exhausted ones included, in the pager's source order.
    pub sources: Vec<SourceState>,
}

/// One source's position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceState {
    /// Which source.
    pub source: SourceId,
    /// The source token that fetched the current chunk, verbatim; `""` = the list's start.
    pub chunk_token: String,
    /// Items of that chunk (as the source returned them, before filtering) already consumed.
    pub offset: u32,
    /// The last item emitted from this source (sort key + identity), if any.
    pub watermark: Option<Watermark>,
    /// resourceVersion of the snapshot the chunk came from; `""` when the source has none.
    pub resource_version: String,
    /// The source has nothing more to give.
    pub exhausted: bool,
    /// The source's list went on after a 410 Expired, so it is no longer one snapshot.
    pub inconsistent: bool,
}

/// The last key emitted: the sort field's value plus the item's identity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Watermark {
    /// Value of the sort field (`name` or `displayName`) of the item, as the source gave it.
    pub sort_key: String,
    /// The item's identity.
    pub identity: Identity,
}

impl PageToken {
    /// Encodes the token: base64url without padding. See the module docs for the layout.
    pub fn encode(&self) -> Result<String> {
        unimplemented!("token codec")
    }

    /// Decodes a token written by this or an earlier version.
    pub fn decode(_token: &str) -> Result<PageToken> {
        unimplemented!("token codec")
    }
}
