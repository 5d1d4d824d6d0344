//! `wasmMemoryBytes()`: the size of the module's linear memory, for memory tests and benchmarks.

use wasm_bindgen::prelude::*;

/// Bytes of WebAssembly linear memory the module holds now (it grows, never shrinks).
#[wasm_bindgen(js_name = wasmMemoryBytes)]
pub fn wasm_memory_bytes() -> f64 {
    (core::arch::wasm32::memory_size(0) as f64) * 65536.0
}
