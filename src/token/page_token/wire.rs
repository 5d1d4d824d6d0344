//! The constants of the version 1 format that the frame, the writer, the reader and the serde
//! view all hold to: the format version, the limits, the plugin names written as one byte and the
//! `flags` bits that announce optional members (the grammar is in [the module docs](super)).
//!
//! A value changed here is a new format: the golden tokens (tests/golden) hold them fixed.

/// Format version written by this build.
pub const PAGE_TOKEN_VERSION: u8 = 1;
/// Most sources one token may hold.
pub const MAX_SOURCES: usize = 64;
/// Longest token text the decoder reads, in bytes (8 KiB).
pub const MAX_TOKEN_LEN: usize = 8 * 1024;

/// Most anchors one source's position holds ([`SourceState::anchors`](super::SourceState::anchors)).
pub const MAX_ANCHORS: usize = 2;

/// Plugin names written as one byte (`Plugin` tags 1, 2, 3).
pub(super) const KNOWN_PLUGINS: [&str; 3] = [
    "helm.packages",
    "fluxv2.packages",
    "kapp_controller.packages",
];

/// `flags` bit 0: the source's list is no longer one snapshot (`SourceState::inconsistent`).
pub(super) const FLAG_INCONSISTENT: u8 = 1;
/// `flags` bit 1: the source is behind the merge (`SourceState::behind`).
pub(super) const FLAG_BEHIND: u8 = 2;
/// `flags` bit 2: an `anchors` member follows.
pub(super) const FLAG_ANCHORS: u8 = 4;
/// `flags` bit 3: a `late` member follows.
pub(super) const FLAG_LATE: u8 = 8;
