//! Checking an answer: `prepare` keys, filters and judges a chunk without changing the cursor.
//!
//! Contract: every error an answer can cause comes from here (`INVALID_RESPONSE`,
//! `SOURCE_TOO_LARGE`, `NO_PROGRESS`), before anything changes, so an error leaves the pager as it
//! was; the `Verdict` says what `commit` does with it. A continuation that answers with the
//! list's start again is `Restarted` (the position stands), an answer out of the merge order
//! `Disorder` (a switch to a whole read), a cycle of next tokens ends the list (`truncated`).

use super::*;

/// What an answer turned out to be, decided by [`Cursor::prepare`].
pub(super) enum Verdict {
    /// Use the items; the first one is the planned overlap re-read when
    /// `overlap_first`; items dropped among the first `quiet` ones (a tie group's
    /// re-read) are protocol, not duplicates.
    Accept { overlap_first: bool, quiet: usize },
    /// A tie group straddles two reads (or a group re-read ended inside it):
    /// read it whole in one answer.
    Regroup(Group),
    /// The overlap item moved back: items before the position were deleted. Rescan.
    MovedBack { reference: SortKey, base: u64 },
    /// A probe that started after the reference: step back further.
    ProbeTooFar,
    /// A full answer that ends before the reference, from `pos`: ask again from there with a
    /// limit of `span` (the reference must come in one answer, see `prepare`).
    Widen {
        reference: SortKey,
        pos: u64,
        span: u32,
    },
    /// The items are not in the merge order (inside the chunk, or against the chunks before):
    /// the source is read whole from now on (docs/DESIGN.md "Order is learned").
    Disorder,
    /// A tie group's re-read that a capped server answered short, before reaching the group:
    /// its first item shows nothing was skipped, so the list goes on from the position itself.
    Verified,
    /// A continuation answered with the list's start again and nothing new (a proxy that drops
    /// `continue`; see `Cursor::restarts_list`): the position stands.
    Restarted,
}

/// A checked answer, ready to commit.
pub(crate) struct Prepared<P> {
    /// Each item's key, whether the filter passes it, and its payload.
    pub(super) items: Vec<(SortKey, bool, P)>,
    pub(super) next: Option<String>,
    pub(super) resource_version: Option<String>,
    pub(super) remaining_item_count: Option<u64>,
    pub(super) verdict: Verdict,
    pub(super) progress: bool,
    /// The answer to an overlap re-read is the overlap item alone, with the next token
    /// `pos + 1`: nothing moved and nothing new yet (see [`Cursor::plan`]).
    pub(super) overlap_only: bool,
    /// A tie group's re-read came back shorter than asked, still inside the group, with a next
    /// token: taken as the group's end (see `short_group`).
    pub(super) short_group: bool,
    /// The next token was one this pass returned before (a cycle, `b → c → b`): the answer's
    /// items are kept and the list ends here (`next` is `None`), counted as `cycled_tokens`.
    pub(super) cycled: bool,
}

impl<P> Prepared<P> {
    /// An answer whose items are not merged (a switch to a whole read, a longer re-read): only its
    /// verdict and its request count.
    pub(super) fn unmerged(
        items: Vec<(SortKey, bool, P)>,
        next: Option<String>,
        resource_version: Option<String>,
        remaining_item_count: Option<u64>,
        verdict: Verdict,
    ) -> Self {
        Prepared {
            items,
            next,
            resource_version,
            remaining_item_count,
            verdict,
            progress: true,
            overlap_only: false,
            short_group: false,
            cycled: false,
        }
    }
}

