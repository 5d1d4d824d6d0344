//! The payload against postcard's own encoding of the wire structs, every text form and optional
//! member written and read back, and the token sizes BENCHMARKS.md reports.

use std::println;

use super::reader::{read_text, Reader};
use super::view::{PageToken, SourceState, Watermark};
use super::wire::{KNOWN_PLUGINS, PAGE_TOKEN_VERSION};
use super::writer::{write_payload, SourceRef, WireText, WireToken, Writer};
use crate::item::{Identity, SourceId};
use crate::prelude::*;
use crate::token::base64url;
use crate::token::continue_token::ContinueToken;
use crate::token::crc32;

fn refs(token: &PageToken) -> Vec<SourceRef<'_>> {
    token.sources.iter().map(SourceState::borrowed).collect()
}

/// The payload as the encoder writes it.
fn payload(token: &PageToken) -> Vec<u8> {
    let mut w = Writer(Vec::new());
    let n = token.sources.len();
    write_payload(&mut w, token.fingerprint, token.page_size, n, &|i| {
        token.sources.get(i).map(SourceState::borrowed)
    });
    w.0
}

fn k8s_state(plugin: &str, start: &str, rv: i64) -> SourceState {
    let chunk_token = ContinueToken::new(rv, start).encode().unwrap_or_default();
    SourceState {
        source: SourceId::new(plugin, "default", "kubeapps"),
        chunk_token,
        offset: 3,
        watermark: Some(Watermark {
            sort_key: "pkg-c".into(),
            identity: Identity {
                plugin: plugin.into(),
                cluster: "default".into(),
                namespace: "kubeapps".into(),
                identifier: "bitnami/pkg-c".into(),
            },
        }),
        resource_version: rv.to_string(),
        exhausted: false,
        inconsistent: false,
        behind: false,
        anchors: Vec::new(),
        late_watermark: None,
    }
}

#[test]
fn every_text_form_gives_back_the_text() {
    let ct = ContinueToken::new(100, "kubeapps/pkg-c\u{0}")
        .encode()
        .unwrap_or_default();
    for (text, form) in [
        ("", 0u8),
        ("plain text #+/=", 1),
        ("0", 2),
        ("18446744073709551615", 2),
        ("18446744073709551616", 3),
        ("007", 1),
        ("0070", 3),
        (ct.as_str(), 4),
        ("K1JJRDp-a3ViZWFwcHMvcGtnLWI9PSNSVDoxI1RSQzoxMA", 3),
        ("K1JJRDp+a3ViZWFwcHMvcGtnLWI9PSNSVDoxI1RSQzoxMA", 1),
        ("K1JJRDp-a3ViZWFwcHMvcGtnLWI9PSNSVDoxI1RSQzoxMB", 1),
        ("abc=", 1),
    ] {
        let wire = WireText::new(text);
        let tag = match wire {
            WireText::Empty => 0,
            WireText::Plain(_) => 1,
            WireText::Decimal(_) => 2,
            WireText::Base64Url(_) => 3,
            WireText::Continue { .. } => 4,
            WireText::Written(_) => 5,
        };
        assert_eq!(tag, form, "form of {text:?}");
        let mut w = Writer(Vec::new());
        wire.write(&mut w);
        let bytes = w.0;
        assert_eq!(
            Ok(&bytes),
            postcard::to_allocvec(&wire).as_ref(),
            "{text:?}"
        );
        let mut r = Reader::new(&bytes);
        let back = read_text(&mut r, "text").map_err(|e| e.fault);
        assert_eq!(back.as_deref(), Ok(text), "{text:?} comes back");
        assert_eq!(r.remaining(), 0, "{text:?} is read whole");
    }
}

