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
//! - [`read_item_keys`]: the key tuples `chunk.js` writes for a chunk.
//!
//! Objects are read from JSON objects only (serde's derives also took an array of the fields in
//! order, e.g. `filter: []`, which no documented shape is). Numbers: whole numbers are read from
//! integer literals (`JSON.stringify` writes every whole
//! number below 10^21 so, and larger ones are out of every range read here).
//!
//! Errors are messages naming the field (`sources[1].kind: expected ...`); the boundary puts
//! them in the `PagerError` its function throws.

use crate::error::{PagerError, Result};
use crate::filter::FilterOptions;
use crate::item::{Identity, ItemFields, SourceId};
use crate::json::{JsonResult, Reader, Value, Writer};
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
    w.end_object();
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
// Reading: helpers

/// `{field}: {problem}` as a JSON error at the reader's position.
fn field_error<T>(r: &Reader, field: &str, problem: &str) -> JsonResult<T> {
    let mut message = String::with_capacity(field.len() + problem.len() + 2);
    message.push_str(field);
    message.push_str(": ");
    message.push_str(problem);
    r.error(false, message)
}

/// The error for a value of the wrong type: `{field}: expected {what}, found {kind}`.
fn expected<T>(r: &Reader, field: &str, what: &str, found: &Value) -> JsonResult<T> {
    let mut problem = String::from("expected ");
    problem.push_str(what);
    problem.push_str(", found ");
    problem.push_str(found.kind());
    field_error(r, field, &problem)
}

/// `parent.key` (or `key` at the top).
fn path(parent: &str, key: &str) -> String {
    let mut p = String::with_capacity(parent.len() + key.len() + 1);
    if !parent.is_empty() {
        p.push_str(parent);
        p.push('.');
    }
    p.push_str(key);
    p
}

/// `parent[i]`.
fn index(parent: &str, i: usize) -> String {
    let mut p = String::from(parent);
    p.push('[');
    crate::text::push_u64(&mut p, i as u64);
    p.push(']');
    p
}

/// Opens an object, or the error for `field`.
fn object(r: &mut Reader, field: &str) -> JsonResult<()> {
    match r.value()? {
        Value::Object => Ok(()),
        other => expected(r, field, "an object", &other),
    }
}

/// Opens an object, `false` for `null`.
fn object_or_null(r: &mut Reader, field: &str) -> JsonResult<bool> {
    match r.value()? {
        Value::Object => Ok(true),
        Value::Null => Ok(false),
        other => expected(r, field, "an object", &other),
    }
}

/// Opens an array, or the error for `field`.
fn array(r: &mut Reader, field: &str) -> JsonResult<()> {
    match r.value()? {
        Value::Array => Ok(()),
        other => expected(r, field, "an array", &other),
    }
}

fn string(r: &mut Reader, field: &str) -> JsonResult<String> {
    match r.value()? {
        Value::String(s) => Ok(s.into_owned()),
        other => expected(r, field, "a string", &other),
    }
}

fn boolean(r: &mut Reader, field: &str) -> JsonResult<bool> {
    match r.value()? {
        Value::Bool(b) => Ok(b),
        other => expected(r, field, "a boolean", &other),
    }
}

/// A whole number in `0..=u32::MAX`, `None` for `null` when `nullable`.
fn whole_u32(r: &mut Reader, field: &str, nullable: bool) -> JsonResult<Option<u32>> {
    match r.value()? {
        Value::Null if nullable => Ok(None),
        Value::Number(n) => match n.to_u32() {
            Ok(n) => Ok(Some(n)),
            Err(_) => field_error(r, field, "expected a whole number from 0 to 4294967295"),
        },
        other => expected(r, field, "a whole number", &other),
    }
}

/// An optional whole number: `null` leaves `slot` as it is (the default).
fn set_u32(r: &mut Reader, field: &str, slot: &mut u32) -> JsonResult<()> {
    if let Some(n) = whole_u32(r, field, true)? {
        *slot = n;
    }
    Ok(())
}

/// An array of strings.
fn strings(r: &mut Reader, field: &str) -> JsonResult<Vec<String>> {
    array(r, field)?;
    let mut out = Vec::new();
    while r.next_element()? {
        out.push(string(r, &index(field, out.len()))?);
    }
    Ok(out)
}

/// One of `names` (a string), as its index; `None` for `null`.
fn one_of(r: &mut Reader, field: &str, names: &[&str]) -> JsonResult<Option<usize>> {
    match r.value()? {
        Value::Null => Ok(None),
        Value::String(s) => match names.iter().position(|n| *n == s) {
            Some(i) => Ok(Some(i)),
            None => {
                let mut problem = String::from("expected one of");
                for (i, n) in names.iter().enumerate() {
                    problem.push_str(if i == 0 { " \"" } else { ", \"" });
                    problem.push_str(n);
                    problem.push('"');
                }
                field_error(r, field, &problem)
            }
        },
        other => expected(r, field, "a string", &other),
    }
}

