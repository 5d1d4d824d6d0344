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
mod tests {
    use super::*;

    fn src(plugin: &str, ns: &str, kind: SourceKind) -> SourceSpec {
        SourceSpec {
            id: SourceId::new(plugin, "default", ns),
            kind,
            order: None,
            filter: None,
        }
    }

    fn opts() -> PagerOptions {
        PagerOptions::new(vec![
            src("helm.packages", "kubeapps", SourceKind::Kubeapps),
            src(
                "kapp_controller.packages",
                "kubeapps",
                SourceKind::Kubernetes,
            ),
        ])
    }

    fn field_of(o: &PagerOptions) -> Option<String> {
        match o.validate() {
            Ok(()) => None,
            Err(PagerError::InvalidOptions { field, .. }) => Some(field),
            Err(e) => panic!("unexpected error {e:?}"),
        }
    }

    #[test]
    fn validate_table() {
        type Edit = fn(&mut PagerOptions);
        let table: Vec<(&str, Edit, Option<&str>)> = vec![
            ("defaults are valid", |_| {}, None),
            ("no sources (an empty list)", |o| o.sources.clear(), None),
            (
                "65 sources",
                |o| {
                    o.sources = (0..65)
                        .map(|i| src("p", &format!("ns-{i}"), SourceKind::Kubeapps))
                        .collect();
                },
                Some("sources"),
            ),
            (
                "64 sources",
                |o| {
                    o.sources = (0..64)
                        .map(|i| src("p", &format!("ns-{i}"), SourceKind::Kubeapps))
                        .collect();
                },
                None,
            ),
            (
                "duplicate identity",
                |o| o.sources.push(o.sources[0].clone()),
                Some("sources[2]"),
            ),
            (
                "same identity, other kind",
                |o| {
                    let mut s = o.sources[1].clone();
                    s.kind = SourceKind::Unordered;
                    o.sources.push(s);
                },
                Some("sources[2]"),
            ),
            (
                "same plugin, other namespace is fine",
                |o| {
                    o.sources
                        .push(src("helm.packages", "team-1", SourceKind::Kubeapps))
                },
                None,
            ),
            (
                "empty plugin name",
                |o| o.sources[1].id.plugin.clear(),
                Some("sources[1].plugin"),
            ),
            (
                "empty namespace is fine (all namespaces)",
                |o| o.sources[0].id.namespace.clear(),
                None,
            ),
            ("page size 0", |o| o.page_size = 0, Some("pageSize")),
            ("page size 10,000", |o| o.page_size = 10_000, None),
            (
                "page size 10,001",
                |o| o.page_size = 10_001,
                Some("pageSize"),
            ),
            ("chunk limit 0", |o| o.chunk_limit = 0, Some("chunkLimit")),
            (
                "chunk limit 10,001",
                |o| o.chunk_limit = 10_001,
                Some("chunkLimit"),
            ),
            ("chunk limit 1", |o| o.chunk_limit = 1, None),
            (
                "max source items 0",
                |o| o.max_source_items = 0,
                Some("maxSourceItems"),
            ),
            (
                "max chunks without progress 0",
                |o| o.max_chunks_without_progress = 0,
                Some("maxChunksWithoutProgress"),
            ),
            (
                "64 sources whose names leave no room for a position",
                |o| {
                    o.sources = (0..64)
                        .map(|i| src("p", &format!("{i:0>50}"), SourceKind::Kubeapps))
                        .collect();
                },
                Some("sources"),
            ),
            (
                "one source whose namespace alone fills a page token",
                |o| o.sources[0].id.namespace = "n".repeat(7000),
                Some("sources"),
            ),
        ];
        for (why, edit, want) in table {
            let mut o = opts();
            edit(&mut o);
            assert_eq!(field_of(&o).as_deref(), want, "{why}");
        }
    }

