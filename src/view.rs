//! The JavaScript views of the crate's values (the shapes of `src/wasm/types.d.ts`), as JSON
//! text written and read with [`crate::json`], or packed.
//!
//! The wasm boundary crosses with JSON text (`JSON.parse` / `JSON.stringify` on the JS side),
//! and reads and writes it here rather than through serde, so the shipped wasm carries no
//! serde_json and no per-type serde code. The views written are the serde views the token types
//! document (tests check that they agree with `serde_json`); the readers accept what the
//! boundary's serde shapes accepted, for the JSON that `JSON.stringify` writes:
//!
//! - [`read_page_token`]: `PageTokenState`; unknown fields are ignored, `watermark` may be
//!   missing or `null`.
//! - [`read_continue_input`]: unknown fields are rejected.
//!
//! They are declared as shapes (module `schema`) read by one interpreter. Only the codec module
//! reads these. The pager module's inputs (options, fetcher options, failures) are read against
//! their shapes on the JS side (`src/wasm/driver.js`), which packs what the core needs into one
//! string: [`unpack_options`], [`unpack_failure`]. A chunk's key fields, read on every chunk,
//! cross without JSON too: [`ChunkFields`] reads them.
//!
//! Objects are read from JSON objects only (serde's derives also took an array of the fields in
//! order, which no documented shape is). Numbers: whole numbers are read from integer literals
//! (`JSON.stringify` writes every whole number below 10^21 so, and larger ones are out of every
//! range read here).
//!
//! Errors are messages naming the field (`sources[1].offset: expected ...`); the boundary puts
//! them in the `PagerError` its function throws.

use crate::collation::Collation;
use crate::error::PagerError;
use crate::filter::FilterOptions;
use crate::item::{Categories, FieldsRef, Identity, SourceId};
use crate::json::Writer;
use crate::options::{PagerOptions, SourceKind, SourceOrder, SourceSpec};
use crate::order::{SortField, SortOrder};
use crate::pager::Failure;
use crate::prelude::*;
use crate::text::{decimal, hex16};
use crate::token::inspect::TokenKind;
use crate::token::page_token::MAX_SOURCES;
use crate::token::{ContinueToken, CoreToken, PageToken, PluginOffset, TokenInfo};

// ---------------------------------------------------------------------------
// Writing

/// `PageTokenState`: `{ fingerprint, pageSize, sources: [SourceTokenState] }` (the serde view).
pub fn write_page_token(w: &mut Writer, token: &PageToken) {
    w.begin_object();
    write_page_token_fields(w, token);
    w.end_object();
}

/// The members of [`write_page_token`], for views that add their own (`inspectToken`).
fn write_page_token_fields(w: &mut Writer, token: &PageToken) {
    w.str_field("fingerprint", &hex16(token.fingerprint));
    w.u64_field("pageSize", token.page_size.into());
    w.key("sources");
    w.begin_array();
    for s in &token.sources {
        w.begin_object();
        w.str_field("plugin", &s.source.plugin);
        w.str_field("cluster", &s.source.cluster);
        w.str_field("namespace", &s.source.namespace);
        w.str_field("chunkToken", &s.chunk_token);
        w.u64_field("offset", s.offset.into());
        w.key("watermark");
        match &s.watermark {
            None => w.null(),
            Some(m) => {
                w.begin_object();
                w.str_field("sortKey", &m.sort_key);
                w.key("identity");
                w.begin_object();
                w.str_field("plugin", &m.identity.plugin);
                w.str_field("cluster", &m.identity.cluster);
                w.str_field("namespace", &m.identity.namespace);
                w.str_field("identifier", &m.identity.identifier);
                w.end_object();
                w.end_object();
            }
        }
        w.str_field("resourceVersion", &s.resource_version);
        w.bool_field("exhausted", s.exhausted);
        w.bool_field("inconsistent", s.inconsistent);
        w.end_object();
    }
    w.end_array();
}

