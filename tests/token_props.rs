//! Property tests of the token codecs: round trips over arbitrary states, and
//! every strict prefix and every one-character change of a token rejected.

use base64::Engine as _;
use kubeapps_pager::token::base64url;
use kubeapps_pager::token::page_token::MAX_SOURCES;
use kubeapps_pager::token::{
    ContinueToken, CoreToken, PageToken, PluginOffset, SourceState, Watermark,
};
use kubeapps_pager::{Identity, PagerError, SourceId, TokenFault};
use proptest::collection::vec;
use proptest::prelude::*;

const KNOWN_PLUGINS: [&str; 3] = [
    "helm.packages",
    "fluxv2.packages",
    "kapp_controller.packages",
];
const DIGITS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Any text: arbitrary Unicode (NUL and astral characters included) or the
/// shapes the encoder treats specially.
fn text(max: usize) -> BoxedStrategy<String> {
    prop_oneof![
        3 => vec(any::<char>(), 0..max).prop_map(|c| c.into_iter().collect::<String>()),
        1 => Just(String::new()),
        1 => prop::sample::select(vec!["\0", "\u{1F600}", "\u{10FFFF}", "a\0b", "\u{2028}<&>"]).prop_map(str::to_owned),
        1 => any::<u64>().prop_map(|n| n.to_string()),
        1 => vec(any::<u8>(), 0..max).prop_map(|b| base64url::encode(&b)),
        1 => continue_token().prop_filter_map("encodable", |t| t.encode().ok()),
    ]
    .boxed()
}

/// A start key the apiserver accepts: clean path elements of any Unicode.
fn clean_start() -> impl Strategy<Value = String> {
    let element = "[^/]{1,6}".prop_filter("not . or ..", |e| e != "." && e != "..");
    (any::<bool>(), vec(element, 1..4)).prop_map(|(rooted, parts)| {
        let joined = parts.join("/");
        if rooted {
            format!("/{joined}")
        } else {
            joined
        }
    })
}

fn continue_token() -> impl Strategy<Value = ContinueToken> {
    let rv = prop_oneof![
        any::<i64>().prop_filter("rv is never 0", |&rv| rv != 0),
        Just(-1),
        1..1_000_000i64
    ];
    (rv, clean_start()).prop_map(|(rv, start)| ContinueToken::new(rv, start))
}

fn plugin() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(KNOWN_PLUGINS.to_vec()).prop_map(str::to_owned),
        text(8)
    ]
}

fn source_state(max: usize) -> impl Strategy<Value = SourceState> {
    let id = (plugin(), text(max), text(max)).prop_map(|(p, c, n)| SourceId::new(p, c, n));
    let mark = (
        text(max),
        prop::option::of(plugin()),
        prop::option::of(text(max)),
        prop::option::of(text(max)),
        prop::option::of(text(max)),
        text(max),
    );
    (
        id,
        text(max),
        any::<u32>(),
        prop::option::of(mark),
        text(max),
        any::<bool>(),
        any::<bool>(),
        // Anchors (0 to 2 hashes) and a late watermark: none, the watermark, or the first
        // anchor's own mark.
        (vec(any::<u64>(), 0..=2), 0..3u8),
    )
        .prop_map(
            |(
                source,
                chunk_token,
                offset,
                mark,
                resource_version,
                exhausted,
                inconsistent,
                (anchors, late),
            )| {
                // Identity parts absent = the source's own; identifier absent = `repo/sort_key`.
                let watermark =
                    mark.map(|(sort_key, plugin, cluster, namespace, identifier, repo)| {
                        Watermark {
                            identity: Identity {
                                plugin: plugin.unwrap_or_else(|| source.plugin.clone()),
                                cluster: cluster.unwrap_or_else(|| source.cluster.clone()),
                                namespace: namespace.unwrap_or_else(|| source.namespace.clone()),
                                identifier: identifier
                                    .unwrap_or_else(|| format!("{repo}/{sort_key}")),
                            },
                            sort_key,
                        }
                    });
                let late_watermark = match late {
                    1 => watermark.clone(),
                    2 => watermark.as_ref().map(|w| Watermark {
                        sort_key: format!("{}-late", w.sort_key),
                        identity: w.identity.clone(),
                    }),
                    _ => None,
                };
                SourceState {
                    source,
                    chunk_token,
                    offset,
                    watermark,
                    resource_version,
                    exhausted,
                    inconsistent,
                    behind: inconsistent && exhausted,
                    anchors,
                    late_watermark,
                }
            },
        )
}

