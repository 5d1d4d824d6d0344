//! Whole reads and the switch to one.
//!
//! Contract: a source found out of the merge order is read whole from then on (sticky). The items
//! it gave before the switch are a prefix of its own order; its whole read is cut there
//! (`consumed_prefix`, `anchored_cut`): items at or below W before the cut were consumed and are
//! dropped, those after it were never read and are shown late (docs/DESIGN.md "Order is
//! learned"). Where nothing tells, an item is shown and counted as a possible repeat: never lost.
//! A whole read by offsets is asked for in one request (`maxSourceItems + 1`); a server that caps
//! its answers is followed by its next tokens, the pieces staged; a piece that repeats an item
//! (the list changed between requests) or is refused starts the whole read over from `""`.

use super::*;

/// How many identity hashes of the items read a streamed cursor keeps (8 bytes each): the last
/// ones read are the ones a whole read's cut needs (`Cursor::consumed_prefix`).
pub(super) const READ_IDS: usize = 4096;

/// The identity hash a cursor keeps of each item it read (`Cursor::read_ids`).
pub(super) fn key_hash(k: &SortKey) -> u64 {
    xxh64(&k.0, 0)
}

/// A source found out of the merge order, whose whole read is on its way.
#[derive(Debug, Clone)]
pub(super) struct Switch {
    /// The last item read before the switch (the end of the prefix of the source's own order
    /// read), when no item was consumed from the source: the anchor then (see `settle_switch`).
    pub(super) last_read: Option<SortKey>,
    /// A resumed switch's count from its page token: how many items of the source's order were
    /// read (`u64::MAX` = all of them; `None` = unknown: 0). A live switch cuts by identity
    /// instead (`Cursor::consumed_prefix`).
    pub(super) read_count: Option<u64>,
    /// Late items already shown (a resumed late phase): skipped, in key order.
    pub(super) skip: u32,
    /// Found out of order in this pager (else resumed as switched: its page token's anchors
    /// decide, or in a token without them its count, as the source's watermark has moved on in
    /// key order since).
    pub(super) live: bool,
    /// The anchors a page token holds while the whole read is on its way (live: the last item
    /// read; resumed: its token's, `SourceState::anchors`): the cut is after the last of them
    /// still in the whole read.
    pub(super) anchors: Vec<u64>,
    /// A resumed late phase: the last late item its page token says was consumed (`None`: none,
    /// or a token without it: `skip` counts them).
    pub(super) late_upto: Option<SortKey>,
    /// A live switch of a resumed source: its page token's last item read, not read again, while W
    /// has not moved since (see `switch_to_whole`): one more item known read.
    pub(super) pending: Option<u64>,
    /// That anchor once W has moved past the token's floor, with the source's watermark as the
    /// token gave it: the items before it (and its equal names) at or below that watermark were
    /// consumed then, whatever was inserted ahead of them since (see `settle_switch`).
    pub(super) consumed_before: Option<(u64, Option<SortKey>)>,
    /// The mark a page token writes for the source's chunk token meanwhile (`late_mark`).
    pub(super) mark: String,
}

/// What the ring of the items read (`Cursor::read_ids`) covers of the items consumed from a
/// streamed source.
pub(super) enum Coverage {
    /// All of them: read in this pager since the list's start (or nothing consumed before a
    /// resume), and the ring never wrapped.
    Complete,
    /// Those consumed since a resume whose page token gave the source this watermark: an item
    /// above it that was not read since was never consumed (see `consumed_prefix`).
    SinceResume(SortKey),
    /// The last [`READ_IDS`] read only: the ring wrapped.
    Partial,
}

/// How much of the start of a switched source's whole read (its own order) was consumed.
#[derive(Debug, Clone, Copy)]
pub(super) enum Prefix {
    /// That many items, told by identity (an item read, or the watermark, still there).
    Known(u64),
    /// No identity tells: at most that many (up to the first item above the source's watermark).
    Unknown(u64),
}

