//! The wasm boundary: the only code that knows `JsValue`. It converts between JS values and the
//! core's types and maps [`PagerError`](crate::PagerError) to the JS `PagerError` class; nothing else.
//!
//! - `codec`: token functions (`encodePageToken`, `inspectToken`, ...)
//! - `pager` + `driver`: the `Pager` class and its async `nextPage`
//! - `fetchers`: `kubeappsFetcher`, `kubernetesListFetcher`
//! - `options`, `convert`, `errors`: the conversions; `chunk.js`, `errors.js`: the JS halves
//! - `types.d.ts`: the TypeScript declarations of every shape above

pub mod codec;
mod convert;
mod driver;
mod errors;
pub mod fetchers;
pub mod memory;
mod options;
pub mod pager;
#[cfg(not(feature = "std"))]
mod runtime;

#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const TYPES: &str = include_str!("types.d.ts");
