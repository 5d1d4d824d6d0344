//! (token codec: to be written)
/// Kubeapps core token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CoreToken;
/// Kubeapps plugin offset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PluginOffset;