/// The error for a member a reader does not know (the shapes that reject them).
fn unknown<T>(r: &Reader, parent: &str, key: &str) -> JsonResult<T> {
    let mut problem = String::from("unknown field \"");
    problem.push_str(key);
    problem.push('"');
    field_error(
        r,
        if parent.is_empty() { "options" } else { parent },
        &problem,
    )
}

/// The error for a required member that is missing.
fn missing<T>(r: &Reader, parent: &str, key: &str) -> JsonResult<T> {
    let mut problem = String::from("missing field \"");
    problem.push_str(key);
    problem.push('"');
    field_error(
        r,
        if parent.is_empty() { "value" } else { parent },
        &problem,
    )
}

fn required<T>(r: &Reader, parent: &str, key: &str, v: Option<T>) -> JsonResult<T> {
    match v {
        Some(v) => Ok(v),
        None => missing(r, parent, key),
    }
}

/// Runs `read` over the whole text: one value, nothing after it.
fn whole<T>(text: &str, read: impl FnOnce(&mut Reader) -> JsonResult<T>) -> JsonResult<T> {
    let mut r = Reader::new(text);
    let v = read(&mut r)?;
    r.end()?;
    Ok(v)
}

// ---------------------------------------------------------------------------
// Reading: the shapes

/// `PagerOptions` (the `.d.ts` shape) into checked core options.
///
/// Errors: `INVALID_OPTIONS`; `field` is `options` when the shape does not fit (the message
/// names the member), else the field [`PagerOptions::validate`] names.
pub fn read_options(text: &str) -> Result<PagerOptions> {
    let options = whole(text, read_options_object)
        .map_err(|e| PagerError::options("options", e.describe()))?;
    options.validate()?;
    Ok(options)
}

fn read_options_object(r: &mut Reader) -> JsonResult<PagerOptions> {
    object(r, "options")?;
    let mut sources = None;
    let mut options = PagerOptions::new(Vec::new());
    while let Some(key) = r.next_key()? {
        let key = &*key;
        match key {
            "sources" => {
                array(r, key)?;
                let mut list = Vec::new();
                while r.next_element()? {
                    list.push(read_source(r, &index(key, list.len()))?);
                }
                sources = Some(list);
            }
            "sort" => {
                if let Some(i) = one_of(r, key, &["name", "displayName"])? {
                    options.sort = [SortOrder::Name, SortOrder::DisplayName][i];
                }
            }
            "filter" => {
                if object_or_null(r, key)? {
                    options.filter = read_filter(r)?;
                }
            }
            "pageSize" => set_u32(r, key, &mut options.page_size)?,
            "chunkLimit" => set_u32(r, key, &mut options.chunk_limit)?,
            "maxSourceItems" => set_u32(r, key, &mut options.max_source_items)?,
            "maxChunksWithoutProgress" => {
                set_u32(r, key, &mut options.max_chunks_without_progress)?
            }
            _ => return unknown(r, "", key),
        }
    }
    options.sources = required(r, "", "sources", sources)?;
    Ok(options)
}

fn read_source(r: &mut Reader, at: &str) -> JsonResult<SourceSpec> {
    object(r, at)?;
    let (mut plugin, mut cluster, mut namespace) = (None, String::new(), String::new());
    let (mut kind, mut order) = (SourceKind::Kubeapps, None);
    while let Some(key) = r.next_key()? {
        let field = path(at, &key);
        match &*key {
            "plugin" => plugin = Some(string(r, &field)?),
            "cluster" => cluster = string(r, &field)?,
            "namespace" => namespace = string(r, &field)?,
            "kind" => {
                let kinds = [
                    SourceKind::Kubernetes,
                    SourceKind::Kubeapps,
                    SourceKind::Unordered,
                ];
                if let Some(i) = one_of(r, &field, &["kubernetes", "kubeapps", "unordered"])? {
                    kind = kinds[i];
                }
            }
            "order" => {
                order = one_of(r, &field, &["name", "none"])?
                    .map(|i| [SourceOrder::Name, SourceOrder::None][i]);
            }
            _ => return unknown(r, at, &key),
        }
    }
    Ok(SourceSpec {
        id: SourceId::new(required(r, at, "plugin", plugin)?, cluster, namespace),
        kind,
        order,
    })
}

