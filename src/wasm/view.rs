//! The JavaScript views of the crate's values (the shapes of `src/wasm/types.d.ts`).
//!
//! Views handed out are the types' serde views (the boundary converts them with
//! serde-wasm-bindgen); a page token state, on `decodePageToken`'s path, is packed into one
//! string for a JS builder instead ([`pack_page_token`]: a third of the time). The codec's inputs
//! are read by their serde shapes from the JSON text `JSON.stringify` writes of them
//! ([`read_page_token`]: unknown members ignored, `watermark` may be missing or `null`;
//! [`read_continue_input`]: unknown members refused), with the member at fault named
//! (`sources[1].offset: …`).
//!
//! The pager module's inputs (options, fetcher options, failures) are read against their shapes
//! on the JS side (`src/wasm/inputs.js`), which packs what the core needs into one string, each
//! field by its name ([`Unpack`]): [`unpack_options`], [`unpack_filter`], [`unpack_failure`]. A chunk's key fields, read on every chunk, cross
//! without JSON too: [`ChunkFields`] reads them.

use crate::collation::Collation;
use crate::filter::{FilterOptions, FilterSide};
use crate::item::{Categories, FieldsRef, SourceId};
use crate::options::{PagerOptions, SourceKind, SourceOrder, SourceSpec};
use crate::order::{SortField, SortOrder};
use crate::pager::Failure;
use crate::prelude::*;
use crate::text::hex16;
use crate::token::{CoreToken, PageToken, PluginOffset};

// ---------------------------------------------------------------------------
// Writing

/// `PageTokenState` packed into one string for a JS builder (`makeTokenState` in
/// `src/wasm/codec.js`), which makes the same object as [`PageToken`]'s serde view in one call,
/// without JSON: the fingerprint's 16 hex digits, then numbers ([`push_number`]) and strings
/// (their length in UTF-16 units as a number, then the string) in the order the object holds
/// them: pageSize, the source count, then per source its flags (bit 0 a watermark, 1
/// `exhausted`, 2 `inconsistent`, 3 `behind`, 4 `anchors`, 5 `lateWatermark`), offset, plugin,
/// cluster, namespace, chunkToken, the watermark's sortKey, plugin, cluster, namespace and
/// identifier when it has one, resourceVersion, then the anchors (their count, then each as 16
/// hex digits) and the late watermark's five strings when there.
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
            | u32::from(s.inconsistent) << 2
            | u32::from(s.behind) << 3
            | u32::from(!s.anchors.is_empty()) << 4
            | u32::from(s.late_watermark.is_some()) << 5;
        push_number(&mut out, flags);
        push_number(&mut out, s.offset);
        put(&mut out, &s.source.plugin);
        put(&mut out, &s.source.cluster);
        put(&mut out, &s.source.namespace);
        put(&mut out, &s.chunk_token);
        let mark = |out: &mut String, m: &crate::token::Watermark| {
            put(out, &m.sort_key);
            put(out, &m.identity.plugin);
            put(out, &m.identity.cluster);
            put(out, &m.identity.namespace);
            put(out, &m.identity.identifier);
        };
        if let Some(m) = &s.watermark {
            mark(&mut out, m);
        }
        put(&mut out, &s.resource_version);
        if !s.anchors.is_empty() {
            push_number(&mut out, s.anchors.len() as u32);
            for h in &s.anchors {
                put(&mut out, &hex16(*h));
            }
        }
        if let Some(m) = &s.late_watermark {
            mark(&mut out, m);
        }
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

/// `KubeappsToken`: what `decodeKubeappsToken` hands out (`{ kind: "core", entries }` or
/// `{ kind: "offset", offset }`), by the token types' serde views.
#[derive(serde::Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum KubeappsToken {
    /// The core API's `{"plugin": offset}` map.
    Core(CoreToken),
    /// A plugin's decimal offset.
    Offset {
        /// The offset, or finished.
        offset: PluginOffset,
    },
}

// ---------------------------------------------------------------------------
// Reading: the codec's inputs, by their serde shapes

