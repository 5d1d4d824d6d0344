//! The pager: a sans-IO state machine that merges several sources into pages.
//!
//! The caller drives it: [`Pager::next_requests`] says which chunks to fetch,
//! [`Pager::feed`] and [`Pager::fail`] take the answers, [`Pager::take_page`]
//! hands out a page once [`Pager::page_ready`]. No I/O, no clock.
//!
//! ```
//! use kubeapps_pager::{Chunk, ItemFields, Pager, PagerOptions, SourceId, SourceKind, SourceSpec};
//! let source = SourceSpec { id: SourceId::new("helm.packages", "default", "kubeapps"), kind: SourceKind::Kubeapps, order: None, filter: None };
//! let mut options = PagerOptions::new(vec![source]);
//! options.page_size = 2;
//! let mut pager: Pager<&str> = Pager::new(options)?;
//! while !pager.page_ready() {
//!     for req in pager.next_requests() {
//!         // Here: call the plugin with req.page_token and req.limit.
//!         let items = ["apache", "nginx"].iter().map(|n| {
//!             (ItemFields { name: n.to_string(), identifier: format!("bitnami/{n}"), ..Default::default() }, *n)
//!         });
//!         let chunk = Chunk { items: items.collect(), next_token: None, resource_version: None, remaining_item_count: None };
//!         pager.feed(req.request_id, chunk)?;
//!     }
//! }
//! let page = pager.take_page()?.expect("ready");
//! assert_eq!(page.items, ["apache", "nginx"]);
//! assert!(page.done);
//! // A reload or deep link resumes from here:
//! assert!(page.next_page_token.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
//! # Ok::<(), kubeapps_pager::PagerError>(())
//! ```

use crate::prelude::*;

mod cursor;
mod exchange;
mod merge;
mod prefetch;
mod reach;
mod retry;
mod stats;
#[cfg(test)]
mod tests;

pub use exchange::{
    Chunk, ChunkOf, ChunkRequest, FailOutcome, Failure, FeedOutcome, Page, Recovery,
};
pub use prefetch::{PrefetchBudget, UNKNOWN_ITEM_BYTES};
pub use reach::{
    fails_for_good, reask_delay_ms, refused_for_good, UnreachableCause, UnreachableSource,
    MAX_FAILURES_IN_A_ROW, MAX_RECOVERIES_IN_A_ROW,
};
pub use retry::{is_transient, RetryPolicy};
pub use stats::{SourceStats, Stats};

use crate::error::{PagerError, Result, TokenFault};
use crate::filter::{CompiledFilter, FilterOptions, FilterSide};
use crate::item::{FieldsRead, ItemFields, KeyFields, SourceId};
use crate::options::PagerOptions;
use crate::order::{SortField, SortKey};
use crate::token::PageToken;

use cursor::{Ctx, Cursor};

/// The pager. `P` is the payload each item carries (the JS object at the boundary).
///
/// State: each source's buffered chunk(s) and O(1) counters; nothing grows
/// with the items already shown (no set of shown identities: the watermark
/// does the dedupe). See docs/DESIGN.md for the rules it follows.
pub struct Pager<P> {
    options: PagerOptions,
    /// The rules for the sources the pager filters: the whole filter, or `plugins` alone under a
    /// custom predicate (whose verdicts replace the rest, see [`Pager::feed_judged`]).
    filter: CompiledFilter,
    /// `plugins` alone, for the sources that filter themselves.
    plugins_filter: CompiledFilter,
    fingerprint: u64,
    cursors: Vec<Cursor<P>>,
    /// The source whose watermark is W, the largest key consumed so far.
    w_source: Option<usize>,
    /// Items of the page being filled.
    pending: Vec<P>,
    /// Sequence part of the next request id.
    next_seq: u64,
    stats: Stats,
    page_stats: Stats,
    /// The position at the last page boundary (what a page token resumes).
    boundary: Boundary,
    /// The requests sent ahead ([`Pager::prefetch_requests`]) and what their estimate learns.
    ahead: prefetch::Ahead,
}

