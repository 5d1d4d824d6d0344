//! What the whole-read switch costs (BENCHMARKS.md, "Order learned: the whole-read switch"):
//! one Kubeapps offset source of N chart-like names (half of them hyphenated, as Bitnami's),
//! paged to the end with the default options but `pageSize` 20, once in byte order (streamed) and
//! once in an en_US-like collation (hyphens and case ignored first: found out of order, read
//! whole). Prints requests, items received, late items and the heap's peak while paging (a
//! counting allocator).
//!
//! `cargo run --release --example switch_cost`

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use kubeapps_pager::{Chunk, ItemFields, Pager, PagerOptions, SourceId, SourceSpec};

struct Counting;

static NOW: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            let now = NOW.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        NOW.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

fn names(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| {
            let stem = ["kube", "node", "mongo", "redis", "nginx"][i % 5];
            if i % 2 == 0 {
                format!("{stem}-x{i:05}")
            } else {
                format!("{stem}a{i:05}")
            }
        })
        .collect()
}

fn en_us(name: &str) -> (String, String) {
    (name.replace('-', "").to_lowercase(), name.to_string())
}

struct Figures {
    requests: u64,
    received: u64,
    late: u64,
    switches: u64,
    peak_kib: usize,
}

fn run(list: &[String], page_size: u32, chunk_limit: u32) -> Figures {
    let mut options = PagerOptions::new(vec![SourceSpec::new(SourceId::new(
        "helm.packages",
        "default",
        "kubeapps",
    ))]);
    options.page_size = page_size;
    options.chunk_limit = chunk_limit;
    let base = NOW.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let mut pager: Pager<u32> = Pager::new(options).expect("valid options");
    let mut shown = 0usize;
    let (mut late, mut switches) = (0, 0);
    loop {
        while !pager.page_ready() {
            for r in pager.next_requests() {
                let off: usize = r.page_token.parse().unwrap_or(0);
                let end = (off + r.limit as usize).min(list.len());
                let items = list[off.min(end)..end]
                    .iter()
                    .enumerate()
                    .map(|(k, n)| {
                        let f = ItemFields {
                            name: n.clone(),
                            identifier: format!("bitnami/{n}"),
                            ..Default::default()
                        };
                        (f, (off + k) as u32)
                    })
                    .collect();
                let next = (end < list.len()).then(|| end.to_string());
                let chunk = Chunk {
                    items,
                    next_token: next,
                    resource_version: None,
                    remaining_item_count: None,
                };
                pager.feed(r.request_id, chunk).expect("fed");
            }
        }
        let page = pager.take_page().expect("encodes").expect("ready");
        shown += page.items.len();
        late += page.stats.sources[0].late_items;
        switches += page.stats.sources[0].whole_read_switches;
        if page.done {
            break;
        }
    }
    assert_eq!(shown, list.len(), "every item once");
    let t = pager.stats().total();
    Figures {
        requests: t.requests,
        received: t.items_scanned,
        late,
        switches,
        peak_kib: (PEAK.load(Ordering::Relaxed) - base) / 1024,
    }
}

fn main() {
    println!("| items | chunk | order | requests | items received | switches | late | heap peak |");
    println!("|---:|---:|---|---:|---:|---:|---:|---:|");
    for n in [1_000usize, 10_000] {
        for chunk in [20u32, 100] {
            let mut bytes = names(n);
            bytes.sort();
            let mut collated = bytes.clone();
            collated.sort_by_key(|s| en_us(s));
            for (label, list) in [
                ("bytes (streamed)", &bytes),
                ("en_US (switched)", &collated),
            ] {
                let f = run(list, 20, chunk);
                println!(
                    "| {n} | {chunk} | {label} | {} | {} | {} | {} | {} KiB |",
                    f.requests, f.received, f.switches, f.late, f.peak_kib
                );
            }
        }
    }
}
