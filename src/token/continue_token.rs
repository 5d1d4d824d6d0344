//! (token codec: to be written)
/// A decoded Kubernetes continue token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContinueToken;
