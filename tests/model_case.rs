//! Model scenarios kept as regressions: each was a minimal failing input of `tests/model.rs`
//! (`MODEL_SEED` as named) and is replayed here with the same harness and invariants.
//!
//! All are about sources whose order is learned (`kubeapps`: offsets over an order that need not
//! be the merge order, e.g. an en_US-like collation) when the list changes under the position;
//! docs/DESIGN.md "Vanished positions" has the rules they hold.

#![allow(dead_code, unused_imports)]
mod support;
use support::model::*;

/// A shrink deletes 3 consumed items under the position; the probe at offset 1 answers `[z, É]`,
/// below the reference `İ` in byte order. Taken as a start on the merge order's word, both items
/// were dropped as consumed. Now the reference must come again: it does not, the source is read
/// whole and both come late.
#[test]
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

/// The same shrink before a resume: the page token's count over-counts the deleted items, so the
/// whole read's prefix ends at the first item above the source's own watermark instead.
#[test]
fn shrink_then_resume_under_a_collated_kapp_source_loses_nothing() {
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
            StepGen::Resize { page_size: 3 },
            StepGen::Page,
            StepGen::Resize { page_size: 4 },
            StepGen::Page,
            StepGen::Shrink { src: 1, n: 3 },
            StepGen::Page,
            StepGen::Resume,
        ],
        order: 0,
        order_seed: 0,
        long_keys: false,
    });
}
/// An item inserted in a tie group behind W (seed 11): the source is read whole and shows it late;
/// the late item moves the source's own watermark, so set aside and retried it is not shown again.
#[test]
fn tie_inserted_behind_w_then_set_aside_shows_it_once() {
    run_scenario(&Scenario {
        sources: vec![
            SourceGen {
                plugin: 0,
                cluster: 0,
                namespace: 0,
                kind: KindGen::Kubernetes {
                    selector: false,
                    missing_end: false,
                    remaining: false,
                    inclusive: false,
                },
                items: vec![],
            },
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
                        name: "😀".into(),
                        display: "".into(),
                        repo: 0,
                        cats: 0,
                        desc: 0,
                    },
                    ItemGen {
                        name: "😀".into(),
                        display: "".into(),
                        repo: 1,
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
            SourceGen {
                plugin: 0,
                cluster: 0,
                namespace: 0,
                kind: KindGen::Kubernetes {
                    selector: false,
                    missing_end: false,
                    remaining: false,
                    inclusive: false,
                },
                items: vec![ItemGen {
                    name: "".into(),
                    display: "".into(),
                    repo: 0,
                    cats: 0,
                    desc: 0,
                }],
            },
            SourceGen {
                plugin: 0,
                cluster: 0,
                namespace: 0,
                kind: KindGen::Kubernetes {
                    selector: false,
                    missing_end: false,
                    remaining: false,
                    inclusive: false,
                },
                items: vec![
                    ItemGen {
                        name: "é".into(),
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
                        name: "\0".into(),
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
                        repo: 0,
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
                ],
            },
        ],
        page_size: 2,
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
            StepGen::Page,
            StepGen::Insert {
                src: 1,
                item: ItemGen {
                    name: "".into(),
                    display: "".into(),
                    repo: 1,
                    cats: 0,
                    desc: 0,
                },
            },
            StepGen::Resume,
            StepGen::Page,
            StepGen::Resume,
            StepGen::Down {
                src: 1,
                status: 501,
            },
        ],
        order: 0,
        order_seed: 0,
        long_keys: false,
    });
}