impl<P> Cursor<P> {
    /// Reads and checks an answer to the request in flight without changing
    /// anything (items out of the merge order make the verdict `Disorder`: a switch to a whole
    /// read). Errors: `INVALID_RESPONSE` (a kubeapps source returned more
    /// than asked, a key too long for a page token, a next token longer than a page token
    /// may hold, a tie group given in pieces), `SOURCE_TOO_LARGE` (also a tie group over the cap),
    /// `NO_PROGRESS`.
    pub(crate) fn prepare<F: KeyFields>(
        &self,
        chunk: ChunkOf<P, F>,
        ctx: &Ctx<'_>,
    ) -> Result<Prepared<P>> {
        let Some(flight) = &self.in_flight else {
            return Err(self.invalid("no request in flight"));
        };
        if chunk
            .next_token
            .as_ref()
            .is_some_and(|t| t.len() > MAX_TOKEN_LEN)
        {
            return Err(self.invalid(format!("next token longer than {MAX_TOKEN_LEN} bytes")));
        }
        // An answer whose next token is the very token it was asked with ends the list (a plugin
        // that signals its end so): its items count, then nothing more is asked.
        let echoed = chunk.next_token.as_deref() == Some(flight.token.as_str());
        let next = chunk
            .next_token
            .filter(|t| !t.is_empty() && *t != flight.token);
        self.check_size(chunk.items.len(), flight, ctx)?;
        let (items, before_start, mixed_ties) = self.key_items(chunk.items, flight, ctx)?;
        let progress = self.progress(&items, ctx);
        // A continuation that restarts the list (a proxy that drops `continue`): not used, the
        // position stands; the MAX_RESTARTS_IN_A_ROW-th in a row sets the source aside
        // (`Pager::feed`). Checked before the order: such an answer is no disorder.
        let verdict = if before_start || self.restarts_list(&items, flight, progress, echoed) {
            Verdict::Restarted
        } else if self.paging.decimal()
            && matches!(flight.purpose, Purpose::WholePart)
            && self.repeats(&items)
        {
            // A list read whole by offsets in pieces (a server that caps its answers) that gives
            // an item twice changed between requests: it grew in front, or its order changed and
            // another item was skipped. Not used; the whole read starts over from `""` (`commit`),
            // and the MAX_RESTARTS_IN_A_ROW-th in a row sets the source aside (`no-progress`): one
            // whose order changes on every request cannot be read in pieces, and nothing is lost
            // silently.
            Verdict::Restarted
        } else if self.streamed()
            && (mixed_ties || self.disordered(&items, &flight.token, &flight.purpose))
        {
            Verdict::Disorder
        } else {
            self.judge(&items, flight, next.is_some(), ctx)?
        };
        let Verdict::Accept { overlap_first, .. } = verdict else {
            return Ok(Prepared::unmerged(
                items,
                next,
                chunk.resource_version,
                chunk.remaining_item_count,
                verdict,
            ));
        };
        let short_group = match &flight.purpose {
            Purpose::Group { group, .. } => {
                next.is_some()
                    && items.len() < flight.limit as usize
                    && items
                        .last()
                        .is_some_and(|(k, ..)| k.primary() == group.name.as_slice())
            }
            _ => false,
        };
        let overlap_only = match (&flight.purpose, items.as_slice(), &next) {
            (
                Purpose::Next {
                    pos: Some(pos),
                    overlap: Some(_),
                    ..
                },
                [_],
                Some(t),
            ) if overlap_first => parse_offset(t) == pos.checked_add(1),
            _ => false,
        };
        let cycled = self.check_cycle(next.as_deref(), flight, overlap_only, progress, ctx)?;
        let next = if cycled { None } else { next };
        Ok(Prepared {
            items,
            next,
            resource_version: chunk.resource_version,
            remaining_item_count: chunk.remaining_item_count,
            verdict,
            progress,
            overlap_only,
            short_group,
            cycled,
        })
    }

