//! The views against serde: what is written equals the serde views' JSON text, and what is read
//! is what the boundary's serde shapes (copied here as the oracle) read, for a corpus of valid
//! inputs and thousands of edits of them.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::*;
use crate::item::{Identity, ItemFields};
use crate::token::{SourceState, Watermark};

fn source(plugin: &str, chunk_token: &str, watermark: bool) -> SourceState {
    SourceState {
        source: SourceId::new(plugin, "default", "kube\"apps\n"),
        chunk_token: chunk_token.into(),
        offset: u32::MAX,
        watermark: watermark.then(|| Watermark {
            sort_key: "pkg\u{0}é😀".into(),
            identity: Identity {
                plugin: plugin.into(),
                cluster: "c\\".into(),
                namespace: "\u{1f}\u{7f}".into(),
                identifier: "bitnami/pkg".into(),
            },
        }),
        resource_version: "123".into(),
        exhausted: true,
        inconsistent: false,
        behind: true,
        anchors: Vec::new(),
        late_watermark: None,
    }
}

fn sample_token() -> PageToken {
    PageToken {
        fingerprint: 0x00ff_1234_abcd_0001,
        page_size: 20,
        sources: vec![
            source("helm.packages", "", true),
            source("x", "+RID:~a==", false),
        ],
    }
}

fn unpack_page_token(packed: &str) -> PageToken {
    struct R {
        units: Vec<u16>,
        at: usize,
    }
    impl R {
        fn num(&mut self) -> u32 {
            let u = &self.units[self.at..self.at + 3];
            self.at += 3;
            u32::from(u[0]) | u32::from(u[1]) << 15 | u32::from(u[2]) << 30
        }
        fn s(&mut self) -> String {
            let n = self.num() as usize;
            let out =
                String::from_utf16(&self.units[self.at..self.at + n]).expect("whole characters");
            self.at += n;
            out
        }
    }
    let mut r = R {
        units: packed.encode_utf16().collect(),
        at: 16,
    };
    let page_size = r.num();
    let mut sources = Vec::new();
    for _ in 0..r.num() {
        let (flags, offset) = (r.num(), r.num());
        let source = SourceId::new(r.s(), r.s(), r.s());
        let chunk_token = r.s();
        let mark = |r: &mut R| Watermark {
            sort_key: r.s(),
            identity: Identity {
                plugin: r.s(),
                cluster: r.s(),
                namespace: r.s(),
                identifier: r.s(),
            },
        };
        let watermark = (flags & 1 != 0).then(|| mark(&mut r));
        let resource_version = r.s();
        let mut anchors = Vec::new();
        if flags & 16 != 0 {
            for _ in 0..r.num() {
                anchors.push(u64::from_str_radix(&r.s(), 16).expect("hex"));
            }
        }
        let late_watermark = (flags & 32 != 0).then(|| mark(&mut r));
        sources.push(SourceState {
            source,
            chunk_token,
            offset,
            watermark,
            resource_version,
            exhausted: flags & 2 != 0,
            inconsistent: flags & 4 != 0,
            behind: flags & 8 != 0,
            anchors,
            late_watermark,
        });
    }
    assert_eq!(r.at, r.units.len(), "all of it read");
    PageToken {
        fingerprint: u64::from_str_radix(&packed[..16], 16).expect("hex"),
        page_size,
        sources,
    }
}

#[test]
fn packed_page_token_unpacks_to_the_token() {
    let mut token = sample_token();
    token.sources[1].inconsistent = true;
    token.sources[1].exhausted = false;
    token.sources.push(source("漢😀\u{0}", "😀😀", true));
    // The members of a source whose order is learned.
    let mut learned = source("helm.packages", "\u{1}3", true);
    learned.anchors = vec![7, u64::MAX];
    learned.late_watermark = learned.watermark.clone();
    token.sources.push(learned);
    for t in [
        token,
        PageToken {
            fingerprint: 0,
            page_size: 0,
            sources: vec![],
        },
    ] {
        assert_eq!(unpack_page_token(&pack_page_token(&t)), t);
    }
}

