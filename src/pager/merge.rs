//! The k-way merge and its emission frontier (docs/DESIGN.md "The merge frontier").
//!
//! The candidate is the smallest buffered item over all sources. It may go
//! only when no source can still hold an item before it: for every source
//! whose list goes on past its buffered chunks, the candidate's name is below
//! the name of the last item read from it (or equal, for a strict source). A
//! source that fails this must be fetched; nothing else is. That is what keeps
//! "at most one chunk ahead per source" and "no request past need" together.

use super::cursor::{Cursor, Entry};
use crate::prelude::*;

/// The smallest buffered item (the first source's on equal keys) and the index of its source.
pub(crate) fn candidate_entry<P>(cursors: &[Cursor<P>]) -> Option<(usize, &Entry<P>)> {
    let mut best: Option<(usize, &Entry<P>)> = None;
    for (i, c) in cursors.iter().enumerate() {
        // A source set aside with a tie group open holds it (see `Cursor::holds_front`).
        if let Some(e) = c.front().filter(|_| !c.holds_front()) {
            if best.map_or(true, |(_, b)| e.key < b.key) {
                best = Some((i, e));
            }
        }
    }
    best
}

/// Whether any source may still hold an item at or before the candidate whose key is `key`
/// (`None` = there is no candidate): see [`Cursor::blocks`].
pub(crate) fn blocked<P>(cursors: &[Cursor<P>], key: Option<&[u8]>) -> bool {
    cursors.iter().any(|c| c.blocks(key))
}

/// The sources to fetch before the merge can go on: those that block the
/// current candidate, or every source that goes on when nothing is buffered.
pub(crate) fn blockers<P>(cursors: &[Cursor<P>]) -> Vec<usize> {
    let key = candidate_entry(cursors).map(|(_, e)| e.key.0.as_slice());
    let mut out = Vec::new();
    for (i, c) in cursors.iter().enumerate() {
        if c.blocks(key) {
            out.push(i);
        }
    }
    out
}