    /// The answer's size against its request: a whole read over `maxSourceItems`
    /// (`SOURCE_TOO_LARGE`), or a kubeapps source that returned more than asked
    /// (`INVALID_RESPONSE`: Kubernetes servers may ignore `limit`; a plugin that does breaks
    /// the offset arithmetic).
    #[inline(always)]
    fn check_size(&self, n: usize, flight: &InFlight, ctx: &Ctx<'_>) -> Result<()> {
        match flight.purpose {
            // Counted over the whole read, however many answers (a server that caps its answers
            // gives a next token: followed, see `plan`).
            Purpose::Whole | Purpose::WholePart
                if self.staging.len().saturating_add(n) > ctx.max_source_items as usize =>
            {
                Err(self.too_large(ctx))
            }
            Purpose::Next { .. } | Purpose::Probe { .. } | Purpose::Group { .. }
                if self.paging.decimal() && n > flight.limit as usize =>
            {
                Err(self.invalid(format!("{n} items returned for limit {}", flight.limit)))
            }
            _ => Ok(()),
        }
    }

    /// Keys and filters the answer's items, once (the fields are not kept: the filter's verdict,
    /// or the caller's predicate's, is counted in `commit`, for the items not dropped before it);
    /// with whether the first item lies before the continue token's resume key (`starts_before`),
    /// and, under a `displayName` sort in the source's name order (`by_name`), whether two
    /// adjacent items of one name have different display names.
    /// `INVALID_RESPONSE` for a key longer than a page token may hold.
    #[inline(always)]
    fn key_items<F: KeyFields>(
        &self,
        raw: Vec<(F, P)>,
        flight: &InFlight,
        ctx: &Ctx<'_>,
    ) -> Result<(Vec<(SortKey, bool, P)>, bool, bool)> {
        // Keyed and filtered once, here: the fields are not kept (the filter's verdict, or the
        // caller's predicate's, is counted in `commit`, for the items not dropped before it).
        // Every item may become the source's watermark, which a page token must hold: a longer
        // key would make every later position fail to encode (the list could not go on).
        let id = &self.spec.id;
        // The source's plugin, cluster and namespace as every key of its own items holds them:
        // encoded once per chunk, copied into each key at once.
        let context = encode_context(&id.plugin, &id.cluster, &id.namespace);
        let mut items: Vec<(SortKey, bool, P)> = Vec::with_capacity(raw.len());
        // The continue token's resume key (`start`: the last key given, then NUL), when the
        // source is a Kubernetes list and the token sent is one: an answer to it starts after
        // that key (at it, for an inclusive cursor).
        let resume_key = (!self.paging.decimal() && !flight.token.is_empty())
            .then(|| ContinueToken::decode_canonical(&flight.token))
            .flatten()
            .map(|t| t.start);
        let mut before_start = false;
        // Under a `displayName` sort in the source's name order: the previous item's name (a
        // hash), and whether two adjacent items of one name have different display names.
        let mut previous_name = None;
        let mut mixed_ties = false;
        for (i, (fields, p)) in raw.into_iter().enumerate() {
            let f = self.with_defaults(fields.key_fields());
            if let (0, Some(start)) = (i, &resume_key) {
                before_start = starts_before(&f, start);
            }
            let sort_value = ctx.order.sort_value(&f);
            let own =
                f.plugin == id.plugin && f.cluster == id.cluster && f.namespace == id.namespace;
            let bytes = if own {
                sort_value.len() + f.identifier.len()
            } else {
                id.key_bytes(
                    &sort_value,
                    [f.plugin, f.cluster, f.namespace, f.identifier],
                )
            };
            debug_assert_eq!(
                bytes,
                id.key_bytes(
                    &sort_value,
                    [f.plugin, f.cluster, f.namespace, f.identifier]
                )
            );
            if bytes > ctx.max_key_bytes {
                return Err(self.invalid(format!("item {i}'s key is {bytes} bytes (its sort field and identifier, UTF-8); a page token holds keys of at most {} bytes", ctx.max_key_bytes)));
            }
            // The caller's verdict, when a custom predicate judges this source, replaces the
            // rules (`ctx.filter` is then `plugins` alone).
            let judged = ctx
                .verdicts
                .map_or(true, |v| v.get(i).copied().unwrap_or(false));
            let key = if own {
                ctx.order.key_in_context(&f, &context)
            } else {
                ctx.order.key_of(&f)
            };
            if self.by_name {
                // Equal names are the source's ties, in any order on each request: with two display
                // names among them a tie may come back on either side of an item read, so the
                // answer is taken as a disorder (the whole read shows what the merge passed).
                let h = xxh64(f.name.as_bytes(), 0);
                mixed_ties |= previous_name == Some(h)
                    && items
                        .last()
                        .is_some_and(|(k, ..)| k.primary() != key.primary());
                previous_name = Some(h);
            }
            items.push((key, judged && ctx.filter.matches_ref(&f), p));
        }
        Ok((items, before_start, mixed_ties))
    }

