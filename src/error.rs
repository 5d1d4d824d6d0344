//! The one error type of the crate, with stable codes.
//!
//! Every failure the pager or the codecs can report is a [`PagerError`]. Its
//! [`code`](PagerError::code) is a stable string that JavaScript callers can
//! `switch` on (`err.code`); [`details`](PagerError::details) carries the
//! structured fields (`reason`, `source`, ...). The wasm boundary turns it into
//! a real JS `Error` with `name === "PagerError"`, `code` and `details`.

use crate::prelude::*;
use serde_json::{json, Value};

use crate::text::hex16;

/// Why a token was rejected: the `reason` in an invalid-token error's details.
///
/// The string form ([`TokenFault::as_str`]) is stable and part of the API.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TokenFault {
    /// The token is longer than the decoder accepts (8 KiB for page tokens).
    TooLong,
    /// The token holds white space (a space, tab or line break), often a copy-paste slip.
    Whitespace,
    /// The token mixes the URL-safe (`-_`) and the standard (`+/`) base64 alphabets.
    MixedAlphabet,
    /// A character outside both base64 alphabets (or `=` where it cannot stand).
    BadCharacter,
    /// `=` padding of the wrong length, or a length no base64 text can have.
    BadPadding,
    /// The token ends early: bytes of its payload or of its integrity check are missing.
    Truncated,
    /// The integrity check does not match: the token was altered.
    Integrity,
    /// A format version this build does not know.
    UnknownVersion,
    /// More sources than the format allows (64).
    TooManySources,
    /// A number that overflows its field or would be negative.
    Overflow,
    /// Text that is not valid UTF-8.
    NotUtf8,
    /// The payload does not have the format's structure.
    Malformed,
    /// Well-formed, but a field breaks a rule of the format (e.g. `rv` 0, an unclean start key).
    InvalidField,
    /// The token is empty where a value is required.
    Empty,
}

impl TokenFault {
    /// The stable string for this reason (`"truncated"`, `"integrity"`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            TokenFault::TooLong => "too-long",
            TokenFault::Whitespace => "whitespace",
            TokenFault::MixedAlphabet => "mixed-alphabet",
            TokenFault::BadCharacter => "bad-character",
            TokenFault::BadPadding => "bad-padding",
            TokenFault::Truncated => "truncated",
            TokenFault::Integrity => "integrity",
            TokenFault::UnknownVersion => "unknown-version",
            TokenFault::TooManySources => "too-many-sources",
            TokenFault::Overflow => "overflow",
            TokenFault::NotUtf8 => "not-utf8",
            TokenFault::Malformed => "malformed",
            TokenFault::InvalidField => "invalid-field",
            TokenFault::Empty => "empty",
        }
    }
}

impl core::fmt::Display for TokenFault {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Every failure of the pager and the codecs. See [`PagerError::code`] for the stable codes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PagerError {
    /// `INVALID_PAGE_TOKEN`: a pager page token (NextPageToken) that cannot be decoded.
    InvalidPageToken {
        /// Why.
        reason: TokenFault,
        /// What is wrong, for people.
        message: String,
    },
    /// `INVALID_CONTINUE_TOKEN`: a Kubernetes continue token that the apiserver would reject.
    InvalidContinueToken {
        /// Why.
        reason: TokenFault,
        /// What is wrong, for people.
        message: String,
    },
    /// `INVALID_KUBEAPPS_TOKEN`: a Kubeapps core or plugin page token that is not valid.
    InvalidKubeappsToken {
        /// Why.
        reason: TokenFault,
        /// What is wrong, for people.
        message: String,
    },
    /// `INVALID_OPTIONS`: pager options (or a state to encode) that break a rule.
    InvalidOptions {
        /// The option's path as JS names it, e.g. `sources[2].plugin`.
        field: String,
        /// What is wrong, for people.
        message: String,
    },
    /// `INVALID_RESPONSE`: a chunk or failure fed back that the pager cannot use.
    InvalidResponse {
        /// The source's label, `plugin/cluster/namespace`.
        source_name: String,
        /// What is wrong, for people.
        message: String,
    },
    /// `FILTER_MISMATCH`: a page token minted under another filter, custom predicate id, sort order or source set.
    FilterMismatch {
        /// The fingerprint of the options given.
        expected: u64,
        /// The fingerprint in the token.
        found: u64,
    },
    /// `NO_PROGRESS`: a source repeats a token or sends chunk after chunk with nothing new.
    NoProgress {
        /// The source's label, `plugin/cluster/namespace`.
        source_name: String,
        /// What is wrong, for people.
        message: String,
    },
    /// `SOURCE_TOO_LARGE`: a source that must be read whole holds more items than the cap.
    SourceTooLarge {
        /// The source's label.
        source_name: String,
        /// The cap (`maxSourceItems`).
        cap: u32,
    },
}

impl PagerError {
    /// The message, for people: what [`Display`](core::fmt::Display) writes, e.g.
    /// `invalid page token (truncated): …` or `invalid options: pageSize: 0 is out of range 1..=10000`.
    pub fn message(&self) -> String {
        match self {
            PagerError::InvalidPageToken { reason, message }
            | PagerError::InvalidContinueToken { reason, message }
            | PagerError::InvalidKubeappsToken { reason, message } => {
                let kind = match self {
                    PagerError::InvalidPageToken { .. } => "page",
                    PagerError::InvalidContinueToken { .. } => "continue",
                    _ => "Kubeapps",
                };
                format!("invalid {kind} token ({}): {message}", reason.as_str())
            }
            PagerError::InvalidOptions { field, message } => {
                format!("invalid options: {field}: {message}")
            }
            PagerError::InvalidResponse {
                source_name,
                message,
            } => format!("invalid response from {source_name}: {message}"),
            PagerError::FilterMismatch { expected, found } => format!("page token was made for another filter, custom predicate, sort order or source set (token fingerprint {}, options fingerprint {})", hex16(*found), hex16(*expected)),
            PagerError::NoProgress {
                source_name,
                message,
            } => format!("source {source_name} makes no progress: {message}"),
            PagerError::SourceTooLarge { source_name, cap } => format!("source {source_name} must be read whole to merge in this order, and holds more than {cap} items"),
        }
    }

