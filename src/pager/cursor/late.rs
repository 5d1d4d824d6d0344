//! Resuming from a page token: the cursor a source's `SourceState` describes, its anchors, and
//! the late phase's mark.
//!
//! Contract: a resumed cursor asks what the token's position needs (the chunk token and the raw
//! offset consumed in it) and takes none of the items the token's pager consumed: W and the
//! source's watermark bound them, the anchors (identity hashes) tell a whole read's cut where
//! the items read before end. A switched source's token holds `SWITCH_MARK`.

use super::*;

/// The prefix of a page token's chunk token that marks a source found out of the merge order
/// and read whole (no real token starts with U+0001). Alone: every item of it at or below W was
/// consumed. Followed by a decimal count `c` (the page token's offset then counting the late
/// items already shown): only the items among the first `c` of the source's order were; those
/// after them and at or below W are late, and the first `offset` of them (in key order) shown.
pub(crate) const SWITCH_MARK: &str = "\u{1}";

impl<P> Cursor<P> {
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
            c.reading = Reading::Switched;
            if !st.exhausted {
                let read_count = if count.is_empty() {
                    Some(u64::MAX)
                } else {
                    canonical_decimal(count)
                };
                c.reading = Reading::Switching(Switch {
                    last_read: None,
                    read_count,
                    skip: st.offset,
                    live: false,
                    anchors: st.anchors.clone(),
                    late_upto: late,
                    pending: None,
                    consumed_before: None,
                    mark: late_mark(read_count),
                });
            }
        }
        if st.exhausted {
            c.next = None;
        } else if c.streamed() {
            // (A source read whole is read again from `""`; the watermark does the work.)
            // A source declared `kubernetes` whose tokens are decimal offsets pages by offsets
            // (a continue token is base64 of JSON: never digits alone).
            if c.spec.kind == SourceKind::Kubernetes && canonical_decimal(&st.chunk_token).is_some()
            {
                c.learn_offsets();
            }
            let mut position = (st.chunk_token.as_str(), st.offset);
            let start = parse_offset(position.0)
                .filter(|_| c.paging.decimal())
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
            c.read_coverage = match &c.watermark {
                None => Coverage::Complete,
                Some(w) => Coverage::SinceResume(w.clone()),
            };
            c.read_pos = parse_offset(position.0)
                .filter(|_| c.paging.decimal())
                .and_then(|p| p.checked_add(u64::from(position.1)));
            if c.paging.decimal() && !c.paging.strict() {
                // The last item read before the token, awaited (see `passed_unseen`). Not one of
                // the items read (`read_ids`): those are buffered until consumed, and it is not
                // any more, so the merge may go past it before it comes again.
                c.pending_anchor = st.anchors.first().copied();
                c.token_watermark = c.watermark.clone();
            }
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
}

/// A switched source's late phase: the whole read is in, and late items are still buffered.
pub(super) struct Late {
    /// Late items still buffered (more than 0).
    pub(super) pending: usize,
    /// Late items consumed (shown or filtered out) so far.
    pub(super) shown: u32,
    /// The last late item consumed: late items go in key order, so a resume skips those at or
    /// below it.
    pub(super) last: Option<SortKey>,
    /// The mark written for this source's chunk token (`late_mark` of the cut).
    pub(super) mark: String,
    /// What a page token holds to cut by identity on resume: the hash of the last item before
    /// the cut, and of the last item consumed before the late ones (when known).
    pub(super) cut_anchors: Vec<u64>,
}

/// The chunk token a page token holds for a switched source whose late items are pending (or
/// whose whole read is): [`SWITCH_MARK`] and the count of its items read before, or the mark
/// alone for all of them (`None` or `u64::MAX`).
pub(super) fn late_mark(read: Option<u64>) -> String {
    match read {
        Some(c) if c != u64::MAX => format!("{SWITCH_MARK}{c}"),
        _ => String::from(SWITCH_MARK),
    }
}
