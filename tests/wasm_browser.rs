//! The boundary's JS-visible behaviour, in headless Chromium (wasm-bindgen-test). Same tests as `wasm_node.rs`.
#![cfg(target_arch = "wasm32")]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod wasm_common;