impl<P> Cursor<P> {
    /// Adds an identity hash to the ring of the items read (`read_ids`).
    pub(super) fn remember_read(&mut self, h: u64) {
        match self.read_ids.get_mut(self.read_next) {
            Some(slot) => {
                *slot = h;
                self.read_coverage = Coverage::Partial;
            }
            None => self.read_ids.push(h),
        }
        self.read_next = (self.read_next + 1) % READ_IDS;
    }

    /// Whether an answer holds an item already staged by this whole read. Over decimal offsets,
    /// an item given twice means the list changed between requests (it grew in front, or its
    /// order changed and another item was skipped).
    pub(super) fn repeats(&self, items: &[(SortKey, bool, P)]) -> bool {
        if self.staging.is_empty() {
            return false;
        }
        let mut staged: Vec<u64> = self.staging.iter().map(|e| key_hash(&e.key)).collect();
        staged.sort_unstable();
        items
            .iter()
            .any(|(k, ..)| staged.binary_search(&key_hash(k)).is_ok())
    }

    /// Starts a whole read over from `""` (a piece refused, or one that repeats an item): what it
    /// staged is dropped; a switch's cut stands (it is made once the whole read is in).
    pub(super) fn restart_whole_read(&mut self) {
        self.next = Some(String::new());
        self.staging.clear();
        self.seen_tokens.clear();
    }

    /// Switches a streamed source to a whole read (docs/DESIGN.md "Order is learned"): the items
    /// read so far are a prefix of its own order, ending at the last item read; the whole read
    /// tells the consumed ones (in that prefix, at or below W) from the late ones (after it).
    pub(super) fn switch_to_whole(&mut self, w: Option<&SortKey>) {
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
        self.reading = Reading::Switching(Switch {
            last_read: self.last_raw.clone(),
            read_count: self.read_pos,
            skip: 0,
            live: true,
            anchors: far.into_iter().chain(pending).collect(),
            late_upto: None,
            pending,
            consumed_before,
            mark: late_mark(Some(self.read_pos.unwrap_or(0))),
        });
        self.next = Some(String::new());
        self.marks.clear();
        self.resume = None;
        self.realign = Realign::Aligned;
        self.short_group = None;
        self.staging.clear();
        self.seen_tokens.clear();
        self.stalled = 0;
        self.promised = None;
    }

    /// Takes a switched source's whole read, `all` in the source's own order: the items up to the
    /// last one read before the switch were read then (the consumed ones among them are at or
    /// below W: dropped); the items after it were never read, and those at or below W are late:
    /// kept, shown although below W. The rest is buffered as any whole read.
    pub(super) fn settle_switch(
        &mut self,
        all: Vec<Entry<P>>,
        ctx: &Ctx<'_>,
        delta: &mut SourceStats,
    ) {
        let sw = match core::mem::replace(&mut self.reading, Reading::Switched) {
            Reading::Switching(sw) => sw,
            other => {
                self.reading = other;
                return;
            }
        };
        // The items read before the switch, by identity (sorted for a binary search); the ring
        // is emptied, as the source is read whole from now on.
        let mut read = core::mem::take(&mut self.read_ids);
        self.read_next = 0;
        read.sort_unstable();
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
        let was_read = |e: &Entry<P>| {
            let h = key_hash(&e.key);
            read.binary_search(&h).is_ok() || sw.pending == Some(h)
        };
        let prefix = self.switch_prefix(&all, &sw, ws_anchor, &was_read);
        // A source streamed in its name order under a `displayName` sort: its ties (equal names)
        // may have come back in another order than they were read in, so an item before the cut
        // need not be one read. Known never read (the ring holds every item read, or every item
        // read since a resume and it sorts above the watermark the token gave), it was never
        // consumed: late, not dropped.
        let never_read = |e: &Entry<P>| {
            self.by_name
                && sw.live
                && !was_read(e)
                && match &self.read_coverage {
                    Coverage::Complete => true,
                    Coverage::SinceResume(floor) => e.key > *floor,
                    Coverage::Partial => false,
                }
        };
        let cut = whole_read_cut(
            &all,
            prefix,
            self.spec.lists_in(ctx.order),
            consumed_before,
            never_read,
            ctx.watermark,
        );
        let cut_anchors = self.cut_anchors(&all, cut.token, &sw, ws_anchor);
        let (kept, possible_repeats) =
            self.mark_late(all, cut, consumed_before, never_read, &sw, ctx, delta);
        if possible_repeats > 0 {
            delta.possible_repeats += possible_repeats;
            self.inconsistent = true;
        }
        self.buffer_settled(kept, sw, cut.token, cut_anchors, ctx, delta);
    }

