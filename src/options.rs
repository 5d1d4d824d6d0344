//! Pager options: the sources, page size, chunk limit, sort order and filter; validation and fingerprint.

use crate::prelude::*;
use xxhash_rust::xxh64::xxh64;

use crate::error::{PagerError, Result};
use crate::filter::{FilterOptions, FilterSide};
use crate::item::SourceId;
use crate::order::{SortField, SortOrder};
// A pager has at most as many sources as a page token can hold.
use crate::token::page_token::{encode_position, SourceRef, MAX_SOURCES, MAX_TOKEN_LEN};

/// Items per page when none is given.
pub const DEFAULT_PAGE_SIZE: u32 = 20;
/// Items per backend request when none is given (client-go's pager uses 500).
pub const DEFAULT_CHUNK_LIMIT: u32 = 500;
/// Most items a source read whole may hold (`SOURCE_TOO_LARGE` past it).
pub const DEFAULT_MAX_SOURCE_ITEMS: u32 = 10_000;
/// Chunks in a row without a new item before `NO_PROGRESS`.
pub const DEFAULT_MAX_CHUNKS_WITHOUT_PROGRESS: u32 = 256;
/// Largest page size and chunk limit accepted.
pub const MAX_PAGE_SIZE: u32 = 10_000;
/// Bytes a page token holds before its base64url text (at most 8 KiB) is too long: 6,144.
pub const MAX_TOKEN_BYTES: usize = MAX_TOKEN_LEN / 4 * 3;
/// The part of a page token kept for the sources' watermarks (half of it, 3,072 bytes), shared
/// equally: see [`PagerOptions::max_key_bytes`]. The other half holds the sources' identities
/// (checked by [`PagerOptions::validate`]), offsets and tokens.
pub const KEY_BYTES: usize = MAX_TOKEN_BYTES / 2;
/// What a watermark may take in a page token besides its strings: tags and length prefixes.
const KEY_OVERHEAD: usize = 16;
/// Bytes a source's offset may add to its position as it grows (a varint of up to 5 bytes).
const OFFSET_GROWTH: usize = 4;

/// How a source pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SourceKind {
    /// A Kubernetes list: continue tokens, resourceVersion snapshots, 410 Expired.
    Kubernetes,
    /// A Kubeapps plugin today: decimal item offsets, no snapshot.
    Kubeapps,
    /// Like `Kubeapps`, but the order changes from one request to the next.
    Unordered,
}

impl SourceKind {
    /// The order a source of this kind has when none is given: `Name` for
    /// `Kubernetes` and `Kubeapps`, `None` for `Unordered`.
    pub fn default_order(self) -> SourceOrder {
        match self {
            SourceKind::Kubernetes | SourceKind::Kubeapps => SourceOrder::Name,
            SourceKind::Unordered => SourceOrder::None,
        }
    }

    /// Whether names are unique within one list of this kind, so that a next
    /// chunk's names are all larger than the last one read (Kubernetes object
    /// names in one namespace). Otherwise equal names may straddle chunks.
    pub fn strict(self) -> bool {
        self == SourceKind::Kubernetes
    }

    /// The kind a source of Kubeapps' `plugin` has when none is declared (docs/DESIGN.md
    /// "Defaults by plugin"): `fluxv2.packages` walks a Go map over its repositories (any order,
    /// another on every request): `Unordered`; every other plugin, `helm.packages` (PostgreSQL
    /// `ORDER BY name LIMIT/OFFSET` under an unknown collation) and `kapp_controller.packages`
    /// (offsets over PackageMetadata names) included, pages by decimal offsets: `Kubeapps`.
    /// `Kubernetes` is never a default: only a declared apiserver list is one.
    pub fn for_plugin(plugin: &str) -> SourceKind {
        if plugin == "fluxv2.packages" {
            SourceKind::Unordered
        } else {
            SourceKind::Kubeapps
        }
    }

    /// Byte used for this kind in the fingerprint.
    fn code(self) -> u8 {
        match self {
            SourceKind::Kubernetes => 0,
            SourceKind::Kubeapps => 1,
            SourceKind::Unordered => 2,
        }
    }
}

/// The order a source streams its items in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SourceOrder {
    /// By `name`, in the merge's order of names: byte order, or under a collated `name` sort
    /// ([`SortOrder::Collated`]) the pager's collation (a Kubeapps plugin on a database whose
    /// collation is a natural one).
    Name,
    /// No order: read whole before merging.
    None,
}

