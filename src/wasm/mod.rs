//! The wasm boundary: the only code that knows `JsValue`. It converts between JS values and the
//! core's types and maps [`PagerError`](crate::PagerError) to the JS `PagerError` class; nothing else.
//!
//! Its pure conversions, [`view`] (the serde views handed out, the codec's inputs read by their
//! serde shapes, the pager's inputs unpacked in the order it hands `inputs.js`, a chunk's key
//! fields), compile on every target and are tested natively by `cargo test`; every module that
//! names a wasm-bindgen type compiles for wasm32 only. The core (every module outside `src/wasm/`) names none.
//!
//! - `codec`: token functions (`encodePageToken`, `inspectToken`, ...)
//! - `pager` + `driver`: the `Pager` class and its async `nextPage` (whose loop is `driver.js`,
//!   acting on the outcomes of `feed` and `fail`; `guard.js` guards the class)
//! - `kubeappsFetcher`, `kubernetesListFetcher` (`fetchers.js`), `connectFetcher` (`connect.js`):
//!   exported by those files themselves, `PageWindow`, `readPageToken`, `writePageToken` by
//!   `window.js` (the entry points re-export them; declared in `types-pager.d.ts`), no wasm
//!   export; the two REST fetchers' requests are `fetch`'s (web-sys `fetch`, handed to
//!   `fetchers.js` when the module starts); `kubeappsFilterOptions` is a wasm export (the core's
//!   `FilterOptions::for_source`)
//! - `options`, `convert`, `errors`: the conversions (the pager's inputs read by `inputs.js` and
//!   unpacked by [`view`]; JSON text written by it); `chunk.js`, `json.js`, `codec.js`,
//!   `errors.js`, `inputs.js`, `guard.js`, `driver.js`, `fetchers.js`, `connect.js`: the JS halves
//! - `types.d.ts` (shared: `PagerError`, its codes), `types-pager.d.ts`, `types-codec.d.ts`: the
//!   TypeScript declarations of every shape above
//!
//! Two wasm modules come from this boundary (features, see `Cargo.toml`): `pager` (the `Pager`
//! class, the fetchers, `wasmMemoryBytes`) and `codec` (the token functions, for tools such as the
//! token inspector). The npm package ships each alone (`kubeapps-pager`, `kubeapps-pager/codec`),
//! so a dashboard that pages lists does not download the codecs; the test builds have both.
//!
//! What runs where (docs/DESIGN.md, "What runs in JS, and why"): `nextPage`'s await loop,
//! `connectFetcher` and reading the pager's inputs are JS's; the REST fetchers' requests, the
//! pager, the codecs and every semantic check are Rust's.

// A module built with one of the two features leaves some shared helpers unused.
#![cfg_attr(not(all(feature = "pager", feature = "codec")), allow(dead_code))]

#[cfg(all(target_arch = "wasm32", feature = "codec"))]
pub mod codec;
#[cfg(target_arch = "wasm32")]
mod convert;
#[cfg(all(target_arch = "wasm32", feature = "pager"))]
mod driver;
#[cfg(target_arch = "wasm32")]
mod errors;
#[cfg(all(target_arch = "wasm32", feature = "pager"))]
mod fetch;
#[cfg(all(target_arch = "wasm32", feature = "pager"))]
mod guard;
#[cfg(all(target_arch = "wasm32", feature = "pager"))]
pub mod memory;
#[cfg(all(target_arch = "wasm32", feature = "pager"))]
mod options;
#[cfg(all(target_arch = "wasm32", feature = "pager"))]
pub mod pager;
#[cfg(all(target_arch = "wasm32", feature = "pager"))]
mod predicate;
pub mod view;

// Each module's .d.ts declares what it exports: the shared part, then each feature's own.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const TYPES: &str = include_str!("types.d.ts");
#[cfg(all(target_arch = "wasm32", feature = "pager"))]
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const TYPES_PAGER: &str = include_str!("types-pager.d.ts");
#[cfg(all(target_arch = "wasm32", feature = "codec"))]
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const TYPES_CODEC: &str = include_str!("types-codec.d.ts");
