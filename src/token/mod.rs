//! Token codecs: the pager's own page token, Kubernetes continue tokens,
//! Kubeapps core and plugin tokens, and an inspector that tells them apart.
//!
//! All are pure functions over strings. Every decoder shares the strict
//! base64 rules of [`base64url`], never panics, and allocates in proportion
//! to its input (page tokens: at most 8 KiB of it).
//!
//! Each module imports only the ones below it:
//! - shared pieces, importing no other token module: [`base64url`], [`crc32`], `decimal`
//!   (canonical decimal text), `go_json` (strings as Go's `encoding/json` writes them), `json`
//!   (the formats' JSON read with serde_json), `kind` (a token's kind by its shape);
//! - the foreign formats: [`continue_token`] and [`kubeapps`];
//! - the pager's own [`page_token`] (it stores a continue token by its fields);
//! - [`inspect`], which tries every format.

pub mod base64url;
pub mod continue_token;
pub mod crc32;
pub(crate) mod decimal;
mod go_json;
pub mod inspect;
mod json;
mod kind;
pub mod kubeapps;
pub mod page_token;

pub use continue_token::ContinueToken;
pub use inspect::{inspect_token, TokenInfo, TokenKind};
pub use kubeapps::{CoreToken, PluginOffset};
pub use page_token::{PageToken, SourceState, Watermark};
