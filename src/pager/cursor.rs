//! One source's position, chunk buffer, drift and expiry handling.
//!
//! A [`Cursor`] holds what the pager knows of one source: the items read and
//! not yet consumed (sorted by key), which chunk each came from (for the page
//! token), where the list goes on, the request in flight, and the bookkeeping
//! for offset drift (rescans), 410 Expired, `NO_PROGRESS` and truncation.
//!
//! Responses are handled in two steps: [`Cursor::prepare`] reads and checks a
//! chunk without touching the cursor (every error comes from there), then
//! [`Cursor::commit`] applies it and cannot fail. So an error leaves the pager
//! exactly as it was.

use crate::prelude::*;
use alloc::borrow::Cow;

use xxhash_rust::xxh64::xxh64;

use crate::error::{PagerError, Result};
use crate::filter::CompiledFilter;
use crate::item::{FieldsRef, KeyFields};
use crate::options::PagerOptions;
use crate::options::{SourceKind, SourceSpec};
use crate::order::{encode_context, key_prefix, SortKey, SortOrder};
use crate::token::decimal::canonical_decimal;
use crate::token::page_token::{text_wire, SourceRef, SourceState, MAX_TOKEN_LEN};
use crate::token::ContinueToken;

use super::reach::Reach;
use super::stats::SourceStats;
use super::{ChunkOf, Failure, Recovery};

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
    chunk: u64,
    /// Index in that response of the first item with its name: where its tie
    /// group starts, the only kind of place an offset can be trusted.
    group_raw: u32,
    /// A late item: at or below the watermark W, yet never consumed (its source was found out
    /// of the merge order and read whole; see docs/DESIGN.md "Order is learned"). The merge
    /// shows it although it is below W, and it does not move the watermark.
    pub(crate) late: bool,
}

impl<P> Entry<P> {
    fn new(key: SortKey, prefix: u64, payload: Option<P>, chunk: u64, group_raw: u32) -> Self {
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

/// How many identity hashes of the items read a streamed cursor keeps (8 bytes each): the last
/// ones read are the ones a whole read's cut needs (`Cursor::consumed_prefix`).
const READ_IDS: usize = 4096;

/// The identity hash a cursor keeps of each item it read (`Cursor::read_ids`).
fn key_hash(k: &SortKey) -> u64 {
    xxh64(&k.0, 0)
}

/// The prefix of a page token's chunk token that marks a source found out of the merge order
/// and read whole (no real token starts with U+0001). Alone: every item of it at or below W was
/// consumed. Followed by a decimal count `c` (the page token's offset then counting the late
/// items already shown): only the items among the first `c` of the source's order were; those
/// after them and at or below W are late, and the first `offset` of them (in key order) shown.
pub(crate) const SWITCH_MARK: &str = "\u{1}";

/// A source found out of the merge order, whose whole read is on its way.
#[derive(Debug, Clone)]
struct Switch {
    /// The last item read before the switch (the end of the prefix of the source's own order
    /// read), when no item was consumed from the source: the anchor then (see `settle_switch`).
    last_read: Option<SortKey>,
    /// A resumed switch's count from its page token: how many items of the source's order were
    /// read (`u64::MAX` = all of them; `None` = unknown: 0). A live switch cuts by identity
    /// instead (`Cursor::consumed_prefix`).
    read_count: Option<u64>,
    /// Late items already shown (a resumed late phase): skipped, in key order.
    skip: u32,
    /// Found out of order in this pager (else resumed as switched: its page token's anchors
    /// decide, or in a token without them its count, as the source's watermark has moved on in
    /// key order since).
    live: bool,
    /// The anchors a page token holds while the whole read is on its way (live: the last item
    /// read; resumed: its token's, `SourceState::anchors`): the cut is after the last of them
    /// still in the whole read.
    anchors: Vec<u64>,
    /// A resumed late phase: the last late item its page token says was consumed (`None`: none,
    /// or a token without it: `skip` counts them).
    late_upto: Option<SortKey>,
    /// A live switch of a resumed source: its page token's last item read, not read again, while W
    /// has not moved since (see `switch_to_whole`): one more item known read.
    pending: Option<u64>,
    /// That anchor once W has moved past the token's floor, with the source's watermark as the
    /// token gave it: the items before it (and its equal names) at or below that watermark were
    /// consumed then, whatever was inserted ahead of them since (see `settle_switch`).
    consumed_before: Option<(u64, Option<SortKey>)>,
}

/// How much of the start of a switched source's whole read (its own order) was consumed.
enum Prefix {
    /// That many items, told by identity (an item read, or the watermark, still there).
    Known(u64),
    /// No identity tells: at most that many (up to the first item above the source's watermark).
    Unknown(u64),
}

/// A chunk with items still in the buffer: what a page token needs to refetch it.
struct ChunkMark {
    seq: u64,
    /// The token the chunk was fetched with, verbatim.
    token: String,
    /// That token as a page token writes it (computed once: it is in every page token while
    /// the chunk is buffered).
    wire: Vec<u8>,
    /// Its entries still buffered.
    live: usize,
}

/// What a request in flight is for.
#[derive(Debug, Clone)]
enum Purpose {
    /// A streamed source's next chunk.
    Next {
        /// Decimal item offset of the first item asked for, when the token is one.
        pos: Option<u64>,
        /// The key the first item must have (or be drift-checked against): the
        /// last item read before, re-read on purpose (see docs/DESIGN.md "Drift").
        overlap: Option<SortKey>,
        /// A tie-able source's continuation: the answer must not hold another
        /// item named like the overlap (its tie group would straddle two reads).
        straddle: bool,
    },
    /// A tie group that straddled two reads, re-read whole in one answer from
    /// the item before its start (see docs/DESIGN.md "Ties").
    Group {
        /// Offset asked for: `start - 1` (`0` when the group starts the list).
        pos: u64,
        /// The group: where it starts, its name, an item of it read before.
        group: Group,
    },
    /// A step back after offset drift, looking for a start at or before the reference.
    Probe { pos: u64 },
    /// The first request of a kubeapps/unordered source read whole: `""` with
    /// `limit = maxSourceItems + 1`, all of it in one answer when the server gives it all.
    Whole,
    /// One chunk of a source read whole by following continue tokens (after a `Whole` answer
    /// that came with a next token: a server that caps its answers).
    WholePart,
}

struct InFlight {
    id: u64,
    token: String,
    limit: u32,
    purpose: Purpose,
}

/// A tie group to re-read whole.
#[derive(Debug, Clone)]
struct Group {
    /// Offset of its first item.
    start: u64,
    /// Its name (the key's primary component).
    name: Vec<u8>,
    /// An item of it read before: the drift reference if the re-read moved back.
    reference: SortKey,
    /// The limit to ask: the group as known, the item before it, a chunk of new items.
    limit: u32,
    /// The name of the item read before the group (at `start - 1`), when known: a re-read that
    /// finds another name there is treated as moved (items changed ahead, or a source whose
    /// order is not the merge order: an earlier name there proves nothing then).
    before: Option<Vec<u8>>,
}

/// Offset drift was seen: items before the position were deleted.
struct Rescan {
    /// The last key known read at the old position.
    reference: SortKey,
    /// The offset asked for when the drift was seen.
    base: u64,
    /// The probe's limit: `chunkLimit + 1`, doubled while an answer ends before the reference.
    span: u32,
    /// How far back the next probe goes (doubles each time).
    step: u64,
}

/// Hashes of the last next-tokens a source returned in this pass (bounded: O(1) memory).
#[derive(Default)]
struct TokenRing {
    hashes: [u64; TokenRing::SIZE],
    len: usize,
    pos: usize,
}

impl TokenRing {
    const SIZE: usize = 16;

    fn hash(t: &str) -> u64 {
        xxh64(t.as_bytes(), 0)
    }

    fn contains(&self, t: &str) -> bool {
        let h = Self::hash(t);
        self.hashes.get(..self.len).is_some_and(|s| s.contains(&h))
    }

    fn push(&mut self, t: &str) {
        if let Some(slot) = self.hashes.get_mut(self.pos) {
            *slot = Self::hash(t);
        }
        self.pos = (self.pos + 1) % Self::SIZE;
        self.len = (self.len + 1).min(Self::SIZE);
    }

    fn clear(&mut self) {
        self.len = 0;
        self.pos = 0;
    }
}

/// What the cursor needs from the pager to handle an answer.
pub(crate) struct Ctx<'a> {
    pub(crate) order: SortOrder,
    pub(crate) filter: &'a CompiledFilter,
    /// The global watermark W: the largest key consumed so far.
    pub(crate) watermark: Option<&'a SortKey>,
    pub(crate) chunk_limit: u32,
    /// A streamed source's first chunk (slow start, see [`first_chunk`]).
    pub(crate) first_chunk: u32,
    pub(crate) max_source_items: u32,
    pub(crate) max_chunks_without_progress: u32,
    /// The longest key an item may have ([`PagerOptions::max_key_bytes`]).
    pub(crate) max_key_bytes: usize,
    /// The caller's custom predicate's verdict on each item of the chunk fed, one per item, when
    /// it judges this source: ANDed with `filter` (then `plugins` alone).
    pub(crate) verdicts: Option<&'a [bool]>,
}

impl<'a> Ctx<'a> {
    /// The context for one call, from the pager's options, filter and global watermark.
    pub(crate) fn new(
        options: &PagerOptions,
        filter: &'a CompiledFilter,
        watermark: Option<&'a SortKey>,
    ) -> Self {
        Ctx {
            order: options.sort,
            filter,
            watermark,
            chunk_limit: options.chunk_limit,
            first_chunk: first_chunk(options),
            max_source_items: options.max_source_items,
            max_chunks_without_progress: options.max_chunks_without_progress,
            max_key_bytes: options.max_key_bytes(),
            verdicts: None,
        }
    }
}

/// Slow start: a streamed source's first chunk is this many times its share of the page.
/// Two: the merge takes a page from its sources unevenly, and a share of two pages' worth lets
/// one source hold most of the page without a second request for it (see [`first_chunk`]).
const SLOW_START_FACTOR: u32 = 2;
/// The least first chunk (items), whatever the page size and the number of sources.
const MIN_FIRST_CHUNK: u32 = 4;

/// The limit of a streamed source's first chunk (slow start): `ceil(pageSize / streamed sources)
/// × SLOW_START_FACTOR`, at least `MIN_FIRST_CHUNK`, at most `chunkLimit`. Each further chunk of
/// the source asks twice as many as the one before, up to `chunkLimit` (see `Cursor::chunk_size`).
pub(crate) fn first_chunk(options: &PagerOptions) -> u32 {
    let streamed = options
        .sources
        .iter()
        .filter(|s| s.streams_under(options.sort))
        .count()
        .max(1);
    let share = options
        .page_size
        .div_ceil(u32::try_from(streamed).unwrap_or(u32::MAX));
    share
        .saturating_mul(SLOW_START_FACTOR)
        .max(MIN_FIRST_CHUNK)
        .min(options.chunk_limit)
}

/// What an answer turned out to be, decided by [`Cursor::prepare`].
enum Verdict {
    /// Use the items; the first one is the planned overlap re-read when
    /// `overlap_first`; items dropped among the first `quiet` ones (a tie group's
    /// re-read) are protocol, not duplicates.
    Accept { overlap_first: bool, quiet: usize },
    /// A tie group straddles two reads (or a group re-read ended inside it):
    /// read it whole in one answer.
    Regroup(Group),
    /// The overlap item moved back: items before the position were deleted. Rescan.
    MovedBack { reference: SortKey, base: u64 },
    /// A probe that started after the reference: step back further.
    ProbeTooFar,
    /// A full answer that ends before the reference, from `pos`: ask again from there with a
    /// limit of `span` (the reference must come in one answer, see `prepare`).
    Widen {
        reference: SortKey,
        pos: u64,
        span: u32,
    },
    /// The items are not in the merge order (inside the chunk, or against the chunks before):
    /// the source is read whole from now on (docs/DESIGN.md "Order is learned").
    Disorder,
    /// A tie group's re-read that a capped server answered short, before reaching the group:
    /// its first item shows nothing was skipped, so the list goes on from the position itself.
    Verified,
    /// A continuation answered with the list's start again and nothing new (a proxy that drops
    /// `continue`; see `Cursor::restarts_list`): the position stands.
    Restarted,
}

/// A checked answer, ready to commit.
pub(crate) struct Prepared<P> {
    /// Each item's key, whether the filter passes it, and its payload.
    items: Vec<(SortKey, bool, P)>,
    next: Option<String>,
    resource_version: Option<String>,
    remaining_item_count: Option<u64>,
    verdict: Verdict,
    progress: bool,
    /// The answer to an overlap re-read is the overlap item alone, with the next token
    /// `pos + 1`: nothing moved and nothing new yet (see [`Cursor::plan`]).
    overlap_only: bool,
    /// A tie group's re-read came back shorter than asked, still inside the group, with a next
    /// token: taken as the group's end (see `short_group`).
    short_group: bool,
    /// The next token was one this pass returned before (a cycle, `b → c → b`): the answer's
    /// items are kept and the list ends here (`next` is `None`), counted as `cycled_tokens`.
    cycled: bool,
}

impl<P> Prepared<P> {
    /// An answer whose items are not merged (a switch to a whole read, a longer re-read): only its
    /// verdict and its request count.
    fn unmerged(
        items: Vec<(SortKey, bool, P)>,
        next: Option<String>,
        resource_version: Option<String>,
        remaining_item_count: Option<u64>,
        verdict: Verdict,
    ) -> Self {
        Prepared {
            items,
            next,
            resource_version,
            remaining_item_count,
            verdict,
            progress: true,
            overlap_only: false,
            short_group: false,
            cycled: false,
        }
    }
}

/// One source's state.
pub(crate) struct Cursor<P> {
    pub(crate) spec: SourceSpec,
    /// Streamed in merge order (else read whole and sorted in memory).
    pub(crate) streamed: bool,
    /// Streamed under a `displayName` sort in its own name order (`SourceSpec::displays_its_names`):
    /// its ties are equal names, which must have one display name to agree with the merge order
    /// (else their order changes from one answer to the next across display names). Sticky
    /// after a switch, for the whole read's cut (`settle_switch`).
    by_name: bool,
    /// Names unique in the list: the next chunk's names are all larger.
    strict: bool,
    /// Tokens are decimal item offsets (kubeapps, unordered), when they parse as such.
    decimal: bool,
    /// Buffered items, none at or below W, sorted by key from the largest down: the smallest,
    /// next to go, is the last (a `Vec` popped at its end: no `VecDeque` code in the wasm).
    pub(crate) buf: Vec<Entry<P>>,
    /// Oldest first; a few at most (the chunks with items buffered).
    marks: Vec<ChunkMark>,
    /// Where the list goes on: `Some("")` = from its start; `None` = it has ended
    /// (for a source read whole: it is loaded).
    next: Option<String>,
    /// A resumed position (chunk token, raw items consumed in it) not yet refetched.
    resume: Option<(String, u32)>,
    /// Primary key component of the last item read: the source's unseen items
    /// are not below it (strict: above it). `None` = bounds nothing yet.
    bound: Option<Vec<u8>>,
    /// Key of the last item read: the overlap reference for decimal offsets.
    last_raw: Option<SortKey>,
    /// Name of the last item read in the current list (cleared by a relist):
    /// a strict source's continuation starts after it.
    list_last: Option<Vec<u8>>,
    /// Offset of the first item named like the last item read (where the tie
    /// group that bounds the source starts), when known.
    group_start: Option<u64>,
    /// A tie group to re-read whole before going on.
    regroup: Option<Group>,
    /// Name of the item read right before the tie group of the last item read, when known.
    before_group: Option<Vec<u8>>,
    /// Largest key read in this source's life in this pager (for `NO_PROGRESS`).
    max_read: Option<SortKey>,
    /// Items of a source read whole by continue tokens, until its end.
    staging: Vec<Entry<P>>,
    in_flight: Option<InFlight>,
    rescan: Option<Rescan>,
    seen_tokens: TokenRing,
    /// Chunks in a row that brought no key above max(W, max_read).
    stalled: u32,
    /// The first key of the current list as read from its start: a continuation that answers
    /// with it again (or anything before it) and nothing new restarted the list.
    list_first: Option<SortKey>,
    /// Continuations in a row that restarted the list (`restarts_list`).
    pub(crate) restarts: u32,
    /// (`remainingItemCount` last said, items delivered since).
    promised: Option<(u64, u64)>,
    /// The source ended before giving the items it said remained.
    pub(crate) truncated: bool,
    /// The source's list went on after a 410 Expired.
    pub(crate) inconsistent: bool,
    resource_version: String,
    /// The last key consumed (emitted or filtered out) from this source.
    pub(crate) watermark: Option<SortKey>,
    seq: u64,
    /// Cleared once a decimal next token was not `offset + items returned`:
    /// from then on the tokens are treated as opaque (no overlap, no drift check).
    offsets_reliable: bool,
    /// The last answer was an overlap re-read that held the overlap item alone (a server that
    /// caps its answers at one item, or ends a list only with an empty answer): the next request
    /// asks from the position itself, as asking from `N - 1` again would get the same answer.
    overlap_verified: bool,
    /// A tie group (its start and name) whose re-read came back short and was taken as whole: if
    /// the group then turns out to go on, the server answers in pieces (a cap below the group's
    /// size) and the group can never be read in one answer: `INVALID_RESPONSE`, not a loop.
    short_group: Option<(u64, Vec<u8>)>,
    /// Whether it is set aside (unreachable) or behind the merge: see `reach.rs`.
    pub(crate) reach: Reach,
    /// The source was found out of the merge order (or its streaming cannot go on safely) and is
    /// read whole from then on: sticky, and written in the page token ([`SWITCH_MARK`]).
    pub(crate) switched: bool,
    /// The switch's whole read is still to come.
    switch: Option<Switch>,
    /// After a switch: how many items of the source's order count as read (the late items are
    /// after them); `None` = all (no late item pending is written then).
    late_from: Option<u64>,
    /// Late items consumed (shown or filtered out) so far.
    late_shown: u32,
    /// Late items still buffered.
    late_pending: usize,
    /// The mark written for this source's chunk token while late items are pending.
    late_mark: String,
    /// Items of the source's own order read in the current list (the position after the last
    /// item read), when known: the whole read's fallback for `Switch::last_read`.
    read_pos: Option<u64>,
    /// A hash (xxh64) of the key of each of the last [`READ_IDS`] items this pager read from the
    /// source while it streamed (a ring; `read_next` is where the next goes). A switch's whole read
    /// finds with it, by identity, where the items read before end, whatever was inserted or
    /// deleted ahead since (see `consumed_prefix`). Bounded: memory does not grow with the list.
    read_ids: Vec<u64>,
    read_next: usize,
    /// `read_ids` holds every item consumed from the source (not resumed with a watermark, and
    /// the ring never wrapped).
    read_ids_complete: bool,
    /// A resumed position's anchor (its page token's `anchors`): the identity hash of the last item
    /// the source had read, not read again since. Until an answer holds it, an item above the
    /// source's own watermark and at or below W cannot be told from one the merge went past (it
    /// stood after that item in the source's order, in another order than the merge's): the source
    /// is read whole, whose cut tells them apart (docs/DESIGN.md "Order is learned").
    pending_anchor: Option<u64>,
    /// After a switch's whole read with late items pending, what a page token holds to cut by
    /// identity on resume: the hash of the last item before the cut, and of the last item consumed
    /// before the late ones (when known).
    cut_anchors: Vec<u64>,
    /// The last late item consumed: late items go in key order, so a resume skips those at or
    /// below it.
    late_last: Option<SortKey>,
    /// A resumed cursor's watermark as its page token gave it, while `read_ids` holds every item
    /// read since the resume: an item above it that was not read since was never consumed (see
    /// `consumed_prefix`). `None`: not resumed, or the ring wrapped.
    resumed_floor: Option<Option<SortKey>>,
    /// The source's floor when its page token was taken: W, or its own watermark when the token
    /// says it was behind. Every item it had read and not consumed then was above it (buffered),
    /// so while the floor its answers are deduped against (W, or its own watermark while behind)
    /// is not above it, none of those items between the source's watermark and `pending_anchor`
    /// can be dropped as consumed (see `switch_to_whole`).
    token_floor: Option<SortKey>,
    /// The source's own watermark as its page token gave it (with `pending_anchor`).
    token_watermark: Option<SortKey>,
    /// Chunks of its own order this cursor took from the source since it was made (at the list's
    /// start, or resumed from a page token: a resume starts small again), for the slow start
    /// (`chunk_size`). Not in a page token.
    chunks_taken: u32,
}

/// A request to make, before the pager gives it an id.
pub(crate) struct Planned {
    pub(crate) token: String,
    pub(crate) limit: u32,
    purpose: Purpose,
}

impl<P> Cursor<P> {
    /// A cursor at the start of the source.
    pub(crate) fn new(spec: SourceSpec, sort: SortOrder) -> Self {
        Cursor {
            streamed: spec.streams_under(sort),
            by_name: spec.streams_under(sort)
                && sort.field() == crate::order::SortField::DisplayName,
            strict: spec.kind.strict(),
            decimal: spec.kind != SourceKind::Kubernetes,
            spec,
            buf: Vec::new(),
            marks: Vec::new(),
            next: Some(String::new()),
            resume: None,
            bound: None,
            last_raw: None,
            list_last: None,
            group_start: None,
            regroup: None,
            before_group: None,
            max_read: None,
            staging: Vec::new(),
            in_flight: None,
            rescan: None,
            seen_tokens: TokenRing::default(),
            stalled: 0,
            list_first: None,
            restarts: 0,
            promised: None,
            truncated: false,
            inconsistent: false,
            resource_version: String::new(),
            watermark: None,
            seq: 0,
            offsets_reliable: true,
            overlap_verified: false,
            short_group: None,
            reach: Reach::default(),
            switched: false,
            switch: None,
            late_from: None,
            late_shown: 0,
            late_pending: 0,
            late_mark: String::new(),
            read_pos: Some(0),
            read_ids: Vec::new(),
            read_next: 0,
            read_ids_complete: true,
            pending_anchor: None,
            cut_anchors: Vec::new(),
            late_last: None,
            resumed_floor: None,
            token_floor: None,
            token_watermark: None,
            chunks_taken: 0,
        }
    }