    /// Whatever options pass `validate`, a position whose one source holds a watermark of
    /// `max_key_bytes` (the others none) and the largest offset still fits a page token.
    #[test]
    fn a_position_with_a_key_at_the_limit_always_fits_a_page_token() {
        use crate::item::Identity;
        use crate::token::page_token::{PageToken, SourceState, Watermark};
        for n in [1usize, 2, 3, 7, 16, 33, 64] {
            // The longest namespace the options accept for n sources, found by bisection.
            let with = |len: usize| {
                let mut o = PagerOptions::new(
                    (0..n)
                        .map(|i| {
                            src(
                                &format!("plugin-{i}"),
                                &"n".repeat(len),
                                SourceKind::Kubeapps,
                            )
                        })
                        .collect(),
                );
                o.page_size = MAX_PAGE_SIZE;
                o
            };
            let (mut lo, mut hi) = (0, 8192);
            while lo + 1 < hi {
                let mid = (lo + hi) / 2;
                if with(mid).validate().is_ok() {
                    lo = mid
                } else {
                    hi = mid
                }
            }
            let o = with(lo);
            o.validate().expect("the longest namespace accepted");
            assert!(with(lo + 1).validate().is_err());
            let max = o.max_key_bytes();
            let token = PageToken {
                fingerprint: u64::MAX,
                page_size: MAX_PAGE_SIZE,
                sources: o
                    .sources
                    .iter()
                    .enumerate()
                    .map(|(i, s)| SourceState {
                        source: s.id.clone(),
                        chunk_token: String::new(),
                        offset: u32::MAX,
                        // Another plugin, cluster and namespace than the source's: all in the key.
                        watermark: (i == 0).then(|| Watermark {
                            sort_key: "k".repeat(max - 4),
                            identity: Identity {
                                plugin: "p".into(),
                                cluster: "c".into(),
                                namespace: "n".into(),
                                identifier: "i".into(),
                            },
                        }),
                        resource_version: String::new(),
                        exhausted: true,
                        inconsistent: true,
                        behind: true,
                        anchors: Vec::new(),
                        late_watermark: None,
                    })
                    .collect(),
            };
            let text = token
                .encode()
                .unwrap_or_else(|e| panic!("{n} sources, namespace {lo}: {e}"));
            assert!(text.len() <= MAX_TOKEN_LEN);
        }
        assert_eq!(
            PagerOptions::new(vec![src("p", "n", SourceKind::Kubeapps)]).max_key_bytes(),
            3056
        );
    }

    #[test]
    #[cfg(feature = "collation")]
    fn fingerprint_tells_collations_apart() {
        use crate::Collation;
        let prints: Vec<u64> = [
            SortOrder::Name,
            SortOrder::DisplayName,
            SortOrder::Collated(SortField::Name, Collation::Root),
            SortOrder::Collated(SortField::Name, Collation::En),
            SortOrder::Collated(SortField::DisplayName, Collation::Root),
            SortOrder::Collated(SortField::DisplayName, Collation::En),
        ]
        .into_iter()
        .map(|sort| {
            let mut o = opts();
            o.sort = sort;
            o.fingerprint()
        })
        .collect();
        for (i, a) in prints.iter().enumerate() {
            for b in &prints[i + 1..] {
                assert_ne!(a, b);
            }
        }
        // The layout: sort byte 2, then the collation's id as a `str`.
        let mut o = opts();
        o.sort = SortOrder::Collated(SortField::Name, Collation::En);
        let bytes = o.fingerprint_bytes();
        let id = Collation::En.fingerprint_id();
        assert_eq!(bytes[1], 2);
        assert_eq!(bytes[2..10], (id.len() as u64).to_le_bytes());
        assert_eq!(&bytes[10..10 + id.len()], id.as_bytes());
    }

    #[test]
    fn a_collation_needs_the_collation_feature() {
        let mut o = opts();
        o.sort = SortOrder::Collated(SortField::Name, crate::Collation::En);
        let r = o.validate();
        if crate::collation::AVAILABLE {
            assert_eq!(r, Ok(()));
        } else {
            let e = r.unwrap_err();
            assert_eq!(e.code(), "INVALID_OPTIONS");
            assert_eq!(e.details()["field"], "collation");
            assert_eq!(e.details()["entry"], "kubeapps-pager/collation");
            assert!(e.message().contains("kubeapps-pager/collation"));
        }
    }

    #[test]
    fn defaults_by_plugin() {
        for (plugin, kind) in [
            ("helm.packages", SourceKind::Kubeapps),
            ("kapp_controller.packages", SourceKind::Kubeapps),
            ("fluxv2.packages", SourceKind::Unordered),
            ("my.plugin", SourceKind::Kubeapps),
        ] {
            let s = SourceSpec::new(SourceId::new(plugin, "default", "kubeapps"));
            assert_eq!((s.kind, s.order), (kind, None), "{plugin}");
        }
        // Not declared and declared as its default: one fingerprint (a token minted either way
        // resumes the other).
        let mut declared = src("fluxv2.packages", "kubeapps", SourceKind::Unordered);
        let zero = PagerOptions::new(vec![SourceSpec::new(declared.id.clone())]);
        assert_eq!(
            zero.fingerprint(),
            PagerOptions::new(vec![declared.clone()]).fingerprint()
        );
        declared.kind = SourceKind::Kubeapps;
        assert_ne!(
            zero.fingerprint(),
            PagerOptions::new(vec![declared]).fingerprint()
        );
    }

