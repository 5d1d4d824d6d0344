//! The pager's NextPageToken: every source's position, in one URL-safe string.
//!
//! # Text and frame
//!
//! The token is base64url without padding (RFC 4648 §5, alphabet
//! `A-Z a-z 0-9 - _`) of the frame
//!
//! ```text
//! frame := version:u8  payload  check:u32-LE
//! ```
//!
//! where `check` is the CRC-32 (IEEE, see [`crc32`]) of `version` and
//! `payload`. The frame is the same for every version; this build writes and
//! reads version 1 ([`PAGE_TOKEN_VERSION`]). A token is at most
//! [`MAX_TOKEN_LEN`] (8 KiB) of text and holds at most [`MAX_SOURCES`] (64)
//! sources.
//!
//! # Payload, version 1
//!
//! The payload is the [postcard](https://postcard.jamesmunns.com/wire-format)
//! encoding of the private `WireToken` struct of this module (written by hand;
//! a test checks it against postcard itself), that is:
//!
//! ```text
//! payload   := fingerprint:[u8;8] (u64, little-endian)  page_size:varint  count:varint  source{count}
//! source    := plugin:Plugin  cluster:str  namespace:str  chunk_token:Text  offset:varint
//!              watermark:Option<Mark>  resource_version:Text  exhausted:bool  flags:u8
//!              [anchors]  [late]
//! flags     := bit 0 inconsistent, bit 1 behind, bit 2 `anchors` follows, bit 3 `late` follows
//!              (other bits set: malformed; a token written before `behind` existed has 0 or 1
//!              here, the bool it was; one written before `anchors` and `late` has at most 3)
//! anchors   := n:varint (1 or 2)  hash:[u8;8]{n} (u64, little-endian: xxh64 of an item's merge
//!              key, see SourceState::anchors)
//! late      := 0 (= the watermark) | 1 Mark      (see SourceState::late_watermark)
//! Plugin    := 0 name:str | 1 (= "helm.packages") | 2 (= "fluxv2.packages")
//!            | 3 (= "kapp_controller.packages")
//! Text      := 0 (= "") | 1 text:str | 2 n:varint-u64 (= n in decimal)
//!            | 3 bytes:str (= base64url of the bytes, unpadded)
//!            | 4 rv:zigzag-varint-i64 start:str (= the apiserver's continue token
//!              {"v":"meta.k8s.io/v1","rv":rv,"start":start}, see ContinueToken::encode)
//! Mark      := sort_key:str  plugin:Option<Plugin>  cluster:Option<str>  namespace:Option<str>  Identifier
//!              (an absent plugin, cluster or namespace = the source's own)
//! Identifier:= 0 identifier:str | 1 repo:str (= repo + "/" + sort_key)
//! Option<T> := 0 | 1 T          bool := 0 | 1
//! str       := len:varint  UTF-8 bytes
//! varint    := unsigned LEB128, at most 5 bytes for u32, 10 for u64 (postcard's varint)
//! ```
//!
//! Every compact form is chosen by the encoder only when it writes the
//! original text back byte for byte: `Text 2` only for canonical decimals
//! (`0`, or no leading zero, fitting u64); `Text 4` only when the token
//! decodes as a continue token and re-encodes to the same text; `Text 3` only
//! for canonical unpadded base64url; `Identifier 1` only when the identifier is
//! exactly `repo/sort_key`. Decoding rebuilds the original strings.
//!
//! # Decoding
//!
//! [`PageToken::decode`] fails with `INVALID_PAGE_TOKEN` and a reason
//! ([`TokenFault`]), in this order: `empty`; `too-long` (over 8 KiB of text,
//! before any decoding); the base64 faults of
//! [`base64url`](super::base64url); `truncated` (fewer than 5 bytes, or a check
//! that fails on a frame cut short); `integrity` (the check fails);
//! `unknown-version`; then, in the payload: `too-many-sources` (a count over 64,
//! before allocating anything for it), `overflow` (a varint too long for its
//! field), `not-utf8`, `truncated` (the payload ends inside a field),
//! `malformed` (an unknown tag, a bool or option byte other than 0 or 1, a
//! continue-token form that is not a valid continue token, trailing bytes).
//! Allocation is bounded by the input: see `examples/fuzz_decoders.rs`.

use crate::prelude::*;
use alloc::borrow::Cow;
use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::base64url::{self, DecodeRules};
use super::continue_token::ContinueToken;
use super::crc32;
use crate::error::{PagerError, Result, TokenFault};
use crate::item::{Identity, SourceId};

/// Format version written by this build.
pub const PAGE_TOKEN_VERSION: u8 = 1;
/// Most sources one token may hold.
pub const MAX_SOURCES: usize = 64;
/// Longest token text the decoder reads, in bytes (8 KiB).
pub const MAX_TOKEN_LEN: usize = 8 * 1024;

/// Most anchors one source's position holds ([`SourceState::anchors`]).
pub const MAX_ANCHORS: usize = 2;

/// Plugin names written as one byte (`Plugin` tags 1, 2, 3).
const KNOWN_PLUGINS: [&str; 3] = [
    "helm.packages",
    "fluxv2.packages",
    "kapp_controller.packages",
];

/// The decoded NextPageToken.
///
/// Serde view (camelCase, for JS): `{ fingerprint: "0123456789abcdef",
/// pageSize, sources: [SourceState] }`; `fingerprint` is 16 lowercase hex
/// digits; `pageSize` a whole number in `0..=2^32-1` (reading rejects negative
/// and fractional numbers); `sources` at most 64 (reading stops at the 65th).
///
/// ```
/// use kubeapps_pager::token::PageToken;
///
/// let token = PageToken { fingerprint: 7, page_size: 20, sources: vec![] };
/// let text = token.encode()?; // "AQcAAAAAAAAAFAAAontm": URL-safe as it is
/// assert_eq!(PageToken::decode(&text)?, token);
/// assert_eq!(PageToken::decode(&text[..8]).unwrap_err().code(), "INVALID_PAGE_TOKEN");
/// # Ok::<(), kubeapps_pager::PagerError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PageToken {
    /// Fingerprint of (filter, sort order, source set) the token was minted under.
    #[serde(serialize_with = "write_hex_u64", deserialize_with = "read_hex_u64")]
    pub fingerprint: u64,
    /// Items per page when the token was minted.
    #[serde(deserialize_with = "read_page_size")]
    pub page_size: u32,
    /// One entry per source, idle and exhausted ones included, in the pager's source order.
    #[serde(deserialize_with = "read_sources")]
    pub sources: Vec<SourceState>,
}