/// Reads `text` as `T`'s serde shape (serde_json), naming the member at fault as JS names it
/// (serde_path_to_error): `sources[1].offset: invalid type: string "1", expected …`. No byte
/// position: it means nothing to a caller who passed an object. Lone surrogates (which
/// `JSON.stringify` writes as `\udXXX` escapes) are serde_json's error too.
fn read_json<T: serde::de::DeserializeOwned>(text: &str) -> core::result::Result<T, String> {
    let describe = |path: String, e: serde_json::Error| {
        let path = if path == "." { "value" } else { &path };
        let message = e.to_string();
        let position = format!(" at line {} column {}", e.line(), e.column());
        let message = message.strip_suffix(&position).unwrap_or(&message);
        format!("{path}: {message}")
    };
    let mut de = serde_json::Deserializer::from_str(text);
    let value = serde_path_to_error::deserialize(&mut de)
        .map_err(|e| describe(e.path().to_string(), e.into_inner()))?;
    de.end().map_err(|e| describe(".".into(), e))?;
    Ok(value)
}

/// `PageTokenState` into a token (not checked: `encode` checks), by [`PageToken`]'s serde view.
/// Unknown members are ignored; `watermark` may be missing or `null`.
///
/// Errors: a message naming what does not fit, including a fingerprint that is not 16
/// lowercase hex digits and more than 64 sources.
pub fn read_page_token(text: &str) -> core::result::Result<PageToken, String> {
    read_json(text)
}

/// `ContinueTokenInput`'s `resourceVersion`.
#[derive(serde::Deserialize)]
#[serde(untagged)]
pub enum ResourceVersion {
    /// A whole number within int64.
    Number(i64),
    /// A string, to be read as a decimal int64.
    Text(String),
}

/// `ContinueTokenInput`: `{ resourceVersion: number | string, start: string }`.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ContinueInput {
    resource_version: ResourceVersion,
    start: String,
}

/// `ContinueTokenInput` (unknown members rejected).
pub fn read_continue_input(text: &str) -> core::result::Result<(ResourceVersion, String), String> {
    let input: ContinueInput = read_json(text)?;
    Ok((input.resource_version, input.start))
}

// ---------------------------------------------------------------------------
// Reading: what the JS readers packed, by name

/// Makes [`Name`] and [`NAMES`] from one list, so that a name's text and its variant are written
/// once.
macro_rules! names {
    ($($variant:ident = $text:literal,)*) => {
        /// Every name a packed input holds, its fields' and its choices', as JS writes them (the
        /// names of `inputs.js`'s shapes and of their choices).
        #[derive(Clone, Copy, PartialEq, Eq, Debug)]
        enum Name {
            $(
                #[doc = $text]
                $variant,
            )*
        }

        /// Each [`Name`] with its text.
        const NAMES: &[(&str, Name)] = &[$(($text, Name::$variant),)*];
    };
}

names! {
    // PagerOptions
    Sources = "sources",
    PageSize = "pageSize",
    ChunkLimit = "chunkLimit",
    Sort = "sort",
    Filter = "filter",
    MaxSourceItems = "maxSourceItems",
    MaxChunksWithoutProgress = "maxChunksWithoutProgress",
    Collation = "collation",
    Locale = "locale",
    // A source (its `filter`: the name above)
    Plugin = "plugin",
    Cluster = "cluster",
    Namespace = "namespace",
    Kind = "kind",
    Order = "order",
    // FilterOptions (its `plugins`: a list of plugins)
    Query = "query",
    Categories = "categories",
    Repositories = "repositories",
    Plugins = "plugins",
    PkgVersion = "pkgVersion",
    AppVersion = "appVersion",
    // A failure
    Status = "status",
    Reason = "reason",
    Continue = "continue",
    // Choices: sort, a source's kind, order and filter side (`name`: the sort's and the order's)
    DisplayName = "displayName",
    Apiserver = "apiserver",
    Kubernetes = "kubernetes",
    Kubeapps = "kubeapps",
    Unordered = "unordered",
    ByName = "name",
    NoOrder = "none",
    BySource = "source",
    ByPager = "pager",
}

/// Values packed by `pack` in `src/wasm/inputs.js` into one string, read in order: a number as
/// three characters of 15 bits each, low first (as [`push_number`] writes them), a string (a
/// choice too: its name) as its length in UTF-16 units (a number) then itself, a list as its
/// length then each item, an object as the number of its fields given then each one's name and
/// value ([`Unpack::object`]). Fields cross by name, never by position: the JS shapes and these
/// readers share the names of [`NAMES`], and no field order is kept on both sides. Past the end
/// (never, from `pack`) numbers read as 0 and strings as `""`.
pub struct Unpack<'a> {
    /// What is left to read.
    rest: &'a str,
    /// The first name read that no reader knows ([`Unpack::unknown`]).
    unknown: Option<&'a str>,
}

