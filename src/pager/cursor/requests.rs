//! Requests: what the source is asked next (`plan`), and the request in flight (`send`).
//!
//! Contract: one request at a time per source. `plan` reads the cursor without changing it and
//! names the request's `Purpose`, which decides how its answer is checked (`answer.rs`). Decimal
//! offsets are re-read from the item before the position (the overlap, docs/DESIGN.md "Drift"),
//! a tie group from the item before its start in one answer ("Ties"); continue and opaque
//! tokens are sent verbatim. A source read whole asks `""` with `maxSourceItems + 1`
//! (offsets) or follows its continue tokens.

use super::*;

/// What a source's tokens are, learned as it answers: one way only, `Continue` → `Offsets` (a
/// `kubernetes` source whose next token is a decimal offset) → `Opaque` (a next token that is not
/// `offset + items returned`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Paging {
    /// An apiserver's continue tokens: names unique in the list (strict), a token resumes after
    /// a key.
    Continue,
    /// A plugin's decimal item offsets: names may tie; a position is re-read from the item
    /// before it (the overlap, docs/DESIGN.md "Drift").
    Offsets,
    /// A plugin's decimal tokens that stopped being `offset + items returned`: sent verbatim
    /// from then on (no overlap, no drift check); still a plugin's list (ties, its limit kept).
    Opaque,
}

impl Paging {
    /// A plugin's list (offsets, or opaque ones): names may tie, the limit must be kept.
    pub(super) fn decimal(self) -> bool {
        self != Paging::Continue
    }

    /// Names unique in the list: the next chunk's names are all larger.
    pub(super) fn strict(self) -> bool {
        self == Paging::Continue
    }
}

/// Slow start: a streamed source's first chunk is this many times its share of the page.
/// Two: the merge takes a page from its sources unevenly, and a share of two pages' worth lets
/// one source hold most of the page without a second request for it (see [`first_chunk`]).
const SLOW_START_FACTOR: u32 = 2;
/// The least first chunk (items), whatever the page size and the number of sources.
const MIN_FIRST_CHUNK: u32 = 4;

/// The limit of a streamed source's first chunk (slow start): `ceil(pageSize / streamed sources)
/// × SLOW_START_FACTOR`, at least `MIN_FIRST_CHUNK`, at most `chunkLimit`. Each further chunk of
/// the source asks twice as many as the one before, up to `chunkLimit` (see `Cursor::chunk_size`).
pub(crate) fn first_chunk(options: &PagerOptions) -> u32 {
    let streamed = options
        .sources
        .iter()
        .filter(|s| s.streams_under(options.sort))
        .count()
        .max(1);
    let share = options
        .page_size
        .div_ceil(u32::try_from(streamed).unwrap_or(u32::MAX));
    // Not capped at one page for a lone source: a chunk of one page (+ 1) that ends inside a tie
    // group needs the group read again before the page (measured on the generated catalog of
    // bench/network.mjs --targets: 21 items, then 45 from item 18; two pages' worth, 40, in one).
    share
        .saturating_mul(SLOW_START_FACTOR)
        .max(MIN_FIRST_CHUNK)
        .min(options.chunk_limit)
}

/// What a request in flight is for.
#[derive(Debug, Clone)]
pub(super) enum Purpose {
    /// A streamed source's next chunk.
    Next {
        /// Decimal item offset of the first item asked for, when the token is one.
        pos: Option<u64>,
        /// The key the first item must have (or be drift-checked against): the
        /// last item read before, re-read on purpose (see docs/DESIGN.md "Drift").
        overlap: Option<SortKey>,
        /// A tie-able source's continuation: the answer must not hold another
        /// item named like the overlap (its tie group would straddle two reads).
        straddle: bool,
    },
    /// A tie group that straddled two reads, re-read whole in one answer from
    /// the item before its start (see docs/DESIGN.md "Ties").
    Group {
        /// Offset asked for: `start - 1` (`0` when the group starts the list).
        pos: u64,
        /// The group: where it starts, its name, an item of it read before.
        group: Group,
    },
    /// A step back after offset drift, looking for a start at or before the reference.
    Probe { pos: u64 },
    /// The first request of a kubeapps/unordered source read whole: `""` with
    /// `limit = maxSourceItems + 1`, all of it in one answer when the server gives it all.
    Whole,
    /// One chunk of a source read whole by following continue tokens (after a `Whole` answer
    /// that came with a next token: a server that caps its answers).
    WholePart,
}

