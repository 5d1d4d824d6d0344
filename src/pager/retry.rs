//! The retry policy for transient failures: which failures pass by waiting, and how long to wait
//! before asking again.
//!
//! Contract: a failure is *transient* when its HTTP status is 429 (Too Many Requests), 502, 503,
//! 504 or 0 (no answer: a network error) ([`is_transient`]); [`Pager::fail`](super::Pager::fail)
//! answers [`FailOutcome::Retry`](super::FailOutcome::Retry) for it. The caller (`nextPage` in
//! JS) waits [`RetryPolicy::delay_ms`] and asks the same request again, at most
//! [`RetryPolicy::retries`] times in one call; then the call fails. The wait is exponential
//! backoff with full jitter (AWS Architecture Blog, "Exponential Backoff And Jitter", 2015): a
//! uniform draw in `[0, min(max, base × 2^(attempt-1)))`, with a server's `Retry-After` (RFC 9110
//! §10.2.3) taken as a floor, and the result capped at `max`. The defaults are TanStack Query's:
//! 3 retries, 1 s base, 30 s cap. No clock, no randomness here: the caller passes its draw.

/// Whether a failure with this HTTP status passes by waiting: 429, 502, 503, 504, or 0 (no answer).
pub fn is_transient(status: u16) -> bool {
    matches!(status, 0 | 429 | 502 | 503 | 504)
}

/// How a transient failure is retried within one call: `retries` more requests at most, waiting
/// an exponential backoff with full jitter between them (see the module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first failure (0: none; the call fails at the first transient failure).
    pub retries: u32,
    /// The first retry's backoff ceiling, in milliseconds; doubled for each later one.
    pub base_delay_ms: u32,
    /// The longest wait, in milliseconds (also caps a server's `Retry-After`).
    pub max_delay_ms: u32,
}

impl Default for RetryPolicy {
    /// TanStack Query's: 3 retries, 1,000 ms base, 30,000 ms cap.
    fn default() -> Self {
        RetryPolicy {
            retries: 3,
            base_delay_ms: 1000,
            max_delay_ms: 30_000,
        }
    }
}

impl RetryPolicy {
    /// No retries: every transient failure fails the call (`retry: false`).
    pub const NONE: RetryPolicy = RetryPolicy {
        retries: 0,
        base_delay_ms: 0,
        max_delay_ms: 0,
    };

    /// The wait before retry number `attempt` (1 for the first retry), in milliseconds, or `None`
    /// when `attempt` is past [`RetryPolicy::retries`] (the call fails). `retry_after_ms`: the
    /// failure's `Retry-After`, in milliseconds, if it gave one (a floor); `unit`: the caller's
    /// uniform draw in `[0, 1)` (clamped into it).
    pub fn delay_ms(&self, attempt: u32, retry_after_ms: Option<u64>, unit: f64) -> Option<u64> {
        if attempt == 0 || attempt > self.retries {
            return None;
        }
        let max = u64::from(self.max_delay_ms);
        let ceiling = u64::from(self.base_delay_ms)
            .saturating_mul(1u64.checked_shl(attempt - 1).unwrap_or(u64::MAX).max(1))
            .min(max);
        // NaN and values outside [0, 1) are clamped: the draw never leaves the window.
        let unit = if unit > 0.0 { unit.min(1.0) } else { 0.0 };
        let jittered = (ceiling as f64 * unit) as u64;
        let floor = retry_after_ms.unwrap_or(0);
        Some(jittered.max(floor).min(max))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn which_statuses_are_transient() {
        for (status, want) in [
            (0, true),
            (429, true),
            (502, true),
            (503, true),
            (504, true),
            (500, false),
            (400, false),
            (401, false),
            (403, false),
            (404, false),
            (410, false),
            (501, false),
        ] {
            assert_eq!(is_transient(status), want, "{status}");
        }
    }

    #[test]
    fn backoff_doubles_under_the_cap_and_the_draw_picks_within_it() {
        let p = RetryPolicy::default();
        // The top of each window: the draw just under 1.
        let top = |attempt| p.delay_ms(attempt, None, 0.999_999).map(|d| d + 1);
        assert_eq!(top(1), Some(1000));
        assert_eq!(top(2), Some(2000));
        assert_eq!(top(3), Some(4000));
        assert_eq!(top(4), None, "three retries, then the call fails");
        assert_eq!(p.delay_ms(0, None, 0.5), None, "attempts count from 1");
        assert_eq!(p.delay_ms(2, None, 0.0), Some(0), "full jitter: from 0");
        assert_eq!(p.delay_ms(2, None, 0.5), Some(1000));
        let long = RetryPolicy {
            retries: 100,
            ..RetryPolicy::default()
        };
        assert_eq!(long.delay_ms(6, None, 1.0), Some(30_000), "capped");
        assert_eq!(long.delay_ms(100, None, 1.0), Some(30_000), "no overflow");
    }

    #[test]
    fn retry_after_is_a_floor_under_the_cap() {
        let p = RetryPolicy::default();
        assert_eq!(p.delay_ms(1, Some(5000), 0.1), Some(5000));
        assert_eq!(
            p.delay_ms(1, Some(10), 0.5),
            Some(500),
            "the draw when larger"
        );
        assert_eq!(p.delay_ms(1, Some(120_000), 0.1), Some(30_000), "capped");
    }

    #[test]
    fn bad_draws_stay_in_the_window_and_no_retries_means_none() {
        let p = RetryPolicy::default();
        assert_eq!(p.delay_ms(1, None, f64::NAN), Some(0));
        assert_eq!(p.delay_ms(1, None, -3.0), Some(0));
        assert_eq!(p.delay_ms(1, None, 7.0), Some(1000));
        assert_eq!(RetryPolicy::NONE.delay_ms(1, None, 0.5), None);
    }
}
