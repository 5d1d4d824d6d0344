//! The requests of the built-in REST fetchers (`kubeappsFetcher`, `kubernetesListFetcher`): the
//! URL of a chunk request, then the platform's `fetch` through web-sys (`Headers`, `RequestInit`,
//! `AbortSignal`), awaited with wasm-bindgen-futures, and the answer's JSON body or a
//! `SOURCE_FAILED`.
//!
//! `fetchers.js` reads a fetcher's options (its table-driven reader, when the fetcher is made, also
//! before `init()`); at its first request it asks [`make_fetcher`] (handed to it by [`start`])
//! for the fetchChunk, a Rust closure that holds the options read.
//!
//! Nothing of the caller's may throw through a suspended task here: a JS exception unwinding
//! through the executor's poll leaves its task marked as running, and the promise never settles
//! (the hangs of an earlier port). So every import that can throw is declared `catch`: the
//! global `fetch`, `Promise.resolve` (a thenable's `constructor` getter), `encodeURIComponent`
//! (a lone surrogate), `Array.isArray` (a revoked Proxy), `Reflect.get` (any getter), and the
//! answer's members, read structurally ([`Answer`]): a replaced global `fetch` (a test's stand-in,
//! a polyfill's) may resolve with anything, and web-sys's `Response` getters are not `catch`.

use crate::prelude::*;
use alloc::rc::Rc;
use js_sys::{Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{future_to_promise, JsFuture};
use web_sys::{AbortSignal, Headers, RequestInit};

#[wasm_bindgen]
extern "C" {
    /// The global `fetch`, looked up at each call (a caller or test may replace it), called as
    /// `fetch(url, init)`: not with a `Request`, which Node's refuses to make for a relative URL
    /// (`/apis/…`, which a replaced `fetch` gets as it is today).
    #[wasm_bindgen(catch, js_name = fetch)]
    fn global_fetch(url: &str, init: &RequestInit) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Promise, js_name = resolve)]
    fn promise_resolve(value: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_name = encodeURIComponent)]
    fn encode_uri_component(value: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn is_array(value: &JsValue) -> Result<bool, JsValue>;

    /// What `fetch` resolved with: a `Response`, read by its members (any object a replaced
    /// `fetch` answers with is read the same way, as the JS fetchers did).
    type Answer;
    #[wasm_bindgen(method, catch, getter)]
    fn status(this: &Answer) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, catch, getter)]
    fn ok(this: &Answer) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, catch)]
    fn json(this: &Answer) -> Result<JsValue, JsValue>;
}

#[wasm_bindgen(module = "/src/wasm/fetchers.js")]
extern "C" {
    /// Hands `fetchers.js` the function that makes a fetcher's fetchChunk.
    #[wasm_bindgen(js_name = useFetchers)]
    fn use_fetchers(make: &JsValue);
    /// The `SOURCE_FAILED` of a REST answer (`fetchers.js`: message, details, cause, the
    /// answer's `Retry-After`).
    #[wasm_bindgen(catch)]
    fn failed(
        url: &str,
        status: &JsValue,
        body: &JsValue,
        cause: &JsValue,
        why: &str,
    ) -> Result<JsValue, JsValue>;
}

#[wasm_bindgen(module = "/src/wasm/inputs.js")]
extern "C" {
    /// A network error's text: its message and its own cause's (`inputs.js`).
    #[wasm_bindgen(catch, js_name = causeText)]
    fn cause_text(cause: &JsValue) -> Result<JsValue, JsValue>;
}

/// Once the module is instantiated (on `require`/import, or in the web build's `init()`): hands
/// `fetchers.js` [`make_fetcher`].
#[wasm_bindgen(start, private)]
fn start() {
    type Make = dyn Fn(u32, String, js_sys::Array, String, String, String) -> JsValue;
    let make: Closure<Make> = Closure::new(make_fetcher);
    use_fetchers(&make.into_js_value());
}

/// Kubeapps' `FilterOptions` fields (packages.proto), in its order, as grpc-gateway reads them
/// from a query (`filterOptions.<field>`, a repeated field once per value).
const FILTER_FIELDS: [&str; 5] = [
    "query",
    "categories",
    "repositories",
    "pkgVersion",
    "appVersion",
];

