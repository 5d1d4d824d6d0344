//! Partial results: a source that fails for good is set aside, the others go on
//! (docs/DESIGN.md "Partial results"; AIP-217's `unreachable`).
//!
//! A source is *unreachable* after a failure that will not pass by itself
//! ([`fails_for_good`]) or after [`MAX_FAILURES_IN_A_ROW`] failures in a row. An unreachable
//! source bounds nothing in the merge frontier and is asked nothing, so the merge goes on in the
//! same total order without it, and every page names it. It is also *behind*: the merge may
//! consume keys past its position, so its items between its own watermark and the global one
//! were never shown. When it is retried ([`Pager::retry_unreachable`](super::Pager::retry_unreachable))
//! it is read from its own position again, its answers are checked against its own watermark
//! (nothing it gave repeats) and its items up to the global watermark are shown late, as they
//! come, before the merge goes on (nothing it holds is skipped). It stops being behind once it
//! gives an item past the global watermark, or ends.

use super::Failure;
use crate::item::SourceId;
use crate::prelude::*;

/// Failures in a row of one source (each answered by a retry of the same request, none fed in
/// between) after which it is unreachable even though each looked transient (503, 429, a
/// network error): the 5th.
pub const MAX_FAILURES_IN_A_ROW: u32 = 5;

/// Recoveries in a row of one source (410 Expired relists, refused positions re-read from
/// earlier), none answered in between, after which the next such failure is no longer recovered
/// from but counts as a failure ([`FailOutcome::Failed`](super::FailOutcome::Failed)): a server
/// that expires every continue token, or refuses every position, is not waited on forever. 16:
/// a refused position steps back doubling from the chunk limit, so 16 probes reach back
/// `chunk limit × 2^16` items.
pub const MAX_RECOVERIES_IN_A_ROW: u32 = 16;

/// How long a driver waits before it asks a source set aside again on its own (`nextPage` does;
/// [`Pager::retry_unreachable`](super::Pager::retry_unreachable) asks at once), in milliseconds,
/// after its `set_asides`-th set-aside in a row (none answered in between): 5 s the first time,
/// doubling each time, at most 5 minutes.
pub fn reask_delay_ms(set_asides: u32) -> u64 {
    const FIRST_MS: u64 = 5_000;
    const MAX_MS: u64 = 300_000;
    let doublings = set_asides.saturating_sub(1).min(16);
    (FIRST_MS << doublings).min(MAX_MS)
}

/// Whether a failure will not pass by retrying the same request: HTTP 403 (PermissionDenied),
/// 404 (NotFound) or 501 (Unimplemented), the statuses grpc-gateway and Connect give those gRPC
/// codes; or, whatever the status, a `reason` naming one of them: a gRPC code name
/// (`Unimplemented`, `NotFound`, `PermissionDenied`), a Connect code (`unimplemented`,
/// `not_found`, `permission_denied`) or a Kubernetes `Status.reason` (`NotFound`, `Forbidden`),
/// spelled exactly so.
pub fn fails_for_good(failure: &Failure) -> bool {
    matches!(failure.status, 403 | 404 | 501)
        || failure.reason.as_deref().is_some_and(|r| {
            matches!(
                r,
                "Unimplemented"
                    | "unimplemented"
                    | "NotFound"
                    | "not_found"
                    | "PermissionDenied"
                    | "permission_denied"
                    | "Forbidden"
            )
        })
}

/// Whether an apiserver refuses a list request for good: HTTP 400 (`BadRequest`: a label or field
/// selector it cannot parse, a field it cannot select by) or 422 (`Invalid`), or a Kubernetes
/// `Status.reason` `BadRequest` or `Invalid`. The same request is refused again, whatever its
/// continue token: only for a source paging by continue tokens (a 400 at a decimal offset is a
/// vanished position, docs/DESIGN.md "Vanished positions").
pub fn refused_for_good(failure: &Failure) -> bool {
    matches!(failure.status, 400 | 422)
        || failure
            .reason
            .as_deref()
            .is_some_and(|r| matches!(r, "BadRequest" | "Invalid"))
}

/// Why a source is unreachable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnreachableCause {
    /// A failure that will not pass by itself ([`fails_for_good`]).
    FailedForGood,
    /// [`MAX_FAILURES_IN_A_ROW`] failures in a row.
    RepeatedFailures,
    /// Its continuations bring nothing new: each answers the list's start again (a proxy that
    /// drops `continue`), [`MAX_RESTARTS_IN_A_ROW`](super::MAX_RESTARTS_IN_A_ROW) times in a row;
    /// or, read whole by offsets in pieces (a server that caps its answers), it gave an item twice
    /// (its order changes between requests: another was skipped) on as many whole reads in a row.
    NoProgress,
}

