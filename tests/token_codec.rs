//! Table tests of every decoder rule of the token codecs, one named row per rule.

use kubeapps_pager::token::base64url::{self, DecodeRules};
use kubeapps_pager::token::continue_token::path_clean;
use kubeapps_pager::token::page_token::{MAX_SOURCES, MAX_TOKEN_LEN};
use kubeapps_pager::token::{
    inspect_token, ContinueToken, CoreToken, PageToken, PluginOffset, SourceState, TokenInfo,
    TokenKind, Watermark,
};
use kubeapps_pager::{Identity, PagerError, SourceId, TokenFault};
use serde_json::json;

/// The reason of a token error, or `None` when the result is not one.
fn reason<T>(r: &Result<T, PagerError>) -> Option<TokenFault> {
    match r {
        Err(PagerError::InvalidPageToken { reason, .. })
        | Err(PagerError::InvalidContinueToken { reason, .. })
        | Err(PagerError::InvalidKubeappsToken { reason, .. }) => Some(*reason),
        _ => None,
    }
}

fn code<T>(r: &Result<T, PagerError>) -> Option<&'static str> {
    r.as_ref().err().map(PagerError::code)
}

// ---------------------------------------------------------------------------
// base64url

#[test]
fn base64url_accepts_both_alphabets_padded_or_not() {
    let bytes = b"+RID:~kubeapps/pkg-b==#RT:1#TRC:10\xff\xfe";
    let url = base64url::encode(bytes);
    let std_alphabet: String = url
        .chars()
        .map(|c| match c {
            '-' => '+',
            '_' => '/',
            c => c,
        })
        .collect();
    assert_ne!(
        url, std_alphabet,
        "the sample uses both alphabet-specific digits"
    );
    let pad = "=".repeat((4 - url.len() % 4) % 4);
    for (name, text) in [
        ("url-safe, unpadded", url.clone()),
        ("url-safe, padded", format!("{url}{pad}")),
        ("standard, unpadded", std_alphabet.clone()),
        ("standard, padded", format!("{std_alphabet}{pad}")),
    ] {
        assert_eq!(
            base64url::decode(&text).as_deref(),
            Ok(&bytes[..]),
            "{name}: {text}"
        );
    }
}

#[test]
fn base64url_reading_rules() {
    type Row = (
        &'static str,
        &'static str,
        Result<&'static [u8], TokenFault>,
    );
    let cases: &[Row] = &[
        ("empty text is no bytes", "", Ok(b"")),
        ("one byte, padded", "QQ==", Ok(b"A")),
        ("one byte, unpadded", "QQ", Ok(b"A")),
        ("two bytes, padded", "QUI=", Ok(b"AB")),
        ("three bytes", "QUJD", Ok(b"ABC")),
        ("space inside", "QU JD", Err(TokenFault::Whitespace)),
        (
            "line break at the end",
            "QUJD\n",
            Err(TokenFault::Whitespace),
        ),
        ("tab at the start", "\tQUJD", Err(TokenFault::Whitespace)),
        ("no-break space", "QUJD\u{a0}", Err(TokenFault::Whitespace)),
        (
            "white space wins over a bad character",
            "QU!D E",
            Err(TokenFault::Whitespace),
        ),
        (
            "url-safe and standard digits together",
            "-+AA",
            Err(TokenFault::MixedAlphabet),
        ),
        (
            "underscore and slash together",
            "AA_/",
            Err(TokenFault::MixedAlphabet),
        ),
        ("punctuation", "QUJ!", Err(TokenFault::BadCharacter)),
        ("non-ASCII letter", "QUJé", Err(TokenFault::BadCharacter)),
        ("percent-escape", "QU%3D", Err(TokenFault::BadCharacter)),
        ("NUL", "QU\0D", Err(TokenFault::BadCharacter)),
        (
            "a digit after padding",
            "QQ=A",
            Err(TokenFault::BadCharacter),
        ),
        ("padding inside", "QQ==QUJD", Err(TokenFault::BadCharacter)),
        ("a lone character", "Q", Err(TokenFault::BadPadding)),
        ("five characters", "QUJDR", Err(TokenFault::BadPadding)),
        (
            "one '=' where two are due",
            "QQ=",
            Err(TokenFault::BadPadding),
        ),
        ("three '='", "QQ===", Err(TokenFault::BadPadding)),
        (
            "two '=' where one is due",
            "QUI==",
            Err(TokenFault::BadPadding),
        ),
        (
            "padding after a full group",
            "QUJD=",
            Err(TokenFault::BadPadding),
        ),
        ("padding alone", "==", Err(TokenFault::BadPadding)),
        (
            "unused bits set after one byte",
            "QR",
            Err(TokenFault::BadCharacter),
        ),
        (
            "unused bits set after two bytes",
            "QUJ",
            Err(TokenFault::BadCharacter),
        ),
        (
            "unused bits set, padded",
            "QR==",
            Err(TokenFault::BadCharacter),
        ),
    ];
    for (name, text, want) in cases {
        let got = base64url::decode(text);
        assert_eq!(got.as_deref().map_err(|f| *f), *want, "{name}: {text:?}");
    }
}

#[test]
fn base64url_limit_is_checked_before_anything_else() {
    let rules = DecodeRules {
        max_len: Some(8),
        url_only: false,
    };
    assert_eq!(
        base64url::decode_with("QUJDQUJD", rules).map(|b| b.len()),
        Ok(6)
    );
    let too_long = base64url::decode_with("not base64 at all!", rules);
    assert_eq!(too_long.map_err(|e| e.fault), Err(TokenFault::TooLong));
}

