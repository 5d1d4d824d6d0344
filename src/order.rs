//! The merge order and its collation: one total order, encoded as comparable bytes.

use crate::item::ItemFields;

/// The merge order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SortOrder {
    /// `name` in byte order (what the Kubeapps core merges by).
    #[default]
    Name,
    /// `displayName`, case-insensitive (what the dashboard shows).
    DisplayName,
}

/// An item's full merge key as bytes whose `memcmp` order is the merge order.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SortKey(pub Vec<u8>);

impl SortOrder {
    /// The full key of an item (see docs/DESIGN.md "One total order").
    pub fn key(self, _item: &ItemFields) -> SortKey {
        unimplemented!("pager core")
    }
}
