//! PagerOptions: validation, defaults and the fingerprint.

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
