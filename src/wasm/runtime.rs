//! What std gives a wasm module and the shipped build (feature `std` off) brings itself: the
//! panic handler and the global allocator.
//!
//! The crate never panics on any input (its rule); a panic would be a bug. With std, a panic
//! still formats its message (and its source location) for a stderr the wasm does not have, so
//! every panic site keeps that text and the formatting code alive. Here a panic is a plain wasm
//! trap (`unreachable`), as `panic = "abort"` makes it in the end anyway: the JS caller sees a
//! `RuntimeError`, the same as before, without the message.

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}

/// talc (a maintained, general-purpose allocator with a wasm mode that grows `memory` as needed):
/// about half the wasm of dlmalloc, which std uses. The wasm runs on one thread, so no locking.
#[global_allocator]
// SAFETY: `new_global` is meant for exactly this: the one global allocator of a wasm module.
static ALLOCATOR: talc::TalckWasm = unsafe { talc::TalckWasm::new_global() };