    /// How much of the start of the whole read `all` was consumed: by identity for a live switch
    /// (`consumed_prefix`), by its token's anchors, or its count, for a resumed one (the
    /// watermark has moved on in key order since). `was_read`: an item read before the switch.
    #[inline(always)]
    fn switch_prefix(
        &self,
        all: &[Entry<P>],
        sw: &Switch,
        ws_anchor: Option<&SortKey>,
        was_read: &dyn Fn(&Entry<P>) -> bool,
    ) -> Prefix {
        if sw.live {
            self.consumed_prefix(all, sw, was_read)
        } else if sw.anchors.is_empty() || sw.read_count == Some(u64::MAX) {
            // A token written before the anchors (or every item consumed): its count.
            Prefix::Known(sw.read_count.unwrap_or(0))
        } else {
            match anchored_cut(all, &sw.anchors, ws_anchor) {
                Some(cut) => Prefix::Known(cut),
                // Every anchor is gone (deleted since): the count, less the anchors gone (each
                // stood before the cut), is all that is left, and other items deleted before the
                // cut make it over-count.
                None => {
                    let gone = sw.anchors.len() + usize::from(ws_anchor.is_some());
                    Prefix::Unknown(sw.read_count.unwrap_or(0).saturating_sub(gone as u64))
                }
            }
        }
    }

    /// What a page token holds to cut again by identity after the switch's whole read: the last
    /// item before the cut and the last item consumed before the late ones.
    #[inline(always)]
    fn cut_anchors(
        &self,
        all: &[Entry<P>],
        cut: u64,
        sw: &Switch,
        ws_anchor: Option<&SortKey>,
    ) -> Vec<u64> {
        let pre = if sw.live {
            self.watermark.as_ref().map(key_hash)
        } else {
            ws_anchor.map(key_hash).or(sw.anchors.get(1).copied())
        };
        let mut anchors = Vec::new();
        if let Some(end) = cut
            .checked_sub(1)
            .and_then(|i| all.get(i as usize))
            .map(|e| key_hash(&e.key))
        {
            anchors.push(end);
            anchors.extend(pre.filter(|p| *p != end));
        }
        anchors
    }

    /// The whole read's items kept, in its own order: those at or below W before the cut (or a
    /// resumed anchor's run) dropped as consumed, the others at or below W marked late (and
    /// counted as possible repeats before `cut.unsure`: the source `inconsistent`).
    #[inline(always)]
    fn mark_late(
        &self,
        all: Vec<Entry<P>>,
        cut: Cut,
        consumed_before: Option<(u64, Option<&SortKey>)>,
        never_read: impl Fn(&Entry<P>) -> bool,
        sw: &Switch,
        ctx: &Ctx<'_>,
        delta: &mut SourceStats,
    ) -> (Vec<Entry<P>>, u64) {
        let Cut {
            known: cut,
            unsure,
            token,
        } = cut;
        let w = ctx.watermark;
        let below_w = |e: &Entry<P>| w.is_some_and(|w| e.key <= *w) && w != Some(&e.key);
        let mut kept = Vec::with_capacity(all.len());
        // The consumed items a resume from a token cut before the cut may show again.
        let mut possible_repeats = all
            .get(token as usize..cut as usize)
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
        (kept, possible_repeats)
    }

