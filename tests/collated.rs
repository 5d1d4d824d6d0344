//! Collated merges (docs/DESIGN.md "Collation"): a natural order over a database that returns it
//! (streamed) and sources that cannot (read whole), page tokens bound to the collation, and a
//! source whose order disagrees with the collation: detected, nothing lost.
#![cfg(feature = "collation")]

mod support;

use kubeapps_pager::{Collation, SortField, SortOrder};
use support::harness::{item, source, Run, Setup};
use support::oracle::ref_key;
use support::sim::{Behaviour, Collation as DbCollation};

const HELM: &str = "helm.packages";
const KAPP: &str = "kapp_controller.packages";

fn natural(c: Collation) -> SortOrder {
    SortOrder::Collated(SortField::Name, c)
}

fn setup(sort: SortOrder) -> Setup {
    let helm = [
        "kube-state-metrics",
        "kubeapps",
        "Zeta-Board",
        "kubernetes-event-exporter",
        "kube-prometheus",
        "apache",
        "école",
        "edge",
        "cert-manager",
    ];
    let kapp = ["certmanager", "Apache", "zeta", "ecole", "kubeapps"];
    let mut s = Setup::new(3, 2);
    s.sources = vec![
        source(
            HELM,
            Behaviour::offset(),
            helm.iter().map(|n| item(n, "bitnami")).collect(),
        ),
        source(
            KAPP,
            Behaviour::kubernetes(),
            kapp.iter().map(|n| item(n, "tce")).collect(),
        ),
    ];
    s.sort = sort;
    s
}

fn shown(run: &Run) -> Vec<(String, String)> {
    run.pages
        .iter()
        .flat_map(|p| {
            p.items
                .iter()
                .map(|i| (i.fields.name.clone(), i.fields.plugin.clone()))
        })
        .collect()
}

#[test]
fn a_natural_order_streams_the_collated_database_and_reads_the_apiserver_whole() {
    for c in Collation::ALL {
        let mut run = Run::new(&setup(natural(c)));
        run.page();
        run.resume(); // from the first page's token, under the same collation
        run.drain(20);
        run.check_complete();
        let want = [
            ("apache", HELM),
            ("Apache", KAPP),       // lowercase first (tertiary)
            ("cert-manager", HELM), // ties with certmanager at levels 1-3: bytes decide
            ("certmanager", KAPP),
            ("ecole", KAPP),
            ("école", HELM), // accent second (secondary)
            ("edge", HELM),
            ("kubeapps", HELM), // equal names: the identity decides (helm < kapp)
            ("kubeapps", KAPP),
            ("kube-prometheus", HELM), // the hyphen ignored: kubeprometheus
            ("kubernetes-event-exporter", HELM),
            ("kube-state-metrics", HELM),
            ("zeta", KAPP),
            ("Zeta-Board", HELM), // under Z
        ];
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(n, p)| (n.to_string(), p.to_string()))
            .collect();
        assert_eq!(shown(&run), want, "{c:?}");
        // The page's stats say which source streamed: helm (a database in the collation), not
        // the apiserver (byte order, strict).
        for page in &run.pages {
            let streamed: Vec<bool> = page.stats.sources.iter().map(|s| s.streamed).collect();
            assert_eq!(streamed, [true, false]);
        }
        assert_eq!(run.pager.stats().sources[0].streamed, true);
    }
}

#[test]
fn under_a_byte_order_nothing_streams_that_a_collation_would() {
    // The same sources sorted by `name` bytes (the sims are databases in the C collation then):
    // both stream, and the page stats say so.
    let mut run = Run::new(&setup(SortOrder::Name));
    run.drain(20);
    run.check_complete();
    assert!(run
        .pages
        .iter()
        .all(|p| p.stats.sources.iter().all(|s| s.streamed)));
    // Under a collated displayName order, neither streams (no source orders by it).
    let mut run = Run::new(&setup(SortOrder::Collated(
        SortField::DisplayName,
        Collation::Root,
    )));
    run.drain(20);
    run.check_complete();
    assert!(run
        .pages
        .iter()
        .all(|p| p.stats.sources.iter().all(|s| !s.streamed)));
}

#[test]
fn a_page_token_is_bound_to_its_collation() {
    let s = setup(natural(Collation::Root));
    let mut run = Run::new(&s);
    run.page();
    let token = run.last_token();
    for other in [
        SortOrder::Name,
        SortOrder::DisplayName,
        natural(Collation::En),
        SortOrder::Collated(SortField::DisplayName, Collation::Root),
    ] {
        let mut o = setup(other).options();
        o.page_size = s.page_size;
        let e = run.try_resume(&token, o).expect_err("another order");
        assert_eq!(e.code(), "FILTER_MISMATCH", "{other:?}");
    }
    run.try_resume(&token, s.options())
        .expect("the same collation");
    run.drain(20);
    run.check_complete();
}

