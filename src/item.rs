//! What the pager knows of a source and of an item: identities and the fields it sorts and filters on.

use crate::prelude::*;
use serde::{Deserialize, Serialize};

/// The identity of a source: a Kubeapps plugin in one cluster and namespace.
///
/// Matches Kubeapps' `Plugin.name` and `Context {cluster, namespace}`. An empty
/// namespace means "all namespaces". Two sources with the same identity cannot
/// be in one pager.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SourceId {
    /// Kubeapps plugin name, e.g. `helm.packages`.
    pub plugin: String,
    /// Cluster name, e.g. `default`.
    pub cluster: String,
    /// Namespace, e.g. `kubeapps`; empty for all namespaces.
    pub namespace: String,
}

impl SourceId {
    /// Builds an identity from its three parts.
    pub fn new(
        plugin: impl Into<String>,
        cluster: impl Into<String>,
        namespace: impl Into<String>,
    ) -> Self {
        SourceId {
            plugin: plugin.into(),
            cluster: cluster.into(),
            namespace: namespace.into(),
        }
    }

    /// `plugin/cluster/namespace`, the label used in errors and stats.
    pub fn label(&self) -> String {
        format!("{}/{}/{}", self.plugin, self.cluster, self.namespace)
    }

    /// The UTF-8 bytes a key of this source takes in a page token, as
    /// [`PagerOptions::max_key_bytes`](crate::PagerOptions::max_key_bytes) counts them: the sort
    /// value and the identifier, plus the plugin, cluster and namespace that are not this source's.
    pub(crate) fn key_bytes(&self, sort_value: &str, identity: [&str; 4]) -> usize {
        let [plugin, cluster, namespace, identifier] = identity;
        let other = |a: &str, b: &str| if a == b { 0 } else { a.len() };
        sort_value.len()
            + identifier.len()
            + other(plugin, &self.plugin)
            + other(cluster, &self.cluster)
            + other(namespace, &self.namespace)
    }
}

/// The identity of a package: (plugin, cluster, namespace, identifier).
///
/// Kubeapps' `AvailablePackageReference`: the same identifier from two plugins
/// or two namespaces is two different packages.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Identity {
    /// Kubeapps plugin name (`availablePackageRef.plugin.name`).
    pub plugin: String,
    /// `availablePackageRef.context.cluster`.
    pub cluster: String,
    /// `availablePackageRef.context.namespace`.
    pub namespace: String,
    /// `availablePackageRef.identifier`, e.g. `bitnami/apache`.
    pub identifier: String,
}

/// Which of an item's optional key fields the pager reads for one source
/// ([`Pager::fields_read`](crate::Pager::fields_read)): the sort field and what the filter that
/// applies to the source tests. A field it does not read may be given empty (a caller that
/// packs fields, as the wasm boundary does, can leave it out); the plugin, cluster, namespace,
/// identifier and name are always read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldsRead {
    /// `displayName`: the sort field, or searched by the query.
    pub display_name: bool,
    /// `shortDescription`: searched by the query.
    pub short_description: bool,
    /// `categories`: tested by the filter.
    pub categories: bool,
}

/// The fields of one item (a Kubeapps `AvailablePackageSummary`) that the pager
/// sorts, filters and dedupes on. Everything else stays with the caller's object.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ItemFields {
    /// Kubeapps plugin name; defaults to the source's.
    pub plugin: String,
    /// Cluster; defaults to the source's.
    pub cluster: String,
    /// Namespace; defaults to the source's.
    pub namespace: String,
    /// `availablePackageRef.identifier` (`<repo>/<name>` for Helm charts).
    pub identifier: String,
    /// `name`: the merge key of Kubeapps' core API (byte order).
    pub name: String,
    /// `displayName`: the key the dashboard shows (case-insensitive order).
    pub display_name: String,
    /// `shortDescription`.
    pub short_description: String,
    /// `categories`.
    pub categories: Vec<String>,
}

impl ItemFields {
    /// The item's identity.
    pub fn identity(&self) -> Identity {
        Identity {
            plugin: self.plugin.clone(),
            cluster: self.cluster.clone(),
            namespace: self.namespace.clone(),
            identifier: self.identifier.clone(),
        }
    }

    /// The repository: the part of the identifier before the first `/` (all of it when there is none).
    pub fn repository(&self) -> &str {
        self.key_fields().repository()
    }
}

/// An item's key fields, borrowed: what the pager reads of an item, without owning its text.
///
/// [`Chunk`](crate::Chunk) items are anything that gives this view ([`KeyFields`]): an owned
/// [`ItemFields`], or the view itself (the wasm boundary reads the fields of a whole chunk out of
/// one buffer and never copies them into `String`s).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FieldsRef<'a> {
    /// See [`ItemFields::plugin`].
    pub plugin: &'a str,
    /// See [`ItemFields::cluster`].
    pub cluster: &'a str,
    /// See [`ItemFields::namespace`].
    pub namespace: &'a str,
    /// See [`ItemFields::identifier`].
    pub identifier: &'a str,
    /// See [`ItemFields::name`].
    pub name: &'a str,
    /// See [`ItemFields::display_name`].
    pub display_name: &'a str,
    /// See [`ItemFields::short_description`].
    pub short_description: &'a str,
    /// See [`ItemFields::categories`].
    pub categories: Categories<'a>,
}

/// An item's categories, borrowed from `String`s or from string slices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Categories<'a> {
    /// From an [`ItemFields`].
    Owned(&'a [String]),
    /// From slices of a buffer.
    Borrowed(&'a [&'a str]),
}

impl Default for Categories<'_> {
    fn default() -> Self {
        Categories::Borrowed(&[])
    }
}

impl Categories<'_> {
    /// Whether any category satisfies `f`.
    pub fn any(&self, mut f: impl FnMut(&str) -> bool) -> bool {
        match self {
            Categories::Owned(v) => v.iter().any(|c| f(c)),
            Categories::Borrowed(v) => v.iter().any(|c| f(c)),
        }
    }
}

impl<'a> FieldsRef<'a> {
    /// The repository: the part of the identifier before the first `/` (all of it when there is none).
    pub fn repository(&self) -> &'a str {
        // By hand, not `split('/')` (its searcher is code of its own in the wasm: size).
        let end = self
            .identifier
            .bytes()
            .position(|b| b == b'/')
            .unwrap_or(self.identifier.len());
        self.identifier.get(..end).unwrap_or("")
    }
}

/// What a [`Chunk`](crate::Chunk)'s items give the pager: their key fields, borrowed.
pub trait KeyFields {
    /// The key fields.
    fn key_fields(&self) -> FieldsRef<'_>;
}

impl KeyFields for ItemFields {
    fn key_fields(&self) -> FieldsRef<'_> {
        FieldsRef {
            plugin: &self.plugin,
            cluster: &self.cluster,
            namespace: &self.namespace,
            identifier: &self.identifier,
            name: &self.name,
            display_name: &self.display_name,
            short_description: &self.short_description,
            categories: Categories::Owned(&self.categories),
        }
    }
}

impl KeyFields for FieldsRef<'_> {
    fn key_fields(&self) -> FieldsRef<'_> {
        *self
    }
}