/// One source of a pager.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceSpec {
    /// The source's identity.
    pub id: SourceId,
    /// How it pages.
    pub kind: SourceKind,
    /// Its order; `None` = the kind's default (see docs/DESIGN.md).
    pub order: Option<SourceOrder>,
    /// Who applies the filter to its items; `None` = by its plugin (see [`SourceSpec::filter_side`]).
    pub filter: Option<FilterSide>,
}

/// The Kubeapps plugins whose `GetAvailablePackageSummaries` applies `filterOptions`.
pub const FILTERING_PLUGINS: [&str; 3] = [
    "helm.packages",
    "fluxv2.packages",
    "kapp_controller.packages",
];

impl SourceSpec {
    /// A source of `id` with its plugin's default kind ([`SourceKind::for_plugin`]) and order:
    /// what `sources: [{ plugin, cluster, namespace }]` declares.
    pub fn new(id: SourceId) -> Self {
        SourceSpec {
            kind: SourceKind::for_plugin(&id.plugin),
            id,
            order: None,
            filter: None,
        }
    }

    /// Whether the source is known to list in `sort`'s order, from what its plugin does rather
    /// than from what it showed: `kapp_controller.packages` slices its PackageMetadata names sorted
    /// by bytes (Go's `sort.Strings`), so under the byte order of `name` its order is the merge
    /// order, and a page token's count of what it consumed is exact even when every identity the
    /// token holds for it was deleted since (no two histories share that token: see docs/DESIGN.md
    /// "Order is learned"). False for any other plugin (a helm database's collation is unknown),
    /// a declared kind or order, and every other sort.
    pub fn lists_in(&self, sort: SortOrder) -> bool {
        self.id.plugin == "kapp_controller.packages"
            && self.kind == SourceKind::Kubeapps
            && self.order.is_none()
            && sort == SortOrder::Name
    }

    /// The source's order: the one given, else its kind's [default](SourceKind::default_order).
    pub fn effective_order(&self) -> SourceOrder {
        // A Kubernetes list over all namespaces comes in key order, namespace first, then name:
        // not name order, so by default it is read whole (it is still one snapshot).
        let all_namespaces = self.kind == SourceKind::Kubernetes && self.id.namespace.is_empty();
        self.order.unwrap_or(if all_namespaces {
            SourceOrder::None
        } else {
            self.kind.default_order()
        })
    }

    /// Who applies the filter: the one given, else [`FilterSide::Source`] for a plugin of
    /// [`FILTERING_PLUGINS`] paged through kubeapps-apis (any kind but `kubernetes`, a plain list
    /// that takes no `filterOptions`), else [`FilterSide::Pager`].
    pub fn filter_side(&self) -> FilterSide {
        self.filter.unwrap_or(
            if self.kind != SourceKind::Kubernetes
                && FILTERING_PLUGINS.contains(&self.id.plugin.as_str())
            {
                FilterSide::Source
            } else {
                FilterSide::Pager
            },
        )
    }

    /// Whether the source's display names are its names, so that its name order is, as far as
    /// it goes, the `displayName` order too: `helm.packages` paged by offsets in its default
    /// order (its summaries' `displayName` is the chart's name, and it lists `ORDER BY
    /// info->>'name'`). Not `fluxv2.packages` (same display names, but a Go map walk: no order),
    /// nor `kapp_controller.packages` (sorted by PackageMetadata name bytes, its display names
    /// another field: `Flux Helm Controller` is `helm-controller.fluxcd…`).
    pub fn displays_its_names(&self) -> bool {
        self.id.plugin == "helm.packages"
            && self.kind == SourceKind::Kubeapps
            && self.effective_order() == SourceOrder::Name
    }

    /// Whether the pager can stream this source under `sort`: its order is the
    /// merge order (`Name` under [`SortOrder::Name`] or a collated `name` sort), or, under a
    /// `displayName` sort (plain or collated), it [displays its names](Self::displays_its_names)
    /// and streams in its name order while its answers agree with the display-name order (a
    /// source whose answer does not is switched to a whole read, as for any source found out of
    /// the merge order: docs/DESIGN.md "Order is learned"). Otherwise the
    /// pager reads it whole (at most `max_source_items`) and sorts it in memory.
    ///
    /// A strict source (`kubernetes`) never streams under a collation: the apiserver lists in
    /// byte order, and distinct names can be ties of the collation (`a-b`, `ab`), which a strict
    /// source's frontier would not wait for.
    ///
    /// Under [`SortOrder::Apiserver`] (`namespace/name`), a `kubernetes` source streams over one
    /// namespace or all of them (an apiserver lists in that order: its storage keys), unless its
    /// order is declared `none`; any other source only over one namespace, in `name` order (its
    /// items then share one namespace, so the two orders agree).
    pub fn streams_under(&self, sort: SortOrder) -> bool {
        if sort == SortOrder::Apiserver {
            return self.order != Some(SourceOrder::None)
                && (self.kind == SourceKind::Kubernetes
                    || (!self.id.namespace.is_empty()
                        && self.effective_order() == SourceOrder::Name));
        }
        (sort.field() == SortField::Name || self.displays_its_names())
            && self.effective_order() == SourceOrder::Name
            && !(sort.collation().is_some() && self.kind.strict())
    }
}