/// One source's position.
///
/// Serde view: `{ plugin, cluster, namespace, chunkToken, offset, watermark,
/// resourceVersion, exhausted, inconsistent, behind, anchors?, lateWatermark? }` (the
/// [`SourceId`] is flattened; `behind` may be missing: false; `anchors`, 1 or 2 strings of 16
/// lowercase hex digits, and `lateWatermark` are there only when the position holds them);
/// `watermark` is `null` when absent; `offset` a whole number in `0..=2^32-1`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SourceState {
    /// Which source.
    #[serde(flatten)]
    pub source: SourceId,
    /// The source token that fetched the current chunk, verbatim; `""` = the list's start.
    pub chunk_token: String,
    /// Items of that chunk (as the source returned them, before filtering) already consumed.
    #[serde(deserialize_with = "read_offset")]
    pub offset: u32,
    /// The last item emitted from this source (sort key + identity), if any.
    #[serde(default)]
    pub watermark: Option<Watermark>,
    /// resourceVersion of the snapshot the chunk came from; `""` when the source has none.
    pub resource_version: String,
    /// The source has nothing more to give.
    pub exhausted: bool,
    /// The source's list went on after a 410 Expired, so it is no longer one snapshot.
    pub inconsistent: bool,
    /// The source was unreachable while the merge went past its position: its items above its
    /// own watermark and up to the others' are still to be shown (late), not dropped.
    #[serde(default, deserialize_with = "read_flag")]
    pub behind: bool,
    /// Identity hashes (xxh64 of the merge key, as the pager keeps of the items it reads) of items
    /// of the source's own order that end what it had read, for a source whose order is learned
    /// (docs/DESIGN.md "Order is learned"): a `kubeapps` source that has read past what it
    /// consumed (the last item read: a resume tells an item the merge went past from one inserted
    /// behind W by where it stands against it, and a whole read cuts after it), or a source
    /// read whole after a switch whose late items are pending (the end of its cut, and the last
    /// item consumed before the late ones: a resume cuts by identity, not by the count in
    /// `chunk_token`). Empty for every other position (and in tokens written before it existed).
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        serialize_with = "write_anchors",
        deserialize_with = "read_anchors"
    )]
    pub anchors: Vec<u64>,
    /// A source read whole after a switch, with late items pending: the last late item consumed
    /// (they go in key order: a resume skips the late items at or below it, not a count). `None`
    /// when none was consumed, or in tokens written before it existed (the offset counts them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub late_watermark: Option<Watermark>,
}

/// The last key emitted: the sort field's value plus the item's identity.
///
/// Serde view: `{ sortKey, identity: { plugin, cluster, namespace, identifier } }`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Watermark {
    /// Value of the sort field (`name` or `displayName`) of the item, as the source gave it.
    pub sort_key: String,
    /// The item's identity.
    pub identity: Identity,
}

/// What the frame said besides the token: for [`inspect_token`](super::inspect_token).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FrameInfo {
    /// The format version byte.
    pub version: u8,
    /// Length of the decoded frame (version, payload and check), in bytes.
    pub byte_len: usize,
}

impl PageToken {
    /// Encodes the token: base64url without padding. See the module docs for the layout.
    ///
    /// The text matches `^[A-Za-z0-9_-]*$` and decodes back to `self`
    /// exactly. Errors: `INVALID_PAGE_TOKEN` with `too-many-sources` (over 64
    /// sources) or `too-long` (a text over 8 KiB, e.g. from very long keys or
    /// source tokens).
    pub fn encode(&self) -> Result<String> {
        encode_position(self.fingerprint, self.page_size, self.sources.len(), &|i| {
            self.sources.get(i).map(SourceState::borrowed)
        })
    }

    /// Decodes a token written by this or an earlier version.
    ///
    /// Errors: `INVALID_PAGE_TOKEN` with the reasons listed in the module docs; for a token of
    /// another kind's shape (a Kubernetes continue token, a Kubeapps core or plugin token) the
    /// message begins by naming that kind.
    pub fn decode(token: &str) -> Result<PageToken> {
        decode_frame(token).map(|(token, _)| token).map_err(|e| {
            match (e, super::inspect::other_kind(token)) {
                (PagerError::InvalidPageToken { reason, message }, Some(kind)) => {
                    PagerError::InvalidPageToken {
                        reason,
                        message: format!(
                            "this looks like {kind}, not a page token of this pager; {message}"
                        ),
                    }
                }
                (e, _) => e,
            }
        })
    }
}

/// One source's position, borrowed: a [`SourceState`] as the pager holds it, for
/// [`encode_position`] (which writes the same token as [`PageToken::encode`] of the owned state).
pub(crate) struct SourceRef<'a> {
    pub source: &'a SourceId,
    pub chunk_token: &'a str,
    /// `chunk_token`'s `Text` as [`text_wire`] writes it, when known in advance.
    pub chunk_wire: Option<&'a [u8]>,
    pub offset: u32,
    /// `[sort key, plugin, cluster, namespace, identifier]`: see [`Watermark`].
    pub watermark: Option<[Cow<'a, str>; 5]>,
    pub resource_version: &'a str,
    pub exhausted: bool,
    pub inconsistent: bool,
    pub behind: bool,
    /// See [`SourceState::anchors`].
    pub anchors: Cow<'a, [u64]>,
    /// See [`SourceState::late_watermark`]: `Some(None)` = the watermark itself.
    pub late_watermark: Option<Option<[Cow<'a, str>; 5]>>,
}

impl SourceState {
    /// The state, borrowed.
    pub(crate) fn borrowed(&self) -> SourceRef<'_> {
        fn parts(w: &Watermark) -> [Cow<'_, str>; 5] {
            let i = &w.identity;
            [
                &w.sort_key,
                &i.plugin,
                &i.cluster,
                &i.namespace,
                &i.identifier,
            ]
            .map(|s| Cow::Borrowed(s.as_str()))
        }
        SourceRef {
            source: &self.source,
            chunk_token: &self.chunk_token,
            chunk_wire: None,
            offset: self.offset,
            watermark: self.watermark.as_ref().map(parts),
            resource_version: &self.resource_version,
            exhausted: self.exhausted,
            inconsistent: self.inconsistent,
            behind: self.behind,
            anchors: Cow::Borrowed(&self.anchors),
            late_watermark: self
                .late_watermark
                .as_ref()
                .map(|l| (Some(l) != self.watermark.as_ref()).then(|| parts(l))),
        }
    }
}

impl SourceRef<'_> {
    /// The owned state.
    pub(crate) fn to_state(&self) -> SourceState {
        let owned = |[k, p, c, n, i]: &[Cow<'_, str>; 5]| Watermark {
            sort_key: k.as_ref().into(),
            identity: Identity {
                plugin: p.as_ref().into(),
                cluster: c.as_ref().into(),
                namespace: n.as_ref().into(),
                identifier: i.as_ref().into(),
            },
        };
        let watermark = self.watermark.as_ref().map(owned);
        SourceState {
            source: self.source.clone(),
            chunk_token: self.chunk_token.into(),
            offset: self.offset,
            late_watermark: match &self.late_watermark {
                Some(Some(parts)) => Some(owned(parts)),
                Some(None) => watermark.clone(),
                None => None,
            },
            watermark,
            resource_version: self.resource_version.into(),
            exhausted: self.exhausted,
            inconsistent: self.inconsistent,
            behind: self.behind,
            anchors: self.anchors.to_vec(),
        }
    }
}

/// The page token of a position held as borrowed parts: byte for byte [`PageToken::encode`] of
/// the same state, without copying it first. `source(i)` gives source `i` of `count`, each
/// written as it comes (no list of them is built: a `dyn` getter, so one copy of the code serves
/// the pager and [`PageToken::encode`]).
pub(crate) fn encode_position<'a>(
    fingerprint: u64,
    page_size: u32,
    count: usize,
    source: &dyn Fn(usize) -> Option<SourceRef<'a>>,
) -> Result<String> {
    if count > MAX_SOURCES {
        return Err(PagerError::page_token(
            TokenFault::TooManySources,
            format!("{count} sources; a page token holds at most {MAX_SOURCES}"),
        ));
    }
    let mut frame = Writer(Vec::with_capacity(256));
    frame.0.push(PAGE_TOKEN_VERSION);
    write_payload(&mut frame, fingerprint, page_size, count, source);
    let mut frame = frame.0;
    let check = crc32::crc32(&frame);
    frame.extend_from_slice(&check.to_le_bytes());
    let text_len = base64url::encoded_len(frame.len());
    if text_len > MAX_TOKEN_LEN {
        return Err(PagerError::page_token(
            TokenFault::TooLong,
            format!("the token would be {text_len} characters; at most {MAX_TOKEN_LEN} are allowed: the sources' keys and tokens together are too long"),
        ));
    }
    Ok(base64url::encode(&frame))
}

