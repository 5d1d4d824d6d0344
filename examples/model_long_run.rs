//! Runs the model of `tests/model.rs` for many generated runs and prints figures.
//!
//! ```text
//! cargo run --profile bench --example model_long_run -- [RUNS] [SEED] [--skip-known]
//! ```
//! `--skip-known` skips scenarios that can trigger a fault already reported (see
//! [`known_fault`]), to look for others; the skipped runs are counted.
//! Defaults: 1,000,000 runs, seed 1. Use a profile that unwinds (`bench`):
//! under `release` (`panic = "abort"`) the first failure ends the process.
//! Prints runs, pages, items, requests, rescans, 410s, stale answers, errors
//! checked, resumes, wall time and failures. Failures are grouped by kind (the
//! message up to its first detail); for each kind, the count and the smallest
//! failing scenario seen.

#[path = "../tests/support/mod.rs"]
mod support;

use std::collections::BTreeMap;
use std::panic::{self, AssertUnwindSafe};
use std::time::Instant;

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use support::harness::Figures;
use support::model::{run_scenario, scenario, KindGen, Scenario, StepGen};

/// The kind of a failure: its message up to the first detail, digits blanked.
fn kind(msg: &str) -> String {
    let head: String = msg.lines().next().unwrap_or("").chars().take(80).collect();
    let cut = head.find(['[', '{', '"', '(']).unwrap_or(head.len());
    head[..cut]
        .chars()
        .map(|c| if c.is_ascii_digit() { '#' } else { c })
        .collect()
}

/// Scenarios that can trigger a fault pinned by a test in `tests/cases.rs` (fixed on `core`
/// in 52f4c09; kept to explore older builds, and as the pattern for the next known fault).
/// `a_resumed_first_kubernetes_chunk_is_a_new_snapshot_so_its_offset_must_not_skip_unseen_items`:
/// a deletion or an update in a Kubernetes source, and a resume (in either order: the
/// resumed pager refetches lazily).
fn known_fault(sc: &Scenario) -> bool {
    let n = sc.sources.len();
    let kube = |src: u8| {
        matches!(
            sc.sources[src as usize % n].kind,
            KindGen::Kubernetes { .. }
        )
    };
    let change = sc.steps.iter().any(|s| match s {
        StepGen::Delete { src, .. } | StepGen::Update { src, .. } => kube(*src),
        StepGen::Meanwhile { change, .. } => {
            matches!(**change, StepGen::Delete { src, .. } | StepGen::Update { src, .. } if kube(src))
        }
        _ => false,
    });
    change
        && sc
            .steps
            .iter()
            .any(|s| matches!(s, StepGen::Resume | StepGen::Resize { .. }))
}

/// How big a scenario is, to keep the smallest of each kind.
fn size(sc: &Scenario) -> usize {
    let items: usize = sc.sources.iter().map(|s| s.items.len()).sum();
    let pages = sc
        .steps
        .iter()
        .filter(|s| matches!(s, StepGen::Page))
        .count();
    items + 2 * sc.steps.len() + sc.sources.len() - pages
}

fn main() {
    let mut args = std::env::args().skip(1);
    let runs: u64 = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let skip_known = args.next().as_deref() == Some("--skip-known");
    let mut skipped = 0u64;
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
    let mut kinds: BTreeMap<String, (u64, usize, String, Scenario)> = BTreeMap::new();
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
        if skip_known && known_fault(&sc) {
            skipped += 1;
            continue;
        }
        match panic::catch_unwind(AssertUnwindSafe(|| run_scenario(&sc))) {
            Ok(f) => figures.add(&f),
            Err(p) => {
                failures += 1;
                let msg = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                let n = size(&sc);
                let e =
                    kinds
                        .entry(kind(&msg))
                        .or_insert((0, usize::MAX, String::new(), sc.clone()));
                e.0 += 1;
                if n < e.1 {
                    *e = (e.0, n, format!("run {i}: {msg}"), sc);
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
    if skip_known {
        println!("skipped (known):    {skipped}");
    }
    for (k, (count, _, msg, sc)) in &kinds {
        println!("\n== {count} x {k}\nsmallest: {msg}\n{sc:?}");
    }
}
