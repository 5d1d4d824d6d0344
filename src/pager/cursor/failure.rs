//! Failed requests: 410 Expired, refused positions, cancels.
//!
//! Contract: a 410 on a `kubernetes` source goes on with its inconsistent continue token, else
//! relists from the start (the watermark skips what was seen; the pages say `inconsistent`). A
//! 400 (InvalidArgument) at a decimal offset is a vanished position: re-read from earlier, as
//! after a move back (docs/DESIGN.md "Vanished positions"); at the list's start (`""`, `0`) no
//! position can have vanished: the request itself is refused, for good (`refuses_for_good`: the
//! source is set aside). Anything else only clears the request.

use super::*;
use crate::pager::reach::refused_for_good;

impl<P> Cursor<P> {
    /// Handles a failed request. A 410 on a kubernetes source goes on with the
    /// inconsistent continue token if there is one, else relists from the
    /// start (the watermark skips what was seen); anything else only clears the
    /// request. `INVALID_RESPONSE` when a 410's continue token is too long.
    pub(crate) fn check_failure(&self, failure: &Failure) -> Result<()> {
        if failure
            .continue_token
            .as_ref()
            .is_some_and(|t| t.len() > MAX_TOKEN_LEN)
        {
            return Err(self.invalid(format!("continue token longer than {MAX_TOKEN_LEN} bytes")));
        }
        Ok(())
    }

    /// How the source recovers from this failure by itself (a 410 of a kubernetes source, a
    /// refused decimal position), if it does: no failure of the source's, for `reach.rs`.
    pub(crate) fn recovers_from(&self, failure: &Failure) -> Option<Recovery> {
        if self.paging.decimal() && refuses_position(failure) && !self.asked_from_start() {
            Some(Recovery::RefusedPosition)
        } else if failure.status == 410 && self.spec.kind == SourceKind::Kubernetes {
            Some(Recovery::Expired)
        } else {
            None
        }
    }

    /// Whether this failure refuses the request itself, for good (the same request, or any other,
    /// would be refused again: the source is set aside), never a vanished position:
    /// - a source paging an apiserver list by its continue tokens (a `kubernetes` source not found
    ///   paging by decimal offsets): a 400 or 422 ([`refused_for_good`]);
    /// - a source paged by decimal offsets, asked from the list's start (`""` or `0`: no position
    ///   that a shrunken list could have lost): a 400 or `InvalidArgument` (a filter the plugin
    ///   refuses), or a 422 / `Invalid`. A walk back after a refused position ends there too.
    pub(crate) fn refuses_for_good(&self, failure: &Failure) -> bool {
        if self.paging.decimal() {
            self.asked_from_start() && (refuses_position(failure) || refused_for_good(failure))
        } else {
            self.spec.kind == SourceKind::Kubernetes && refused_for_good(failure)
        }
    }

    /// The request in flight asks from the list's start (`""` or offset 0).
    fn asked_from_start(&self) -> bool {
        self.in_flight
            .as_ref()
            .is_some_and(|f| parse_offset(&f.token) == Some(0))
    }

    /// Clears the request in flight unanswered (its call was aborted): nothing counted, the
    /// position stands. Returns whether one was in flight.
    pub(crate) fn cancel(&mut self) -> bool {
        self.in_flight.take().is_some()
    }

    /// Applies a failure checked by [`Cursor::check_failure`]: the `recovery` that
    /// [`Cursor::recovers_from`] gave (and the pager allowed), else the request is only cleared.
    /// Returns the counters it adds.
    pub(crate) fn fail(&mut self, failure: Failure, recovery: Option<Recovery>) -> SourceStats {
        let mut delta = SourceStats {
            requests: 1,
            ..Default::default()
        };
        let flight = self.in_flight.take();
        match recovery {
            None => return delta,
            Some(Recovery::RefusedPosition) => {
                if let Some(f) = flight {
                    self.vanished(f.purpose, f.limit);
                }
                return delta;
            }
            Some(Recovery::Expired) => {}
        }
        delta.expired_recoveries += 1;
        self.inconsistent = true;
        self.resume = None;
        self.promised = None;
        match failure.continue_token.filter(|t| !t.is_empty()) {
            // The rest of the list at the current revision, after the same key.
            Some(t) => self.next = Some(t),
            None => {
                self.next = Some(String::new());
                // A new list: its chunks (empty ones too, under a selector) start over.
                self.list_last = None;
                self.staging.clear();
                self.seen_tokens.clear();
            }
        }
        delta
    }

    /// A request at a decimal offset was refused as invalid (kapp_controller's 400
    /// InvalidArgument for an offset past the end of its list): the list shrank under the
    /// position. It is re-read from an earlier one, as after a move back (docs/DESIGN.md
    /// "Vanished positions"); asking the same offset again would be refused forever.
    pub(super) fn vanished(&mut self, purpose: Purpose, limit: u32) {
        let (pos, reference) = match purpose {
            Purpose::Next { pos, overlap, .. } => (pos, overlap.or_else(|| self.last_raw.clone())),
            Purpose::Group { pos, group } => (Some(pos), Some(group.reference)),
            Purpose::Probe { pos } => {
                // A probe refused too: step back further.
                if let (Realign::Rescan(r), true) = (&mut self.realign, pos > 0) {
                    r.step = r.step.saturating_mul(2);
                }
                return;
            }
            Purpose::Whole | Purpose::WholePart => {
                // A whole read's later chunk refused (the list shrank under it): the whole read
                // starts over from `""` (its staged items with it).
                self.restart_whole_read();
                return;
            }
        };
        let Some(pos) = pos.filter(|p| *p > 0) else {
            return;
        };
        self.realign = Realign::Aligned;
        self.short_group = None;
        match reference.or_else(|| self.watermark.clone()) {
            Some(reference) => {
                self.start_rescan(Rescan {
                    reference,
                    base: pos,
                    step: 1,
                    span: limit.max(2),
                });
            }
            // Nothing read or consumed from this source: its start is as good a place as any.
            None => {
                self.resume = None;
                self.next = Some(String::new());
            }
        }
    }
}

/// Whether a failed request says its position is invalid: HTTP 400 (gRPC/Connect
/// `InvalidArgument` maps to it), or a reason naming that code, whatever the status.
pub(super) fn refuses_position(failure: &Failure) -> bool {
    failure.status == 400
        || matches!(
            failure.reason.as_deref(),
            Some("InvalidArgument" | "invalid_argument")
        )
}