fn read_filter(r: &mut Reader) -> JsonResult<FilterOptions> {
    let mut f = FilterOptions::default();
    while let Some(key) = r.next_key()? {
        let field = path("filter", &key);
        match &*key {
            "query" => f.query = string(r, &field)?,
            "categories" => f.categories = strings(r, &field)?,
            "repositories" => f.repositories = strings(r, &field)?,
            "plugins" => f.plugins = strings(r, &field)?,
            _ => return unknown(r, "filter", &key),
        }
    }
    Ok(f)
}

/// `PageTokenState` into a token (not checked: `encode` checks). Unknown members are ignored.
///
/// Errors: a message naming what does not fit, including more than 64 sources.
pub fn read_page_token(text: &str) -> core::result::Result<PageToken, String> {
    whole(text, read_page_token_object).map_err(|e| e.describe())
}

fn read_page_token_object(r: &mut Reader) -> JsonResult<PageToken> {
    object(r, "state")?;
    let (mut fingerprint, mut page_size, mut sources) = (None, None, None);
    while let Some(key) = r.next_key()? {
        match &*key {
            "fingerprint" => {
                let text = string(r, "fingerprint")?;
                let hex = text.len() == 16
                    && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
                match u64::from_str_radix(&text, 16) {
                    Ok(v) if hex => fingerprint = Some(v),
                    _ => field_error(r, "fingerprint", "must be 16 lowercase hex digits")?,
                }
            }
            "pageSize" => page_size = whole_u32(r, "pageSize", false)?,
            "sources" => {
                array(r, "sources")?;
                let mut list = Vec::new();
                while r.next_element()? {
                    if list.len() == MAX_SOURCES {
                        field_error(r, "sources", "a page token holds at most 64")?;
                    }
                    list.push(read_source_state(r, &index("sources", list.len()))?);
                }
                sources = Some(list);
            }
            _ => r.skip()?,
        }
    }
    Ok(PageToken {
        fingerprint: required(r, "state", "fingerprint", fingerprint)?,
        page_size: required(r, "state", "pageSize", page_size)?,
        sources: required(r, "state", "sources", sources)?,
    })
}

fn read_source_state(r: &mut Reader, at: &str) -> JsonResult<crate::token::SourceState> {
    object(r, at)?;
    let mut text: [Option<String>; 5] = Default::default();
    const TEXT: [&str; 5] = [
        "plugin",
        "cluster",
        "namespace",
        "chunkToken",
        "resourceVersion",
    ];
    let (mut offset, mut watermark, mut flags) = (None, None, [None, None]);
    while let Some(key) = r.next_key()? {
        let field = path(at, &key);
        if let Some(i) = TEXT.iter().position(|k| *k == key) {
            text[i] = Some(string(r, &field)?);
            continue;
        }
        match &*key {
            "offset" => offset = whole_u32(r, &field, false)?,
            "watermark" => {
                watermark = if object_or_null(r, &field)? {
                    Some(read_watermark(r, &field)?)
                } else {
                    None
                }
            }
            "exhausted" => flags[0] = Some(boolean(r, &field)?),
            "inconsistent" => flags[1] = Some(boolean(r, &field)?),
            _ => r.skip()?,
        }
    }
    let [plugin, cluster, namespace, chunk_token, resource_version] = text;
    Ok(crate::token::SourceState {
        source: SourceId::new(
            required(r, at, "plugin", plugin)?,
            required(r, at, "cluster", cluster)?,
            required(r, at, "namespace", namespace)?,
        ),
        chunk_token: required(r, at, "chunkToken", chunk_token)?,
        offset: required(r, at, "offset", offset)?,
        watermark,
        resource_version: required(r, at, "resourceVersion", resource_version)?,
        exhausted: required(r, at, "exhausted", flags[0])?,
        inconsistent: required(r, at, "inconsistent", flags[1])?,
    })
}

fn read_watermark(r: &mut Reader, at: &str) -> JsonResult<crate::token::Watermark> {
    let (mut sort_key, mut identity) = (None, None);
    while let Some(key) = r.next_key()? {
        let field = path(at, &key);
        match &*key {
            "sortKey" => sort_key = Some(string(r, &field)?),
            "identity" => {
                object(r, &field)?;
                let mut parts: [Option<String>; 4] = Default::default();
                const PARTS: [&str; 4] = ["plugin", "cluster", "namespace", "identifier"];
                while let Some(k) = r.next_key()? {
                    match PARTS.iter().position(|p| *p == k) {
                        Some(i) => parts[i] = Some(string(r, &path(&field, &k))?),
                        None => r.skip()?,
                    }
                }
                let [plugin, cluster, namespace, identifier] = parts;
                identity = Some(Identity {
                    plugin: required(r, &field, "plugin", plugin)?,
                    cluster: required(r, &field, "cluster", cluster)?,
                    namespace: required(r, &field, "namespace", namespace)?,
                    identifier: required(r, &field, "identifier", identifier)?,
                });
            }
            _ => r.skip()?,
        }
    }
    Ok(crate::token::Watermark {
        sort_key: required(r, at, "sortKey", sort_key)?,
        identity: required(r, at, "identity", identity)?,
    })
}

