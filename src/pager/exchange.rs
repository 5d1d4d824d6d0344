//! What crosses between the caller and the pager: the requests it asks ([`ChunkRequest`]), the
//! answers and failures fed back ([`Chunk`], [`Failure`]), what became of them ([`FeedOutcome`],
//! [`FailOutcome`]) and the pages it hands out ([`Page`]).
//!
//! Contract: plain data, no behaviour; the pager (`mod.rs`) decides, these carry its answer.

use super::*;

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
    /// The filter to send (Kubeapps `filterOptions`: every field but `plugins`), for a source
    /// that filters ([`FilterSide::Source`]) when there is one; `None`: send none.
    pub filter: Option<FilterOptions>,
}

/// One chunk as the source returned it, its items' key fields as [`ItemFields`].
pub type Chunk<P> = ChunkOf<P, ItemFields>;

/// One chunk as the source returned it, its items' key fields as any [`KeyFields`]: [`Chunk`]
/// in general (the wasm boundary feeds [`FieldsRef`](crate::item::FieldsRef)s borrowed from one
/// buffer per chunk).
#[derive(Debug, Clone, PartialEq)]
pub struct ChunkOf<P, F> {
    /// The items, in the source's order, each with the caller's payload.
    pub items: Vec<(F, P)>,
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

/// What became of an answer fed back ([`Pager::feed`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FeedOutcome {
    /// Merged.
    Accepted,
    /// Ignored: its request was superseded, answered already or never made. Counted in stats.
    Stale,
    /// The answer set its source aside (cause [`UnreachableCause::NoProgress`]: its
    /// continuations answer the list's start again). The merge goes on without it; pages name it
    /// in `unreachable` until [`Pager::retry_unreachable`].
    Unreachable,
}

/// What the pager did with a failed request ([`Pager::fail`]): the one decision a driver acts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailOutcome {
    /// Ignored: its request was superseded, answered already or never made. Counted in stats.
    Stale,
    /// The source recovered by itself and goes on; the call goes on.
    Recovered(Recovery),
    /// A transient failure ([`is_transient`]): the same request is asked again
    /// ([`Pager::next_requests`]); a driver waits [`RetryPolicy::delay_ms`] first, and fails the
    /// call once the policy's retries are spent.
    Retry,
    /// The source is set aside (it fails for good, or failed [`MAX_FAILURES_IN_A_ROW`] times in a
    /// row): the merge goes on without it; pages name it in `unreachable` until
    /// [`Pager::retry_unreachable`].
    SetAside(UnreachableCause),
    /// Neither: the request is cleared (the next call asks it again) and the call fails
    /// (`SOURCE_FAILED` at the boundary). Also a recoverable failure past
    /// [`MAX_RECOVERIES_IN_A_ROW`].
    Failed,
}

/// How a source recovered from a failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recovery {
    /// A 410 Expired of a kubernetes source: it goes on with the inconsistent continue token, or
    /// relists from the start (the watermark skips what was shown).
    Expired,
    /// A 400 (or reason `InvalidArgument`) for a decimal offset: the position is past the end
    /// of a shrunken list (kapp_controller); it is re-read from an earlier one.
    RefusedPosition,
}

/// A page of items.
#[derive(Debug, Clone, PartialEq)]
pub struct Page<P> {
    /// The items, in merge order, as payloads.
    pub items: Vec<P>,
    /// Resumes right after this page.
    pub next_page_token: String,
    /// Nothing more to come from the sources that answer: every source exhausted (ended,
    /// nothing buffered) or unreachable. With `unreachable` not empty the list is complete but
    /// for those sources: [`Pager::retry_unreachable`] opens it again.
    pub done: bool,
    /// The sources this page lacks, and why (AIP-217's `unreachable`): set aside after failing
    /// for good; their items come back, in place or late, once they are retried and answer.
    pub unreachable: Vec<UnreachableSource>,
    /// Some item of this page came late: a source that was unreachable gave items the merge had
    /// gone past (counted in `stats`' `lateItems`).
    pub late: bool,
    /// Some source's list is not one snapshot any more: it went on after a 410 Expired, or a
    /// chunk asked with a continue token came from another resourceVersion, or its whole read
    /// could not tell consumed items from items never read and shows them (`possible_repeats`).
    pub inconsistent: bool,
    /// Some source ended before giving the items it said remained, or ended on a continue token
    /// that cycled (`stats.sources[i].cycled_tokens`): the list may lack some of its items.
    pub truncated: bool,
    /// Some source was found out of the merge order (another collation, a map walk, an order
    /// that changes between requests, a continuation going back) and is read whole: its items
    /// that were never shown yet sort before what was are shown late (this page's
    /// `stats.sources[i].late_items` counts them), so pages are in order except those.
    pub reordered: bool,
    /// Counters for this page alone.
    pub stats: Stats,
}
