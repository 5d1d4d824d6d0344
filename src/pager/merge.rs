//! The k-way merge and its emission frontier (docs/DESIGN.md "The merge frontier").
//!
//! The candidate is the smallest buffered item over all sources. It may go
//! only when no source can still hold an item before it: for every source
//! whose list goes on past its buffered chunks, the candidate's name is below
//! the name of the last item read from it (or equal, for a strict source). A
//! source that fails this must be fetched; nothing else is. That is what keeps
//! "at most one chunk ahead per source" and "no request past need" together.

use super::cursor::Cursor;

/// Index of the source holding the smallest buffered item, if any.
pub(crate) fn candidate<P>(cursors: &[Cursor<P>]) -> Option<usize> {
    let mut best: Option<(usize, &crate::order::SortKey)> = None;
    for (i, c) in cursors.iter().enumerate() {
        if let Some(e) = c.buf.front() {
            if best.map_or(true, |(_, k)| e.key < *k) {
                best = Some((i, &e.key));
            }
        }
    }
    best.map(|(i, _)| i)
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