impl<'a> Unpack<'a> {
    /// A reader at the start of `packed`.
    pub fn new(packed: &'a str) -> Self {
        Unpack {
            rest: packed,
            unknown: None,
        }
    }

    /// The next number.
    pub fn number(&mut self) -> u64 {
        let mut n = 0;
        for shift in [0, 15, 30] {
            let mut chars = self.rest.chars();
            n |= chars.next().map_or(0, |c| u64::from(c) & 0x7FFF) << shift;
            self.rest = chars.as_str();
        }
        n
    }

    /// The next number, as a u32 (`pack` packs only whole numbers from 0 to 2^32 - 1 as such).
    fn u32(&mut self) -> u32 {
        self.number() as u32
    }

    /// The next string, borrowed.
    fn text(&mut self) -> &'a str {
        let units = self.number() as usize;
        let len = utf8_len(self.rest, units).unwrap_or(self.rest.len());
        let s = self.rest.get(..len).unwrap_or_default();
        self.rest = self.rest.get(len..).unwrap_or_default();
        s
    }

    /// The next string.
    pub fn string(&mut self) -> String {
        self.text().into()
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

    /// The next name (a field's or a choice's), or none for a text not in [`NAMES`]
    /// ([`Unpack::unknown`]).
    fn name(&mut self) -> Option<Name> {
        let text = self.text();
        let found = NAMES.iter().find(|(t, _)| *t == text).map(|&(_, n)| n);
        if found.is_none() {
            self.unknown(text);
        }
        found
    }

    /// The next object: for each of its fields given, `field` is handed the reader at the
    /// field's value and the field's name, and reads the value by that name, or calls
    /// [`Unpack::unexpected`] with a name that is no field of that object.
    fn object(&mut self, field: &mut dyn FnMut(&mut Self, Option<Name>)) {
        for _ in 0..self.number() {
            let name = self.name();
            field(self, name);
        }
    }

    /// For a text that is no name (never, from `pack`: it packs only the fields and choices of
    /// its shapes, whose names these readers share): the rest is not read (its layout is
    /// unknown) and [`Unpack::done`] fails naming it, so that a name changed on one side alone
    /// cannot drop an option silently.
    fn unknown(&mut self, text: &'a str) {
        self.unknown.get_or_insert(text);
        self.rest = "";
    }

    /// As [`Unpack::unknown`], for a name where it does not belong (`kind` in a filter); none:
    /// already said.
    fn unexpected(&mut self, name: Option<Name>) {
        if let Some(&(text, _)) = NAMES.iter().find(|(_, n)| Some(*n) == name) {
            self.unknown(text);
        }
    }

    /// `value`, or the error naming the first text read that was no name where it stood.
    fn done<T>(self, value: T) -> core::result::Result<T, String> {
        match self.unknown {
            None => Ok(value),
            Some(name) => Err(format!(
                "{name}: not a name the core reads here (src/wasm/inputs.js and src/wasm/view.rs disagree)"
            )),
        }
    }

    /// A `FilterOptions`, by its JS names (`FILTER` in inputs.js); a field not given is empty.
    fn filter(&mut self) -> FilterOptions {
        let mut f = FilterOptions::default();
        self.object(&mut |p, name| match name {
            Some(Name::Query) => f.query = p.string(),
            Some(Name::Categories) => f.categories = p.strings(),
            Some(Name::Repositories) => f.repositories = p.strings(),
            Some(Name::Plugins) => f.plugins = p.strings(),
            Some(Name::PkgVersion) => f.pkg_version = p.string(),
            Some(Name::AppVersion) => f.app_version = p.string(),
            other => p.unexpected(other),
        });
        f
    }

    /// A `SourceSpec`, by its JS names (`SOURCE` in inputs.js): cluster and namespace not given
    /// are `""`, a kind not given is the plugin's default ([`SourceKind::for_plugin`]).
    fn source(&mut self) -> SourceSpec {
        let mut id = SourceId::new("", "", "");
        let (mut kind, mut order, mut filter) = (None, None, None);
        self.object(&mut |p, name| match name {
            Some(Name::Plugin) => id.plugin = p.string(),
            Some(Name::Cluster) => id.cluster = p.string(),
            Some(Name::Namespace) => id.namespace = p.string(),
            Some(Name::Kind) => match p.name() {
                Some(Name::Kubernetes) => kind = Some(SourceKind::Kubernetes),
                Some(Name::Kubeapps) => kind = Some(SourceKind::Kubeapps),
                Some(Name::Unordered) => kind = Some(SourceKind::Unordered),
                other => p.unexpected(other),
            },
            Some(Name::Order) => match p.name() {
                Some(Name::ByName) => order = Some(SourceOrder::Name),
                Some(Name::NoOrder) => order = Some(SourceOrder::None),
                other => p.unexpected(other),
            },
            Some(Name::Filter) => match p.name() {
                Some(Name::BySource) => filter = Some(FilterSide::Source),
                Some(Name::ByPager) => filter = Some(FilterSide::Pager),
                other => p.unexpected(other),
            },
            other => p.unexpected(other),
        });
        SourceSpec {
            kind: kind.unwrap_or_else(|| SourceKind::for_plugin(&id.plugin)),
            id,
            order,
            filter,
        }
    }
}

