//! Built-in `fetchChunk` functions over the global `fetch` (browsers, workers, Node ≥ 18): the
//! options are read and the requests made by `driver.js`.
//!
//! - `kubeappsFetcher`: the kubeapps-apis REST gateway,
//!   `GET {baseUrl}/plugins/{plugin}/packages/v1alpha1/availablepackages` (plugin `helm.packages` → `helm`).
//! - `kubernetesListFetcher`: a plain Kubernetes list endpoint with `limit` and `continue`.
//!
//! A non-2xx answer rejects with a `PagerError` `SOURCE_FAILED` whose `details` carry `status`, and
//! for a Kubernetes `Status` body its `reason` and `metadata.continue` (`continue`), which is what
//! `Pager.fail` and `nextPage` read to recover from 410 Expired.

use wasm_bindgen::prelude::*;

use super::errors::{error_maker, JsResult};

// Each reads its options (throwing `INVALID_OPTIONS`, also for a header that `new Headers()`
// refuses) and returns the fetchChunk function.
#[wasm_bindgen(module = "/src/wasm/driver.js")]
extern "C" {
    // Not named `kubeappsFetcher` in driver.js: the glue would then rename this crate's own export.
    #[wasm_bindgen(catch, js_name = kubeappsRequests)]
    fn kubeapps_fetcher_js(options: &JsValue, make_error: JsValue) -> JsResult<JsValue>;
    #[wasm_bindgen(catch, js_name = listFetcher)]
    fn list_fetcher_js(options: &JsValue, make_error: JsValue) -> JsResult<JsValue>;
}

/// A `fetchChunk` for the kubeapps-apis REST gateway. `options`: `{ baseUrl, context?, headers? }`;
/// each request's source gives the plugin, cluster and namespace (`context` fills empty ones).
/// Throws `INVALID_OPTIONS`.
#[wasm_bindgen(js_name = kubeappsFetcher, unchecked_return_type = "FetchChunk")]
pub fn kubeapps_fetcher(
    #[wasm_bindgen(unchecked_param_type = "KubeappsFetcherOptions")] options: JsValue,
) -> JsResult<JsValue> {
    kubeapps_fetcher_js(&options, error_maker())
}

/// A `fetchChunk` for a plain Kubernetes list endpoint. `options`: `{ url, headers? }`; each request
/// adds `limit` and, when it has one, `continue`. Throws `INVALID_OPTIONS`.
#[wasm_bindgen(js_name = kubernetesListFetcher, unchecked_return_type = "FetchChunk")]
pub fn kubernetes_list_fetcher(
    #[wasm_bindgen(unchecked_param_type = "KubernetesListFetcherOptions")] options: JsValue,
) -> JsResult<JsValue> {
    list_fetcher_js(&options, error_maker())
}
