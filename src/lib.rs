//! kubeapps-pager: correct, resumable paging over Kubernetes-style package lists.
//!
//! A pure Rust core (no I/O, no clock, no JS types) with one thin wasm boundary
//! (`src/wasm`, built for `wasm32` only). See `docs/DESIGN.md` for the architecture.
//!
//! The crate is `no_std` (it needs only `core` and `alloc`), so that the shipped wasm can leave
//! out Rust's std and bring its own small panic handler and allocator (feature `std` off; see
//! `Cargo.toml`). Host builds and the default features link std as usual.
#![no_std]
#![warn(missing_docs)]

extern crate alloc;
#[cfg(any(test, feature = "std"))]
extern crate std;

/// What std's prelude gives every module, from `alloc`.
mod prelude {
    pub(crate) use crate::text::text;
    pub use alloc::borrow::ToOwned;
    pub use alloc::format;
    pub use alloc::string::{String, ToString};
    pub use alloc::vec;
    pub use alloc::vec::Vec;
}

pub mod case;
pub mod collation;
pub mod error;
pub mod filter;
pub mod item;
pub mod json;
pub mod options;
pub mod order;
pub mod pager;
pub mod sort;
pub mod text;
pub mod token;
pub mod view;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use collation::Collation;
pub use error::{PagerError, Result, TokenFault};
pub use filter::FilterOptions;
pub use item::{Categories, FieldsRef, Identity, ItemFields, KeyFields, SourceId};
pub use options::{PagerOptions, SourceKind, SourceOrder, SourceSpec};
pub use order::{SortField, SortKey, SortOrder};
pub use pager::{Chunk, ChunkOf, ChunkRequest, Failure, FeedOutcome, Page, Pager, Stats};
pub use token::PageToken;