#[test]
fn a_database_in_another_order_is_detected_not_trusted() {
    // The helm source's database sorts by bytes (the C collation): under a natural order its
    // `Zeta-Board` comes before `apache`. The pager verifies the streamed order on every chunk:
    // it finds the disorder, switches the source to one whole read (docs/DESIGN.md "Order is
    // learned") and goes on; every item is shown once (the harness checks each page's order,
    // late items aside, and `check_complete` that none is missing).
    let mut run = Run::new(&setup(natural(Collation::Root)));
    if let Behaviour::KubeappsOffset(cfg) = &mut run.sim.sources[0].behaviour {
        cfg.collation = DbCollation::Bytes;
    }
    run.drain(20);
    run.check_complete();
    let stats = &run.pager.stats().sources[0];
    assert_eq!(stats.whole_read_switches, 1);
    assert!(!stats.streamed, "after the switch the source is read whole");
    assert_eq!(shown(&run).len(), 14);
}

/// Where PostgreSQL under en_US.UTF-8 (glibc's collation) and the pager's collation disagree,
/// measured by `bench/collation-pg.mjs` (BENCHMARKS.md "Collation"): on the real Bitnami and
/// k8s-at-home indexes nowhere; among short probe names one adjacent pair, which the database
/// returns as `"1_B"` then `" 1b"` (the collation: `" 1b"` first, lowercase before uppercase at
/// the third level, the space and underscore being ignorable).
/// A helm source paged by offsets over that order, every chunk size: the pager detects the
/// disorder, switches the source to one whole read (issue 11's order learning) and shows every
/// item once; an item the switch finds below what was shown is shown late and counted.
#[test]
fn where_postgresql_en_us_and_the_collation_disagree_the_disorder_is_detected_and_nothing_lost() {
    use kubeapps_pager::{
        Chunk, ItemFields, Pager, PagerOptions, SourceId, SourceKind, SourceSpec,
    };
    // PostgreSQL's order of these names: the measured pair with three neighbours on either side,
    // as bench/collation-pg.mjs printed them. The first four and the last three are ties of the
    // collation (they differ in ignorable characters only); glibc puts the uppercase ones first.
    let database = ["1 B", "1-B", "1.B", "1_B", " 1b", "-1b", ".1b"];
    let order = natural(Collation::En);
    for limit in 1..=4u32 {
        let mut o = PagerOptions::new(vec![SourceSpec {
            id: SourceId::new(HELM, "default", "kubeapps"),
            kind: SourceKind::Kubeapps,
            order: None,
            filter: None,
        }]);
        o.sort = order;
        o.page_size = 1;
        o.chunk_limit = limit;
        let mut pager: Pager<String> = Pager::new(o).expect("options");
        let mut shown: Vec<String> = Vec::new();
        let mut pages = 0;
        loop {
            while !pager.page_ready() {
                for req in pager.next_requests() {
                    let from: usize = req.page_token.parse().unwrap_or(0);
                    let end = database.len().min(from + req.limit as usize);
                    let items = database[from.min(end)..end]
                        .iter()
                        .map(|n| {
                            let it = ItemFields {
                                identifier: format!("bitnami/{n}"),
                                name: n.to_string(),
                                ..ItemFields::default()
                            };
                            (it, n.to_string())
                        })
                        .collect();
                    let chunk = Chunk {
                        items,
                        next_token: (end < database.len()).then(|| end.to_string()),
                        resource_version: None,
                        remaining_item_count: None,
                    };
                    pager.feed(req.request_id, chunk).expect("a legal answer");
                }
            }
            let page = pager.take_page().expect("encodes").expect("ready");
            shown.extend(page.items);
            pages += 1;
            if page.done {
                break;
            }
            assert!(pages < 50, "chunk limit {limit}: not done");
        }
        // Detected: the source switched to one whole read; nothing lost, nothing twice.
        let stats = &pager.stats().sources[0];
        assert_eq!(stats.whole_read_switches, 1, "chunk limit {limit}");
        assert!(!stats.streamed);
        let mut sorted = shown.clone();
        sorted.sort();
        let mut want: Vec<String> = database.iter().map(|n| n.to_string()).collect();
        want.sort();
        assert_eq!(sorted, want, "chunk limit {limit}: {shown:?}");
        // Items shown in order but for the late ones (counted), which the switch brought.
        let keys: Vec<_> = shown
            .iter()
            .map(|n| {
                ref_key(
                    order,
                    &ItemFields {
                        name: n.clone(),
                        ..ItemFields::default()
                    },
                )
            })
            .collect();
        let out_of_order = keys.windows(2).filter(|w| w[0] > w[1]).count() as u64;
        assert!(
            out_of_order <= stats.late_items,
            "chunk limit {limit}: {shown:?}"
        );
    }
    // The pair itself, by ICU4X's own collator with the documented settings.
    let (a, b) = ("1_B", " 1b");
    assert!(
        support::oracle::ref_collation_key(Collation::En, b)
            < support::oracle::ref_collation_key(Collation::En, a)
    );
}