pub(super) struct InFlight {
    pub(super) id: u64,
    pub(super) token: String,
    pub(super) limit: u32,
    pub(super) purpose: Purpose,
}

/// A request to make, before the pager gives it an id.
pub(crate) struct Planned {
    pub(crate) token: String,
    pub(crate) limit: u32,
    pub(super) purpose: Purpose,
}

/// Hashes of the last next-tokens a source returned in this pass (bounded: O(1) memory).
#[derive(Default)]
pub(super) struct TokenRing {
    pub(super) hashes: [u64; TokenRing::SIZE],
    pub(super) len: usize,
    pub(super) pos: usize,
}

impl TokenRing {
    const SIZE: usize = 16;

    pub(super) fn hash(t: &str) -> u64 {
        xxh64(t.as_bytes(), 0)
    }

    pub(super) fn contains(&self, t: &str) -> bool {
        let h = Self::hash(t);
        self.hashes.get(..self.len).is_some_and(|s| s.contains(&h))
    }

    pub(super) fn push(&mut self, t: &str) {
        if let Some(slot) = self.hashes.get_mut(self.pos) {
            *slot = Self::hash(t);
        }
        self.pos = (self.pos + 1) % Self::SIZE;
        self.len = (self.len + 1).min(Self::SIZE);
    }

    pub(super) fn clear(&mut self) {
        self.len = 0;
        self.pos = 0;
    }
}

impl<P> Cursor<P> {
    /// Marks the planned request as sent under `id`.
    pub(crate) fn send(&mut self, id: u64, planned: Planned) -> (String, u32) {
        let out = (planned.token.clone(), planned.limit);
        self.in_flight = Some(InFlight {
            id,
            token: planned.token,
            limit: planned.limit,
            purpose: planned.purpose,
        });
        out
    }

    /// The limit of a streamed source's next chunk (slow start): [`first_chunk`] for the first
    /// chunk this cursor takes, twice the one before for each further chunk, at most `chunkLimit`.
    fn chunk_size(&self, ctx: &Ctx<'_>) -> u32 {
        let grown = u64::from(ctx.first_chunk) << self.chunks_taken.min(32);
        u32::try_from(grown.min(u64::from(ctx.chunk_limit))).unwrap_or(ctx.chunk_limit)
    }