/// `PageTokenState` packed into one string for a JS builder (`makeTokenState` in
/// `src/wasm/codec.js`), which makes the same object as [`write_page_token`]'s JSON in one call,
/// without JSON: the fingerprint's 16 hex digits, then numbers ([`push_number`]) and strings
/// (their length in UTF-16 units as a number, then the string) in the order the object holds
/// them: pageSize, the source count, then per source its flags (bit 0 a watermark, 1
/// `exhausted`, 2 `inconsistent`), offset, plugin, cluster, namespace, chunkToken, the
/// watermark's sortKey, plugin, cluster, namespace and identifier when it has one, and
/// resourceVersion.
pub fn pack_page_token(token: &PageToken) -> String {
    let mut out = String::with_capacity(512);
    out.push_str(&hex16(token.fingerprint));
    push_number(&mut out, token.page_size);
    push_number(&mut out, token.sources.len() as u32);
    let put = |out: &mut String, s: &str| {
        // UTF-16 units: one per UTF-8 lead byte, two for a 4-byte sequence's.
        let units: usize = s
            .bytes()
            .map(|b| usize::from(b & 0xC0 != 0x80) + usize::from(b >= 0xF0))
            .sum();
        push_number(out, units as u32);
        out.push_str(s);
    };
    for s in &token.sources {
        let flags = u32::from(s.watermark.is_some())
            | u32::from(s.exhausted) << 1
            | u32::from(s.inconsistent) << 2;
        push_number(&mut out, flags);
        push_number(&mut out, s.offset);
        put(&mut out, &s.source.plugin);
        put(&mut out, &s.source.cluster);
        put(&mut out, &s.source.namespace);
        put(&mut out, &s.chunk_token);
        if let Some(m) = &s.watermark {
            put(&mut out, &m.sort_key);
            put(&mut out, &m.identity.plugin);
            put(&mut out, &m.identity.cluster);
            put(&mut out, &m.identity.namespace);
            put(&mut out, &m.identity.identifier);
        }
        put(&mut out, &s.resource_version);
    }
    out
}

/// A u32 as three characters of 15 bits each, low bits first (each below U+8000: one UTF-16
/// unit, never a surrogate), for [`pack_page_token`]'s reader to take with `charCodeAt`.
pub fn push_number(out: &mut String, n: u32) {
    for shift in [0, 15, 30] {
        out.push(char::from_u32((n >> shift) & 0x7FFF).unwrap_or_default());
    }
}

/// `ContinueTokenFields`: `{ version, resourceVersion, start, consistent }`, `resourceVersion`
/// a decimal string.
pub fn write_continue_token(w: &mut Writer, token: &ContinueToken) {
    w.begin_object();
    write_continue_fields(w, token);
    w.end_object();
}

fn write_continue_fields(w: &mut Writer, token: &ContinueToken) {
    w.str_field("version", &token.version);
    w.key("resourceVersion");
    w.string(&decimal(token.resource_version));
    w.str_field("start", &token.start);
    w.bool_field("consistent", token.is_consistent());
}

/// `{ entries: [{ plugin, offset }] }`'s `entries` member.
fn write_core_entries(w: &mut Writer, token: &CoreToken) {
    w.key("entries");
    w.begin_array();
    for (plugin, offset) in &token.entries {
        w.begin_object();
        w.str_field("plugin", plugin);
        w.key("offset");
        write_offset(w, *offset);
        w.end_object();
    }
    w.end_array();
}

/// A plugin offset: the number, `-1` when finished.
fn write_offset(w: &mut Writer, offset: PluginOffset) {
    match offset {
        PluginOffset::Finished => w.i64(-1),
        PluginOffset::Offset(n) => w.u64(n),
    }
}

/// `KubeappsToken` of the core API: `{ kind: "core", entries: [{ plugin, offset }] }`.
pub fn write_kubeapps_core(w: &mut Writer, token: &CoreToken) {
    w.begin_object();
    w.str_field("kind", "core");
    write_core_entries(w, token);
    w.end_object();
}

/// `KubeappsToken` of a plugin: `{ kind: "offset", offset }`.
pub fn write_kubeapps_offset(w: &mut Writer, offset: PluginOffset) {
    w.begin_object();
    w.str_field("kind", "offset");
    w.key("offset");
    write_offset(w, offset);
    w.end_object();
}

/// `TokenInfo`, tagged by `kind` (see [`TokenInfo`]'s serde view).
pub fn write_token_info(w: &mut Writer, info: &TokenInfo) {
    w.begin_object();
    match info {
        TokenInfo::Page {
            version,
            byte_length,
            text_length,
            token,
        } => {
            w.str_field("kind", "page");
            w.u64_field("version", (*version).into());
            w.u64_field("byteLength", *byte_length as u64);
            w.u64_field("textLength", *text_length as u64);
            write_page_token_fields(w, token);
        }
        _ => write_token_info_members(w, info),
    }
    w.end_object();
}

