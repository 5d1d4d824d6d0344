//! The wasm boundary: the only code that knows `JsValue`. It converts between JS values and the
//! core's types and maps [`PagerError`](crate::PagerError) to the JS `PagerError` class; nothing else.
//!
//! - `codec`: token functions (`encodePageToken`, `inspectToken`, ...)
//! - `pager` + `driver`: the `Pager` class and its async `nextPage` (whose loop is `driver.js`)
//! - `fetchers`: `kubeappsFetcher`, `kubernetesListFetcher` (their requests are `driver.js`)
//! - `options`, `convert`, `errors`: the conversions (JSON text, read and written by
//!   [`crate::view`]); `chunk.js`, `json.js`, `errors.js`, `driver.js`: the JS halves
//! - `runtime`: the shipped build's panic handler and allocator (feature `std` off)
//! - `types.d.ts`: the TypeScript declarations of every shape above
//!
//! What runs where is chosen for the shipped size (BENCHMARKS.md, "Size"): awaiting promises,
//! fetching and lowercasing are JS's; the pager, the codecs and every check are Rust's.

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