    #[test]
    fn validation_error_has_code_and_field() {
        let mut o = opts();
        o.page_size = 0;
        let e = o.validate().unwrap_err();
        assert_eq!(e.code(), "INVALID_OPTIONS");
        assert_eq!(e.details()["field"], "pageSize");
    }

    #[test]
    fn effective_order_and_streaming() {
        let mut s = src("p", "n", SourceKind::Unordered);
        assert_eq!(s.effective_order(), SourceOrder::None);
        assert!(!s.streams_under(SortOrder::Name));
        s.order = Some(SourceOrder::Name);
        assert!(s.streams_under(SortOrder::Name));
        assert!(!s.streams_under(SortOrder::DisplayName));
        // Under displayName only a source whose display names are its names streams: helm by
        // offsets in its default order; not fluxv2 (a map walk), kapp_controller (other display
        // names), a Kubernetes list, or a helm source declared `none`.
        let helm = SourceSpec::new(SourceId::new("helm.packages", "c", "n"));
        assert!(helm.displays_its_names() && helm.streams_under(SortOrder::DisplayName));
        for plugin in ["fluxv2.packages", "kapp_controller.packages", "other"] {
            let other = SourceSpec::new(SourceId::new(plugin, "c", "n"));
            assert!(!other.streams_under(SortOrder::DisplayName), "{plugin}");
        }
        let mut helm_none = helm.clone();
        helm_none.order = Some(SourceOrder::None);
        assert!(!helm_none.streams_under(SortOrder::DisplayName));
        let mut helm_kube = helm.clone();
        helm_kube.kind = SourceKind::Kubernetes;
        assert!(!helm_kube.streams_under(SortOrder::DisplayName));
        let k = src("p", "n", SourceKind::Kubernetes);
        assert_eq!(k.effective_order(), SourceOrder::Name);
        assert!(k.kind.strict() && !SourceKind::Kubeapps.strict());
        // Over all namespaces a Kubernetes list is in namespace/name order: read whole by default.
        let all = src("p", "", SourceKind::Kubernetes);
        assert_eq!(all.effective_order(), SourceOrder::None);
        assert!(!all.streams_under(SortOrder::Name));
        // Under the apiserver's order (namespace/name) it streams, as does a namespaced list; a
        // kubeapps source over all namespaces does not (its offsets are in name order), one in a
        // namespace does; an order declared `none` is read whole under any sort.
        assert!(all.streams_under(SortOrder::Apiserver));
        assert!(k.streams_under(SortOrder::Apiserver));
        let kubeapps_all = src("p", "", SourceKind::Kubeapps);
        assert!(!kubeapps_all.streams_under(SortOrder::Apiserver));
        assert!(src("p", "n", SourceKind::Kubeapps).streams_under(SortOrder::Apiserver));
        let mut declared_none = all.clone();
        declared_none.order = Some(SourceOrder::None);
        assert!(!declared_none.streams_under(SortOrder::Apiserver));
        // The sort enters the fingerprint: a token made under one order is no position in the other.
        let mut by_key = opts();
        by_key.sort = SortOrder::Apiserver;
        assert_ne!(by_key.fingerprint(), opts().fingerprint());
        // Under a collated `name` sort a `kubeapps` source in name order streams (its database's
        // collation may be a natural one); a strict source never does; under displayName none.
        // (A build without the collator refuses such options: see the next test.)
        if !crate::collation::AVAILABLE {
            return;
        }
        let by_name = SortOrder::Collated(SortField::Name, crate::Collation::Root);
        let by_display = SortOrder::Collated(SortField::DisplayName, crate::Collation::Root);
        let kubeapps = src("p", "n", SourceKind::Kubeapps);
        assert!(kubeapps.streams_under(by_name));
        assert!(!kubeapps.streams_under(by_display));
        // A helm source streams under a collated displayName sort too (its display names are its
        // names), as under the plain one.
        assert!(src("helm.packages", "n", SourceKind::Kubeapps).streams_under(by_display));
        assert!(!k.streams_under(by_name));
        s.order = Some(SourceOrder::None);
        assert!(!s.streams_under(by_name));
    }

