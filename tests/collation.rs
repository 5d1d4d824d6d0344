//! The collated merge orders against the collation library's own reference data and a table
//! of hand-checked chart names.
//!
//! Reference: `CollationTest_CLDR_SHIFTED_SHORT.txt` (Unicode's CLDR root collation conformance
//! test, alternate=shifted; UCA 18.0.0), which icu_collator 2.4.0 ships in its crate source for
//! its own conformance test (`tests/tests.rs`, `test_conformance_shifted`). It is read here at
//! test time from cargo's registry; a checkout without it (a vendored build) runs the table only
//! and says so.
#![cfg(feature = "collation")]

use icu_collator::{options::CollatorOptions, Collator};
use kubeapps_pager::{Collation, ItemFields, SortField, SortKey, SortOrder};
use std::cmp::Ordering;
use std::path::PathBuf;

fn item(name: &str) -> ItemFields {
    ItemFields {
        plugin: "helm.packages".into(),
        cluster: "default".into(),
        namespace: "kubeapps".into(),
        identifier: format!("bitnami/{name}"),
        name: name.into(),
        ..Default::default()
    }
}

fn key(c: Collation, name: &str) -> SortKey {
    SortOrder::Collated(SortField::Name, c).key(&item(name))
}

/// The conformance file in cargo's registry (`$CARGO_HOME`, else `~/.cargo`), if it is there.
fn conformance_file() -> Option<PathBuf> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))?;
    let src = home.join("registry/src");
    std::fs::read_dir(src).ok()?.flatten().find_map(|index| {
        let f = index
            .path()
            .join("icu_collator-2.4.0/tests/data/CollationTest_CLDR_SHIFTED_SHORT.txt");
        f.is_file().then_some(f)
    })
}

/// The file's lines as strings, in its order; lines with a lone surrogate (not UTF-8) left out.
fn conformance_strings() -> Option<(Vec<String>, usize)> {
    let text = std::fs::read_to_string(conformance_file()?).ok()?;
    let mut skipped = 0;
    let strings = text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let s: Option<String> = l
                .split(' ')
                .map(|h| u32::from_str_radix(h, 16).ok().and_then(char::from_u32))
                .collect();
            if s.is_none() {
                skipped += 1;
            }
            s
        })
        .collect();
    Some((strings, skipped))
}

#[test]
fn collated_keys_follow_the_cldr_root_conformance_order() {
    let Some((strings, skipped)) = conformance_strings() else {
        eprintln!("CollationTest_CLDR_SHIFTED_SHORT.txt not in cargo's registry: table tests only");
        return;
    };
    assert!(strings.len() > 200_000, "{} lines", strings.len());
    assert!(skipped < 100, "{skipped} lines skipped");
    // ICU4X's own comparison with the pager's settings: the keys must order as it does.
    let mut options = CollatorOptions::default();
    options.strength = Some(icu_collator::options::Strength::Tertiary);
    options.alternate_handling = Some(icu_collator::options::AlternateHandling::Shifted);
    let reference = Collator::try_new(Default::default(), options).expect("root collator");
    let (mut less, mut equal) = (0, 0);
    for pair in strings.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        let (ka, kb) = (key(Collation::Root, a), key(Collation::Root, b));
        // The file is in the root order at the quaternary level (and code points after): at
        // the tertiary level each line is at least the one before it.
        let ord = ka.primary().cmp(kb.primary());
        assert_ne!(ord, Ordering::Greater, "{a:?} then {b:?}");
        assert_eq!(ord, reference.compare(a, b), "{a:?} vs {b:?}");
        // The full key is a total order consistent with the primary one.
        if ord == Ordering::Less {
            less += 1;
            assert!(ka < kb);
        } else {
            equal += 1;
        }
    }
    // Two thirds of adjacent lines differ at the first three levels (142,808 of 210,155); the
    // rest differ only at the fourth (shifted punctuation and symbols) or in code points.
    assert!(
        less > 100_000 && equal > 10_000,
        "{less} less, {equal} equal"
    );
}

#[test]
fn en_keys_are_icu4x_s_own_en_collator_s() {
    // CLDR's `en` has no tailoring: the pager keys it with the root collator. ICU4X's `en`
    // collator, loaded by locale from its compiled data, must give the very same sort keys.
    let mut options = CollatorOptions::default();
    options.strength = Some(icu_collator::options::Strength::Tertiary);
    options.alternate_handling = Some(icu_collator::options::AlternateHandling::Shifted);
    let en: icu_locale_core::Locale = "en".parse().expect("locale");
    let en = Collator::try_new((&en).into(), options).expect("en collator");
    let mut strings: Vec<String> = HAND_CHECKED.iter().map(|s| s.to_string()).collect();
    if let Some((all, _)) = conformance_strings() {
        strings.extend(all);
    }
    for s in &strings {
        let mut want = Vec::new();
        let Ok(()) = en.write_sort_key_to(s, &mut want);
        let mut got = Vec::new();
        Collation::En.write_sort_key(s, &mut got);
        assert_eq!(got, want, "{s:?}");
        let mut root = Vec::new();
        Collation::Root.write_sort_key(s, &mut root);
        assert_eq!(root, want, "{s:?}");
    }
}