/// Tokens of 0 to 4 sources, or of 64 sources (one in five) when `full` is set.
fn page_token_of(full: bool) -> impl Strategy<Value = PageToken> {
    let sources = prop_oneof![
        4 => vec(source_state(12), 0..5),
        if full { 1 } else { 0 } => vec(source_state(2), MAX_SOURCES..=MAX_SOURCES),
    ];
    (any::<u64>(), any::<u32>(), sources).prop_map(|(fingerprint, page_size, sources)| PageToken {
        fingerprint,
        page_size,
        sources,
    })
}

fn page_token() -> impl Strategy<Value = PageToken> {
    page_token_of(true)
}

fn page_reason(r: &Result<PageToken, PagerError>) -> Option<TokenFault> {
    match r {
        Err(PagerError::InvalidPageToken { reason, .. }) => Some(*reason),
        _ => None,
    }
}

/// `text` with the character at `at` replaced by `digit`.
fn replaced(text: &str, at: usize, digit: u8) -> String {
    let mut bytes = text.as_bytes().to_vec();
    bytes[at] = digit;
    String::from_utf8(bytes).unwrap_or_default()
}

/// The value of a base64 digit in either alphabet.
fn digit_value(d: u8) -> Option<usize> {
    match d {
        b'+' => Some(62),
        b'/' => Some(63),
        d => DIGITS.iter().position(|&x| x == d),
    }
}