/// The position at the last page boundary, kept as its page token (encoded from the cursors'
/// own state when the page is taken, with nothing copied; [`Pager::state`] decodes it).
enum Boundary {
    Token(String),
    /// The position at the start cannot be written in a page token (`too-long`): its state
    /// (whose encoding gives [`Pager::page_token`]'s error).
    Unencodable(PageToken),
}

/// Continuations in a row that answer the list's start again with nothing new (a proxy that drops
/// `continue`, or a plugin that ignores the offset) after which the source is set aside
/// ([`UnreachableCause::NoProgress`]): the first request, then three that restart, four in all.
pub const MAX_RESTARTS_IN_A_ROW: u32 = 3;

/// Request ids carry the source index in their low bits (64 sources at most),
/// so a stale answer is counted against the right source.
const SOURCE_BITS: u32 = 6;

/// Pagers made so far in this process: each starts its request ids in its own block of 2^30, so
/// an answer meant for a discarded pager is stale in a new one. Ids stay below 2^53 (exact in JS).
static PAGERS: core::sync::atomic::AtomicU64 = core::sync::atomic::AtomicU64::new(0);

/// The first request sequence number of a new pager.
fn first_seq() -> u64 {
    let n = PAGERS.fetch_add(1, core::sync::atomic::Ordering::Relaxed);
    1 + (n % (1 << 16)) * (1 << 30)
}

impl<P: Clone> Pager<P> {
    /// A pager at the start of every source. `INVALID_OPTIONS` on bad options.
    pub fn new(options: PagerOptions) -> Result<Self> {
        options.validate()?;
        let mut cursors = Vec::with_capacity(options.sources.len());
        for s in &options.sources {
            cursors.push(Cursor::new(s.clone(), options.sort));
        }
        Ok(Self::assemble(options, cursors, None))
    }

    /// A pager resumed from a page token: [`PageToken::decode`], then
    /// [`Pager::from_state`]. Errors: `INVALID_OPTIONS`, `INVALID_PAGE_TOKEN`
    /// (with the decoder's reason), `FILTER_MISMATCH` (the token was minted
    /// under another filter, custom predicate id, sort order or source set).
    pub fn resume(token: &str, options: PagerOptions) -> Result<Self> {
        options.validate()?;
        let state = PageToken::decode(token)?;
        let expected = options.fingerprint();
        if state.fingerprint != expected {
            return Err(PagerError::FilterMismatch {
                expected,
                found: state.fingerprint,
            });
        }
        Self::from_state(state, options)
    }

    /// A pager at a decoded position. The options' page size is used (it may
    /// differ from the token's); sources are matched by identity, in any order.
    ///
    /// Errors: `INVALID_OPTIONS`; `FILTER_MISMATCH` when `state.fingerprint` is
    /// not the options' [fingerprint](PagerOptions::fingerprint);
    /// `INVALID_PAGE_TOKEN` (reason `invalid-field`) when the state's sources
    /// are not exactly the options' sources.
    pub fn from_state(state: PageToken, options: PagerOptions) -> Result<Self> {
        options.validate()?;
        let expected = options.fingerprint();
        if state.fingerprint != expected {
            return Err(PagerError::FilterMismatch {
                expected,
                found: state.fingerprint,
            });
        }
        if state.sources.len() != options.sources.len() {
            return Err(PagerError::page_token(
                TokenFault::InvalidField,
                format!(
                    "token holds {} sources, the options {}",
                    state.sources.len(),
                    options.sources.len()
                ),
            ));
        }
        let mut cursors = Vec::with_capacity(options.sources.len());
        let mut w: Option<(usize, SortKey)> = None;
        for (i, spec) in options.sources.iter().enumerate() {
            let Some(st) = state.sources.iter().find(|st| st.source == spec.id) else {
                return Err(PagerError::page_token(
                    TokenFault::InvalidField,
                    format!("token has no position for source {}", spec.id.label()),
                ));
            };
            if let Some(why) = cursor::bad_offset(&st.chunk_token, st.offset) {
                return Err(PagerError::page_token(
                    TokenFault::InvalidField,
                    format!("source {}: {why}", spec.id.label()),
                ));
            }
            // A watermark no item of this source could have set (its key is over the limit the
            // feed holds keys to): every later position could fail to encode, the list stuck.
            for wm in [&st.watermark, &st.late_watermark].into_iter().flatten() {
                let i = &wm.identity;
                let ids = [&*i.plugin, &*i.cluster, &*i.namespace, &*i.identifier];
                let bytes = spec.id.key_bytes(&wm.sort_key, ids);
                if bytes > options.max_key_bytes() {
                    return Err(PagerError::page_token(
                        TokenFault::InvalidField,
                        format!("the watermark of source {} is a key of {bytes} bytes; a pager of these sources takes keys of at most {}", spec.id.label(), options.max_key_bytes()),
                    ));
                }
            }
            let key = st
                .watermark
                .as_ref()
                .map(|wm| options.sort.key_from_parts(&wm.sort_key, &wm.identity));
            if let Some(k) = &key {
                if w.as_ref().map_or(true, |(_, max)| k > max) {
                    w = Some((i, k.clone()));
                }
            }
            let late = st
                .late_watermark
                .as_ref()
                .map(|wm| options.sort.key_from_parts(&wm.sort_key, &wm.identity));
            cursors.push(Cursor::resumed(spec.clone(), options.sort, st, key, late));
        }
        for c in &mut cursors {
            c.resumed_at(w.as_ref().map(|(_, k)| k.clone()));
        }
        Ok(Self::assemble(options, cursors, w.map(|(i, _)| i)))
    }

