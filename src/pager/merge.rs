//! The k-way merge and its emission frontier (docs/DESIGN.md "The merge frontier").
//!
//! The candidate is the smallest buffered item over all sources. It may go
//! only when no source can still hold an item before it: for every source
//! whose list goes on past its buffered chunks, the candidate's name is below
//! the name of the last item read from it (or equal, for a strict source). A
//! source that fails this must be fetched; nothing else is. That is what keeps
//! "at most one chunk ahead per source" and "no request past need" together.

use super::cursor::{Cursor, Entry};
use crate::order::SortKey;
use crate::prelude::*;
use core::cmp::Ordering;

/// Index of the source holding the smallest buffered item, if any.
pub(crate) fn candidate<P>(cursors: &[Cursor<P>]) -> Option<usize> {
    candidate_entry(cursors).map(|(i, _)| i)
}

/// The smallest buffered item (the first source's on equal keys) and the index of its source.
pub(crate) fn candidate_entry<P>(cursors: &[Cursor<P>]) -> Option<(usize, &Entry<P>)> {
    let mut best: Option<(usize, &Entry<P>)> = None;
    for (i, c) in cursors.iter().enumerate() {
        if let Some(e) = c.buf.front() {
            if best.map_or(true, |(_, b)| e.before(b)) {
                best = Some((i, e));
            }
        }
    }
    best
}

/// Whether any source may still hold an item at or before `primary` (the
/// candidate's first key component; `None` = there is no candidate).
pub(crate) fn blocked<P>(cursors: &[Cursor<P>], primary: Option<&[u8]>) -> bool {
    cursors.iter().any(|c| c.blocks(primary))
}

/// The sources to fetch before the merge can go on: those that block the
/// current candidate, or every source that goes on when nothing is buffered.
pub(crate) fn blockers<P>(cursors: &[Cursor<P>]) -> Vec<usize> {
    let primary = candidate(cursors)
        .and_then(|i| cursors.get(i))
        .and_then(|c| c.buf.front())
        .map(|e| e.key.primary());
    cursors
        .iter()
        .enumerate()
        .filter(|(_, c)| c.blocks(primary))
        .map(|(i, _)| i)
        .collect()
}

/// The frontier of [`blocked`], worked out once for a run of the merge: consuming buffered items
/// changes no source's bound, strictness or continuation, so it holds until the next feed. It
/// needs one comparison per candidate instead of one per source, and no [`SortKey::primary`] scan.
pub(crate) enum Frontier {
    /// No source goes on: nothing blocks.
    Open,
    /// A source goes on with no bound (read whole, or nothing read yet): everything blocks.
    Closed,
    /// The lowest bound among the sources that go on is `source`'s; a candidate above it blocks,
    /// one equal to it blocks when a source with that bound is not strict.
    Bound { source: usize, equal_blocks: bool },
}

impl Frontier {
    pub(crate) fn of<P>(cursors: &[Cursor<P>]) -> Frontier {
        let mut frontier = Frontier::Open;
        let mut low: Option<&[u8]> = None;
        for (i, c) in cursors.iter().enumerate() {
            match c.limit() {
                None => {}
                Some(None) => return Frontier::Closed,
                Some(Some((bound, strict))) => match low.map(|l| bound.cmp(l)) {
                    None | Some(Ordering::Less) => {
                        low = Some(bound);
                        frontier = Frontier::Bound {
                            source: i,
                            equal_blocks: !strict,
                        };
                    }
                    Some(Ordering::Equal) => {
                        if let Frontier::Bound { equal_blocks, .. } = &mut frontier {
                            *equal_blocks |= !strict;
                        }
                    }
                    Some(Ordering::Greater) => {}
                },
            }
        }
        frontier
    }

    /// [`blocked`] of `key`'s primary. The bound is a whole primary, terminator included, so
    /// the key starts with it exactly when its primary is equal, and otherwise orders against it
    /// as its primary does (the first difference falls inside the primary).
    pub(crate) fn blocks<P>(&self, cursors: &[Cursor<P>], key: &SortKey) -> bool {
        match *self {
            Frontier::Open => false,
            Frontier::Closed => true,
            Frontier::Bound {
                source,
                equal_blocks,
            } => match cursors.get(source).and_then(|c| c.limit()).flatten() {
                Some((bound, _)) if key.0.starts_with(bound) => equal_blocks,
                Some((bound, _)) => key.0.as_slice() > bound,
                None => true,
            },
        }
    }
}
