//! Pager options: the sources, page size, chunk limit, sort order and filter; validation and fingerprint.

use crate::error::Result;
use crate::filter::FilterOptions;
use crate::item::SourceId;
use crate::order::SortOrder;

/// Items per page when none is given.
pub const DEFAULT_PAGE_SIZE: u32 = 20;
/// Items per backend request when none is given (client-go's pager uses 500).
pub const DEFAULT_CHUNK_LIMIT: u32 = 500;
/// Most items a source read whole may hold (`SOURCE_TOO_LARGE` past it).
pub const DEFAULT_MAX_SOURCE_ITEMS: u32 = 10_000;
/// Chunks in a row without a new item before `NO_PROGRESS`.
pub const DEFAULT_MAX_CHUNKS_WITHOUT_PROGRESS: u32 = 256;
/// Largest page size and chunk limit accepted.
pub const MAX_PAGE_SIZE: u32 = 10_000;

/// How a source pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SourceKind {
    /// A Kubernetes list: continue tokens, resourceVersion snapshots, 410 Expired.
    Kubernetes,
    /// A Kubeapps plugin today: decimal item offsets, no snapshot.
    Kubeapps,
    /// Like `Kubeapps`, but the order changes from one request to the next.
    Unordered,
}

/// The order a source streams its items in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SourceOrder {
    /// By `name`, byte order.
    Name,
    /// No order: read whole before merging.
    None,
}

/// One source of a pager.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceSpec {
    /// The source's identity.
    pub id: SourceId,
    /// How it pages.
    pub kind: SourceKind,
    /// Its order; `None` = the kind's default (see docs/DESIGN.md).
    pub order: Option<SourceOrder>,
}

/// Everything a pager is made of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PagerOptions {
    /// The sources, 1 to 64, identities unique.
    pub sources: Vec<SourceSpec>,
    /// Items per page, 1 to 10,000.
    pub page_size: u32,
    /// Items per backend request (`limit`), 1 to 10,000.
    pub chunk_limit: u32,
    /// The merge order.
    pub sort: SortOrder,
    /// The client-side filter.
    pub filter: FilterOptions,
    /// Cap for sources read whole.
    pub max_source_items: u32,
    /// Bound for `NO_PROGRESS`.
    pub max_chunks_without_progress: u32,
}

impl PagerOptions {
    /// Options with defaults for everything but the sources.
    pub fn new(sources: Vec<SourceSpec>) -> Self {
        PagerOptions {
            sources,
            page_size: DEFAULT_PAGE_SIZE,
            chunk_limit: DEFAULT_CHUNK_LIMIT,
            sort: SortOrder::Name,
            filter: FilterOptions::default(),
            max_source_items: DEFAULT_MAX_SOURCE_ITEMS,
            max_chunks_without_progress: DEFAULT_MAX_CHUNKS_WITHOUT_PROGRESS,
        }
    }

    /// Checks every rule; `INVALID_OPTIONS` names the first field that breaks one.
    pub fn validate(&self) -> Result<()> {
        unimplemented!("pager core")
    }

    /// The fingerprint of (filter, sort order, source set) a page token is bound to.
    pub fn fingerprint(&self) -> u64 {
        unimplemented!("pager core")
    }
}
