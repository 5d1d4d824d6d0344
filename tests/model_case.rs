#![allow(dead_code, unused_imports)]
mod support;
use support::model::*;
// A model scenario kept as a regression (found by `tests/model.rs` after merging issue 15; it
// fails on main before that merge too). A kapp_controller source (order learned) whose own order
// is not the merge's (en_US-like: `İ` before `z` before `É`) loses `repo-a/z` and `repo-a/É`
// after a shrink deletes 3 consumed items under the position: the overlap re-read moves back,
// the probe at offset 1 answers `[z, É]`, which starts below the reference `İ` in byte order and
// is accepted as a start; both items sort below the watermark and are dropped as consumed, and
// the list ends. Nothing observed is out of byte order, so no whole read is triggered.
// See the integration report; the fix belongs in src/pager/cursor.rs (probe acceptance).

#[test]
#[ignore = "known loss (see the module doc): fix in src/pager/cursor.rs pending"]
fn shrink_under_a_collated_kapp_source_loses_nothing() {
    run_scenario(&Scenario {
        sources: vec![
            SourceGen {
                plugin: 0,
                cluster: 0,
                namespace: 0,
                kind: KindGen::Offset {
                    full_page_token: false,
                    missing_end: false,
                    order_none: false,
                    quirks: OffsetQuirks {
                        en_us: false,
                        pg_ties: false,
                        refuse_past_end: false,
                        echo_end: false,
                        zero_config: false,
                    },
                },
                items: vec![
                    ItemGen {
                        name: "".into(),
                        display: "".into(),
                        repo: 0,
                        cats: 0,
                        desc: 0,
                    },
                    ItemGen {
                        name: "é".into(),
                        display: "".into(),
                        repo: 0,
                        cats: 0,
                        desc: 0,
                    },
                    ItemGen {
                        name: "a".into(),
                        display: "".into(),
                        repo: 2,
                        cats: 0,
                        desc: 0,
                    },
                    ItemGen {
                        name: "b".into(),
                        display: "".into(),
                        repo: 0,
                        cats: 0,
                        desc: 0,
                    },
                    ItemGen {
                        name: "a".into(),
                        display: "".into(),
                        repo: 0,
                        cats: 0,
                        desc: 0,
                    },
                    ItemGen {
                        name: "".into(),
                        display: "".into(),
                        repo: 1,
                        cats: 0,
                        desc: 0,
                    },
                    ItemGen {
                        name: "a".into(),
                        display: "".into(),
                        repo: 1,
                        cats: 0,
                        desc: 0,
                    },
                    ItemGen {
                        name: "aa".into(),
                        display: "".into(),
                        repo: 0,
                        cats: 0,
                        desc: 0,
                    },
                ],
            },
            SourceGen {
                plugin: 2,
                cluster: 0,
                namespace: 0,
                kind: KindGen::Offset {
                    full_page_token: false,
                    missing_end: false,
                    order_none: false,
                    quirks: OffsetQuirks {
                        en_us: true,
                        pg_ties: false,
                        refuse_past_end: false,
                        echo_end: false,
                        zero_config: false,
                    },
                },
                items: vec![
                    ItemGen {
                        name: "".into(),
                        display: "".into(),
                        repo: 1,
                        cats: 0,
                        desc: 0,
                    },
                    ItemGen {
                        name: "a".into(),
                        display: "".into(),
                        repo: 0,
                        cats: 0,
                        desc: 0,
                    },
                    ItemGen {
                        name: "É".into(),
                        display: "".into(),
                        repo: 0,
                        cats: 0,
                        desc: 0,
                    },
                    ItemGen {
                        name: "z".into(),
                        display: "".into(),
                        repo: 0,
                        cats: 0,
                        desc: 0,
                    },
                    ItemGen {
                        name: "".into(),
                        display: "".into(),
                        repo: 0,
                        cats: 0,
                        desc: 0,
                    },
                ],
            },
        ],
        page_size: 1,
        chunk_limit: 1,
        sort_display: false,
        collation: None,
        filter: FilterGen {
            query: "".into(),
            cats: 0,
            repos: 0,
            plugins: 0,
        },
        steps: vec![
            StepGen::Insert {
                src: 1,
                item: ItemGen {
                    name: "İ".into(),
                    display: "".into(),
                    repo: 0,
                    cats: 0,
                    desc: 0,
                },
            },
            StepGen::Page,
            StepGen::Page,
            StepGen::Shrink { src: 1, n: 3 },
            StepGen::Page,
        ],
        order: 0,
        order_seed: 0,
        long_keys: false,
    });
}