    /// The request this source needs next, where `chunk` is the slow start's chunk size
    /// (`chunk_size`: `first_chunk`, doubling with each chunk taken, up to `chunkLimit`):
    ///
    /// - read whole, kubeapps/unordered: `""` with `limit = maxSourceItems + 1`; then, while a
    ///   server that caps its answers gives a next token, that token with what is left of the
    ///   cap + 1 (`SOURCE_TOO_LARGE` only once the items read go over `maxSourceItems`);
    /// - read whole, kubernetes: the next continue token, `chunkLimit`;
    /// - rescanning: the probe offset, `chunkLimit + 1`;
    /// - a tie group to re-read whole: from the item before it, the group as
    ///   known + 1 + `chunkLimit` (more while it still ends inside the group); read with the
    ///   next chunk, known + 1 + `chunk`;
    /// - resumed at a decimal offset: from the item before `token + offset`,
    ///   `chunk + 1`, checked against `token_floor` (W at the resume; for a source behind
    ///   its own watermark; none, or offset 0: from the position);
    /// - next chunk at a decimal offset N: from `N - 1`, `chunk + 1`, checked
    ///   against the last item read (first chunk: `""`, `chunk`);
    /// - otherwise (continue or opaque token): the token verbatim, `chunk`.
    pub(crate) fn plan(&self, ctx: &Ctx<'_>) -> Planned {
        let limit = ctx.chunk_limit;
        if !self.streamed() {
            let token = self.next.clone().unwrap_or_default();
            if self.paging.decimal() {
                // Offsets over a list whose order changes between requests skip and repeat
                // items: ask for it all in one request, one more than the cap left to tell
                // "exactly the cap" from "too many". A server that caps its answers gives a next
                // token instead: followed, asking what is left of the cap each time.
                let left = (ctx.max_source_items as usize).saturating_sub(self.staging.len());
                let limit = u32::try_from(left).unwrap_or(u32::MAX).saturating_add(1);
                let first = token.is_empty() && self.staging.is_empty();
                return Planned {
                    token,
                    limit,
                    purpose: if first {
                        Purpose::Whole
                    } else {
                        Purpose::WholePart
                    },
                };
            }
            return Planned {
                token,
                limit,
                purpose: Purpose::WholePart,
            };
        }
        let limit = self.chunk_size(ctx);
        match &self.realign {
            Realign::Rescan(r) => {
                let pos = r.base.saturating_sub(r.step);
                return Planned {
                    token: format_offset(pos),
                    limit: r.span,
                    purpose: Purpose::Probe { pos },
                };
            }
            Realign::Regroup(g) => {
                let pos = g.start.saturating_sub(1);
                return Planned {
                    token: format_offset(pos),
                    limit: g.limit,
                    purpose: Purpose::Group {
                        pos,
                        group: g.clone(),
                    },
                };
            }
            Realign::Aligned | Realign::Verified => {}
        }
        let offsets = self.paging == Paging::Offsets;
        if let Some((token, offset)) = &self.resume {
            return self.plan_resume(token, *offset, offsets, limit);
        }
        let token = self.next.clone().unwrap_or_default();
        if let Some(n) = parse_offset(&token).filter(|_| offsets) {
            return self.plan_offset(token, n, limit);
        }
        Planned {
            token,
            limit,
            purpose: Purpose::Next {
                pos: None,
                overlap: None,
                straddle: false,
            },
        }
    }

    /// A resumed position (`token`, `offset` raw items consumed in its chunk) not yet refetched:
    /// at a decimal offset, from the item before it, checked against `token_floor`; else the
    /// token verbatim (a continue or opaque token: the offset is no position there).
    #[inline(always)]
    fn plan_resume(&self, token: &str, offset: u32, offsets: bool, limit: u32) -> Planned {
        // A chunk that re-reads the item before the position asks one more.
        let overlap_limit = limit.saturating_add(1);
        let start = parse_offset(token)
            .filter(|_| offsets)
            .and_then(|p| p.checked_add(u64::from(offset)));
        if let Some(start) = start {
            // After a resume the reference is `token_floor` (W at the resume): the item before
            // the position was consumed or dropped, so it is at or below W.
            if let (Some(w), Some(prev)) = (&self.token_floor, start.checked_sub(1)) {
                return Planned {
                    token: format_offset(prev),
                    limit: overlap_limit,
                    purpose: Purpose::Next {
                        pos: Some(prev),
                        overlap: Some(w.clone()),
                        straddle: false,
                    },
                };
            }
            return Planned {
                token: format_offset(start),
                limit,
                purpose: Purpose::Next {
                    pos: Some(start),
                    overlap: None,
                    straddle: false,
                },
            };
        }
        // A continue token or an opaque one: the refetched chunk need not be
        // the one read (a new snapshot from "", an inconsistent token after a
        // 410, a changed plugin list), so the offset is no position there.
        // Nothing is lost: every raw item before it is at or below W.
        return Planned {
            token: token.to_string(),
            limit,
            purpose: Purpose::Next {
                pos: None,
                overlap: None,
                straddle: false,
            },
        };
    }