/// The members of [`write_token_info`] for every kind but `page` (none for a page: the codec
/// module builds that one in JS from [`pack_page_token`], and leaves the page writer out).
pub fn write_token_info_members(w: &mut Writer, info: &TokenInfo) {
    match info {
        TokenInfo::Page { .. } => {}
        TokenInfo::Continue(token) => {
            w.str_field("kind", "continue");
            write_continue_fields(w, token);
        }
        TokenInfo::KubeappsCore(token) => {
            w.str_field("kind", "kubeappsCore");
            write_core_entries(w, token);
        }
        TokenInfo::KubeappsOffset { offset } => {
            w.str_field("kind", "kubeappsOffset");
            w.key("offset");
            write_offset(w, *offset);
        }
        TokenInfo::Invalid {
            likely_kind,
            code,
            reason,
            message,
        } => {
            w.str_field("kind", "invalid");
            w.str_field("likelyKind", token_kind(*likely_kind));
            w.str_field("code", code);
            w.str_field("reason", reason);
            w.str_field("message", message);
        }
    }
}

fn token_kind(kind: TokenKind) -> &'static str {
    match kind {
        TokenKind::Page => "page",
        TokenKind::Continue => "continue",
        TokenKind::KubeappsCore => "kubeappsCore",
        TokenKind::KubeappsOffset => "kubeappsOffset",
    }
}

/// The members of a `SourceStats` (its serde view: `requests`, `itemsScanned`, ...).
pub fn write_source_stats_fields(w: &mut Writer, s: &crate::pager::SourceStats) {
    w.u64_field("requests", s.requests);
    w.u64_field("itemsScanned", s.items_scanned);
    w.u64_field("filteredOut", s.filtered_out);
    w.u64_field("duplicatesDropped", s.duplicates_dropped);
    w.u64_field("rescans", s.rescans);
    w.u64_field("expiredRecoveries", s.expired_recoveries);
    w.u64_field("staleResponses", s.stale_responses);
    w.u64_field("wholeReadSwitches", s.whole_read_switches);
    w.u64_field("lateItems", s.late_items);
    w.bool_field("streamed", s.streamed);
}

/// `PagerError.details` (see [`PagerError::details`], which gives the same as a JSON value).
pub fn write_error_details(w: &mut Writer, error: &PagerError) {
    w.begin_object();
    match error {
        PagerError::InvalidPageToken { reason, .. }
        | PagerError::InvalidContinueToken { reason, .. }
        | PagerError::InvalidKubeappsToken { reason, .. } => w.str_field("reason", reason.as_str()),
        PagerError::InvalidOptions { field, .. } => {
            w.str_field("field", field);
            if let Some(entry) = error.entry() {
                w.str_field("entry", entry);
            }
        }
        PagerError::InvalidResponse { source_name, .. }
        | PagerError::NoProgress { source_name, .. } => w.str_field("source", source_name),
        PagerError::FilterMismatch { expected, found } => {
            w.str_field("expected", &hex16(*expected));
            w.str_field("found", &hex16(*found));
        }
        PagerError::SourceTooLarge { source_name, cap } => {
            w.str_field("source", source_name);
            w.u64_field("cap", (*cap).into());
        }
    }
    w.end_object();
}

// ---------------------------------------------------------------------------
// Reading: the shapes (checked by `schema`), then converted

use schema::{Field, Kind, Node, Presence, Shape};

const fn field(name: &'static str, kind: Kind, presence: Presence) -> Field {
    Field {
        name,
        kind,
        presence,
    }
}

use Presence::{Optional, Required};

/// `Identity`.
const IDENTITY: Shape = Shape {
    fields: &[
        field("plugin", Kind::Str, Required),
        field("cluster", Kind::Str, Required),
        field("namespace", Kind::Str, Required),
        field("identifier", Kind::Str, Required),
    ],
    deny_unknown: false,
};

