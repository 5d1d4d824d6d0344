//! (token codec: to be written)