#[test]
fn payload_is_postcards_encoding() {
    let mut other = k8s_state("my.plugin", "kubeapps/z\u{0}", i64::MIN + 1);
    other.offset = u32::MAX;
    other.exhausted = true;
    other.inconsistent = true;
    other.behind = true;
    other.resource_version = "-1".into();
    if let Some(w) = other.watermark.as_mut() {
        w.identity.plugin = "helm.packages".into();
        w.identity.cluster = "other".into();
        w.identity.namespace = String::new();
        w.identity.identifier = "no-repo-form".into();
    }
    let mut bare = k8s_state("fluxv2.packages", "a", 1);
    bare.watermark = None;
    bare.chunk_token = "18446744073709551615".into();
    let token = PageToken {
        fingerprint: u64::MAX,
        page_size: u32::MAX,
        sources: vec![
            k8s_state("helm.packages", "kubeapps/a\u{0}", 300),
            other,
            bare,
        ],
    };
    assert_eq!(
        Ok(payload(&token)),
        postcard::to_allocvec(&WireToken::new(
            token.fingerprint,
            token.page_size,
            &refs(&token)
        ))
    );
    let text = token.encode().unwrap_or_default();
    assert_eq!(PageToken::decode(&text), Ok(token));
}

/// The members a position of a source whose order is learned may add (`anchors`, `late`):
/// written only when there, after the flags that announce them; a position without them keeps
/// the bytes it had before they existed; a malformed member is `malformed` or `truncated`.
#[test]
fn anchors_and_late_watermark_are_optional_members() {
    let plain = k8s_state("helm.packages", "kubeapps/a\u{0}", 7);
    let mut with = plain.clone();
    with.anchors = vec![0x0123_4567_89ab_cdef, u64::MAX];
    with.late_watermark = with.watermark.clone();
    let token = |s: &SourceState| PageToken {
        fingerprint: 1,
        page_size: 2,
        sources: vec![s.clone()],
    };
    let bare = payload(&token(&plain));
    let full = payload(&token(&with));
    // The same bytes, then flags 4 | 8, two anchors (8 bytes each, little-endian), `late` = 0
    // (the watermark itself).
    let (head, flags) = bare.split_at(bare.len() - 1);
    assert_eq!(flags, [0]);
    let mut expected = head.to_vec();
    expected.push(12);
    expected.push(2);
    expected.extend_from_slice(&0x0123_4567_89ab_cdefu64.to_le_bytes());
    expected.extend_from_slice(&u64::MAX.to_le_bytes());
    expected.push(0);
    assert_eq!(full, expected);
    for s in [&plain, &with] {
        let text = token(s).encode().unwrap_or_default();
        assert_eq!(PageToken::decode(&text), Ok(token(s)));
    }
    // A late watermark of its own: tag 1 and a mark.
    let mut own = with.clone();
    own.anchors.truncate(1);
    if let Some(w) = own.late_watermark.as_mut() {
        w.sort_key = "pkg-a".into();
        w.identity.identifier = "bitnami/pkg-a".into();
    }
    let text = token(&own).encode().unwrap_or_default();
    assert_eq!(PageToken::decode(&text), Ok(token(&own)));
    // The serde view: hex anchors, `lateWatermark`; absent members are not written.
    let json = serde_json::to_string(&own).unwrap_or_default();
    assert!(
        json.contains("\"anchors\":[\"0123456789abcdef\"]"),
        "{json}"
    );
    assert!(
        json.contains("\"lateWatermark\":{\"sortKey\":\"pkg-a\""),
        "{json}"
    );
    let back: Result<SourceState, _> = serde_json::from_str(&json);
    assert_eq!(back.ok().as_ref(), Some(&own));
    let json = serde_json::to_string(&plain).unwrap_or_default();
    assert!(
        !json.contains("anchors") && !json.contains("lateWatermark"),
        "{json}"
    );
    // Malformed: unknown flag bits, no anchor or too many, `late` = the watermark without one;
    // cut inside an anchor: truncated.
    let framed = |payload: &[u8]| {
        let mut frame = vec![PAGE_TOKEN_VERSION];
        frame.extend_from_slice(payload);
        let check = crc32::crc32(&frame);
        frame.extend_from_slice(&check.to_le_bytes());
        base64url::encode(&frame)
    };
    let fault = |payload: &[u8]| {
        PageToken::decode(&framed(payload)).err().map(|e| {
            e.details()["reason"]
                .as_str()
                .unwrap_or_default()
                .to_owned()
        })
    };
    let mut no_mark = plain.clone();
    no_mark.watermark = None;
    let no_mark = payload(&token(&no_mark));
    let with_flags = |base: &[u8], tail: &[u8]| {
        let mut p = base[..base.len() - 1].to_vec();
        p.extend_from_slice(tail);
        p
    };
    for (tail, base, reason) in [
        (&[16u8][..], &bare, "malformed"),
        (&[4, 0][..], &bare, "malformed"),
        (&[4, 3][..], &bare, "malformed"),
        (&[4, 1, 1, 2, 3][..], &bare, "truncated"),
        (&[8, 2][..], &bare, "malformed"),
        (&[8, 0][..], &no_mark, "malformed"),
    ] {
        assert_eq!(
            fault(&with_flags(base, tail)).as_deref(),
            Some(reason),
            "{tail:?}"
        );
    }
    assert_eq!(
        fault(&with_flags(&bare, &[8, 0])),
        None,
        "late = the watermark"
    );
}