impl UnreachableCause {
    /// `"failed-for-good"`, `"repeated-failures"` or `"no-progress"`, as JS sees it.
    pub fn as_str(self) -> &'static str {
        match self {
            UnreachableCause::FailedForGood => "failed-for-good",
            UnreachableCause::RepeatedFailures => "repeated-failures",
            UnreachableCause::NoProgress => "no-progress",
        }
    }
}

/// A source a page lacks, and why (AIP-217's `unreachable`, with the failure).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnreachableSource {
    /// Index of the source in the options' `sources`.
    pub source_index: usize,
    /// The source.
    pub source: SourceId,
    /// Why.
    pub cause: UnreachableCause,
    /// The last failure's HTTP status (0: no answer).
    pub status: u16,
    /// The last failure's reason, if it gave one.
    pub reason: Option<String>,
    /// How long a driver waits, in milliseconds, before it asks the source again on its own
    /// ([`reask_delay_ms`]: 5 s doubling with each set-aside in a row, at most 5 minutes).
    pub retry_after_ms: u64,
}

/// One source's reachability, kept beside its cursor.
#[derive(Debug, Clone, Default)]
pub(crate) struct Reach {
    /// Set while the source is unreachable: (cause, status, reason).
    pub(crate) unreachable: Option<(UnreachableCause, u16, Option<String>)>,
    /// The merge may have gone past this source's position: its items above its own watermark
    /// and up to the global one are shown late, not dropped.
    pub(crate) behind: bool,
    /// Failures in a row (not counting 410s a kubernetes source recovers from).
    failures: u32,
    /// Recoveries in a row (410s, refused positions), bounded by [`MAX_RECOVERIES_IN_A_ROW`].
    recoveries: u32,
    /// Times set aside since it last answered ([`reask_delay_ms`]).
    set_asides: u32,
}

impl Reach {
    /// Whether the source is set aside.
    pub(crate) fn is_unreachable(&self) -> bool {
        self.unreachable.is_some()
    }

    /// An answer came: the failures in a row start over.
    pub(crate) fn answered(&mut self) {
        self.failures = 0;
        self.recoveries = 0;
        self.set_asides = 0;
    }

    /// While set aside: the wait before asking it again on its own ([`reask_delay_ms`]).
    #[cfg(test)]
    fn reask_delay_ms(&self) -> Option<u64> {
        self.view(0, &SourceId::new("p", "c", "n"))
            .map(|u| u.retry_after_ms)
    }

    /// A failure the source can recover from came: whether it may (fewer than
    /// [`MAX_RECOVERIES_IN_A_ROW`] recoveries in a row so far; counted then).
    pub(crate) fn may_recover(&mut self) -> bool {
        if self.recoveries >= MAX_RECOVERIES_IN_A_ROW {
            return false;
        }
        self.recoveries += 1;
        true
    }

    /// A request failed (and was not recovered from): the cause when the source is now
    /// unreachable. `refused`: the cursor found the request itself refused, for good
    /// (`Cursor::refuses_for_good`: an apiserver's 400 or 422, [`refused_for_good`]; a decimal
    /// source's 400 at the list's start).
    pub(crate) fn failed(&mut self, failure: &Failure, refused: bool) -> Option<UnreachableCause> {
        self.failures = self.failures.saturating_add(1);
        let cause = if fails_for_good(failure) || refused {
            UnreachableCause::FailedForGood
        } else if self.failures >= MAX_FAILURES_IN_A_ROW {
            UnreachableCause::RepeatedFailures
        } else {
            return None;
        };
        self.set_aside(cause, failure.status, failure.reason.clone());
        Some(cause)
    }

    /// Sets the source aside for `cause` (with the last failure's status and reason, if any).
    pub(crate) fn set_aside(
        &mut self,
        cause: UnreachableCause,
        status: u16,
        reason: Option<String>,
    ) {
        self.unreachable = Some((cause, status, reason));
        self.behind = true;
        self.set_asides = self.set_asides.saturating_add(1);
    }

    /// Asked again: reachable, still behind, failures start over.
    pub(crate) fn retry(&mut self) -> bool {
        self.failures = 0;
        self.unreachable.take().is_some()
    }

