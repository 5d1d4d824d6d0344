//! Token codecs: the pager's own page token, Kubernetes continue tokens,
//! Kubeapps core and plugin tokens, and an inspector that tells them apart.
//!
//! All are pure functions over strings. Every decoder shares the strict
//! base64 rules of [`base64url`], never panics, and allocates in proportion
//! to its input (page tokens: at most 8 KiB of it).

pub mod base64url;
pub mod continue_token;
pub mod crc32;
pub mod inspect;
mod json;
pub mod kubeapps;
pub mod page_token;

pub use continue_token::ContinueToken;
pub use inspect::{inspect_token, TokenInfo, TokenKind};
pub use kubeapps::{CoreToken, PluginOffset};
pub use page_token::{PageToken, SourceState, Watermark};
