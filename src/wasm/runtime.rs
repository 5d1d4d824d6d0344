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
static ALLOCATOR: talc::Talck<talc::locking::AssumeUnlockable, Grow> = talc::Talc::new(Grow {
    heap: talc::Span::empty(),
})
.lock();

/// talc's `WasmHandler` (4.4), with a trap where it unwraps `claim`'s `Result<_, ()>` (an
/// `unwrap` keeps `()`'s `Debug` and `core::fmt`'s padding code alive; size). Grows `memory` by
/// what the allocation needs (halving the request while the grow fails) and hands the new pages
/// to talc: as an extension of the previous heap when they follow it, else as a new heap.
struct Grow {
    heap: talc::Span,
}

// SAFETY: the wasm runs on one thread.
unsafe impl Send for Grow {}

impl talc::OomHandler for Grow {
    fn handle_oom(talc: &mut talc::Talc<Self>, layout: core::alloc::Layout) -> Result<(), ()> {
        const PAGE_SIZE: usize = 1024 * 64;
        let required = (layout.size() + 8).max(layout.align() * 2);
        let mut delta_pages = required.div_ceil(PAGE_SIZE);
        let prev = loop {
            if delta_pages == 0 {
                return Err(());
            }
            let result = core::arch::wasm32::memory_grow::<0>(delta_pages);
            if result != usize::MAX {
                break result;
            }
            delta_pages >>= 1;
        };
        let prev_acme = (prev * PAGE_SIZE) as *mut u8;
        let new_acme = prev_acme.wrapping_add(delta_pages * PAGE_SIZE);
        let heap = talc.oom_handler.heap;
        talc.oom_handler.heap = match heap.get_base_acme() {
            // SAFETY: the pages after `heap` were just grown, and are this allocator's alone.
            Some((base, acme)) if acme == prev_acme => unsafe {
                talc.extend(heap, talc::Span::new(base, new_acme))
            },
            // SAFETY: as above; at least one page, enough for talc's metadata, so `claim`
            // cannot fail.
            _ => match unsafe { talc.claim(talc::Span::new(prev_acme, new_acme)) } {
                Ok(span) => span,
                Err(()) => core::arch::wasm32::unreachable(),
            },
        };
        Ok(())
    }
}
