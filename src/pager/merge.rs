//! The k-way merge and its emission frontier (docs/DESIGN.md "The merge frontier").
//!
//! The candidate is the smallest buffered item over all sources. It may go
//! only when no source can still hold an item before it: for every source
//! whose list goes on past its buffered chunks, the candidate's name is below
//! the name of the last item read from it (or equal, for a strict source). A
//! source that fails this must be fetched; nothing else is. That is what keeps
//! "at most one chunk ahead per source" and "no request past need" together.

use super::cursor::{Cursor, Entry};
use crate::order::key_prefix;
use crate::prelude::*;

/// The smallest buffered item (the first source's on equal keys) and the index of its source.
pub(crate) fn candidate_entry<P>(cursors: &[Cursor<P>]) -> Option<(usize, &Entry<P>)> {
    let mut best: Option<(usize, &Entry<P>)> = None;
    for (i, c) in cursors.iter().enumerate() {
        // A source set aside with a tie group open holds it (see `Cursor::holds_front`).
        if let Some(e) = c.front().filter(|_| !c.holds_front()) {
            if best.map_or(true, |(_, b)| e.before(b)) {
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

/// The frontier of all the sources at once, worked out once per run of the merge (the sources'
/// bounds do not move while buffered items are consumed): [`Frontier::blocks`] answers as
/// [`blocked`] does, with one comparison per candidate instead of one per source.
pub(crate) enum Frontier {
    /// Some source blocks any candidate (it goes on and bounds nothing yet, or is read whole and
    /// not loaded).
    Closed,
    /// The lowest bound over the sources that bound the merge; `equal_blocks`: one of the sources
    /// at that bound is not strict, so a candidate whose primary equals it waits too. `None`:
    /// nothing bounds the merge.
    Bound(Option<LowestBound>),
}

/// See [`Frontier::Bound`].
pub(crate) struct LowestBound {
    bound: Vec<u8>,
    prefix: u64,
    equal_blocks: bool,
}

impl Frontier {
    /// The frontier of `cursors` as they stand.
    pub(crate) fn of<P>(cursors: &[Cursor<P>]) -> Frontier {
        let mut lowest: Option<(&[u8], bool)> = None;
        for c in cursors {
            match c.frontier_bound() {
                None => {}
                Some(None) => return Frontier::Closed,
                Some(Some((bound, strict))) => {
                    lowest = match lowest {
                        Some((low, eq)) if low == bound => Some((low, eq || !strict)),
                        Some((low, eq)) if low < bound => Some((low, eq)),
                        _ => Some((bound, !strict)),
                    }
                }
            }
        }
        Frontier::Bound(lowest.map(|(bound, equal_blocks)| LowestBound {
            bound: bound.to_vec(),
            prefix: key_prefix(bound),
            equal_blocks,
        }))
    }

    /// Whether some source may still hold an item at or before `candidate` (see
    /// [`Cursor::blocks`]). Every bound is a whole primary, terminator included, so a key that
    /// starts with the lowest one has that primary, and one that does not orders against every
    /// higher bound as against the lowest.
    pub(crate) fn blocks<P>(&self, candidate: &Entry<P>) -> bool {
        match self {
            Frontier::Closed => true,
            Frontier::Bound(None) => false,
            Frontier::Bound(Some(low)) => {
                // A smaller prefix: below the bound, and not starting with it.
                if candidate.prefix < low.prefix {
                    return false;
                }
                let k = candidate.key.0.as_slice();
                if k.starts_with(&low.bound) {
                    low.equal_blocks
                } else {
                    k > low.bound.as_slice()
                }
            }
        }
    }
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
