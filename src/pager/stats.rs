//! Counters: per page and cumulative.

use crate::prelude::*;
use serde::Serialize;

/// One source's counters. Serde view: camelCase (`itemsScanned`, ...), as JS sees them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SourceStats {
    /// Backend requests made (answered or failed).
    pub requests: u64,
    /// Items received.
    pub items_scanned: u64,
    /// Items the filter dropped.
    pub filtered_out: u64,
    /// Items dropped because their key was at or behind the watermark.
    pub duplicates_dropped: u64,
    /// Extra requests made to recover from offset drift.
    pub rescans: u64,
    /// 410 Expired answers recovered from.
    pub expired_recoveries: u64,
    /// Answers ignored as superseded, repeated or never asked for.
    pub stale_responses: u64,
    /// Times the source was found out of the merge order and switched to a whole read (at most
    /// once per list; docs/DESIGN.md "Order is learned").
    pub whole_read_switches: u64,
    /// Late items shown: items at or below the watermark, never shown before, shown where they
    /// appear (they break the page order): of a source found out of order when its whole read
    /// came, or of a source that was unreachable once it was retried (see `Page::late`).
    pub late_items: u64,
    /// Times the source was set aside as unreachable.
    pub unreachable: u64,
    /// Items that may have been shown before, taken as not consumed: a whole read found none of
    /// the items the page token (or this pager) knows by identity, so nothing tells an item
    /// consumed before from one never read (docs/DESIGN.md "Order is learned", the limit).
    /// Counted when that whole read lands; shown late from then on (in `late_items` as they come),
    /// and the source's pages say `inconsistent`: an announced possible repeat, not a silent loss.
    pub possible_repeats: u64,
    /// Times the source's continue token cycled (`b → c → b`, a token it gave before in the same
    /// pass): the answer's items were kept and the source ended there (`Page::truncated`).
    pub cycled_tokens: u64,
    /// Requests sent ahead of the call that needed them (`nextPage`'s `prefetch`,
    /// [`Pager::prefetch_requests`](super::Pager::prefetch_requests)), counted once answered,
    /// failed (also in `requests` then, as any request) or cancelled (`prefetches_cancelled`).
    pub prefetched_requests: u64,
    /// Items received in answers to requests sent ahead (taken by the merge: a page served from
    /// them made no request of its own). Also counted in `items_scanned`.
    pub prefetched_items: u64,
    /// Requests sent ahead and withdrawn unanswered (the next call was aborted): prefetch that
    /// was of no use. `prefetched_requests` less these were used.
    pub prefetches_cancelled: u64,
    /// Whether the source is streamed (read chunk by chunk in the merge order), as of the page
    /// (a switch to a whole read makes it `false`); else it is read whole and sorted in memory.
    /// Not a counter: [`SourceStats::add`] keeps it, and totals leave it `false`.
    pub streamed: bool,
    /// An estimate of the items the source has not sent yet, as of the page: the
    /// `remainingItemCount` of its last answer (a Kubernetes list's `metadata.remainingItemCount`:
    /// the apiserver's count of keys after that chunk, not filtered by a selector) less the items
    /// read since. `None` when its last answer gave none (a list's last chunk, a plugin). Not a
    /// counter, as `streamed`; the data may change meanwhile, and a list that ends short of it is
    /// `Page::truncated`.
    pub remaining_items: Option<u64>,
}

/// Counters, one entry per source (in option order) plus totals.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    /// Per source.
    pub sources: Vec<SourceStats>,
    /// Items emitted in pages.
    pub items_emitted: u64,
}

impl SourceStats {
    /// Adds another set of counters to this one (saturating).
    pub fn add(&mut self, o: &SourceStats) {
        self.requests = self.requests.saturating_add(o.requests);
        self.items_scanned = self.items_scanned.saturating_add(o.items_scanned);
        self.filtered_out = self.filtered_out.saturating_add(o.filtered_out);
        self.duplicates_dropped = self.duplicates_dropped.saturating_add(o.duplicates_dropped);
        self.rescans = self.rescans.saturating_add(o.rescans);
        self.expired_recoveries = self.expired_recoveries.saturating_add(o.expired_recoveries);
        self.stale_responses = self.stale_responses.saturating_add(o.stale_responses);
        self.whole_read_switches = self
            .whole_read_switches
            .saturating_add(o.whole_read_switches);
        self.late_items = self.late_items.saturating_add(o.late_items);
        self.unreachable = self.unreachable.saturating_add(o.unreachable);
        self.possible_repeats = self.possible_repeats.saturating_add(o.possible_repeats);
        self.cycled_tokens = self.cycled_tokens.saturating_add(o.cycled_tokens);
        self.prefetched_requests = self
            .prefetched_requests
            .saturating_add(o.prefetched_requests);
        self.prefetched_items = self.prefetched_items.saturating_add(o.prefetched_items);
        self.prefetches_cancelled = self
            .prefetches_cancelled
            .saturating_add(o.prefetches_cancelled);
    }

    /// The counters' names as JS reads them, in the order of [`SourceStats::counters`]: the one
    /// definition of which counter crosses the wasm boundary where (the boundary hands these
    /// names to JS with the counters).
    pub const COUNTER_NAMES: [&'static str; 15] = [
        "requests",
        "itemsScanned",
        "filteredOut",
        "duplicatesDropped",
        "rescans",
        "expiredRecoveries",
        "staleResponses",
        "wholeReadSwitches",
        "lateItems",
        "unreachable",
        "possibleRepeats",
        "cycledTokens",
        "prefetchedRequests",
        "prefetchedItems",
        "prefetchesCancelled",
    ];

    /// The names of each source's estimates as JS reads them, in the order of
    /// [`SourceStats::estimates`] (the boundary hands these names to JS with the counters, as
    /// [`SourceStats::COUNTER_NAMES`]): values that may be absent (`null` in JS), not summed.
    pub const ESTIMATE_NAMES: [&'static str; 1] = ["remainingItems"];

    /// The estimates, in the order of [`SourceStats::ESTIMATE_NAMES`].
    pub fn estimates(&self) -> [Option<u64>; 1] {
        [self.remaining_items]
    }

    /// The counters, in the order of [`SourceStats::COUNTER_NAMES`].
    pub fn counters(&self) -> [u64; 15] {
        [
            self.requests,
            self.items_scanned,
            self.filtered_out,
            self.duplicates_dropped,
            self.rescans,
            self.expired_recoveries,
            self.stale_responses,
            self.whole_read_switches,
            self.late_items,
            self.unreachable,
            self.possible_repeats,
            self.cycled_tokens,
            self.prefetched_requests,
            self.prefetched_items,
            self.prefetches_cancelled,
        ]
    }
}

impl Stats {
    /// Sum over sources.
    pub fn total(&self) -> SourceStats {
        let mut t = SourceStats::default();
        for s in &self.sources {
            t.add(s);
        }
        t
    }

    /// Zeroed counters for `sources` sources.
    pub fn for_sources(sources: usize) -> Self {
        // A loop, not `vec![…; n]` (whose clone-filling code is one more instance: size).
        let mut v = Vec::with_capacity(sources);
        for _ in 0..sources {
            v.push(SourceStats::default());
        }
        Stats {
            sources: v,
            items_emitted: 0,
        }
    }

    /// Adds counters to source `index` (ignored when out of range).
    pub fn add(&mut self, index: usize, delta: &SourceStats) {
        if let Some(s) = self.sources.get_mut(index) {
            s.add(delta);
        }
    }
}
