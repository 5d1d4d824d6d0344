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
//! on the JS side (`src/wasm/inputs.js`), which packs what the core needs into one string, in the
//! order the core hands it ([`OPTIONS_ORDER`], [`FILTER_ORDER`], [`FAILURE_ORDER`]: the one
//! definition of each order): [`unpack_options`], [`unpack_filter`], [`unpack_failure`]. A chunk's key fields, read on every chunk, cross
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
// Reading: what the JS readers packed

/// Values packed by the JS readers of `src/wasm/inputs.js` (`pack`, `readFailure`) into one
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

    /// A `FilterOptions`: query, categories, repositories, plugins, pkgVersion, appVersion.
    fn filter(&mut self) -> FilterOptions {
        FilterOptions {
            query: self.string(),
            categories: self.strings(),
            repositories: self.strings(),
            plugins: self.strings(),
            pkg_version: self.string(),
            app_version: self.string(),
        }
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

/// The order [`unpack_options`] reads `PagerOptions` in, by their JS names: the one definition of
/// that order. The boundary hands it to `readOptions` (`src/wasm/inputs.js`), which packs by it,
/// finding each field in its shapes by name (it keeps no field order of its own). `name(…)` lists
/// an object's fields (a list's items') or a choice's values in their order (a choice packs as 1 +
/// its index here); the locales are [`Collation::ALL`]'s, the filter's fields [`FILTER_ORDER`].
/// Tested against the reader by `options_unpack_in_the_order_the_core_hands_out`.
pub const OPTIONS_ORDER: &str = "sources(plugin cluster namespace kind(kubernetes kubeapps unordered) order(name none) filter(source pager)) pageSize chunkLimit sort(name displayName apiserver) filter(query categories repositories plugins pkgVersion appVersion) maxSourceItems maxChunksWithoutProgress collation(locale(root en))";

/// The order [`unpack_filter`] reads a `FilterOptions` in (`readFilter` packs by it), as in
/// [`OPTIONS_ORDER`].
pub const FILTER_ORDER: &str = "query categories repositories plugins pkgVersion appVersion";

/// The order [`unpack_failure`] reads a failure in (`readFailure` packs by it).
pub const FAILURE_ORDER: &str = "status reason continue";

/// `PagerOptions` as `readOptions` (`src/wasm/inputs.js`) packs them after reading them against
/// the `.d.ts` shape (not checked: [`PagerOptions::validate`] checks), in [`OPTIONS_ORDER`]: the sources
/// (a count, then each one's plugin, cluster, namespace, kind, order and filter side), pageSize,
/// chunkLimit, sort, the filter's query, categories, repositories, plugins, pkgVersion and
/// appVersion, maxSourceItems, maxChunksWithoutProgress and the collation's locale; a choice or a
/// number is 1 + its index or value, 0 when not given.
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
            filter: match p.number() {
                1 => Some(FilterSide::Source),
                2 => Some(FilterSide::Pager),
                _ => None,
            },
        });
    }
    let mut o = PagerOptions::new(sources);
    let page_size = p.optional();
    let chunk_limit = p.optional();
    let sort = p.number();
    let display_name = sort == 2;
    if display_name {
        o.sort = SortOrder::DisplayName;
    } else if sort == 3 {
        o.sort = SortOrder::Apiserver;
    }
    o.filter = p.filter();
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
    // (`readOptions` refuses a collation beside `sort: "apiserver"`.)
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

/// A `FilterOptions` as `readFilter` (`src/wasm/inputs.js`) packs it, in the order of
/// [`unpack_options`]' filter fields.
pub fn unpack_filter(packed: &str) -> FilterOptions {
    Unpack::new(packed).filter()
}

/// A `ChunkFailure` as `readFailure` (`src/wasm/inputs.js`) packs it: the status, then `reason`
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
/// of `text`. A field the core does not read for the source (`Pager::fields_read`) comes empty.
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
