//! Prefetch: which requests to send ahead of the next call, within a budget.
//!
//! Right after [`Pager::take_page`] the pager stands exactly at the start of the next page, so
//! the requests [`Pager::next_requests`] would plan first for it are the ones worth sending
//! ahead: [`Pager::prefetch_requests`] plans them now, at most `budget.requests` of them and
//! no more answer bytes than `budget.bytes` by its estimate. They are ordinary requests in
//! flight (one per source, as always): the next call's `next_requests` does not repeat them,
//! and their answers (or failures) are fed as any other. This module only remembers which
//! requests went ahead, for the counters ([`SourceStats::prefetched_requests`] and the rest).

use crate::prelude::*;

use super::{ChunkRequest, Pager};
use crate::item::KeyFields;

/// How much [`Pager::prefetch_requests`] may send ahead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PrefetchBudget {
    /// At most this many requests (one per source at most, as any request).
    pub requests: u32,
    /// At most this many bytes of answers, by the estimate of [`Ahead::estimate`]: the request's
    /// `limit` times the source's mean item size so far (the bytes of the key fields the pager
    /// reads of its items that vary by item: identifier, name, display name, description; not
    /// what it does not read, such as icons), or [`UNKNOWN_ITEM_BYTES`] per item before it
    /// answered.
    pub bytes: u64,
}

/// The item size assumed for a source that has not answered yet, in bytes.
pub const UNKNOWN_ITEM_BYTES: u64 = 1024;

impl Default for PrefetchBudget {
    /// One request per source (up to 64, the most sources a pager takes) and 1 MiB.
    fn default() -> Self {
        PrefetchBudget {
            requests: 64,
            bytes: 1 << 20,
        }
    }
}

/// What the pager remembers of prefetch: the requests in flight that went ahead, and each
/// source's answered item bytes (for the estimate).
#[derive(Debug, Default)]
pub(crate) struct Ahead {
    /// Request ids sent ahead and not answered, failed or cancelled yet.
    ids: Vec<u64>,
    /// Per source: (key bytes read, items read) over its answers.
    sizes: Vec<(u64, u64)>,
}

impl Ahead {
    /// The estimated answer bytes of a request of `limit` items to source `i`.
    pub(crate) fn estimate(&self, i: usize, limit: u32) -> u64 {
        let per_item = match self.sizes.get(i) {
            Some(&(bytes, items)) if items > 0 => bytes.div_ceil(items),
            _ => UNKNOWN_ITEM_BYTES,
        };
        per_item.saturating_mul(u64::from(limit))
    }

    /// The key-field bytes of a chunk's items (what [`Ahead::record`] takes).
    pub(crate) fn measure<F: KeyFields, P>(items: &[(F, P)]) -> u64 {
        let mut bytes = 0u64;
        for (f, _) in items {
            let f = f.key_fields();
            // What varies from item to item (the source's plugin, cluster and namespace do not).
            let n = f.identifier.len()
                + f.name.len()
                + f.display_name.len()
                + f.short_description.len();
            bytes = bytes.saturating_add(n as u64);
        }
        bytes
    }

    /// Notes an answer of source `i` taken: `items` items of `bytes` key bytes in all.
    pub(crate) fn record(&mut self, i: usize, bytes: u64, items: usize) {
        if self.sizes.len() <= i {
            self.sizes.resize(i + 1, (0, 0));
        }
        if let Some(s) = self.sizes.get_mut(i) {
            *s = (s.0.saturating_add(bytes), s.1.saturating_add(items as u64));
        }
    }

    /// Whether `id` went ahead; forgets it (it is answered, failed or cancelled now).
    pub(crate) fn settle(&mut self, id: u64) -> bool {
        let found = self.ids.iter().position(|&x| x == id);
        if let Some(k) = found {
            self.ids.swap_remove(k);
        }
        found.is_some()
    }
}

impl<P: Clone> Pager<P> {
    /// The requests to send ahead of the next call, right after a page was taken: those
    /// [`Pager::next_requests`] would plan first for the next page, in its order, as long as
    /// they fit `budget` (a request over what is left of the byte budget is skipped; the next
    /// call asks for it). None when the next page is ready from what is buffered, the list is
    /// done, or every source the next page needs has a request in flight; never a request for a
    /// source set aside (it blocks nothing). The requests are in flight as any other: feed, fail
    /// or cancel them; the next call's [`Pager::next_requests`] does not repeat them. Counted
    /// in [`SourceStats::prefetched_requests`] once answered, failed or cancelled.
    pub fn prefetch_requests(&mut self, budget: PrefetchBudget) -> Vec<ChunkRequest> {
        let mut bytes_left = budget.bytes;
        let mut n = 0u32;
        let out = self.plan_requests(&mut |ahead, i, limit| {
            let cost = ahead.estimate(i, limit);
            if n >= budget.requests || cost > bytes_left {
                return false;
            }
            n += 1;
            bytes_left -= cost;
            true
        });
        for r in &out {
            self.ahead.ids.push(r.request_id);
        }
        out
    }
}