/// Where a fetcher sends its requests, from its options as `fetchers.js` read them.
enum Target {
    /// `{base}/plugins/{plugin}/packages/v1alpha1/{list}packages?…` (kubeapps-apis REST gateway).
    Kubeapps {
        base: String,
        cluster: String,
        namespace: String,
        list: String,
    },
    /// A Kubernetes list URL, with `limit` and `continue` added.
    List { url: String },
}

struct Fetcher {
    target: Target,
    /// `[name, value]` pairs, sorted by name, each accepted by `new Headers()` when the fetcher
    /// was made.
    headers: Vec<(String, String)>,
}

/// A fetchChunk for `kind` 0 (`kubeappsFetcher`: `url` is the base URL without trailing slashes,
/// `list` "available" or "installed") or 1 (`kubernetesListFetcher`), with `headers` as
/// `[[name, value], …]`: a JS function `(request, init) => Promise` that throws synchronously
/// only for a string `encodeURIComponent` refuses (a lone surrogate in the request).
fn make_fetcher(
    kind: u32,
    url: String,
    headers: js_sys::Array,
    cluster: String,
    namespace: String,
    list: String,
) -> JsValue {
    let headers = headers
        .iter()
        .map(|pair| {
            let pair: js_sys::Array = pair.unchecked_into();
            let text = |i| pair.get(i).as_string().unwrap_or_default();
            (text(0), text(1))
        })
        .collect();
    let target = if kind == 0 {
        Target::Kubeapps {
            base: url,
            cluster,
            namespace,
            list,
        }
    } else {
        Target::List { url }
    };
    let fetcher = Rc::new(Fetcher { target, headers });
    let chunk: Closure<dyn Fn(JsValue, JsValue) -> Result<Promise, JsValue>> =
        Closure::new(move |request: JsValue, init: JsValue| {
            let url = fetcher.url(&request)?;
            let signal = field(&init, "signal");
            let fetcher = fetcher.clone();
            Ok(future_to_promise(async move {
                fetcher.get_json(url, signal).await
            }))
        });
    chunk.into_js_value()
}

