//! Counters: per page and cumulative.

/// One source's counters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SourceStats {
    /// Backend requests made (answered or failed).
    pub requests: u64,
    /// Items received.
    pub items_scanned: u64,
    /// Items the filter dropped.
    pub filtered_out: u64,
    /// Items dropped because their key was at or behind the watermark.
    pub duplicates_dropped: u64,
    /// Extra requests made to recover from offset drift.
    pub rescans: u64,
    /// 410 Expired answers recovered from.
    pub expired_recoveries: u64,
    /// Answers ignored as superseded, repeated or never asked for.
    pub stale_responses: u64,
}

/// Counters, one entry per source (in option order) plus totals.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    /// Per source.
    pub sources: Vec<SourceStats>,
    /// Items emitted in pages.
    pub items_emitted: u64,
}

impl Stats {
    /// Sum over sources.
    pub fn total(&self) -> SourceStats {
        let mut t = SourceStats::default();
        for s in &self.sources {
            t.requests += s.requests;
            t.items_scanned += s.items_scanned;
            t.filtered_out += s.filtered_out;
            t.duplicates_dropped += s.duplicates_dropped;
            t.rescans += s.rescans;
            t.expired_recoveries += s.expired_recoveries;
            t.stale_responses += s.stale_responses;
        }
        t
    }
}