    /// The next chunk at decimal offset `n` (`token`): a tie group's re-read, or the item before
    /// the position re-read (the overlap), unless that was just verified; else from `n` itself.
    #[inline(always)]
    fn plan_offset(&self, token: String, n: u64, limit: u32) -> Planned {
        // A chunk that re-reads the item before the position asks one more.
        let overlap_limit = limit.saturating_add(1);
        let verified = matches!(self.realign, Realign::Verified);
        if !verified {
            // A tie-able source: from the item before the tie group of the last item read
            // (G - 1), the group as known and a chunk of new items, in ONE answer; taken only
            // when its first name is below the group's (docs/DESIGN.md "Ties").
            if let (false, Some(g), Some(last)) =
                (self.paging.strict(), self.group_start, &self.last_raw)
            {
                if g < n {
                    let before = u32::from(g > 0);
                    let known = u32::try_from(n - g).unwrap_or(u32::MAX);
                    let limit = known.saturating_add(before).saturating_add(limit);
                    let pos = g.saturating_sub(1);
                    return Planned {
                        token: format_offset(pos),
                        limit,
                        purpose: Purpose::Group {
                            pos,
                            group: Group {
                                start: g,
                                name: last.primary().to_vec(),
                                reference: last.clone(),
                                limit,
                                before: self.before_group.clone(),
                            },
                        },
                    };
                }
            }
            if let (Some(prev), Some(last)) = (n.checked_sub(1), &self.last_raw) {
                return Planned {
                    token: format_offset(prev),
                    limit: overlap_limit,
                    purpose: Purpose::Next {
                        pos: Some(prev),
                        overlap: Some(last.clone()),
                        straddle: !self.paging.strict(),
                    },
                };
            }
        }
        // From `n` itself: the item before it was just re-read where it was (a tie-able
        // source's answer is then still checked for its tie group, see `prepare`), or there
        // is none to re-read.
        return Planned {
            token,
            limit,
            purpose: Purpose::Next {
                pos: Some(n),
                overlap: None,
                straddle: verified && !self.paging.strict(),
            },
        };
    }
}

/// Why a resumed chunk token and offset are no position a plugin could have given: a negative
/// or signed offset, or one (with the offset into its chunk) past what a plugin's signed 64-bit
/// integer holds. Such a token was not written by this pager: forwarding it would hand the plugin
/// a position it never gave. Other text is a continue token or an opaque one.
pub(crate) fn bad_offset(token: &str, offset: u32) -> Option<&'static str> {
    let bytes = token.as_bytes();
    let digits = match bytes.first() {
        Some(b'-' | b'+') => bytes.get(1..).unwrap_or_default(),
        _ => bytes,
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    if digits.len() != bytes.len() {
        return Some("signed offset");
    }
    // The same canonical reading as every decimal offset (a leading zero is opaque: None).
    let fits = canonical_decimal(token)
        .and_then(|p| p.checked_add(u64::from(offset)))
        .map_or(digits.first() == Some(&b'0'), |p| p <= i64::MAX as u64);
    (!fits).then_some("offset over 2^63 - 1")
}

/// A plugin's decimal item offset: ASCII digits, no sign, no leading zero,
/// fits in u64; `""` is the list's start (0). Anything else is opaque.
/// (Private and small so that the codec's `token::PluginOffset` can replace it.)
pub(super) fn parse_offset(token: &str) -> Option<u64> {
    if token.is_empty() {
        return Some(0);
    }
    canonical_decimal(token)
}

/// The token for an item offset; the start is `""`, as a first request sends.
pub(super) fn format_offset(pos: u64) -> String {
    if pos == 0 {
        String::new()
    } else {
        format!("{pos}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_offsets_parse_strictly() {
        let table: &[(&str, Option<u64>)] = &[
            ("", Some(0)),
            ("0", Some(0)),
            ("7", Some(7)),
            ("18446744073709551615", Some(u64::MAX)),
            ("18446744073709551616", None),
            ("007", None),
            ("-1", None),
            ("+1", None),
            (" 1", None),
            ("1e3", None),
            ("abc", None),
            ("١", None),
        ];
        for (t, want) in table {
            assert_eq!(parse_offset(t), *want, "{t:?}");
        }
        assert_eq!(format_offset(0), "");
        assert_eq!(format_offset(42), "42");
    }

    #[test]
    fn token_ring_remembers_the_last_sixteen() {
        let mut r = TokenRing::default();
        for i in 0..20 {
            r.push(&format!("t{i}"));
        }
        assert!(!r.contains("t3"), "pushed out");
        assert!(r.contains("t4") && r.contains("t19"));
        r.clear();
        assert!(!r.contains("t19"));
    }
}
