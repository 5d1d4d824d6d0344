//! The boundary's JS-visible behaviour, in Node (wasm-bindgen-test). Same tests as `wasm_browser.rs`.
#![cfg(target_arch = "wasm32")]

mod wasm_common;