    fn assemble(options: PagerOptions, cursors: Vec<Cursor<P>>, w_source: Option<usize>) -> Self {
        let n = options.sources.len();
        let mut pager = Pager {
            filter: match options.predicate {
                None => options.filter.compile(),
                Some(_) => options.filter.compile().plugins_only(),
            },
            plugins_filter: options.filter.compile().plugins_only(),
            fingerprint: options.fingerprint(),
            options,
            cursors,
            w_source,
            pending: Vec::new(),
            next_seq: first_seq(),
            stats: Stats::for_sources(n),
            page_stats: Stats::for_sources(n),
            boundary: Boundary::Token(String::new()),
            ahead: prefetch::Ahead::default(),
        };
        pager.boundary = match pager.encode_position() {
            Ok(token) => Boundary::Token(token),
            Err(_) => Boundary::Unencodable(pager.build_state()),
        };
        pager
    }

    /// The requests to make now: one per source that the page being filled
    /// needs and that has none in flight (requests in flight are not repeated).
    /// Empty when a page is ready, when done, and while every needed source
    /// has a request in flight.
    pub fn next_requests(&mut self) -> Vec<ChunkRequest> {
        self.plan_requests(&mut |_, _, _| true)
    }

    /// [`Pager::next_requests`], each planned request sent only when `admit(ahead, source,
    /// limit)` says so (the others are not sent: a later call plans them again).
    fn plan_requests(
        &mut self,
        admit: &mut dyn FnMut(&prefetch::Ahead, usize, u32) -> bool,
    ) -> Vec<ChunkRequest> {
        self.advance();
        if self.page_ready() {
            return Vec::new();
        }
        let needed = merge::blockers(&self.cursors);
        let mut out = Vec::with_capacity(needed.len());
        for &i in &needed {
            if self
                .cursors
                .get(i)
                .map_or(true, |c| c.in_flight_id().is_some())
            {
                continue;
            }
            let (watermark, side) = self.floor_and_side(i);
            let filter = match side {
                FilterSide::Source => &self.plugins_filter,
                FilterSide::Pager => &self.filter,
            };
            let ctx = Ctx::new(&self.options, filter, watermark.as_ref());
            let Some(c) = self.cursors.get_mut(i) else {
                continue;
            };
            let planned = c.plan(&ctx);
            if !admit(&self.ahead, i, planned.limit) {
                continue;
            }
            let request_id = (self.next_seq << SOURCE_BITS) | i as u64;
            self.next_seq = self.next_seq.wrapping_add(1);
            let (page_token, limit) = c.send(request_id, planned);
            out.push(ChunkRequest {
                request_id,
                source_index: i,
                source: c.spec.id.clone(),
                page_token,
                limit,
                filter: match side {
                    FilterSide::Source => self.options.filter.for_source(),
                    FilterSide::Pager => None,
                },
            });
        }
        out
    }

