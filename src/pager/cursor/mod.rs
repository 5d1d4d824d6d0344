//! One source's cursor: its phase, its buffer, where its list goes on, and how each answer and
//! failure moves it.
//!
//! A [`Cursor`] holds what the pager knows of one source: the items read and not yet consumed
//! (sorted by key, `buffer`), which chunk each came from (for the page token, `position`), where
//! the list goes on and the request in flight (`requests`), and how it reads: streamed in the
//! merge order with drift and tie checks (`streaming`, `ties`), or whole after a switch
//! (`whole`), resumed from a page token with its late items (`late`).
//!
//! Its phases are enums whose variants hold their data, so that a combination that cannot happen
//! cannot be written (docs/DESIGN.md "A source's phases"): how it reads (`Reading`: streamed,
//! whole, switching, late, switched), what a streamed source re-reads before it goes on
//! (`Realign`: aligned, verified, a tie group, a rescan), what its tokens are (`Paging`:
//! continue tokens, offsets, opaque) and what its ring of items read covers (`Coverage`).
//!
//! Contract: an answer is handled in two steps. [`Cursor::prepare`] (`answer`) reads and checks
//! a chunk without touching the cursor (every error comes from there), then [`Cursor::commit`]
//! (`commit`) applies it and cannot fail. So an error leaves the pager exactly as it was. A
//! failure is checked and applied the same way (`failure`).
//!
//! The named steps a long function is made of (`prepare`'s, `commit`'s, `plan`'s,
//! `settle_switch`'s) are `#[inline(always)]`: each is called once, and as one function the
//! wasm is smaller (about 440 B gzip for the pager entry).

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

mod answer;
mod buffer;
mod commit;
mod failure;
mod late;
mod position;
mod requests;
mod streaming;
mod ties;
mod whole;

use answer::*;
pub(crate) use buffer::Entry;
use buffer::*;
use late::*;
pub(crate) use requests::bad_offset;
use requests::*;
use streaming::*;
use ties::*;
use whole::*;

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

/// How a source is read: its phase (docs/DESIGN.md "A source's phases"). Only forward:
/// `Streamed` → `Switching` → `Late` → `Switched` (or straight to `Switched` with nothing late);
/// `Whole` stays.
enum Reading {
    /// Streamed chunk by chunk in the merge order, every answer checked (with the re-reads of
    /// `Realign`).
    Streamed,
    /// Read whole from the start (another order than the merge's) and sorted in memory.
    Whole,
    /// Found out of the merge order (or its streaming cannot go on safely): its whole read is on
    /// its way, with what its cut needs.
    Switching(Switch),
    /// The switch's whole read is in and some of its late items (never read before, at or below
    /// W) are still buffered.
    Late(Late),
    /// Read whole for good: every late item consumed, or none.
    Switched,
}