/// `ContinueTokenInput`: `{ resourceVersion, start }`.
pub enum ResourceVersion {
    /// A whole number within int64.
    Number(i64),
    /// A string, to be read as a decimal int64.
    Text(String),
}

/// `ContinueTokenInput` (`{ resourceVersion: number | string, start }`, unknown members rejected).
pub fn read_continue_input(text: &str) -> core::result::Result<(ResourceVersion, String), String> {
    whole(text, |r| {
        object(r, "input")?;
        let (mut rv, mut start) = (None, None);
        while let Some(key) = r.next_key()? {
            match &*key {
                "resourceVersion" => {
                    rv = Some(match r.value()? {
                        Value::String(s) => ResourceVersion::Text(s.into_owned()),
                        Value::Number(n) => match n.to_i64() {
                            Ok(n) => ResourceVersion::Number(n),
                            Err(_) => {
                                field_error(r, "resourceVersion", "expected a 64-bit whole number")?
                            }
                        },
                        other => expected(r, "resourceVersion", "a number or a string", &other)?,
                    })
                }
                "start" => start = Some(string(r, "start")?),
                other => return unknown(r, "input", other),
            }
        }
        Ok((
            required(r, "input", "resourceVersion", rv)?,
            required(r, "input", "start", start)?,
        ))
    })
    .map_err(|e| e.describe())
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

/// `KubeappsFetcherOptions`: `{ baseUrl, context?: { cluster?, namespace? }, headers? }`.
pub fn read_kubeapps_fetcher_options(text: &str) -> core::result::Result<FetcherOptions, String> {
    read_fetcher_options(text, "baseUrl", true)
}

/// `KubernetesListFetcherOptions`: `{ url, headers? }`.
pub fn read_list_fetcher_options(text: &str) -> core::result::Result<FetcherOptions, String> {
    read_fetcher_options(text, "url", false)
}

fn read_fetcher_options(
    text: &str,
    url_key: &str,
    with_context: bool,
) -> core::result::Result<FetcherOptions, String> {
    whole(text, |r| {
        object(r, "options")?;
        let mut o = FetcherOptions::default();
        let mut url = None;
        while let Some(key) = r.next_key()? {
            match &*key {
                k if k == url_key => url = Some(string(r, k)?),
                "context" if with_context => {
                    object(r, "context")?;
                    while let Some(k) = r.next_key()? {
                        match &*k {
                            "cluster" => o.cluster = string(r, "context.cluster")?,
                            "namespace" => o.namespace = string(r, "context.namespace")?,
                            _ => return unknown(r, "context", &k),
                        }
                    }
                }
                "headers" => {
                    object(r, "headers")?;
                    while let Some(name) = r.next_key()? {
                        let value = string(r, &path("headers", &name))?;
                        o.headers.push((name.into_owned(), value));
                    }
                    crate::sort::sort_by(&mut o.headers, |a, b| a.0.cmp(&b.0));
                }
                other => return unknown(r, "options", other),
            }
        }
        o.url = required(r, "options", url_key, url)?;
        Ok(o)
    })
    .map_err(|e| e.describe())
}

/// The key fields `chunk.js` writes for a chunk: a JSON array with, per item, the array
/// `[plugin, cluster, namespace, identifier, name, displayName, shortDescription, categories]`
/// (`categories` an array of strings).
pub fn read_item_keys(text: &str) -> core::result::Result<Vec<ItemFields>, String> {
    whole(text, |r| {
        array(r, "items")?;
        let mut items = Vec::new();
        while r.next_element()? {
            let at = index("items", items.len());
            array(r, &at)?;
            let mut s: [String; 7] = Default::default();
            for slot in &mut s {
                if !r.next_element()? {
                    return field_error(r, &at, "expected 8 fields");
                }
                *slot = string(r, &at)?;
            }
            if !r.next_element()? {
                return field_error(r, &at, "expected 8 fields");
            }
            let categories = strings(r, &at)?;
            if r.next_element()? {
                return field_error(r, &at, "expected 8 fields");
            }
            let [plugin, cluster, namespace, identifier, name, display_name, short_description] = s;
            items.push(ItemFields {
                plugin,
                cluster,
                namespace,
                identifier,
                name,
                display_name,
                short_description,
                categories,
            });
        }
        Ok(items)
    })
    .map_err(|e| e.describe())
}

#[cfg(test)]
mod tests;