    /// Progress: some key beyond both W and anything read before.
    #[inline(always)]
    fn progress(&self, items: &[(SortKey, bool, P)], ctx: &Ctx<'_>) -> bool {
        let floor = match (ctx.watermark, &self.max_read) {
            (Some(w), Some(m)) => Some(w.max(m)),
            (w, m) => w.or(m.as_ref()),
        };
        items.iter().any(|(k, ..)| floor.map_or(true, |f| k > f))
    }

    /// The verdict on an answer in the merge order, by what it was asked for: the overlap and
    /// probe checks (`streaming.rs`), a tie group's re-read (`ties.rs`), then, for an answer to
    /// use, whether a re-read from an earlier position found what was read before
    /// (`reread_check`) and a resumed position's unseen items (`passed_unseen`).
    /// `INVALID_RESPONSE` for a tie group given in pieces, `SOURCE_TOO_LARGE` for one over the cap.
    #[inline(always)]
    fn judge(
        &self,
        items: &[(SortKey, bool, P)],
        flight: &InFlight,
        goes_on: bool,
        ctx: &Ctx<'_>,
    ) -> Result<Verdict> {
        let verdict = match &flight.purpose {
            Purpose::Next {
                overlap: Some(reference),
                pos,
                straddle,
            } => self.judge_overlap(items, reference, *pos, *straddle, ctx)?,
            Purpose::Next {
                overlap: None,
                pos: Some(pos),
                straddle: true,
            } => self.judge_after_verified(items, *pos, ctx)?,
            Purpose::Probe { pos } => self.judge_probe(items, *pos),
            Purpose::Group { pos, group } => {
                self.judge_group(items, *pos, group, flight.limit, goes_on, ctx)?
            }
            Purpose::Next { .. } | Purpose::Whole | Purpose::WholePart => Verdict::Accept {
                overlap_first: false,
                quiet: 0,
            },
        };
        match verdict {
            Verdict::Regroup(g) if !matches!(flight.purpose, Purpose::Group { .. }) => {
                self.refuse_pieces(&g)?;
                Ok(Verdict::Regroup(g))
            }
            Verdict::Accept { .. } => Ok(self
                .reread_check(items, flight, goes_on, ctx)
                .or_else(|| self.passed_unseen(items, ctx).then_some(Verdict::Disorder))
                .or_else(|| {
                    self.inserted_before_position(items, flight)
                        .then_some(Verdict::Disorder)
                })
                .unwrap_or(verdict)),
            verdict => Ok(verdict),
        }
    }

    /// Whether the next token of an answer to use is one this pass returned before (a cycle,
    /// `b → c → b`: the list ends here). A probe or a group re-read starts a new pass: only an
    /// immediate repeat (an echo, which ended the list before) counts. An overlap re-read that
    /// holds only the overlap item gives back the token it gave before (`pos + 1`): the list did
    /// not move, it is no cycle. `NO_PROGRESS` after `maxChunksWithoutProgress` chunks in a row
    /// that brought nothing new.
    fn check_cycle(
        &self,
        next: Option<&str>,
        flight: &InFlight,
        overlap_only: bool,
        progress: bool,
        ctx: &Ctx<'_>,
    ) -> Result<bool> {
        if matches!(flight.purpose, Purpose::Whole) {
            return Ok(false);
        }
        let new_pass = matches!(
            flight.purpose,
            Purpose::Probe { .. } | Purpose::Group { .. }
        );
        let cycled =
            !new_pass && !overlap_only && next.is_some_and(|t| self.seen_tokens.contains(t));
        if !progress && !cycled && self.stalled >= ctx.max_chunks_without_progress {
            return Err(self.no_progress(format!(
                "{} chunks in a row brought nothing new",
                u64::from(self.stalled) + 1
            )));
        }
        Ok(cycled)
    }