/// Everything a pager is made of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PagerOptions {
    /// The sources, 0 to 64 (none: an empty, done list), identities unique.
    pub sources: Vec<SourceSpec>,
    /// Items per page, 1 to 10,000.
    pub page_size: u32,
    /// The largest chunk: items per backend request (`limit`), 1 to 10,000. A streamed source's
    /// chunks start at 2 × ceil(`page_size` / streamed sources), at least 4, and double up to it
    /// (slow start; a resume starts small again).
    pub chunk_limit: u32,
    /// The merge order.
    pub sort: SortOrder,
    /// The client-side filter.
    pub filter: FilterOptions,
    /// Cap for sources read whole.
    pub max_source_items: u32,
    /// Bound for `NO_PROGRESS`.
    pub max_chunks_without_progress: u32,
    /// The id of the caller's custom predicate, if any (JS: `predicate.id`). For every source the
    /// pager filters ([`FilterSide::Pager`]) the caller's verdict on each item, fed with
    /// [`Pager::feed_judged`](crate::Pager::feed_judged), replaces the rules of `filter` (query,
    /// categories, repositories; `plugins` still applies); the sources that filter themselves are
    /// still sent the filter and keep what they answer. The id names the predicate's rule: it
    /// enters the [fingerprint](PagerOptions::fingerprint), so a page token is only resumed under
    /// the same id (a changed rule needs a new id). Not empty.
    pub predicate: Option<String>,
}

impl PagerOptions {
    /// Options with defaults for everything but the sources.
    pub fn new(sources: Vec<SourceSpec>) -> Self {
        PagerOptions {
            sources,
            page_size: DEFAULT_PAGE_SIZE,
            chunk_limit: DEFAULT_CHUNK_LIMIT,
            sort: SortOrder::Name,
            filter: FilterOptions::default(),
            max_source_items: DEFAULT_MAX_SOURCE_ITEMS,
            max_chunks_without_progress: DEFAULT_MAX_CHUNKS_WITHOUT_PROGRESS,
            predicate: None,
        }
    }

    /// The longest key an item may have, in UTF-8 bytes: its sort field's value (`name`, or
    /// `displayName`) plus its identifier, plus its plugin, cluster and namespace when they are
    /// not its source's: 3,056 (half a page token, less the watermark's tags), whatever the
    /// number of sources. Longer, no position holding it could be written: a chunk with such a key
    /// is `INVALID_RESPONSE`. The sources share the rest of the token by what their keys and
    /// tokens actually take (six sources with 253-byte names and identifiers fit with room to
    /// spare); a position that really does not fit makes `take_page` fail with `too-long`, naming
    /// what takes the room.
    pub fn max_key_bytes(&self) -> usize {
        KEY_BYTES - KEY_OVERHEAD
    }