/// Known limit (seed 44, documented in docs/DESIGN.md "Vanished positions"): a collated source
/// (`İ` before `É`) had read `İ` and consumed nothing; the merge went past `É` (below `İ` in
/// byte order, so the source's bound said nothing there could come). `İ` is deleted, then the
/// page token is resumed: the token holds the source's position and watermark, not its bound, and
/// `É` read from there is indistinguishable from an item inserted behind W since (which the
/// shared cases R08/R09 require not to show, to keep pages sorted), so it is dropped.
#[test]
#[ignore = "known limit: a bound lost in a page token (docs/DESIGN.md)"]
fn item_the_merge_went_past_after_a_resume_comes_late() {
    run_scenario(&Scenario {
        sources: vec![
            SourceGen {
                plugin: 0,
                cluster: 0,
                namespace: 0,
                kind: KindGen::Kubernetes {
                    selector: false,
                    missing_end: false,
                    remaining: false,
                    inclusive: false,
                },
                items: vec![
                    ItemGen {
                        name: "É".into(),
                        display: "".into(),
                        repo: 0,
                        cats: 0,
                        desc: 0,
                    },
                    ItemGen {
                        name: "aé".into(),
                        display: "".into(),
                        repo: 0,
                        cats: 0,
                        desc: 0,
                    },
                ],
            },
            SourceGen {
                plugin: 0,
                cluster: 0,
                namespace: 0,
                kind: KindGen::Kubernetes {
                    selector: false,
                    missing_end: false,
                    remaining: false,
                    inclusive: false,
                },
                items: vec![
                    ItemGen {
                        name: "Éa".into(),
                        display: "".into(),
                        repo: 0,
                        cats: 0,
                        desc: 0,
                    },
                    ItemGen {
                        name: "aÉ".into(),
                        display: "".into(),
                        repo: 0,
                        cats: 0,
                        desc: 0,
                    },
                ],
            },
            SourceGen {
                plugin: 0,
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
                        name: "É".into(),
                        display: "".into(),
                        repo: 0,
                        cats: 0,
                        desc: 0,
                    },
                    ItemGen {
                        name: "İ".into(),
                        display: "".into(),
                        repo: 0,
                        cats: 0,
                        desc: 0,
                    },
                ],
            },
            SourceGen {
                plugin: 0,
                cluster: 0,
                namespace: 0,
                kind: KindGen::Kubernetes {
                    selector: false,
                    missing_end: false,
                    remaining: false,
                    inclusive: false,
                },
                items: vec![
                    ItemGen {
                        name: "".into(),
                        display: "".into(),
                        repo: 0,
                        cats: 0,
                        desc: 3,
                    },
                    ItemGen {
                        name: "a".into(),
                        display: "".into(),
                        repo: 0,
                        cats: 0,
                        desc: 3,
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
            StepGen::Page,
            StepGen::Page,
            StepGen::Page,
            StepGen::Page,
            StepGen::Delete {
                src: 2,
                pick: 13783,
            },
            StepGen::Page,
            StepGen::Page,
            StepGen::Resume,
        ],
        order: 0,
        order_seed: 0,
        long_keys: false,
    });
}
/// An insertion inside the read prefix of a collated source before its switch (seed 55): the
/// late items are exactly those after the prefix, as the page token's count says, so a resume
/// while one is pending skips the right one.
#[test]
fn late_items_after_an_insertion_resume_exactly() {
    run_scenario(&Scenario {
        sources: vec![
            SourceGen {
                plugin: 0,
                cluster: 0,
                namespace: 0,
                kind: KindGen::Kubernetes {
                    selector: false,
                    missing_end: false,
                    remaining: false,
                    inclusive: false,
                },
                items: vec![ItemGen {
                    name: "".into(),
                    display: "".into(),
                    repo: 0,
                    cats: 1,
                    desc: 0,
                }],
            },
            SourceGen {
                plugin: 0,
                cluster: 0,
                namespace: 0,
                kind: KindGen::Kubernetes {
                    selector: false,
                    missing_end: false,
                    remaining: false,
                    inclusive: false,
                },
                items: vec![],
            },
            SourceGen {
                plugin: 0,
                cluster: 0,
                namespace: 0,
                kind: KindGen::Kubernetes {
                    selector: false,
                    missing_end: false,
                    remaining: false,
                    inclusive: false,
                },
                items: vec![ItemGen {
                    name: "B".into(),
                    display: "".into(),
                    repo: 0,
                    cats: 1,
                    desc: 0,
                }],
            },
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
                items: vec![ItemGen {
                    name: "a".into(),
                    display: "".into(),
                    repo: 0,
                    cats: 2,
                    desc: 0,
                }],
            },
            SourceGen {
                plugin: 0,
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
                        name: "aa".into(),
                        display: "".into(),
                        repo: 0,
                        cats: 0,
                        desc: 0,
                    },
                    ItemGen {
                        name: "".into(),
                        display: "".into(),
                        repo: 0,
                        cats: 2,
                        desc: 0,
                    },
                    ItemGen {
                        name: "B".into(),
                        display: "".into(),
                        repo: 0,
                        cats: 1,
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
            cats: 1,
            repos: 0,
            plugins: 0,
        },
        steps: vec![
            StepGen::Page,
            StepGen::Page,
            StepGen::Insert {
                src: 4,
                item: ItemGen {
                    name: "\0".into(),
                    display: "".into(),
                    repo: 0,
                    cats: 1,
                    desc: 0,
                },
            },
            StepGen::Page,
            StepGen::Resume,
        ],
        order: 0,
        order_seed: 0,
        long_keys: false,
    });
}

/// A resume after two insertions ahead and the deletion of the source's watermark item (seed
/// 123): the token's count would under-count (a repeat); the prefix ends at the first item above
/// the source's own watermark.
#[test]
fn resume_after_insertions_and_deletions_ahead_repeats_nothing() {
    run_scenario(&Scenario {
        sources: vec![
            SourceGen {
                plugin: 0,
                cluster: 0,
                namespace: 0,
                kind: KindGen::Kubernetes {
                    selector: false,
                    missing_end: false,
                    remaining: false,
                    inclusive: false,
                },
                items: vec![ItemGen {
                    name: "".into(),
                    display: "".into(),
                    repo: 0,
                    cats: 0,
                    desc: 0,
                }],
            },
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
                        name: "é".into(),
                        display: "".into(),
                        repo: 0,
                        cats: 0,
                        desc: 0,
                    },
                    ItemGen {
                        name: "".into(),
                        display: "".into(),
                        repo: 2,
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
                        name: "b".into(),
                        display: "".into(),
                        repo: 0,
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
                        name: "é".into(),
                        display: "".into(),
                        repo: 1,
                        cats: 0,
                        desc: 0,
                    },
                    ItemGen {
                        name: "😀".into(),
                        display: "".into(),
                        repo: 0,
                        cats: 0,
                        desc: 0,
                    },
                ],
            },
            SourceGen {
                plugin: 0,
                cluster: 0,
                namespace: 0,
                kind: KindGen::Kubernetes {
                    selector: false,
                    missing_end: false,
                    remaining: false,
                    inclusive: false,
                },
                items: vec![],
            },
            SourceGen {
                plugin: 0,
                cluster: 0,
                namespace: 0,
                kind: KindGen::Kubernetes {
                    selector: false,
                    missing_end: false,
                    remaining: false,
                    inclusive: false,
                },
                items: vec![
                    ItemGen {
                        name: "a".into(),
                        display: "".into(),
                        repo: 0,
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
                        name: "B".into(),
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
                    ItemGen {
                        name: "aa".into(),
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
                ],
            },
        ],
        page_size: 1,
        chunk_limit: 3,
        sort_display: false,
        collation: None,
        filter: FilterGen {
            query: "".into(),
            cats: 0,
            repos: 0,
            plugins: 0,
        },
        steps: vec![
            StepGen::Page,
            StepGen::Page,
            StepGen::Page,
            StepGen::Page,
            StepGen::Page,
            StepGen::Insert {
                src: 1,
                item: ItemGen {
                    name: "".into(),
                    display: "".into(),
                    repo: 1,
                    cats: 0,
                    desc: 0,
                },
            },
            StepGen::Delete {
                src: 1,
                pick: 62972,
            },
            StepGen::Page,
            StepGen::Page,
            StepGen::Page,
            StepGen::Page,
            StepGen::Meanwhile {
                src: 1,
                change: Box::new(StepGen::Insert {
                    src: 1,
                    item: ItemGen {
                        name: "".into(),
                        display: "".into(),
                        repo: 0,
                        cats: 0,
                        desc: 0,
                    },
                }),
            },
            StepGen::Resume,
        ],
        order: 0,
        order_seed: 0,
        long_keys: false,
    });
}