    /// Whether the caller's verdicts judge source `i`'s items: the options name a custom
    /// predicate and the pager filters that source ([`FilterSide::Pager`]).
    pub fn judges(&self, source_index: usize) -> bool {
        self.options.predicate.is_some()
            && self
                .options
                .sources
                .get(source_index)
                .is_some_and(|s| s.filter_side() == FilterSide::Pager)
    }

    /// The optional key fields this pager reads of source `source_index`'s items: the sort
    /// field, and what the filter that applies to the source tests (the caller's verdicts, for a
    /// source it [judges](Pager::judges), replace some of that: reading more is harmless).
    pub fn fields_read(&self, source_index: usize) -> FieldsRead {
        let side = self
            .options
            .sources
            .get(source_index)
            .map(|s| s.filter_side());
        let filter = match side {
            Some(FilterSide::Source) => &self.plugins_filter,
            _ => &self.filter,
        };
        let (text, categories) = filter.reads();
        FieldsRead {
            display_name: text || self.options.sort.field() == SortField::DisplayName,
            short_description: text,
            categories,
        }
    }

    /// Whether `request_id` is the request in flight for its source (an answer to it would not be
    /// stale now).
    pub fn awaits(&self, request_id: u64) -> bool {
        self.owner(request_id).is_some()
    }

    /// Source `i`'s floor (what its answers are deduped against: W, or its own watermark while
    /// it is behind, see `reach.rs`) and who filters it.
    fn floor_and_side(&self, i: usize) -> (Option<SortKey>, FilterSide) {
        let Some(c) = self.cursors.get(i) else {
            return (None, FilterSide::Pager);
        };
        let floor = if c.reach.behind {
            c.watermark.clone()
        } else {
            self.watermark().cloned()
        };
        (floor, c.spec.filter_side())
    }

    /// Feeds a chunk answering request `request_id`.
    ///
    /// `Ok(Stale)` when that request is not the one in flight for its source
    /// (superseded, answered already, or never made): the answer is ignored
    /// and counted. Items out of the merge order (inside the chunk or against the chunks before)
    /// are no error: the source switches to a whole read (docs/DESIGN.md "Order is learned"); a
    /// next token equal to the token sent ends the list. Errors leave the pager exactly as it was:
    /// `INVALID_RESPONSE` (a kubeapps source returned more than `limit` items,
    /// a key over 3,056 bytes, a tie group a capped server gives in pieces, a token over 8 KiB),
    /// `NO_PROGRESS` (a source repeats a next token it gave before the one sent, or
    /// `maxChunksWithoutProgress` chunks in a row bring nothing new),
    /// `SOURCE_TOO_LARGE` (a source read whole, or a group of equal names of a
    /// kubeapps source, holds more than `maxSourceItems`).
    ///
    /// A pager whose options name a custom [`predicate`](PagerOptions::predicate) takes the
    /// chunks of the sources it filters with [`Pager::feed_judged`]: fed here, such a chunk is
    /// `INVALID_RESPONSE` (its items have no verdict).
    pub fn feed<F: KeyFields>(
        &mut self,
        request_id: u64,
        chunk: ChunkOf<P, F>,
    ) -> Result<FeedOutcome> {
        self.feed_with(request_id, chunk, None)
    }

    /// [`Pager::feed`] with the caller's custom predicate's verdicts: `verdicts[k]` is whether
    /// item `k` of the chunk passes (`true`: kept). Under options that name a
    /// [`predicate`](PagerOptions::predicate), for a source the pager filters
    /// ([`Pager::judges`]), the verdicts replace the rules of the filter (query, categories,
    /// repositories) for every item of the chunk, re-read and changed items included (`plugins`
    /// still applies): an item is kept when its verdict is `true` and its plugin passes
    /// `plugins`; the others count as `filteredOut`. For any other source (one that filters
    /// itself, or a pager without a predicate) the verdicts are not read. Errors as
    /// [`Pager::feed`], and `INVALID_RESPONSE` when a judged chunk's verdicts are not one per
    /// item (the pager is then unchanged).
    pub fn feed_judged<F: KeyFields>(
        &mut self,
        request_id: u64,
        chunk: ChunkOf<P, F>,
        verdicts: &[bool],
    ) -> Result<FeedOutcome> {
        self.feed_with(request_id, chunk, Some(verdicts))
    }