/// `Watermark`.
const WATERMARK: Shape = Shape {
    fields: &[
        field("sortKey", Kind::Str, Required),
        field("identity", Kind::Obj(&IDENTITY), Required),
    ],
    deny_unknown: false,
};

/// `SourceTokenState`.
const SOURCE_STATE: Shape = Shape {
    fields: &[
        field("plugin", Kind::Str, Required),
        field("cluster", Kind::Str, Required),
        field("namespace", Kind::Str, Required),
        field("chunkToken", Kind::Str, Required),
        field("offset", Kind::U32, Required),
        field("watermark", Kind::Obj(&WATERMARK), Optional),
        field("resourceVersion", Kind::Str, Required),
        field("exhausted", Kind::Bool, Required),
        field("inconsistent", Kind::Bool, Required),
    ],
    deny_unknown: false,
};

/// `PageTokenState`.
const PAGE_TOKEN_STATE: Shape = Shape {
    fields: &[
        field("fingerprint", Kind::Str, Required),
        field("pageSize", Kind::U32, Required),
        field("sources", Kind::List(&Kind::Obj(&SOURCE_STATE)), Required),
    ],
    deny_unknown: false,
};

/// `PageTokenState` into a token (not checked: `encode` checks). Unknown members are ignored.
///
/// Errors: a message naming what does not fit, including a fingerprint that is not 16
/// lowercase hex digits and more than 64 sources.
pub fn read_page_token(text: &str) -> core::result::Result<PageToken, String> {
    let node = schema::read_text(text, &Kind::Obj(&PAGE_TOKEN_STATE)).map_err(|e| e.describe())?;
    let [fingerprint, page_size, sources] = node.into_fields();
    let fingerprint = fingerprint.into_string();
    let hex = fingerprint.len() == 16
        && fingerprint
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    let fingerprint = match u64::from_str_radix(&fingerprint, 16) {
        Ok(v) if hex => v,
        _ => return Err("fingerprint: must be 16 lowercase hex digits".into()),
    };
    let sources = sources.into_list();
    if sources.len() > MAX_SOURCES {
        return Err("sources: a page token holds at most 64".into());
    }
    Ok(PageToken {
        fingerprint,
        page_size: page_size.as_u32().unwrap_or(0),
        sources: sources.into_iter().map(source_state_from).collect(),
    })
}

fn source_state_from(node: Node) -> crate::token::SourceState {
    let [plugin, cluster, namespace, chunk_token, offset, watermark, rv, exhausted, inconsistent] =
        node.into_fields();
    crate::token::SourceState {
        source: SourceId::new(
            plugin.into_string(),
            cluster.into_string(),
            namespace.into_string(),
        ),
        chunk_token: chunk_token.into_string(),
        offset: offset.as_u32().unwrap_or(0),
        watermark: match watermark {
            Node::Obj(_) => {
                let [sort_key, identity] = watermark.into_fields();
                let [plugin, cluster, namespace, identifier] = identity.into_fields();
                Some(crate::token::Watermark {
                    sort_key: sort_key.into_string(),
                    identity: Identity {
                        plugin: plugin.into_string(),
                        cluster: cluster.into_string(),
                        namespace: namespace.into_string(),
                        identifier: identifier.into_string(),
                    },
                })
            }
            _ => None,
        },
        resource_version: rv.into_string(),
        exhausted: exhausted.is_true(),
        inconsistent: inconsistent.is_true(),
    }
}

/// `ContinueTokenInput`'s `resourceVersion`.
pub enum ResourceVersion {
    /// A whole number within int64.
    Number(i64),
    /// A string, to be read as a decimal int64.
    Text(String),
}

/// `ContinueTokenInput`.
const CONTINUE_INPUT: Shape = Shape {
    fields: &[
        field("resourceVersion", Kind::IntOrStr, Required),
        field("start", Kind::Str, Required),
    ],
    deny_unknown: true,
};

/// `ContinueTokenInput` (`{ resourceVersion: number | string, start }`, unknown members rejected).
pub fn read_continue_input(text: &str) -> core::result::Result<(ResourceVersion, String), String> {
    let node = schema::read_text(text, &Kind::Obj(&CONTINUE_INPUT)).map_err(|e| e.describe())?;
    let [rv, start] = node.into_fields();
    let rv = match rv {
        Node::Int(n) => ResourceVersion::Number(n),
        other => ResourceVersion::Text(other.into_string()),
    };
    Ok((rv, start.into_string()))
}