    /// A cursor at a position recorded in a page token. `watermark` is the
    /// source's decoded watermark key, `late` its decoded late watermark.
    pub(crate) fn resumed(
        spec: SourceSpec,
        sort: SortOrder,
        st: &SourceState,
        watermark: Option<SortKey>,
        late: Option<SortKey>,
    ) -> Self {
        let mut c = Cursor::new(spec, sort);
        c.watermark = watermark;
        c.inconsistent = st.inconsistent;
        c.resource_version = st.resource_version.clone();
        c.reach.behind = st.behind;
        if let Some(count) = st.chunk_token.strip_prefix(SWITCH_MARK) {
            // Found out of order before: read whole again (with the late items still to show).
            c.switched = true;
            c.streamed = false;
            if !st.exhausted {
                let read_count = if count.is_empty() {
                    Some(u64::MAX)
                } else {
                    canonical_decimal(count)
                };
                c.switch = Some(Switch {
                    last_read: None,
                    read_count,
                    skip: st.offset,
                    live: false,
                    anchors: st.anchors.clone(),
                    late_upto: late.clone(),
                    pending: None,
                    consumed_before: None,
                });
                c.late_shown = st.offset;
                c.late_last = late;
                c.late_mark = late_mark(read_count);
            }
        }
        if st.exhausted {
            c.next = None;
        } else if c.streamed {
            // (A source read whole is read again from `""`; the watermark does the work.)
            // A source declared `kubernetes` whose tokens are decimal offsets pages by offsets
            // (a continue token is base64 of JSON: never digits alone).
            if c.spec.kind == SourceKind::Kubernetes && canonical_decimal(&st.chunk_token).is_some()
            {
                c.learn_offsets();
            }
            let mut position = (st.chunk_token.as_str(), st.offset);
            let start = parse_offset(position.0)
                .filter(|_| c.decimal)
                .and_then(|p| p.checked_add(u64::from(position.1)));
            if c.reach.behind && c.watermark.is_none() && start.is_some_and(|s| s > 0) {
                // Behind with nothing consumed: the items before the position were dropped at or
                // below W before it was set aside, and no key of its own bounds them, so a re-read
                // from before the position could not prove its start (see `resumed_at`): after
                // deletions ahead the position alone skips items it owes. Read from the start:
                // every item it gives is one it owes (late at or below W).
                position = ("", 0);
            }
            c.next = Some(position.0.to_string());
            c.resume = Some((position.0.to_string(), position.1));
            // The ring holds none of the items the token's pager read, even at the list's start
            // (`""`, 0): an offset is the start of a tie group, whose consumed members come before
            // it. So a cut finds no item read there by identity only when nothing was consumed.
            c.read_ids_complete = c.watermark.is_none();
            c.read_pos = parse_offset(position.0)
                .filter(|_| c.decimal)
                .and_then(|p| p.checked_add(u64::from(position.1)));
            if c.decimal && !c.strict {
                // The last item read before the token, awaited (see `passed_unseen`). Not one of
                // the items read (`read_ids`): those are buffered until consumed, and it is not
                // any more, so the merge may go past it before it comes again.
                c.pending_anchor = st.anchors.first().copied();
                c.token_watermark = c.watermark.clone();
            }
            c.resumed_floor = Some(c.watermark.clone());
        }
        c
    }

    /// The pager was resumed with `w` as W (every cursor built, so W is known): sets the source's
    /// floor when its page token was taken (`token_floor`). It is the resumed position's drift
    /// reference too: W bounds the items before the position of a source that is not behind
    /// (consumed, or dropped at or below W) while its items after it are above W; for a source
    /// behind the merge went past those, so only its own watermark bounds what it consumed
    /// (`None`: see `resumed`). Fixed at the resume, not read from the floor when a request is
    /// planned: a failure that sets the source aside makes it behind, and its retry must be the
    /// request it failed.
    pub(crate) fn resumed_at(&mut self, w: Option<SortKey>) {
        self.token_floor = if self.reach.behind {
            self.watermark.clone()
        } else {
            w
        };
    }