    /// Whether an answer to a continuation (a request with a continue token or an offset past
    /// the start) restarted the list: its first item is at or before the first item the list gave
    /// from its start. Asked with the caller's `!progress` (nothing new in it), that is a proxy or
    /// plugin that drops `continue` or the offset and answers the first chunk again: following its
    /// token would read the same chunk forever (or end the list on an echoed token, losing the
    /// rest). A real continuation starts after the items before it, and an offset list that grew
    /// in front by a whole chunk still brings something new.
    ///
    /// - A Kubernetes list: the list's very first item (the same identity) again, alone, with
    ///   the next token `echoed` (which would end the list), is a restart however little of the
    ///   list was read (a chunk limit of 1). An inclusive cursor also starts a continuation with
    ///   the last item read (the first, when one was read), alone when a label selector drops
    ///   the rest of the chunk, but its next token moves on. A proxy that hands back a new token
    ///   each time (no echo) is caught by `maxChunksWithoutProgress` (`NO_PROGRESS`).
    /// - Offsets, and an item before the first: only once the list was read past its first name.
    ///   Inside a group of equal names, a tie-able source may give any of them first on every
    ///   answer, and an offset list that grew in front by one item answers an offset's item
    ///   again (a re-read, no restart).
    /// - A source read whole is in its own order, not the merge order: only its first item again
    ///   is a restart there.
    /// - A resumed Kubernetes list whose start was not read in this pager (its first item
    ///   unknown): an answer whose next token `echoed` the one sent would end the list there.
    ///   Its apiserver never echoes (its end is an empty continue), so that is a proxy answering
    ///   the first chunk again (which may hold items past W: the merge took only part of it
    ///   before the resume): a restart, even with `progress`.
    ///
    /// `progress`: the answer holds a key above both W and the largest key read.
    pub(super) fn restarts_list(
        &self,
        items: &[(SortKey, bool, P)],
        flight: &InFlight,
        progress: bool,
        echoed: bool,
    ) -> bool {
        let continuation = !flight.token.is_empty() && parse_offset(&flight.token) != Some(0);
        let restart = matches!(flight.purpose, Purpose::Next { .. } | Purpose::WholePart);
        let Some((first, ..)) = items.first().filter(|_| continuation && restart) else {
            return false;
        };
        let Some(list_first) = &self.list_first else {
            return !self.paging.decimal() && echoed;
        };
        if progress {
            return false;
        }
        if !self.paging.decimal() && echoed && items.len() == 1 && first == list_first {
            return true;
        }
        self.list_last.as_ref().is_some_and(|last| {
            last.as_slice() > list_first.primary()
                && (first == list_first || (self.streamed() && first < list_first))
        })
    }
}

/// Whether an item lies before a Kubernetes continue token's resume key `start` (the last key
/// given, relative to the list's prefix: `namespace/name` over all namespaces, `name` in one,
/// then NUL; k8s.io/apiserver/pkg/storage/continue.go), so an exclusive or inclusive
/// continuation cannot start with it: the list was answered from its start (a proxy that drops
/// `continue`). Byte order of the keys, as etcd's; `false` when `start` is no such key.
pub(super) fn starts_before(f: &crate::item::FieldsRef<'_>, start: &str) -> bool {
    let last = start.strip_suffix('\0').unwrap_or(start);
    if last.is_empty() || f.name.is_empty() {
        return false;
    }
    match last.split_once('/') {
        Some((ns, name)) => {
            (f.namespace.as_bytes(), f.name.as_bytes()) < (ns.as_bytes(), name.as_bytes())
        }
        None => f.name.as_bytes() < last.as_bytes(),
    }
}