/// The version 1 payload (see the module docs; the fields of `WireToken`, in order).
fn write_payload<'a>(
    w: &mut Writer,
    fingerprint: u64,
    page_size: u32,
    count: usize,
    source: &dyn Fn(usize) -> Option<SourceRef<'a>>,
) {
    w.0.extend_from_slice(&fingerprint.to_le_bytes());
    w.varint(page_size.into());
    w.varint(count as u64);
    for i in 0..count {
        // Always `Some` for `i < count`: the getters are `get(i)` of a list of `count` (not
        // indexing: no panic path, size). A `None` would be a bug: a token with fewer sources
        // than its count says.
        let s = source(i);
        debug_assert!(s.is_some(), "source {i} of {count} missing");
        if let Some(s) = s {
            WireSource::new(&s).write(w);
        }
    }
}

/// The `Text` field of `text` as a page token writes it: computed once for a text that a
/// token will hold many times (a buffered chunk's token), then written as it is.
pub(crate) fn text_wire(text: &str) -> Vec<u8> {
    let mut w = Writer(Vec::new());
    WireText::new(text).write(&mut w);
    w.0
}

/// Decodes a token and tells its frame's version and length.
pub(crate) fn decode_frame(token: &str) -> Result<(PageToken, FrameInfo)> {
    if token.is_empty() {
        return Err(PagerError::page_token(
            TokenFault::Empty,
            "the page token is empty (the first page needs no token)",
        ));
    }
    let rules = DecodeRules {
        max_len: Some(MAX_TOKEN_LEN),
        url_only: false,
    };
    let frame = base64url::decode_with(token, rules)
        .map_err(|e| PagerError::page_token(e.fault, e.message))?;
    let info = FrameInfo {
        version: frame.first().copied().unwrap_or(0),
        byte_len: frame.len(),
    };
    // `split_last_chunk`: no index or split panic paths (size).
    let Some((body, check)) = frame
        .split_last_chunk::<4>()
        .filter(|(body, _)| !body.is_empty())
    else {
        return Err(PagerError::page_token(
            TokenFault::Truncated,
            format!(
                "{} bytes: too short to be a page token (cut short?)",
                frame.len()
            ),
        ));
    };
    if crc32::crc32(body) != u32::from_le_bytes(*check) {
        return Err(diagnose_damage(&frame));
    }
    if info.version != PAGE_TOKEN_VERSION {
        return Err(PagerError::page_token(
            TokenFault::UnknownVersion,
            format!(
                "format version {}; this build reads version {PAGE_TOKEN_VERSION}",
                info.version
            ),
        ));
    }
    let mut reader = Reader {
        buf: body.get(1..).unwrap_or_default(),
        pos: 0,
    };
    let token = read_token(&mut reader).map_err(WireError::into_pager)?;
    if reader.pos != reader.buf.len() {
        return Err(PagerError::page_token(
            TokenFault::Malformed,
            format!(
                "{} bytes after the last field",
                reader.buf.len() - reader.pos
            ),
        ));
    }
    Ok((token, info))
}

/// Tells a frame cut short from one altered, once its check has failed.
///
/// Reads everything after the version byte as a payload: when that runs out
/// inside a field, or leaves fewer than the 4 check bytes after it, bytes are
/// missing (`truncated`); otherwise the frame was altered (`integrity`).
fn diagnose_damage(frame: &[u8]) -> PagerError {
    let cut = "the token was cut short: its last characters are missing";
    if let Some((&PAGE_TOKEN_VERSION, payload)) = frame.split_first() {
        let mut reader = Reader {
            buf: payload,
            pos: 0,
        };
        match read_token(&mut reader) {
            Err(e) if e.fault == TokenFault::Truncated => {
                return PagerError::page_token(TokenFault::Truncated, cut);
            }
            Ok(_) if reader.buf.len() - reader.pos < 4 => {
                return PagerError::page_token(TokenFault::Truncated, cut);
            }
            _ => {}
        }
    }
    PagerError::page_token(
        TokenFault::Integrity,
        "the integrity check does not match: the token was altered or mistyped",
    )
}

// ---------------------------------------------------------------------------
// Writing: the wire structs, written by hand in postcard's encoding (the
// layout of the module docs; the golden tokens in tests/golden hold it fixed).

/// The version 1 payload (see the module docs): [`write_payload`] writes it field by field; the
/// struct itself is only for the tests, which check that writing against postcard's.
#[cfg(test)]
#[derive(Serialize)]
struct WireToken<'a> {
    fingerprint: [u8; 8],
    page_size: u32,
    sources: Vec<WireSource<'a>>,
}

#[cfg_attr(test, derive(Serialize))]
struct WireSource<'a> {
    plugin: WirePlugin<'a>,
    cluster: &'a str,
    namespace: &'a str,
    chunk_token: WireText<'a>,
    offset: u32,
    watermark: Option<WireMark<'a>>,
    resource_version: WireText<'a>,
    exhausted: bool,
    /// Bit 0 `inconsistent`, bit 1 `behind`, bit 2 `anchors` follows, bit 3 `late` follows.
    flags: u8,
    /// Written only when flag bit 2 is set (not a postcard `Option`: older tokens lack it).
    #[cfg_attr(test, serde(skip))]
    anchors: &'a [u64],
    /// Written only when flag bit 3 is set: `None` = the watermark itself.
    #[cfg_attr(test, serde(skip))]
    late: Option<Option<WireMark<'a>>>,
}

/// `Plugin`: tag 0 and the name, or the tag of a well-known name.
#[cfg_attr(test, derive(Serialize))]
enum WirePlugin<'a> {
    Other(&'a str),
    Helm,
    Flux,
    Kapp,
}

/// `Text`: tags 0 to 4, in this order.
#[cfg_attr(test, derive(Serialize))]
enum WireText<'a> {
    Empty,
    Plain(&'a str),
    Decimal(u64),
    Base64Url(Vec<u8>),
    Continue {
        rv: i64,
        start: String,
    },
    /// One of the forms above, already written ([`text_wire`]).
    #[cfg_attr(test, serde(skip))]
    Written(&'a [u8]),
}

#[cfg_attr(test, derive(Serialize))]
struct WireMark<'a> {
    sort_key: &'a str,
    plugin: Option<WirePlugin<'a>>,
    cluster: Option<&'a str>,
    namespace: Option<&'a str>,
    identifier: WireIdentifier<'a>,
}

