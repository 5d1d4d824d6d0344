//! Applying a checked answer: `commit` cannot fail.
//!
//! Contract: `commit` applies the `Verdict` of `prepare`: it buffers the new items (dropping those
//! at or below W and those already buffered), moves the position, learns what the tokens are
//! (offsets or not), and returns the counters it adds. A whole read is staged until its end.

use super::*;

impl<P> Cursor<P> {
    /// Applies a prepared answer. Returns the counters it adds.
    pub(crate) fn commit(&mut self, p: Prepared<P>, ctx: &Ctx<'_>) -> SourceStats {
        let mut delta = SourceStats {
            requests: 1,
            items_scanned: p.items.len() as u64,
            ..Default::default()
        };
        let Some(flight) = self.in_flight.take() else {
            return delta;
        };
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
            Verdict::Disorder => {
                delta.whole_read_switches += 1;
                self.switch_to_whole(ctx.watermark);
                return delta;
            }
            Verdict::Restarted => {
                // Not used; the same request is asked again, and the source set aside at the
                // MAX_RESTARTS_IN_A_ROW-th restart in a row (`Pager::feed` reads `restarts`).
                self.restarts = self.restarts.saturating_add(1);
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
        self.restarts = 0;
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
            Purpose::Whole => {
                reverse(&mut fresh);
                self.buf = fresh;
            }
            Purpose::WholePart => {
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
}
