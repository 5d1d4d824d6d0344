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
}
