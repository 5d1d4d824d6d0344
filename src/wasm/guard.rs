//! The guard around wasm-bindgen's `Pager` class (`guard.js`), installed once per module.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/wasm/guard.js")]
extern "C" {
    #[wasm_bindgen(js_name = guardPager)]
    fn guard_pager(probe: JsValue);
}

/// Once per module, with the first pager made: wraps the JS class's methods so that a freed
/// `Pager` throws `PAGER_FREED` (not wasm-bindgen's plain "null pointer passed to rust"), `free()`
/// may be called twice, and a `nextPage` running when its pager is freed rejects at once
/// (`guardPager` in guard.js, given `probe`, a JS `Pager` handle of the first pager, to find the
/// class by; it frees it). `probe` is made only on the first call.
pub(crate) fn guard(probe: impl FnOnce() -> JsValue) {
    use core::sync::atomic::{AtomicBool, Ordering};
    static GUARDED: AtomicBool = AtomicBool::new(false);
    if !GUARDED.swap(true, Ordering::Relaxed) {
        guard_pager(probe());
    }
}