    /// Adds an identity hash to the ring of the items read (`read_ids`).
    fn remember_read(&mut self, h: u64) {
        match self.read_ids.get_mut(self.read_next) {
            Some(slot) => {
                *slot = h;
                self.read_ids_complete = false;
                self.resumed_floor = None;
            }
            None => self.read_ids.push(h),
        }
        self.read_next = (self.read_next + 1) % READ_IDS;
    }

    /// The source's tokens are decimal item offsets although it was declared `kubernetes`: it is
    /// a Kubeapps plugin's list (names need not be unique, nothing is a snapshot), paged as one.
    fn learn_offsets(&mut self) {
        self.decimal = true;
        self.strict = false;
    }

    /// Switches a streamed source to a whole read (docs/DESIGN.md "Order is learned"): the items
    /// read so far are a prefix of its own order, ending at the last item read; the whole read
    /// tells the consumed ones (in that prefix, at or below W) from the late ones (after it).
    fn switch_to_whole(&mut self, w: Option<&SortKey>) {
        self.switched = true;
        self.streamed = false;
        // The cut's anchors, which a page token holds while the whole read is on its way: the last
        // item read (held until consumed, as every item read in this pager), and a resumed
        // position's own last item read, still awaited, only while the floor `w` (W, or the
        // source's own watermark while it is behind) is not above the token's floor (the items
        // before it, buffered then and above that floor, are still above `w`: none is dropped as
        // consumed; once W moved past it, the cut falls after what was read since, or the
        // watermark). Compared with the floor, not W: a source set aside and retried since the
        // resume dedupes against its own watermark, below W.
        let anchor = self.pending_anchor.take();
        let pending = anchor.filter(|_| w.is_some() && w <= self.token_floor.as_ref());
        // Past the token's floor, the anchor still tells what was consumed before the token.
        let consumed_before = anchor
            .filter(|_| pending.is_none())
            .map(|h| (h, self.token_watermark.clone()));
        let far = self.last_raw.as_ref().map(key_hash);
        self.switch = Some(Switch {
            last_read: self.last_raw.clone(),
            read_count: self.read_pos,
            skip: 0,
            live: true,
            anchors: far.into_iter().chain(pending).collect(),
            late_upto: None,
            pending,
            consumed_before,
        });
        self.late_shown = 0;
        self.late_mark = late_mark(Some(self.read_pos.unwrap_or(0)));
        self.next = Some(String::new());
        self.marks.clear();
        self.resume = None;
        self.rescan = None;
        self.regroup = None;
        self.short_group = None;
        self.overlap_verified = false;
        self.staging.clear();
        self.seen_tokens.clear();
        self.stalled = 0;
        self.promised = None;
    }

    /// The list goes on past the buffered chunks (read whole: not loaded yet).
    pub(crate) fn goes_on(&self) -> bool {
        self.next.is_some()
    }

    /// Nothing more to come from this source: ended and nothing buffered.
    pub(crate) fn exhausted(&self) -> bool {
        self.next.is_none() && self.buf.is_empty()
    }

    /// Whether the source may still hold an item that would sort before or
    /// with the candidate whose key is `key` (its primary, the first component,
    /// against this source's bound), so it must be fetched before the candidate
    /// goes. `None` = no candidate: any source that goes on must be fetched. See
    /// docs/DESIGN.md "The merge frontier".
    ///
    /// The bound is a whole primary, terminator included, so the key starts with
    /// it exactly when their primaries are equal, and otherwise orders against it
    /// as its primary does (the first difference falls inside the primary): no
    /// [`SortKey::primary`] scan.
    pub(crate) fn blocks(&self, key: Option<&[u8]>) -> bool {
        // An unreachable source is set aside: the merge goes on without it.
        if !self.goes_on() || self.reach.is_unreachable() {
            return false;
        }
        match (&self.bound, key) {
            (Some(bound), Some(k)) if self.streamed => {
                debug_assert_eq!(
                    SortKey(k.to_vec()).primary().cmp(bound),
                    if k.starts_with(bound) {
                        core::cmp::Ordering::Equal
                    } else {
                        k.cmp(bound)
                    }
                );
                if k.starts_with(bound) {
                    !self.strict
                } else {
                    k > bound.as_slice()
                }
            }
            _ => true,
        }
    }

    /// What this source adds to the merge frontier ([`super::merge::Frontier`]), the same
    /// answer as [`Cursor::blocks`] for every key: `None` = blocks nothing; `Some(None)` = blocks
    /// any candidate; `Some(Some((bound, strict)))` = blocks a candidate past its bound, and one
    /// whose primary equals it unless `strict`.
    pub(crate) fn frontier_bound(&self) -> Option<Option<(&[u8], bool)>> {
        if !self.goes_on() || self.reach.is_unreachable() {
            return None;
        }
        match &self.bound {
            Some(bound) if self.streamed => Some(Some((bound.as_slice(), self.strict))),
            _ => Some(None),
        }
    }

    /// Set aside (unreachable) while a tie group is open at its bound: its buffered members of
    /// that group wait, not consumed. Consuming some would put its watermark inside the group,
    /// and the members read once it is back but sorting before it would be dropped (the tie
    /// rule that the frontier keeps while the source bounds the merge, see `reach.rs`).
    pub(crate) fn holds_front(&self) -> bool {
        self.reach.is_unreachable()
            && self.streamed
            && !self.strict
            && self.goes_on()
            && matches!((self.front(), &self.bound), (Some(e), Some(b)) if e.key.0.starts_with(b))
    }

    pub(crate) fn in_flight_id(&self) -> Option<u64> {
        self.in_flight.as_ref().map(|f| f.id)
    }

    /// Marks the planned request as sent under `id`.
    pub(crate) fn send(&mut self, id: u64, planned: Planned) -> (String, u32) {
        let out = (planned.token.clone(), planned.limit);
        self.in_flight = Some(InFlight {
            id,
            token: planned.token,
            limit: planned.limit,
            purpose: planned.purpose,
        });
        out
    }

    /// The limit of a streamed source's next chunk (slow start): [`first_chunk`] for the first
    /// chunk this cursor takes, twice the one before for each further chunk, at most `chunkLimit`.
    fn chunk_size(&self, ctx: &Ctx<'_>) -> u32 {
        let grown = u64::from(ctx.first_chunk) << self.chunks_taken.min(32);
        u32::try_from(grown.min(u64::from(ctx.chunk_limit))).unwrap_or(ctx.chunk_limit)
    }

    /// The request this source needs next, where `chunk` is the slow start's chunk size
    /// (`chunk_size`: `first_chunk`, doubling with each chunk taken, up to `chunkLimit`):
    ///
    /// - read whole, kubeapps/unordered: `""` with `limit = maxSourceItems + 1`; then, while a
    ///   server that caps its answers gives a next token, that token with what is left of the
    ///   cap + 1 (`SOURCE_TOO_LARGE` only once the items read go over `maxSourceItems`);
    /// - read whole, kubernetes: the next continue token, `chunkLimit`;
    /// - rescanning: the probe offset, `chunkLimit + 1`;
    /// - a tie group to re-read whole: from the item before it, the group as
    ///   known + 1 + `chunkLimit` (more while it still ends inside the group); read with the
    ///   next chunk, known + 1 + `chunk`;
    /// - resumed at a decimal offset: from the item before `token + offset`,
    ///   `chunk + 1`, checked against `token_floor` (W at the resume; for a source behind
    ///   its own watermark; none, or offset 0: from the position);
    /// - next chunk at a decimal offset N: from `N - 1`, `chunk + 1`, checked
    ///   against the last item read (first chunk: `""`, `chunk`);
    /// - otherwise (continue or opaque token): the token verbatim, `chunk`.
    pub(crate) fn plan(&self, ctx: &Ctx<'_>) -> Planned {
        let limit = ctx.chunk_limit;
        if !self.streamed {
            let token = self.next.clone().unwrap_or_default();
            if self.decimal {
                // Offsets over a list whose order changes between requests skip and repeat
                // items: ask for it all in one request, one more than the cap left to tell
                // "exactly the cap" from "too many". A server that caps its answers gives a next
                // token instead: followed, asking what is left of the cap each time.
                let left = (ctx.max_source_items as usize).saturating_sub(self.staging.len());
                let limit = u32::try_from(left).unwrap_or(u32::MAX).saturating_add(1);
                let first = token.is_empty() && self.staging.is_empty();
                return Planned {
                    token,
                    limit,
                    purpose: if first {
                        Purpose::Whole
                    } else {
                        Purpose::WholePart
                    },
                };
            }
            return Planned {
                token,
                limit,
                purpose: Purpose::WholePart,
            };
        }
        let limit = self.chunk_size(ctx);
        // A chunk that re-reads the item before the position asks one more.
        let overlap_limit = limit.saturating_add(1);
        if let Some(r) = &self.rescan {
            let pos = r.base.saturating_sub(r.step);
            return Planned {
                token: format_offset(pos),
                limit: r.span,
                purpose: Purpose::Probe { pos },
            };
        }
        if let Some(g) = &self.regroup {
            let pos = g.start.saturating_sub(1);
            return Planned {
                token: format_offset(pos),
                limit: g.limit,
                purpose: Purpose::Group {
                    pos,
                    group: g.clone(),
                },
            };
        }
        let offsets = self.decimal && self.offsets_reliable;
        if let Some((token, offset)) = &self.resume {
            let start = parse_offset(token)
                .filter(|_| offsets)
                .and_then(|p| p.checked_add(u64::from(*offset)));
            if let Some(start) = start {
                // After a resume the reference is `token_floor` (W at the resume): the item before
                // the position was consumed or dropped, so it is at or below W.
                if let (Some(w), Some(prev)) = (&self.token_floor, start.checked_sub(1)) {
                    return Planned {
                        token: format_offset(prev),
                        limit: overlap_limit,
                        purpose: Purpose::Next {
                            pos: Some(prev),
                            overlap: Some(w.clone()),
                            straddle: false,
                        },
                    };
                }
                return Planned {
                    token: format_offset(start),
                    limit,
                    purpose: Purpose::Next {
                        pos: Some(start),
                        overlap: None,
                        straddle: false,
                    },
                };
            }
            // A continue token or an opaque one: the refetched chunk need not be
            // the one read (a new snapshot from "", an inconsistent token after a
            // 410, a changed plugin list), so the offset is no position there.
            // Nothing is lost: every raw item before it is at or below W.
            return Planned {
                token: token.clone(),
                limit,
                purpose: Purpose::Next {
                    pos: None,
                    overlap: None,
                    straddle: false,
                },
            };
        }
        let token = self.next.clone().unwrap_or_default();
        if let Some(n) = parse_offset(&token).filter(|_| offsets) {
            if !self.overlap_verified {
                // A tie-able source: from the item before the tie group of the last item read
                // (G - 1), the group as known and a chunk of new items, in ONE answer; taken only
                // when its first name is below the group's (docs/DESIGN.md "Ties").
                if let (false, Some(g), Some(last)) =
                    (self.strict, self.group_start, &self.last_raw)
                {
                    if g < n {
                        let before = u32::from(g > 0);
                        let known = u32::try_from(n - g).unwrap_or(u32::MAX);
                        let limit = known.saturating_add(before).saturating_add(limit);
                        let pos = g.saturating_sub(1);
                        return Planned {
                            token: format_offset(pos),
                            limit,
                            purpose: Purpose::Group {
                                pos,
                                group: Group {
                                    start: g,
                                    name: last.primary().to_vec(),
                                    reference: last.clone(),
                                    limit,
                                    before: self.before_group.clone(),
                                },
                            },
                        };
                    }
                }
                if let (Some(prev), Some(last)) = (n.checked_sub(1), &self.last_raw) {
                    return Planned {
                        token: format_offset(prev),
                        limit: overlap_limit,
                        purpose: Purpose::Next {
                            pos: Some(prev),
                            overlap: Some(last.clone()),
                            straddle: !self.strict,
                        },
                    };
                }
            }
            // From `n` itself: the item before it was just re-read where it was (a tie-able
            // source's answer is then still checked for its tie group, see `prepare`), or there
            // is none to re-read.
            return Planned {
                token,
                limit,
                purpose: Purpose::Next {
                    pos: Some(n),
                    overlap: None,
                    straddle: self.overlap_verified && !self.strict,
                },
            };
        }
        Planned {
            token,
            limit,
            purpose: Purpose::Next {
                pos: None,
                overlap: None,
                straddle: false,
            },
        }
    }