    /// Checks every rule; `INVALID_OPTIONS` names the first field that breaks one.
    ///
    /// Rules: 0 to 64 `sources` (none is an empty list: its first page is empty and done, as a
    /// dashboard with no packages plugin configured has) with unique identities and non-empty plugin
    /// names, whose identities take at most half a page token (3,072 bytes with
    /// the fixed fields, so that every source's position fits beside keys of up
    /// to [`max_key_bytes`](PagerOptions::max_key_bytes)); `pageSize` and
    /// `chunkLimit` in 1..=10,000; `filter.pkgVersion` and `filter.appVersion` empty unless every
    /// source filters ([`SourceSpec::filter_side`]); `maxSourceItems` and
    /// `maxChunksWithoutProgress` at least 1; a `predicate` id not empty; a collated sort only in
    /// a build with the `collation` feature (the npm entry `kubeapps-pager/collation`: the others
    /// say to import it). The error's `field` uses the JavaScript names: `sources`, `sources[2]`,
    /// `sources[2].plugin`, `pageSize`, `chunkLimit`, `filter.pkgVersion`, `maxSourceItems`,
    /// `maxChunksWithoutProgress`, `predicate.id`, `collation`.
    pub fn validate(&self) -> Result<()> {
        if matches!(self.sort, SortOrder::Collated(..)) && !crate::collation::AVAILABLE {
            return Err(PagerError::options(
                "collation",
                format!(
                    "this entry has no collator; import the pager from {:?} to sort by a collation",
                    crate::collation::ENTRY
                ),
            ));
        }
        if self.sources.len() > MAX_SOURCES {
            return Err(PagerError::options(
                "sources",
                format!(
                    "{} sources given; at most {MAX_SOURCES} are allowed",
                    self.sources.len()
                ),
            ));
        }
        for (i, s) in self.sources.iter().enumerate() {
            if s.id.plugin.is_empty() {
                return Err(PagerError::options(
                    format!("sources[{i}].plugin"),
                    "plugin name is empty",
                ));
            }
            // At most 64 sources: comparing with each earlier one is cheap.
            if self.sources[..i].iter().any(|earlier| earlier.id == s.id) {
                return Err(PagerError::options(
                    format!("sources[{i}]"),
                    format!("source {} is listed twice", s.id.label()),
                ));
            }
        }
        // The start position (every source idle, nothing read) with room for offsets to grow:
        // what every position holds besides its keys and tokens.
        let start = encode_position(0, MAX_PAGE_SIZE, self.sources.len(), &|i| {
            self.sources.get(i).map(|s| SourceRef {
                source: &s.id,
                chunk_token: "",
                chunk_wire: None,
                offset: 0,
                watermark: None,
                resource_version: "",
                exhausted: false,
                inconsistent: false,
                behind: false,
                anchors: Default::default(),
                late_watermark: None,
            })
        });
        let bytes = start.map_or(usize::MAX, |t| t.len() * 3 / 4);
        let needed = bytes.saturating_add(OFFSET_GROWTH * self.sources.len());
        if needed > MAX_TOKEN_BYTES - KEY_BYTES {
            return Err(PagerError::options(
                "sources",
                format!("the sources' plugin, cluster and namespace names would take {} bytes of every page token; at most {} are allowed, so that every position fits one (use fewer sources or shorter names)", if bytes == usize::MAX { format!("over {MAX_TOKEN_BYTES}") } else { needed.to_string() }, MAX_TOKEN_BYTES - KEY_BYTES),
            ));
        }
        if !self.filter.pkg_version.is_empty() || !self.filter.app_version.is_empty() {
            let field = if self.filter.pkg_version.is_empty() {
                "filter.appVersion"
            } else {
                "filter.pkgVersion"
            };
            if let Some(i) = self
                .sources
                .iter()
                .position(|s| s.filter_side() == FilterSide::Pager)
            {
                return Err(PagerError::options(
                    field,
                    format!(
                        "only a source that filters can match a version (a summary holds its latest alone); source {i} is filtered by the pager"
                    ),
                ));
            }
        }
        if self.predicate.as_deref() == Some("") {
            return Err(PagerError::options(
                "predicate.id",
                "the predicate's id is empty; it names the predicate's rule in every page token",
            ));
        }
        let ranges = [
            ("pageSize", self.page_size, MAX_PAGE_SIZE),
            ("chunkLimit", self.chunk_limit, MAX_PAGE_SIZE),
            ("maxSourceItems", self.max_source_items, u32::MAX),
            (
                "maxChunksWithoutProgress",
                self.max_chunks_without_progress,
                u32::MAX,
            ),
        ];
        for (field, value, max) in ranges {
            if value == 0 || value > max {
                return Err(PagerError::options(
                    field,
                    format!("{value} is out of range 1..={max}"),
                ));
            }
        }
        Ok(())
    }