    fn feed_with<F: KeyFields>(
        &mut self,
        request_id: u64,
        chunk: ChunkOf<P, F>,
        verdicts: Option<&[bool]>,
    ) -> Result<FeedOutcome> {
        let Some(i) = self.owner(request_id) else {
            self.count_stale(request_id);
            return Ok(FeedOutcome::Stale);
        };
        let (watermark, side) = self.floor_and_side(i);
        let judged = self.judges(i);
        let filter = match side {
            FilterSide::Source => &self.plugins_filter,
            FilterSide::Pager => &self.filter,
        };
        let mut ctx = Ctx::new(&self.options, filter, watermark.as_ref());
        if judged {
            let n = chunk.items.len();
            match verdicts {
                Some(v) if v.len() == n => ctx.verdicts = Some(v),
                _ => {
                    let label = self.options.sources.get(i).map(|s| s.id.label());
                    return Err(PagerError::InvalidResponse {
                        source_name: label.unwrap_or_default(),
                        message: match verdicts {
                            Some(v) => format!("{} predicate verdicts for {n} items", v.len()),
                            None => "the options name a custom predicate: its verdicts on this chunk's items must be fed with them".into(),
                        },
                    });
                }
            }
        }
        let Some(c) = self.cursors.get_mut(i) else {
            return Ok(FeedOutcome::Stale);
        };
        let (n, bytes) = (chunk.items.len(), prefetch::Ahead::measure(&chunk.items));
        let prepared = c.prepare(chunk, &ctx)?;
        let mut delta = c.commit(prepared, &ctx);
        self.ahead.record(i, bytes, n);
        if self.ahead.settle(request_id) {
            delta.prefetched_requests = 1;
            delta.prefetched_items = n as u64;
        }
        c.reach.answered();
        // The no-progress bound on restarts: the source's continuations answer the list's start
        // again (a proxy that drops `continue`); asking on would never get past it.
        let set_aside = c.restarts >= MAX_RESTARTS_IN_A_ROW;
        if set_aside {
            c.reach.set_aside(UnreachableCause::NoProgress, 200, None);
            delta.unreachable += 1;
        }
        self.count(i, &delta);
        self.advance();
        Ok(if set_aside {
            FeedOutcome::Unreachable
        } else {
            FeedOutcome::Accepted
        })
    }