/// What the anchors and the late watermark add, for BENCHMARKS.md ("Issue 11, sixth
/// session"): `cargo test --lib anchor_size_report -- --nocapture`. The realistic three-source
/// position of `size_report` (continue tokens) with its `helm.packages` source as a `kubeapps`
/// source that read past what it consumed (one anchor), then as a switched source in its late
/// phase (two anchors; its late watermark the watermark itself, or a key of its own).
#[test]
fn anchor_size_report() {
    let base = three_sources(k8s_continue_100);
    let text_len = |t: &PageToken| t.encode().unwrap_or_default().len();
    let payload_len = |t: &PageToken| payload(t).len();
    let mut one = base.clone();
    one.sources[0].chunk_token = "40".into();
    let plain = one.clone();
    one.sources[0].anchors = vec![0x9e37_79b9_7f4a_7c15];
    let mut late = plain.clone();
    late.sources[0].chunk_token = "\u{1}40".into();
    late.sources[0].anchors = vec![1, 2];
    late.sources[0].late_watermark = late.sources[0].watermark.clone();
    let mut own = late.clone();
    own.sources[0].late_watermark = Some(Watermark {
        sort_key: "package-name-late".into(),
        identity: Identity {
            plugin: "helm.packages".into(),
            cluster: "default".into(),
            namespace: "kubeapps".into(),
            identifier: "bitnami/package-name-late".into(),
        },
    });
    let mut plain_late = late.clone();
    plain_late.sources[0].anchors.clear();
    plain_late.sources[0].late_watermark = None;
    println!("| position of the helm source | payload | token | added |");
    println!("|---|---:|---:|---:|");
    for (name, t, before, added) in [
        ("streamed, nothing read past", &plain, &plain, 0),
        ("streamed, read past (one anchor)", &one, &plain, 9),
        (
            "late phase, two anchors, late = watermark",
            &late,
            &plain_late,
            18,
        ),
        (
            "late phase, two anchors, late of its own",
            &own,
            &plain_late,
            48,
        ),
    ] {
        assert_eq!(payload_len(t) - payload_len(before), added, "{name}");
        assert_eq!(
            PageToken::decode(&t.encode().unwrap_or_default()).as_ref(),
            Ok(t)
        );
        println!(
            "| {name} | {} B | {} chars | +{added} B, +{} chars |",
            payload_len(t),
            text_len(t),
            text_len(t) - text_len(before)
        );
    }
}

