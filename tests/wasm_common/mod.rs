//! Tests of the wasm boundary, shared by `tests/wasm_node.rs` (Node) and `tests/wasm_browser.rs`
//! (headless Chromium): the JS-visible behaviour of the codec functions and of the `Pager` class.

use js_sys::{Array, Function, Object, Promise, Reflect, JSON};
use kubeapps_pager::wasm::codec::*;
use kubeapps_pager::wasm::pager::JsPager;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

fn json(text: &str) -> JsValue {
    JSON::parse(text).expect("test JSON")
}

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(key)).expect("property")
}

/// Asserts that `err` is a real JS Error named PagerError with this code; returns its details.
fn assert_pager_error(err: JsValue, code: &str) -> JsValue {
    assert!(err.is_instance_of::<js_sys::Error>(), "a real Error");
    assert_eq!(get(&err, "name").as_string().as_deref(), Some("PagerError"));
    assert_eq!(get(&err, "code").as_string().as_deref(), Some(code));
    let details = get(&err, "details");
    assert!(details.is_object(), "details is an object");
    details
}

fn summary(plugin: &str, name: &str) -> String {
    format!(
        r#"{{"availablePackageRef":{{"context":{{"cluster":"default","namespace":"kubeapps"}},"identifier":"repo/{name}","plugin":{{"name":"{plugin}","version":"v1alpha1"}}}},"name":"{name}","displayName":"{name}","extra":{{"kept":true}}}}"#
    )
}

const OPTIONS: &str = r#"{"sources":[{"plugin":"helm.packages","cluster":"default","namespace":"kubeapps","kind":"kubeapps"}],"pageSize":2,"chunkLimit":3}"#;

#[wasm_bindgen_test]
fn page_token_round_trips_through_js_objects() {
    let state = json(
        r#"{"fingerprint":"00ff00ff00ff00ff","pageSize":20,"sources":[{"plugin":"helm.packages","cluster":"default","namespace":"kubeapps","chunkToken":"+RID:~kubeapps/pkg-b==#RT:1","offset":3,"watermark":{"sortKey":"grafana","identity":{"plugin":"helm.packages","cluster":"default","namespace":"kubeapps","identifier":"bitnami/grafana"}},"resourceVersion":"","exhausted":false,"inconsistent":false,"behind":false}]}"#,
    );
    let token = encode_page_token(state.clone()).expect("encodes");
    assert!(
        token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'),
        "URL-safe: {token}"
    );
    let back = decode_page_token(JsValue::from_str(&token)).expect("decodes");
    assert_eq!(
        JSON::stringify(&back).unwrap(),
        JSON::stringify(&state).unwrap()
    );
}