    /// Reports a failed request, and says what the pager did ([`FailOutcome`]), in this order:
    /// - a 410 on a kubernetes source recovers ([`Recovery::Expired`]): it goes on with the
    ///   failure's continue token (an inconsistent one, from the 410 answer's `metadata.continue`)
    ///   or relists from the start and skips what was shown; the source and later pages are
    ///   flagged `inconsistent`;
    /// - a 400 (or reason `InvalidArgument`) for a decimal offset past the start says the position
    ///   no longer exists (kapp_controller past the end of a shrunken list): the source is re-read
    ///   from earlier positions ([`Recovery::RefusedPosition`]); at the start (`""`, `0`) nothing
    ///   can have shrunk: the request itself is refused (a filter the plugin rejects), for good;
    ///   (either only [`MAX_RECOVERIES_IN_A_ROW`] times in a row: then as any other failure);
    /// - a failure for good ([`fails_for_good`]: 403, 404, 501, or such a reason; for a
    ///   `kubernetes` source paged by continue tokens also [`refused_for_good`]: 400 or 422, a
    ///   selector the apiserver refuses; for a source paged by decimal offsets, a 400, 422,
    ///   `InvalidArgument` or `Invalid` at the list's start), or the [`MAX_FAILURES_IN_A_ROW`]th failure in a row of a source, sets the source aside
    ///   ([`FailOutcome::SetAside`]): the merge goes on without it and pages name it until
    ///   [`Pager::retry_unreachable`];
    /// - a transient failure ([`is_transient`]) is [`FailOutcome::Retry`], anything else
    ///   [`FailOutcome::Failed`]; both only clear the request: [`Pager::next_requests`] asks the
    ///   same again.
    ///
    /// `Ok(Stale)` as for [`Pager::feed`]; `INVALID_RESPONSE` when the continue token is over
    /// 8 KiB (nothing changed).
    pub fn fail(&mut self, request_id: u64, failure: Failure) -> Result<FailOutcome> {
        let Some(i) = self.owner(request_id) else {
            self.count_stale(request_id);
            return Ok(FailOutcome::Stale);
        };
        let Some(c) = self.cursors.get_mut(i) else {
            return Ok(FailOutcome::Stale);
        };
        c.check_failure(&failure)?;
        let recovery = c.recovers_from(&failure).filter(|_| c.reach.may_recover());
        let refused = c.refuses_for_good(&failure);
        let outcome = match recovery {
            Some(r) => FailOutcome::Recovered(r),
            None => match c.reach.failed(&failure, refused) {
                Some(cause) => FailOutcome::SetAside(cause),
                None if is_transient(failure.status) => FailOutcome::Retry,
                None => FailOutcome::Failed,
            },
        };
        let mut delta = c.fail(failure, recovery);
        delta.unreachable += u64::from(matches!(outcome, FailOutcome::SetAside(_)));
        delta.prefetched_requests = u64::from(self.ahead.settle(request_id));
        self.count(i, &delta);
        self.advance();
        Ok(outcome)
    }

    /// Withdraws request `request_id` unanswered, as the caller's decision (its call was
    /// aborted), not the source's failure: the request is cleared and [`Pager::next_requests`]
    /// asks the same again; nothing is counted (no failure in a row toward
    /// [`MAX_FAILURES_IN_A_ROW`], no recovery, no request). A late answer to it is then stale.
    /// Returns whether it was the request in flight for its source (`false`: nothing changed).
    pub fn cancel(&mut self, request_id: u64) -> bool {
        let Some(i) = self.owner(request_id) else {
            return false;
        };
        let cancelled = self.cursors.get_mut(i).is_some_and(|c| c.cancel());
        if self.ahead.settle(request_id) {
            let delta = SourceStats {
                prefetched_requests: 1,
                prefetches_cancelled: 1,
                ..Default::default()
            };
            self.count(i, &delta);
        }
        self.advance();
        cancelled
    }

    /// Asks the unreachable sources again (`Some(i)`: source `i` alone): each is reachable
    /// again, and [`Pager::next_requests`] asks it what it failed to answer. Its items the merge
    /// went past meanwhile come late, the others in place; none it gave before repeats.
    /// Returns the indices of the sources retried (none when none was unreachable).
    pub fn retry_unreachable(&mut self, source: Option<usize>) -> Vec<usize> {
        let mut retried = Vec::new();
        for (i, c) in self.cursors.iter_mut().enumerate() {
            if source.map_or(true, |s| s == i) && c.reach.retry() {
                retried.push(i);
            }
        }
        retried
    }

    /// The sources set aside now, and why.
    pub fn unreachable(&self) -> Vec<UnreachableSource> {
        let mut out = Vec::new();
        for (i, c) in self.cursors.iter().enumerate() {
            if let Some(u) = c.reach.view(i, &c.spec.id) {
                out.push(u);
            }
        }
        out
    }

    /// Whether [`Pager::take_page`] has a page to give: it holds `pageSize`
    /// items, or nothing more can come (then it may be short, or empty).
    pub fn page_ready(&self) -> bool {
        self.pending.len() >= self.options.page_size as usize || self.done()
    }

