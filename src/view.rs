//! The JavaScript views of the crate's values (the shapes of `src/wasm/types.d.ts`), as JSON
//! text written and read with [`crate::json`].
//!
//! The wasm boundary crosses with JSON text (`JSON.parse` / `JSON.stringify` on the JS side),
//! and reads and writes it here rather than through serde, so the shipped wasm carries no
//! serde_json and no per-type serde code. The views written are the serde views the token types
//! document (tests check that they agree with `serde_json`); the readers accept what the
//! boundary's serde shapes accepted, for the JSON that `JSON.stringify` writes:
//!
//! - [`read_options`]: `PagerOptions`; unknown fields are rejected, `null` is "not given" where
//!   a field is optional as a whole (`pageSize`, `sort`, `filter`, `kind`, ...) and an error where
//!   a default fills a missing one (`cluster`, `filter.query`, ...).
//! - [`read_page_token`]: `PageTokenState`; unknown fields are ignored, `watermark` may be
//!   missing or `null`.
//! - [`read_continue_input`], [`read_kubeapps_fetcher_options`], [`read_list_fetcher_options`]:
//!   unknown fields are rejected.
//!
//! They are declared as shapes (module `schema`) read by one interpreter. A chunk's key fields,
//! read on every chunk, cross without JSON: [`ChunkFields`] reads them.
//!
//! Objects are read from JSON objects only (serde's derives also took an array of the fields in
//! order, e.g. `filter: []`, which no documented shape is). Numbers: whole numbers are read from
//! integer literals (`JSON.stringify` writes every whole number below 10^21 so, and larger ones
//! are out of every range read here).
//!
//! Errors are messages naming the field (`sources[1].kind: expected ...`); the boundary puts
//! them in the `PagerError` its function throws.

use crate::error::{PagerError, Result};
use crate::filter::FilterOptions;
use crate::item::{Categories, FieldsRef, Identity, SourceId};
use crate::json::{JsonError, Writer};
use crate::options::{PagerOptions, SourceKind, SourceOrder, SourceSpec};
use crate::order::SortOrder;
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
}

