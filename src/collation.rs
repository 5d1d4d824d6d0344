//! Collations of the sort field: the Unicode Collation Algorithm (UCA, UTS #10) with CLDR's root
//! collation, from ICU4X's `icu_collator` with its data compiled in (feature `collation`).
//!
//! Not the browser's `Intl.Collator`: a page token's position is a key in the merge order, so the
//! order must be the same in every browser and version. It is fixed by the pinned `icu_collator`
//! (`=2.4.0`: CLDR 48, UCA 18.0.0).
//!
//! Settings (docs/DESIGN.md "Collation" says why): strength tertiary, alternate `shifted`
//! (spaces, punctuation and symbols are ignorable at the first three levels: `kube-prometheus`
//! sorts as `kubeprometheus`, after `kubeapps`), no numeric ordering, no case level. Strings
//! equal at these three levels (`kube-prometheus` and `kubeprometheus`, or only differing in
//! ignorable characters) are ties of the collation; the merge key breaks them by the field's bytes,
//! then the identity ([`crate::order`]).
//!
//! Locales: `root` and `en`. CLDR's `en` has no tailoring (it is the root order), so both use
//! the root collator, `CollatorBorrowed::new_root`, which links no locale's tailoring data (the
//! tests check `en` against ICU4X's own `en` collator). Without the `collation` feature the
//! type still parses and names itself (a build without it refuses such options, see
//! [`crate::PagerOptions::validate`]), but it cannot key anything.

#[cfg(feature = "collation")]
use crate::prelude::*;

/// A collation locale the pager offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Collation {
    /// CLDR's root collation (the UCA's Default Unicode Collation Element Table as CLDR tailors it).
    Root,
    /// English: CLDR's `en` (no tailoring: the root order).
    En,
}

/// Whether this build can key items by a collation (the `collation` feature).
pub const AVAILABLE: bool = cfg!(feature = "collation");

/// The npm entry whose wasm module has the collator: what a build without it tells callers to import.
pub const ENTRY: &str = "kubeapps-pager/collation";

impl Collation {
    /// Every collation offered, in the order of their JS names' list (`"root"`, `"en"`).
    pub const ALL: [Collation; 2] = [Collation::Root, Collation::En];

    /// The locale as the options name it: `"root"` or `"en"`.
    pub fn locale(self) -> &'static str {
        match self {
            Collation::Root => "root",
            Collation::En => "en",
        }
    }

    /// The collation a locale name gives (`"root"`, `"en"`), else `None`.
    pub fn from_locale(locale: &str) -> Option<Collation> {
        Collation::ALL.into_iter().find(|c| c.locale() == locale)
    }

    /// What the page token's fingerprint hashes for this collation: the locale, the settings and
    /// the collator's version, so that a token made under another collation, other settings or
    /// other collation data is `FILTER_MISMATCH` (its watermark is a position in another order).
    pub fn fingerprint_id(self) -> &'static str {
        match self {
            Collation::Root => "root;strength=tertiary;alternate=shifted;icu_collator=2.4.0",
            Collation::En => "en;strength=tertiary;alternate=shifted;icu_collator=2.4.0",
        }
    }

    /// Appends the collation's sort key of `text` to `out`: bytes whose `memcmp` order is the
    /// collation's order of the texts (ICU4X `write_sort_key_to`; equal at the three levels =
    /// equal keys). Not terminated and not escaped: the caller frames it.
    #[cfg(feature = "collation")]
    pub fn write_sort_key(self, text: &str, out: &mut Vec<u8>) {
        // Both locales are the root order (see the module docs).
        let Ok(()) = ROOT.write_sort_key_to(text, out);
    }
}

#[cfg(feature = "collation")]
use icu_collator::{
    options::{AlternateHandling, CollatorOptions, Strength},
    CollatorBorrowed,
};

/// The settings: tertiary strength, alternate shifted (see the module docs).
#[cfg(feature = "collation")]
pub(crate) const OPTIONS: CollatorOptions = {
    let mut o = CollatorOptions::default();
    o.strength = Some(Strength::Tertiary);
    o.alternate_handling = Some(AlternateHandling::Shifted);
    o
};

/// The root collator with [`OPTIONS`], built at compile time from the compiled data.
#[cfg(feature = "collation")]
static ROOT: CollatorBorrowed<'static> = CollatorBorrowed::new_root(OPTIONS);