    /// The fingerprint of (filter, sort order, source set) a page token is bound to.
    ///
    /// xxHash64 (seed 0, the `xxhash-rust` crate; spec:
    /// <https://github.com/Cyan4973/xxHash/blob/dev/doc/xxhash_spec.md>) over
    /// these bytes, in this order (`u8` one byte; `u64` 8 bytes little-endian;
    /// `str` = `u64` byte length + the UTF-8 bytes; `list` = `u64` count + each `str`):
    ///
    /// | field | encoding |
    /// |---|---|
    /// | layout version | `u8` = 1 |
    /// | sort | `u8`: 0 `name`, 1 `displayName`, 2 `name` collated, 3 `displayName` collated, 4 `apiserver`; when collated, then `str` the collation's [id](crate::Collation::fingerprint_id) (locale, settings, collator version) |
    /// | query | `str`, trimmed of Unicode white space (case kept) |
    /// | categories | `list`, sorted by bytes, duplicates removed |
    /// | repositories | `list`, same |
    /// | plugins | `list`, same |
    /// | sources | `u64` count, then per source sorted by (plugin, cluster, namespace) bytes: `str` plugin, `str` cluster, `str` namespace, `u8` kind (0 `kubernetes`, 1 `kubeapps`, 2 `unordered`), `u8` effective order (0 `name`, 1 `none`) |
    ///
    /// When the filter sends something to a source ([`FilterOptions::sends_nothing`] is false),
    /// the layout version is 2 and these follow: `str` pkgVersion, `str` appVersion, then per
    /// source in the same order `u8` [filter side](SourceSpec::filter_side) (0 pager, 1 source):
    /// a position in a list the source filtered is no position in the list the pager filters.
    /// With no such filter both keep the same items, and the bytes (and tokens) stay layout 1's.
    ///
    /// With a custom [`predicate`](PagerOptions::predicate) the layout version is 3: the bytes of
    /// layout 2 (the sides written whatever the filter sends: the predicate judges the pager's
    /// side alone), then `str` the predicate's id. Options without one keep the bytes above.
    ///
    /// So the order of sources, of filter values and the page size, chunk limit
    /// and caps do not change it; any change to what is listed, or how, does.
    pub fn fingerprint(&self) -> u64 {
        xxh64(&self.fingerprint_bytes(), 0)
    }

    /// The bytes [`fingerprint`](PagerOptions::fingerprint) hashes.
    fn fingerprint_bytes(&self) -> Vec<u8> {
        fn put_str(out: &mut Vec<u8>, s: &str) {
            out.extend_from_slice(&(s.len() as u64).to_le_bytes());
            out.extend_from_slice(s.as_bytes());
        }
        fn put_list(out: &mut Vec<u8>, v: &[String]) {
            out.extend_from_slice(&(v.len() as u64).to_le_bytes());
            for s in v {
                put_str(out, s);
            }
        }
        let f = self.filter.normalized();
        let sides = !f.sends_nothing() || self.predicate.is_some();
        let mut out = Vec::with_capacity(64 + 48 * self.sources.len());
        out.push(match (&self.predicate, sides) {
            (Some(_), _) => 3,
            (None, true) => 2,
            (None, false) => FINGERPRINT_LAYOUT,
        });
        out.push(match self.sort {
            SortOrder::Name => 0,
            SortOrder::DisplayName => 1,
            SortOrder::Collated(SortField::Name, _) => 2,
            SortOrder::Collated(SortField::DisplayName, _) => 3,
            SortOrder::Apiserver => 4,
        });
        // (Without the `collation` feature there is no id: such options never get this far.)
        if let Some(c) = self.sort.collation() {
            put_str(&mut out, c.fingerprint_id());
        }
        put_str(&mut out, &f.query);
        put_list(&mut out, &f.categories);
        put_list(&mut out, &f.repositories);
        put_list(&mut out, &f.plugins);
        let mut sources: Vec<&SourceSpec> = self.sources.iter().collect();
        sources.sort_by(|a, b| a.id.cmp(&b.id));
        out.extend_from_slice(&(sources.len() as u64).to_le_bytes());
        for s in &sources {
            put_str(&mut out, &s.id.plugin);
            put_str(&mut out, &s.id.cluster);
            put_str(&mut out, &s.id.namespace);
            out.push(s.kind.code());
            out.push(match s.effective_order() {
                SourceOrder::Name => 0,
                SourceOrder::None => 1,
            });
        }
        if sides {
            put_str(&mut out, &f.pkg_version);
            put_str(&mut out, &f.app_version);
            for s in &sources {
                out.push(match s.filter_side() {
                    FilterSide::Pager => 0,
                    FilterSide::Source => 1,
                });
            }
        }
        if let Some(id) = &self.predicate {
            put_str(&mut out, id);
        }
        out
    }
}

/// Version byte that starts the fingerprint's input (see [`PagerOptions::fingerprint`]).
const FINGERPRINT_LAYOUT: u8 = 1;

#[cfg(test)]
mod tests;