    /// Reads and checks an answer to the request in flight without changing
    /// anything (items out of the merge order make the verdict `Disorder`: a switch to a whole
    /// read). Errors: `INVALID_RESPONSE` (a kubeapps source returned more
    /// than asked, a key too long for a page token, a next token longer than a page token
    /// may hold, a tie group given in pieces), `SOURCE_TOO_LARGE` (also a tie group over the cap),
    /// `NO_PROGRESS`.
    pub(crate) fn prepare<F: KeyFields>(
        &self,
        chunk: ChunkOf<P, F>,
        ctx: &Ctx<'_>,
    ) -> Result<Prepared<P>> {
        let Some(flight) = &self.in_flight else {
            return Err(self.invalid("no request in flight"));
        };
        if chunk
            .next_token
            .as_ref()
            .is_some_and(|t| t.len() > MAX_TOKEN_LEN)
        {
            return Err(self.invalid(format!("next token longer than {MAX_TOKEN_LEN} bytes")));
        }
        // An answer whose next token is the very token it was asked with ends the list (a plugin
        // that signals its end so): its items count, then nothing more is asked.
        let echoed = chunk.next_token.as_deref() == Some(flight.token.as_str());
        let next = chunk
            .next_token
            .filter(|t| !t.is_empty() && *t != flight.token);
        let n = chunk.items.len();
        match flight.purpose {
            Purpose::Whole | Purpose::WholePart => {
                if self.staging.len().saturating_add(n) > ctx.max_source_items as usize {
                    return Err(self.too_large(ctx));
                }
            }
            Purpose::Next { .. } | Purpose::Probe { .. } | Purpose::Group { .. } => {
                // Kubernetes servers may ignore `limit`; a kubeapps plugin that does
                // breaks the offset arithmetic.
                if self.decimal && n > flight.limit as usize {
                    return Err(
                        self.invalid(format!("{n} items returned for limit {}", flight.limit))
                    );
                }
            }
        }

        // Keyed and filtered once, here: the fields are not kept (the filter's verdict, or the
        // caller's predicate's, is counted in `commit`, for the items not dropped before it).
        // Every item may become the source's watermark, which a page token must hold: a longer
        // key would make every later position fail to encode (the list could not go on).
        let id = &self.spec.id;
        // The source's plugin, cluster and namespace as every key of its own items holds them:
        // encoded once per chunk, copied into each key at once.
        let context = encode_context(&id.plugin, &id.cluster, &id.namespace);
        let mut items: Vec<(SortKey, bool, P)> = Vec::with_capacity(n);
        // The continue token's resume key (`start`: the last key given, then NUL), when the
        // source is a Kubernetes list and the token sent is one: an answer to it starts after
        // that key (at it, for an inclusive cursor).
        let resume_key = (!self.decimal && !flight.token.is_empty())
            .then(|| ContinueToken::decode_canonical(&flight.token))
            .flatten()
            .map(|t| t.start);
        let mut before_start = false;
        // Under a `displayName` sort in the source's name order: the previous item's name (a
        // hash), and whether two adjacent items of one name have different display names.
        let mut previous_name = None;
        let mut mixed_ties = false;
        for (i, (fields, p)) in chunk.items.into_iter().enumerate() {
            let f = self.with_defaults(fields.key_fields());
            if let (0, Some(start)) = (i, &resume_key) {
                before_start = starts_before(&f, start);
            }
            let sort_value = ctx.order.sort_value(&f);
            let own =
                f.plugin == id.plugin && f.cluster == id.cluster && f.namespace == id.namespace;
            let bytes = if own {
                sort_value.len() + f.identifier.len()
            } else {
                id.key_bytes(
                    &sort_value,
                    [f.plugin, f.cluster, f.namespace, f.identifier],
                )
            };
            debug_assert_eq!(
                bytes,
                id.key_bytes(
                    &sort_value,
                    [f.plugin, f.cluster, f.namespace, f.identifier]
                )
            );
            if bytes > ctx.max_key_bytes {
                return Err(self.invalid(format!("item {i}'s key is {bytes} bytes (its sort field and identifier, UTF-8); a page token holds keys of at most {} bytes", ctx.max_key_bytes)));
            }
            // The caller's verdict, when a custom predicate judges this source, replaces the
            // rules (`ctx.filter` is then `plugins` alone).
            let judged = ctx
                .verdicts
                .map_or(true, |v| v.get(i).copied().unwrap_or(false));
            let key = if own {
                ctx.order.key_in_context(&f, &context)
            } else {
                ctx.order.key_of(&f)
            };
            if self.by_name {
                // Equal names are the source's ties, in any order on each request: with two display
                // names among them a tie may come back on either side of an item read, so the
                // answer is taken as a disorder (the whole read shows what the merge passed).
                let h = xxh64(f.name.as_bytes(), 0);
                mixed_ties |= previous_name == Some(h)
                    && items
                        .last()
                        .is_some_and(|(k, ..)| k.primary() != key.primary());
                previous_name = Some(h);
            }
            items.push((key, judged && ctx.filter.matches_ref(&f), p));
        }

        // Progress: some key beyond both W and anything read before.
        let floor = match (ctx.watermark, &self.max_read) {
            (Some(w), Some(m)) => Some(w.max(m)),
            (w, m) => w.or(m.as_ref()),
        };
        let progress = items.iter().any(|(k, ..)| floor.map_or(true, |f| k > f));
        // A continuation that restarts the list (a proxy that drops `continue`): not used, the
        // position stands; the MAX_RESTARTS_IN_A_ROW-th in a row sets the source aside
        // (`Pager::feed`). Checked before the order: such an answer is no disorder.
        if before_start || self.restarts_list(&items, flight, progress, echoed) {
            return Ok(Prepared::unmerged(
                items,
                next,
                chunk.resource_version,
                chunk.remaining_item_count,
                Verdict::Restarted,
            ));
        }
        // A list read whole by offsets in pieces (a server that caps its answers) that gives an
        // item twice changed its order between requests: another item was skipped. Not used; the
        // whole read starts over from `""` (a list that only grew in front reads right then), and
        // the MAX_RESTARTS_IN_A_ROW-th in a row sets the source aside (`no-progress`): one whose
        // order changes on every request cannot be read in pieces, and nothing is lost silently.
        if self.decimal && matches!(flight.purpose, Purpose::WholePart) && self.repeats(&items) {
            return Ok(Prepared::unmerged(
                items,
                next,
                chunk.resource_version,
                chunk.remaining_item_count,
                Verdict::Restarted,
            ));
        }
        let first = items.first().map(|(k, ..)| k);
        if self.streamed && (mixed_ties || self.disordered(&items, &flight.token, &flight.purpose))
        {
            return Ok(Prepared::unmerged(
                items,
                next,
                chunk.resource_version,
                chunk.remaining_item_count,
                Verdict::Disorder,
            ));
        }
        let verdict = match &flight.purpose {
            Purpose::Next {
                overlap: Some(reference),
                pos,
                straddle,
            } => {
                let name = reference.primary();
                // Another item of the overlap's tie group: the group straddles this
                // read and the one before, and the two orders of it may differ.
                let tied = items
                    .iter()
                    .rposition(|(k, ..)| k.primary() == name && k != reference);
                let group = match (tied, self.group_start, pos) {
                    (Some(last), Some(start), Some(pos)) if *straddle && start <= *pos => {
                        // The group as known: from its start to the last member seen.
                        let end = pos.saturating_add(last as u64).saturating_add(1);
                        Some(self.group(start, end, reference, ctx)?)
                    }
                    _ => None,
                };
                // A tie-able source's overlap item proves nothing (its equal names come in any
                // order): only an earlier name, or the list's start, shows nothing was skipped.
                let safe = |f: &SortKey| {
                    if self.strict {
                        not_after(f, reference)
                    } else {
                        *pos == Some(0) || f.primary() < name
                    }
                };
                if let Some(g) = group {
                    Verdict::Regroup(g)
                } else if (!*straddle || tied.is_none()) && first.is_some_and(safe) {
                    Verdict::Accept {
                        overlap_first: first == Some(reference),
                        quiet: 0,
                    }
                } else {
                    Verdict::MovedBack {
                        reference: reference.clone(),
                        base: pos.unwrap_or(0),
                    }
                }
            }
            Purpose::Next {
                overlap: None,
                pos: Some(pos),
                straddle: true,
            } => {
                // From the position right after an overlap re-read that held the overlap item
                // alone (`overlap_verified`): more of that item's tie group here straddles two
                // reads, as in the overlap case above.
                let reference = self.last_raw.as_ref();
                let tied = reference.and_then(|r| {
                    items
                        .iter()
                        .rposition(|(k, ..)| k.primary() == r.primary() && k != r)
                });
                match (tied, self.group_start, reference) {
                    (Some(last), Some(start), Some(r)) if start <= *pos => {
                        let end = pos.saturating_add(last as u64).saturating_add(1);
                        Verdict::Regroup(self.group(start, end, r, ctx)?)
                    }
                    (Some(_), _, Some(r)) => Verdict::MovedBack {
                        reference: r.clone(),
                        base: *pos,
                    },
                    _ => Verdict::Accept {
                        overlap_first: false,
                        quiet: 0,
                    },
                }
            }
            Purpose::Next { .. } => Verdict::Accept {
                overlap_first: false,
                quiet: 0,
            },
            Purpose::Probe { pos } => {
                let found = match &self.rescan {
                    // A tie-able source may hold more of the reference's tie group
                    // before the probe: only an earlier name is a safe start.
                    Some(r) if !self.strict => {
                        first.is_some_and(|f| f.primary() < r.reference.primary())
                    }
                    Some(r) => first.is_some_and(|f| not_after(f, &r.reference)),
                    None => true,
                };
                if *pos == 0 || found {
                    Verdict::Accept {
                        overlap_first: false,
                        quiet: 0,
                    }
                } else {
                    Verdict::ProbeTooFar
                }
            }
            Purpose::Group { pos, group } => {
                let name = group.name.as_slice();
                let last = items.last().map(|(k, ..)| k.primary());
                let moved = group
                    .before
                    .as_ref()
                    .is_some_and(|b| first.is_some_and(|f| f.primary() != b.as_slice()));
                if group.start > 0 && (moved || first.map_or(true, |f| f.primary() >= name)) {
                    // The item before the group is no longer before it: items
                    // ahead were deleted. Rescan as for any move back.
                    Verdict::MovedBack {
                        reference: group.reference.clone(),
                        base: *pos,
                    }
                } else if next.is_some() && last == Some(name) && n >= flight.limit as usize {
                    // The answer ends inside the group: ask more, in one answer again. (A short
                    // answer with a next token is all the server had from there: a server that
                    // ends a list only with an empty answer. Its continuation is checked as any.)
                    let end = pos.saturating_add(n as u64);
                    let grown = self.group(group.start, end, &group.reference, ctx)?;
                    let limit = flight.limit.saturating_mul(2).max(grown.limit);
                    let cap = ctx
                        .max_source_items
                        .saturating_add(1)
                        .saturating_add(ctx.chunk_limit);
                    if flight.limit >= cap {
                        return Err(self.too_large(ctx));
                    }
                    Verdict::Regroup(Group {
                        limit: limit.min(cap),
                        ..grown
                    })
                } else if next.is_some()
                    && n < flight.limit as usize
                    && last.is_some_and(|l| l < name)
                {
                    // A short answer (a capped server) that did not reach the group: its first
                    // item proved the start; the list goes on from the position itself.
                    Verdict::Verified
                } else {
                    // Items up to the group's end were read before (the group's
                    // members missing then are among them, and are kept).
                    let quiet = items
                        .iter()
                        .take_while(|(k, ..)| k.primary() <= name)
                        .count();
                    Verdict::Accept {
                        overlap_first: false,
                        quiet,
                    }
                }
            }
            Purpose::Whole | Purpose::WholePart => Verdict::Accept {
                overlap_first: false,
                quiet: 0,
            },
        };

        if let (Verdict::Regroup(g), false) =
            (&verdict, matches!(flight.purpose, Purpose::Group { .. }))
        {
            if self
                .short_group
                .as_ref()
                .is_some_and(|(start, _)| *start == g.start)
            {
                return Err(self.invalid(
                    "a group of equal names comes back in pieces (answers shorter than asked) and \
                     cannot be read in one answer; give the source order \"none\" to read it whole",
                ));
            }
        }
        if let Verdict::Accept { .. } = verdict {
            let v = self
                .reread_check(&items, flight, next.is_some(), ctx)
                .or_else(|| self.passed_unseen(&items, ctx).then_some(Verdict::Disorder))
                .or_else(|| {
                    self.inserted_before_position(&items, flight)
                        .then_some(Verdict::Disorder)
                });
            if let Some(v) = v {
                return Ok(Prepared::unmerged(
                    items,
                    next,
                    chunk.resource_version,
                    chunk.remaining_item_count,
                    v,
                ));
            }
        }
        let short_group = match (&flight.purpose, &verdict) {
            (Purpose::Group { group, .. }, Verdict::Accept { .. }) => {
                next.is_some()
                    && n < flight.limit as usize
                    && items
                        .last()
                        .is_some_and(|(k, ..)| k.primary() == group.name.as_slice())
            }
            _ => false,
        };
        let overlap_only = match (&flight.purpose, &verdict, items.as_slice(), &next) {
            (
                Purpose::Next {
                    pos: Some(pos),
                    overlap: Some(_),
                    ..
                },
                Verdict::Accept {
                    overlap_first: true,
                    ..
                },
                [_],
                Some(t),
            ) => parse_offset(t) == pos.checked_add(1),
            _ => false,
        };

        let mut next = next;
        let mut cycled = false;
        if let Verdict::Accept { .. } = verdict {
            if !matches!(flight.purpose, Purpose::Whole) {
                // A probe or a group re-read starts a new pass: only an immediate repeat (an
                // echo, which ended the list above) counts. An overlap re-read that holds only
                // the overlap item gives back the token it gave before (`pos + 1`): the list did
                // not move, it is no cycle.
                let new_pass = matches!(
                    flight.purpose,
                    Purpose::Probe { .. } | Purpose::Group { .. }
                );
                if !new_pass
                    && !overlap_only
                    && next.as_ref().is_some_and(|t| self.seen_tokens.contains(t))
                {
                    cycled = true;
                    next = None;
                }
                if !progress && !cycled && self.stalled >= ctx.max_chunks_without_progress {
                    return Err(self.no_progress(format!(
                        "{} chunks in a row brought nothing new",
                        u64::from(self.stalled) + 1
                    )));
                }
            }
        }

        Ok(Prepared {
            items,
            next,
            resource_version: chunk.resource_version,
            remaining_item_count: chunk.remaining_item_count,
            verdict,
            progress,
            overlap_only,
            short_group,
            cycled,
        })
    }