/// `Identifier`: tag 0 and the identifier, or tag 1 and the repository.
#[cfg_attr(test, derive(Serialize))]
enum WireIdentifier<'a> {
    Full(&'a str),
    RepoSlashKey(&'a str),
}

/// The frame being written: postcard's primitives (see the module docs).
struct Writer(Vec<u8>);

impl Writer {
    /// Unsigned LEB128: 7 bits a byte, low bits first, high bit = more follow.
    fn varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.0.push(v as u8 | 0x80);
            v >>= 7;
        }
        self.0.push(v as u8);
    }

    /// A signed number, zigzag-mapped (0, -1, 1, -2, ... to 0, 1, 2, 3, ...) then a varint.
    fn zigzag(&mut self, v: i64) {
        self.varint(((v << 1) ^ (v >> 63)) as u64);
    }

    /// Length-prefixed bytes (`str`, and `Text 3`'s bytes).
    fn bytes(&mut self, b: &[u8]) {
        self.varint(b.len() as u64);
        self.0.extend_from_slice(b);
    }

    fn str(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }

    /// A bool, or an option's tag.
    fn flag(&mut self, b: bool) {
        self.0.push(u8::from(b));
    }

    fn option<T>(&mut self, v: &Option<T>, write: impl FnOnce(&mut Self, &T)) {
        self.flag(v.is_some());
        if let Some(v) = v {
            write(self, v);
        }
    }
}

impl WireSource<'_> {
    fn write(&self, w: &mut Writer) {
        self.plugin.write(w);
        w.str(self.cluster);
        w.str(self.namespace);
        self.chunk_token.write(w);
        w.varint(self.offset.into());
        w.option(&self.watermark, |w, m| m.write(w));
        self.resource_version.write(w);
        w.flag(self.exhausted);
        w.0.push(self.flags);
        if self.flags & FLAG_ANCHORS != 0 {
            w.varint(self.anchors.len() as u64);
            for h in self.anchors {
                w.0.extend_from_slice(&h.to_le_bytes());
            }
        }
        if let Some(late) = &self.late {
            w.option(late, |w, m| m.write(w));
        }
    }
}

/// `flags` bit 2: an `anchors` member follows.
const FLAG_ANCHORS: u8 = 4;
/// `flags` bit 3: a `late` member follows.
const FLAG_LATE: u8 = 8;

impl WirePlugin<'_> {
    fn write(&self, w: &mut Writer) {
        match self {
            WirePlugin::Other(name) => {
                w.varint(0);
                w.str(name);
            }
            WirePlugin::Helm => w.varint(1),
            WirePlugin::Flux => w.varint(2),
            WirePlugin::Kapp => w.varint(3),
        }
    }
}

impl WireText<'_> {
    fn write(&self, w: &mut Writer) {
        match self {
            WireText::Empty => w.varint(0),
            WireText::Plain(text) => {
                w.varint(1);
                w.str(text);
            }
            WireText::Decimal(n) => {
                w.varint(2);
                w.varint(*n);
            }
            WireText::Base64Url(bytes) => {
                w.varint(3);
                w.bytes(bytes);
            }
            WireText::Continue { rv, start } => {
                w.varint(4);
                w.zigzag(*rv);
                w.str(start);
            }
            WireText::Written(bytes) => w.0.extend_from_slice(bytes),
        }
    }
}

impl WireMark<'_> {
    fn write(&self, w: &mut Writer) {
        w.str(self.sort_key);
        w.option(&self.plugin, |w, p| p.write(w));
        w.option(&self.cluster, |w, c| w.str(c));
        w.option(&self.namespace, |w, n| w.str(n));
        match self.identifier {
            WireIdentifier::Full(id) => {
                w.varint(0);
                w.str(id);
            }
            WireIdentifier::RepoSlashKey(repo) => {
                w.varint(1);
                w.str(repo);
            }
        }
    }
}

#[cfg(test)]
impl<'a> WireToken<'a> {
    fn new(fingerprint: u64, page_size: u32, sources: &'a [SourceRef<'_>]) -> Self {
        WireToken {
            fingerprint: fingerprint.to_le_bytes(),
            page_size,
            sources: sources.iter().map(WireSource::new).collect(),
        }
    }
}

impl<'a> WireSource<'a> {
    fn new(s: &'a SourceRef<'_>) -> Self {
        WireSource {
            plugin: WirePlugin::new(&s.source.plugin),
            cluster: &s.source.cluster,
            namespace: &s.source.namespace,
            chunk_token: match s.chunk_wire {
                Some(bytes) => WireText::Written(bytes),
                None => WireText::new(s.chunk_token),
            },
            offset: s.offset,
            watermark: s
                .watermark
                .as_ref()
                .map(|parts| WireMark::new(parts.each_ref().map(|p| p.as_ref()), s.source)),
            resource_version: WireText::new(s.resource_version),
            exhausted: s.exhausted,
            flags: u8::from(s.inconsistent)
                | u8::from(s.behind) << 1
                | if s.anchors.is_empty() {
                    0
                } else {
                    FLAG_ANCHORS
                }
                | if s.late_watermark.is_some() {
                    FLAG_LATE
                } else {
                    0
                },
            anchors: s.anchors.get(..MAX_ANCHORS).unwrap_or(&s.anchors),
            late: s.late_watermark.as_ref().map(|l| {
                l.as_ref()
                    .map(|parts| WireMark::new(parts.each_ref().map(|p| p.as_ref()), s.source))
            }),
        }
    }
}

impl<'a> WirePlugin<'a> {
    fn new(name: &'a str) -> Self {
        match KNOWN_PLUGINS.iter().position(|&k| k == name) {
            Some(0) => WirePlugin::Helm,
            Some(1) => WirePlugin::Flux,
            Some(_) => WirePlugin::Kapp,
            None => WirePlugin::Other(name),
        }
    }
}

impl<'a> WireText<'a> {
    /// The most compact form that gives back `text` byte for byte.
    fn new(text: &'a str) -> Self {
        if text.is_empty() {
            return WireText::Empty;
        }
        if let Some(n) = canonical_decimal(text) {
            return WireText::Decimal(n);
        }
        if let Some(ct) = ContinueToken::decode_canonical(text) {
            return WireText::Continue {
                rv: ct.resource_version,
                start: ct.start,
            };
        }
        let url_only = DecodeRules {
            max_len: None,
            url_only: true,
        };
        if let Ok(bytes) = base64url::decode_with(text, url_only) {
            if base64url::encode(&bytes) == text {
                return WireText::Base64Url(bytes);
            }
        }
        WireText::Plain(text)
    }
}

/// `text` as a number when it is exactly how that number is written in decimal: ASCII digits,
/// no sign, no leading zero (`0` itself aside), within u64. By hand: `str::parse` brings its
/// general radix parser into the wasm (size).
pub(crate) fn canonical_decimal(text: &str) -> Option<u64> {
    canonical_decimal_bytes(text.as_bytes())
}

/// [`canonical_decimal`] of bytes.
pub(crate) fn canonical_decimal_bytes(b: &[u8]) -> Option<u64> {
    if b.is_empty() || (b.len() > 1 && b.first() == Some(&b'0')) {
        return None;
    }
    let mut n: u64 = 0;
    for &c in b {
        let digit = c.wrapping_sub(b'0');
        if digit > 9 {
            return None;
        }
        n = n.checked_mul(10)?.checked_add(u64::from(digit))?;
    }
    Some(n)
}