    /// The public view, for source `index`.
    pub(crate) fn view(&self, index: usize, source: &SourceId) -> Option<UnreachableSource> {
        let (cause, status, reason) = self.unreachable.as_ref()?;
        Some(UnreachableSource {
            source_index: index,
            source: source.clone(),
            cause: *cause,
            status: *status,
            reason: reason.clone(),
            retry_after_ms: reask_delay_ms(self.set_asides),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failure(status: u16, reason: Option<&str>) -> Failure {
        Failure {
            status,
            reason: reason.map(Into::into),
            continue_token: None,
        }
    }

    /// The re-ask backoff: 5 s, doubling with each set-aside in a row, at most 5 minutes; an
    /// answer starts it over; none while reachable.
    #[test]
    fn the_reask_backoff_doubles_until_an_answer() {
        let want = [
            5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000,
        ];
        for (n, ms) in (1..).zip(want) {
            assert_eq!(reask_delay_ms(n), ms, "set aside {n} times");
        }
        assert_eq!(reask_delay_ms(u32::MAX), 300_000);
        let mut r = Reach::default();
        assert_eq!(r.reask_delay_ms(), None, "reachable");
        let down = failure(403, None);
        for ms in [5_000, 10_000, 20_000] {
            r.failed(&down, false);
            assert_eq!(r.reask_delay_ms(), Some(ms));
            assert!(r.retry());
            assert_eq!(r.reask_delay_ms(), None);
        }
        r.answered();
        r.failed(&down, false);
        assert_eq!(r.reask_delay_ms(), Some(5_000), "an answer starts it over");
    }

    #[test]
    fn which_failures_are_for_good() {
        for (status, reason, want) in [
            (501, None, true),
            (404, None, true),
            (403, None, true),
            (503, None, false),
            (429, None, false),
            (500, None, false),
            (0, None, false),
            (410, Some("Expired"), false),
            (401, None, false),
            (500, Some("Unimplemented"), true),
            (0, Some("unimplemented"), true),
            (200, Some("not_found"), true),
            (500, Some("PermissionDenied"), true),
            (500, Some("UNIMPLEMENTED"), false),
            (403, Some("Forbidden"), true),
            (503, Some("Unavailable"), false),
            (429, Some("resource_exhausted"), false),
        ] {
            assert_eq!(
                fails_for_good(&failure(status, reason)),
                want,
                "{status} {reason:?}"
            );
        }
    }

    #[test]
    fn repeated_failures_set_a_source_aside_and_an_answer_starts_over() {
        let mut r = Reach::default();
        for _ in 1..MAX_FAILURES_IN_A_ROW {
            assert_eq!(r.failed(&failure(503, None), false), None);
        }
        r.answered();
        for _ in 1..MAX_FAILURES_IN_A_ROW {
            assert_eq!(r.failed(&failure(0, None), false), None);
        }
        assert_eq!(
            r.failed(&failure(429, None), false),
            Some(UnreachableCause::RepeatedFailures)
        );
        assert_eq!(
            r.unreachable,
            Some((UnreachableCause::RepeatedFailures, 429, None))
        );
        assert!(r.behind);
        assert!(r.retry());
        assert!(!r.is_unreachable() && r.behind);
        assert!(!r.retry(), "nothing to retry");
        assert_eq!(
            r.failed(&failure(501, Some("Unimplemented")), false),
            Some(UnreachableCause::FailedForGood)
        );
        let view = r
            .view(2, &SourceId::new("p", "c", "n"))
            .expect("unreachable");
        assert_eq!(view.cause.as_str(), "failed-for-good");
        assert_eq!((view.source_index, view.status), (2, 501));
    }

    #[test]
    fn recoveries_in_a_row_are_bounded_and_an_answer_starts_over() {
        let mut r = Reach::default();
        for _ in 0..MAX_RECOVERIES_IN_A_ROW {
            assert!(r.may_recover());
        }
        assert!(!r.may_recover(), "the 17th recovery in a row is a failure");
        r.answered();
        assert!(r.may_recover());
    }

    #[test]
    fn an_apiserver_refusal_is_for_good_only_for_a_source_paging_by_continue_tokens() {
        for (status, reason) in [
            (400, None),
            (422, None),
            (0, Some("BadRequest")),
            (500, Some("Invalid")),
        ] {
            let f = failure(status, reason);
            assert!(refused_for_good(&f), "{status} {reason:?}");
            assert_eq!(
                Reach::default().failed(&f, true),
                Some(UnreachableCause::FailedForGood),
                "a Kubernetes list: {status} {reason:?}"
            );
            assert_eq!(
                Reach::default().failed(&f, false),
                None,
                "a plugin's offset: {status} {reason:?}"
            );
        }
        assert!(!refused_for_good(&failure(410, Some("Expired"))));
        assert!(!refused_for_good(&failure(503, None)));
    }
}
