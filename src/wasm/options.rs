//! Pager options from JS: the serde shapes of `PagerOptions` in the `.d.ts`, turned into core options.

use serde::Deserialize;

use crate::error::{PagerError, Result};
use crate::filter::FilterOptions;
use crate::item::SourceId;
use crate::options::{PagerOptions, SourceKind, SourceOrder, SourceSpec};
use crate::order::SortOrder;

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
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
pub(crate) enum JsKind {
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
}

/// Core options from the JS value's deserialized form; `INVALID_OPTIONS` names what did not fit.
pub(crate) fn options_from_js(value: wasm_bindgen::JsValue) -> Result<PagerOptions> {
    let js: JsOptions =
        super::convert::from_js(value).map_err(|m| PagerError::options("options", m))?;
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
        })
        .collect();
    let mut options = PagerOptions::new(sources);
    if let Some(n) = js.page_size {
        options.page_size = n;
    }
    if let Some(n) = js.chunk_limit {
        options.chunk_limit = n;
    }
    if let Some(sort) = js.sort {
        options.sort = match sort {
            JsSort::Name => SortOrder::Name,
            JsSort::DisplayName => SortOrder::DisplayName,
        };
    }
    let f = js.filter.unwrap_or_default();
    options.filter = FilterOptions {
        query: f.query,
        categories: f.categories,
        repositories: f.repositories,
        plugins: f.plugins,
    };
    if let Some(n) = js.max_source_items {
        options.max_source_items = n;
    }
    if let Some(n) = js.max_chunks_without_progress {
        options.max_chunks_without_progress = n;
    }
    options.validate()?;
    Ok(options)
}
