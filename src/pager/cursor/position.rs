//! The position a page token records for the source (`state`).
//!
//! Contract: a streamed source writes the first chunk still buffered and the raw items consumed
//! at its start (every raw item before the smallest buffered index was consumed or dropped),
//! else its resume or next token; a switched source writes `SWITCH_MARK` with its count, late
//! items shown and anchors; a source read whole `""` (its watermark does the work).

use super::*;

impl<P> Cursor<P> {
    /// This source's position, as a page token records it, borrowed from the cursor. `w` is the
    /// global watermark W.
    pub(crate) fn state(&self, order: SortOrder, w: Option<&SortKey>) -> SourceRef<'_> {
        let exhausted = self.exhausted();
        let mut anchors: Cow<'_, [u64]> = Cow::Borrowed(&[]);
        let mut late_watermark = None;
        let (chunk_token, chunk_wire, offset) = match &self.reading {
            Reading::Switching(sw) if !exhausted => {
                anchors = Cow::Borrowed(&sw.anchors);
                late_watermark = self.late_watermark(sw.late_upto.as_ref(), order);
                (sw.mark.as_str(), None, sw.skip)
            }
            Reading::Late(late) if !exhausted => {
                // The last item consumed before the late ones, unless it is the watermark
                // (which the token holds anyway).
                anchors = match (late.cut_anchors.as_slice(), &self.watermark) {
                    ([end, pre], Some(ws)) if key_hash(ws) == *pre => Cow::Owned(vec![*end]),
                    (all, _) => Cow::Borrowed(all),
                };
                late_watermark = self.late_watermark(late.last.as_ref(), order);
                (late.mark.as_str(), None, late.shown)
            }
            Reading::Switching(_) | Reading::Late(_) | Reading::Switched => (SWITCH_MARK, None, 0),
            Reading::Whole => ("", None, 0),
            Reading::Streamed => self.stream_position(exhausted),
        };
        if self.streamed() && !exhausted && self.paging.decimal() && !self.paging.strict() {
            // The last item read, past what was consumed: while another source holds W, the
            // merge may have gone past items that stand after it in this source's order; and
            // every item of the source's order before it at or below W was consumed (or inserted
            // behind W), so a whole read that finds it again need not take the count's word.
            let read = self
                .last_raw
                .as_ref()
                .filter(|l| Some(*l) != self.watermark.as_ref())
                .map(key_hash);
            // A resumed position's anchor, not read again, stands for what was read before its
            // token's floor only while W has not moved past that floor: after, the merge may have
            // gone past it (and items before it) unread, and a resume that counted it as read
            // would drop them. The last item read since then holds the cut instead, when there
            // is one.
            let far = match self.pending_anchor {
                Some(h) if w <= self.token_floor.as_ref() => Some(h),
                pending => read.or(pending),
            };
            if let Some(h) = far {
                anchors = Cow::Owned(vec![h]);
            }
        }
        SourceRef {
            source: &self.spec.id,
            chunk_token,
            chunk_wire,
            offset,
            watermark: self.watermark.as_ref().and_then(|k| k.parts_ref(order)),
            resource_version: &self.resource_version,
            exhausted,
            inconsistent: self.inconsistent,
            behind: self.reach.behind && !exhausted,
            anchors,
            late_watermark,
        }
    }

    /// A streamed source's position: the first chunk with unconsumed items and the raw items
    /// consumed at its start, else the resumed position not refetched yet, else the next token.
    #[inline(always)]
    fn stream_position(&self, exhausted: bool) -> (&str, Option<&[u8]>, u32) {
        if exhausted {
            ("", None, 0)
        } else if let Some(front) = self.marks.first() {
            // The first chunk with unconsumed items, and how many raw items at
            // its start are consumed: every raw item before the smallest buffered
            // index was consumed or dropped. That is the chunk's first entry in the
            // buffer: a streamed chunk is in name order (checked on entry), its
            // entries' `group_raw` is the start of their name's group, and the buffer
            // keeps them in key order, so along the buffer it never decreases (a
            // tie-able chunk is sorted on entry, but only within a name).
            let offset = self
                .buf
                .iter()
                .rev()
                .find(|e| e.chunk == front.seq)
                .map_or(0, |e| e.group_raw);
            debug_assert_eq!(
                Some(offset),
                self.buf
                    .iter()
                    .filter(|e| e.chunk == front.seq)
                    .map(|e| e.group_raw)
                    .min()
                    .or(Some(0)),
            );
            (front.token.as_str(), Some(front.wire.as_slice()), offset)
        } else if let Some((t, o)) = &self.resume {
            (t.as_str(), None, *o)
        } else {
            (self.next.as_deref().unwrap_or_default(), None, 0)
        }
    }

    /// The last late item consumed, as a page token writes it: `Some(None)` when it is the
    /// source's watermark (which the token holds anyway).
    fn late_watermark<'a>(
        &'a self,
        last: Option<&'a SortKey>,
        order: SortOrder,
    ) -> Option<Option<[Cow<'a, str>; 5]>> {
        last.and_then(|k| {
            if Some(k) == self.watermark.as_ref() {
                Some(None)
            } else {
                k.parts_ref(order).map(Some)
            }
        })
    }
}