    /// Applies a prepared answer. Returns the counters it adds.
    pub(crate) fn commit(&mut self, p: Prepared<P>, ctx: &Ctx<'_>) -> SourceStats {
        let mut delta = SourceStats {
            requests: 1,
            items_scanned: p.items.len() as u64,
            ..Default::default()
        };
        let Some(mut flight) = self.in_flight.take() else {
            return delta;
        };
        // A first chunk from the list's start with no next token is the whole list (within the
        // cap, by offsets): found out of order, it is the whole read the switch would ask for.
        let whole_list = self.decimal
            && flight.token.is_empty()
            && p.next.is_none()
            && p.items.len() <= ctx.max_source_items as usize
            && matches!(flight.purpose, Purpose::Next { .. });
        let (overlap_first, quiet) = match p.verdict {
            Verdict::Regroup(g) => {
                // The answer is not used: the group's re-read is an extra request.
                delta.rescans += 1;
                self.regroup = Some(g);
                return delta;
            }
            Verdict::MovedBack { reference, base } => {
                self.regroup = None;
                self.short_group = None;
                self.rescan = Some(Rescan {
                    reference,
                    base,
                    step: u64::from(ctx.chunk_limit),
                    span: ctx.chunk_limit.saturating_add(1),
                });
                return delta;
            }
            Verdict::Widen {
                reference,
                pos,
                span,
            } => {
                delta.rescans += 1;
                self.regroup = None;
                self.rescan = Some(Rescan {
                    reference,
                    base: pos,
                    step: 0,
                    span,
                });
                return delta;
            }
            Verdict::ProbeTooFar => {
                delta.rescans += 1;
                if let Some(r) = &mut self.rescan {
                    // (A widened probe asks from its base itself: step 0.)
                    r.step = r.step.saturating_mul(2).max(u64::from(ctx.chunk_limit));
                }
                return delta;
            }
            Verdict::Disorder if whole_list => {
                delta.whole_read_switches += 1;
                self.switch_to_whole(ctx.watermark);
                flight.purpose = Purpose::Whole;
                (false, 0)
            }
            Verdict::Disorder => {
                delta.whole_read_switches += 1;
                self.switch_to_whole(ctx.watermark);
                return delta;
            }
            Verdict::Restarted => {
                // Not used; the same request is asked again (a whole read by offsets: the whole
                // read from `""`), and the source set aside at the MAX_RESTARTS_IN_A_ROW-th restart
                // in a row (`Pager::feed` reads `restarts`).
                self.restarts = self.restarts.saturating_add(1);
                if self.decimal && matches!(flight.purpose, Purpose::WholePart) {
                    self.next = Some(String::new());
                    self.staging.clear();
                    self.seen_tokens.clear();
                }
                return delta;
            }
            Verdict::Verified => {
                // The position stands (`next` unchanged); read on from it. Should more of the
                // group come there, the server gives it in pieces (see `short_group`).
                self.overlap_verified = true;
                self.regroup = None;
                if let Purpose::Group { group, .. } = &flight.purpose {
                    self.short_group = Some((group.start, group.name.clone()));
                }
                return delta;
            }
            Verdict::Accept {
                overlap_first,
                quiet,
            } => (overlap_first, quiet),
        };
        // A whole read's restarts count until it is all in (each restart reads its start again).
        if !(self.decimal && matches!(flight.purpose, Purpose::Whole | Purpose::WholePart))
            || p.next.is_none()
        {
            self.restarts = 0;
        }
        if let Purpose::Next { .. } | Purpose::Group { .. } = flight.purpose {
            self.chunks_taken = self.chunks_taken.saturating_add(1);
        }
        if flight.token.is_empty() {
            self.list_first = p.items.first().map(|(k, ..)| k.clone());
        }
        if p.cycled {
            // The list cannot be followed past here: it ends, and the pages say it may lack
            // items (`truncated`).
            delta.cycled_tokens += 1;
            self.truncated = true;
        }
        // After an overlap-only answer, or a group re-read taken as whole though short (a server
        // that gives a next token on every answer), ask from the position itself: re-reading the
        // item before it would only see the group again, maybe in another order.
        self.overlap_verified = p.overlap_only || p.short_group;
        if let (true, Purpose::Group { group, .. }) = (p.short_group, &flight.purpose) {
            self.short_group = Some((group.start, group.name.clone()));
        }
        if let Purpose::Probe { .. } = flight.purpose {
            delta.rescans += 1;
            self.rescan = None;
            self.seen_tokens.clear();
        }
        if let Purpose::Group { .. } = flight.purpose {
            self.regroup = None;
            self.seen_tokens.clear();
        }
        // The snapshot's resourceVersion: the list's own, or, when the answer has none (a Kubeapps
        // response over a Kubernetes list), the one its continue token carries: same snapshot.
        let from_token = || {
            let next = p
                .next
                .as_deref()
                .filter(|_| self.spec.kind == SourceKind::Kubernetes)?;
            // Apiservers write one spelling of a token: that one is enough here.
            let token = ContinueToken::decode_canonical(next)?;
            token
                .is_consistent()
                .then(|| format!("{}", token.resource_version))
        };
        if let Some(rv) = p
            .resource_version
            .clone()
            .filter(|rv| !rv.is_empty())
            .or_else(from_token)
        {
            // A Kubernetes list continued under a token serves the snapshot it started from:
            // another resourceVersion means the server did not keep it, and the list is no
            // longer one point in time (as after a 410). The pages say so.
            let kept = self.resource_version.is_empty() || rv == self.resource_version;
            if self.spec.kind == SourceKind::Kubernetes && !flight.token.is_empty() && !kept {
                self.inconsistent = true;
            }
            self.resource_version = rv;
        }
        let n = p.items.len();
        self.stalled = if p.progress {
            0
        } else {
            self.stalled.saturating_add(1)
        };
        if let Some(t) = &p.next {
            self.seen_tokens.push(t);
        }
        self.track_remaining(n as u64, p.next.is_some(), p.remaining_item_count);

        // A source declared `kubernetes` that answers with decimal offsets is paged as one.
        if !self.decimal && self.streamed && p.next.as_deref().and_then(canonical_decimal).is_some()
        {
            self.learn_offsets();
        }
        // Decimal offsets hold only while next = offset + items returned.
        let pos = match flight.purpose {
            Purpose::Next { pos, .. } => pos.or_else(|| {
                parse_offset(&flight.token).filter(|_| self.decimal && self.offsets_reliable)
            }),
            Purpose::Probe { pos } | Purpose::Group { pos, .. } => Some(pos),
            _ => None,
        };
        self.read_pos = match pos {
            Some(pos) => pos.checked_add(n as u64),
            None if flight.token.is_empty() => Some(n as u64),
            None => self.read_pos.and_then(|r| r.checked_add(n as u64)),
        };
        // An answer asked from the position right after the last item read (no overlap).
        let from_position = matches!(flight.purpose, Purpose::Next { overlap: None, .. });
        if let (Some(pos), Some(t)) = (pos, &p.next) {
            if self.decimal && parse_offset(t) != pos.checked_add(n as u64) {
                self.offsets_reliable = false;
            }
        }

        // Where each item's tie group starts in this answer.
        let mut groups = Vec::with_capacity(n);
        let mut start = 0u32;
        // The group's primary, terminator included: a key starts with it exactly when its
        // primary is the same (one `primary()` scan per group).
        let mut group_primary: &[u8] = &[];
        for (i, (k, ..)) in p.items.iter().enumerate() {
            let i = i as u32;
            if i == 0 || !k.0.starts_with(group_primary) {
                start = i;
                group_primary = k.primary();
            }
            debug_assert_eq!(group_primary, k.primary());
            groups.push(start);
        }
        if let Some((last, ..)) = p.items.last() {
            let j = groups.last().copied().unwrap_or(0);
            // The name before the last group: in this answer, or (the whole answer one name
            // that goes on from before) the one known.
            self.before_group = match j.checked_sub(1) {
                Some(b) => p.items.get(b as usize).map(|(k, ..)| k.primary().to_vec()),
                None if self.bound.as_deref() == Some(last.primary()) => self.before_group.take(),
                None => None,
            };
            self.group_start = match pos {
                Some(pos) if j > 0 || pos == 0 => pos.checked_add(u64::from(j)),
                // Right after the last item read, under another name: the group starts here.
                Some(pos) if from_position && self.bound.as_deref() != Some(last.primary()) => {
                    Some(pos)
                }
                // The whole answer is one name: the group began before it.
                Some(_) if self.bound.as_deref() == Some(last.primary()) => self.group_start,
                _ => None,
            };
            if self.streamed {
                self.bound = Some(last.primary().to_vec());
                if self
                    .short_group
                    .as_ref()
                    .is_some_and(|(_, name)| name != last.primary())
                {
                    // Read past the group: it was whole.
                    self.short_group = None;
                }
            }
            self.list_last = Some(last.primary().to_vec());
            self.last_raw = Some(last.clone());
        }
        // The largest key read: a loop, not `Iterator::max` (size).
        // The 8-byte prefixes first (`key_prefix`).
        let mut max: Option<(u64, &SortKey)> = None;
        for (k, ..) in &p.items {
            let kp = key_prefix(&k.0);
            if max.map_or(true, |(mp, m)| kp > mp || (kp == mp && k >= m)) {
                max = Some((kp, k));
            }
        }
        if let Some((_, max)) = max {
            if self.max_read.as_ref().map_or(true, |m| max > m) {
                self.max_read = Some(max.clone());
            }
        }

        if self.streamed {
            for (k, ..) in &p.items {
                let h = key_hash(k);
                if self.pending_anchor == Some(h) {
                    // The resumed position's last item read is read again: from here on the
                    // answers are checked as for any position (`passed_unseen`).
                    self.pending_anchor = None;
                }
                self.remember_read(h);
            }
        }
        let seq = self.seq;
        self.seq = self.seq.wrapping_add(1);
        if self.switch.is_some() && matches!(flight.purpose, Purpose::Whole | Purpose::WholePart) {
            // The whole read after a switch: kept in the source's own order until it is all
            // here, then told apart (consumed before, late, new).
            for (key, pass, payload) in p.items {
                let prefix = key_prefix(&key.0);
                self.staging
                    .push(Entry::new(key, prefix, pass.then_some(payload), seq, 0));
            }
            self.next = p.next;
            self.resume = None;
            if self.next.is_none() {
                let all = core::mem::take(&mut self.staging);
                self.settle_switch(all, ctx, &mut delta);
            }
            return delta;
        }
        let mut fresh = Vec::with_capacity(n);
        for (i, (key, pass, payload)) in p.items.into_iter().enumerate() {
            if i == 0 && overlap_first {
                // The planned overlap re-read.
                continue;
            }
            let prefix = key_prefix(&key.0);
            let at_or_below = |w: &SortKey| {
                let wp = key_prefix(&w.0);
                prefix < wp || (prefix == wp && key <= *w)
            };
            if ctx.watermark.is_some_and(at_or_below) || self.is_buffered(&key, prefix) {
                if i >= quiet {
                    delta.duplicates_dropped += 1;
                }
                continue;
            }
            if !pass {
                delta.filtered_out += 1;
            }
            let group_raw = groups.get(i).copied().unwrap_or(i as u32);
            fresh.push(Entry::new(
                key,
                prefix,
                pass.then_some(payload),
                seq,
                group_raw,
            ));
        }
        // A tie-able source's equal names come in any order; one item twice is one item.
        delta.duplicates_dropped += sort_unique(&mut fresh);

        self.next = p.next;
        self.resume = None;
        match flight.purpose {
            Purpose::Whole | Purpose::WholePart => {
                self.staging.append(&mut fresh);
                if self.next.is_none() {
                    let mut all = core::mem::take(&mut self.staging);
                    delta.duplicates_dropped += sort_unique(&mut all);
                    reverse(&mut all);
                    self.buf = all;
                }
            }
            Purpose::Next { .. } | Purpose::Probe { .. } | Purpose::Group { .. } => {
                self.marks.push(ChunkMark {
                    seq,
                    wire: text_wire(&flight.token),
                    token: flight.token,
                    live: fresh.len(),
                });
                self.insert_sorted(fresh);
                self.prune_marks();
            }
        }
        delta
    }

