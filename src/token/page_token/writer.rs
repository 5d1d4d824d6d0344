//! Writing the version 1 payload, by hand in postcard's encoding (the layout of [the module
//! docs](super); the golden tokens in tests/golden hold it fixed).
//!
//! Contract: [`write_payload`] writes each source of a position as its [`SourceRef`] holds it,
//! choosing a compact form of a text or an identifier only when it gives the original back byte
//! for byte (`WireText::new`, `WireMark::new`), and an optional member (`anchors`, `late`) only
//! when the position has it, announced by its `flags` bit, so a position without them keeps the
//! bytes it had before they existed. Writing cannot fail: the limits are the frame's to check.
//! The wire structs derive `Serialize` in the tests, which check these bytes against postcard's.

use crate::prelude::*;
use alloc::borrow::Cow;
#[cfg(test)]
use serde::Serialize;

use super::view::{SourceState, Watermark};
use super::wire::{
    FLAG_ANCHORS, FLAG_BEHIND, FLAG_INCONSISTENT, FLAG_LATE, KNOWN_PLUGINS, MAX_ANCHORS,
};
use crate::item::{Identity, SourceId};
use crate::token::base64url::{self, DecodeRules};
use crate::token::continue_token::ContinueToken;
use crate::token::decimal::canonical_decimal;

/// One source's position, borrowed: a [`SourceState`] as the pager holds it, for
/// [`encode_position`](super::encode_position) (which writes the same token as
/// [`PageToken::encode`](super::PageToken::encode) of the owned state).
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

/// Appends the version 1 payload (the layout of [the module docs](super); the fields of
/// `WireToken`, in order) of `count` sources, `source(i)` giving source `i`.
pub(super) fn write_payload<'a>(
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

/// The version 1 payload (see [the module docs](super)): [`write_payload`] writes it field by field; the
/// struct itself is only for the tests, which check that writing against postcard's.
#[cfg(test)]
#[derive(Serialize)]
pub(super) struct WireToken<'a> {
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
pub(super) enum WireText<'a> {
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
pub(super) struct Writer(pub(super) Vec<u8>);

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
    pub(super) fn write(&self, w: &mut Writer) {
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
    pub(super) fn new(fingerprint: u64, page_size: u32, sources: &'a [SourceRef<'_>]) -> Self {
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
            flags: if s.inconsistent { FLAG_INCONSISTENT } else { 0 }
                | if s.behind { FLAG_BEHIND } else { 0 }
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
    pub(super) fn new(text: &'a str) -> Self {
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