// ---------------------------------------------------------------------------
// Reading: what the JS readers packed

/// Values packed by the JS readers of `src/wasm/driver.js` (`pack`, `readFailure`) into one
/// string, read in order: a number as three characters of 15 bits each, low first (as
/// [`push_number`] writes them), a string as its length in UTF-16 units (a number) then itself.
/// Past the end (never, from those readers) numbers read as 0 and strings as `""`.
pub struct Unpack<'a>(&'a str);

impl<'a> Unpack<'a> {
    /// A reader at the start of `packed`.
    pub fn new(packed: &'a str) -> Self {
        Unpack(packed)
    }

    /// The next number.
    pub fn number(&mut self) -> u64 {
        let mut n = 0;
        for shift in [0, 15, 30] {
            let mut chars = self.0.chars();
            n |= chars.next().map_or(0, |c| u64::from(c) & 0x7FFF) << shift;
            self.0 = chars.as_str();
        }
        n
    }

    /// The next string.
    pub fn string(&mut self) -> String {
        let units = self.number() as usize;
        let len = utf8_len(self.0, units).unwrap_or(self.0.len());
        let s = self.0.get(..len).unwrap_or_default();
        self.0 = self.0.get(len..).unwrap_or_default();
        s.into()
    }

    /// The next optional number: `n + 1`, or 0 for none.
    fn optional(&mut self) -> Option<u32> {
        self.number().checked_sub(1).map(|n| n as u32)
    }

    /// A count, then that many strings.
    fn strings(&mut self) -> Vec<String> {
        // A loop, not `map(..).collect()` (its `TrustedLen` paths; size).
        let mut out = Vec::new();
        for _ in 0..self.number() {
            out.push(self.string());
        }
        out
    }
}

/// `PagerOptions` as `readOptions` (`src/wasm/driver.js`) packs them after reading them against
/// the `.d.ts` shape (not checked: [`PagerOptions::validate`] checks). In order: the sources
/// (a count, then each one's plugin, cluster, namespace, kind and order), pageSize, chunkLimit,
/// sort, the filter's query, categories, repositories and plugins, maxSourceItems,
/// maxChunksWithoutProgress and the collation's locale; a choice or a number is 1 + its index or
/// value, 0 when not given.
pub fn unpack_options(packed: &str) -> PagerOptions {
    let mut p = Unpack::new(packed);
    // A loop, as in `strings` (size).
    let mut sources = Vec::new();
    for _ in 0..p.number() {
        let id = SourceId::new(p.string(), p.string(), p.string());
        sources.push(SourceSpec {
            kind: match p.number() {
                1 => SourceKind::Kubernetes,
                2 => SourceKind::Kubeapps,
                3 => SourceKind::Unordered,
                // Not declared: the plugin's default.
                _ => SourceKind::for_plugin(&id.plugin),
            },
            id,
            order: match p.number() {
                1 => Some(SourceOrder::Name),
                2 => Some(SourceOrder::None),
                _ => None,
            },
        });
    }
    let mut o = PagerOptions::new(sources);
    let page_size = p.optional();
    let chunk_limit = p.optional();
    let display_name = p.number() == 2;
    if display_name {
        o.sort = SortOrder::DisplayName;
    }
    o.filter = FilterOptions {
        query: p.string(),
        categories: p.strings(),
        repositories: p.strings(),
        plugins: p.strings(),
    };
    // Absent numbers keep the defaults.
    for (slot, n) in [
        (&mut o.page_size, page_size),
        (&mut o.chunk_limit, chunk_limit),
        (&mut o.max_source_items, p.optional()),
        (&mut o.max_chunks_without_progress, p.optional()),
    ] {
        if let Some(n) = n {
            *slot = n;
        }
    }
    // `collation: { locale }`: 1 + the locale's index in `Collation::ALL`, 0 when not given.
    if let Some(c) = p.optional().and_then(|i| Collation::ALL.get(i as usize)) {
        let field = if display_name {
            SortField::DisplayName
        } else {
            SortField::Name
        };
        o.sort = SortOrder::Collated(field, *c);
    }
    o
}

