//! kubeapps-pager: correct, resumable paging over Kubernetes-style package lists.
//!
//! A pure Rust core (no I/O, no clock, no JS types) with one thin wasm boundary
//! (`src/wasm`, built for `wasm32` only). See `docs/DESIGN.md` for the architecture.
//!
//! The crate is `no_std` (it needs only `core` and `alloc`: the core does no I/O); the wasm builds
//! link Rust's std through wasm-bindgen, with std's panic handler and allocator.
#![no_std]
#![warn(missing_docs)]

extern crate alloc;
// The core uses only `core` and `alloc`; std is linked for its allocator and panic handler.
extern crate std;

/// What std's prelude gives every module, from `alloc`.
mod prelude {
    pub use alloc::borrow::ToOwned;
    pub use alloc::format;
    pub use alloc::string::{String, ToString};
    #[allow(unused_imports)] // `vec!`: the tests' and a few modules'
    pub use alloc::vec;
    pub use alloc::vec::Vec;
}

pub mod collation;
pub mod error;
pub mod filter;
pub mod item;
pub mod options;
pub mod order;
pub mod pager;
pub mod text;
pub mod token;
// The boundary: its pure conversions (`wasm::view`) on every target, the rest on wasm32 only.
pub mod wasm;

pub use collation::Collation;
pub use error::{PagerError, Result, TokenFault};
pub use filter::{FilterOptions, FilterSide};
pub use item::{Categories, FieldsRead, FieldsRef, Identity, ItemFields, KeyFields, SourceId};
pub use options::{PagerOptions, SourceKind, SourceOrder, SourceSpec};
pub use order::{SortField, SortKey, SortOrder};
pub use pager::{
    fails_for_good, is_transient, Chunk, ChunkOf, ChunkRequest, FailOutcome, Failure, FeedOutcome,
    Page, Pager, PrefetchBudget, Recovery, RetryPolicy, Stats, UnreachableCause, UnreachableSource,
    MAX_FAILURES_IN_A_ROW, MAX_RECOVERIES_IN_A_ROW, MAX_RESTARTS_IN_A_ROW,
};
pub use token::PageToken;
