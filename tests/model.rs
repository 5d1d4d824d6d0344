//! Model-based test: random catalogs, sources, options and steps between pages
//! (mutations, expiries, failures, late and repeated answers, resumes, spoiled
//! tokens), each run checked by the referee backend and the harness: no
//! identity twice, every item present the whole run shown, pages sorted, the
//! filter holds for every version shown, state unchanged after every error.
//!
//! `MODEL_RUNS` sets the number of runs (default 10,000 with `--release`, 1,000
//! in a debug build); `MODEL_SEED` the seed (default fixed, so a run is
//! reproducible). A failure is shrunk and printed as a `Scenario`.

mod support;

use std::cell::RefCell;
use std::time::Instant;

use proptest::test_runner::{Config, RngSeed, TestRunner};
use support::harness::Figures;
use support::model::{run_scenario, scenario};

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn random_runs_keep_every_invariant() {
    let runs: u32 = env_or(
        "MODEL_RUNS",
        if cfg!(debug_assertions) {
            1_000
        } else {
            10_000
        },
    );
    let seed: u64 = env_or("MODEL_SEED", 0x6b75_6265_6170_7073);
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
    let result = runner.run(&scenario(), |sc| {
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
}