    /// Takes a switched source's whole read, `all` in the source's own order: the items up to the
    /// last one read before the switch were read then (the consumed ones among them are at or
    /// below W: dropped); the items after it were never read, and those at or below W are late:
    /// kept, shown although below W. The rest is buffered as any whole read.
    fn settle_switch(&mut self, all: Vec<Entry<P>>, ctx: &Ctx<'_>, delta: &mut SourceStats) {
        let Some(sw) = self.switch.take() else {
            return;
        };
        // The items consumed from the source are a prefix of its own order (`consumed_prefix`).
        // A resumed switch has only its token's count (the watermark has moved on in key order
        // since).
        let mut read = core::mem::take(&mut self.read_ids);
        self.read_next = 0;
        read.sort_unstable();
        let was_read = |e: &Entry<P>| {
            let h = key_hash(&e.key);
            read.binary_search(&h).is_ok() || sw.pending == Some(h)
        };
        // A resumed late phase's watermark may be a late item (the largest consumed): no anchor.
        let ws_anchor = self
            .watermark
            .as_ref()
            .filter(|w| sw.late_upto.as_ref() != Some(*w));
        // A resumed position's anchor, found again once W had moved past the token's floor: every
        // item of the source at or below its watermark then and before that anchor (or among its
        // equal names, in any order) was read before the token, so consumed, or was inserted
        // behind W since. The cut alone could fall before them: the first item above the
        // watermark may be one inserted ahead of them since, and the items read since the resume
        // may all be gone.
        let consumed_before = sw
            .consumed_before
            .as_ref()
            .and_then(|(h, ws)| Some((anchored_cut(&all, &[*h], None)?, ws.as_ref())));
        let prefix = if sw.live {
            self.consumed_prefix(&all, &sw, &was_read)
        } else if sw.anchors.is_empty() || sw.read_count == Some(u64::MAX) {
            // A token written before the anchors (or every item consumed): its count.
            Prefix::Known(sw.read_count.unwrap_or(0))
        } else {
            match anchored_cut(&all, &sw.anchors, ws_anchor) {
                Some(cut) => Prefix::Known(cut),
                // Every anchor is gone (deleted since): the count, less the anchors gone (each
                // stood before the cut), is all that is left, and other items deleted before the
                // cut make it over-count.
                None => {
                    let gone = sw.anchors.len() + usize::from(ws_anchor.is_some());
                    Prefix::Unknown(sw.read_count.unwrap_or(0).saturating_sub(gone as u64))
                }
            }
        };
        // `cut`: the end of what is known consumed; `unsure`: the end of what a count (or the
        // first item above the watermark) alone takes as consumed. Between them nothing tells an
        // item consumed before from one never read that the source's order put there (two
        // histories, one token: docs/DESIGN.md "Order is learned", the limit; a whole read in the
        // merge order proves nothing, the item that showed the other order may be gone), so those
        // at or below W are taken as not consumed: shown late, counted as possible repeats.
        let (cut, unsure) = match prefix {
            Prefix::Known(cut) => (cut, cut),
            // A source known to list in the merge order: the count (or the first item above its
            // watermark) is exact, the items before it were consumed.
            Prefix::Unknown(upto) if self.spec.lists_in(ctx.order) => (upto, upto),
            Prefix::Unknown(upto) => (0, upto),
        };
        // When nothing between the cut and that anchor comes late (every item there at or below
        // W is dropped as consumed), the cut is after the anchor: a page token taken during the
        // late phase then cuts there again on resume, where a cut before those items would show
        // them again.
        let w = ctx.watermark;
        let below_w = |e: &Entry<P>| w.is_some_and(|w| e.key <= *w) && w != Some(&e.key);
        let cut = match consumed_before {
            Some((end, ws))
                if end > cut
                    && all
                        .get(cut as usize..end as usize)
                        .unwrap_or(&[])
                        .iter()
                        .all(|e| !below_w(e) || ws.is_some_and(|ws| e.key <= *ws)) =>
            {
                end
            }
            _ => cut,
        };
        // A source streamed in its name order under a `displayName` sort: its ties (equal names)
        // may have come back in another order than they were read in, so an item before the cut
        // need not be one read. Known never read (the ring holds every item read, or every item
        // read since a resume and it sorts above the watermark the token gave), it was never
        // consumed: late, not dropped.
        let never_read = |e: &Entry<P>| {
            self.by_name
                && sw.live
                && !was_read(e)
                && (self.read_ids_complete
                    || matches!(&self.resumed_floor, Some(f) if f.as_ref().map_or(true, |f| e.key > *f)))
        };
        // Such an item is late before the cut: a page token's cut (a count and the item before
        // it) is moved before it, so that a resume shows it; the consumed items after it may then
        // come again, which the possible repeats it counts (below) and the source's `inconsistent`
        // say.
        let token_cut = all
            .iter()
            .take(cut as usize)
            .position(|e| below_w(e) && never_read(e))
            .map_or(cut, |j| j as u64);
        // What a page token then holds to cut again by identity: the last item before the cut
        // and the last item consumed before the late ones.
        let pre = if sw.live {
            self.watermark.as_ref().map(key_hash)
        } else {
            ws_anchor.map(key_hash).or(sw.anchors.get(1).copied())
        };
        self.cut_anchors.clear();
        if let Some(end) = token_cut
            .checked_sub(1)
            .and_then(|i| all.get(i as usize))
            .map(|e| key_hash(&e.key))
        {
            self.cut_anchors.push(end);
            self.cut_anchors.extend(pre.filter(|p| *p != end));
        }
        let mut kept = Vec::with_capacity(all.len());
        // The consumed items a resume from such a token may show again.
        let mut possible_repeats = all
            .get(token_cut as usize..cut as usize)
            .unwrap_or(&[])
            .iter()
            .filter(|e| below_w(e) && !never_read(e) && e.payload.is_some())
            .count() as u64;
        for (i, mut e) in all.into_iter().enumerate() {
            if ctx.watermark.is_some_and(|w| e.key <= *w) {
                // W itself (shown, maybe from an overlapping source) is no late item. Before the
                // end of what was read (or before a resumed anchor, at or below the watermark the
                // token gave): consumed (or inserted behind W since), not shown. After it: never
                // read, late. (Exactly what a page token's count says.)
                let consumed = consumed_before
                    .is_some_and(|(end, ws)| (i as u64) < end && ws.is_some_and(|ws| e.key <= *ws));
                if ((i as u64) < cut && !never_read(&e))
                    || consumed
                    || ctx.watermark == Some(&e.key)
                {
                    delta.duplicates_dropped += 1;
                    continue;
                }
                e.late = true;
                // Not known consumed, only not known read: shown, and said so (unless a resumed
                // late phase already showed it).
                let shown = sw.late_upto.as_ref().is_some_and(|upto| e.key <= *upto);
                if (i as u64) < unsure && e.payload.is_some() && !shown {
                    possible_repeats += 1;
                }
            }
            kept.push(e);
        }
        if possible_repeats > 0 {
            delta.possible_repeats += possible_repeats;
            self.inconsistent = true;
        }
        delta.duplicates_dropped += sort_unique(&mut kept);
        // Items read and buffered before the switch, gone from the list since (deleted): shown
        // still, as a streamed source shows what it buffered.
        for e in core::mem::take(&mut self.buf) {
            if let Err(at) = kept.binary_search_by(|k| k.key.cmp(&e.key)) {
                if !e.late && ctx.watermark.map_or(true, |w| e.key > *w) {
                    kept.insert(at, e);
                }
            }
        }
        // A resumed late phase: the late items at or below the last one consumed (in key order),
        // or, in a token without it, the first `skip` of them.
        let mut skip = sw.skip;
        let mut buf = Vec::with_capacity(kept.len());
        self.late_pending = 0;
        for e in kept {
            if e.late {
                let shown = match &sw.late_upto {
                    Some(upto) => e.key <= *upto,
                    None => skip > 0,
                };
                if shown {
                    skip = skip.saturating_sub(1);
                    continue;
                }
                self.late_pending += 1;
            }
            if e.payload.is_none() {
                delta.filtered_out += 1;
            }
            buf.push(e);
        }
        self.late_shown = sw.skip;
        self.late_last = sw.late_upto;
        self.late_from = (self.late_pending > 0).then_some(token_cut);
        self.late_mark = late_mark(self.late_from);
        reverse(&mut buf);
        self.buf = buf;
    }

    /// How many items at the start of a live switch's whole read `all` (the source's own order)
    /// come before the end of what was read: up to the last item read that is still there (by
    /// identity: items inserted or deleted ahead since do not move it), with its equal names
    /// (any order among them). None there: 0 when every item read since the list's start is
    /// known (none is left, so nothing at or below W was seen). Else (a resumed position, or more
    /// read than the ring holds) no identity tells: `Unknown`.
    fn consumed_prefix(
        &self,
        all: &[Entry<P>],
        sw: &Switch,
        was_read: &dyn Fn(&Entry<P>) -> bool,
    ) -> Prefix {
        let last = all.iter().rposition(|e| {
            was_read(e)
                || self.watermark.as_ref() == Some(&e.key)
                || sw.last_read.as_ref() == Some(&e.key)
        });
        match last {
            Some(j) => {
                let name = all.get(j).map(|e| e.key.primary());
                let mut end = j + 1;
                while all.get(end).is_some_and(|e| Some(e.key.primary()) == name) {
                    end += 1;
                }
                Prefix::Known(end as u64)
            }
            None if self.read_ids_complete => Prefix::Known(0),
            // A resumed position (or more read than the ring holds) whose items are gone: what
            // may have been consumed ends at the first item above the source's own watermark and
            // its equal names (in any order). What was consumed from the source is at or below it,
            // and came in the merge order up to there (else it was found out of order then); which
            // items before it were, nothing tells (the known limit). A page token's count
            // would be off by every item inserted or deleted ahead since. After a resume, while
            // the ring holds every item read since, the watermark its token gave: an item above
            // it was consumed after the resume only if read since, and none of those is left.
            None => {
                let floor = match &self.resumed_floor {
                    Some(w) => w.as_ref(),
                    None => self.watermark.as_ref(),
                };
                let upto = all.iter().position(|e| {
                    floor.map_or(true, |ws| e.key > *ws && e.key.primary() != ws.primary())
                });
                Prefix::Unknown(upto.unwrap_or(all.len()) as u64)
            }
        }
    }

    /// Handles a failed request. A 410 on a kubernetes source goes on with the
    /// inconsistent continue token if there is one, else relists from the
    /// start (the watermark skips what was seen); anything else only clears the
    /// request. `INVALID_RESPONSE` when a 410's continue token is too long.
    pub(crate) fn check_failure(&self, failure: &Failure) -> Result<()> {
        if failure
            .continue_token
            .as_ref()
            .is_some_and(|t| t.len() > MAX_TOKEN_LEN)
        {
            return Err(self.invalid(format!("continue token longer than {MAX_TOKEN_LEN} bytes")));
        }
        Ok(())
    }

    /// How the source recovers from this failure by itself (a 410 of a kubernetes source, a
    /// refused decimal position), if it does: no failure of the source's, for `reach.rs`.
    pub(crate) fn recovers_from(&self, failure: &Failure) -> Option<Recovery> {
        if self.decimal && refuses_position(failure) && !self.asked_from_start() {
            Some(Recovery::RefusedPosition)
        } else if failure.status == 410 && self.spec.kind == SourceKind::Kubernetes {
            Some(Recovery::Expired)
        } else {
            None
        }
    }

    /// Whether this failure refuses the request itself, for good (the same request, or any other,
    /// would be refused again: the source is set aside), never a vanished position:
    /// - a source paging an apiserver list by its continue tokens (a `kubernetes` source not found
    ///   paging by decimal offsets): a 400 or 422 ([`refused_for_good`](super::reach::refused_for_good));
    /// - a source paged by decimal offsets, asked from the list's start (`""` or `0`: no position
    ///   that a shrunken list could have lost): a 400 or `InvalidArgument` (a filter the plugin
    ///   refuses), or a 422 / `Invalid`. A walk back after a refused position ends there too.
    pub(crate) fn refuses_for_good(&self, failure: &Failure) -> bool {
        if self.decimal {
            self.asked_from_start()
                && (refuses_position(failure) || super::reach::refused_for_good(failure))
        } else {
            self.spec.kind == SourceKind::Kubernetes && super::reach::refused_for_good(failure)
        }
    }

    /// Whether an answer holds an item already staged by this whole read. Over decimal offsets,
    /// an item given twice while the count stands means another was skipped (its order changed
    /// between requests): no correct answer.
    fn repeats(&self, items: &[(SortKey, bool, P)]) -> bool {
        if self.staging.is_empty() {
            return false;
        }
        let mut staged: Vec<u64> = self.staging.iter().map(|e| key_hash(&e.key)).collect();
        staged.sort_unstable();
        items
            .iter()
            .any(|(k, ..)| staged.binary_search(&key_hash(k)).is_ok())
    }

    /// The request in flight asks from the list's start (`""` or offset 0).
    fn asked_from_start(&self) -> bool {
        self.in_flight
            .as_ref()
            .is_some_and(|f| parse_offset(&f.token) == Some(0))
    }

    /// Clears the request in flight unanswered (its call was aborted): nothing counted, the
    /// position stands. Returns whether one was in flight.
    pub(crate) fn cancel(&mut self) -> bool {
        self.in_flight.take().is_some()
    }

