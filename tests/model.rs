//! Model-based test: random catalogs, sources, options and steps between pages
//! (mutations, expiries, failures, late and repeated answers, resumes, spoiled
//! tokens), each run checked by the referee backend and the harness: every
//! item present the whole run shown (nothing lost, ever), no identity twice but
//! on a page flagged `inconsistent` by a source that counted possible repeats
//! (docs/DESIGN.md "Order is learned", the limit), pages sorted, the filter
//! holds for every version shown, state unchanged after every error.
//!
//! `MODEL_RUNS` sets the number of runs (default 10,000 with `--release`, 1,000
//! in a debug build); `MODEL_SEED` the seed (default fixed, so a run is
//! reproducible). A failure is shrunk and printed as a `Scenario`.

mod support;

use std::cell::RefCell;
use std::time::Instant;

use kubeapps_pager::{Collation, FilterOptions, ItemFields, SortField, SortOrder};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::{Config, RngSeed, TestRunner};
use support::harness::Figures;
use support::model::{
    cluster_scenario, display_scenario, item, item_gen, run_scenario, scenario, Scenario,
    CATEGORIES, NAME_CHARS, PLUGINS,
};
use support::oracle::{ref_key, ref_matches};

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn random_runs_keep_every_invariant() {
    run_model(scenario(), 0x6b75_6265_6170_7073, true);
}

/// Issue 25: the cluster view's runs, each Kubernetes source a resource over all namespaces of
/// its cluster, merged in the apiserver's order (`namespace/name`) with the others; the same
/// steps and checks. A seed of its own (`MODEL_CLUSTER_SEED`).
#[test]
fn cluster_runs_keep_every_invariant() {
    let seed: u64 = env_or("MODEL_CLUSTER_SEED", 0x636c_7573_7465_7273);
    run_model(cluster_scenario(), seed, false);
}

/// Issue 24: runs under `sort: "displayName"` where display names are mostly the names, so a
/// helm source streams in its name order until an answer disagrees; the same steps and checks.
/// A seed of its own (`MODEL_DISPLAY_SEED`).
#[test]
fn display_runs_keep_every_invariant() {
    let seed: u64 = env_or("MODEL_DISPLAY_SEED", 0x6469_7370_6c61_7973);
    run_model(display_scenario(), seed, false);
}

fn run_model(strategy: impl Strategy<Value = Scenario>, default_seed: u64, main: bool) {
    let runs: u32 = env_or(
        "MODEL_RUNS",
        if cfg!(debug_assertions) {
            1_000
        } else {
            10_000
        },
    );
    let seed: u64 = if main {
        env_or("MODEL_SEED", default_seed)
    } else {
        default_seed
    };
    let config = Config {
        cases: runs,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(seed),
        max_shrink_iters: 4_096,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    let figures = RefCell::new(Figures::default());
    let start = Instant::now();
    let result = runner.run(&strategy, |sc| {
        let f = run_scenario(&sc);
        figures.borrow_mut().add(&f);
        Ok(())
    });
    eprintln!(
        "model: {runs} runs, seed {seed}, {:.2?}: {:?}",
        start.elapsed(),
        figures.borrow()
    );
    if let Err(e) = result {
        panic!("{e}");
    }
    // The runs did set sources aside and show items late (issue 15), not only pass.
    if runs >= 200 {
        let f = figures.borrow();
        assert!(
            f.unreachable > 0 && f.late > 0,
            "no permanent failure played: {f:?}"
        );
    }
}

fn placed_item() -> impl Strategy<Value = ItemFields> {
    (
        item_gen(),
        0..3usize,
        select(&["default", "prod"][..]),
        select(&["", "kubeapps", "team-1"][..]),
    )
        .prop_map(|(g, p, cluster, namespace)| ItemFields {
            plugin: PLUGINS[p].to_string(),
            cluster: cluster.to_string(),
            namespace: namespace.to_string(),
            ..item(&g)
        })
}

proptest! {
    #![proptest_config(Config { cases: 2_000, failure_persistence: None, ..Config::default() })]

    /// The referee's order (a tuple of strings) and the crate's byte keys agree: the model's
    /// `sorted` check means what DESIGN.md says.
    #[test]
    fn the_reference_order_agrees_with_the_crates_keys(a in placed_item(), b in placed_item(), display in any::<bool>(), collation in prop::option::of(select(&Collation::ALL[..])), apiserver in prop::bool::weighted(0.25)) {
        let field = if display { SortField::DisplayName } else { SortField::Name };
        let sort = match (field, collation) {
            _ if apiserver => SortOrder::Apiserver,
            (_, Some(c)) => SortOrder::Collated(field, c),
            (SortField::Name, None) => SortOrder::Name,
            (SortField::DisplayName, None) => SortOrder::DisplayName,
        };
        prop_assert_eq!(ref_key(sort, &a).cmp(&ref_key(sort, &b)), sort.key(&a).cmp(&sort.key(&b)));
    }

    /// The referee's filter and the crate's agree (queries with white space, NUL and
    /// letters whose lowercase changes length).
    #[test]
    fn the_reference_filter_agrees_with_the_crates(
        it in placed_item(),
        query in vec(select([NAME_CHARS, &[' ', '\t', 'A', 'S']].concat()), 0..=3),
        cats in vec(select(&CATEGORIES[..]), 0..=2),
        plugins in vec(select(&PLUGINS[..]), 0..=1),
        repos in vec(select(&["repo-a", "x", "repo-b/x"][..]), 0..=2),
    ) {
        let f = FilterOptions {
            query: query.into_iter().collect(),
            categories: cats.iter().map(|s| s.to_string()).collect(),
            repositories: repos.iter().map(|s| s.to_string()).collect(),
            plugins: plugins.iter().map(|s| s.to_string()).collect(),
            ..Default::default()
        };
        prop_assert_eq!(ref_matches(&f, &it), f.matches(&it), "filter {:?} item {:?}", f, it);
    }
}