    /// Takes the page. `Ok(None)` when not ready. After the last page, every
    /// call gives an empty page with `done` and makes no request.
    ///
    /// `next_page_token` resumes right after the page. Errors:
    /// `INVALID_PAGE_TOKEN` (`too-long`) when the position cannot be written
    /// in a page token (the sources' tokens and keys add up to more than the
    /// 8 KiB a token may hold); the page then stays ready and nothing changes.
    pub fn take_page(&mut self) -> Result<Option<Page<P>>> {
        if !self.page_ready() {
            return Ok(None);
        }
        // The merge stops at a full page, so `pending` is exactly this page and the
        // cursors already stand right after it: encode first, change nothing on failure.
        let next_page_token = self.encode_position()?;
        self.boundary = Boundary::Token(next_page_token.clone());
        let page_size = self.options.page_size as usize;
        // The page is what is pending (the merge never pends more than a page; anything over
        // would stay pending). Taken whole, not drained and collected (size).
        let mut items = core::mem::replace(&mut self.pending, Vec::with_capacity(page_size));
        if items.len() > page_size {
            self.pending = items.split_off(page_size);
        }
        let n = self.cursors.len();
        let mut stats = core::mem::replace(&mut self.page_stats, Stats::for_sources(n));
        // Which sources streamed: this page's and the cumulative stats say so alike.
        for (i, c) in self.cursors.iter().enumerate() {
            for s in [&mut stats, &mut self.stats] {
                if let Some(s) = s.sources.get_mut(i) {
                    s.streamed = c.streamed();
                    s.remaining_items = c.remaining_estimate();
                }
            }
        }
        // Counted when taken, not when merged: `items_emitted` is what pages handed out.
        stats.items_emitted = items.len() as u64;
        self.stats.items_emitted = self.stats.items_emitted.saturating_add(items.len() as u64);
        let page = Page {
            items,
            next_page_token,
            done: self.done(),
            inconsistent: self.cursors.iter().any(|c| c.inconsistent),
            truncated: self.cursors.iter().any(|c| c.truncated),
            unreachable: self.unreachable(),
            late: stats.total().late_items > 0,
            reordered: self.cursors.iter().any(|c| c.switched()),
            stats,
        };
        self.advance();
        Ok(Some(page))
    }

    /// Cumulative counters.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// The token that resumes at the current position: right after the last
    /// page taken (at the start before the first). Errors as [`Pager::take_page`].
    pub fn page_token(&self) -> Result<String> {
        match &self.boundary {
            Boundary::Token(token) => Ok(token.clone()),
            Boundary::Unencodable(state) => state.encode(),
        }
    }

    /// The decoded position that [`Pager::page_token`] encodes: every source's
    /// chunk token, offset, watermark, resourceVersion and flags, in the
    /// options' source order. [`Pager::from_state`] resumes from it.
    pub fn state(&self) -> PageToken {
        match &self.boundary {
            // The pager's own token: it decodes (encoding and decoding round-trip exactly;
            // tests/token_props.rs). The empty state stands in for what cannot happen.
            Boundary::Token(token) => PageToken::decode(token).unwrap_or(PageToken {
                fingerprint: self.fingerprint,
                page_size: self.options.page_size,
                sources: Vec::new(),
            }),
            Boundary::Unencodable(state) => state.clone(),
        }
    }

    /// The options it runs with.
    pub fn options(&self) -> &PagerOptions {
        &self.options
    }

    /// Nothing more can come: every source exhausted (ended, nothing buffered), or set aside
    /// with nothing buffered but what it holds (an open tie group).
    fn done(&self) -> bool {
        self.cursors.iter().all(|c| {
            c.exhausted() || (c.reach.is_unreachable() && (c.buf.is_empty() || c.holds_front()))
        })
    }

    /// W: the largest key consumed so far.
    fn watermark(&self) -> Option<&SortKey> {
        self.w_source
            .and_then(|i| self.cursors.get(i))
            .and_then(|c| c.watermark.as_ref())
    }

    /// The current position, owned (only for a position that has no page token).
    fn build_state(&self) -> PageToken {
        let mut sources = Vec::with_capacity(self.cursors.len());
        for c in &self.cursors {
            sources.push(c.state(self.options.sort, self.watermark()).to_state());
        }
        PageToken {
            fingerprint: self.fingerprint,
            page_size: self.options.page_size,
            sources,
        }
    }

