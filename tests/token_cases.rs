//! Field cases of the token codec (composite-token R01, token-encoding R13,
//! token-integrity R15), checked on the codec alone; the pager's side of the
//! same cases is tested with the pager.

use kubeapps_pager::token::{
    base64url, inspect_token, ContinueToken, PageToken, SourceState, TokenInfo, Watermark,
};
use kubeapps_pager::{Identity, PagerError, SourceId};

fn shown(plugin: &str, name: &str, repo: &str) -> Option<Watermark> {
    Some(Watermark {
        sort_key: name.into(),
        identity: Identity {
            plugin: plugin.into(),
            cluster: "default".into(),
            namespace: "kubeapps".into(),
            identifier: format!("{repo}/{name}"),
        },
    })
}

fn state(
    plugin: &str,
    chunk_token: &str,
    offset: u32,
    watermark: Option<Watermark>,
    exhausted: bool,
) -> SourceState {
    SourceState {
        source: SourceId::new(plugin, "default", "kubeapps"),
        chunk_token: chunk_token.into(),
        offset,
        watermark,
        resource_version: String::new(),
        exhausted,
        inconsistent: false,
        behind: false,
        anchors: Vec::new(),
        late_watermark: None,
    }
}

fn is_url_safe(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// R01: a token lists every source, the idle and the finished ones too, and
/// each keeps its whole state through encode and decode.
#[test]
fn r01_idle_and_finished_sources_keep_their_state() {
    let kapp_next = ContinueToken::new(7, "kubeapps/pkg-z\0")
        .encode()
        .unwrap_or_default();
    // The positions after each page of R01 (helm and fluxv2 page by offset,
    // kapp_controller by continue token).
    let after_pages = [
        (
            "page 1: helm idle, fluxv2 finished",
            vec![
                state("helm.packages", "", 0, None, false),
                state(
                    "kapp_controller.packages",
                    "",
                    1,
                    shown("kapp_controller.packages", "pkg-a", "repo-c"),
                    false,
                ),
                state(
                    "fluxv2.packages",
                    "",
                    1,
                    shown("fluxv2.packages", "pkg-a1", "repo-f"),
                    true,
                ),
            ],
        ),
        (
            "page 2: kapp_controller idle",
            vec![
                state(
                    "helm.packages",
                    "",
                    2,
                    shown("helm.packages", "pkg-c", "repo-a"),
                    false,
                ),
                state(
                    "kapp_controller.packages",
                    "",
                    1,
                    shown("kapp_controller.packages", "pkg-a", "repo-c"),
                    false,
                ),
                state(
                    "fluxv2.packages",
                    "",
                    1,
                    shown("fluxv2.packages", "pkg-a1", "repo-f"),
                    true,
                ),
            ],
        ),
        (
            "page 3: helm finished, kapp_controller mid-list",
            vec![
                state(
                    "helm.packages",
                    "2",
                    2,
                    shown("helm.packages", "pkg-e", "repo-a"),
                    true,
                ),
                state(
                    "kapp_controller.packages",
                    &kapp_next,
                    0,
                    shown("kapp_controller.packages", "pkg-a", "repo-c"),
                    false,
                ),
                state(
                    "fluxv2.packages",
                    "",
                    1,
                    shown("fluxv2.packages", "pkg-a1", "repo-f"),
                    true,
                ),
            ],
        ),
    ];
    for (name, sources) in after_pages {
        let token = PageToken {
            fingerprint: 0x0101,
            page_size: 2,
            sources,
        };
        let text = token.encode().unwrap_or_default();
        assert!(is_url_safe(&text), "{name}: {text}");
        let back = PageToken::decode(&text);
        assert_eq!(
            back.as_ref().map(|t| t.sources.len()),
            Ok(3),
            "{name}: every source is listed"
        );
        assert_eq!(back, Ok(token), "{name}");
    }
}

/// R13: a backend's own token full of `+ / = #` is carried byte for byte in a
/// page token that is safe in a URL as it is.
#[test]
fn r13_raw_plugin_token_survives_byte_for_byte() {
    let raw = "+RID:~kubeapps/pkg-b==#RT:1#TRC:10";
    assert_eq!(
        base64url::encode(raw.as_bytes()),
        "K1JJRDp-a3ViZWFwcHMvcGtnLWI9PSNSVDoxI1RSQzoxMA"
    );
    assert_eq!(
        base64url::decode("K1JJRDp-a3ViZWFwcHMvcGtnLWI9PSNSVDoxI1RSQzoxMA").as_deref(),
        Ok(raw.as_bytes())
    );

    for (name, chunk_token) in [
        ("the raw token", raw.to_owned()),
        ("the raw token, repeated", raw.repeat(3)),
        ("a space and a percent sign", "a b%2B+c".to_owned()),
        (
            "the raw token in standard base64",
            base64url::encode(raw.as_bytes()).replace('-', "+"),
        ),
    ] {
        let token = PageToken {
            fingerprint: 13,
            page_size: 2,
            sources: vec![
                state(
                    "helm.packages",
                    "1",
                    1,
                    shown("helm.packages", "pkg-a", "repo-a"),
                    false,
                ),
                state(
                    "kapp_controller.packages",
                    &chunk_token,
                    1,
                    shown("kapp_controller.packages", "pkg-b", "repo-c"),
                    false,
                ),
            ],
        };
        let text = token.encode().unwrap_or_default();
        assert!(is_url_safe(&text), "{name}: {text}");
        let back = PageToken::decode(&text).map(|t| t.sources[1].chunk_token.clone());
        assert_eq!(
            back.as_deref().map(str::as_bytes),
            Ok(chunk_token.as_bytes()),
            "{name}"
        );
    }
}

/// R15: a token cut short or garbled is a typed INVALID_PAGE_TOKEN error,
/// never a fragment read as a position (and never a start over).
#[test]
fn r15_truncated_and_garbled_tokens_are_typed_errors() {
    let kapp = ContinueToken::new(100, "kubeapps/pkg-b\0")
        .encode()
        .unwrap_or_default();
    let after_page_1 = PageToken {
        fingerprint: 0x1515,
        page_size: 2,
        sources: vec![
            state(
                "helm.packages",
                "",
                1,
                shown("helm.packages", "pkg-a", "repo-a"),
                false,
            ),
            state(
                "kapp_controller.packages",
                &kapp,
                0,
                shown("kapp_controller.packages", "pkg-b", "repo-c"),
                false,
            ),
        ],
    };
    let good = after_page_1.encode().unwrap_or_default();
    assert_eq!(PageToken::decode(&good), Ok(after_page_1));
    let chars = good.len();
    let cases = [
        (
            "the JSON-looking fragment",
            "eyJoZWxtLnBhY2thZ2VzIjp7".to_owned(),
        ),
        ("last character dropped", good[..chars - 1].to_owned()),
        ("last 4 characters dropped", good[..chars - 4].to_owned()),
        ("first half kept", good[..chars / 2].to_owned()),
        ("not a token at all", "not a token!".to_owned()),
    ];
    for (name, text) in cases {
        let got = PageToken::decode(&text);
        assert!(
            matches!(got, Err(PagerError::InvalidPageToken { .. })),
            "{name}: {got:?}"
        );
        assert_eq!(
            got.as_ref().err().map(PagerError::code),
            Some("INVALID_PAGE_TOKEN"),
            "{name}"
        );
        assert!(
            matches!(inspect_token(&text), TokenInfo::Invalid { .. }),
            "{name}: the inspector does not read it either"
        );
    }
}
