//! Pages 1,000,000 items from three sources through the core pager and prints the live heap as it
//! goes, to show that the pager's state does not grow with the number of items already shown.
//!
//! `cargo run --release --example memory_1m [-- ITEMS]`
//!
//! A counting global allocator tracks live bytes. Items are generated per chunk and dropped when
//! the page is taken, so what stays live is the pager itself: buffered chunks plus O(1) per source.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use kubeapps_pager::{Chunk, ItemFields, Pager, PagerOptions, SourceId, SourceKind, SourceSpec};

struct Counting;
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Relaxed) + layout.size();
        PEAK.fetch_max(live, Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

const PLUGINS: [&str; 3] = [
    "helm.packages",
    "fluxv2.packages",
    "kapp_controller.packages",
];

/// Item `i` of source `s`: names interleave across sources, so the merge alternates.
fn item(s: usize, i: u64) -> ItemFields {
    let name = format!("pkg-{i:09}-{s}");
    ItemFields {
        plugin: PLUGINS[s].into(),
        cluster: "default".into(),
        namespace: "kubeapps".into(),
        identifier: format!("repo-{s}/{name}"),
        display_name: name.clone(),
        name,
        short_description: "a package".into(),
        categories: vec!["Database".into()],
    }
}

fn main() {
    let total: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let per_source = total / 3 + 1;
    let sources = PLUGINS
        .iter()
        .enumerate()
        .map(|(s, p)| SourceSpec {
            id: SourceId::new(*p, "default", "kubeapps"),
            kind: if s == 2 {
                SourceKind::Kubernetes
            } else {
                SourceKind::Kubeapps
            },
            order: None,
            filter: None,
        })
        .collect();
    let mut options = PagerOptions::new(sources);
    options.page_size = 100;
    options.chunk_limit = 500;
    let mut pager: Pager<u64> = Pager::new(options).expect("options");
    let mut shown = 0u64;
    let mut next_report = 10_000u64;
    println!("| items shown | live heap (bytes) | peak so far (bytes) |");
    println!("|---:|---:|---:|");
    let started = std::time::Instant::now();
    while shown < total {
        while !pager.page_ready() {
            for r in pager.next_requests() {
                // Kubeapps offsets ("" = 0; the pager may ask from offset-1 with limit+1) and
                // continue tokens (here: the decimal offset too; opaque to the pager).
                let start: u64 = r.page_token.parse().unwrap_or(0);
                let end = (start + r.limit as u64).min(per_source);
                let items = (start..end).map(|i| (item(r.source_index, i), i)).collect();
                let next = (end < per_source).then(|| end.to_string());
                let chunk = Chunk {
                    items,
                    next_token: next,
                    resource_version: None,
                    remaining_item_count: None,
                };
                pager.feed(r.request_id, chunk).expect("feed");
            }
        }
        let page = pager.take_page().expect("token").expect("ready");
        shown += page.items.len() as u64;
        if page.done {
            break;
        }
        if shown >= next_report {
            println!(
                "| {shown} | {} | {} |",
                LIVE.load(Relaxed),
                PEAK.load(Relaxed)
            );
            next_report *= 10;
        }
    }
    println!(
        "| {shown} | {} | {} |",
        LIVE.load(Relaxed),
        PEAK.load(Relaxed)
    );
    println!("\n{shown} items in {:.2?}", started.elapsed());
}
