//! A whole walk of the core, natively, for instruction counts: a figure that the machine's load does
//! not move (BENCHMARKS.md, "Findings and plan", issue 24). Three offset sources (plugins the
//! pager filters itself) of `per` items each, names in byte order; every tenth item in the
//! category the 10% filter asks for. Built with the release profile (opt-level "z", as the wasm).
//!
//! ```text
//! cargo build --release --example walk_instructions
//! valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
//!   target/release/examples/walk_instructions <page size> <100|10> [per source, 20000] [gen]
//! ```
//!
//! `gen` stops after making the lists (the harness's own share). Each fed item is a clone of the
//! list's (8 strings): the same work in any two builds compared.
use kubeapps_pager::{Chunk, ItemFields, Pager, PagerOptions, SourceId, SourceSpec};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let page: u32 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(20);
    let sel10 = args.get(2).map_or(false, |a| a == "10");
    let per: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(20000);
    let ids = [
        ("a.packages", "default", "kubeapps"),
        ("b.packages", "default", "kubeapps"),
        ("c.packages", "default", "kubeapps"),
    ];
    let mut lists: Vec<Vec<ItemFields>> = Vec::new();
    for (s, (p, c, n)) in ids.iter().enumerate() {
        let mut names: Vec<String> = (0..per)
            .map(|i| {
                format!(
                    "{}-pkg{:06}-{}",
                    ["kube", "node", "mongo", "redis", "nginx"][(i * 7 + s) % 5],
                    (i * 7919 + s * 13) % 1_000_000,
                    s
                )
            })
            .collect();
        names.sort();
        lists.push(
            names
                .into_iter()
                .enumerate()
                .map(|(i, name)| ItemFields {
                    plugin: p.to_string(),
                    cluster: c.to_string(),
                    namespace: n.to_string(),
                    identifier: format!("repo/{name}"),
                    display_name: name.clone(),
                    short_description: format!("{name} packaged for Kubernetes"),
                    categories: vec![if i % 10 == 0 {
                        "Database".into()
                    } else {
                        format!("Cat{}", i % 7)
                    }],
                    name,
                })
                .collect(),
        );
    }
    if args.get(4).map_or(false, |a| a == "gen") {
        println!("{}", lists.len());
        return;
    }
    let mut options = PagerOptions::new(
        ids.iter()
            .map(|(p, c, n)| SourceSpec::new(SourceId::new(*p, *c, *n)))
            .collect(),
    );
    options.page_size = page;
    if sel10 {
        options.filter.categories = vec!["Database".into()];
    }
    let mut pager: Pager<u32> = Pager::new(options).expect("valid");
    let (mut shown, mut pages) = (0usize, 0usize);
    loop {
        while !pager.page_ready() {
            for r in pager.next_requests() {
                let list = &lists[r.source_index];
                let off: usize = r.page_token.parse().unwrap_or(0);
                let end = (off + r.limit as usize).min(list.len());
                let items = list[off.min(end)..end]
                    .iter()
                    .enumerate()
                    .map(|(k, f)| (f.clone(), (off + k) as u32))
                    .collect();
                let next = (end < list.len()).then(|| end.to_string());
                pager
                    .feed(
                        r.request_id,
                        Chunk {
                            items,
                            next_token: next,
                            resource_version: None,
                            remaining_item_count: None,
                        },
                    )
                    .expect("fed");
            }
        }
        let p = pager.take_page().expect("encodes").expect("ready");
        shown += p.items.len();
        pages += 1;
        if p.done {
            break;
        }
    }
    println!("{pages} pages, {shown} items");
}
