//! Applying a checked answer: `commit` cannot fail.
//!
//! Contract: `commit` applies the `Verdict` of `prepare`. An answer not used (a re-read to ask, a
//! rescan, a switch, a restart) changes only what asks next. An answer used moves the position
//! (`next`, `read_pos`, the tie group that bounds the source), learns what the tokens are
//! (offsets or not), and buffers its new items, dropping those at or below W and those already
//! buffered; a whole read is staged until its end. Returns the counters it adds.

use super::*;

impl<P> Cursor<P> {
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
        // An answer from the list's start with no next token is the whole list (within the cap,
        // by offsets), whatever it was asked for (a first chunk, a drift probe, a tie group's
        // re-read): found out of order, it is the whole read the switch would ask for.
        let whole_list = self.paging.decimal()
            && flight.token.is_empty()
            && p.next.is_none()
            && p.items.len() <= ctx.max_source_items as usize
            && !matches!(flight.purpose, Purpose::Whole | Purpose::WholePart);
        let used = if whole_list && matches!(p.verdict, Verdict::Disorder) {
            delta.whole_read_switches += 1;
            self.switch_to_whole(ctx.watermark);
            flight.purpose = Purpose::Whole;
            Some((false, 0))
        } else {
            self.apply_verdict(&p.verdict, &flight, ctx, &mut delta)
        };
        let Some((overlap_first, quiet)) = used else {
            return delta;
        };
        self.note_answer(&p, &flight, &mut delta);
        let pos = self.note_offsets(&flight, p.items.len(), p.next.as_ref());
        // An answer asked from the position right after the last item read (no overlap).
        let from_position = matches!(flight.purpose, Purpose::Next { overlap: None, .. });
        let groups = tie_groups(&p.items);
        self.note_last_read(&p.items, &groups, pos, from_position);
        self.note_read(&p.items);
        let seq = self.seq;
        self.seq = self.seq.wrapping_add(1);
        if matches!(self.reading, Reading::Switching(_))
            && matches!(flight.purpose, Purpose::Whole | Purpose::WholePart)
        {
            self.stage_whole(p.items, p.next, seq, ctx, &mut delta);
            return delta;
        }
        let fresh =
            self.fresh_entries(p.items, overlap_first, quiet, &groups, seq, ctx, &mut delta);
        self.buffer_fresh(fresh, p.next, flight, seq, &mut delta);
        delta
    }

    /// Applies a verdict whose answer is not used (a re-read to ask, a rescan, a switch, a
    /// restart): `None`. For an answer to use: `(overlap_first, quiet)` (see `Verdict::Accept`).
    #[inline(always)]
    fn apply_verdict(
        &mut self,
        verdict: &Verdict,
        flight: &InFlight,
        ctx: &Ctx<'_>,
        delta: &mut SourceStats,
    ) -> Option<(bool, usize)> {
        match verdict {
            Verdict::Regroup(g) => {
                // The answer is not used: the group's re-read is an extra request.
                delta.rescans += 1;
                self.realign = Realign::Regroup(g.clone());
                return None;
            }
            Verdict::MovedBack { reference, base } => {
                self.short_group = None;
                self.start_rescan(Rescan {
                    reference: reference.clone(),
                    base: *base,
                    step: u64::from(ctx.chunk_limit),
                    span: ctx.chunk_limit.saturating_add(1),
                });
                return None;
            }
            Verdict::Widen {
                reference,
                pos,
                span,
            } => {
                delta.rescans += 1;
                self.start_rescan(Rescan {
                    reference: reference.clone(),
                    base: *pos,
                    step: 0,
                    span: *span,
                });
                return None;
            }
            Verdict::ProbeTooFar => {
                delta.rescans += 1;
                if let Realign::Rescan(r) = &mut self.realign {
                    // (A widened probe asks from its base itself: step 0.)
                    r.step = r.step.saturating_mul(2).max(u64::from(ctx.chunk_limit));
                }
                return None;
            }
            Verdict::Disorder => {
                delta.whole_read_switches += 1;
                self.switch_to_whole(ctx.watermark);
                return None;
            }
            Verdict::Restarted => {
                // Not used; the same request is asked again (a whole read by offsets: the whole
                // read from `""`), and the source set aside at the MAX_RESTARTS_IN_A_ROW-th restart
                // in a row (`Pager::feed` reads `restarts`).
                self.restarts = self.restarts.saturating_add(1);
                if self.paging.decimal() && matches!(flight.purpose, Purpose::WholePart) {
                    self.restart_whole_read();
                }
                return None;
            }
            Verdict::Verified => {
                // The position stands (`next` unchanged); read on from it. Should more of the
                // group come there, the server gives it in pieces (see `short_group`).
                self.realign = Realign::Verified;
                if let Purpose::Group { group, .. } = &flight.purpose {
                    self.short_group = Some((group.start, group.name.clone()));
                }
                return None;
            }
            Verdict::Accept {
                overlap_first,
                quiet,
            } => Some((*overlap_first, *quiet)),
        }
    }

    /// Notes what an answer to use tells of the list: a restart streak broken, the list's first
    /// item, a cycle (the list ends `truncated`), how the next request asks, a rescan or a group
    /// re-read done, the snapshot, progress, the tokens seen this pass, the items promised, and
    /// whether the tokens are decimal offsets.
    #[inline(always)]
    fn note_answer(&mut self, p: &Prepared<P>, flight: &InFlight, delta: &mut SourceStats) {
        // A whole read by offsets counts its restarts until it is all in (each restart reads its
        // start again).
        if !(self.paging.decimal() && matches!(flight.purpose, Purpose::Whole | Purpose::WholePart))
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
        // item before it would only see the group again, maybe in another order. (A probe's or a
        // group's re-read used ends it.)
        self.realign = if p.overlap_only || p.short_group {
            Realign::Verified
        } else {
            Realign::Aligned
        };
        if let (true, Purpose::Group { group, .. }) = (p.short_group, &flight.purpose) {
            self.short_group = Some((group.start, group.name.clone()));
        }
        if let Purpose::Probe { .. } = flight.purpose {
            delta.rescans += 1;
            self.seen_tokens.clear();
        }
        if let Purpose::Group { .. } = flight.purpose {
            self.seen_tokens.clear();
        }
        self.note_snapshot(p, flight);
        self.stalled = if p.progress {
            0
        } else {
            self.stalled.saturating_add(1)
        };
        if let Some(t) = &p.next {
            self.seen_tokens.push(t);
        }
        self.track_remaining(
            p.items.len() as u64,
            p.next.is_some(),
            p.remaining_item_count,
        );

        // A source declared `kubernetes` that answers with decimal offsets is paged as one.
        if !self.paging.decimal()
            && self.streamed()
            && p.next.as_deref().and_then(canonical_decimal).is_some()
        {
            self.learn_offsets();
        }
    }

    /// The snapshot's resourceVersion: the list's own, or, when the answer has none (a Kubeapps
    /// response over a Kubernetes list), the one its continue token carries: same snapshot.
    #[inline(always)]
    fn note_snapshot(&mut self, p: &Prepared<P>, flight: &InFlight) {
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
    }

    /// The offset the answer was asked from, when the tokens are offsets, and the position after
    /// it (`read_pos`); decimal offsets hold only while next = offset + items returned.
    #[inline(always)]
    fn note_offsets(&mut self, flight: &InFlight, n: usize, next: Option<&String>) -> Option<u64> {
        let pos = match flight.purpose {
            Purpose::Next { pos, .. } => pos
                .or_else(|| parse_offset(&flight.token).filter(|_| self.paging == Paging::Offsets)),
            Purpose::Probe { pos } | Purpose::Group { pos, .. } => Some(pos),
            _ => None,
        };
        self.read_pos = match pos {
            Some(pos) => pos.checked_add(n as u64),
            None if flight.token.is_empty() => Some(n as u64),
            None => self.read_pos.and_then(|r| r.checked_add(n as u64)),
        };
        if let (Some(pos), Some(t)) = (pos, next) {
            if self.paging.decimal() && parse_offset(t) != pos.checked_add(n as u64) {
                self.paging = Paging::Opaque;
            }
        }
        pos
    }

    /// The last item read bounds the source: the tie group it ends (`group_start`, the name
    /// before it), its name (`bound`, `list_last`) and key (`last_raw`, the next overlap).
    #[inline(always)]
    fn note_last_read(
        &mut self,
        items: &[(SortKey, bool, P)],
        groups: &[u32],
        pos: Option<u64>,
        from_position: bool,
    ) {
        if let Some((last, ..)) = items.last() {
            let j = groups.last().copied().unwrap_or(0);
            // The name before the last group: in this answer, or (the whole answer one name
            // that goes on from before) the one known.
            self.before_group = match j.checked_sub(1) {
                Some(b) => items.get(b as usize).map(|(k, ..)| k.primary().to_vec()),
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
            if self.streamed() {
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
    }

    /// The largest key read (for `NO_PROGRESS`), and, while streamed, each item read by identity
    /// (`read_ids`; a resumed position's anchor found again).
    #[inline(always)]
    fn note_read(&mut self, items: &[(SortKey, bool, P)]) {
        // The largest key read: a loop, not `Iterator::max` (size).
        // The 8-byte prefixes first (`key_prefix`).
        let mut max: Option<(u64, &SortKey)> = None;
        for (k, ..) in items {
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

        if self.streamed() {
            for (k, ..) in items {
                let h = key_hash(k);
                if self.pending_anchor == Some(h) {
                    // The resumed position's last item read is read again: from here on the
                    // answers are checked as for any position (`passed_unseen`).
                    self.pending_anchor = None;
                }
                self.remember_read(h);
            }
        }
    }

    /// The whole read after a switch: kept in the source's own order until it is all here, then
    /// told apart (consumed before, late, new: `settle_switch`).
    #[inline(always)]
    fn stage_whole(
        &mut self,
        items: Vec<(SortKey, bool, P)>,
        next: Option<String>,
        seq: u64,
        ctx: &Ctx<'_>,
        delta: &mut SourceStats,
    ) {
        for (key, pass, payload) in items {
            let prefix = key_prefix(&key.0);
            self.staging
                .push(Entry::new(key, prefix, pass.then_some(payload), seq, 0));
        }
        self.next = next;
        self.resume = None;
        if self.next.is_none() {
            let all = core::mem::take(&mut self.staging);
            self.settle_switch(all, ctx, delta);
        }
    }

    /// The answer's items not yet consumed nor buffered, in key order, each with its chunk and
    /// the start of its tie group; the planned overlap re-read skipped, and drops among the first
    /// `quiet` (a group's re-read) not counted as duplicates.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn fresh_entries(
        &self,
        items: Vec<(SortKey, bool, P)>,
        overlap_first: bool,
        quiet: usize,
        groups: &[u32],
        seq: u64,
        ctx: &Ctx<'_>,
        delta: &mut SourceStats,
    ) -> Vec<Entry<P>> {
        let mut fresh = Vec::with_capacity(items.len());
        for (i, (key, pass, payload)) in items.into_iter().enumerate() {
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
        fresh
    }

    /// Buffers the new entries: a whole read at once (by continue tokens: at its end), a streamed
    /// chunk under its mark; the position moves to `next`.
    #[inline(always)]
    fn buffer_fresh(
        &mut self,
        mut fresh: Vec<Entry<P>>,
        next: Option<String>,
        flight: InFlight,
        seq: u64,
        delta: &mut SourceStats,
    ) {
        self.next = next;
        self.resume = None;
        match flight.purpose {
            // A first answer with a next token (a server that caps its answers) is staged too.
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
    }
}

/// Where each item's tie group starts in an answer (the index of the first item with its name).
#[inline(always)]
fn tie_groups<P>(items: &[(SortKey, bool, P)]) -> Vec<u32> {
    let mut groups = Vec::with_capacity(items.len());
    let mut start = 0u32;
    // The group's primary, terminator included: a key starts with it exactly when its
    // primary is the same (one `primary()` scan per group).
    let mut group_primary: &[u8] = &[];
    for (i, (k, ..)) in items.iter().enumerate() {
        let i = i as u32;
        if i == 0 || !k.0.starts_with(group_primary) {
            start = i;
            group_primary = k.primary();
        }
        debug_assert_eq!(group_primary, k.primary());
        groups.push(start);
    }
    groups
}