    /// The page token of the current position, written from the cursors' state as it stands
    /// (no copy of it; each buffered chunk's token was put in its compact form when it came).
    fn encode_position(&self) -> Result<String> {
        let order = self.options.sort;
        let w = self.watermark();
        crate::token::page_token::encode_position(
            self.fingerprint,
            self.options.page_size,
            self.cursors.len(),
            &|i| self.cursors.get(i).map(|c| c.state(order, w)),
        )
    }

    /// The index of the source a request id was made for (its low bits; see [`ChunkRequest`]).
    /// Any id gives an index; it may be out of range or stale.
    pub fn request_source(request_id: u64) -> usize {
        (request_id & ((1 << SOURCE_BITS) - 1)) as usize
    }

    /// The source whose request in flight is `request_id`, if any.
    fn owner(&self, request_id: u64) -> Option<usize> {
        let i = Self::request_source(request_id);
        (self.cursors.get(i)?.in_flight_id() == Some(request_id)).then_some(i)
    }

    fn count_stale(&mut self, request_id: u64) {
        let i = Self::request_source(request_id);
        let i = if i < self.cursors.len() { i } else { 0 };
        let delta = SourceStats {
            stale_responses: 1,
            ..Default::default()
        };
        self.count(i, &delta);
    }

    fn count(&mut self, i: usize, delta: &SourceStats) {
        self.stats.add(i, delta);
        self.page_stats.add(i, delta);
    }

    /// Moves items from the buffers to the page while the frontier allows:
    /// until the page is full (then only items that are never shown, filtered
    /// or duplicate, still go, so the watermark and `done` are as far as they
    /// can be) or a source must be fetched.
    fn advance(&mut self) {
        let page_size = self.options.page_size as usize;
        // Consuming buffered items moves no source's bound: one frontier for the whole run.
        let frontier = merge::Frontier::of(&self.cursors);
        while let Some((ci, front)) = merge::candidate_entry(&self.cursors) {
            let blocked = frontier.blocks(front);
            debug_assert_eq!(blocked, merge::blocked(&self.cursors, Some(&front.key.0)));
            if blocked {
                break;
            }
            // Equal keys from two sources (overlapping sources): the second is a duplicate. A late
            // item is below W and still shown: one of a source found out of order (docs/DESIGN.md
            // "Order is learned"), or one a source behind missed (see `reach.rs`).
            let below_w = !front.late && self.watermark().is_some_and(|w| front.at_or_below(w));
            let behind = below_w
                && self.cursors.get(ci).is_some_and(|c| {
                    c.reach.behind && c.watermark.as_ref().map_or(true, |own| front.key > *own)
                });
            let duplicate = below_w && !behind;
            if !duplicate && front.payload.is_some() && self.pending.len() >= page_size {
                break;
            }
            let Some(c) = self.cursors.get_mut(ci) else {
                break;
            };
            let Some(e) = c.pop_front() else { break };
            if e.late {
                // Shown where it comes; W stays (it is below it). The source's own watermark (the
                // largest key consumed from it) takes it: set aside later, the source is deduped
                // against that, and this item must not come back as one it missed.
                if c.watermark.as_ref().map_or(true, |own| e.key > *own) {
                    c.watermark = Some(e.key.clone());
                }
                if let Some(p) = e.payload {
                    self.pending.push(p);
                    let delta = SourceStats {
                        late_items: 1,
                        ..Default::default()
                    };
                    self.count(ci, &delta);
                }
                continue;
            }
            if duplicate {
                let delta = SourceStats {
                    duplicates_dropped: 1,
                    ..Default::default()
                };
                self.count(ci, &delta);
                continue;
            }
            c.watermark = Some(e.key);
            if behind {
                // W stays: this key is below it.
                if e.payload.is_some() {
                    let delta = SourceStats {
                        late_items: 1,
                        ..Default::default()
                    };
                    self.count(ci, &delta);
                }
            } else {
                // Past W, and asked again: whatever it missed is shown. (Its items buffered
                // before it was set aside go in order and leave it behind.)
                if !c.reach.is_unreachable() {
                    c.reach.behind = false;
                }
                self.w_source = Some(ci);
            }
            if let Some(p) = e.payload {
                self.pending.push(p);
            }
        }
    }
}
