//! Built-in `fetchChunk` functions over the global `fetch` (browsers, workers, Node ≥ 18).
//!
//! - `kubeappsFetcher`: the kubeapps-apis REST gateway,
//!   `GET {baseUrl}/plugins/{plugin}/packages/v1alpha1/availablepackages` (plugin `helm.packages` → `helm`).
//! - `kubernetesListFetcher`: a plain Kubernetes list endpoint with `limit` and `continue`.
//!
//! A non-2xx answer rejects with a `PagerError` `SOURCE_FAILED` whose `details` carry `status`, and
//! for a Kubernetes `Status` body its `reason` and `metadata.continue` (`continue`), which is what
//! `Pager.fail` and `nextPage` read to recover from 410 Expired.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{future_to_promise, JsFuture};

use super::convert::json_text;
use super::errors::{boundary_error_with, JsResult};
use crate::view::{self, FetcherOptions};

#[wasm_bindgen]
extern "C" {
    /// The global `fetch` (WHATWG Fetch).
    #[wasm_bindgen(js_name = fetch)]
    fn global_fetch(input: &str, init: &web_sys::RequestInit) -> js_sys::Promise;
}

/// Percent-encodes a query component (`encodeURIComponent`).
fn enc(s: &str) -> String {
    String::from(js_sys::encode_uri_component(s))
}

