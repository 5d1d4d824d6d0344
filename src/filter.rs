//! The filter: Kubeapps' `FilterOptions` plus `plugins`, and who applies it to a source.
//!
//! Kubeapps plugins filter in the backend (`GetAvailablePackageSummariesRequest.filterOptions`:
//! the helm plugin in SQL, over more fields than a summary holds): for a source whose
//! [`FilterSide`] is [`Source`](FilterSide::Source) the request carries the filter and the pager
//! does not narrow what the source matched (only `plugins`, which no source is asked, still
//! applies). For a source the pager filters ([`Pager`](FilterSide::Pager)), the pager applies the
//! rules below to every item that enters it, so re-read and changed items are filtered too.

use crate::item::{FieldsRef, ItemFields, KeyFields};
use crate::prelude::*;
use crate::text::lowercase;

/// Kubeapps `FilterOptions` (`query`, `categories`, `repositories`, `pkgVersion`, `appVersion`)
/// plus `plugins`. Every non-empty field must match; an empty field matches everything.
///
/// A source that filters ([`FilterSide::Source`]) is sent every field but `plugins` and applies
/// its own rules; the rules here are the pager's, for the sources it filters:
///
/// - `query` is trimmed (Unicode white space); empty after trimming = no query.
///   An item matches when the Unicode default lowercase ([`crate::text::lowercase`])
///   of its `name`, `displayName`, `shortDescription` or `identifier` contains the
///   lowercase query as a substring.
/// - `categories`, `repositories`, `plugins`: any-of, exact (case-sensitive).
/// - `pkg_version`, `app_version`: only a source can match them (a summary holds its latest
///   version alone): options that give one with a source the pager filters are
///   `INVALID_OPTIONS` ([`PagerOptions::validate`](crate::PagerOptions::validate)).
///
/// # Example
/// ```
/// use kubeapps_pager::{FilterOptions, ItemFields};
/// let f = FilterOptions { query: " APACHE ".into(), repositories: vec!["bitnami".into()], ..Default::default() };
/// let item = ItemFields { name: "apache".into(), identifier: "bitnami/apache".into(), ..Default::default() };
/// assert!(f.matches(&item));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FilterOptions {
    /// Case-insensitive substring of name, displayName, shortDescription or identifier.
    pub query: String,
    /// Any-of, exact.
    pub categories: Vec<String>,
    /// Any-of, exact, against the identifier's part before the first `/`.
    pub repositories: Vec<String>,
    /// Any-of, exact, against the item's plugin name. Always the pager's: no source is sent it.
    pub plugins: Vec<String>,
    /// Kubeapps `FilterOptions.pkgVersion`: sent to sources that filter.
    pub pkg_version: String,
    /// Kubeapps `FilterOptions.appVersion`: sent to sources that filter.
    pub app_version: String,
}

/// Who applies a pager's filter to a source's items.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FilterSide {
    /// The source: each request carries the filter (`filterOptions`), and the pager keeps every
    /// item the source answers (but for the `plugins` rule). The default for the Kubeapps plugins
    /// (`helm.packages`, `fluxv2.packages`, `kapp_controller.packages`) paged through kubeapps-apis.
    Source,
    /// The pager, by the rules of [`FilterOptions`]: the requests carry no filter. The default
    /// for a `kubernetes` list and any other plugin.
    Pager,
}

impl FilterOptions {
    /// Whether an item passes. Prepares the filter on every call: to test many
    /// items, [`compile`](FilterOptions::compile) once and use [`CompiledFilter::matches`].
    pub fn matches(&self, item: &ItemFields) -> bool {
        self.compile().matches(item)
    }

    /// The filter in canonical form: query trimmed; categories, repositories and
    /// plugins sorted (byte order) and deduplicated. Matches exactly the same items.
    pub fn normalized(&self) -> FilterOptions {
        fn set(v: &[String]) -> Vec<String> {
            let mut v = v.to_vec();
            v.sort();
            v.dedup();
            v
        }
        FilterOptions {
            query: trim(&self.query).to_owned(),
            categories: set(&self.categories),
            repositories: set(&self.repositories),
            plugins: set(&self.plugins),
            pkg_version: self.pkg_version.clone(),
            app_version: self.app_version.clone(),
        }
    }

