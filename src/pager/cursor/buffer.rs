//! The buffer: the items read and not yet consumed, in key order, and the chunk marks a page
//! token needs to refetch them.
//!
//! Contract: `Cursor::buf` holds no item at or below the global watermark W, sorted from the
//! largest key down (the next to go is the last); each entry knows its chunk (`ChunkMark`) and
//! where its tie group starts in that chunk, so `state` can write the first chunk still buffered
//! and the raw offset consumed in it. Equal keys are one item (`sort_unique`).

use super::*;

/// An item in a source's buffer.
pub(crate) struct Entry<P> {
    /// The full merge key, computed once.
    pub(crate) key: SortKey,
    /// `key_prefix` of the key: the merge compares it first (`Entry::before`).
    pub(crate) prefix: u64,
    /// The caller's payload; `None` when the filter dropped the item. Such an
    /// entry is still consumed in merge order, so the watermark moves past it
    /// and a page token never points back before it, but it is never shown.
    pub(crate) payload: Option<P>,
    /// Sequence number of the chunk it came in.
    pub(super) chunk: u64,
    /// Index in that response of the first item with its name: where its tie
    /// group starts, the only kind of place an offset can be trusted.
    pub(super) group_raw: u32,
    /// A late item: at or below the watermark W, yet never consumed (its source was found out
    /// of the merge order and read whole; see docs/DESIGN.md "Order is learned"). The merge
    /// shows it although it is below W, and it does not move the watermark.
    pub(crate) late: bool,
}

impl<P> Entry<P> {
    pub(super) fn new(
        key: SortKey,
        prefix: u64,
        payload: Option<P>,
        chunk: u64,
        group_raw: u32,
    ) -> Self {
        debug_assert_eq!(prefix, key_prefix(&key.0));
        Entry {
            prefix,
            key,
            payload,
            chunk,
            group_raw,
            late: false,
        }
    }

    /// Whether this entry's key is at or below `key` (the prefixes first).
    pub(crate) fn at_or_below(&self, key: &SortKey) -> bool {
        let prefix = key_prefix(&key.0);
        self.prefix < prefix || (self.prefix == prefix && self.key <= *key)
    }

    /// Whether this entry's key sorts before `other`'s: the 8-byte prefixes first, the whole
    /// keys only when those are equal.
    pub(crate) fn before(&self, other: &Entry<P>) -> bool {
        self.prefix < other.prefix || (self.prefix == other.prefix && self.key < other.key)
    }
}

/// A chunk with items still in the buffer: what a page token needs to refetch it.
pub(super) struct ChunkMark {
    pub(super) seq: u64,
    /// The token the chunk was fetched with, verbatim.
    pub(super) token: String,
    /// That token as a page token writes it (computed once: it is in every page token while
    /// the chunk is buffered).
    pub(super) wire: Vec<u8>,
    /// Its entries still buffered.
    pub(super) live: usize,
}

impl<P> Cursor<P> {
    /// Takes the smallest buffered entry (the merge consumed it).
    pub(crate) fn pop_front(&mut self) -> Option<Entry<P>> {
        let e = self.buf.pop()?;
        if let (true, Reading::Late(late)) = (e.late, &mut self.reading) {
            late.pending = late.pending.saturating_sub(1);
            late.shown = late.shown.saturating_add(1);
            late.last = Some(e.key.clone());
            if late.pending == 0 {
                self.reading = Reading::Switched;
            }
        }
        if let Some(m) = self.marks.iter_mut().find(|m| m.seq == e.chunk) {
            m.live = m.live.saturating_sub(1);
        }
        self.prune_marks();
        Some(e)
    }

    pub(super) fn is_buffered(&self, key: &SortKey, prefix: u64) -> bool {
        // Past the buffer's largest key (a streamed chunk's new items): not there, no search.
        // The buffer runs from the largest key down, hence the comparison the other way round.
        self.buf.first().is_some_and(|largest| {
            largest.prefix > prefix || (largest.prefix == prefix && largest.key >= *key)
        }) && self.buf.binary_search_by(|e| key.cmp(&e.key)).is_ok()
    }

    /// Adds entries sorted by key (smallest first) to the buffer (largest first).
    pub(super) fn insert_sorted(&mut self, mut fresh: Vec<Entry<P>>) {
        let appends = match (self.buf.first(), fresh.first()) {
            (Some(largest), Some(first)) => largest.key < first.key,
            _ => true,
        };
        reverse(&mut fresh);
        if appends {
            // All after the buffered ones: they go before them.
            fresh.append(&mut self.buf);
            self.buf = fresh;
            return;
        }
        // Equal names straddling chunks, or items inserted ahead: merge, taking the smaller
        // from the two ends (the old entry first on equal keys), then turn it largest first.
        let mut old = core::mem::take(&mut self.buf);
        let mut merged = Vec::with_capacity(old.len() + fresh.len());
        loop {
            let take_old = match (old.last(), fresh.last()) {
                (Some(x), Some(y)) => x.key <= y.key,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => break,
            };
            let next = if take_old { old.pop() } else { fresh.pop() };
            if let Some(e) = next {
                merged.push(e);
            }
        }
        reverse(&mut merged);
        self.buf = merged;
    }

    pub(super) fn prune_marks(&mut self) {
        // Only when the oldest is used up (the common case costs one check). Used-up marks
        // further on go too: no entry refers to them, and `state` reads only the first.
        if self.marks.first().is_some_and(|m| m.live == 0) {
            self.marks.retain(|m| m.live > 0);
        }
    }
}

/// Sorts entries by key and drops all but the first of equal keys; returns how many it dropped.
/// (One function for both uses: each sort and dedup call site is code of its own.)
pub(super) fn sort_unique<P>(entries: &mut Vec<Entry<P>>) -> u64 {
    let order =
        |a: &Entry<P>, b: &Entry<P>| a.prefix.cmp(&b.prefix).then_with(|| a.key.cmp(&b.key));
    // A chunk in order (the common case) is not sorted: std's stable sort allocates its scratch
    // space before it finds the one run.
    if !entries.is_sorted_by(|a, b| order(a, b).is_le()) {
        entries.sort_by(order);
    }
    let before = entries.len();
    entries.dedup_by(|a, b| a.prefix == b.prefix && a.key == b.key);
    (before - entries.len()) as u64
}

/// Reverses `entries` in place: std's `[T]::reverse` keeps index panic paths in the wasm, the
/// two ends of one iterator none (size).
pub(super) fn reverse<P>(entries: &mut [Entry<P>]) {
    let mut ends = entries.iter_mut();
    while let (Some(a), Some(b)) = (ends.next(), ends.next_back()) {
        core::mem::swap(a, b);
    }
}