impl<'a> WireMark<'a> {
    /// `[sort key, plugin, cluster, namespace, identifier]` of a watermark of `source`.
    fn new(parts: [&'a str; 5], source: &SourceId) -> Self {
        let [sort_key, plugin, cluster, namespace, identifier] = parts;
        let repo = identifier
            .strip_suffix(sort_key)
            .and_then(|head| head.strip_suffix('/'));
        WireMark {
            sort_key,
            plugin: (plugin != source.plugin).then(|| WirePlugin::new(plugin)),
            cluster: (cluster != source.cluster).then_some(cluster),
            namespace: (namespace != source.namespace).then_some(namespace),
            identifier: match repo {
                Some(repo) => WireIdentifier::RepoSlashKey(repo),
                None => WireIdentifier::Full(identifier),
            },
        }
    }
}

// ---------------------------------------------------------------------------
// Reading: by hand, so that every fault has its own reason and nothing is
// allocated before it is checked (postcard folds serde's errors into one
// variant and sizes collections from the input).

/// A payload fault: the reason, what was being read, and where.
struct WireError {
    fault: TokenFault,
    what: &'static str,
    at: usize,
}

impl WireError {
    fn into_pager(self) -> PagerError {
        let why = match self.fault {
            TokenFault::Truncated => "ends inside",
            TokenFault::Overflow => "has a number too large for",
            TokenFault::NotUtf8 => "has text that is not UTF-8 in",
            TokenFault::TooManySources => "has too many sources (at most 64) in",
            _ => "has a malformed",
        };
        PagerError::page_token(
            self.fault,
            format!("the token {why} {} (payload byte {})", self.what, self.at),
        )
    }
}

type WireResult<T> = core::result::Result<T, WireError>;

/// A cursor over the payload bytes.
struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn fail<T>(&self, fault: TokenFault, what: &'static str) -> WireResult<T> {
        Err(WireError {
            fault,
            what,
            at: self.pos,
        })
    }

    fn take(&mut self, n: usize, what: &'static str) -> WireResult<&'a [u8]> {
        match self
            .pos
            .checked_add(n)
            .and_then(|end| self.buf.get(self.pos..end))
        {
            Some(bytes) => {
                self.pos += n;
                Ok(bytes)
            }
            None => self.fail(TokenFault::Truncated, what),
        }
    }

    fn byte(&mut self, what: &'static str) -> WireResult<u8> {
        match self.buf.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => self.fail(TokenFault::Truncated, what),
        }
    }

    /// An unsigned LEB128 varint of at most `bits` bits, as postcard reads it.
    fn varint(&mut self, bits: u32, what: &'static str) -> WireResult<u64> {
        let max_bytes = bits.div_ceil(7);
        let mut value = 0u64;
        for i in 0..max_bytes {
            let b = self.byte(what)?;
            value |= u64::from(b & 0x7F) << (7 * i);
            if b & 0x80 == 0 {
                // The last byte may only carry the bits the type has left.
                if i + 1 == max_bytes && u32::from(b) >> (bits - 7 * i) != 0 {
                    return self.fail(TokenFault::Overflow, what);
                }
                return Ok(value);
            }
        }
        self.fail(TokenFault::Overflow, what)
    }

    fn u32(&mut self, what: &'static str) -> WireResult<u32> {
        // A 32-bit varint holds at most u32::MAX.
        self.varint(32, what).map(|v| v as u32)
    }

    fn u64(&mut self, what: &'static str) -> WireResult<u64> {
        self.varint(64, what)
    }

    fn i64(&mut self, what: &'static str) -> WireResult<i64> {
        let zigzag = self.varint(64, what)?;
        Ok((zigzag >> 1) as i64 ^ -((zigzag & 1) as i64))
    }

    #[inline(never)] // one copy for the eight fields that read text (size)
    fn str(&mut self, what: &'static str) -> WireResult<String> {
        let bytes = self.str_bytes(what)?;
        match core::str::from_utf8(bytes) {
            Ok(s) => Ok(s.to_owned()),
            Err(_) => self.fail(TokenFault::NotUtf8, what),
        }
    }