#[test]
fn base64url_url_only_rules() {
    let rules = DecodeRules {
        max_len: None,
        url_only: true,
    };
    let fault = |t: &str| base64url::decode_with(t, rules).map_err(|e| e.fault);
    assert_eq!(fault("-_AA"), Ok(vec![0xfb, 0xf0, 0x00]));
    assert_eq!(
        fault("+/AA"),
        Err(TokenFault::BadCharacter),
        "standard digits"
    );
    assert_eq!(fault("QQ=="), Err(TokenFault::BadPadding), "padding");
}

#[test]
fn base64url_messages_say_where() {
    let e = base64url::decode_with("QUJD!", DecodeRules::default()).err();
    let message = e.map(|e| e.message).unwrap_or_default();
    assert!(
        message.contains("'!'") && message.contains("byte 4"),
        "{message}"
    );
}

// ---------------------------------------------------------------------------
// Page tokens

fn identity(plugin: &str, identifier: &str) -> Identity {
    Identity {
        plugin: plugin.into(),
        cluster: "default".into(),
        namespace: "kubeapps".into(),
        identifier: identifier.into(),
    }
}

fn sample_token() -> PageToken {
    PageToken {
        fingerprint: 0xfeed_face_cafe_beef,
        page_size: 10,
        sources: vec![
            SourceState {
                source: SourceId::new("helm.packages", "default", "kubeapps"),
                chunk_token: "4".into(),
                offset: 2,
                watermark: Some(Watermark {
                    sort_key: "pkg-c".into(),
                    identity: identity("helm.packages", "repo-a/pkg-c"),
                }),
                resource_version: String::new(),
                exhausted: false,
                inconsistent: false,
                behind: false,
                anchors: Vec::new(),
                late_watermark: None,
            },
            SourceState {
                source: SourceId::new("kapp_controller.packages", "default", "kubeapps"),
                chunk_token: "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTAwLCJzdGFydCI6Imt1YmVhcHBzL3BrZy1jXHUwMDAwIn0"
                    .into(),
                offset: 0,
                watermark: None,
                resource_version: "100".into(),
                exhausted: false,
                inconsistent: true,
                behind: false,
                anchors: Vec::new(),
                late_watermark: None,
            },
        ],
    }
}

/// A version-`version` frame around `payload`, with a correct check.
fn frame(version: u8, payload: &[u8]) -> String {
    let mut bytes = vec![version];
    bytes.extend_from_slice(payload);
    let check = crc32fast::hash(&bytes);
    bytes.extend_from_slice(&check.to_le_bytes());
    base64url::encode(&bytes)
}

/// Fingerprint 0, page size 10, then `rest` (starting with the source count).
fn payload(rest: &[u8]) -> Vec<u8> {
    let mut p = vec![0u8; 8];
    p.push(10);
    p.extend_from_slice(rest);
    p
}

/// A minimal source: helm.packages, empty cluster and namespace, start, no watermark.
const MINIMAL_SOURCE: [u8; 9] = [1, 0, 0, 0, 0, 0, 0, 0, 0];

#[test]
fn page_token_round_trips_and_is_url_safe() {
    let token = sample_token();
    let text = token.encode().unwrap_or_default();
    assert!(
        !text.is_empty()
            && text
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    );
    assert!(
        text.starts_with('A'),
        "version 1 frames start with 'A': {text}"
    );
    assert_eq!(PageToken::decode(&text), Ok(token));
}

#[test]
fn page_token_minimal_frames_decode() {
    let none = PageToken::decode(&frame(1, &payload(&[0])));
    assert_eq!(
        none,
        Ok(PageToken {
            fingerprint: 0,
            page_size: 10,
            sources: vec![]
        })
    );
    let mut one = vec![1];
    one.extend_from_slice(&MINIMAL_SOURCE);
    let decoded = PageToken::decode(&frame(1, &payload(&one))).map(|t| t.sources);
    let want = SourceState {
        source: SourceId::new("helm.packages", "", ""),
        chunk_token: String::new(),
        offset: 0,
        watermark: None,
        resource_version: String::new(),
        exhausted: false,
        inconsistent: false,
        behind: false,
        anchors: Vec::new(),
        late_watermark: None,
    };
    assert_eq!(decoded, Ok(vec![want]));
}

