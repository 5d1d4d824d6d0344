//! The pager: a sans-IO state machine that merges several sources into pages.
//!
//! The caller drives it: [`Pager::next_requests`] says which chunks to fetch,
//! [`Pager::feed`] and [`Pager::fail`] take the answers, [`Pager::take_page`]
//! hands out a page once [`Pager::page_ready`]. No I/O, no clock.
//! (API fixed here; implemented by the pager-core work.)

mod stats;

pub use stats::{SourceStats, Stats};

use crate::error::Result;
use crate::item::{ItemFields, SourceId};
use crate::options::PagerOptions;

/// One backend request the caller must make.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkRequest {
    /// Id to give back to [`Pager::feed`] or [`Pager::fail`].
    pub request_id: u64,
    /// Index of the source in the options' `sources`.
    pub source_index: usize,
    /// The source.
    pub source: SourceId,
    /// Token to send: a continue token (kubernetes) or an item offset (kubeapps); `""` = from the start.
    pub page_token: String,
    /// Most items to return (`limit` / `paginationOptions.pageSize`).
    pub limit: u32,
}

/// One chunk as the source returned it.
#[derive(Debug, Clone, PartialEq)]
pub struct Chunk<P> {
    /// The items, in the source's order, each with the caller's payload.
    pub items: Vec<(ItemFields, P)>,
    /// The next token; `None` or `""` = the list ends here.
    pub next_token: Option<String>,
    /// `metadata.resourceVersion` of a Kubernetes list.
    pub resource_version: Option<String>,
    /// `metadata.remainingItemCount` of a Kubernetes list.
    pub remaining_item_count: Option<u64>,
}

/// A request that failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// HTTP status (410 = Expired); 0 for a network error.
    pub status: u16,
    /// Kubernetes `Status.reason`, e.g. `Expired`.
    pub reason: Option<String>,
    /// `metadata.continue` of a 410 answer: the inconsistent continue token.
    pub continue_token: Option<String>,
}

/// What became of an answer fed back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FeedOutcome {
    /// Merged.
    Accepted,
    /// Ignored: its request was superseded, answered already or never made. Counted in stats.
    Stale,
}

/// A page of items.
#[derive(Debug, Clone, PartialEq)]
pub struct Page<P> {
    /// The items, in merge order, as payloads.
    pub items: Vec<P>,
    /// Resumes right after this page.
    pub next_page_token: String,
    /// Nothing more to come: every source exhausted and nothing buffered.
    pub done: bool,
    /// Some source's list went on after a 410 Expired.
    pub inconsistent: bool,
    /// Some source ended before giving the items it said remained.
    pub truncated: bool,
    /// Counters for this page alone.
    pub stats: Stats,
}

/// The pager. `P` is the payload each item carries (the JS object at the boundary).
pub struct Pager<P> {
    _p: std::marker::PhantomData<P>,
}

impl<P: Clone> Pager<P> {
    /// A pager at the start of every source. `INVALID_OPTIONS` on bad options.
    pub fn new(_options: PagerOptions) -> Result<Self> {
        unimplemented!("pager core")
    }

    /// A pager resumed from a page token. `INVALID_PAGE_TOKEN`, `FILTER_MISMATCH`, `INVALID_OPTIONS`.
    pub fn resume(_token: &str, _options: PagerOptions) -> Result<Self> {
        unimplemented!("pager core")
    }

    /// The requests to make now (none already in flight are repeated).
    pub fn next_requests(&mut self) -> Vec<ChunkRequest> {
        unimplemented!("pager core")
    }

    /// Feeds a chunk. `INVALID_RESPONSE`, `NO_PROGRESS`, `SOURCE_TOO_LARGE` leave the state unchanged.
    pub fn feed(&mut self, _request_id: u64, _chunk: Chunk<P>) -> Result<FeedOutcome> {
        unimplemented!("pager core")
    }

    /// Reports a failed request. A 410 on a kubernetes source recovers; anything else only clears the request.
    pub fn fail(&mut self, _request_id: u64, _failure: Failure) -> Result<FeedOutcome> {
        unimplemented!("pager core")
    }

    /// Whether [`Pager::take_page`] has a page to give.
    pub fn page_ready(&self) -> bool {
        unimplemented!("pager core")
    }

    /// Takes the page. `None` when not ready.
    pub fn take_page(&mut self) -> Option<Page<P>> {
        unimplemented!("pager core")
    }

    /// Cumulative counters.
    pub fn stats(&self) -> &Stats {
        unimplemented!("pager core")
    }

    /// The token that resumes at the current position.
    pub fn page_token(&self) -> String {
        unimplemented!("pager core")
    }

    /// The options it runs with.
    pub fn options(&self) -> &PagerOptions {
        unimplemented!("pager core")
    }
}