// ---------------------------------------------------------------------------
// The oracle: the boundary's serde shapes as they were.

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct JsOptions {
    sources: Vec<JsSource>,
    page_size: Option<u32>,
    chunk_limit: Option<u32>,
    sort: Option<JsSort>,
    filter: Option<JsFilter>,
    max_source_items: Option<u32>,
    max_chunks_without_progress: Option<u32>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct JsSource {
    plugin: String,
    #[serde(default)]
    cluster: String,
    #[serde(default)]
    namespace: String,
    kind: Option<JsKind>,
    order: Option<JsOrder>,
    filter: Option<JsSide>,
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum JsSide {
    Source,
    Pager,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum JsKind {
    Kubernetes,
    Kubeapps,
    Unordered,
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum JsOrder {
    Name,
    None,
}

#[derive(Deserialize)]
enum JsSort {
    #[serde(rename = "name")]
    Name,
    #[serde(rename = "displayName")]
    DisplayName,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct JsFilter {
    #[serde(default)]
    query: String,
    #[serde(default)]
    categories: Vec<String>,
    #[serde(default)]
    repositories: Vec<String>,
    #[serde(default)]
    plugins: Vec<String>,
    #[serde(default)]
    pkg_version: String,
    #[serde(default)]
    app_version: String,
}

/// The options as the serde shapes read them (before validation).
fn oracle_options(text: &str) -> Option<PagerOptions> {
    let js: JsOptions = serde_json::from_str(text).ok()?;
    let sources = js
        .sources
        .into_iter()
        .map(|s| SourceSpec {
            id: SourceId::new(s.plugin, s.cluster, s.namespace),
            kind: match s.kind.unwrap_or(JsKind::Kubeapps) {
                JsKind::Kubernetes => SourceKind::Kubernetes,
                JsKind::Kubeapps => SourceKind::Kubeapps,
                JsKind::Unordered => SourceKind::Unordered,
            },
            order: s.order.map(|o| match o {
                JsOrder::Name => SourceOrder::Name,
                JsOrder::None => SourceOrder::None,
            }),
            filter: s.filter.map(|f| match f {
                JsSide::Source => FilterSide::Source,
                JsSide::Pager => FilterSide::Pager,
            }),
        })
        .collect();
    let mut o = PagerOptions::new(sources);
    o.page_size = js.page_size.unwrap_or(o.page_size);
    o.chunk_limit = js.chunk_limit.unwrap_or(o.chunk_limit);
    if let Some(sort) = js.sort {
        o.sort = match sort {
            JsSort::Name => SortOrder::Name,
            JsSort::DisplayName => SortOrder::DisplayName,
        };
    }
    let f = js.filter.unwrap_or_default();
    o.filter = FilterOptions {
        query: f.query,
        categories: f.categories,
        repositories: f.repositories,
        plugins: f.plugins,
        pkg_version: f.pkg_version,
        app_version: f.app_version,
    };
    o.max_source_items = js.max_source_items.unwrap_or(o.max_source_items);
    o.max_chunks_without_progress = js
        .max_chunks_without_progress
        .unwrap_or(o.max_chunks_without_progress);
    Some(o)
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct KubeappsContext {
    #[serde(default)]
    cluster: String,
    #[serde(default)]
    namespace: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct KubeappsFetcherOptions {
    base_url: String,
    #[serde(default)]
    context: KubeappsContext,
    #[serde(default)]
    headers: BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ListFetcherOptions {
    url: String,
    #[serde(default)]
    headers: BTreeMap<String, String>,
}

// ---------------------------------------------------------------------------
// Inputs: valid JSON as JSON.stringify writes it, and edits of it.

/// Replacements that keep the text JSON, or nearly: values of every type, names that are near
/// misses of real ones, and a few breaks.
const SWAPS: &[&str] = &[
    "null",
    "true",
    "0",
    "-1",
    "1.5",
    "4294967295",
    "4294967296",
    "1e+21",
    "\"\"",
    "\"x\"",
    "\"name\"",
    "\"none\"",
    "\"kubernetes\"",
    "\"displayName\"",
    "\"100\"",
    "[]",
    "[\"a\"]",
    "{}",
    "{\"x\":1}",
    "\"00ff1234abcd0001\"",
    "\"00FF1234ABCD0001\"",
    "9223372036854775807",
    "9223372036854775808",
    "",
    ",",
    "}",
];

/// The text with the JSON value or key at each position swapped for each of [`SWAPS`], and each
/// member deleted: thousands of near-valid variants.
fn variants(text: &str) -> Vec<String> {
    let mut out = vec![text.to_owned()];
    let bytes = text.as_bytes();
    // Spans of each scalar token: strings, numbers and literals.
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        match bytes[i] {
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'-' | b'0'..=b'9' | b'a'..=b'z' => {
                while i < bytes.len() && !b",]}:".contains(&bytes[i]) {
                    i += 1;
                }
            }
            _ => {
                i += 1;
                continue;
            }
        }
        spans.push((start, i.min(bytes.len())));
    }
    for &(a, b) in &spans {
        for swap in SWAPS {
            out.push(format!("{}{swap}{}", &text[..a], &text[b..]));
        }
        // Drop a member: `"key":value,` when the span is a key.
        if text[b..].starts_with(':') {
            let end = text[b..].find([',', '}']).map_or(text.len(), |e| b + e);
            let end = if text[end..].starts_with(',') {
                end + 1
            } else {
                end
            };
            out.push(format!("{}{}", &text[..a], &text[end..]));
        }
    }
    out
}

/// The options base texts of the oracle corpus.
const OPTIONS_BASES: [&str; 2] = [
    r#"{"sources":[{"plugin":"helm.packages","cluster":"default","namespace":"kubeapps","kind":"kubeapps"},{"plugin":"fluxv2.packages","kind":"kubernetes","order":"name"}],"pageSize":3,"chunkLimit":2,"sort":"displayName","filter":{"query":"sql","categories":["Database"],"repositories":[],"plugins":["helm.packages"]},"maxSourceItems":50,"maxChunksWithoutProgress":9}"#,
    r#"{"sources":[{"plugin":"p","order":"none","kind":"unordered"}],"sort":"name","filter":null,"pageSize":null}"#,
];

/// The text as `JSON.stringify` would write the value `JSON.parse` makes of it (keys sorted), or
/// `None` when it is not JSON. The JS readers get values, not text.
fn as_js_writes_it(text: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    serde_json::to_string(&value).ok()
}

/// [`PagerOptions`] as plain JSON (the view `tests/js/inputs.test.mjs` compares with).
fn options_json(o: &PagerOptions) -> serde_json::Value {
    let kind = |k: SourceKind| match k {
        SourceKind::Kubernetes => "kubernetes",
        SourceKind::Kubeapps => "kubeapps",
        SourceKind::Unordered => "unordered",
    };
    let order = |o: Option<SourceOrder>| match o {
        None => serde_json::Value::Null,
        Some(SourceOrder::Name) => "name".into(),
        Some(SourceOrder::None) => "none".into(),
    };
    let sources: Vec<serde_json::Value> = o
        .sources
        .iter()
        .map(|s| {
            serde_json::json!({
                "plugin": s.id.plugin, "cluster": s.id.cluster, "namespace": s.id.namespace,
                "kind": kind(s.kind), "order": order(s.order),
            })
        })
        .collect();
    serde_json::json!({
        "sources": sources,
        "pageSize": o.page_size,
        "chunkLimit": o.chunk_limit,
        "sort": if o.sort == SortOrder::DisplayName { "displayName" } else { "name" },
        "filter": {
            "query": o.filter.query, "categories": o.filter.categories,
            "repositories": o.filter.repositories, "plugins": o.filter.plugins,
        },
        "maxSourceItems": o.max_source_items,
        "maxChunksWithoutProgress": o.max_chunks_without_progress,
    })
}

/// The oracle corpus of the pager module's JS input readers (`readOptions` and the fetchers'
/// options, `src/wasm/inputs.js`): [`variants`] of a few bases, those that are JSON, each with what
/// the serde shapes read (before validation; `null`: refused). Per reader: the number of variants,
/// the distinct readings, and each variant's reading by index. `tests/js/inputs.test.mjs` makes the
/// same variants and checks the JS readers against it; this test checks that it is the serde
/// shapes' reading. `UPDATE_GOLDEN=1` rewrites it.
#[test]
fn js_input_oracle_is_what_the_serde_shapes_read() {
    let mut corpus = serde_json::Map::new();
    let mut cases = |name: &str,
                     bases: &[&str],
                     oracle: &dyn Fn(&str) -> Option<serde_json::Value>| {
        let (mut expected, mut index) = (Vec::<serde_json::Value>::new(), Vec::new());
        for base in bases {
            for text in variants(base) {
                let Some(js) = as_js_writes_it(&text) else {
                    continue;
                };
                // serde also read a struct from an array of its fields (`filter: []` was the
                // empty filter, `["sql"]` a query); the shape is an object, and only that is read.
                let want = match js.contains("\"filter\":[") {
                    true => None,
                    false => oracle(&js),
                };
                let want = want.unwrap_or(serde_json::Value::Null);
                let i = expected.iter().position(|e| *e == want).unwrap_or_else(|| {
                    expected.push(want);
                    expected.len() - 1
                });
                index.push(i);
            }
        }
        let entry = serde_json::json!({ "bases": bases, "count": index.len(), "expected": expected, "index": index });
        corpus.insert(name.into(), entry);
    };
    cases("options", &OPTIONS_BASES, &|text| {
        oracle_options(text).map(|o| options_json(&o))
    });
    cases(
        "kubeappsFetcher",
        &[
            r#"{"baseUrl":"/apis","context":{"cluster":"c","namespace":"n"},"headers":{"b":"2","Authorization":"Bearer x"}}"#,
        ],
        &|text| {
            serde_json::from_str::<KubeappsFetcherOptions>(text).ok().map(|o| {
                serde_json::json!({
                    "url": o.base_url, "cluster": o.context.cluster,
                    "namespace": o.context.namespace, "headers": o.headers.into_iter().collect::<Vec<_>>(),
                })
            })
        },
    );
    cases(
        "kubernetesListFetcher",
        &[r#"{"url":"/api/v1/x?a=b","headers":{"h":"v"}}"#],
        &|text| {
            serde_json::from_str::<ListFetcherOptions>(text)
                .ok()
                .map(|o| {
                    serde_json::json!({
                        "url": o.url, "cluster": "", "namespace": "",
                        "headers": o.headers.into_iter().collect::<Vec<_>>(),
                    })
                })
        },
    );
    let text = serde_json::to_string(&corpus).unwrap_or_default() + "\n";
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/golden/js_inputs_oracle.json"
    );
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(path, &text).expect("write the golden corpus");
    }
    assert_eq!(
        std::fs::read_to_string(path).unwrap_or_default(),
        text,
        "{path} is not the serde shapes' reading: UPDATE_GOLDEN=1 cargo test --lib js_input_oracle"
    );
}

#[test]
fn codec_inputs_name_the_member_at_fault() {
    let mut state = serde_json::to_value(sample_token()).unwrap_or_default();
    state["sources"][1]["offset"] = "1".into();
    state["extra"] = true.into(); // ignored: a page token state may carry more
    let err = read_page_token(&state.to_string())
        .err()
        .unwrap_or_default();
    assert!(err.starts_with("sources[1].offset: "), "{err}");
    assert!(!err.contains(" at line "), "{err}");
    let many = PageToken {
        sources: vec![source("p", "", false); 65],
        ..sample_token()
    };
    let text = serde_json::to_string(&many).unwrap_or_default();
    assert!(read_page_token(&text).is_err_and(|e| e.contains("at most 64")));
    // A lone surrogate, as JSON.stringify escapes it, is refused.
    let lone = serde_json::to_string(&sample_token())
        .unwrap_or_default()
        .replacen("\"x\"", "\"\\ud800\"", 1);
    assert!(read_page_token(&lone).is_err(), "{lone}");
    assert_eq!(
        read_page_token(&lone.replacen("\\ud800", "x", 1)).ok(),
        Some(sample_token())
    );

    let read = |t: &str| {
        read_continue_input(t)
            .map(|(rv, start)| (matches!(rv, ResourceVersion::Number(100)), start))
    };
    assert_eq!(
        read(r#"{"resourceVersion":100,"start":"a"}"#),
        Ok((true, "a".into()))
    );
    let unknown = read(r#"{"resourceVersion":100,"start":"a","limit":1}"#)
        .err()
        .unwrap_or_default();
    assert!(
        unknown.starts_with("limit: unknown field `limit`"),
        "{unknown}"
    );
    let bad = read(r#"{"resourceVersion":100,"start":5}"#)
        .err()
        .unwrap_or_default();
    assert!(bad.starts_with("start: invalid type: integer `5`"), "{bad}");
    assert!(read(r#"{"resourceVersion":100,"start":"\ud800"}"#).is_err());
    assert!(read(r#"{"resourceVersion":100,"start":"a"} x"#).is_err());
}

/// `text` and `lens` as `chunk.js` packs items (lengths in UTF-16 units).
fn pack(items: &[ItemFields]) -> (String, Vec<u32>) {
    let mut parts: Vec<&str> = Vec::new();
    let mut lens = Vec::new();
    for it in items {
        let fixed = [
            &it.plugin,
            &it.cluster,
            &it.namespace,
            &it.identifier,
            &it.name,
            &it.display_name,
            &it.short_description,
        ];
        for f in fixed {
            parts.push(f);
            lens.push(f.encode_utf16().count() as u32);
        }
        lens.push(it.categories.len() as u32);
        for c in &it.categories {
            parts.push(c);
            lens.push(c.encode_utf16().count() as u32);
        }
    }
    (parts.join("\0"), lens)
}

fn owned(f: FieldsRef<'_>) -> ItemFields {
    let mut categories = Vec::new();
    f.categories.any(|c| {
        categories.push(c.to_owned());
        false
    });
    ItemFields {
        plugin: f.plugin.into(),
        cluster: f.cluster.into(),
        namespace: f.namespace.into(),
        identifier: f.identifier.into(),
        name: f.name.into(),
        display_name: f.display_name.into(),
        short_description: f.short_description.into(),
        categories,
    }
}

#[test]
fn chunk_fields_read_what_chunk_js_packs() {
    let item = |name: &str, cats: &[&str]| ItemFields {
        plugin: "helm.packages".into(),
        namespace: "ns".into(),
        identifier: format!("bitnami/{name}"),
        name: name.into(),
        display_name: name.to_uppercase(),
        short_description: format!("{name}\0\n"),
        categories: cats.iter().map(|c| c.to_string()).collect(),
        ..Default::default()
    };
    let cases: Vec<Vec<ItemFields>> = vec![
        vec![],
        vec![ItemFields::default()],
        vec![item("apache", &["Web", ""]), item("nginx", &[])],
        // Not ASCII: lengths in UTF-16 units, 1 to 4 bytes a character.
        vec![item("ünïcødé", &["Ωmega", "𝄞 clef"]), item("ok", &["x"])],
        vec![item("𝄞", &[]), ItemFields::default(), item("é", &["é"])],
    ];
    for items in cases {
        let (text, lens) = pack(&items);
        let read = ChunkFields::read(&text, &lens).expect("reads");
        assert_eq!(read.len(), items.len());
        let got: Vec<ItemFields> = read.iter().map(owned).collect();
        assert_eq!(got, items, "{text:?}");
        // Lengths that do not fit the text are an error, never a panic or a wrong split.
        for k in 0..lens.len() {
            for delta in [1i64, -1] {
                let mut bad = lens.clone();
                bad[k] = (i64::from(bad[k]) + delta).max(0) as u32;
                if bad != lens {
                    let _ = ChunkFields::read(&text, &bad).map(|r| r.iter().count());
                }
            }
        }
        if !lens.is_empty() {
            assert!(ChunkFields::read(&text, &lens[..lens.len() - 1]).is_err());
            if let Some((last, _)) = text.char_indices().last() {
                assert!(ChunkFields::read(&text[..last], &lens).is_err());
            }
        }
        let longer = text.clone() + "\0x";
        assert!(ChunkFields::read(&longer, &lens).is_err());
    }
    // A character straddling two fields' lengths.
    assert!(ChunkFields::read("\u{1D11E}", &[1, 1, 0, 0, 0, 0, 0, 0]).is_err());
}

/// A number as `packNumber` (src/wasm/inputs.js) writes it.
fn js_number(out: &mut String, n: u64) {
    for shift in [0, 15, 30] {
        out.push(char::from_u32(((n >> shift) & 0x7FFF) as u32).unwrap_or_default());
    }
}

/// A string as `pack` (src/wasm/inputs.js) writes it: UTF-16 units, then the text.
fn js_string(out: &mut String, s: &str) {
    js_number(out, s.encode_utf16().count() as u64);
    out.push_str(s);
}

/// The layout `readOptions` (inputs.js) writes, packed here by a Rust copy of its packer; the
/// JS packer itself is checked end to end by tests/js/inputs.test.mjs.
#[test]
fn options_unpack_from_the_documented_layout() {
    let mut packed = String::new();
    let p = &mut packed;
    js_number(p, 3);
    for (plugin, cluster, namespace, kind, order, side) in [
        ("helm.packages", "", "kubeapps", 0, 0, 0),
        ("flux\u{0}é", "c😀", "", 1, 1, 1),
        ("p", "\u{7fff}", "\u{8000}", 3, 2, 2),
    ] {
        js_string(p, plugin);
        js_string(p, cluster);
        js_string(p, namespace);
        js_number(p, kind);
        js_number(p, order);
        js_number(p, side);
    }
    js_number(p, 8); // pageSize 7
    js_number(p, 0); // chunkLimit: default
    js_number(p, 2); // sort: displayName
    js_string(p, "sql");
    for list in [&["Database", "é"][..], &[], &["helm.packages"]] {
        js_number(p, list.len() as u64);
        for s in list {
            js_string(p, s);
        }
    }
    js_string(p, "1.0");
    js_string(p, "");
    js_number(p, u64::from(u32::MAX) + 1); // maxSourceItems u32::MAX
    js_number(p, 1); // maxChunksWithoutProgress 0 (validate refuses it)
    js_number(p, 2); // collation: { locale: "en" }
    let mut want = PagerOptions::new(vec![
        SourceSpec {
            id: SourceId::new("helm.packages", "", "kubeapps"),
            kind: SourceKind::Kubeapps,
            order: None,
            filter: None,
        },
        SourceSpec {
            id: SourceId::new("flux\u{0}é", "c😀", ""),
            kind: SourceKind::Kubernetes,
            order: Some(SourceOrder::Name),
            filter: Some(FilterSide::Source),
        },
        SourceSpec {
            id: SourceId::new("p", "\u{7fff}", "\u{8000}"),
            kind: SourceKind::Unordered,
            order: Some(SourceOrder::None),
            filter: Some(FilterSide::Pager),
        },
    ]);
    want.page_size = 7;
    want.sort = SortOrder::Collated(crate::SortField::DisplayName, crate::Collation::En);
    want.filter = FilterOptions {
        query: "sql".into(),
        categories: vec!["Database".into(), "é".into()],
        repositories: vec![],
        plugins: vec!["helm.packages".into()],
        pkg_version: "1.0".into(),
        app_version: String::new(),
    };
    want.max_source_items = u32::MAX;
    want.max_chunks_without_progress = 0;
    assert_eq!(unpack_options(&packed), want);
    // Without the collation (the last member): displayName, case-insensitive by bytes; the root
    // collation is 1.
    let plain = &packed[..packed
        .char_indices()
        .rev()
        .nth(2)
        .expect("three characters")
        .0];
    assert_eq!(unpack_options(plain).sort, SortOrder::DisplayName);
    for (n, want) in [
        (0, SortOrder::DisplayName),
        (
            1,
            SortOrder::Collated(crate::SortField::DisplayName, crate::Collation::Root),
        ),
        (3, SortOrder::DisplayName),
    ] {
        let mut q = plain.to_string();
        js_number(&mut q, n);
        assert_eq!(unpack_options(&q).sort, want, "collation {n}");
    }
    // Cut anywhere (never, from readOptions): whatever is left reads as absent, without a panic.
    for (end, _) in packed.char_indices() {
        let _ = unpack_options(&packed[..end]);
    }
    assert_eq!(unpack_options(""), PagerOptions::new(vec![]));
    // A length past the end, or inside a character, takes the rest.
    let mut p = Unpack::new("\u{5}\u{0}\u{0}ab");
    assert_eq!((p.string(), p.number()), ("ab".into(), 0));
    let mut p = Unpack::new("\u{1}\u{0}\u{0}😀");
    assert_eq!(p.string(), "😀");
}

/// As above, for `readFailure`'s layout.
#[test]
fn failures_unpack_from_the_documented_layout() {
    let mut packed = String::new();
    js_number(&mut packed, 410);
    js_number(&mut packed, 1);
    js_string(&mut packed, "Expired");
    js_number(&mut packed, 1);
    js_string(&mut packed, "c😀");
    assert_eq!(
        unpack_failure(&packed),
        Failure {
            status: 410,
            reason: Some("Expired".into()),
            continue_token: Some("c😀".into()),
        }
    );
    let mut packed = String::new();
    js_number(&mut packed, 0);
    js_number(&mut packed, 0);
    js_number(&mut packed, 1);
    js_string(&mut packed, "");
    assert_eq!(
        unpack_failure(&packed),
        Failure {
            status: 0,
            reason: None,
            continue_token: None,
        }
    );
}

/// One name of an order as `orderOf` (inputs.js) reads it, with its own order (an object's
/// fields, a choice's values).
struct Entry {
    name: String,
    inner: Vec<Entry>,
}

/// The order `text` (`"a b(c d) e"`) up to its end or its closing `)`.
fn order_of(text: &mut &str) -> Vec<Entry> {
    let mut out = Vec::new();
    loop {
        *text = text.trim_start();
        if text.is_empty() {
            break;
        }
        if let Some(rest) = text.strip_prefix(')') {
            *text = rest;
            break;
        }
        let end = text.find([' ', '(', ')']).unwrap_or(text.len());
        let name = text[..end].to_string();
        *text = &text[end..];
        let inner = match text.strip_prefix('(') {
            Some(rest) => {
                *text = rest;
                order_of(text)
            }
            None => Vec::new(),
        };
        out.push(Entry { name, inner });
    }
    out
}

/// `value` packed as `pack` (inputs.js) packs it in `order`: what `readOptions` writes.
fn pack_in_order(out: &mut String, value: &serde_json::Value, order: &[Entry]) {
    use serde_json::Value;
    for Entry { name, inner } in order {
        match &value[name.as_str()] {
            Value::Null => js_number(out, 0),
            Value::Number(n) => js_number(out, n.as_u64().expect("whole") + 1),
            Value::String(s) if !inner.is_empty() => {
                let i = inner.iter().position(|e| &e.name == s).expect("a choice");
                js_number(out, i as u64 + 1);
            }
            Value::String(s) => js_string(out, s),
            Value::Array(items) => {
                js_number(out, items.len() as u64);
                for item in items {
                    match item {
                        Value::String(s) => js_string(out, s),
                        object => pack_in_order(out, object, inner),
                    }
                }
            }
            object => pack_in_order(out, object, inner),
        }
    }
}

/// `OPTIONS_ORDER` is the order `unpack_options` reads in: options written by JS name and packed
/// in that order (as inputs.js packs them) read back as named, every choice of the order to its
/// own value; its filter is `FILTER_ORDER`, its locales `Collation::ALL`'s.
#[test]
fn options_unpack_in_the_order_the_core_hands_out() {
    let order = order_of(&mut { OPTIONS_ORDER });
    let unpack = |v: serde_json::Value| {
        let mut packed = String::new();
        pack_in_order(&mut packed, &v, &order);
        unpack_options(&packed)
    };
    let got = unpack(serde_json::json!({
        "sources": [{ "plugin": "p", "cluster": "c", "namespace": "n", "kind": "unordered",
                      "order": "none", "filter": "pager" }],
        "pageSize": 7, "chunkLimit": 9, "sort": "displayName",
        "filter": { "query": "q", "categories": ["a"], "repositories": ["r"], "plugins": ["x"],
                    "pkgVersion": "1", "appVersion": "2" },
        "maxSourceItems": 11, "maxChunksWithoutProgress": 0, "collation": { "locale": "en" },
    }));
    let mut want = PagerOptions::new(vec![SourceSpec {
        id: SourceId::new("p", "c", "n"),
        kind: SourceKind::Unordered,
        order: Some(SourceOrder::None),
        filter: Some(FilterSide::Pager),
    }]);
    want.page_size = 7;
    want.chunk_limit = 9;
    want.sort = SortOrder::Collated(crate::SortField::DisplayName, crate::Collation::En);
    want.filter = FilterOptions {
        query: "q".into(),
        categories: vec!["a".into()],
        repositories: vec!["r".into()],
        plugins: vec!["x".into()],
        pkg_version: "1".into(),
        app_version: "2".into(),
    };
    want.max_source_items = 11;
    want.max_chunks_without_progress = 0;
    assert_eq!(got, want);
    // Each choice of the order reads as its own value.
    let source = |field: &str, value: &str| {
        let mut s = serde_json::json!({ "plugin": "p" });
        s[field] = value.into();
        unpack(serde_json::json!({ "sources": [s] })).sources[0].clone()
    };
    for (value, kind) in [
        ("kubernetes", SourceKind::Kubernetes),
        ("kubeapps", SourceKind::Kubeapps),
        ("unordered", SourceKind::Unordered),
    ] {
        assert_eq!(source("kind", value).kind, kind, "{value}");
    }
    for (value, o) in [("name", SourceOrder::Name), ("none", SourceOrder::None)] {
        assert_eq!(source("order", value).order, Some(o), "{value}");
    }
    for (value, side) in [("source", FilterSide::Source), ("pager", FilterSide::Pager)] {
        assert_eq!(source("filter", value).filter, Some(side), "{value}");
    }
    for (value, sort) in [
        ("name", SortOrder::Name),
        ("displayName", SortOrder::DisplayName),
        ("apiserver", SortOrder::Apiserver),
    ] {
        let got = unpack(serde_json::json!({ "sources": [], "sort": value }));
        assert_eq!(got.sort, sort, "{value}");
    }
    let collation = order
        .iter()
        .find(|e| e.name == "collation")
        .expect("collation");
    let locales: Vec<&str> = collation.inner[0]
        .inner
        .iter()
        .map(|e| e.name.as_str())
        .collect();
    let all: Vec<&str> = crate::Collation::ALL.iter().map(|c| c.locale()).collect();
    assert_eq!(locales, all);
    assert!(OPTIONS_ORDER.contains(&format!(" filter({FILTER_ORDER}) ")));
    assert_eq!(
        FAILURE_ORDER, "status reason continue",
        "readFailure's layout (failures_unpack_from_the_documented_layout)"
    );
}