#[test]
fn page_token_decoder_rules() {
    let good = sample_token().encode().unwrap_or_default();
    let mid = good.len() / 2;
    let swap_char = |at: usize| {
        let mut t = good.clone().into_bytes();
        t[at] = if t[at] == b'Q' { b'R' } else { b'Q' };
        String::from_utf8(t).unwrap_or_default()
    };
    let good_bytes = base64url::decode(&good).unwrap_or_default();
    let cut_bytes = |n: usize| base64url::encode(&good_bytes[..good_bytes.len() - n]);
    let with_source = |source: &[u8]| {
        let mut rest = vec![1];
        rest.extend_from_slice(source);
        frame(1, &payload(&rest))
    };
    let mut huge_count = vec![0u8; 8];
    huge_count.extend_from_slice(&[10, 0x80, 0x94, 0xEB, 0xDC, 0x0E]); // 3_900_000_000 sources
    let cases: Vec<(&str, String, TokenFault)> = vec![
        ("empty", String::new(), TokenFault::Empty),
        (
            "over 8 KiB",
            "A".repeat(MAX_TOKEN_LEN + 1),
            TokenFault::TooLong,
        ),
        (
            "over 8 KiB of garbage is too long, not bad",
            "!".repeat(MAX_TOKEN_LEN + 1),
            TokenFault::TooLong,
        ),
        (
            "a space inside",
            format!("{} {}", &good[..mid], &good[mid..]),
            TokenFault::Whitespace,
        ),
        (
            "a trailing line break",
            format!("{good}\n"),
            TokenFault::Whitespace,
        ),
        (
            "both alphabets",
            format!("-{}+", &good[..good.len() - 2]),
            TokenFault::MixedAlphabet,
        ),
        (
            "a stray character",
            format!("{}!{}", &good[..mid], &good[mid + 1..]),
            TokenFault::BadCharacter,
        ),
        (
            "impossible length",
            frame(1, &payload(&[0])) + "AAAAA",
            TokenFault::BadPadding,
        ),
        (
            "four bytes",
            base64url::encode(&[1, 2, 3, 4]),
            TokenFault::Truncated,
        ),
        (
            "one character altered",
            swap_char(mid),
            TokenFault::Integrity,
        ),
        (
            "first character altered",
            swap_char(0),
            TokenFault::Integrity,
        ),
        ("last byte missing", cut_bytes(1), TokenFault::Truncated),
        ("last 3 bytes missing", cut_bytes(3), TokenFault::Truncated),
        ("last 5 bytes missing", cut_bytes(5), TokenFault::Truncated),
        (
            "first half of the bytes kept",
            cut_bytes(good_bytes.len() / 2),
            TokenFault::Truncated,
        ),
        (
            "unknown version",
            frame(2, &payload(&[0])),
            TokenFault::UnknownVersion,
        ),
        (
            "version 0",
            frame(0, &payload(&[0])),
            TokenFault::UnknownVersion,
        ),
        (
            "65 sources",
            frame(1, &payload(&[65])),
            TokenFault::TooManySources,
        ),
        (
            "billions of sources, rejected before allocating",
            frame(1, &huge_count),
            TokenFault::TooManySources,
        ),
        (
            "page size varint of 6 bytes",
            frame(1, &[&[0u8; 8][..], &[0xFF; 5], &[1, 0]].concat()),
            TokenFault::Overflow,
        ),
        (
            "page size over u32",
            frame(
                1,
                &[&[0u8; 8][..], &[0xFF, 0xFF, 0xFF, 0xFF, 0x1F, 0]].concat(),
            ),
            TokenFault::Overflow,
        ),
        (
            "decimal form over u64",
            with_source(&[
                1, 0, 0, 2, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02,
            ]),
            TokenFault::Overflow,
        ),
        (
            "cluster not UTF-8",
            with_source(&[1, 1, 0xFF, 0, 0, 0, 0, 0, 0, 0]),
            TokenFault::NotUtf8,
        ),
        (
            "cluster cut short",
            with_source(&[1, 9, b'a']),
            TokenFault::Truncated,
        ),
        (
            "a source missing",
            frame(1, &payload(&[2, 1, 0, 0, 0, 0, 0, 0, 0, 0])),
            TokenFault::Truncated,
        ),
        (
            "fingerprint cut short",
            frame(1, &[0u8; 5]),
            TokenFault::Truncated,
        ),
        (
            "unknown plugin tag",
            with_source(&[4, 0, 0, 0, 0, 0, 0, 0, 0]),
            TokenFault::Malformed,
        ),
        (
            "unknown text tag",
            with_source(&[1, 0, 0, 5, 0, 0, 0, 0, 0]),
            TokenFault::Malformed,
        ),
        (
            "bool byte 2",
            with_source(&[1, 0, 0, 0, 0, 0, 0, 2, 0]),
            TokenFault::Malformed,
        ),
        (
            "option tag 7",
            with_source(&[1, 0, 0, 0, 0, 7, 0, 0, 0]),
            TokenFault::Malformed,
        ),
        (
            "continue form with rv 0",
            with_source(&[1, 0, 0, 4, 0, 1, b'a', 0, 0, 0, 0, 0]),
            TokenFault::Malformed,
        ),
        (
            "continue form with an unclean start",
            with_source(&[1, 0, 0, 4, 2, 2, b'.', b'.', 0, 0, 0, 0, 0]),
            TokenFault::Malformed,
        ),
        (
            "a byte after the last source",
            frame(1, &payload(&[1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0])),
            TokenFault::Malformed,
        ),
    ];
    for (name, text, want) in cases {
        let got = PageToken::decode(&text);
        assert_eq!(code(&got), Some("INVALID_PAGE_TOKEN"), "{name}");
        assert_eq!(reason(&got), Some(want), "{name}: {got:?}");
    }
}

#[test]
fn page_token_keys_hold_any_unicode() {
    let mut token = sample_token();
    let key = "\0nul \u{1F600} astral \u{2028} <&> é \u{10FFFF}";
    token.sources[0].source.cluster = key.into();
    token.sources[0].chunk_token = key.into();
    if let Some(w) = token.sources[0].watermark.as_mut() {
        w.sort_key = key.into();
        w.identity.identifier = format!("{key}/{key}");
        w.identity.namespace = "\0".into();
    }
    let text = token.encode().unwrap_or_default();
    assert_eq!(PageToken::decode(&text), Ok(token));
}