    /// The stable code: one of `INVALID_PAGE_TOKEN`, `INVALID_CONTINUE_TOKEN`,
    /// `INVALID_KUBEAPPS_TOKEN`, `INVALID_OPTIONS`, `INVALID_RESPONSE`,
    /// `FILTER_MISMATCH`, `NO_PROGRESS`, `SOURCE_TOO_LARGE`.
    pub fn code(&self) -> &'static str {
        match self {
            PagerError::InvalidPageToken { .. } => "INVALID_PAGE_TOKEN",
            PagerError::InvalidContinueToken { .. } => "INVALID_CONTINUE_TOKEN",
            PagerError::InvalidKubeappsToken { .. } => "INVALID_KUBEAPPS_TOKEN",
            PagerError::InvalidOptions { .. } => "INVALID_OPTIONS",
            PagerError::InvalidResponse { .. } => "INVALID_RESPONSE",
            PagerError::FilterMismatch { .. } => "FILTER_MISMATCH",
            PagerError::NoProgress { .. } => "NO_PROGRESS",
            PagerError::SourceTooLarge { .. } => "SOURCE_TOO_LARGE",
        }
    }

    /// The structured fields of the error, as a JSON object (`err.details` in JS).
    ///
    /// Token errors: `{ reason }`; options: `{ field }`, plus `entry` (the npm entry to import:
    /// `"kubeapps-pager/collation"`) for a collation this build lacks; response and progress
    /// errors: `{ source }`; `FILTER_MISMATCH`: `{ expected, found }` as 16-digit
    /// hex strings; `SOURCE_TOO_LARGE`: `{ source, cap }`.
    pub fn details(&self) -> Value {
        match self {
            PagerError::InvalidPageToken { reason, .. }
            | PagerError::InvalidContinueToken { reason, .. }
            | PagerError::InvalidKubeappsToken { reason, .. } => {
                json!({ "reason": reason.as_str() })
            }
            PagerError::InvalidOptions { field, .. } => match self.entry() {
                Some(entry) => json!({ "field": field, "entry": entry }),
                None => json!({ "field": field }),
            },
            PagerError::InvalidResponse { source_name, .. }
            | PagerError::NoProgress { source_name, .. } => json!({ "source": source_name }),
            PagerError::FilterMismatch { expected, found } => json!({
                "expected": hex16(*expected),
                "found": hex16(*found),
            }),
            PagerError::SourceTooLarge { source_name, cap } => {
                json!({ "source": source_name, "cap": cap })
            }
        }
    }

    /// The npm entry that has what these options asked for, when this build lacks it: a
    /// collation (`field` `collation`) in a build without the `collation` feature.
    pub fn entry(&self) -> Option<&'static str> {
        match self {
            PagerError::InvalidOptions { field, .. }
                if field == "collation" && !crate::collation::AVAILABLE =>
            {
                Some(crate::collation::ENTRY)
            }
            _ => None,
        }
    }

    /// Shorthand for an `INVALID_PAGE_TOKEN` error.
    pub fn page_token(reason: TokenFault, message: impl Into<String>) -> Self {
        PagerError::InvalidPageToken {
            reason,
            message: message.into(),
        }
    }

    /// Shorthand for an `INVALID_CONTINUE_TOKEN` error.
    pub fn continue_token(reason: TokenFault, message: impl Into<String>) -> Self {
        PagerError::InvalidContinueToken {
            reason,
            message: message.into(),
        }
    }

    /// Shorthand for an `INVALID_KUBEAPPS_TOKEN` error.
    pub fn kubeapps_token(reason: TokenFault, message: impl Into<String>) -> Self {
        PagerError::InvalidKubeappsToken {
            reason,
            message: message.into(),
        }
    }

    /// Shorthand for an `INVALID_OPTIONS` error.
    pub fn options(field: impl Into<String>, message: impl Into<String>) -> Self {
        PagerError::InvalidOptions {
            field: field.into(),
            message: message.into(),
        }
    }
}

impl core::fmt::Display for PagerError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.message())
    }
}

impl core::error::Error for PagerError {}

/// The crate's result type.
pub type Result<T, E = PagerError> = core::result::Result<T, E>;