    #[test]
    fn fingerprint_hashes_the_documented_layout() {
        let mut o = opts();
        o.filter = FilterOptions {
            query: " Db ".into(),
            categories: vec!["b".into(), "a".into(), "b".into()],
            repositories: vec![],
            plugins: vec!["x".into()],
            ..Default::default()
        };
        o.sort = SortOrder::DisplayName;
        // The filter sends something: layout 2.
        let mut want: Vec<u8> = vec![2, 1];
        let s = |out: &mut Vec<u8>, v: &str| {
            out.extend_from_slice(&(v.len() as u64).to_le_bytes());
            out.extend_from_slice(v.as_bytes());
        };
        s(&mut want, "Db");
        want.extend_from_slice(&2u64.to_le_bytes());
        s(&mut want, "a");
        s(&mut want, "b");
        want.extend_from_slice(&0u64.to_le_bytes());
        want.extend_from_slice(&1u64.to_le_bytes());
        s(&mut want, "x");
        want.extend_from_slice(&2u64.to_le_bytes());
        for (plugin, kind) in [("helm.packages", 1u8), ("kapp_controller.packages", 0u8)] {
            s(&mut want, plugin);
            s(&mut want, "default");
            s(&mut want, "kubeapps");
            want.push(kind);
            want.push(0);
        }
        s(&mut want, "");
        s(&mut want, "");
        // helm.packages of kind kubeapps filters; a kubernetes list does not.
        want.extend_from_slice(&[1, 0]);
        assert_eq!(o.fingerprint_bytes(), want);
        assert_eq!(o.fingerprint(), xxh64(&want, 0));
        // Stated sides change it; with nothing sent (plugins alone) neither they nor the
        // layout-2 bytes count: the bytes are layout 1's.
        let before = o.fingerprint();
        o.sources[0].filter = Some(FilterSide::Pager);
        assert_ne!(o.fingerprint(), before);
        o.filter = FilterOptions {
            plugins: vec!["x".into()],
            ..Default::default()
        };
        let pager_side = o.fingerprint_bytes();
        assert_eq!(pager_side[0], 1);
        o.sources[0].filter = None;
        assert_eq!(o.fingerprint_bytes(), pager_side);
        o.filter.pkg_version = "1.0.0".into();
        assert_eq!(o.fingerprint_bytes()[0], 2);
    }

    #[test]
    fn a_predicate_id_enters_the_fingerprint_as_layout_3() {
        let mut o = opts();
        let without = o.fingerprint_bytes();
        assert_eq!(without[0], 1, "no filter, no predicate: layout 1");
        o.predicate = Some("deprecated-hidden".into());
        let bytes = o.fingerprint_bytes();
        // Layout 3: layout 2's bytes (the sides written though the filter sends nothing), then
        // the id as a `str`.
        let mut want = vec![3];
        want.extend_from_slice(&without[1..]);
        want.extend_from_slice(&[0u64.to_le_bytes(), 0u64.to_le_bytes()].concat());
        want.extend_from_slice(&[1, 0]);
        want.extend_from_slice(&17u64.to_le_bytes());
        want.extend_from_slice(b"deprecated-hidden");
        assert_eq!(bytes, want);
        assert_eq!(o.fingerprint(), xxh64(&want, 0));
        let print = |id: Option<&str>| {
            let mut o = opts();
            o.predicate = id.map(Into::into);
            o.fingerprint()
        };
        assert_ne!(print(Some("a")), print(Some("b")));
        assert_ne!(print(Some("a")), print(None));
        assert_eq!(print(Some("a")), print(Some("a")));
        // Who filters counts under a predicate even when the filter sends nothing.
        let mut side = opts();
        side.predicate = Some("a".into());
        side.sources[0].filter = Some(FilterSide::Pager);
        assert_ne!(side.fingerprint(), print(Some("a")));
        assert_eq!(
            field_of(&{
                let mut o = opts();
                o.predicate = Some(String::new());
                o
            })
            .as_deref(),
            Some("predicate.id")
        );
    }

    #[test]
    fn versions_need_every_source_to_filter() {
        let mut o = opts();
        o.filter.app_version = "1.2".into();
        let e = o
            .validate()
            .expect_err("kapp as a kubernetes list cannot match a version");
        assert_eq!(e.code(), "INVALID_OPTIONS");
        assert_eq!(field_of(&o).as_deref(), Some("filter.appVersion"));
        o.sources[1].filter = Some(FilterSide::Source);
        assert_eq!(o.validate(), Ok(()));
        o.sources[0].filter = Some(FilterSide::Pager);
        assert_eq!(field_of(&o).as_deref(), Some("filter.appVersion"));
    }