    /// Buffers the settled whole read, with the items buffered before the switch and gone since;
    /// a resumed late phase's late items already shown are skipped. The late phase lasts while
    /// late items are pending (`late_from`, `late_mark`).
    #[inline(always)]
    fn buffer_settled(
        &mut self,
        mut kept: Vec<Entry<P>>,
        sw: Switch,
        cut: u64,
        cut_anchors: Vec<u64>,
        ctx: &Ctx<'_>,
        delta: &mut SourceStats,
    ) {
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
        let mut pending = 0;
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
                pending += 1;
            }
            if e.payload.is_none() {
                delta.filtered_out += 1;
            }
            buf.push(e);
        }
        reverse(&mut buf);
        self.buf = buf;
        if pending > 0 {
            self.reading = Reading::Late(Late {
                pending,
                shown: sw.skip,
                last: sw.late_upto,
                mark: late_mark(Some(cut)),
                cut_anchors,
            });
        }
    }

    /// How many items at the start of a live switch's whole read `all` (the source's own order)
    /// come before the end of what was read: up to the last item read that is still there (by
    /// identity: items inserted or deleted ahead since do not move it), with its equal names
    /// (any order among them). None there: 0 when every item read since the list's start is
    /// known (none is left, so nothing at or below W was seen). Else (a resumed position, or more
    /// read than the ring holds) no identity tells: `Unknown`.
    pub(super) fn consumed_prefix(
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
            None if matches!(self.read_coverage, Coverage::Complete) => Prefix::Known(0),
            // A resumed position (or more read than the ring holds) whose items are gone: what
            // may have been consumed ends at the first item above the source's own watermark and
            // its equal names (in any order). What was consumed from the source is at or below it,
            // and came in the merge order up to there (else it was found out of order then); which
            // items before it were, nothing tells (the known limit). A page token's count
            // would be off by every item inserted or deleted ahead since. After a resume, while
            // the ring holds every item read since, the watermark its token gave: an item above
            // it was consumed after the resume only if read since, and none of those is left.
            None => {
                let floor = match &self.read_coverage {
                    Coverage::SinceResume(w) => Some(w),
                    _ => self.watermark.as_ref(),
                };
                let upto = all.iter().position(|e| {
                    floor.map_or(true, |ws| e.key > *ws && e.key.primary() != ws.primary())
                });
                Prefix::Unknown(upto.unwrap_or(all.len()) as u64)
            }
        }
    }
}

/// A resumed switch's cut (or the end of a resumed anchor's run) in its whole read `all` (the
/// source's own order): after the last item whose identity hash is one of `anchors` (or whose key
/// is `also`), with its equal names (any order among them). `None`: none of them is left.
pub(super) fn anchored_cut<P>(
    all: &[Entry<P>],
    anchors: &[u64],
    also: Option<&SortKey>,
) -> Option<u64> {
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

/// Where a switched source's whole read is cut: `known`, the end of what is known consumed;
/// `unsure`, the end of what a count (or the first item above the watermark) alone takes as
/// consumed. Items at or below W before `known` are dropped; those between `known` and `unsure`
/// are shown late and counted as possible repeats; after `unsure`, late.
///
/// `token`: where a page token cuts (at most `known`): before the first item below W known never
/// read (`never_read`: a `displayName` source's ties may come back in another order than they
/// were read in), so that a resume shows it; the consumed items after it may then come again,
/// counted as possible repeats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Cut {
    pub(super) known: u64,
    pub(super) unsure: u64,
    pub(super) token: u64,
}

