//! Golden page tokens: tokens written by format version 1 must decode, in this
//! and every later version, to the states below.
//!
//! The files in `tests/golden/page_token_v1_*.txt` are frozen: never rewrite
//! them. A new format version adds its own `page_token_v2_*` files and keeps
//! these tests as they are (except the "still written" check, which holds only
//! while version 1 is the format this build writes).

use kubeapps_pager::token::page_token::{MAX_SOURCES, PAGE_TOKEN_VERSION};
use kubeapps_pager::token::{PageToken, SourceState, Watermark};
use kubeapps_pager::{Identity, SourceId};

const R04_PKG_C: &str =
    "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTAwLCJzdGFydCI6Imt1YmVhcHBzL3BrZy1jXHUwMDAwIn0";
const R04_PKG_F: &str =
    "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTAwLCJzdGFydCI6Imt1YmVhcHBzL3BrZy1mXHUwMDAwIn0";
const EXPIRED_PKG_C: &str =
    "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6LTEsInN0YXJ0Ijoia3ViZWFwcHMvcGtnLWNcdTAwMDAifQ";

fn source(plugin: &str, cluster: &str, namespace: &str) -> SourceId {
    SourceId::new(plugin, cluster, namespace)
}

fn mark(
    sort_key: &str,
    plugin: &str,
    cluster: &str,
    namespace: &str,
    identifier: &str,
) -> Option<Watermark> {
    Some(Watermark {
        sort_key: sort_key.into(),
        identity: Identity {
            plugin: plugin.into(),
            cluster: cluster.into(),
            namespace: namespace.into(),
            identifier: identifier.into(),
        },
    })
}

fn no_sources() -> PageToken {
    PageToken {
        fingerprint: 0x0123_4567_89ab_cdef,
        page_size: 20,
        sources: vec![],
    }
}

fn three_kubernetes_sources() -> PageToken {
    PageToken {
        fingerprint: 0xfedc_ba98_7654_3210,
        page_size: 2,
        sources: vec![
            SourceState {
                source: source("helm.packages", "default", "kubeapps"),
                chunk_token: R04_PKG_C.into(),
                offset: 1,
                watermark: mark(
                    "pkg-b",
                    "helm.packages",
                    "default",
                    "kubeapps",
                    "repo-a/pkg-b",
                ),
                resource_version: "100".into(),
                exhausted: false,
                inconsistent: false,
                behind: false,
                anchors: Vec::new(),
                late_watermark: None,
            },
            SourceState {
                source: source("fluxv2.packages", "default", ""),
                chunk_token: R04_PKG_F.into(),
                offset: 0,
                // All namespaces: the item's own namespace differs; a displayName sort key.
                watermark: mark(
                    "Pkg E",
                    "fluxv2.packages",
                    "default",
                    "team-a",
                    "repo-f/pkg-e",
                ),
                resource_version: "100".into(),
                exhausted: true,
                inconsistent: false,
                behind: false,
                anchors: Vec::new(),
                late_watermark: None,
            },
            SourceState {
                source: source("kapp_controller.packages", "default", "kubeapps"),
                chunk_token: EXPIRED_PKG_C.into(),
                offset: 0,
                watermark: None,
                resource_version: String::new(),
                exhausted: false,
                inconsistent: true,
                behind: false,
                anchors: Vec::new(),
                late_watermark: None,
            },
        ],
    }
}

fn unicode_keys() -> PageToken {
    PageToken {
        fingerprint: u64::MAX,
        page_size: u32::MAX,
        sources: vec![
            SourceState {
                source: source("my.plugin/ünï", "clüster\u{2028}", "\0"),
                chunk_token: "+RID:~kubeapps/pkg-b==#RT:1#TRC:10".into(),
                offset: u32::MAX,
                watermark: mark(
                    "\0\u{1F4E6} pkg\u{301} \u{5D0}\u{5D1}",
                    "helm.packages",
                    "other\u{10FFFF}",
                    "\0",
                    "r\u{e9}po/\0\u{1F4E6} pkg\u{301} \u{5D0}\u{5D1}",
                ),
                resource_version: "18446744073709551615".into(),
                exhausted: true,
                inconsistent: true,
                behind: false,
                anchors: Vec::new(),
                late_watermark: None,
            },
            SourceState {
                source: source("", "", ""),
                chunk_token: "K1JJRDp-a3ViZWFwcHMvcGtnLWI9PSNSVDoxI1RSQzoxMA".into(),
                offset: 0,
                watermark: mark("", "", "", "", "/"),
                resource_version: "0042".into(),
                exhausted: false,
                inconsistent: false,
                behind: false,
                anchors: Vec::new(),
                late_watermark: None,
            },
        ],
    }
}

fn sixty_four_sources() -> PageToken {
    const PLUGINS: [&str; 3] = [
        "helm.packages",
        "fluxv2.packages",
        "kapp_controller.packages",
    ];
    let sources = (0..MAX_SOURCES)
        .map(|i| {
            let plugin = PLUGINS[i % 3];
            let cluster = format!("cluster-{}", i / 3);
            SourceState {
                source: source(plugin, &cluster, "kubeapps"),
                chunk_token: if i % 4 == 0 {
                    String::new()
                } else {
                    (i * 10).to_string()
                },
                offset: i as u32,
                watermark: if i % 2 == 0 {
                    mark(
                        &format!("pkg-{i}"),
                        plugin,
                        &cluster,
                        "kubeapps",
                        &format!("repo/pkg-{i}"),
                    )
                } else {
                    None
                },
                resource_version: String::new(),
                exhausted: i % 5 == 0,
                inconsistent: false,
                behind: false,
                anchors: Vec::new(),
                late_watermark: None,
            }
        })
        .collect();
    PageToken {
        fingerprint: 64,
        page_size: 100,
        sources,
    }
}

/// The goldens and the states they hold.
fn goldens() -> [(&'static str, &'static str, PageToken); 4] {
    [
        (
            "page_token_v1_no_sources.txt",
            include_str!("golden/page_token_v1_no_sources.txt"),
            no_sources(),
        ),
        (
            "page_token_v1_three_kubernetes_sources.txt",
            include_str!("golden/page_token_v1_three_kubernetes_sources.txt"),
            three_kubernetes_sources(),
        ),
        (
            "page_token_v1_unicode_keys.txt",
            include_str!("golden/page_token_v1_unicode_keys.txt"),
            unicode_keys(),
        ),
        (
            "page_token_v1_64_sources.txt",
            include_str!("golden/page_token_v1_64_sources.txt"),
            sixty_four_sources(),
        ),
    ]
}

/// The token text of a golden file: one line.
fn text(file: &str) -> &str {
    file.strip_suffix('\n').unwrap_or(file)
}

#[test]
fn version_1_goldens_decode_to_their_states() {
    for (name, file, state) in goldens() {
        assert_eq!(PageToken::decode(text(file)), Ok(state), "{name}");
    }
}

#[test]
fn version_1_is_still_what_this_build_writes() {
    if PAGE_TOKEN_VERSION != 1 {
        return;
    }
    for (name, file, state) in goldens() {
        assert_eq!(state.encode().as_deref(), Ok(text(file)), "{name}");
    }
}