fn field(obj: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(obj, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

fn string_field(obj: &JsValue, path: &[&str]) -> String {
    let mut v = obj.clone();
    for k in path {
        if !v.is_object() {
            return String::new();
        }
        v = field(&v, k);
    }
    v.as_string().unwrap_or_default()
}

/// The fetcher options, read with `read`, or `INVALID_OPTIONS`.
fn fetcher_options(
    options: &JsValue,
    read: fn(&str) -> Result<FetcherOptions, String>,
) -> JsResult<FetcherOptions> {
    json_text(options)
        .and_then(|text| read(&text))
        .map_err(|message| {
            boundary_error_with("INVALID_OPTIONS", &message, js_sys::Object::new().into())
        })
}

fn failed(url: &str, status: u16, body: &JsValue, cause: Option<JsValue>) -> JsValue {
    let details = js_sys::Object::new();
    let set = |k: &str, v: &JsValue| {
        let _ = js_sys::Reflect::set(&details, &JsValue::from_str(k), v);
    };
    set("status", &JsValue::from(status));
    set("url", &JsValue::from_str(url));
    let reason = string_field(body, &["reason"]);
    if !reason.is_empty() {
        set("reason", &JsValue::from_str(&reason));
    }
    let cont = string_field(body, &["metadata", "continue"]);
    if !cont.is_empty() {
        set("continue", &JsValue::from_str(&cont));
    }
    if let Some(cause) = cause {
        set("cause", &cause);
    }
    let message = string_field(body, &["message"]);
    let text = if message.is_empty() {
        format!("GET {url}: HTTP {status}")
    } else {
        format!("GET {url}: HTTP {status}: {message}")
    };
    boundary_error_with("SOURCE_FAILED", &text, details.into())
}

/// GETs `url` and resolves with its JSON body, or rejects with `SOURCE_FAILED`.
async fn get_json(
    url: String,
    headers: Vec<(String, String)>,
    signal: JsValue,
) -> JsResult<JsValue> {
    let init = web_sys::RequestInit::new();
    init.set_method("GET");
    let h = web_sys::Headers::new()?;
    h.append("Accept", "application/json")?;
    for (k, v) in &headers {
        h.append(k, v)?;
    }
    init.set_headers(&h);
    if signal.is_object() {
        init.set_signal(Some(signal.unchecked_ref()));
    }
    let response = match JsFuture::from(global_fetch(&url, &init)).await {
        Ok(r) => r,
        // AbortError passes through unchanged: nextPage reports ABORTED itself.
        Err(e) if string_field(&e, &["name"]) == "AbortError" => return Err(e),
        Err(e) => return Err(failed(&url, 0, &JsValue::UNDEFINED, Some(e))),
    };
    let response: web_sys::Response = response.unchecked_into();
    let status = response.status();
    let body = match response.json() {
        Ok(p) => JsFuture::from(p).await.unwrap_or(JsValue::UNDEFINED),
        Err(_) => JsValue::UNDEFINED,
    };
    if response.ok() && body.is_object() {
        Ok(body)
    } else if response.ok() {
        Err(failed(
            &url,
            status,
            &JsValue::UNDEFINED,
            Some(JsValue::from_str("the body is not a JSON object")),
        ))
    } else {
        Err(failed(&url, status, &body, None))
    }
}

fn into_fetcher(f: impl Fn(JsValue, JsValue) -> js_sys::Promise + 'static) -> JsValue {
    Closure::<dyn Fn(JsValue, JsValue) -> js_sys::Promise>::new(f).into_js_value()
}

/// A `fetchChunk` for the kubeapps-apis REST gateway. `options`: `{ baseUrl, context?, headers? }`;
/// each request's source gives the plugin, cluster and namespace (`context` fills empty ones).
/// Throws `INVALID_OPTIONS`.
#[wasm_bindgen(js_name = kubeappsFetcher, unchecked_return_type = "FetchChunk")]
pub fn kubeapps_fetcher(
    #[wasm_bindgen(unchecked_param_type = "KubeappsFetcherOptions")] options: JsValue,
) -> JsResult<JsValue> {
    let o = fetcher_options(&options, view::read_kubeapps_fetcher_options)?;
    let base = o.url.trim_end_matches('/').to_string();
    let headers = o.headers;
    let (cluster0, namespace0) = (o.cluster, o.namespace);
    Ok(into_fetcher(move |request: JsValue, opts: JsValue| {
        let plugin = string_field(&request, &["source", "plugin"]);
        let path = plugin
            .strip_suffix(".packages")
            .unwrap_or(&plugin)
            .to_string();
        let or = |v: String, d: &str| if v.is_empty() { d.to_string() } else { v };
        let cluster = or(string_field(&request, &["source", "cluster"]), &cluster0);
        let namespace = or(
            string_field(&request, &["source", "namespace"]),
            &namespace0,
        );
        let limit = field(&request, "limit")
            .as_f64()
            .filter(|n| n.is_finite() && *n >= 0.0)
            .unwrap_or(0.0) as u32;
        let token = string_field(&request, &["pageToken"]);
        let mut url = format!(
            "{base}/plugins/{}/packages/v1alpha1/availablepackages?context.cluster={}&context.namespace={}&paginationOptions.pageSize={}",
            enc(&path),
            enc(&cluster),
            enc(&namespace),
            limit
        );
        if !token.is_empty() {
            url.push_str(&format!("&paginationOptions.pageToken={}", enc(&token)));
        }
        let signal = if opts.is_object() {
            field(&opts, "signal")
        } else {
            JsValue::UNDEFINED
        };
        future_to_promise(get_json(url, headers.clone(), signal))
    }))
}

/// A `fetchChunk` for a plain Kubernetes list endpoint. `options`: `{ url, headers? }`; each request
/// adds `limit` and, when it has one, `continue`. Throws `INVALID_OPTIONS`.
#[wasm_bindgen(js_name = kubernetesListFetcher, unchecked_return_type = "FetchChunk")]
pub fn kubernetes_list_fetcher(
    #[wasm_bindgen(unchecked_param_type = "KubernetesListFetcherOptions")] options: JsValue,
) -> JsResult<JsValue> {
    let o = fetcher_options(&options, view::read_list_fetcher_options)?;
    let headers = o.headers;
    let base = o.url;
    Ok(into_fetcher(move |request: JsValue, opts: JsValue| {
        let limit = field(&request, "limit")
            .as_f64()
            .filter(|n| n.is_finite() && *n >= 0.0)
            .unwrap_or(0.0) as u32;
        let token = string_field(&request, &["pageToken"]);
        let sep = if base.contains('?') { '&' } else { '?' };
        let mut url = format!("{base}{sep}limit={limit}");
        if !token.is_empty() {
            url.push_str(&format!("&continue={}", enc(&token)));
        }
        let signal = if opts.is_object() {
            field(&opts, "signal")
        } else {
            JsValue::UNDEFINED
        };
        future_to_promise(get_json(url, headers.clone(), signal))
    }))
}