/// Checks that changing any one character of a page token to any base64 digit
/// of another value is rejected, and that the same value in the other
/// alphabet is rejected or reads as the very same token.
fn assert_every_change_rejected(text: &str, token: &PageToken) {
    for at in 0..text.len() {
        let original = digit_value(text.as_bytes()[at]);
        for &d in DIGITS.iter().chain(b"+/") {
            if d == text.as_bytes()[at] {
                continue;
            }
            let changed = replaced(text, at, d);
            let got = PageToken::decode(&changed);
            if digit_value(d) == original {
                assert!(
                    got.is_err() || got.as_ref() == Ok(token),
                    "alphabet twin at {at}: {changed}"
                );
            } else {
                assert!(
                    page_reason(&got).is_some(),
                    "changed at {at} to {}: {changed} read as {got:?}",
                    d as char
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn page_token_round_trips(token in page_token()) {
        match token.encode() {
            Ok(text) => {
                prop_assert!(text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'), "{}", text);
                prop_assert_eq!(PageToken::decode(&text), Ok(token.clone()));
                // Deterministic: the same state always gives the same text.
                prop_assert_eq!(token.encode(), Ok(text));
            }
            Err(e) => prop_assert_eq!(page_reason(&Err(e)), Some(TokenFault::TooLong)),
        }
    }

    #[test]
    // 0 to 4 sources here (each prefix is a full decode); 64 sources below.
    fn every_strict_prefix_of_a_page_token_is_rejected(token in page_token_of(false)) {
        if let Ok(text) = token.encode() {
            for cut in 0..text.len() {
                let got = PageToken::decode(&text[..cut]);
                prop_assert!(page_reason(&got).is_some(), "prefix of {} characters read as {:?}", cut, got);
            }
        }
    }

    #[test]
    fn changing_one_character_of_a_page_token_is_rejected(
        token in page_token(),
        changes in vec((any::<prop::sample::Index>(), 0..64usize), 48),
    ) {
        if let Ok(text) = token.encode() {
            for (at, d) in changes {
                let at = at.index(text.len());
                if DIGITS[d] == text.as_bytes()[at] {
                    continue;
                }
                let got = PageToken::decode(&replaced(&text, at, DIGITS[d]));
                prop_assert!(page_reason(&got).is_some(), "changed at {} to {}: {:?}", at, DIGITS[d] as char, got);
            }
        }
    }

    #[test]
    fn continue_token_round_trips(token in continue_token()) {
        let text = token.encode();
        prop_assert!(text.is_ok(), "{:?}", text);
        let text = text.unwrap_or_default();
        prop_assert_eq!(ContinueToken::decode(&text), Ok(token.clone()));
        prop_assert_eq!(ContinueToken::decode_canonical(&text), Some(token));
        prop_assert!(text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
    }

    #[test]
    fn every_strict_prefix_of_a_continue_token_is_rejected(token in continue_token()) {
        let text = token.encode().unwrap_or_default();
        for cut in 0..text.len() {
            prop_assert!(ContinueToken::decode(&text[..cut]).is_err(), "prefix of {} characters", cut);
        }
    }

    #[test]
    fn the_canonical_reader_accepts_exactly_what_encode_writes(
        // JSON near the apiserver's spelling: its prefix, then characters that matter to it.
        tail in "[-0-9a-z,:\"}{\\/.\u{0}<\u{2028}é ]{0,40}",
        head in prop::sample::select(vec![r#"{"v":"meta.k8s.io/v1","rv":"#, r#"{"v":"meta.k8s.io/v1","rv":12,"start":""#, r#"{"rv":5,"v":"meta.k8s.io/v1","#, ""]),
    ) {
        let text = base64url::encode(format!("{head}{tail}").as_bytes());
        let canonical = ContinueToken::decode_canonical(&text);
        let decoded = ContinueToken::decode(&text).ok();
        let writes_itself = decoded.as_ref().is_some_and(|t| t.encode().as_deref() == Ok(text.as_str()));
        prop_assert_eq!(canonical.is_some(), writes_itself, "{:?}", text);
        if writes_itself {
            prop_assert_eq!(canonical, decoded);
        }
    }

    #[test]
    fn other_spellings_of_a_continue_token_are_not_canonical(token in continue_token(), how in 0..3usize) {
        // What Go's decoder reads as the same token: spacing, key order and case, escapes.
        let json = String::from_utf8(base64url::decode(&token.encode().unwrap_or_default()).unwrap_or_default()).unwrap_or_default();
        let other = match how {
            0 => json.replacen(',', ", ", 1),
            1 => json.replacen("\"rv\"", "\"RV\"", 1),
            _ => json.replacen("\"v\":\"m", "\"v\":\"\\u006d", 1),
        };
        let text = base64url::encode(other.as_bytes());
        prop_assert_eq!(ContinueToken::decode(&text), Ok(token));
        prop_assert_eq!(ContinueToken::decode_canonical(&text), None);
    }

    #[test]
    fn decoders_take_any_text(s in "(?s).{0,80}") {
        // Each is free to reject; none may panic, and what they accept re-encodes.
        if let Ok(t) = ContinueToken::decode(&s) {
            prop_assert!(t.encode().is_ok());
        }
        if let Some(t) = ContinueToken::decode_canonical(&s) {
            prop_assert_eq!(t.encode(), Ok(s.clone()));
        }
        if let Ok(t) = CoreToken::decode(&s) {
            prop_assert_eq!(t.encode().and_then(|e| CoreToken::decode(&e)), Ok(t));
        }
        if let Ok(o) = PluginOffset::decode(&s) {
            prop_assert_eq!(o.encode().and_then(|e| PluginOffset::decode(&e)), Ok(o));
        }
        let _ = PageToken::decode(&s);
        let _ = kubeapps_pager::token::inspect_token(&s);
    }

    #[test]
    fn core_token_round_trips(entries in vec((text(10), prop_oneof![Just(-1i64), 0..=i64::from(i32::MAX)]), 0..6)) {
        let mut seen = std::collections::HashSet::new();
        let entries: Vec<(String, PluginOffset)> = entries
            .into_iter()
            .filter(|(name, _)| !name.is_empty() && seen.insert(name.clone()))
            .map(|(name, n)| (name, if n < 0 { PluginOffset::Finished } else { PluginOffset::Offset(n as u64) }))
            .collect();
        let token = CoreToken { entries };
        let text = token.encode();
        prop_assert_eq!(text.and_then(|t| CoreToken::decode(&t)), Ok(token));
    }

    #[test]
    fn plugin_offset_round_trips(n in 0..=u64::from(u32::MAX >> 1), finished in any::<bool>()) {
        let offset = if finished { PluginOffset::Finished } else { PluginOffset::Offset(n) };
        prop_assert_eq!(offset.encode().and_then(|t| PluginOffset::decode(&t)), Ok(offset));
    }

    #[test]
    fn base64url_agrees_with_the_base64_crate(bytes in vec(any::<u8>(), 0..64)) {
        let url = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&bytes);
        prop_assert_eq!(base64url::encode(&bytes), url.clone());
        prop_assert_eq!(base64url::decode(&url), Ok(bytes.clone()));
        let standard = base64::engine::general_purpose::STANDARD.encode(&bytes);
        prop_assert_eq!(base64url::decode(&standard), Ok(bytes));
    }
}

/// Every strict prefix of a token of 64 sources.
#[test]
fn every_strict_prefix_of_a_64_source_token_is_rejected() {
    let one = SourceState {
        source: SourceId::new("helm.packages", "default", "kubeapps"),
        chunk_token: "17".into(),
        offset: 3,
        watermark: None,
        resource_version: String::new(),
        exhausted: false,
        inconsistent: false,
        behind: false,
        anchors: Vec::new(),
        late_watermark: None,
    };
    let token = PageToken {
        fingerprint: 1,
        page_size: 30,
        sources: vec![one; MAX_SOURCES],
    };
    let text = token.encode().unwrap_or_default();
    assert_eq!(
        PageToken::decode(&text).map(|t| t.sources.len()),
        Ok(MAX_SOURCES)
    );
    for cut in 0..text.len() {
        let got = PageToken::decode(&text[..cut]);
        assert!(
            page_reason(&got).is_some(),
            "prefix of {cut} characters read as {got:?}"
        );
    }
}

/// Every character of two fixed tokens changed to every other base64 digit.
#[test]
fn changing_any_character_to_any_digit_is_rejected() {
    let idle = PageToken {
        fingerprint: 7,
        page_size: 2,
        sources: vec![],
    };
    let realistic = PageToken {
        fingerprint: 0x0123_4567_89ab_cdef,
        page_size: 25,
        sources: KNOWN_PLUGINS
            .iter()
            .enumerate()
            .map(|(i, plugin)| SourceState {
                source: SourceId::new(*plugin, "default", "kubeapps"),
                chunk_token: ContinueToken::new(4242, format!("kubeapps/pkg-{i}\0"))
                    .encode()
                    .unwrap_or_default(),
                offset: 1,
                watermark: Some(Watermark {
                    sort_key: format!("pkg-{i}"),
                    identity: Identity {
                        plugin: (*plugin).into(),
                        cluster: "default".into(),
                        namespace: "kubeapps".into(),
                        identifier: format!("bitnami/pkg-{i}"),
                    },
                }),
                resource_version: "4242".into(),
                exhausted: i == 2,
                inconsistent: false,
                behind: false,
                anchors: Vec::new(),
                late_watermark: None,
            })
            .collect(),
    };
    for token in [idle, realistic] {
        let text = token.encode().unwrap_or_default();
        assert!(!text.is_empty());
        assert_every_change_rejected(&text, &token);
    }
}