#[test]
fn page_token_encode_validates() {
    let mut token = sample_token();
    let one = token.sources[0].clone();
    token.sources = vec![one.clone(); MAX_SOURCES];
    assert!(token.encode().is_ok(), "64 sources fit");
    token.sources.push(one.clone());
    let too_many = token.encode();
    assert_eq!(
        (code(&too_many), reason(&too_many)),
        (Some("INVALID_PAGE_TOKEN"), Some(TokenFault::TooManySources))
    );

    let mut long = sample_token();
    long.sources[0].chunk_token = "#".repeat(MAX_TOKEN_LEN);
    let too_long = long.encode();
    assert_eq!(
        (code(&too_long), reason(&too_long)),
        (Some("INVALID_PAGE_TOKEN"), Some(TokenFault::TooLong))
    );
}

#[test]
fn page_token_largest_encodable_is_decodable() {
    // Grow one plain chunk token until encoding refuses: the last accepted
    // text is at most 8 KiB and decodes.
    let mut token = sample_token();
    let mut last_ok = None;
    for n in (5900..6200).step_by(7) {
        token.sources[0].chunk_token = "#".repeat(n);
        match token.encode() {
            Ok(text) => last_ok = Some((text, token.clone())),
            Err(_) => break,
        }
    }
    let Some((text, token)) = last_ok else {
        panic!("no size fits")
    };
    assert!(
        text.len() <= MAX_TOKEN_LEN && text.len() > MAX_TOKEN_LEN - 16,
        "{}",
        text.len()
    );
    assert_eq!(PageToken::decode(&text), Ok(token));
}

#[test]
fn page_token_serde_view_for_js() {
    let view = serde_json::to_value(sample_token()).unwrap_or_default();
    assert_eq!(
        view,
        json!({
            "fingerprint": "feedfacecafebeef",
            "pageSize": 10,
            "sources": [
                {
                    "plugin": "helm.packages", "cluster": "default", "namespace": "kubeapps",
                    "chunkToken": "4", "offset": 2,
                    "watermark": {
                        "sortKey": "pkg-c",
                        "identity": {
                            "plugin": "helm.packages", "cluster": "default",
                            "namespace": "kubeapps", "identifier": "repo-a/pkg-c"
                        }
                    },
                    "resourceVersion": "", "exhausted": false, "inconsistent": false,
                    "behind": false
                },
                {
                    "plugin": "kapp_controller.packages", "cluster": "default", "namespace": "kubeapps",
                    "chunkToken": "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTAwLCJzdGFydCI6Imt1YmVhcHBzL3BrZy1jXHUwMDAwIn0",
                    "offset": 0, "watermark": null, "resourceVersion": "100",
                    "exhausted": false, "inconsistent": true, "behind": false
                }
            ]
        })
    );
    let back: Result<PageToken, _> = serde_json::from_value(view);
    assert_eq!(back.ok(), Some(sample_token()));
}

#[test]
fn page_token_serde_view_rejects_bad_numbers() {
    let base = serde_json::to_value(sample_token()).unwrap_or_default();
    let cases = [
        (
            "negative offset",
            "/sources/0/offset",
            json!(-1),
            "offset must be a whole number",
        ),
        (
            "fractional offset",
            "/sources/0/offset",
            json!(1.5),
            "offset must be a whole number",
        ),
        (
            "offset over u32",
            "/sources/0/offset",
            json!(4_294_967_296u64),
            "offset must be a whole number",
        ),
        (
            "negative page size",
            "/pageSize",
            json!(-3),
            "pageSize must be a whole number",
        ),
        (
            "fractional page size",
            "/pageSize",
            json!(2.5),
            "pageSize must be a whole number",
        ),
        (
            "upper-case fingerprint",
            "/fingerprint",
            json!("FEEDFACECAFEBEEF"),
            "fingerprint must be 16",
        ),
        (
            "short fingerprint",
            "/fingerprint",
            json!("feed"),
            "fingerprint must be 16",
        ),
    ];
    for (name, pointer, value, message) in cases {
        let mut v = base.clone();
        if let Some(slot) = v.pointer_mut(pointer) {
            *slot = value;
        }
        let err = serde_json::from_value::<PageToken>(v)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.contains(message), "{name}: {err}");
    }
    let mut many = base.clone();
    if let Some(serde_json::Value::Array(sources)) = many.pointer_mut("/sources") {
        let first = sources[0].clone();
        sources.resize(MAX_SOURCES + 1, first);
    }
    let err = serde_json::from_value::<PageToken>(many)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(err.contains("at most 64"), "65 sources: {err}");
    let mut whole_float = base;
    if let Some(slot) = whole_float.pointer_mut("/pageSize") {
        *slot = json!(10.0);
    }
    let read = serde_json::from_value::<PageToken>(whole_float).map(|t| t.page_size);
    assert_eq!(
        read.ok(),
        Some(10),
        "a whole number written as a float is fine (JS numbers)"
    );
}

// ---------------------------------------------------------------------------
// Continue tokens

const R04_TOKEN: &str =
    "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTAwLCJzdGFydCI6Imt1YmVhcHBzL3BrZy1jXHUwMDAwIn0";
const INCONSISTENT_TOKEN: &str =
    "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6LTEsInN0YXJ0Ijoia3ViZWFwcHMvcGtnLWNcdTAwMDAifQ";

fn continue_of_json(json: &str) -> String {
    base64url::encode(json.as_bytes())
}