#[wasm_bindgen_test]
fn a_truncated_page_token_throws_invalid_page_token_with_a_reason() {
    let state = json(r#"{"fingerprint":"0000000000000001","pageSize":5,"sources":[]}"#);
    let token = encode_page_token(state).expect("encodes");
    let err =
        decode_page_token(JsValue::from_str(&token[..token.len() - 1])).expect_err("truncated");
    let details = assert_pager_error(err, "INVALID_PAGE_TOKEN");
    assert!(get(&details, "reason").as_string().is_some());
}

#[wasm_bindgen_test]
fn a_non_string_token_throws_a_pager_error_not_a_type_error() {
    let err = decode_page_token(JsValue::from(42)).expect_err("not a string");
    assert_pager_error(err, "INVALID_PAGE_TOKEN");
}

#[wasm_bindgen_test]
fn continue_tokens_match_the_apiserver_format() {
    let token = encode_continue_token(json(
        r#"{"resourceVersion":100,"start":"kubeapps/pkg-c\u0000"}"#,
    ))
    .expect("encodes");
    assert_eq!(
        token,
        "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTAwLCJzdGFydCI6Imt1YmVhcHBzL3BrZy1jXHUwMDAwIn0"
    );
    let fields = decode_continue_token(JsValue::from_str(&token)).expect("decodes");
    assert_eq!(
        get(&fields, "resourceVersion").as_string().as_deref(),
        Some("100")
    );
    assert_eq!(get(&fields, "consistent").as_bool(), Some(true));
    let err =
        encode_continue_token(json(r#"{"resourceVersion":0,"start":"a"}"#)).expect_err("rv 0");
    assert_pager_error(err, "INVALID_CONTINUE_TOKEN");
}

#[wasm_bindgen_test]
fn kubeapps_tokens_decode_to_their_kind() {
    let core = decode_kubeapps_token(JsValue::from_str(
        r#"{"helm.packages":40,"fluxv2.packages":-1}"#,
    ))
    .expect("core");
    assert_eq!(get(&core, "kind").as_string().as_deref(), Some("core"));
    let offset = decode_kubeapps_token(JsValue::from_str("17")).expect("offset");
    assert_eq!(get(&offset, "offset").as_f64(), Some(17.0));
    let err = decode_kubeapps_token(JsValue::from_str("-5")).expect_err("negative");
    assert_pager_error(err, "INVALID_KUBEAPPS_TOKEN");
}

#[wasm_bindgen_test]
fn inspect_never_throws() {
    for garbage in [
        JsValue::from_str(""),
        JsValue::from_str("%%%"),
        JsValue::NULL,
        JsValue::from(1.5),
    ] {
        let info = inspect(garbage).expect("never throws");
        assert_eq!(get(&info, "kind").as_string().as_deref(), Some("invalid"));
    }
}

#[wasm_bindgen_test]
fn a_pager_hands_back_the_very_objects_it_was_fed() {
    let pager = JsPager::new(json(OPTIONS)).expect("pager");
    let requests: Array = pager.next_requests().expect("requests").unchecked_into();
    assert_eq!(requests.length(), 1);
    let request = requests.get(0);
    let response = json(&format!(
        r#"{{"availablePackageSummaries":[{},{}],"nextPageToken":""}}"#,
        summary("helm.packages", "a"),
        summary("helm.packages", "b")
    ));
    let fed: Array = get(&response, "availablePackageSummaries").unchecked_into();
    let outcome = pager
        .feed(get(&request, "requestId"), response.clone())
        .expect("feeds");
    assert_eq!(outcome, "accepted");
    assert!(pager.page_ready().unwrap());
    let page = pager.take_page().expect("page");
    let items: Array = get(&page, "items").unchecked_into();
    assert_eq!(items.length(), 2);
    assert!(
        Object::is(&items.get(0), &fed.get(0)),
        "same object, not a copy"
    );
    assert!(Object::is(&items.get(1), &fed.get(1)));
    assert_eq!(get(&page, "done").as_bool(), Some(true));
}

#[wasm_bindgen_test]
fn bad_options_throw_invalid_options() {
    // (No sources is valid: an empty, done list.)
    let err = JsPager::new(json(
        r#"{"sources":[{"plugin":"helm.packages"}],"pageSize":0}"#,
    ))
    .err()
    .expect("page size 0");
    assert_pager_error(err, "INVALID_OPTIONS");
    let err = JsPager::new(JsValue::from_str("nope"))
        .err()
        .expect("not an object");
    assert_pager_error(err, "INVALID_OPTIONS");
}

#[wasm_bindgen_test]
async fn next_page_drives_a_fetch_function_to_a_page() {
    let pager = JsPager::new(json(OPTIONS)).expect("pager");
    let answer = json(&format!(
        r#"{{"availablePackageSummaries":[{},{},{}],"nextPageToken":""}}"#,
        summary("helm.packages", "a"),
        summary("helm.packages", "b"),
        summary("helm.packages", "c")
    ));
    let fetch = Closure::<dyn Fn(JsValue, JsValue) -> Promise>::new(move |_request, _init| {
        Promise::resolve(&answer)
    });
    let fetch: Function = fetch.into_js_value().unchecked_into();
    let page = JsFuture::from(pager.next_page(fetch.into(), None))
        .await
        .expect("page");
    let items: Array = get(&page, "items").unchecked_into();
    assert_eq!(items.length(), 2);
    assert_eq!(get(&page, "done").as_bool(), Some(false));
}

#[wasm_bindgen_test]
async fn next_page_rejects_source_failed_when_fetch_throws() {
    let pager = JsPager::new(json(OPTIONS)).expect("pager");
    let fetch = Closure::<dyn Fn(JsValue, JsValue) -> Promise>::new(move |_request, _init| {
        Promise::reject(&json(r#"{"status":503}"#))
    });
    let fetch: Function = fetch.into_js_value().unchecked_into();
    let err = JsFuture::from(pager.next_page(fetch.into(), None))
        .await
        .expect_err("fails");
    let details = assert_pager_error(err, "SOURCE_FAILED");
    assert_eq!(get(&details, "status").as_f64(), Some(503.0));
    assert_eq!(
        get(&details, "source").as_string().as_deref(),
        Some("helm.packages/default/kubeapps")
    );
}

/// The pager lowercases with Rust's own mapping (`kubeapps_pager::text::lowercase`); the demo
/// backend's ground truth and the catalog page use JS's `toLowerCase`. In this engine the two must
/// agree for every code point and in the final-sigma contexts, or the demo's checks would differ.
#[wasm_bindgen_test]
fn lowercase_agrees_with_this_engines_to_lower_case_for_every_code_point() {
    let js_lower = |s: &str| -> String { js_sys::JsString::from(s).to_lower_case().into() };
    let chars: Vec<char> = (0..=0x10FFFFu32).filter_map(char::from_u32).collect();
    // Many code points per call, each between spaces (no case context reaches across a space).
    for block in chars.chunks(4096) {
        let text: String = block.iter().flat_map(|&c| [c, ' ']).collect();
        assert_eq!(
            kubeapps_pager::text::lowercase(&text),
            js_lower(&text),
            "from U+{:04X}",
            block[0] as u32
        );
    }
    for text in [
        "ΟΔΟΣ",
        "Σ",
        "ΑΣΑ",
        "ΑΣ Α",
        "Α'Σ",
        "ΑΣ'",
        "Α\u{300}Σ",
        "ΑΣ\u{300}Α",
        "1Σ",
        "ΑΣ1",
        "İSTANBUL",
    ] {
        assert_eq!(
            kubeapps_pager::text::lowercase(text),
            js_lower(text),
            "{text}"
        );
    }
}

/// A pager with a collation: its items in the natural order, its page token the same bytes in
/// every engine (Node and Chromium run this test alike: `COLLATED_TOKEN` is the one token both
/// must write), and that token resumes to the same next page in each; under another collation it
/// is `FILTER_MISMATCH`.
const COLLATED_OPTIONS: &str = r#"{"sources":[{"plugin":"helm.packages","cluster":"default","namespace":"kubeapps"},{"plugin":"kapp_controller.packages","cluster":"default","namespace":"kubeapps","kind":"kubernetes"}],"pageSize":3,"chunkLimit":4,"collation":{"locale":"en"}}"#;
/// The first page's token under `COLLATED_OPTIONS`, as this build writes it (recorded from its
/// first run; again since page tokens hold anchors: the helm source, which read past what it
/// consumed while the kapp source holds W, holds its last item read's identity hash): an engine
/// that writes another token, or orders the items otherwise, fails.
const COLLATED_TOKEN: &str = "AS6zRkfGkoLAAwIBB2RlZmF1bHQIa3ViZWFwcHMAAQEGYXBhY2hlAAAAAQRyZXBvAAAEAW671KKYSb2cAwdkZWZhdWx0CGt1YmVhcHBzAAABDGNlcnQtbWFuYWdlcgAAAAAMY2VydC1tYW5hZ2VyAgcAAF580ec";

/// Answers every request of `pager` once: helm's chunk in the collation's order (a database in
/// a natural collation, by offset), kapp's list whole in byte order (the apiserver's).
fn feed_collated_sources(pager: &JsPager) {
    let helm = [
        "apache",
        "kubeapps",
        "kube-prometheus",
        "Zeta-Board",
        "zookeeper",
    ];
    let kapp = ["Apache", "cert-manager", "école", "zeta"];
    loop {
        let requests: Array = pager.next_requests().expect("requests").unchecked_into();
        if requests.length() == 0 {
            return;
        }
        for request in requests.iter() {
            let index = get(&request, "sourceIndex").as_f64().unwrap_or(-1.0) as usize;
            let from: usize = get(&request, "pageToken")
                .as_string()
                .and_then(|t| t.parse().ok())
                .unwrap_or(0);
            let limit = get(&request, "limit").as_f64().unwrap_or(0.0) as usize;
            let response = if index == 0 {
                let end = helm.len().min(from + limit);
                let items: Vec<String> = helm[from.min(end)..end]
                    .iter()
                    .map(|n| summary("helm.packages", n))
                    .collect();
                let next = if end < helm.len() {
                    end.to_string()
                } else {
                    String::new()
                };
                json(&format!(
                    r#"{{"availablePackageSummaries":[{}],"nextPageToken":"{next}"}}"#,
                    items.join(",")
                ))
            } else {
                let items: Vec<String> = kapp
                    .iter()
                    .map(|n| format!(r#"{{"metadata":{{"name":"{n}","namespace":"kubeapps"}}}}"#))
                    .collect();
                json(&format!(
                    r#"{{"kind":"PackageMetadataList","metadata":{{"resourceVersion":"7","continue":""}},"items":[{}]}}"#,
                    items.join(",")
                ))
            };
            pager
                .feed(get(&request, "requestId"), response)
                .expect("feeds");
        }
        if pager.page_ready().unwrap() {
            return;
        }
    }
}

fn page_names(page: &JsValue) -> Vec<String> {
    let items: Array = get(page, "items").unchecked_into();
    items
        .iter()
        .map(|it| {
            let name = get(&it, "name");
            let name = if name.is_undefined() {
                get(&get(&it, "metadata"), "name")
            } else {
                name
            };
            name.as_string().unwrap_or_default()
        })
        .collect()
}

#[wasm_bindgen_test]
fn a_collated_page_token_is_the_same_and_resumes_alike_in_every_engine() {
    let pager = JsPager::new(json(COLLATED_OPTIONS)).expect("pager");
    feed_collated_sources(&pager);
    let page = pager.take_page().expect("page");
    assert_eq!(page_names(&page), ["apache", "Apache", "cert-manager"]);
    let stats: Array = get(&get(&page, "stats"), "sources").unchecked_into();
    let streamed: Vec<Option<bool>> = stats
        .iter()
        .map(|s| get(&s, "streamed").as_bool())
        .collect();
    assert_eq!(streamed, [Some(true), Some(false)]);
    let token = get(&page, "nextPageToken").as_string().expect("token");
    assert_eq!(token, COLLATED_TOKEN);
    let resumed =
        JsPager::resume(JsValue::from_str(&token), json(COLLATED_OPTIONS)).expect("resumes");
    let mut names = Vec::new();
    loop {
        feed_collated_sources(&resumed);
        let page = resumed.take_page().expect("page");
        names.extend(page_names(&page));
        if get(&page, "done").as_bool() == Some(true) {
            break;
        }
    }
    assert_eq!(
        names,
        [
            "école",
            "kubeapps",
            "kube-prometheus",
            "zeta",
            "Zeta-Board",
            "zookeeper"
        ]
    );
    let root = COLLATED_OPTIONS.replace(r#""locale":"en""#, r#""locale":"root""#);
    let err = JsPager::resume(JsValue::from_str(&token), json(&root))
        .err()
        .expect("other collation");
    assert_pager_error(err, "FILTER_MISMATCH");
}
