//! Streaming checks: drift (the overlap re-read, rescans by probes), disorder, and a resumed
//! position's unseen items.
//!
//! Contract: a streamed source over decimal offsets is taken at a start only when the item read
//! before it (or an earlier name) comes again (docs/DESIGN.md "Drift"); else the position moved
//! back (`Rescan`, probing further back) or the source is not in the merge order and is read
//! whole from then on (`Disorder`, "Order is learned").

use super::*;

/// What a streamed source re-reads before it goes on from its position: a phase of its own
/// within streaming, one at a time.
pub(super) enum Realign {
    /// Nothing: the position stands; the next chunk re-reads the item before it (the overlap).
    Aligned,
    /// The last answer proved the position: an overlap re-read that held the overlap item alone
    /// (a server that caps its answers at one item, or ends a list only with an empty answer), or
    /// a tie group's re-read taken as whole though short. The next request asks from the
    /// position itself, as asking from `N - 1` again would get the same answer.
    Verified,
    /// A tie group that straddled two reads, re-read whole in one answer before going on
    /// (`ties.rs`).
    Regroup(Group),
    /// Offset drift was seen (items before the position deleted, or the position refused):
    /// probing back for a start at or before the reference.
    Rescan(Rescan),
}

/// Offset drift was seen: items before the position were deleted.
pub(super) struct Rescan {
    /// The last key known read at the old position.
    pub(super) reference: SortKey,
    /// The offset asked for when the drift was seen.
    pub(super) base: u64,
    /// The probe's limit: `chunkLimit + 1`, doubled while an answer ends before the reference.
    pub(super) span: u32,
    /// How far back the next probe goes (doubles each time).
    pub(super) step: u64,
}

impl<P> Cursor<P> {
    /// The rescan under way, if one is.
    pub(super) fn rescan(&self) -> Option<&Rescan> {
        match &self.realign {
            Realign::Rescan(r) => Some(r),
            _ => None,
        }
    }

    /// Starts a rescan (whatever re-read was due: this one supersedes it).
    pub(super) fn start_rescan(&mut self, rescan: Rescan) {
        self.realign = Realign::Rescan(rescan);
    }

