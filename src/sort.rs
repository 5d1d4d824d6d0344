//! The crate's one sort: a stable merge sort, compiled once.
//!
//! Each `slice::sort_by` / `sort_unstable` call site instantiates the standard library's sorts
//! for its element type and comparator, a few KB of wasm each (five call sites made ~15 KB).
//! Here the sorting itself is one non-generic function over indices with a `dyn` comparator;
//! only the thin [`sort_by`] wrapper that applies the order is generic.

use crate::prelude::*;
use core::cmp::Ordering;

/// Sorts `items` by `compare`, stably (equal items keep their order), in O(n log n).
pub fn sort_by<T>(items: &mut Vec<T>, mut compare: impl FnMut(&T, &T) -> Ordering) {
    // Only these two closures are generic: the sort and the moves are compiled once (size).
    let order = {
        let slice = items.as_slice();
        sorted_order(
            slice.len(),
            &mut |a, b| match (slice.get(a), slice.get(b)) {
                (Some(x), Some(y)) => compare(x, y),
                _ => Ordering::Equal,
            },
        )
    };
    if let Some(order) = order {
        let slice = items.as_mut_slice();
        permute(order, &mut |a, b| slice.swap(a, b));
    }
}

/// The indices `0..n` in sorted order: a bottom-up merge sort (runs of 1, 2, 4, ... merged
/// pairwise; on ties the left run's index goes first, which keeps the sort stable). `None` when
/// the items are in order already (a chunk from a source that streams in merge order).
fn sorted_order(n: usize, compare: &mut dyn FnMut(usize, usize) -> Ordering) -> Option<Vec<usize>> {
    if (1..n).all(|i| compare(i - 1, i) != Ordering::Greater) {
        return None;
    }
    let mut from: Vec<usize> = (0..n).collect();
    let mut to = vec![0; n];
    let mut width = 1;
    while width < n {
        let mut start = 0;
        while start < n {
            let mid = n.min(start + width);
            let end = n.min(start + 2 * width);
            // Slices by `get`, items taken from the match: no panic paths (size).
            let left = from.get(start..mid).unwrap_or_default();
            let right = from.get(mid..end).unwrap_or_default();
            let (mut l, mut r) = (0, 0);
            for slot in to.get_mut(start..end).unwrap_or_default() {
                *slot = match (left.get(l), right.get(r)) {
                    (Some(&a), Some(&b)) if compare(a, b) == Ordering::Greater => {
                        r += 1;
                        b
                    }
                    (Some(&a), _) => {
                        l += 1;
                        a
                    }
                    (None, Some(&b)) => {
                        r += 1;
                        b
                    }
                    (None, None) => break,
                };
            }
            start = end;
        }
        core::mem::swap(&mut from, &mut to);
        width *= 2;
    }
    Some(from)
}

/// Moves the items so that position `k` holds the item that was at `order[k]`, by swaps along
/// each cycle of the permutation (n swaps at most; `order` is used up as the visited marks).
fn permute(mut order: Vec<usize>, swap: &mut dyn FnMut(usize, usize)) {
    const DONE: usize = usize::MAX;
    for start in 0..order.len() {
        let mut cur = start;
        while let Some(slot) = order.get_mut(cur) {
            let src = core::mem::replace(slot, DONE);
            if src == DONE || src == start {
                break;
            }
            // `cur` takes the item at `src`; the item from `start` moves on to `src`.
            swap(cur, src);
            cur = src;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::sort_by;
    use crate::prelude::*;

    #[test]
    fn sorts_like_the_standard_stable_sort() {
        // Pairs (key, position): sorting by key alone shows whether equal keys keep their order.
        let mut seed = 7u32;
        for n in 0..200usize {
            let mut v: Vec<(u32, usize)> = (0..n)
                .map(|i| {
                    seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    ((seed >> 16) % (n as u32 / 3 + 1), i)
                })
                .collect();
            let mut want = v.clone();
            want.sort_by_key(|p| p.0);
            sort_by(&mut v, |a, b| a.0.cmp(&b.0));
            assert_eq!(v, want, "n = {n}");
        }
    }
}