    /// Whether the fields a source is sent are all empty (`plugins` aside): then a source that
    /// filters and the pager keep the same items.
    pub fn sends_nothing(&self) -> bool {
        self.for_source().is_none()
    }

    /// What a source that filters is sent: the [normalized](FilterOptions::normalized) filter
    /// without `plugins`; `None` when that is empty.
    pub fn for_source(&self) -> Option<FilterOptions> {
        let mut f = self.normalized();
        f.plugins = Vec::new();
        (f != FilterOptions::default()).then_some(f)
    }

    /// The filter prepared for matching many items: the query lowercased once, the sets sorted.
    pub fn compile(&self) -> CompiledFilter {
        let n = self.normalized();
        let query = lowercase(&n.query);
        CompiledFilter {
            query_is_ascii: query.is_ascii(),
            query,
            categories: n.categories,
            repositories: n.repositories,
            plugins: n.plugins,
        }
    }
}

impl CompiledFilter {
    /// The pager's part of the filter for a source that filters: `plugins` alone.
    pub fn plugins_only(&self) -> CompiledFilter {
        CompiledFilter {
            query: String::new(),
            query_is_ascii: true,
            categories: Vec::new(),
            repositories: Vec::new(),
            plugins: self.plugins.clone(),
        }
    }
}

/// A [`FilterOptions`] ready to test items: lowercase query, sorted sets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompiledFilter {
    query: String,
    query_is_ascii: bool,
    categories: Vec<String>,
    repositories: Vec<String>,
    plugins: Vec<String>,
}

impl CompiledFilter {
    /// Whether an item passes (same rules as [`FilterOptions`]).
    pub fn matches(&self, item: &ItemFields) -> bool {
        self.matches_ref(&item.key_fields())
    }

    /// Whether [`CompiledFilter::matches_ref`] reads the text fields (a query) and the categories.
    pub(crate) fn reads(&self) -> (bool, bool) {
        (!self.query.is_empty(), !self.categories.is_empty())
    }

    /// [`CompiledFilter::matches`] of borrowed key fields.
    pub fn matches_ref(&self, item: &FieldsRef<'_>) -> bool {
        // Cheapest tests first; the query (a substring scan) last.
        if !self.plugins.is_empty() && !contains(&self.plugins, item.plugin) {
            return false;
        }
        if !self.repositories.is_empty() && !contains(&self.repositories, item.repository()) {
            return false;
        }
        if !self.categories.is_empty() && !item.categories.any(|c| contains(&self.categories, c)) {
            return false;
        }
        if self.query.is_empty() {
            return true;
        }
        [
            item.name,
            item.display_name,
            item.short_description,
            item.identifier,
        ]
        .into_iter()
        .any(|field| self.query_in(field))
    }

    /// Whether lowercase(`haystack`) contains the lowercase query.
    fn query_in(&self, haystack: &str) -> bool {
        if haystack.is_ascii() {
            // An ASCII text lowercases to ASCII: it cannot hold a non-ASCII query,
            // and for an ASCII query a byte-wise case-insensitive scan is exact.
            self.query_is_ascii
                && ascii_contains_ignore_case(haystack.as_bytes(), self.query.as_bytes())
        } else {
            // Not ASCII: lowercase for real (the Kelvin sign K becomes ASCII k,
            // İ becomes two code points, a final Σ becomes ς).
            bytes_contain(lowercase(haystack).as_bytes(), self.query.as_bytes())
        }
    }
}

