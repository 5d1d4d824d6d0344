//! Runs the model of `tests/model.rs` for many generated runs and prints figures.
//!
//! ```text
//! cargo run --profile bench --example model_long_run -- [RUNS] [SEED]
//! ```
//! Defaults: 1,000,000 runs, seed 1. Use a profile that unwinds (`bench`):
//! under `release` (`panic = "abort"`) the first failure ends the process.
//! Prints runs, pages, items, requests, rescans, 410s, stale answers, errors
//! checked, resumes, wall time and failures, with the first failing scenarios.

#[path = "../tests/support/mod.rs"]
mod support;

use std::panic::{self, AssertUnwindSafe};
use std::time::Instant;

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use support::harness::Figures;
use support::model::{run_scenario, scenario};

fn main() {
    let mut args = std::env::args().skip(1);
    let runs: u64 = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    if cfg!(panic = "abort") {
        eprintln!("note: built with panic = \"abort\": the first failure ends the run (use --profile bench)");
    }
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes),
    );
    let strategy = scenario();
    let mut figures = Figures::default();
    let mut failures = 0u64;
    let mut shown = 0;
    panic::set_hook(Box::new(|_| {}));
    let start = Instant::now();
    for i in 0..runs {
        let sc = match strategy.new_tree(&mut runner) {
            Ok(tree) => tree.current(),
            Err(e) => {
                eprintln!("generation failed: {e}");
                break;
            }
        };
        match panic::catch_unwind(AssertUnwindSafe(|| run_scenario(&sc))) {
            Ok(f) => figures.add(&f),
            Err(p) => {
                failures += 1;
                if shown < 3 {
                    shown += 1;
                    let msg = p
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default();
                    println!("FAILURE in run {i}: {msg}\n{sc:#?}\n");
                }
            }
        }
        if (i + 1) % 100_000 == 0 {
            eprintln!(
                "{} runs, {failures} failures, {:.1?}",
                i + 1,
                start.elapsed()
            );
        }
    }
    let wall = start.elapsed();
    println!("runs:               {runs} (seed {seed})");
    println!("pages:              {}", figures.pages);
    println!("items shown:        {}", figures.items);
    println!("requests:           {}", figures.requests);
    println!("rescans:            {}", figures.rescans);
    println!("410 Expired:        {}", figures.expired);
    println!("stale answers:      {}", figures.stale);
    println!("errors checked:     {}", figures.errors_checked);
    println!("resumes:            {}", figures.resumes);
    println!("duplicates dropped: {}", figures.duplicates_dropped);
    println!(
        "wall time:          {wall:.2?} ({:.0} runs/s)",
        runs as f64 / wall.as_secs_f64()
    );
    println!("failures:           {failures}");
}
