//! Tie groups: items with equal names that straddle two reads are re-read whole in one answer.
//!
//! Contract: a tie-able source orders equal names any way it likes, so a group that straddles two
//! answers is re-read from the item before its start, the group as known and a chunk of new
//! items, in ONE answer (docs/DESIGN.md "Ties"); a group over `maxSourceItems` is
//! `SOURCE_TOO_LARGE`, a group a server gives only in pieces `INVALID_RESPONSE`.

use super::*;

/// A tie group to re-read whole.
#[derive(Debug, Clone)]
pub(super) struct Group {
    /// Offset of its first item.
    pub(super) start: u64,
    /// Its name (the key's primary component).
    pub(super) name: Vec<u8>,
    /// An item of it read before: the drift reference if the re-read moved back.
    pub(super) reference: SortKey,
    /// The limit to ask: the group as known, the item before it, a chunk of new items.
    pub(super) limit: u32,
    /// The name of the item read before the group (at `start - 1`), when known: a re-read that
    /// finds another name there is treated as moved (items changed ahead, or a source whose
    /// order is not the merge order: an earlier name there proves nothing then).
    pub(super) before: Option<Vec<u8>>,
}

impl<P> Cursor<P> {
    /// The re-read of a tie group known from `start` to `end` (exclusive): from
    /// the item before it, with a chunk of new items after it.
    /// `SOURCE_TOO_LARGE` when the group alone is over `maxSourceItems`.
    pub(super) fn group(
        &self,
        start: u64,
        end: u64,
        reference: &SortKey,
        ctx: &Ctx<'_>,
    ) -> Result<Group> {
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

    /// The verdict on a tie group's re-read from `pos` (the item before the group) with `limit`:
    /// moved back when the item before the group is no longer before it; asked again longer
    /// (`Regroup`) while a full answer ends inside the group; `Verified` for a capped server's
    /// short answer that did not reach it; else used, its items up to the group's end `quiet`
    /// (read before). `SOURCE_TOO_LARGE` once the limit would pass the cap.
    #[inline(always)]
    pub(super) fn judge_group(
        &self,
        items: &[(SortKey, bool, P)],
        pos: u64,
        group: &Group,
        limit: u32,
        goes_on: bool,
        ctx: &Ctx<'_>,
    ) -> Result<Verdict> {
        let n = items.len();
        let first = items.first().map(|(k, ..)| k);
        let name = group.name.as_slice();
        let last = items.last().map(|(k, ..)| k.primary());
        let moved = group
            .before
            .as_ref()
            .is_some_and(|b| first.is_some_and(|f| f.primary() != b.as_slice()));
        Ok(
            if group.start > 0 && (moved || first.map_or(true, |f| f.primary() >= name)) {
                // The item before the group is no longer before it: items
                // ahead were deleted. Rescan as for any move back.
                Verdict::MovedBack {
                    reference: group.reference.clone(),
                    base: pos,
                }
            } else if goes_on && last == Some(name) && n >= limit as usize {
                // The answer ends inside the group: ask more, in one answer again. (A short
                // answer with a next token is all the server had from there: a server that
                // ends a list only with an empty answer. Its continuation is checked as any.)
                let end = pos.saturating_add(n as u64);
                let grown = self.group(group.start, end, &group.reference, ctx)?;
                let wider = limit.saturating_mul(2).max(grown.limit);
                let cap = ctx
                    .max_source_items
                    .saturating_add(1)
                    .saturating_add(ctx.chunk_limit);
                if limit >= cap {
                    return Err(self.too_large(ctx));
                }
                Verdict::Regroup(Group {
                    limit: wider.min(cap),
                    ..grown
                })
            } else if goes_on && n < limit as usize && last.is_some_and(|l| l < name) {
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
            },
        )
    }

    /// A tie group to re-read again whose earlier re-read came back short and was taken as whole
    /// (`short_group`): the server answers in pieces (a cap below the group's size) and the group
    /// can never be read in one answer: `INVALID_RESPONSE`, not a loop.
    #[inline(always)]
    pub(super) fn refuse_pieces(&self, g: &Group) -> Result<()> {
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
        Ok(())
    }
}