#[test]
fn continue_token_known_tokens() {
    let t = ContinueToken::decode(R04_TOKEN);
    assert_eq!(t, Ok(ContinueToken::new(100, "kubeapps/pkg-c\0")));
    assert!(t.as_ref().is_ok_and(ContinueToken::is_consistent));
    assert_eq!(t.and_then(|t| t.encode()).as_deref(), Ok(R04_TOKEN));

    let expired = ContinueToken::decode(INCONSISTENT_TOKEN);
    assert_eq!(expired, Ok(ContinueToken::new(-1, "kubeapps/pkg-c\0")));
    assert!(expired.as_ref().is_ok_and(|t| !t.is_consistent()));
    assert_eq!(
        expired.and_then(|t| t.encode()).as_deref(),
        Ok(INCONSISTENT_TOKEN)
    );
}

#[test]
fn continue_token_encode_escapes_as_go() {
    let start = "a<b>&c\u{2028}\u{2029}\u{1}\u{8}\u{c}\n\r\t\"\\\u{7f}é😀";
    let want_json = concat!(
        r#"{"v":"meta.k8s.io/v1","rv":9223372036854775807,"start":"#,
        r#""a\u003cb\u003e\u0026c\u2028\u2029\u0001\b\f\n\r\t\"\\"#,
        "\u{7f}é😀\"}"
    );
    let token = ContinueToken::new(i64::MAX, start);
    let text = token.encode().unwrap_or_default();
    assert_eq!(
        base64url::decode(&text).as_deref(),
        Ok(want_json.as_bytes())
    );
    assert_eq!(ContinueToken::decode(&text), Ok(token));
}

