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
        text!(self.plugin, "/", self.cluster, "/", self.namespace)
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
        self.identifier.split('/').next().unwrap_or("")
    }
}