    /// Applies a failure checked by [`Cursor::check_failure`]: the `recovery` that
    /// [`Cursor::recovers_from`] gave (and the pager allowed), else the request is only cleared.
    /// Returns the counters it adds.
    pub(crate) fn fail(&mut self, failure: Failure, recovery: Option<Recovery>) -> SourceStats {
        let mut delta = SourceStats {
            requests: 1,
            ..Default::default()
        };
        let flight = self.in_flight.take();
        match recovery {
            None => return delta,
            Some(Recovery::RefusedPosition) => {
                if let Some(f) = flight {
                    self.vanished(f.purpose, f.limit);
                }
                return delta;
            }
            Some(Recovery::Expired) => {}
        }
        delta.expired_recoveries += 1;
        self.inconsistent = true;
        self.resume = None;
        self.promised = None;
        match failure.continue_token.filter(|t| !t.is_empty()) {
            // The rest of the list at the current revision, after the same key.
            Some(t) => self.next = Some(t),
            None => {
                self.next = Some(String::new());
                // A new list: its chunks (empty ones too, under a selector) start over.
                self.list_last = None;
                self.staging.clear();
                self.seen_tokens.clear();
            }
        }
        delta
    }

    /// A request at a decimal offset was refused as invalid (kapp_controller's 400
    /// InvalidArgument for an offset past the end of its list): the list shrank under the
    /// position. It is re-read from an earlier one, as after a move back (docs/DESIGN.md
    /// "Vanished positions"); asking the same offset again would be refused forever.
    fn vanished(&mut self, purpose: Purpose, limit: u32) {
        let (pos, reference) = match purpose {
            Purpose::Next { pos, overlap, .. } => (pos, overlap.or_else(|| self.last_raw.clone())),
            Purpose::Group { pos, group } => (Some(pos), Some(group.reference)),
            Purpose::Probe { pos } => {
                // A probe refused too: step back further.
                if let (Some(r), true) = (&mut self.rescan, pos > 0) {
                    r.step = r.step.saturating_mul(2);
                }
                return;
            }
            Purpose::Whole | Purpose::WholePart => {
                // A whole read's later chunk refused (the list shrank under it): the whole read
                // starts over from `""` (its staged items with it).
                self.next = Some(String::new());
                self.staging.clear();
                self.seen_tokens.clear();
                return;
            }
        };
        let Some(pos) = pos.filter(|p| *p > 0) else {
            return;
        };
        self.regroup = None;
        self.short_group = None;
        self.overlap_verified = false;
        match reference.or_else(|| self.watermark.clone()) {
            Some(reference) => {
                self.rescan = Some(Rescan {
                    reference,
                    base: pos,
                    step: 1,
                    span: limit.max(2),
                });
            }
            // Nothing read or consumed from this source: its start is as good a place as any.
            None => {
                self.resume = None;
                self.next = Some(String::new());
            }
        }
    }

    /// Takes the smallest buffered entry (the merge consumed it).
    pub(crate) fn pop_front(&mut self) -> Option<Entry<P>> {
        let e = self.buf.pop()?;
        if e.late {
            self.late_pending = self.late_pending.saturating_sub(1);
            self.late_shown = self.late_shown.saturating_add(1);
            self.late_last = Some(e.key.clone());
            if self.late_pending == 0 {
                self.late_from = None;
            }
        }
        if let Some(m) = self.marks.iter_mut().find(|m| m.seq == e.chunk) {
            m.live = m.live.saturating_sub(1);
        }
        self.prune_marks();
        Some(e)
    }

    /// This source's position, as a page token records it, borrowed from the cursor. `w` is the
    /// global watermark W.
    pub(crate) fn state(&self, order: SortOrder, w: Option<&SortKey>) -> SourceRef<'_> {
        let exhausted = self.exhausted();
        let mut anchors: Cow<'_, [u64]> = Cow::Borrowed(&[]);
        let mut late_watermark = None;
        let (chunk_token, chunk_wire, offset) = if self.switched {
            if !exhausted && (self.switch.is_some() || self.late_pending > 0) {
                anchors = match &self.switch {
                    Some(sw) => Cow::Borrowed(&sw.anchors),
                    // The last item consumed before the late ones, unless it is the watermark
                    // (which the token holds anyway).
                    None => match (self.cut_anchors.as_slice(), &self.watermark) {
                        ([end, pre], Some(ws)) if key_hash(ws) == *pre => Cow::Owned(vec![*end]),
                        (all, _) => Cow::Borrowed(all),
                    },
                };
                late_watermark = self.late_last.as_ref().and_then(|k| {
                    if Some(k) == self.watermark.as_ref() {
                        Some(None)
                    } else {
                        k.parts_ref(order).map(Some)
                    }
                });
                (self.late_mark.as_str(), None, self.late_shown)
            } else {
                (SWITCH_MARK, None, 0)
            }
        } else if exhausted || !self.streamed {
            ("", None, 0)
        } else if let Some(front) = self.marks.first() {
            // The first chunk with unconsumed items, and how many raw items at
            // its start are consumed: every raw item before the smallest buffered
            // index was consumed or dropped. That is the chunk's first entry in the
            // buffer: a streamed chunk is in name order (checked on entry), its
            // entries' `group_raw` is the start of their name's group, and the buffer
            // keeps them in key order, so along the buffer it never decreases (a
            // tie-able chunk is sorted on entry, but only within a name).
            let offset = self
                .buf
                .iter()
                .rev()
                .find(|e| e.chunk == front.seq)
                .map_or(0, |e| e.group_raw);
            debug_assert_eq!(
                Some(offset),
                self.buf
                    .iter()
                    .filter(|e| e.chunk == front.seq)
                    .map(|e| e.group_raw)
                    .min()
                    .or(Some(0)),
            );
            (front.token.as_str(), Some(front.wire.as_slice()), offset)
        } else if let Some((t, o)) = &self.resume {
            (t.as_str(), None, *o)
        } else {
            (self.next.as_deref().unwrap_or_default(), None, 0)
        };
        if self.streamed && !exhausted && self.decimal && !self.strict {
            // The last item read, past what was consumed: while another source holds W, the
            // merge may have gone past items that stand after it in this source's order; and
            // every item of the source's order before it at or below W was consumed (or inserted
            // behind W), so a whole read that finds it again need not take the count's word.
            let read = self
                .last_raw
                .as_ref()
                .filter(|l| Some(*l) != self.watermark.as_ref())
                .map(key_hash);
            // A resumed position's anchor, not read again, stands for what was read before its
            // token's floor only while W has not moved past that floor: after, the merge may have
            // gone past it (and items before it) unread, and a resume that counted it as read
            // would drop them. The last item read since then holds the cut instead, when there
            // is one.
            let far = match self.pending_anchor {
                Some(h) if w <= self.token_floor.as_ref() => Some(h),
                pending => read.or(pending),
            };
            if let Some(h) = far {
                anchors = Cow::Owned(vec![h]);
            }
        }
        SourceRef {
            source: &self.spec.id,
            chunk_token,
            chunk_wire,
            offset,
            watermark: self.watermark.as_ref().and_then(|k| k.parts_ref(order)),
            resource_version: &self.resource_version,
            exhausted,
            inconsistent: self.inconsistent,
            behind: self.reach.behind && !exhausted,
            anchors,
            late_watermark,
        }
    }

    /// Whether an answer to a continuation (a request with a continue token or an offset past
    /// the start) restarted the list: its first item is at or before the first item the list gave
    /// from its start. Asked with the caller's `!progress` (nothing new in it), that is a proxy or
    /// plugin that drops `continue` or the offset and answers the first chunk again: following its
    /// token would read the same chunk forever (or end the list on an echoed token, losing the
    /// rest). A real continuation starts after the items before it, and an offset list that grew
    /// in front by a whole chunk still brings something new.
    ///
    /// - A Kubernetes list: the list's very first item (the same identity) again, alone, with
    ///   the next token `echoed` (which would end the list), is a restart however little of the
    ///   list was read (a chunk limit of 1). An inclusive cursor also starts a continuation with
    ///   the last item read (the first, when one was read), alone when a label selector drops
    ///   the rest of the chunk, but its next token moves on. A proxy that hands back a new token
    ///   each time (no echo) is caught by `maxChunksWithoutProgress` (`NO_PROGRESS`).
    /// - Offsets, and an item before the first: only once the list was read past its first name.
    ///   Inside a group of equal names, a tie-able source may give any of them first on every
    ///   answer, and an offset list that grew in front by one item answers an offset's item
    ///   again (a re-read, no restart).
    /// - A source read whole is in its own order, not the merge order: only its first item again
    ///   is a restart there.
    /// - A resumed Kubernetes list whose start was not read in this pager (its first item
    ///   unknown): an answer whose next token `echoed` the one sent would end the list there.
    ///   Its apiserver never echoes (its end is an empty continue), so that is a proxy answering
    ///   the first chunk again (which may hold items past W: the merge took only part of it
    ///   before the resume): a restart, even with `progress`.
    ///
    /// `progress`: the answer holds a key above both W and the largest key read.
    fn restarts_list(
        &self,
        items: &[(SortKey, bool, P)],
        flight: &InFlight,
        progress: bool,
        echoed: bool,
    ) -> bool {
        let continuation = !flight.token.is_empty() && parse_offset(&flight.token) != Some(0);
        let restart = matches!(flight.purpose, Purpose::Next { .. } | Purpose::WholePart);
        let Some((first, ..)) = items.first().filter(|_| continuation && restart) else {
            return false;
        };
        let Some(list_first) = &self.list_first else {
            return !self.decimal && echoed;
        };
        if progress {
            return false;
        }
        if !self.decimal && echoed && items.len() == 1 && first == list_first {
            return true;
        }
        self.list_last.as_ref().is_some_and(|last| {
            last.as_slice() > list_first.primary()
                && (first == list_first || (self.streamed && first < list_first))
        })
    }

    /// A resumed position's last item read is not read again yet, and this answer shows an item
    /// above the source's own watermark and at or below W (not W itself: another source's copy):
    /// consumed it was not, and whether the merge went past it (it stood after that item, the
    /// source being in another order than the merge's) or it was inserted behind W since, only
    /// where it stands against that item tells. The whole read's cut does.
    fn passed_unseen(&self, items: &[(SortKey, bool, P)], ctx: &Ctx<'_>) -> bool {
        let (Some(h), Some(w)) = (self.pending_anchor, ctx.watermark) else {
            return false;
        };
        if items.iter().any(|(k, ..)| key_hash(k) == h) {
            return false;
        }
        items
            .iter()
            .any(|(k, ..)| k < w && self.watermark.as_ref().map_or(true, |own| k > own))
    }

    /// Whether a resumed position's re-read (the first request since the resume, from the item
    /// before the position) shows items inserted before the position since the page token: its
    /// first item sorts below the source's watermark in the token, which comes later in the
    /// answer. In a source whose order is not known to be the merge's (offsets, not strict, e.g.
    /// a database's en_US collation) such an item may sort above W, and no later answer reads it
    /// (the anchor read again proves nothing about items before the position): the source is read
    /// whole, whose cut tells the consumed items from the new ones (shown, late once W is past).
    fn inserted_before_position(&self, items: &[(SortKey, bool, P)], flight: &InFlight) -> bool {
        let (
            Some(own),
            Some(_),
            Purpose::Next {
                overlap: Some(_), ..
            },
        ) = (&self.token_watermark, &self.resume, &flight.purpose)
        else {
            return false;
        };
        // The source's watermark found after the first item, alone of its name there with an
        // item after it: its group was read whole before the token (so the position was after
        // it, not at its group's start), and what stands before it now was inserted.
        let (Some((first, ..)), Some(at)) =
            (items.first(), items.iter().position(|(k, ..)| k == own))
        else {
            return false;
        };
        let name = own.primary();
        at > 0
            && first.primary() < name
            && items.len() > at + 1
            && items.iter().filter(|(k, ..)| k.primary() == name).count() == 1
    }

    /// Whether a streamed source's answer shows that its order is not the merge order: names
    /// decreasing inside the chunk (equal names in a strict source), or a continuation going back
    /// before the last item read. An inclusive cursor's repeat of that very item (the first item
    /// of a continuation) is no disorder: it is dropped by identity. A tie-able source's equal
    /// name past an opaque token (its group straddles two reads with no offset to re-read it
    /// from) cannot be streamed safely either.
    fn disordered(&self, items: &[(SortKey, bool, P)], token: &str, purpose: &Purpose) -> bool {
        // One `primary()` scan per item: the next key orders against the previous primary (a
        // whole one, terminator included) as its own primary does (see `Cursor::blocks`).
        let mut keys = items.iter().map(|(k, ..)| k);
        if let Some(first) = keys.next() {
            let mut previous = first.primary();
            for b in keys {
                let ord = if b.0.starts_with(previous) {
                    core::cmp::Ordering::Equal
                } else {
                    previous.cmp(b.0.as_slice())
                };
                if (self.strict && ord.is_ge()) || ord.is_gt() {
                    return true;
                }
                previous = b.primary();
            }
        }
        // From "" (a first chunk, a relist) nothing bounds a chunk; nor right after a resume.
        if token.is_empty() {
            return false;
        }
        let mut keys = items.iter().map(|(k, ..)| k);
        let first = match keys.next() {
            Some(k) if Some(k) == self.last_raw.as_ref() => keys.next(),
            f => f,
        };
        let (
            Some(first),
            Purpose::Next {
                overlap: None,
                straddle,
                ..
            },
        ) = (first, purpose)
        else {
            return false;
        };
        if self.strict {
            // Also after a 410: the inconsistent token goes on after that key.
            self.list_last
                .as_ref()
                .is_some_and(|b| first.primary() <= b.as_slice())
        } else {
            self.bound.as_ref().is_some_and(|b| {
                first.primary() < b.as_slice() || (!*straddle && first.primary() == b.as_slice())
            })
        }
    }