/// One source's state.
pub(crate) struct Cursor<P> {
    pub(crate) spec: SourceSpec,
    /// How the source is read: its phase (streamed, whole, switching, late, switched).
    reading: Reading,
    /// What the source's tokens are: continue tokens (names unique: the next chunk's names are
    /// all larger), decimal item offsets (kubeapps, unordered), or opaque.
    paging: Paging,
    /// Streamed under a `displayName` sort in its own name order (`SourceSpec::displays_its_names`):
    /// its ties are equal names, which must have one display name to agree with the merge order
    /// (else their order changes from one answer to the next across display names). Sticky
    /// after a switch, for the whole read's cut (`settle_switch`).
    by_name: bool,
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
    /// A re-read the position needs before the list goes on from it (none, a tie group's, or a
    /// rescan's probes).
    realign: Realign,
    /// Name of the item read right before the tie group of the last item read, when known.
    before_group: Option<Vec<u8>>,
    /// Largest key read in this source's life in this pager (for `NO_PROGRESS`).
    max_read: Option<SortKey>,
    /// Items of a source read whole by continue tokens, until its end.
    staging: Vec<Entry<P>>,
    in_flight: Option<InFlight>,
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
    /// A tie group (its start and name) whose re-read came back short and was taken as whole: if
    /// the group then turns out to go on, the server answers in pieces (a cap below the group's
    /// size) and the group can never be read in one answer: `INVALID_RESPONSE`, not a loop.
    short_group: Option<(u64, Vec<u8>)>,
    /// Whether it is set aside (unreachable) or behind the merge: see `reach.rs`.
    pub(crate) reach: Reach,
    /// Items of the source's own order read in the current list (the position after the last
    /// item read), when known: the whole read's fallback for `Switch::last_read`.
    read_pos: Option<u64>,
    /// A hash (xxh64) of the key of each of the last [`READ_IDS`] items this pager read from the
    /// source while it streamed (a ring; `read_next` is where the next goes). A switch's whole read
    /// finds with it, by identity, where the items read before end, whatever was inserted or
    /// deleted ahead since (see `consumed_prefix`). Bounded: memory does not grow with the list.
    read_ids: Vec<u64>,
    read_next: usize,
    /// What `read_ids` covers of the items consumed from the source.
    read_coverage: Coverage,
    /// A resumed position's anchor (its page token's `anchors`): the identity hash of the last item
    /// the source had read, not read again since. Until an answer holds it, an item above the
    /// source's own watermark and at or below W cannot be told from one the merge went past (it
    /// stood after that item in the source's order, in another order than the merge's): the source
    /// is read whole, whose cut tells them apart (docs/DESIGN.md "Order is learned").
    pending_anchor: Option<u64>,
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

impl<P> Cursor<P> {
    /// A cursor at the start of the source.
    pub(crate) fn new(spec: SourceSpec, sort: SortOrder) -> Self {
        Cursor {
            by_name: spec.streams_under(sort)
                && sort.field() == crate::order::SortField::DisplayName,
            reading: if spec.streams_under(sort) {
                Reading::Streamed
            } else {
                Reading::Whole
            },
            paging: if spec.kind.strict() {
                Paging::Continue
            } else {
                Paging::Offsets
            },
            spec,
            buf: Vec::new(),
            marks: Vec::new(),
            next: Some(String::new()),
            resume: None,
            bound: None,
            last_raw: None,
            list_last: None,
            group_start: None,
            realign: Realign::Aligned,
            before_group: None,
            max_read: None,
            staging: Vec::new(),
            in_flight: None,
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
            short_group: None,
            reach: Reach::default(),
            read_pos: Some(0),
            read_ids: Vec::new(),
            read_next: 0,
            read_coverage: Coverage::Complete,
            pending_anchor: None,
            token_floor: None,
            token_watermark: None,
            chunks_taken: 0,
        }
    }

    /// The source's tokens are decimal item offsets although it was declared `kubernetes`: it is
    /// a Kubeapps plugin's list (names need not be unique, nothing is a snapshot), paged as one.
    fn learn_offsets(&mut self) {
        self.paging = Paging::Offsets;
    }

    /// Streamed in merge order (else read whole and sorted in memory).
    pub(crate) fn streamed(&self) -> bool {
        matches!(self.reading, Reading::Streamed)
    }

    /// Found out of the merge order (or its streaming could not go on safely) and read whole
    /// from then on: sticky, and written in the page token ([`SWITCH_MARK`]).
    pub(crate) fn switched(&self) -> bool {
        matches!(
            self.reading,
            Reading::Switching(_) | Reading::Late(_) | Reading::Switched
        )
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
            (Some(bound), Some(k)) if self.streamed() => {
                debug_assert_eq!(
                    SortKey(k.to_vec()).primary().cmp(bound),
                    if k.starts_with(bound) {
                        core::cmp::Ordering::Equal
                    } else {
                        k.cmp(bound)
                    }
                );
                if k.starts_with(bound) {
                    !self.paging.strict()
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
            Some(bound) if self.streamed() => Some(Some((bound.as_slice(), self.paging.strict()))),
            _ => Some(None),
        }
    }

    /// Set aside (unreachable) while a tie group is open at its bound: its buffered members of
    /// that group wait, not consumed. Consuming some would put its watermark inside the group,
    /// and the members read once it is back but sorting before it would be dropped (the tie
    /// rule that the frontier keeps while the source bounds the merge, see `reach.rs`).
    pub(crate) fn holds_front(&self) -> bool {
        self.reach.is_unreachable()
            && self.streamed()
            && !self.paging.strict()
            && self.goes_on()
            && matches!((self.front(), &self.bound), (Some(e), Some(b)) if e.key.0.starts_with(b))
    }

    pub(crate) fn in_flight_id(&self) -> Option<u64> {
        self.in_flight.as_ref().map(|f| f.id)
    }

    /// The smallest buffered entry: the next to go.
    pub(crate) fn front(&self) -> Option<&Entry<P>> {
        self.buf.last()
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