/// Names in the order a person expects, each checked by hand against the UCA's rules with the
/// pager's settings (UTS #10 §4 "Variable weighting", shifted: spaces and punctuation ignored at
/// levels 1-3; CLDR root: case and accents are level 3 and 2 differences, lowercase first; see
/// https://www.unicode.org/reports/tr10/ and https://www.unicode.org/reports/tr35/tr35-collation.html).
/// Each is strictly before the next in the full key.
const HAND_CHECKED: &[&str] = &[
    "2048",           // digits before letters (one digit at a time: no numeric ordering)
    "3scale",         //
    "a",              //
    "A",              // lowercase first (tertiary)
    "á",              // accent second (secondary)
    "Á",              //
    "aa",             //
    "actions-runner", // hyphen ignored: "actionsrunner"
    "actions runner-controller", // space ignored: "actionsrunnercontroller"
    "apache",         //
    "Apache",         //
    "APACHE",         //
    "apache-2",       // "apache2": longer at the first level
    "cert-manager",   // three ties at levels 1-3 ("certmanager"): the bytes decide,
    "cert_manager",   // '-' 0x2D < '_' 0x5F < 'm' 0x6D
    "certmanager",    //
    "école",          // é is e at the first level: among the e's
    "ecole2",         //
    "Ecole3",         //
    "edge",           //
    "elasticsearch",  //
    "kubeapps",       // "kubeapps" < "kubeprometheus": a < p once the hyphen is ignored
    "kube-prometheus",
    "kubernetes-event-exporter",
    "kube-state-metrics", // "kubes..." after "kuber...": s > r
    "Zeta-Board",         // under Z, with its hyphen ignored: "ZetaBoard"
    "zetaboard2",         //
    "zookeeper",          //
    "Ωmega",              // Greek after Latin
];

#[test]
fn chart_names_order_as_a_person_expects() {
    // Sorted by key from the table reversed: the table's order comes back.
    let mut sorted: Vec<&str> = HAND_CHECKED.iter().rev().copied().collect();
    sorted.sort_by(|a, b| key(Collation::Root, a).cmp(&key(Collation::Root, b)));
    assert_eq!(sorted, HAND_CHECKED);
    for pair in HAND_CHECKED.windows(2) {
        for c in Collation::ALL {
            assert!(
                key(c, pair[0]) < key(c, pair[1]),
                "{:?} < {:?}",
                pair[0],
                pair[1]
            );
        }
    }
}

#[test]
fn ties_of_the_collation_are_broken_by_the_field_bytes_then_the_identity() {
    let ties = [
        ("cert-manager", "certmanager"),
        ("cert-manager", "cert_manager"),
        ("kube-prometheus", "kube prometheus"),
        ("a.b", "ab"),
    ];
    for (x, y) in ties {
        let (kx, ky) = (key(Collation::Root, x), key(Collation::Root, y));
        assert_eq!(kx.primary(), ky.primary(), "{x:?} ~ {y:?}");
        assert_eq!(
            kx.cmp(&ky),
            x.as_bytes().cmp(y.as_bytes()),
            "{x:?} vs {y:?}"
        );
    }
    // Equal names: the identity decides, as in every order.
    let a = item("apache");
    let mut b = item("apache");
    b.namespace = "team-1".into();
    let order = SortOrder::Collated(SortField::Name, Collation::En);
    assert!(order.key(&a) < order.key(&b));
}

#[test]
fn a_collated_key_splits_back_into_its_sort_value_and_identity() {
    for field in [SortField::Name, SortField::DisplayName] {
        let order = SortOrder::Collated(field, Collation::Root);
        assert_eq!(order.field(), field);
        assert_eq!(order.collation(), Some(Collation::Root));
        assert_eq!(order.component_count(), 6);
        for (name, display) in [
            ("kube-prometheus", "Kube Prometheus"),
            ("pkg\u{0}x", ""),
            ("ΣΑΣ", "ΟΔΟΣ"),
            ("", "Zeta-Board"),
        ] {
            let mut it = item(name);
            it.display_name = display.into();
            let k = order.key(&it);
            let (value, identity) = k.to_parts(order).expect("well-formed");
            assert_eq!(value, order.sort_value(&it));
            assert_eq!(identity, it.identity());
            assert_eq!(order.key_from_parts(&value, &identity), k);
        }
    }
    // displayName is the sort field (its name when empty).
    let order = SortOrder::Collated(SortField::DisplayName, Collation::Root);
    let mut x = item("zzz");
    x.display_name = "Apache".into();
    let y = item("bitnami-common");
    assert!(order.key(&x) < order.key(&y));
}