/// The cut of a whole read `all` (the source's own order), a pure function of: how much of its
/// start was consumed (`prefix`), whether the source is known to list in the merge order
/// (`lists_in_order`), a resumed anchor's run (its end in `all`, and the source's watermark the
/// page token gave), which items are known never read (`never_read`) and W.
/// `cut`: the end of what is known consumed; `unsure`: the end of what a count (or the
/// first item above the watermark) alone takes as consumed. Between them nothing tells an
/// item consumed before from one never read that the source's order put there (two
/// histories, one token: docs/DESIGN.md "Order is learned", the limit; a whole read in the
/// merge order proves nothing, the item that showed the other order may be gone), so those
/// at or below W are taken as not consumed: shown late, counted as possible repeats.
#[inline(always)]
pub(super) fn whole_read_cut<P>(
    all: &[Entry<P>],
    prefix: Prefix,
    lists_in_order: bool,
    consumed_before: Option<(u64, Option<&SortKey>)>,
    never_read: impl Fn(&Entry<P>) -> bool,
    w: Option<&SortKey>,
) -> Cut {
    let (cut, unsure) = match prefix {
        Prefix::Known(cut) => (cut, cut),
        // A source known to list in the merge order: the count (or the first item above its
        // watermark) is exact, the items before it were consumed.
        Prefix::Unknown(upto) if lists_in_order => (upto, upto),
        Prefix::Unknown(upto) => (0, upto),
    };
    // When nothing between the cut and that anchor comes late (every item there at or below
    // W is dropped as consumed), the cut is after the anchor: a page token taken during the
    // late phase then cuts there again on resume, where a cut before those items would show
    // them again.
    let below_w = |e: &Entry<P>| w.is_some_and(|w| e.key <= *w) && w != Some(&e.key);
    let known = match consumed_before {
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
    let token = all
        .iter()
        .take(known as usize)
        .position(|e| below_w(e) && never_read(e))
        .map_or(known, |j| j as u64);
    Cut {
        known,
        unsure,
        token,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::item::ItemFields;

    fn key(name: &str) -> SortKey {
        SortOrder::Name.key(&ItemFields {
            name: name.into(),
            identifier: format!("repo/{name}"),
            ..Default::default()
        })
    }

    /// The cut of a whole read, case by case: the source's order is `a b c d e`, W is `c`
    /// unless the case says none.
    #[test]
    fn a_whole_read_is_cut_where_the_consumed_prefix_ends() {
        let all: Vec<Entry<()>> = ["a", "b", "c", "d", "e"]
            .iter()
            .map(|n| {
                let k = key(n);
                let prefix = key_prefix(&k.0);
                Entry::new(k, prefix, Some(()), 0, 0)
            })
            .collect();
        let (a, c) = (key("a"), key("c"));
        // The items known never read, by name.
        let (no, tie, above_w): (&[&str], &[&str], &[&str]) = (&[], &["b"], &["d"]);
        // (why, prefix, lists in the merge order, a resumed anchor's run, never read, W is c,
        // (known, unsure, token))
        type Case<'a> = (
            &'a str,
            Prefix,
            bool,
            Option<(u64, Option<&'a SortKey>)>,
            &'a [&'a str],
            bool,
            (u64, u64, u64),
        );
        #[rustfmt::skip]
        let table: &[Case<'_>] = &[
            ("known by identity", Prefix::Known(2), false, None, no, true, (2, 2, 2)),
            ("a count, source in the merge order: exact", Prefix::Unknown(3), true, None, no, true, (3, 3, 3)),
            ("a count, any order: nothing known, up to it unsure", Prefix::Unknown(3), false, None, no, true, (0, 3, 0)),
            ("a resumed anchor's run past the cut, its items at or below the token's watermark",
                Prefix::Known(1), false, Some((3, Some(&c))), no, true, (3, 1, 3)),
            ("the run holds an item below W above the token's watermark: it may come late",
                Prefix::Known(1), false, Some((3, Some(&a))), no, true, (1, 1, 1)),
            ("the run ends before the cut", Prefix::Known(3), false, Some((2, Some(&c))), no, true, (3, 3, 3)),
            ("a run below W with no watermark from the token", Prefix::Unknown(4), false, Some((2, None)), no, true, (0, 4, 0)),
            ("no W: nothing in the run is below it", Prefix::Known(0), false, Some((2, None)), no, false, (2, 0, 2)),
            ("a tie never read before the cut, below W: the token cuts before it", Prefix::Known(3), false, None, tie, true, (3, 3, 1)),
            ("never read but above W: the token cuts where the cut is", Prefix::Known(4), false, None, above_w, true, (4, 4, 4)),
        ];
        for (why, prefix, in_order, before, never_read, with_w, (known, unsure, token)) in table {
            let w = with_w.then_some(&c);
            let never = |e: &Entry<()>| never_read.iter().any(|n| e.key == key(n));
            let got = whole_read_cut(&all, *prefix, *in_order, *before, never, w);
            let want = Cut {
                known: *known,
                unsure: *unsure,
                token: *token,
            };
            assert_eq!(got, want, "{why}");
        }
    }
}