    fn str_bytes(&mut self, what: &'static str) -> WireResult<&'a [u8]> {
        let len = self.u32(what)?;
        self.take(len as usize, what)
    }

    /// A bool or an option tag: 0 or 1.
    fn flag(&mut self, what: &'static str) -> WireResult<bool> {
        match self.byte(what)? {
            0 => Ok(false),
            1 => Ok(true),
            _ => {
                self.pos -= 1;
                self.fail(TokenFault::Malformed, what)
            }
        }
    }

    /// An enum tag below `variants`.
    fn tag(&mut self, variants: u32, what: &'static str) -> WireResult<u32> {
        let start = self.pos;
        let tag = self.u32(what)?;
        if tag >= variants {
            self.pos = start;
            return self.fail(TokenFault::Malformed, what);
        }
        Ok(tag)
    }
}

fn read_token(r: &mut Reader) -> WireResult<PageToken> {
    // Little-endian, folded from the last byte (no `copy_from_slice` length panic; size).
    let fingerprint = r.take(8, "fingerprint")?;
    let fingerprint = fingerprint
        .iter()
        .rev()
        .fold(0u64, |v, &b| (v << 8) | u64::from(b));
    let page_size = r.u32("page size")?;
    let count = r.u32("source count")?;
    // Checked before anything is allocated for the sources.
    if count as usize > MAX_SOURCES {
        return r.fail(TokenFault::TooManySources, "source count");
    }
    let mut sources = Vec::with_capacity(count as usize);
    for _ in 0..count {
        sources.push(read_source(r)?);
    }
    Ok(PageToken {
        fingerprint,
        page_size,
        sources,
    })
}

fn read_source(r: &mut Reader) -> WireResult<SourceState> {
    // Filled in place: a field that fails to read drops the one partial state, not each string
    // read so far on its own path (size).
    let mut st = SourceState {
        source: SourceId {
            plugin: String::new(),
            cluster: String::new(),
            namespace: String::new(),
        },
        chunk_token: String::new(),
        offset: 0,
        watermark: None,
        resource_version: String::new(),
        exhausted: false,
        inconsistent: false,
        behind: false,
        anchors: Vec::new(),
        late_watermark: None,
    };
    st.source.plugin = read_plugin(r, "source plugin")?;
    st.source.cluster = r.str("source cluster")?;
    st.source.namespace = r.str("source namespace")?;
    st.chunk_token = read_text(r, "chunk token")?;
    st.offset = r.u32("offset")?;
    if r.flag("watermark")? {
        st.watermark = Some(read_mark(r, &st.source)?);
    }
    st.resource_version = read_text(r, "resource version")?;
    st.exhausted = r.flag("exhausted flag")?;
    let flags = r.byte("flags")?;
    if flags > 15 {
        r.pos -= 1;
        return r.fail(TokenFault::Malformed, "flags");
    }
    st.inconsistent = flags & 1 != 0;
    st.behind = flags & 2 != 0;
    if flags & FLAG_ANCHORS != 0 {
        let start = r.pos;
        let n = r.u32("anchors")? as usize;
        if n == 0 || n > MAX_ANCHORS {
            r.pos = start;
            return r.fail(TokenFault::Malformed, "anchors");
        }
        for _ in 0..n {
            let bytes = r.take(8, "anchors")?;
            let h = bytes
                .iter()
                .rev()
                .fold(0u64, |v, &b| (v << 8) | u64::from(b));
            st.anchors.push(h);
        }
    }
    if flags & FLAG_LATE != 0 {
        st.late_watermark = if r.flag("late watermark")? {
            Some(read_mark(r, &st.source)?)
        } else if st.watermark.is_some() {
            st.watermark.clone()
        } else {
            // "The watermark" with none: not a token this pager writes.
            r.pos -= 1;
            return r.fail(TokenFault::Malformed, "late watermark");
        };
    }
    Ok(st)
}

fn read_plugin(r: &mut Reader, what: &'static str) -> WireResult<String> {
    match r.tag(4, what)? {
        0 => r.str(what),
        n => Ok(KNOWN_PLUGINS
            .get(n as usize - 1)
            .copied()
            .unwrap_or_default()
            .to_owned()),
    }
}

fn read_text(r: &mut Reader, what: &'static str) -> WireResult<String> {
    match r.tag(5, what)? {
        0 => Ok(String::new()),
        1 => r.str(what),
        2 => Ok(format!("{}", r.u64(what)?)),
        3 => Ok(base64url::encode(r.str_bytes(what)?)),
        _ => {
            let at = r.pos;
            let rv = r.i64(what)?;
            let start = r.str(what)?;
            // Only valid continue tokens are written in this form.
            ContinueToken::new(rv, start)
                .encode()
                .map_err(|_| WireError {
                    fault: TokenFault::Malformed,
                    what,
                    at,
                })
        }
    }
}

fn read_mark(r: &mut Reader, source: &SourceId) -> WireResult<Watermark> {
    // Filled in place, as in `read_source`.
    let mut mark = Watermark {
        sort_key: r.str("watermark sort key")?,
        identity: Identity {
            plugin: String::new(),
            cluster: String::new(),
            namespace: String::new(),
            identifier: String::new(),
        },
    };
    let id = &mut mark.identity;
    id.plugin = if r.flag("watermark plugin")? {
        read_plugin(r, "watermark plugin")?
    } else {
        source.plugin.clone()
    };
    id.cluster = if r.flag("watermark cluster")? {
        r.str("watermark cluster")?
    } else {
        source.cluster.clone()
    };
    id.namespace = if r.flag("watermark namespace")? {
        r.str("watermark namespace")?
    } else {
        source.namespace.clone()
    };
    id.identifier = match r.tag(2, "watermark identifier")? {
        0 => r.str("watermark identifier")?,
        _ => {
            let repo = r.str("watermark identifier")?;
            let mut full = String::with_capacity(repo.len() + 1 + mark.sort_key.len());
            full.push_str(&repo);
            full.push('/');
            full.push_str(&mark.sort_key);
            full
        }
    };
    Ok(mark)
}

// ---------------------------------------------------------------------------
// Serde view helpers.

fn write_hex_u64<S: Serializer>(v: &u64, s: S) -> core::result::Result<S::Ok, S::Error> {
    s.serialize_str(&crate::text::hex16(*v))
}

fn read_hex_u64<'de, D: Deserializer<'de>>(d: D) -> core::result::Result<u64, D::Error> {
    let text = String::deserialize(d)?;
    match hex_u64(&text) {
        Some(v) => Ok(v),
        None => Err(de::Error::custom(format!(
            "fingerprint must be 16 lowercase hex digits, not {}",
            crate::text::shown(&text)
        ))),
    }
}

/// `anchors` as 16 lowercase hex digits each.
fn write_anchors<S: Serializer>(v: &[u64], s: S) -> core::result::Result<S::Ok, S::Error> {
    s.collect_seq(v.iter().map(|h| crate::text::hex16(*h)))
}

/// `anchors`: at most [`MAX_ANCHORS`] strings of 16 lowercase hex digits.
fn read_anchors<'de, D: Deserializer<'de>>(d: D) -> core::result::Result<Vec<u64>, D::Error> {
    let texts = Option::<Vec<String>>::deserialize(d)?.unwrap_or_default();
    if texts.len() > MAX_ANCHORS {
        return Err(de::Error::custom(format!(
            "anchors: a position holds at most {MAX_ANCHORS}"
        )));
    }
    texts
        .iter()
        .map(|t| {
            hex_u64(t).ok_or_else(|| {
                de::Error::custom(format!(
                    "anchors must be 16 lowercase hex digits each, not {}",
                    crate::text::shown(t)
                ))
            })
        })
        .collect()
}

/// 16 lowercase hex digits as a u64.
fn hex_u64(text: &str) -> Option<u64> {
    let well_formed =
        text.len() == 16 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    u64::from_str_radix(text, 16).ok().filter(|_| well_formed)
}

/// Reads at most [`MAX_SOURCES`] sources, refusing a longer list before
/// allocating for it (from its announced length) or while reading it.
fn read_sources<'de, D: Deserializer<'de>>(
    d: D,
) -> core::result::Result<Vec<SourceState>, D::Error> {
    struct Bounded;
    impl<'de> Visitor<'de> for Bounded {
        type Value = Vec<SourceState>;
        fn expecting(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
            write!(f, "a list of at most {MAX_SOURCES} sources")
        }
        fn visit_seq<A: de::SeqAccess<'de>>(
            self,
            mut seq: A,
        ) -> core::result::Result<Self::Value, A::Error> {
            let too_many =
                || de::Error::custom(format!("sources: a page token holds at most {MAX_SOURCES}"));
            if seq.size_hint().is_some_and(|n| n > MAX_SOURCES) {
                return Err(too_many());
            }
            let mut sources = Vec::with_capacity(seq.size_hint().unwrap_or(0));
            while let Some(source) = seq.next_element()? {
                if sources.len() == MAX_SOURCES {
                    return Err(too_many());
                }
                sources.push(source);
            }
            Ok(sources)
        }
    }
    d.deserialize_seq(Bounded)
}

fn read_page_size<'de, D: Deserializer<'de>>(d: D) -> core::result::Result<u32, D::Error> {
    d.deserialize_any(WholeU32("pageSize"))
}

/// An optional bool: missing or `null` is false.
fn read_flag<'de, D: Deserializer<'de>>(d: D) -> core::result::Result<bool, D::Error> {
    Ok(Option::<bool>::deserialize(d)?.unwrap_or(false))
}

fn read_offset<'de, D: Deserializer<'de>>(d: D) -> core::result::Result<u32, D::Error> {
    d.deserialize_any(WholeU32("offset"))
}