    /// A source whose order is learned (`kubeapps`) re-read from an earlier position (a tie
    /// group's re-read, an overlap, a probe, a resume) is taken at a start chosen by names, on the
    /// word of the merge order, which such a source need not keep (a collation): an item never
    /// read, moved there by deletions ahead, would be dropped as consumed. So the item read before
    /// the position, or one of its equal names (its tie group was read whole, in any order), must
    /// come again in a full answer (or the list's last). An answer entirely before it that goes on
    /// is asked again longer from the same position (`Widen`, within the cap); gone, or passed,
    /// the source is read whole (`Disorder`). `None`: the answer stands (docs/DESIGN.md "Drift").
    fn reread_check(
        &self,
        items: &[(SortKey, bool, P)],
        flight: &InFlight,
        goes_on: bool,
        ctx: &Ctx<'_>,
    ) -> Option<Verdict> {
        if !(self.streamed && self.decimal && !self.strict) {
            return None;
        }
        let (reference, pos) = match &flight.purpose {
            Purpose::Probe { pos } => (self.rescan.as_ref().map(|r| &r.reference), Some(*pos)),
            Purpose::Group { group, pos } => (Some(&group.reference), Some(*pos)),
            Purpose::Next {
                overlap: Some(r),
                pos,
                ..
            } => (Some(r), *pos),
            _ => return None,
        };
        // After a resume the overlap is the global W, maybe another source's item: this source's
        // own is its watermark.
        let own = reference.and_then(|r| {
            if self.last_raw.as_ref() == Some(r) {
                Some(r)
            } else {
                self.watermark.as_ref()
            }
        })?;
        // A short answer that goes on (a server that caps its answers) may stop before the
        // reference: no evidence either way, it is taken as before.
        if items.len() < flight.limit as usize && goes_on {
            return None;
        }
        if items.iter().any(|(k, ..)| k.primary() == own.primary()) {
            return None;
        }
        let before = items.iter().all(|(k, ..)| k.primary() < own.primary());
        let span = flight.limit.saturating_mul(2);
        match (before && goes_on && span <= ctx.max_source_items, pos) {
            (true, Some(pos)) => Some(Verdict::Widen {
                // A probe keeps its own reference (its start is checked against it).
                reference: match &flight.purpose {
                    Purpose::Probe { .. } => reference.unwrap_or(own).clone(),
                    _ => own.clone(),
                },
                pos,
                span,
            }),
            _ => Some(Verdict::Disorder),
        }
    }

    /// The re-read of a tie group known from `start` to `end` (exclusive): from
    /// the item before it, with a chunk of new items after it.
    /// `SOURCE_TOO_LARGE` when the group alone is over `maxSourceItems`.
    fn group(&self, start: u64, end: u64, reference: &SortKey, ctx: &Ctx<'_>) -> Result<Group> {
        let size = end.saturating_sub(start);
        if size > u64::from(ctx.max_source_items) {
            return Err(self.too_large(ctx));
        }
        let before = u32::from(start > 0);
        let limit = (size as u32)
            .saturating_add(before)
            .saturating_add(ctx.chunk_limit);
        Ok(Group {
            start,
            name: reference.primary().to_vec(),
            reference: reference.clone(),
            limit,
            before: None,
        })
    }

    /// The smallest buffered entry: the next to go.
    pub(crate) fn front(&self) -> Option<&Entry<P>> {
        self.buf.last()
    }

    fn is_buffered(&self, key: &SortKey, prefix: u64) -> bool {
        // Past the buffer's largest key (a streamed chunk's new items): not there, no search.
        // The buffer runs from the largest key down, hence the comparison the other way round.
        self.buf.first().is_some_and(|largest| {
            largest.prefix > prefix || (largest.prefix == prefix && largest.key >= *key)
        }) && self.buf.binary_search_by(|e| key.cmp(&e.key)).is_ok()
    }

    /// Adds entries sorted by key (smallest first) to the buffer (largest first).
    fn insert_sorted(&mut self, mut fresh: Vec<Entry<P>>) {
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

    fn prune_marks(&mut self) {
        // Only when the oldest is used up (the common case costs one check). Used-up marks
        // further on go too: no entry refers to them, and `state` reads only the first.
        if self.marks.first().is_some_and(|m| m.live == 0) {
            self.marks.retain(|m| m.live > 0);
        }
    }

    /// `remainingItemCount` of the last answer that gave one, less the items read since
    /// ([`SourceStats::remaining_items`](super::SourceStats::remaining_items)).
    pub(crate) fn remaining_estimate(&self) -> Option<u64> {
        self.promised.map(|(r, d)| r.saturating_sub(d))
    }

    fn track_remaining(&mut self, n: u64, goes_on: bool, remaining: Option<u64>) {
        if let Some((_, delivered)) = &mut self.promised {
            *delivered = delivered.saturating_add(n);
        }
        if goes_on {
            if let Some(r) = remaining {
                self.promised = Some((r, 0));
            }
            return;
        }
        let short = self.promised.is_some_and(|(r, d)| d < r) || remaining.is_some_and(|r| r > 0);
        if short {
            self.truncated = true;
        }
        self.promised = None;
    }

    /// The fields with an empty plugin, cluster or namespace taken from the source.
    fn with_defaults<'a>(&'a self, mut f: FieldsRef<'a>) -> FieldsRef<'a> {
        let id = &self.spec.id;
        for (field, default) in [
            (&mut f.plugin, &id.plugin),
            (&mut f.cluster, &id.cluster),
            (&mut f.namespace, &id.namespace),
        ] {
            if field.is_empty() {
                *field = default;
            }
        }
        f
    }

    fn invalid(&self, message: impl Into<String>) -> PagerError {
        PagerError::InvalidResponse {
            source_name: self.spec.id.label(),
            message: message.into(),
        }
    }

    fn no_progress(&self, message: impl Into<String>) -> PagerError {
        PagerError::NoProgress {
            source_name: self.spec.id.label(),
            message: message.into(),
        }
    }

    fn too_large(&self, ctx: &Ctx<'_>) -> PagerError {
        PagerError::SourceTooLarge {
            source_name: self.spec.id.label(),
            cap: ctx.max_source_items,
        }
    }
}

/// The chunk token a page token holds for a switched source whose late items are pending (or
/// whose whole read is): [`SWITCH_MARK`] and the count of its items read before, or the mark
/// alone for all of them (`None` or `u64::MAX`).
fn late_mark(read: Option<u64>) -> String {
    match read {
        Some(c) if c != u64::MAX => format!("{SWITCH_MARK}{c}"),
        _ => String::from(SWITCH_MARK),
    }
}

/// A resumed switch's cut (or the end of a resumed anchor's run) in its whole read `all` (the
/// source's own order): after the last item whose identity hash is one of `anchors` (or whose key
/// is `also`), with its equal names (any order among them). `None`: none of them is left.
fn anchored_cut<P>(all: &[Entry<P>], anchors: &[u64], also: Option<&SortKey>) -> Option<u64> {
    let j = all
        .iter()
        .rposition(|e| anchors.contains(&key_hash(&e.key)) || also == Some(&e.key))?;
    let name = all.get(j).map(|e| e.key.primary());
    let mut end = j + 1;
    while all.get(end).is_some_and(|e| Some(e.key.primary()) == name) {
        end += 1;
    }
    Some(end as u64)
}

/// Sorts entries by key and drops all but the first of equal keys; returns how many it dropped.
/// (One function for both uses: each sort and dedup call site is code of its own.)
fn sort_unique<P>(entries: &mut Vec<Entry<P>>) -> u64 {
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
fn reverse<P>(entries: &mut [Entry<P>]) {
    let mut ends = entries.iter_mut();
    while let (Some(a), Some(b)) = (ends.next(), ends.next_back()) {
        core::mem::swap(a, b);
    }
}

/// Whether an item read at a position shows that nothing was skipped before
/// it: it is the reference itself, or its name sorts before the reference's.
/// An equal name with another key is not enough: a tie-able source orders
/// equal names any way it likes, so that item may come from after the gap.
fn not_after(first: &SortKey, reference: &SortKey) -> bool {
    first == reference || first.primary() < reference.primary()
}

/// Why a resumed chunk token and offset are no position a plugin could have given: a negative
/// or signed offset, or one (with the offset into its chunk) past what a plugin's signed 64-bit
/// integer holds. Such a token was not written by this pager: forwarding it would hand the plugin
/// a position it never gave. Other text is a continue token or an opaque one.
pub(crate) fn bad_offset(token: &str, offset: u32) -> Option<&'static str> {
    let bytes = token.as_bytes();
    let digits = match bytes.first() {
        Some(b'-' | b'+') => bytes.get(1..).unwrap_or_default(),
        _ => bytes,
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    if digits.len() != bytes.len() {
        return Some("signed offset");
    }
    // The same canonical reading as every decimal offset (a leading zero is opaque: None).
    let fits = canonical_decimal(token)
        .and_then(|p| p.checked_add(u64::from(offset)))
        .map_or(digits.first() == Some(&b'0'), |p| p <= i64::MAX as u64);
    (!fits).then_some("offset over 2^63 - 1")
}

/// Whether a failed request says its position is invalid: HTTP 400 (gRPC/Connect
/// `InvalidArgument` maps to it), or a reason naming that code, whatever the status.
fn refuses_position(failure: &Failure) -> bool {
    failure.status == 400
        || matches!(
            failure.reason.as_deref(),
            Some("InvalidArgument" | "invalid_argument")
        )
}

/// A plugin's decimal item offset: ASCII digits, no sign, no leading zero,
/// fits in u64; `""` is the list's start (0). Anything else is opaque.
/// (Private and small so that the codec's `token::PluginOffset` can replace it.)
fn parse_offset(token: &str) -> Option<u64> {
    if token.is_empty() {
        return Some(0);
    }
    canonical_decimal(token)
}

/// The token for an item offset; the start is `""`, as a first request sends.
fn format_offset(pos: u64) -> String {
    if pos == 0 {
        String::new()
    } else {
        format!("{pos}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::item::ItemFields;

    #[test]
    fn decimal_offsets_parse_strictly() {
        let table: &[(&str, Option<u64>)] = &[
            ("", Some(0)),
            ("0", Some(0)),
            ("7", Some(7)),
            ("18446744073709551615", Some(u64::MAX)),
            ("18446744073709551616", None),
            ("007", None),
            ("-1", None),
            ("+1", None),
            (" 1", None),
            ("1e3", None),
            ("abc", None),
            ("١", None),
        ];
        for (t, want) in table {
            assert_eq!(parse_offset(t), *want, "{t:?}");
        }
        assert_eq!(format_offset(0), "");
        assert_eq!(format_offset(42), "42");
    }

    #[test]
    fn token_ring_remembers_the_last_sixteen() {
        let mut r = TokenRing::default();
        for i in 0..20 {
            r.push(&format!("t{i}"));
        }
        assert!(!r.contains("t3"), "pushed out");
        assert!(r.contains("t4") && r.contains("t19"));
        r.clear();
        assert!(!r.contains("t19"));
    }

    #[test]
    fn drift_reference_rule() {
        let k = |name: &str, id: &str| {
            SortOrder::Name.key(&ItemFields {
                name: name.into(),
                identifier: id.into(),
                ..Default::default()
            })
        };
        let r = k("pkg-c", "a/pkg-c");
        assert!(not_after(&r, &r), "the reference itself");
        assert!(not_after(&k("pkg-b", "z"), &r), "an earlier name");
        assert!(!not_after(&k("pkg-d", "a"), &r), "a later name");
        assert!(
            !not_after(&k("pkg-c", "0"), &r),
            "an equal name, another item: ambiguous"
        );
    }
}

/// Whether an item lies before a Kubernetes continue token's resume key `start` (the last key
/// given, relative to the list's prefix: `namespace/name` over all namespaces, `name` in one,
/// then NUL; k8s.io/apiserver/pkg/storage/continue.go), so an exclusive or inclusive
/// continuation cannot start with it: the list was answered from its start (a proxy that drops
/// `continue`). Byte order of the keys, as etcd's; `false` when `start` is no such key.
fn starts_before(f: &crate::item::FieldsRef<'_>, start: &str) -> bool {
    let last = start.strip_suffix('\0').unwrap_or(start);
    if last.is_empty() || f.name.is_empty() {
        return false;
    }
    match last.split_once('/') {
        Some((ns, name)) => {
            (f.namespace.as_bytes(), f.name.as_bytes()) < (ns.as_bytes(), name.as_bytes())
        }
        None => f.name.as_bytes() < last.as_bytes(),
    }
}