/// Three sources whose chunk tokens are made by `chunk(i)`, each with a
/// watermark and a resourceVersion, as a pager mid-list holds them.
fn three_sources(chunk: impl Fn(usize) -> String) -> PageToken {
    let sources = KNOWN_PLUGINS
        .iter()
        .enumerate()
        .map(|(i, plugin)| {
            let mut s = k8s_state(plugin, "kubeapps/x\u{0}", 123_456);
            s.chunk_token = chunk(i);
            s.watermark = Some(Watermark {
                sort_key: format!("package-name-{i:02}"),
                identity: Identity {
                    plugin: (*plugin).into(),
                    cluster: "default".into(),
                    namespace: "kubeapps".into(),
                    identifier: format!("bitnami/package-name-{i:02}"),
                },
            });
            s
        })
        .collect();
    PageToken {
        fingerprint: 0x9e37_79b9_7f4a_7c15,
        page_size: 25,
        sources,
    }
}

/// A 100-character apiserver continue token: rv 123456 and a start key
/// `kubeapps/<name>\0` whose JSON is 30 characters.
fn k8s_continue_100(i: usize) -> String {
    let start = format!("kubeapps/package-name-{i:02}\u{0}");
    ContinueToken::new(123_456, start)
        .encode()
        .unwrap_or_default()
}

/// 100 characters of base64url that are not a continue token.
fn opaque_base64url_100(i: usize) -> String {
    let bytes: Vec<u8> = (0..75u8)
        .map(|b| b.wrapping_mul(37).wrapping_add(i as u8))
        .collect();
    base64url::encode(&bytes)
}

/// 100 bytes that are not base64 (the worst case: stored as they are).
fn opaque_text_100(i: usize) -> String {
    format!("+RID:~kubeapps/pkg-{i}==#RT:1#TRC:10#").repeat(3)[..100].to_owned()
}

/// Token sizes for BENCHMARKS.md: `cargo test --lib size_report -- --nocapture`.
#[test]
fn size_report() {
    type ChunkMaker = fn(usize) -> String;
    let cases: [(&str, ChunkMaker); 3] = [
        ("k8s continue tokens, 100 chars", k8s_continue_100),
        ("opaque base64url, 100 chars", opaque_base64url_100),
        ("opaque non-base64, 100 bytes", opaque_text_100),
    ];
    println!("| case | postcard payload | token (postcard) | JSON of the wire structs | JSON of the serde view |");
    println!("|---|---:|---:|---:|---:|");
    for (name, chunk) in cases {
        let token = three_sources(chunk);
        for s in &token.sources {
            assert_eq!(s.chunk_token.len(), 100, "{name}");
        }
        let payload = payload(&token);
        assert_eq!(
            Ok(&payload),
            postcard::to_allocvec(&WireToken::new(
                token.fingerprint,
                token.page_size,
                &refs(&token)
            ))
            .as_ref(),
            "{name}: postcard's encoding"
        );
        let text = token.encode().unwrap_or_default();
        assert_eq!(text.len(), base64url::encoded_len(payload.len() + 5));
        assert_eq!(PageToken::decode(&text).as_ref(), Ok(&token), "{name}");
        // The same frame around a JSON payload instead.
        let framed = |json_len: usize| base64url::encoded_len(json_len + 5);
        let wire_json = serde_json::to_string(&WireToken::new(
            token.fingerprint,
            token.page_size,
            &refs(&token),
        ))
        .unwrap_or_default()
        .len();
        let view_json = serde_json::to_string(&token).unwrap_or_default().len();
        println!(
            "| {name} | {} B | {} chars | {} chars ({wire_json} B) | {} chars ({view_json} B) |",
            payload.len(),
            text.len(),
            framed(wire_json),
            framed(view_json)
        );
        if name.starts_with("k8s") {
            assert!(text.len() < 600, "{name}: {} characters", text.len());
        }
    }
}