/// `PagerOptions` as `readOptions` (`src/wasm/inputs.js`) packs them after reading them against
/// the `.d.ts` shape, by their JS names (`OPTIONS` in inputs.js), not checked
/// ([`PagerOptions::validate`] checks): a field not given keeps [`PagerOptions::new`]'s default;
/// `collation: {}` is the root collation. Errors: a text that is no name where it stands
/// ([`Unpack::unknown`]).
pub fn unpack_options(packed: &str) -> core::result::Result<PagerOptions, String> {
    let mut o = PagerOptions::new(Vec::new());
    let mut collation = None;
    let mut p = Unpack::new(packed);
    p.object(&mut |p, name| match name {
        Some(Name::Sources) => {
            // A loop, as in `strings` (size).
            for _ in 0..p.number() {
                let source = p.source();
                o.sources.push(source);
            }
        }
        Some(Name::PageSize) => o.page_size = p.u32(),
        Some(Name::ChunkLimit) => o.chunk_limit = p.u32(),
        Some(Name::Sort) => match p.name() {
            Some(Name::ByName) => o.sort = SortOrder::Name,
            Some(Name::DisplayName) => o.sort = SortOrder::DisplayName,
            Some(Name::Apiserver) => o.sort = SortOrder::Apiserver,
            other => p.unexpected(other),
        },
        Some(Name::Filter) => o.filter = p.filter(),
        Some(Name::MaxSourceItems) => o.max_source_items = p.u32(),
        Some(Name::MaxChunksWithoutProgress) => o.max_chunks_without_progress = p.u32(),
        Some(Name::Collation) => {
            // The locales are `Collation::locale`'s texts, not names of this reader's.
            let mut c = Collation::Root;
            p.object(&mut |p, name| match name {
                Some(Name::Locale) => {
                    let locale = p.text();
                    match Collation::from_locale(locale) {
                        Some(locale) => c = locale,
                        None => p.unknown(locale),
                    }
                }
                other => p.unexpected(other),
            });
            collation = Some(c);
        }
        other => p.unexpected(other),
    });
    // `collation: { locale }` orders the sort field by the locale (`readOptions` refuses one
    // beside `sort: "apiserver"`).
    if let Some(c) = collation {
        let field = if o.sort == SortOrder::DisplayName {
            SortField::DisplayName
        } else {
            SortField::Name
        };
        o.sort = SortOrder::Collated(field, c);
    }
    p.done(o)
}

/// A `FilterOptions` as `readFilter` (`src/wasm/inputs.js`) packs it, by its JS names.
pub fn unpack_filter(packed: &str) -> core::result::Result<FilterOptions, String> {
    let mut p = Unpack::new(packed);
    let f = p.filter();
    p.done(f)
}

/// A `ChunkFailure` as `readFailure` (`src/wasm/inputs.js`) packs it, by the names `status`,
/// `reason` and `continue` (each left out when the failure has none; an empty `continue` is
/// none).
pub fn unpack_failure(packed: &str) -> core::result::Result<Failure, String> {
    let mut f = Failure {
        status: 0,
        reason: None,
        continue_token: None,
    };
    let mut p = Unpack::new(packed);
    p.object(&mut |p, name| match name {
        Some(Name::Status) => f.status = p.number() as u16,
        Some(Name::Reason) => f.reason = Some(p.string()),
        Some(Name::Continue) => f.continue_token = Some(p.string()).filter(|s| !s.is_empty()),
        other => p.unexpected(other),
    });
    p.done(f)
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
        let bad = |i: usize| format!("items[{i}]: the key text does not match its lengths");
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

#[cfg(test)]
mod tests;