/// `PagerError.details` (see [`PagerError::details`], which gives the same as a JSON value).
pub fn write_error_details(w: &mut Writer, error: &PagerError) {
    w.begin_object();
    match error {
        PagerError::InvalidPageToken { reason, .. }
        | PagerError::InvalidContinueToken { reason, .. }
        | PagerError::InvalidKubeappsToken { reason, .. } => w.str_field("reason", reason.as_str()),
        PagerError::InvalidOptions { field, .. } => w.str_field("field", field),
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

use Presence::{Defaulted, Optional, Required};

const STRINGS: Kind = Kind::List(&Kind::Str);
const SOURCE_KINDS: [SourceKind; 3] = [
    SourceKind::Kubernetes,
    SourceKind::Kubeapps,
    SourceKind::Unordered,
];

/// `SourceOptions`.
const SOURCE: Shape = Shape {
    fields: &[
        field("plugin", Kind::Str, Required),
        field("cluster", Kind::Str, Defaulted),
        field("namespace", Kind::Str, Defaulted),
        field(
            "kind",
            Kind::OneOf(&["kubernetes", "kubeapps", "unordered"]),
            Optional,
        ),
        field("order", Kind::OneOf(&["name", "none"]), Optional),
    ],
    deny_unknown: true,
};

/// `FilterOptions`.
const FILTER: Shape = Shape {
    fields: &[
        field("query", Kind::Str, Defaulted),
        field("categories", STRINGS, Defaulted),
        field("repositories", STRINGS, Defaulted),
        field("plugins", STRINGS, Defaulted),
    ],
    deny_unknown: true,
};

/// `PagerOptions`.
const OPTIONS: Shape = Shape {
    fields: &[
        field("sources", Kind::List(&Kind::Obj(&SOURCE)), Required),
        field("pageSize", Kind::U32, Optional),
        field("chunkLimit", Kind::U32, Optional),
        field("sort", Kind::OneOf(&["name", "displayName"]), Optional),
        field("filter", Kind::Obj(&FILTER), Optional),
        field("maxSourceItems", Kind::U32, Optional),
        field("maxChunksWithoutProgress", Kind::U32, Optional),
    ],
    deny_unknown: true,
};

/// `PagerOptions` (the `.d.ts` shape) into checked core options.
///
/// Errors: `INVALID_OPTIONS` whose `field` is the member at fault as JS names it
/// (`sources[0].kind`, `filter.category` for an unknown member, `options` for the whole value),
/// whether its shape does not fit or [`PagerOptions::validate`] refuses it.
pub fn read_options(text: &str) -> Result<PagerOptions> {
    let node = schema::read_text(text, &Kind::Obj(&OPTIONS)).map_err(options_error)?;
    let options = options_from(node);
    options.validate()?;
    Ok(options)
}

/// `INVALID_OPTIONS` naming the member a schema read stopped at (`options`: the whole value).
fn options_error(e: JsonError) -> PagerError {
    match &e.path {
        Some(path) if !path.is_empty() => PagerError::options(path.as_str(), e.message),
        _ => PagerError::options("options", e.describe()),
    }
}

fn options_from(node: Node) -> PagerOptions {
    let [sources, page_size, chunk_limit, sort, filter, max_items, max_chunks] = node.into_fields();
    let sources = sources.into_list().into_iter().map(source_from).collect();
    let mut o = PagerOptions::new(sources);
    // Absent numbers keep the defaults.
    for (slot, n) in [
        (&mut o.page_size, page_size),
        (&mut o.chunk_limit, chunk_limit),
        (&mut o.max_source_items, max_items),
        (&mut o.max_chunks_without_progress, max_chunks),
    ] {
        if let Some(n) = n.as_u32() {
            *slot = n;
        }
    }
    if let Node::Choice(1) = sort {
        o.sort = SortOrder::DisplayName;
    }
    if let Node::Obj(_) = filter {
        let [query, categories, repositories, plugins] = filter.into_fields();
        let strings = |n: Node| n.into_list().into_iter().map(Node::into_string).collect();
        o.filter = FilterOptions {
            query: query.into_string(),
            categories: strings(categories),
            repositories: strings(repositories),
            plugins: strings(plugins),
        };
    }
    o
}

fn source_from(node: Node) -> SourceSpec {
    let [plugin, cluster, namespace, kind, order] = node.into_fields();
    SourceSpec {
        id: SourceId::new(
            plugin.into_string(),
            cluster.into_string(),
            namespace.into_string(),
        ),
        kind: match kind {
            Node::Choice(i) => SOURCE_KINDS.get(i).copied().unwrap_or(SourceKind::Kubeapps),
            _ => SourceKind::Kubeapps,
        },
        order: match order {
            Node::Choice(0) => Some(SourceOrder::Name),
            Node::Choice(_) => Some(SourceOrder::None),
            _ => None,
        },
    }
}

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

/// What `kubeappsFetcher` and `kubernetesListFetcher` are given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FetcherOptions {
    /// `baseUrl` (kubeapps) or `url` (list).
    pub url: String,
    /// `context.cluster` (kubeapps only).
    pub cluster: String,
    /// `context.namespace` (kubeapps only).
    pub namespace: String,
    /// `headers`, sorted by name.
    pub headers: Vec<(String, String)>,
}

/// `KubeappsFetcherOptions`' `context`.
const CONTEXT: Shape = Shape {
    fields: &[
        field("cluster", Kind::Str, Defaulted),
        field("namespace", Kind::Str, Defaulted),
    ],
    deny_unknown: true,
};

/// `KubeappsFetcherOptions`.
const KUBEAPPS_FETCHER: Shape = Shape {
    fields: &[
        field("baseUrl", Kind::Str, Required),
        field("headers", Kind::StrMap, Defaulted),
        field("context", Kind::Obj(&CONTEXT), Defaulted),
    ],
    deny_unknown: true,
};

/// `KubernetesListFetcherOptions`.
const LIST_FETCHER: Shape = Shape {
    fields: &[
        field("url", Kind::Str, Required),
        field("headers", Kind::StrMap, Defaulted),
    ],
    deny_unknown: true,
};

/// `KubeappsFetcherOptions`: `{ baseUrl, context?: { cluster?, namespace? }, headers? }`.
pub fn read_kubeapps_fetcher_options(text: &str) -> Result<FetcherOptions> {
    read_fetcher_options(text, &KUBEAPPS_FETCHER)
}

/// `KubernetesListFetcherOptions`: `{ url, headers? }`.
pub fn read_list_fetcher_options(text: &str) -> Result<FetcherOptions> {
    read_fetcher_options(text, &LIST_FETCHER)
}

fn read_fetcher_options(text: &str, shape: &'static Shape) -> Result<FetcherOptions> {
    let node = schema::read_text(text, &Kind::Obj(shape)).map_err(options_error)?;
    let [url, headers, context] = node.into_fields();
    let [cluster, namespace] = context.into_fields();
    let mut headers = match headers {
        Node::Map(entries) => entries,
        _ => Vec::new(),
    };
    crate::sort::sort_by(&mut headers, |a, b| a.0.cmp(&b.0));
    Ok(FetcherOptions {
        url: url.into_string(),
        cluster: cluster.into_string(),
        namespace: namespace.into_string(),
        headers,
    })
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