/// `obj[key]` for an object or function, else (or when reading it throws) `undefined`.
fn field(obj: &JsValue, key: &str) -> JsValue {
    if !obj.is_object() && !obj.is_function() {
        return JsValue::UNDEFINED;
    }
    Reflect::get(obj, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// The string at `path` inside `obj` (every step an object), else `""`; as JS holds it (a lone
/// surrogate kept, for `encodeURIComponent` to refuse as it always did).
fn string_at(obj: &JsValue, path: &[&str]) -> JsValue {
    let mut v = obj.clone();
    for key in path {
        if !v.is_object() {
            return JsValue::from_str("");
        }
        v = field(&v, key);
    }
    if v.is_string() {
        v
    } else {
        JsValue::from_str("")
    }
}

/// `encodeURIComponent(value)`: ASCII, or its `URIError` (a lone surrogate).
fn enc(value: &JsValue) -> Result<String, JsValue> {
    Ok(encode_uri_component(value)?.as_string().unwrap_or_default())
}

/// A request's `limit` as a whole number (0 when it is not a number).
fn limit_of(request: &JsValue) -> u32 {
    match field(request, "limit").as_f64() {
        Some(n) if n.is_finite() && n >= 0.0 => n.min(4294967295.0) as u32,
        _ => 0,
    }
}

impl Fetcher {
    /// The URL of `request`'s chunk. Throws only `encodeURIComponent`'s `URIError`.
    fn url(&self, request: &JsValue) -> Result<String, JsValue> {
        let limit = limit_of(request);
        let token = enc(&string_at(request, &["pageToken"]))?;
        match &self.target {
            Target::List { url } => {
                let sep = if url.contains('?') { '&' } else { '?' };
                let mut out = format!("{url}{sep}limit={limit}");
                if !token.is_empty() {
                    out.push_str("&continue=");
                    out.push_str(&token);
                }
                Ok(out)
            }
            Target::Kubeapps {
                base,
                cluster,
                namespace,
                list,
            } => {
                // Encoded, a name ends with ".packages" exactly when it did before (escapes are
                // `%` and upper-case hex digits).
                let plugin = enc(&string_at(request, &["source", "plugin"]))?;
                let path = plugin.strip_suffix(".packages").unwrap_or(&plugin);
                let or = |read: String, given: &str| -> Result<String, JsValue> {
                    if read.is_empty() {
                        enc(&JsValue::from_str(given))
                    } else {
                        Ok(read)
                    }
                };
                let c = or(enc(&string_at(request, &["source", "cluster"]))?, cluster)?;
                let ns = or(
                    enc(&string_at(request, &["source", "namespace"]))?,
                    namespace,
                )?;
                let mut out = format!(
                    "{base}/plugins/{path}/packages/v1alpha1/{list}packages\
                     ?context.cluster={c}&context.namespace={ns}&paginationOptions.pageSize={limit}"
                );
                if !token.is_empty() {
                    out.push_str("&paginationOptions.pageToken=");
                    out.push_str(&token);
                }
                // The filter, for a source that filters (a request's `filterOptions`).
                let filter = field(request, "filterOptions");
                if filter.is_object() {
                    for name in FILTER_FIELDS {
                        let v = field(&filter, name);
                        let values = if is_array(&v).unwrap_or(false) {
                            let n = field(&v, "length").as_f64().unwrap_or(0.0);
                            (0..n.clamp(0.0, 4294967295.0) as u32)
                                .map(|i| Reflect::get_u32(&v, i).unwrap_or(JsValue::UNDEFINED))
                                .collect()
                        } else {
                            vec![v]
                        };
                        for s in values.iter().filter(|s| s.is_string()) {
                            let s = enc(s)?;
                            if !s.is_empty() {
                                out.push_str(&format!("&filterOptions.{name}={s}"));
                            }
                        }
                    }
                }
                Ok(out)
            }
        }
    }

    /// GETs `url` (with `signal` when it is an object) and resolves with its JSON body, or
    /// rejects with `SOURCE_FAILED`; an `AbortError` as it is (nextPage reports `ABORTED`).
    async fn get_json(&self, url: String, signal: JsValue) -> Result<JsValue, JsValue> {
        let no_answer = |e: JsValue| -> JsValue {
            if string_at(&e, &["name"]).as_string().as_deref() == Some("AbortError") {
                return e;
            }
            let why = cause_text(&e)
                .ok()
                .and_then(|t| t.as_string())
                .unwrap_or_default();
            failed(&url, &JsValue::from(0), &JsValue::UNDEFINED, &e, &why).unwrap_or(e)
        };
        let headers = Headers::new().map_err(no_answer)?;
        headers
            .append("Accept", "application/json")
            .map_err(no_answer)?;
        for (name, value) in &self.headers {
            headers.append(name, value).map_err(no_answer)?;
        }
        let init = RequestInit::new();
        init.set_method("GET");
        init.set_headers(&headers);
        if signal.is_object() {
            // Any object, as the JS fetchers passed it: `fetch` itself refuses one that is no
            // AbortSignal (a network-like failure, status 0).
            init.set_signal(Some(signal.unchecked_ref::<AbortSignal>()));
        }
        let answer = global_fetch(&url, &init).map_err(no_answer)?;
        let answer = promise_resolve(&answer).map_err(no_answer)?;
        let answer: Answer = JsFuture::from(answer)
            .await
            .map_err(no_answer)?
            .unchecked_into();
        let status = answer.status()?;
        let body = match answer.json().and_then(|p| promise_resolve(&p)) {
            Ok(p) => JsFuture::from(p).await.unwrap_or(JsValue::UNDEFINED),
            Err(_) => JsValue::UNDEFINED,
        };
        let ok = answer.ok()?.is_truthy();
        let response: &JsValue = answer.as_ref();
        Err(match (ok, body.is_object()) {
            (true, true) => return Ok(body),
            (true, false) => failed(
                &url,
                &status,
                &JsValue::UNDEFINED,
                response,
                "the body is not a JSON object",
            )?,
            (false, _) => failed(&url, &status, &body, response, "")?,
        })
    }
}