#[test]
fn continue_token_decoder_rules() {
    let v1 = |rest: &str| continue_of_json(&format!(r#"{{"v":"meta.k8s.io/v1",{rest}}}"#));
    let ok = |rv: i64, start: &str| Ok(ContinueToken::new(rv, start));
    let cases: Vec<(&str, String, Result<ContinueToken, TokenFault>)> = vec![
        (
            "the R04 token",
            R04_TOKEN.into(),
            ok(100, "kubeapps/pkg-c\0"),
        ),
        (
            "keys in any case",
            continue_of_json(r#"{"V":"meta.k8s.io/v1","Rv":5,"START":"a"}"#),
            ok(5, "a"),
        ),
        (
            "long s folds to s, as in Go",
            v1("\"rv\":5,\"\u{17F}tart\":\"a\""),
            ok(5, "a"),
        ),
        (
            "unknown keys are ignored",
            v1(r#""x":[1,{"y":null}],"rv":5,"start":"a""#),
            ok(5, "a"),
        ),
        (
            "the last repeated key wins",
            v1(r#""rv":5,"start":"a","start":"b""#),
            ok(5, "b"),
        ),
        (
            "null leaves a field as it was",
            v1(r#""rv":5,"start":"a","start":null"#),
            ok(5, "a"),
        ),
        (
            "white space around JSON",
            continue_of_json(" {\"v\" : \"meta.k8s.io/v1\", \"rv\":5, \"start\":\"a\"}\n"),
            ok(5, "a"),
        ),
        (
            "a rooted start key",
            v1(r#""rv":5,"start":"/kubeapps/a""#),
            ok(5, "/kubeapps/a"),
        ),
        ("a negative rv", v1(r#""rv":-7,"start":"a""#), ok(-7, "a")),
        ("empty", String::new(), Err(TokenFault::Empty)),
        (
            "white space",
            format!("{R04_TOKEN} "),
            Err(TokenFault::Whitespace),
        ),
        (
            "standard alphabet",
            R04_TOKEN.replace('L', "+"),
            Err(TokenFault::BadCharacter),
        ),
        (
            "padding",
            format!("{R04_TOKEN}=="),
            Err(TokenFault::BadPadding),
        ),
        (
            "not UTF-8",
            base64url::encode(&[b'{', 0xFF, b'}']),
            Err(TokenFault::NotUtf8),
        ),
        (
            "not JSON",
            continue_of_json("v=1"),
            Err(TokenFault::Malformed),
        ),
        (
            "a JSON array",
            continue_of_json("[1]"),
            Err(TokenFault::Malformed),
        ),
        (
            "JSON null",
            continue_of_json("null"),
            Err(TokenFault::Malformed),
        ),
        (
            "JSON cut short",
            continue_of_json(r#"{"v":"meta.k8s.io/v1""#),
            Err(TokenFault::Truncated),
        ),
        (
            "text after the JSON",
            continue_of_json(r#"{"v":"meta.k8s.io/v1","rv":5,"start":"a"}x"#),
            Err(TokenFault::Malformed),
        ),
        (
            "v not a string",
            continue_of_json(r#"{"v":1,"rv":5,"start":"a"}"#),
            Err(TokenFault::Malformed),
        ),
        (
            "rv a string",
            v1(r#""rv":"5","start":"a""#),
            Err(TokenFault::Malformed),
        ),
        (
            "rv a fraction",
            v1(r#""rv":1.5,"start":"a""#),
            Err(TokenFault::Malformed),
        ),
        (
            "rv with an exponent",
            v1(r#""rv":1e3,"start":"a""#),
            Err(TokenFault::Malformed),
        ),
        (
            "rv beyond int64",
            v1(r#""rv":9223372036854775808,"start":"a""#),
            Err(TokenFault::Overflow),
        ),
        (
            "rv far beyond int64",
            v1(r#""rv":123456789012345678901234,"start":"a""#),
            Err(TokenFault::Overflow),
        ),
        (
            "unknown version",
            continue_of_json(r#"{"v":"meta.k8s.io/v2","rv":5,"start":"a"}"#),
            Err(TokenFault::UnknownVersion),
        ),
        (
            "no version",
            continue_of_json(r#"{"rv":5,"start":"a"}"#),
            Err(TokenFault::UnknownVersion),
        ),
        (
            "rv 0",
            v1(r#""rv":0,"start":"a""#),
            Err(TokenFault::InvalidField),
        ),
        ("no rv", v1(r#""start":"a""#), Err(TokenFault::InvalidField)),
        (
            "empty start",
            v1(r#""rv":5,"start":"""#),
            Err(TokenFault::InvalidField),
        ),
        ("no start", v1(r#""rv":5"#), Err(TokenFault::InvalidField)),
        (
            "start climbs out",
            v1(r#""rv":5,"start":"../secrets/a""#),
            Err(TokenFault::InvalidField),
        ),
        (
            "start with an inner ..",
            v1(r#""rv":5,"start":"a/../b""#),
            Err(TokenFault::InvalidField),
        ),
        (
            "start with //",
            v1(r#""rv":5,"start":"a//b""#),
            Err(TokenFault::InvalidField),
        ),
        (
            "start with /./",
            v1(r#""rv":5,"start":"a/./b""#),
            Err(TokenFault::InvalidField),
        ),
        (
            "start with a trailing /",
            v1(r#""rv":5,"start":"a/""#),
            Err(TokenFault::InvalidField),
        ),
        (
            "start is .",
            v1(r#""rv":5,"start":".""#),
            Err(TokenFault::InvalidField),
        ),
        (
            "start is /",
            v1(r#""rv":5,"start":"/""#),
            Ok(ContinueToken::new(5, "/")),
        ),
    ];
    for (name, text, want) in cases {
        let got = ContinueToken::decode(&text);
        match want {
            Ok(t) => assert_eq!(got, Ok(t), "{name}"),
            Err(fault) => {
                assert_eq!(code(&got), Some("INVALID_CONTINUE_TOKEN"), "{name}");
                assert_eq!(reason(&got), Some(fault), "{name}: {got:?}");
            }
        }
    }
}

#[test]
fn continue_token_encode_validates() {
    let cases = [
        ("rv 0", ContinueToken::new(0, "a"), TokenFault::InvalidField),
        (
            "empty start",
            ContinueToken::new(1, ""),
            TokenFault::InvalidField,
        ),
        (
            "unclean start",
            ContinueToken::new(1, "a/../../b"),
            TokenFault::InvalidField,
        ),
        (
            "unknown version",
            ContinueToken {
                version: "v2".into(),
                resource_version: 1,
                start: "a".into(),
            },
            TokenFault::UnknownVersion,
        ),
    ];
    for (name, token, fault) in cases {
        let got = token.encode();
        assert_eq!(
            (code(&got), reason(&got)),
            (Some("INVALID_CONTINUE_TOKEN"), Some(fault)),
            "{name}"
        );
    }
}

#[test]
fn continue_token_serde_view() {
    let view = serde_json::to_value(ContinueToken::new(-1, "kubeapps/pkg-c\0")).unwrap_or_default();
    assert_eq!(
        view,
        json!({"version": "meta.k8s.io/v1", "resourceVersion": "-1", "start": "kubeapps/pkg-c\u{0}", "consistent": false})
    );
    let back: Result<ContinueToken, _> = serde_json::from_value(view);
    assert_eq!(back.ok(), Some(ContinueToken::new(-1, "kubeapps/pkg-c\0")));
    let huge = ContinueToken::new(i64::MIN, "a");
    let view = serde_json::to_value(&huge).unwrap_or_default();
    assert_eq!(
        view["resourceVersion"], "-9223372036854775808",
        "exact beyond 2^53"
    );
    assert_eq!(
        serde_json::from_value::<ContinueToken>(view).ok(),
        Some(huge)
    );
    let number = json!({"version": "meta.k8s.io/v1", "resourceVersion": 100, "start": "a"});
    assert_eq!(
        serde_json::from_value::<ContinueToken>(number).ok(),
        Some(ContinueToken::new(100, "a"))
    );
}

#[test]
fn path_clean_is_lexical_and_keeps_unicode() {
    assert_eq!(path_clean("/ns/é/../😀//x/."), "/ns/😀/x");
    assert_eq!(path_clean("a/b/../../.."), "..");
    assert_eq!(path_clean("/a/b/../../.."), "/");
}

// ---------------------------------------------------------------------------
// Kubeapps tokens

#[test]
fn plugin_offset_rules() {
    let cases: &[(&str, &str, Result<PluginOffset, TokenFault>)] = &[
        ("empty is the start", "", Ok(PluginOffset::Offset(0))),
        ("zero", "0", Ok(PluginOffset::Offset(0))),
        ("an offset", "17", Ok(PluginOffset::Offset(17))),
        (
            "the largest offset",
            "2147483647",
            Ok(PluginOffset::Offset(2_147_483_647)),
        ),
        ("finished", "-1", Ok(PluginOffset::Finished)),
        ("over the largest", "2147483648", Err(TokenFault::Overflow)),
        (
            "beyond 64 bits",
            "99999999999999999999999",
            Err(TokenFault::Overflow),
        ),
        ("negative", "-2", Err(TokenFault::Overflow)),
        ("negative zero", "-0", Err(TokenFault::Overflow)),
        ("leading zeros", "007", Err(TokenFault::InvalidField)),
        ("a plus sign", "+5", Err(TokenFault::InvalidField)),
        ("a fraction", "1.5", Err(TokenFault::Malformed)),
        ("words", "next", Err(TokenFault::Malformed)),
        ("a lone minus", "-", Err(TokenFault::Malformed)),
        ("white space", " 5", Err(TokenFault::Whitespace)),
    ];
    for (name, text, want) in cases {
        let got = PluginOffset::decode(text);
        match want {
            Ok(o) => assert_eq!(got, Ok(*o), "{name}"),
            Err(fault) => {
                assert_eq!(code(&got), Some("INVALID_KUBEAPPS_TOKEN"), "{name}");
                assert_eq!(reason(&got), Some(*fault), "{name}");
            }
        }
    }
}

#[test]
fn plugin_offset_encode() {
    assert_eq!(PluginOffset::Offset(17).encode().as_deref(), Ok("17"));
    assert_eq!(PluginOffset::START.encode().as_deref(), Ok("0"));
    assert_eq!(PluginOffset::Finished.encode().as_deref(), Ok("-1"));
    let too_big = PluginOffset::Offset(1 << 31).encode();
    assert_eq!(reason(&too_big), Some(TokenFault::Overflow));
    assert_eq!(
        serde_json::to_value(PluginOffset::Finished).ok(),
        Some(json!(-1))
    );
    assert_eq!(
        serde_json::from_value::<PluginOffset>(json!(4.0)).ok(),
        Some(PluginOffset::Offset(4))
    );
    assert!(serde_json::from_value::<PluginOffset>(json!(-2)).is_err());
    assert!(serde_json::from_value::<PluginOffset>(json!(0.5)).is_err());
}

#[test]
fn core_token_rules() {
    let two = || {
        Ok(CoreToken {
            entries: vec![
                ("helm.packages".into(), PluginOffset::Offset(10)),
                ("fluxv2.packages".into(), PluginOffset::Finished),
            ],
        })
    };
    let cases: Vec<(&str, &str, Result<CoreToken, TokenFault>)> = vec![
        ("empty is the start", "", Ok(CoreToken::default())),
        ("an empty object", "{}", Ok(CoreToken::default())),
        (
            "order is kept",
            r#"{"helm.packages":10,"fluxv2.packages":-1}"#,
            two(),
        ),
        (
            "white space is fine",
            " { \"helm.packages\" : 10 ,\n\"fluxv2.packages\":-1 } ",
            two(),
        ),
        (
            "a repeated plugin",
            r#"{"a":1,"a":2}"#,
            Err(TokenFault::InvalidField),
        ),
        (
            "an empty plugin name",
            r#"{"":1}"#,
            Err(TokenFault::InvalidField),
        ),
        (
            "a negative offset",
            r#"{"a":-2}"#,
            Err(TokenFault::Overflow),
        ),
        (
            "an offset over 2^31-1",
            r#"{"a":2147483648}"#,
            Err(TokenFault::Overflow),
        ),
        (
            "an offset beyond 64 bits",
            r#"{"a":99999999999999999999999}"#,
            Err(TokenFault::Overflow),
        ),
        ("a fraction", r#"{"a":1.5}"#, Err(TokenFault::Malformed)),
        (
            "a string offset",
            r#"{"a":"1"}"#,
            Err(TokenFault::Malformed),
        ),
        ("a null offset", r#"{"a":null}"#, Err(TokenFault::Malformed)),
        ("an array", "[1]", Err(TokenFault::Malformed)),
        ("null", "null", Err(TokenFault::Malformed)),
        ("a decimal", "10", Err(TokenFault::Malformed)),
        ("cut short", r#"{"a":1"#, Err(TokenFault::Truncated)),
        (
            "text after the object",
            r#"{"a":1} x"#,
            Err(TokenFault::Malformed),
        ),
    ];
    for (name, text, want) in cases {
        let got = CoreToken::decode(text);
        match want {
            Ok(t) => assert_eq!(got, Ok(t), "{name}"),
            Err(fault) => {
                assert_eq!(code(&got), Some("INVALID_KUBEAPPS_TOKEN"), "{name}");
                assert_eq!(reason(&got), Some(fault), "{name}: {got:?}");
            }
        }
    }
}

#[test]
fn core_token_encode_and_lookup() {
    let token = CoreToken {
        entries: vec![
            ("helm.packages".into(), PluginOffset::Offset(10)),
            ("<odd>&name".into(), PluginOffset::Finished),
        ],
    };
    let text = token.encode();
    assert_eq!(
        text.as_deref(),
        Ok(r#"{"helm.packages":10,"\u003codd\u003e\u0026name":-1}"#)
    );
    assert_eq!(
        text.and_then(|t| CoreToken::decode(&t)).as_ref(),
        Ok(&token)
    );
    assert_eq!(token.get("helm.packages"), PluginOffset::Offset(10));
    assert_eq!(
        token.get("kapp_controller.packages"),
        PluginOffset::START,
        "a plugin not listed starts at 0"
    );
    assert_eq!(CoreToken::default().encode().as_deref(), Ok("{}"));
    let dup = CoreToken {
        entries: vec![
            ("a".into(), PluginOffset::START),
            ("a".into(), PluginOffset::START),
        ],
    };
    assert_eq!(reason(&dup.encode()), Some(TokenFault::InvalidField));
    assert_eq!(
        serde_json::to_value(&token).ok(),
        Some(
            json!({"entries": [{"plugin": "helm.packages", "offset": 10}, {"plugin": "<odd>&name", "offset": -1}]})
        )
    );
}

// ---------------------------------------------------------------------------
// inspect_token

#[test]
fn inspect_tells_each_kind() {
    let page = sample_token().encode().unwrap_or_default();
    match inspect_token(&page) {
        TokenInfo::Page {
            version,
            byte_length,
            text_length,
            token,
        } => {
            assert_eq!((version, text_length), (1, page.len()));
            assert_eq!(
                byte_length,
                base64url::decode(&page)
                    .map(|b| b.len())
                    .unwrap_or_default()
            );
            assert_eq!(token, sample_token());
        }
        other => panic!("page token seen as {other:?}"),
    }
    assert_eq!(
        inspect_token(R04_TOKEN),
        TokenInfo::Continue(ContinueToken::new(100, "kubeapps/pkg-c\0"))
    );
    assert_eq!(
        inspect_token(r#"{"helm.packages":3}"#),
        TokenInfo::KubeappsCore(CoreToken {
            entries: vec![("helm.packages".into(), PluginOffset::Offset(3))]
        })
    );
    assert_eq!(
        inspect_token("17"),
        TokenInfo::KubeappsOffset {
            offset: PluginOffset::Offset(17)
        }
    );
    assert_eq!(
        inspect_token("-1"),
        TokenInfo::KubeappsOffset {
            offset: PluginOffset::Finished
        }
    );
}

#[test]
fn inspect_names_the_likely_kind_of_invalid_tokens() {
    let page = sample_token().encode().unwrap_or_default();
    let cases = [
        (
            "empty",
            String::new(),
            TokenKind::Page,
            "INVALID_PAGE_TOKEN",
            "empty",
        ),
        (
            "garbled page token",
            page.replacen('A', "B", 1),
            TokenKind::Page,
            "INVALID_PAGE_TOKEN",
            "integrity",
        ),
        (
            "R15 'not a token!'",
            "not a token!".into(),
            TokenKind::Page,
            "INVALID_PAGE_TOKEN",
            "whitespace",
        ),
        (
            "continue token cut short",
            R04_TOKEN[..40].into(),
            TokenKind::Continue,
            "INVALID_CONTINUE_TOKEN",
            "truncated",
        ),
        (
            "core token cut short",
            "{\"helm.packages\":".into(),
            TokenKind::KubeappsCore,
            "INVALID_KUBEAPPS_TOKEN",
            "truncated",
        ),
        (
            "offset with leading zeros",
            "007".into(),
            TokenKind::KubeappsOffset,
            "INVALID_KUBEAPPS_TOKEN",
            "invalid-field",
        ),
    ];
    for (name, text, kind, want_code, want_reason) in cases {
        match inspect_token(&text) {
            TokenInfo::Invalid {
                likely_kind,
                code,
                reason,
                message,
            } => {
                assert_eq!(
                    (likely_kind, code, reason),
                    (kind, want_code, want_reason),
                    "{name}: {message}"
                );
                assert!(!message.is_empty(), "{name}");
            }
            other => panic!("{name}: {other:?}"),
        }
    }
}

#[test]
fn inspect_serde_view_is_tagged_by_kind() {
    assert_eq!(
        serde_json::to_value(inspect_token(R04_TOKEN)).ok(),
        Some(json!({
            "kind": "continue", "version": "meta.k8s.io/v1", "resourceVersion": "100",
            "start": "kubeapps/pkg-c\u{0}", "consistent": true
        }))
    );
    assert_eq!(
        serde_json::to_value(inspect_token("-1")).ok(),
        Some(json!({"kind": "kubeappsOffset", "offset": -1}))
    );
    assert_eq!(
        serde_json::to_value(inspect_token("{}")).ok(),
        Some(json!({"kind": "kubeappsCore", "entries": []}))
    );
    let page = serde_json::to_value(inspect_token(&sample_token().encode().unwrap_or_default()))
        .unwrap_or_default();
    assert_eq!(page["kind"], "page");
    assert_eq!(page["version"], 1);
    assert_eq!(page["fingerprint"], "feedfacecafebeef");
    assert_eq!(page["sources"][1]["watermark"], serde_json::Value::Null);
    let invalid = serde_json::to_value(inspect_token("not a token!")).unwrap_or_default();
    assert_eq!(invalid["kind"], "invalid");
    assert_eq!(invalid["likelyKind"], "page");
    assert_eq!(invalid["code"], "INVALID_PAGE_TOKEN");
    assert_eq!(invalid["reason"], "whitespace");
}

/// A token of another kind pasted where a page token belongs is named in the error's message
/// (its reason stays the frame's own), so a caller sees what was given instead of a bare
/// "altered token?".
#[test]
fn a_token_of_another_kind_is_named() {
    let continue_token = ContinueToken::new(7, "kubeapps/pkg-z\0")
        .encode()
        .unwrap_or_default();
    for (text, kind) in [
        (r#"{"helm.packages": 20}"#, "Kubeapps core API"),
        ("40", "plugin's page token"),
        (continue_token.as_str(), "Kubernetes continue token"),
    ] {
        match PageToken::decode(text) {
            Err(PagerError::InvalidPageToken { message, .. }) => assert!(
                message.starts_with("this looks like ") && message.contains(kind),
                "{text}: {message}"
            ),
            other => panic!("{text}: {other:?}"),
        }
    }
    // A mangled page token is not said to be anything else.
    match PageToken::decode("AAAAnotatoken") {
        Err(PagerError::InvalidPageToken { message, .. }) => {
            assert!(!message.starts_with("this looks like "), "{message}")
        }
        other => panic!("{other:?}"),
    }
}