/// `str::trim` (Unicode white space at both ends) by hand: `trim` brings a pattern searcher into
/// the wasm (size).
fn trim(s: &str) -> &str {
    let mut t = s;
    while let Some(c) = t.chars().next().filter(|c| c.is_whitespace()) {
        t = t.get(c.len_utf8()..).unwrap_or_default();
    }
    while let Some(c) = t.chars().next_back().filter(|c| c.is_whitespace()) {
        t = t.get(..t.len() - c.len_utf8()).unwrap_or_default();
    }
    t
}

fn contains(sorted: &[String], value: &str) -> bool {
    sorted
        .binary_search_by(|probe| probe.as_str().cmp(value))
        .is_ok()
}

/// Whether `needle` occurs in `haystack`, byte for byte: for UTF-8 text, the same as
/// `str::contains` (UTF-8 is self-synchronising, so a match never starts inside a character).
/// A plain scan: queries are short, and `str::contains` would bring its two-way searcher and
/// panic paths into the wasm.
fn bytes_contain(haystack: &[u8], needle: &[u8]) -> bool {
    needle.is_empty() || haystack.windows(needle.len()).any(|w| w == needle)
}

/// `needle` is lowercase ASCII.
fn ascii_contains_ignore_case(haystack: &[u8], needle: &[u8]) -> bool {
    needle.is_empty()
        || haystack
            .windows(needle.len())
            .any(|w| w.eq_ignore_ascii_case(needle))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkg() -> ItemFields {
        ItemFields {
            plugin: "helm.packages".into(),
            cluster: "default".into(),
            namespace: "kubeapps".into(),
            identifier: "bitnami/apache".into(),
            name: "apache".into(),
            display_name: "Apache HTTP Server".into(),
            short_description: "Web server for Ünïcode ΟΔΟΣ".into(),
            categories: vec!["Infrastructure".into(), "Web".into()],
        }
    }

    fn strs(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn filter_rules_table() {
        let q = |s: &str| FilterOptions {
            query: s.into(),
            ..Default::default()
        };
        let table: Vec<(&str, FilterOptions, bool)> = vec![
            (
                "empty filter matches everything",
                FilterOptions::default(),
                true,
            ),
            ("blank query is no query", q(" \t\n"), true),
            ("query in name", q("pach"), true),
            ("query is case-insensitive", q("APACHE"), true),
            ("query is trimmed", q("  http  "), true),
            ("query in displayName", q("http server"), true),
            ("query in shortDescription", q("web server"), true),
            ("query in identifier", q("bitnami/"), true),
            ("query not anywhere", q("nginx"), false),
            ("non-ASCII query, non-ASCII text", q("ÜNÏCODE"), true),
            ("final sigma: query ς matches word-final Σ", q("οδος"), true),
            (
                "final sigma: σ does not match word-final Σ",
                q("οδοσ"),
                false,
            ),
            (
                "non-ASCII query never matches ASCII-only fields",
                q("é"),
                false,
            ),
            (
                "categories any-of",
                FilterOptions {
                    categories: strs(&["Database", "Web"]),
                    ..Default::default()
                },
                true,
            ),
            (
                "categories exact (case-sensitive)",
                FilterOptions {
                    categories: strs(&["web"]),
                    ..Default::default()
                },
                false,
            ),
            (
                "repository = identifier before the first /",
                FilterOptions {
                    repositories: strs(&["bitnami"]),
                    ..Default::default()
                },
                true,
            ),
            (
                "repository is not a prefix match",
                FilterOptions {
                    repositories: strs(&["bitn"]),
                    ..Default::default()
                },
                false,
            ),
            (
                "plugins any-of",
                FilterOptions {
                    plugins: strs(&["fluxv2.packages", "helm.packages"]),
                    ..Default::default()
                },
                true,
            ),
            (
                "plugin not listed",
                FilterOptions {
                    plugins: strs(&["fluxv2.packages"]),
                    ..Default::default()
                },
                false,
            ),
            (
                "every non-empty field must match",
                FilterOptions {
                    query: "apache".into(),
                    categories: strs(&["Database"]),
                    ..Default::default()
                },
                false,
            ),
            (
                "all fields matching",
                FilterOptions {
                    query: "Apache".into(),
                    categories: strs(&["Web"]),
                    repositories: strs(&["bitnami", "other"]),
                    plugins: strs(&["helm.packages"]),
                    ..Default::default()
                },
                true,
            ),
        ];
        for (why, f, want) in table {
            assert_eq!(f.matches(&pkg()), want, "{why}");
            assert_eq!(f.compile().matches(&pkg()), want, "{why} (compiled)");
        }
    }

    #[test]
    fn kelvin_sign_matches_ascii_k_like_unicode_lowercase() {
        let mut it = pkg();
        it.name = "\u{212A}afka".into(); // KELVIN SIGN, lowercases to 'k'
        let f = FilterOptions {
            query: "kafka".into(),
            ..Default::default()
        };
        assert!(f.matches(&it));
        // And the other way: a Kelvin sign in the query lowercases to ASCII and
        // matches an ASCII name.
        it.name = "kafka".into();
        let f = FilterOptions {
            query: "\u{212A}AFKA".into(),
            ..Default::default()
        };
        assert!(f.matches(&it));
        let f = FilterOptions {
            query: "\u{212A}AFKX".into(),
            ..Default::default()
        };
        assert!(!f.matches(&it));
    }

    #[test]
    fn identifier_without_slash_is_all_repository() {
        let mut it = pkg();
        it.identifier = "standalone".into();
        let f = FilterOptions {
            repositories: strs(&["standalone"]),
            ..Default::default()
        };
        assert!(f.matches(&it));
    }

    #[test]
    fn trim_is_str_trim() {
        for s in [
            "",
            " ",
            "a",
            " a ",
            "\t\n a b \r\n",
            "\u{3000}x\u{85}",
            "\u{a0}\u{2028}",
            "é ",
            " \u{200b}y\u{200b} ",
            "\u{1680}\u{205f}z\u{feff}",
        ] {
            assert_eq!(trim(s), s.trim(), "{s:?}");
        }
    }

    #[test]
    fn normalized_sorts_dedupes_and_trims() {
        let f = FilterOptions {
            query: "  Q ".into(),
            categories: strs(&["b", "a", "b"]),
            repositories: strs(&["z", "z"]),
            plugins: strs(&["y", "x"]),
            pkg_version: "1.0.0".into(),
            app_version: " 2 ".into(),
        };
        let n = f.normalized();
        assert_eq!(
            (n.pkg_version.as_str(), n.app_version.as_str()),
            ("1.0.0", " 2 ")
        );
        assert_eq!(n.query, "Q");
        assert_eq!(n.categories, strs(&["a", "b"]));
        assert_eq!(n.repositories, strs(&["z"]));
        assert_eq!(n.plugins, strs(&["x", "y"]));
        assert_eq!(n.normalized(), n);
    }

    #[test]
    fn a_source_is_sent_all_but_plugins() {
        let f = FilterOptions {
            query: " db ".into(),
            categories: strs(&["b", "a"]),
            plugins: strs(&["helm.packages"]),
            pkg_version: "1.2.3".into(),
            ..Default::default()
        };
        let sent = f.for_source().expect("something to send");
        assert_eq!(sent.query, "db");
        assert_eq!(sent.categories, strs(&["a", "b"]));
        assert!(sent.plugins.is_empty());
        assert_eq!(sent.pkg_version, "1.2.3");
        let only = f.compile().plugins_only();
        let mut item = pkg();
        item.name = "no match for the query".into();
        assert!(only.matches(&item), "only plugins count");
        item.plugin = "fluxv2.packages".into();
        assert!(!only.matches(&item));
        // Plugins alone, or a blank query: nothing to send.
        let only_plugins = FilterOptions {
            query: "  ".into(),
            plugins: strs(&["x"]),
            ..Default::default()
        };
        assert_eq!(only_plugins.for_source(), None);
        assert!(!FilterOptions {
            app_version: "1".into(),
            ..Default::default()
        }
        .sends_nothing());
    }
}
