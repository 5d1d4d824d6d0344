//! The wasm boundary (to be written).
