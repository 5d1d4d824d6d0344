//! Reference oracles: the filter and the merge order written out plainly from
//! docs/DESIGN.md and `src/filter.rs`'s docs, independent of the code under test.

use icu_collator::options::{AlternateHandling, CollatorOptions, Strength};
use icu_collator::{Collator, CollatorBorrowed};
use kubeapps_pager::{Collation, FilterOptions, Identity, ItemFields, SortField, SortOrder};

/// An item's full merge key as a tuple of strings; `Vec<String>` compares
/// component by component, each component by its UTF-8 bytes.
pub type RefKey = Vec<String>;

/// The merge key of DESIGN.md "One total order".
///
/// `name`: (name, plugin, cluster, namespace, identifier);
/// `displayName`: (lowercase(d), d, plugin, cluster, namespace, identifier)
/// where d is the displayName, or the name when the displayName is empty;
/// `apiserver`: (namespace + "/" + name, or the name alone without a namespace, plugin, ...),
/// as an apiserver's storage keys `/registry/<resource>/<namespace>/<name>` sort;
/// collated: (the collation's sort key of f, f, plugin, ...) where f is the name or d, the sort
/// key as ICU4X writes it for the locale ([`ref_collation_key`]) in hex (hex digits keep the
/// bytes' order, prefixes included).
pub fn ref_key(sort: SortOrder, it: &ItemFields) -> RefKey {
    let tail = [&it.plugin, &it.cluster, &it.namespace, &it.identifier].map(|s| s.to_string());
    let d = if it.display_name.is_empty() {
        &it.name
    } else {
        &it.display_name
    };
    let mut key = match sort {
        SortOrder::Name => vec![it.name.clone()],
        SortOrder::Apiserver if it.namespace.is_empty() => vec![it.name.clone()],
        SortOrder::Apiserver => vec![format!("{}/{}", it.namespace, it.name)],
        SortOrder::DisplayName => vec![d.to_lowercase(), d.clone()],
        SortOrder::Collated(field, c) => {
            let f = if field == SortField::Name {
                &it.name
            } else {
                d
            };
            let hex = ref_collation_key(c, f)
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            vec![hex, f.clone()]
        }
    };
    key.extend(tail);
    key
}

/// Whether an item passes the filter (FilterOptions docs: every non-empty field
/// must match; query = trimmed, then a substring of the Unicode default lowercase
/// of name, displayName, shortDescription or identifier; the rest any-of, exact).
pub fn ref_matches(f: &FilterOptions, it: &ItemFields) -> bool {
    let q = f.query.trim().to_lowercase();
    if !q.is_empty() {
        let hit = [
            &it.name,
            &it.display_name,
            &it.short_description,
            &it.identifier,
        ]
        .iter()
        .any(|s| s.to_lowercase().contains(&q));
        if !hit {
            return false;
        }
    }
    if !f.categories.is_empty() && !it.categories.iter().any(|c| f.categories.contains(c)) {
        return false;
    }
    let repo = it.identifier.split('/').next().unwrap_or("");
    if !f.repositories.is_empty() && !f.repositories.iter().any(|r| r == repo) {
        return false;
    }
    if !f.plugins.is_empty() && !f.plugins.contains(&it.plugin) {
        return false;
    }
    true
}

/// The identity (plugin, cluster, namespace, identifier), built without the crate's helper.
pub fn identity_of(it: &ItemFields) -> Identity {
    Identity {
        plugin: it.plugin.clone(),
        cluster: it.cluster.clone(),
        namespace: it.namespace.clone(),
        identifier: it.identifier.clone(),
    }
}

/// A small deterministic generator (SplitMix64) for shuffles and answer orders.
#[derive(Debug, Clone)]
pub struct SplitMix(pub u64);

impl SplitMix {
    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Fisher-Yates shuffle.
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

/// The sort key of `text` in collation `c` as the docs define it: ICU4X's collator loaded by the
/// locale's name from its compiled data, strength tertiary, alternate shifted (src/collation.rs).
pub fn ref_collation_key(c: Collation, text: &str) -> Vec<u8> {
    thread_local! {
        static COLLATORS: Vec<(Collation, CollatorBorrowed<'static>)> = Collation::ALL
            .into_iter()
            .map(|c| {
                let mut options = CollatorOptions::default();
                options.strength = Some(Strength::Tertiary);
                options.alternate_handling = Some(AlternateHandling::Shifted);
                let locale: icu_locale_core::Locale =
                    if c.locale() == "root" { "und" } else { c.locale() }.parse().expect("locale");
                (c, Collator::try_new((&locale).into(), options).expect("collator"))
            })
            .collect();
    }
    COLLATORS.with(|all| {
        let collator = &all
            .iter()
            .find(|(x, _)| *x == c)
            .expect("every collation")
            .1;
        let mut key = Vec::new();
        let Ok(()) = collator.write_sort_key_to(text, &mut key);
        key
    })
}