/// A `ChunkFailure` as `readFailure` (`src/wasm/driver.js`) packs it: the status, then `reason`
/// and `continue`, each 1 and the string, or 0 for none (an empty `continue` is none).
pub fn unpack_failure(packed: &str) -> Failure {
    let mut p = Unpack::new(packed);
    let status = p.number() as u16;
    let mut text = || (p.number() == 1).then(|| p.string());
    let reason = text();
    Failure {
        status,
        reason,
        continue_token: text().filter(|s| !s.is_empty()),
    }
}

// ---------------------------------------------------------------------------
// Reading: chunk keys, on every chunk, by hand

/// The key fields of a chunk's items, as `chunk.js` packs them: no JSON, no `String`s.
///
/// `text` is every field of every item joined by `\0` (one string for the whole chunk), and
/// `lens` gives, per item, the lengths of `plugin, cluster, namespace, identifier, name,
/// displayName, shortDescription`, the number of categories, then each category's length.
/// Lengths count UTF-16 code units (JS string lengths); the fields are read as `&str` slices
/// of `text`.
pub struct ChunkFields<'a> {
    /// Every field, in order.
    fields: Vec<&'a str>,
    /// Per item: the index of its first field in `fields`, and its number of categories.
    items: Vec<(u32, u32)>,
}

/// Fields before the categories.
const FIXED_FIELDS: usize = 7;

impl<'a> ChunkFields<'a> {
    /// Reads `text` by `lens`. Errors: a message saying where they do not agree.
    pub fn read(text: &'a str, lens: &[u32]) -> core::result::Result<Self, String> {
        let ascii = text.is_ascii();
        let mut fields = Vec::with_capacity(lens.len());
        let mut items = Vec::new();
        let mut lens = lens.iter().copied();
        // Byte offset of the next field; each field is followed by `\0`, but the last.
        let mut pos = 0usize;
        let mut take = |units: Option<u32>| -> Option<&'a str> {
            let rest = text.get(pos..)?;
            let units = units? as usize;
            let len = if ascii { units } else { utf8_len(rest, units)? };
            let field = rest.get(..len)?;
            if !matches!(rest.as_bytes().get(len), None | Some(0)) {
                return None;
            }
            pos = pos.saturating_add(len + 1);
            Some(field)
        };
        let bad = |i: usize| text!("items[", i, "]: the key text does not match its lengths");
        while let Some(first) = lens.next() {
            let i = items.len();
            let start = fields.len();
            fields.push(take(Some(first)).ok_or_else(|| bad(i))?);
            for _ in 1..FIXED_FIELDS {
                fields.push(take(lens.next()).ok_or_else(|| bad(i))?);
            }
            let categories = lens.next().ok_or_else(|| bad(i))?;
            for _ in 0..categories {
                fields.push(take(lens.next()).ok_or_else(|| bad(i))?);
            }
            items.push((start as u32, categories));
        }
        let whole = if fields.is_empty() {
            text.is_empty()
        } else {
            pos == text.len() + 1
        };
        if !whole {
            return Err("the key text is longer than its lengths say".into());
        }
        Ok(ChunkFields { fields, items })
    }

    /// The number of items.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether there are no items.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Each item's fields, in order.
    pub fn iter(&self) -> impl Iterator<Item = FieldsRef<'_>> + '_ {
        self.items.iter().map(|&(start, categories)| {
            let start = start as usize;
            let f = |k: usize| self.fields.get(start + k).copied().unwrap_or_default();
            let cats = start + FIXED_FIELDS;
            FieldsRef {
                plugin: f(0),
                cluster: f(1),
                namespace: f(2),
                identifier: f(3),
                name: f(4),
                display_name: f(5),
                short_description: f(6),
                categories: Categories::Borrowed(
                    self.fields
                        .get(cats..cats + categories as usize)
                        .unwrap_or_default(),
                ),
            }
        })
    }
}

/// The byte length of the first `units` UTF-16 code units of `text`; `None` when `text` is
/// shorter or a character straddles that point.
fn utf8_len(text: &str, units: usize) -> Option<usize> {
    let (mut bytes, mut seen) = (0usize, 0usize);
    let mut chars = text.chars();
    while seen < units {
        let c = chars.next()?;
        seen += c.len_utf16();
        bytes += c.len_utf8();
    }
    (seen == units).then_some(bytes)
}

mod schema;

#[cfg(test)]
mod tests;