/// Known limit (seed 999, documented in docs/DESIGN.md "Vanished positions"): a source read whole
/// after a switch, resumed from a page token while one of its late items is pending, after an
/// item before the token's count was deleted: the count over-counts, and the pending late item is
/// taken as shown. The page token holds a count, not the identities, of what was read.
#[test]
#[ignore = "known limit: a resumed late phase after deletions ahead (docs/DESIGN.md)"]
fn resumed_late_phase_after_a_deletion_ahead() {
    run_scenario(&Scenario {
        sources: vec![
            SourceGen {
                plugin: 0,
                cluster: 0,
                namespace: 0,
                kind: KindGen::Kubernetes {
                    selector: false,
                    missing_end: false,
                    remaining: false,
                    inclusive: false,
                },
                items: vec![
                    ItemGen {
                        name: "B".into(),
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
                        name: "B".into(),
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
            SourceGen {
                plugin: 0,
                cluster: 0,
                namespace: 0,
                kind: KindGen::Kubernetes {
                    selector: false,
                    missing_end: false,
                    remaining: false,
                    inclusive: false,
                },
                items: vec![ItemGen {
                    name: "".into(),
                    display: "".into(),
                    repo: 0,
                    cats: 0,
                    desc: 0,
                }],
            },
            SourceGen {
                plugin: 0,
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
                        repo: 0,
                        cats: 0,
                        desc: 0,
                    },
                    ItemGen {
                        name: "\0".into(),
                        display: "".into(),
                        repo: 0,
                        cats: 0,
                        desc: 0,
                    },
                    ItemGen {
                        name: "-b".into(),
                        display: "".into(),
                        repo: 0,
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
                    ItemGen {
                        name: "".into(),
                        display: "".into(),
                        repo: 1,
                        cats: 0,
                        desc: 0,
                    },
                    ItemGen {
                        name: "-b".into(),
                        display: "".into(),
                        repo: 1,
                        cats: 0,
                        desc: 0,
                    },
                ],
            },
            SourceGen {
                plugin: 0,
                cluster: 0,
                namespace: 0,
                kind: KindGen::Kubernetes {
                    selector: false,
                    missing_end: false,
                    remaining: false,
                    inclusive: false,
                },
                items: vec![ItemGen {
                    name: "".into(),
                    display: "".into(),
                    repo: 0,
                    cats: 0,
                    desc: 0,
                }],
            },
        ],
        page_size: 4,
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
            StepGen::Page,
            StepGen::Page,
            StepGen::Page,
            StepGen::Delete {
                src: 3,
                pick: 24863,
            },
            StepGen::Resume,
        ],
        order: 0,
        order_seed: 0,
        long_keys: false,
    });
}
#[test]
fn default_case() {
    run_scenario(&Scenario {
        sources: vec![
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
                        name: "İéa".into(),
                        display: "".into(),
                        repo: 0,
                        cats: 0,
                        desc: 0,
                    },
                    ItemGen {
                        name: "".into(),
                        display: "".into(),
                        repo: 2,
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
                    ItemGen {
                        name: "ß".into(),
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
                ],
            },
            SourceGen {
                plugin: 0,
                cluster: 0,
                namespace: 0,
                kind: KindGen::Kubernetes {
                    selector: false,
                    missing_end: false,
                    remaining: false,
                    inclusive: false,
                },
                items: vec![
                    ItemGen {
                        name: "é".into(),
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
            StepGen::Page,
            StepGen::Meanwhile {
                src: 2,
                change: Box::new(StepGen::Insert {
                    src: 2,
                    item: ItemGen {
                        name: "b".into(),
                        display: "".into(),
                        repo: 0,
                        cats: 0,
                        desc: 0,
                    },
                }),
            },
            StepGen::Delete { src: 0, pick: 3674 },
            StepGen::Insert {
                src: 0,
                item: ItemGen {
                    name: "é".into(),
                    display: "".into(),
                    repo: 0,
                    cats: 0,
                    desc: 0,
                },
            },
        ],
        order: 0,
        order_seed: 0,
        long_keys: false,
    });
}
