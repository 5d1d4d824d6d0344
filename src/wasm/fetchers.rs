//! Built-in `fetchChunk` functions over the global `fetch` (browsers, workers, Node ≥ 18): the
//! options are read here, the requests are made by `driver.js`.
//!
//! - `kubeappsFetcher`: the kubeapps-apis REST gateway,
//!   `GET {baseUrl}/plugins/{plugin}/packages/v1alpha1/availablepackages` (plugin `helm.packages` → `helm`).
//! - `kubernetesListFetcher`: a plain Kubernetes list endpoint with `limit` and `continue`.
//!
//! A non-2xx answer rejects with a `PagerError` `SOURCE_FAILED` whose `details` carry `status`, and
//! for a Kubernetes `Status` body its `reason` and `metadata.continue` (`continue`), which is what
//! `Pager.fail` and `nextPage` read to recover from 410 Expired.

use crate::prelude::*;
use wasm_bindgen::prelude::*;

use super::convert::{json_text, write_js};
use super::errors::{error_maker, to_js, JsResult};
use crate::error::PagerError;
use crate::view::{self, FetcherOptions};

// Both throw `INVALID_OPTIONS` for a header that `new Headers()` refuses.
#[wasm_bindgen(module = "/src/wasm/driver.js")]
extern "C" {
    // Not named `kubeappsFetcher` in driver.js: the glue would then rename this crate's own export.
    #[wasm_bindgen(catch, js_name = kubeappsRequests)]
    fn kubeapps_fetcher_js(
        base: &str,
        cluster: &str,
        namespace: &str,
        headers: JsValue,
        make_error: JsValue,
    ) -> JsResult<JsValue>;
    #[wasm_bindgen(catch, js_name = listFetcher)]
    fn list_fetcher_js(url: &str, headers: JsValue, make_error: JsValue) -> JsResult<JsValue>;
}

/// The fetcher options, read with `read`, or `INVALID_OPTIONS`.
fn fetcher_options(
    options: &JsValue,
    read: fn(&str) -> crate::Result<FetcherOptions>,
) -> JsResult<FetcherOptions> {
    let text = json_text(options).map_err(|m| to_js(&PagerError::options("options", m)))?;
    read(&text).map_err(|e| to_js(&e))
}

/// `[[name, value], ...]` for the JS fetchers.
fn headers_to_js(headers: &[(String, String)]) -> JsValue {
    write_js(|w| {
        w.begin_array();
        for (name, value) in headers {
            w.begin_array();
            w.string(name);
            w.string(value);
            w.end_array();
        }
        w.end_array();
    })
}

/// A `fetchChunk` for the kubeapps-apis REST gateway. `options`: `{ baseUrl, context?, headers? }`;
/// each request's source gives the plugin, cluster and namespace (`context` fills empty ones).
/// Throws `INVALID_OPTIONS`.
#[wasm_bindgen(js_name = kubeappsFetcher, unchecked_return_type = "FetchChunk")]
pub fn kubeapps_fetcher(
    #[wasm_bindgen(unchecked_param_type = "KubeappsFetcherOptions")] options: JsValue,
) -> JsResult<JsValue> {
    let o = fetcher_options(&options, view::read_kubeapps_fetcher_options)?;
    let base = o.url.trim_end_matches('/');
    kubeapps_fetcher_js(
        base,
        &o.cluster,
        &o.namespace,
        headers_to_js(&o.headers),
        error_maker(),
    )
}

/// A `fetchChunk` for a plain Kubernetes list endpoint. `options`: `{ url, headers? }`; each request
/// adds `limit` and, when it has one, `continue`. Throws `INVALID_OPTIONS`.
#[wasm_bindgen(js_name = kubernetesListFetcher, unchecked_return_type = "FetchChunk")]
pub fn kubernetes_list_fetcher(
    #[wasm_bindgen(unchecked_param_type = "KubernetesListFetcherOptions")] options: JsValue,
) -> JsResult<JsValue> {
    let o = fetcher_options(&options, view::read_list_fetcher_options)?;
    list_fetcher_js(&o.url, headers_to_js(&o.headers), error_maker())
}
