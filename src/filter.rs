//! The client-side filter: Kubeapps' `FilterOptions` plus `plugins`.

use crate::item::ItemFields;

/// Kubeapps `FilterOptions` (`query`, `categories`, `repositories`) plus `plugins`.
/// Every non-empty field must match; an empty field matches everything.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FilterOptions {
    /// Case-insensitive substring of name, displayName, shortDescription or identifier.
    pub query: String,
    /// Any-of, exact.
    pub categories: Vec<String>,
    /// Any-of, exact, against the identifier's part before the first `/`.
    pub repositories: Vec<String>,
    /// Any-of, exact, against the item's plugin name.
    pub plugins: Vec<String>,
}

impl FilterOptions {
    /// Whether an item passes.
    pub fn matches(&self, _item: &ItemFields) -> bool {
        unimplemented!("pager core")
    }
}