    #[test]
    fn who_filters_follows_the_plugin_unless_stated() {
        let side = |plugin: &str, kind| src(plugin, "ns", kind).filter_side();
        assert_eq!(
            side("helm.packages", SourceKind::Kubeapps),
            FilterSide::Source
        );
        assert_eq!(
            side("fluxv2.packages", SourceKind::Unordered),
            FilterSide::Source
        );
        assert_eq!(
            side("kapp_controller.packages", SourceKind::Kubeapps),
            FilterSide::Source
        );
        assert_eq!(
            side("kapp_controller.packages", SourceKind::Kubernetes),
            FilterSide::Pager
        );
        assert_eq!(side("my.plugin", SourceKind::Kubeapps), FilterSide::Pager);
        let mut stated = src("my.plugin", "ns", SourceKind::Kubernetes);
        stated.filter = Some(FilterSide::Source);
        assert_eq!(stated.filter_side(), FilterSide::Source);
    }

    #[test]
    fn fingerprint_ignores_what_does_not_change_the_list() {
        let base = opts();
        type Edit = fn(&mut PagerOptions);
        let same: Vec<(&str, Edit)> = vec![
            ("source order", |o| o.sources.reverse()),
            ("page size", |o| o.page_size = 7),
            ("chunk limit", |o| o.chunk_limit = 3),
            ("caps", |o| {
                o.max_source_items = 5;
                o.max_chunks_without_progress = 2;
            }),
            ("query white space", |o| o.filter.query = "  ".into()),
            ("explicit default order", |o| {
                o.sources[0].order = Some(SourceOrder::Name)
            }),
        ];
        for (why, edit) in same {
            let mut o = base.clone();
            edit(&mut o);
            assert_eq!(o.fingerprint(), base.fingerprint(), "{why}");
        }
        let mut a = base.clone();
        a.filter.categories = vec!["x".into(), "y".into(), "x".into()];
        let mut b = base.clone();
        b.filter.categories = vec!["y".into(), "x".into()];
        assert_eq!(
            a.fingerprint(),
            b.fingerprint(),
            "filter value order and repeats"
        );
    }

    #[test]
    fn fingerprint_changes_with_filter_sort_and_sources() {
        let base = opts();
        type Edit = fn(&mut PagerOptions);
        let differ: Vec<(&str, Edit)> = vec![
            ("sort", |o| o.sort = SortOrder::DisplayName),
            ("collated name", |o| {
                o.sort = SortOrder::Collated(SortField::Name, crate::Collation::Root)
            }),
            ("collated displayName", |o| {
                o.sort = SortOrder::Collated(SortField::DisplayName, crate::Collation::Root)
            }),
            ("query", |o| o.filter.query = "a".into()),
            ("query case", |o| o.filter.query = "A".into()),
            ("category", |o| {
                o.filter.categories = vec!["Database".into()]
            }),
            ("repository", |o| {
                o.filter.repositories = vec!["repo-a".into()]
            }),
            ("plugin filter", |o| {
                o.filter.plugins = vec!["helm.packages".into()]
            }),
            ("a value moved between fields", |o| {
                o.filter.repositories = vec!["Database".into()]
            }),
            ("source kind", |o| o.sources[0].kind = SourceKind::Unordered),
            ("source order override", |o| {
                o.sources[0].order = Some(SourceOrder::None)
            }),
            ("source namespace", |o| {
                o.sources[0].id.namespace = "other".into()
            }),
            ("source cluster", |o| {
                o.sources[0].id.cluster = "prod".into()
            }),
            ("one more source", |o| {
                o.sources
                    .push(src("fluxv2.packages", "kubeapps", SourceKind::Kubeapps))
            }),
            ("one source less", |o| {
                o.sources.pop();
            }),
            ("length prefix, not concatenation", |o| {
                o.sources[0].id.plugin = "helm.packagesdefault".into();
                o.sources[0].id.cluster = String::new();
            }),
        ];
        for (why, edit) in differ {
            let mut o = base.clone();
            edit(&mut o);
            assert_ne!(o.fingerprint(), base.fingerprint(), "{why}");
        }
    }
}