/// Reads a whole number in `0..=u32::MAX` from any numeric form (JS numbers
/// may arrive as floats), naming the field in the error.
struct WholeU32(&'static str);

impl WholeU32 {
    fn reject<E: de::Error>(&self, shown: impl core::fmt::Display) -> E {
        // Host-only (the serde view): `format!` for the float's own formatting.
        E::custom(format!(
            "{} must be a whole number from 0 to {}, not {shown}",
            self.0,
            u32::MAX
        ))
    }
}

impl Visitor<'_> for WholeU32 {
    type Value = u32;
    fn expecting(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}: a whole number from 0 to {}", self.0, u32::MAX)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> core::result::Result<u32, E> {
        u32::try_from(v).map_err(|_| self.reject(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> core::result::Result<u32, E> {
        u32::try_from(v).map_err(|_| self.reject(v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> core::result::Result<u32, E> {
        // In range, and whole: the cast back gives the same number.
        if (0.0..=f64::from(u32::MAX)).contains(&v) && v == f64::from(v as u32) {
            Ok(v as u32)
        } else {
            Err(self.reject(v))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refs(token: &PageToken) -> Vec<SourceRef<'_>> {
        token.sources.iter().map(SourceState::borrowed).collect()
    }

    /// The payload as the encoder writes it.
    fn payload(token: &PageToken) -> Vec<u8> {
        let mut w = Writer(Vec::new());
        let n = token.sources.len();
        write_payload(&mut w, token.fingerprint, token.page_size, n, &|i| {
            token.sources.get(i).map(SourceState::borrowed)
        });
        w.0
    }
    use std::println;

    fn k8s_state(plugin: &str, start: &str, rv: i64) -> SourceState {
        let chunk_token = ContinueToken::new(rv, start).encode().unwrap_or_default();
        SourceState {
            source: SourceId::new(plugin, "default", "kubeapps"),
            chunk_token,
            offset: 3,
            watermark: Some(Watermark {
                sort_key: "pkg-c".into(),
                identity: Identity {
                    plugin: plugin.into(),
                    cluster: "default".into(),
                    namespace: "kubeapps".into(),
                    identifier: "bitnami/pkg-c".into(),
                },
            }),
            resource_version: rv.to_string(),
            exhausted: false,
            inconsistent: false,
            behind: false,
            anchors: Vec::new(),
            late_watermark: None,
        }
    }

    #[test]
    fn every_text_form_gives_back_the_text() {
        let ct = ContinueToken::new(100, "kubeapps/pkg-c\u{0}")
            .encode()
            .unwrap_or_default();
        for (text, form) in [
            ("", 0u8),
            ("plain text #+/=", 1),
            ("0", 2),
            ("18446744073709551615", 2),
            ("18446744073709551616", 3),
            ("007", 1),
            ("0070", 3),
            (ct.as_str(), 4),
            ("K1JJRDp-a3ViZWFwcHMvcGtnLWI9PSNSVDoxI1RSQzoxMA", 3),
            ("K1JJRDp+a3ViZWFwcHMvcGtnLWI9PSNSVDoxI1RSQzoxMA", 1),
            ("K1JJRDp-a3ViZWFwcHMvcGtnLWI9PSNSVDoxI1RSQzoxMB", 1),
            ("abc=", 1),
        ] {
            let wire = WireText::new(text);
            let tag = match wire {
                WireText::Empty => 0,
                WireText::Plain(_) => 1,
                WireText::Decimal(_) => 2,
                WireText::Base64Url(_) => 3,
                WireText::Continue { .. } => 4,
                WireText::Written(_) => 5,
            };
            assert_eq!(tag, form, "form of {text:?}");
            let mut w = Writer(Vec::new());
            wire.write(&mut w);
            let bytes = w.0;
            assert_eq!(
                Ok(&bytes),
                postcard::to_allocvec(&wire).as_ref(),
                "{text:?}"
            );
            let mut r = Reader {
                buf: &bytes,
                pos: 0,
            };
            let back = read_text(&mut r, "text").map_err(|e| e.fault);
            assert_eq!(back.as_deref(), Ok(text), "{text:?} comes back");
            assert_eq!(r.pos, bytes.len(), "{text:?} is read whole");
        }
    }

    #[test]
    fn payload_is_postcards_encoding() {
        let mut other = k8s_state("my.plugin", "kubeapps/z\u{0}", i64::MIN + 1);
        other.offset = u32::MAX;
        other.exhausted = true;
        other.inconsistent = true;
        other.behind = true;
        other.resource_version = "-1".into();
        if let Some(w) = other.watermark.as_mut() {
            w.identity.plugin = "helm.packages".into();
            w.identity.cluster = "other".into();
            w.identity.namespace = String::new();
            w.identity.identifier = "no-repo-form".into();
        }
        let mut bare = k8s_state("fluxv2.packages", "a", 1);
        bare.watermark = None;
        bare.chunk_token = "18446744073709551615".into();
        let token = PageToken {
            fingerprint: u64::MAX,
            page_size: u32::MAX,
            sources: vec![
                k8s_state("helm.packages", "kubeapps/a\u{0}", 300),
                other,
                bare,
            ],
        };
        assert_eq!(
            Ok(payload(&token)),
            postcard::to_allocvec(&WireToken::new(
                token.fingerprint,
                token.page_size,
                &refs(&token)
            ))
        );
        let text = token.encode().unwrap_or_default();
        assert_eq!(PageToken::decode(&text), Ok(token));
    }

    /// The members a position of a source whose order is learned may add (`anchors`, `late`):
    /// written only when there, after the flags that announce them; a position without them keeps
    /// the bytes it had before they existed; a malformed member is `malformed` or `truncated`.
    #[test]
    fn anchors_and_late_watermark_are_optional_members() {
        let plain = k8s_state("helm.packages", "kubeapps/a\u{0}", 7);
        let mut with = plain.clone();
        with.anchors = vec![0x0123_4567_89ab_cdef, u64::MAX];
        with.late_watermark = with.watermark.clone();
        let token = |s: &SourceState| PageToken {
            fingerprint: 1,
            page_size: 2,
            sources: vec![s.clone()],
        };
        let bare = payload(&token(&plain));
        let full = payload(&token(&with));
        // The same bytes, then flags 4 | 8, two anchors (8 bytes each, little-endian), `late` = 0
        // (the watermark itself).
        let (head, flags) = bare.split_at(bare.len() - 1);
        assert_eq!(flags, [0]);
        let mut expected = head.to_vec();
        expected.push(12);
        expected.push(2);
        expected.extend_from_slice(&0x0123_4567_89ab_cdefu64.to_le_bytes());
        expected.extend_from_slice(&u64::MAX.to_le_bytes());
        expected.push(0);
        assert_eq!(full, expected);
        for s in [&plain, &with] {
            let text = token(s).encode().unwrap_or_default();
            assert_eq!(PageToken::decode(&text), Ok(token(s)));
        }
        // A late watermark of its own: tag 1 and a mark.
        let mut own = with.clone();
        own.anchors.truncate(1);
        if let Some(w) = own.late_watermark.as_mut() {
            w.sort_key = "pkg-a".into();
            w.identity.identifier = "bitnami/pkg-a".into();
        }
        let text = token(&own).encode().unwrap_or_default();
        assert_eq!(PageToken::decode(&text), Ok(token(&own)));
        // The serde view: hex anchors, `lateWatermark`; absent members are not written.
        let json = serde_json::to_string(&own).unwrap_or_default();
        assert!(
            json.contains("\"anchors\":[\"0123456789abcdef\"]"),
            "{json}"
        );
        assert!(
            json.contains("\"lateWatermark\":{\"sortKey\":\"pkg-a\""),
            "{json}"
        );
        let back: Result<SourceState, _> = serde_json::from_str(&json);
        assert_eq!(back.ok().as_ref(), Some(&own));
        let json = serde_json::to_string(&plain).unwrap_or_default();
        assert!(
            !json.contains("anchors") && !json.contains("lateWatermark"),
            "{json}"
        );
        // Malformed: unknown flag bits, no anchor or too many, `late` = the watermark without one;
        // cut inside an anchor: truncated.
        let framed = |payload: &[u8]| {
            let mut frame = vec![PAGE_TOKEN_VERSION];
            frame.extend_from_slice(payload);
            let check = crc32::crc32(&frame);
            frame.extend_from_slice(&check.to_le_bytes());
            base64url::encode(&frame)
        };
        let fault = |payload: &[u8]| {
            PageToken::decode(&framed(payload)).err().map(|e| {
                e.details()["reason"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned()
            })
        };
        let mut no_mark = plain.clone();
        no_mark.watermark = None;
        let no_mark = payload(&token(&no_mark));
        let with_flags = |base: &[u8], tail: &[u8]| {
            let mut p = base[..base.len() - 1].to_vec();
            p.extend_from_slice(tail);
            p
        };
        for (tail, base, reason) in [
            (&[16u8][..], &bare, "malformed"),
            (&[4, 0][..], &bare, "malformed"),
            (&[4, 3][..], &bare, "malformed"),
            (&[4, 1, 1, 2, 3][..], &bare, "truncated"),
            (&[8, 2][..], &bare, "malformed"),
            (&[8, 0][..], &no_mark, "malformed"),
        ] {
            assert_eq!(
                fault(&with_flags(base, tail)).as_deref(),
                Some(reason),
                "{tail:?}"
            );
        }
        assert_eq!(
            fault(&with_flags(&bare, &[8, 0])),
            None,
            "late = the watermark"
        );
    }

    /// What the anchors and the late watermark add, for BENCHMARKS.md ("Issue 11, sixth
    /// session"): `cargo test --lib anchor_size_report -- --nocapture`. The realistic three-source
    /// position of `size_report` (continue tokens) with its `helm.packages` source as a `kubeapps`
    /// source that read past what it consumed (one anchor), then as a switched source in its late
    /// phase (two anchors; its late watermark the watermark itself, or a key of its own).
    #[test]
    fn anchor_size_report() {
        let base = three_sources(k8s_continue_100);
        let text_len = |t: &PageToken| t.encode().unwrap_or_default().len();
        let payload_len = |t: &PageToken| payload(t).len();
        let mut one = base.clone();
        one.sources[0].chunk_token = "40".into();
        let plain = one.clone();
        one.sources[0].anchors = vec![0x9e37_79b9_7f4a_7c15];
        let mut late = plain.clone();
        late.sources[0].chunk_token = "\u{1}40".into();
        late.sources[0].anchors = vec![1, 2];
        late.sources[0].late_watermark = late.sources[0].watermark.clone();
        let mut own = late.clone();
        own.sources[0].late_watermark = Some(Watermark {
            sort_key: "package-name-late".into(),
            identity: Identity {
                plugin: "helm.packages".into(),
                cluster: "default".into(),
                namespace: "kubeapps".into(),
                identifier: "bitnami/package-name-late".into(),
            },
        });
        let mut plain_late = late.clone();
        plain_late.sources[0].anchors.clear();
        plain_late.sources[0].late_watermark = None;
        println!("| position of the helm source | payload | token | added |");
        println!("|---|---:|---:|---:|");
        for (name, t, before, added) in [
            ("streamed, nothing read past", &plain, &plain, 0),
            ("streamed, read past (one anchor)", &one, &plain, 9),
            (
                "late phase, two anchors, late = watermark",
                &late,
                &plain_late,
                18,
            ),
            (
                "late phase, two anchors, late of its own",
                &own,
                &plain_late,
                48,
            ),
        ] {
            assert_eq!(payload_len(t) - payload_len(before), added, "{name}");
            assert_eq!(
                PageToken::decode(&t.encode().unwrap_or_default()).as_ref(),
                Ok(t)
            );
            println!(
                "| {name} | {} B | {} chars | +{added} B, +{} chars |",
                payload_len(t),
                text_len(t),
                text_len(t) - text_len(before)
            );
        }
    }

    /// Three sources whose chunk tokens are made by `chunk(i)`, each with a
    /// watermark and a resourceVersion, as a pager mid-list holds them.
    fn three_sources(chunk: impl Fn(usize) -> String) -> PageToken {
        let sources = KNOWN_PLUGINS
            .iter()
            .enumerate()
            .map(|(i, plugin)| {
                let mut s = k8s_state(plugin, "kubeapps/x\u{0}", 123_456);
                s.chunk_token = chunk(i);
                s.watermark = Some(Watermark {
                    sort_key: format!("package-name-{i:02}"),
                    identity: Identity {
                        plugin: (*plugin).into(),
                        cluster: "default".into(),
                        namespace: "kubeapps".into(),
                        identifier: format!("bitnami/package-name-{i:02}"),
                    },
                });
                s
            })
            .collect();
        PageToken {
            fingerprint: 0x9e37_79b9_7f4a_7c15,
            page_size: 25,
            sources,
        }
    }

    /// A 100-character apiserver continue token: rv 123456 and a start key
    /// `kubeapps/<name>\0` whose JSON is 30 characters.
    fn k8s_continue_100(i: usize) -> String {
        let start = format!("kubeapps/package-name-{i:02}\u{0}");
        ContinueToken::new(123_456, start)
            .encode()
            .unwrap_or_default()
    }

    /// 100 characters of base64url that are not a continue token.
    fn opaque_base64url_100(i: usize) -> String {
        let bytes: Vec<u8> = (0..75u8)
            .map(|b| b.wrapping_mul(37).wrapping_add(i as u8))
            .collect();
        base64url::encode(&bytes)
    }

    /// 100 bytes that are not base64 (the worst case: stored as they are).
    fn opaque_text_100(i: usize) -> String {
        format!("+RID:~kubeapps/pkg-{i}==#RT:1#TRC:10#").repeat(3)[..100].to_owned()
    }

    /// Token sizes for BENCHMARKS.md: `cargo test --lib size_report -- --nocapture`.
    #[test]
    fn size_report() {
        type ChunkMaker = fn(usize) -> String;
        let cases: [(&str, ChunkMaker); 3] = [
            ("k8s continue tokens, 100 chars", k8s_continue_100),
            ("opaque base64url, 100 chars", opaque_base64url_100),
            ("opaque non-base64, 100 bytes", opaque_text_100),
        ];
        println!("| case | postcard payload | token (postcard) | JSON of the wire structs | JSON of the serde view |");
        println!("|---|---:|---:|---:|---:|");
        for (name, chunk) in cases {
            let token = three_sources(chunk);
            for s in &token.sources {
                assert_eq!(s.chunk_token.len(), 100, "{name}");
            }
            let payload = payload(&token);
            assert_eq!(
                Ok(&payload),
                postcard::to_allocvec(&WireToken::new(
                    token.fingerprint,
                    token.page_size,
                    &refs(&token)
                ))
                .as_ref(),
                "{name}: postcard's encoding"
            );
            let text = token.encode().unwrap_or_default();
            assert_eq!(text.len(), base64url::encoded_len(payload.len() + 5));
            assert_eq!(PageToken::decode(&text).as_ref(), Ok(&token), "{name}");
            // The same frame around a JSON payload instead.
            let framed = |json_len: usize| base64url::encoded_len(json_len + 5);
            let wire_json = serde_json::to_string(&WireToken::new(
                token.fingerprint,
                token.page_size,
                &refs(&token),
            ))
            .unwrap_or_default()
            .len();
            let view_json = serde_json::to_string(&token).unwrap_or_default().len();
            println!(
                "| {name} | {} B | {} chars | {} chars ({wire_json} B) | {} chars ({view_json} B) |",
                payload.len(),
                text.len(),
                framed(wire_json),
                framed(view_json)
            );
            if name.starts_with("k8s") {
                assert!(text.len() < 600, "{name}: {} characters", text.len());
            }
        }
    }
}