    /// A resumed position's last item read is not read again yet, and this answer shows an item
    /// above the source's own watermark and at or below W (not W itself: another source's copy):
    /// consumed it was not, and whether the merge went past it (it stood after that item, the
    /// source being in another order than the merge's) or it was inserted behind W since, only
    /// where it stands against that item tells. The whole read's cut does.
    pub(super) fn passed_unseen(&self, items: &[(SortKey, bool, P)], ctx: &Ctx<'_>) -> bool {
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
    #[inline(always)]
    pub(super) fn inserted_before_position(
        &self,
        items: &[(SortKey, bool, P)],
        flight: &InFlight,
    ) -> bool {
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
    pub(super) fn disordered(
        &self,
        items: &[(SortKey, bool, P)],
        token: &str,
        purpose: &Purpose,
    ) -> bool {
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
                if (self.paging.strict() && ord.is_ge()) || ord.is_gt() {
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
        if self.paging.strict() {
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
    pub(super) fn reread_check(
        &self,
        items: &[(SortKey, bool, P)],
        flight: &InFlight,
        goes_on: bool,
        ctx: &Ctx<'_>,
    ) -> Option<Verdict> {
        if !(self.streamed() && self.paging.decimal() && !self.paging.strict()) {
            return None;
        }
        let (reference, pos) = match &flight.purpose {
            Purpose::Probe { pos } => (self.rescan().map(|r| &r.reference), Some(*pos)),
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

    /// The verdict on an answer to an overlap re-read (from the item before the position, the
    /// `reference` read there before): used when its first item shows nothing was skipped; a
    /// tie group that straddles this read and the one before is re-read whole (`Regroup`); else
    /// the position moved back (`MovedBack`: items before it were deleted, rescan).
    #[inline(always)]
    pub(super) fn judge_overlap(
        &self,
        items: &[(SortKey, bool, P)],
        reference: &SortKey,
        pos: Option<u64>,
        straddle: bool,
        ctx: &Ctx<'_>,
    ) -> Result<Verdict> {
        let first = items.first().map(|(k, ..)| k);
        let name = reference.primary();
        // Another item of the overlap's tie group: the group straddles this
        // read and the one before, and the two orders of it may differ.
        let tied = items
            .iter()
            .rposition(|(k, ..)| k.primary() == name && k != reference);
        let group = match (tied, self.group_start, pos) {
            (Some(last), Some(start), Some(pos)) if straddle && start <= pos => {
                // The group as known: from its start to the last member seen.
                let end = pos.saturating_add(last as u64).saturating_add(1);
                Some(self.group(start, end, reference, ctx)?)
            }
            _ => None,
        };
        // A tie-able source's overlap item proves nothing (its equal names come in any
        // order): only an earlier name, or the list's start, shows nothing was skipped.
        let safe = |f: &SortKey| {
            if self.paging.strict() {
                not_after(f, reference)
            } else {
                pos == Some(0) || f.primary() < name
            }
        };
        Ok(if let Some(g) = group {
            Verdict::Regroup(g)
        } else if (!straddle || tied.is_none()) && first.is_some_and(safe) {
            Verdict::Accept {
                overlap_first: first == Some(reference),
                quiet: 0,
            }
        } else {
            Verdict::MovedBack {
                reference: reference.clone(),
                base: pos.unwrap_or(0),
            }
        })
    }

    /// The verdict on an answer from the position right after an overlap re-read that held the
    /// overlap item alone (`Realign::Verified`): more of that item's tie group here straddles two
    /// reads, as in the overlap case (`judge_overlap`).
    #[inline(always)]
    pub(super) fn judge_after_verified(
        &self,
        items: &[(SortKey, bool, P)],
        pos: u64,
        ctx: &Ctx<'_>,
    ) -> Result<Verdict> {
        let reference = self.last_raw.as_ref();
        let tied = reference.and_then(|r| {
            items
                .iter()
                .rposition(|(k, ..)| k.primary() == r.primary() && k != r)
        });
        Ok(match (tied, self.group_start, reference) {
            (Some(last), Some(start), Some(r)) if start <= pos => {
                let end = pos.saturating_add(last as u64).saturating_add(1);
                Verdict::Regroup(self.group(start, end, r, ctx)?)
            }
            (Some(_), _, Some(r)) => Verdict::MovedBack {
                reference: r.clone(),
                base: pos,
            },
            _ => Verdict::Accept {
                overlap_first: false,
                quiet: 0,
            },
        })
    }

    /// The verdict on a rescan's probe from `pos`: used when it starts at or before the
    /// reference (or at the list's start), else `ProbeTooFar` (step back further).
    #[inline(always)]
    pub(super) fn judge_probe(&self, items: &[(SortKey, bool, P)], pos: u64) -> Verdict {
        let first = items.first().map(|(k, ..)| k);
        let found = match self.rescan() {
            // A tie-able source may hold more of the reference's tie group
            // before the probe: only an earlier name is a safe start.
            Some(r) if !self.paging.strict() => {
                first.is_some_and(|f| f.primary() < r.reference.primary())
            }
            Some(r) => first.is_some_and(|f| not_after(f, &r.reference)),
            None => true,
        };
        if pos == 0 || found {
            Verdict::Accept {
                overlap_first: false,
                quiet: 0,
            }
        } else {
            Verdict::ProbeTooFar
        }
    }
}

/// Whether an item read at a position shows that nothing was skipped before
/// it: it is the reference itself, or its name sorts before the reference's.
/// An equal name with another key is not enough: a tie-able source orders
/// equal names any way it likes, so that item may come from after the gap.
pub(super) fn not_after(first: &SortKey, reference: &SortKey) -> bool {
    first == reference || first.primary() < reference.primary()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::item::ItemFields;

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
