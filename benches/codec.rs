//! Codec benchmarks: a realistic 3-source page token (encode, decode) and a
//! Kubernetes continue token (decode).
//!
//! `cargo bench --bench codec`; medians are in
//! `target/criterion/<group>/<bench>/new/estimates.json` and BENCHMARKS.md.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use kubeapps_pager::token::{ContinueToken, CoreToken, PageToken, SourceState, Watermark};
use kubeapps_pager::{Identity, SourceId};

/// Three sources mid-list, each holding a 100-character apiserver continue
/// token, a watermark and a resourceVersion (the case BENCHMARKS.md sizes).
fn realistic_token() -> PageToken {
    let plugins = [
        "helm.packages",
        "fluxv2.packages",
        "kapp_controller.packages",
    ];
    let sources = plugins
        .iter()
        .enumerate()
        .map(|(i, plugin)| SourceState {
            source: SourceId::new(*plugin, "default", "kubeapps"),
            chunk_token: ContinueToken::new(123_456, format!("kubeapps/package-name-{i:02}\0"))
                .encode()
                .unwrap_or_default(),
            offset: 3,
            watermark: Some(Watermark {
                sort_key: format!("package-name-{i:02}"),
                identity: Identity {
                    plugin: (*plugin).into(),
                    cluster: "default".into(),
                    namespace: "kubeapps".into(),
                    identifier: format!("bitnami/package-name-{i:02}"),
                },
            }),
            resource_version: "123456".into(),
            exhausted: false,
            inconsistent: false,
            behind: false,
            anchors: Vec::new(),
            late_watermark: None,
        })
        .collect();
    PageToken {
        fingerprint: 0x9e37_79b9_7f4a_7c15,
        page_size: 25,
        sources,
    }
}

const R04_CONTINUE: &str =
    "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTAwLCJzdGFydCI6Imt1YmVhcHBzL3BrZy1jXHUwMDAwIn0";

fn codec(c: &mut Criterion) {
    let token = realistic_token();
    let text = token.encode().unwrap_or_default();
    assert_eq!(
        PageToken::decode(&text).as_ref(),
        Ok(&token),
        "the bench token round-trips"
    );

    let mut page = c.benchmark_group("page_token");
    page.bench_function("encode_3_sources", |b| {
        b.iter(|| black_box(&token).encode())
    });
    page.bench_function("decode_3_sources", |b| {
        b.iter(|| PageToken::decode(black_box(&text)))
    });
    page.finish();

    let mut cont = c.benchmark_group("continue_token");
    cont.bench_function("decode", |b| {
        b.iter(|| ContinueToken::decode(black_box(R04_CONTINUE)))
    });
    cont.finish();

    // The Kubeapps core API's token: Go's `map[string]int` JSON, three plugins.
    let core = r#"{"helm.packages":120,"fluxv2.packages":-1,"kapp_controller.packages":40}"#;
    let mut kubeapps = c.benchmark_group("kubeapps_core_token");
    kubeapps.bench_function("decode_3_plugins", |b| {
        b.iter(|| CoreToken::decode(black_box(core)))
    });
    kubeapps.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = codec
}
criterion_main!(benches);
